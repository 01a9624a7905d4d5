// Findings from the live workload: what the kernel's readahead did for the
// reads that ran (core/readahead), without a read of ours. Each finding
// needs enough events to tell (kLiveMinWindows, kLiveMinPages) and names
// its thresholds in its evidence.
#include "advisor.h"
#include "advisor_p.h"

#include "devices/devicemodel.h"
#include "session/session.h"

#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace blocktune {

namespace {

double livePct(quint64 part, quint64 whole)
{
    return whole ? std::round(double(part) / double(whole) * 1000.0) / 10.0 : 0.0;
}

double liveShare(quint64 part, quint64 whole)
{
    return whole ? double(part) / double(whole) : 0.0;
}

QJsonValue liveMs(const std::optional<double> &ms)
{
    return ms ? QJsonValue(std::round(*ms * 1000.0) / 1000.0) : QJsonValue();
}

// readahead_capped: the async windows stop at the cap, nearly every page
// is used, and used pages waited little: the reader takes each window as it
// arrives, so the cap is what it waits for.
void checkCapped(const DeviceReadahead &d, QList<Finding> &out)
{
    const ReadaheadFigures &async = d.of(ReadaheadKind::Async), &all = d.all;
    if (async.windows < kLiveMinWindows || all.pagesReadAhead < kLiveMinPages || !d.readAheadKiB || !all.waitP50Ms)
        return;
    const double capShare = liveShare(async.atCap, async.windows);
    const double usedShare = liveShare(all.pagesUsed, all.pagesReadAhead);
    if (capShare < kCappedShare || usedShare < kCappedUsedShare || *all.waitP50Ms > kCappedMaxWaitMs)
        return;
    Finding f;
    f.code = QStringLiteral("readahead_capped");
    f.severity = Severity::Warning;
    f.summary = QStringLiteral("readahead caps the streams on %1: %2 of %3 async windows (%4%) reached the cap "
                               "(read_ahead_kb %5 now), %6% of the %7 pages read ahead were used, and used pages "
                               "waited %8 ms (p50) in the cache: the readers take each window as it arrives, so a "
                               "larger readahead makes each request larger (reopen the files: a descriptor keeps "
                               "the value it was opened with)")
                    .arg(d.name).arg(async.atCap).arg(async.windows).arg(livePct(async.atCap, async.windows))
                    .arg(*d.readAheadKiB).arg(livePct(all.pagesUsed, all.pagesReadAhead)).arg(all.pagesReadAhead)
                    .arg(*all.waitP50Ms, 0, 'f', 3);
    f.evidence = {{QStringLiteral("read_ahead_kb"), qint64(*d.readAheadKiB)},
                  {QStringLiteral("async_windows"), qint64(async.windows)},
                  {QStringLiteral("at_cap"), qint64(async.atCap)},
                  {QStringLiteral("at_cap_pct"), livePct(async.atCap, async.windows)},
                  {QStringLiteral("pages_read_ahead"), qint64(all.pagesReadAhead)},
                  {QStringLiteral("used_pct"), livePct(all.pagesUsed, all.pagesReadAhead)},
                  {QStringLiteral("wait_p50_ms"), liveMs(all.waitP50Ms)},
                  {QStringLiteral("threshold_at_cap_pct"), kCappedShare * 100},
                  {QStringLiteral("threshold_used_pct"), kCappedUsedShare * 100},
                  {QStringLiteral("threshold_wait_ms"), kCappedMaxWaitMs}};
    f.fix = {{QStringLiteral("read_ahead_kb"), qint64(*d.readAheadKiB * 2)}};
    out << f;
}

quint64 powerOfTwoAtLeast(quint64 kib)
{
    quint64 p = 1;
    while (p < kib && p < (quint64(1) << 40))
        p *= 2;
    return p;
}

// The readahead that serves the streams the pages show: what a stream used
// before it stopped (used pages per sync window), as a power of two, at
// least kWastedMinKiB, at most half the current value.
quint64 streamReadaheadKiB(const ReadaheadFigures &all, quint64 currentKiB)
{
    const quint64 perStreamKiB = all.pagesUsed * readaheadPageKiB() / std::max<quint64>(1, all.missWindows);
    return std::min(std::max(powerOfTwoAtLeast(perStreamKiB), kWastedMinKiB), currentKiB / 2);
}

// readahead_wasted: most pages read ahead were never used.
void checkWasted(const DeviceReadahead &d, QList<Finding> &out)
{
    const ReadaheadFigures &all = d.all;
    if (all.windows < kLiveMinWindows || all.pagesReadAhead < kLiveMinPages || !d.readAheadKiB)
        return;
    const quint64 unused = all.pagesWasted + all.pagesUnusedCached;
    if (liveShare(unused, all.pagesReadAhead) < kLiveWastedShare)
        return;
    const quint64 current = *d.readAheadKiB;
    const quint64 perStreamKiB = all.pagesUsed * readaheadPageKiB() / std::max<quint64>(1, all.missWindows);
    const quint64 stop = streamReadaheadKiB(all, current);
    Finding f;
    f.code = QStringLiteral("readahead_wasted");
    f.severity = Severity::Warning;
    QString summary = QStringLiteral("readahead %1 KiB on %2 is wasted on this workload: %3% of the %4 pages read "
                                     "ahead were never used (%5 left the page cache unused, %6 still cached "
                                     "unused at the end); its streams used about %7 KiB each (used pages per sync "
                                     "window)")
                          .arg(current).arg(d.name).arg(livePct(unused, all.pagesReadAhead)).arg(all.pagesReadAhead)
                          .arg(all.pagesWasted).arg(all.pagesUnusedCached).arg(perStreamKiB);
    const bool smaller = stop < current && current > kWastedMinKiB;
    if (smaller)
        summary += QStringLiteral(", so about %1 KiB should serve them").arg(stop);
    f.summary = summary;
    f.evidence = {{QStringLiteral("read_ahead_kb"), qint64(current)},
                  {QStringLiteral("pages_read_ahead"), qint64(all.pagesReadAhead)},
                  {QStringLiteral("pages_used"), qint64(all.pagesUsed)},
                  {QStringLiteral("pages_wasted"), qint64(all.pagesWasted)},
                  {QStringLiteral("pages_unused_cached"), qint64(all.pagesUnusedCached)},
                  {QStringLiteral("unused_pct"), livePct(unused, all.pagesReadAhead)},
                  {QStringLiteral("sync_windows"), qint64(all.missWindows)},
                  {QStringLiteral("used_kib_per_stream"), qint64(perStreamKiB)},
                  {QStringLiteral("threshold_unused_pct"), kLiveWastedShare * 100}};
    if (smaller)
        f.fix = {{QStringLiteral("read_ahead_kb"), qint64(stop)}};
    out << f;
}

// streams_interleaved: sync restarts of streams other descriptors read
// nearby just before (the SCST story).
void checkInterleaved(const DeviceReadahead &d, QList<Finding> &out)
{
    const ReadaheadFigures &all = d.all;
    if (all.interleavedRestarts < kInterleavedMin
        || liveShare(all.interleavedRestarts, all.missWindows) < kInterleavedShare)
        return;
    Finding f;
    f.code = QStringLiteral("streams_interleaved");
    f.severity = Severity::Warning;
    f.summary = QStringLiteral("streams on %1 are read by several tasks through separate descriptors: %2 of %3 sync "
                               "windows (%4%) restarted a stream another descriptor read nearby just before, so "
                               "each descriptor's readahead starts over instead of growing; read each stream "
                               "through one descriptor, or group the server's I/O threads (one I/O context), as "
                               "the SCST thread found")
                    .arg(d.name).arg(all.interleavedRestarts).arg(all.missWindows)
                    .arg(livePct(all.interleavedRestarts, all.missWindows));
    f.evidence = {{QStringLiteral("interleaved_restarts"), qint64(all.interleavedRestarts)},
                  {QStringLiteral("sync_windows"), qint64(all.missWindows)},
                  {QStringLiteral("interleaved_pct"), livePct(all.interleavedRestarts, all.missWindows)},
                  {QStringLiteral("async_windows"), qint64(d.of(ReadaheadKind::Async).windows)},
                  {QStringLiteral("threshold_restarts"), qint64(kInterleavedMin)},
                  {QStringLiteral("threshold_pct"), kInterleavedShare * 100}};
    out << f;
}

// random_reads: small sync windows, next to no async: the kernel reads no
// more than each read asks, whatever read_ahead_kb is.
void checkRandom(const DeviceReadahead &d, QList<Finding> &out)
{
    const ReadaheadFigures &sync = d.of(ReadaheadKind::Sync), &async = d.of(ReadaheadKind::Async);
    if (sync.windows < kLiveMinWindows || double(async.windows) > kRandomAsyncShare * double(sync.windows)
        || !sync.sizeP50KiB || !sync.sizeP90KiB || *sync.sizeP90KiB > kRandomMaxWindowKiB)
        return;
    Finding f;
    f.code = QStringLiteral("random_reads");
    f.severity = Severity::Note;
    f.summary = QStringLiteral("reads of %1 are random: %2 sync windows of %3 KiB (p50; p90 %4 KiB) and %5 async "
                               "windows: the kernel reads no more ahead than each read asks, whatever read_ahead_kb "
                               "is, so readahead does nothing here; keep it small (a large value serves only "
                               "streams)")
                    .arg(d.name).arg(sync.windows).arg(*sync.sizeP50KiB).arg(*sync.sizeP90KiB).arg(async.windows);
    f.evidence = {{QStringLiteral("sync_windows"), qint64(sync.windows)},
                  {QStringLiteral("async_windows"), qint64(async.windows)},
                  {QStringLiteral("sync_window_p50_kib"), qint64(*sync.sizeP50KiB)},
                  {QStringLiteral("sync_window_p90_kib"), qint64(*sync.sizeP90KiB)},
                  {QStringLiteral("read_ahead_kb"), d.readAheadKiB ? QJsonValue(qint64(*d.readAheadKiB)) : QJsonValue()},
                  {QStringLiteral("threshold_window_kib"), qint64(kRandomMaxWindowKiB)},
                  {QStringLiteral("threshold_async_pct"), kRandomAsyncShare * 100}};
    out << f;
}

} // namespace

