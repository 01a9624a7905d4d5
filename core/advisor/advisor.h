#pragma once
// What core/advisor offers: the smallest readahead that reaches the plateau
// for a device and a workload (advise), and findings with their cause,
// evidence and fix (diagnose).
//
// Both measure through a ReadEngine: ReadTestEngine sets readahead through
// the session (a SessionPort) as temporary changes and reads with core/readtest;
// tests pass a fake with rates built to show a case, so recorded md trees
// (which this kernel cannot make) are tested too. The advisor restores the
// engine's temporary changes on every path before it returns.
//
//     TuningSession session(root);
//     ReadTestEngine engine(session, *makeLocalMeasurer(root), "sdb");
//     auto advice = advise(session, engine, {"sdb", *parseWorkload("seq")});

#include "common/result.h"
#include "monitor/monitor.h"
#include "readahead/readahead.h"
#include "readtest/readtest.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace blocktune {

class Measurer;      // core/readtest/measurer.h
class SessionPort;   // core/session

// ---- Workloads --------------------------------------------------------------------

/// What the device serves: `seq`, `concurrent:N`, `server:N`, `mixed:K+R`.
struct Workload
{
    ReadTestKind kind = ReadTestKind::Sequential;
    int streams = 1;       ///< concurrent: streams; server: threads; mixed: sequential streams
    int randomReaders = 0; ///< mixed only
};
/// Refuses anything else with the forms allowed (N from 1 to 64, R from 0).
Result<Workload> parseWorkload(const QString &text);
QString workloadName(const Workload &workload); ///< the form parseWorkload() takes
/// Readahead windows the workload keeps open at once (one per descriptor
/// that streams): seq 1, concurrent:N N, server:N N, mixed:K+R K.
int readaheadWindows(const Workload &workload);

// ---- The measuring engine ------------------------------------------------------------

/// One buffered measurement at one readahead.
struct BufferedProbe
{
    quint64 readAheadKiB = 0;
    Workload workload;
    quint64 blockSize = 64 * 1024;
    qint64 durationMs = 1000;
};

struct Measurement
{
    quint64 readAheadKiB = 0;   ///< what the kernel kept
    double mbPerSec = 0;        ///< measured streams together (10^6 B/s)
    double avgRequestKiB = 0;   ///< device requests during the measurement
    double seconds = 0;
    quint64 bytes = 0;          ///< bytes the measured streams read
    QList<double> streamMbPerSec; ///< each measured stream
    /// Interrupts on the whole machine during the measurement, nullopt when
    /// /proc/stat could not be read.
    std::optional<quint64> interrupts;
    /// md/dm: bytes each member disk read (diskstats), in memberDisks order.
    QList<quint64> memberBytes;
    /// Bytes the device read per byte every reader consumed, background and
    /// random readers included (0: not counted).
    double deviceReadRatio = 0;
    /// The block layer's queue and device time of the device's requests
    /// during the measurement, and of each member disk's (memberDisks
    /// order), when the engine has a latency source (the BPF probe).
    std::optional<DeviceLatency> latency;
    QList<DeviceLatency> memberLatency;
};

/// A measured stream alone, then beside a second stream on the same device.
struct StreamPairMeasurement
{
    double aloneMbPerSec = 0;
    double withMbPerSec = 0;  ///< the same stream with the second one running
    double otherMbPerSec = 0; ///< the second stream meanwhile
    QString scheduler;
};

/// Measures one device. Every readahead it sets is a temporary change that
/// restore() brings back; the advisor calls restore() on every path.
class ReadEngine
{
public:
    virtual ~ReadEngine() = default;
    /// Sets read_ahead_kb (temporarily) and reads for probe.durationMs.
    virtual Result<Measurement> measureBuffered(const BufferedProbe &probe, const std::atomic_bool *cancel) = 0;
    /// O_DIRECT reads of `blockSize` with `inFlight` requests in flight: what
    /// the device delivers without the page cache.
    virtual Result<double> measureRawMbPerSec(quint64 blockSize, int inFlight, qint64 durationMs,
                                              const std::atomic_bool *cancel) = 0;
    /// One sequential stream alone, then with a second one (at the current readahead).
    virtual Result<StreamPairMeasurement> measureStreamPair(quint64 blockSize, qint64 durationMs,
                                                            const std::atomic_bool *cancel) = 0;
    /// Brings back what measureBuffered() changed; true when it is back.
    virtual bool restore(QString *message) = 0;
};

