#pragma once
// What core/monitor offers: the live monitor's counting.
//
// A Sampler reads the kernel's counters once per tick (/proc/diskstats for
// every device in one read, /sys/block/X/inflight for the devices watched,
// /proc/stat and /proc/interrupts) through a CounterSource, and turns two
// readings into the figures iostat -x prints, interrupt rates and the load
// balance of md arrays, dm devices and user-given groups. A Topology says
// which IRQ lines serve which device and which devices form groups; it is
// built from the DeviceModel on start and when devices come or go, never per
// tick. PlotSeries keeps bounded series for plots. MonitorLoop is the one
// loop around a Sampler: MonitorWorker ticks it from a timer on its own
// thread (MonitorThread) for the console, blocktune-cli monitor runs it.
//
// Clock and CounterSource are the seams tests replace: they advance time
// and counters without sleeping.

#include "common/counts.h"
#include "common/result.h"
#include "common/sysroot.h"
#include "devices/devicemodel.h"
#include "readahead/readahead.h"
#include "stats/diskstats.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QThread;
class QTimer;

namespace blocktune {

struct BlockDevice;

// ---- /proc/stat and /proc/interrupts ----------------------------------------

/// The first number of /proc/stat's "intr" line: interrupts since boot, all
/// CPUs and sources. nullopt when the line is missing or garbled.
std::optional<quint64> parseInterruptTotal(QByteArrayView procStat);

/// The whole "intr" line: the total, then one column per numbered IRQ from
/// 0, each summed over CPUs (Documentation/filesystems/proc.rst).
struct StatInterrupts
{
    quint64 total = 0;
    std::vector<quint64> perIrq;
};
std::optional<StatInterrupts> parseStatInterrupts(QByteArrayView procStat);

/// One numbered row of /proc/interrupts, its per-CPU counts summed.
struct IrqRow
{
    int irq = -1;
    quint64 count = 0;
    QString chip;        ///< what precedes the actions: "PCI-MSIX-0000:00:02.0 1-edge"
    QStringList actions; ///< "nvme0q3", "virtio1-req.0", "ahci[0000:00:1f.2]"
};

/// Numbered rows of /proc/interrupts. The architecture's named rows (NMI,
/// LOC, ERR...) and lines that do not parse are skipped.
QList<IrqRow> parseInterrupts(QByteArrayView text);
/// The per-IRQ sums only, for the per-tick read (builds no strings).
QHash<int, quint64> parseInterruptCounts(QByteArrayView text);

// ---- The seams: where counters and time come from ---------------------------

/// Reads and writes in flight, as /sys/block/X/inflight prints them.
struct InFlight
{
    quint64 reads = 0;
    quint64 writes = 0;
};

/// The interrupt counters of one reading.
struct InterruptCounts
{
    std::optional<quint64> total; ///< all interrupts since boot; nullopt when unknown
    QHash<int, quint64> lines;    ///< the lines asked for that were found, summed over CPUs
};

/// Where the counters come from. ProcSource reads the machine (or a
/// recorded tree); tests substitute their own.
class CounterSource
{
public:
    virtual ~CounterSource() = default;
    /// The text of /proc/diskstats: every device's counters in one read.
    virtual Result<QByteArray> diskStats() = 0;
    /// /sys/block/X/inflight; nullopt when the file is missing or garbled.
    virtual std::optional<InFlight> inFlight(const QString &device) = 0;
    /// The machine's interrupt total and the counts of `lines` (empty: the
    /// total only).
    virtual InterruptCounts interrupts(const QList<int> &lines) = 0;
};

/// The kernel's files, through the --sysroot path layer. On the live
/// machine the files stay open and are re-read from offset 0 each tick
/// (procfs and sysfs regenerate them then), which spares the path walks; a
/// recorded tree is re-opened each time, since a writer replaces its files.
/// Per-IRQ counts come from /proc/stat's intr columns, read anyway for the
/// total; /proc/interrupts (several times dearer to generate, one column per
/// CPU) only when those columns do not cover a line.
class ProcSource final : public CounterSource
{
public:
    explicit ProcSource(SysRoot root);
    ~ProcSource() override;
    Q_DISABLE_COPY_MOVE(ProcSource)

