#pragma once
// A loop device of a test with known contents and known queue settings,
// shared by the read-test and advisor tests (root).
#include "common/sysroot.h"
#include "stats/diskstats.h"
#include "testsupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QThread>

#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

#include <random>
#include <utility>

namespace blocktune::test {

inline QByteArray knownContents()
{
    // 1 MiB of deterministic noise, repeated: nothing a hole or a zero page
    // could stand in for.
    QByteArray block(1 << 20, Qt::Uninitialized);
    std::mt19937 rng(4242);
    for (char &c : block)
        c = char(rng() | 1);
    return block;
}

inline QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

inline QString queueAttr(const QString &dev, const char *attr)
{
    const SysRoot root;
    auto v = root.readString(root.sysPath(QByteArray("block/" + dev.toLatin1() + "/queue/" + attr)));
    return v ? *v : QString();
}

inline bool setQueueAttr(const QString &dev, const char *attr, const QString &value)
{
    const SysRoot root;
    return root.writeAttribute(root.sysPath(QByteArray("block/" + dev.toLatin1() + "/queue/" + attr)), value).ok();
}

inline quint64 readAhead(const QString &dev)
{
    return queueAttr(dev, "read_ahead_kb").toULongLong();
}


/// A loop device of this test with known queue settings: loop devices keep
/// their queue settings across detach and attach, so a previous user's
/// max_sectors_kb of 4 would make every request 4 KiB. Puts the settings it
/// found back before the device is detached (and only while loopN is still
/// this device: a test may have detached it, and the name gone to someone
/// else). `inMemory`: its file in /dev/shm, a device faster than any disk.
class TestLoop final
{
public:
    TestLoop(qint64 bytes, const QByteArray &fill, bool inMemory = false) : m_loop(bytes, true, fill, inMemory)
    {
        if (!m_loop.isValid())
            return;
        m_hash = fileHash(m_loop.backingFile());
        const QString dev = m_loop.name();
        for (const char *attr : {"read_ahead_kb", "max_sectors_kb", "scheduler"}) {
            QString value = queueAttr(dev, attr);
            if (QLatin1StringView(attr) == QLatin1StringView("scheduler")) {
                const auto choice = sysfs::parseBracketChoice(value.toLatin1());
                value = choice ? choice->active : QString();
            }
            m_saved.append({attr, value});
        }
        m_ok = setQueueAttr(dev, "max_sectors_kb", queueAttr(dev, "max_hw_sectors_kb"))
            && setQueueAttr(dev, "scheduler", QStringLiteral("none"))
            && setQueueAttr(dev, "read_ahead_kb", QStringLiteral("128"));
    }
    ~TestLoop() { putBack(); }
    /// Puts the settings back and detaches, waiting (10 s) until loopN no
    /// longer holds the file: false when it still does.
    bool detach()
    {
        putBack();
        return m_loop.detach();
    }
    Q_DISABLE_COPY_MOVE(TestLoop)

    bool isValid() const { return m_loop.isValid() && m_ok; }
    QString name() const { return m_loop.name(); }
    QString path() const { return m_loop.path(); }
    QString backingFile() const { return m_loop.backingFile(); }
    QByteArray initialHash() const { return m_hash; }
    bool isAttached() const { return m_loop.isAttached(); }
    /// See LoopDevice::waitUntilGone().
    bool waitUntilGone(int timeoutMs) const { return m_loop.waitUntilGone(timeoutMs); }

private:
    void putBack()
    {
        if (!m_loop.isAttached())
            return;
        for (const auto &[attr, value] : m_saved)
            if (!value.isEmpty())
                setQueueAttr(m_loop.name(), attr, value);
        m_saved.clear();
    }

    LoopDevice m_loop;
    QByteArray m_hash;
    QList<std::pair<const char *, QString>> m_saved;
    bool m_ok = false;
};

/// The device's diskstats line now (zeros when it has none).
inline DiskCounters diskCountersOf(const QString &name)
{
    auto table = readDiskStats(SysRoot());
    return table ? table->value(name) : DiskCounters{};
}

/// A freshly attached device may still be probed (blkid, udev): waits
/// (up to 5 s) until its read count holds still for 100 ms.
inline bool waitReadsIdle(const QString &name)
{
    quint64 last = diskCountersOf(name)[DiskCounters::ReadsCompleted];
    for (int i = 0; i < 50; ++i) {
        QThread::msleep(100);
        const quint64 now = diskCountersOf(name)[DiskCounters::ReadsCompleted];
        if (now == last)
            return true;
        last = now;
    }
    return false;
}

/// `count` O_DIRECT 4 KiB reads at random aligned offsets within the first
/// `bytes` of `path` (read only); false on any error.
inline bool directReads4k(const QString &path, qint64 bytes, int count)
{
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0)
        return false;
    void *buffer = nullptr;
    if (::posix_memalign(&buffer, 4096, 4096) != 0) {
        ::close(fd);
        return false;
    }
    std::mt19937 rng(20);
    std::uniform_int_distribution<qint64> block(0, bytes / 4096 - 1);
    bool ok = true;
    for (int i = 0; i < count && ok; ++i)
        ok = ::pread(fd, buffer, 4096, off_t(block(rng) * 4096)) == 4096;
    std::free(buffer);
    ::close(fd);
    return ok;
}

} // namespace blocktune::test