/// The real engine: readahead through `session` (temporary changes), reads
/// through ReadTest (time-based, one cold run per measurement) where
/// `measurer` measures (this machine, or the session's host).
class ReadTestEngine final : public ReadEngine
{
public:
    /// `device` as the user gave it; refuses recorded trees when measuring.
    ReadTestEngine(SessionPort &session, Measurer &measurer, const QString &device);
    Result<Measurement> measureBuffered(const BufferedProbe &probe, const std::atomic_bool *cancel) override;
    Result<double> measureRawMbPerSec(quint64 blockSize, int inFlight, qint64 durationMs,
                                      const std::atomic_bool *cancel) override;
    Result<StreamPairMeasurement> measureStreamPair(quint64 blockSize, qint64 durationMs,
                                                    const std::atomic_bool *cancel) override;
    bool restore(QString *message) override;
    /// Where measureBuffered() takes queue and device time from (not
    /// owned; nullptr: none). It counts on the machine it runs on: give it
    /// only with a measurer that reads this machine.
    void setLatencySource(LatencySource *source) { m_latency = source; }

private:
    Result<ReadTestResult> runTest(const ReadTestSpec &spec, const std::atomic_bool *cancel);
    SessionPort &m_session;
    Measurer &m_measurer;
    QString m_device;
    LatencySource *m_latency = nullptr;
};

// ---- Advise ----------------------------------------------------------------------

/// The tolerance a recommendation may lose against the plateau (`--tolerance`).
inline constexpr double kDefaultTolerance = 0.05;
/// Every readahead point is measured at least this many times, in passes
/// over the grid (a, b, c: never three in a row), each run cold.
inline constexpr int kMinRunsPerPoint = 3;
/// The plateau is the median of the top this many fitted point values.
inline constexpr int kPlateauPoints = 3;
/// The saturation fit (T = B x S / (S + R0), S = max(readahead, floor))
/// replaces the monotone fit when its mean squared residual is at most this
/// many times a median's noise squared (noise / sqrt(runs), the noise at
/// least kSaturationNoiseFloorPct).
inline constexpr double kSaturationMaxChi = 4.0;
inline constexpr double kSaturationNoiseFloorPct = 1.0;
/// Readers at a point whose device read this many times the bytes they
/// consumed waste the readahead (readahead_wasted).
inline constexpr double kWastedRatio = 1.5;

struct AdviseSpec
{
    QString device;
    Workload workload;
    quint64 blockSize = 64 * 1024;
    qint64 budgetMs = 60000;
    /// Share of the budget for the raw (O_DIRECT) measurement.
    double rawShare = 0.1;
    double tolerance = kDefaultTolerance; ///< 0.05 = 5%
};

/// A point's runs at two speeds: each group's median.
struct TwoSpeeds
{
    double slowMbPerSec = 0;
    double fastMbPerSec = 0;
    bool oneFastRun = false; ///< a single run above the rest
    /// Two slow runs and a fast one, all the point has: as likely two
    /// stalls of three on a machine that stalls often, so it takes more
    /// points to name two speeds (see CurveAnalysis::twoSpeedKiB).
    bool threeRuns = false;
};

/// One readahead value of the curve: every run measured there and their median.
struct CurvePoint
{
    quint64 readAheadKiB = 0;
    /// The median of the runs that are not stalls (see keptRuns()).
    double mbPerSec = 0;
    double avgRequestKiB = 0;  ///< the median of the runs' average device request
    bool refinement = false;   ///< measured around the knee after the passes over the grid
    QList<double> runs;        ///< MB/s of each run, in the order measured
    QList<double> requestKiB;  ///< each run's average device request (KiB)
    /// Bytes the device read per byte the readers consumed (median over
    /// runs; 0 when not counted): readahead the readers never used.
    double deviceReadRatio = 0;
    QList<double> readRatios;

