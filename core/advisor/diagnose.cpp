// Diagnosis: static checks on the device model, then a few measured reads
// (current readahead, a larger one, raw, two streams), everything restored.
#include "advisor.h"
#include "advisor_p.h"

#include "session/session.h"
#include "tuning/tuning.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <algorithm>
#include <cmath>

namespace blocktune {

QString severityName(Severity severity)
{
    switch (severity) {
    case Severity::Note:
        return QStringLiteral("note");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Problem:
        return QStringLiteral("problem");
    }
    return {};
}

namespace {

double round1(double v)
{
    return std::round(v * 10.0) / 10.0;
}

double perMb(const Measurement &m)
{
    return m.interrupts && m.bytes ? double(*m.interrupts) / (double(m.bytes) / 1e6) : -1;
}

void staticChecks(const DeviceSettings &s, const BlockDevice &bd, QList<Finding> &out)
{
    if (s.readaheadFloorKiB && s.readAheadKiB && *s.readAheadKiB < *s.readaheadFloorKiB) {
        Finding f;
        f.code = QStringLiteral("below_md_floor");
        f.severity = Severity::Warning;
        f.summary = QStringLiteral("%1's read_ahead_kb %2 is below the array's floor of %3 KiB (2 x stripe), which "
                                   "re-assembly or a reshape sets again, so this value will not last")
                        .arg(s.name).arg(*s.readAheadKiB).arg(*s.readaheadFloorKiB);
        f.evidence = {{QStringLiteral("read_ahead_kb"), qint64(*s.readAheadKiB)},
                      {QStringLiteral("floor_kb"), qint64(*s.readaheadFloorKiB)},
                      {QStringLiteral("stripe_kb"), s.stripeKiB ? QJsonValue(qint64(*s.stripeKiB)) : QJsonValue()}};
        f.fix = {{QStringLiteral("read_ahead_kb"), qint64(*s.readaheadFloorKiB)}};
        out << f;
    }
    if (s.isPartition) {
        Finding f;
        f.code = QStringLiteral("partition_shares_readahead");
        f.summary = QStringLiteral("%1 is a partition: its readahead is %2's, shared with every partition of that "
                                   "disk, so a change here changes them all")
                        .arg(s.name, s.queueDevice);
        f.evidence = {{QStringLiteral("queue_device"), s.queueDevice},
                      {QStringLiteral("read_ahead_kb"), s.readAheadKiB ? QJsonValue(qint64(*s.readAheadKiB)) : QJsonValue()}};
        out << f;
    }
    if (bd.dm && bd.dm->kind == u"lvm") {
        Finding f;
        f.code = QStringLiteral("lvm_rewrites_readahead");
        f.summary = QStringLiteral("%1 is an LVM volume (%2): activation sets its readahead from the volume's metadata "
                                   "(lvchange -r), so a value set here lasts only until the next activation")
                        .arg(s.name, bd.dm->name);
        f.evidence = {{QStringLiteral("dm_name"), bd.dm->name},
                      {QStringLiteral("read_ahead_kb"), s.readAheadKiB ? QJsonValue(qint64(*s.readAheadKiB)) : QJsonValue()}};
        out << f;
    }
}

// What diagnose() measured: the stream at the readahead in force and at a
// larger one, the raw ceiling, and two streams side by side.
struct DiagnosisReadings
{
    quint64 current = 0; ///< read_ahead_kb in force
    quint64 larger = 0;  ///< the larger value tried (not above 64 MiB)
    Measurement now;
    std::optional<Measurement> more; ///< at `larger`, when it is larger than `current`
    double raw = 0;
    std::optional<StreamPairMeasurement> pair; ///< none when the device cannot hold two streams
};

// The reads, with the readahead brought back on every path (d.restored says
// whether it came back).
Result<DiagnosisReadings> measureForDiagnosis(ReadEngine &engine, const DiagnoseSpec &spec, quint64 current,
                                              Diagnosis &d, const std::atomic_bool *cancel)
{
    struct Restore
    {
        ReadEngine &e;
        Diagnosis &d;
        ~Restore() { d.restored = e.restore(&d.restoreMessage); }
    } restore{engine, d};

    DiagnosisReadings r;
    r.current = current;
    r.larger = std::min<quint64>(std::max<quint64>(current * 4, 512), 64 * 1024);
    const Workload seq;
    auto now = engine.measureBuffered({current, seq, spec.blockSize, spec.pointMs}, cancel);
    if (!now)
        return now.error();
    r.now = *now;
    if (r.larger > current) {
        auto m = engine.measureBuffered({r.larger, seq, spec.blockSize, spec.pointMs}, cancel);
        if (!m)
            return m.error();
        r.more = *m;
    }
    // The raw ceiling and the stream pair at the readahead in force.
    engine.restore(nullptr);
    auto raw = engine.measureRawMbPerSec(1024 * 1024, kRawInFlight, spec.pointMs, cancel);
    if (!raw)
        return raw.error();
    r.raw = *raw;
    auto pair = engine.measureStreamPair(spec.blockSize, spec.pointMs, cancel);
    if (!pair && pair.error().code != InvalidArgument)
        return pair.error();
    if (pair)
        r.pair = *pair;
    d.measured = true;
    return r;
}

// readahead_blocking: a larger readahead makes the requests larger and the
// stream faster, so readahead is what limits each request.
void checkReadaheadBlocking(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    if (r.more && r.more->mbPerSec >= kBlockingGain * r.now.mbPerSec && r.more->avgRequestKiB >= kBlockingRequestGrowth * r.now.avgRequestKiB) {
        Finding f;
        f.code = QStringLiteral("readahead_blocking");
        f.severity = Severity::Problem;
        f.summary = QStringLiteral("readahead is the blocking factor on %1: at %2 KiB the stream's requests average "
                                   "%3 KiB and it reads %4; at %5 KiB requests grow to %6 KiB and it reads %7")
                        .arg(s.name).arg(r.current).arg(r.now.avgRequestKiB, 0, 'f', 0).arg(formatMbPerSec(r.now.mbPerSec))
                        .arg(r.larger).arg(r.more->avgRequestKiB, 0, 'f', 0).arg(formatMbPerSec(r.more->mbPerSec));
        f.evidence = {{QStringLiteral("read_ahead_kb"), qint64(r.current)},
                      {QStringLiteral("avg_request_kb"), round1(r.now.avgRequestKiB)},
                      {QStringLiteral("mb_per_s"), round1(r.now.mbPerSec)},
                      {QStringLiteral("interrupts_per_mb"), round1(perMb(r.now))},
                      {QStringLiteral("larger_read_ahead_kb"), qint64(r.larger)},
                      {QStringLiteral("larger_avg_request_kb"), round1(r.more->avgRequestKiB)},
                      {QStringLiteral("larger_mb_per_s"), round1(r.more->mbPerSec)},
                      {QStringLiteral("larger_interrupts_per_mb"), round1(perMb(*r.more))}};
        f.fix = {{QStringLiteral("read_ahead_kb"), qint64(r.larger)}};
        out << f;
    }
}

// buffered_far_from_raw: buffered reads well below the raw ceiling, and
// whether the larger readahead closed the gap.
void checkFarFromRaw(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    if (r.raw > 0 && r.now.mbPerSec < kFarFromRawPct / 100.0 * r.raw) {
        const double pct = r.now.mbPerSec / r.raw * 100.0;
        const bool largerCloses = r.more && r.more->mbPerSec >= kFarFromRawPct / 100.0 * r.raw;
        Finding f;
        f.code = QStringLiteral("buffered_far_from_raw");
        f.severity = Severity::Warning;
        f.summary = largerCloses
            ? QStringLiteral("buffered reads of %1 reach %2% of what the device delivers (%3 of %4 raw); readahead "
                             "%5 KiB brings them to %6%")
                  .arg(s.name).arg(qRound(pct)).arg(formatMbPerSec(r.now.mbPerSec), formatMbPerSec(r.raw))
                  .arg(r.larger).arg(qRound(r.more->mbPerSec / r.raw * 100.0))
            : r.more && r.more->mbPerSec >= kBlockingGain * r.now.mbPerSec
            ? QStringLiteral("buffered reads of %1 reach %2% of what the device delivers (%3 of %4 raw); readahead "
                             "%5 KiB brings them to %6%, so readahead is the cause and a value larger still is "
                             "needed (blocktune-cli advise %1 finds it)")
                  .arg(s.name).arg(qRound(pct)).arg(formatMbPerSec(r.now.mbPerSec), formatMbPerSec(r.raw))
                  .arg(r.larger).arg(qRound(r.more->mbPerSec / r.raw * 100.0))
            : QStringLiteral("buffered reads of %1 reach %2% of what the device delivers (%3 of %4 raw) and a larger "
                             "readahead does not close the gap: the page-cache copy, the CPU or request size "
                             "(max_sectors_kb %5) is the likelier limit")
                  .arg(s.name).arg(qRound(pct)).arg(formatMbPerSec(r.now.mbPerSec), formatMbPerSec(r.raw))
                  .arg(s.maxSectorsKiB.value_or(0));
        f.evidence = {{QStringLiteral("buffered_mb_per_s"), round1(r.now.mbPerSec)},
                      {QStringLiteral("raw_mb_per_s"), round1(r.raw)},
                      {QStringLiteral("reached_pct"), round1(pct)},
                      {QStringLiteral("read_ahead_kb"), qint64(r.current)},
                      {QStringLiteral("avg_request_kb"), round1(r.now.avgRequestKiB)}};
        if (r.more)
            f.evidence.insert(QStringLiteral("larger_reached_pct"), round1(r.more->mbPerSec / r.raw * 100.0));
        if (largerCloses)
            f.fix = {{QStringLiteral("read_ahead_kb"), qint64(r.larger)}};
        out << f;
    }
}

// member_imbalance: what each member read while the array was read.
void checkMemberImbalance(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    quint64 total = 0;
    for (quint64 b : std::as_const(r.now.memberBytes))
        total += b;
    if (s.memberDisks.size() >= 2 && r.now.memberBytes.size() == s.memberDisks.size() && total > 0) {
        QList<double> shares;
        QJsonObject sharesJson;
        qsizetype top = 0;
        for (qsizetype i = 0; i < s.memberDisks.size(); ++i) {
            shares << double(r.now.memberBytes.at(i));
            sharesJson.insert(s.memberDisks.at(i), round1(double(r.now.memberBytes.at(i)) / double(total) * 100.0));
            if (r.now.memberBytes.at(i) > r.now.memberBytes.at(top))
                top = i;
        }
        const double jain = jainFairness(shares);
        if (jain < kImbalanceJain) {
            Finding f;
            f.code = QStringLiteral("member_imbalance");
            f.severity = Severity::Warning;
            f.summary = QStringLiteral("the members of %1 share reads unevenly: %2 served %3% of the bytes where "
                                       "an even share is %4% (Jain's index %5)")
                            .arg(s.name, s.memberDisks.at(top))
                            .arg(round1(double(r.now.memberBytes.at(top)) / double(total) * 100.0))
                            .arg(round1(100.0 / double(s.memberDisks.size())))
                            .arg(jain, 0, 'f', 2);
            f.evidence = {{QStringLiteral("shares_pct"), sharesJson}, {QStringLiteral("jain"), round1(jain * 100) / 100}};
            out << f;
        }
    }
}

// stream_unfair: the measured stream loses most of its rate to a second one.
void checkStreamUnfair(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    if (r.pair && r.pair->aloneMbPerSec > 0) {
        const double share = r.pair->withMbPerSec / r.pair->aloneMbPerSec;
        const double jain = jainFairness({r.pair->withMbPerSec, r.pair->otherMbPerSec});
        if (share < kUnfairShare || jain < kUnfairJain) {
            Finding f;
            f.code = QStringLiteral("stream_unfair");
            f.severity = Severity::Problem;
            f.summary = QStringLiteral("with a second stream running, the measured stream on %1 drops to %2% of its "
                                       "rate alone (%3 -> %4, the other stream %5; Jain %6, scheduler %7)")
                            .arg(s.name).arg(qRound(share * 100))
                            .arg(formatMbPerSec(r.pair->aloneMbPerSec), formatMbPerSec(r.pair->withMbPerSec),
                                 formatMbPerSec(r.pair->otherMbPerSec))
                            .arg(jain, 0, 'f', 2).arg(r.pair->scheduler.isEmpty() ? QStringLiteral("none") : r.pair->scheduler);
            f.evidence = {{QStringLiteral("alone_mb_per_s"), round1(r.pair->aloneMbPerSec)},
                          {QStringLiteral("with_second_mb_per_s"), round1(r.pair->withMbPerSec)},
                          {QStringLiteral("second_mb_per_s"), round1(r.pair->otherMbPerSec)},
                          {QStringLiteral("share_pct"), round1(share * 100)},
                          {QStringLiteral("jain"), round1(jain * 100) / 100},
                          {QStringLiteral("scheduler"), r.pair->scheduler}};
            // bfq shares a device's time between processes; the
            // others serve whoever keeps the queue full.
            if (r.pair->scheduler != u"bfq" && s.schedulers.contains(QStringLiteral("bfq")))
                f.fix = {{QStringLiteral("scheduler"), QStringLiteral("bfq")}};
            out << f;
        }
    }
}

// queue_wait_dominates: the device's reads waited longer in the queue
// than on the device (p99), so the scheduler or nr_requests holds them.
void checkQueueWait(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    if (!r.now.latency || r.now.latency->readDevice.total() < kMinLatencyRequests)
        return;
    const Log2Histogram &queue = r.now.latency->readQueue, &device = r.now.latency->readDevice;
    const double queueP99 = queue.percentileUs(99).value_or(0), deviceP99 = device.percentileUs(99).value_or(0);
    if (queueP99 <= deviceP99)
        return;
    Finding f;
    f.code = QStringLiteral("queue_wait_dominates");
    f.severity = Severity::Warning;
    const QString scheduler = s.scheduler.isEmpty() ? QStringLiteral("none") : s.scheduler;
    f.summary = QStringLiteral("reads of %1 wait longer in the queue than on the device: p99 %2 queued against %3 "
                               "on the device (log2 buckets, scheduler %4, nr_requests %5), so the scheduler or "
                               "nr_requests holds requests back")
                    .arg(s.name, formatLatencyUs(queueP99), formatLatencyUs(deviceP99), scheduler)
                    .arg(s.nrRequests ? QString::number(*s.nrRequests) : QStringLiteral("?"));
    f.evidence = {{QStringLiteral("read_queue_p99_us"), queueP99},
                  {QStringLiteral("read_device_p99_us"), deviceP99},
                  {QStringLiteral("read_queue_p50_us"), queue.percentileUs(50).value_or(0)},
                  {QStringLiteral("read_device_p50_us"), device.percentileUs(50).value_or(0)},
                  {QStringLiteral("requests"), qint64(device.total())},
                  {QStringLiteral("scheduler"), scheduler}};
    if (s.nrRequests)
        f.evidence.insert(QStringLiteral("nr_requests"), qint64(*s.nrRequests));
    if (scheduler != u"none" && s.schedulers.contains(QStringLiteral("none")))
        f.fix = {{QStringLiteral("scheduler"), QStringLiteral("none")}};
    out << f;
}

// slow_member: one member disk's device time (p99) at least
// kSlowMemberFactor times the median of the others'.
void checkSlowMember(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    if (s.memberDisks.size() < 2 || r.now.memberLatency.size() != s.memberDisks.size())
        return;
    QList<double> p99;
    quint64 bytes = 0;
    for (const quint64 b : std::as_const(r.now.memberBytes))
        bytes += b;
    for (const DeviceLatency &l : r.now.memberLatency) {
        if (l.readDevice.total() < kMinLatencyRequests)
            return; // too few requests on a member to compare
        p99 << l.readDevice.percentileUs(99).value_or(0);
    }
    qsizetype slowest = 0;
    for (qsizetype i = 1; i < p99.size(); ++i)
        if (p99.at(i) > p99.at(slowest))
            slowest = i;
    QList<double> others = p99;
    others.removeAt(slowest);
    std::sort(others.begin(), others.end());
    const double median = others.size() % 2 ? others.at(others.size() / 2)
                                            : (others.at(others.size() / 2 - 1) + others.at(others.size() / 2)) / 2;
    if (median <= 0 || p99.at(slowest) < kSlowMemberFactor * median)
        return;
    QJsonObject members;
    for (qsizetype i = 0; i < s.memberDisks.size(); ++i) {
        QJsonObject m{{QStringLiteral("read_device_p99_us"), p99.at(i)},
                      {QStringLiteral("requests"), qint64(r.now.memberLatency.at(i).readDevice.total())}};
        if (bytes > 0 && r.now.memberBytes.size() == s.memberDisks.size())
            m.insert(QStringLiteral("bytes_share_pct"), round1(double(r.now.memberBytes.at(i)) / double(bytes) * 100));
        members.insert(s.memberDisks.at(i), m);
    }
    Finding f;
    f.code = QStringLiteral("slow_member");
    f.severity = Severity::Problem;
    f.summary = QStringLiteral("%1 is the slow member of %2: its reads took %3 on the device (p99) where the other "
                               "members' median is %4 (%5x); the array waits for it")
                    .arg(s.memberDisks.at(slowest), s.name, formatLatencyUs(p99.at(slowest)), formatLatencyUs(median))
                    .arg(p99.at(slowest) / median, 0, 'f', 1);
    f.evidence = {{QStringLiteral("member"), s.memberDisks.at(slowest)},
                  {QStringLiteral("factor"), round1(p99.at(slowest) / median)},
                  {QStringLiteral("members"), members}};
    out << f;
}

} // namespace

Result<Diagnosis> diagnose(TuningSession &session, ReadEngine *engine, const DiagnoseSpec &spec,
                           const std::atomic_bool *cancel)
{
    auto found = advisor_detail::lookUpDevice(session, spec.device);
    if (!found)
        return found.error();
    const DeviceSettings &s = found->settings;
    const BlockDevice *bd = found->device;

    Diagnosis d;
    d.device = bd->name;
    staticChecks(s, *bd, d.findings);
    if (!spec.measure || !engine || !s.readAheadKiB)
        return d;

    auto readings = measureForDiagnosis(*engine, spec, *s.readAheadKiB, d, cancel);
    if (!readings)
        return readings.error();
    checkReadaheadBlocking(s, *readings, d.findings);
    checkFarFromRaw(s, *readings, d.findings);
    checkMemberImbalance(s, *readings, d.findings);
    checkStreamUnfair(s, *readings, d.findings);
    checkQueueWait(s, *readings, d.findings);
    checkSlowMember(s, *readings, d.findings);
    return d;
}

QJsonObject diagnosisToJson(const Diagnosis &d)
{
    QJsonArray findings;
    for (const Finding &f : d.findings)
        findings.append(QJsonObject{{QStringLiteral("code"), f.code},
                                    {QStringLiteral("severity"), severityName(f.severity)},
                                    {QStringLiteral("summary"), f.summary},
                                    {QStringLiteral("evidence"), f.evidence},
                                    {QStringLiteral("fix"), f.fix}});
    QJsonObject out{{QStringLiteral("device"), d.device},
                    {QStringLiteral("findings"), findings},
                    {QStringLiteral("measured"), d.measured},
                    {QStringLiteral("restored"), d.restored}};
    if (d.measured)
        out.insert(QStringLiteral("latency_unavailable"), d.latencyUnavailable.isEmpty() ? QJsonValue() : d.latencyUnavailable);
    return out;
}

QString formatDiagnosis(const Diagnosis &d)
{
    QString out;
    QTextStream s(&out);
    s << "diagnose " << d.device << (d.measured ? " (static checks and measured reads)" : " (static checks)") << '\n';
    if (d.findings.isEmpty())
        s << "  no findings\n";
    for (const Finding &f : d.findings) {
        s << "  [" << severityName(f.severity) << "] " << f.code << ": " << f.summary << '\n';
        QStringList ev;
        for (auto it = f.evidence.constBegin(); it != f.evidence.constEnd(); ++it)
            ev << it.key() + u'=' + (it->isObject() ? QString::fromUtf8(QJsonDocument(it->toObject()).toJson(QJsonDocument::Compact))
                                                    : it->toVariant().toString());
        s << "      evidence: " << ev.join(u' ') << '\n';
        if (!f.fix.isEmpty()) {
            QStringList fix;
            for (auto it = f.fix.constBegin(); it != f.fix.constEnd(); ++it)
                fix << it.key() + u'=' + it->toVariant().toString();
            s << "      fix: blocktune-cli set " << d.device << ' ' << fix.join(u' ') << '\n';
        }
    }
    if (d.measured && !d.latencyUnavailable.isEmpty())
        s << "  queue and device time not measured (queue_wait_dominates, slow_member): " << d.latencyUnavailable << '\n';
    if (d.measured && !d.restored)
        s << "settings NOT restored: " << d.restoreMessage << '\n';
    return out;
}

} // namespace blocktune
