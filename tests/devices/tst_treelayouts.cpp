// One machine, two layouts: the SCST target recorded with sys/class/block
// (every kernel since 2.6.25) and with only sys/block and sys/dev/block (as
// many recorded machines are: partitions under their disk, stacking in
// holders/ and slaves/). Everything blocktune derives from a kernel name
// (the model, get, set, the helper's checks, the monitor's interrupt lines
// and in-flight counters) must come out the same on both.
#include "devices/devices.h"
#include "monitor/monitor.h"
#include "privilege/privilege.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

const char *const kClassTree = "scst-raid0-lvm";
const char *const kSysBlockTree = "scst-raid0-lvm-sysblock";

ProcessResult cliOn(const QString &root, const QStringList &args)
{
    return run(binary("blocktune-cli"), QStringList{u"--sysroot"_qs, root} + args, 60000);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

} // namespace

class TestTreeLayouts : public QObject
{
    Q_OBJECT

    QTemporaryDir m_journals;
    // One writable copy of each for the set rows (each row looks only at
    // what it wrote).
    QTemporaryDir m_classic, m_sysBlock;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_journals.isValid());
        QVERIFY(copyTree(recordedTree(kClassTree), m_classic.path()));
        QVERIFY(copyTree(recordedTree(kSysBlockTree), m_sysBlock.path()));
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
        // The second tree really is the other layout.
        QVERIFY(QDir(recordedTree(kClassTree) + u"/sys/class/block"_qs).exists());
        QVERIFY(!QDir(recordedTree(kSysBlockTree) + u"/sys/class/block"_qs).exists());
        QVERIFY(QDir(recordedTree(kSysBlockTree) + u"/sys/block/sdb/sdb1"_qs).exists());
        QCOMPARE(SysRoot(recordedTree(kClassTree)).blockLayout().value(), BlockLayout::ClassBlock);
        QCOMPARE(SysRoot(recordedTree(kSysBlockTree)).blockLayout().value(), BlockLayout::SysBlock);
    }

    void listIsTheSame_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("list --json") << QStringList{u"list"_qs, u"--json"_qs};
        QTest::newRow("list (tree)") << QStringList{u"list"_qs};
    }
    void listIsTheSame()
    {
        QFETCH(QStringList, args);
        const ProcessResult classic = cliOn(recordedTree(kClassTree), args);
        const ProcessResult sysBlock = cliOn(recordedTree(kSysBlockTree), args);
        QCOMPARE(classic.exitCode, 0);
        QCOMPARE(sysBlock.exitCode, 0);
        QVERIFY(classic.out.contains("dm-2")); // the whole stack is there
        QCOMPARE(sysBlock.out, classic.out);
        QCOMPARE(sysBlock.err, QByteArray());
    }

    void getIsTheSame_data()
    {
        QTest::addColumn<QString>("device");
        for (const char *d : {"sda", "sda2", "sdb", "sdb1", "sdc1", "md0", "dm-0", "dm-2"})
            QTest::newRow(d) << QString::fromLatin1(d);
    }
    void getIsTheSame()
    {
        QFETCH(QString, device);
        const ProcessResult classic = cliOn(recordedTree(kClassTree), {u"get"_qs, device, u"--json"_qs});
        const ProcessResult sysBlock = cliOn(recordedTree(kSysBlockTree), {u"get"_qs, device, u"--json"_qs});
        QCOMPARE(classic.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(classic.out).object().value(u"name").toString(), device);
        QCOMPARE(sysBlock.exitCode, 0);
        QCOMPARE(sysBlock.out, classic.out);
    }

    // set goes through the model, the validation and the helper's checks
    // (DirectWriter): the same write lands in the device's directory.
    void setWritesTheSame_data()
    {
        QTest::addColumn<QStringList>("change");
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QByteArray>("kept");
        QTest::newRow("disk readahead") << QStringList{u"sdb"_qs, u"read_ahead_kb=1024"_qs} << u"sdb"_qs
                                        << u"queue/read_ahead_kb"_qs << QByteArray("1024\n");
        QTest::newRow("scheduler") << QStringList{u"sdc"_qs, u"scheduler=deadline"_qs} << u"sdc"_qs
                                   << u"queue/scheduler"_qs << QByteArray("noop anticipatory [deadline] cfq");
        QTest::newRow("a partition names its disk") << QStringList{u"sdb1"_qs, u"read_ahead_kb=2048"_qs}
                                                    << u"sdb"_qs << u"queue/read_ahead_kb"_qs
                                                    << QByteArray("2048\n");
        QTest::newRow("md array") << QStringList{u"md0"_qs, u"read_ahead_kb=4096"_qs} << u"md0"_qs
                                  << u"queue/read_ahead_kb"_qs << QByteArray("4096\n");
        QTest::newRow("LV on the array") << QStringList{u"dm-1"_qs, u"read_ahead_kb=8192"_qs} << u"dm-1"_qs
                                         << u"queue/read_ahead_kb"_qs << QByteArray("8192\n");
        QTest::newRow("refused: nr_requests on md") << QStringList{u"md0"_qs, u"nr_requests=64"_qs} << u"md0"_qs
                                                    << u"queue/nr_requests"_qs << QByteArray("128\n");
    }
    void setWritesTheSame()
    {
        QFETCH(QStringList, change);
        QFETCH(QString, device);
        QFETCH(QString, attribute);
        QFETCH(QByteArray, kept);
        const ProcessResult a = cliOn(m_classic.path(), QStringList{u"set"_qs} + change);
        const ProcessResult b = cliOn(m_sysBlock.path(), QStringList{u"set"_qs} + change);
        QCOMPARE(b.exitCode, a.exitCode);
        QCOMPARE(b.out, a.out);
        QCOMPARE(b.err, a.err);
        // Read where the kernel keeps it: the device's own directory.
        const QString rel = u"/sys/block/"_qs + device + u'/' + attribute;
        QCOMPARE(readFile(m_classic.path() + rel).trimmed(), kept.trimmed());
        QCOMPARE(readFile(m_sysBlock.path() + rel).trimmed(), kept.trimmed());
    }

    void helperChecksTheSame_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("ok");
        QTest::newRow("disk") << u"sdc"_qs << u"read_ahead_kb"_qs << u"1024"_qs << true;
        QTest::newRow("tunable") << u"sdb"_qs << u"iosched/slice_idle"_qs << u"0"_qs << true;
        QTest::newRow("context switch") << u"sdb"_qs << u"context_readahead"_qs << u"0"_qs << true;
        QTest::newRow("partition") << u"sdb1"_qs << u"read_ahead_kb"_qs << u"1024"_qs << false;
        QTest::newRow("no such device") << u"sdz"_qs << u"read_ahead_kb"_qs << u"1024"_qs << false;
        QTest::newRow("bio-based nr_requests") << u"dm-0"_qs << u"nr_requests"_qs << u"64"_qs << false;
    }
    void helperChecksTheSame()
    {
        QFETCH(QString, device);
        QFETCH(QString, attribute);
        QFETCH(QString, value);
        QFETCH(bool, ok);
        // Checks only, no write: the recorded trees themselves will do.
        const QString classic = recordedTree(kClassTree), sysBlock = recordedTree(kSysBlockTree);
        const AttributeWrite request{device, attribute, value};
        const auto a = checkAttributeWrite(SysRoot(classic), request);
        const auto b = checkAttributeWrite(SysRoot(sysBlock), request);
        QCOMPARE(a.ok(), ok);
        QCOMPARE(b.ok(), ok);
        if (ok) {
            QCOMPARE(b->mid(sysBlock.size()), a->mid(classic.size()));
            QVERIFY(b->contains("/sys/devices/"));
        } else {
            QCOMPARE(b.error().message, a.error().message);
        }
    }

    void monitorFindsTheSameLines()
    {
        for (const char *tree : {kClassTree, kSysBlockTree}) {
            const SysRoot root(recordedTree(tree));
            auto model = DeviceModel::scan(root, ScanOptions{ScanOptions::Enumerate::Auto, false});
            QVERIFY(model.ok());
            const Topology topology = buildTopology(root, *model);
            QCOMPARE(topology.irqs.value(u"sdb"_qs), QList<int>{218});
            QCOMPARE(topology.irqs.value(u"dm-1"_qs), QList<int>{218});
            // A device known by its kernel name alone is found too.
            BlockDevice bare;
            bare.name = u"sdc"_qs;
            auto interrupts = parseInterrupts(root.readFile(root.procPath("interrupts")).valueOr({}));
            QCOMPARE(diskIrqs(root, bare, interrupts), QList<int>{218});
        }
    }

    void inFlightOfAPartitionIsFound()
    {
        for (const QTemporaryDir *copy : {&m_classic, &m_sysBlock}) {
            QFile f(copy->path() + u"/sys/block/sdb/sdb1/inflight"_qs);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("       3        1\n");
            f.close();
            ProcSource source{SysRoot(copy->path())};
            const auto inflight = source.inFlight(u"sdb1"_qs);
            QVERIFY2(inflight.has_value(), qPrintable(copy->path()));
            QCOMPARE(inflight->reads, quint64(3));
            QCOMPARE(inflight->writes, quint64(1));
        }
    }
};

QTEST_GUILESS_MAIN(TestTreeLayouts)
#include "tst_treelayouts.moc"
