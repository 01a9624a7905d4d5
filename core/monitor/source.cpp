#include "monitor.h"

#include "common/tr.h"

#include <QDateTime>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace blocktune {

namespace {

constexpr qsizetype kMaxFileBytes = qsizetype(64) << 20;

// Reads from offset 0 to EOF into `buffer`, keeping its allocation from one
// tick to the next (procfs reports size 0: read until EOF). pread at 0
// makes seq_file restart its iterator (fs/seq_file.c seq_read_iter), so a
// kept descriptor gives a fresh copy every time.
bool readFromStart(int fd, QByteArray &buffer, int &err)
{
    buffer.resize(std::max<qsizetype>(buffer.capacity(), 64 * 1024));
    qsizetype used = 0;
    for (;;) {
        if (used == buffer.size()) {
            if (buffer.size() >= kMaxFileBytes)
                break;
            buffer.resize(buffer.size() * 2);
        }
        const ssize_t n = ::pread(fd, buffer.data() + used, size_t(buffer.size() - used), used);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
            buffer.resize(0);
            return false;
        }
        if (n == 0)
            break;
        used += n;
    }
    buffer.resize(used);
    return true;
}

} // namespace

ProcSource::ProcSource(SysRoot root) : m_root(std::move(root)), m_keepOpen(m_root.isLive())
{
    m_diskstats.path = m_root.procPath("diskstats");
    m_stat.path = m_root.procPath("stat");
    m_interrupts.path = m_root.procPath("interrupts");
}

ProcSource::~ProcSource()
{
    for (File *f : {&m_diskstats, &m_stat, &m_interrupts})
        if (f->fd >= 0)
            ::close(f->fd);
    for (const File &f : std::as_const(m_inflight))
        if (f.fd >= 0)
            ::close(f.fd);
}

// Returns a shallow copy of the file's buffer; the caller drops it before
// the next read of the same file.
Result<QByteArray> ProcSource::read(File &file)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (file.fd < 0) {
            // O_NONBLOCK: a named pipe in a recorded tree must not hang the open.
            file.fd = ::open(file.path.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
            if (file.fd < 0) {
                const int err = errno;
                return makeError(err, MonitorText::tr("cannot open %1: %2")
                                          .arg(m_root.displayPath(file.path), errnoText(err)));
            }
        }
        int err = 0;
        const bool ok = readFromStart(file.fd, file.buffer, err);
        if (!m_keepOpen || !ok) {
            ::close(file.fd);
            file.fd = -1;
        }
        if (ok)
            return file.buffer;
        // A kept sysfs file whose device went away reads ENODEV: open the
        // path again once (a device of the same name may be there now).
        if (!m_keepOpen || attempt == 1)
            return makeError(err, MonitorText::tr("cannot read %1: %2")
                                      .arg(m_root.displayPath(file.path), errnoText(err)));
    }
    return makeError(EIO, MonitorText::tr("cannot read %1").arg(m_root.displayPath(file.path)));
}

Result<QByteArray> ProcSource::diskStats()
{
    return read(m_diskstats);
}

std::optional<InFlight> ProcSource::inFlight(const QString &device)
{
    auto it = m_inflight.find(device);
    if (it == m_inflight.end()) {
        File file;
        // class/block/X (or a partition under its disk in sys/block) works
        // for partitions too; unresolved, so a device re-created under the
        // same name is found again after ENODEV.
        const auto entry = m_root.deviceEntry(device);
        file.path = (entry ? *entry : m_root.sysPath(QByteArray("class/block/" + device.toLocal8Bit())))
                    + "/inflight";
        it = m_inflight.insert(device, file);
    }
    auto data = read(*it);
    if (!data)
        return std::nullopt;
    const QList<QByteArray> fields = data->simplified().split(' ');
    if (fields.size() != 2)
        return std::nullopt;
    const auto reads = sysfs::parseU64(fields[0]);
    const auto writes = sysfs::parseU64(fields[1]);
    if (!reads || !writes)
        return std::nullopt;
    return InFlight{*reads, *writes};
}

