#pragma once
// Shared by the tests: root checks, loop devices that clean up after
// themselves, running our own binaries.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

namespace blocktune::test {

inline bool rootRequired()
{
    return qEnvironmentVariableIntValue("BLOCKTUNE_REQUIRE_ROOT") == 1;
}

/// QSKIP when not root, unless CI demands root (then it is a failure).
#define BLOCKTUNE_REQUIRE_ROOT_OR_SKIP()                                                   \
    do {                                                                                   \
        if (::geteuid() != 0) {                                                            \
            if (::blocktune::test::rootRequired())                                         \
                QFAIL("this test needs root and BLOCKTUNE_REQUIRE_ROOT=1 forbids skipping");\
            QSKIP("needs root (loop devices, sysfs writes)");                              \
        }                                                                                  \
    } while (false)

struct ProcessResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline ProcessResult run(const QString &program, const QStringList &args, int timeoutMs = 120000,
                         const QByteArray &stdinData = {})
{
    QProcess p;
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForStarted(10000)) {
        r.err = "failed to start " + program.toLocal8Bit();
        return r;
    }
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

/// tests/data/sysroot/NAME: a recorded machine (made by scripts/mk-sysroot.py).
inline QString recordedTree(const QString &name)
{
    return QStringLiteral(BLOCKTUNE_TEST_DATA "/sysroot/") + name;
}
inline QString recordedTree(const char *name)
{
    return recordedTree(QString::fromLatin1(name));
}

/// Copies a recorded tree (or any tree at `from`) into `to`, so a test may
/// write into it; cp -a keeps the sysfs symlinks as they are.
inline bool copyTree(const QString &from, const QString &to)
{
    return run(QStringLiteral("cp"), {QStringLiteral("-a"), from + QStringLiteral("/."), to}).exitCode == 0;
}

/// Sends `sig` to `p`'s process; false when it is not running (it ended
/// already). Never kill(0, ...): a QProcess that ended has processId() 0,
/// and pid 0 is this test's own process group.
inline bool signalProcess(QProcess &p, int sig)
{
    const qint64 pid = p.processId();
    return p.state() != QProcess::NotRunning && pid > 0 && ::kill(pid_t(pid), sig) == 0;
}

inline QString binary(const char *name)
{
    return QStringLiteral(BLOCKTUNE_BIN_DIR "/") + QString::fromLatin1(name);
}

/// `blocktune-cli ARGS` (a `set ... --hold`) started and waited for until
/// it says it holds; false, with what it printed, when it does not.
inline bool startHold(QProcess &p, const QStringList &args)
{
    p.start(binary("blocktune-cli"), args);
    if (!p.waitForStarted(10000))
        return false;
    QByteArray out;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 30000) {
        p.waitForReadyRead(500);
        out += p.readAllStandardOutput();
        if (out.contains("holding until"))
            return true;
        if (p.state() == QProcess::NotRunning)
            break;
    }
    qWarning("%s%s", out.constData(), p.readAllStandardError().constData());
    return false;
}

/// Points the console's settings (XDG_CONFIG_HOME) and journals
/// (BLOCKTUNE_JOURNAL_DIR) into folders under `home`: ctest gives each test
/// a home of its own, and this keeps a test run by hand out of the user's.
inline void keepConsoleStateIn(const QTemporaryDir &home)
{
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toLocal8Bit());
    qputenv("BLOCKTUNE_JOURNAL_DIR", home.filePath(QStringLiteral("journals")).toLocal8Bit());
    QDir().mkpath(home.filePath(QStringLiteral("journals")));
}

/// Where the tests' loop devices keep their backing files: the folder ctest
/// names for this build (BLOCKTUNE_TEST_TMPDIR, made by suite_guard_before,
/// which judges by it whether a loop device left attached is the suite's),
/// else /var/tmp. `shm`: the same in memory (BLOCKTUNE_TEST_SHMDIR, else
/// /dev/shm), for a device far faster than a disk.
inline QString testTempRoot(bool shm = false)
{
    const QString dir = qEnvironmentVariable(shm ? "BLOCKTUNE_TEST_SHMDIR" : "BLOCKTUNE_TEST_TMPDIR");
    if (dir.isEmpty())
        return shm ? QStringLiteral("/dev/shm") : QStringLiteral("/var/tmp");
    QDir().mkpath(dir);
    return dir;
}

