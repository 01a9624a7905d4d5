// The advisor: a coarse readahead sweep over powers of two, refinement
// around the knee, the raw (O_DIRECT) ceiling, and the recommendation.
#include "advisor.h"
#include "advisor_p.h"

#include "common/tr.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTextStream>

#include <algorithm>
#include <cerrno>
#include <cmath>

namespace blocktune {

namespace {

constexpr qint64 kMinPointMs = 100;     // shorter runs measure the cold start, not the stream
constexpr quint64 kMaxReadaheadKiB = 64 * 1024;

/// Keeps every temporary change of the engine undone on every path out of
/// advise() and diagnose(), an exception included.
class EngineRestore final
{
public:
    explicit EngineRestore(ReadEngine &engine) : m_engine(engine) {}
    ~EngineRestore()
    {
        if (!m_done)
            m_engine.restore(nullptr);
    }
    Q_DISABLE_COPY_MOVE(EngineRestore)
    bool restore(QString *message)
    {
        m_done = true;
        return m_engine.restore(message);
    }

private:
    ReadEngine &m_engine;
    bool m_done = false;
};

} // namespace

Result<Workload> parseWorkload(const QString &text)
{
    static const QRegularExpression form(QStringLiteral(R"(^(seq|concurrent|server|mixed)(?::(\d+)(?:\+(\d+))?)?$)"));
    const auto refuse = [&] {
        return makeError(InvalidArgument, AdvisorText::tr("workload '%1' is not one of seq, concurrent:N, server:N, "
                                                         "mixed:K+R (N and K from 1 to 64, R from 0 to 64)").arg(text));
    };
    const auto m = form.match(text.trimmed());
    if (!m.hasMatch())
        return refuse();
    Workload w;
    w.kind = *parseReadTestKind(m.captured(1));
    const bool hasN = m.hasCaptured(2) && !m.captured(2).isEmpty();
    const bool hasR = m.hasCaptured(3) && !m.captured(3).isEmpty();
    const int n = hasN ? m.captured(2).toInt() : 0;
    const int r = hasR ? m.captured(3).toInt() : 0;
    switch (w.kind) {
    case ReadTestKind::Sequential:
        if (hasN)
            return refuse();
        break;
    case ReadTestKind::Concurrent:
    case ReadTestKind::Server:
        if (!hasN || hasR || n < 1 || n > 64)
            return refuse();
        w.streams = n;
        break;
    case ReadTestKind::Mixed:
        if (!hasN || !hasR || n < 1 || n > 64 || r > 64)
            return refuse();
        w.streams = n;
        w.randomReaders = r;
        break;
    }
    return w;
}

QString workloadName(const Workload &w)
{
    switch (w.kind) {
    case ReadTestKind::Sequential:
        return QStringLiteral("seq");
    case ReadTestKind::Concurrent:
        return QStringLiteral("concurrent:%1").arg(w.streams);
    case ReadTestKind::Server:
        return QStringLiteral("server:%1").arg(w.streams);
    case ReadTestKind::Mixed:
        return QStringLiteral("mixed:%1+%2").arg(w.streams).arg(w.randomReaders);
    }
    return {};
}

int readaheadWindows(const Workload &w)
{
    // A server thread opens its own descriptor, so each keeps a window;
    // random readers get no readahead worth counting.
    return w.kind == ReadTestKind::Sequential ? 1 : w.streams;
}

QList<quint64> coarseReadaheads(quint64 deviceBytes)
{
    QList<quint64> values;
    const quint64 cap = deviceBytes ? deviceBytes / 1024 / 4 : kMaxReadaheadKiB;
    for (quint64 kib = 4; kib <= kMaxReadaheadKiB && (kib <= cap || values.isEmpty()); kib *= 2)
        values << kib;
    return values;
}

qint64 plannedPointMs(qint64 budgetMs, int runs, double rawShare)
{
    if (runs <= 0)
        return 0;
    return qint64(double(budgetMs) * (1.0 - rawShare)) / runs;
}

QJsonObject adviceProfile(const QString &device, const QString &mdUuid, const Workload &workload, quint64 readAheadKiB,
                          const QString &why)
{
    QJsonObject match;
    if (!mdUuid.isEmpty())
        match.insert(QStringLiteral("md_uuid"), mdUuid); // survives a renamed array
    else
        match.insert(QStringLiteral("name"), device);
    QJsonObject rule{{QStringLiteral("match"), match},
                     {QStringLiteral("set"), QJsonObject{{QStringLiteral("read_ahead_kb"), qint64(readAheadKiB)}}}};
    return QJsonObject{
        {QStringLiteral("schema"), 1},
        {QStringLiteral("name"), QStringLiteral("advise-%1-%2").arg(device, workloadName(workload)).replace(u':', u'-').replace(u'+', u'-')},
        {QStringLiteral("description"), why},
        {QStringLiteral("rules"), QJsonArray{rule}},
    };
}

namespace {

// Why buffered reads stop where they do: the cause and its figures, kept in
// the advice so the console can say it in its own words.
void findReach(Advice &a, std::optional<quint64> maxSectorsKiB, quint64 rawBlockKiB)
{
    a.reachLimitKiB = 0;
    a.reachRequestKiB = 0;
    if (a.rawMbPerSec <= 0) {
        a.reach = a.source == u"measured" ? ReachCause::NoRaw : ReachCause::NoRawRecorded;
        return;
    }
    const CurvePoint *best = nullptr;
    for (const CurvePoint &p : a.curve)
        if (p.readAheadKiB == a.bestKiB)
            best = &p;
    const CurvePoint &last = a.curve.constLast();
    const bool stillRising =
        a.curve.size() >= 2 && best == &last && last.mbPerSec > a.curve.at(a.curve.size() - 2).mbPerSec * 1.05;
    if (stillRising)
        a.reachLimitKiB = last.readAheadKiB;
    if (a.reachedPct > 105)
        a.reach = ReachCause::AboveRaw;
    else if (a.reachedPct >= kFarFromRawPct)
        a.reach = stillRising ? ReachCause::CloseStillRising : ReachCause::Close;
    else if (stillRising)
        a.reach = ReachCause::FarStillRising;
    else if (best && maxSectorsKiB && best->avgRequestKiB >= 0.9 * double(*maxSectorsKiB) && *maxSectorsKiB < rawBlockKiB)
        a.reach = ReachCause::MaxSectors, a.reachLimitKiB = *maxSectorsKiB;
    else
        a.reach = ReachCause::CopyOrCpu;
    a.reachRequestKiB = best ? best->avgRequestKiB : 0;
}

// One sentence on how close buffered reads came and, when not close, the
// likelier cause with the figures that show it (the CLI's and the JSON's).
QString verdictFor(const Advice &a, quint64 rawBlockKiB)
{
    const QString reached = QStringLiteral("buffered reads reach %1% of what the device delivers (%2 on the "
                                           "plateau, %3 raw)")
                                .arg(qRound(a.reachedPct))
                                .arg(formatMbPerSec(a.analysis.plateauMbPerSec))
                                .arg(formatMbPerSec(a.rawMbPerSec));
    switch (a.reach) {
    case ReachCause::NoRaw: return QStringLiteral("the raw ceiling could not be measured");
    case ReachCause::NoRawRecorded:
        return QStringLiteral("the recorded curve holds no raw (O_DIRECT) figure to compare with");
    case ReachCause::AboveRaw:
        return reached + QStringLiteral("; buffered reads passed the raw figure (1 MiB O_DIRECT reads, %1 in flight): "
                                        "the device serves more than that keeps in flight, so treat the raw figure "
                                        "as a floor, not a ceiling").arg(kRawInFlight);
    case ReachCause::Close: return reached;
    case ReachCause::CloseStillRising:
        return reached + QStringLiteral("; throughput was still rising at the largest value tried (%1 KiB, "
                                        "the cap a quarter of the device sets)").arg(a.reachLimitKiB);
    case ReachCause::FarStillRising:
        return reached + QStringLiteral("; no readahead came close, and throughput was still rising at the largest "
                                        "value tried (%1 KiB, the cap a quarter of the device sets)").arg(a.reachLimitKiB);
    case ReachCause::MaxSectors:
        return reached + QStringLiteral("; no readahead came close: requests stop at max_sectors_kb %1 (average %2 KiB "
                                        "at the best point) while the raw reads used %3 KiB requests")
                             .arg(a.reachLimitKiB).arg(a.reachRequestKiB, 0, 'f', 0).arg(rawBlockKiB);
    case ReachCause::CopyOrCpu: break;
    }
    return reached + QStringLiteral("; no readahead came close, though requests reached %1 KiB: the page-cache "
                                    "copy or the CPU is the likelier limit, not readahead")
                         .arg(a.reachRequestKiB, 0, 'f', 0);
}

constexpr int kRefinePoints = 2;
constexpr int kConfirmRuns = 6; // pick, reference, three times
constexpr int kMaxRunsPerPoint = 9;

int remeasureRuns(int points)
{
    return std::max(3, points / 3);
}

// The budget holds every run at kMinPointMs at least, with 10% to spare.
Status checkBudget(const AdviseSpec &spec, const QString &device, int points)
{
    const int runs = plannedRuns(points) + 1; // +1: the raw measurement
    const qint64 minBudget = qint64(std::ceil(double(kMinPointMs * runs) * 1.1 / 100.0)) * 100;
    if (spec.budgetMs < minBudget)
        return makeError(InvalidArgument, AdvisorText::tr("--budget %1 ms is too short for the %2 readahead points of %3 "
                                                         "(each measured %4 times or more, %5 runs of %6 ms at least: "
                                                         "at least %7 s)")
                                              .arg(spec.budgetMs).arg(points).arg(device).arg(kMinRunsPerPoint)
                                              .arg(runs).arg(kMinPointMs)
                                              .arg(double(minBudget) / 1000.0, 0, 'f', 1));
    return {};
}

CurvePoint *pointAt(QList<CurvePoint> &curve, quint64 kib)
{
    for (CurvePoint &p : curve)
        if (p.readAheadKiB == kib)
            return &p;
    return nullptr;
}

bool measuredAt(const QList<CurvePoint> &curve, quint64 kib)
{
    return std::any_of(curve.cbegin(), curve.cend(), [kib](const CurvePoint &p) { return p.readAheadKiB == kib; });
}

// The runs of one advise() against its budget, on one clock: the raw
// ceiling first, then buffered runs that divide what is left.
class BudgetedSweep final
{
public:
    BudgetedSweep(ReadEngine &engine, const AdviseSpec &spec, Advice &a, int runs,
                  const std::function<void(const CurvePoint &)> &pointDone, const std::atomic_bool *cancel)
        : m_engine(engine), m_spec(spec), m_a(a), m_pointDone(pointDone), m_cancel(cancel), m_runsLeft(runs)
    {
        m_clock.start();
    }
    Q_DISABLE_COPY_MOVE(BudgetedSweep)

