#pragma once
// bpftrace (Debian's package) as the readahead probe's referee: it counts on
// the kernel's own tracepoints what the probe should count, during the same
// run. Shared by tst_readahead_live and tst_readahead_pages.
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QThread>

#include <csignal>

namespace blocktune::test {

inline const char *const kBpftrace = "/usr/bin/bpftrace";

/// bpftrace's tracepoint probes read their format from tracefs, which a
/// machine without systemd (as this kind of VM) has not mounted; blocktune's
/// probe does not need it (BTF). Mounted for the referee where it is not
/// (root), and unmounted again when the test ends; `error` says what failed.
struct Tracefs
{
    QString error;
    bool mountedHere = false;
    Tracefs()
    {
        if (QFileInfo::exists(QStringLiteral("/sys/kernel/tracing/events")))
            return;
        QProcess mount;
        mount.start(QStringLiteral("mount"),
                    {QStringLiteral("-t"), QStringLiteral("tracefs"), QStringLiteral("nodev"), QStringLiteral("/sys/kernel/tracing")});
        if (!mount.waitForFinished(10000) || mount.exitCode() != 0)
            error = QStringLiteral("precondition: bpftrace needs tracefs at /sys/kernel/tracing, and mounting it failed: ")
                    + QString::fromLocal8Bit(mount.readAllStandardError()).trimmed();
        else
            mountedHere = true;
    }
    ~Tracefs()
    {
        if (mountedHere)
            QProcess::execute(QStringLiteral("umount"), {QStringLiteral("/sys/kernel/tracing")});
    }
    Q_DISABLE_COPY_MOVE(Tracefs)
};

/// A bpftrace program running until stop() (or the end of the scope):
/// started and attached when start() returns true.
class Bpftrace final
{
public:
    Bpftrace() { m_process.setProcessChannelMode(QProcess::MergedChannels); }
    ~Bpftrace()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }
    Q_DISABLE_COPY_MOVE(Bpftrace)

    static bool available() { return QFileInfo(QString::fromLatin1(kBpftrace)).isExecutable(); }

    /// Runs `program`; true once bpftrace said it is attaching (and a
    /// margin after), else false with its words in said().
    bool start(const QString &program)
    {
        m_process.start(QString::fromLatin1(kBpftrace), {QStringLiteral("-e"), program});
        if (!m_process.waitForStarted())
            return false;
        // Waits for an end, not a speed: attaching takes seconds on a busy
        // machine (more while other probes load).
        QElapsedTimer waited;
        waited.start();
        while (!m_said.contains("Attaching") && m_process.state() == QProcess::Running && waited.elapsed() < 180000) {
            m_process.waitForReadyRead(100);
            m_said += m_process.readAll();
        }
        if (!m_said.contains("Attaching"))
            return false;
        QThread::msleep(500); // attached once it says so; a margin all the same
        return true;
    }

    /// SIGINT: bpftrace prints its maps and leaves. False when it did not,
    /// with why in said(). Waits for an end: a minute, then (a signal that
    /// came while bpftrace was still attaching may have found no handler
    /// yet) a second SIGINT and two more minutes. When it does not end,
    /// said() ends with where it waits (its state, wchan and kernel stack),
    /// so a failure names the step that hung.
    bool stop()
    {
        QThread::msleep(200);
        m_said += m_process.readAll();
        if (m_process.state() == QProcess::NotRunning) {
            // Never kill(0): that is this test's own process group.
            m_said += "\n[test: bpftrace had already ended before SIGINT: exit code "
                      + QByteArray::number(m_process.exitCode()) + "]";
            return false;
        }
        const pid_t pid = pid_t(m_process.processId());
        ::kill(pid, SIGINT);
        bool ended = m_process.waitForFinished(60000);
        if (!ended) {
            m_said += m_process.readAll();
            m_said += "\n[test: bpftrace had not ended 60 s after SIGINT: " + whereItWaits(pid) + "; SIGINT again]";
            ::kill(pid, SIGINT);
            ended = m_process.waitForFinished(120000);
            if (!ended)
                m_said += "\n[test: nor 120 s after the second: " + whereItWaits(pid) + "]";
        }
        m_said += m_process.readAll();
        return ended;
    }

    QByteArray said() const { return m_said; }

    /// The value bpftrace printed for map `@name` (a count or a sum); 0
    /// when it printed none (a map no event touched is not printed).
    quint64 value(const QString &name) const
    {
        const QRegularExpressionMatch m =
            QRegularExpression(u'@' + name + QStringLiteral(": (\\d+)")).match(QString::fromUtf8(m_said));
        return m.hasMatch() ? m.captured(1).toULongLong() : 0;
    }

private:
    static QByteArray whereItWaits(pid_t pid)
    {
        const QString dir = QStringLiteral("/proc/%1/").arg(pid);
        const auto read = [&dir](const char *name) {
            QFile f(dir + QLatin1String(name));
            return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray("?");
        };
        QByteArray state = read("stat");
        const qsizetype close = state.lastIndexOf(')');
        state = close >= 0 ? state.mid(close + 2, 1) : QByteArray("?");
        return "state " + state + ", wchan " + read("wchan") + ", kernel stack: " + read("stack").replace('\n', " | ");
    }

    QProcess m_process;
    QByteArray m_said;
};

} // namespace blocktune::test