InterruptCounts ProcSource::interrupts(const QList<int> &lines)
{
    InterruptCounts counts;
    bool covered = false;
    if (auto text = read(m_stat)) {
        if (lines.isEmpty()) {
            counts.total = parseInterruptTotal(*text);
            return counts;
        }
        if (auto stat = parseStatInterrupts(*text)) {
            counts.total = stat->total;
            covered = true;
            for (int line : lines) {
                if (line >= 0 && size_t(line) < stat->perIrq.size())
                    counts.lines.insert(line, stat->perIrq[size_t(line)]);
                else
                    covered = false;
            }
        }
    }
    if (!covered && !lines.isEmpty()) {
        counts.lines.clear();
        if (auto text = read(m_interrupts)) {
            const QHash<int, quint64> all = parseInterruptCounts(*text);
            for (int line : lines)
                if (auto it = all.constFind(line); it != all.cend())
                    counts.lines.insert(line, *it);
        }
    }
    return counts;
}

qint64 SteadyClock::monotonicNs() const
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

qint64 SteadyClock::wallMs() const
{
    return QDateTime::currentMSecsSinceEpoch();
}

namespace {

/// What the replay's source and clock share: which reading was handed out
/// last (the sampler reads diskstats first, then the clock).
struct ReplayState
{
    CounterReplay replay;
    int reading = -1;
};

class ReplaySource final : public CounterSource
{
public:
    ReplaySource(const SysRoot &root, std::shared_ptr<ReplayState> state)
        : m_tree(std::make_unique<ProcSource>(root)), m_state(std::move(state))
    {
    }
    Result<QByteArray> diskStats() override
    {
        m_state->reading = std::min(m_state->reading + 1, 1);
        return m_state->reading == 0 ? m_state->replay.first : m_state->replay.second;
    }
    std::optional<InFlight> inFlight(const QString &device) override { return m_tree->inFlight(device); }
    InterruptCounts interrupts(const QList<int> &lines) override { return m_tree->interrupts(lines); }

private:
    std::unique_ptr<ProcSource> m_tree;
    std::shared_ptr<ReplayState> m_state;
};

class ReplayClock final : public Clock
{
public:
    explicit ReplayClock(std::shared_ptr<ReplayState> state) : m_state(std::move(state)) {}
    qint64 monotonicNs() const override
    {
        return m_state->reading <= 0 ? 0 : qint64(m_state->replay.seconds * 1e9);
    }
    qint64 wallMs() const override { return QDateTime::currentMSecsSinceEpoch(); }

private:
    std::shared_ptr<ReplayState> m_state;
};

std::optional<double> uptimeSeconds(const SysRoot &root, const char *file)
{
    auto text = root.readFile(root.procPath(file));
    if (!text)
        return std::nullopt;
    bool ok = false;
    const double seconds = QByteArray(*text).simplified().split(' ').value(0).toDouble(&ok);
    return ok ? std::optional<double>(seconds) : std::nullopt;
}

} // namespace

std::optional<CounterReplay> loadCounterReplay(const SysRoot &root)
{
    if (root.isLive())
        return std::nullopt;
    auto first = root.readFile(root.procPath("diskstats"));
    auto second = root.readFile(root.procPath("diskstats.2"));
    const auto from = uptimeSeconds(root, "uptime");
    const auto to = uptimeSeconds(root, "uptime.2");
    if (!first || !second || !from || !to || *to <= *from)
        return std::nullopt;
    return CounterReplay{*first, *second, *to - *from};
}

std::pair<std::unique_ptr<CounterSource>, std::unique_ptr<Clock>> makeCounterReplay(const SysRoot &root,
                                                                                    CounterReplay replay)
{
    auto state = std::make_shared<ReplayState>();
    state->replay = std::move(replay);
    return {std::make_unique<ReplaySource>(root, state), std::make_unique<ReplayClock>(state)};
}

} // namespace blocktune
