// The advisor and diagnosis on a recorded md tree (md-raid10-f2: raid10
// far-2 over eight disks, 512K chunk, readahead floor 8192 KiB on the real
// machine) with a fake read engine whose rates are built to show each case.
#include "advisor/advisor.h"
#include "session/session.h"
#include "fakeengine.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

constexpr quint64 kMd0FloorKiB = 8192; // md0's floor on the recorded machine (2 x 4 MiB stripe)

const Finding *findingOf(const Diagnosis &d, const char *code)
{
    for (const Finding &f : d.findings)
        if (f.code == QLatin1StringView(code))
            return &f;
    return nullptr;
}

} // namespace

class TestAdvisorFake final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString tree() const { return m_dir.path(); }
    bool setMd0Readahead(quint64 kib)
    {
        QFile f(tree() + QStringLiteral("/sys/block/md0/queue/read_ahead_kb"));
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(QByteArray::number(kib) + '\n') > 0;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree()));
    }

    void parseWorkload_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("canonical");
        QTest::addColumn<int>("windows");
        QTest::newRow("seq") << QStringLiteral("seq") << true << QStringLiteral("seq") << 1;
        QTest::newRow("concurrent:4") << QStringLiteral("concurrent:4") << true << QStringLiteral("concurrent:4") << 4;
        QTest::newRow("server:8") << QStringLiteral("server:8") << true << QStringLiteral("server:8") << 8;
        QTest::newRow("mixed:2+3") << QStringLiteral("mixed:2+3") << true << QStringLiteral("mixed:2+3") << 2;
        QTest::newRow("mixed:1+0") << QStringLiteral("mixed:1+0") << true << QStringLiteral("mixed:1+0") << 1;
        QTest::newRow("seq:2") << QStringLiteral("seq:2") << false << QStringLiteral("") << 0;
        QTest::newRow("concurrent") << QStringLiteral("concurrent") << false << QStringLiteral("") << 0;
        QTest::newRow("concurrent:0") << QStringLiteral("concurrent:0") << false << QStringLiteral("") << 0;
        QTest::newRow("server:65") << QStringLiteral("server:65") << false << QStringLiteral("") << 0;
        QTest::newRow("mixed:2") << QStringLiteral("mixed:2") << false << QStringLiteral("") << 0;
        QTest::newRow("server:2+1") << QStringLiteral("server:2+1") << false << QStringLiteral("") << 0;
        QTest::newRow("garbage") << QStringLiteral("stream") << false << QStringLiteral("") << 0;
        QTest::newRow("empty") << QStringLiteral("") << false << QStringLiteral("") << 0;
    }
    void parseWorkload()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, canonical);
        QFETCH(int, windows);
        auto w = blocktune::parseWorkload(text);
        QCOMPARE(bool(w), ok);
        if (!ok) {
            QVERIFY2(w.error().message.contains(QStringLiteral("concurrent:N")), qPrintable(w.error().message));
            return;
        }
        QCOMPARE(workloadName(*w), canonical);
        QCOMPARE(readaheadWindows(*w), windows);
    }

    void coarsePointsFollowTheDeviceSize()
    {
        // 64 MiB: up to a quarter of it, 16 MiB; a huge array: up to 64 MiB.
        const QList<quint64> small = coarseReadaheads(64ull << 20);
        QCOMPARE(small.constFirst(), 4u);
        QCOMPARE(small.constLast(), 16384u);
        QCOMPARE(small.size(), 13);
        QCOMPARE(coarseReadaheads(8ull << 40).constLast(), 65536u);
    }

    void recommendationNeverBelowTheFloor_data()
    {
        QTest::addColumn<quint64>("knee");
        for (quint64 knee : {4, 64, 1024, 4096, 8192, 16384, 65536})
            QTest::addRow("knee %llu KiB", knee) << knee;
    }
    void recommendationNeverBelowTheFloor()
    {
        QFETCH(quint64, knee);
        QVERIFY(setMd0Readahead(kMd0FloorKiB));
        TuningSession session{SysRoot(tree())};
        FakeEngine engine;
        // Rises linearly to the knee, flat after it.
        engine.curve = [knee](quint64 ra) { return 400.0 * double(qMin(ra, knee)) / double(knee); };
        AdviseSpec spec{QStringLiteral("md0"), Workload{}, 64 * 1024, 10000, 0.1};
        auto advice = advise(session, engine, spec);
        QVERIFY2(advice, advice ? "" : qPrintable(advice.error().message));
        QCOMPARE(advice->floorKiB, std::optional<quint64>(kMd0FloorKiB));
        QVERIFY(advice->recommendedKiB >= kMd0FloorKiB);
        QCOMPARE(advice->kneeKiB, knee);
        QCOMPARE(advice->floorDecides, knee < kMd0FloorKiB);
        QCOMPARE(advice->recommendedKiB, qMax(knee, kMd0FloorKiB));
        // The refinement tried values between the knee and the point below.
        QVERIFY(engine.asked.size() > advice->curve.size() - 1);
        QVERIFY(!engine.holding);
        QVERIFY(advice->restored);
        // The planned reading time stays inside the budget.
        qint64 planned = 0;
        for (qint64 ms : std::as_const(engine.askedMs))
            planned += ms;
        QVERIFY2(planned <= spec.budgetMs, qPrintable(QString::number(planned)));
        // The profile carries the recommendation and matches the array by its UUID.
        const QJsonObject rule = advice->profile.value(u"rules").toArray().at(0).toObject();
        QCOMPARE(rule.value(u"set").toObject().value(u"read_ahead_kb").toInteger(), qint64(advice->recommendedKiB));
        QVERIFY(!rule.value(u"match").toObject().value(u"md_uuid").toString().isEmpty());
        QCOMPARE(advice->profile.value(u"schema").toInt(), 1);
        // Memory: the recommendation for one window on one device.
        QCOMPARE(advice->memoryKiB, advice->recommendedKiB);
    }

    void memoryCountsEveryWindow()
    {
        TuningSession session{SysRoot(tree())};
        FakeEngine engine;
        AdviseSpec spec{QStringLiteral("md0"), *blocktune::parseWorkload(QStringLiteral("concurrent:4")), 64 * 1024, 10000, 0.1};
        auto advice = advise(session, engine, spec);
        QVERIFY(advice);
        QCOMPARE(advice->memoryKiB, advice->recommendedKiB * 4);
    }

    void shortBudgetRefused()
    {
        TuningSession session{SysRoot(tree())};
        FakeEngine engine;
        AdviseSpec spec{QStringLiteral("md0"), Workload{}, 64 * 1024, 1000, 0.1};
        auto advice = advise(session, engine, spec);
        QVERIFY(!advice);
        QVERIFY2(advice.error().message.contains(QStringLiteral("too short")), qPrintable(advice.error().message));
        QVERIFY(engine.asked.isEmpty());
    }

    void farFromRawSaysSo()
    {
        TuningSession session{SysRoot(tree())};
        FakeEngine engine;
        engine.rawMbPerSec = 1000;
        engine.curve = [](quint64) { return 300.0; };
        auto advice = advise(session, engine, {QStringLiteral("md0"), Workload{}, 64 * 1024, 10000, 0.1});
        QVERIFY(advice);
        QCOMPARE(qRound(advice->reachedPct), 30);
        QVERIFY2(advice->verdict.contains(QStringLiteral("no readahead came close")), qPrintable(advice->verdict));
    }

    void belowMdFloorFiresExactlyUnderIt_data()
    {
        QTest::addColumn<quint64>("readAhead");
        QTest::addColumn<bool>("fires");
        QTest::newRow("128") << quint64(128) << true;
        QTest::newRow("4096") << quint64(4096) << true;
        QTest::newRow("8188") << quint64(8188) << true;
        QTest::newRow("8192 (the floor)") << quint64(8192) << false;
        QTest::newRow("8196") << quint64(8196) << false;
        QTest::newRow("65536") << quint64(65536) << false;
    }
    void belowMdFloorFiresExactlyUnderIt()
    {
        QFETCH(quint64, readAhead);
        QFETCH(bool, fires);
        QVERIFY(setMd0Readahead(readAhead));
        TuningSession session{SysRoot(tree())};
        DiagnoseSpec spec;
        spec.device = QStringLiteral("md0");
        spec.measure = false;
        auto d = diagnose(session, nullptr, spec);
        QVERIFY(d);
        const Finding *f = findingOf(*d, "below_md_floor");
        QCOMPARE(f != nullptr, fires);
        if (f) {
            QCOMPARE(f->evidence.value(u"read_ahead_kb").toInteger(), qint64(readAhead));
            QCOMPARE(f->evidence.value(u"floor_kb").toInteger(), qint64(kMd0FloorKiB));
            QCOMPARE(f->fix.value(u"read_ahead_kb").toInteger(), qint64(kMd0FloorKiB));
        }
        QVERIFY(setMd0Readahead(kMd0FloorKiB));
    }

    void memberImbalance_data()
    {
        QTest::addColumn<QList<quint64>>("bytes");
        QTest::addColumn<bool>("fires");
        const quint64 mb = 1 << 20;
        QTest::newRow("even") << QList<quint64>(8, 100 * mb) << false;
        QTest::newRow("nearly even") << QList<quint64>{110 * mb, 95 * mb, 100 * mb, 100 * mb, 105 * mb, 90 * mb, 100 * mb, 100 * mb} << false;
        QTest::newRow("one member takes most") << QList<quint64>{700 * mb, 50 * mb, 50 * mb, 50 * mb, 50 * mb, 50 * mb, 50 * mb, 50 * mb} << true;
        QTest::newRow("half the members idle") << QList<quint64>{200 * mb, 200 * mb, 200 * mb, 200 * mb, 0, 0, 0, 0} << true;
    }
    void memberImbalance()
    {
        QFETCH(QList<quint64>, bytes);
        QFETCH(bool, fires);
        TuningSession session{SysRoot(tree())};
        FakeEngine engine;
        engine.memberBytes = bytes;
        DiagnoseSpec spec;
        spec.device = QStringLiteral("md0");
        auto d = diagnose(session, &engine, spec);
        QVERIFY(d);
        QVERIFY(d->measured);
        QVERIFY(!engine.holding);
        const Finding *f = findingOf(*d, "member_imbalance");
        QCOMPARE(f != nullptr, fires);
        if (f) {
            const QJsonObject shares = f->evidence.value(u"shares_pct").toObject();
            QCOMPARE(shares.size(), 8);
            quint64 total = 0;
            for (quint64 b : bytes)
                total += b;
            QCOMPARE(qRound(shares.value(u"sdb").toDouble()), qRound(double(bytes.at(0)) / double(total) * 100));
            QVERIFY(f->evidence.value(u"jain").toDouble() < kImbalanceJain);
        }
    }

    void streamUnfair_data()
    {
        QTest::addColumn<double>("alone");
        QTest::addColumn<double>("with");
        QTest::addColumn<double>("other");
        QTest::addColumn<bool>("fires");
        QTest::newRow("the thread's 102 -> 21 MB/s") << 102.0 << 21.0 << 81.0 << true;
        QTest::newRow("an even split") << 100.0 << 50.0 << 50.0 << false;
        QTest::newRow("the second stream starves") << 100.0 << 90.0 << 5.0 << true;
        QTest::newRow("both keep their pace (two spindles)") << 100.0 << 95.0 << 95.0 << false;
    }
    void streamUnfair()
    {
        QFETCH(double, alone);
        QFETCH(double, with);
        QFETCH(double, other);
        QFETCH(bool, fires);
        TuningSession session{SysRoot(tree())};
        FakeEngine engine;
        engine.pair = {alone, with, other, QStringLiteral("mq-deadline")};
        DiagnoseSpec spec;
        spec.device = QStringLiteral("md0");
        auto d = diagnose(session, &engine, spec);
        QVERIFY(d);
        const Finding *f = findingOf(*d, "stream_unfair");
        QCOMPARE(f != nullptr, fires);
        if (f) {
            QCOMPARE(f->evidence.value(u"alone_mb_per_s").toDouble(), alone);
            QCOMPARE(f->evidence.value(u"with_second_mb_per_s").toDouble(), with);
            QCOMPARE(f->evidence.value(u"scheduler").toString(), QStringLiteral("mq-deadline"));
        }
    }

    void readaheadBlocking_data()
    {
        QTest::addColumn<quint64>("readAhead");
        QTest::addColumn<bool>("rising");
        QTest::addColumn<bool>("fires");
        // The fake's requests are min(readahead, 1024 KiB), as a device
        // whose max_sectors_kb is 1024 makes them.
        QTest::newRow("128 KiB, faster and larger requests at 512") << quint64(128) << true << true;
        QTest::newRow("128 KiB, flat curve") << quint64(128) << false << false;
        QTest::newRow("1024 KiB, faster at 4096 but requests capped") << quint64(1024) << true << false;
    }
    void readaheadBlocking()
    {
        QFETCH(quint64, readAhead);
        QFETCH(bool, rising);
        QFETCH(bool, fires);
        QVERIFY(setMd0Readahead(readAhead));
        TuningSession session{SysRoot(tree())};
        FakeEngine engine;
        if (rising)
            engine.curve = [](quint64 ra) { return double(qMin<quint64>(ra, 8192)) / 10.0; };
        DiagnoseSpec spec;
        spec.device = QStringLiteral("md0");
        auto d = diagnose(session, &engine, spec);
        QVERIFY(setMd0Readahead(kMd0FloorKiB));
        QVERIFY(d);
        const Finding *f = findingOf(*d, "readahead_blocking");
        QCOMPARE(f != nullptr, fires);
        if (f) {
            QCOMPARE(f->evidence.value(u"read_ahead_kb").toInteger(), qint64(readAhead));
            QCOMPARE(f->evidence.value(u"larger_read_ahead_kb").toInteger(), 512);
            QVERIFY(f->evidence.contains(u"interrupts_per_mb"));
            QCOMPARE(f->fix.value(u"read_ahead_kb").toInteger(), 512);
        }
    }

    void notesWhereTheSettingLivesElsewhere_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("says");
        QTest::newRow("a partition") << QStringLiteral("nvme-parts") << QStringLiteral("nvme0n1p2")
                                     << QStringLiteral("partition_shares_readahead") << QStringLiteral("nvme0n1's");
        QTest::newRow("an LVM volume") << QStringLiteral("scst-raid0-lvm") << QStringLiteral("dm-1")
                                       << QStringLiteral("lvm_rewrites_readahead") << QStringLiteral("vg_scst-lun1");
    }
    void notesWhereTheSettingLivesElsewhere()
    {
        QFETCH(QString, tree);
        QFETCH(QString, device);
        QFETCH(QString, code);
        QFETCH(QString, says);
        TuningSession session{SysRoot(recordedTree(tree))};
        DiagnoseSpec spec;
        spec.device = device;
        spec.measure = false;
        auto d = diagnose(session, nullptr, spec);
        QVERIFY2(d, d ? "" : qPrintable(d.error().message));
        const Finding *f = findingOf(*d, code.toLatin1().constData());
        QVERIFY(f);
        QCOMPARE(f->severity, Severity::Note);
        QVERIFY2(f->summary.contains(says), qPrintable(f->summary));
        // Each note where it applies only: a partition is no LVM volume, and the reverse.
        QVERIFY(!findingOf(*d, code == u"lvm_rewrites_readahead" ? "partition_shares_readahead" : "lvm_rewrites_readahead"));
    }

    void cliRefusesToMeasureARecordedTree()
    {
        const ProcessResult r = run(binary("blocktune-cli"),
                                    {QStringLiteral("--sysroot"), tree(), QStringLiteral("advise"), QStringLiteral("md0")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("recorded tree"), r.err.constData());
        const ProcessResult bad = run(binary("blocktune-cli"), {QStringLiteral("advise"), QStringLiteral("md0"),
                                                                QStringLiteral("--workload"), QStringLiteral("stream:2")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("mixed:K+R"), bad.err.constData());
    }

    void cliDiagnoseStaticOnATree()
    {
        QVERIFY(setMd0Readahead(4096));
        const ProcessResult r = run(binary("blocktune-cli"), {QStringLiteral("--sysroot"), tree(), QStringLiteral("diagnose"),
                                                              QStringLiteral("md0"), QStringLiteral("--json")});
        QVERIFY(setMd0Readahead(kMd0FloorKiB));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("static checks only"), r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(u"device").toString(), QStringLiteral("md0"));
        const QJsonArray findings = o.value(u"findings").toArray();
        QCOMPARE(findings.size(), 1);
        const QJsonObject f = findings.at(0).toObject();
        QCOMPARE(f.value(u"code").toString(), QStringLiteral("below_md_floor"));
        for (const char *key : {"severity", "summary", "evidence", "fix"})
            QVERIFY2(f.contains(QLatin1StringView(key)), key);
        QCOMPARE(f.value(u"fix").toObject().value(u"read_ahead_kb").toInteger(), qint64(kMd0FloorKiB));
    }
};

QTEST_GUILESS_MAIN(TestAdvisorFake)
#include "tst_advisor_fake.moc"
