#pragma once
// What core/readtest offers: streaming read tests measured the way dd
// measures them (sequential, concurrent, server-style, mixed with random
// noise), and readahead sweeps that run one of them at several readahead
// values and put the original value back on every path.
//
// The I/O loop is plain C++: pread() on descriptors opened read-only, one
// std::thread per reader, no event loop inside. ReadTest::run() blocks the
// calling thread (a worker QThread in the console, main() in the CLI) and
// reports progress through callbacks invoked on that calling thread.

#include "common/result.h"
#include "common/sysroot.h"
#include "readtest/latency.h"

#include <QJsonObject>
#include <QList>
#include <QLocale>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace blocktune {

class DeviceModel;   // core/devices
class SessionPort; // core/session

/// JSON schema number of `test` and `sweep` output.
inline constexpr int kReadTestSchema = 1;

enum class ReadTestKind { Sequential, Concurrent, Server, Mixed };
/// "seq", "concurrent", "server", "mixed" (CLI and JSON names).
QString readTestKindName(ReadTestKind kind);
std::optional<ReadTestKind> parseReadTestKind(const QString &name);

enum class StreamRole {
    Measure,    ///< reads its planned range once; the test lasts until these end
    Background, ///< loops over its range until every measured stream has ended
};
QString streamRoleName(StreamRole role); ///< "measure", "background"

enum class AccessPattern { Sequential, Random };

/// A place to read from, as the CLI's `DEV[@OFFSET]` names it.
struct StreamTarget
{
    QString device;      ///< as the user gave it: loop0, /dev/loop0, /dev/disk/by-id/...
    quint64 offset = 0;  ///< bytes
};
/// "loop0", "/dev/sdb@1G", "sdc@4096" -> target; sizes are binary (K/M/G).
Result<StreamTarget> parseStreamTarget(const QString &text);

/// "128,512,4096" -> KiB values; "4M" and "512K" accepted too (binary).
/// Refuses empty lists, garbage, duplicates and values above UINT_MAX KiB.
Result<QList<quint64>> parseReadaheadList(const QString &text);

/// What to read and how; the same options for every kind of test.
struct ReadTestSpec
{
    ReadTestKind kind = ReadTestKind::Sequential;

    /// seq, server and mixed: exactly one; concurrent: one or more.
    QList<StreamTarget> measure;
    /// concurrent only: streams that loop until the measured ones end.
    QList<StreamTarget> background;

    quint64 blockSize = 64 * 1024;
    /// How much each measured stream reads; at most one of the three.
    /// None given: min(256 MiB, what the device holds past the offset).
    std::optional<quint64> sizeBytes;
    std::optional<quint64> count;      ///< blocks of blockSize
    /// Read for this long, going round the range again (cold) at its end,
    /// as fio's time_based does.
    std::optional<qint64> durationMs;

    bool direct = false;            ///< O_DIRECT with aligned buffers
    bool fadviseSequential = false; ///< POSIX_FADV_SEQUENTIAL (doubles the window)
    bool dropCaches = false;        ///< also write 1 to /proc/sys/vm/drop_caches (root, whole machine)
    int repeat = 3;                 ///< runs, labelled a, b, c...
    int intervalMs = 100;           ///< measurement interval

    int threads = 4;        ///< server: threads serving the one stream
    bool sharedFd = false;  ///< server: all threads read through one descriptor

    int seqStreams = 1;                    ///< mixed: sequential streams (K)
    int randomReaders = 1;                 ///< mixed: random readers (R)
    quint64 randomBlockSize = 4 * 1024;    ///< mixed: the random readers' read size

    /// The latency percentiles results report (fio's list by default).
    QList<double> percentiles = defaultLatencyPercentiles();
};

/// The settings in force when a run started, recorded with every result so
/// runs stay comparable.
struct RecordedSettings
{
    QString device;       ///< kernel name read by the test
    QString queueDevice;  ///< whose queue/ applies (a partition's disk)
    std::optional<quint64> readAheadKiB;
    QString scheduler;
    std::optional<quint64> nrRequests;
    std::optional<quint64> maxSectorsKiB;
    std::optional<quint64> logicalBlockBytes;
    QString kernel;       ///< release, from ROOT/proc/sys/kernel/osrelease or uname
};