    void measureRaw(quint64 blockSize);
    /// One run at `kib`, added to its point; the MB/s it measured, or
    /// nullopt when it was not measured (cancelled, an error, no runs left).
    std::optional<double> measure(quint64 kib, bool refinement);
    bool stopped() const { return m_a.cancelled || !m_errors.isEmpty(); }
    int runsLeft() const { return m_runsLeft; }
    /// The raw measurement's errors, then the buffered runs'.
    QStringList errors() const { return m_rawErrors + m_errors; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

private:
    ReadEngine &m_engine;
    const AdviseSpec &m_spec;
    Advice &m_a;
    const std::function<void(const CurvePoint &)> &m_pointDone;
    const std::atomic_bool *m_cancel;
    QElapsedTimer m_clock;
    QStringList m_rawErrors;
    QStringList m_errors; ///< the buffered runs': they stop the sweep
    int m_runsLeft = 0;
    // Time promised so far: the wall clock, or the runs' planned reading
    // time when that is more (a run's overhead shows up after it ran).
    qint64 m_plannedMs = 0;
    // Time spent per run beyond its reading (the cold start, the write):
    // learned from the runs so far, so the remaining ones fit.
    double m_overheadMs = 0;
    int m_measured = 0;
};

// The raw ceiling first, with its share of the budget; the runs then
// divide what is left, so a slow start shortens runs, not the budget.
void BudgetedSweep::measureRaw(quint64 blockSize)
{
    const qint64 rawMs = std::max<qint64>(kMinPointMs, qint64(double(m_spec.budgetMs) * m_spec.rawShare));
    m_plannedMs = rawMs;
    if (auto raw = m_engine.measureRawMbPerSec(blockSize, kRawInFlight, rawMs, m_cancel))
        m_a.rawMbPerSec = *raw;
    else if (raw.error().code == Interrupted)
        m_a.cancelled = true;
    else
        m_rawErrors << raw.error().message; // the sweep still runs: its own refusal says more
}

std::optional<double> BudgetedSweep::measure(quint64 kib, bool refinement)
{
    if (m_cancel && m_cancel->load())
        m_a.cancelled = true;
    if (stopped() || m_runsLeft <= 0)
        return std::nullopt;
    const qint64 left = m_spec.budgetMs - std::max(m_clock.elapsed(), m_plannedMs);
    const qint64 runMs = std::max<qint64>(kMinPointMs / 2, qint64(double(left) / m_runsLeft - m_overheadMs));
    --m_runsLeft;
    m_plannedMs += runMs;
    if (m_a.pointMs == 0)
        m_a.pointMs = runMs;
    BufferedProbe probe{kib, m_spec.workload, m_spec.blockSize, runMs};
    const qint64 started = m_clock.elapsed();
    auto m = m_engine.measureBuffered(probe, m_cancel);
    if (!m) {
        if (m.error().code == Interrupted)
            m_a.cancelled = true;
        else
            m_errors << m.error().message;
        return std::nullopt;
    }
    const double spent = double(m_clock.elapsed() - started);
    m_overheadMs = (m_overheadMs * m_measured + std::max(0.0, spent - double(runMs))) / (m_measured + 1);
    ++m_measured;
    ++m_a.runs;
    // Points are kept by what was asked: a kernel that rounds (md's floor
    // does not; a device limit might) still gives one point per value.
    CurvePoint *p = pointAt(m_a.curve, kib);
    if (!p) {
        CurvePoint fresh;
        fresh.readAheadKiB = kib;
        fresh.refinement = refinement;
        const auto at = std::lower_bound(m_a.curve.begin(), m_a.curve.end(), kib,
                                         [](const CurvePoint &x, quint64 k) { return x.readAheadKiB < k; });
        p = &*m_a.curve.insert(at, fresh);
    }
    addRun(*p, m->mbPerSec, m->avgRequestKiB, m->deviceReadRatio);
    if (m_pointDone)
        m_pointDone(*p);
    return m->mbPerSec;
}

// Pass `pass` over `count` grid points: a ascending, b descending (the
// largest last), c the even places then the odd ones, so no point's runs come in a row and a
// drift of the machine does not pile on one end of the curve.
QList<qsizetype> passOrder(qsizetype count, int pass)
{
    QList<qsizetype> order;
    for (qsizetype i = 0; i < count; ++i)
        order << i;
    if (pass % 3 == 1 && count > 1) {
        // Descending, the largest last: pass a ended on it.
        std::reverse(order.begin(), order.end());
        std::rotate(order.begin(), order.begin() + 1, order.end());
    }
    else if (pass % 3 == 2)
        std::stable_partition(order.begin(), order.end(), [](qsizetype i) { return i % 2 == 0; });
    return order;
}

void measurePasses(BudgetedSweep &sweep, const QList<quint64> &values, bool refinement)
{
    for (int pass = 0; pass < kMinRunsPerPoint; ++pass)
        for (qsizetype i : passOrder(values.size(), pass))
            if (!sweep.measure(values.at(i), refinement))
                return;
}

// The curve as the answer will read it: without the values that waste the
// workload's readahead (server and mixed), so the refinement, the spare runs
// and the confirmation work where the pick can land.
CurveAnalysis analyzeForPick(const Advice &a, double tolerance)
{
    return analyzeWithoutWaste(a.curve, wastefulReadaheads(a.workload, a.curve), tolerance);
}

// Refinement: the answer lies between the grid point below the pick and
// the one above it; one value in each of those intervals (half-way below,
// and half-way up to the next doubling), measured in passes like the grid.
// The value above is where a pick the confirmation rejects moves to, so a
// rejection costs half a doubling, not a whole one.
void refineKnee(BudgetedSweep &sweep, const Advice &a, double tolerance)
{
    const quint64 pick = analyzeForPick(a, tolerance).pickKiB;
    quint64 low = 0, high = 0;
    for (const CurvePoint &p : a.curve) {
        if (p.readAheadKiB < pick)
            low = p.readAheadKiB;
        if (p.readAheadKiB > pick && high == 0)
            high = p.readAheadKiB;
    }
    QList<quint64> values;
    const auto add = [&](quint64 from, quint64 to) {
        const quint64 v = (from + (to - from) / 2) / 4 * 4; // whole 4 KiB pages
        if (from > 0 && v > from && v < to && !measuredAt(a.curve, v) && !values.contains(v))
            values << v;
    };
    add(low, pick);
    add(pick, high);
    measurePasses(sweep, values, true);
}

// How much a point needs another run: above 100 when its runs disagree by
// more than a stall and are too few to tell which ones stalled (the
// median may be a stall's); else its spread when that is wide or its median
// rests on fewer than three runs; 0 when it is settled.
double unsureScore(const CurvePoint &p, double tolerancePct)
{
    if (p.runs.size() < 5 && runsDisagree(p.runs))
        return 100.0 + (1.0 - p.minMbPerSec() / p.maxMbPerSec()) * 100.0;
    if (p.spreadPct() > tolerancePct / 2 || p.keptRuns().size() < kMinRunsPerPoint)
        return p.spreadPct() + 1.0;
    return 0;
}

// Runs left before the confirmation go where they decide most: the widest
// of the pick, its neighbours, the plateau's points and any low point
// between the pick and the plateau (a dip that may be a draw); with none
// wide, the less measured of the pick and the point below it (the boundary
// of the answer).
void remeasureWide(BudgetedSweep &sweep, Advice &a, double tolerance, int keepRuns)
{
    while (!sweep.stopped() && sweep.runsLeft() > keepRuns) {
        const CurveAnalysis an = analyzeForPick(a, tolerance);
        const double floorRate = an.plateauMbPerSec * (1.0 - an.bandPct / 100.0);
        QList<quint64> decisive{an.pickKiB, an.plateauKiB, an.bestKiB};
        QList<quint64> boundary{an.pickKiB};
        for (qsizetype i = 0; i < a.curve.size(); ++i) {
            const CurvePoint &p = a.curve.at(i);
            if (p.readAheadKiB > an.pickKiB && p.readAheadKiB < an.plateauKiB && p.mbPerSec < floorRate)
                decisive << p.readAheadKiB;
            if (p.readAheadKiB != an.pickKiB)
                continue;
            if (i > 0)
                decisive << a.curve.at(i - 1).readAheadKiB, boundary << a.curve.at(i - 1).readAheadKiB;
            if (i + 1 < a.curve.size())
                decisive << a.curve.at(i + 1).readAheadKiB;
        }
        // Every point in the band shapes the plateau: one whose runs may
        // hold two stalls among three is as decisive as the pick.
        for (const CurvePoint &p : std::as_const(a.curve))
            if (p.readAheadKiB > an.pickKiB && unsureScore(p, an.tolerancePct) >= 100)
                decisive << p.readAheadKiB;
        const auto open = [](const CurvePoint *p) { return p && p->runs.size() < kMaxRunsPerPoint; };
        const CurvePoint *target = nullptr;
        for (const quint64 kib : std::as_const(decisive)) {
            const CurvePoint *p = pointAt(a.curve, kib);
            if (open(p) && unsureScore(*p, an.tolerancePct) > 0
                && (!target || unsureScore(*p, an.tolerancePct) > unsureScore(*target, an.tolerancePct)))
                target = p;
        }
        for (const quint64 kib : std::as_const(boundary)) {
            const CurvePoint *p = pointAt(a.curve, kib);
            if (!target && open(p))
                target = p;
            else if (target && target->spreadPct() <= an.tolerancePct / 2 && open(p) && p->runs.size() < target->runs.size())
                target = p;
        }
        if (!target || !sweep.measure(target->readAheadKiB, false))
            return;
    }
}

// The last round: the pick and the plateau's point in turn, so both see
// the same machine. A pick that falls out of the band against its reference
// is moved up to the next point in the band.
void confirmPick(BudgetedSweep &sweep, Advice &a, double tolerance)
{
    const CurveAnalysis an = analyzeForPick(a, tolerance);
    Confirmation &c = a.confirmation;
    c.pickKiB = an.pickKiB;
    // The reference: a larger point on the plateau, the one whose median is
    // nearest the plateau figure.
    const double floorRate = an.plateauMbPerSec * (1.0 - an.bandPct / 100.0);
    double nearest = -1;
    for (const CurvePoint &p : std::as_const(a.curve)) {
        if (p.readAheadKiB <= c.pickKiB || p.mbPerSec < floorRate)
            continue;
        const double d = std::abs(p.mbPerSec - an.plateauMbPerSec);
        if (nearest < 0 || d < nearest) {
            nearest = d;
            c.referenceKiB = p.readAheadKiB;
        }
    }
    if (c.referenceKiB == 0 || c.pickKiB == 0)
        return;
    for (int i = 0; i < kConfirmRuns / 2; ++i) {
        const auto pick = sweep.measure(c.pickKiB, false);
        if (!pick)
            break;
        c.pickRuns << *pick;
        const auto ref = sweep.measure(c.referenceKiB, false);
        if (!ref)
            break;
        c.referenceRuns << *ref;
    }
    if (c.referenceRuns.isEmpty())
        return;
    c.ran = true;
    // Each pair saw the same machine: the median of the pairs' ratios, so
    // one slow draw does not decide. The pick fails when that ratio is
    // below the tolerance by more than the ratio's noise (two standard
    // errors: each run's noise in both members of a pair, over the pairs).
    QList<double> ratios;
    for (qsizetype i = 0; i < c.referenceRuns.size(); ++i)
        if (c.referenceRuns.at(i) > 0)
            ratios << c.pickRuns.at(i) / c.referenceRuns.at(i);
    c.ratio = medianOf(ratios);
    const CurveAnalysis after = analyzeForPick(a, tolerance);
    const double error = after.noisePct / 100.0 * std::sqrt(2.0 / double(std::max<qsizetype>(1, ratios.size())));
    c.held = c.ratio >= 1.0 - after.tolerancePct / 100.0 - 2.0 * error;
    if (!c.held)
        c.rejected << c.pickKiB;
}

// Whether the device is back where it was: what the engine says, and what
// the session reads now.
void checkRestored(SessionPort &session, const QString &device, EngineRestore &guard, Advice &a)
{
    a.restored = guard.restore(&a.restoreMessage);
    const auto now = session.settings(device);
    if (now && now->readAheadKiB != a.originalKiB) {
        a.restored = false;
        a.restoreMessage = QStringLiteral("read_ahead_kb of %1 is %2, not the original %3")
                               .arg(a.queueDevice).arg(now->readAheadKiB.value_or(0)).arg(a.originalKiB.value_or(0));
    }
}

QString percentText(double v)
{
    return QString::number(v, 'f', v < 10 ? 1 : 0);
}

// The sentence on the band and the one on what the noise hid.
void describeBand(Advice &a)
{
    const CurveAnalysis &an = a.analysis;
    const QString range = an.sameKiB.size() > 1
        ? QStringLiteral("%1 to %2 KiB give %3-%4 MB/s").arg(an.sameKiB.constFirst()).arg(an.sameKiB.constLast())
              .arg(qRound(an.sameMinMbPerSec)).arg(qRound(an.sameMaxMbPerSec))
        : QStringLiteral("only %1 KiB gives %2 MB/s").arg(an.pickKiB).arg(qRound(an.sameMinMbPerSec));
    const double span = an.plateauMbPerSec > 0
        ? std::max(an.plateauMbPerSec - an.sameMinMbPerSec, an.sameMaxMbPerSec - an.plateauMbPerSec)
              / an.plateauMbPerSec * 100.0
        : 0;
    const QString smallest = an.bandPct > an.tolerancePct + 0.05
        ? QStringLiteral("the smallest is %1 KiB (within %2% of the plateau, or short of that by less than the noise "
                         "can tell: +-%3%)").arg(an.pickKiB).arg(percentText(an.tolerancePct))
              .arg(percentText(an.bandPct - an.tolerancePct))
        : QStringLiteral("the smallest is %1 KiB").arg(an.pickKiB);
    a.sameText = QStringLiteral("%1, the same within +-%2% of the plateau (%3 MB/s, the median of the top %4 "
                                "points of the fitted curve) and the noise; %5")
                     .arg(range, percentText(span)).arg(qRound(an.plateauMbPerSec)).arg(kPlateauPoints).arg(smallest);
    if (an.resolved) {
        const bool anyRepeated = std::any_of(a.curve.cbegin(), a.curve.cend(),
                                             [](const CurvePoint &p) { return p.runs.size() >= 2; });
        if (!anyRepeated)
            a.noiseText = QStringLiteral("each point was measured once, so the run-to-run noise is unknown and the "
                                         "band is the tolerance alone");
        return;
    }
    if (!an.twoSpeedKiB.isEmpty()) {
        QStringList where;
        const quint64 top = an.twoSpeedKiB.constLast(); // sorted, as the curve
        for (const quint64 kib : an.twoSpeedKiB)
            if (kib != top)
                where << QString::number(kib);
        const QString also = where.isEmpty()
            ? QString()
            : QStringLiteral("; its runs split the same way at %1 KiB").arg(where.join(QStringLiteral(", ")));
        a.noiseText = QStringLiteral("the machine read at two speeds during the measurement (about %1 and %2 MB/s at "
                                     "%3 KiB%4), so the curve mixes the two and its knee is neither's; a longer "
                                     "budget would mix them again. Advise again when it reads at one speed (on a VM, "
                                     "the host's load can do this)")
                          .arg(qRound(an.slowSpeedMbPerSec)).arg(qRound(an.fastSpeedMbPerSec))
                          .arg(top).arg(also);
        if (an.neededRuns > 0)
            a.noiseText += QStringLiteral("; the run-to-run noise (+-%1%) is also wider than the tolerance (%2%)")
                               .arg(percentText(an.noisePct), percentText(an.tolerancePct));
        return;
    }
    if (a.budgetMs > 0 && an.fewestRuns > 0) {
        const double share = double(an.neededRuns) / double(an.fewestRuns);
        a.neededBudgetMs = qint64(std::ceil(double(a.budgetMs) * share / 1000.0)) * 1000;
    }
    a.noiseText = QStringLiteral("the run-to-run noise (+-%1%) is wider than the tolerance (%2%), so points within "
                                 "the tolerance cannot be told from points outside it; about %3 runs a point would "
                                 "tell them apart%4")
                      .arg(percentText(an.noisePct), percentText(an.tolerancePct)).arg(an.neededRuns)
                      .arg(a.neededBudgetMs ? QStringLiteral(" (--budget %1s)").arg(*a.neededBudgetMs / 1000)
                                            : QString());
}

// From the sorted curve: the analysis, the knee, the recommendation (the
// md/dm floor when it is larger), the verdict and the profile that sets it.
void recommend(Advice &a, double tolerance, std::optional<quint64> maxSectorsKiB, const QString &mdUuid,
               quint64 rawBlockKiB)
{
    quint64 above = 0;
    for (const quint64 r : std::as_const(a.confirmation.rejected))
        above = std::max(above, r);
    a.wastedKiB = wastefulReadaheads(a.workload, a.curve);
    a.analysis = analyzeWithoutWaste(a.curve, a.wastedKiB, tolerance, above);
    a.bestKiB = a.analysis.bestKiB;
    a.bestMbPerSec = a.analysis.bestMbPerSec;
    a.kneeKiB = a.analysis.pickKiB;
    a.recommendedKiB = a.kneeKiB;
    if (a.floorKiB && *a.floorKiB > a.kneeKiB) {
        a.recommendedKiB = *a.floorKiB;
        a.floorDecides = true;
    }
    a.reachedPct = a.rawMbPerSec > 0 ? a.analysis.plateauMbPerSec / a.rawMbPerSec * 100.0 : 0;
    findReach(a, maxSectorsKiB, rawBlockKiB);
    a.verdict = verdictFor(a, rawBlockKiB);
    describeBand(a);
    if (!a.analysis.resolved) {
        // Not resolved: the curve's pick is kept to be shown as what it is,
        // and nothing is recommended, applied, saved or exported.
        a.unresolvedPickKiB = a.kneeKiB; // the curve's, not raised to a floor: no answer either way
        a.recommendedKiB = 0;
        a.kneeKiB = 0;
        a.floorDecides = false;
        return;
    }
    a.memoryKiB = a.recommendedKiB * quint64(a.windows) * quint64(a.devices);
    const QString why = a.floorDecides
        ? QStringLiteral("%1 KiB: the md/dm floor (2 x stripe); the curve's knee was %2 KiB (workload %3)")
              .arg(a.recommendedKiB).arg(a.kneeKiB).arg(workloadName(a.workload))
        : QStringLiteral("%1 KiB: the smallest readahead within %2% of the plateau (%3), workload %4")
              .arg(a.recommendedKiB).arg(percentText(a.analysis.bandPct), formatMbPerSec(a.analysis.plateauMbPerSec),
                   workloadName(a.workload));
    a.profile = adviceProfile(a.queueDevice, mdUuid, a.workload, a.recommendedKiB, why);
}

} // namespace

int plannedRuns(int points)
{
    return points * kMinRunsPerPoint + kRefinePoints * kMinRunsPerPoint + remeasureRuns(points) + kConfirmRuns;
}

Result<Advice> advise(SessionPort &session, ReadEngine &engine, const AdviseSpec &spec,
                      const std::function<void(const CurvePoint &)> &pointDone, const std::atomic_bool *cancel)
{
    auto found = advisor_detail::lookUpDevice(session, spec.device);
    if (!found)
        return found.error();
    const DeviceSettings *settings = &found->settings;
    const BlockDevice *bd = found->device;

    const QList<quint64> grid = coarseReadaheads(found->sizeBytes());
    if (Status st = checkBudget(spec, bd->name, int(grid.size())); !st)
        return st.error();

    Advice a;
    a.device = bd->name;
    a.queueDevice = found->queue();
    a.workload = spec.workload;
    a.floorKiB = settings->readaheadFloorKiB;
    a.originalKiB = settings->readAheadKiB;
    a.budgetMs = spec.budgetMs;
    a.windows = readaheadWindows(spec.workload);

    BudgetedSweep sweep(engine, spec, a, plannedRuns(int(grid.size())), pointDone, cancel);
    EngineRestore guard(engine);
    const quint64 rawBlock = 1024 * 1024;
    sweep.measureRaw(rawBlock);
    measurePasses(sweep, grid, false);
    // Half the spare runs settle the grid's knee before the refinement
    // looks below it; the other half settle the refined answer.
    const int spare = remeasureRuns(int(grid.size()));
    remeasureWide(sweep, a, spec.tolerance, kConfirmRuns + kRefinePoints * kMinRunsPerPoint + spare - spare / 2);
    if (!sweep.stopped())
        refineKnee(sweep, a, spec.tolerance);
    remeasureWide(sweep, a, spec.tolerance, kConfirmRuns);
    if (!sweep.stopped())
        confirmPick(sweep, a, spec.tolerance);

    checkRestored(session, spec.device, guard, a);
    a.elapsedMs = sweep.elapsedMs();

    if (!sweep.errors().isEmpty() && a.curve.isEmpty())
        return makeError(EIO, sweep.errors().join(QStringLiteral("; ")));
    if (a.curve.isEmpty()) {
        a.cancelled = true;
        return a;
    }
    recommend(a, spec.tolerance, settings->maxSectorsKiB, bd->md ? bd->md->uuid : QString(), rawBlock / 1024);
    return a;
}

Advice adviseFromCurve(const RecordedCurve &recorded, const AdviseSpec &spec, const QString &source)
{
    Advice a;
    a.source = source;
    a.device = spec.device.isEmpty() ? recorded.device : spec.device;
    a.queueDevice = a.device;
    a.workload = spec.workload;
    a.curve = recorded.curve;
    a.floorKiB = recorded.floorKiB;
    a.rawMbPerSec = recorded.rawMbPerSec;
    a.windows = readaheadWindows(spec.workload);
    a.restored = true; // nothing was changed
    for (const CurvePoint &p : std::as_const(a.curve))
        a.runs += int(std::max<qsizetype>(1, p.runs.size()));
    recommend(a, spec.tolerance, std::nullopt, QString(), 1024);
    return a;
}

namespace {

QJsonArray runFigures(const QList<double> &values)
{
    QJsonArray out;
    for (const double v : values)
        out.append(std::round(v * 1000.0) / 1000.0);
    return out;
}

QJsonArray kibFigures(const QList<quint64> &values)
{
    QJsonArray out;
    for (const quint64 v : values)
        out.append(qint64(v));
    return out;
}

QJsonObject analysisToJson(const Advice &a)
{
    const CurveAnalysis &an = a.analysis;
    return QJsonObject{
        {QStringLiteral("plateau_mb_per_s"), an.plateauMbPerSec},
        {QStringLiteral("plateau_points"), kPlateauPoints},
        {QStringLiteral("plateau_read_ahead_kb"), qint64(an.plateauKiB)},
        {QStringLiteral("tolerance_pct"), an.tolerancePct},
        {QStringLiteral("noise_pct"), an.noisePct},
        {QStringLiteral("band_pct"), an.bandPct},
        {QStringLiteral("fit"), an.saturation ? QStringLiteral("saturation") : QStringLiteral("monotone")},
        {QStringLiteral("saturation"),
         an.fitRateMbPerSec > 0 ? QJsonValue(QJsonObject{{QStringLiteral("rate_mb_per_s"), an.fitRateMbPerSec},
                                                         {QStringLiteral("half_rate_read_ahead_kb"), an.fitHalfKiB},
                                                         {QStringLiteral("floor_read_ahead_kb"), an.fitFloorKiB},
                                                         {QStringLiteral("chi"), an.fitChi},
                                                         {QStringLiteral("fits"), an.saturation}})
                                : QJsonValue()},
        {QStringLiteral("same_within_noise_kb"), kibFigures(an.sameKiB)},
        {QStringLiteral("same_min_mb_per_s"), an.sameMinMbPerSec},
        {QStringLiteral("same_max_mb_per_s"), an.sameMaxMbPerSec},
        {QStringLiteral("step_up_read_ahead_kb"), an.stepUpKiB ? QJsonValue(qint64(an.stepUpKiB)) : QJsonValue()},
        {QStringLiteral("step_up_gain_pct"), an.stepUpKiB ? QJsonValue(an.stepUpGainPct) : QJsonValue()},
        {QStringLiteral("fewest_runs"), an.fewestRuns},
        {QStringLiteral("resolved"), an.resolved},
        {QStringLiteral("needed_runs_per_point"), an.neededRuns > 0 ? QJsonValue(an.neededRuns) : QJsonValue()},
        {QStringLiteral("needed_budget_ms"), a.neededBudgetMs ? QJsonValue(*a.neededBudgetMs) : QJsonValue()},
        {QStringLiteral("two_speeds"),
         an.twoSpeedKiB.isEmpty() ? QJsonValue()
                                  : QJsonValue(QJsonObject{{QStringLiteral("slow_mb_per_s"), an.slowSpeedMbPerSec},
                                                           {QStringLiteral("fast_mb_per_s"), an.fastSpeedMbPerSec},
                                                           {QStringLiteral("read_ahead_kb"), kibFigures(an.twoSpeedKiB)}})},
        {QStringLiteral("summary"), a.sameText},
        {QStringLiteral("noise"), a.noiseText},
    };
}

QJsonObject confirmationToJson(const Confirmation &c)
{
    return QJsonObject{
        {QStringLiteral("ran"), c.ran},
        {QStringLiteral("pick_read_ahead_kb"), qint64(c.pickKiB)},
        {QStringLiteral("reference_read_ahead_kb"), qint64(c.referenceKiB)},
        {QStringLiteral("pick_runs"), runFigures(c.pickRuns)},
        {QStringLiteral("reference_runs"), runFigures(c.referenceRuns)},
        {QStringLiteral("ratio"), c.ratio},
        {QStringLiteral("held"), c.held},
        {QStringLiteral("rejected_kb"), kibFigures(c.rejected)},
    };
}

// What waste left out of the analysis (server:N and mixed:K+R).
QJsonObject wasteToJson(const Advice &a)
{
    const bool applies = a.workload.kind == ReadTestKind::Server || a.workload.kind == ReadTestKind::Mixed;
    return QJsonObject{{QStringLiteral("applies"), applies},
                       {QStringLiteral("ratio_limit"), kWastedRatio},
                       {QStringLiteral("excluded_read_ahead_kb"), kibFigures(a.wastedKiB)}};
}

} // namespace

QJsonObject adviceToJson(const Advice &a)
{
    QJsonArray curve;
    for (qsizetype i = 0; i < a.curve.size(); ++i) {
        const CurvePoint &p = a.curve.at(i);
        const QList<double> &fit = a.analysis.fittedMbPerSec;
        curve.append(QJsonObject{{QStringLiteral("read_ahead_kb"), qint64(p.readAheadKiB)},
                                 {QStringLiteral("mb_per_s"), p.mbPerSec},
                                 {QStringLiteral("fitted_mb_per_s"),
                                  i < fit.size() && std::isfinite(fit.at(i)) ? QJsonValue(fit.at(i)) : QJsonValue()},
                                 {QStringLiteral("avg_request_kb"), p.avgRequestKiB},
                                 {QStringLiteral("refinement"), p.refinement},
                                 {QStringLiteral("runs"), runFigures(p.runs)},
                                 {QStringLiteral("stalled_runs"), runFigures(p.stalledRuns())},
                                 {QStringLiteral("min_mb_per_s"), p.minMbPerSec()},
                                 {QStringLiteral("max_mb_per_s"), p.maxMbPerSec()},
                                 {QStringLiteral("spread_pct"), p.spreadPct()},
                                 {QStringLiteral("device_read_ratio"),
                                  p.deviceReadRatio > 0 ? QJsonValue(p.deviceReadRatio) : QJsonValue()}});
    }
    QJsonObject o{
        {QStringLiteral("device"), a.device},
        {QStringLiteral("queue_device"), a.queueDevice},
        {QStringLiteral("workload"), workloadName(a.workload)},
        {QStringLiteral("source"), a.source},
        {QStringLiteral("analysis"), analysisToJson(a)},
        {QStringLiteral("confirmation"), confirmationToJson(a.confirmation)},
        {QStringLiteral("runs"), a.runs},
        {QStringLiteral("run_ms"), a.pointMs},
        // Null when nothing is recommended; the curve's pick of an unresolved
        // advice goes under a name no script takes for a recommendation.
        {QStringLiteral("recommended_read_ahead_kb"), a.recommends() ? QJsonValue(qint64(a.recommendedKiB)) : QJsonValue()},
        {QStringLiteral("knee_kb"), a.kneeKiB ? QJsonValue(qint64(a.kneeKiB)) : QJsonValue()},
        {QStringLiteral("unresolved_pick_read_ahead_kb"),
         a.unresolvedPickKiB ? QJsonValue(qint64(a.unresolvedPickKiB)) : QJsonValue()},
        {QStringLiteral("best_read_ahead_kb"), qint64(a.bestKiB)},
        {QStringLiteral("best_mb_per_s"), a.bestMbPerSec},
        {QStringLiteral("curve"), curve},
        {QStringLiteral("raw_peak_mb_per_s"), a.rawMbPerSec},
        {QStringLiteral("reached_pct"), a.reachedPct},
        {QStringLiteral("verdict"), a.verdict},
        {QStringLiteral("memory_kb"), a.recommends() ? QJsonValue(qint64(a.memoryKiB)) : QJsonValue()},
        {QStringLiteral("readahead_windows"), a.windows},
        {QStringLiteral("devices"), a.devices},
        {QStringLiteral("floor_kb"), a.floorKiB ? QJsonValue(qint64(*a.floorKiB)) : QJsonValue()},
        {QStringLiteral("floor_decides"), a.floorDecides},
        {QStringLiteral("original_read_ahead_kb"), a.originalKiB ? QJsonValue(qint64(*a.originalKiB)) : QJsonValue()},
        {QStringLiteral("restored"), a.restored},
        {QStringLiteral("budget_ms"), a.budgetMs},
        {QStringLiteral("elapsed_ms"), a.elapsedMs},
        {QStringLiteral("cancelled"), a.cancelled},
        {QStringLiteral("profile"), a.recommends() ? QJsonValue(a.profile) : QJsonValue()},
    };
    o.insert(QStringLiteral("waste"), wasteToJson(a));
    return o;
}

QString formatAdvice(const Advice &a)
{
    QString out;
    QTextStream s(&out);
    if (a.device.isEmpty())
        s << "advise from a recorded curve, workload " << workloadName(a.workload) << '\n';
    else
        s << "advise " << a.device << " (read_ahead_kb of " << a.queueDevice << "), workload "
          << workloadName(a.workload) << '\n';
    if (a.source != u"measured")
        s << "from " << a.source << " (nothing was read)\n";
    s << "  read_ahead_kb   median MB/s   min-max MB/s   runs  avg request KiB\n";
    for (const CurvePoint &p : a.curve) {
        const bool same = a.analysis.sameKiB.contains(p.readAheadKiB);
        s << "  " << QString::number(p.readAheadKiB).rightJustified(13) << ' '
          << QString::number(p.mbPerSec, 'f', 1).rightJustified(13) << ' '
          << QStringLiteral("%1-%2").arg(qRound(p.minMbPerSec())).arg(qRound(p.maxMbPerSec())).rightJustified(14) << ' '
          << QString::number(p.runs.size()).rightJustified(6) << ' '
          << (p.avgRequestKiB > 0 ? QString::number(p.avgRequestKiB, 'f', 1) : QStringLiteral("-")).rightJustified(16)
          << (same ? "  =" : "   ")
          << (p.refinement ? " (refined)" : "") << (a.kneeKiB && p.readAheadKiB == a.kneeKiB ? " <- knee" : "")
          << (a.wastedKiB.contains(p.readAheadKiB)
                  ? QStringLiteral(" (wasted: device read %1 x)").arg(p.deviceReadRatio, 0, 'f', 1) : QString())
          << '\n';
    }
    if (!a.wastedKiB.isEmpty())
        s << "  left out for waste (the device read " << kWastedRatio << " x or more what the readers consumed): "
          << a.wastedKiB.size() << " value(s) from " << a.wastedKiB.constFirst() << " KiB"
          << (a.confirmation.ran && a.wastedKiB.contains(a.confirmation.pickKiB)
                  ? QStringLiteral(", the confirmed pick %1 KiB among them").arg(a.confirmation.pickKiB) : QString())
          << '\n';
    s << "  (= the same as the plateau within noise; a median leaves out stalled runs, more than "
      << qRound(kStallFraction * 100) << "% below the point's second best)\n";
    s << a.sameText << '\n';
    if (!a.noiseText.isEmpty())
        s << (a.analysis.resolved ? "noise: " : "not resolved: ") << a.noiseText << '\n';
    if (a.confirmation.ran)
        s << "confirmation: " << a.confirmation.pickKiB << " KiB against " << a.confirmation.referenceKiB
          << " KiB in turn, ratio " << QString::number(a.confirmation.ratio, 'f', 3)
          << (a.confirmation.held ? " (held)" : " (out of the band: the pick moved up)") << '\n';
    if (!a.recommends()) {
        // Nothing to apply: no line a script could take for a recommendation.
        if (a.cancelled)
            s << "no recommendation: the advice was stopped, and a partial curve answers nothing\n";
        else
            s << "no steady answer: nothing is recommended (exit status 3); the curve alone would pick "
              << a.unresolvedPickKiB << " KiB, which the noise or the two speeds above make no answer\n";
        s << a.verdict << '\n';
    } else {
        if (a.analysis.stepUpKiB)
            s << "one step up (" << a.analysis.stepUpKiB << " KiB) gains " << percentText(a.analysis.stepUpGainPct)
              << "% for " << (a.analysis.stepUpKiB - a.kneeKiB) * quint64(a.windows) * quint64(a.devices)
              << " KiB more memory\n";
        s << "recommended read_ahead_kb " << a.recommendedKiB;
        if (a.floorDecides)
            s << " (the md/dm floor decides: 2 x stripe = " << *a.floorKiB << " KiB; the curve's knee is " << a.kneeKiB
              << " KiB)";
        else
            s << " (the smallest within " << percentText(a.analysis.bandPct) << "% of the plateau, "
              << formatMbPerSec(a.analysis.plateauMbPerSec) << ")";
        s << '\n' << a.verdict << '\n';
        s << "memory: " << a.recommendedKiB << " KiB x " << a.windows << " readahead window(s) x " << a.devices
          << " device(s) = " << a.memoryKiB << " KiB\n";
    }
    if (a.source != u"measured")
        return out;
    s << "took " << QString::number(double(a.elapsedMs) / 1000.0, 'f', 1) << " s (" << a.runs << " runs of "
      << a.pointMs << " ms planned) of a "
      << QString::number(double(a.budgetMs) / 1000.0, 'f', 1) << " s budget; read_ahead_kb "
      << (a.restored ? QStringLiteral("restored to %1").arg(a.originalKiB.value_or(0))
                     : QStringLiteral("NOT restored: ") + a.restoreMessage)
      << '\n';
    return out;
}

} // namespace blocktune
