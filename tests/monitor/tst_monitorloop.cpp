// The monitor's one loop (MonitorLoop, used by the console's worker and the
// CLI): ticks at absolute deadlines, skips what a slow tick overran, stops
// when told, fails on the first failing tick, rebuilds the topology when a
// device appears; and --group's parser, with the messages a user reads.
#include "monitortestsupport.h"

#include "common/termination.h"
#include "devices/devicemodel.h"
#include "tuning/tuning.h"

#include <QTest>

#include <csignal>

using namespace blocktune;
using namespace blocktune::test;

namespace {

/// Sleeps by moving the fake clock to the deadline; stops after `waits`.
class FakeWaiter final : public TickWaiter
{
public:
    FakeWaiter(FakeClock &clock, int waits) : m_clock(clock), m_waitsLeft(waits) {}
    bool stopped() const override { return m_waitsLeft < 0; }
    void waitUntil(qint64 deadlineNs) override
    {
        deadlines << deadlineNs;
        if (--m_waitsLeft < 0)
            return;
        const qint64 now = m_clock.monotonicNs();
        if (deadlineNs > now)
            m_clock.advanceMs(double(deadlineNs - now) / 1e6);
    }
    QList<qint64> deadlines;

private:
    FakeClock &m_clock;
    int m_waitsLeft;
};

struct Rig
{
    FakeSource *source = nullptr;
    FakeClock *clock = nullptr;
    std::unique_ptr<MonitorLoop> loop;
};

Rig rig()
{
    Rig r;
    auto source = std::make_unique<FakeSource>();
    auto clock = std::make_unique<FakeClock>();
    r.source = source.get();
    r.clock = clock.get();
    r.source->setDevices({{u"vda"_qs, Counters{}}});
    r.loop = std::make_unique<MonitorLoop>(SysRoot(recordedTree("live-loop")), std::move(source), std::move(clock));
    return r;
}

std::optional<DeviceModel> md10Model()
{
    ScanOptions options;
    options.probeFilesystems = false;
    return DeviceModel::scan(SysRoot(recordedTree("md-raid10-f2")), options).toOptional();
}

const QString kUsage = u" (use --group NAME=DEV,DEV[,...], e.g. --group exports=sdb1,sdc1)"_qs;

} // namespace