    Result<QByteArray> diskStats() override;
    std::optional<InFlight> inFlight(const QString &device) override;
    InterruptCounts interrupts(const QList<int> &lines) override;

private:
    struct File
    {
        QByteArray path;
        int fd = -1;
        QByteArray buffer; ///< reused between ticks
    };
    Result<QByteArray> read(File &file);

    SysRoot m_root;
    bool m_keepOpen = false;
    File m_diskstats;
    File m_stat;
    File m_interrupts;
    QHash<QString, File> m_inflight;
};

/// Time as the sampler sees it.
class Clock
{
public:
    virtual ~Clock() = default;
    /// Monotonic nanoseconds; only differences matter.
    virtual qint64 monotonicNs() const = 0;
    /// Wall-clock milliseconds since the Unix epoch (for timestamps only).
    virtual qint64 wallMs() const = 0;
};

/// CLOCK_MONOTONIC and the system clock.
class SteadyClock final : public Clock
{
public:
    qint64 monotonicNs() const override;
    qint64 wallMs() const override;
};

/// The two readings of the counters a recording may hold: `blocktune-cli
/// record` reads proc/diskstats (with proc/uptime) and again a second later
/// into proc/diskstats.2 (with proc/uptime.2). One interval of a machine
/// that is not here: replayed, it gives one sample of that interval.
struct CounterReplay
{
    QByteArray first;
    QByteArray second;
    double seconds = 0; ///< between the two readings (the uptimes' difference)
};

/// The recording's two readings; nullopt when `root` is live, holds one
/// reading, or its uptimes do not advance.
std::optional<CounterReplay> loadCounterReplay(const SysRoot &root);

/// A source and a clock that hand out `replay`'s readings in turn: the
/// first reading at time 0, then the second (and the second again) at
/// `seconds`. In-flight counts and interrupts are the tree's (frozen).
std::pair<std::unique_ptr<CounterSource>, std::unique_ptr<Clock>> makeCounterReplay(const SysRoot &root,
                                                                                    CounterReplay replay);

// ---- Topology: IRQ lines and groups, computed when devices change ------------

/// A set of devices whose load should be spread evenly.
struct GroupSpec
{
    QString name;        ///< md0, dm-0, or the user's name
    QString kind;        ///< "md", "dm" or "user"
    QStringList members; ///< kernel names
};

struct Topology
{
    /// Device -> the IRQ lines that serve it. A whole disk: its PCI
    /// function's; a partition, loop, md or dm device: its leaf disks'.
    QHash<QString, QList<int>> irqs;
    /// Devices whose IRQ lines also serve other whole disks (an AHCI or SAS
    /// controller's disks share its lines): their irq/s is the controller's.
    QSet<QString> sharedIrqs;
    /// md arrays (their members) and dm devices with two slaves or more.
    QList<GroupSpec> groups;
};

/// The IRQ lines of one whole disk: the nearest PCI function's msi_irqs/
/// (or its legacy irq), else /proc/interrupts actions named after the
/// device (nvme0q3 for nvme0n1, virtio1-* for the disk on virtio1,
/// ahci[0000:00:1f.2] for a disk below that function).
QList<int> diskIrqs(const SysRoot &root, const BlockDevice &disk, const QList<IrqRow> &interrupts);
/// IRQ lines of every device (through leafDisks) and the md/dm groups.
Topology buildTopology(const SysRoot &root, const DeviceModel &model, const QList<IrqRow> &interrupts);
/// Reads ROOT/proc/interrupts once and builds the topology; a missing
/// /proc/interrupts only means no per-device IRQ figures.
Topology buildTopology(const SysRoot &root, const DeviceModel &model);

/// A group the user wants balanced, checked against the devices present: a
/// usable name (letters, digits, '-', '_') that is not a device's, at least
/// two distinct devices that exist (given as kernel names, /dev paths or
/// by-* links; kept as kernel names). The CLI's --group and the console's
/// groups both come through here.
Result<GroupSpec> makeUserGroup(const QString &name, const QStringList &members, const DeviceModel &model);

// ---- Balance --------------------------------------------------------------------

/// Evenness of a load spread over n members.
struct BalanceFigures
{
    /// Coefficient of variation: population standard deviation / mean.
    /// 0 = perfectly even. nullopt when there is no load.
    std::optional<double> cv;
    /// Jain's fairness index (Σx)² / (n·Σx²): 1 = perfectly even, 1/n = one
    /// member carries everything. nullopt when there is no load.
    std::optional<double> jain;
};
BalanceFigures balanceOf(const std::vector<double> &load);

// ---- Block request latency (BPF) ----------------------------------------------

struct DeviceLatency {
    Log2Histogram readQueue, readDevice, writeQueue, writeDevice; // counts of this interval only
};

/// One device and direction, cumulative since the probe was loaded.
/// Queue time runs from the request's insert into the scheduler (or, issued
/// without one, from its allocation) to its issue to the driver; device time
/// from issue to completion (core/monitor/bpf/blocklatency.bpf.c).
struct LatencyTotals
{
    quint64 requests = 0; ///< completed reads (or writes), as diskstats counts them
    quint64 queueNs = 0;  ///< exact sums
    quint64 deviceNs = 0;
    Log2Histogram queue, device;
};
struct DeviceLatencyTotals
{
    LatencyTotals read, write;
};

using LatencyTotalsMap = QHash<quint64, DeviceLatencyTotals>; ///< by deviceNumber()
/// The histograms between two readings of one device's totals.
DeviceLatency latencyDelta(const DeviceLatencyTotals &before, const DeviceLatencyTotals &after);

/// The wire form of one device's cumulative totals (blocktune-helper's
/// latency ticks, the agent's latency op): {"dev":"MAJ:MIN","read":{
/// "requests","queue_ns","device_ns","queue":[[upper_us,count],...],
/// "device":[...]},"write":{...}} (docs/json.md).
QJsonObject latencyTotalsToJson(quint64 number, const DeviceLatencyTotals &totals);
/// That form read back (its device number into *number); nullopt when any
/// part is missing or malformed.
std::optional<DeviceLatencyTotals> latencyTotalsFromJson(const QJsonObject &o, quint64 *number);

/// Where latency counts come from: BlockLatencyProbe, or a test's fake.
class LatencySource
{
public:
    virtual ~LatencySource() = default;
    /// Cumulative totals per device since the source started. Devices that
    /// completed no request may be absent.
    virtual Result<LatencyTotalsMap> totals() = 0;
};

/// The BPF program core/monitor/bpf/blocklatency.bpf.c on the block
/// layer's BTF raw tracepoints (block_rq_insert, block_rq_issue,
/// block_rq_complete): per device and direction, log2 histograms of queue
/// and device time and their exact sums. Unloaded when destroyed.
class BlockLatencyProbe final : public LatencySource
{
public:
    /// Loads and attaches the program. Fails with what stops it, in words a
    /// user can act on: built without BPF, no kernel BTF, not root (EPERM),
    /// kernel lockdown, or the test switch BLOCKTUNE_BPF_REFUSE=1.
    static Result<std::unique_ptr<BlockLatencyProbe>> load();
    /// This build has the BPF program (BLOCKTUNE_BPF).
    static bool builtIn();
    ~BlockLatencyProbe() override;
    Q_DISABLE_COPY_MOVE(BlockLatencyProbe)

