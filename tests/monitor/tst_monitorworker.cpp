// The live driver: a MonitorWorker emits one Sample per tick (driven here
// by tick() and a fake clock), refuses bad intervals, and a MonitorThread
// samples a recorded tree on its own thread and stops cleanly.
#include "monitortestsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace blocktune;
using namespace blocktune::test;

class TestMonitorWorker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void emitsOneSamplePerTick()
    {
        auto source = std::make_unique<FakeSource>();
        auto clock = std::make_unique<FakeClock>();
        FakeSource *src = source.get();
        FakeClock *clk = clock.get();
        MonitorWorker worker(recordedTree("live-loop"), std::move(source), std::move(clock));
        QSignalSpy sampled(&worker, &MonitorWorker::sampled);
        QSignalSpy failed(&worker, &MonitorWorker::failed);
        worker.setWatched({u"vda"_qs});
        Counters c{};
        src->setDevices({{u"vda"_qs, c}});
        worker.tick();
        QCOMPARE(sampled.size(), 1);
        QVERIFY(sampled[0][0].value<Sample>().baseline);
        c[2] = 2048;
        src->setDevices({{u"vda"_qs, c}});
        clk->advanceMs(100);
        worker.tick();
        QCOMPARE(sampled.size(), 2);
        const Sample s = sampled[1][0].value<Sample>();
        QCOMPARE(s.devices.size(), 1);
        QCOMPARE(s.devices[0].readBytes, quint64(2048 * 512));
        QVERIFY(failed.isEmpty());

        // A tick whose counters cannot be read says so instead of emitting.
        src->failing = true;
        clk->advanceMs(100);
        worker.tick();
        QCOMPARE(sampled.size(), 2);
        QCOMPARE(failed.size(), 1);
        QVERIFY(failed[0][0].toString().contains(u"diskstats"_qs));
        // While it lasts, it is not repeated every tick.
        clk->advanceMs(100);
        worker.tick();
        QCOMPARE(failed.size(), 1);
        // Readable again: samples resume (against the last good reading).
        src->failing = false;
        c[2] += 1024;
        src->setDevices({{u"vda"_qs, c}});
        clk->advanceMs(100);
        worker.tick();
        QCOMPARE(sampled.size(), 3);
        QCOMPARE(sampled[2][0].value<Sample>().devices[0].readBytes, quint64(1024 * 512));
    }

    void refusesBadIntervals_data()
    {
        QTest::addColumn<int>("ms");
        QTest::newRow("zero") << 0;
        QTest::newRow("negative") << -100;
        QTest::newRow("too fast") << 9;
        QTest::newRow("over an hour") << 3'600'001;
    }
    void refusesBadIntervals()
    {
        QFETCH(int, ms);
        MonitorWorker worker(recordedTree("live-loop"), std::make_unique<FakeSource>(), std::make_unique<FakeClock>());
        QSignalSpy sampled(&worker, &MonitorWorker::sampled);
        QSignalSpy failed(&worker, &MonitorWorker::failed);
        worker.start(ms);
        QCOMPARE(failed.size(), 1);
        QVERIFY(failed[0][0].toString().contains(u"interval"_qs));
        QVERIFY(sampled.isEmpty());
    }

    void samplesOnItsOwnThread()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        auto thread = std::make_unique<MonitorThread>(dir.path());
        MonitorWorker *worker = thread->worker();
        QVERIFY(worker->thread() != QThread::currentThread());
        QSignalSpy sampled(worker, &MonitorWorker::sampled);
        std::atomic<QThread *> samplingThread = nullptr;
        connect(worker, &MonitorWorker::sampled, worker,
                [&samplingThread](const Sample &) { samplingThread = QThread::currentThread(); },
                Qt::DirectConnection);
        QMetaObject::invokeMethod(worker, [worker] {
            worker->setWatched({u"md0"_qs});
            worker->start(20);
        }, Qt::QueuedConnection);
        // Real time: wait for a tick that saw the array read.
        QMap<QString, quint64> sectors{{u"md0"_qs, 4096}, {u"sdb"_qs, 2048}, {u"sdc"_qs, 2048}};
        bool sawReads = false;
        for (int i = 0; i < 200 && !sawReads; ++i) {
            QVERIFY(advanceDiskstats(dir.path(), sectors));
            if (!sampled.wait(2000))
                break;
            for (const QList<QVariant> &args : std::as_const(sampled)) {
                const Sample s = args[0].value<Sample>();
                if (!s.baseline && !s.devices.isEmpty() && s.devices[0].readBytes > 0) {
                    sawReads = true;
                    QCOMPARE(s.groups.size(), 1); // md0's members came with it
                    QCOMPARE(s.groups[0].members.size(), 8);
                }
            }
            sampled.clear();
        }
        QVERIFY(sawReads);
        QVERIFY(samplingThread.load() && samplingThread.load() != QThread::currentThread());
        thread.reset(); // stops the timer, quits and joins the thread
    }
};

QTEST_GUILESS_MAIN(TestMonitorWorker)
#include "tst_monitorworker.moc"
