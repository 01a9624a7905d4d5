// The sampler's arithmetic, with a fake clock and fake counters: iostat -x
// figures, counter wrap, devices that come and go, interrupts, balance of
// groups on a recorded md array, the JSON line and the bounded history.
#include "devices/devices.h"
#include "monitortestsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace blocktune;
using namespace blocktune::test;

namespace {

struct Rig
{
    FakeSource *source = nullptr;
    FakeClock *clock = nullptr;
    std::unique_ptr<Sampler> sampler;

    Rig()
    {
        auto s = std::make_unique<FakeSource>();
        auto c = std::make_unique<FakeClock>();
        source = s.get();
        clock = c.get();
        sampler = std::make_unique<Sampler>(std::move(s), std::move(c));
    }
};

Counters zero()
{
    return Counters{};
}

const DeviceRates *device(const Sample &s, const QString &name)
{
    for (const DeviceRates &d : s.devices)
        if (d.name == name)
            return &d;
    return nullptr;
}

QStringList names(const Sample &s)
{
    QStringList out;
    for (const DeviceRates &d : s.devices)
        out << d.name;
    return out;
}

} // namespace

class TestSampler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void iostatFigures_data()
    {
        QTest::addColumn<double>("intervalMs");
        QTest::newRow("1 s") << 1000.0;
        QTest::newRow("100 ms") << 100.0;
        QTest::newRow("250 ms") << 250.0;
    }
    void iostatFigures()
    {
        QFETCH(double, intervalMs);
        Rig rig;
        const Counters before{1000, 50, 80000, 900, 400, 40, 3200, 300, 0, 5000, 9000, 0, 0, 0, 0, 0, 0};
        rig.source->setDevices({{u"sda"_qs, before}});
        QVERIFY(rig.sampler->sample()->baseline);

        // Over the interval: 100 reads of 64 KiB (12800 sectors) taking
        // 250 ms in all, 10 merged; 50 writes of 8 KiB taking 100 ms;
        // 3 in flight at the end; busy 40 % of the time; weighted 1.5 x.
        Counters after = before;
        after[0] += 100;
        after[1] += 10;
        after[2] += 12800;
        after[3] += 250;
        after[4] += 50;
        after[5] += 5;
        after[6] += 800;
        after[7] += 100;
        after[8] = 3;
        after[9] += quint64(intervalMs * 0.4);
        after[10] += quint64(intervalMs * 1.5);
        rig.source->setDevices({{u"sda"_qs, after}});
        rig.clock->advanceMs(intervalMs);
        auto s = rig.sampler->sample();
        QVERIFY2(s.ok(), s.ok() ? "" : qPrintable(s.error().message));
        QVERIFY(!s->baseline);
        QCOMPARE(s->tick, quint64(1));
        QCOMPARE(s->intervalS, intervalMs / 1000.0);
        const DeviceRates *d = device(*s, u"sda"_qs);
        QVERIFY(d);
        const double sec = intervalMs / 1000.0;
        QCOMPARE(d->reads, quint64(100));
        QCOMPARE(d->readBytes, quint64(12800) * 512);
        QCOMPARE(d->readsPerSec, 100 / sec);
        QCOMPARE(d->readMBps, 12800.0 * 512 / 1e6 / sec);
        QCOMPARE(d->readMergesPerSec, 10 / sec);
        QCOMPARE(d->avgReadRequestKiB, 64.0);
        QCOMPARE(d->readAwaitMs, 2.5);
        QCOMPARE(d->writes, quint64(50));
        QCOMPARE(d->writeBytes, quint64(800) * 512);
        QCOMPARE(d->writesPerSec, 50 / sec);
        QCOMPARE(d->writeMBps, 800.0 * 512 / 1e6 / sec);
        QCOMPARE(d->writeMergesPerSec, 5 / sec);
        QCOMPARE(d->avgWriteRequestKiB, 8.0);
        QCOMPARE(d->writeAwaitMs, 2.0);
        QCOMPARE(d->queueDepth, 1.5);
        QCOMPARE(d->utilPct, 40.0);
        QCOMPARE(d->inFlight, quint64(3));
        QVERIFY(!d->inFlightSplit); // watching all: field 9, no sysfs reads
        QCOMPARE(rig.source->inFlightReads, 0);
        QVERIFY(!d->irqPerSec);
    }

    void idleDeviceHasZeroSizesNotNaN()
    {
        Rig rig;
        rig.source->setDevices({{u"sda"_qs, zero()}});
        QVERIFY(rig.sampler->sample().ok());
        rig.clock->advanceMs(100);
        auto s = rig.sampler->sample();
        const DeviceRates *d = device(*s, u"sda"_qs);
        QVERIFY(d);
        QCOMPARE(d->avgReadRequestKiB, 0.0);
        QCOMPARE(d->readAwaitMs, 0.0);
        QCOMPARE(d->avgWriteRequestKiB, 0.0);
        QCOMPARE(d->utilPct, 0.0);
    }

    void utilisationIsCappedAt100()
    {
        // io_ticks is bumped as requests start and end, so an interval can
        // count a little more busy time than it lasted.
        Rig rig;
        rig.source->setDevices({{u"sda"_qs, zero()}});
        QVERIFY(rig.sampler->sample().ok());
        Counters c = zero();
        c[9] = 104;
        rig.source->setDevices({{u"sda"_qs, c}});
        rig.clock->advanceMs(100);
        QCOMPARE(device(*rig.sampler->sample(), u"sda"_qs)->utilPct, 100.0);
    }

    void countersThatWrap()
    {
        // The ms fields are printed as unsigned int (%u) on every arch and
        // wrap at 2^32; 32-bit kernels wrap the others too.
        Rig rig;
        Counters before = zero();
        before[0] = 0xffffffffULL - 9;   // reads
        before[2] = 0xffffffffULL - 127; // sectors read
        before[3] = 0xffffffffULL - 4;   // ms reading
        before[9] = 0xfffffff0ULL;       // io_ticks
        before[10] = 0xfffffff0ULL;      // weighted
        rig.source->setDevices({{u"sda"_qs, before}});
        QVERIFY(rig.sampler->sample().ok());
        Counters after = zero();
        after[0] = 10;  // +20
        after[2] = 128; // +256 sectors
        after[3] = 5;   // +10 ms
        after[9] = 0x10;
        after[10] = 0x30;
        rig.source->setDevices({{u"sda"_qs, after}});
        rig.clock->advanceMs(1000);
        auto s = rig.sampler->sample();
        const DeviceRates *d = device(*s, u"sda"_qs);
        QVERIFY(d);
        QCOMPARE(d->reads, quint64(20));
        QCOMPARE(d->readBytes, quint64(256) * 512);
        QCOMPARE(d->readAwaitMs, 0.5);
        QCOMPARE(d->utilPct, 3.2);     // 32 ms of 1000
        QCOMPARE(d->queueDepth, 0.064); // 64 ms of 1000
    }

    void devicesComeAndGo()
    {
        Rig rig;
        Counters c = zero();
        rig.source->setDevices({{u"sda"_qs, c}, {u"sdb"_qs, c}});
        QVERIFY(rig.sampler->sample().ok());

        // sdb vanishes: reported, not a crash; no figures for it.
        c[2] = 8;
        rig.source->setDevices({{u"sda"_qs, c}});
        rig.clock->advanceMs(100);
        auto s = rig.sampler->sample();
        QVERIFY(s.ok());
        QCOMPARE(names(*s), QStringList{u"sda"_qs});
        QCOMPARE(s->vanished, QStringList{u"sdb"_qs});
        QCOMPARE(s->missing, QStringList{u"sdb"_qs});
        QVERIFY(s->appeared.isEmpty());
        QCOMPARE(device(*s, u"sda"_qs)->readBytes, quint64(8 * 512));

        // sdc appears: no interval for it yet, then figures.
        c[2] = 16;
        rig.source->setDevices({{u"sda"_qs, c}, {u"sdc"_qs, zero()}});
        rig.clock->advanceMs(100);
        s = rig.sampler->sample();
        QCOMPARE(s->appeared, QStringList{u"sdc"_qs});
        QVERIFY(s->vanished.isEmpty());
        QCOMPARE(names(*s), QStringList{u"sda"_qs});
        QCOMPARE(device(*s, u"sda"_qs)->readBytes, quint64(8 * 512));

        Counters sdc = zero();
        sdc[2] = 2;
        rig.source->setDevices({{u"sda"_qs, c}, {u"sdc"_qs, sdc}});
        rig.clock->advanceMs(100);
        s = rig.sampler->sample();
        QVERIFY(s->appeared.isEmpty());
        QCOMPARE(names(*s), (QStringList{u"sda"_qs, u"sdc"_qs}));
        QCOMPARE(device(*s, u"sdc"_qs)->readBytes, quint64(1024));
    }

    void deviceInTheMiddleVanishes()
    {
        // Lines are matched by position while the names agree; after a gap
        // they must still pair up by name.
        Rig rig;
        Counters c = zero();
        rig.source->setDevices({{u"sda"_qs, c}, {u"sdb"_qs, c}, {u"sdc"_qs, c}});
        QVERIFY(rig.sampler->sample().ok());
        Counters a = zero(), b = zero();
        a[2] = 2;
        b[2] = 4;
        rig.source->setDevices({{u"sda"_qs, a}, {u"sdc"_qs, b}});
        rig.clock->advanceMs(100);
        auto s = rig.sampler->sample();
        QCOMPARE(s->vanished, QStringList{u"sdb"_qs});
        QCOMPARE(names(*s), (QStringList{u"sda"_qs, u"sdc"_qs}));
        QCOMPARE(device(*s, u"sda"_qs)->readBytes, quint64(2 * 512));
        QCOMPARE(device(*s, u"sdc"_qs)->readBytes, quint64(4 * 512));
        // And the tick after, with the new layout held.
        a[2] = 3;
        b[2] = 10;
        rig.source->setDevices({{u"sda"_qs, a}, {u"sdc"_qs, b}});
        rig.clock->advanceMs(100);
        s = rig.sampler->sample();
        QVERIFY(s->vanished.isEmpty() && s->missing.isEmpty());
        QCOMPARE(device(*s, u"sda"_qs)->readBytes, quint64(512));
        QCOMPARE(device(*s, u"sdc"_qs)->readBytes, quint64(6 * 512));
    }

    void watchedDeviceThatVanishesIsReportedMissing()
    {
        Rig rig;
        rig.sampler->setWatched({u"sdb"_qs, u"sda"_qs});
        rig.source->inflight.insert(u"sda"_qs, InFlight{2, 1});
        rig.source->setDevices({{u"sda"_qs, zero()}, {u"sdb"_qs, zero()}});
        QVERIFY(rig.sampler->sample().ok());
        rig.source->setDevices({{u"sda"_qs, zero()}});
        rig.clock->advanceMs(100);
        auto s = rig.sampler->sample();
        QVERIFY(s.ok());
        QCOMPARE(names(*s), QStringList{u"sda"_qs});
        QCOMPARE(s->missing, QStringList{u"sdb"_qs});
        // Watched devices get /sys/block/X/inflight: the read/write split.
        const DeviceRates *sda = device(*s, u"sda"_qs);
        QVERIFY(sda->inFlightSplit);
        QCOMPARE(sda->inFlightSplit->reads, quint64(2));
        QCOMPARE(sda->inFlight, quint64(3));

        // Back again: reported after one interval, in the order asked for.
        rig.source->setDevices({{u"sda"_qs, zero()}, {u"sdb"_qs, zero()}});
        rig.clock->advanceMs(100);
        QVERIFY(rig.sampler->sample()->missing.isEmpty());
        rig.clock->advanceMs(100);
        QCOMPARE(names(*rig.sampler->sample()), (QStringList{u"sdb"_qs, u"sda"_qs}));
    }

    void linesMatchByNameWhenTheOrderChanges()
    {
        Rig rig;
        Counters a = zero(), b = zero();
        a[2] = 1000;
        b[2] = 5000;
        rig.source->setDevices({{u"sda"_qs, a}, {u"sdb"_qs, b}});
        QVERIFY(rig.sampler->sample().ok());
        a[2] += 10;
        b[2] += 20;
        rig.source->setDevices({{u"sdb"_qs, b}, {u"sda"_qs, a}});
        rig.clock->advanceMs(100);
        auto s = rig.sampler->sample();
        QCOMPARE(device(*s, u"sda"_qs)->readBytes, quint64(10 * 512));
        QCOMPARE(device(*s, u"sdb"_qs)->readBytes, quint64(20 * 512));
        QVERIFY(s->appeared.isEmpty() && s->vanished.isEmpty());
        // Kernel name order when watching everything, whatever the file order.
        QCOMPARE(names(*s), (QStringList{u"sda"_qs, u"sdb"_qs}));
    }

    void allDevicesInKernelNameOrder()
    {
        Rig rig;
        QList<std::pair<QString, Counters>> devices;
        for (const char *n : {"sdaa", "nvme0n1p10", "sdz", "nvme0n1p2", "loop0", "sda"})
            devices.append({QString::fromLatin1(n), zero()});
        rig.source->setDevices(devices);
        QVERIFY(rig.sampler->sample().ok());
        rig.clock->advanceMs(100);
        QCOMPARE(names(*rig.sampler->sample()),
                 (QStringList{u"loop0"_qs, u"nvme0n1p2"_qs, u"nvme0n1p10"_qs, u"sda"_qs, u"sdz"_qs, u"sdaa"_qs}));
    }

    void interrupts()
    {
        Rig rig;
        Topology topology;
        topology.irqs.insert(u"vda"_qs, {35, 36});
        topology.irqs.insert(u"vda1"_qs, {35, 36});
        topology.irqs.insert(u"sda"_qs, {40});
        topology.sharedIrqs.insert(u"sda"_qs);
        rig.sampler->setTopology(topology);
        rig.source->setDevices({{u"vda"_qs, zero()}, {u"vda1"_qs, zero()}, {u"sda"_qs, zero()}, {u"loop0"_qs, zero()}});
        rig.source->intrTotal = 1000;
        // IRQ 40's sum is near the top of a 32-bit per-CPU count: one CPU's
        // counter wraps during the interval and the sum drops by 2^32.
        rig.source->irqs = {{35, 1}, {36, 5000}, {40, 0xffffff00ULL}};
        QVERIFY(rig.sampler->sample().ok());
        rig.source->intrTotal = 3000;
        rig.source->irqs = {{35, 1}, {36, 5500}, {40, 0x100ULL}};
        rig.clock->advanceMs(500);
        auto s = rig.sampler->sample();
        QVERIFY(s.ok());
        QCOMPARE(s->interruptsPerSec, std::optional<double>(4000.0));
        QCOMPARE(device(*s, u"vda"_qs)->irqPerSec, std::optional<double>(1000.0));
        QCOMPARE(device(*s, u"vda1"_qs)->irqPerSec, std::optional<double>(1000.0));
        QVERIFY(!device(*s, u"vda"_qs)->irqShared);
        QCOMPARE(device(*s, u"sda"_qs)->irqPerSec, std::optional<double>(0x200 * 2.0));
        QVERIFY(device(*s, u"sda"_qs)->irqShared);
        QVERIFY(!device(*s, u"loop0"_qs)->irqPerSec); // no lines known: unknown, not 0
        QCOMPARE(rig.source->linesAsked, (QList<int>{35, 36, 40})); // each line once
    }

    void onlyTheTotalWhenNoWatchedDeviceHasLines()
    {
        Rig rig;
        Topology topology;
        topology.irqs.insert(u"vda"_qs, {36});
        rig.sampler->setTopology(topology);
        rig.sampler->setWatched({u"loop0"_qs});
        rig.source->setDevices({{u"vda"_qs, zero()}, {u"loop0"_qs, zero()}});
        QVERIFY(rig.sampler->sample().ok());
        rig.clock->advanceMs(100);
        QVERIFY(rig.sampler->sample().ok());
        QVERIFY(rig.source->linesAsked.isEmpty()); // the total only
        QCOMPARE(rig.source->diskstatsReads, 2); // one read a tick, for every device
    }

    void clockThatDoesNotAdvanceIsAnError()
    {
        Rig rig;
        rig.source->setDevices({{u"sda"_qs, zero()}});
        QVERIFY(rig.sampler->sample().ok());
        auto s = rig.sampler->sample();
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.contains(u"clock"_qs), qPrintable(s.error().message));
    }

    void unreadableDiskstatsIsAnError()
    {
        Rig rig;
        rig.source->failing = true;
        auto s = rig.sampler->sample();
        QVERIFY(!s.ok());
        QVERIFY(s.error().message.contains(u"/proc/diskstats"_qs));
    }

    void resetStartsOver()
    {
        Rig rig;
        rig.source->setDevices({{u"sda"_qs, zero()}});
        QVERIFY(rig.sampler->sample()->baseline);
        rig.clock->advanceMs(100);
        QVERIFY(!rig.sampler->sample()->baseline);
        rig.sampler->reset();
        rig.clock->advanceMs(100);
        QVERIFY(rig.sampler->sample()->baseline);
    }

    void balanceFigures_data()
    {
        QTest::addColumn<QList<double>>("load");
        QTest::addColumn<double>("cv");
        QTest::addColumn<double>("jain");
        QTest::newRow("even") << QList<double>{5, 5, 5, 5} << 0.0 << 1.0;
        QTest::newRow("one member") << QList<double>{7} << 0.0 << 1.0;
        QTest::newRow("one of four does it all") << QList<double>{1, 0, 0, 0} << std::sqrt(3.0) << 0.25;
        // mean 1.5, population sd 0.5; (12)^2 / (8 * 20)
        QTest::newRow("half at twice") << QList<double>{2, 2, 2, 2, 1, 1, 1, 1} << 1.0 / 3.0 << 0.9;
        // mean 2, sd sqrt(2/3); 36 / (3 * 14)
        QTest::newRow("1 2 3") << QList<double>{1, 2, 3} << std::sqrt(2.0 / 3.0) / 2.0 << 36.0 / 42.0;
    }
    void balanceFigures()
    {
        QFETCH(QList<double>, load);
        QFETCH(double, cv);
        QFETCH(double, jain);
        const BalanceFigures f = balanceOf(std::vector<double>(load.begin(), load.end()));
        QVERIFY(f.cv && f.jain);
        QVERIFY2(std::fabs(*f.cv - cv) < 1e-12, qPrintable(QString::number(*f.cv)));
        QVERIFY2(std::fabs(*f.jain - jain) < 1e-12, qPrintable(QString::number(*f.jain)));
    }
    void balanceOfNothingIsUnknown()
    {
        QVERIFY(!balanceOf({}).cv);
        QVERIFY(!balanceOf({}).jain);
        QVERIFY(!balanceOf({0, 0, 0}).cv);
        QVERIFY(!balanceOf({0, 0, 0}).jain);
    }

    // The md-raid10-f2 tree: md0 over sdb..sdi found from the tree itself;
    // members' counters advanced between ticks as the array would read.
    void mdMemberBalanceOnRecordedTree()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        const SysRoot root(dir.path());
        ScanOptions options;
        options.probeFilesystems = false;
        auto model = DeviceModel::scan(root, options);
        QVERIFY(model.ok());

        auto clock = std::make_unique<FakeClock>();
        FakeClock *fakeClock = clock.get();
        Sampler sampler(std::make_unique<ProcSource>(root), std::move(clock));
        sampler.setTopology(buildTopology(root, *model));
        sampler.setWatched({u"md0"_qs});
        QVERIFY(sampler.sample()->baseline);

        const QStringList members{u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs,
                                  u"sdf"_qs, u"sdg"_qs, u"sdh"_qs, u"sdi"_qs};
        // Tick 1: the first four members read twice what the others do.
        QMap<QString, quint64> sectors;
        for (qsizetype i = 0; i < members.size(); ++i)
            sectors.insert(members[i], i < 4 ? 2048 : 1024);
        sectors.insert(u"md0"_qs, 4 * 2048 + 4 * 1024);
        QVERIFY(advanceDiskstats(dir.path(), sectors));
        fakeClock->advanceMs(100);
        auto s = sampler.sample();
        QVERIFY2(s.ok(), s.ok() ? "" : qPrintable(s.error().message));
        QCOMPARE(s->groups.size(), 1);
        const GroupBalance &g = s->groups.constFirst();
        QCOMPARE(g.name, u"md0"_qs);
        QCOMPARE(g.kind, u"md"_qs);
        QStringList got;
        for (const MemberShare &m : g.members)
            got << m.name;
        QCOMPARE(got, members);
        for (qsizetype i = 0; i < members.size(); ++i) {
            const MemberShare &m = g.members[i];
            QVERIFY(m.present);
            QCOMPARE(m.readBytes, quint64(i < 4 ? 2048 : 1024) * 512);
            QCOMPARE(m.reads, quint64(i < 4 ? 16 : 8));
            QVERIFY(m.share && m.requestShare);
            QVERIFY(std::fabs(*m.share - (i < 4 ? 2.0 / 12.0 : 1.0 / 12.0)) < 1e-12);
            QVERIFY(std::fabs(*m.requestShare - *m.share) < 1e-12);
        }
        QVERIFY(std::fabs(*g.bytes.cv - 1.0 / 3.0) < 1e-12);
        QVERIFY(std::fabs(*g.bytes.jain - 0.9) < 1e-12);
        QVERIFY(std::fabs(*g.requests.jain - 0.9) < 1e-12);
        QCOMPARE(device(*s, u"md0"_qs)->readBytes, quint64(12 * 1024) * 512);

        // Tick 2: sdc is pulled (gone from diskstats); the other seven read
        // evenly. sdc is reported, the figures cover the seven present.
        sectors.clear();
        for (const QString &m : members)
            if (m != u"sdc")
                sectors.insert(m, 1024);
        QVERIFY(advanceDiskstats(dir.path(), sectors, {u"sdc"_qs}));
        fakeClock->advanceMs(100);
        s = sampler.sample();
        QVERIFY(s.ok());
        const GroupBalance &g2 = s->groups.constFirst();
        QCOMPARE(g2.members.size(), 8);
        QVERIFY(!g2.members[1].present);
        QCOMPARE(g2.members[1].name, u"sdc"_qs);
        QVERIFY(!g2.members[1].share);
        QVERIFY(s->missing.contains(u"sdc"_qs));
        QCOMPARE(s->vanished, QStringList{u"sdc"_qs});
        QVERIFY(std::fabs(*g2.members[0].share - 1.0 / 7.0) < 1e-12);
        QCOMPARE(*g2.bytes.cv, 0.0);
        QVERIFY(std::fabs(*g2.bytes.jain - 1.0) < 1e-12);
        // Since the start: sdb, sdd and sde have read 3072 sectors, sdf..sdi
        // 2048; sdc is out.
        const std::vector<double> sums{3072, 3072, 3072, 2048, 2048, 2048, 2048};
        QVERIFY(std::fabs(*g2.sinceStart.jain - *balanceOf(sums).jain) < 1e-12);

        // The JSON line carries the same: one object per member, sdc absent.
        QByteArray line;
        appendSampleJson(*s, line);
        QVERIFY(line.endsWith('\n'));
        QCOMPARE(line.count('\n'), 1);
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(line, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject md0 = json[u"groups"_qs].toObject()[u"md0"_qs].toObject();
        QCOMPARE(md0[u"members"_qs].toObject().size(), 8);
        QCOMPARE(md0[u"members"_qs].toObject()[u"sdc"_qs].toObject()[u"present"_qs].toBool(true), false);
        QVERIFY(md0[u"members"_qs].toObject()[u"sdc"_qs].toObject()[u"share"_qs].isNull());
        QCOMPARE(md0[u"members"_qs].toObject()[u"sdb"_qs].toObject()[u"read_bytes"_qs].toInteger(), 1024 * 512);
        QCOMPARE(md0[u"jain"_qs].toDouble(), 1.0);
        QCOMPARE(md0[u"cv"_qs].toDouble(), 0.0);
        QVERIFY(json[u"missing"_qs].toArray().contains(u"sdc"_qs));
    }

    void userGroupsAndDmSlaves()
    {
        Rig rig;
        Topology topology;
        topology.groups.append(GroupSpec{u"dm-0"_qs, u"dm"_qs, {u"sdb"_qs, u"sdc"_qs}});
        rig.sampler->setTopology(topology);
        rig.sampler->setWatched({u"sda1"_qs});
        rig.sampler->setUserGroups({GroupSpec{u"exports"_qs, u"user"_qs, {u"sda1"_qs, u"sda2"_qs}}});
        rig.source->setDevices({{u"sda1"_qs, zero()}, {u"sda2"_qs, zero()}, {u"sdb"_qs, zero()}, {u"sdc"_qs, zero()}});
        QVERIFY(rig.sampler->sample().ok());
        Counters one = zero(), three = zero();
        one[0] = 1;
        one[2] = 100;
        three[0] = 3;
        three[2] = 300;
        rig.source->setDevices({{u"sda1"_qs, one}, {u"sda2"_qs, three}, {u"sdb"_qs, one}, {u"sdc"_qs, one}});
        rig.clock->advanceMs(100);
        auto s = rig.sampler->sample();
        // The user's group is reported; dm-0 is not watched, so its group is not.
        QCOMPARE(s->groups.size(), 1);
        const GroupBalance &g = s->groups.constFirst();
        QCOMPARE(g.name, u"exports"_qs);
        QCOMPARE(*g.members[0].share, 0.25);
        QCOMPARE(*g.members[1].share, 0.75);
        QCOMPARE(*g.bytes.jain, 16.0 / 20.0);

        rig.sampler->setWatched({u"dm-0"_qs, u"sda1"_qs});
        rig.clock->advanceMs(100);
        s = rig.sampler->sample();
        QCOMPARE(s->groups.size(), 2);
        QCOMPARE(s->groups[1].name, u"dm-0"_qs);
        QVERIFY(!s->groups[1].bytes.jain); // no reads this interval: unknown
        QCOMPARE(s->missing, QStringList{u"dm-0"_qs}); // watched but not in diskstats
    }

    void jsonLineKeys()
    {
        Rig rig;
        Topology topology;
        topology.irqs.insert(u"vda"_qs, {36});
        rig.sampler->setTopology(topology);
        rig.source->intrTotal = 10;
        rig.source->irqs = {{36, 0}};
        rig.source->setDevices({{u"vda"_qs, zero()}, {u"loop0"_qs, zero()}});
        QVERIFY(rig.sampler->sample().ok());
        Counters c = zero();
        c[0] = 10;
        c[2] = 2000;
        c[4] = 2;  // writes completed
        c[6] = 8;  // sectors written
        c[7] = 30; // ms writing
        rig.source->setDevices({{u"vda"_qs, c}, {u"loop0"_qs, zero()}});
        rig.source->intrTotal = 60;
        rig.source->irqs = {{36, 25}};
        rig.clock->advanceMs(250);
        auto s = rig.sampler->sample();
        QByteArray line;
        appendSampleJson(*s, line);
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(line, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(json[u"t"_qs].toDouble(), 0.25);
        QCOMPARE(json[u"interval_s"_qs].toDouble(), 0.25);
        QCOMPARE(json[u"interrupts_per_s"_qs].toDouble(), 200.0);
        QVERIFY(json[u"time"_qs].toString().endsWith(u'Z'));
        const QJsonObject vda = json[u"devices"_qs].toObject()[u"vda"_qs].toObject();
        const QStringList keys{u"read_bytes"_qs, u"read_mb_per_s"_qs, u"reads_per_s"_qs,
                               u"avg_read_request_kb"_qs, u"read_await_ms"_qs, u"queue_depth"_qs,
                               u"util_pct"_qs, u"inflight"_qs, u"write_bytes"_qs,
                               u"write_mb_per_s"_qs, u"writes_per_s"_qs, u"write_await_ms"_qs, u"irq_per_s"_qs};
        QStringList sortedKeys = keys;
        sortedKeys.sort();
        QCOMPARE(vda.keys(), sortedKeys);
        QCOMPARE(vda[u"read_bytes"_qs].toInteger(), 2000 * 512);
        QCOMPARE(vda[u"read_mb_per_s"_qs].toDouble(), 4.096);
        QCOMPARE(vda[u"reads_per_s"_qs].toDouble(), 40.0);
        QCOMPARE(vda[u"avg_read_request_kb"_qs].toDouble(), 100.0);
        QCOMPARE(vda[u"write_bytes"_qs].toInteger(), 8 * 512);
        QCOMPARE(vda[u"writes_per_s"_qs].toDouble(), 8.0);
        QCOMPARE(vda[u"write_await_ms"_qs].toDouble(), 15.0);
        QCOMPARE(vda[u"read_await_ms"_qs].toDouble(), 0.0); // no ms reading counted
        QCOMPARE(vda[u"irq_per_s"_qs].toDouble(), 100.0);
        QVERIFY(json[u"devices"_qs].toObject()[u"loop0"_qs].toObject()[u"irq_per_s"_qs].isNull());
        QVERIFY(json[u"groups"_qs].toObject().isEmpty());
        QVERIFY(json[u"missing"_qs].toArray().isEmpty());
    }

    void jsonNumbers_data()
    {
        QTest::addColumn<double>("t");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("whole") << 2.0 << QByteArray("2");
        QTest::newRow("half") << 1.5 << QByteArray("1.5");
        QTest::newRow("ms") << 0.25 << QByteArray("0.25");
        QTest::newRow("rounded to ms") << 123.456789 << QByteArray("123.457");
        QTest::newRow("rounds up") << 0.0996 << QByteArray("0.1");
        QTest::newRow("below a ms") << 0.0004 << QByteArray("0");
        QTest::newRow("negative zero") << -0.0001 << QByteArray("0");
        QTest::newRow("zero") << 0.0 << QByteArray("0");
        QTest::newRow("large") << 86400.5 << QByteArray("86400.5");
        QTest::newRow("too large") << 1e13 << QByteArray("null");
        QTest::newRow("nan") << qQNaN() << QByteArray("null");
        QTest::newRow("infinite") << qInf() << QByteArray("null");
    }
    void jsonNumbers()
    {
        QFETCH(double, t);
        QFETCH(QByteArray, text);
        Sample s;
        s.t = t;
        QByteArray line;
        appendSampleJson(s, line);
        QVERIFY2(line.startsWith(QByteArray("{\"t\":" + text + ",")), line.constData());
        QVERIFY(!QJsonDocument::fromJson(line).isNull());
    }

    void jsonEscapesOddNames()
    {
        Sample s;
        s.groups.append(GroupBalance{u"a\"b\\c\td"_qs, u"user"_qs, {}, {}, {}, {}});
        QByteArray line;
        appendSampleJson(s, line);
        const QJsonObject json = QJsonDocument::fromJson(line).object();
        QVERIFY(json[u"groups"_qs].toObject().contains(u"a\"b\\c\td"_qs));
    }

    void ringBufferIsBounded()
    {
        RingBuffer<int> ring(3);
        QVERIFY(ring.isEmpty());
        for (int i = 1; i <= 5; ++i)
            ring.push(i);
        QCOMPARE(ring.size(), 3);
        QCOMPARE(ring.at(0), 3);
        QCOMPARE(ring.at(2), 5);
        QCOMPARE(ring.last(), 5);
        const qsizetype bytes = ring.memoryBytes();
        for (int i = 0; i < 100'000; ++i)
            ring.push(i);
        QCOMPARE(ring.memoryBytes(), bytes);
        QCOMPARE(ring.size(), 3);
        QCOMPARE(ring.at(0), 99'997);
        ring.setLast(-1);
        QCOMPARE(ring.last(), -1);
        RingBuffer<int> none;
        none.push(1); // no capacity: ignored, no crash
        QCOMPARE(none.size(), 0);
    }

    void historyIsBoundedWhateverRuns()
    {
        // Room for exactly three series of 100 points.
        PlotSeries history(PlotSeries::Limits{100, 3 * 100 * qsizetype(sizeof(float))});
        history.beginPoint(0.0);
        QVERIFY(history.set(u"a"_qs, 1));
        QVERIFY(history.set(u"b"_qs, 2));
        QVERIFY(history.set(u"c"_qs, 3));
        QVERIFY(!history.set(u"d"_qs, 4));
        QCOMPARE(history.refusedSeries(), 1);
        const qsizetype bytes = history.memoryBytes();
        QVERIFY(bytes <= 3 * 100 * qsizetype(sizeof(float)) + 100 * qsizetype(sizeof(double)));
        for (int i = 1; i < 10'000; ++i) {
            history.beginPoint(i * 0.1);
            history.set(u"a"_qs, i);
            if (i % 2 == 0)
                history.set(u"b"_qs, i);
            history.set(u"e"_qs, i); // refused every time, never allocated
        }
        QCOMPARE(history.memoryBytes(), bytes);
        QCOMPARE(history.size(), 100);
        QCOMPARE(history.seriesNames(), (QStringList{u"a"_qs, u"b"_qs, u"c"_qs}));
        QCOMPARE(history.refusedSeries(), 2);
        QCOMPARE(history.timeAt(99), 999.9);
        QCOMPARE(history.valueAt(u"a"_qs, 99), 9999.0);
        QVERIFY(std::isnan(history.valueAt(u"b"_qs, 99))); // not set at that point: a gap
        QCOMPARE(history.valueAt(u"b"_qs, 98), 9998.0);
        QVERIFY(std::isnan(history.valueAt(u"c"_qs, 50)));
        QVERIFY(std::isnan(history.valueAt(u"nosuch"_qs, 0)));
    }

    void historyAlignsLateSeries()
    {
        PlotSeries history(PlotSeries::Limits{10, 1 << 20});
        for (int i = 0; i < 4; ++i) {
            history.beginPoint(i);
            history.set(u"early"_qs, i);
        }
        history.set(u"late"_qs, 42);
        QCOMPARE(history.size(), 4);
        QVERIFY(std::isnan(history.valueAt(u"late"_qs, 0)));
        QCOMPARE(history.valueAt(u"late"_qs, 3), 42.0);
        QCOMPARE(history.valueAt(u"early"_qs, 3), 3.0);
    }

    void historyRecordsWhatThePlotsShow()
    {
        Rig rig;
        rig.sampler->setUserGroups({GroupSpec{u"pair"_qs, u"user"_qs, {u"sda"_qs, u"sdb"_qs}}});
        rig.source->intrTotal = 0;
        rig.source->setDevices({{u"sda"_qs, zero()}, {u"sdb"_qs, zero()}});
        PlotSeries history;
        auto baseline = rig.sampler->sample();
        history.record(*baseline);
        QCOMPARE(history.size(), 0); // a baseline has no figures
        Counters c = zero();
        c[0] = 1;
        c[2] = 1000;
        rig.source->setDevices({{u"sda"_qs, c}, {u"sdb"_qs, c}});
        rig.source->intrTotal = 100;
        rig.clock->advanceMs(100);
        history.record(*rig.sampler->sample());
        QCOMPARE(history.size(), 1);
        QCOMPARE(history.valueAt(u"sda/read_mb_per_s"_qs, 0), double(float(1000 * 512 / 1e6 / 0.1)));
        QCOMPARE(history.valueAt(u"sda/avg_read_request_kb"_qs, 0), 500.0);
        QCOMPARE(history.valueAt(u"interrupts_per_s"_qs, 0), 1000.0);
        QCOMPARE(history.valueAt(u"pair/jain"_qs, 0), 1.0);
        QCOMPARE(history.valueAt(u"pair/sdb/share"_qs, 0), 0.5);
        QCOMPARE(history.memoryBytes() > 0, true);
    }
};

QTEST_GUILESS_MAIN(TestSampler)
#include "tst_sampler.moc"
