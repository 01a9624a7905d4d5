// The measuring loop: pread() on read-only descriptors, one std::thread per
// reader, sampled every interval by the thread that called run().
#include "readtest.h"

#include "common/tr.h"
#include "common/units.h"
#include "stats/diskstats.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace blocktune {

namespace {

using Steady = std::chrono::steady_clock;

// Largest single pread. A stop request waits for the read in flight (a
// block-device read cannot be interrupted), so this bounds how long a stop
// takes: 1 MiB is 10 ms at 100 MB/s and 200 ms only below 5 MB/s. Blocks up
// to 1 MiB (dd's usual sizes) are one pread each, exactly as dd issues them.
constexpr quint64 kSliceBytes = 1ULL << 20;
// Progress reaches the caller about ten times a second, never per read.
constexpr auto kDeliverPeriod = std::chrono::milliseconds(100);

double secondsBetween(Steady::time_point a, Steady::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

double mbPerSec(quint64 bytes, double seconds)
{
    return seconds > 0 ? double(bytes) / seconds / 1e6 : 0.0;
}


QString offsetText(quint64 offset)
{
    return offset < 1024 ? QString::number(offset)
                         : QStringLiteral("%1 (%2)").arg(offset).arg(formatBytes(offset));
}

class Fd final
{
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(Fd &&o) noexcept : m_fd(std::exchange(o.m_fd, -1)) {}
    Fd &operator=(Fd &&o) noexcept
    {
        if (this != &o) {
            if (m_fd >= 0)
                ::close(m_fd);
            m_fd = std::exchange(o.m_fd, -1);
        }
        return *this;
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    int get() const { return m_fd; }

private:
    int m_fd = -1;
};

struct FreeDeleter
{
    void operator()(void *p) const { std::free(p); }
};
using Buffer = std::unique_ptr<char, FreeDeleter>;

// Shared by the controller and every worker of one run.
struct RunControl
{
    const std::atomic_bool *cancel = nullptr;
    std::atomic_bool stopBackground{false};
    std::atomic_bool abort{false};
    Steady::time_point deadline{};
    bool hasDeadline = false;

    std::mutex mutex;
    std::condition_variable changed;
    int running = 0;          // guarded by mutex
    int measuredRunning = 0;  // guarded by mutex

    bool cancelled() const
    {
        return (cancel && cancel->load(std::memory_order_relaxed)) || abort.load(std::memory_order_relaxed);
    }
};

struct Worker
{
    // Set up before the thread starts.
    int streamIndex = 0;
    const PlannedStream *plan = nullptr;
    QString displayPath;
    int fd = -1;
    char *buffer = nullptr;
    quint64 bufferSize = 0;
    std::atomic<quint64> *cursor = nullptr; // server: the stream's next block
    quint64 seed = 0;

    // Live counters: written by the worker only, read by the sampler. A
    // relaxed load+store keeps the hot loop free of locked instructions.
    std::atomic<quint64> bytes{0};
    std::atomic<quint64> reads{0};
    std::atomic<quint64> latencyNs{0};
    std::atomic<quint64> intervalMaxNs{0};

    // Final values, read after join().
    bool started = false;
    Steady::time_point firstStart{};
    Steady::time_point lastEnd{};
    quint64 maxNs = 0;
    bool reachedEnd = false;
    QString error;
    LatencyHistogram latency; // every read's wait, fixed memory

    // The sampler's previous look.
    quint64 seenBytes = 0, seenReads = 0, seenLatencyNs = 0;
};

inline void bump(std::atomic<quint64> &counter, quint64 by)
{
    counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

// Reads [offset, offset + length) into the worker's buffer, slice by slice.
// Returns the bytes read; sets w.error on failure.
quint64 readBlock(Worker &w, const RunControl &control, quint64 offset, quint64 length)
{
    quint64 got = 0;
    while (got < length) {
        const size_t want = size_t(std::min(length - got, w.bufferSize));
        const ssize_t n = ::pread(w.fd, w.buffer, want, off_t(offset + got));
        if (n < 0) {
            const int err = errno;
            if (err == EINTR)
                continue;
            w.error = ReadTestText::tr("read error on %1 at offset %2: %3")
                          .arg(w.displayPath, offsetText(offset + got), errnoDetail(err));
            return got;
        }
        if (n == 0) {
            // A block device returns 0 only at its end; the plan stayed
            // inside the size sysfs reported, so the device shrank.
            w.error = ReadTestText::tr("read on %1 at offset %2 returned no data before the end the "
                                     "device reported (it shrank during the test?)")
                          .arg(w.displayPath, offsetText(offset + got));
            return got;
        }
        got += quint64(n);
        if (got < length && control.cancelled())
            break;
    }
    return got;
}

void runWorker(Worker &w, RunControl &control, std::latch &start)
{
    start.arrive_and_wait();
    const PlannedStream &plan = *w.plan;
    const bool background = plan.role == StreamRole::Background;
    // Background streams, and measured ones reading for a time, go round
    // their range again; the others read it once.
    const bool loops = background || plan.untilDeadline;
    const quint64 begin = plan.start;
    const quint64 end = plan.start + plan.length;
    const quint64 bs = plan.blockSize;
    const bool random = plan.pattern == AccessPattern::Random;
    const quint64 slotCount = random ? std::max<quint64>(plan.length / bs, 1) : 0;
    // Server threads share a cursor; looping, it wraps at a whole block.
    const quint64 cursorSpan = std::max<quint64>(plan.length - plan.length % bs, bs);
    std::mt19937_64 rng(w.seed);
    quint64 pos = begin;
    // Start a new pass cold, as a new `dd` over a device larger than memory
    // would: drop what the previous pass cached.
    auto dropRange = [&] { ::posix_fadvise(w.fd, off_t(begin), off_t(plan.length), POSIX_FADV_DONTNEED); };

    while (!control.cancelled()) {
        if (background && control.stopBackground.load(std::memory_order_relaxed))
            break;
        quint64 offset = 0;
        quint64 length = bs;
        if (random) {
            offset = begin + (rng() % slotCount) * bs;
        } else if (w.cursor) {
            // Server: threads take consecutive blocks of one stream in
            // turn, as nfsd or SCST worker threads do.
            const quint64 ticket = w.cursor->fetch_add(bs, std::memory_order_relaxed) - begin;
            if (loops) {
                if (ticket > 0 && ticket % cursorSpan == 0)
                    dropRange();
                offset = begin + ticket % cursorSpan;
            } else {
                offset = begin + ticket;
                if (offset >= end) {
                    w.reachedEnd = true;
                    break;
                }
            }
            length = std::min(bs, end - offset);
        } else {
            if (pos >= end) {
                if (!loops) {
                    w.reachedEnd = true;
                    break;
                }
                dropRange();
                pos = begin;
            }
            offset = pos;
            length = std::min(bs, end - pos);
        }

        const Steady::time_point t1 = Steady::now();
        const quint64 got = readBlock(w, control, offset, length);
        const Steady::time_point t2 = Steady::now();
        if (!w.started) {
            w.started = true;
            w.firstStart = t1;
        }
        w.lastEnd = t2;
        if (got > 0 || w.error.isEmpty()) {
            const quint64 ns = quint64(std::chrono::duration_cast<std::chrono::nanoseconds>(t2 - t1).count());
            bump(w.bytes, got);
            bump(w.reads, 1);
            bump(w.latencyNs, ns);
            if (ns > w.intervalMaxNs.load(std::memory_order_relaxed))
                w.intervalMaxNs.store(ns, std::memory_order_relaxed);
            w.maxNs = std::max(w.maxNs, ns);
            w.latency.record(ns);
        }
        if (!w.error.isEmpty())
            break;
        pos = offset + length;
        if (plan.untilDeadline && control.hasDeadline && t2 >= control.deadline)
            break;
    }

    {
        std::lock_guard lock(control.mutex);
        --control.running;
        if (!background)
            --control.measuredRunning;
    }
    control.changed.notify_all();
}

QString runLabel(int index)
{
    return index < 26 ? QString(QChar(u'a' + index)) : QString::number(index + 1);
}

QString kernelRelease(const SysRoot &root)
{
    auto text = root.readString(root.procPath("sys/kernel/osrelease"));
    if (text && !text->isEmpty())
        return *text;
    if (root.isLive()) {
        struct utsname u {};
        if (::uname(&u) == 0)
            return QString::fromLocal8Bit(u.release);
    }
    return {};
}

} // namespace

// ---- statistics -------------------------------------------------------------

double medianOf(QList<double> values)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n % 2 ? values.at(n / 2) : (values.at(n / 2 - 1) + values.at(n / 2)) / 2.0;
}

bool runsDisagree(const QList<double> &runs)
{
    if (runs.size() < 2)
        return false;
    const auto [lo, hi] = std::minmax_element(runs.cbegin(), runs.cend());
    return *hi * (1.0 - kStallFraction) > *lo;
}

Summary summarize(const QList<double> &values)
{
    Summary s;
    s.count = int(values.size());
    if (values.isEmpty())
        return s;
    s.median = medianOf(values);
    s.min = *std::min_element(values.begin(), values.end());
    s.max = *std::max_element(values.begin(), values.end());
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / double(values.size());
    if (values.size() > 1) {
        double sq = 0;
        for (double v : values)
            sq += (v - s.mean) * (v - s.mean);
        s.stdev = std::sqrt(sq / double(values.size() - 1));
    }
    return s;
}

double jainFairness(const QList<double> &values)
{
    double sum = 0, sumSq = 0;
    for (double v : values) {
        sum += v;
        sumSq += v * v;
    }
    if (values.isEmpty() || sumSq <= 0)
        return 1.0;
    return (sum * sum) / (double(values.size()) * sumSq);
}

namespace {

// ---- one run, step by step -----------------------------------------------

// Starts a run cold: drops each device's cached pages, so the run reads
// from the device as a new `dd` over a device larger than memory would.
bool startCold(const SysRoot &root, const QList<TestDevice> &devices, bool dropCaches, RunResult &run)
{
    // POSIX_FADV_DONTNEED drops the device's clean cached pages for anyone
    // who can open it; BLKFLSBUF (CAP_SYS_ADMIN) also writes back and
    // invalidates the buffer cache. The machine-wide drop_caches only on request.
    bool allFlushed = true;
    for (const TestDevice &dev : devices) {
        Fd fd(::open(dev.devPath.constData(), O_RDONLY | O_CLOEXEC));
        if (fd.get() < 0) {
            const int err = errno;
            run.errors << ReadTestText::tr("cannot open %1: %2%3")
                              .arg(root.displayPath(dev.devPath), errnoDetail(err),
                                   err == EACCES ? ReadTestText::tr(" (reading a block device needs root "
                                                                  "or the disk group)")
                                                 : QString());
            continue;
        }
        struct stat st {};
        if (::fstat(fd.get(), &st) != 0 || !S_ISBLK(st.st_mode)) {
            run.errors << ReadTestText::tr("%1 is not a block device").arg(root.displayPath(dev.devPath));
            continue;
        }
        ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED);
        if (::ioctl(fd.get(), BLKFLSBUF, 0) != 0)
            allFlushed = false;
    }
    run.cacheDrop = allFlushed ? QStringLiteral("fadvise+blkflsbuf") : QStringLiteral("fadvise");
    if (run.errors.isEmpty() && dropCaches) {
        auto written = root.writeAttribute(root.procPath("sys/vm/drop_caches"), QStringLiteral("1"));
        if (!written)
            run.errors << QStringLiteral("--drop-caches: %1").arg(written.error().message);
        else
            run.cacheDrop += QStringLiteral("+drop_caches");
    }
    return run.errors.isEmpty();

}

// What one run reads with: descriptors, buffers, one Worker per thread.
struct RunStreams
{
    std::vector<Fd> fds;
    std::vector<Buffer> buffers;
    std::vector<std::unique_ptr<Worker>> workers;
    std::vector<std::unique_ptr<std::atomic<quint64>>> cursors; // server streams' shared block cursor
};

// Opens the descriptors now: a descriptor keeps the readahead in force when
// it was opened (file_ra_state_init in do_dentry_open), so a sweep's new
// value reaches this run.
bool openStreams(const SysRoot &root, const QList<TestDevice> &devices, const QList<PlannedStream> &streams,
                 const ReadTestSpec &spec, RunStreams &out, RunResult &run)
{
    const int flags = O_RDONLY | O_CLOEXEC | (spec.direct ? O_DIRECT : 0);
    std::vector<Fd> &fds = out.fds;
    std::vector<Buffer> &buffers = out.buffers;
    std::vector<std::unique_ptr<Worker>> &workers = out.workers;
    std::vector<std::unique_ptr<std::atomic<quint64>>> &cursors = out.cursors;
    quint64 seed = 0x626c6f636b74756eULL; // fixed: random readers repeat their offsets run to run

    auto openDevice = [&](const TestDevice &dev, const PlannedStream &plan) -> int {
        Fd fd(::open(dev.devPath.constData(), flags));
        if (fd.get() < 0) {
            const int err = errno;
            run.errors << ReadTestText::tr("cannot open %1%2: %3")
                              .arg(root.displayPath(dev.devPath),
                                   spec.direct ? ReadTestText::tr(" with O_DIRECT") : QString(),
                                   errnoDetail(err));
            return -1;
        }
        if (spec.fadviseSequential && plan.pattern == AccessPattern::Sequential)
            ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
        fds.push_back(std::move(fd));
        return fds.back().get();
    };

    for (int si = 0; si < streams.size(); ++si) {
        const PlannedStream &plan = streams.at(si);
        const TestDevice &dev = devices.at(plan.device);
        std::atomic<quint64> *cursor = nullptr;
        if (plan.threads > 1) {
            cursors.push_back(std::make_unique<std::atomic<quint64>>(plan.start));
            cursor = cursors.back().get();
        }
        int shared = -1;
        if (plan.sharedFd && (shared = openDevice(dev, plan)) < 0)
            break;
        for (int t = 0; t < plan.threads; ++t) {
            auto w = std::make_unique<Worker>();
            w->streamIndex = si;
            w->plan = &plan;
            w->displayPath = root.displayPath(dev.devPath);
            w->cursor = cursor;
            w->seed = seed++;
            w->fd = plan.sharedFd ? shared : openDevice(dev, plan);
            if (w->fd < 0)
                break;
            // Aligned for O_DIRECT (the logical block size, at least a page).
            const quint64 align = std::max<quint64>(dev.logicalBlockBytes, quint64(::sysconf(_SC_PAGESIZE)));
            w->bufferSize = std::min(plan.blockSize, kSliceBytes);
            void *mem = nullptr;
            if (::posix_memalign(&mem, size_t(align), size_t(w->bufferSize)) != 0) {
                run.errors << ReadTestText::tr("out of memory for a %1 read buffer").arg(formatBytes(w->bufferSize));
                break;
            }
            buffers.emplace_back(static_cast<char *>(mem));
            w->buffer = buffers.back().get();
            workers.push_back(std::move(w));
        }
        if (!run.errors.isEmpty())
            break;
    }
    return run.errors.isEmpty();

}

// One thread per worker, each waiting on `start`. A thread that cannot be
// made aborts the run: the workers already started stop at once, and those
// left are counted out so that the controller does not wait for them.
std::vector<std::thread> startReaders(RunStreams &rs, RunControl &control, std::latch &start, RunResult &run)
{
    for (const auto &w : rs.workers) {
        ++control.running;
        if (w->plan->role == StreamRole::Measure)
            ++control.measuredRunning;
    }
    std::vector<std::thread> threads;
    threads.reserve(rs.workers.size());
    for (const auto &w : rs.workers) {
        try {
            threads.emplace_back(runWorker, std::ref(*w), std::ref(control), std::ref(start));
        } catch (const std::system_error &e) {
            run.errors << ReadTestText::tr("cannot start a reader thread: %1").arg(QString::fromLocal8Bit(e.what()));
            control.abort = true;
            const std::ptrdiff_t missing = std::ptrdiff_t(rs.workers.size() - threads.size());
            start.count_down(missing);
            std::lock_guard lock(control.mutex);
            for (size_t i = threads.size(); i < rs.workers.size(); ++i) {
                --control.running;
                if (rs.workers[i]->plan->role == StreamRole::Measure)
                    --control.measuredRunning;
            }
            break;
        }
    }
    return threads;
}

// Turns the workers' live counters into one IntervalSample per call: what
// each stream read since the previous call.
class IntervalRecorder final
{
public:
    IntervalRecorder(const QList<PlannedStream> &streams, RunStreams &rs, Steady::time_point t0, RunResult &run)
        : lastSample(t0), m_streams(streams), m_rs(rs), m_t0(t0), m_run(run)
    {
    }

    Steady::time_point lastSample;
    QList<IntervalSample> fresh; ///< taken since the observer last saw them

    void take(Steady::time_point now)
    {
        IntervalSample sample;
        sample.endSeconds = secondsBetween(m_t0, now);
        sample.seconds = secondsBetween(lastSample, now);
        sample.streams.resize(m_streams.size());
        std::vector<quint64> latency(size_t(m_streams.size()), 0);
        for (const auto &w : m_rs.workers) {
            const quint64 b = w->bytes.load(std::memory_order_relaxed);
            const quint64 r = w->reads.load(std::memory_order_relaxed);
            const quint64 l = w->latencyNs.load(std::memory_order_relaxed);
            const quint64 m = w->intervalMaxNs.exchange(0, std::memory_order_relaxed);
            IntervalSample::Stream &s = sample.streams[w->streamIndex];
            s.bytes += b - w->seenBytes;
            s.reads += r - w->seenReads;
            latency[size_t(w->streamIndex)] += l - w->seenLatencyNs;
            s.maxLatencyMs = std::max(s.maxLatencyMs, double(m) / 1e6);
            w->seenBytes = b;
            w->seenReads = r;
            w->seenLatencyNs = l;
        }
        for (qsizetype i = 0; i < sample.streams.size(); ++i) {
            IntervalSample::Stream &s = sample.streams[i];
            s.meanLatencyMs = s.reads ? double(latency[size_t(i)]) / double(s.reads) / 1e6 : 0.0;
        }
        lastSample = now;
        m_run.intervals.append(sample);
        fresh.append(sample);
    }

private:
    const QList<PlannedStream> &m_streams;
    RunStreams &m_rs;
    const Steady::time_point m_t0;
    RunResult &m_run;
};

// Sleeps until the next tick or until the readers change state; true when
// every reader has ended. Once the measured streams are done, the
// background ones are told to stop.
bool waitForReaders(RunControl &control, Steady::time_point nextTick)
{
    std::unique_lock lock(control.mutex);
    // No polling: readers see a cancel themselves after their
    // current block and wake us when they end; we wake for the
    // next interval otherwise (10 times a second by default).
    control.changed.wait_until(lock, nextTick, [&] {
        return control.running == 0
            || (control.measuredRunning == 0 && !control.stopBackground.load());
    });
    if (control.measuredRunning == 0)
        control.stopBackground = true;
    return control.running == 0;
}

// Starts every reader at once, samples their counters each interval,
// hands the samples to the observer about ten times a second, and returns
// when the measured streams are done (backgrounds are then stopped), the
// time is up or the run is cancelled.
void deliverRun(const QList<PlannedStream> &streams, const ReadTestSpec &spec, RunStreams &rs, int index,
                const ReadTestObserver &observer, const std::atomic_bool *cancel, RunResult &run)
{
    RunControl control;
    control.cancel = cancel;
    std::latch start(std::ptrdiff_t(rs.workers.size()) + 1);
    std::vector<std::thread> threads = startReaders(rs, control, start, run);

    const auto interval = std::chrono::milliseconds(spec.intervalMs);
    const Steady::time_point t0 = Steady::now();
    if (spec.durationMs) {
        control.hasDeadline = true;
        control.deadline = t0 + std::chrono::milliseconds(*spec.durationMs);
    }
    start.arrive_and_wait();

    QStringList names;
    for (const PlannedStream &s : streams)
        names << s.name;
    IntervalRecorder recorder(streams, rs, t0, run);
    Steady::time_point nextTick = t0 + interval;
    Steady::time_point lastDeliver = t0;

    for (;;) {
        const bool allDone = waitForReaders(control, nextTick);
        const Steady::time_point now = Steady::now();
        if (now >= nextTick) {
            recorder.take(now);
            while (nextTick <= now)
                nextTick += interval;
        }
        if (allDone) {
            if (secondsBetween(recorder.lastSample, now) > 0.001)
                recorder.take(now);
        }
        if (observer.progress && !recorder.fresh.isEmpty() && (allDone || now - lastDeliver >= kDeliverPeriod)) {
            observer.progress(index, run.label, recorder.fresh, names);
            recorder.fresh.clear();
            lastDeliver = now;
        }
        if (allDone)
            break;
    }
    for (std::thread &t : threads)
        t.join();

}

// Per stream and per run: bytes, seconds, MB/s, latency, errors,
// fairness; per device: what the kernel counted (requests, sizes, overshoot).
// Stream `si`'s figures from its workers' final counters; `first` and
// `last` are when its first read started and its last one ended.
StreamResult streamResultOf(const QList<TestDevice> &devices, const PlannedStream &plan, int si,
                            const RunStreams &rs, Steady::time_point &first, Steady::time_point &last)
{
    StreamResult s;
    s.name = plan.name;
    s.device = devices.at(plan.device).name;
    s.offset = plan.start;
    s.plannedBytes = plan.role == StreamRole::Measure && !plan.untilDeadline ? plan.length : 0;
    s.role = plan.role;
    s.pattern = plan.pattern;
    first = Steady::time_point::max();
    last = {};
    quint64 latencyNs = 0;
    LatencyHistogram histogram;
    for (const auto &w : rs.workers) {
        if (w->streamIndex != si)
            continue;
        WorkerResult wr;
        wr.bytes = w->bytes.load();
        wr.reads = w->reads.load();
        wr.seconds = w->started ? secondsBetween(w->firstStart, w->lastEnd) : 0.0;
        wr.latency.count = wr.reads;
        wr.latency.meanMs = wr.reads ? double(w->latencyNs.load()) / double(wr.reads) / 1e6 : 0.0;
        wr.latency.maxMs = double(w->maxNs) / 1e6;
        wr.error = w->error;
        s.workers.append(wr);
        s.bytes += wr.bytes;
        s.reads += wr.reads;
        latencyNs += w->latencyNs.load();
        s.latency.maxMs = std::max(s.latency.maxMs, wr.latency.maxMs);
        if (s.error.isEmpty())
            s.error = w->error;
        if (w->started) {
            first = std::min(first, w->firstStart);
            last = std::max(last, w->lastEnd);
        }
        histogram.merge(w->latency);
    }
    s.seconds = first < last ? secondsBetween(first, last) : 0.0;
    s.mbPerSec = mbPerSec(s.bytes, s.seconds);
    s.latency.count = s.reads;
    s.latency.meanMs = s.reads ? double(latencyNs) / double(s.reads) / 1e6 : 0.0;
    s.latencyUs = histogram.distribution();
    s.latency.p50Ms = s.latencyUs.percentileUs(50) / 1000.0;
    s.latency.p99Ms = s.latencyUs.percentileUs(99) / 1000.0;
    return s;
}

// What the kernel counted on `dev` during the run, against what the
// streams consumed from it.
DeviceCounterDelta deviceDeltaOf(const TestDevice &dev, const QList<StreamResult> &streams,
                                 const Result<DiskStatsTable> &before, const Result<DiskStatsTable> &after)
{
    DeviceCounterDelta delta;
    delta.device = dev.name;
    for (const StreamResult &s : streams)
        if (s.device == dev.name)
            delta.consumedBytes += s.bytes;
    if (before && after && before->contains(dev.name) && after->contains(dev.name)) {
        const DiskCounters &b = before->value(dev.name);
        const DiskCounters &a = after->value(dev.name);
        delta.available = true;
        delta.requests = counterDelta(b[DiskCounters::ReadsCompleted], a[DiskCounters::ReadsCompleted]);
        delta.merges = counterDelta(b[DiskCounters::ReadsMerged], a[DiskCounters::ReadsMerged]);
        delta.deviceBytes = counterDelta(b[DiskCounters::SectorsRead], a[DiskCounters::SectorsRead]) * 512;
        delta.avgRequestKiB = delta.requests ? double(delta.deviceBytes) / double(delta.requests) / 1024.0 : 0.0;
        delta.overshootBytes = qint64(delta.deviceBytes) - qint64(delta.consumedBytes);
    }
    return delta;
}

void summarizeRun(const QList<TestDevice> &devices, const QList<PlannedStream> &streams, const RunStreams &rs,
                  const Result<DiskStatsTable> &before, const Result<DiskStatsTable> &after, RunResult &run)
{
    Steady::time_point measuredFirst = Steady::time_point::max(), measuredLast{};
    Steady::time_point allFirst = Steady::time_point::max(), allLast{};
    QList<double> sequentialRates;
    quint64 allBytes = 0;
    for (int si = 0; si < streams.size(); ++si) {
        const PlannedStream &plan = streams.at(si);
        Steady::time_point first, last;
        const StreamResult s = streamResultOf(devices, plan, si, rs, first, last);
        if (!s.error.isEmpty())
            run.errors << QStringLiteral("%1: %2").arg(s.name, s.error);
        if (first < last) {
            allFirst = std::min(allFirst, first);
            allLast = std::max(allLast, last);
            if (plan.role == StreamRole::Measure) {
                measuredFirst = std::min(measuredFirst, first);
                measuredLast = std::max(measuredLast, last);
                run.measuredBytes += s.bytes;
            }
        }
        allBytes += s.bytes;
        if (plan.pattern == AccessPattern::Sequential)
            sequentialRates << s.mbPerSec;
        run.streams.append(s);
    }
    run.seconds = measuredFirst < measuredLast ? secondsBetween(measuredFirst, measuredLast) : 0.0;
    run.mbPerSec = mbPerSec(run.measuredBytes, run.seconds);
    run.aggregateMbPerSec = allFirst < allLast ? mbPerSec(allBytes, secondsBetween(allFirst, allLast)) : 0.0;
    run.fairnessJain = jainFairness(sequentialRates);

    for (const TestDevice &dev : devices)
        run.deviceStats.append(deviceDeltaOf(dev, run.streams, before, after));
}

} // namespace

// ---- ReadTest -------------------------------------------------------------

RecordedSettings ReadTest::currentSettings(const TestDevice &device) const
{
    RecordedSettings s;
    s.device = device.name;
    s.queueDevice = device.queueDevice;
    s.logicalBlockBytes = device.logicalBlockBytes;
    if (auto dir = m_root.deviceDirectory(device.queueDevice)) {
        const SysDir queue = SysDir::open(*dir);
        s.readAheadKiB = queue.readU64("queue/read_ahead_kb");
        if (auto sched = queue.readBracketChoice("queue/scheduler"))
            s.scheduler = sched->active;
        s.nrRequests = queue.readU64("queue/nr_requests");
        s.maxSectorsKiB = queue.readU64("queue/max_sectors_kb");
        if (auto lbs = queue.readU64("queue/logical_block_size"))
            s.logicalBlockBytes = *lbs;
    }
    s.kernel = kernelRelease(m_root);
    return s;
}

RunResult ReadTest::runOnce(int index, const ReadTestObserver &observer,
                            const std::atomic_bool *cancel) const
{
    RunResult run;
    run.label = runLabel(index);
    for (const TestDevice &dev : m_devices)
        run.settings.append(currentSettings(dev));
    if (!startCold(m_root, m_devices, m_spec.dropCaches, run))
        return run;
    RunStreams streams;
    if (!openStreams(m_root, m_devices, m_streams, m_spec, streams, run))
        return run;
    const auto before = readDiskStats(m_root);
    deliverRun(m_streams, m_spec, streams, index, observer, cancel, run);
    const auto after = readDiskStats(m_root);
    run.cancelled = cancel && cancel->load();
    summarizeRun(m_devices, m_streams, streams, before, after, run);
    return run;
}

Status ReadTest::checkLiveMachine() const
{
    if (m_root.isLive())
        return Status::success();
    return makeError(Refused, ReadTestText::tr("%1 is a recorded tree (--sysroot): its %2 describes a disk of the "
                                               "machine it was recorded on, and %3 is no recording of that disk's "
                                               "data (at best it opens this machine's %2), so nothing is read: read "
                                               "tests and sweeps measure the live machine only (diagnose --static "
                                               "checks a recorded tree)")
                                  .arg(m_root.root(), primaryDevice(),
                                       QString::fromLocal8Bit(m_devices.constFirst().devPath)));
}

ReadTestResult ReadTest::run(const ReadTestObserver &observer, const std::atomic_bool *cancel) const
{
    ReadTestResult result;
    result.kind = m_spec.kind;
    result.device = primaryDevice();
    result.spec = m_spec;
    if (Status live = checkLiveMachine(); !live) {
        result.errors << live.error().message;
        result.failed = true;
        return result;
    }
    for (int i = 0; i < m_spec.repeat; ++i) {
        if (cancel && cancel->load()) {
            result.cancelled = true;
            break;
        }
        RunResult run = runOnce(i, observer, cancel);
        result.errors += run.errors;
        const bool stop = run.cancelled || !run.errors.isEmpty();
        result.cancelled = result.cancelled || run.cancelled;
        if (observer.runFinished)
            observer.runFinished(run);
        result.runs.append(std::move(run));
        // The same error would come back on every repeat: stop after it.
        if (stop)
            break;
    }
    result.failed = !result.errors.isEmpty();
    QList<double> complete, all;
    for (const RunResult &r : std::as_const(result.runs)) {
        all << r.mbPerSec;
        if (!r.cancelled && r.errors.isEmpty())
            complete << r.mbPerSec;
    }
    // Partial runs count only when no run completed (a cancelled single run).
    result.mbPerSec = summarize(complete.isEmpty() ? all : complete);
    return result;
}

} // namespace blocktune
