// blocktune-cli --host through a real OpenSSH: a private sshd on 127.0.0.1
// (temporary host key, authorized key and sshd_config; never the system's
// sshd), the agent being the build's bin/blocktune-cli. Root only: sshd
// must run as root to log a user in, and the loop devices need root.
#include "outputshape.h"
#include "privatesshd.h"
#include "readaheadloop.h"
#include "testsupport.h"

#include "common/sysroot.h"
#include "readahead/readahead.h"
#include "remote/hostwatcher.h"
#include "remote/remote.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QStandardPaths>
#include <QTest>
#include <QThread>

#include <csignal>
#include <functional>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

/// A profile command's output with the loop devices other than `dev` left
/// out of its "devices no rule matched" (text, or `unmatched_devices`
/// anywhere in its JSON): it names every device on the machine, and other
/// programs attach and detach loops between the local run and the host's.
QByteArray withoutOtherLoops(const QByteArray &out, const QString &dev)
{
    static const QRegularExpression loop(QStringLiteral("^loop[0-9]+$"));
    const auto keep = [&](const QString &name) { return name == dev || !loop.match(name).hasMatch(); };
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(out, &error);
    if (error.error == QJsonParseError::NoError && doc.isObject()) {
        std::function<QJsonValue(const QJsonValue &)> filter = [&](const QJsonValue &v) -> QJsonValue {
            if (v.isArray()) {
                QJsonArray a;
                for (const QJsonValue &x : v.toArray())
                    a.append(filter(x));
                return a;
            }
            if (!v.isObject())
                return v;
            QJsonObject o = v.toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                if (it.key() == u"unmatched_devices" && it.value().isArray()) {
                    QJsonArray kept;
                    for (const QJsonValue &x : it.value().toArray())
                        if (keep(x.toString()))
                            kept.append(x);
                    it.value() = kept;
                } else {
                    it.value() = filter(it.value());
                }
            }
            return o;
        };
        return QJsonDocument(filter(doc.object()).toObject()).toJson(QJsonDocument::Compact) + '\n';
    }
    const QByteArray prefix = "devices no rule matched: ";
    QList<QByteArray> lines = out.split('\n');
    for (QByteArray &line : lines) {
        if (!line.startsWith(prefix))
            continue;
        QStringList names = QString::fromUtf8(line.mid(prefix.size())).split(QStringLiteral(", "));
        names.removeIf([&](const QString &name) { return !keep(name); });
        line = prefix + names.join(QStringLiteral(", ")).toUtf8();
    }
    return lines.join('\n');
}


bool writeFile(const QString &path, const QByteArray &data, QFile::Permissions perms = QFile::ReadOwner | QFile::WriteOwner)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    f.write(data);
    f.close();
    return f.setPermissions(perms);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}


/// The children of `pid` (from /proc/PID/task/*/children).
QList<qint64> childrenOf(qint64 pid)
{
    QList<qint64> out;
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString &task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        for (const QByteArray &word : readFile(tasks.filePath(task + QStringLiteral("/children"))).split(' '))
            if (!word.trimmed().isEmpty())
                out << word.trimmed().toLongLong();
    return out;
}

/// Each loop device's diskseq: the kernel counts up at every attach, so a
/// loop that was attached (and perhaps detached again) between two readings
/// shows a new one.
QHash<QString, QByteArray> loopSequences()
{
    QHash<QString, QByteArray> seqs;
    for (const QString &name : QDir(QStringLiteral("/sys/block")).entryList({QStringLiteral("loop*")}, QDir::Dirs | QDir::System))
        seqs.insert(name, readFile(QStringLiteral("/sys/block/%1/diskseq").arg(name)).trimmed());
    return seqs;
}

/// `list --json` as seen through HOST (`remote`) agrees with the local one
/// taken just before and just after it, on a machine where others attach
/// and detach loop devices all the while (a neighbour may every half
/// second): every device that held still (the same before and after, and
/// not attached again in between: `seqBefore`, `seqAfter`) is in `remote`
/// as it was, in the same order; a device that moved may be in any state.
/// Empty when it agrees, else what differs.
QString listDisagreement(const QByteArray &before, const QByteArray &remote, const QByteArray &after,
                         const QHash<QString, QByteArray> &seqBefore, const QHash<QString, QByteArray> &seqAfter)
{
    if (remote == before || remote == after)
        return {};
    auto parse = [](const QByteArray &text, QJsonObject &top, QList<std::pair<QString, QJsonObject>> &devices) {
        top = QJsonDocument::fromJson(text).object();
        for (const QJsonValue &d : top.take(u"devices"_qs).toArray())
            devices << std::pair{d[u"name"_qs].toString(), d.toObject()};
    };
    QJsonObject topBefore, topRemote, topAfter;
    QList<std::pair<QString, QJsonObject>> devBefore, devRemote, devAfter;
    parse(before, topBefore, devBefore);
    parse(remote, topRemote, devRemote);
    parse(after, topAfter, devAfter);
    if (topRemote != topBefore || topBefore.isEmpty())
        return u"the top level differs: "_qs + QString::fromUtf8(QJsonDocument(topRemote).toJson(QJsonDocument::Compact));
    QHash<QString, QJsonObject> a, r;
    for (const auto &[name, o] : devAfter)
        a.insert(name, o);
    // A loop's partitions move with it (loop3p1 with loop3).
    static const QRegularExpression loopName(u"^(loop\\d+)(p\\d+)?$"_qs);
    auto moved = [&](const QString &name) {
        const QRegularExpressionMatch m = loopName.match(name);
        return m.hasMatch() && seqBefore.value(m.captured(1)) != seqAfter.value(m.captured(1));
    };
    QStringList steady, inRemote;
    for (const auto &[name, o] : devBefore)
        if (a.value(name) == o && !moved(name))
            steady << name;
    for (const auto &[name, o] : devRemote) {
        r.insert(name, o);
        if (steady.contains(name))
            inRemote << name;
        else if (!moved(name) && !a.contains(name))
            return name + u" is not in the list after, and no loop device moved under that name"_qs;
    }
    if (inRemote != steady)
        return u"the devices that held still ("_qs + steady.join(u' ') + u") are not all there, in order: "_qs
               + inRemote.join(u' ');
    for (const auto &[name, o] : devBefore)
        if (steady.contains(name) && r.value(name) != o)
            return name + u" differs: "_qs + QString::fromUtf8(QJsonDocument(r.value(name)).toJson(QJsonDocument::Compact));
    return {};
}

} // namespace

