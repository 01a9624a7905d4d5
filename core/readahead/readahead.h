#pragma once
// What core/readahead offers: what the kernel's readahead does for the
// workload that runs now, per block device. The founding thread's
// accounting table ("to clarify the read patterns and readahead behaviors
// on production workloads"), from the kernel's readahead tracepoints:
// windows by kind, their sizes, how many reached the device's cap, the
// pages read ahead and whether anyone used them, how long used pages
// waited, and sync restarts of interleaved readers.
//
// A ReadaheadSource yields cumulative counters per device (a
// ReadaheadSnapshot); two snapshots give the counters between them, and a
// report names the devices (through the device model) and reads their
// figures:
//
//     auto probe = ReadaheadProbe::load();                 // this machine, as root
//     auto start = (*probe)->snapshot();
//     ...                                                  // the workload runs
//     auto now = (*probe)->snapshot();
//     ReadaheadReport r = buildReadaheadReport(*start, *now, model, root);
//     formatReadaheadReport(r); readaheadReportToJson(r);  // the CLI's table, schema 1
//
// The findings a report supports (readahead_capped, readahead_wasted,
// streams_interleaved, random_reads) are core/advisor's (advisor.h).
// Snapshots travel as JSON (readaheadSnapshotToJson), so a source on
// another machine or behind the helper can feed the same report.

#include "common/counts.h"
#include "common/result.h"
#include "common/sysroot.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

namespace blocktune {

class DeviceModel; // core/devices

/// Who started a window (core/readahead/bpf/readahead.h has the details).
enum class ReadaheadKind {
    Sync,   ///< a miss starts or restarts a window (page_cache_sync_ra)
    Async,  ///< the reader hit the marker: the stream is recognised (page_cache_async_ra)
    Mmap,   ///< a page fault: read-around, or sync/async from filemap_fault
    Forced, ///< fadvise WILLNEED, readahead(2): no window of a descriptor
};
inline constexpr int kReadaheadKinds = 4;
inline constexpr ReadaheadKind kAllReadaheadKinds[kReadaheadKinds] = {
    ReadaheadKind::Sync, ReadaheadKind::Async, ReadaheadKind::Mmap, ReadaheadKind::Forced};
/// "sync", "async", "mmap", "forced" (CLI and JSON).
QString readaheadKindName(ReadaheadKind kind);

/// The page size readahead counts in (4 KiB: the kernel's PAGE_SIZE here).
quint64 readaheadPageKiB();

/// Window sizes, in pages, and how many windows had each.
using WindowSizes = QMap<quint32, quint64>;

/// One kind of window on one device, cumulative since the source started.
struct ReadaheadKindCounters
{
    quint64 windows = 0;
    quint64 missWindows = 0; ///< started by a cache miss (the founding table's sync_count)
    quint64 atCap = 0;       ///< windows whose size reached the descriptor's ra_pages
    WindowSizes sizes;       ///< the windows' size, where the window was seen
    WindowSizes asyncSizes;  ///< their async_size
    quint64 pagesReadAhead = 0;
    quint64 pagesUsed = 0;      ///< read (read(2), splice, sendfile) or mapped by a fault
    quint64 pagesWasted = 0;    ///< left the page cache unused
    quint64 pagesUntracked = 0; ///< not followed (the probe's table was full): neither used nor wasted
    /// Sync windows of a file other descriptors (of other tasks) read just
    /// before, nearby: the SCST story's restarts.
    quint64 interleavedRestarts = 0;
    Log2Histogram wait; ///< used pages by how long they waited in the cache (log2 us)

    friend bool operator==(const ReadaheadKindCounters &, const ReadaheadKindCounters &) = default;
};

struct DeviceReadaheadCounters
{
    std::array<ReadaheadKindCounters, kReadaheadKinds> kinds{};
    ReadaheadKindCounters &of(ReadaheadKind kind) { return kinds[size_t(kind)]; }
    const ReadaheadKindCounters &of(ReadaheadKind kind) const { return kinds[size_t(kind)]; }

