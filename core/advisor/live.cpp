// Findings from the live workload: what the kernel's readahead did for the
// reads that ran (core/readahead's report), without a read of ours. Each
// finding needs its minimum counts (advisor.h) and carries its figures and
// thresholds as evidence; diagnoseLive() watches a source for a while and
// reports one device.
#include "advisor.h"
#include "advisor_p.h"

#include "common/tr.h"
#include "devices/devicemodel.h"

#include <QTextStream>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace blocktune {

namespace {

double pct(quint64 part, quint64 whole)
{
    return whole ? std::round(double(part) / double(whole) * 1000.0) / 10.0 : 0.0;
}

double share(quint64 part, quint64 whole)
{
    return whole ? double(part) / double(whole) : 0.0;
}

QJsonValue countValue(quint64 n)
{
    return QJsonValue(qint64(n));
}

QJsonValue optionalKiB(const std::optional<quint64> &kib)
{
    return kib ? countValue(*kib) : QJsonValue();
}

QJsonValue optionalMs(const std::optional<double> &ms)
{
    return ms ? QJsonValue(std::round(*ms * 1000.0) / 1000.0) : QJsonValue();
}

Finding liveFinding(const DeviceReadahead &d, const char *code, Severity severity)
{
    Finding f;
    f.code = QString::fromLatin1(code);
    f.device = d.name;
    f.severity = severity;
    return f;
}

// readahead_capped: the async windows stop at the cap, nearly every page is
// used, and used pages waited little: the readers take each window as it
// arrives, so the cap is what they wait for.
void checkCapped(const DeviceReadahead &d, QList<Finding> &out)
{
    const ReadaheadFigures &async = d.of(ReadaheadKind::Async), &all = d.all;
    if (!d.readAheadKiB || async.windows < kLiveMinWindows || all.pagesReadAhead < kLiveMinPages
        || all.waitedPages < kLiveMinPages || !all.waitP50Ms)
        return;
    if (share(async.atCap, async.windows) < kCappedShare || share(all.pagesUsed, all.pagesReadAhead) < kCappedUsedShare
        || *all.waitP50Ms > kCappedMaxWaitMs)
        return;
    const quint64 current = *d.readAheadKiB;
    const quint64 raised = std::min(current * 2, kCappedMaxKiB);
    Finding f = liveFinding(d, "readahead_capped", Severity::Warning);
    f.summary = AdvisorText::tr("readahead caps the streams on %1: %2 of %3 async windows (%4%) reached read_ahead_kb "
                                "%5, %6% of the %7 pages read ahead were used, and used pages waited %8 ms (p50) in "
                                "the page cache: the readers take each window as it arrives, so a larger readahead "
                                "serves them larger requests (descriptors keep the value they were opened with: "
                                "reopen them)")
                    .arg(d.name).arg(async.atCap).arg(async.windows).arg(pct(async.atCap, async.windows))
                    .arg(current).arg(pct(all.pagesUsed, all.pagesReadAhead)).arg(all.pagesReadAhead)
                    .arg(*all.waitP50Ms, 0, 'f', 3);
    f.evidence = {{QStringLiteral("read_ahead_kb"), countValue(current)},
                  {QStringLiteral("async_windows"), countValue(async.windows)},
                  {QStringLiteral("at_cap"), countValue(async.atCap)},
                  {QStringLiteral("at_cap_pct"), pct(async.atCap, async.windows)},
                  {QStringLiteral("pages_read_ahead"), countValue(all.pagesReadAhead)},
                  {QStringLiteral("pages_used"), countValue(all.pagesUsed)},
                  {QStringLiteral("used_pct"), pct(all.pagesUsed, all.pagesReadAhead)},
                  {QStringLiteral("wait_p50_ms"), optionalMs(all.waitP50Ms)},
                  {QStringLiteral("threshold_at_cap_pct"), kCappedShare * 100},
                  {QStringLiteral("threshold_used_pct"), kCappedUsedShare * 100},
                  {QStringLiteral("threshold_wait_ms"), kCappedMaxWaitMs}};
    if (raised > current)
        f.fix = {{QStringLiteral("read_ahead_kb"), countValue(raised)}};
    out << f;
}

quint64 powerOfTwoAtLeast(quint64 kib)
{
    quint64 p = 1;
    while (p < kib && p < (quint64(1) << 40))
        p *= 2;
    return p;
}

// What a stream used before it stopped: the used pages per sync window
// (each stream starts with a miss), in KiB.
quint64 usedPerStreamKiB(const ReadaheadFigures &all)
{
    return all.pagesUsed * readaheadPageKiB() / std::max<quint64>(1, all.missWindows);
}

// readahead_wasted: most pages read ahead left the page cache unused.
void checkWasted(const DeviceReadahead &d, QList<Finding> &out)
{
    const ReadaheadFigures &all = d.all;
    if (!d.readAheadKiB || all.windows < kLiveMinWindows || all.pagesReadAhead < kLiveMinPages
        || share(all.pagesWasted, all.pagesReadAhead) < kLiveWastedShare)
        return;
    const quint64 current = *d.readAheadKiB;
    const quint64 perStream = usedPerStreamKiB(all);
    const quint64 lower = std::min(std::max(powerOfTwoAtLeast(perStream), kWastedMinKiB), current / 2);
    const bool fixable = lower >= kWastedMinKiB;
    Finding f = liveFinding(d, "readahead_wasted", Severity::Warning);
    f.summary = AdvisorText::tr("readahead is wasted on %1: %2% of the %3 pages read ahead left the page cache unused "
                                "(%4 still cached unused); its streams used about %5 KiB each (used pages per sync "
                                "window), far less than read_ahead_kb %6")
                    .arg(d.name).arg(pct(all.pagesWasted, all.pagesReadAhead)).arg(all.pagesReadAhead)
                    .arg(all.pagesUnusedCached).arg(perStream).arg(current);
    f.summary += fixable ? AdvisorText::tr(": %1 KiB serves them and reads less for nobody").arg(lower)
                         : AdvisorText::tr(": the reads are too short for readahead to help");
    f.evidence = {{QStringLiteral("read_ahead_kb"), countValue(current)},
                  {QStringLiteral("windows"), countValue(all.windows)},
                  {QStringLiteral("sync_windows"), countValue(all.missWindows)},
                  {QStringLiteral("pages_read_ahead"), countValue(all.pagesReadAhead)},
                  {QStringLiteral("pages_used"), countValue(all.pagesUsed)},
                  {QStringLiteral("pages_wasted"), countValue(all.pagesWasted)},
                  {QStringLiteral("pages_unused_cached"), countValue(all.pagesUnusedCached)},
                  {QStringLiteral("wasted_pct"), pct(all.pagesWasted, all.pagesReadAhead)},
                  {QStringLiteral("used_kib_per_stream"), countValue(perStream)},
                  {QStringLiteral("window_p50_kib"), optionalKiB(all.sizeP50KiB)},
                  {QStringLiteral("threshold_wasted_pct"), kLiveWastedShare * 100}};
    if (fixable)
        f.fix = {{QStringLiteral("read_ahead_kb"), countValue(lower)}};
    out << f;
}

// streams_interleaved: sync restarts of streams another task's descriptor
// read nearby just before (the SCST story).
void checkInterleaved(const DeviceReadahead &d, QList<Finding> &out)
{
    const ReadaheadFigures &all = d.all;
    if (all.interleavedRestarts < kInterleavedMin || share(all.interleavedRestarts, all.missWindows) < kInterleavedShare)
        return;
    Finding f = liveFinding(d, "streams_interleaved", Severity::Warning);
    f.summary = AdvisorText::tr("streams on %1 are read by several tasks through separate descriptors: %2 of %3 sync "
                                "windows (%4%) restarted a stream another task's descriptor read nearby just before, "
                                "so each descriptor's readahead starts over instead of growing; read each stream "
                                "through one descriptor, or group the server's I/O threads (one I/O context), as the "
                                "SCST thread found")
                    .arg(d.name).arg(all.interleavedRestarts).arg(all.missWindows)
                    .arg(pct(all.interleavedRestarts, all.missWindows));
    f.evidence = {{QStringLiteral("interleaved_restarts"), countValue(all.interleavedRestarts)},
                  {QStringLiteral("sync_windows"), countValue(all.missWindows)},
                  {QStringLiteral("interleaved_pct"), pct(all.interleavedRestarts, all.missWindows)},
                  {QStringLiteral("async_windows"), countValue(d.of(ReadaheadKind::Async).windows)},
                  {QStringLiteral("read_ahead_kb"), optionalKiB(d.readAheadKiB)},
                  {QStringLiteral("threshold_restarts"), countValue(kInterleavedMin)},
                  {QStringLiteral("threshold_pct"), kInterleavedShare * 100}};
    out << f;
}

// random_reads: small sync windows and next to no async: the kernel reads
// what each read asks, whatever read_ahead_kb is.
void checkRandom(const DeviceReadahead &d, QList<Finding> &out)
{
    const ReadaheadFigures &sync = d.of(ReadaheadKind::Sync), &async = d.of(ReadaheadKind::Async);
    if (sync.windows < kRandomMinWindows || double(async.windows) > kRandomAsyncShare * double(sync.windows)
        || !sync.sizeP50KiB || !sync.sizeP90KiB || *sync.sizeP90KiB > kRandomMaxWindowKiB)
        return;
    Finding f = liveFinding(d, "random_reads", Severity::Note);
    f.summary = AdvisorText::tr("reads of %1 are random: %2 sync windows of %3 KiB (p50; p90 %4 KiB) and %5 async "
                                "windows: the kernel reads what each read asks and no more, whatever read_ahead_kb "
                                "is, so readahead does nothing here; keep it small (a large value serves only "
                                "streams, and wastes on short ones)")
                    .arg(d.name).arg(sync.windows).arg(*sync.sizeP50KiB).arg(*sync.sizeP90KiB).arg(async.windows);
    f.evidence = {{QStringLiteral("sync_windows"), countValue(sync.windows)},
                  {QStringLiteral("async_windows"), countValue(async.windows)},
                  {QStringLiteral("sync_window_p50_kib"), countValue(*sync.sizeP50KiB)},
                  {QStringLiteral("sync_window_p90_kib"), countValue(*sync.sizeP90KiB)},
                  {QStringLiteral("read_ahead_kb"), optionalKiB(d.readAheadKiB)},
                  {QStringLiteral("threshold_window_kib"), countValue(kRandomMaxWindowKiB)},
                  {QStringLiteral("threshold_async_pct"), kRandomAsyncShare * 100}};
    out << f;
}

} // namespace

