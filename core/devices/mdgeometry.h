#pragma once

#include <QString>

#include <optional>

namespace blocktune {

/// raid10 md/layout bits: near = layout & 0xff, far = (layout >> 8) & 0xff,
/// bit 16 = offset (drivers/md/raid10.c setup_geo()).
struct Raid10Layout
{
    int near = 1;
    int far = 1;
    bool offset = false;
};

Raid10Layout decodeRaid10Layout(quint32 layout);
/// mdadm's name: "n2", "f2", "o2", or "n2f2" for combined layouts.
QString raid10LayoutName(quint32 layout);
/// raid5/6 algorithm names as mdadm prints them (left-symmetric...).
QString raid5LayoutName(quint32 layout);

/// Data width of one stripe in KiB, as the kernel sets io_opt; nullopt
/// where the level has none (raid1, linear) or the inputs are missing.
std::optional<quint64> mdStripeKiB(const QString &level, std::optional<int> raidDisks,
                                   std::optional<quint64> chunkBytes,
                                   std::optional<quint32> layout);

} // namespace blocktune