/// The backing file of loop device `name` as the kernel shows it, without
/// its " (deleted)"; empty when `name` is not attached.
inline QString loopBackingFile(const QString &name)
{
    QFile f(QStringLiteral("/sys/block/%1/loop/backing_file").arg(name));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString path = QString::fromLocal8Bit(f.readAll()).trimmed();
    if (path.endsWith(QStringLiteral(" (deleted)")))
        path.chop(10);
    return path;
}

/// The loop device whose backing file is `file` now (a name another
/// process can take as soon as it is free: the file is the identity), or
/// empty.
inline QString loopHolding(const QString &file)
{
    const QStringList loops = QDir(QStringLiteral("/sys/block")).entryList({QStringLiteral("loop*")}, QDir::Dirs | QDir::System);
    for (const QString &name : loops)
        if (loopBackingFile(name) == file)
            return name;
    return {};
}

/// A loop device over a sparse temp file, detached (and the file removed)
/// in the destructor, so a failing test leaves nothing attached. Its
/// identity is its backing file, not its name: once it is detached,
/// another process may attach loopN at once (other people attach loops on
/// this machine), so nothing here touches loopN unless it still holds our
/// file, and a detach is waited for until the kernel has let it go (the
/// kernel defers it while anyone, udev's probe say, holds the device open:
/// LOOP_CLR_FD then only sets autoclear).
class LoopDevice final
{
public:
    LoopDevice(qint64 bytes, bool directIo, const QByteArray &fill = {}, bool inMemory = false)
        : m_dir(testTempRoot(inMemory) + QStringLiteral("/blocktune-test-XXXXXX"))
    {
        if (!m_dir.isValid())
            return;
        // The kernel shows the file's path as d_path() resolves it.
        m_file = QFileInfo(m_dir.path()).canonicalFilePath() + QStringLiteral("/backing.img");
        QFile f(m_file);
        if (!f.open(QIODevice::WriteOnly))
            return;
        if (!fill.isEmpty()) {
            // Known, non-zero contents so reads cannot be served by holes.
            for (qint64 written = 0; written < bytes; written += fill.size())
                f.write(fill.left(qMin<qint64>(fill.size(), bytes - written)));
        } else {
            f.resize(bytes);
        }
        f.close();
        QStringList args{QStringLiteral("--find"), QStringLiteral("--show")};
        if (directIo)
            args << QStringLiteral("--direct-io=on");
        args << m_file;
        const ProcessResult r = run(QStringLiteral("losetup"), args);
        if (r.exitCode == 0)
            m_device = QString::fromLocal8Bit(r.out).trimmed();
    }
    ~LoopDevice()
    {
        if (!detach() && QTest::currentTestFunction())
            QTest::qFail(qPrintable(QStringLiteral("%1 (backing file %2) was still attached 10 s after its detach")
                                        .arg(m_device, m_file)),
                         __FILE__, __LINE__);
    }
    Q_DISABLE_COPY_MOVE(LoopDevice)

    bool isValid() const { return !m_device.isEmpty(); }
    QString path() const { return m_device; }                 ///< /dev/loopN
    QString name() const { return m_device.mid(5); }          ///< loopN
    QString backingFile() const { return m_file; }
    /// loopN still holds this device's file (false once detached, even
    /// when another process has attached loopN since).
    bool isAttached() const { return isValid() && loopBackingFile(name()) == m_file; }
    /// Detaches it, when loopN is still ours, and waits (10 s at most) until
    /// the kernel has: true when it is gone. A test that detached it itself
    /// (losetup -d, autoclear) calls this to wait for that.
    bool detach()
    {
        if (m_device.isEmpty())
            return true;
        if (isAttached())
            run(QStringLiteral("losetup"), {QStringLiteral("-d"), m_device});
        const bool gone = waitUntilGone(10000);
        if (gone)
            m_device.clear();
        return gone;
    }
    /// Waits until loopN no longer holds this device's file.
    bool waitUntilGone(int timeoutMs) const
    {
        QElapsedTimer t;
        t.start();
        while (isAttached()) {
            if (t.elapsed() > timeoutMs)
                return false;
            QThread::msleep(20);
        }
        return true;
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
    QString m_device;
};

} // namespace blocktune::test