QList<Finding> readaheadFindings(const DeviceReadahead &device)
{
    QList<Finding> out;
    checkCapped(device, out);
    checkWasted(device, out);
    checkInterleaved(device, out);
    checkRandom(device, out);
    return out;
}

QList<Finding> readaheadFindings(const ReadaheadReport &report)
{
    QList<Finding> out;
    for (const DeviceReadahead &d : report.devices)
        out << readaheadFindings(d);
    return out;
}

QJsonArray readaheadFindingsToJson(const QList<Finding> &findings)
{
    QJsonArray out;
    for (const Finding &f : findings)
        out.append(findingToJson(f));
    return out;
}

QString formatReadaheadFindings(const QList<Finding> &findings)
{
    QString out;
    QTextStream s(&out);
    s << "\nfindings";
    if (findings.isEmpty())
        s << ": none (each needs enough events to tell: docs/cli.md, \"Findings from the live workload\")";
    s << '\n';
    for (const Finding &f : findings)
        advisor_detail::appendFinding(s, f, f.device);
    return out;
}

namespace {

// Waits `ms`, or until `cancel` is set.
void watchFor(qint64 ms, const std::atomic_bool *cancel)
{
    using namespace std::chrono;
    const auto end = steady_clock::now() + milliseconds(ms);
    while (!(cancel && cancel->load())) {
        const auto now = steady_clock::now();
        if (now >= end)
            return;
        std::this_thread::sleep_for(std::min<steady_clock::duration>(end - now, milliseconds(50)));
    }
}

// The device's report between two snapshots. A whole disk's read_ahead_kb
// governs its partitions' filesystems too: their counters count for it.
// read_ahead_kb is the session's (the machine's, wherever it is).
ReadaheadReport deviceReport(const ReadaheadSnapshot &start, const ReadaheadSnapshot &end,
                             const advisor_detail::SessionDevice &found, const SysRoot &root)
{
    const BlockDevice &bd = *found.device;
    const ReadaheadCountersMap delta = readaheadDelta(start.devices, end.devices);
    DeviceReadaheadCounters sum;
    for (const BlockDevice &d : found.model->devices())
        if (d.hasDeviceNumber()
            && (d.name == bd.name || (bd.type != DeviceType::Partition && d.type == DeviceType::Partition
                                      && d.parent == bd.name)))
            addReadaheadCounters(sum, delta.value(deviceNumber(quint32(d.major), quint32(d.minor))));
    ReadaheadSnapshot from, to;
    from.takenMs = start.takenMs;
    from.dropped = start.dropped;
    to.takenMs = end.takenMs;
    to.dropped = end.dropped;
    to.devices.insert(deviceNumber(quint32(bd.major), quint32(bd.minor)), sum);
    ReadaheadReport r = buildReadaheadReport(from, to, *found.model, root, {bd.name});
    for (DeviceReadahead &d : r.devices)
        d.readAheadKiB = found.settings.readAheadKiB;
    return r;
}

} // namespace

Result<Diagnosis> diagnoseLive(SessionPort &session, ReadaheadSource &source, const QString &device, qint64 liveMs,
                               const std::atomic_bool *cancel)
{
    auto found = advisor_detail::lookUpDevice(session, device);
    if (!found)
        return found.error();
    const BlockDevice &bd = *found->device;
    if (!bd.hasDeviceNumber())
        return makeError(InvalidArgument, AdvisorText::tr("%1 has no device number: the kernel's readahead cannot be "
                                                          "counted for it").arg(bd.name));
    Diagnosis d;
    d.device = bd.name;
    advisor_detail::staticChecks(found->settings, bd, d.findings);
    const auto start = source.snapshot();
    if (!start)
        return start.error();
    watchFor(liveMs, cancel);
    const auto end = source.snapshot();
    if (!end)
        return end.error();
    ReadaheadReport report = deviceReport(*start, *end, *found, session.root());
    report.coverage = source.coverage();
    if (const DeviceReadahead *r = report.find(bd.name))
        d.findings << readaheadFindings(*r);
    d.live = std::move(report);
    return d;
}

} // namespace blocktune