    double minMbPerSec() const;
    double maxMbPerSec() const;
    /// The runs the point's figure is the median of: all but the stalls,
    /// runs more than kStallFraction below the point's second-best run.
    /// Readahead cannot make one run at a value that much slower than its
    /// twins; a stalled machine (a page-fault storm in a VM, another
    /// process's burst) can. The second best, not the best, is the anchor,
    /// so one lucky run cannot make the others look stalled.
    QList<double> keptRuns() const;
    /// The runs left out of the median (shown, not hidden).
    QList<double> stalledRuns() const;
    /// The run-to-run noise at this point: the kept runs' median absolute
    /// deviation as a standard deviation (x 1.4826), % of the median (0
    /// with one run). Robust: one slow draw does not widen it.
    double spreadPct() const;
    /// The machine read at two speeds here: the runs fall in two tight
    /// groups far apart (kTwoSpeedGap), the slower more than half the runs
    /// (fewer may be stalls), two slow runs of three included; or one run
    /// is kFastRunGap above three or more tight twins (no stall speeds a
    /// run up). nullopt otherwise.
    std::optional<TwoSpeeds> twoSpeeds() const;
};

// kStallFraction (how far below a point's second-best run a run counts as
// a stall) and medianOf() are core/readtest's: a read test flags its runs
// by the same rule.
/// Two groups of a point's runs this far apart (the faster group's slowest
/// over the slower group's fastest), each spread over no more than the
/// square root of it, are two speeds of the machine.
inline constexpr double kTwoSpeedGap = 1.25;
/// One run this far above three or more twins (spread as tightly) is a
/// faster mode of the machine.
inline constexpr double kFastRunGap = 1.3;
/// ...and that one run is this far above the neighbouring points' medians
/// (three stalls and one ordinary run are not the fast mode).
inline constexpr double kNeighbourGap = 1.15;

/// Adds one run to `point` and recomputes its medians.
void addRun(CurvePoint &point, double mbPerSec, double avgRequestKiB, double deviceReadRatio = 0);

/// What a curve says, from its points' medians and spreads.
struct CurveAnalysis
{
    /// The median of the top kPlateauPoints values of the curve's monotone
    /// fit (pool adjacent violators over the medians, weighted by runs).
    double plateauMbPerSec = 0;
    quint64 plateauKiB = 0;      ///< the smallest point whose fitted value reaches the plateau
    quint64 bestKiB = 0;         ///< the point with the highest median
    double bestMbPerSec = 0;
    double tolerancePct = 5;
    double noisePct = 0;         ///< the typical run-to-run spread: median of the points' spreadPct
    /// The tolerance plus the uncertainty of a point's gap to the plateau
    /// (2 x noise x sqrt(2 / kMinRunsPerPoint); with the saturation fit
    /// 2 x noise x sqrt(2 x 3 / runs)); with no noise, the tolerance.
    double bandPct = 5;
    /// The smallest point not separable from the tolerance line: its fitted
    /// value misses plateau x (1 - tolerance) by less than its gap's
    /// uncertainty. On a curve that creeps up, a point picked by the
    /// tolerance alone moves by doublings with each draw of the noise; the
    /// noise's own width moves it into the curve's steep part, where it holds.
    quint64 pickKiB = 0;
    /// The points the same as the plateau within noise: the pick and every
    /// point above it.
    QList<quint64> sameKiB;
    double sameMinMbPerSec = 0;
    double sameMaxMbPerSec = 0;
    quint64 stepUpKiB = 0;       ///< the next point above the pick (0: none)
    double stepUpGainPct = 0;    ///< what going one step up gains (median against median)
    int fewestRuns = 0;          ///< runs of the least-measured point
    /// The noise is within the tolerance: the measurement tells a point
    /// inside the tolerance from one outside it.
    bool resolved = true;
    /// When not resolved: runs per point that would bring the noise of a
    /// median under the tolerance (noise shrinks as 1/sqrt(runs)).
    int neededRuns = 0;
    /// Points where the machine read at two speeds (CurvePoint::twoSpeeds()),
    /// named when one of them shows a single faster run above its
    /// neighbours, two points or more show two groups and one of them has
    /// four runs or more, or three points or more do (one point's groups
    /// could be stalls that a wide point's re-measurements drew again; two
    /// stalls of three runs, at two points, happen on a machine that stalls
    /// one run in ten). Then the analysis is not resolved: the curve mixes
    /// two machines, and more runs would only mix them again.
    QList<quint64> twoSpeedKiB;
    /// The two speeds at the largest of those readaheads, where the curve
    /// is flattest: the medians of its slower and its faster runs.
    double slowSpeedMbPerSec = 0;
    double fastSpeedMbPerSec = 0;
    /// The fit, one value per curve point, in the curve's order: the
    /// figures the plateau, the pick and the band are read from. The
    /// saturation fit where the runs were repeated and it fits them within
    /// their noise (`saturation`), else the monotone fit.
    QList<double> fittedMbPerSec;
    bool saturation = false;
    double fitRateMbPerSec = 0; ///< the saturation fit's B (its figures also when it did not fit)
    double fitHalfKiB = 0;      ///< R0: the readahead at half of B
    double fitFloorKiB = 0;     ///< F: readahead below it changes nothing
    double fitChi = 0;          ///< its mean squared residual in units of a median's noise
};