class TestMonitorLoop : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ticksAtAbsoluteDeadlinesAndSkipsWhatASlowTickOverran()
    {
        Rig r = rig();
        QVERIFY(r.loop->tick()->baseline);
        const qint64 start = r.clock->monotonicNs();
        FakeWaiter waiter(*r.clock, 100);
        QList<double> ts;
        int n = 0;
        auto run = r.loop->run(100'000'000, 4, waiter, [&](const Sample &s) {
            ts << s.t;
            // The second tick takes 250 ms: the deadlines at 300 and 400 ms
            // have passed when it ends; the next is 500 ms, not at once.
            r.clock->advanceMs(++n == 2 ? 250 : 30);
        });
        QVERIFY(run);
        QCOMPARE(run->ticks, 4);
        QCOMPARE(run->startNs, start);
        QCOMPARE(waiter.deadlines, (QList<qint64>{start + 100'000'000, start + 200'000'000, start + 500'000'000,
                                                  start + 600'000'000}));
        QCOMPARE(ts, (QList<double>{0.1, 0.2, 0.5, 0.6}));
        QCOMPARE(run->maxTickNs, 250'000'000);
        QCOMPARE(run->sumTickNs, 340'000'000);
    }

    void stopsBetweenTicksWhenTheWaiterSaysSo()
    {
        Rig r = rig();
        QVERIFY(r.loop->tick());
        FakeWaiter waiter(*r.clock, 2);
        int samples = 0;
        auto run = r.loop->run(100'000'000, 0, waiter, [&](const Sample &) { ++samples; });
        QVERIFY(run);
        QCOMPARE(run->ticks, 2);
        QCOMPARE(samples, 2);
    }

    void theFirstFailingTickEndsTheRunWithItsMessage()
    {
        Rig r = rig();
        QVERIFY(r.loop->tick());
        FakeWaiter waiter(*r.clock, 100);
        int samples = 0;
        auto run = r.loop->run(100'000'000, 0, waiter, [&](const Sample &) {
            if (++samples == 2)
                r.source->failing = true;
        });
        QVERIFY(!run);
        QCOMPARE(run.error().message, u"cannot open /proc/diskstats: No such file or directory"_qs);
        QCOMPARE(samples, 2);
    }

    void aDeviceThatAppearsRebuildsTheTopology()
    {
        Rig r = rig();
        QVERIFY(r.loop->tick());
        QVERIFY(r.loop->sampler().topology().irqs.isEmpty());
        r.source->setDevices({{u"vda"_qs, Counters{}}, {u"loop0"_qs, Counters{}}});
        r.clock->advanceMs(100);
        Status rescan = makeError(InvalidArgument, u"not set"_qs);
        auto sample = r.loop->tick(&rescan);
        QVERIFY(sample);
        QCOMPARE(sample->appeared, QStringList{u"loop0"_qs});
        QVERIFY(rescan);
        // The recorded tree's vda is virtio1: msi_irqs 35 and 36.
        QCOMPARE(r.loop->sampler().topology().irqs.value(u"vda"_qs), (QList<int>{35, 36}));
    }

    void aSignalOrTheAgentsFlagEndsTheWait()
    {
        SteadyClock clock;
        std::atomic_bool cancel{false};
        TerminationWaiter agent(clock, &cancel);
        const qint64 before = clock.monotonicNs();
        agent.waitUntil(before + 30'000'000);
        QVERIFY(clock.monotonicNs() >= before + 30'000'000);
        QVERIFY(!agent.stopped());
        cancel = true;
        QVERIFY(agent.stopped());
        const qint64 t0 = clock.monotonicNs();
        agent.waitUntil(t0 + 3'600'000'000'000);
        QVERIFY(clock.monotonicNs() - t0 < 1'000'000'000);

        TerminationWaiter local(clock, nullptr);
        QVERIFY(!local.stopped());
        ::raise(SIGHUP);
        QVERIFY(local.stopped());
        const qint64 t1 = clock.monotonicNs();
        local.waitUntil(t1 + 3'600'000'000'000);
        QVERIFY(clock.monotonicNs() - t1 < 1'000'000'000);
        TerminationSignals::clear();
    }

    void parsesGroups_data()
    {
        QTest::addColumn<QStringList>("texts");
        QTest::addColumn<QStringList>("groups"); // NAME=MEMBER,MEMBER as parsed
        QTest::addColumn<QString>("error");
        QTest::newRow("one group") << QStringList{u"exports=sdb,sdc"_qs} << QStringList{u"exports=sdb,sdc"_qs}
                                   << QString();
        QTest::newRow("paths become kernel names")
            << QStringList{u"system=sda1,/dev/sda2"_qs} << QStringList{u"system=sda1,sda2"_qs} << QString();
        QTest::newRow("empty members skipped") << QStringList{u"g=sdb,,sdc,"_qs} << QStringList{u"g=sdb,sdc"_qs}
                                               << QString();
        QTest::newRow("two groups") << QStringList{u"a=sdb,sdc"_qs, u"b=sdd,sde,sdf"_qs}
                                    << QStringList{u"a=sdb,sdc"_qs, u"b=sdd,sde,sdf"_qs} << QString();
        QTest::newRow("none") << QStringList{} << QStringList{} << QString();
        QTest::newRow("empty") << QStringList{QString()} << QStringList{}
                               << u"--group '': no group name before '='"_qs + kUsage;
        QTest::newRow("missing =") << QStringList{u"sdb,sdc"_qs} << QStringList{}
                                   << u"--group 'sdb,sdc': no group name before '='"_qs + kUsage;
        QTest::newRow("no name") << QStringList{u"=sdb,sdc"_qs} << QStringList{}
                                 << u"--group '=sdb,sdc': no group name before '='"_qs + kUsage;
        QTest::newRow("no members") << QStringList{u"g="_qs} << QStringList{}
                                    << u"--group 'g=': a group needs at least two devices"_qs + kUsage;
        QTest::newRow("one member") << QStringList{u"g=sdb"_qs} << QStringList{}
                                    << u"--group 'g=sdb': a group needs at least two devices"_qs + kUsage;
        QTest::newRow("unknown device") << QStringList{u"g=sdb,nosuch"_qs} << QStringList{}
                                        << u"--group 'g=sdb,nosuch': no block device named 'nosuch'"_qs;
        QTest::newRow("bad member path") << QStringList{u"g=sdb,/dev/../etc/passwd"_qs} << QStringList{}
                                         << u"--group 'g=sdb,/dev/../etc/passwd': no block device named "
                                            "'/dev/../etc/passwd'"_qs;
        QTest::newRow("member twice") << QStringList{u"g=sdb,/dev/sdb"_qs} << QStringList{}
                                      << u"--group 'g=sdb,/dev/sdb': 'sdb' is listed twice"_qs;
        QTest::newRow("named like a device")
            << QStringList{u"sda=sdb,sdc"_qs} << QStringList{}
            << u"--group 'sda=sdb,sdc': 'sda' is a device name; pick another group name"_qs;
        QTest::newRow("name with a space")
            << QStringList{u"my group=sdb,sdc"_qs} << QStringList{}
            << u"--group 'my group=sdb,sdc': 'my group' is not a usable group name (letters, digits, '-', '_', "
               "no spaces or commas)"_qs;
        const QString longName(65, u'g');
        QTest::newRow("over-long name")
            << QStringList{longName + u"=sdb,sdc"_qs} << QStringList{}
            << u"--group '%1=sdb,sdc': '%1' is not a usable group name (letters, digits, '-', '_', "
               "no spaces or commas)"_qs.arg(longName);
        QTest::newRow("duplicate name") << QStringList{u"g=sdb,sdc"_qs, u"g=sdd,sde"_qs} << QStringList{}
                                        << u"--group: the name 'g' is given twice"_qs;
    }
    void parsesGroups()
    {
        QFETCH(QStringList, texts);
        QFETCH(QStringList, groups);
        QFETCH(QString, error);
        const std::optional<DeviceModel> model = md10Model();
        QVERIFY(model);
        auto parsed = parseUserGroups(texts, *model);
        if (!error.isEmpty()) {
            QVERIFY(!parsed);
            QCOMPARE(parsed.error().message, error);
            return;
        }
        QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
        QStringList got;
        for (const GroupSpec &g : *parsed) {
            QCOMPARE(g.kind, u"user"_qs);
            got << g.name + u'=' + g.members.join(u',');
        }
        QCOMPARE(got, groups);
    }
};

QTEST_GUILESS_MAIN(TestMonitorLoop)
#include "tst_monitorloop.moc"
