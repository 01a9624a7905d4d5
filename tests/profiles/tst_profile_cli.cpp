// blocktune-cli profile ...: as a user runs it, on recorded trees and on
// the test's own loop devices. Bad input is refused with exit status 2, a
// message naming the file and line:column or the rule, and nothing changed;
// apply and revert run in separate processes, as after a restart.
#include "../tuning/tuningtestutil.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace blocktune::test;

namespace {

ProcessResult cli(const QStringList &args)
{
    return run(binary("blocktune-cli"), args);
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

QByteArray profileJson(const QByteArray &rules)
{
    return "{\"schema\": 1, \"name\": \"t\", \"description\": \"Test.\", \"rules\": [" + rules + "]}\n";
}

} // namespace

class TestProfileCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_config;
    QTemporaryDir m_journals;
    QTemporaryDir m_files;

    QString file(const char *name) const { return m_files.filePath(QString::fromLatin1(name)); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_config.isValid() && m_journals.isValid() && m_files.isValid());
        // The CLI finds "your" profiles through $XDG_CONFIG_HOME and keeps
        // the before-state in the journal folder: both private to the test.
        qputenv("XDG_CONFIG_HOME", m_config.path().toLocal8Bit());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
    }

    void listAndShow()
    {
        const ProcessResult list = cli({u"profile"_qs, u"list"_qs});
        QCOMPARE(list.exitCode, 0);
        const QString text = QString::fromUtf8(list.out);
        QVERIFY2(text.startsWith(u"NAME              FROM    DESCRIPTION\nbackup-target     preset  Sequential backup target"_qs),
                 qPrintable(text));
        QVERIFY(text.contains(u"streaming-md      preset  Streaming server on md arrays"_qs));
        const ProcessResult show = cli({u"profile"_qs, u"show"_qs, u"streaming-md"_qs});
        QCOMPARE(show.exitCode, 0);
        QVERIFY(show.out.contains("rule 1: type md: read_ahead_kb=>32768\nrule 2: type disk, rotational: scheduler=mq-deadline\n"));
        const ProcessResult json = cli({u"profile"_qs, u"show"_qs, u"streaming-md"_qs, u"--json"_qs});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(json.out).object().value(u"schema").toInt(), 1);
        const ProcessResult missing = cli({u"profile"_qs, u"show"_qs, u"nosuch"_qs});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("no profile named 'nosuch'"));
        const ProcessResult sub = cli({u"profile"_qs, u"frobnicate"_qs});
        QCOMPARE(sub.exitCode, 2);
        QVERIFY(sub.err.contains("unknown profile command 'frobnicate' (commands: list, show, save, apply, revert, verify, "
                                 "export, import, install, uninstall)"));
    }

    void dryRunShowsThePreview()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const auto before = tree.snapshot();
        const ProcessResult r = cli({u"--sysroot"_qs, tree.path(), u"profile"_qs, u"apply"_qs, u"backup-target"_qs, u"--dry-run"_qs});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(u"md0     read_ahead_kb       8192 -> 16384   rule 2\n"_qs), qPrintable(out));
        QVERIFY(out.contains(u"sdb     nr_requests         64 -> 256       rule 1\n"_qs));
        QVERIFY(out.contains(u"sdb     scheduler           mq-deadline     rule 1  unchanged\n"_qs));
        QVERIFY(out.contains(u"devices no rule matched: sda\n"_qs));
        QVERIFY(out.contains(u"rule that matched nothing: rule 3 (type dm)\n"_qs));
        QVERIFY(r.err.contains("dry run: nothing was changed"));
        QCOMPARE(tree.snapshot(), before);

        const ProcessResult json = cli({u"--sysroot"_qs, tree.path(), u"profile"_qs, u"apply"_qs, u"database"_qs, u"--dry-run"_qs,
                                        u"--json"_qs});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o.value(u"dry_run").toBool(), true);
        QCOMPARE(o.value(u"ok").toBool(), true);
        const QJsonObject res = o.value(u"resolution").toObject();
        // The database preset lowers md0 below its floor: the preview says the kernel wins back.
        const QJsonArray floors = res.value(u"floor_overrides").toArray();
        QCOMPARE(floors.size(), 1);
        QCOMPARE(floors.at(0).toObject().value(u"device").toString(), u"md0"_qs);
        QCOMPARE(floors.at(0).toObject().value(u"floor_kb").toInt(), 8192);
        QCOMPARE(o.value(u"report").toObject().value(u"changes").toArray().at(0).toObject().value(u"status").toString(),
                 u"planned"_qs);
        QCOMPARE(tree.snapshot(), before);
    }

    void badInputIsRefusedAndChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("content"); // a profile file, or a tuned.conf for "import"
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("message");
        QTest::newRow("typo in a key") << profileJson("{\"match\": {\"type\": \"md\"}, \"set\": {\"readahed_kb\": 4096}}")
                                       << u"apply"_qs
                                       << u"%1: rule 1, set.readahed_kb: unknown key 'readahed_kb' (keys: read_ahead_kb, "
                                          "ra_sectors, scheduler, nr_requests, max_sectors_kb, context_readahead, iosched.NAME)"_qs;
        QTest::newRow("truncated") << QByteArray("{\"schema\": 1, \"name\": \"t\",\n \"rules\": [{\"match\": {\"type\": \"md\"},\n")
                                   << u"apply"_qs << u"%1:3:1: not valid JSON: unterminated object"_qs;
        QTest::newRow("out of range for the device")
            << profileJson("{\"match\": {\"name\": \"sdb\"}, \"set\": {\"max_sectors_kb\": 65536}}") << u"apply"_qs
            << u"rule 1 (name sdb): max_sectors_kb 65536 is above max_hw_sectors_kb 32767 on sdb (allowed: 4 to 32767)"_qs;
        QTest::newRow("scheduler nobody offers")
            << profileJson("{\"match\": {\"type\": \"disk\"}, \"set\": {\"read_ahead_kb\": 256}},"
                           "{\"match\": {\"rotational\": true}, \"set\": {\"scheduler\": \"cfq\"}}")
            << u"apply"_qs << u"rule 2 (rotational): scheduler cfq applies to none of the devices it matches"_qs;
        QTest::newRow("verify a broken profile") << QByteArray("{\"schema\": 1, \"name\": \"t\", \"rules\": [{\"match\": {}, "
                                                               "\"set\": {\"read_ahead_kb\": \"<<1\"}}]}")
                                                 << u"verify"_qs
                                                 << u"%1: rule 1, set.read_ahead_kb: '<<1' is not a whole number"_qs;
        QTest::newRow("broken tuned section") << QByteArray("[main]\nsummary=x\n[disk\nreadahead=1\n") << u"import"_qs
                                              << u"%1:3: a broken section header (write [NAME] alone on its line)"_qs;
    }

    void badInputIsRefusedAndChangesNothing()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, command);
        QFETCH(QString, message);
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const auto before = tree.snapshot();
        const QStringList userProfiles = QDir(m_config.path() + u"/blocktune/profiles"_qs).entryList(QDir::Files);
        QTemporaryDir dir;
        const QString path = command == u"import" ? dir.filePath(u"tuned.conf"_qs) : dir.filePath(u"bad.json"_qs);
        QVERIFY(writeFile(path, content));
        const ProcessResult r = cli({u"--sysroot"_qs, tree.path(), u"profile"_qs, command, path});
        QCOMPARE(r.exitCode, 2);
        const QString expected = message.contains(u"%1"_qs) ? message.arg(path) : message;
        QVERIFY2(QString::fromUtf8(r.err).contains(expected), r.err.constData());
        if (command == u"apply")
            QVERIFY(r.err.contains("refused: nothing was changed"));
        QCOMPARE(tree.snapshot(), before);
        QCOMPARE(QDir(m_config.path() + u"/blocktune/profiles"_qs).entryList(QDir::Files), userProfiles);
        QCOMPARE(QDir(m_journals.path()).entryList(QDir::Files), QStringList{});
    }

    void applyVerifyAndRevertInSeparateProcesses()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const auto before = tree.snapshot();
        const QStringList root{u"--sysroot"_qs, tree.path(), u"profile"_qs};
        QCOMPARE(cli(root + QStringList{u"verify"_qs, u"streaming-md"_qs}).exitCode, 1); // md0 at 8192
        const ProcessResult applied = cli(root + QStringList{u"apply"_qs, u"streaming-md"_qs});
        QCOMPARE(applied.exitCode, 0);
        QVERIFY(applied.out.contains("md0 read_ahead_kb 8192 -> 32768  applied\n"));
        QVERIFY(applied.out.contains("blocktune-cli profile revert brings them back"));
        QCOMPARE(tree.read(u"md0"_qs, u"queue/read_ahead_kb"_qs), u"32768"_qs);

        const ProcessResult ok = cli(root + QStringList{u"verify"_qs, u"streaming-md"_qs});
        QCOMPARE(ok.exitCode, 0);
        QCOMPARE(ok.out, QByteArray("no drift: 9 setting(s) as streaming-md says\n"));
        // Someone changes a member's scheduler and the array's readahead.
        QVERIFY(tree.write(u"sdc"_qs, u"queue/scheduler"_qs, "none mq-deadline kyber [bfq]"));
        QVERIFY(tree.write(u"md0"_qs, u"queue/read_ahead_kb"_qs, "1024"));
        const ProcessResult drift = cli(root + QStringList{u"verify"_qs, u"streaming-md"_qs});
        QCOMPARE(drift.exitCode, 1);
        QCOMPARE(QString::fromUtf8(drift.out),
                 u"DEVICE  SETTING        EXPECTED     ACTUAL  RULE\n"
                 "md0     read_ahead_kb  >32768       1024    rule 1\n"
                 "sdc     scheduler      mq-deadline  bfq     rule 2\n"
                 "2 drift(s), 7 setting(s) match\n"_qs);
        const ProcessResult json = cli(root + QStringList{u"verify"_qs, u"streaming-md"_qs, u"--json"_qs});
        QCOMPARE(json.exitCode, 1);
        QCOMPARE(QJsonDocument::fromJson(json.out).object().value(u"drift").toArray().size(), 2);

        // A later process brings the values from before the apply back, and
        // only those: sdc's scheduler was not the profile's doing.
        QVERIFY(tree.write(u"sdc"_qs, u"queue/scheduler"_qs, "none [mq-deadline] kyber bfq"));
        const ProcessResult reverted = cli(root + QStringList{u"revert"_qs});
        QCOMPARE(reverted.exitCode, 0);
        QVERIFY2(reverted.out.contains("reverting streaming-md ("), reverted.out.constData());
        QVERIFY(reverted.out.contains("  md0 read_ahead_kb 1024 -> 8192  restored\n"));
        QCOMPARE(tree.snapshot(), before);
        const ProcessResult again = cli(root + QStringList{u"revert"_qs});
        QCOMPARE(again.exitCode, 0);
        QVERIFY(again.out.contains("no profile was applied here"));
    }

    void saveExportImport()
    {
        const QString tree = recordedTree("scst-raid0-lvm");
        const QStringList root{u"--sysroot"_qs, tree, u"profile"_qs};
        const ProcessResult saved = cli(root + QStringList{u"save"_qs, u"--name"_qs, u"scst"_qs, u"--changed"_qs});
        QCOMPARE(saved.exitCode, 0);
        const QString path = m_config.path() + u"/blocktune/profiles/scst.json"_qs;
        QCOMPARE(QString::fromUtf8(saved.out), u"saved 3 rules as %1\n"_qs.arg(path));
        QVERIFY(saved.err.contains("note: md0: left out as the kernel's own defaults: read_ahead_kb 256\n"));
        QVERIFY(readFile(path).contains("\"match\": {\"wwn\":\"0x5000c5000c7e8f01\"},\n            \"set\": "
                                        "{\"context_readahead\":1,\"read_ahead_kb\":512}"));
        // Saved under a name already taken: refused unless --force.
        const ProcessResult twice = cli(root + QStringList{u"save"_qs, u"--name"_qs, u"scst"_qs});
        QCOMPARE(twice.exitCode, 1);
        QVERIFY(twice.err.contains("exists already"));
        QCOMPARE(cli(root + QStringList{u"save"_qs, u"--name"_qs, u"scst"_qs, u"--changed"_qs, u"--force"_qs}).exitCode, 0);
        QCOMPARE(cli(root + QStringList{u"verify"_qs, u"scst"_qs}).exitCode, 0);
        QCOMPARE(cli(root + QStringList{u"save"_qs, u"--name"_qs, u"bad name"_qs}).exitCode, 2);
        QCOMPARE(cli(root + QStringList{u"save"_qs, u"--name"_qs, u"x"_qs, u"--devices"_qs, u"sdz"_qs}).exitCode, 1);

        const ProcessResult udev = cli(root + QStringList{u"export"_qs, u"scst"_qs, u"--format"_qs, u"udev"_qs});
        QCOMPARE(udev.exitCode, 0);
        QVERIFY(udev.out.startsWith("# Generated by blocktune from profile 'scst'"));
        QVERIFY(udev.out.contains("ENV{ID_WWN}==\"0x5000c5000c7e8f01\", TEST==\"queue/context_readahead\", "
                                  "ATTR{queue/context_readahead}=\"1\"\n"));
        const ProcessResult tuned = cli(root + QStringList{u"export"_qs, u"scst"_qs, u"--format"_qs, u"tuned"_qs,
                                                           u"--output"_qs, file("tuned.conf")});
        QCOMPARE(tuned.exitCode, 0);
        QVERIFY(tuned.err.contains("warning: rule 2: context_readahead=1 has no option in tuned's disk plugin"));
        QVERIFY(readFile(file("tuned.conf")).contains("devices_udev_regex=^ID_WWN=0x5000c5000c7e8f01$\nreadahead=512\n"));
        QCOMPARE(cli(root + QStringList{u"export"_qs, u"scst"_qs}).exitCode, 2);
        const ProcessResult unknown = cli(root + QStringList{u"export"_qs, u"scst"_qs, u"--format"_qs, u"yaml"_qs});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("unknown format 'yaml' (formats: udev, tuned, kernel-settings)"));

        const QString storage = QStringLiteral(BLOCKTUNE_TEST_DATA "/tuned/profiles/storage-server/tuned.conf");
        const ProcessResult imported = cli(root + QStringList{u"import"_qs, storage, u"--file"_qs, file("imported.json")});
        QCOMPARE(imported.exitCode, 0);
        QVERIFY(imported.err.contains("skipped: [disk-data] apm=254"));
        QVERIFY(imported.err.contains("skipped: [sysctl] (enabled, "));
        QVERIFY(imported.out.contains("imported 2 rule(s) from "));
        const ProcessResult show = cli({u"profile"_qs, u"show"_qs, file("imported.json")});
        QVERIFY(show.out.contains("rule 2: name sd*, not sda: read_ahead_kb=4096 scheduler=mq-deadline\n"));
        const ProcessResult cycle = cli(root + QStringList{u"import"_qs, QStringLiteral(BLOCKTUNE_TEST_DATA "/tuned/profiles/cycle-a/tuned.conf")});
        QCOMPARE(cycle.exitCode, 2);
        QVERIFY(cycle.err.contains("include cycle: cycle-a -> cycle-b -> cycle-a"));
    }

    void installAndUninstallOnATree()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const QStringList root{u"--sysroot"_qs, tree.path(), u"profile"_qs};
        const ProcessResult none = cli(root + QStringList{u"install"_qs, u"streaming-md"_qs});
        QCOMPARE(none.exitCode, 1);
        QVERIFY(none.err.contains("does not exist: udev is not installed here"));
        QVERIFY(QDir().mkpath(tree.path() + u"/etc/udev/rules.d"_qs));
        const ProcessResult in = cli(root + QStringList{u"install"_qs, u"streaming-md"_qs});
        QCOMPARE(in.exitCode, 0);
        const QString path = tree.path() + u"/etc/udev/rules.d/70-blocktune-streaming-md.rules"_qs;
        QCOMPARE(QString::fromUtf8(in.out), u"installed %1\na recorded tree: udevadm was not run\n"_qs.arg(path));
        const ProcessResult exported = cli(root + QStringList{u"export"_qs, u"streaming-md"_qs, u"--format"_qs, u"udev"_qs});
        QCOMPARE(readFile(path), exported.out);
        const ProcessResult out = cli(root + QStringList{u"uninstall"_qs, u"streaming-md"_qs});
        QCOMPARE(out.exitCode, 0);
        QVERIFY(!QFile::exists(path));
        const ProcessResult again = cli(root + QStringList{u"uninstall"_qs, u"streaming-md"_qs});
        QCOMPARE(again.exitCode, 1);
        QVERIFY(again.err.contains("no udev rules of profile streaming-md are installed"));
    }

    void installAndUninstallDryRunsSayWhatTheChangeDoes()
    {
        // What the Ansible collection's check mode runs: each dry run fails
        // where the change fails, names the file and its text now, and
        // changes nothing; --json says the same as JSON.
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const QStringList root{u"--sysroot"_qs, tree.path(), u"profile"_qs};
        const QStringList install = root + QStringList{u"install"_qs, u"streaming-md"_qs};
        const QStringList uninstall = root + QStringList{u"uninstall"_qs, u"streaming-md"_qs};
        const QStringList dryJson{u"--dry-run"_qs, u"--json"_qs};
        const auto json = [](const ProcessResult &r) { return QJsonDocument::fromJson(r.out).object(); };

        // No udev here: the dry run fails as the install does, in words and in JSON.
        ProcessResult r = cli(install + QStringList{u"--dry-run"_qs});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("udev is not installed here"), r.err.constData());
        r = cli(install + dryJson);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(json(r).value(u"ok").toBool(true), false);
        QVERIFY2(json(r).value(u"error").toString().contains(u"udev is not installed here"_qs), r.out.constData());
        QVERIFY(!QDir(tree.path() + u"/etc/udev"_qs).exists());

        QVERIFY(QDir().mkpath(tree.path() + u"/etc/udev/rules.d"_qs));
        const QString path = tree.path() + u"/etc/udev/rules.d/70-blocktune-streaming-md.rules"_qs;
        const QByteArray rules = cli(root + QStringList{u"export"_qs, u"streaming-md"_qs, u"--format"_qs, u"udev"_qs}).out;
        QVERIFY(rules.startsWith("# "));
        r = cli(install + dryJson);
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = json(r);
        QCOMPARE(o.value(u"dry_run").toBool(), true);
        QJsonObject f = o.value(u"files").toArray().at(0).toObject();
        QCOMPARE(f.value(u"path").toString(), path);
        QCOMPARE(f.value(u"action").toString(), u"install"_qs);
        QVERIFY(f.value(u"before").isNull());
        QCOMPARE(f.value(u"after").toString().toUtf8(), rules);
        QVERIFY(!QFile::exists(path));
        r = cli(uninstall + dryJson); // none installed: exit 1, no files
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(json(r).value(u"files").toArray().size(), 0);
        QVERIFY(json(r).value(u"error").toString().contains(u"no udev rules of profile streaming-md are installed"_qs));

        r = cli(install + QStringList{u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).value(u"files").toArray().at(0).toObject().value(u"action").toString(), u"install"_qs);
        QCOMPARE(json(r).value(u"message").toString(), u"a recorded tree: udevadm was not run"_qs);
        QCOMPARE(readFile(path), rules);
        r = cli(install + dryJson); // the same text: nothing to do
        f = json(r).value(u"files").toArray().at(0).toObject();
        QCOMPARE(f.value(u"action").toString(), u"unchanged"_qs);
        QCOMPARE(f.value(u"before").toString().toUtf8(), rules);
        r = cli(uninstall + QStringList{u"--dry-run"_qs});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QString::fromUtf8(r.out), u"would remove %1\n"_qs.arg(path));
        r = cli(uninstall + dryJson);
        f = json(r).value(u"files").toArray().at(0).toObject();
        QCOMPARE(f.value(u"action").toString(), u"remove"_qs);
        QCOMPARE(f.value(u"before").toString().toUtf8(), rules);
        QVERIFY(f.value(u"after").isNull());
        QCOMPARE(readFile(path), rules);

        // A file of that name someone else wrote: both refuse, dry or not.
        QVERIFY(writeFile(path, "# mine\nKERNEL==\"sdz\", ATTR{queue/read_ahead_kb}=\"64\"\n"));
        for (const QStringList &args : {install + dryJson, install + QStringList{u"--json"_qs}}) {
            r = cli(args);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(json(r).value(u"error").toString().contains(u"was not written by blocktune"_qs), r.out.constData());
        }
        QCOMPARE(readFile(path), QByteArray("# mine\nKERNEL==\"sdz\", ATTR{queue/read_ahead_kb}=\"64\"\n"));
    }

    void liveLoopDevices()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice mine(64 << 20, true);
        LoopDevice other(64 << 20, true);
        QVERIFY(mine.isValid() && other.isValid());
        LiveSettingsGuard guardMine(mine.name());
        LiveSettingsGuard guardOther(other.name());
        const QMap<QString, QString> otherBefore = liveSettings(other.name());
        const QMap<QString, QString> mineBefore = liveSettings(mine.name());

        // Only this test's loop device, by its kernel name.
        const QString name = mine.name();
        const QByteArray rules = "{\"match\": {\"name\": \"" + name.toLatin1() + "\"}, \"set\": {\"read_ahead_kb\": 4096, "
                                 "\"scheduler\": \"mq-deadline\", \"iosched.fifo_batch\": 32}}";
        QVERIFY(writeFile(file("live.json"), profileJson(rules)));
        QVERIFY(writeFile(file("bad-live.json"),
                          profileJson("{\"match\": {\"name\": \"" + name.toLatin1() + "\"}, \"set\": {\"scheduler\": \"cfq\"}}")));
        const ProcessResult bad = cli({u"profile"_qs, u"apply"_qs, file("bad-live.json")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QByteArray("scheduler cfq applies to none of the devices it matches: " + name.toLatin1()
                                             + " does not offer cfq")),
                 bad.err.constData());
        QCOMPARE(liveSettings(name), mineBefore);

        const ProcessResult applied = cli({u"profile"_qs, u"apply"_qs, file("live.json")});
        QCOMPARE(applied.exitCode, 0);
        QCOMPARE(liveValue(name, u"queue/read_ahead_kb"_qs), u"4096"_qs);
        QVERIFY(liveValue(name, u"queue/scheduler"_qs).contains(u"[mq-deadline]"_qs));
        QCOMPARE(liveValue(name, u"queue/iosched/fifo_batch"_qs), u"32"_qs);
        QCOMPARE(liveSettings(other.name()), otherBefore);
        QCOMPARE(cli({u"profile"_qs, u"verify"_qs, file("live.json")}).exitCode, 0);

        const ProcessResult reverted = cli({u"profile"_qs, u"revert"_qs});
        QCOMPARE(reverted.exitCode, 0);
        QCOMPARE(liveSettings(name), mineBefore);
        QCOMPARE(cli({u"profile"_qs, u"verify"_qs, file("live.json")}).exitCode, 1);
        QCOMPARE(liveSettings(other.name()), otherBefore);
    }
};

QTEST_GUILESS_MAIN(TestProfileCli)
#include "tst_profile_cli.moc"