/// `curve` sorted by readahead. `above`: a pick must be larger than this
/// (a pick the confirmation rejected). Empty curve: all zero.
CurveAnalysis analyzeCurve(const QList<CurvePoint> &curve, double tolerance, quint64 above = 0);

/// advise for server:N and mixed:K+R weighs waste: the readahead values
/// whose device read kWastedRatio times (or more) the bytes the readers
/// consumed (CurvePoint::deviceReadRatio) are no candidates. The values to
/// leave out, sorted; empty for other workloads, when nothing was counted,
/// and when every value wastes (then readahead is not the cause).
QList<quint64> wastefulReadaheads(const Workload &workload, const QList<CurvePoint> &curve);
/// analyzeCurve() over the points of `curve` not in `excluded`; its
/// fittedMbPerSec keeps one value per point of `curve` (NaN where excluded).
CurveAnalysis analyzeWithoutWaste(const QList<CurvePoint> &curve, const QList<quint64> &excluded, double tolerance,
                                  quint64 above = 0);

/// The last round: the pick and the plateau's point measured in turn.
struct Confirmation
{
    bool ran = false;
    quint64 pickKiB = 0;
    quint64 referenceKiB = 0;
    QList<double> pickRuns;
    QList<double> referenceRuns;
    double ratio = 0;            ///< the median of the pairs' pick / reference
    /// ratio >= 1 - tolerance - 2 x the ratio's noise: the pick is not
    /// separable from the plateau beyond the tolerance.
    bool held = true;
    QList<quint64> rejected;     ///< picks a round moved away from
};

/// Why buffered reads stop where they do (Advice::reach): the verdict's
/// cause, with its figures in Advice::reachLimitKiB and reachRequestKiB.
enum class ReachCause {
    NoRaw,            ///< the raw ceiling could not be measured
    NoRawRecorded,    ///< a recorded curve holds no raw figure
    Close,            ///< kFarFromRawPct of raw or more
    CloseStillRising, ///< close, and still rising at the largest value tried (reachLimitKiB)
    AboveRaw,         ///< past the raw figure: raw kept too little in flight
    FarStillRising,   ///< far, and still rising at the largest value tried (reachLimitKiB)
    MaxSectors,       ///< requests stop at max_sectors_kb (reachLimitKiB)
    CopyOrCpu,        ///< requests grew (reachRequestKiB): the page-cache copy or the CPU limits
};

struct Advice
{
    QString device;
    QString queueDevice;
    Workload workload;
    QString source = QStringLiteral("measured"); ///< "measured", "history:ID", "file:PATH"
    QList<CurvePoint> curve;     ///< sorted by readahead
    CurveAnalysis analysis;      ///< of the curve without `wastedKiB`
    /// server:N, mixed:K+R: points left out of the analysis because the
    /// device read kWastedRatio x what the readers consumed (wastefulReadaheads()).
    QList<quint64> wastedKiB;
    Confirmation confirmation;
    quint64 bestKiB = 0;         ///< the point with the highest median
    double bestMbPerSec = 0;
    quint64 kneeKiB = 0;         ///< the curve's pick (analysis.pickKiB after the confirmation); 0 when not resolved
    quint64 recommendedKiB = 0;  ///< the knee, raised to the floor; 0 when not resolved (recommends())
    /// When the analysis is not resolved (two speeds, or noise wider than
    /// the tolerance): the value the curve would have given, shown as what
    /// it is and never recommended, applied or saved. 0 when resolved.
    quint64 unresolvedPickKiB = 0;
    std::optional<quint64> floorKiB;
    bool floorDecides = false;   ///< the floor, not the curve, set the value
    std::optional<quint64> originalKiB;
    double rawMbPerSec = 0;
    double reachedPct = 0;       ///< plateau / raw
    QString verdict;             ///< one sentence: how close, and the likelier cause when not
    ReachCause reach = ReachCause::NoRaw; ///< the verdict's cause
    quint64 reachLimitKiB = 0;   ///< its readahead or max_sectors_kb, where it names one
    double reachRequestKiB = 0;  ///< the best point's average request
    QString sameText;            ///< "1792 to 65536 KiB give ..., the same within +-6%; the smallest is 1792 KiB"
    QString noiseText;           ///< empty when resolved; else what it could not tell and the budget it would need
    std::optional<qint64> neededBudgetMs;
    int windows = 1;             ///< readaheadWindows(workload)
    int devices = 1;
    quint64 memoryKiB = 0;       ///< recommended x windows x devices
    qint64 budgetMs = 0;
    qint64 elapsedMs = 0;
    qint64 pointMs = 0;          ///< planned time per run
    int runs = 0;                ///< buffered runs measured (confirmation included)
    bool restored = false;
    QString restoreMessage;
    QJsonObject profile;         ///< issue 10's format, ready to save; empty when nothing is recommended
    bool cancelled = false;

