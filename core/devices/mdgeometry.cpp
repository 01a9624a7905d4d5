#include "mdgeometry.h"

namespace blocktune {

Raid10Layout decodeRaid10Layout(quint32 layout)
{
    Raid10Layout decoded;
    decoded.near = int(layout & 0xff);
    decoded.far = int((layout >> 8) & 0xff);
    decoded.offset = (layout & 0x10000) != 0;
    return decoded;
}

QString raid10LayoutName(quint32 layout)
{
    const Raid10Layout geo = decodeRaid10Layout(layout);
    QString name;
    if (geo.near > 1)
        name += u'n' + QString::number(geo.near);
    if (geo.far > 1)
        name += (geo.offset ? u'o' : u'f') + QString::number(geo.far);
    if (name.isEmpty())
        name = QStringLiteral("n1");
    return name;
}

QString raid5LayoutName(quint32 layout)
{
    // drivers/md/raid5.h ALGORITHM_* numbering; mdadm uses these names.
    switch (layout) {
    case 0: return QStringLiteral("left-asymmetric");
    case 1: return QStringLiteral("right-asymmetric");
    case 2: return QStringLiteral("left-symmetric");
    case 3: return QStringLiteral("right-symmetric");
    case 4: return QStringLiteral("parity-first");
    case 5: return QStringLiteral("parity-last");
    default: return QString::number(layout);
    }
}

std::optional<quint64> mdStripeKiB(const QString &level, std::optional<int> raidDisks,
                                   std::optional<quint64> chunkBytes,
                                   std::optional<quint32> layout)
{
    if (!raidDisks || !chunkBytes || *raidDisks <= 0 || *chunkBytes == 0)
        return std::nullopt;
    const quint64 chunkKiB = *chunkBytes / 1024;
    const quint64 n = quint64(*raidDisks);
    if (level == u"raid0")
        return chunkKiB * n;
    if (level == u"raid10") {
        // Only near copies divide the width; far and offset copies repeat
        // whole stripes further along each disk (raid10_set_io_opt()).
        const int near = layout ? decodeRaid10Layout(*layout).near : 1;
        return chunkKiB * n / quint64(near > 0 ? near : 1);
    }
    if ((level == u"raid4" || level == u"raid5") && n > 1)
        return chunkKiB * (n - 1);
    if (level == u"raid6" && n > 2)
        return chunkKiB * (n - 2);
    return std::nullopt;
}

} // namespace blocktune