    Result<LatencyTotalsMap> totals() override;
    /// Reads and writes completed whose issue the program did not see (in
    /// flight when it loaded, or no slot for its tag), and accounts a full
    /// map refused.
    quint64 untracked() const;
    /// Runs of the programs the kernel skipped, summed (bpf_prog_info's
    /// recursion_misses): a tracepoint hit on a CPU where one of them is
    /// already running (an interrupt's completion during an issue) is not
    /// run again. Each skipped completion is a request not counted.
    quint64 skippedRuns() const;

private:
    struct Impl;
    explicit BlockLatencyProbe(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

// ---- One interval's figures -----------------------------------------------------

/// One device over one interval, computed as iostat -x does
/// (Documentation/admin-guide/iostats.rst; sysstat rd_stats.c).
struct DeviceRates
{
    QString name;
    // Deltas over the interval.
    quint64 reads = 0;        ///< reads completed
    quint64 readsMerged = 0;
    quint64 readBytes = 0;    ///< sectors read x 512
    quint64 writes = 0;
    quint64 writesMerged = 0;
    quint64 writeBytes = 0;
    // Rates.
    double readsPerSec = 0;        ///< r/s
    double readMBps = 0;           ///< 10^6 bytes/s
    double readMergesPerSec = 0;   ///< rrqm/s
    double avgReadRequestKiB = 0;  ///< rareq-sz: sectors / reads / 2
    double readAwaitMs = 0;        ///< r_await: ms reading / reads
    double writesPerSec = 0;
    double writeMBps = 0;
    double writeMergesPerSec = 0;
    double avgWriteRequestKiB = 0;
    double writeAwaitMs = 0;
    double queueDepth = 0; ///< aqu-sz: weighted ms / interval ms
    double utilPct = 0;    ///< io_ticks ms / interval ms x 100, at most 100
    /// In flight at the end of the interval (reads + writes).
    quint64 inFlight = 0;
    /// The read/write split, for watched devices (/sys/block/X/inflight).
    std::optional<InFlight> inFlightSplit;
    /// Interrupts/s on the lines serving the device; nullopt when none known.
    std::optional<double> irqPerSec;
    bool irqShared = false; ///< those lines serve other disks too
    /// Queue and device time histograms of this interval, where the
    /// sampler has a LatencySource (monitor --latency); nullopt otherwise.
    std::optional<DeviceLatency> latency;
    /// What the kernel's readahead did for this device over the interval
    /// (its windows, sizes against read_ahead_kb, pages used and wasted,
    /// wait), where the loop has a ReadaheadSource (monitor --readahead, the
    /// console's Readahead view); nullopt otherwise, and, watching every
    /// device, for one that read nothing ahead in the interval.
    std::optional<DeviceReadahead> readahead;
};

struct MemberShare
{
    QString name;
    /// In /proc/diskstats now. A member that vanished (pulled, failed,
    /// removed) is listed with present false and left out of the figures.
    bool present = true;
    quint64 readBytes = 0;
    quint64 reads = 0;
    std::optional<double> share;        ///< of the group's bytes read, 0..1
    std::optional<double> requestShare; ///< of the group's reads, 0..1
    /// The member's latency histograms of the interval, when the sampler
    /// has a LatencySource (the console's heatmap sets members side by side).
    std::optional<DeviceLatency> latency;
};

struct GroupBalance
{
    QString name;
    QString kind;
    QList<MemberShare> members;
    BalanceFigures bytes;      ///< over the bytes read this interval
    BalanceFigures requests;   ///< over the reads completed this interval
    BalanceFigures sinceStart; ///< over the bytes read since the first reading
};

struct Sample
{
    bool baseline = false; ///< first reading: counters recorded, no rates
    quint64 tick = 0;      ///< 0 for the baseline, then 1, 2...
    double t = 0;          ///< seconds since the baseline, at the end of the interval
    double intervalS = 0;
    qint64 wallMs = 0;
    std::optional<double> interruptsPerSec;
    /// Devices in both readings: the watched ones in the order given, or
    /// (watching all) every device in kernel name order.
    QList<DeviceRates> devices;
    QList<GroupBalance> groups;
    /// Watched devices and group members not in this reading.
    QStringList missing;
    /// Devices /proc/diskstats gained or lost since the previous reading:
    /// the owner should rebuild the Topology.
    QStringList appeared;
    QStringList vanished;
    /// Empty when the latency histograms run (DeviceRates::latency);
    /// otherwise why not: not asked for, or why the BPF probe did not load.
    QString latencyUnavailable;
    /// Empty when the readahead figures run (DeviceRates::readahead);
    /// otherwise why not: off, still loading, or why the source failed.
    QString readaheadUnavailable;
};

/// One JSON line (with the trailing newline) in the `monitor --json` schema
/// documented in docs/json.md, appended to `out`.
void appendSampleJson(const Sample &sample, QByteArray &out);

// ---- The sampler ------------------------------------------------------------------

class Sampler final
{
public:
    Sampler(std::unique_ptr<CounterSource> source, std::unique_ptr<Clock> clock);
    ~Sampler();
    Q_DISABLE_COPY_MOVE(Sampler)

    /// Devices to report; empty = every device /proc/diskstats lists (their
    /// in-flight split is then not read). Watched md/dm devices bring their
    /// group.
    void setWatched(const QStringList &devices);
    QStringList watched() const { return m_watched; }
    void setTopology(Topology topology);
    const Topology &topology() const { return m_topology; }
    /// Groups the user names; reported whatever is watched.
    void setUserGroups(const QList<GroupSpec> &groups);
    /// Each interval's latency histograms from `source` go into
    /// DeviceRates::latency, from the first interval with two readings of it.
    void setLatencySource(std::unique_ptr<LatencySource> source);
    /// No latency histograms, and why (Sample::latencyUnavailable).
    void setLatencyUnavailable(const QString &reason);

    /// Reads the counters and returns the figures since the previous call.
    /// The first call records the baseline (Sample::baseline). Fails when
    /// /proc/diskstats cannot be read or the clock did not advance.
    Result<Sample> sample();
    /// Forgets the previous reading: the next sample() is a baseline.
    void reset();

private:
    struct State;

    std::unique_ptr<CounterSource> m_source;
    std::unique_ptr<Clock> m_clock;
    QStringList m_watched;
    Topology m_topology;
    QList<GroupSpec> m_userGroups;
    std::unique_ptr<LatencySource> m_latency;
    QString m_latencyUnavailable;
    std::unique_ptr<State> d;
};

// ---- PlotSeries ------------------------------------------------------------------------

/// A fixed-capacity ring: pushing past capacity overwrites the oldest.
template<typename T>
class RingBuffer
{
public:
    explicit RingBuffer(qsizetype capacity = 0) : m_data(size_t(capacity)) {}
    qsizetype capacity() const { return qsizetype(m_data.size()); }
    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    void push(T value)
    {
        if (m_data.empty())
            return;
        m_data[m_head] = value;
        m_head = (m_head + 1) % m_data.size();
        if (m_size < capacity())
            ++m_size;
    }
    /// i = 0 is the oldest point kept.
    const T &at(qsizetype i) const
    {
        const size_t start = (m_head + m_data.size() - size_t(m_size)) % m_data.size();
        return m_data[(start + size_t(i)) % m_data.size()];
    }
    const T &last() const { return at(m_size - 1); }
    /// Replaces the newest point (no-op when empty).
    void setLast(T value)
    {
        if (m_size > 0)
            m_data[(m_head + m_data.size() - 1) % m_data.size()] = value;
    }
    void clear()
    {
        m_head = 0;
        m_size = 0;
    }
    qsizetype memoryBytes() const { return qsizetype(m_data.capacity() * sizeof(T)); }

private:
    std::vector<T> m_data;
    size_t m_head = 0;
    qsizetype m_size = 0;
};

/// Series for plots on one time axis: each series is a ring of `capacity`
/// points (default one hour at 10 Hz), allocated whole when first used and
/// only while the byte budget allows. Memory never exceeds the budget,
/// whatever runs and for however long.
class PlotSeries final
{
public:
    struct Limits
    {
        qsizetype capacity = 36'000;          ///< points per series
        qsizetype budgetBytes = 64 << 20;     ///< all series together
    };
    explicit PlotSeries(Limits limits);
    PlotSeries() : PlotSeries(Limits{}) {}

    /// Starts a point at `t` seconds. Series that get no value before the
    /// next point read NaN there (a gap in the plot).
    void beginPoint(double t);
    /// Sets `series` at the current point; false when the budget refuses a
    /// new series.
    bool set(const QString &series, double value);
    /// Records what the console plots of a sample: per device
    /// "DEV/read_mb_per_s" and the other DeviceRates figures (the request
    /// size is a gap where nothing was read), per group "GROUP/jain",
    /// "GROUP/cv", "GROUP/MEMBER/share", and "interrupts_per_s".
    void record(const Sample &sample);

    qsizetype size() const { return m_time.size(); }
    qsizetype capacity() const { return m_limits.capacity; }
    double timeAt(qsizetype i) const { return m_time.at(i); }
    bool contains(const QString &series) const { return m_series.contains(series); }
    QStringList seriesNames() const;
    /// NaN where the series had no value (or did not exist yet).
    double valueAt(const QString &series, qsizetype i) const;
    /// Series refused for lack of budget (each counted once).
    qsizetype refusedSeries() const { return m_refused.size(); }
    /// Bytes held by the rings now; never above budgetBytes plus the time axis.
    qsizetype memoryBytes() const;
    void clear();

private:
    Limits m_limits;
    RingBuffer<double> m_time;
    QHash<QString, RingBuffer<float>> m_series;
    QSet<QString> m_refused;
    qsizetype m_seriesBytes = 0;
};

// ---- The loop both monitors run ---------------------------------------------------------

/// Tick deadlines at a fixed period from a start, absolute: a slow tick does
/// not shift the ones after it, and the ticks it overran are skipped, not
/// bunched up.
class TickSchedule final
{
public:
    void start(qint64 nowNs, qint64 periodNs);
    qint64 startNs() const { return m_startNs; }
    qint64 periodNs() const { return m_periodNs; }
    /// When the next tick is due.
    qint64 deadlineNs() const { return m_startNs + m_next * m_periodNs; }
    /// A tick ended at `nowNs`: the next is the first deadline after it.
    void tickDone(qint64 nowNs);

private:
    qint64 m_startNs = 0;
    qint64 m_periodNs = 1;
    qint64 m_next = 1;
};

/// What ends a blocking run between ticks, and how it sleeps until the next.
class TickWaiter
{
public:
    virtual ~TickWaiter() = default;
    virtual bool stopped() const = 0;
    /// Returns at `deadlineNs` (on the loop's clock), or earlier on a stop.
    virtual void waitUntil(qint64 deadlineNs) = 0;
};

/// Locally SIGINT, SIGTERM and SIGHUP, through TerminationSignals (a flag
/// and a pipe, so a tick is not late by a polling step); given `cancel`
/// (the agent runs the command), that flag alone: the client interrupted,
/// or the connection ended.
class TerminationWaiter final : public TickWaiter
{
public:
    TerminationWaiter(const Clock &clock, const std::atomic_bool *cancel);
    Q_DISABLE_COPY_MOVE(TerminationWaiter)

    bool stopped() const override;
    void waitUntil(qint64 deadlineNs) override;

private:
    const Clock &m_clock;
    const std::atomic_bool *m_cancel;
};

/// What a blocking run did, for `monitor --stats`.
struct MonitorRunStats
{
    qint64 ticks = 0;      ///< samples handed on (the baseline not counted)
    qint64 startNs = 0;    ///< on the loop's clock
    qint64 sumTickNs = 0;  ///< sampling and handing on, summed
    qint64 maxTickNs = 0;
};

/// The monitor's loop, once for the console's MonitorWorker and the CLI: a
/// Sampler on a counter source and a clock, its Topology rebuilt from a
/// device scan when /proc/diskstats gains or loses a device, and, given a
/// ReadaheadSource, each tick's readahead figures per device. The worker
/// calls tick() from its timer; the CLI, which has no event loop, run().
class MonitorLoop final
{
public:
    MonitorLoop(SysRoot root, std::unique_ptr<CounterSource> source, std::unique_ptr<Clock> clock);
    ~MonitorLoop();
    Q_DISABLE_COPY_MOVE(MonitorLoop)

    Sampler &sampler() { return m_sampler; }
    const Clock &clock() const { return *m_clock; }
    const SysRoot &root() const { return m_root; }

    /// Scans the devices (no filesystem probes) for the IRQ lines and
    /// groups, and useDevices() them.
    Status refreshTopology();
    /// The devices as a caller scanned them: the topology built from them,
    /// and the names and read_ahead_kb the readahead figures take.
    void useDevices(DeviceModel model);
    /// Readahead figures from `source` (Machine::openReadaheadSource(),
    /// opened by whoever starts the monitor: the loop does not know the
    /// machine): each tick's DeviceRates::readahead, the counters between
    /// its snapshot and the previous tick's, from the first tick after the
    /// one that took the first snapshot. Watching named devices, each gets
    /// figures (idle ones zeros); watching all, those that read ahead.
    void setReadaheadSource(std::unique_ptr<ReadaheadSource> source);
    /// No readahead figures, and why (Sample::readaheadUnavailable); the
    /// source held, if any, is destroyed (its program unloaded).
    void setReadaheadUnavailable(const QString &reason);
    bool hasReadaheadSource() const { return m_readahead != nullptr; }
    /// Loads the BPF latency probe for the sampler. On failure the sampler
    /// goes on without histograms, its samples saying why, and so does the
    /// error returned. Refused on a recorded tree (--sysroot): the probe
    /// would time this machine's devices under the tree's names.
    Status enableLatency();
    /// Unloads the probe; samples say the histograms are off.
    void disableLatency();
    /// One reading: the baseline after reset(), then the figures since the
    /// previous one. A device that came or went rebuilds the topology; a
    /// failed rescan goes to `rescan` (the sample stands).
    Result<Sample> tick(Status *rescan = nullptr);
    /// Ticks every `periodNs` until `count` ticks (0: no limit) or the
    /// waiter stops it, handing each sample to `onSample`. Call tick() for
    /// the baseline first. Fails on the first tick that fails.
    Result<MonitorRunStats> run(qint64 periodNs, qint64 count, TickWaiter &waiter,
                                const std::function<void(const Sample &)> &onSample);

private:
    void addReadahead(Sample &sample);

    SysRoot m_root;
    const Clock *m_clock; ///< the sampler's
    Sampler m_sampler;
    std::optional<DeviceModel> m_devices; ///< as last scanned, for the readahead figures' names
    std::unique_ptr<ReadaheadSource> m_readahead;
    std::optional<ReadaheadSnapshot> m_lastReadahead; ///< the previous tick's
    QString m_readaheadUnavailable;
};

/// `--group NAME=DEV,DEV[,...]`, each a group the user wants balanced
/// (checked by makeUserGroup); a name given twice is refused. The errors
/// are the ones `monitor --group` prints.
Result<GroupSpec> parseUserGroup(const QString &text, const DeviceModel &model);
Result<QList<GroupSpec>> parseUserGroups(const QStringList &texts, const DeviceModel &model);

// ---- The live driver ------------------------------------------------------------------

/// Samples on a timer and emits one Sample per tick. Lives on a
/// MonitorThread; talk to it through queued slots. It rescans the devices
/// (for IRQ lines and groups) when /proc/diskstats gains or loses one.
class MonitorWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MonitorWorker)

public:
    /// `sysroot` empty = the live machine.
    explicit MonitorWorker(const QString &sysroot, QObject *parent = nullptr);
    /// With a replaced source and clock (tests).
    MonitorWorker(const QString &sysroot, std::unique_ptr<CounterSource> source,
                  std::unique_ptr<Clock> clock, QObject *parent = nullptr);
    ~MonitorWorker() override;

public Q_SLOTS:
    /// Starts (or restarts) sampling every `intervalMs` (10 ms .. 1 h).
    void start(int intervalMs);
    void stop();
    /// Devices to report (empty = all); takes effect at the next tick.
    void setWatched(const QStringList &devices);
    void setUserGroups(const QList<blocktune::GroupSpec> &groups);
    /// Takes one sample now (tests drive the worker with this and a fake clock).
    void tick();
    /// Latency histograms on (the loader's source: the BPF probe as root,
    /// blocktune-helper's "latency" stream for a user on the live machine,
    /// unless replaced) or off. When the source cannot load, each sample says why
    /// (Sample::latencyUnavailable) and the other figures go on.
    void setLatency(bool on);
    /// Readahead figures on or off. On: the loader (setReadaheadLoader())
    /// opens the source on a thread of its own, since loading the program
    /// takes a second or two, and the ticks go on meanwhile, saying so
    /// (Sample::readaheadUnavailable); then each tick carries the figures,
    /// or why there are none. Off: the source is destroyed (unloaded), or
    /// dropped when its loading ends.
    void setReadahead(bool on);

public:
    /// The timer runs (between start() and stop()). Ask on the worker's thread.
    bool isSampling() const;
    /// Where setLatency(true) gets its source (tests give a fake; the
    /// default loads BlockLatencyProbe). Call before the worker's thread
    /// runs it, or on that thread.
    using LatencyLoader = std::function<Result<std::unique_ptr<LatencySource>>()>;
    void setLatencyLoader(LatencyLoader loader);
    /// Where setReadahead(true) gets its source: the machine's
    /// openReadaheadSource(), handed in by whoever starts the monitor (the
    /// worker does not know the machine); none: the figures are unavailable.
    /// Called on a thread of its own. Call before the worker's thread runs
    /// it, or on that thread.
    using ReadaheadLoader = std::function<Result<std::unique_ptr<ReadaheadSource>>()>;
    void setReadaheadLoader(ReadaheadLoader loader);
    /// A readahead source is being opened (ask on the worker's thread).
    bool isLoadingReadahead() const { return m_readaheadLoading != nullptr; }

Q_SIGNALS:
    void sampled(const blocktune::Sample &sample);
    /// A tick (or the device scan) failed; repeated failures with the same
    /// message are reported once.
    void failed(const QString &message);

private:
    void refreshTopology();