    /// A value to apply, try or save: finished, resolved, and a readahead
    /// found. An unresolved advice recommends nothing anywhere (console,
    /// CLI exit status 3, JSON, history).
    bool recommends() const { return !cancelled && analysis.resolved && recommendedKiB > 0; }
};

/// Readahead values of the coarse pass: powers of two from 4 KiB to 64 MiB,
/// no larger than a quarter of the device (so a point reads several windows).
QList<quint64> coarseReadaheads(quint64 deviceBytes);
/// The per-run time for `runs` runs and the raw share within the budget.
qint64 plannedPointMs(qint64 budgetMs, int runs, double rawShare);
/// The buffered runs advise() plans for a grid of `points` values: each
/// point kMinRunsPerPoint times, the refinement, re-measurements, the
/// confirmation round.
int plannedRuns(int points);

/// Runs the raw measurement and the passes over the grid through `engine`
/// (each point kMinRunsPerPoint times, interleaved; wide points again while
/// the budget allows; a paired confirmation of the pick), restores, and
/// recommends. `pointDone` sees a point after each of its runs. Refuses a
/// device it cannot find and a budget too short for the runs (naming the
/// minimum).
Result<Advice> advise(SessionPort &session, ReadEngine &engine, const AdviseSpec &spec,
                      const std::function<void(const CurvePoint &)> &pointDone = {},
                      const std::atomic_bool *cancel = nullptr);

/// A curve measured earlier: a `sweep --json` output, an `advise --json`
/// output, a history record's result, or `{"curve":[{"read_ahead_kb":N,
/// "mb_per_s":X}, ...]}` by hand (optional per point: "runs":[X,...],
/// "avg_request_kb"; optional at the top: "device", "workload", "floor_kb",
/// "raw_peak_mb_per_s").
struct RecordedCurve
{
    QString device;
    QString workload;            ///< empty when the file does not say
    QList<CurvePoint> curve;     ///< sorted by readahead
    std::optional<quint64> floorKiB;
    double rawMbPerSec = 0;
};
/// Refuses (InvalidArgument, naming `source` and what is wrong and allowed):
/// not JSON, no curve, fewer than two points, a point without
/// read_ahead_kb or mb_per_s, a negative or non-finite MB/s, a readahead
/// of 0 or above 4 GiB, a readahead given twice.
Result<RecordedCurve> parseRecordedCurve(const QByteArray &json, const QString &source);
Result<RecordedCurve> recordedCurveFromJson(const QJsonObject &object, const QString &source);

/// The advice a recorded curve gives, computed as advise() does from its
/// measured curve, reading nothing: `spec.device` and `spec.workload` name
/// what it is for (the curve's own when empty), `source` is reported.
Advice adviseFromCurve(const RecordedCurve &recorded, const AdviseSpec &spec, const QString &source);

/// `{"schema":1,"name","description","rules":[{"match":{"name":...},"set":{"read_ahead_kb":N}}]}`
/// (issue 10's profile format; md arrays matched by md_uuid when known).
QJsonObject adviceProfile(const QString &device, const QString &mdUuid, const Workload &workload, quint64 readAheadKiB,
                          const QString &why);