struct LatencySummary
{
    quint64 count = 0;
    double meanMs = 0;
    double maxMs = 0;
    double p50Ms = 0; ///< from the stream's histogram (StreamResult::latencyUs)
    double p99Ms = 0;
};

/// One thread's share of a stream (server: one per serving thread).
struct WorkerResult
{
    quint64 bytes = 0;
    quint64 reads = 0;
    double seconds = 0;
    LatencySummary latency;
    QString error;
};

struct StreamResult
{
    QString name;      ///< "loop1", "loop1@1G", "seq2", "random1"
    QString device;    ///< kernel name
    quint64 offset = 0;
    quint64 plannedBytes = 0; ///< 0 when the stream runs for a time or loops
    StreamRole role = StreamRole::Measure;
    AccessPattern pattern = AccessPattern::Sequential;
    quint64 bytes = 0;
    quint64 reads = 0;
    double seconds = 0;   ///< from its first read to its last
    double mbPerSec = 0;  ///< 10^6 bytes per second, as dd prints
    LatencySummary latency;
    /// Every read's wait this run (one pread: with O_DIRECT one I/O; buffered
    /// what the reader waited, page-cache hits included).
    LatencyDistribution latencyUs;
    QString error;        ///< names device, offset and errno; empty when fine
    QList<WorkerResult> workers;
};

/// One measurement interval: what each stream (same order as
/// RunResult::streams) did during it.
struct IntervalSample
{
    struct Stream
    {
        quint64 bytes = 0;
        quint64 reads = 0;
        double meanLatencyMs = 0;
        double maxLatencyMs = 0;
    };
    double endSeconds = 0; ///< since the run started
    double seconds = 0;    ///< length of this interval
    QList<Stream> streams;
};

/// The device's own counters over one run (/proc/diskstats; a partition has
/// its own line). They count every read the device served during the run,
/// including other processes' reads.
struct DeviceCounterDelta
{
    QString device;
    bool available = false;  ///< false when diskstats has no line for it
    quint64 requests = 0;    ///< reads completed
    quint64 merges = 0;      ///< reads merged
    quint64 deviceBytes = 0; ///< sectors read * 512
    quint64 consumedBytes = 0; ///< bytes the test's reads returned on this device
    double avgRequestKiB = 0;
    /// deviceBytes - consumedBytes: readahead the test did not consume
    /// (negative when pages came from the cache).
    qint64 overshootBytes = 0;
};

struct RunResult
{
    QString label;         ///< a, b, c...
    double seconds = 0;    ///< until the last measured stream ended
    quint64 measuredBytes = 0;
    double mbPerSec = 0;          ///< measured streams together
    double aggregateMbPerSec = 0; ///< every stream, background included
    double fairnessJain = 1;      ///< Jain's index over every stream's MB/s
    QList<StreamResult> streams;
    QList<DeviceCounterDelta> deviceStats; ///< one per device read, in first-use order
    QList<RecordedSettings> settings;        ///< the same order
    QList<IntervalSample> intervals;
    QString cacheDrop;     ///< how the run was made cold: "fadvise", "fadvise+blkflsbuf", ...
    bool cancelled = false;
    QStringList errors;    ///< every stream's error, and setup failures
};

struct Summary
{
    int count = 0;
    double mean = 0, min = 0, max = 0;
    /// The middle value (the mean of the middle two for an even count): a
    /// test's headline, as one slow or lucky run does not move it.
    double median = 0;
    double stdev = 0; ///< sample standard deviation (n-1); 0 for one value
};
Summary summarize(const QList<double> &values);
/// The median (the mean of the middle two for an even count; 0 when empty).
double medianOf(QList<double> values);
/// How far below its twins a run is a stall of the machine (a VM's
/// page-fault storm, another process's burst), not a property of the
/// device: advise (core/advisor) leaves such runs out of a readahead point's
/// median, and a read test flags runs that disagree by more.
inline constexpr double kStallFraction = 0.15;
/// The runs disagree by more than a stall: the slowest is more than
/// kStallFraction below the fastest. Fewer than two runs never disagree.
bool runsDisagree(const QList<double> &runs);
/// Jain's fairness index (sum x)^2 / (n * sum x^2): 1 = equal shares, 1/n =
/// one stream got everything. 1 for an empty list or all zeros.
double jainFairness(const QList<double> &values);