    void onTimer();
    void armTimer();

    void readaheadLoaded();

    MonitorLoop m_loop;
    TickSchedule m_schedule; ///< on the timer's (real) clock, not the sampler's
    bool m_sampling = false;
    QTimer *m_timer = nullptr;
    QString m_lastError;
    LatencyLoader m_latencyLoader;
    ReadaheadLoader m_readaheadLoader;
    bool m_readaheadWanted = false;
    QThread *m_readaheadLoading = nullptr; ///< runs the loader; joined by the destructor
    struct ReadaheadLoad;
    std::shared_ptr<ReadaheadLoad> m_readaheadLoad; ///< what it loaded, once finished
};

/// A MonitorWorker on its own thread; the destructor stops it, quits the
/// thread and waits for it.
class MonitorThread final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MonitorThread)

public:
    explicit MonitorThread(const QString &sysroot, QObject *parent = nullptr);
    /// With a replaced source and clock (tests of the views that use it).
    MonitorThread(const QString &sysroot, std::unique_ptr<CounterSource> source, std::unique_ptr<Clock> clock,
                  QObject *parent = nullptr);
    ~MonitorThread() override;
    /// Connect to its signals; call its slots with QMetaObject::invokeMethod.
    MonitorWorker *worker() const { return m_worker; }

private:
    QThread *m_thread = nullptr;
    MonitorWorker *m_worker = nullptr;
};

} // namespace blocktune

Q_DECLARE_METATYPE(blocktune::Sample)
Q_DECLARE_METATYPE(blocktune::GroupSpec)
