// Validation of change sets against recorded machines: what is refused (and
// how it is said), how a valid set is turned into ordered writes, and which
// originals a rollback needs.
#include "tuningtestutil.h"

#include "devices/devicemodel.h"
#include "tuning/tuning.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QList<SettingChange> changesFrom(const QStringList &words)
{
    // "dev key=value" per entry
    QList<SettingChange> out;
    for (const QString &w : words) {
        const QString device = w.section(u' ', 0, 0);
        const QString assignment = w.section(u' ', 1);
        const qsizetype eq = assignment.indexOf(u'=');
        out.append(SettingChange{device, assignment.left(eq), assignment.mid(eq + 1)});
    }
    return out;
}

QStringList writesOf(const ChangePlan &plan)
{
    QStringList out;
    for (const PlannedWrite &w : plan.writes)
        out << QStringLiteral("%1 %2 %3").arg(w.device.isEmpty() ? QStringLiteral("-") : w.device, w.attribute, w.value);
    return out;
}

QString errorsOf(const ChangePlan &plan)
{
    QStringList out;
    for (const Error &e : plan.errors)
        out << e.message;
    return out.join(u" | ");
}

DeviceModel scanTree(const QString &path)
{
    ScanOptions options;
    options.probeFilesystems = false;
    auto model = DeviceModel::scan(SysRoot(path), options);
    if (!model)
        qFatal("cannot scan %s: %s", qPrintable(path), qPrintable(model.error().message));
    return std::move(*model);
}

} // namespace

class TestTuningPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *name : {"md-raid10-f2", "scst-raid0-lvm", "nvme-parts", "raid5-degraded"})
            QVERIFY2(QFileInfo(recordedTree(name) + QStringLiteral("/sys")).isDir(), name);
    }

    void parseSettingChange_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("plain") << u"read_ahead_kb=4096"_qs << true << u"read_ahead_kb"_qs << u"4096"_qs;
        QTest::newRow("iosched") << u"iosched.read_expire=100"_qs << true << u"iosched.read_expire"_qs << u"100"_qs;
        QTest::newRow("value with =") << u"scheduler=a=b"_qs << true << u"scheduler"_qs << u"a=b"_qs;
        QTest::newRow("no equals") << u"read_ahead_kb"_qs << false << QString() << QString();
        QTest::newRow("empty key") << u"=4096"_qs << false << QString() << QString();
        QTest::newRow("empty value") << u"read_ahead_kb="_qs << false << QString() << QString();
        QTest::newRow("empty") << QString() << false << QString() << QString();
    }
    void parseSettingChange()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, key);
        QFETCH(QString, value);
        const auto parsed = blocktune::parseSettingChange(u"sdb"_qs, text);
        QCOMPARE(parsed.ok(), ok);
        if (ok) {
            QCOMPARE(parsed->device, u"sdb"_qs);
            QCOMPARE(parsed->key, key);
            QCOMPARE(parsed->value, value);
        } else {
            QVERIFY2(parsed.error().message.contains(u"read_ahead_kb"_qs), qPrintable(parsed.error().message));
        }
    }

    void plan_data()
    {
        QTest::addColumn<QString>("treeName");
        QTest::addColumn<QStringList>("changes");
        QTest::addColumn<bool>("members");
        QTest::addColumn<QString>("error");   // substring of the errors; empty = valid
        QTest::addColumn<QStringList>("writes");
        QTest::addColumn<QString>("warning"); // substring; empty = no warnings at all
        QTest::addColumn<QString>("note");    // substring, or empty

        const QString md = u"md-raid10-f2"_qs, scst = u"scst-raid0-lvm"_qs, nvme = u"nvme-parts"_qs,
                      r5 = u"raid5-degraded"_qs;
        auto row = [](const char *name) -> QTestData & { return QTest::newRow(name); };

        // Valid sets and how they are written.
        row("readahead KiB") << md << QStringList{u"sdb read_ahead_kb=4096"_qs} << false << QString()
                             << QStringList{u"sdb read_ahead_kb 4096"_qs} << QString() << QString();
        row("ra_sectors 65536 = 32 MiB") << md << QStringList{u"sdb ra_sectors=65536"_qs} << false << QString()
                                         << QStringList{u"sdb read_ahead_kb 32768"_qs} << QString()
                                         << u"ra_sectors 65536 = read_ahead_kb 32768"_qs;
        row("ra_sectors odd") << md << QStringList{u"sdb ra_sectors=4097"_qs} << false << QString()
                              << QStringList{u"sdb read_ahead_kb 2048"_qs} << QString()
                              << u"an odd count keeps what blockdev --setra 4097 keeps"_qs;
        row("page rounding said") << md << QStringList{u"sdb read_ahead_kb=5"_qs} << false << QString()
                                  << QStringList{u"sdb read_ahead_kb 5"_qs} << QString() << u"will read back as 4"_qs;
        row("partition changes its disk") << md << QStringList{u"sda1 read_ahead_kb=256"_qs} << false << QString()
                                          << QStringList{u"sda read_ahead_kb 256"_qs} << QString()
                                          << u"sda1 is a partition: readahead and queue settings belong to the whole disk sda"_qs;
        row("/dev path") << md << QStringList{u"/dev/sdc read_ahead_kb=256"_qs} << false << QString()
                         << QStringList{u"sdc read_ahead_kb 256"_qs} << QString() << QString();
        row("scheduler first, readahead last")
            << md << QStringList{u"sdb read_ahead_kb=1024"_qs, u"sdb iosched.slice_idle=0"_qs, u"sdb nr_requests=64"_qs,
                                 u"sdb max_sectors_kb=512"_qs, u"sdb scheduler=bfq"_qs}
            << false << QString()
            << QStringList{u"sdb scheduler bfq"_qs, u"sdb iosched/slice_idle 0"_qs, u"sdb nr_requests 64"_qs,
                           u"sdb max_sectors_kb 512"_qs, u"sdb read_ahead_kb 1024"_qs}
            << QString() << QString();
        row("tunable of the active scheduler") << md << QStringList{u"sdb iosched.read_expire=100"_qs} << false << QString()
                                               << QStringList{u"sdb iosched/read_expire 100"_qs} << QString() << QString();
        row("said twice, same value") << md << QStringList{u"sdb read_ahead_kb=4096"_qs, u"sdb ra_sectors=8192"_qs}
                                      << false << QString() << QStringList{u"sdb read_ahead_kb 4096"_qs} << QString()
                                      << QString();
        row("nr_requests 2048 with a scheduler") << nvme << QStringList{u"nvme0n1 scheduler=mq-deadline"_qs, u"nvme0n1 nr_requests=2048"_qs}
                                                 << false << QString()
                                                 << QStringList{u"nvme0n1 scheduler mq-deadline"_qs, u"nvme0n1 nr_requests 2048"_qs}
                                                 << QString() << QString();
        row("nr_requests below 4 is raised") << nvme << QStringList{u"nvme0n1 nr_requests=2"_qs} << false << QString()
                                             << QStringList{u"nvme0n1 nr_requests 2"_qs} << QString()
                                             << u"raises nr_requests below 4 to 4"_qs;
        row("legacy context switch on a partition") << scst << QStringList{u"sdb1 context_readahead=0"_qs} << false << QString()
                                                    << QStringList{u"sdb context_readahead 0"_qs} << QString()
                                                    << u"sdb1 is a partition"_qs;
        row("legacy scheduler switch") << scst << QStringList{u"sdb scheduler=deadline"_qs, u"sdb iosched.fifo_batch=8"_qs}
                                       << false << QString()
                                       << QStringList{u"sdb scheduler deadline"_qs, u"sdb iosched/fifo_batch 8"_qs}
                                       << QString() << QString();
        row("md at the floor: no warning") << md << QStringList{u"md0 read_ahead_kb=8192"_qs} << false << QString()
                                           << QStringList{u"md0 read_ahead_kb 8192"_qs} << QString()
                                           << u"--members sets them to 8192 KiB too"_qs;
        row("md below the floor") << md << QStringList{u"md0 read_ahead_kb=1024"_qs} << false << QString()
                                  << QStringList{u"md0 read_ahead_kb 1024"_qs}
                                  << u"read_ahead_kb 1024 on md0 is below the kernel's readahead floor of 8192 KiB (2 x stripe of 4096 KiB)"_qs
                                  << u"the disks under md0 keep their own readahead (sdb 128 KiB"_qs;
        row("raid5 floor from chunk x (n-1)") << r5 << QStringList{u"md0 ra_sectors=2048"_qs} << false << QString()
                                              << QStringList{u"md0 read_ahead_kb 1024"_qs}
                                              << u"below the kernel's readahead floor of 3072 KiB (2 x stripe of 1536 KiB)"_qs
                                              << QString();
        row("md --members") << md << QStringList{u"md0 read_ahead_kb=16384"_qs} << true << QString()
                            << QStringList{u"md0 read_ahead_kb 16384"_qs, u"sdb read_ahead_kb 16384"_qs,
                                           u"sdc read_ahead_kb 16384"_qs, u"sdd read_ahead_kb 16384"_qs,
                                           u"sde read_ahead_kb 16384"_qs, u"sdf read_ahead_kb 16384"_qs,
                                           u"sdg read_ahead_kb 16384"_qs, u"sdh read_ahead_kb 16384"_qs,
                                           u"sdi read_ahead_kb 16384"_qs}
                            << QString() << u"--members: read_ahead_kb 16384 also on sdb, sdc"_qs;
        row("--members: an explicit member value wins") << md << QStringList{u"md0 read_ahead_kb=16384"_qs, u"sdc read_ahead_kb=512"_qs}
                                                        << true << QString()
                                                        << QStringList{u"md0 read_ahead_kb 16384"_qs, u"sdc read_ahead_kb 512"_qs,
                                                                       u"sdb read_ahead_kb 16384"_qs, u"sdd read_ahead_kb 16384"_qs,
                                                                       u"sde read_ahead_kb 16384"_qs, u"sdf read_ahead_kb 16384"_qs,
                                                                       u"sdg read_ahead_kb 16384"_qs, u"sdh read_ahead_kb 16384"_qs,
                                                                       u"sdi read_ahead_kb 16384"_qs}
                                                        << QString() << QString();
        row("md on partitions: --members reaches the disks") << scst << QStringList{u"md0 read_ahead_kb=1024"_qs} << true << QString()
                                                             << QStringList{u"md0 read_ahead_kb 1024"_qs, u"sdb read_ahead_kb 1024"_qs,
                                                                            u"sdc read_ahead_kb 1024"_qs}
                                                             << QString() << QString();
        row("LVM below its floor") << scst << QStringList{u"dm-1 read_ahead_kb=128"_qs} << false << QString()
                                   << QStringList{u"dm-1 read_ahead_kb 128"_qs}
                                   << u"read_ahead_kb 128 on dm-1 is below the kernel's readahead floor of 256 KiB"_qs
                                   << u"LVM sets readahead again on every activation of dm-1: make it stick with lvchange -r 256"_qs;
        row("--members without md") << md << QStringList{u"sdb read_ahead_kb=256"_qs} << true << QString()
                                    << QStringList{u"sdb read_ahead_kb 256"_qs} << u"--members has no effect"_qs << QString();

        // Refusals.
        row("unknown device") << md << QStringList{u"nosuch read_ahead_kb=128"_qs} << false
                              << u"no block device named 'nosuch' (see blocktune-cli list)"_qs << QStringList() << QString() << QString();
        row("traversal device") << md << QStringList{u"../sda read_ahead_kb=128"_qs} << false
                                << u"no block device named '../sda'"_qs << QStringList() << QString() << QString();
        row("not a number") << md << QStringList{u"sdb read_ahead_kb=12abc"_qs} << false
                            << u"read_ahead_kb '12abc' on sdb is not valid: a whole number of KiB is needed (allowed: 0 to 4294967295)"_qs
                            << QStringList() << QString() << QString();
        row("negative") << md << QStringList{u"sdb read_ahead_kb=-1"_qs} << false << u"read_ahead_kb '-1' on sdb is not valid"_qs
                        << QStringList() << QString() << QString();
        row("hex") << md << QStringList{u"sdb ra_sectors=0x10"_qs} << false
                   << u"ra_sectors '0x10' on sdb is not valid: a whole number of 512-byte sectors"_qs << QStringList() << QString() << QString();
        row("above UINT_MAX KiB") << md << QStringList{u"sdb read_ahead_kb=4294967296"_qs} << false
                                  << u"read_ahead_kb '4294967296' on sdb is not valid"_qs << QStringList() << QString() << QString();
        row("spaces") << md << QStringList{u"sdb read_ahead_kb=1 2"_qs} << false << u"is not valid"_qs
                      << QStringList() << QString() << QString();
        row("empty value") << md << QStringList{u"sdb read_ahead_kb="_qs} << false << u"read_ahead_kb on sdb needs a value"_qs
                           << QStringList() << QString() << QString();
        row("unknown key") << md << QStringList{u"sdb rotational=0"_qs} << false
                           << u"unknown setting 'rotational' on sdb (settings: read_ahead_kb, ra_sectors, scheduler, nr_requests, max_sectors_kb, context_readahead, iosched.NAME)"_qs
                           << QStringList() << QString() << QString();
        row("iosched without a name") << md << QStringList{u"sdb iosched.=1"_qs} << false << u"unknown setting 'iosched.' on sdb"_qs
                                      << QStringList() << QString() << QString();
        row("scheduler not listed (issue's format)") << md << QStringList{u"sdb scheduler=cfq"_qs} << false
                                                     << u"scheduler 'cfq' is not available on sdb (available: none, mq-deadline, kyber, bfq)"_qs
                                                     << QStringList() << QString() << QString();
        row("blk-mq scheduler on a legacy kernel") << scst << QStringList{u"sdb scheduler=mq-deadline"_qs} << false
                                                   << u"scheduler 'mq-deadline' is not available on sdb (available: noop, anticipatory, deadline, cfq)"_qs
                                                   << QStringList() << QString() << QString();
        row("scheduler on md") << md << QStringList{u"md0 scheduler=bfq"_qs} << false
                               << u"scheduler 'bfq' is not available on md0 (available: none)"_qs << QStringList() << QString() << QString();
        row("tunable of another scheduler") << md << QStringList{u"sdb iosched.slice_idle=0"_qs} << false
                                            << u"iosched.slice_idle is not a tunable of mq-deadline, the active scheduler on sdb (tunables: async_depth, fifo_batch, front_merges, prio_aging_expire, read_expire, write_expire, writes_starved); it belongs to bfq: switch in the same command, e.g. scheduler=bfq iosched.slice_idle=0"_qs
                                            << QStringList() << QString() << QString();
        row("old scheduler's tunable after a switch") << md << QStringList{u"sdb scheduler=bfq"_qs, u"sdb iosched.read_expire=100"_qs}
                                                      << false << u"iosched.read_expire is not a tunable of bfq, the new scheduler on sdb"_qs
                                                      << QStringList() << QString() << QString();
        row("tunable of none") << nvme << QStringList{u"nvme0n1 iosched.read_expire=100"_qs} << false
                               << u"iosched.read_expire is not a tunable of none, the active scheduler on nvme0n1 (tunables: none)"_qs
                               << QStringList() << QString() << QString();
        row("tunable not a number") << md << QStringList{u"sdb iosched.read_expire=fast"_qs} << false
                                    << u"iosched.read_expire 'fast' on sdb is not a whole number"_qs << QStringList() << QString() << QString();
        row("max_sectors_kb above hw") << nvme << QStringList{u"nvme0n1 max_sectors_kb=256"_qs} << false
                                       << u"max_sectors_kb 256 is above max_hw_sectors_kb 128 on nvme0n1 (allowed: 4 to 128)"_qs
                                       << QStringList() << QString() << QString();
        row("max_sectors_kb below a page") << nvme << QStringList{u"nvme0n1 max_sectors_kb=2"_qs} << false
                                           << u"max_sectors_kb 2 is out of range on nvme0n1 (allowed: 4 to 128"_qs
                                           << QStringList() << QString() << QString();
        row("nr_requests above the tag depth") << nvme << QStringList{u"nvme0n1 nr_requests=1024"_qs} << false
                                               << u"nr_requests 1024 is out of range on nvme0n1 (allowed: 1 to 1023, without a scheduler, at most the hardware queue depth)"_qs
                                               << QStringList() << QString() << QString();
        row("nr_requests above MAX_SCHED_RQ") << nvme << QStringList{u"nvme0n1 scheduler=kyber"_qs, u"nvme0n1 nr_requests=2049"_qs}
                                              << false << u"(allowed: 1 to 2048, with scheduler kyber)"_qs
                                              << QStringList() << QString() << QString();
        row("nr_requests zero") << nvme << QStringList{u"nvme0n1 nr_requests=0"_qs} << false << u"nr_requests 0 is out of range"_qs
                                << QStringList() << QString() << QString();
        row("nr_requests on bio-based md") << md << QStringList{u"md0 nr_requests=64"_qs} << false
                                           << u"nr_requests does not apply to md0: it is bio-based"_qs << QStringList() << QString() << QString();
        row("context readahead: no switch") << nvme << QStringList{u"nvme0n1p1 context_readahead=1"_qs} << false
                                            << u"context readahead on nvme0n1 is built into the kernel and always on since 2.6.31; this kernel has no switch for it"_qs
                                            << QStringList() << QString() << QString();
        row("context readahead: not 0/1") << scst << QStringList{u"sdb context_readahead=yes"_qs} << false
                                          << u"context_readahead 'yes' on sdb is not valid (allowed: 0, 1)"_qs
                                          << QStringList() << QString() << QString();
        row("same setting, two values") << md << QStringList{u"sdb read_ahead_kb=4096"_qs, u"sdb ra_sectors=4096"_qs} << false
                                        << u"read_ahead_kb of sdb is set twice in one change set (4096 and 2048)"_qs
                                        << QStringList() << QString() << QString();
        row("partition and disk disagree") << md << QStringList{u"sda read_ahead_kb=256"_qs, u"sda2 read_ahead_kb=512"_qs} << false
                                           << u"read_ahead_kb of sda is set twice"_qs << QStringList() << QString() << QString();
        row("two schedulers") << md << QStringList{u"sdb scheduler=bfq"_qs, u"sdb scheduler=kyber"_qs} << false
                              << u"scheduler of sdb is set twice in one change set (bfq and kyber)"_qs
                              << QStringList() << QString() << QString();
        row("mixed good and bad") << md << QStringList{u"sdb read_ahead_kb=4096"_qs, u"sdc scheduler=cfq"_qs} << false
                                  << u"scheduler 'cfq' is not available on sdc"_qs << QStringList() << QString() << QString();
    }
    void plan()
    {
        QFETCH(QString, treeName);
        QFETCH(QStringList, changes);
        QFETCH(bool, members);
        QFETCH(QString, error);
        QFETCH(QStringList, writes);
        QFETCH(QString, warning);
        QFETCH(QString, note);

        const QString path = recordedTree(treeName);
        const DeviceModel model = scanTree(path);
        PlanOptions options;
        options.applyToMembers = members;
        const ChangePlan p = planChanges(SysRoot(path), model, changesFrom(changes), options);
        if (error.isEmpty()) {
            QVERIFY2(p.ok(), qPrintable(errorsOf(p)));
            QCOMPARE(writesOf(p), writes);
        } else {
            QVERIFY2(!p.ok(), "an invalid change set was accepted");
            QVERIFY2(errorsOf(p).contains(error), qPrintable(errorsOf(p)));
        }
        if (warning.isEmpty())
            QVERIFY2(p.warnings.isEmpty(), qPrintable(p.warnings.join(u" | ")));
        else
            QVERIFY2(p.warnings.join(u" | ").contains(warning), qPrintable(p.warnings.join(u" | ")));
        if (!note.isEmpty())
            QVERIFY2(p.notes.join(u" | ").contains(note), qPrintable(p.notes.join(u" | ")));
    }

    void everyBadChangeIsReported()
    {
        // A user fixing a command should see all its mistakes at once.
        const QString path = recordedTree("md-raid10-f2");
        const ChangePlan p = planChanges(SysRoot(path), scanTree(path),
                                         changesFrom({u"sdb read_ahead_kb=x"_qs, u"sdc scheduler=cfq"_qs,
                                                      u"nosuch nr_requests=1"_qs, u"sdd read_ahead_kb=512"_qs}));
        QCOMPARE(p.errors.size(), 3);
    }

    void schedulerSwitchJournalsWhatItDisturbs()
    {
        // Switching a scheduler resets nr_requests and drops the old
        // scheduler's tunables: all of them must be written down.
        const QString path = recordedTree("md-raid10-f2");
        const ChangePlan p = planChanges(SysRoot(path), scanTree(path), changesFrom({u"sdb scheduler=bfq"_qs}));
        QVERIFY2(p.ok(), qPrintable(errorsOf(p)));
        QStringList originals;
        for (const JournalEntry &e : p.originals) {
            QCOMPARE(e.device, u"sdb"_qs);
            QCOMPARE(e.major, 8);
            QCOMPARE(e.minor, 16);
            originals << QStringLiteral("%1=%2%3").arg(e.attribute, e.original,
                                                       e.scheduler.isEmpty() ? QString() : u" (" + e.scheduler + u')');
        }
        QVERIFY2(originals.contains(u"scheduler=mq-deadline"_qs), qPrintable(originals.join(u", ")));
        QVERIFY2(originals.contains(u"nr_requests=" + TreeCopy(u"md-raid10-f2"_qs).read(u"sdb"_qs, u"queue/nr_requests"_qs)),
                 qPrintable(originals.join(u", ")));
        QVERIFY2(originals.contains(u"iosched/read_expire=500 (mq-deadline)"_qs), qPrintable(originals.join(u", ")));
        QCOMPARE(originals.size(), 2 + 7); // scheduler, nr_requests, 7 mq-deadline tunables

        // Choosing the active scheduler again disturbs nothing.
        const ChangePlan same = planChanges(SysRoot(path), scanTree(path), changesFrom({u"sdb scheduler=mq-deadline"_qs}));
        QCOMPARE(same.originals.size(), 1);
    }

    void maxSectorsJournalsReadahead()
    {
        // Before 6.15 a queue-limits update could rewrite read_ahead_kb.
        const QString path = recordedTree("nvme-parts");
        const ChangePlan p = planChanges(SysRoot(path), scanTree(path), changesFrom({u"nvme0n1 max_sectors_kb=64"_qs}));
        QVERIFY2(p.ok(), qPrintable(errorsOf(p)));
        QStringList attrs;
        for (const JournalEntry &e : p.originals)
            attrs << e.attribute;
        QCOMPARE(attrs, (QStringList{u"read_ahead_kb"_qs, u"max_sectors_kb"_qs}));
        QVERIFY(!p.originals.constFirst().diskseq.isEmpty()); // nvme-parts records diskseq
    }

    // A plan travels in the names of `set --json`: each write is a change
    // without its outcome (`device` as asked, `queue_device` where it is
    // written), and reads back as it was made.
    void planTravelsInTheReportsNames()
    {
        TreeCopy copy(u"nvme-parts"_qs);
        QVERIFY(copy.isValid());
        QVERIFY(QDir().mkpath(copy.path() + u"/proc/sys/vm"_qs));
        QFile f(copy.path() + u"/proc/sys/vm/enable_context_readahead"_qs);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("1\n");
        f.close();
        const ChangePlan p = planChanges(SysRoot(copy.path()), scanTree(copy.path()),
                                         changesFrom({u"nvme0n1p2 context_readahead=0"_qs, u"nvme0n1 max_sectors_kb=64"_qs}));
        QVERIFY2(p.ok(), qPrintable(errorsOf(p)));
        const QJsonObject plan = planToJson(p);
        const QJsonArray writes = plan.value(u"writes").toArray();
        const QJsonArray changes = changeReportToJson(plannedReport(p), true).value(u"changes").toArray();
        QCOMPARE(writes.size(), p.writes.size());
        for (qsizetype i = 0; i < writes.size(); ++i) {
            QJsonObject change = changes.at(i).toObject();
            for (const char16_t *outcome : {u"kept", u"status", u"message"})
                change.remove(QStringView(outcome));
            QCOMPARE(writes.at(i).toObject(), change);
        }
        const bool machineFirst = p.writes.at(0).device.isEmpty();
        const QJsonObject machineWide = writes.at(machineFirst ? 0 : 1).toObject();
        QCOMPARE(machineWide.value(u"device").toString(), u"nvme0n1p2"_qs);
        QVERIFY(machineWide.value(u"queue_device").isNull());
        QCOMPARE(machineWide.value(u"new").toString(), u"0"_qs);
        const QJsonObject queue = writes.at(machineFirst ? 1 : 0).toObject();
        QCOMPARE(queue.value(u"device").toString(), u"nvme0n1"_qs);
        QCOMPARE(queue.value(u"queue_device").toString(), u"nvme0n1"_qs);
        QCOMPARE(queue.value(u"attribute").toString(), u"max_sectors_kb"_qs);
        QVERIFY(!queue.contains(u"request_device") && !queue.contains(u"request_value"));

        const auto back = planFromJson(QJsonDocument::fromJson(QJsonDocument(plan).toJson()).object());
        QVERIFY2(back, back ? "" : qPrintable(back.error().message));
        QCOMPARE(planToJson(*back), plan);
        const qsizetype q = machineFirst ? 1 : 0;
        QCOMPARE(back->writes.at(q).request.device, u"nvme0n1"_qs);
        QCOMPARE(back->writes.at(q).device, u"nvme0n1"_qs);
        QCOMPARE(back->writes.at(q).current, p.writes.at(q).current);
        QCOMPARE(back->writes.at(1 - q).request.device, u"nvme0n1p2"_qs);
        QVERIFY(back->writes.at(1 - q).device.isEmpty());
        QCOMPARE(back->originals.size(), p.originals.size());
        QJsonObject bad = plan;
        QJsonArray badWrites = writes;
        QJsonObject w = badWrites.at(0).toObject(); // write 1
        w.insert(u"queue_device"_qs, 5);
        badWrites.replace(0, w);
        bad.insert(u"writes"_qs, badWrites);
        const auto refused = planFromJson(bad);
        QVERIFY(!refused);
        QCOMPARE(refused.error().message, u"plan: write 1: 'queue_device' is not a string or null"_qs);
    }

    // The one printer of a ChangeReport: columns for `set`, single spaces
    // for `profile apply` and the console, the outcome after each write.
    void changeReportText()
    {
        ChangeReport report;
        PlannedWrite machine;
        machine.request = SettingChange{u"nvme0n1p2"_qs, u"context_readahead"_qs, SettingValue(u"0"_qs)};
        machine.attribute = u"vm/enable_context_readahead"_qs;
        machine.current = u"1"_qs;
        machine.value = u"0"_qs;
        PlannedWrite ra;
        ra.device = u"md0"_qs;
        ra.attribute = u"read_ahead_kb"_qs;
        ra.current = u"128"_qs;
        ra.value = u"4096"_qs;
        ra.forMembers = true;
        PlannedWrite tunable;
        tunable.device = u"sdb"_qs;
        tunable.attribute = u"iosched/slice_idle"_qs;
        tunable.value = u"0"_qs;
        report.outcomes = {SettingOutcome{machine, SettingStatus::Failed, {}, u"Permission denied"_qs},
                           SettingOutcome{ra, SettingStatus::Applied, u"4092"_qs, u"the kernel kept 4092, not 4096"_qs},
                           SettingOutcome{tunable, SettingStatus::Skipped, {}, {}}};
        QCOMPARE(changeReportLines(report),
                 (QStringList{u"(machine)  vm/enable_context_readahead  1 -> 0  failed: Permission denied"_qs,
                              u"md0        read_ahead_kb                128 -> 4096  applied (the kernel kept 4092)  [--members]"_qs,
                              u"sdb        iosched/slice_idle           (new) -> 0  skipped"_qs}));
        QCOMPARE(changeReportLines(report, {true, false, true}).at(1),
                 u"md0        read_ahead_kb                128 -> 4096  [--members]"_qs);
        QCOMPARE(changeReportLines(report, {false, true, false}).at(1),
                 u"md0 read_ahead_kb 128 -> 4096  applied (the kernel kept 4092)"_qs);

        // and a report read back from its JSON prints the same
        report.plan.warnings = {u"w"_qs};
        report.journalPath = u"/run/blocktune/j.json"_qs;
        const ChangeReport back = changeReportFromJson(changeReportToJson(report, false));
        QCOMPARE(changeReportLines(back), changeReportLines(report));
        QCOMPARE(back.plan.warnings, report.plan.warnings);
        QCOMPARE(back.journalPath, report.journalPath);
        QCOMPARE(changeReportToJson(back, false), changeReportToJson(report, false));
    }

    void vendorContextSwitchIsMachineWide()
    {
        TreeCopy copy(u"nvme-parts"_qs);
        QVERIFY(copy.isValid());
        QVERIFY(QDir().mkpath(copy.path() + u"/proc/sys/vm"_qs));
        QFile f(copy.path() + u"/proc/sys/vm/enable_context_readahead"_qs);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("1\n");
        f.close();
        const ChangePlan p = planChanges(SysRoot(copy.path()), scanTree(copy.path()),
                                         changesFrom({u"nvme0n1p2 context_readahead=0"_qs}));
        QVERIFY2(p.ok(), qPrintable(errorsOf(p)));
        QCOMPARE(writesOf(p), QStringList{u"- vm/enable_context_readahead 0"_qs});
        QVERIFY(p.notes.join(u' ').contains(u"/proc/sys/vm/enable_context_readahead is machine-wide"_qs));
        QCOMPARE(p.writes.constFirst().current, u"1"_qs);
    }

    void settingsOfDevices()
    {
        const QString path = recordedTree("md-raid10-f2");
        const DeviceModel model = scanTree(path);
        auto md = readDeviceSettings(SysRoot(path), model, u"md0"_qs);
        QVERIFY(md.ok());
        QCOMPARE(md->readaheadFloorKiB, std::optional<quint64>(8192));
        QCOMPARE(md->stripeKiB, std::optional<quint64>(4096));
        QCOMPARE(md->memberDisks.size(), 8);
        QVERIFY(!md->nrRequestsRange.has_value());
        auto part = readDeviceSettings(SysRoot(path), model, u"sda2"_qs);
        QVERIFY(part.ok());
        QVERIFY(part->isPartition);
        QCOMPARE(part->queueDevice, u"sda"_qs);
        QVERIFY(part->notes.join(u' ').contains(u"sda2 is a partition"_qs));
        auto missing = readDeviceSettings(SysRoot(path), model, u"sdz"_qs);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, int(NotFound));
    }
};

QTEST_GUILESS_MAIN(TestTuningPlan)
#include "tst_tuning_plan.moc"
