// The console's monitor with the latency heatmap on 100 devices at 10 Hz:
// what it costs, in % of one core. A MonitorView on a generated tree watches
// every device of it (the heatmap: one column per device, queue and device
// time) and samples every 100 ms from counters this program makes up: each
// device reads a little every tick, and a latency source stands in for the
// BPF probe (every device gets requests in a few buckets each tick). Two
// phases of SECONDS each, heatmap off then on; for each, the CPU time of the
// whole process (every thread) and of the GUI thread alone, user + system
// (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID), over the wall time, and the redraws a
// second. Then the heatmap's own refresh and replot timed on calls of our
// own (a third phase, so that they do not weigh on the second).
// BLOCKTUNE_BENCH_SCREENSHOT=FILE.png saves the view as it was at the end.
// Usage: bench-heatmap-cost SYSROOT [SECONDS] [SPAN_SECONDS]
#include "monitor/latencyheatmap.h"
#include "monitor/monitor.h"
#include "monitor/monitorview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>

#include <qcustomplot.h>

#include <cstdio>
#include <ctime>
#include <sys/resource.h>

using namespace blocktune;

namespace {

// The scheduler's own count of CPU time (CLOCK_*_CPUTIME_ID) rather than
// getrusage's, which here moved in ticks: 49 refreshes of a fraction of a
// millisecond each read as 0.00 ms in one run and 0.13 in the next.
double cpuSeconds(int who)
{
    timespec ts{};
    ::clock_gettime(who == RUSAGE_THREAD ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

struct Device
{
    QByteArray name;
    quint32 major = 0, minor = 0;
    quint64 reads = 0;
};

/// /proc/diskstats for the tree's devices, each reading 8 x 64 KiB a tick.
class MovingSource final : public CounterSource
{
public:
    explicit MovingSource(std::vector<Device> devices) : m_devices(std::move(devices)) {}
    Result<QByteArray> diskStats() override
    {
        QByteArray text;
        for (Device &d : m_devices) {
            d.reads += 8;
            text += QByteArray::number(d.major) + ' ' + QByteArray::number(d.minor) + ' ' + d.name + ' '
                    + QByteArray::number(d.reads) + " 0 " + QByteArray::number(d.reads * 128) + ' '
                    + QByteArray::number(d.reads * 2) + " 0 0 0 0 0 " + QByteArray::number(d.reads)
                    + ' ' + QByteArray::number(d.reads * 2) + "\n";
        }
        return text;
    }
    std::optional<InFlight> inFlight(const QString &) override { return InFlight{}; }
    InterruptCounts interrupts(const QList<int> &) override { return {}; }

private:
    std::vector<Device> m_devices;
};

/// The probe's stand-in: every device completes 8 reads a call, queue time
/// in buckets 1-3, device time in 5-9 (one device in eight slower).
class MovingLatency final : public LatencySource
{
public:
    explicit MovingLatency(const std::vector<Device> &devices) : m_devices(devices) {}
    Result<LatencyTotalsMap> totals() override
    {
        ++m_calls;
        for (size_t i = 0; i < m_devices.size(); ++i) {
            LatencyTotals &t = m_map[deviceNumber(m_devices[i].major, m_devices[i].minor)].read;
            for (int r = 0; r < 8; ++r) {
                t.requests += 1;
                t.queue.counts[size_t(1 + (m_calls + r) % 3)] += 1;
                t.device.counts[size_t(5 + (m_calls * 7 + r + int(i)) % 4 + (i % 8 == 0 ? 1 : 0))] += 1;
            }
        }
        return m_map;
    }

private:
    std::vector<Device> m_devices;
    LatencyTotalsMap m_map;
    int m_calls = 0;
};

std::vector<Device> devicesOf(const QString &sysroot)
{
    std::vector<Device> devices;
    QFile f(sysroot + QStringLiteral("/proc/diskstats"));
    if (!f.open(QIODevice::ReadOnly))
        return devices;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() >= 3)
            devices.push_back({fields[2], fields[0].toUInt(), fields[1].toUInt(), 0});
    }
    return devices;
}

struct Phase
{
    double wall = 0, process = 0, gui = 0;
    int redraws = 0;
};

void printReport(size_t devices, qsizetype columns, int span, int seconds, const Phase &off, const Phase &on,
                 double refreshCpu, int refreshes, double replotCpu, int replots)
{
    auto pct = [](double cpu, double wall) { return cpu / wall * 100.0; };
    std::printf("devices: %zu (heatmap columns: %lld), interval 100 ms, span %d s, %d s per phase\n",
                devices, static_cast<long long>(columns),
                span > 0 ? span : 120, seconds);
    std::printf("heatmap off: process %.2f %%, GUI thread %.2f %% of one core, %.1f redraws/s\n",
                pct(off.process, off.wall), pct(off.gui, off.wall), off.redraws / off.wall);
    std::printf("heatmap on:  process %.2f %%, GUI thread %.2f %% of one core, %.1f redraws/s\n",
                pct(on.process, on.wall), pct(on.gui, on.wall), on.redraws / on.wall);
    const double refreshMs = refreshes ? refreshCpu / refreshes * 1e3 : 0;
    const double replotMs = replots ? replotCpu / replots * 1e3 : 0;
    std::printf("heatmap refresh (maps refilled, palette, markers): %.2f ms of CPU each (%d timed)\n",
                refreshMs, refreshes);
    std::printf("heatmap replot (its QCustomPlot drawing): %.2f ms of CPU each (%d)\n", replotMs, replots);
    std::printf("HEATMAP COST, %zu devices at 10 Hz: %.2f %% of one core (refresh + replot once a second, as the "
                "view does; %.2f %% if it were 10 times a second)\n",
                devices, (refreshMs + replotMs) / 1000 * 100, (refreshMs + replotMs) * 10 / 1000 * 100);
    std::printf("MONITOR WITH HEATMAP, %zu devices at 10 Hz: GUI thread %.1f %%, process %.1f %% of one core, "
                "%.1f redraws/s\n",
                devices, pct(on.gui, on.wall), pct(on.process, on.wall), on.redraws / on.wall);
    std::printf("whole view, on minus off: %+.2f %% of one core (the line plots of %zu devices redrawn "
                "too; a saturated GUI thread redraws less often)\n",
                pct(on.process, on.wall) - pct(off.process, off.wall), devices);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench-heatmap-cost SYSROOT [SECONDS] [SPAN_SECONDS]\n");
        return 2;
    }
    const int seconds = args.size() > 2 ? args.at(2).toInt() : 20;
    const int span = args.size() > 3 ? args.at(3).toInt() : 0;
    const std::vector<Device> devices = devicesOf(args.at(1));
    if (devices.empty()) {
        std::fprintf(stderr, "bench-heatmap-cost: no devices in %s/proc/diskstats\n", qPrintable(args.at(1)));
        return 2;
    }
    MonitorView view(args.at(1), std::make_unique<MovingSource>(devices), std::make_unique<SteadyClock>());
    MonitorWorker *worker = view.worker();
    QMetaObject::invokeMethod(worker, [worker, devices] {
        worker->setLatencyLoader([devices]() -> Result<std::unique_ptr<LatencySource>> {
            return std::unique_ptr<LatencySource>(new MovingLatency(devices));
        });
    }, Qt::BlockingQueuedConnection);
    view.resize(1600, 1000);
    view.show();
    if (span > 0)
        view.setWindowSeconds(span);
    view.setIntervalMs(100);
    QStringList names;
    for (const Device &d : devices)
        names << QString::fromLatin1(d.name);
    view.setDevices(names);