QList<Finding> liveReadaheadFindings(const DeviceReadahead &device)
{
    QList<Finding> out;
    checkCapped(device, out);
    checkWasted(device, out);
    checkInterleaved(device, out);
    checkRandom(device, out);
    return out;
}

QJsonArray liveFindingsToJson(const QList<std::pair<QString, Finding>> &findings)
{
    QJsonArray out;
    for (const auto &[device, finding] : findings) {
        QJsonObject o = findingToJson(finding);
        o.insert(QStringLiteral("device"), device);
        out.append(o);
    }
    return out;
}

namespace {

// Sleeps `ms`, or until `cancel` is set.
void observe(qint64 ms, const std::atomic_bool *cancel)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < end && !(cancel && cancel->load())) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
        std::this_thread::sleep_for(std::min(left, std::chrono::milliseconds(100)));
    }
}

// The report of `bd` between two snapshots. A whole disk's readahead
// governs its partitions' filesystems too: their counters count for it.
ReadaheadReport reportWithPartitions(const ReadaheadSnapshot &start, const ReadaheadSnapshot &end,
                                     const DeviceModel &model, const BlockDevice &bd, const SysRoot &root)
{
    const ReadaheadCountersMap delta = readaheadDelta(start.devices, end.devices);
    DeviceReadaheadCounters sum;
    for (const BlockDevice &d : model.devices())
        if (d.name == bd.name || (d.type == DeviceType::Partition && d.parent == bd.name))
            addReadaheadCounters(sum, delta.value(deviceNumber(quint32(d.major), quint32(d.minor))));
    ReadaheadSnapshot from, to;
    from.takenMs = start.takenMs;
    to.takenMs = end.takenMs;
    to.dropped = end.dropped >= start.dropped ? end.dropped - start.dropped : 0;
    to.devices.insert(deviceNumber(quint32(bd.major), quint32(bd.minor)), sum);
    return buildReadaheadReport(from, to, model, root, {bd.name});
}

} // namespace

Result<Diagnosis> diagnoseLive(TuningSession &session, ReadaheadSource &source, const QString &device,
                               qint64 liveMs, const std::atomic_bool *cancel)
{
    auto found = advisor_detail::lookUpDevice(session, device);
    if (!found)
        return found.error();
    const BlockDevice &bd = *found->device;
    Diagnosis d;
    d.device = bd.name;
    advisor_detail::staticChecks(found->settings, bd, d.findings);
    const auto start = source.snapshot();
    if (!start)
        return start.error();
    observe(liveMs, cancel);
    const auto end = source.snapshot();
    if (!end)
        return end.error();
    const ReadaheadReport report = reportWithPartitions(*start, *end, *found->model, bd, session.root());
    d.liveSeconds = report.durationS;
    d.liveCoverage = source.coverage();
    if (const DeviceReadahead *r = report.find(bd.name))
        d.findings << liveReadaheadFindings(*r);
    return d;
}

} // namespace blocktune
