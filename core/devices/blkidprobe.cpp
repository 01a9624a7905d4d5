// Filesystem type, label and uuid from libblkid: the live machine only, by
// opening the device node read-only.
#include "devicescan_p.h"

#include <blkid/blkid.h>

namespace blocktune::detail {

std::optional<FsFacts> probeFilesystem(const QByteArray &devNode)
{
    blkid_probe probe = blkid_new_probe_from_filename(devNode.constData());
    if (!probe)
        return std::nullopt;
    blkid_probe_enable_superblocks(probe, 1);
    blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID | BLKID_SUBLKS_TYPE);
    FsFacts facts;
    if (blkid_do_safeprobe(probe) == 0) {
        const char *value = nullptr;
        if (blkid_probe_lookup_value(probe, "TYPE", &value, nullptr) == 0)
            facts.type = QString::fromUtf8(value);
        if (blkid_probe_lookup_value(probe, "LABEL", &value, nullptr) == 0)
            facts.label = QString::fromUtf8(value);
        if (blkid_probe_lookup_value(probe, "UUID", &value, nullptr) == 0)
            facts.uuid = QString::fromUtf8(value);
    }
    blkid_free_probe(probe);
    return facts;
}

} // namespace blocktune::detail
