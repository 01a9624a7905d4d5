// The monitor carrying readahead, without the kernel: a fake ReadaheadSource
// whose cumulative counters the test moves. Each tick carries the counters
// between its snapshot and the previous tick's, named and capped as the
// readahead report names them (the recorded live-loop tree: loop0 is 7:0 at
// read_ahead_kb 2560, vda 254:0 at 8192); a failed snapshot says so; nothing
// stays loaded once turned off; the worker opens the source off its thread
// and the ticks say so meanwhile; --json carries readahead --json's object;
// blocktune-cli monitor --readahead goes on without it when the probe is refused.
#include "monitortestsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <memory>

using namespace blocktune;
using namespace blocktune::test;

namespace {

const quint64 kLoop0 = deviceNumber(7, 0);
const quint64 kVda = deviceNumber(254, 0);

struct Rig
{
    FakeSource *counters = nullptr;
    FakeClock *clock = nullptr;
    FakeReadahead *readahead = nullptr;
    std::unique_ptr<MonitorLoop> loop;

    /// One tick a second later (the fake source's time too).
    Sample tick()
    {
        clock->advanceMs(1000);
        if (readahead)
            readahead->takenMs += 1000;
        auto s = loop->tick();
        return s ? *s : Sample{};
    }
};

Rig rig(const QStringList &watched, bool withReadahead = true)
{
    Rig r;
    auto counters = std::make_unique<FakeSource>();
    auto clock = std::make_unique<FakeClock>();
    r.counters = counters.get();
    r.clock = clock.get();
    r.counters->setDevices({{u"loop0"_qs, Counters{}}, {u"vda"_qs, Counters{}}});
    r.loop = std::make_unique<MonitorLoop>(SysRoot(recordedTree("live-loop")), std::move(counters), std::move(clock));
    r.loop->sampler().setWatched(watched);
    if (withReadahead) {
        auto fake = std::make_unique<FakeReadahead>();
        r.readahead = fake.get();
        r.loop->setReadaheadSource(std::move(fake));
    }
    return r;
}

const DeviceRates *device(const Sample &s, const QString &name)
{
    for (const DeviceRates &d : s.devices)
        if (d.name == name)
            return &d;
    return nullptr;
}

} // namespace