    friend bool operator==(const DeviceReadaheadCounters &, const DeviceReadaheadCounters &) = default;
};

/// By deviceNumber() of the device whose read_ahead_kb governs the reads:
/// a block device read itself, or the device of a file's filesystem
/// (which has no block device for tmpfs, NFS, btrfs: an anonymous 0:N).
using ReadaheadCountersMap = QHash<quint64, DeviceReadaheadCounters>;

/// One reading of a source: cumulative since it started.
struct ReadaheadSnapshot
{
    ReadaheadCountersMap devices;
    qint64 takenMs = 0;  ///< steady clock (ms) when read
    quint64 dropped = 0; ///< events a full table of the source refused, since it started
};

/// What a source sees on this kernel.
struct ReadaheadCoverage
{
    QString windows = QStringLiteral("tracepoints"); ///< "tracepoints" or "fentry"
    bool faults = true;        ///< mmap windows told apart from read()'s (mm_filemap_fault)
    bool pages = true;         ///< pages read ahead, used and wasted counted
    QString pagesUnavailable;  ///< why not, when not

    friend bool operator==(const ReadaheadCoverage &, const ReadaheadCoverage &) = default;
};

/// Where readahead counters come from: ReadaheadProbe on this machine, the
/// helper's stream (helperreadahead.h), a host's agent (core/machine); a
/// test's fake. Machine::openReadaheadSource() chooses.
class ReadaheadSource
{
public:
    virtual ~ReadaheadSource() = default;
    /// Counters per device since the source started; devices that read
    /// nothing ahead may be absent.
    virtual Result<ReadaheadSnapshot> snapshot() = 0;
    virtual ReadaheadCoverage coverage() const = 0;
    /// Hands what the source keeps on its thread (a helper's process and
    /// its signals) to `thread`, which calls snapshot() from now on. Called
    /// on the thread that opened the source, before it ends: one that opens
    /// a source off the thread that reads it (the console's monitor loads
    /// it beside its ticks). Nothing to do for a source without a thread.
    virtual void handTo(QThread *thread) { Q_UNUSED(thread); }
};

/// The BPF program core/readahead/bpf/readahead.bpf.c on the readahead
/// tracepoints (or fentry of the readahead functions where a kernel has no
/// tracepoints, and the probe is allowed there) and the page cache's
/// filemap tracepoints. Unloaded when destroyed.
class ReadaheadProbe final : public ReadaheadSource
{
public:
    enum class Hooks { Automatic, Tracepoints, Fentry };
    /// Loads and attaches the program. Automatic takes the tracepoints where
    /// the kernel has them, else fentry (BLOCKTUNE_READAHEAD_HOOKS=tracepoints
    /// or fentry asks for one). Fails with what stops it, in words a user can
    /// act on: built without BPF, no kernel BTF, neither hook in this
    /// kernel (named), not root, a policy that refuses the programs, or the
    /// test switch BLOCKTUNE_BPF_REFUSE=1.
    static Result<std::unique_ptr<ReadaheadProbe>> load(Hooks hooks = Hooks::Automatic);
    /// This build has the BPF program (BLOCKTUNE_BPF).
    static bool builtIn();
    ~ReadaheadProbe() override;
    Q_DISABLE_COPY_MOVE(ReadaheadProbe)

