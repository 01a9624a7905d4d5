#pragma once
// Shared by the tests: root checks, loop devices that clean up after
// themselves, running our own binaries.

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

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

/// A loop device over a sparse temp file, detached (and the file removed)
/// in the destructor, so a failing test leaves nothing attached.
class LoopDevice final
{
public:
    LoopDevice(qint64 bytes, bool directIo, const QByteArray &fill = {})
    {
        if (!m_dir.isValid())
            return;
        m_file = m_dir.filePath(QStringLiteral("backing.img"));
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
    ~LoopDevice() { detach(); }
    Q_DISABLE_COPY_MOVE(LoopDevice)

    bool isValid() const { return !m_device.isEmpty(); }
    QString path() const { return m_device; }                 ///< /dev/loopN
    QString name() const { return m_device.mid(5); }          ///< loopN
    QString backingFile() const { return m_file; }
    void detach()
    {
        if (!m_device.isEmpty())
            run(QStringLiteral("losetup"), {QStringLiteral("-d"), m_device});
        m_device.clear();
    }

private:
    QTemporaryDir m_dir{QStringLiteral("/var/tmp/blocktune-test-XXXXXX")};
    QString m_file;
    QString m_device;
};

} // namespace blocktune::test