QJsonObject adviceToJson(const Advice &advice);
QString formatAdvice(const Advice &advice);

// ---- Diagnose ---------------------------------------------------------------------

enum class Severity { Note, Warning, Problem };
QString severityName(Severity severity); ///< "note", "warning", "problem"

struct Finding
{
    QString code;
    /// The device it is about: the diagnosed one, or (findings from the
    /// live workload) the device whose read_ahead_kb governs the reads.
    QString device;
    Severity severity = Severity::Note;
    QString summary;       ///< the cause, one sentence
    QJsonObject evidence;  ///< numbers
    QJsonObject fix;       ///< settings (`blocktune-cli set` keys), empty when none
};

struct DiagnoseSpec
{
    QString device;
    bool measure = true;   ///< false: static checks only
    quint64 blockSize = 64 * 1024;
    qint64 pointMs = 300;  ///< each measured read (diagnoseReads() of them)
    /// The workload whose overshoot readahead_wasted looks at: seq (the
    /// measured stream's own), or server:N / mixed:K+R / concurrent:N,
    /// measured besides at the readahead in force.
    Workload workload;
};

struct Diagnosis
{
    QString device;
    Workload workload;      ///< the spec's
    QList<Finding> findings;
    bool measured = false;
    /// diagnose --live: what the kernel's readahead did for the workload
    /// that ran (the device alone; its partitions' reads counted for a whole
    /// disk, whose read_ahead_kb governs them); nullopt otherwise.
    std::optional<ReadaheadReport> live;
    /// Why queue_wait_dominates and slow_member were not looked for (the
    /// BPF probe did not load); empty when they were, or nothing was measured.
    QString latencyUnavailable;
    bool restored = true;
    QString restoreMessage;
};

/// Thresholds, named so the docs (docs/cli.md, diagnose) and the tests say the same.
/// readahead_blocking: at the larger readahead requests are at least 1.5 x
/// larger (readahead limited them; a device cap would not move) and the
/// stream at least 15% faster.
inline constexpr double kBlockingRequestGrowth = 1.5;
inline constexpr double kBlockingGain = 1.15;
inline constexpr double kFarFromRawPct = 70;
inline constexpr double kImbalanceJain = 0.9;
inline constexpr double kUnfairShare = 0.4;          ///< under 40% of its rate alone
inline constexpr double kUnfairJain = 0.8;
/// queue_wait_dominates and slow_member look at latency only with at least
/// this many requests counted; slow_member: a member's device-time p99 at
/// least this many times the median of the other members' p99.
inline constexpr quint64 kMinLatencyRequests = 100;
inline constexpr double kSlowMemberFactor = 2.0;
/// Raw reads: 1 MiB O_DIRECT requests, this many in flight (16 MiB, as
/// much as a large readahead keeps in flight).
inline constexpr int kRawInFlight = 16;
/// Each measured comparison of diagnose is made this many times,
/// interleaved (a, b, a, b, a, b); its figures are the medians.
inline constexpr int kDiagnoseRuns = 3;
/// A measured finding is stated only when its effect is past its
/// threshold and, as the log of the ratio of the two medians (in %: the %
/// difference for small effects), more than this many times the two sides'
/// noise combined (sqrt(a^2 + b^2) of their spreadPct); else a
/// not_separable note says so.
inline constexpr double kSeparationFactor = 2.0;
/// readahead_wasted measures at most this many smaller readaheads, each
/// kDiagnoseRuns times, looking for the value that stops the waste.
inline constexpr int kWasteSteps = 2;
/// The readahead that should stop a waste of `ratio` (device bytes per
/// consumed byte) at `readAheadKiB`: divided by the ratio, rounded down to a
/// power of two, 4 KiB at least (never above `readAheadKiB`).
quint64 wasteStopReadahead(quint64 readAheadKiB, double ratio);
/// The measured reads diagnose plans for `workload` (each
/// DiagnoseSpec::pointMs): kDiagnoseRuns rounds of the stream at the
/// readahead in force and at a larger one, the raw ceiling, a stream alone
/// and beside a second, and the workload when it is not seq. readahead_wasted
/// may add kWasteSteps x kDiagnoseRuns more.
int diagnoseReads(const Workload &workload);

