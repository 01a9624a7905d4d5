// Diagnosis: static checks on the device model, then measured reads
// (current readahead, a larger one, the workload, raw, two streams), each
// kDiagnoseRuns times interleaved, a finding stated only past the noise;
// everything restored.
#include "advisor.h"
#include "advisor_p.h"

#include "common/tr.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <limits>

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

} // namespace

void advisor_detail::staticChecks(const DeviceSettings &s, const BlockDevice &bd, QList<Finding> &out)
{
    if (s.readaheadFloorKiB && s.readAheadKiB && *s.readAheadKiB < *s.readaheadFloorKiB) {
        Finding f;
        f.code = QStringLiteral("below_md_floor");
        f.severity = Severity::Warning;
        f.summary = AdvisorText::tr("%1's read_ahead_kb %2 is below the array's floor of %3 KiB (2 x stripe), which "
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
        f.summary = AdvisorText::tr("%1 is a partition: its readahead is %2's, shared with every partition of that "
                                   "disk, so a change here changes them all")
                        .arg(s.name, s.queueDevice);
        f.evidence = {{QStringLiteral("queue_device"), s.queueDevice},
                      {QStringLiteral("read_ahead_kb"), s.readAheadKiB ? QJsonValue(qint64(*s.readAheadKiB)) : QJsonValue()}};
        out << f;
    }
    if (bd.dm && bd.dm->kind == u"lvm") {
        Finding f;
        f.code = QStringLiteral("lvm_rewrites_readahead");
        f.summary = AdvisorText::tr("%1 is an LVM volume (%2): activation sets its readahead from the volume's metadata "
                                   "(lvchange -r), so a value set here lasts only until the next activation")
                        .arg(s.name, bd.dm->name);
        f.evidence = {{QStringLiteral("dm_name"), bd.dm->name},
                      {QStringLiteral("read_ahead_kb"), s.readAheadKiB ? QJsonValue(qint64(*s.readAheadKiB)) : QJsonValue()}};
        out << f;
    }
}

namespace {

// Runs at one setting: their medians and spread (the advisor's CurvePoint:
// median, MAD as spreadPct) and each run's counters.
struct Sample
{
    CurvePoint point;
    QList<Measurement> runs;
    void add(const Measurement &m)
    {
        addRun(point, m.mbPerSec, m.avgRequestKiB, m.deviceReadRatio);
        runs << m;
    }
};

// Interrupts per MB read over all runs (-1: not counted).
double perMb(const QList<Measurement> &runs)
{
    quint64 interrupts = 0, bytes = 0;
    bool counted = false;
    for (const Measurement &m : runs)
        if (m.interrupts) {
            interrupts += *m.interrupts;
            bytes += m.bytes;
            counted = true;
        }
    return counted && bytes ? double(interrupts) / (double(bytes) / 1e6) : -1;
}

// What diagnose() measured, kDiagnoseRuns times each, interleaved: the
// stream at the readahead in force and at a larger one, the workload, the
// raw ceiling, two streams side by side; then readahead_wasted's smaller
// values.
struct DiagnosisReadings
{
    quint64 current = 0; ///< read_ahead_kb in force
    quint64 larger = 0;  ///< the larger value tried (not above 64 MiB)
    Workload workload;   ///< spec.workload
    Sample now;          ///< one sequential stream at `current`
    std::optional<Sample> more; ///< at `larger`, when it is larger than `current`
    std::optional<Sample> load; ///< the workload at `current`, when it is not seq
    CurvePoint raw;             ///< the raw ceiling's runs
    bool pairRefused = false;   ///< the device cannot hold two streams
    CurvePoint alone, with, other; ///< the stream pair's runs (empty when refused)
    QString scheduler;
    QList<Sample> smaller; ///< the workload at smaller readaheads, largest first
    const Sample &workloadAtCurrent() const { return load ? *load : now; }
};

// Medians told apart: `ratio` (the larger median over the smaller) as a
// log, in % (the % difference for small effects), against twice the two
// sides' spreads combined (sqrt(a^2 + b^2), each one run's noise relative
// to its own median: a conservative bar). On the log scale a relative
// noise compares alike at both ends, so a rate 4% of another is told
// apart from it even when the small one's own spread is wide. `effectPct`
// is the effect as the finding states it.
struct Separation
{
    double effectPct = 0;
    double noisePct = 0;
    bool separable = true;
};

Separation separate(double effectPct, double ratio, const CurvePoint &a, const CurvePoint &b = {})
{
    Separation s;
    s.effectPct = effectPct;
    s.noisePct = std::hypot(a.spreadPct(), b.spreadPct());
    const double logPct = ratio > 0 && std::isfinite(ratio) ? std::abs(std::log(ratio)) * 100.0
                                                             : std::numeric_limits<double>::infinity();
    s.separable = logPct > kSeparationFactor * s.noisePct;
    return s;
}

// A finding whose threshold the medians passed by less than the noise: not
// stated, and said so.
Finding notSeparable(const QString &code, const QString &what, const Separation &s, double thresholdPct)
{
    Finding f;
    f.code = QStringLiteral("not_separable");
    f.summary = AdvisorText::tr("%1 is not stated: %2 by %3%, past its threshold of %4%, but the runs' noise "
                               "(+-%5% combined, %6 runs each) is as large, so the measurement cannot separate "
                               "them; diagnose again when the machine is quieter")
                    .arg(code, what).arg(round1(s.effectPct)).arg(round1(thresholdPct)).arg(round1(s.noisePct))
                    .arg(kDiagnoseRuns);
    f.evidence = {{QStringLiteral("finding"), code},
                  {QStringLiteral("effect_pct"), round1(s.effectPct)},
                  {QStringLiteral("threshold_pct"), round1(thresholdPct)},
                  {QStringLiteral("noise_pct"), round1(s.noisePct)},
                  {QStringLiteral("runs"), kDiagnoseRuns}};
    return f;
}

Status addBuffered(ReadEngine &engine, const BufferedProbe &probe, Sample &into, const std::atomic_bool *cancel)
{
    auto m = engine.measureBuffered(probe, cancel);
    if (!m)
        return m.error();
    into.point.readAheadKiB = probe.readAheadKiB;
    into.add(*m);
    return {};
}

Sample &sampleIn(std::optional<Sample> &sample)
{
    if (!sample)
        sample = Sample{};
    return *sample;
}

// One round: the stream at the readahead in force and at the larger value
// (a, b, a, b over the rounds), the workload, then the raw ceiling and the
// stream pair at the readahead in force.
Status measureRound(ReadEngine &engine, const DiagnoseSpec &spec, DiagnosisReadings &r, const std::atomic_bool *cancel)
{
    const Workload seq;
    if (Status st = addBuffered(engine, {r.current, seq, spec.blockSize, spec.pointMs}, r.now, cancel); !st)
        return st;
    if (r.larger > r.current)
        if (Status st = addBuffered(engine, {r.larger, seq, spec.blockSize, spec.pointMs}, sampleIn(r.more), cancel); !st)
            return st;
    if (r.workload.kind != ReadTestKind::Sequential)
        if (Status st = addBuffered(engine, {r.current, r.workload, spec.blockSize, spec.pointMs}, sampleIn(r.load), cancel);
            !st)
            return st;
    engine.restore(nullptr);
    auto raw = engine.measureRawMbPerSec(1024 * 1024, kRawInFlight, spec.pointMs, cancel);
    if (!raw)
        return raw.error();
    addRun(r.raw, *raw, 0);
    if (!r.pairRefused) {
        auto pair = engine.measureStreamPair(spec.blockSize, spec.pointMs, cancel);
        if (!pair && pair.error().code != InvalidArgument)
            return pair.error();
        r.pairRefused = !pair;
        if (pair) {
            addRun(r.alone, pair->aloneMbPerSec, 0);
            addRun(r.with, pair->withMbPerSec, 0);
            addRun(r.other, pair->otherMbPerSec, 0);
            r.scheduler = pair->scheduler;
        }
    }
    return {};
}

// readahead_wasted's follow-up: while the workload's device read at least
// kWastedRatio times what it consumed, the readahead scaled down by that
// ratio (wasteStopReadahead) is measured kDiagnoseRuns times, at most
// kWasteSteps values.
Status measureSmaller(ReadEngine &engine, const DiagnoseSpec &spec, DiagnosisReadings &r, const std::atomic_bool *cancel)
{
    quint64 kib = r.current;
    double ratio = r.workloadAtCurrent().point.deviceReadRatio;
    for (int step = 0; step < kWasteSteps && ratio >= kWastedRatio; ++step) {
        const quint64 next = wasteStopReadahead(kib, ratio);
        if (next >= kib)
            break;
        Sample at;
        for (int i = 0; i < kDiagnoseRuns; ++i)
            if (Status st = addBuffered(engine, {next, r.workload, spec.blockSize, spec.pointMs}, at, cancel); !st)
                return st;
        r.smaller << at;
        kib = next;
        ratio = at.point.deviceReadRatio;
    }
    return {};
}

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
    r.workload = spec.workload;
    r.now.point.readAheadKiB = current;
    for (int round = 0; round < kDiagnoseRuns; ++round)
        if (Status st = measureRound(engine, spec, r, cancel); !st)
            return st.error();
    if (Status st = measureSmaller(engine, spec, r, cancel); !st)
        return st.error();
    d.measured = true;
    return r;
}

// The device's counters over every run at the readahead in force: member
// bytes and latency histograms added up.
Measurement pooled(const QList<Measurement> &runs)
{
    Measurement sum;
    const auto add = [](Log2Histogram &into, const Log2Histogram &h) {
        for (size_t i = 0; i < into.counts.size(); ++i)
            into.counts[i] += h.counts[i];
    };
    const auto addLatency = [&add](DeviceLatency &into, const DeviceLatency &l) {
        add(into.readQueue, l.readQueue);
        add(into.readDevice, l.readDevice);
        add(into.writeQueue, l.writeQueue);
        add(into.writeDevice, l.writeDevice);
    };
    for (const Measurement &m : runs) {
        if (sum.memberBytes.isEmpty())
            sum.memberBytes = QList<quint64>(m.memberBytes.size(), 0);
        for (qsizetype i = 0; i < m.memberBytes.size() && i < sum.memberBytes.size(); ++i)
            sum.memberBytes[i] += m.memberBytes.at(i);
        if (m.latency) {
            if (!sum.latency)
                sum.latency = DeviceLatency{};
            addLatency(*sum.latency, *m.latency);
        }
        if (sum.memberLatency.isEmpty())
            sum.memberLatency = QList<DeviceLatency>(m.memberLatency.size());
        for (qsizetype i = 0; i < m.memberLatency.size() && i < sum.memberLatency.size(); ++i)
            addLatency(sum.memberLatency[i], m.memberLatency.at(i));
    }
    return sum;
}

// readahead_blocking: a larger readahead makes the requests larger and the
// stream faster, so readahead is what limits each request. The gain must
// pass kBlockingGain and the runs' noise.
void checkReadaheadBlocking(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    if (!r.more)
        return;
    const CurvePoint &now = r.now.point, &more = r.more->point;
    if (now.mbPerSec <= 0 || more.avgRequestKiB < kBlockingRequestGrowth * now.avgRequestKiB)
        return;
    const Separation gain = separate((more.mbPerSec / now.mbPerSec - 1.0) * 100.0, more.mbPerSec / now.mbPerSec, now, more);
    const double threshold = (kBlockingGain - 1.0) * 100.0;
    if (gain.effectPct < threshold)
        return;
    if (!gain.separable) {
        out << notSeparable(QStringLiteral("readahead_blocking"),
                            AdvisorText::tr("at %1 KiB the stream was faster than at %2 KiB").arg(r.larger).arg(r.current),
                            gain, threshold);
        return;
    }
    Finding f;
    f.code = QStringLiteral("readahead_blocking");
    f.severity = Severity::Problem;
    f.summary = AdvisorText::tr("readahead is the blocking factor on %1: at %2 KiB the stream's requests average "
                               "%3 KiB and it reads %4; at %5 KiB requests grow to %6 KiB and it reads %7 "
                               "(medians of %8 runs each, noise +-%9%)")
                    .arg(s.name).arg(r.current).arg(now.avgRequestKiB, 0, 'f', 0).arg(formatMbPerSec(now.mbPerSec))
                    .arg(r.larger).arg(more.avgRequestKiB, 0, 'f', 0).arg(formatMbPerSec(more.mbPerSec))
                    .arg(kDiagnoseRuns).arg(round1(gain.noisePct));
    f.evidence = {{QStringLiteral("read_ahead_kb"), qint64(r.current)},
                  {QStringLiteral("avg_request_kb"), round1(now.avgRequestKiB)},
                  {QStringLiteral("mb_per_s"), round1(now.mbPerSec)},
                  {QStringLiteral("spread_pct"), round1(now.spreadPct())},
                  {QStringLiteral("interrupts_per_mb"), round1(perMb(r.now.runs))},
                  {QStringLiteral("larger_read_ahead_kb"), qint64(r.larger)},
                  {QStringLiteral("larger_avg_request_kb"), round1(more.avgRequestKiB)},
                  {QStringLiteral("larger_mb_per_s"), round1(more.mbPerSec)},
                  {QStringLiteral("larger_spread_pct"), round1(more.spreadPct())},
                  {QStringLiteral("larger_interrupts_per_mb"), round1(perMb(r.more->runs))},
                  {QStringLiteral("gain_pct"), round1(gain.effectPct)},
                  {QStringLiteral("noise_pct"), round1(gain.noisePct)},
                  {QStringLiteral("runs"), kDiagnoseRuns}};
    f.fix = {{QStringLiteral("read_ahead_kb"), qint64(r.larger)}};
    out << f;
}

// buffered_far_from_raw: buffered reads well below the raw ceiling (the gap
// past the noise), and whether the larger readahead closed the gap.
void checkFarFromRaw(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    const double buffered = r.now.point.mbPerSec, raw = r.raw.mbPerSec;
    if (raw <= 0 || buffered >= kFarFromRawPct / 100.0 * raw)
        return;
    const Separation gap = separate((1.0 - buffered / raw) * 100.0, raw / buffered, r.now.point, r.raw);
    if (!gap.separable) {
        out << notSeparable(QStringLiteral("buffered_far_from_raw"),
                            AdvisorText::tr("buffered reads were slower than raw O_DIRECT reads"), gap,
                            100.0 - kFarFromRawPct);
        return;
    }
    const double pct = buffered / raw * 100.0;
    const double more = r.more ? r.more->point.mbPerSec : 0;
    const bool largerCloses = r.more && more >= kFarFromRawPct / 100.0 * raw;
    const QString reached = AdvisorText::tr("buffered reads of %1 reach %2% of what the device delivers (%3 of %4 raw)")
                                .arg(s.name).arg(qRound(pct)).arg(formatMbPerSec(buffered), formatMbPerSec(raw));
    Finding f;
    f.code = QStringLiteral("buffered_far_from_raw");
    f.severity = Severity::Warning;
    f.summary = largerCloses
        ? reached + AdvisorText::tr("; readahead %1 KiB brings them to %2%").arg(r.larger).arg(qRound(more / raw * 100.0))
        : r.more && more >= kBlockingGain * buffered
        ? reached + AdvisorText::tr("; readahead %1 KiB brings them to %2%, so readahead is the cause and a value "
                                   "larger still is needed (blocktune-cli advise %3 finds it)")
                        .arg(r.larger).arg(qRound(more / raw * 100.0)).arg(s.name)
        : reached + AdvisorText::tr(" and a larger readahead does not close the gap: the page-cache copy, the CPU or "
                                   "request size (max_sectors_kb %1) is the likelier limit")
                        .arg(s.maxSectorsKiB.value_or(0));
    f.evidence = {{QStringLiteral("buffered_mb_per_s"), round1(buffered)},
                  {QStringLiteral("buffered_spread_pct"), round1(r.now.point.spreadPct())},
                  {QStringLiteral("raw_mb_per_s"), round1(raw)},
                  {QStringLiteral("raw_spread_pct"), round1(r.raw.spreadPct())},
                  {QStringLiteral("reached_pct"), round1(pct)},
                  {QStringLiteral("noise_pct"), round1(gap.noisePct)},
                  {QStringLiteral("runs"), kDiagnoseRuns},
                  {QStringLiteral("read_ahead_kb"), qint64(r.current)},
                  {QStringLiteral("avg_request_kb"), round1(r.now.point.avgRequestKiB)}};
    if (r.more)
        f.evidence.insert(QStringLiteral("larger_reached_pct"), round1(more / raw * 100.0));
    if (largerCloses)
        f.fix = {{QStringLiteral("read_ahead_kb"), qint64(r.larger)}};
    out << f;
}

// member_imbalance: what each member read while the array was read (every
// run at the readahead in force, added up).
void checkMemberImbalance(const DeviceSettings &s, const Measurement &now, QList<Finding> &out)
{
    quint64 total = 0;
    for (quint64 b : std::as_const(now.memberBytes))
        total += b;
    if (s.memberDisks.size() >= 2 && now.memberBytes.size() == s.memberDisks.size() && total > 0) {
        QList<double> shares;
        QJsonObject sharesJson;
        qsizetype top = 0;
        for (qsizetype i = 0; i < s.memberDisks.size(); ++i) {
            shares << double(now.memberBytes.at(i));
            sharesJson.insert(s.memberDisks.at(i), round1(double(now.memberBytes.at(i)) / double(total) * 100.0));
            if (now.memberBytes.at(i) > now.memberBytes.at(top))
                top = i;
        }
        const double jain = jainFairness(shares);
        if (jain < kImbalanceJain) {
            Finding f;
            f.code = QStringLiteral("member_imbalance");
            f.severity = Severity::Warning;
            f.summary = AdvisorText::tr("the members of %1 share reads unevenly: %2 served %3% of the bytes where "
                                       "an even share is %4% (Jain's index %5)")
                            .arg(s.name, s.memberDisks.at(top))
                            .arg(round1(double(now.memberBytes.at(top)) / double(total) * 100.0))
                            .arg(round1(100.0 / double(s.memberDisks.size())))
                            .arg(jain, 0, 'f', 2);
            f.evidence = {{QStringLiteral("shares_pct"), sharesJson}, {QStringLiteral("jain"), round1(jain * 100) / 100}};
            out << f;
        }
    }
}

// The gap between two rates (% of the larger) at which Jain's index of the
// two falls to `jain`: (1 + q)^2 = 2 jain (1 + q^2) for q = smaller / larger.
double jainGapPct(double jain)
{
    const double c = 2.0 * jain - 1.0;
    return (1.0 - (1.0 - std::sqrt(1.0 - c * c)) / c) * 100.0;
}

// stream_unfair: the measured stream loses most of its rate to a second
// one (alone against beside it), or the two split the device unevenly (the
// one against the other); either by more than the runs' noise.
void checkStreamUnfair(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    const double alone = r.alone.mbPerSec, with = r.with.mbPerSec, other = r.other.mbPerSec;
    if (r.pairRefused || alone <= 0)
        return;
    const double share = with / alone;
    const double jain = jainFairness({with, other});
    const Separation loss = separate((1.0 - share) * 100.0, alone / with, r.alone, r.with);
    const double top = std::max(with, other);
    const Separation split = separate(top > 0 ? std::abs(with - other) / top * 100.0 : 0,
                                     top > 0 ? top / std::min(with, other) : 1.0, r.with, r.other);
    const bool lossFires = share < kUnfairShare && loss.separable;
    const bool splitFires = jain < kUnfairJain && split.separable;
    if (!lossFires && !splitFires) {
        if (share < kUnfairShare)
            out << notSeparable(QStringLiteral("stream_unfair"),
                                AdvisorText::tr("the stream was slower beside a second one than alone"), loss,
                                (1.0 - kUnfairShare) * 100.0);
        else if (jain < kUnfairJain)
            out << notSeparable(QStringLiteral("stream_unfair"), AdvisorText::tr("the two streams' rates differed"),
                                split, jainGapPct(kUnfairJain));
        return;
    }
    Finding f;
    f.code = QStringLiteral("stream_unfair");
    f.severity = Severity::Problem;
    f.summary = AdvisorText::tr("with a second stream running, the measured stream on %1 drops to %2% of its "
                               "rate alone (%3 -> %4, the other stream %5; Jain %6, scheduler %7; medians of %8 "
                               "runs)")
                    .arg(s.name).arg(qRound(share * 100))
                    .arg(formatMbPerSec(alone), formatMbPerSec(with), formatMbPerSec(other))
                    .arg(jain, 0, 'f', 2).arg(r.scheduler.isEmpty() ? QStringLiteral("none") : r.scheduler)
                    .arg(kDiagnoseRuns);
    f.evidence = {{QStringLiteral("alone_mb_per_s"), round1(alone)},
                  {QStringLiteral("alone_spread_pct"), round1(r.alone.spreadPct())},
                  {QStringLiteral("with_second_mb_per_s"), round1(with)},
                  {QStringLiteral("with_second_spread_pct"), round1(r.with.spreadPct())},
                  {QStringLiteral("second_mb_per_s"), round1(other)},
                  {QStringLiteral("second_spread_pct"), round1(r.other.spreadPct())},
                  {QStringLiteral("share_pct"), round1(share * 100)},
                  {QStringLiteral("jain"), round1(jain * 100) / 100},
                  {QStringLiteral("noise_pct"), round1(lossFires ? loss.noisePct : split.noisePct)},
                  {QStringLiteral("runs"), kDiagnoseRuns},
                  {QStringLiteral("scheduler"), r.scheduler}};
    // bfq shares a device's time between processes; the others serve
    // whoever keeps the queue full.
    if (r.scheduler != u"bfq" && s.schedulers.contains(QStringLiteral("bfq")))
        f.fix = {{QStringLiteral("scheduler"), QStringLiteral("bfq")}};
    out << f;
}

// readahead_wasted: the device read kWastedRatio times (or more) the bytes
// the workload's readers consumed, past the runs' noise; the fix is the
// largest smaller value measured under the ratio, else the estimate.
void checkReadaheadWasted(const DeviceSettings &s, const DiagnosisReadings &r, QList<Finding> &out)
{
    const Sample &at = r.workloadAtCurrent();
    QList<double> ratios = at.point.readRatios;
    if (ratios.isEmpty())
        return; // not counted
    const double ratio = at.point.deviceReadRatio;
    CurvePoint spread; // the ratios' median and MAD, as the MB/s' are
    for (const double v : std::as_const(ratios))
        addRun(spread, v, 0);
    const Separation waste = separate((ratio - 1.0) * 100.0, ratio, spread);
    if (ratio < kWastedRatio)
        return;
    const QString workload = workloadName(r.workload);
    if (!waste.separable) {
        out << notSeparable(QStringLiteral("readahead_wasted"),
                            AdvisorText::tr("the device read more than %1's readers consumed").arg(workload), waste,
                            (kWastedRatio - 1.0) * 100.0);
        return;
    }
    const Sample *stop = nullptr;
    for (const Sample &smaller : r.smaller)
        if (!stop && smaller.point.deviceReadRatio > 0 && smaller.point.deviceReadRatio < kWastedRatio)
            stop = &smaller;
    const Sample *last = r.smaller.isEmpty() ? &at : &r.smaller.constLast();
    const quint64 stopKiB = stop ? stop->point.readAheadKiB
                                 : wasteStopReadahead(last == &at ? r.current : last->point.readAheadKiB,
                                                      last->point.deviceReadRatio);
    Finding f;
    f.code = QStringLiteral("readahead_wasted");
    f.severity = Severity::Warning;
    const QString readers = r.workload.kind == ReadTestKind::Mixed
        ? AdvisorText::tr("%1 sequential and %2 random readers").arg(r.workload.streams).arg(r.workload.randomReaders)
        : r.workload.streams == 1 ? AdvisorText::tr("reader") : AdvisorText::tr("%1 readers").arg(r.workload.streams);
    QString summary = AdvisorText::tr("readahead %1 KiB on %2 is wasted on the %3 workload: the device read %4 x the "
                                     "bytes its %5 consumed (median of %6 runs, +-%7%), pages fetched that no reader "
                                     "used")
                          .arg(r.current).arg(s.name).arg(workload).arg(ratio, 0, 'f', 2).arg(readers)
                          .arg(kDiagnoseRuns).arg(round1(spread.spreadPct()));
    if (stop)
        summary += AdvisorText::tr("; at %1 KiB it read %2 x (measured), the readers %3 against %4")
                       .arg(stopKiB).arg(stop->point.deviceReadRatio, 0, 'f', 2)
                       .arg(formatMbPerSec(stop->point.mbPerSec), formatMbPerSec(at.point.mbPerSec));
    else if (stopKiB < r.current)
        summary += AdvisorText::tr("; about %1 KiB (the readahead divided by the ratio, a power of two; not measured) "
                                  "should stop it").arg(stopKiB);
    f.summary = summary;
    f.evidence = {{QStringLiteral("workload"), workload},
                  {QStringLiteral("streams"), r.workload.streams},
                  {QStringLiteral("random_readers"), r.workload.randomReaders},
                  {QStringLiteral("read_ahead_kb"), qint64(r.current)},
                  {QStringLiteral("device_read_ratio"), std::round(ratio * 100) / 100},
                  {QStringLiteral("device_read_ratio_spread_pct"), round1(spread.spreadPct())},
                  {QStringLiteral("threshold_ratio"), kWastedRatio},
                  {QStringLiteral("mb_per_s"), round1(at.point.mbPerSec)},
                  {QStringLiteral("runs"), kDiagnoseRuns},
                  {QStringLiteral("stop_read_ahead_kb"), stopKiB < r.current ? QJsonValue(qint64(stopKiB)) : QJsonValue()},
                  {QStringLiteral("stop_measured"), stop != nullptr},
                  {QStringLiteral("stop_device_read_ratio"),
                   stop ? QJsonValue(std::round(stop->point.deviceReadRatio * 100) / 100) : QJsonValue()},
                  {QStringLiteral("stop_mb_per_s"), stop ? QJsonValue(round1(stop->point.mbPerSec)) : QJsonValue()}};
    QJsonObject tried;
    for (const Sample &smaller : r.smaller)
        tried.insert(QString::number(smaller.point.readAheadKiB), std::round(smaller.point.deviceReadRatio * 100) / 100);
    f.evidence.insert(QStringLiteral("device_read_ratio_at_kb"), tried);
    if (stopKiB < r.current)
        f.fix = {{QStringLiteral("read_ahead_kb"), qint64(stopKiB)}};
    out << f;
}

// queue_wait_dominates: the device's reads waited longer in the queue
// than on the device (p99), so the scheduler or nr_requests holds them.
void checkQueueWait(const DeviceSettings &s, const Measurement &now, QList<Finding> &out)
{
    if (!now.latency || now.latency->readDevice.total() < kMinLatencyRequests)
        return;
    const Log2Histogram &queue = now.latency->readQueue, &device = now.latency->readDevice;
    const double queueP99 = queue.percentileUs(99).value_or(0), deviceP99 = device.percentileUs(99).value_or(0);
    if (queueP99 <= deviceP99)
        return;
    Finding f;
    f.code = QStringLiteral("queue_wait_dominates");
    f.severity = Severity::Warning;
    const QString scheduler = s.scheduler.isEmpty() ? QStringLiteral("none") : s.scheduler;
    f.summary = AdvisorText::tr("reads of %1 wait longer in the queue than on the device: p99 %2 queued against %3 "
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
void checkSlowMember(const DeviceSettings &s, const Measurement &now, QList<Finding> &out)
{
    if (s.memberDisks.size() < 2 || now.memberLatency.size() != s.memberDisks.size())
        return;
    QList<double> p99;
    quint64 bytes = 0;
    for (const quint64 b : std::as_const(now.memberBytes))
        bytes += b;
    for (const DeviceLatency &l : now.memberLatency) {
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
                      {QStringLiteral("requests"), qint64(now.memberLatency.at(i).readDevice.total())}};
        if (bytes > 0 && now.memberBytes.size() == s.memberDisks.size())
            m.insert(QStringLiteral("bytes_share_pct"), round1(double(now.memberBytes.at(i)) / double(bytes) * 100));
        members.insert(s.memberDisks.at(i), m);
    }
    Finding f;
    f.code = QStringLiteral("slow_member");
    f.severity = Severity::Problem;
    f.summary = AdvisorText::tr("%1 is the slow member of %2: its reads took %3 on the device (p99) where the other "
                               "members' median is %4 (%5x); the array waits for it")
                    .arg(s.memberDisks.at(slowest), s.name, formatLatencyUs(p99.at(slowest)), formatLatencyUs(median))
                    .arg(p99.at(slowest) / median, 0, 'f', 1);
    f.evidence = {{QStringLiteral("member"), s.memberDisks.at(slowest)},
                  {QStringLiteral("factor"), round1(p99.at(slowest) / median)},
                  {QStringLiteral("members"), members}};
    out << f;
}

} // namespace

quint64 wasteStopReadahead(quint64 readAheadKiB, double ratio)
{
    if (readAheadKiB <= 4 || ratio <= 1.0)
        return readAheadKiB;
    const double target = double(readAheadKiB) / ratio;
    quint64 kib = 4;
    while (double(kib * 2) <= target)
        kib *= 2;
    return std::min(kib, readAheadKiB);
}

int diagnoseReads(const Workload &workload)
{
    // The stream at two readaheads, raw, the pair (alone, beside): 5 a round.
    return kDiagnoseRuns * (5 + (workload.kind == ReadTestKind::Sequential ? 0 : 1));
}

Result<Diagnosis> diagnose(SessionPort &session, ReadEngine *engine, const DiagnoseSpec &spec,
                           const std::atomic_bool *cancel)
{
    auto found = advisor_detail::lookUpDevice(session, spec.device);
    if (!found)
        return found.error();
    const DeviceSettings &s = found->settings;
    const BlockDevice *bd = found->device;

    Diagnosis d;
    d.device = bd->name;
    d.workload = spec.workload;
    advisor_detail::staticChecks(s, *bd, d.findings);
    if (!spec.measure || !engine || !s.readAheadKiB)
        return d;

    auto readings = measureForDiagnosis(*engine, spec, *s.readAheadKiB, d, cancel);
    if (!readings)
        return readings.error();
    const Measurement now = pooled(readings->now.runs);
    checkReadaheadBlocking(s, *readings, d.findings);
    checkFarFromRaw(s, *readings, d.findings);
    checkMemberImbalance(s, now, d.findings);
    checkStreamUnfair(s, *readings, d.findings);
    checkReadaheadWasted(s, *readings, d.findings);
    checkQueueWait(s, now, d.findings);
    checkSlowMember(s, now, d.findings);
    return d;
}

QJsonObject findingToJson(const Finding &f)
{
    QJsonObject o{{QStringLiteral("code"), f.code},
                  {QStringLiteral("severity"), severityName(f.severity)},
                  {QStringLiteral("summary"), f.summary},
                  {QStringLiteral("evidence"), f.evidence},
                  {QStringLiteral("fix"), f.fix}};
    if (!f.device.isEmpty())
        o.insert(QStringLiteral("device"), f.device);
    return o;
}

QJsonObject diagnosisToJson(const Diagnosis &d)
{
    QJsonArray findings;
    for (const Finding &f : d.findings)
        findings.append(findingToJson(f));
    QJsonObject out{{QStringLiteral("device"), d.device},
                    {QStringLiteral("findings"), findings},
                    {QStringLiteral("measured"), d.measured},
                    {QStringLiteral("restored"), d.restored}};
    if (d.measured) {
        out.insert(QStringLiteral("latency_unavailable"), d.latencyUnavailable.isEmpty() ? QJsonValue() : d.latencyUnavailable);
        out.insert(QStringLiteral("workload"), workloadName(d.workload));
        out.insert(QStringLiteral("runs_per_comparison"), kDiagnoseRuns);
    }
    if (d.live)
        out.insert(QStringLiteral("live"), readaheadReportToJson(*d.live));
    return out;
}

void advisor_detail::appendFinding(QTextStream &s, const Finding &f, const QString &device)
{
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
        s << "      fix: blocktune-cli set " << (f.device.isEmpty() ? device : f.device) << ' ' << fix.join(u' ') << '\n';
    }
}

QString formatDiagnosis(const Diagnosis &d)
{
    QString out;
    QTextStream s(&out);
    s << "diagnose " << d.device;
    if (d.measured)
        s << " (static checks and measured reads, each comparison " << kDiagnoseRuns << " times interleaved; workload "
          << workloadName(d.workload) << ")\n";
    else if (d.live)
        s << " (static checks and the live workload over " << QString::number(d.live->durationS, 'f', 1)
          << " s: nothing read, nothing changed)\n";
    else
        s << " (static checks)\n";
    if (d.live)
        s << formatReadaheadReport(*d.live) << '\n';
    if (d.findings.isEmpty())
        s << "  no findings\n";
    for (const Finding &f : d.findings)
        advisor_detail::appendFinding(s, f, d.device);
    if (d.measured && !d.latencyUnavailable.isEmpty())
        s << "  queue and device time not measured (queue_wait_dominates, slow_member): " << d.latencyUnavailable << '\n';
    if (d.measured && !d.restored)
        s << "settings NOT restored: " << d.restoreMessage << '\n';
    return out;
}

} // namespace blocktune