class TestReadaheadMonitor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachTickCarriesTheCountersOfItsInterval()
    {
        Rig r = rig({u"loop0"_qs, u"vda"_qs});
        r.readahead->streamed(kLoop0, 5, 640, 3200, 0); // before the monitor: never counted
        auto baseline = r.loop->tick();
        QVERIFY(baseline && baseline->baseline);
        QVERIFY(baseline->readaheadUnavailable.isEmpty());

        r.readahead->streamed(kLoop0, 20, 640, 12'000, 800); // 2560 KiB windows: at the cap
        Sample s = r.tick();
        QVERIFY(s.readaheadUnavailable.isEmpty());
        const DeviceRates *loop0 = device(s, u"loop0"_qs);
        QVERIFY(loop0 && loop0->readahead);
        const DeviceReadahead &ra = *loop0->readahead;
        QCOMPARE(ra.of(ReadaheadKind::Async).windows, quint64(20));
        QCOMPARE(ra.of(ReadaheadKind::Sync).windows, quint64(0));
        QCOMPARE(ra.all.sizeP50KiB, std::optional<quint64>(2560));
        QCOMPARE(ra.readAheadKiB, std::optional<quint64>(2560)); // the tree's read_ahead_kb
        QCOMPARE(ra.all.atCap, quint64(20));
        QCOMPARE(ra.all.pagesReadAhead, quint64(12'800));
        QCOMPARE(ra.all.pagesUsed, quint64(12'000));
        QCOMPARE(ra.all.pagesWasted, quint64(800));
        QCOMPARE(ra.all.waitP50Ms, std::optional<double>(2.048));
        // A named device that read nothing ahead gets zeros, with its cap.
        const DeviceRates *vda = device(s, u"vda"_qs);
        QVERIFY(vda && vda->readahead);
        QCOMPARE(vda->readahead->all.windows, quint64(0));
        QCOMPARE(vda->readahead->readAheadKiB, std::optional<quint64>(8192));

        // The next tick counts from this one's snapshot, not from the start.
        r.readahead->streamed(kLoop0, 3, 640, 1920, 0);
        s = r.tick();
        QCOMPARE(device(s, u"loop0"_qs)->readahead->of(ReadaheadKind::Async).windows, quint64(3));
        s = r.tick();
        QCOMPARE(device(s, u"loop0"_qs)->readahead->all.windows, quint64(0));
        QCOMPARE(r.readahead->snapshots, 4);
    }

    void watchingEveryDeviceOnlyThoseThatReadAhead()
    {
        Rig r = rig({});
        QVERIFY(r.loop->tick());
        r.readahead->streamed(kLoop0, 4, 32, 128, 0);
        const Sample s = r.tick();
        QVERIFY(device(s, u"loop0"_qs)->readahead);
        QCOMPARE(device(s, u"loop0"_qs)->readahead->all.windows, quint64(4));
        QVERIFY(!device(s, u"vda"_qs)->readahead);
    }

    void offByDefaultAndAFailedSnapshotSaysWhy()
    {
        Rig off = rig({u"loop0"_qs}, false);
        QVERIFY(off.loop->tick());
        Sample s = off.tick();
        QCOMPARE(s.readaheadUnavailable, u"readahead figures are off"_qs);
        QVERIFY(!device(s, u"loop0"_qs)->readahead);

        Rig r = rig({u"loop0"_qs});
        QVERIFY(r.loop->tick());
        r.readahead->failing = true;
        r.readahead->streamed(kVda, 1, 32, 0, 0);
        s = r.tick();
        QVERIFY2(s.readaheadUnavailable.contains(u"Input/output error"_qs), qPrintable(s.readaheadUnavailable));
        QVERIFY(!device(s, u"loop0"_qs)->readahead);
        // Readable again: that tick's snapshot is the new start, the next counts.
        r.readahead->failing = false;
        s = r.tick();
        QVERIFY(s.readaheadUnavailable.isEmpty());
        QVERIFY(!device(s, u"loop0"_qs)->readahead);
        r.readahead->streamed(kLoop0, 2, 64, 0, 0);
        s = r.tick();
        QCOMPARE(device(s, u"loop0"_qs)->readahead->all.windows, quint64(2));
    }

    void turnedOffTheSourceIsGone()
    {
        Rig r = rig({u"loop0"_qs}, false);
        auto alive = std::make_shared<std::atomic_bool>(false);
        r.loop->setReadaheadSource(std::make_unique<FakeReadahead>(alive));
        QVERIFY(*alive);
        QVERIFY(r.loop->tick());
        r.loop->setReadaheadUnavailable(u"readahead figures are off"_qs);
        QVERIFY(!*alive);
        QVERIFY(!r.loop->hasReadaheadSource());
        QCOMPARE(r.tick().readaheadUnavailable, u"readahead figures are off"_qs);
    }

    void jsonTickCarriesTheReadaheadCommandsObject()
    {
        Rig r = rig({u"loop0"_qs});
        QVERIFY(r.loop->tick());
        r.readahead->streamed(kLoop0, 20, 640, 12'000, 800);
        const Sample s = r.tick();
        QByteArray line;
        appendSampleJson(s, line);
        QJsonParseError error;
        const QJsonObject tick = QJsonDocument::fromJson(line, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject loop0 = tick[u"devices"_qs].toObject()[u"loop0"_qs].toObject();
        const QJsonObject ra = loop0[u"readahead"_qs].toObject();
        QCOMPARE(ra, readaheadDeviceToJson(*device(s, u"loop0"_qs)->readahead));
        QCOMPARE(ra[u"windows"_qs].toObject()[u"async"_qs].toInt(), 20);
        QCOMPARE(ra[u"read_ahead_kb"_qs].toInt(), 2560);
        QCOMPARE(ra[u"pages"_qs].toObject()[u"wasted"_qs].toInt(), 800);
        QCOMPARE(loop0[u"read_bytes"_qs].toInt(-1), 0); // the iostat figures are still there
        // Without readahead the device object has no such key.
        Rig off = rig({u"loop0"_qs}, false);
        QVERIFY(off.loop->tick());
        QByteArray plain;
        appendSampleJson(off.tick(), plain);
        QVERIFY(!plain.contains("readahead"));
    }

    // The loader blocks (as the real one does for a second or two while the
    // program loads): the worker's ticks go on meanwhile, saying so; then
    // they carry figures; turned off, the source is destroyed, and one that
    // arrives after it was turned off is dropped at once.
    void workerLoadsOffItsThreadAndSaysSo()
    {
        auto counters = std::make_unique<FakeSource>();
        counters->setDevices({{u"loop0"_qs, Counters{}}});
        auto clock = std::make_unique<FakeClock>();
        FakeClock *clk = clock.get();
        MonitorWorker worker(recordedTree("live-loop"), std::move(counters), std::move(clock));
        worker.setWatched({u"loop0"_qs});
        auto alive = std::make_shared<std::atomic_bool>(false);
        auto release = std::make_shared<QSemaphore>();
        auto loads = std::make_shared<std::atomic_int>(0);
        FakeReadahead *fake = nullptr;
        worker.setReadaheadLoader([alive, release, loads, &fake]() -> Result<std::unique_ptr<ReadaheadSource>> {
            ++*loads;
            release->acquire();
            auto source = std::make_unique<FakeReadahead>(alive);
            fake = source.get();
            return std::unique_ptr<ReadaheadSource>(std::move(source));
        });
        QSignalSpy sampled(&worker, &MonitorWorker::sampled);
        const auto tick = [&] {
            clk->advanceMs(100);
            worker.tick();
            return sampled.constLast()[0].value<Sample>();
        };
        worker.tick(); // baseline
        worker.setReadahead(true);
        QVERIFY(worker.isLoadingReadahead());
        Sample s = tick();
        QVERIFY2(s.readaheadUnavailable.startsWith(u"loading the readahead probe"_qs), qPrintable(s.readaheadUnavailable));
        worker.setReadahead(true); // asked again while loading: one load
        release->release();
        QTRY_VERIFY(!worker.isLoadingReadahead());
        QCOMPARE(loads->load(), 1);
        QVERIFY(*alive);
        // Opened on the loading thread, handed to the worker's, which reads
        // it (a helper's process tells its lines to the thread it lives on).
        QVERIFY(fake->handedFrom && fake->handedFrom != worker.thread());
        QCOMPARE(fake->handedTo, worker.thread());
        QVERIFY(tick().readaheadUnavailable.isEmpty()); // its first snapshot
        fake->streamed(kLoop0, 7, 64, 0, 0);
        s = tick();
        QCOMPARE(s.devices.value(0).readahead.value_or(DeviceReadahead{}).all.windows, quint64(7));

        worker.setReadahead(false);
        QVERIFY(!*alive); // nothing stays loaded while nobody watches
        QCOMPARE(tick().readaheadUnavailable, u"readahead figures are off"_qs);

        // Off while it loads: what arrives is dropped.
        worker.setReadahead(true);
        worker.setReadahead(false);
        release->release();
        QTRY_VERIFY(!worker.isLoadingReadahead());
        QCOMPARE(loads->load(), 2);
        QVERIFY(!*alive);
        QCOMPARE(tick().readaheadUnavailable, u"readahead figures are off"_qs);
    }

    // The CLI on the live machine with the probe refused (the test switch,
    // so no root is needed): said once on stderr, the ticks go on without
    // readahead, exit 0, as --latency does.
    void cliGoesOnWithoutReadaheadWhenTheProbeIsRefused()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"BLOCKTUNE_BPF_REFUSE"_qs, u"1"_qs);
        QProcess cli;
        cli.setProcessEnvironment(env);
        cli.start(binary("blocktune-cli"), {u"monitor"_qs, u"--readahead"_qs, u"--json"_qs, u"--count"_qs, u"2"_qs,
                                            u"--interval"_qs, u"100ms"_qs});
        QVERIFY(cli.waitForFinished(60000));
        const QByteArray out = cli.readAllStandardOutput(), err = cli.readAllStandardError();
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY2(err.contains("BLOCKTUNE_BPF_REFUSE=1") && err.contains("showing the figures without readahead"),
                 err.constData());
        QCOMPARE(out.count('\n'), 2);
        QVERIFY2(!out.contains("\"readahead\""), out.left(400).constData());
    }

    void workerSaysWhyTheSourceDidNotOpen()
    {
        MonitorWorker worker(recordedTree("live-loop"), std::make_unique<FakeSource>(), std::make_unique<FakeClock>());
        worker.setReadahead(true);
        QVERIFY(!worker.isLoadingReadahead()); // no loader given: nothing to wait for
        worker.setReadaheadLoader([]() -> Result<std::unique_ptr<ReadaheadSource>> {
            return makeError(NotSupported, u"a recorded tree (--sysroot) has no running kernel or workload to watch"_qs);
        });
        QSignalSpy sampled(&worker, &MonitorWorker::sampled);
        worker.setReadahead(true);
        QTRY_VERIFY(!worker.isLoadingReadahead());
        worker.tick();
        QCOMPARE(sampled.size(), 1);
        QCOMPARE(sampled[0][0].value<Sample>().readaheadUnavailable,
                 u"a recorded tree (--sysroot) has no running kernel or workload to watch"_qs);
    }
};

QTEST_GUILESS_MAIN(TestReadaheadMonitor)
#include "tst_readaheadmonitor.moc"