    Result<ReadaheadSnapshot> snapshot() override;
    ReadaheadCoverage coverage() const override;

private:
    struct Impl;
    explicit ReadaheadProbe(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

/// Adds `from` to `into`: counts, sizes and waits.
void addReadaheadCounters(ReadaheadKindCounters &into, const ReadaheadKindCounters &from);
void addReadaheadCounters(DeviceReadaheadCounters &into, const DeviceReadaheadCounters &from);

/// `after - before`, per device, kind, size and bucket (a count that went
/// down counts 0; a device new in `after` counts from zero).
ReadaheadCountersMap readaheadDelta(const ReadaheadCountersMap &before, const ReadaheadCountersMap &after);

/// The wire form of a snapshot (docs/json.md, "readahead counters"):
/// {"taken_ms":..,"dropped":..,"devices":[{"dev":"MAJ:MIN","sync":{"windows",
/// "miss_windows","at_cap","sizes":[[pages,windows],...],"async_sizes":[...],
/// "pages_read_ahead","pages_used","pages_wasted","pages_untracked",
/// "interleaved_restarts","wait":[[upper_us,pages],...]},"async":{...},
/// "mmap":{...},"forced":{...}}, ...]}.
QJsonObject readaheadSnapshotToJson(const ReadaheadSnapshot &snapshot);
/// That form read back; the error names the part that is missing or malformed.
Result<ReadaheadSnapshot> readaheadSnapshotFromJson(const QJsonObject &object);
/// What a source sees, on the wire beside its snapshots (the helper's and
/// the agent's "readahead" op): {"windows":"tracepoints"|"fentry",
/// "faults":bool,"pages":bool,"pages_unavailable":".."}.
QJsonObject readaheadCoverageToJson(const ReadaheadCoverage &coverage);
/// That form read back; std::nullopt when a field is missing or of the wrong type.
std::optional<ReadaheadCoverage> readaheadCoverageFromJson(const QJsonObject &object);

// ---- The report ---------------------------------------------------------------------

/// One kind of window on one device (or all kinds together), over a report's time.
struct ReadaheadFigures
{
    quint64 windows = 0;
    quint64 missWindows = 0;
    quint64 atCap = 0;
    quint64 sizedWindows = 0;           ///< windows whose size was seen
    std::optional<quint64> sizeP50KiB;  ///< rank percentiles of the sizes; nullopt: none seen
    std::optional<quint64> sizeP90KiB;
    std::optional<quint64> sizeMaxKiB;
    std::optional<quint64> asyncP50KiB;
    quint64 pagesReadAhead = 0;
    quint64 pagesUsed = 0;
    quint64 pagesWasted = 0;
    /// Read ahead and neither used nor wasted nor untracked: still in the
    /// page cache, unused so far (exact when the report starts where its
    /// source started, as the CLI's does).
    quint64 pagesUnusedCached = 0;
    quint64 pagesUntracked = 0;
    quint64 interleavedRestarts = 0;
    std::optional<double> waitP50Ms;    ///< log2 buckets' upper bounds
    std::optional<double> waitP90Ms;
    quint64 waitedPages = 0;            ///< used pages with a wait counted
};
/// The figures of one kind's counters, and of several kinds' together.
ReadaheadFigures readaheadFigures(const ReadaheadKindCounters &counters);
ReadaheadFigures readaheadFigures(const DeviceReadaheadCounters &counters);

struct DeviceReadahead
{
    QString name;          ///< kernel name (a partition's own), or "MAJ:MIN" without a block device
    quint64 number = 0;    ///< deviceNumber()
    bool blockDevice = false;
    bool partition = false;
    QString queueDevice;   ///< whose read_ahead_kb governs: the device, or a partition's disk
    std::optional<quint64> readAheadKiB; ///< that read_ahead_kb when the report was made
    std::array<ReadaheadFigures, kReadaheadKinds> kinds{};
    ReadaheadFigures all;
    const ReadaheadFigures &of(ReadaheadKind kind) const { return kinds[size_t(kind)]; }
};

struct ReadaheadReport
{
    double durationS = 0;
    QList<DeviceReadahead> devices;
    ReadaheadCoverage coverage;
    quint64 dropped = 0;
    const DeviceReadahead *find(const QString &name) const;
};

/// The report between two snapshots of one source. Devices with windows or
/// pages read ahead, by name; with `only` (kernel names), exactly those, in
/// that order, idle ones included. Names and read_ahead_kb come from
/// `model` and `root` (the read_ahead_kb of now).
ReadaheadReport buildReadaheadReport(const ReadaheadSnapshot &start, const ReadaheadSnapshot &end,
                                     const DeviceModel &model, const SysRoot &root, const QStringList &only = {});

/// One device's object of the readahead JSON (schema 1, docs/json.md):
/// {"read_ahead_kb","windows":{"sync","async","mmap","forced"},"window_kib":
/// {"p50","p90","max"},"at_cap","pages":{"read_ahead","used","wasted",
/// "unused_cached"},"wait_ms":{"p50","p90"},"interleaved_restarts"}.
QJsonObject readaheadDeviceToJson(const DeviceReadahead &device);
/// {"schema":1,"duration_s","devices":{NAME: readaheadDeviceToJson()}}; the
/// caller adds "findings" (core/advisor: readaheadFindingsToJson()).
QJsonObject readaheadReportToJson(const ReadaheadReport &report);
/// The founding thread's table, per device: kind | windows | sync | size
/// p50/p90 | at cap | pages read ahead | used | wasted | wait p50.
QString formatReadaheadReport(const ReadaheadReport &report);

} // namespace blocktune
