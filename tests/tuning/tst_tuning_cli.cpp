// blocktune-cli get/set/restore: on copied recorded trees (anyone), and with
// real writes on the test's own loop devices (root): readahead as blockdev
// sees it, page rounding, scheduler switches, every refusal changing
// nothing, --dry-run, and --hold ended by its timer, SIGTERM or kill -9.
#include "tuningtestutil.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

ProcessResult cli(const QStringList &args)
{
    return run(binary("blocktune-cli"), args, 60000);
}

ProcessResult cliOn(const QString &root, const QStringList &args)
{
    return cli(QStringList{u"--sysroot"_qs, root} + args);
}

QJsonObject jsonOf(const ProcessResult &r)
{
    return QJsonDocument::fromJson(r.out).object();
}

QString text(const ProcessResult &r)
{
    return QString::fromLocal8Bit(r.out + r.err);
}

QStringList splitArgs(const QString &s)
{
    return s.split(u' ', Qt::SkipEmptyParts);
}

} // namespace

// A scheduler this kernel offers for `dev` besides none, with one of its
// tunables set to a value other than its default: bfq where the kernel has
// it, else kyber, else mq-deadline (bfq and kyber are modules some kernels
// are built without).
std::pair<QString, QString> schedulerWithTunable(const QString &dev)
{
    const QString offered = liveValue(dev, u"queue/scheduler"_qs);
    if (offered.contains(u"bfq"_qs))
        return {u"bfq"_qs, u"iosched.slice_idle=0"_qs};
    if (offered.contains(u"kyber"_qs))
        return {u"kyber"_qs, u"iosched.read_lat_nsec=3000000"_qs};
    return {u"mq-deadline"_qs, u"iosched.read_expire=100"_qs};
}

class TestTuningCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_journals;

    QStringList journals() const { return QDir(m_journals.path()).entryList(QDir::Files); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_journals.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
        QVERIFY(QFileInfo(binary("blocktune-cli")).isExecutable());
    }
    void cleanup()
    {
        // Every test ends with its journals gone; remove leftovers so one
        // failure does not fail the tests after it.
        const QStringList left = journals();
        for (const QString &f : left)
            QFile::remove(m_journals.filePath(f));
        QVERIFY2(left.isEmpty(), qPrintable(left.join(u' ')));
    }

    // ---- recorded trees --------------------------------------------------------

    void getJsonUsesListsKeysAndValues_data()
    {
        QTest::addColumn<QString>("treeName");
        QTest::addColumn<QString>("device");
        QTest::newRow("md member") << u"md-raid10-f2"_qs << u"sdb"_qs;
        QTest::newRow("md") << u"md-raid10-f2"_qs << u"md0"_qs;
        QTest::newRow("partition") << u"md-raid10-f2"_qs << u"sda2"_qs;
        QTest::newRow("legacy cfq with switch") << u"scst-raid0-lvm"_qs << u"sdb"_qs;
        QTest::newRow("lvm") << u"scst-raid0-lvm"_qs << u"dm-1"_qs;
        QTest::newRow("nvme partition") << u"nvme-parts"_qs << u"nvme0n1p2"_qs;
    }
    void getJsonUsesListsKeysAndValues()
    {
        QFETCH(QString, treeName);
        QFETCH(QString, device);
        const QString root = recordedTree(treeName);
        const ProcessResult list = cliOn(root, {u"list"_qs, u"--json"_qs, u"--no-probe"_qs});
        QCOMPARE(list.exitCode, 0);
        QJsonObject listed;
        for (const QJsonValue &v : jsonOf(list).value(u"devices").toArray())
            if (v.toObject().value(u"name").toString() == device)
                listed = v.toObject();
        QVERIFY(!listed.isEmpty());
        const ProcessResult get = cliOn(root, {u"get"_qs, device, u"--json"_qs});
        QCOMPARE(get.exitCode, 0);
        const QJsonObject got = jsonOf(get);
        for (const char16_t *key : {u"read_ahead_kb", u"scheduler", u"schedulers", u"nr_requests", u"max_sectors_kb",
                                    u"max_hw_sectors_kb", u"context_readahead", u"major", u"minor", u"type"}) {
            QVERIFY2(got.contains(QStringView(key)), qPrintable(QStringView(key).toString()));
            QCOMPARE(got.value(QStringView(key)), listed.value(QStringView(key)));
        }
        QCOMPARE(got.value(u"ra_sectors").toDouble(), 2 * got.value(u"read_ahead_kb").toDouble());
        const QString queue = listed.value(u"parent").isString() ? listed.value(u"parent").toString() : device;
        QCOMPARE(got.value(u"queue_device").toString(), queue);
        if (listed.contains(u"md"))
            QCOMPARE(got.value(u"readahead_floor_kb"), listed.value(u"md").toObject().value(u"readahead_floor_kb"));
        QVERIFY(got.value(u"allowed").toObject().value(u"read_ahead_kb").isObject());
        QCOMPARE(got.value(u"allowed").toObject().value(u"scheduler"), listed.value(u"schedulers"));
    }

    void getTells()
    {
        const QString md = recordedTree("md-raid10-f2");
        const QString scst = recordedTree("scst-raid0-lvm");
        ProcessResult r = cliOn(md, {u"get"_qs, u"sda1"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(text(r).contains(u"sda1 is a partition: readahead and the queue settings are those of the whole disk sda"_qs), r.out);
        r = cliOn(md, {u"get"_qs, u"md0"_qs});
        QVERIFY2(text(r).contains(u"readahead floor   8192"_qs) || text(r).contains(u"8192"_qs), r.out);
        QVERIFY2(text(r).contains(u"2 x stripe of 4096 KiB"_qs), r.out);
        QVERIFY2(text(r).contains(u"context readahead on md0 is built into the kernel and always on since 2.6.31"_qs), r.out);
        r = cliOn(scst, {u"get"_qs, u"sdc"_qs});
        QVERIFY2(text(r).contains(u"0 or 1 (queue/context_readahead)"_qs), r.out);
        QVERIFY2(text(r).contains(u"iosched.slice_idle"_qs), r.out);
        r = cliOn(md, {u"get"_qs, u"sdz"_qs});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(text(r).contains(u"no block device named 'sdz'"_qs));
        r = cliOn(md, {u"get"_qs, u"sdb"_qs, u"sdc"_qs});
        QCOMPARE(r.exitCode, 2);
    }

    void setWritesTheTree()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const ProcessResult r = cliOn(tree.path(), {u"set"_qs, u"sdb"_qs, u"ra_sectors=65536"_qs, u"sdc"_qs,
                                                    u"read_ahead_kb=512"_qs, u"nr_requests=32"_qs, u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = jsonOf(r);
        QVERIFY(o.value(u"ok").toBool());
        QCOMPARE(o.value(u"changes").toArray().size(), 3);
        for (const QJsonValue &c : o.value(u"changes").toArray())
            QCOMPARE(c.toObject().value(u"status").toString(), u"applied"_qs);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"32768"_qs);
        QCOMPARE(tree.read(u"sdc"_qs, u"queue/read_ahead_kb"_qs), u"512"_qs);
        QCOMPARE(tree.read(u"sdc"_qs, u"queue/nr_requests"_qs), u"32"_qs);
    }

    void setContextSwitchAndMembers()
    {
        TreeCopy tree(u"scst-raid0-lvm"_qs);
        ProcessResult r = cliOn(tree.path(), {u"set"_qs, u"sdb1"_qs, u"context_readahead=0"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(text(r).contains(u"sdb1 is a partition"_qs), qPrintable(text(r)));
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/context_readahead"_qs), u"0"_qs);
        QCOMPARE(tree.read(u"sdc"_qs, u"queue/context_readahead"_qs), u"1"_qs);

        r = cliOn(tree.path(), {u"set"_qs, u"md0"_qs, u"read_ahead_kb=128"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(text(r).contains(u"warning: read_ahead_kb 128 on md0 is below the kernel's readahead floor of 256 KiB"_qs),
                 qPrintable(text(r)));
        QVERIFY2(text(r).contains(u"--members sets them to 128 KiB too"_qs), qPrintable(text(r)));
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"512"_qs);
        r = cliOn(tree.path(), {u"set"_qs, u"md0"_qs, u"read_ahead_kb=2048"_qs, u"--members"_qs});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(tree.read(u"md0"_qs, u"queue/read_ahead_kb"_qs), u"2048"_qs);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"2048"_qs);
        QCOMPARE(tree.read(u"sdc"_qs, u"queue/read_ahead_kb"_qs), u"2048"_qs);
    }

    void dryRunChangesNothing()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const auto before = tree.snapshot();
        ProcessResult r = cliOn(tree.path(), {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=4096"_qs, u"scheduler=bfq"_qs,
                                              u"--dry-run"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("128 -> 4096"), r.out);
        QVERIFY2(r.out.contains("mq-deadline -> bfq"), r.out);
        QVERIFY(r.err.contains("dry run: nothing was changed"));
        r = cliOn(tree.path(), {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=4096"_qs, u"--dry-run"_qs, u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(jsonOf(r).value(u"dry_run").toBool());
        QCOMPARE(jsonOf(r).value(u"changes").toArray().at(0).toObject().value(u"status").toString(), u"planned"_qs);
        QCOMPARE(tree.snapshot(), before);
    }

    void refusalsChangeNothing_data()
    {
        QTest::addColumn<QString>("treeName");
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("message");
        const QString md = u"md-raid10-f2"_qs, nvme = u"nvme-parts"_qs;
        QTest::newRow("unknown device") << md << u"set sdz read_ahead_kb=128"_qs << u"no block device named 'sdz'"_qs;
        QTest::newRow("bad number") << md << u"set sdb read_ahead_kb=lots"_qs << u"read_ahead_kb 'lots' on sdb is not valid"_qs;
        QTest::newRow("unknown scheduler") << md << u"set sdb scheduler=cfq"_qs
                                           << u"scheduler 'cfq' is not available on sdb (available: none, mq-deadline, kyber, bfq)"_qs;
        QTest::newRow("above max_hw_sectors_kb") << nvme << u"set nvme0n1 max_sectors_kb=129"_qs
                                                 << u"max_sectors_kb 129 is above max_hw_sectors_kb 128 on nvme0n1"_qs;
        QTest::newRow("unknown key") << md << u"set sdb readahead=128"_qs << u"unknown setting 'readahead'"_qs;
        QTest::newRow("tunable of another scheduler") << md << u"set sdb iosched.low_latency=0"_qs
                                                      << u"iosched.low_latency is not a tunable of mq-deadline"_qs;
        QTest::newRow("context readahead has no switch") << nvme << u"set nvme0n1 context_readahead=0"_qs
                                                         << u"built into the kernel and always on since 2.6.31"_qs;
        QTest::newRow("mixed good and bad") << md << u"set sdb read_ahead_kb=4096 sdc scheduler=cfq"_qs
                                            << u"scheduler 'cfq' is not available on sdc"_qs;
        QTest::newRow("no settings") << md << u"set sdb"_qs << u"no settings given for sdb"_qs;
        QTest::newRow("setting before device") << md << u"set read_ahead_kb=1 sdb"_qs << u"comes before any device"_qs;
        QTest::newRow("hold and dry run") << md << u"set sdb read_ahead_kb=1 --hold 5 --dry-run"_qs
                                          << u"--dry-run and --hold exclude each other"_qs;
        QTest::newRow("hold zero") << md << u"set sdb read_ahead_kb=1 --hold 0"_qs << u"--hold needs a duration above zero"_qs;
        QTest::newRow("hold garbage") << md << u"set sdb read_ahead_kb=1 --hold soon"_qs << u"--hold"_qs;
        QTest::newRow("unknown option") << md << u"set sdb read_ahead_kb=1 --force"_qs << u"set has no option --force"_qs;
        // named, with the closest option --help shows
        QTest::newRow("misspelt option") << md << u"set sdb read_ahead_kb=1 --dry-rn"_qs
                                         << u"set has no option --dry-rn; did you mean --dry-run?"_qs;
        QTest::newRow("global option after the command")
            << md << u"set sdb read_ahead_kb=1 --host x"_qs << u"--host goes before the command"_qs;
    }
    void refusalsChangeNothing()
    {
        QFETCH(QString, treeName);
        QFETCH(QString, args);
        QFETCH(QString, message);
        TreeCopy tree(treeName);
        QVERIFY(tree.isValid());
        const auto before = tree.snapshot();
        const ProcessResult r = cliOn(tree.path(), splitArgs(args));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err);
        QCOMPARE(tree.snapshot(), before);
    }

    void restoreWithoutJournals()
    {
        ProcessResult r = cli({u"restore"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("nothing to restore"), r.out);
        r = cli({u"restore"_qs, u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(jsonOf(r).value(u"ok").toBool());
        QCOMPARE(jsonOf(r).value(u"journal_dir").toString(), m_journals.path());
    }

    // A journal that does not read back as one blocktune wrote is never
    // applied: it is renamed NAME.bad-TIMESTAMP, the message says where, and
    // the tree it names is left as it is. Each row spoils a journal that
    // would otherwise set sdb back to 4096 (the tree has 128).
    void restoreSetsABadJournalAside_data()
    {
        QTest::addColumn<QByteArray>("content"); // %ROOT% becomes the tree's path
        QTest::addColumn<QString>("reason");
        const QByteArray head = "{\"blocktune_journal\":1,\"pid\":%PID%,\"pid_start\":\"1\",\"mode\":\"temporary\","
                                "\"root\":\"%ROOT%\",\"boot_id\":\"\",\"created\":\"2026-01-01T00:00:00.000Z\",";
        const QByteArray good = head + "\"entries\":[{\"device\":\"sdb\",\"dev\":\"8:16\",\"attribute\":\"read_ahead_kb\","
                                       "\"original\":\"4096\"}]}";
        auto entry = [&](const QByteArray &e) -> QByteArray { return head + "\"entries\":[" + e + "]}"; };
        QTest::newRow("garbage") << QByteArray("garbage") << u"not JSON"_qs;
        QTest::newRow("empty file") << QByteArray() << u"not JSON"_qs;
        QTest::newRow("truncated") << good.left(good.size() / 2) << u"not JSON"_qs;
        QTest::newRow("cut before the last brace") << good.chopped(1) << u"not JSON"_qs;
        QTest::newRow("JSON array") << QByteArray("[1,2]") << u"not a JSON object"_qs;
        QTest::newRow("other format") << QByteArray(good).replace("\"blocktune_journal\":1", "\"blocktune_journal\":2")
                                      << u"not a blocktune journal of format 1"_qs;
        QTest::newRow("pid a string") << QByteArray(good).replace("%PID%", "\"%PID%\"") << u"'pid' is not a process id"_qs;
        QTest::newRow("pid 1e300") << QByteArray(good).replace("%PID%", "1e300") << u"'pid' is not a process id"_qs;
        QTest::newRow("pid negative") << QByteArray(good).replace("%PID%", "-5") << u"'pid' is not a process id"_qs;
        QTest::newRow("unknown mode") << QByteArray(good).replace("temporary", "forever") << u"unknown mode 'forever'"_qs;
        QTest::newRow("entries not a list") << QByteArray(head + "\"entries\":{}}") << u"'entries' is not a list"_qs;
        QTest::newRow("entry not an object") << entry("\"sdb\"") << u"entry 1 is not an object"_qs;
        QTest::newRow("attribute outside the allowlist")
            << entry("{\"device\":\"sdb\",\"attribute\":\"../../../etc/shadow\",\"original\":\"x\"}")
            << u"attribute '../../../etc/shadow' is not one blocktune changes"_qs;
        QTest::newRow("queue attribute not allowlisted")
            << entry("{\"device\":\"sdb\",\"attribute\":\"rotational\",\"original\":\"0\"}")
            << u"attribute 'rotational' is not one blocktune changes"_qs;
        QTest::newRow("device path") << entry("{\"device\":\"../sdb\",\"attribute\":\"read_ahead_kb\",\"original\":\"1\"}")
                                     << u"'../sdb' is not a device name"_qs;
        QTest::newRow("two-line original")
            << entry("{\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"original\":\"4096\\n1\"}")
            << u"not one short printable line"_qs;
        QTest::newRow("original a number") << entry("{\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"original\":4096}")
                                           << u"entry 1: 'original' is not a string"_qs;
        QTest::newRow("no original") << entry("{\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\"}")
                                     << u"entry 1 has no 'original'"_qs;
        QTest::newRow("dev garbage")
            << entry("{\"device\":\"sdb\",\"dev\":\"eight\",\"attribute\":\"read_ahead_kb\",\"original\":\"4096\"}")
            << u"dev 'eight' is not MAJOR:MINOR"_qs;
        QTest::newRow("over 1 MiB") << QByteArray(good).replace("\"boot_id\":\"\"",
                                                                QByteArray("\"boot_id\":\"" + QByteArray(1100000, 'x') + "\""))
                                    << u"larger than 1 MiB"_qs;
    }
    void restoreSetsABadJournalAside()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        TreeCopy tree(u"md-raid10-f2"_qs);
        const auto before = tree.snapshot();
        content.replace("%ROOT%", QFileInfo(tree.path()).canonicalFilePath().toUtf8())
            .replace("%PID%", QByteArray::number(qint64(::getpid()) + 4194304 / 2));
        const QString path = m_journals.filePath(u"blocktune-4242-1.json"_qs);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();

        ProcessResult r = cliOn(tree.path(), {u"restore"_qs});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("blocktune-4242-1.json is not a readable journal"), r.err);
        QVERIFY2(r.err.contains(reason.toUtf8()), r.err);
        QVERIFY2(r.err.contains("nothing was restored from it"), r.err);
        QVERIFY(!QFileInfo::exists(path));
        const QStringList aside = journals();
        QCOMPARE(aside.size(), 1);
        QVERIFY2(aside[0].startsWith(u"blocktune-4242-1.json.bad-"_qs), qPrintable(aside[0]));
        QVERIFY2(r.err.contains(QByteArray("moved aside to " + m_journals.filePath(aside[0]).toUtf8())), r.err);
        QFile kept(m_journals.filePath(aside[0]));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), content); // kept as it was, for a person to look at
        QCOMPARE(tree.snapshot(), before);

        // Set aside once: the next restore does not trip on it again.
        r = cliOn(tree.path(), {u"restore"_qs, u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(jsonOf(r).value(u"journals").toArray().isEmpty());
        QVERIFY(QFile::remove(m_journals.filePath(aside[0])));
    }

    void restoreGoesOnPastABadJournal()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const auto before = tree.snapshot();
        QProcess p;
        QVERIFY(startHold(p, {u"--sysroot"_qs, tree.path(), u"set"_qs, u"sdc"_qs, u"read_ahead_kb=64"_qs,
                              u"--hold"_qs, u"60"_qs}));
        p.kill();
        QVERIFY(p.waitForFinished(30000));
        QFile bad(m_journals.filePath(u"blocktune-1-1.json"_qs));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"blocktune_journal\":1,\"pid\":"); // a crash mid-write would never look like this (rename), a disk error might
        bad.close();
        const ProcessResult r = cliOn(tree.path(), {u"restore"_qs, u"--json"_qs});
        QCOMPARE(r.exitCode, 1); // the bad one needs a look
        const QJsonArray js = jsonOf(r).value(u"journals").toArray();
        QCOMPARE(js.size(), 2);
        QStringList statuses;
        for (const QJsonValue &j : js)
            statuses << j.toObject().value(u"status").toString();
        statuses.sort();
        QCOMPARE(statuses, (QStringList{u"restored"_qs, u"unreadable"_qs}));
        for (const QJsonValue &j : js)
            if (j.toObject().value(u"status") == u"unreadable"_qs) {
                const QString aside = j.toObject().value(u"set_aside").toString();
                QVERIFY2(aside.startsWith(bad.fileName() + u".bad-"_qs), qPrintable(aside));
                QVERIFY(QFile::remove(aside));
            }
        QCOMPARE(tree.snapshot(), before);
    }

    // Two blocktune processes on one device: the second waits for the first
    // (kDeviceLockWaitMs) and is then refused, naming it; another device is
    // not held up.
    void secondProcessOnAHeldDeviceIsRefused()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const auto before = tree.snapshot();
        QProcess holder;
        QVERIFY(startHold(holder, {u"--sysroot"_qs, tree.path(), u"set"_qs, u"sdb"_qs, u"read_ahead_kb=4096"_qs,
                                   u"--hold"_qs, u"120"_qs}));
        const QByteArray holderPid = QByteArray::number(holder.processId());
        QElapsedTimer t;
        t.start();
        ProcessResult r = cliOn(tree.path(), {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=64"_qs});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(t.elapsed() >= 4500); // it waited before giving up
        QVERIFY2(r.err.contains(QByteArray("sdb is being changed by blocktune process " + holderPid)),
                 r.err);
        QVERIFY2(r.err.contains("nothing was changed"), r.err);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"4096"_qs);
        // A temporary one is refused the same way, and leaves no journal.
        r = cliOn(tree.path(), {u"set"_qs, u"sdb"_qs, u"scheduler=bfq"_qs, u"--hold"_qs, u"1"_qs});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(journals().size(), 1);
        QVERIFY(tree.read(u"sdb"_qs, u"queue/scheduler"_qs).contains(u"[mq-deadline]"_qs));

        t.restart();
        r = cliOn(tree.path(), {u"set"_qs, u"sdc"_qs, u"read_ahead_kb=64"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(t.elapsed() < 4500, "a device nobody holds is not waited for");
        QVERIFY(cliOn(tree.path(), {u"set"_qs, u"sdc"_qs, u"read_ahead_kb=128"_qs}).exitCode == 0);

        holder.terminate();
        QVERIFY(holder.waitForFinished(30000));
        QCOMPARE(holder.exitCode(), 128 + 15);
        QCOMPARE(tree.snapshot(), before);
    }

    void treeHoldKilledThenRestored()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const auto before = tree.snapshot();
        QProcess p;
        QVERIFY(startHold(p, {u"--sysroot"_qs, tree.path(), u"set"_qs, u"sdb"_qs, u"scheduler=bfq"_qs,
                              u"read_ahead_kb=64"_qs, u"--hold"_qs, u"60"_qs}));
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"64"_qs);
        p.kill();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(journals().size(), 1);
        // Another root's restore does not touch it.
        TreeCopy other(u"md-raid10-f2"_qs);
        ProcessResult r = cliOn(other.path(), {u"restore"_qs});
        QVERIFY(r.out.contains("nothing to restore"));
        QCOMPARE(journals().size(), 1);
        r = cliOn(tree.path(), {u"restore"_qs, u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray js = jsonOf(r).value(u"journals").toArray();
        QCOMPARE(js.size(), 1);
        QCOMPARE(js[0].toObject().value(u"status").toString(), u"restored"_qs);
        QCOMPARE(tree.snapshot(), before);
        QVERIFY(journals().isEmpty());
    }

    void treeSchedulerKeepsItsChoices()
    {
        // A recorded tree is plain files: a scheduler write must keep the
        // kernel's list format, or the tree would offer one scheduler only.
        TreeCopy tree(u"md-raid10-f2"_qs);
        QCOMPARE(cliOn(tree.path(), {u"set"_qs, u"sdb"_qs, u"scheduler=kyber"_qs}).exitCode, 0);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/scheduler"_qs), u"none mq-deadline [kyber] bfq"_qs);
        const QJsonObject o = jsonOf(cliOn(tree.path(), {u"get"_qs, u"sdb"_qs, u"--json"_qs}));
        QCOMPARE(o.value(u"scheduler").toString(), u"kyber"_qs);
        QCOMPARE(o.value(u"schedulers").toArray().size(), 4);
    }

    // ---- the live machine: our own loop devices ----------------------------------------

    void liveReadahead()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        LiveSettingsGuard guard(dev); // a failing test must not leave its loop tuned
        QVERIFY(writeLive(dev, u"queue/scheduler"_qs, "none")); // the kernel keeps a reused loop's scheduler
        const auto original = liveSettings(dev);
        auto getra = [&] {
            return QString::fromLatin1(run(u"blockdev"_qs, {u"--getra"_qs, loop.path()}).out).trimmed().toULongLong();
        };

        ProcessResult r = cli({u"set"_qs, dev, u"read_ahead_kb=4096"_qs});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(liveValue(dev, u"queue/read_ahead_kb"_qs), u"4096"_qs);
        QCOMPARE(getra(), 8192ULL); // blockdev counts 512-byte sectors

        // blockdev --setra 65536 = 32 MiB, and the same through ra_sectors.
        r = cli({u"set"_qs, loop.path(), u"ra_sectors=65536"_qs, u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(jsonOf(r).value(u"changes").toArray().at(0).toObject().value(u"kept").toString(), u"32768"_qs);
        QCOMPARE(liveValue(dev, u"queue/read_ahead_kb"_qs), u"32768"_qs);
        QCOMPARE(getra(), 65536ULL);
        r = cli({u"get"_qs, dev, u"--json"_qs});
        QCOMPARE(jsonOf(r).value(u"ra_sectors").toInt(), 65536);

        // Whole pages: 5 KiB is kept as 4 KiB, and the user is told.
        r = cli({u"set"_qs, dev, u"read_ahead_kb=5"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("applied (the kernel kept 4)"), r.out);
        QCOMPARE(liveValue(dev, u"queue/read_ahead_kb"_qs), u"4"_qs);
        QCOMPARE(getra(), 8ULL);

        QCOMPARE(cli({u"set"_qs, dev, u"read_ahead_kb=" + original.value(u"read_ahead_kb"_qs)}).exitCode, 0);
        QCOMPARE(liveSettings(dev), original);
    }

    void liveSchedulerSwitch()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        LiveSettingsGuard guard(dev); // a failing test must not leave its loop tuned
        QVERIFY(writeLive(dev, u"queue/scheduler"_qs, "none")); // the kernel keeps a reused loop's scheduler
        const auto original = liveSettings(dev);
        QCOMPARE(original.value(u"scheduler"_qs).contains(u"[none]"_qs), true);

        ProcessResult r = cli({u"set"_qs, dev, u"iosched.read_expire=100"_qs, u"scheduler=mq-deadline"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(liveValue(dev, u"queue/scheduler"_qs).contains(u"[mq-deadline]"_qs));
        QVERIFY(qAbs(liveValue(dev, u"queue/iosched/read_expire"_qs).toInt() - 100) <= 8);
        r = cli({u"get"_qs, dev, u"--json"_qs});
        QCOMPARE(jsonOf(r).value(u"scheduler").toString(), u"mq-deadline"_qs);
        QVERIFY(jsonOf(r).value(u"iosched").toObject().contains(u"read_expire"));

        r = cli({u"set"_qs, dev, u"scheduler=none"_qs, u"nr_requests=" + original.value(u"nr_requests"_qs)});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(liveSettings(dev), original);
    }

    void liveRefusalsChangeNothing_data()
    {
        QTest::addColumn<QString>("settings");
        QTest::addColumn<QString>("message"); // %1 = the loop device's name
        QTest::newRow("unknown scheduler") << u"scheduler=cfq"_qs
                                           << u"scheduler 'cfq' is not available on %1 (available: %2)"_qs;
        QTest::newRow("bad number") << u"read_ahead_kb=4k"_qs << u"read_ahead_kb '4k' on %1 is not valid"_qs;
        QTest::newRow("above max_hw_sectors_kb") << u"max_sectors_kb=HW+1"_qs << u"is above max_hw_sectors_kb"_qs;
        QTest::newRow("unknown key") << u"rq_affinity=2"_qs << u"unknown setting 'rq_affinity'"_qs;
        QTest::newRow("tunable without its scheduler") << u"iosched.read_expire=100"_qs
                                                       << u"iosched.read_expire is not a tunable of none, the active scheduler on %1"_qs;
        QTest::newRow("context readahead") << u"context_readahead=1"_qs
                                           << u"context readahead on %1 is built into the kernel and always on since 2.6.31"_qs;
        QTest::newRow("beyond the tag depth") << u"nr_requests=100000"_qs << u"nr_requests 100000 is out of range on %1"_qs;
        QTest::newRow("mixed good and bad") << u"read_ahead_kb=8192 nr_requests=16 scheduler=cfq"_qs
                                            << u"scheduler 'cfq' is not available on %1"_qs;
    }
    void liveRefusalsChangeNothing()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        QFETCH(QString, settings);
        QFETCH(QString, message);
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        LiveSettingsGuard guard(dev); // a failing test must not leave its loop tuned
        QVERIFY(writeLive(dev, u"queue/scheduler"_qs, "none")); // the kernel keeps a reused loop's scheduler
        const auto before = liveSettings(dev);
        const quint64 hw = liveValue(dev, u"queue/max_hw_sectors_kb"_qs).toULongLong();
        settings.replace(u"HW+1"_qs, QString::number(hw + 1));
        const ProcessResult r = cli(QStringList{u"set"_qs, dev} + splitArgs(settings));
        QCOMPARE(r.exitCode, 2);
        // What this kernel offers (bfq and kyber are modules some kernels lack).
        const QString offered = liveValue(dev, u"queue/scheduler"_qs).remove(u'[').remove(u']').split(u' ').join(u", "_qs);
        if (message.contains(u"%2"_qs))
            message = message.arg(dev, offered);
        else
            message = message.arg(dev);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err);
        QVERIFY(r.err.contains("nothing was changed"));
        QCOMPARE(liveSettings(dev), before);
        // An unknown device is refused the same way.
        const ProcessResult none = cli({u"set"_qs, u"blocktune-no-such-device"_qs, u"read_ahead_kb=128"_qs});
        QCOMPARE(none.exitCode, 2);
    }

    void liveDryRun()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        LiveSettingsGuard guard(loop.name());
        const auto before = liveSettings(loop.name());
        const ProcessResult r = cli({u"set"_qs, loop.name(), u"read_ahead_kb=8192"_qs,
                                     u"scheduler="_qs + schedulerWithTunable(loop.name()).first, u"--dry-run"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("-> 8192"), r.out);
        QCOMPARE(liveSettings(loop.name()), before);
    }

    void liveHoldKilledThenRestored()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        LiveSettingsGuard guard(dev); // a failing test must not leave its loop tuned
        QVERIFY(writeLive(dev, u"queue/scheduler"_qs, "none")); // the kernel keeps a reused loop's scheduler
        // Start from values of our own, so the restore has something to do
        // on nr_requests (a scheduler switch resets it).
        QVERIFY(writeLive(dev, u"queue/nr_requests"_qs, "64"));
        QVERIFY(writeLive(dev, u"queue/read_ahead_kb"_qs, "256"));
        const auto original = liveSettings(dev);

        QProcess p;
        const auto [scheduler, tunable] = schedulerWithTunable(dev);
        QVERIFY(startHold(p, {u"set"_qs, dev, u"read_ahead_kb=8192"_qs, u"scheduler="_qs + scheduler, tunable,
                              u"--hold"_qs, u"120"_qs}));
        QCOMPARE(liveValue(dev, u"queue/read_ahead_kb"_qs), u"8192"_qs);
        QVERIFY(liveValue(dev, u"queue/scheduler"_qs).contains(u'[' + scheduler + u']'));

        // While the session lives, restore leaves its journal alone.
        ProcessResult r = cli({u"restore"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("left alone"), r.out);
        QCOMPARE(liveValue(dev, u"queue/read_ahead_kb"_qs), u"8192"_qs);

        p.kill(); // SIGKILL: no chance to restore
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(liveValue(dev, u"queue/read_ahead_kb"_qs), u"8192"_qs);
        QCOMPARE(journals().size(), 1);

        r = cli({u"restore"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("restored"), r.out);
        QCOMPARE(liveSettings(dev), original);
        QVERIFY(journals().isEmpty());
    }

    void liveHoldEndsOnSigterm()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        LiveSettingsGuard guard(dev); // a failing test must not leave its loop tuned
        QVERIFY(writeLive(dev, u"queue/scheduler"_qs, "none")); // the kernel keeps a reused loop's scheduler
        const auto original = liveSettings(dev);
        QProcess p;
        QVERIFY(startHold(p, {u"set"_qs, dev, u"read_ahead_kb=1024"_qs, u"max_sectors_kb=64"_qs, u"--hold"_qs, u"120"_qs}));
        QCOMPARE(liveValue(dev, u"queue/max_sectors_kb"_qs), u"64"_qs);
        QElapsedTimer t;
        t.start();
        p.terminate(); // SIGTERM
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(t.elapsed() < 5000, "SIGTERM must end the hold at once");
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + 15);
        QVERIFY(p.readAllStandardOutput().contains("signal 15: restoring now"));
        QCOMPARE(liveSettings(dev), original);
        QVERIFY(journals().isEmpty());
    }

    void liveHoldRunsOut()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        LiveSettingsGuard guard(dev); // a failing test must not leave its loop tuned
        QVERIFY(writeLive(dev, u"queue/scheduler"_qs, "none")); // the kernel keeps a reused loop's scheduler
        const auto original = liveSettings(dev);
        QElapsedTimer t;
        t.start();
        const ProcessResult r = cli({u"set"_qs, dev, u"read_ahead_kb=2048"_qs, u"--hold"_qs, u"800ms"_qs, u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(t.elapsed() >= 800);
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o.value(u"changes").toArray().at(0).toObject().value(u"kept").toString(), u"2048"_qs);
        QVERIFY(o.value(u"restore").toObject().value(u"ok").toBool());
        QCOMPARE(liveSettings(dev), original);
    }

    // Two `set --hold` on the test's own loop device, the second started
    // while the first holds: the second waits for the first's lock; by then
    // the first has put the device back, so the second's plan (made while
    // the first's 4096 was in force) no longer matches and it is refused,
    // naming the first, instead of journaling 4096 as "original". The
    // device never shows the second's value and ends as it began.
    void liveHoldsOnOneDeviceAreSerialised()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        LiveSettingsGuard guard(dev);
        QVERIFY(writeLive(dev, u"queue/scheduler"_qs, "none"));
        QVERIFY(writeLive(dev, u"queue/read_ahead_kb"_qs, "256"));
        const auto original = liveSettings(dev);

        QProcess first, second;
        QVERIFY(startHold(first, {u"set"_qs, dev, u"read_ahead_kb=4096"_qs, u"--hold"_qs, u"1500ms"_qs}));
        const qint64 firstPid = first.processId();
        second.start(binary("blocktune-cli"), {u"set"_qs, dev, u"read_ahead_kb=8192"_qs, u"--hold"_qs, u"500ms"_qs});
        QVERIFY(second.waitForStarted(30000));
        QStringList seen{liveValue(dev, u"queue/read_ahead_kb"_qs)};
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 30000 && (first.state() != QProcess::NotRunning || second.state() != QProcess::NotRunning)) {
            first.waitForFinished(20);
            second.waitForFinished(20);
            const QString ra = liveValue(dev, u"queue/read_ahead_kb"_qs);
            if (ra != seen.constLast())
                seen << ra;
        }
        QCOMPARE(first.exitCode(), 0);
        QCOMPARE(seen, (QStringList{u"4096"_qs, u"256"_qs}));
        const QByteArray secondErr = second.readAllStandardError();
        QCOMPARE(second.exitCode(), 1);
        QVERIFY2(secondErr.contains(QByteArray("read_ahead_kb on " + dev.toLatin1() + " is 256 now, not 4096")), secondErr);
        QVERIFY2(secondErr.contains(QByteArray("blocktune process " + QByteArray::number(firstPid))), secondErr);
        QVERIFY2(secondErr.contains("nothing was changed"), secondErr);
        QCOMPARE(liveSettings(dev), original);
        QVERIFY(journals().isEmpty());

        // Run again, it finds the device free and restores what it found.
        const ProcessResult again = cli({u"set"_qs, dev, u"read_ahead_kb=8192"_qs, u"--hold"_qs, u"300ms"_qs});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("256 -> 8192"), again.out);
        QCOMPARE(liveSettings(dev), original);
    }

    // The lock held by another process (flock(1) on blocktune's lock file)
    // for a second: a set waits and then goes ahead when what it planned is
    // still there, or is refused when the holder changed the value.
    void waitsForALockThenChecksItsPlan_data()
    {
        QTest::addColumn<QString>("holderWrites"); // what the holder leaves in sdb's read_ahead_kb
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("value unchanged") << QString() << 0 << u"note: waited for another blocktune process (changing sdb)"_qs;
        QTest::newRow("value changed") << u"4000"_qs << 1
                                       << u"read_ahead_kb on sdb is 4000 now, not 128 as when this change was planned"_qs;
    }
    void waitsForALockThenChecksItsPlan()
    {
        QFETCH(QString, holderWrites);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        TreeCopy tree(u"md-raid10-f2"_qs);
        // A first change makes the lock file; find it rather than spell its name.
        QDir(m_journals.filePath(u"locks"_qs)).removeRecursively();
        QCOMPARE(cliOn(tree.path(), {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=128"_qs}).exitCode, 0);
        const QStringList locks = QDir(m_journals.filePath(u"locks"_qs)).entryList({u"*-sdb.lock"_qs}, QDir::Files);
        QCOMPARE(locks.size(), 1);
        const QString lockFile = m_journals.filePath(u"locks/"_qs + locks[0]);
        // flock(1) runs the script once it holds the lock: "held" says so
        // (a fixed wait for it lost the race on a busy machine).
        QString script = u"echo held; sleep 1.5"_qs;
        if (!holderWrites.isEmpty())
            script += u"; printf %1 > '%2'"_qs.arg(holderWrites, tree.attr(u"sdb"_qs, u"queue/read_ahead_kb"_qs));
        QProcess holder;
        holder.start(u"flock"_qs, {u"-x"_qs, lockFile, u"sh"_qs, u"-c"_qs, script});
        QVERIFY(holder.waitForStarted(60000));
        QVERIFY2(QTest::qWaitFor([&holder] { return holder.canReadLine() || holder.state() != QProcess::Running; },
                                 60000),
                 "flock(1) did not take the lock in a minute");
        QCOMPARE(holder.readLine().trimmed(), QByteArray("held"));
        const ProcessResult r = cliOn(tree.path(), {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=512"_qs});
        QVERIFY(holder.waitForFinished(60000));
        QCOMPARE(r.exitCode, exitCode);
        // It waited for the holder: it says so, or it saw the holder's value.
        QVERIFY2(r.err.contains(message.toUtf8()), r.err);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), exitCode == 0 ? u"512"_qs : holderWrites);
    }

};

QTEST_GUILESS_MAIN(TestTuningCli)
#include "tst_tuning_cli.moc"