struct ReadTestResult
{
    ReadTestKind kind = ReadTestKind::Sequential;
    QString device;            ///< kernel name of the first measured device
    ReadTestSpec spec;         ///< as run: sizes resolved
    QList<RunResult> runs;
    Summary mbPerSec;          ///< over the runs' mbPerSec (completed runs)
    bool cancelled = false;
    bool failed = false;       ///< an I/O error or a setup failure happened
    QStringList errors;
};

/// A test whose runs disagree by more than a stall (runsDisagree): the run
/// that stands out from the others, and by how much.
struct RunDisagreement
{
    QString label;             ///< the run that stands out: a, b, c...
    double mbPerSec = 0;       ///< its figure
    double othersMbPerSec = 0; ///< the median of the other runs
    double factor = 1;         ///< how many times slower (or faster) than the others
    bool slower = true;
    bool first = false;        ///< it is the test's first run
};
/// The run furthest from the median of the others, preferring the first run
/// when it is the slowest (a cold start is the usual story); nullopt when
/// the runs agree within a stall.
std::optional<RunDisagreement> runDisagreement(const QStringList &labels, const QList<double> &mbPerSec);
/// Over the complete runs of `result` (all runs when none completed).
std::optional<RunDisagreement> runDisagreement(const ReadTestResult &result);
/// What it means, in one or two sentences: "The first run was 3.2× slower
/// than the others (304 against 984 MB/s): ...".
QString describeDisagreement(const RunDisagreement &d, const QLocale &locale = QLocale::c());

/// Called on the thread that runs the test.
struct ReadTestObserver
{
    /// About 10 times a second: the intervals measured since the last call.
    std::function<void(int run, const QString &label, const QList<IntervalSample> &fresh,
                       const QStringList &streamNames)> progress;
    /// After each run.
    std::function<void(const RunResult &)> runFinished;
};

/// A device a test reads, resolved and measured.
struct TestDevice
{
    QString name;          ///< kernel name
    QByteArray devPath;    ///< ROOT/dev/NAME
    QString queueDevice;   ///< the whole disk whose queue/ applies
    quint64 sizeBytes = 0;
    quint64 logicalBlockBytes = 512;
};

/// One planned stream of a test.
struct PlannedStream
{
    QString name;
    int device = 0;          ///< index into ReadTest::testDevices()
    quint64 start = 0;       ///< bytes
    quint64 length = 0;      ///< bytes of the range it reads (or loops over)
    bool untilDeadline = false; ///< measured stream looping for durationMs
    StreamRole role = StreamRole::Measure;
    AccessPattern pattern = AccessPattern::Sequential;
    quint64 blockSize = 0;
    int threads = 1;         ///< server: threads taking consecutive blocks in turn
    bool sharedFd = false;
};

/// A validated test: devices resolved, every range checked against the
/// device's size and alignment. prepare() changes nothing and reads no
/// device data; run() does the reading.
class ReadTest final
{
public:
    /// Refusals (unknown device, zero or unaligned block size with direct
    /// I/O, a range past the device's end, bad counts) come back as an
    /// Error with code InvalidArgument or NotFound and a message naming
    /// the option, the value and what is allowed.
    static Result<ReadTest> prepare(const SysRoot &root, const ReadTestSpec &spec);
    /// The same on a model the caller already has (a TuningSession's).
    static Result<ReadTest> prepare(const SysRoot &root, const DeviceModel &model, const ReadTestSpec &spec);

    const ReadTestSpec &spec() const { return m_spec; }
    const QList<TestDevice> &testDevices() const { return m_devices; }
    const QList<PlannedStream> &streams() const { return m_streams; }
    /// Kernel name of the first measured device.
    QString primaryDevice() const { return m_devices.constFirst().name; }

