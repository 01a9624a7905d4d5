#include "monitor.h"

#include <QDateTime>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace blocktune {

namespace {

// Reads a whole procfs file into `buffer`, keeping its allocation from one
// tick to the next (procfs reports size 0, so read until EOF). Returns a
// shallow copy; the caller drops it before the next read.
Result<QByteArray> readReusing(const SysRoot &root, const QByteArray &path, QByteArray &buffer)
{
    constexpr qsizetype kMaxBytes = qsizetype(64) << 20;
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        return makeError(err, QStringLiteral("cannot open %1: %2")
                                  .arg(root.displayPath(path), QString::fromLocal8Bit(std::strerror(err))));
    }
    buffer.resize(std::max<qsizetype>(buffer.capacity(), 64 * 1024));
    qsizetype used = 0;
    for (;;) {
        if (used == buffer.size()) {
            if (buffer.size() >= kMaxBytes)
                break;
            buffer.resize(buffer.size() * 2);
        }
        const ssize_t n = ::read(fd, buffer.data() + used, size_t(buffer.size() - used));
        if (n < 0) {
            const int err = errno;
            if (err == EINTR)
                continue;
            ::close(fd);
            buffer.resize(0);
            return makeError(err, QStringLiteral("cannot read %1: %2")
                                      .arg(root.displayPath(path), QString::fromLocal8Bit(std::strerror(err))));
        }
        if (n == 0)
            break;
        used += n;
    }
    ::close(fd);
    buffer.resize(used);
    return buffer;
}

} // namespace

ProcSource::ProcSource(SysRoot root)
    : m_root(std::move(root)),
      m_diskstatsPath(m_root.procPath("diskstats")),
      m_statPath(m_root.procPath("stat")),
      m_interruptsPath(m_root.procPath("interrupts"))
{
}

Result<QByteArray> ProcSource::diskStats()
{
    return readReusing(m_root, m_diskstatsPath, m_diskstatsBuffer);
}

std::optional<InFlight> ProcSource::inFlight(const QString &device)
{
    // class/block/X works for partitions too (sda1's directory is below sda).
    auto data = m_root.readFile(m_root.sysPath(QByteArray("class/block/" + device.toLocal8Bit() + "/inflight")), 256);
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

std::optional<quint64> ProcSource::interruptTotal()
{
    auto data = readReusing(m_root, m_statPath, m_statBuffer);
    return data ? parseInterruptTotal(*data) : std::nullopt;
}

QHash<int, quint64> ProcSource::interruptCounts()
{
    auto data = readReusing(m_root, m_interruptsPath, m_interruptsBuffer);
    return data ? parseInterruptCounts(*data) : QHash<int, quint64>();
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

} // namespace blocktune