class TestRemote : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir; ///< the tests' own files
    PrivateSshd m_sshd;
    QString m_skipReason;

    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    static QString agentCommand(const QString &cliArgs = QStringLiteral("agent"))
    {
        return PrivateSshd::agentCommand(cliArgs);
    }

    QStringList hostArgs(const QStringList &extraSsh = {}, const QString &remoteCommand = {}) const
    {
        QStringList args{QStringLiteral("--host"), QStringLiteral("testhost"), QStringLiteral("--ssh-config"),
                         m_sshd.sshConfig()};
        for (const QString &o : extraSsh)
            args << QStringLiteral("--ssh-option") << o;
        args << QStringLiteral("--remote-command") << (remoteCommand.isEmpty() ? agentCommand() : remoteCommand);
        return args;
    }

    ProcessResult cli(const QStringList &args, int timeoutMs = 120000)
    {
        return run(binary("blocktune-cli"), args, timeoutMs);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_skipReason = PrivateSshd::unavailable();
        if (!m_skipReason.isEmpty())
            return;
        QVERIFY(m_dir.isValid());
        // This test's journals (here and its agent's, which is given the
        // same folder): `restore` of no device restores every ended
        // session's journal in the folder, and /run/blocktune is shared
        // with every other test that runs beside this one.
        qputenv("BLOCKTUNE_JOURNAL_DIR", (m_dir.path() + u"/journals"_qs).toLocal8Bit());
        const QString started = m_sshd.start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
    }

    void cleanupTestCase()
    {
        m_sshd.stop();
    }

    void init()
    {
        if (!m_skipReason.isEmpty()) {
            if (rootRequired())
                QFAIL(qPrintable(u"BLOCKTUNE_REQUIRE_ROOT=1 forbids skipping: " + m_skipReason));
            QSKIP(qPrintable(m_skipReason));
        }
    }

    // `--host list --json` prints what `list --json` prints there. On a
    // recorded tree the two are compared once; on the live machine other
    // tests may attach loop devices meanwhile, so the agent's output must
    // equal a local one taken just before or just after it.
    void listJsonEqualsLocalOnTree()
    {
        const QString tree = recordedTree("scst-raid0-lvm");
        QVERIFY(QFileInfo::exists(tree));
        const ProcessResult local = cli({QStringLiteral("--sysroot"), tree, QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(local.exitCode, 0);
        const ProcessResult remote = cli(hostArgs({}, agentCommand(QStringLiteral("--sysroot ") + PrivateSshd::quote(tree)
                                                                   + QStringLiteral(" agent")))
                                         + QStringList{QStringLiteral("list"), QStringLiteral("--json")});
        QVERIFY2(remote.exitCode == 0, remote.err.constData());
        QVERIFY(local.out.size() > 1000);
        QCOMPARE(remote.out, local.out);
        QCOMPARE(remote.err, local.err); // the tree's warnings, as locally
    }

    // The commands that run here on the host's Machine (its agent's typed
    // ops) print what they print locally, on the same loop device, text and
    // --json, and none of them asks the agent for op "run" (every request
    // it gets is logged through tee). Measured ones are compared without
    // their figures (withoutFigures, jsonShape).
    void hostCommandsPrintAsLocallyWithoutRun_data()
    {
        QTest::addColumn<QStringList>("args"); // DEV: the row's loop device
        QTest::addColumn<bool>("measured");
        const auto row = [](const char *name, const QString &line, bool measured = false) {
            QTest::newRow(name) << line.split(u' ') << measured;
        };
        row("get", QStringLiteral("get DEV"));
        row("get --json", QStringLiteral("get DEV --json"));
        row("set --dry-run", QStringLiteral("set DEV read_ahead_kb=768 scheduler=mq-deadline --dry-run"));
        row("set --dry-run --json", QStringLiteral("set DEV read_ahead_kb=768 --dry-run --json"));
        row("set", QStringLiteral("set DEV read_ahead_kb=768"));
        row("set --json", QStringLiteral("set DEV read_ahead_kb=768 --json"));
        row("set refused", QStringLiteral("set DEV scheduler=cfq"));
        // Held, then restored; its journal is HOST's, named HOST:PATH (the
        // path and the time are figures).
        row("set --hold", QStringLiteral("set DEV read_ahead_kb=768 --hold 1s"), true);
        row("get of no device", QStringLiteral("get nosuchdevice0"));
        row("test seq", QStringLiteral("test seq DEV --size 8M --repeat 1"), true);
        row("test seq --json", QStringLiteral("test seq DEV --size 8M --repeat 1 --json"), true);
        row("sweep", QStringLiteral("sweep DEV --ra 128,512 --size 8M --repeat 1"), true);
        row("sweep --json", QStringLiteral("sweep DEV --ra 128,512 --size 8M --repeat 1 --json"), true);
        row("monitor --json", QStringLiteral("monitor DEV --count 2 --interval 200ms --json"), true);
        row("diagnose --static", QStringLiteral("diagnose DEV --static"));
        row("diagnose --static --json", QStringLiteral("diagnose DEV --static --json"));
        // The host's history (this machine's, the agent sharing its database)
        // copied here and read: the rows above kept records in it.
        row("history", QStringLiteral("history --limit 5"));
        row("history --json", QStringLiteral("history --limit 3 --json"));
        row("history of no device", QStringLiteral("history --device nosuchdevice0"));
        // The agent's journal folder is this machine's (one
        // BLOCKTUNE_JOURNAL_DIR): named as restore names it here.
        row("metrics of no profile", QStringLiteral("metrics --profile nosuchprofile0"));
        row("restore, nothing to", QStringLiteral("restore"));
        row("restore --json, nothing to", QStringLiteral("restore --json"));
        // profile: the library and the udev rules are HOST's (paths named
        // HOST:PATH); PROFILE (saved from DEV at 768 before the row) and
        // TUNED are files here, read by this process.
        row("profile list", QStringLiteral("profile list"));
        row("profile list --json", QStringLiteral("profile list --json"));
        row("profile show", QStringLiteral("profile show database"));
        row("profile show --json", QStringLiteral("profile show database --json"));
        row("profile show of no profile", QStringLiteral("profile show nosuchprofile0"));
        row("profile show of a bad name", QStringLiteral("profile show ../x"));
        row("profile show FILE", QStringLiteral("profile show PROFILE"));
        row("profile save --file -", QStringLiteral("profile save --name rowtest --devices DEV --file -"));
        row("profile save", QStringLiteral("profile save --name rowsaved --devices DEV --force"));
        row("profile save, exists", QStringLiteral("profile save --name database --devices DEV --file PROFILE"));
        row("profile verify", QStringLiteral("profile verify PROFILE"));
        row("profile verify --json", QStringLiteral("profile verify PROFILE --json"));
        row("profile apply --dry-run", QStringLiteral("profile apply PROFILE --dry-run"));
        row("profile apply --dry-run --json", QStringLiteral("profile apply PROFILE --dry-run --json"));
        row("profile apply", QStringLiteral("profile apply PROFILE")); // reverted after each side
        row("profile revert, nothing to", QStringLiteral("profile revert --json"));
        row("profile revert --dry-run", QStringLiteral("profile revert --dry-run"));
        row("profile export udev", QStringLiteral("profile export PROFILE --format udev"));
        row("profile export tuned", QStringLiteral("profile export PROFILE --format tuned"));
        row("profile export kernel-settings", QStringLiteral("profile export PROFILE --format kernel-settings"));
        row("profile import", QStringLiteral("profile import TUNED --file -"));
        row("profile install --dry-run", QStringLiteral("profile install PROFILE --dry-run"));
        row("profile install --dry-run --json", QStringLiteral("profile install PROFILE --dry-run --json"));
        row("profile uninstall, none", QStringLiteral("profile uninstall nosuchprofile0"));
        row("profile uninstall --dry-run --json, none", QStringLiteral("profile uninstall nosuchprofile0 --dry-run --json"));
    }

    void hostCommandsPrintAsLocallyWithoutRun()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, measured);
        LoopDevice loop(32 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        args.replaceInStrings(QStringLiteral("DEV"), dev);
        const QString profileFile = path("row-profile.json");
        if (args.contains(u"PROFILE"_qs)) {
            QFile::remove(profileFile);
            QVERIFY(setQueue(dev, QStringLiteral("768")));
            const ProcessResult saved = cli({u"profile"_qs, u"save"_qs, u"--name"_qs, u"rowtest"_qs, u"--devices"_qs, dev,
                                             u"--file"_qs, profileFile});
            QVERIFY2(saved.exitCode == 0, saved.err.constData());
            args.replaceInStrings(QStringLiteral("PROFILE"), profileFile);
        }
        if (args.contains(u"TUNED"_qs)) {
            QVERIFY(QDir().mkpath(path("tuned/rowtuned")));
            QFile conf(path("tuned/rowtuned/tuned.conf"));
            QVERIFY(conf.open(QIODevice::WriteOnly | QIODevice::Truncate));
            conf.write("[main]\nsummary=a row's tuned profile\n[disk]\nreadahead=4096\nelevator=mq-deadline\n");
            conf.close();
            args.replaceInStrings(QStringLiteral("TUNED"), conf.fileName());
        }
        const bool applies = args.mid(0, 2) == QStringList{u"profile"_qs, u"apply"_qs} && !args.contains(u"--dry-run"_qs);
        const QString log = path("agent-requests.log");
        QFile::remove(log);
        const QString logged = u"tee -a "_qs + PrivateSshd::quote(log) + u" | "_qs + agentCommand();

        static const QRegularExpression bars(u"#+"_qs);
        static const QRegularExpression spaces(u" +"_qs);
        auto both = [&](const QStringList &a) {
            QVERIFY(setQueue(dev, QStringLiteral("256")));
            ProcessResult local = cli(a);
            if (applies)
                QCOMPARE(cli({u"profile"_qs, u"revert"_qs}).exitCode, 0);
            QVERIFY(setQueue(dev, QStringLiteral("256")));
            ProcessResult remote = cli(hostArgs({}, logged) + a);
            if (applies) {
                QCOMPARE(readAheadOf(dev), QStringLiteral("768")); // applied there
                QCOMPARE(cli({u"profile"_qs, u"revert"_qs}).exitCode, 0);
            }
            remote.out.replace(" (journal testhost:", " (journal ");
            // HOST's files (profiles, udev rules, a profile's state) are
            // named HOST:PATH; the agent here shares this machine's folders.
            remote.out.replace("testhost:/", "/");
            remote.err.replace("testhost:/", "/");
            // A host's profile library names the host in its refusals
            // (metrics --profile NAME): the rest is the same words.
            remote.err.replace("blocktune-cli: testhost: ", "blocktune-cli: ");
            if (a.constFirst() == u"profile") {
                remote.out = withoutOtherLoops(remote.out, dev);
                local.out = withoutOtherLoops(local.out, dev);
            }
            if (a.contains(u"--hold"_qs))
                QCOMPARE(readAheadOf(dev), QStringLiteral("256")); // what it held is restored there
            QCOMPARE(remote.exitCode, local.exitCode);
            QCOMPARE(remote.err, local.err);
            if (!measured)
                QCOMPARE(remote.out, local.out);
            else if (a.contains(u"--json"_qs))
                QCOMPARE(jsonDocumentsShape(remote.out), jsonDocumentsShape(local.out));
            else // a sweep's bars and its columns' widths follow the figures too
                QCOMPARE(withoutFigures(remote.out).replace(bars, u"#"_qs).replace(spaces, u" "_qs),
                         withoutFigures(local.out).replace(bars, u"#"_qs).replace(spaces, u" "_qs));
            QVERIFY(!remote.out.isEmpty() || !remote.err.isEmpty());
        };
        both(args);
        const QByteArray requests = readFile(log);
        QVERIFY2(requests.contains("\"op\":\"hello\""), requests.constData());
        QVERIFY2(!requests.contains("\"op\":\"run\""), requests.constData());
        // A command that names its devices mirrors those (op mirror), not
        // the whole host (op snapshot: a second or more on a big host).
        if (QStringList{u"get"_qs, u"set"_qs, u"test"_qs, u"sweep"_qs}.contains(args.constFirst()))
            QVERIFY2(!requests.contains("\"op\":\"snapshot\""), requests.constData());
        // What it measured is kept in the host's history as the CLI's.
        if (QStringList{u"test"_qs, u"sweep"_qs}.contains(args.constFirst())) {
            const ProcessResult kept = cli({u"history"_qs, u"--device"_qs, dev, u"--limit"_qs, u"1"_qs, u"--json"_qs});
            const QJsonArray records = QJsonDocument::fromJson(kept.out).object().value(u"records").toArray();
            QCOMPARE(records.size(), 1);
            QCOMPARE(records.first().toObject().value(u"source").toString(), u"cli"_qs);
        }
    }

    void treeHostListsAsLocallyAndMeasuresNothing()
    {
        const QString tree = recordedTree("scst-raid0-lvm");
        QVERIFY(QFileInfo::exists(tree));
        const QString log = path("agent-requests.log");
        QFile::remove(log);
        const QString agent = agentCommand(QStringLiteral("--sysroot ") + PrivateSshd::quote(tree) + QStringLiteral(" agent"));
        for (const QStringList &args : {QStringList{QStringLiteral("list")},
                                        QStringList{QStringLiteral("list"), QStringLiteral("--no-probe")}}) {
            const ProcessResult local = cli(QStringList{QStringLiteral("--sysroot"), tree} + args);
            QCOMPARE(local.exitCode, 0);
            const ProcessResult remote = cli(hostArgs({}, u"tee -a "_qs + PrivateSshd::quote(log) + u" | "_qs + agent) + args);
            QVERIFY2(remote.exitCode == 0, remote.err.constData());
            QVERIFY(local.out.count('\n') > 5);
            QCOMPARE(remote.out, local.out);
            QCOMPARE(remote.err, local.err);
        }
        // A host whose agent serves a recorded tree measures nothing, as
        // the tree here: static checks only, read tests refused.
        const QStringList diagnose{QStringLiteral("diagnose"), QStringLiteral("sda"), QStringLiteral("--json")};
        const ProcessResult localDiagnose = cli(QStringList{QStringLiteral("--sysroot"), tree} + diagnose);
        const ProcessResult remoteDiagnose = cli(hostArgs({}, agent) + diagnose);
        QCOMPARE(remoteDiagnose.exitCode, localDiagnose.exitCode);
        QCOMPARE(remoteDiagnose.out, localDiagnose.out);
        QVERIFY2(remoteDiagnose.err.contains("is a recorded tree: static checks only"), remoteDiagnose.err.constData());
        const QStringList test{QStringLiteral("test"), QStringLiteral("seq"), QStringLiteral("sda"), QStringLiteral("--size"),
                               QStringLiteral("8M")};
        const ProcessResult remoteTest = cli(hostArgs({}, agent) + test);
        QCOMPARE(remoteTest.exitCode, cli(QStringList{QStringLiteral("--sysroot"), tree} + test).exitCode);
        QVERIFY2(remoteTest.err.contains("is a recorded tree"), remoteTest.err.constData());
        QVERIFY(!readFile(log).contains("\"op\":\"run\""));
    }

    void listJsonEqualsLocalLive()
    {
        const QHash<QString, QByteArray> seqBefore = loopSequences();
        const ProcessResult before = cli({QStringLiteral("list"), QStringLiteral("--json")});
        const ProcessResult remote = cli(hostArgs() + QStringList{QStringLiteral("list"), QStringLiteral("--json")});
        const ProcessResult after = cli({QStringLiteral("list"), QStringLiteral("--json")});
        const QHash<QString, QByteArray> seqAfter = loopSequences();
        QCOMPARE(before.exitCode, 0);
        QCOMPARE(after.exitCode, 0);
        QVERIFY2(remote.exitCode == 0, remote.err.constData());
        QVERIFY(remote.out.startsWith("{\n"));
        const QString differs = listDisagreement(before.out, remote.out, after.out, seqBefore, seqAfter);
        QVERIFY2(differs.isEmpty(), qPrintable(u"list --json through the agent differs from the local one: "_qs + differs));
    }

    void setThroughAgentThenGet()
    {
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        const ProcessResult set = cli(hostArgs() + QStringList{QStringLiteral("set"), dev, QStringLiteral("read_ahead_kb=1536")});
        QVERIFY2(set.exitCode == 0, set.err.constData());
        QVERIFY2(set.out.contains("applied"), set.out.constData());
        const SysRoot root;
        QCOMPARE(root.readString(root.sysPath(QByteArray("block/" + dev.toLatin1() + "/queue/read_ahead_kb"))).valueOr({}),
                 QStringLiteral("1536"));
        const ProcessResult get = cli(hostArgs() + QStringList{QStringLiteral("get"), dev, QStringLiteral("--json")});
        QVERIFY2(get.exitCode == 0, get.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(get.out).object();
        QCOMPARE(o.value(u"read_ahead_kb").toInteger(), 1536);
        // What get prints there is what it prints here.
        QCOMPARE(cli(hostArgs() + QStringList{QStringLiteral("get"), dev}).out, cli({QStringLiteral("get"), dev}).out);
        // Bad input is refused there with the local message and exit code.
        const ProcessResult bad = cli(hostArgs() + QStringList{QStringLiteral("set"), dev, QStringLiteral("scheduler=cfq")});
        QCOMPARE(bad.exitCode, cli({QStringLiteral("set"), dev, QStringLiteral("scheduler=cfq")}).exitCode);
        QVERIFY2(bad.err.contains("scheduler 'cfq' is not available"), bad.err.constData());
    }

    void sweepThroughAgentRestores()
    {
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        QVERIFY(setQueue(dev, QStringLiteral("256")));
        const ProcessResult sweep = cli(hostArgs() + QStringList{QStringLiteral("sweep"), dev, QStringLiteral("--ra"),
                                                                 QStringLiteral("128,1024"), QStringLiteral("--size"),
                                                                 QStringLiteral("8M"), QStringLiteral("--repeat"),
                                                                 QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(sweep.exitCode == 0, sweep.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(sweep.out).object();
        QCOMPARE(o.value(u"points").toArray().size(), 2);
        QCOMPARE(o.value(u"points").toArray().at(1).toObject().value(u"read_ahead_kb").toInteger(), 1024);
        QCOMPARE(o.value(u"restored").toBool(), true);
        QCOMPARE(readAheadOf(dev), QStringLiteral("256"));
    }

    // ssh dropped mid-sweep: the agent sees its input end and restores.
    void killedSshMidSweepRestoresWithin2s()
    {
        LoopDevice loop(256 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        QVERIFY(setQueue(dev, QStringLiteral("256")));
        QProcess client;
        startLongSweep(client, dev);
        QCOMPARE(readAheadOf(dev), QStringLiteral("2048")); // the sweep runs on the agent
        QElapsedTimer t;
        const QList<qint64> ssh = childrenOf(client.processId());
        QCOMPARE(ssh.size(), 1);
        QVERIFY(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(ssh.constFirst())).endsWith(u"/ssh"));
        ::kill(pid_t(ssh.constFirst()), SIGKILL);
        t.restart();
        while (readAheadOf(dev) != u"256" && t.elapsed() < 5000)
            QThread::msleep(10);
        const qint64 restoredAfter = t.elapsed();
        qInfo("read_ahead_kb restored %lld ms after ssh was killed", restoredAfter);
        QVERIFY(client.waitForFinished(30000));
        QCOMPARE(readAheadOf(dev), QStringLiteral("256"));
        QVERIFY2(restoredAfter < 2000, qPrintable(QStringLiteral("restored after %1 ms").arg(restoredAfter)));
        QVERIFY(client.exitCode() != 0);
        QVERIFY2(client.readAllStandardError().contains("connection to testhost lost"), "the client says so");
    }

    // The class the console will use: RemoteSession over the same sshd,
    // blocking calls and the event-loop path (submit + signals).
    void remoteSessionServesAnEventLoop()
    {
        RemoteTarget target;
        target.host = QStringLiteral("testhost");
        target.sshConfig = m_sshd.sshConfig();
        target.remoteCommand = agentCommand(QStringLiteral("--sysroot ") + PrivateSshd::quote(recordedTree("md-raid10-f2"))
                                            + QStringLiteral(" agent"));
        RemoteSession session(target);
        const Status opened = session.open();
        QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(opened.error().message));
        QVERIFY(session.isOpen());
        QCOMPARE(session.hello().version, kAgentProtocolVersion);
        QCOMPARE(session.hello().writer, QStringLiteral("direct"));
        QCOMPARE(session.hello().user, QStringLiteral("root"));

        auto settings = session.call({{QStringLiteral("op"), QStringLiteral("settings")},
                                      {QStringLiteral("device"), QStringLiteral("md0")}});
        QVERIFY(settings.ok());
        QCOMPARE(settings->value(u"ok").toBool(), true);
        QCOMPARE(settings->value(u"settings").toObject().value(u"name").toString(), QStringLiteral("md0"));

        QSignalSpy events(&session, &RemoteSession::eventReceived);
        QSignalSpy answers(&session, &RemoteSession::answerReceived);
        const quint64 id = session.submit({{QStringLiteral("op"), QStringLiteral("monitor")},
                                           {QStringLiteral("interval_ms"), 50},
                                           {QStringLiteral("count"), 3}});
        QTRY_COMPARE_WITH_TIMEOUT(answers.size(), 1, 30000);
        QCOMPARE(answers.at(0).at(0).toULongLong(), id);
        QCOMPARE(answers.at(0).at(1).toJsonObject().value(u"ticks").toInt(), 3);
        QCOMPARE(events.size(), 3);
        QCOMPARE(events.at(2).at(1).toJsonObject().value(u"event").toString(), QStringLiteral("sample"));

        QSignalSpy lost(&session, &RemoteSession::connectionLost);
        session.close();
        QVERIFY(!session.isOpen());
        QCOMPARE(lost.size(), 0); // closed on purpose, not lost
    }

    void wrongHostKeyIsRefusedWithSshsMessage()
    {
        const ProcessResult r = cli(hostArgs({QStringLiteral("UserKnownHostsFile=") + m_sshd.file("wrong_known_hosts"),
                                              QStringLiteral("StrictHostKeyChecking=yes")})
                                    + QStringList{QStringLiteral("list"), QStringLiteral("--json")});
        QVERIFY(r.exitCode != 0);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("Host key verification failed."), r.err.constData());
        QVERIFY2(r.err.contains("blocktune-cli: could not reach the agent on testhost"), r.err.constData());
    }

    // An agent of another protocol version: refused at connect, naming both.
    void newerAgentIsRefused()
    {
        const QString fake = path("fake-agent.sh");
        QVERIFY(writeFile(fake,
                          "#!/bin/sh\nread line\n"
                          "echo '{\"id\":1,\"op\":\"hello\",\"ok\":true,\"program\":\"blocktune-cli agent\",\"version\":7}'\n"
                          "read line\n",
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const ProcessResult r = cli(hostArgs({}, fake) + QStringList{QStringLiteral("list")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(QStringLiteral("protocol mismatch: agent 7, client %1: upgrade blocktune on this machine")
                                    .arg(kAgentProtocolVersion).toUtf8()),
                 r.err.constData());
    }

    // A console follows a host's hotplug by asking its agent for a digest
    // every few seconds. An answer refused this time (a busy host) is asked
    // again at the next interval, and the change after it still reaches
    // the window; only an agent that cannot say (it does not know the op)
    // or a lost link ends the following, said with the agent's words. The
    // agent here answers block_devices with: a digest, a refusal, another
    // digest, then "unknown op".
    void hostHotplugSurvivesARefusedAnswer()
    {
        const QString fake = path("hotplug-agent.sh");
        QVERIFY(writeFile(fake,
                          "#!/bin/sh\n"
                          "n=0\n"
                          "while read -r line; do\n"
                          "  id=$(printf '%s' \"$line\" | sed -n 's/.*\"id\":\\([0-9]*\\).*/\\1/p')\n"
                          "  case $line in\n"
                          "  *'\"hello\"'*) echo \"{\\\"id\\\":$id,\\\"op\\\":\\\"hello\\\",\\\"ok\\\":true,"
                          "\\\"program\\\":\\\"blocktune-cli agent\\\",\\\"version\\\":"
                          + QByteArray::number(kAgentProtocolVersion) + "}\" ;;\n"
                          "  *block_devices*) n=$((n + 1))\n"
                          "    case $n in\n"
                          "    1) body='\"ok\":true,\"count\":3,\"digest\":\"aaaa\"' ;;\n"
                          "    2) body='\"ok\":false,\"code\":\"io\",\"error\":\"the host is busy\"' ;;\n"
                          "    3) body='\"ok\":true,\"count\":4,\"digest\":\"bbbb\"' ;;\n"
                          "    *) body='\"ok\":false,\"code\":\"invalid\",\"error\":\"unknown op block_devices\"' ;;\n"
                          "    esac\n"
                          "    echo \"{\\\"id\\\":$id,\\\"op\\\":\\\"block_devices\\\",$body}\" ;;\n"
                          "  esac\n"
                          "done\n",
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        RemoteTarget target;
        target.host = PrivateSshd::host();
        target.sshConfig = m_sshd.sshConfig();
        target.remoteCommand = fake;
        auto link = RemoteLink::connect(target);
        QVERIFY2(link, qPrintable(link ? QString() : link.error().message));
        HostDeviceWatcher watcher(*link, 200);
        QSignalSpy changed(&watcher, &HostDeviceWatcher::devicesChanged);
        QSignalSpy stopped(&watcher, &HostDeviceWatcher::stopped);
        watcher.start();
        QVERIFY(stopped.wait(30000));
        QCOMPARE(stopped.at(0).at(0).toString(), u"unknown op block_devices"_qs);
        // The refusal between the two digests ended nothing: the change
        // after it was told, once.
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toInt(), 4);
        QVERIFY(!watcher.isRunning());
    }

    // test seq through the agent prints what the local one prints, figures
    // aside, and changes nothing it did not restore.
    void testSeqThroughAgentHasLocalShape()
    {
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        QVERIFY(setQueue(dev, QStringLiteral("384")));
        const QStringList args{QStringLiteral("test"), QStringLiteral("seq"), dev, QStringLiteral("--size"),
                               QStringLiteral("8M"), QStringLiteral("--repeat"), QStringLiteral("2")};
        const ProcessResult local = cli(args + QStringList{QStringLiteral("--json")});
        const ProcessResult remote = cli(hostArgs() + args + QStringList{QStringLiteral("--json")});
        QVERIFY2(local.exitCode == 0, local.err.constData());
        QVERIFY2(remote.exitCode == 0, remote.err.constData());
        const QJsonObject l = QJsonDocument::fromJson(local.out).object();
        const QJsonObject r = QJsonDocument::fromJson(remote.out).object();
        QVERIFY(!r.isEmpty());
        QCOMPARE(r.value(u"runs").toArray().size(), 2);
        QCOMPARE(jsonShape(r), jsonShape(l));
        QCOMPARE(remote.err, local.err);

        const ProcessResult localText = cli(args);
        const ProcessResult remoteText = cli(hostArgs() + args);
        QCOMPARE(remoteText.exitCode, 0);
        QVERIFY2(remoteText.out.contains("a)") && remoteText.out.contains("b)"), remoteText.out.constData());
        QCOMPARE(withoutFigures(remoteText.out), withoutFigures(localText.out));
        QCOMPARE(readAheadOf(dev), QStringLiteral("384"));
    }

    // The client interrupted (SIGINT to it alone, as `kill -INT`): the
    // agent stops the sweep, restores, and its partial output and the
    // local exit status (128+2) arrive here.
    void sigintToClientStopsSweepThereAndRestores()
    {
        LoopDevice loop(256 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        QVERIFY(setQueue(dev, QStringLiteral("256")));
        QProcess client;
        startLongSweep(client, dev);
        QCOMPARE(readAheadOf(dev), QStringLiteral("2048"));
        QVERIFY2(signalProcess(client, SIGINT), "it had ended before the signal");
        QElapsedTimer t;
        t.start();
        QVERIFY(client.waitForFinished(30000));
        qInfo("the client ended %lld ms after SIGINT", t.elapsed());
        QCOMPARE(readAheadOf(dev), QStringLiteral("256"));
        QCOMPARE(client.exitStatus(), QProcess::NormalExit);
        QCOMPARE(client.exitCode(), 128 + SIGINT);
        const QByteArray err = client.readAllStandardError();
        QVERIFY2(err.contains("interrupted by SIGINT: results above are partial"), err.constData());
        QVERIFY2(client.readAllStandardOutput().contains("read_ahead_kb"), "the sweep's partial table arrives");
    }

    void monitorCountJsonThroughAgent()
    {
        LoopDevice loop(16 << 20, true);
        QVERIFY(loop.isValid());
        const ProcessResult r = cli(hostArgs() + QStringList{QStringLiteral("monitor"), loop.name(), QStringLiteral("--count"),
                                                             QStringLiteral("3"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        for (const QByteArray &line : lines) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QVERIFY2(!o.isEmpty(), line.constData());
            QCOMPARE(o.value(u"devices").toObject().keys(), QStringList{loop.name()});
            QVERIFY(o.value(u"devices").toObject().value(loop.name()).toObject().contains(u"read_mb_per_s"));
        }
    }

    // monitor until interrupted: SIGINT to the client ends it there (the
    // agent leaves) and here, exit 0 as a local Ctrl-C.
    void monitorEndsWhenClientIsInterrupted()
    {
        QProcess client;
        client.start(binary("blocktune-cli"), hostArgs() + QStringList{QStringLiteral("monitor"), QStringLiteral("--json"),
                                                                       QStringLiteral("--interval"), QStringLiteral("100ms")});
        QVERIFY(client.waitForStarted());
        QByteArray out;
        QElapsedTimer t;
        t.start();
        while (out.count('\n') < 3 && t.elapsed() < 20000 && client.state() == QProcess::Running) {
            client.waitForReadyRead(200);
            out += client.readAllStandardOutput();
        }
        QVERIFY2(out.count('\n') >= 3, client.readAllStandardError().constData());
        const QList<qint64> ssh = childrenOf(client.processId());
        QCOMPARE(ssh.size(), 1);
        QVERIFY2(signalProcess(client, SIGINT), "it had ended before the signal");
        QVERIFY(client.waitForFinished(30000));
        QCOMPARE(client.exitStatus(), QProcess::NormalExit);
        QCOMPARE(client.exitCode(), 0);
        QVERIFY2(!QFileInfo::exists(QStringLiteral("/proc/%1").arg(ssh.constFirst())), "ssh ended with the client");
    }

    // record through --host writes HOST's snapshot here, and it reads back
    // as HOST's list (on this test the same machine; others may attach and
    // detach loop devices meanwhile: compared as listDisagreement() does,
    // with HOST's list before and after). --no-probe on HOST's side,
    // as tst_record does: a snapshot has no filesystems to probe and no udev
    // database (on this VM the two lists are the same even without it).
    void recordThroughAgentReadsBackAsItsList()
    {
        const QString tarball = path("remote-snapshot.tar.gz");
        const QStringList list{QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--no-probe")};
        const QHash<QString, QByteArray> seqBefore = loopSequences();
        const ProcessResult before = cli(hostArgs() + list);
        const ProcessResult r = cli(hostArgs() + QStringList{QStringLiteral("record"), tarball});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QByteArray record = r.out;
        QVERIFY(QFileInfo(tarball).size() > 1000);
        QVERIFY(!QFileInfo::exists(tarball + QStringLiteral(".part")));
        const ProcessResult back = cli({QStringLiteral("--sysroot"), tarball, QStringLiteral("list"), QStringLiteral("--json")});
        QVERIFY2(back.exitCode == 0, back.err.constData());
        const ProcessResult after = cli(hostArgs() + list);
        const QHash<QString, QByteArray> seqAfter = loopSequences();
        QVERIFY(before.out.startsWith("{\n"));
        const QString differs = listDisagreement(before.out, back.out, after.out, seqBefore, seqAfter);
        QVERIFY2(differs.isEmpty(), qPrintable(u"the snapshot's list --json differs from the host's: "_qs + differs));
        // record's own summary line.
        QVERIFY2(QRegularExpression(QStringLiteral("^%1: [0-9]+ block devices, [0-9]+ files, [0-9]+ links\\n$")
                                        .arg(QRegularExpression::escape(tarball)))
                     .match(QString::fromUtf8(record))
                     .hasMatch(),
                 record.constData());
        // A bad name is refused here, before ssh runs.
        const ProcessResult bad = cli(hostArgs() + QStringList{QStringLiteral("record"), path("x.zip")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("does not end in .tar.gz"), bad.err.constData());
        QVERIFY(!QFileInfo::exists(path("x.zip")));
    }

    // `--host testhost readahead`: the host's probe through its agent (op
    // readahead). With --watch --json its first line says the probe counts,
    // then a dd of the test's own loop there shows in the whole run's line
    // as about 64 async windows of its read_ahead_kb (schema 1, as
    // locally); the table has the local table's shape; an agent serving a
    // recorded tree refuses it with words, exit 2, before anything loads.
    void readaheadThroughAHost()
    {
        if (!ReadaheadProbe::builtIn())
            QSKIP("built without BPF support (BLOCKTUNE_BPF off)");
        ReadaheadLoop loop;
        QVERIFY(loop.isValid());
        QVERIFY(loop.dropCache());
        QProcess watch;
        watch.start(binary("blocktune-cli"), hostArgs() + QStringList{u"readahead"_qs, loop.name(), u"--duration"_qs,
                                                                   u"8s"_qs, u"--watch"_qs, u"--interval"_qs,
                                                                   u"500ms"_qs, u"--json"_qs});
        QVERIFY(watch.waitForStarted());
        auto stop = qScopeGuard([&watch] {
            watch.kill();
            watch.waitForFinished();
        });
        for (int i = 0; i < 300 && !watch.canReadLine() && watch.state() == QProcess::Running; ++i)
            watch.waitForReadyRead(100);
        QVERIFY2(watch.canReadLine(), watch.readAllStandardError().constData());
        QVERIFY(loop.dd());
        QVERIFY(watch.waitForFinished(60000));
        QVERIFY2(watch.exitCode() == 0, watch.readAllStandardError().constData());
        const QList<QByteArray> lines = watch.readAllStandardOutput().trimmed().split('\n');
        QVERIFY(lines.size() >= 2);
        const QJsonObject o = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(o[u"schema"_qs].toInt(), 1);
        QVERIFY2(o[u"duration_s"_qs].toDouble() >= 7.5, lines.last().constData());
        QCOMPARE(o[u"devices"_qs].toObject().keys(), QStringList{loop.name()});
        const QJsonObject dev = o[u"devices"_qs][loop.name()].toObject();
        QCOMPARE(quint64(dev[u"read_ahead_kb"_qs].toInteger()), ReadaheadLoop::kReadAheadKiB);
        const qint64 async = dev[u"windows"_qs][u"async"_qs].toInteger();
        qInfo("--host readahead: %lld async windows of the loop, p50 %lld KiB", async,
              dev[u"window_kib"_qs][u"p50"_qs].toInteger());
        QVERIFY2(async >= 48 && async <= 80, QJsonDocument(dev).toJson().constData());
        QCOMPARE(quint64(dev[u"window_kib"_qs][u"p50"_qs].toInteger()), ReadaheadLoop::kReadAheadKiB);
        for (const char *key : {"windows", "window_kib", "at_cap", "pages", "wait_ms", "interleaved_restarts"})
            QVERIFY2(dev.contains(QLatin1StringView(key)), key);

        // The table: the local command's heading, columns and rows.
        const ProcessResult table = cli(hostArgs() + QStringList{u"readahead"_qs, loop.name(), u"--duration"_qs, u"1s"_qs});
        QVERIFY2(table.exitCode == 0, table.err.constData());
        QVERIFY2(table.out.startsWith("readahead over ") && table.out.contains(" s (windows from the kernel's "),
                 table.out.constData());
        QVERIFY2(table.out.contains(QByteArray(loop.name().toUtf8() + "  read_ahead_kb 1024\n")), table.out.constData());
        QVERIFY(table.out.contains("  kind     windows    sync  size p50/p90 KiB  at cap  read ahead      used    wasted   wait p50\n"));
        for (const char *kind : {"\n  sync ", "\n  async ", "\n  mmap ", "\n  forced ", "\n  all "})
            QVERIFY2(table.out.contains(kind), kind);

        // A host's agent serving a recorded tree has no kernel to watch.
        const QString tree = recordedTree("md-raid10-f2");
        const ProcessResult recorded = cli(hostArgs({}, agentCommand(u"--sysroot "_qs + PrivateSshd::quote(tree) + u" agent"_qs))
                                           + QStringList{u"readahead"_qs, u"--duration"_qs, u"1s"_qs});
        QCOMPARE(recorded.exitCode, 2);
        QCOMPARE(recorded.err, QByteArray("blocktune-cli: readahead: testhost's agent serves a recorded tree "
                                          "(--sysroot): it has no running kernel or workload to watch\n"));
        QVERIFY(recorded.out.isEmpty());
    }

    void diagnoseStaticThroughAgent()
    {
        LoopDevice loop(32 << 20, true);
        QVERIFY(loop.isValid());
        for (const QStringList &args : {QStringList{QStringLiteral("diagnose"), loop.name(), QStringLiteral("--static")},
                                        QStringList{QStringLiteral("diagnose"), loop.name(), QStringLiteral("--static"),
                                                    QStringLiteral("--json")}}) {
            const ProcessResult local = cli(args);
            const ProcessResult remote = cli(hostArgs() + args);
            QVERIFY2(remote.exitCode == 0, remote.err.constData());
            QCOMPARE(remote.exitCode, local.exitCode);
            QVERIFY(!remote.out.isEmpty());
            QCOMPARE(remote.out, local.out);
            QCOMPARE(remote.err, local.err);
        }
        // A preset profile shown there is the one shown here.
        const QStringList show{QStringLiteral("profile"), QStringLiteral("show"), QStringLiteral("database"),
                               QStringLiteral("--json")};
        const ProcessResult profile = cli(hostArgs() + show);
        QVERIFY2(profile.exitCode == 0, profile.err.constData());
        QCOMPARE(profile.out, cli(show).out);
    }

    // A file named in profile's arguments is one here, on the user's
    // machine (the host is this machine too, so the agent's request log
    // says who wrote it): profile save --file writes it in this process,
    // as the local one prints it, and the agent is asked for no file.
    void profileFileIsAFileHere()
    {
        LoopDevice loop(16 << 20, true);
        QVERIFY(loop.isValid());
        const QString file = path("remote-profile.json");
        QFile::remove(file);
        const QString log = path("profile-file-requests.log");
        QFile::remove(log);
        const QString logged = u"tee -a "_qs + PrivateSshd::quote(log) + u" | "_qs + agentCommand();
        const QStringList save{QStringLiteral("profile"), QStringLiteral("save"), QStringLiteral("--name"),
                               QStringLiteral("remote-test"), QStringLiteral("--devices"), loop.name(), QStringLiteral("--file")};
        const ProcessResult remote = cli(hostArgs({}, logged) + save + QStringList{file});
        QVERIFY2(remote.exitCode == 0, remote.err.constData());
        QCOMPARE(remote.out, QByteArray("saved 1 rule as " + file.toUtf8() + '\n'));
        const ProcessResult local = cli(save + QStringList{QStringLiteral("-")});
        QCOMPARE(local.exitCode, 0);
        QVERIFY(local.out.contains("\"remote-test\""));
        QCOMPARE(readFile(file), local.out);
        // It exists now: saving again is refused, with the local message.
        const ProcessResult again = cli(hostArgs({}, logged) + save + QStringList{file});
        QCOMPARE(again.exitCode, cli(save + QStringList{file}).exitCode);
        QVERIFY2(again.err.contains("exists already"), again.err.constData());
        // The file shown, exported and applied is read here too.
        const ProcessResult exported = cli(hostArgs({}, logged) + QStringList{u"profile"_qs, u"export"_qs, file, u"--format"_qs,
                                                                            u"udev"_qs, u"--output"_qs, path("remote.rules")});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QVERIFY(readFile(path("remote.rules")).contains(loop.name().toUtf8()));
        const QByteArray requests = readFile(log);
        QVERIFY2(requests.contains("\"op\":\"hello\""), requests.constData());
        for (const char *op : {"\"op\":\"run\"", "\"op\":\"save_profile\"", "\"op\":\"profile\""})
            QVERIFY2(!requests.contains(op), requests.constData());
    }

    // metrics runs here on the host's Machine (no op run): HOST's settings,
    // and --textfile-dir is a folder here, written by this process.
    void metricsThroughHostWritesTheTextfileHere()
    {
        LoopDevice loop(16 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        QVERIFY(setQueue(dev, QStringLiteral("768")));
        const QString log = path("metrics-requests.log");
        QFile::remove(log);
        const QString logged = u"tee -a "_qs + PrivateSshd::quote(log) + u" | "_qs + agentCommand();
        QTemporaryDir here;
        const ProcessResult r = cli(hostArgs({}, logged) + QStringList{u"metrics"_qs, u"--textfile-dir"_qs, here.path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QByteArray prom = readFile(here.filePath(u"blocktune.prom"_qs));
        QVERIFY2(prom.contains(QStringLiteral("blocktune_read_ahead_bytes{device=\"%1\"} %2\n").arg(dev).arg(768 * 1024).toUtf8()),
                 prom.constData());
        const QByteArray requests = readFile(log);
        QVERIFY2(!requests.contains("\"op\":\"run\""), requests.constData());
    }

    // advise runs here on the host's Machine (no op run): it sweeps
    // readahead through the agent's session, restores it, and its advice
    // is kept in the host's history as the CLI's (op keep_advice).
    void adviseThroughAgentRestores()
    {
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        QVERIFY(setQueue(dev, QStringLiteral("256")));
        const QString log = path("advise-requests.log");
        QFile::remove(log);
        const QString logged = u"tee -a "_qs + PrivateSshd::quote(log) + u" | "_qs + agentCommand();
        const ProcessResult r = cli(hostArgs({}, logged) + QStringList{QStringLiteral("advise"), dev, QStringLiteral("--budget"),
                                                                        QStringLiteral("7s"), QStringLiteral("--json")});
        const QByteArray requests = readFile(log);
        QVERIFY2(!requests.contains("\"op\":\"run\""), requests.constData());
        QVERIFY2(requests.contains("\"op\":\"keep_advice\""), requests.constData());
        const ProcessResult kept = cli({u"history"_qs, u"--device"_qs, dev, u"--limit"_qs, u"1"_qs, u"--json"_qs});
        const QJsonObject record = QJsonDocument::fromJson(kept.out).object().value(u"records").toArray().first().toObject();
        QCOMPARE(record.value(u"kind").toString(), u"advice"_qs);
        QCOMPARE(record.value(u"source").toString(), u"cli"_qs);
        // 3: no steady answer (the machine read at two speeds meanwhile), an
        // answer too; what this is about is the restore.
        QVERIFY2(r.exitCode == 0 || r.exitCode == 3, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(u"cancelled").toBool(true), false);
        QVERIFY(o.value(u"curve").toArray().size() >= 2);
        QVERIFY(o.value(u"best_read_ahead_kb").toInteger() > 0);
        QCOMPARE(readAheadOf(dev), QStringLiteral("256"));
    }

    // A user who is not root there and may not run the helper with sudo -n:
    // reads work, every write is refused with why and the sudoers line, and
    // nothing changes.
    void nonRootUserWithoutSudoRuleIsReadOnly()
    {
        LoopDevice loop(16 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        QVERIFY(setQueue(dev, QStringLiteral("256")));
        ThrowawayUser throwaway(m_sshd, QStringLiteral("btro"));
        QVERIFY2(throwaway.error().isEmpty(), qPrintable(throwaway.error()));
        const QString user = throwaway.name();
        const QString agent = throwaway.agentCommand();
        auto asUser = [&](const QStringList &command) {
            return cli(QStringList{QStringLiteral("--host"), user + QStringLiteral("@testhost"), QStringLiteral("--ssh-config"),
                                   m_sshd.sshConfig(), QStringLiteral("--remote-command"), agent}
                       + command);
        };

        const ProcessResult get = asUser({QStringLiteral("get"), dev, QStringLiteral("--json")});
        QVERIFY2(get.exitCode == 0, get.err.constData());
        QCOMPARE(QJsonDocument::fromJson(get.out).object().value(u"read_ahead_kb").toInteger(), 256);

        const ProcessResult set = asUser({QStringLiteral("set"), dev, QStringLiteral("read_ahead_kb=2048")});
        QVERIFY(set.exitCode != 0);
        QVERIFY2(set.err.contains(QByteArray("read-only: " + user.toUtf8() + " is not root here")), set.err.constData());
        QVERIFY2(set.err.contains(QByteArray(user.toUtf8() + " ALL=(root) NOPASSWD: ")), set.err.constData());
        QCOMPARE(readAheadOf(dev), QStringLiteral("256"));
        // advise's temporary changes take the same road, and are refused the same way.
        const ProcessResult advise = asUser({QStringLiteral("advise"), dev, QStringLiteral("--budget"), QStringLiteral("7s")});
        QVERIFY(advise.exitCode != 0);
        QVERIFY2(advise.err.contains("read-only: "), advise.err.constData());
        QCOMPARE(readAheadOf(dev), QStringLiteral("256"));

        // The greeting says so before any write.
        RemoteTarget target;
        target.host = user + QStringLiteral("@testhost");
        target.sshConfig = m_sshd.sshConfig();
        target.remoteCommand = agent;
        RemoteSession session(target);
        const Status opened = session.open();
        QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(opened.error().message));
        QCOMPARE(session.hello().user, user);
        QCOMPARE(session.hello().writer, QStringLiteral("none"));
        QVERIFY2(session.hello().readOnlyReason.startsWith(u"read-only: "), qPrintable(session.hello().readOnlyReason));
        session.close();
    }

    // With Debian's real sudo and the sudoers line docs/cli.md gives, a
    // user who is not root there writes through `sudo -n blocktune-helper`:
    // the change lands on the device, as root's would.
    void nonRootUserWithSudoRuleWritesThroughTheHelper()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("sudo")).isEmpty()
            || QStandardPaths::findExecutable(QStringLiteral("visudo")).isEmpty()) {
            if (rootRequired())
                QFAIL("BLOCKTUNE_REQUIRE_ROOT=1 forbids skipping: sudo is not installed (scripts/bootstrap.sh installs it)");
            QSKIP("sudo is not installed");
        }
        LoopDevice loop(16 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        QVERIFY(setQueue(dev, QStringLiteral("256")));
        ThrowawayUser throwaway(m_sshd, QStringLiteral("btsu"));
        QVERIFY2(throwaway.error().isEmpty(), qPrintable(throwaway.error()));
        const QString user = throwaway.name();
        const QString sudoers = QStringLiteral("/etc/sudoers.d/blocktune-test-%1").arg(user);
        const auto cleanUp = qScopeGuard([&] { QFile::remove(sudoers); });
        // The line the read-only answer names (docs/cli.md, "Remote hosts").
        const QString helper = QDir::cleanPath(binary("blocktune-helper"));
        QFile rule(sudoers);
        QVERIFY(rule.open(QIODevice::WriteOnly));
        rule.write(QStringLiteral("%1 ALL=(root) NOPASSWD: %2 \"\"\n").arg(user, helper).toUtf8()); // docs/cli.md's line
        rule.close();
        QVERIFY(QFile::setPermissions(sudoers, QFile::ReadOwner | QFile::ReadGroup));
        const ProcessResult checked = run(QStringLiteral("visudo"), {QStringLiteral("-c"), QStringLiteral("-f"), sudoers});
        QVERIFY2(checked.exitCode == 0, checked.err.constData());
        // The private sshd runs without PAM, so no XDG_RUNTIME_DIR: the
        // user's journals go to a private folder of theirs, as
        // /run/user/UID would be after a PAM login.
        QTemporaryDir journals;
        QVERIFY(journals.isValid());
        QVERIFY(run(QStringLiteral("chown"), {user, journals.path()}).exitCode == 0);
        const QString agent = throwaway.agentCommand(journals.path());

        RemoteTarget target;
        target.host = user + QStringLiteral("@testhost");
        target.sshConfig = m_sshd.sshConfig();
        target.remoteCommand = agent;
        RemoteSession session(target);
        const Status opened = session.open();
        QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(opened.error().message));
        QCOMPARE(session.hello().writer, QStringLiteral("blocktune-helper (sudo -n)"));
        QVERIFY2(session.hello().readOnlyReason.isEmpty(), qPrintable(session.hello().readOnlyReason));
        session.close();

        const ProcessResult set = cli(QStringList{QStringLiteral("--host"), target.host, QStringLiteral("--ssh-config"),
                                                  m_sshd.sshConfig(), QStringLiteral("--remote-command"), agent,
                                                  QStringLiteral("set"), dev, QStringLiteral("read_ahead_kb=2048")});
        QVERIFY2(set.exitCode == 0, set.err.constData());
        QCOMPARE(readAheadOf(dev), QStringLiteral("2048"));
    }

private:
    /// `--host ... sweep DEV --ra 2048,4096,8192 --time 20s` started, back
    /// once its first value is set on DEV (from 256) or it ended.
    void startLongSweep(QProcess &client, const QString &dev)
    {
        client.start(binary("blocktune-cli"),
                     hostArgs() + QStringList{QStringLiteral("sweep"), dev, QStringLiteral("--ra"),
                                              QStringLiteral("2048,4096,8192"), QStringLiteral("--time"),
                                              QStringLiteral("20s"), QStringLiteral("--repeat"), QStringLiteral("1")});
        if (!client.waitForStarted())
            return;
        QElapsedTimer t;
        t.start();
        while (readAheadOf(dev) == u"256" && t.elapsed() < 30000 && client.state() == QProcess::Running)
            QThread::msleep(20);
    }

    static QString readAheadOf(const QString &dev)
    {
        const SysRoot root;
        return root.readString(root.sysPath(QByteArray("block/" + dev.toLatin1() + "/queue/read_ahead_kb"))).valueOr({});
    }
    static bool setQueue(const QString &dev, const QString &ra)
    {
        const SysRoot root;
        return root.writeAttribute(root.sysPath(QByteArray("block/" + dev.toLatin1() + "/queue/read_ahead_kb")), ra).ok();
    }
};

QTEST_GUILESS_MAIN(TestRemote)
#include "tst_remote.moc"
