// blocktune-helper's "latency" op on the live machine, run directly (as
// root, no pkexec) through the client seam the console uses when it is not
// root: the stream's request counts for the test's own direct-I/O loop
// device (read only) are diskstats' within tst_latencyprobe_live's 1%, the
// monitor's samples fill with them, and where the helper cannot start or
// the program cannot load, the reason says which.
#include "monitortestsupport.h"
#include "testloop.h"

#include "monitor/helperlatency.h"
#include "privilege/privilege.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <functional>
#include <thread>


using namespace blocktune;
using namespace blocktune::test;

namespace {

constexpr qint64 kDeviceBytes = 64 << 20;
constexpr int kReads = 4000;
constexpr int kIntervalMs = 100;

// The reads on a thread of their own while this one keeps reading the
// helper's pipe (`drain`), as the console's event loop does: a reader that
// stops reading stalls the helper on a full pipe, and its newest line
// would be old.
bool readsWhileDraining(const QString &path, const std::function<void()> &drain)
{
    std::atomic_bool done{false};
    bool ok = false;
    std::thread reader([&] {
        ok = directReads4k(path, kDeviceBytes, kReads);
        done = true;
    });
    while (!done)
        drain();
    reader.join();
    return ok;
}

void spinEvents()
{
    QTest::qWait(20);
}

quint64 numberOf(const DiskCounters &c)
{
    return deviceNumber(quint32(c.major), quint32(c.minor));
}

QJsonObject readLine(QProcess &p, int timeoutMs = 5000)
{
    QElapsedTimer t;
    t.start();
    while (!p.canReadLine() && t.elapsed() < timeoutMs)
        p.waitForReadyRead(50);
    return p.canReadLine() ? QJsonDocument::fromJson(p.readLine()).object() : QJsonObject();
}

void requireBpf()
{
    BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
    if (!BlockLatencyProbe::builtIn()) {
        if (qEnvironmentVariableIntValue("BLOCKTUNE_REQUIRE_ROOT") == 1)
            QFAIL("built without BPF support, and BLOCKTUNE_REQUIRE_ROOT=1 asks for every root test");
        QSKIP("built without BPF support (BLOCKTUNE_BPF off)");
    }
}

} // namespace

class TestHelperLatencyLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The console's path without root: startHelperLatencySource() runs the
    // helper (here directly, as root), which loads its program and streams;
    // its totals over 4000 direct reads are diskstats' count, and queue +
    // device time is diskstats' ms reading within 10%.
    void streamCountsMatchDiskstats_data()
    {
        QTest::addColumn<QString>("scheduler");
        QTest::newRow("none") << u"none"_qs;
        QTest::newRow("mq-deadline") << u"mq-deadline"_qs;
    }
    void streamCountsMatchDiskstats()
    {
        requireBpf();
        QFETCH(QString, scheduler);
        TestLoop loop(kDeviceBytes, knownContents());
        QVERIFY(loop.isValid());
        QVERIFY(setQueueAttr(loop.name(), "scheduler", scheduler));
        QVERIFY(waitReadsIdle(loop.name()));
        auto source = startHelperLatencySource(SysRoot(), {binary("blocktune-helper")}, kIntervalMs);
        QVERIFY2(source.ok(), source.ok() ? "" : qPrintable(source.error().message));

        // The stream's figures are the helper's last tick: read them idle,
        // two intervals after diskstats, so both describe the same reads.
        const DiskCounters before = diskCountersOf(loop.name());
        QThread::msleep(3 * kIntervalMs);
        auto totalsBefore = (*source)->totals();
        QVERIFY2(totalsBefore.ok(), totalsBefore.ok() ? "" : qPrintable(totalsBefore.error().message));
        QVERIFY(readsWhileDraining(loop.path(), [&] {
            (void)(*source)->totals();
            QThread::msleep(20);
        }));
        QThread::msleep(100); // diskstats accounts the last read after the reader wakes
        const DiskCounters after = diskCountersOf(loop.name());
        const LatencyTotals b = totalsBefore->value(numberOf(before)).read;
        const quint64 requests = counterDelta(before[DiskCounters::ReadsCompleted], after[DiskCounters::ReadsCompleted])
                                 + counterDelta(before[DiskCounters::WritesCompleted], after[DiskCounters::WritesCompleted]);
        // The helper's ticks come when it is scheduled, a loaded machine
        // later than the interval: its stream is read until it carries the
        // reads (within the 1% below, 10 s at most), then once more a few
        // ticks on, so a late one cannot be missed.
        Result<LatencyTotalsMap> totalsAfter = (*source)->totals();
        QElapsedTimer waited;
        waited.start();
        auto carried = [&] {
            return totalsAfter.ok() ? totalsAfter->value(numberOf(after)).read.requests - b.requests : 0;
        };
        while (totalsAfter.ok() && carried() + requests / 100 < requests && waited.elapsed() < 10000) {
            QThread::msleep(20);
            totalsAfter = (*source)->totals();
        }
        QThread::msleep(3 * kIntervalMs);
        totalsAfter = (*source)->totals();
        QVERIFY2(totalsAfter.ok(), totalsAfter.ok() ? "" : qPrintable(totalsAfter.error().message));
        const LatencyTotals a = totalsAfter->value(numberOf(after)).read;
        const quint64 streamed = a.requests - b.requests;
        const double diskstatsMs = double(counterDelta(before[DiskCounters::MsReading], after[DiskCounters::MsReading]));
        const double streamedMs = double((a.queueNs - b.queueNs) + (a.deviceNs - b.deviceNs)) / 1e6;
        qInfo("%s: helper stream %llu requests, diskstats %llu; queue + device %.3f ms, diskstats %.0f ms (%+.2f%%)",
              qPrintable(scheduler), streamed, requests, streamedMs, diskstatsMs,
              (streamedMs - diskstatsMs) / diskstatsMs * 100.0);
        QVERIFY2(requests >= quint64(kReads), qPrintable(QString::number(requests)));
        // tst_latencyprobe_live's bounds: never more than diskstats, at most 1% fewer.
        QVERIFY2(streamed <= requests, qPrintable(QString::number(streamed)));
        QVERIFY2(requests - streamed <= requests / 100, qPrintable(QString::number(streamed)));
        QCOMPARE(histogramDelta(b.queue, a.queue).total(), streamed);
        QCOMPARE(histogramDelta(b.device, a.device).total(), streamed);
        QVERIFY(diskstatsMs > 0);
        QVERIFY2(std::abs(streamedMs - diskstatsMs) <= 0.10 * diskstatsMs, qPrintable(QString::number(streamedMs)));
    }

    // The wire as docs/json.md has it: the answer is tick 0, ticks follow
    // about every interval, a request line ends the stream (its last line
    // says how many ticks) and is then answered.
    void rawStreamAndItsEnd()
    {
        requireBpf();
        TestLoop loop(kDeviceBytes, knownContents());
        QVERIFY(loop.isValid());
        QVERIFY(waitReadsIdle(loop.name()));
        QProcess p;
        p.start(binary("blocktune-helper"), {});
        QVERIFY(p.waitForStarted());
        p.write(QByteArray("{\"op\":\"latency\",\"id\":7,\"devices\":[\"" + loop.name().toLatin1()
                           + "\"],\"interval_ms\":" + QByteArray::number(kIntervalMs) + "}\n"));
        const QJsonObject first = readLine(p);
        QVERIFY2(first.value(u"ok").toBool(), QJsonDocument(first).toJson());
        QCOMPARE(first.value(u"op").toString(), u"latency"_qs);
        QCOMPARE(first.value(u"id").toInt(), 7);
        QCOMPARE(first.value(u"tick").toInt(), 0);
        QCOMPARE(first.value(u"interval_ms").toInt(), kIntervalMs);
        // Read on to the first tick that has all the reads (1% may be
        // missed, as in tst_latencyprobe_live).
        QJsonObject tick;
        auto requestsIn = [&](const QJsonObject &line) {
            return line.value(u"devices").toObject().value(loop.name()).toObject().value(u"read").toObject()
                .value(u"requests").toDouble();
        };
        const DiskCounters before = diskCountersOf(loop.name());
        int lines = 0;
        QVERIFY(readsWhileDraining(loop.path(), [&] {
            if (const QJsonObject next = readLine(p, 100); !next.isEmpty()) {
                tick = next;
                ++lines;
            }
        }));
        QElapsedTimer deadline;
        deadline.start();
        while (requestsIn(tick) < kReads * 0.99 && deadline.elapsed() < 10000)
            if (const QJsonObject next = readLine(p, 200); !next.isEmpty()) {
                tick = next;
                ++lines;
            }
        const DiskCounters after = diskCountersOf(loop.name());
        // What the failure needs to be told apart: the probe missed reads,
        // the device did not see them, or the stream's ticks lag.
        const QString counted = QStringLiteral("tick %1 (elapsed_ms %2, %3 lines read, %4 ms waited after the reads) counts %5 "
                                               "reads of %6 issued; diskstats counted %7 in that time")
                                    .arg(tick.value(u"tick").toInt())
                                    .arg(tick.value(u"elapsed_ms").toDouble())
                                    .arg(lines)
                                    .arg(deadline.elapsed())
                                    .arg(requestsIn(tick))
                                    .arg(kReads)
                                    .arg(counterDelta(before[DiskCounters::ReadsCompleted],
                                                      after[DiskCounters::ReadsCompleted]));
        QVERIFY2(tick.value(u"tick").toInt() >= 1, QJsonDocument(tick).toJson());
        const QJsonObject device = tick.value(u"devices").toObject().value(loop.name()).toObject();
        QCOMPARE(device.value(u"dev").toString(), QStringLiteral("%1:%2").arg(diskCountersOf(loop.name()).major)
                                                        .arg(diskCountersOf(loop.name()).minor));
        const QJsonObject read = device.value(u"read").toObject();
        QVERIFY2(read.value(u"requests").toDouble() >= kReads * 0.99, qPrintable(counted));
        QVERIFY(!read.value(u"queue").toArray().isEmpty() && !read.value(u"device").toArray().isEmpty());
        QVERIFY(read.value(u"device_ns").toDouble() > 0);
        const int ticks = tick.value(u"tick").toInt();
        // Ticks come on the interval, not faster.
        QVERIFY2(tick.value(u"elapsed_ms").toDouble() >= (ticks - 1) * kIntervalMs,
                 qPrintable(QString::number(tick.value(u"elapsed_ms").toDouble())));

        p.write("{\"op\":\"hello\",\"id\":8}\n");
        QJsonObject end;
        for (int i = 0; i < 5 && !end.value(u"end").toBool(); ++i)
            end = readLine(p);
        QVERIFY2(end.value(u"end").toBool(), QJsonDocument(end).toJson());
        QCOMPARE(end.value(u"id").toInt(), 7);
        QVERIFY(end.value(u"ticks").toInt() >= ticks + 1);
        const QJsonObject hello = readLine(p);
        QCOMPARE(hello.value(u"id").toInt(), 8);
        QCOMPARE(hello.value(u"program").toString(), u"blocktune-helper"_qs);
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAll().isEmpty()); // nothing streams after the end
    }

    // The monitor worker with the console's loader: its samples carry the
    // loop device's histograms (what the heatmap draws).
    void monitorSamplesFillThroughTheHelper()
    {
        requireBpf();
        TestLoop loop(kDeviceBytes, knownContents());
        QVERIFY(loop.isValid());
        QVERIFY(waitReadsIdle(loop.name()));
        MonitorWorker worker(QString{});
        worker.setWatched({loop.name()});
        worker.setLatencyLoader([] { return startHelperLatencySource(SysRoot(), {binary("blocktune-helper")}, kIntervalMs); });
        QSignalSpy sampled(&worker, &MonitorWorker::sampled);
        worker.setLatency(true);
        worker.tick();
        QThread::msleep(3 * kIntervalMs);
        worker.tick(); // the source's first reading: no histograms yet
        QVERIFY(readsWhileDraining(loop.path(), spinEvents)); // the worker's event loop reads the helper
        // Each sample carries what the helper's ticks brought since the
        // last: the samples from here on are summed, ticking until they
        // hold the reads (the helper is late on a loaded machine; 10 s at
        // most), then once more a few intervals on.
        quint64 device = 0, queue = 0;
        QElapsedTimer waited;
        waited.start();
        for (bool last = false; !last;) {
            last = device >= quint64(kReads) * 99 / 100 || waited.elapsed() > 10000;
            QTest::qWait(last ? 4 * kIntervalMs : kIntervalMs);
            worker.tick();
            const Sample s = sampled.last().first().value<Sample>();
            QVERIFY2(s.latencyUnavailable.isEmpty(), qPrintable(s.latencyUnavailable));
            QCOMPARE(s.devices.size(), 1);
            QVERIFY(s.devices[0].latency);
            device += s.devices[0].latency->readDevice.total();
            queue += s.devices[0].latency->readQueue.total();
        }
        qInfo("monitor through the helper: %llu reads in the heatmap's histograms of %lld samples (issued %d)", device,
              qint64(sampled.size()) - 2, kReads);
        QVERIFY2(device >= quint64(kReads) * 99 / 100 && device <= quint64(kReads) + 50, qPrintable(QString::number(device)));
        QCOMPARE(queue, device);
    }

    // No root needed: the reasons a user sees in the heatmap.
    void helperThatCannotStartSaysSo()
    {
        auto source = startHelperLatencySource(SysRoot(), {u"/nonexistent/blocktune-helper"_qs});
        QVERIFY(!source.ok());
        QVERIFY2(source.error().message.contains(u"blocktune-helper could not be started"_qs)
                     && source.error().message.contains(u"not found or not executable"_qs),
                 qPrintable(source.error().message));
    }
    void refusedProgramSaysSo()
    {
        qputenv("BLOCKTUNE_BPF_REFUSE", "1"); // the helper inherits it
        auto source = startHelperLatencySource(SysRoot(), {binary("blocktune-helper")});
        qunsetenv("BLOCKTUNE_BPF_REFUSE");
        QVERIFY(!source.ok());
        QVERIFY2(source.error().message.startsWith(u"latency histograms unavailable: blocktune-helper could not load "
                                                   "its BPF program: BLOCKTUNE_BPF_REFUSE=1 is set"_qs),
                 qPrintable(source.error().message));
        // The worker hands the reason to each sample (the heatmap shows it).
        qputenv("BLOCKTUNE_BPF_REFUSE", "1");
        MonitorWorker worker(QString{});
        worker.setLatencyLoader([] { return startHelperLatencySource(SysRoot(), {binary("blocktune-helper")}); });
        QSignalSpy sampled(&worker, &MonitorWorker::sampled);
        worker.setLatency(true);
        qunsetenv("BLOCKTUNE_BPF_REFUSE");
        worker.tick();
        QCOMPARE(sampled.size(), 1);
        QVERIFY(sampled.last().first().value<Sample>().latencyUnavailable.contains(u"could not load its BPF program"_qs));
    }
};

QTEST_GUILESS_MAIN(TestHelperLatencyLive)
#include "tst_helperlatency_live.moc"