/// Static checks on the model (below_md_floor, notes), then, with
/// spec.measure and an engine, measured ones; restores before returning.
/// Measuring on a recorded tree needs an engine that is not ReadTestEngine
/// (the CLI refuses it).
Result<Diagnosis> diagnose(SessionPort &session, ReadEngine *engine, const DiagnoseSpec &spec,
                           const std::atomic_bool *cancel = nullptr);
QJsonObject diagnosisToJson(const Diagnosis &diagnosis);
QString formatDiagnosis(const Diagnosis &diagnosis);
/// {"code","device","severity","summary","evidence","fix"}: a finding in
/// diagnose's JSON and in readahead's.
QJsonObject findingToJson(const Finding &finding);

// ---- Findings from the live workload ----------------------------------------------
//
// From what the kernel's readahead did for the workload that ran
// (core/readahead's report), without a single read of ours: `blocktune-cli
// readahead` and `diagnose DEV --live 60s`. Thresholds, named so the docs
// (docs/cli.md, "Findings from the live workload") and the tests say the same.
// A finding is stated only with enough events to tell: below its minimum
// counts it is not stated either way.

/// readahead_capped: at least kLiveMinWindows async windows and
/// kLiveMinPages pages read ahead; at least kCappedShare of the async windows
/// reached the cap (read_ahead_kb), at least kCappedUsedShare of the pages
/// read ahead were used, and used pages waited at most kCappedMaxWaitMs
/// (p50) in the page cache, counted over at least kLiveMinPages pages: the
/// readers take each window as it arrives, so the cap is what they wait for.
/// Fix: twice read_ahead_kb, at most kCappedMaxKiB (none when already there).
inline constexpr quint64 kLiveMinWindows = 50;
inline constexpr quint64 kLiveMinPages = 1024;
inline constexpr double kCappedShare = 0.8;
inline constexpr double kCappedUsedShare = 0.95;
inline constexpr double kCappedMaxWaitMs = 10;
inline constexpr quint64 kCappedMaxKiB = 65536;
/// readahead_wasted: at least kLiveMinWindows windows and kLiveMinPages
/// pages read ahead, of which at least kLiveWastedShare left the page cache
/// unused (pages still cached unused are not counted: they may still be
/// read). Fix: what a stream used (the used pages per sync window: each
/// stream starts with one), rounded up to a power of two, at least
/// kWastedMinKiB, at most half of read_ahead_kb (none below 2 x kWastedMinKiB).
inline constexpr double kLiveWastedShare = 0.5;
inline constexpr quint64 kWastedMinKiB = 16;
/// streams_interleaved: at least kInterleavedMin interleaved restarts (sync
/// windows of a file another task's descriptor read nearby just before),
/// and at least kInterleavedShare of the sync windows.
inline constexpr quint64 kInterleavedMin = 20;
inline constexpr double kInterleavedShare = 0.25;
/// random_reads: at least kRandomMinWindows sync windows; async windows at
/// most kRandomAsyncShare of them; sync windows of at most
/// kRandomMaxWindowKiB (p90): the kernel reads what each read asks and no more.
inline constexpr quint64 kRandomMinWindows = 100;
inline constexpr double kRandomAsyncShare = 0.01;
inline constexpr quint64 kRandomMaxWindowKiB = 16;

/// The findings of one device of a report: readahead_capped,
/// readahead_wasted, streams_interleaved, random_reads; each with the device,
/// its evidence (the figures and the thresholds) and, where it recommends
/// one, the read_ahead_kb to set (`fix`).
QList<Finding> readaheadFindings(const DeviceReadahead &device);
/// Of every device of the report, in its order.
QList<Finding> readaheadFindings(const ReadaheadReport &report);
/// The "findings" array readahead --json adds: findingToJson() of each.
QJsonArray readaheadFindingsToJson(const QList<Finding> &findings);
/// "findings:" and one entry per finding (as diagnose prints them), or
/// "no findings" with what was too few to tell.
QString formatReadaheadFindings(const QList<Finding> &findings);

/// diagnose DEV --live: the static checks, then `source` watched for
/// `liveMs` (until `cancel` is set, if sooner), the device's readahead report
/// and its findings. Reads nothing, changes nothing.
Result<Diagnosis> diagnoseLive(SessionPort &session, ReadaheadSource &source, const QString &device, qint64 liveMs,
                               const std::atomic_bool *cancel = nullptr);

} // namespace blocktune