    /// Runs spec().repeat runs, each cold and with freshly opened
    /// descriptors. Stops within 200 ms of *cancel becoming true and
    /// returns what was measured so far (a read is at most 1 MiB: larger
    /// blocks are issued as 1 MiB preads, so a stop waits for one such read).
    ReadTestResult run(const ReadTestObserver &observer = {},
                       const std::atomic_bool *cancel = nullptr) const;

    /// Reads need the live machine. On a recorded tree (--sysroot) a
    /// device's node is no recording of the disk: it is missing, or a link
    /// or node that opens this machine's device of the same name. Refused
    /// (code Refused) naming the tree, the device and why; run() and
    /// ReadaheadSweep::run() check it first, so nothing is opened or changed.
    Status checkLiveMachine() const;

    /// The settings in force now for one of testDevices().
    RecordedSettings currentSettings(const TestDevice &device) const;

private:
    ReadTest() = default;
    RunResult runOnce(int index, const ReadTestObserver &observer,
                      const std::atomic_bool *cancel) const;

    SysRoot m_root;
    ReadTestSpec m_spec;
    QList<TestDevice> m_devices;
    QList<PlannedStream> m_streams;
};

// ---- sweeps ---------------------------------------------------------------

struct SweepSpec
{
    QString device;               ///< whose readahead is swept (as the user gave it)
    QList<quint64> readAheadKiB;  ///< values to try, in order
    ReadTestSpec test;            ///< seq/server/mixed read `device`; repeat 1 is usual
};

struct SweepPoint
{
    quint64 requestedKiB = 0;
    quint64 readAheadKiB = 0;   ///< what the kernel kept (and the test ran with)
    double mbPerSec = 0;        ///< mean over the point's complete runs
    double avgRequestKiB = 0;   ///< on the test's first device, over the point's runs
    ReadTestResult result;
};

struct SweepResult
{
    ReadTestKind test = ReadTestKind::Sequential;
    QString device;             ///< kernel name read by the test
    QString queueDevice;        ///< whose read_ahead_kb was changed
    std::optional<quint64> originalKiB;
    bool restored = false;      ///< read_ahead_kb reads the original value again
    QString restoreMessage;     ///< what restoring said
    QString journalPath;        ///< where the originals were journaled while held
    QList<SweepPoint> points;
    bool cancelled = false;
    bool failed = false;
    QStringList errors;
};

struct SweepObserver
{
    ReadTestObserver test;
    /// Before a point runs, with the value the kernel kept.
    std::function<void(int index, quint64 readAheadKiB)> pointStarted;
    std::function<void(const SweepPoint &)> pointFinished;
};

/// A readahead sweep: each value is set through the session as a
/// temporary change, journaled before the first write, the test runs with
/// freshly opened descriptors, and the original value is restored when the
/// sweep ends, fails or is cancelled; a kill -9 leaves the journal for
/// `blocktune-cli restore`.
class ReadaheadSweep final
{
public:
    /// Validates the values (through the tuning planner, against `model`,
    /// the session's), the device and the test before anything changes.
    static Result<ReadaheadSweep> prepare(const SysRoot &root, const DeviceModel &model, const SweepSpec &spec);

    const SweepSpec &spec() const { return m_spec; }
    const ReadTest &test() const { return *m_test; }
    /// The whole disk whose read_ahead_kb is swept.
    const QString &queueDevice() const { return m_queueDevice; }

    /// Sets each value through `session` as a temporary change (the session
    /// must not hold other temporary changes the caller wants to keep: the
    /// sweep restores them all), runs the test, and restores before
    /// returning, on every path.
    SweepResult run(SessionPort &session, const SweepObserver &observer = {},
                    const std::atomic_bool *cancel = nullptr) const;

private:
    ReadaheadSweep() = default;
    SysRoot m_root;
    SweepSpec m_spec;
    QString m_queueDevice;
    std::optional<ReadTest> m_test;
};

// ---- reports ----------------------------------------------------------------
// In dd's words. The words are translated (ReadTestText: the console
// installs a translator, the CLI none); numbers follow `locale`, which is
// C for the CLI ("22.3 MB/s") and the user's for the console ("22,3 MB/s"),
// never with digit grouping ("1520 MB/s"). Byte counts and sysfs values stay
// plain integers, as dd prints them.