    int redraws = 0;
    QObject::connect(&view, &MonitorView::plotted, &app, [&redraws] { ++redraws; });
    // The heatmap's own share of the GUI thread: its plot's replots (between
    // beforeReplot and afterReplot), and its refresh (the maps refilled, the
    // palette, the markers) timed on calls of our own, one per 100 ms.
    LatencyHeatmap *heatmap = view.latencyHeatmap();
    double replotStart = 0, replotCpu = 0, refreshCpu = 0;
    int replots = 0, refreshes = 0;
    bool timing = false;
    QObject::connect(heatmap->plot(), &QCustomPlot::beforeReplot, &app,
                     [&] { replotStart = cpuSeconds(RUSAGE_THREAD); });
    QObject::connect(heatmap->plot(), &QCustomPlot::afterReplot, &app, [&] {
        if (!timing)
            return;
        replotCpu += cpuSeconds(RUSAGE_THREAD) - replotStart;
        ++replots;
    });
    QTimer refresher;
    refresher.setInterval(100);
    QObject::connect(&refresher, &QTimer::timeout, &app, [&] {
        heatmap->setWindowSeconds(span > 0 ? span : 120); // marks it dirty: refresh() does all its work
        const double t0 = cpuSeconds(RUSAGE_THREAD);
        heatmap->refresh();
        refreshCpu += cpuSeconds(RUSAGE_THREAD) - t0;
        ++refreshes;
    });
    Phase off, on;
    QElapsedTimer clock;
    double p0 = 0, g0 = 0;
    int r0 = 0;
    auto begin = [&] {
        clock.start();
        p0 = cpuSeconds(RUSAGE_SELF);
        g0 = cpuSeconds(RUSAGE_THREAD);
        r0 = redraws;
    };
    auto end = [&](Phase &p) {
        p.wall = double(clock.nsecsElapsed()) / 1e9;
        p.process = cpuSeconds(RUSAGE_SELF) - p0;
        p.gui = cpuSeconds(RUSAGE_THREAD) - g0;
        p.redraws = redraws - r0;
    };
    // 2 s to settle, the heatmap off; then on, 2 s to fill its layout;
    // then the heatmap timed alone (the view paused), at most 5 s.
    const int timedSeconds = std::min(seconds, 5);
    QTimer::singleShot(2000, &app, begin);
    QTimer::singleShot(2000 + seconds * 1000, &app, [&] {
        end(off);
        view.setLatencyShown(true);
        QTimer::singleShot(2000, &app, begin);
        QTimer::singleShot(2000 + seconds * 1000, &app, [&] {
            end(on);
            if (qEnvironmentVariableIsSet("BLOCKTUNE_BENCH_SCREENSHOT"))
                view.grab().save(qEnvironmentVariable("BLOCKTUNE_BENCH_SCREENSHOT"));
            view.setPaused(true);
            timing = true;
            refresher.start();
            QTimer::singleShot(timedSeconds * 1000, &app, [&] {
                refresher.stop();
                printReport(devices.size(), heatmap->devices().size(), span, seconds, off, on, refreshCpu,
                            refreshes, replotCpu, replots);
                app.quit();
            });
        });
    });
    return app.exec();
}
