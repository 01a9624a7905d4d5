#pragma once
// A buffered loop device of a test's own for the readahead probe's roads
// (the helper's op, the agent's op, --host): a dd of it reads ahead in
// windows of its read_ahead_kb, counted for it (root).
#include "testloop.h"

#include "common/counts.h"
#include "readahead/readahead.h"

#include <fcntl.h>
#include <unistd.h>

namespace blocktune::test {

/// Drops a device's (or file's) clean cached pages: the next read is cold,
/// and reads ahead again; a page read ahead and not used leaves the cache
/// unused (wasted).
inline bool dropCache(const QString &path)
{
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    ::close(fd);
    return ok;
}

/// dd of a whole device, buffered, bs=64K, as the founding thread's seeds read.
inline bool ddWhole(const QString &path)
{
    return run(QStringLiteral("dd"), {u"if="_qs + path, u"of=/dev/null"_qs, u"bs=64K"_qs, u"status=none"_qs})
               .exitCode
           == 0;
}

/// deviceNumber() of block device `name` (0 when unreadable): what the
/// readahead probe counts it by.
inline quint64 loopNumber(const QString &name)
{
    const SysRoot root;
    const auto dev = root.readString(root.sysPath(QByteArray("block/" + name.toLatin1() + "/dev")));
    return dev ? parseDeviceNumber(*dev).value_or(0) : 0;
}

} // namespace blocktune::test

/// Root, and a build with the BPF program: skips without (fails under
/// BLOCKTUNE_REQUIRE_ROOT=1, which asks for every root test).
#define REQUIRE_ROOT_AND_BPF()                                                                           \
    do {                                                                                                 \
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();                                                                \
        if (!::blocktune::ReadaheadProbe::builtIn()) {                                                   \
            if (::blocktune::test::rootRequired())                                                       \
                QFAIL("built without BPF support, and BLOCKTUNE_REQUIRE_ROOT=1 asks for every root test"); \
            QSKIP("built without BPF support (BLOCKTUNE_BPF off)");                                      \
        }                                                                                                \
    } while (false)

namespace blocktune::test {

/// 64 MiB of known contents, buffered (no direct I/O), at read_ahead_kb
/// kReadaheadLoopKiB; its readahead put back before it is detached (loop
/// devices keep it across attaches).
class ReadaheadLoop final
{
public:
    static constexpr qint64 kBytes = 64 << 20;
    static constexpr quint64 kReadAheadKiB = 1024;

    ReadaheadLoop()
    {
        if (!m_device.isValid())
            return;
        m_original = queueAttr(m_device.name(), "read_ahead_kb");
        m_ok = setQueueAttr(m_device.name(), "read_ahead_kb", QString::number(kReadAheadKiB));
    }
    ~ReadaheadLoop()
    {
        if (m_device.isAttached() && !m_original.isEmpty())
            setQueueAttr(m_device.name(), "read_ahead_kb", m_original);
    }
    Q_DISABLE_COPY_MOVE(ReadaheadLoop)

    bool isValid() const { return m_device.isValid() && m_ok; }
    QString name() const { return m_device.name(); }
    QString path() const { return m_device.path(); }
    /// Its deviceNumber() (0 when unreadable): what the probe counts it by.
    quint64 number() const { return loopNumber(name()); }

    /// Drops its clean cached pages, so a dd reads it (and reads ahead) again.
    bool dropCache() const { return test::dropCache(path()); }
    /// dd of the whole device, buffered, bs=64K, as the founding thread's
    /// seeds read: about 64 async windows of 1 MiB.
    bool dd() const { return ddWhole(path()); }

private:
    LoopDevice m_device{kBytes, false, knownContents()};
    QString m_original;
    bool m_ok = false;
};

} // namespace blocktune::test
