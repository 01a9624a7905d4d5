// md's level, raid_disks, chunk_size and layout as a recorded tree holds
// them, read by the device model: input lines 1-4 become those four files
// of md0 (md-raid10-f2), then the whole tree is scanned and put to JSON.
#include "fuzzcheck.h"
#include "fuzztree.h"

#include "devices/devices.h"

#include <QFile>

#include <cstdint>

using namespace blocktune;

namespace {

void put(const QString &file, const QByteArray &data)
{
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size())
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString &root = fuzz::treeCopy("md-raid10-f2");
    const QList<QByteArray> parts = QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)).split('\n');
    static const char *const files[] = {"level", "raid_disks", "chunk_size", "layout"};
    const QString md = root + QStringLiteral("/sys/devices/virtual/block/md0/md/");
    for (int i = 0; i < 4; ++i)
        put(md + QLatin1StringView(files[i]), i < parts.size() ? parts[i] + '\n' : QByteArray());

    ScanOptions options;
    options.probeFilesystems = false;
    const auto model = DeviceModel::scan(SysRoot(root), options);
    FUZZ_CHECK(model.ok()); // garbage in md/ must not make the tree unreadable
    const BlockDevice *array = model->find(QStringLiteral("md0"));
    FUZZ_CHECK(array && array->md);
    const MdInfo &info = *array->md;
    // The floor is what the kernel raises readahead to: 2 x stripe, and
    // only levels that stripe have one.
    FUZZ_CHECK(info.stripeKiB.has_value() == info.readaheadFloorKiB.has_value());
    if (info.stripeKiB) {
        FUZZ_CHECK(*info.readaheadFloorKiB == 2 * *info.stripeKiB);
        FUZZ_CHECK(info.level == u"raid0" || info.level == u"raid10" || info.level == u"raid4"
                   || info.level == u"raid5" || info.level == u"raid6");
    }
    modelToJson(*model);
    return 0;
}
