// The readahead probe's counters (core/readahead) in the Prometheus text
// format: what `blocktune-cli readahead --collect` writes for node_exporter.
#include "metrics.h"

#include "common/counts.h"
#include "devices/devicemodel.h"

#include <algorithm>

namespace blocktune {

QHash<quint64, QString> readaheadDeviceLabels(const DeviceModel &model)
{
    QHash<quint64, QString> labels;
    for (const BlockDevice &bd : model.devices())
        if (bd.hasDeviceNumber())
            labels.insert(deviceNumber(quint32(bd.major), quint32(bd.minor)), bd.name);
    return labels;
}

QByteArray readaheadMetricsText(const ReadaheadSnapshot &snapshot, const QHash<quint64, QString> &labels)
{
    using Type = Exposition::Type;
    const QString windows = QStringLiteral("blocktune_readahead_windows_total");
    const QString atCap = QStringLiteral("blocktune_readahead_windows_at_cap_total");
    const QString sized = QStringLiteral("blocktune_readahead_sized_windows_total");
    const QString windowBytes = QStringLiteral("blocktune_readahead_window_bytes_total");
    const QString pages = QStringLiteral("blocktune_readahead_pages_total");
    const QString interleaved = QStringLiteral("blocktune_readahead_interleaved_restarts_total");
    const QString dropped = QStringLiteral("blocktune_readahead_dropped_events_total");
    Exposition e;
    e.family(windows,
             QStringLiteral("Readahead windows the kernel started for reads this device's read_ahead_kb governs, by "
                            "who started them (sync: a miss, async: the marker of a recognised stream, mmap: a page "
                            "fault, forced: fadvise WILLNEED or readahead(2))."),
             Type::Counter);
    e.family(atCap, QStringLiteral("Readahead windows whose size reached the device's read_ahead_kb (readahead was the limit)."),
             Type::Counter);
    e.family(sized, QStringLiteral("Readahead windows whose size the probe saw (blocktune_readahead_window_bytes_total "
                                   "divided by this is the mean window)."),
             Type::Counter);
    e.family(windowBytes, QStringLiteral("Sizes of the readahead windows whose size was seen, added up, in bytes."),
             Type::Counter);
    e.family(pages,
             QStringLiteral("Pages read ahead (outcome read_ahead) and of them: used (read or mapped before leaving the "
                            "page cache), wasted (left the page cache unused), untracked (not followed: the probe's "
                            "table was full)."),
             Type::Counter);
    e.family(interleaved,
             QStringLiteral("Sync readahead windows of a file or device other tasks read nearby just before, through "
                            "other descriptors (interleaved readers restarting each other's stream)."),
             Type::Counter);
    e.family(dropped, QStringLiteral("Readahead events the probe could not count because one of its tables was full."),
             Type::Counter);

    // By label, so the file reads the same from one write to the next.
    QList<QPair<QString, quint64>> devices;
    for (auto it = snapshot.devices.cbegin(); it != snapshot.devices.cend(); ++it)
        devices.append({labels.value(it.key(), deviceNumberText(it.key())), it.key()});
    std::sort(devices.begin(), devices.end());
    const double pageBytes = double(readaheadPageKiB() * 1024);
    for (const auto &[label, number] : std::as_const(devices)) {
        const DeviceReadaheadCounters &d = snapshot.devices[number];
        const Exposition::Labels device{{QStringLiteral("device"), label}};
        ReadaheadKindCounters all;
        for (const ReadaheadKind kind : kAllReadaheadKinds) {
            const ReadaheadKindCounters &k = d.of(kind);
            addReadaheadCounters(all, k);
            const Exposition::Labels byKind = device + Exposition::Labels{{QStringLiteral("kind"), readaheadKindName(kind)}};
            quint64 sizedWindows = 0;
            double bytes = 0;
            for (auto s = k.sizes.cbegin(); s != k.sizes.cend(); ++s) {
                sizedWindows += s.value();
                bytes += double(s.key()) * double(s.value()) * pageBytes;
            }
            e.sample(windows, byKind, double(k.windows));
            e.sample(atCap, byKind, double(k.atCap));
            e.sample(sized, byKind, double(sizedWindows));
            e.sample(windowBytes, byKind, bytes);
        }
        const auto outcome = [&device](const char *name) {
            return device + Exposition::Labels{{QStringLiteral("outcome"), QString::fromLatin1(name)}};
        };
        e.sample(pages, outcome("read_ahead"), double(all.pagesReadAhead));
        e.sample(pages, outcome("used"), double(all.pagesUsed));
        e.sample(pages, outcome("wasted"), double(all.pagesWasted));
        e.sample(pages, outcome("untracked"), double(all.pagesUntracked));
        e.sample(interleaved, device, double(all.interleavedRestarts));
    }
    e.sample(dropped, {}, double(snapshot.dropped));
    return e.text();
}

} // namespace blocktune
