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

constexpr double kWithinBest = 0.95;    // "within 5% of the best point"
constexpr qint64 kMinPointMs = 150;     // shorter points measure the cold start, not the stream
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

qint64 plannedPointMs(qint64 budgetMs, int points, double rawShare)
{
    if (points <= 0)
        return 0;
    return qint64(double(budgetMs) * (1.0 - rawShare)) / points;
}

quint64 kneeOf(const QList<CurvePoint> &curve)
{
    double best = 0;
    for (const CurvePoint &p : curve)
        best = std::max(best, p.mbPerSec);
    quint64 knee = 0;
    for (const CurvePoint &p : curve)
        if (p.mbPerSec >= kWithinBest * best && (knee == 0 || p.readAheadKiB < knee))
            knee = p.readAheadKiB;
    return knee;
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

// One sentence on how close buffered reads came and, when not close, the
// likelier cause with the figures that show it.
QString verdictFor(const Advice &a, const DeviceSettings &s, quint64 rawBlockKiB)
{
    if (a.rawMbPerSec <= 0)
        return QStringLiteral("the raw ceiling could not be measured");
    const QString reached = QStringLiteral("buffered reads reach %1% of what the device delivers (%2 buffered at "
                                           "%3 KiB readahead, %4 raw)")
                                .arg(qRound(a.reachedPct))
                                .arg(formatMbPerSec(a.bestMbPerSec))
                                .arg(a.bestKiB)
                                .arg(formatMbPerSec(a.rawMbPerSec));
    const CurvePoint *best = nullptr;
    for (const CurvePoint &p : a.curve)
        if (p.readAheadKiB == a.bestKiB)
            best = &p;
    const CurvePoint &last = a.curve.constLast();
    const bool stillRising =
        a.curve.size() >= 2 && best == &last && last.mbPerSec > a.curve.at(a.curve.size() - 2).mbPerSec * 1.05;
    if (a.reachedPct > 105)
        return reached + QStringLiteral("; buffered reads passed the raw figure (1 MiB O_DIRECT reads, %1 in flight): "
                                        "the device serves more than that keeps in flight, so treat the raw figure "
                                        "as a floor, not a ceiling").arg(kRawInFlight);
    if (a.reachedPct >= kFarFromRawPct)
        return stillRising ? reached + QStringLiteral("; throughput was still rising at the largest value tried (%1 KiB, "
                                                      "the cap a quarter of the device sets)").arg(last.readAheadKiB)
                           : reached;
    if (stillRising)
        return reached + QStringLiteral("; no readahead came close, and throughput was still rising at the largest "
                                        "value tried (%1 KiB, the cap a quarter of the device sets)").arg(last.readAheadKiB);
    if (best && s.maxSectorsKiB && best->avgRequestKiB >= 0.9 * double(*s.maxSectorsKiB) && *s.maxSectorsKiB < rawBlockKiB)
        return reached + QStringLiteral("; no readahead came close: requests stop at max_sectors_kb %1 (average %2 KiB "
                                        "at the best point) while the raw reads used %3 KiB requests")
                             .arg(*s.maxSectorsKiB).arg(best->avgRequestKiB, 0, 'f', 0).arg(rawBlockKiB);
    return reached + QStringLiteral("; no readahead came close, though requests reached %1 KiB: the page-cache "
                                    "copy or the CPU is the likelier limit, not readahead")
                         .arg(best ? best->avgRequestKiB : 0, 0, 'f', 0);
}

constexpr int kRefinePoints = 2;

// The budget holds every point at kMinPointMs at least, with 10% to spare.
Status checkBudget(const AdviseSpec &spec, const QString &device, int points)
{
    const qint64 minBudget = qint64(std::ceil(double(kMinPointMs * points) * 1.1 / 100.0)) * 100;
    if (spec.budgetMs < minBudget)
        return makeError(InvalidArgument, AdvisorText::tr("--budget %1 ms is too short for the %2 readahead points of %3 "
                                                         "(%4 ms a point: at least %5 s)")
                                              .arg(spec.budgetMs).arg(points - 1).arg(device).arg(kMinPointMs)
                                              .arg(double(minBudget) / 1000.0, 0, 'f', 1));
    return {};
}

// The points of one advise() run against its budget, on one clock: the raw
// ceiling first, then readahead points that divide what is left.
class BudgetedSweep final
{
public:
    BudgetedSweep(ReadEngine &engine, const AdviseSpec &spec, Advice &a,
                  const std::function<void(const CurvePoint &)> &pointDone, const std::atomic_bool *cancel)
        : m_engine(engine), m_spec(spec), m_a(a), m_pointDone(pointDone), m_cancel(cancel)
    {
        m_clock.start();
    }
    Q_DISABLE_COPY_MOVE(BudgetedSweep)

    void measureRaw(quint64 blockSize);
    /// One point at `kib`, `remaining` points (this one included) left to
    /// share the time; false when it was not measured (cancelled, an error).
    bool measure(quint64 kib, int remaining, bool refinement);
    const QStringList &errors() const { return m_errors; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

private:
    ReadEngine &m_engine;
    const AdviseSpec &m_spec;
    Advice &m_a;
    const std::function<void(const CurvePoint &)> &m_pointDone;
    const std::atomic_bool *m_cancel;
    QElapsedTimer m_clock;
    QStringList m_errors;
    // Time promised so far: the wall clock, or the points' planned reading
    // time when that is more (a point's overhead shows up after it ran).
    qint64 m_plannedMs = 0;
    // Time spent per point beyond its reading (the cold start, the write):
    // learned from the points so far, so the remaining ones fit.
    double m_overheadMs = 0;
    int m_measured = 0;
};

// The raw ceiling first, with its share of the budget; the sweep then
// divides what is left, so a slow start shortens points, not the budget.
void BudgetedSweep::measureRaw(quint64 blockSize)
{
    const qint64 rawMs = std::max<qint64>(kMinPointMs, qint64(double(m_spec.budgetMs) * m_spec.rawShare));
    m_plannedMs = rawMs;
    if (auto raw = m_engine.measureRawMbPerSec(blockSize, kRawInFlight, rawMs, m_cancel))
        m_a.rawMbPerSec = *raw;
    else if (raw.error().code == Interrupted)
        m_a.cancelled = true;
    else
        m_errors << raw.error().message;
}

bool BudgetedSweep::measure(quint64 kib, int remaining, bool refinement)
{
    if (m_a.cancelled || (m_cancel && m_cancel->load())) {
        m_a.cancelled = true;
        return false;
    }
    const qint64 left = m_spec.budgetMs - std::max(m_clock.elapsed(), m_plannedMs);
    const qint64 pointMs = std::max<qint64>(kMinPointMs / 2, qint64(double(left) / remaining - m_overheadMs));
    m_plannedMs += pointMs;
    if (m_a.pointMs == 0)
        m_a.pointMs = pointMs;
    BufferedProbe probe{kib, m_spec.workload, m_spec.blockSize, pointMs};
    const qint64 started = m_clock.elapsed();
    auto m = m_engine.measureBuffered(probe, m_cancel);
    if (!m) {
        if (m.error().code == Interrupted)
            m_a.cancelled = true;
        else
            m_errors << m.error().message;
        return false;
    }
    const double spent = double(m_clock.elapsed() - started);
    m_overheadMs = (m_overheadMs * m_measured + std::max(0.0, spent - double(pointMs))) / (m_measured + 1);
    ++m_measured;
    CurvePoint p{m->readAheadKiB, m->mbPerSec, m->avgRequestKiB, refinement};
    m_a.curve << p;
    if (m_pointDone)
        m_pointDone(p);
    return true;
}

// Refinement: the knee is the first power of two within 5% of the
// best; the answer lies between it and the one below. Halve that
// interval twice.
void refineKnee(BudgetedSweep &sweep, const Advice &a)
{
    auto known = [&](quint64 kib) {
        return std::any_of(a.curve.cbegin(), a.curve.cend(), [&](const CurvePoint &p) { return p.readAheadKiB == kib; });
    };
    quint64 high = kneeOf(a.curve);
    quint64 low = high / 2;
    for (int step = 0; step < kRefinePoints && low >= 4; ++step) {
        const quint64 mid = (low + high) / 2 / 4 * 4; // whole 4 KiB pages
        if (mid <= low || mid >= high || known(mid))
            break;
        if (!sweep.measure(mid, kRefinePoints - step, true))
            break;
        if (kneeOf(a.curve) <= mid)
            high = mid;
        else
            low = mid;
    }
}

// Whether the device is back where it was: what the engine says, and what
// the session reads now.
void checkRestored(TuningSession &session, const QString &device, EngineRestore &guard, Advice &a)
{
    a.restored = guard.restore(&a.restoreMessage);
    const auto now = session.settings(device);
    if (now && now->readAheadKiB != a.originalKiB) {
        a.restored = false;
        a.restoreMessage = QStringLiteral("read_ahead_kb of %1 is %2, not the original %3")
                               .arg(a.queueDevice).arg(now->readAheadKiB.value_or(0)).arg(a.originalKiB.value_or(0));
    }
}

// From the sorted curve: the best point, the knee, the recommendation (the
// md/dm floor when it is larger), the verdict and the profile that sets it.
void recommend(Advice &a, const DeviceSettings &s, const BlockDevice &bd, quint64 rawBlockKiB)
{
    std::sort(a.curve.begin(), a.curve.end(),
              [](const CurvePoint &x, const CurvePoint &y) { return x.readAheadKiB < y.readAheadKiB; });
    for (const CurvePoint &p : std::as_const(a.curve)) {
        if (p.mbPerSec > a.bestMbPerSec) {
            a.bestMbPerSec = p.mbPerSec;
            a.bestKiB = p.readAheadKiB;
        }
    }
    a.kneeKiB = kneeOf(a.curve);
    a.recommendedKiB = a.kneeKiB;
    if (a.floorKiB && *a.floorKiB > a.kneeKiB) {
        a.recommendedKiB = *a.floorKiB;
        a.floorDecides = true;
    }
    a.reachedPct = a.rawMbPerSec > 0 ? a.bestMbPerSec / a.rawMbPerSec * 100.0 : 0;
    a.verdict = verdictFor(a, s, rawBlockKiB);
    a.memoryKiB = a.recommendedKiB * quint64(a.windows) * quint64(a.devices);
    const QString why = a.floorDecides
        ? QStringLiteral("%1 KiB: the md/dm floor (2 x stripe); the curve's knee was %2 KiB (workload %3)")
              .arg(a.recommendedKiB).arg(a.kneeKiB).arg(workloadName(a.workload))
        : QStringLiteral("%1 KiB: the smallest readahead within 5% of the best measured (%2 at %3 KiB), workload %4")
              .arg(a.recommendedKiB).arg(formatMbPerSec(a.bestMbPerSec)).arg(a.bestKiB).arg(workloadName(a.workload));
    a.profile = adviceProfile(a.queueDevice, bd.md ? bd.md->uuid : QString(), a.workload, a.recommendedKiB, why);
}

} // namespace

Result<Advice> advise(TuningSession &session, ReadEngine &engine, const AdviseSpec &spec,
                      const std::function<void(const CurvePoint &)> &pointDone, const std::atomic_bool *cancel)
{
    auto found = advisor_detail::lookUpDevice(session, spec.device);
    if (!found)
        return found.error();
    const DeviceSettings *settings = &found->settings;
    const BlockDevice *bd = found->device;

    const QList<quint64> coarse = coarseReadaheads(found->sizeBytes());
    const int points = int(coarse.size()) + kRefinePoints + 1; // +1: the raw measurement's own point
    if (Status st = checkBudget(spec, bd->name, points); !st)
        return st.error();

    Advice a;
    a.device = bd->name;
    a.queueDevice = found->queue();
    a.workload = spec.workload;
    a.floorKiB = settings->readaheadFloorKiB;
    a.originalKiB = settings->readAheadKiB;
    a.budgetMs = spec.budgetMs;
    a.windows = readaheadWindows(spec.workload);

    BudgetedSweep sweep(engine, spec, a, pointDone, cancel);
    EngineRestore guard(engine);
    const quint64 rawBlock = 1024 * 1024;
    sweep.measureRaw(rawBlock);
    for (qsizetype i = 0; i < coarse.size(); ++i)
        if (!sweep.measure(coarse.at(i), int(coarse.size() - i) + kRefinePoints, false))
            break;
    if (sweep.errors().isEmpty() && !a.cancelled && a.curve.size() == coarse.size())
        refineKnee(sweep, a);

    checkRestored(session, spec.device, guard, a);
    a.elapsedMs = sweep.elapsedMs();

    if (!sweep.errors().isEmpty() && a.curve.isEmpty())
        return makeError(EIO, sweep.errors().join(QStringLiteral("; ")));
    if (a.curve.isEmpty()) {
        a.cancelled = true;
        return a;
    }
    recommend(a, *settings, *bd, rawBlock / 1024);
    return a;
}

QJsonObject adviceToJson(const Advice &a)
{
    QJsonArray curve;
    for (const CurvePoint &p : a.curve)
        curve.append(QJsonObject{{QStringLiteral("read_ahead_kb"), qint64(p.readAheadKiB)},
                                 {QStringLiteral("mb_per_s"), p.mbPerSec},
                                 {QStringLiteral("avg_request_kb"), p.avgRequestKiB},
                                 {QStringLiteral("refinement"), p.refinement}});
    QJsonObject o{
        {QStringLiteral("device"), a.device},
        {QStringLiteral("queue_device"), a.queueDevice},
        {QStringLiteral("workload"), workloadName(a.workload)},
        {QStringLiteral("recommended_read_ahead_kb"), qint64(a.recommendedKiB)},
        {QStringLiteral("knee_kb"), qint64(a.kneeKiB)},
        {QStringLiteral("best_read_ahead_kb"), qint64(a.bestKiB)},
        {QStringLiteral("best_mb_per_s"), a.bestMbPerSec},
        {QStringLiteral("curve"), curve},
        {QStringLiteral("raw_peak_mb_per_s"), a.rawMbPerSec},
        {QStringLiteral("reached_pct"), a.reachedPct},
        {QStringLiteral("verdict"), a.verdict},
        {QStringLiteral("memory_kb"), qint64(a.memoryKiB)},
        {QStringLiteral("readahead_windows"), a.windows},
        {QStringLiteral("devices"), a.devices},
        {QStringLiteral("floor_kb"), a.floorKiB ? QJsonValue(qint64(*a.floorKiB)) : QJsonValue()},
        {QStringLiteral("floor_decides"), a.floorDecides},
        {QStringLiteral("original_read_ahead_kb"), a.originalKiB ? QJsonValue(qint64(*a.originalKiB)) : QJsonValue()},
        {QStringLiteral("restored"), a.restored},
        {QStringLiteral("budget_ms"), a.budgetMs},
        {QStringLiteral("elapsed_ms"), a.elapsedMs},
        {QStringLiteral("cancelled"), a.cancelled},
        {QStringLiteral("profile"), a.profile},
    };
    return o;
}

QString formatAdvice(const Advice &a)
{
    QString out;
    QTextStream s(&out);
    s << "advise " << a.device << " (read_ahead_kb of " << a.queueDevice << "), workload " << workloadName(a.workload)
      << '\n';
    s << "  read_ahead_kb       MB/s  avg request KiB\n";
    for (const CurvePoint &p : a.curve)
        s << "  " << QString::number(p.readAheadKiB).rightJustified(13) << ' '
          << QString::number(p.mbPerSec, 'f', 1).rightJustified(10) << ' '
          << QString::number(p.avgRequestKiB, 'f', 1).rightJustified(16) << (p.refinement ? "  (refined)" : "")
          << (p.readAheadKiB == a.kneeKiB ? "  <- knee" : "") << '\n';
    s << "recommended read_ahead_kb " << a.recommendedKiB;
    if (a.floorDecides)
        s << " (the md/dm floor decides: 2 x stripe = " << *a.floorKiB << " KiB; the curve's knee is " << a.kneeKiB
          << " KiB)";
    else
        s << " (the smallest within 5% of the best, " << formatMbPerSec(a.bestMbPerSec) << " at " << a.bestKiB << " KiB)";
    s << '\n' << a.verdict << '\n';
    s << "memory: " << a.recommendedKiB << " KiB x " << a.windows << " readahead window(s) x " << a.devices
      << " device(s) = " << a.memoryKiB << " KiB\n";
    s << "took " << QString::number(double(a.elapsedMs) / 1000.0, 'f', 1) << " s of a "
      << QString::number(double(a.budgetMs) / 1000.0, 'f', 1) << " s budget; read_ahead_kb "
      << (a.restored ? QStringLiteral("restored to %1").arg(a.originalKiB.value_or(0))
                     : QStringLiteral("NOT restored: ") + a.restoreMessage)
      << '\n';
    return out;
}

} // namespace blocktune
