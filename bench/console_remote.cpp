// The console's monitor on a host through ssh: a private sshd on 127.0.0.1
// (tests/support/privatesshd.h), the agent serving a generated tree whose
// /proc/diskstats bench/monitor-diskstats-writer.py rewrites, and the
// console's MonitorView sampling every device of it at 10 Hz through the
// agent's `counters` op, as a window on that host does. Prints the ticks
// that arrived, how long after a tick began (before the host read its
// counters) its sample reached the GUI thread and its plot was drawn (the
// plots' lag behind the remote clock is at most that), and the agent's CPU.
// Usage: bench-console-remote TREE SECONDS   (root: sshd logs users in only as root)
#include "monitor/monitorview.h"
#include "privatesshd.h"

#include "monitor/monitor.h"
#include "remote/remote.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <unistd.h>

using namespace blocktune;

namespace {

/// Notes when each reading starts (the monitor thread asks diskstats first).
class TimedSource final : public CounterSource
{
public:
    TimedSource(std::unique_ptr<CounterSource> inner, const QElapsedTimer &clock, std::atomic<qint64> &started)
        : m_inner(std::move(inner)), m_clock(clock), m_started(started) {}
    Result<QByteArray> diskStats() override
    {
        m_started.store(m_clock.nsecsElapsed());
        return m_inner->diskStats();
    }
    std::optional<InFlight> inFlight(const QString &device) override { return m_inner->inFlight(device); }
    InterruptCounts interrupts(const QList<int> &lines) override { return m_inner->interrupts(lines); }

private:
    std::unique_ptr<CounterSource> m_inner;
    const QElapsedTimer &m_clock;
    std::atomic<qint64> &m_started;
};

double cpuSeconds(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = f.readAll().split(')').last().trimmed().split(' ');
    return (fields.value(11).toDouble() + fields.value(12).toDouble()) / double(::sysconf(_SC_CLK_TCK));
}

/// The agent serving `tree` (started by sshd, so no child of ours).
qint64 agentPid(const QString &tree)
{
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (pid.toLongLong() > 0 && cmdline.open(QIODevice::ReadOnly)) {
            const QByteArray c = cmdline.readAll();
            if (c.contains("blocktune-cli") && c.contains(tree.toLocal8Bit()) && c.endsWith(QByteArray("agent\0", 6)))
                return pid.toLongLong();
        }
    }
    return -1;
}

QString percentiles(QList<double> v)
{
    if (v.isEmpty())
        return QStringLiteral("none");
    std::sort(v.begin(), v.end());
    return QStringLiteral("median %1 ms, p99 %2 ms, max %3 ms")
        .arg(v.at(v.size() / 2), 0, 'f', 1)
        .arg(v.at(std::min<qsizetype>(v.size() - 1, qsizetype(double(v.size()) * 0.99))), 0, 'f', 1)
        .arg(v.last(), 0, 'f', 1);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() != 3) {
        std::fprintf(stderr, "usage: bench-console-remote TREE SECONDS\n");
        return 2;
    }
    const QString tree = QDir(args.at(1)).absolutePath();
    const int seconds = args.at(2).toInt();
    if (const QString why = test::PrivateSshd::unavailable(); !why.isEmpty()) {
        std::fprintf(stderr, "bench: %s\n", qPrintable(why));
        return 1;
    }
    test::PrivateSshd sshd;
    if (const QString failed = sshd.start(); !failed.isEmpty()) {
        std::fprintf(stderr, "bench: %s\n", qPrintable(failed));
        return 1;
    }
    RemoteTarget target;
    target.host = test::PrivateSshd::host();
    target.sshConfig = sshd.sshConfig();
    target.remoteCommand = test::PrivateSshd::agentCommand(QStringLiteral("--sysroot '%1' agent").arg(tree));
    QTemporaryDir mirror;
    auto connection = connectToHost(target, mirror.path());
    if (!connection) {
        std::fprintf(stderr, "bench: %s\n", qPrintable(connection.error().message));
        return 1;
    }
    auto model = DeviceModel::scan(SysRoot(mirror.path()), {});
    if (!model) {
        std::fprintf(stderr, "bench: %s\n", qPrintable(model.error().message));
        return 1;
    }
    QStringList devices;
    for (const BlockDevice &d : model->devices())
        devices << d.name;

    QElapsedTimer clock;
    clock.start();
    std::atomic<qint64> started{0};
    MonitorView view(mirror.path(),
                     std::make_unique<TimedSource>(connection->measurer->counterSource(), clock, started),
                     std::make_unique<SteadyClock>());
    view.resize(1200, 900);
    view.show();
    QList<double> toGui, toPlot;
    int ticks = 0;
    qint64 lastSampleStart = 0;
    bool pendingPlot = false;
    QObject::connect(view.worker(), &MonitorWorker::sampled, &app, [&](const Sample &s) {
        if (s.baseline)
            return;
        ++ticks;
        lastSampleStart = started.load();
        toGui << double(clock.nsecsElapsed() - lastSampleStart) / 1e6;
        pendingPlot = true;
    });
    QObject::connect(&view, &MonitorView::plotted, &app, [&](double) {
        if (!pendingPlot)
            return;
        pendingPlot = false;
        toPlot << double(clock.nsecsElapsed() - lastSampleStart) / 1e6;
    });
    const qint64 agent = agentPid(tree);
    double cpu0 = 0;
    QElapsedTimer wall;
    QTimer::singleShot(1000, &app, [&] { // after the first scan and baseline
        ticks = 0;
        toGui.clear();
        toPlot.clear();
        cpu0 = cpuSeconds(agent);
        wall.start();
    });
    view.setIntervalMs(100);
    view.setDevices(devices);
    QTimer::singleShot(1000 + seconds * 1000, &app, [&] { app.quit(); });
    app.exec();
    const double elapsed = double(wall.elapsed()) / 1000.0;
    const double cpu = cpuSeconds(agent) - cpu0;
    std::printf("devices: %lld through ssh to 127.0.0.1, 10 Hz for %.1f s\n", qlonglong(devices.size()), elapsed);
    std::printf("ticks: %d of %d arrived\n", ticks, int(elapsed * 10 + 0.5));
    std::printf("tick start to sample on the GUI thread: %s\n", qPrintable(percentiles(toGui)));
    std::printf("tick start to plot drawn: %s\n", qPrintable(percentiles(toPlot)));
    std::printf("agent CPU: %.2f %% of one core (pid %lld)\n", agent > 0 ? cpu / elapsed * 100 : -1.0, qlonglong(agent));
    view.setDevices({});
    return 0;
}