/// A read's wait: "8.25 us", "61.2 us", "958 us", "1.21 ms", "2.05 s".
QString formatLatencyUs(double us, const QLocale &locale = QLocale::c());
/// "1145 MB/s", "22.3 MB/s", "4.21 MB/s": 10^6 bytes/s, about three
/// significant digits, as dd prints.
QString formatMbPerSec(double mbPerSec, const QLocale &locale = QLocale::c());
/// "268435456 bytes (268 MB, 256 MiB)", as dd writes an amount.
QString formatDdBytes(quint64 bytes, const QLocale &locale = QLocale::c());
/// One line: "TITLE: bs 64K, 256M from offset 0, buffered...".
QString describeReadTest(const ReadTest &test, const QString &title, const QLocale &locale = QLocale::c());
/// The percentiles a run's line shows: p50, p99, p99.9, or the list given
/// with --percentiles.
QList<double> textPercentiles(const ReadTestSpec &spec);
/// One run's lines: "\ta) 268435456 bytes (268 MB, 256 MiB) copied, 0.2 s,
/// 1145 MB/s; latency p50 61.2 us, p99 180 us, p99.9 1.21 ms", and per
/// stream for concurrent and mixed tests.
QString formatRun(ReadTestKind kind, const RunResult &run, const QList<double> &percentiles,
                  const QLocale &locale = QLocale::c());
/// The settings in force, every run, mean/min/max/stdev, per-stream means
/// and the device counters.
QString formatReadTestResult(const ReadTestResult &result, const QLocale &locale = QLocale::c());
/// The column heads of a sweep's table.
QString formatSweepHeader();
/// One row of a sweep's table (read_ahead_kb, MB/s, average request KiB).
QString formatSweepPoint(const SweepPoint &point, const QLocale &locale = QLocale::c());
/// The table (optional), the curve as bars, and whether the original
/// readahead is back.
QString formatSweepResult(const SweepResult &result, bool withTable = true, const QLocale &locale = QLocale::c());

// ---- JSON -----------------------------------------------------------------

/// `{"schema":1,"test":"seq","runs":[...],"mean_mb_per_s":...,
///   "device_stats":{...},"settings":{...},...}` (docs/json.md documents it).
/// Interval samples are included only when `withIntervals`.
QJsonObject readTestToJson(const ReadTestResult &result, bool withIntervals = false);
/// Device counters summed over runs, per device in first-use order, with
/// the average request size recomputed from the sums.
QList<DeviceCounterDelta> sumDeviceStats(const QList<RunResult> &runs);
/// `{"schema":1,"sweep":"read_ahead_kb","points":[{"read_ahead_kb",
///   "mb_per_s","avg_request_kb"},...],...}`
QJsonObject sweepToJson(const SweepResult &result, bool withRuns = false);

// The exact form (the agent protocol's): the same objects and names as the
// output above, unrounded and complete, and read back by the *FromJson()
// functions (docs/json.md, "One vocabulary").

/// A test's options as asked: `test`, `block_size`, `time_ms`,
/// `fadvise_sequential`..., and `measure`/`background` as [{device, offset}].
QJsonObject readTestSpecToJson(const ReadTestSpec &spec);
Result<ReadTestSpec> readTestSpecFromJson(const QJsonValue &v);
QJsonObject intervalToExactJson(const IntervalSample &sample);
IntervalSample intervalFromJson(const QJsonValue &v);
QJsonObject runToExactJson(const RunResult &run);
RunResult runFromJson(const QJsonValue &v);
QJsonObject readTestToExactJson(const ReadTestResult &result);
ReadTestResult readTestFromJson(const QJsonValue &v);
QJsonObject sweepPointToExactJson(const SweepPoint &point);
SweepPoint sweepPointFromJson(const QJsonValue &v);
QJsonObject sweepToExactJson(const SweepResult &result);
SweepResult sweepFromJson(const QJsonValue &v);

} // namespace blocktune
