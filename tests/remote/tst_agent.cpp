// `blocktune-cli agent` over plain pipes (no ssh): the greeting and its
// version check, requests before it, the session's ops on a copied
// recorded tree, streamed monitor samples and stop, and the restore of
// temporary changes when the input ends or a signal arrives.
#include "readaheadloop.h"
#include "testloop.h"
#include "testsupport.h"

#include "monitor/monitor.h"

#include "readahead/readahead.h"
#include "remote/remote.h"

#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QByteArray line(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QJsonObject hello(int version = kAgentProtocolVersion)
{
    return {{QStringLiteral("op"), QStringLiteral("hello")}, {QStringLiteral("id"), 1}, {QStringLiteral("version"), version}};
}

/// An agent on a pipe: requests in, answer lines out.
class Agent
{
public:
    explicit Agent(const QStringList &globalArgs = {})
    {
        m_p.start(binary("blocktune-cli"), globalArgs + QStringList{QStringLiteral("agent")});
    }
    ~Agent()
    {
        if (m_p.state() != QProcess::NotRunning) {
            m_p.kill();
            m_p.waitForFinished();
        }
    }
    void send(const QJsonObject &o) { m_p.write(line(o)); }
    /// The next line from the agent (empty object after 10 s or at its end).
    QJsonObject next(int timeoutMs = 10000)
    {
        QElapsedTimer t;
        t.start();
        while (!m_p.canReadLine() && t.elapsed() < timeoutMs)
            if (!m_p.waitForReadyRead(100) && m_p.state() == QProcess::NotRunning)
                break;
        if (!m_p.canReadLine())
            return {};
        return QJsonDocument::fromJson(m_p.readLine()).object();
    }
    /// Lines up to and including the answer to `id`.
    QList<QJsonObject> until(int id)
    {
        QList<QJsonObject> out;
        for (QJsonObject o = next(); !o.isEmpty(); o = next()) {
            out << o;
            if (o.value(u"id").toInt() == id && !o.contains(u"event"))
                break;
        }
        return out;
    }
    QProcess &process() { return m_p; }

private:
    QProcess m_p;
};

QString readAttr(const QString &tree, const QString &rel)
{
    QFile f(tree + u'/' + rel);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

QJsonObject applyTemporary(int id, const QString &device, const QString &value)
{
    return {{QStringLiteral("op"), QStringLiteral("apply_temporary")},
            {QStringLiteral("id"), id},
            {QStringLiteral("changes"),
             QJsonArray{QJsonObject{{QStringLiteral("device"), device},
                                    {QStringLiteral("key"), QStringLiteral("read_ahead_kb")},
                                    {QStringLiteral("value"), value}}}}};
}

/// BLOCKTUNE_HISTORY_DB set to `file` while it lives (for the processes
/// started meanwhile: an agent, the CLI reading what it kept).
class HistoryDbFor final
{
public:
    explicit HistoryDbFor(const QString &file)
        : m_had(qEnvironmentVariableIsSet("BLOCKTUNE_HISTORY_DB")), m_before(qgetenv("BLOCKTUNE_HISTORY_DB"))
    {
        qputenv("BLOCKTUNE_HISTORY_DB", file.toLocal8Bit());
    }
    ~HistoryDbFor()
    {
        if (m_had)
            qputenv("BLOCKTUNE_HISTORY_DB", m_before);
        else
            qunsetenv("BLOCKTUNE_HISTORY_DB");
    }
    Q_DISABLE_COPY_MOVE(HistoryDbFor)

private:
    bool m_had;
    QByteArray m_before;
};

/// On a copy of a recorded tree, in a journal folder of the test's own (set
/// for the processes started while it lives): sdb left at 4096 by a
/// `set --hold` that was killed (its journal dead), sdc held at 64 by one
/// that still runs (its journal not).
class DeadAndLiveJournals final
{
public:
    DeadAndLiveJournals()
    {
        m_hadJournalDir = qEnvironmentVariableIsSet("BLOCKTUNE_JOURNAL_DIR");
        m_journalDir = qgetenv("BLOCKTUNE_JOURNAL_DIR");
        if (!m_tree.isValid() || !m_journals.isValid() || !copyTree(recordedTree("md-raid10-f2"), m_tree.path()))
            return;
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
        QProcess killed;
        if (!startHold(killed, {QStringLiteral("--sysroot"), m_tree.path(), QStringLiteral("set"), QStringLiteral("sdb"),
                                QStringLiteral("read_ahead_kb=4096"), QStringLiteral("--hold"), QStringLiteral("60")}))
            return;
        killed.kill(); // SIGKILL: no chance to restore
        killed.waitForFinished(10000);
        const QStringList dead = journals();
        if (dead.size() != 1
            || !startHold(m_holding, {QStringLiteral("--sysroot"), m_tree.path(), QStringLiteral("set"), QStringLiteral("sdc"),
                                      QStringLiteral("read_ahead_kb=64"), QStringLiteral("--hold"), QStringLiteral("60")}))
            return;
        m_dead = m_journals.filePath(dead.at(0));
        for (const QString &name : journals())
            if (name != dead.at(0))
                m_live = m_journals.filePath(name);
    }
    ~DeadAndLiveJournals()
    {
        if (m_holding.state() != QProcess::NotRunning) {
            m_holding.terminate(); // it restores sdc as it ends
            m_holding.waitForFinished(10000);
        }
        if (m_hadJournalDir)
            qputenv("BLOCKTUNE_JOURNAL_DIR", m_journalDir);
        else
            qunsetenv("BLOCKTUNE_JOURNAL_DIR");
    }
    Q_DISABLE_COPY_MOVE(DeadAndLiveJournals)

    bool isValid() const { return !m_dead.isEmpty() && !m_live.isEmpty(); }
    QString tree() const { return m_tree.path(); }
    QString journalDir() const { return m_journals.path(); }
    QString deadJournal() const { return m_dead; }
    QString liveJournal() const { return m_live; }
    QStringList journals() const
    {
        return QDir(m_journals.path()).entryList({QStringLiteral("blocktune-*.json")}, QDir::Files, QDir::Name);
    }
    QString readAhead(const QString &disk) const
    {
        return readAttr(m_tree.path(), QStringLiteral("sys/class/block/%1/queue/read_ahead_kb").arg(disk));
    }

private:
    QTemporaryDir m_tree;
    QTemporaryDir m_journals;
    QProcess m_holding;
    QString m_dead;
    QString m_live;
    bool m_hadJournalDir = false;
    QByteArray m_journalDir;
};

} // namespace

class TestAgent : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void helloNamesProgramVersionAndWriter()
    {
        Agent agent({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")});
        agent.send(hello());
        const QJsonObject o = agent.next();
        QCOMPARE(o.value(u"ok").toBool(), true);
        QCOMPARE(o.value(u"id").toInt(), 1);
        QCOMPARE(o.value(u"program").toString(), QStringLiteral("blocktune-cli agent"));
        QCOMPARE(o.value(u"version").toInt(), kAgentProtocolVersion);
        QCOMPARE(o.value(u"writer").toString(), QStringLiteral("direct")); // a recorded tree is plain files
        QVERIFY(o.value(u"ops").toArray().contains(QStringLiteral("apply_temporary")));
    }

    void versionMismatchIsRefusedNamingBoth()
    {
        Agent agent;
        agent.send(hello(kAgentProtocolVersion + 1));
        const QJsonObject o = agent.next();
        QCOMPARE(o.value(u"ok").toBool(), false);
        QCOMPARE(o.value(u"code").toString(), QStringLiteral("version"));
        const QString expected = QStringLiteral("protocol mismatch: agent %1, client %2: upgrade blocktune on ")
                                     .arg(kAgentProtocolVersion)
                                     .arg(kAgentProtocolVersion + 1);
        QVERIFY2(o.value(u"error").toString().startsWith(expected), qPrintable(o.value(u"error").toString()));
        QVERIFY(o.value(u"error").toString().contains(u"(the agent is older)"));
        // Nothing is served after a refused greeting.
        agent.send({{QStringLiteral("op"), QStringLiteral("list")}, {QStringLiteral("id"), 2}});
        QCOMPARE(agent.next().value(u"code").toString(), QStringLiteral("refused"));
    }

    void requestsBeforeHelloAndGarbageAreRefused()
    {
        Agent agent;
        agent.send({{QStringLiteral("op"), QStringLiteral("settings")}, {QStringLiteral("id"), 5}});
        QJsonObject o = agent.next();
        QCOMPARE(o.value(u"id").toInt(), 5);
        QCOMPARE(o.value(u"ok").toBool(), false);
        QVERIFY(o.value(u"error").toString().contains(u"hello"));
        agent.process().write("not json\n");
        o = agent.next();
        QVERIFY(o.value(u"error").toString().startsWith(u"request is not a JSON object"));
        agent.process().write(QByteArray(kAgentMaxRequest + 10, 'x') + '\n');
        o = agent.next();
        QCOMPARE(o.value(u"error").toString(), QStringLiteral("request longer than %1 bytes refused").arg(kAgentMaxRequest));
        agent.send(hello());
        QCOMPARE(agent.next().value(u"ok").toBool(), true);
        agent.send({{QStringLiteral("op"), QStringLiteral("format_disk")}, {QStringLiteral("id"), 6}});
        o = agent.next();
        QVERIFY2(o.value(u"error").toString().startsWith(u"unknown op 'format_disk' (ops: hello, stop,"),
                 qPrintable(o.value(u"error").toString()));
    }

    // Issue 36: QJsonDocument keeps the last of two equal keys, so
    // {"op":"list","op":"stop"} was a stop that read like a list. Refused
    // naming the key, at any depth (a plan's entries too), escapes decoded.
    void duplicateKeysAreRefusedNamingTheKey_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<QString>("key");
        QTest::newRow("op twice") << QByteArray("{\"op\":\"list\",\"id\":7,\"op\":\"stop\"}") << u"op"_qs;
        QTest::newRow("op escaped") << QByteArray("{\"op\":\"list\",\"id\":7,\"o\\u0070\":\"stop\"}") << u"op"_qs;
        QTest::newRow("in a plan entry")
            << QByteArray("{\"op\":\"apply\",\"id\":7,\"changes\":[{\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\","
                          "\"value\":\"128\",\"value\":\"4096\"}]}")
            << u"value"_qs;
    }
    void duplicateKeysAreRefusedNamingTheKey()
    {
        QFETCH(QByteArray, request);
        QFETCH(QString, key);
        Agent agent;
        agent.send(hello());
        QCOMPARE(agent.next().value(u"ok").toBool(), true);
        agent.process().write(request + '\n');
        const QJsonObject o = agent.next();
        QCOMPARE(o.value(u"ok").toBool(), false);
        QVERIFY2(o.value(u"error").toString().startsWith(u"field '%1' appears twice in one object of the request"_qs.arg(key)),
                 qPrintable(o.value(u"error").toString()));
        // Still in step, still there: the stop was not carried out.
        agent.send({{QStringLiteral("op"), QStringLiteral("list")}, {QStringLiteral("id"), 8}});
        const QJsonObject next = agent.next();
        QCOMPARE(next.value(u"id").toInt(), 8);
        QCOMPARE(next.value(u"ok").toBool(), true);
    }

    // Protocol 4 has no op "run" (protocol 3 ran a whole blocktune-cli
    // command line there as the ssh user, which could write files with
    // `profile save --file`): refused, naming the ops there are, and
    // nothing of it ran (no output events, the file it names not made).
    void runOpIsRefusedNamingTheOpsAndRunsNothing()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"written-by-run.json"_qs);
        Agent agent({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")});
        agent.send(hello());
        const QJsonObject greeted = agent.next();
        QCOMPARE(greeted.value(u"ok").toBool(), true);
        QVERIFY(!greeted.value(u"ops").toArray().contains(u"run"_qs));
        QVERIFY(!greeted.contains(u"commands"));
        agent.send({{u"op"_qs, u"run"_qs}, {u"id"_qs, 9}, {u"command"_qs, u"profile"_qs},
                    {u"args"_qs, QJsonArray{u"save"_qs, u"--name"_qs, u"x"_qs, u"--file"_qs, file}}});
        const QList<QJsonObject> lines = agent.until(9);
        QCOMPARE(lines.size(), 1); // the answer alone: no "out" or "err" of a command
        const QJsonObject a = lines.constFirst();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QCOMPARE(a.value(u"code").toString(), u"not_supported"_qs);
        const QString error = a.value(u"error").toString();
        QVERIFY2(error.startsWith(u"op 'run' is gone since protocol 4: this agent runs no command lines"_qs), qPrintable(error));
        for (const QJsonValue &op : greeted.value(u"ops").toArray())
            QVERIFY2(error.contains(op.toString()), qPrintable(op.toString() + u" not named in: "_qs + error));
        QVERIFY(!QFileInfo::exists(file));
        agent.send({{u"op"_qs, u"list"_qs}, {u"id"_qs, 10}});
        QCOMPARE(agent.until(10).constLast().value(u"ok").toBool(), true);
        QCOMPARE(agent.process().state(), QProcess::Running);
    }

    void listOpIsTheModelListJsonPrints()
    {
        const QString tree = recordedTree("scst-raid0-lvm");
        Agent agent({QStringLiteral("--sysroot"), tree});
        agent.send(hello());
        agent.next();
        agent.send({{QStringLiteral("op"), QStringLiteral("list")}, {QStringLiteral("id"), 2}});
        const QJsonObject o = agent.next();
        QCOMPARE(o.value(u"ok").toBool(), true);
        const ProcessResult local = run(binary("blocktune-cli"), {QStringLiteral("--sysroot"), tree, QStringLiteral("list"),
                                                                 QStringLiteral("--json")});
        QCOMPARE(QJsonDocument(o.value(u"model").toObject()).toJson(QJsonDocument::Indented), local.out);
    }

    // Op "mirror": the named devices and every device they stack with, as
    // files the client writes into its mirror; what the CLI then reads there
    // is what it reads on the whole tree (the referee), and nothing else of
    // the host is there.
    void mirrorOpHoldsTheNamedDevicesAndTheirStack_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<QStringList>("asked");
        QTest::addColumn<QStringList>("devices"); // what the mirror's list --json names, sorted
        const QStringList raid0Lvm{u"dm-0"_qs, u"dm-1"_qs, u"dm-2"_qs, u"md0"_qs,
                                   u"sdb"_qs,  u"sdb1"_qs, u"sdc"_qs,  u"sdc1"_qs};
        QTest::newRow("an lv: its md, partitions, disks, sibling lvs")
            << u"scst-raid0-lvm"_qs << QStringList{u"dm-1"_qs} << raid0Lvm;
        QTest::newRow("a member partition: the same stack") << u"scst-raid0-lvm"_qs << QStringList{u"sdb1"_qs} << raid0Lvm;
        QTest::newRow("a partition: its disk and siblings")
            << u"md-raid10-f2"_qs << QStringList{u"sda2"_qs} << QStringList{u"sda"_qs, u"sda1"_qs, u"sda2"_qs};
        QTest::newRow("a by-id link") << u"md-raid10-f2"_qs
                                      << QStringList{u"/dev/disk/by-id/ata-ST2000NM0033-9ZM175_Z1X0A1B2"_qs}
                                      << QStringList{u"md0"_qs, u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs,
                                                     u"sdf"_qs, u"sdg"_qs, u"sdh"_qs, u"sdi"_qs};
        QTest::newRow("no such device") << u"md-raid10-f2"_qs << QStringList{u"sdz"_qs} << QStringList{};
        QTest::newRow("a name leaving sys/") << u"md-raid10-f2"_qs << QStringList{u"../../../etc"_qs} << QStringList{};
        QTest::newRow("a /dev path leaving dev/") << u"md-raid10-f2"_qs << QStringList{u"/dev/../../etc/passwd"_qs}
                                                  << QStringList{};
    }
    void mirrorOpHoldsTheNamedDevicesAndTheirStack()
    {
        QFETCH(QString, tree);
        QFETCH(QStringList, asked);
        QFETCH(QStringList, devices);
        const QString root = recordedTree(tree.toLatin1().constData());
        Agent agent({QStringLiteral("--sysroot"), root});
        agent.send(hello());
        agent.next();
        agent.send({{QStringLiteral("op"), QStringLiteral("mirror")},
                    {QStringLiteral("id"), 2},
                    {QStringLiteral("devices"), QJsonArray::fromStringList(asked)}});
        const QJsonObject a = agent.next();
        QVERIFY2(a.value(u"ok").toBool(), qPrintable(a.value(u"error").toString()));
        QTemporaryDir mirror;
        QVERIFY(writeSnapshotJson(mirror.path(), a));
        const ProcessResult listed = run(binary("blocktune-cli"), {QStringLiteral("--sysroot"), mirror.path(),
                                                                   QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(listed.exitCode, 0);
        QStringList names;
        for (const QJsonValue &d : QJsonDocument::fromJson(listed.out).object().value(u"devices").toArray())
            names << d.toObject().value(u"name").toString();
        names.sort();
        QCOMPARE(names, devices);
        for (const QString &name : devices) {
            const QStringList get{QStringLiteral("get"), name, QStringLiteral("--json")};
            QCOMPARE(run(binary("blocktune-cli"), QStringList{QStringLiteral("--sysroot"), mirror.path()} + get).out,
                     run(binary("blocktune-cli"), QStringList{QStringLiteral("--sysroot"), root} + get).out);
        }
    }

    void mirrorOpRefusesWhatIsNotAListOfNames_data()
    {
        QTest::addColumn<QJsonValue>("devices");
        QJsonArray tooMany;
        for (int i = 0; i < 257; ++i)
            tooMany.append(u"sda"_qs);
        QTest::newRow("none") << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("an empty list (the whole host is op snapshot)") << QJsonValue(QJsonArray{});
        QTest::newRow("a name, not a list") << QJsonValue(u"sdb"_qs);
        QTest::newRow("a number in it") << QJsonValue(QJsonArray{u"sdb"_qs, 7});
        QTest::newRow("an empty name") << QJsonValue(QJsonArray{QString()});
        QTest::newRow("257 names") << QJsonValue(tooMany);
    }
    void mirrorOpRefusesWhatIsNotAListOfNames()
    {
        QFETCH(QJsonValue, devices);
        Agent agent({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")});
        agent.send(hello());
        agent.next();
        QJsonObject request{{QStringLiteral("op"), QStringLiteral("mirror")}, {QStringLiteral("id"), 2}};
        if (!devices.isUndefined())
            request.insert(u"devices", devices);
        agent.send(request);
        const QJsonObject a = agent.next();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QVERIFY2(a.value(u"error").toString().contains(u"'devices'"_qs), qPrintable(a.value(u"error").toString()));
        QVERIFY(!a.contains(u"files"));
    }

    // A client writes what an agent sends into its mirror, and nothing
    // outside it, whatever the agent says.
    void mirrorFilesOutsideTheMirrorAreRefused_data()
    {
        QTest::addColumn<QJsonObject>("answer");
        const auto file = [](const QString &path) {
            return QJsonObject{{QStringLiteral("files"), QJsonObject{{path, u"x"_qs}}}};
        };
        const auto link = [](const QString &path, const QString &to) {
            return QJsonObject{{QStringLiteral("links"), QJsonObject{{path, to}}}};
        };
        QTest::newRow("an absolute path") << file(u"/tmp/blocktune-mirror-escape"_qs);
        QTest::newRow("up and out") << file(u"sys/../../blocktune-mirror-escape"_qs);
        QTest::newRow("not sys, proc or dev") << file(u"etc/passwd"_qs);
        QTest::newRow("an empty part") << file(u"sys//x"_qs);
        QTest::newRow("a link to an absolute path") << link(u"sys/class/block/sdb"_qs, u"/etc"_qs);
        QTest::newRow("a folder up and out") << QJsonObject{{QStringLiteral("dirs"), QJsonArray{u"dev/../.."_qs}}};
        QJsonObject through = link(u"sys/out"_qs, u"../.."_qs);
        through.insert(u"files", QJsonObject{{u"sys/out/blocktune-mirror-escape"_qs, u"x"_qs}});
        QTest::newRow("a file through a link it sends") << through;
    }
    void mirrorFilesOutsideTheMirrorAreRefused()
    {
        QFETCH(QJsonObject, answer);
        QTemporaryDir parent;
        const QString mirror = parent.filePath(QStringLiteral("mirror"));
        QVERIFY(QDir().mkpath(mirror));
        const Status written = writeSnapshotJson(mirror, answer);
        QVERIFY(!written);
        QCOMPARE(written.error().code, int(InvalidArgument));
        QVERIFY(!QFileInfo::exists(parent.filePath(QStringLiteral("blocktune-mirror-escape"))));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/blocktune-mirror-escape")));
        QCOMPARE(QDir(mirror).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot), QStringList{});
    }

    // keep_advice takes a record of fixed fields, each typed and bounded;
    // anything else is refused and nothing is kept.
    void keepAdviceRefusesWhatIsNotAnAdviceRecord_data()
    {
        QTest::addColumn<QJsonObject>("request");
        QTest::addColumn<QString>("error");
        const QJsonObject good{{u"test"_qs, u"single"_qs},       {u"device"_qs, u"sdb"_qs},
                               {u"description"_qs, u"x"_qs},     {u"mb_per_s"_qs, 120.5},
                               {u"ok"_qs, true},                 {u"settings"_qs, QJsonObject{{u"workload"_qs, u"single"_qs}}},
                               {u"metrics"_qs, QJsonObject{{u"runs"_qs, 6}}}, {u"result"_qs, QJsonObject{}}};
        const auto with = [&good](const QString &key, const QJsonValue &v) {
            QJsonObject r = good;
            if (v.isUndefined())
                r.remove(key);
            else
                r.insert(key, v);
            return QJsonObject{{u"op"_qs, u"keep_advice"_qs}, {u"id"_qs, 2}, {u"record"_qs, r}};
        };
        QTest::newRow("no record") << QJsonObject{{u"op"_qs, u"keep_advice"_qs}, {u"id"_qs, 2}} << u"'record' is an object"_qs;
        QTest::newRow("a field of its own") << with(u"kind"_qs, u"test"_qs) << u"no field 'kind'"_qs;
        QTest::newRow("a path for a device") << with(u"device"_qs, u"../../etc"_qs) << u"'device' is a kernel name"_qs;
        QTest::newRow("no device") << with(u"device"_qs, QJsonValue::Undefined) << u"'device' is a string"_qs;
        QTest::newRow("a long description") << with(u"description"_qs, QString(513, u'x')) << u"'description' is a string"_qs;
        QTest::newRow("negative MB/s") << with(u"mb_per_s"_qs, -1) << u"'mb_per_s' is a number"_qs;
        QTest::newRow("MB/s as text") << with(u"mb_per_s"_qs, u"fast"_qs) << u"'mb_per_s' is a number"_qs;
        QTest::newRow("ok as a number") << with(u"ok"_qs, 1) << u"'ok' is true or false"_qs;
        QTest::newRow("settings nested") << with(u"settings"_qs, QJsonObject{{u"a"_qs, QJsonObject{}}})
                                         << u"'settings' holds numbers"_qs;
        QTest::newRow("metrics a list") << with(u"metrics"_qs, QJsonArray{}) << u"'metrics' is an object"_qs;
        QTest::newRow("no result") << with(u"result"_qs, QJsonValue::Undefined) << u"'result' is an object"_qs;
        QJsonObject shell = with(u"ok"_qs, true);
        shell.insert(u"source"_qs, u"shell"_qs);
        QTest::newRow("a source of its own") << shell << u"'source' is"_qs;
    }
    void keepAdviceRefusesWhatIsNotAnAdviceRecord()
    {
        QFETCH(QJsonObject, request);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QString db = dir.filePath(u"history.sqlite"_qs);
        const HistoryDbFor agentDb(db);
        Agent agent({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")});
        agent.send(hello());
        agent.next();
        agent.send(request);
        const QJsonObject a = agent.next();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QVERIFY2(a.value(u"error").toString().contains(error), qPrintable(a.value(u"error").toString()));
        QVERIFY(!a.contains(u"history_id"));
        QVERIFY(!QFileInfo::exists(db));
    }

    // The rules ops (udev_rules, and preview_rules and installed_rules,
    // which `--host HOST profile install|uninstall` ask): a name that is not
    // a blocktune rules file or a profile, a path, a missing or mistyped
    // field is refused with what is wanted, and the rules folder is as it was.
    void rulesOpsRefuseWhatIsNotARulesFileOrProfile_data()
    {
        QTest::addColumn<QJsonObject>("request");
        QTest::addColumn<QString>("error");
        const auto req = [](const char *op, const QJsonObject &fields) {
            QJsonObject r = fields;
            r.insert(u"op"_qs, QString::fromLatin1(op));
            r.insert(u"id"_qs, 2);
            return r;
        };
        const QString rules = u"# Generated by blocktune: profile keep\n"_qs;
        for (const char *op : {"preview_rules", "udev_rules"}) {
            const QString o = QString::fromLatin1(op);
            QTest::newRow(qPrintable(o + u": no change"_qs)) << req(op, {{u"file"_qs, u"70-blocktune-keep.rules"_qs}}) << u"'change'"_qs;
            QTest::newRow(qPrintable(o + u": change delete"_qs))
                << req(op, {{u"change"_qs, u"delete"_qs}, {u"file"_qs, u"70-blocktune-keep.rules"_qs}}) << u"'change'"_qs;
            QTest::newRow(qPrintable(o + u": change a number"_qs))
                << req(op, {{u"change"_qs, 1}, {u"file"_qs, u"70-blocktune-keep.rules"_qs}}) << u"'change'"_qs;
            QTest::newRow(qPrintable(o + u": no file"_qs)) << req(op, {{u"change"_qs, u"remove"_qs}}) << u"'file'"_qs;
            QTest::newRow(qPrintable(o + u": file a number"_qs))
                << req(op, {{u"change"_qs, u"remove"_qs}, {u"file"_qs, 70}}) << u"'file'"_qs;
            QTest::newRow(qPrintable(o + u": a path up"_qs))
                << req(op, {{u"change"_qs, u"remove"_qs}, {u"file"_qs, u"../../../etc/passwd"_qs}})
                << u"is not a blocktune rules file name"_qs;
            QTest::newRow(qPrintable(o + u": a path down"_qs))
                << req(op, {{u"change"_qs, u"install"_qs}, {u"file"_qs, u"70-blocktune-keep.rules/../x.rules"_qs},
                            {u"content"_qs, rules}})
                << u"is not a blocktune rules file name"_qs;
            QTest::newRow(qPrintable(o + u": another file"_qs))
                << req(op, {{u"change"_qs, u"remove"_qs}, {u"file"_qs, u"99-other.rules"_qs}})
                << u"is not a blocktune rules file name"_qs;
            QTest::newRow(qPrintable(o + u": content a list"_qs))
                << req(op, {{u"change"_qs, u"install"_qs}, {u"file"_qs, u"70-blocktune-keep.rules"_qs}, {u"content"_qs, QJsonArray{}}})
                << u"'content'"_qs;
            QTest::newRow(qPrintable(o + u": content not blocktune's"_qs))
                << req(op, {{u"change"_qs, u"install"_qs}, {u"file"_qs, u"70-blocktune-keep.rules"_qs},
                            {u"content"_qs, u"RUN+=\"/bin/sh -c 'touch /tmp/pwned'\"\n"_qs}})
                << u"rules content must start with"_qs;
        }
        QTest::newRow("installed_rules: no profile") << req("installed_rules", {}) << u"'profile'"_qs;
        QTest::newRow("installed_rules: a path") << req("installed_rules", {{u"profile"_qs, u"../../etc"_qs}}) << u"'profile'"_qs;
        QTest::newRow("installed_rules: a glob") << req("installed_rules", {{u"profile"_qs, u"*"_qs}}) << u"'profile'"_qs;
        QTest::newRow("installed_rules: a number") << req("installed_rules", {{u"profile"_qs, 7}}) << u"'profile'"_qs;
        QTest::newRow("installed_rules: a list") << req("installed_rules", {{u"profile"_qs, QJsonArray{u"keep"_qs}}})
                                                 << u"'profile'"_qs;
    }
    void rulesOpsRefuseWhatIsNotARulesFileOrProfile()
    {
        QFETCH(QJsonObject, request);
        QFETCH(QString, error);
        QTemporaryDir tree;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        const QString rulesDir = tree.filePath(u"etc/udev/rules.d"_qs);
        QVERIFY(QDir().mkpath(rulesDir));
        const QByteArray kept = "# Generated by blocktune: profile keep\n";
        QFile keep(rulesDir + u"/70-blocktune-keep.rules"_qs);
        QVERIFY(keep.open(QIODevice::WriteOnly));
        keep.write(kept);
        keep.close();
        const auto folder = [&rulesDir] { return QDir(rulesDir).entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot); };
        const QStringList before = folder();
        Agent agent({QStringLiteral("--sysroot"), tree.path()});
        agent.send(hello());
        QCOMPARE(agent.next().value(u"ok").toBool(), true);
        agent.send(request);
        const QJsonObject a = agent.next();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QVERIFY2(a.value(u"error").toString().contains(error), qPrintable(a.value(u"error").toString()));
        QVERIFY(!a.contains(u"path") && !a.contains(u"files"));
        QCOMPARE(folder(), before);
        QCOMPARE(readAttr(rulesDir, u"70-blocktune-keep.rules"_qs).toUtf8() + '\n', kept);
        QVERIFY(!QFileInfo::exists(tree.filePath(u"etc/x.rules"_qs)));
        // The agent goes on: the good question is answered.
        agent.send({{u"op"_qs, u"installed_rules"_qs}, {u"id"_qs, 3}, {u"profile"_qs, u"keep"_qs}});
        const QJsonObject good = agent.next();
        QCOMPARE(good.value(u"files").toArray(), QJsonArray{u"70-blocktune-keep.rules"_qs});
        QCOMPARE(good.value(u"dir").toString(), rulesDir);
        agent.send({{u"op"_qs, u"preview_rules"_qs}, {u"id"_qs, 4}, {u"change"_qs, u"remove"_qs},
                    {u"file"_qs, u"70-blocktune-keep.rules"_qs}});
        const QJsonObject preview = agent.next();
        QCOMPARE(preview.value(u"path").toString(), rulesDir + u"/70-blocktune-keep.rules"_qs);
        QCOMPARE(preview.value(u"current").toString().toUtf8(), kept);
        QCOMPARE(folder(), before);
    }

    void keepAdviceKeepsItAsTheClientSaysAndFromHere()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"history.sqlite"_qs);
        const HistoryDbFor agentDb(db);
        Agent agent({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")});
        agent.send(hello());
        agent.next();
        const QJsonObject record{{u"test"_qs, u"single"_qs},   {u"device"_qs, u"sdb"_qs},
                                 {u"description"_qs, u"512 KiB recommended, 6 runs in 7.0 s"_qs},
                                 {u"mb_per_s"_qs, 120.5},      {u"ok"_qs, true},
                                 {u"settings"_qs, QJsonObject{{u"workload"_qs, u"single"_qs}}},
                                 {u"metrics"_qs, QJsonObject{{u"runs"_qs, 6}}},
                                 {u"result"_qs, QJsonObject{{u"device"_qs, u"sdb"_qs}}}};
        agent.send({{u"op"_qs, u"keep_advice"_qs}, {u"id"_qs, 2}, {u"source"_qs, u"cli"_qs}, {u"record"_qs, record}});
        const QJsonObject a = agent.next();
        QVERIFY2(a.value(u"ok").toBool(), qPrintable(a.value(u"error").toString()));
        QVERIFY2(a.value(u"history_id").toInteger() > 0, qPrintable(a.value(u"history_error").toString()));
        const ProcessResult listed = run(binary("blocktune-cli"), {u"history"_qs, u"--json"_qs});
        const QJsonArray records = QJsonDocument::fromJson(listed.out).object().value(u"records").toArray();
        QCOMPARE(records.size(), 1);
        const QJsonObject kept = records.first().toObject();
        QCOMPARE(kept.value(u"kind").toString(), u"advice"_qs);
        QCOMPARE(kept.value(u"source").toString(), u"cli"_qs);
        QCOMPARE(kept.value(u"device").toString(), u"sdb"_qs);
        QCOMPARE(kept.value(u"description").toString(), u"512 KiB recommended, 6 runs in 7.0 s"_qs);
        QVERIFY(!kept.value(u"kernel").toString().isEmpty()); // the agent's, not the client's word
    }

    // readtest and sweep keep their record with the client's "source"
    // ("console", "cli"); any other word is refused before anything runs.
    void readTestSourceIsConsoleOrCli_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QJsonValue>("source");
        for (const QString &op : {u"readtest"_qs, u"sweep"_qs}) {
            QTest::addRow("%s: a word of its own", qPrintable(op)) << op << QJsonValue(u"shell"_qs);
            QTest::addRow("%s: a number", qPrintable(op)) << op << QJsonValue(1);
            QTest::addRow("%s: CLI in capitals", qPrintable(op)) << op << QJsonValue(u"CLI"_qs);
        }
    }
    void readTestSourceIsConsoleOrCli()
    {
        QFETCH(QString, op);
        QFETCH(QJsonValue, source);
        Agent agent({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")});
        agent.send(hello());
        agent.next();
        agent.send({{QStringLiteral("op"), op}, {QStringLiteral("id"), 2}, {QStringLiteral("source"), source}});
        const QJsonObject a = agent.next();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QCOMPARE(a.value(u"error").toString(), u"'source' is \"console\" or \"cli\""_qs);
    }

    // The agent's temporary changes come back when its input ends (ssh
    // closed), on SIGHUP and on SIGTERM, as they would at a normal end.
    void temporaryChangesRestoredWhenConnectionEnds_data()
    {
        QTest::addColumn<int>("how");
        QTest::newRow("stdin EOF") << 0;
        QTest::newRow("SIGHUP") << int(SIGHUP);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }
    void temporaryChangesRestoredWhenConnectionEnds()
    {
        QFETCH(int, how);
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        const QString ra = QStringLiteral("sys/class/block/sdb/queue/read_ahead_kb");
        const QString before = readAttr(dir.path(), ra);
        QCOMPARE(before, QStringLiteral("128"));
        Agent agent({QStringLiteral("--sysroot"), dir.path()});
        agent.send(hello());
        agent.next();
        agent.send(applyTemporary(2, QStringLiteral("sdb"), QStringLiteral("4096")));
        const QJsonObject o = agent.next();
        QVERIFY2(o.value(u"ok").toBool(), qPrintable(o.value(u"error").toString()));
        QCOMPARE(o.value(u"temporary_count").toInt(), 1);
        QCOMPARE(readAttr(dir.path(), ra), QStringLiteral("4096"));
        if (how == 0)
            agent.process().closeWriteChannel();
        else
            QVERIFY2(signalProcess(agent.process(), how), "it had ended before the signal");
        QVERIFY(agent.process().waitForFinished(30000));
        QCOMPARE(readAttr(dir.path(), ra), before);
        QCOMPARE(agent.process().exitCode(), how == 0 ? 0 : 128 + how);
        QVERIFY(agent.process().readAllStandardError().contains("1 temporary change(s) restored"));
    }

    void readOnlyWhenNotRootAndNoSudoRule()
    {
        if (::geteuid() != 0)
            QSKIP("runs the agent as nobody, which needs root to switch to");
        if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty())
            QSKIP("setpriv (util-linux) is missing");
        // The build tree must be readable by nobody for it to start the CLI.
        const ProcessResult probe = run(QStringLiteral("setpriv"),
                                        {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                                         QStringLiteral("--clear-groups"), binary("blocktune-cli"), QStringLiteral("--version")});
        if (probe.exitCode != 0)
            QSKIP("nobody cannot run the build's blocktune-cli (build tree not readable by others)");
        LoopDevice loop(16 << 20, true);
        QVERIFY(loop.isValid());
        const QString raBefore = readAttr(QString(), QStringLiteral("sys/block/%1/queue/read_ahead_kb").arg(loop.name()));
        QProcess p;
        p.start(QStringLiteral("setpriv"), {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                                           QStringLiteral("--clear-groups"), binary("blocktune-cli"), QStringLiteral("agent")});
        QVERIFY(p.waitForStarted());
        p.write(line(hello()));
        p.write(line(applyTemporary(2, loop.name(), QStringLiteral("4096"))));
        QElapsedTimer t;
        t.start();
        QList<QJsonObject> answers;
        while (answers.size() < 2 && t.elapsed() < 15000) {
            p.waitForReadyRead(100);
            while (p.canReadLine())
                answers << QJsonDocument::fromJson(p.readLine()).object();
        }
        p.closeWriteChannel();
        p.waitForFinished(5000);
        QCOMPARE(answers.size(), 2);
        const QString reason = answers[0].value(u"read_only").toString();
        QVERIFY2(reason.startsWith(u"read-only: "), qPrintable(reason));
        QVERIFY2(reason.contains(u"sudoers line 'nobody ALL=(root) NOPASSWD: ") || reason.contains(u"is missing"), qPrintable(reason));
        QCOMPARE(answers[0].value(u"writer").toString(), QStringLiteral("none"));
        // The write says why it was not made, and nothing changed.
        QCOMPARE(answers[1].value(u"ok").toBool(), false);
        QCOMPARE(answers[1].value(u"error").toString(), reason);
        QCOMPARE(readAttr(QString(), QStringLiteral("sys/block/%1/queue/read_ahead_kb").arg(loop.name())), raBefore);
    }

    // With a sudo rule for the helper, a non-root agent writes through
    // `sudo -n HELPER`. A stand-in sudo on PATH says yes to `-n -l` and runs
    // the helper unprivileged, so the write reaches the helper and fails
    // there (nobody may not write sysfs): the path is wired, nothing changes.
    void sudoRuleMakesTheHelperTheWriter()
    {
        if (::geteuid() != 0)
            QSKIP("runs the agent as nobody, which needs root to switch to");
        if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty())
            QSKIP("setpriv (util-linux) is missing");
        const ProcessResult probe = run(QStringLiteral("setpriv"),
                                        {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                                         QStringLiteral("--clear-groups"), binary("blocktune-cli"), QStringLiteral("--version")});
        if (probe.exitCode != 0)
            QSKIP("nobody cannot run the build's blocktune-cli (build tree not readable by others)");
        QTemporaryDir bin;
        QVERIFY(QFile::setPermissions(bin.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther
                                                      | QFile::ExeOther));
        const QString sudo = bin.filePath(QStringLiteral("sudo"));
        QFile f(sudo);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\n# stand-in: -n -l CMD allowed; -n CMD runs CMD unprivileged\n"
                "[ \"$1\" = -n ] || exit 1\nshift\n[ \"$1\" = -l ] && exit 0\nexec \"$@\"\n");
        f.close();
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther));
        LoopDevice loop(16 << 20, true);
        QVERIFY(loop.isValid());
        const QString ra = QStringLiteral("sys/block/%1/queue/read_ahead_kb").arg(loop.name());
        const QString raBefore = readAttr(QString(), ra);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), bin.path() + u':' + env.value(QStringLiteral("PATH")));
        // The journal of originals must be nobody's (over ssh: XDG_RUNTIME_DIR).
        QTemporaryDir journals;
        QVERIFY(::chown(QFile::encodeName(journals.path()).constData(), 65534, 65534) == 0);
        env.insert(QStringLiteral("BLOCKTUNE_JOURNAL_DIR"), journals.path());
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("setpriv"), {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                                           QStringLiteral("--clear-groups"), binary("blocktune-cli"), QStringLiteral("agent")});
        QVERIFY(p.waitForStarted());
        p.write(line(hello()));
        p.write(line(applyTemporary(2, loop.name(), QStringLiteral("4096"))));
        QElapsedTimer t;
        t.start();
        QList<QJsonObject> answers;
        while (answers.size() < 2 && t.elapsed() < 20000) {
            p.waitForReadyRead(100);
            while (p.canReadLine())
                answers << QJsonDocument::fromJson(p.readLine()).object();
        }
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(answers.size(), 2);
        QCOMPARE(answers[0].value(u"writer").toString(), QStringLiteral("blocktune-helper (sudo -n)"));
        QVERIFY(answers[0].value(u"read_only").isNull());
        QCOMPARE(answers[1].value(u"ok").toBool(), false);
        const QString error = answers[1].value(u"error").toString();
        // It was tried, through the helper, which as nobody may not write.
        QVERIFY2(error.contains(u"Permission denied") || error.contains(u"not permitted"), qPrintable(error));
        QCOMPARE(readAttr(QString(), ra), raBefore);
    }

    void monitorStreamsSamplesAndStops()
    {
        Agent agent({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")});
        agent.send(hello());
        agent.next();
        agent.send({{QStringLiteral("op"), QStringLiteral("monitor")},
                    {QStringLiteral("id"), 3},
                    {QStringLiteral("interval_ms"), 20},
                    {QStringLiteral("count"), 3},
                    {QStringLiteral("devices"), QJsonArray{QStringLiteral("md0")}}});
        const QList<QJsonObject> lines = agent.until(3);
        QCOMPARE(lines.size(), 4);
        double previous = 0;
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(lines[i].value(u"event").toString(), QStringLiteral("sample"));
            // Seconds since the baseline: one interval further each tick.
            const double t = lines[i].value(u"sample").toObject().value(u"t").toDouble();
            QVERIFY2(t > previous && t >= 0.02 * (i + 1) - 0.001, qPrintable(QString::number(t)));
            QVERIFY(lines[i].value(u"sample").toObject().value(u"devices").toObject().contains(u"md0"));
            previous = t;
        }
        QCOMPARE(lines[3].value(u"ticks").toInt(), 3);

        agent.send({{QStringLiteral("op"), QStringLiteral("monitor")}, {QStringLiteral("id"), 4}, {QStringLiteral("interval_ms"), 20}});
        QCOMPARE(agent.next().value(u"event").toString(), QStringLiteral("sample"));
        agent.send({{QStringLiteral("op"), QStringLiteral("stop")}, {QStringLiteral("id"), 5}, {QStringLiteral("target"), 4}});
        bool stopAnswered = false, monitorEnded = false;
        while (!(stopAnswered && monitorEnded)) {
            const QJsonObject o = agent.next();
            if (o.isEmpty())
                break;
            if (o.value(u"id").toInt() == 5)
                stopAnswered = o.value(u"stopped").toBool();
            if (o.value(u"id").toInt() == 4 && !o.contains(u"event"))
                monitorEnded = o.value(u"stopped").toBool();
        }
        QVERIFY(stopAnswered);
        QVERIFY(monitorEnded);
    }

    // The host's latency histograms for a host window's heatmap: op
    // "latency" loads the BPF program on the first call (root) and answers
    // cumulative totals; between two calls around 4000 direct reads on the
    // test's own loop device the count is diskstats' (1% allowed, as in
    // tst_latencyprobe_live). On a recorded tree it is refused.
    void latencyOpCountsTheHostsReads()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (!BlockLatencyProbe::builtIn())
            QSKIP("built without BPF support (BLOCKTUNE_BPF off)");
        constexpr qint64 kBytes = 64 << 20;
        constexpr int kReads = 4000;
        TestLoop loop(kBytes, knownContents());
        QVERIFY(loop.isValid());
        QVERIFY(waitReadsIdle(loop.name()));
        Agent agent;
        agent.send(hello());
        agent.next();
        auto readTotals = [&](int id, LatencyTotals *read) -> QString {
            agent.send({{QStringLiteral("op"), QStringLiteral("latency")}, {QStringLiteral("id"), id}});
            const QJsonObject a = agent.next();
            if (!a.value(u"ok").toBool())
                return a.value(u"error").toString() + u" (no answer?)"_qs;
            const DiskCounters c = diskCountersOf(loop.name());
            *read = {};
            for (const QJsonValue &v : a.value(u"totals").toArray()) {
                quint64 number = 0;
                const auto t = latencyTotalsFromJson(v.toObject(), &number);
                if (!t)
                    return u"a device's totals do not parse"_qs;
                if (number == deviceNumber(quint32(c.major), quint32(c.minor)))
                    *read = t->read;
            }
            return QString();
        };
        LatencyTotals before, after;
        const DiskCounters diskBefore = diskCountersOf(loop.name());
        QString error = readTotals(2, &before);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(directReads4k(loop.path(), kBytes, kReads));
        QThread::msleep(100); // diskstats accounts the last read after the reader wakes
        const DiskCounters diskAfter = diskCountersOf(loop.name());
        error = readTotals(3, &after);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const quint64 requests = counterDelta(diskBefore[DiskCounters::ReadsCompleted], diskAfter[DiskCounters::ReadsCompleted]);
        const quint64 counted = after.requests - before.requests;
        qInfo("agent latency op: %llu requests, diskstats %llu", counted, requests);
        QVERIFY(requests >= quint64(kReads));
        QVERIFY2(counted <= requests && requests - counted <= requests / 100, qPrintable(QString::number(counted)));
        QCOMPARE(histogramDelta(before.device, after.device).total(), counted);
    }
    void latencyOpOnARecordedTreeIsRefused()
    {
        Agent agent({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")});
        agent.send(hello());
        agent.next();
        agent.send({{QStringLiteral("op"), QStringLiteral("latency")}, {QStringLiteral("id"), 2}});
        const QJsonObject a = agent.next();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QVERIFY2(a.value(u"error").toString().contains(u"not a recorded tree"_qs), qPrintable(a.value(u"error").toString()));
    }

    // Op "readahead" takes 'action' and nothing else; a snapshot before a
    // start is refused, and on a recorded tree the start loads nothing.
    void readaheadOpRefusesWhatItMust()
    {
        Agent agent({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")});
        agent.send(hello());
        agent.next();
        const struct
        {
            QJsonObject request;
            QString error;
        } rows[] = {
            {{{u"action"_qs, u"start"_qs}, {u"program"_qs, u"/tmp/evil.bpf.o"_qs}},
             u"'readahead' takes 'action', nothing else (got 'program')"_qs},
            {{{u"action"_qs, u"start"_qs}, {u"interval_ms"_qs, 100}}, u"'readahead' takes 'action', nothing else (got 'interval_ms')"_qs},
            {{}, u"'action' must be one of start, snapshot, stop"_qs},
            {{{u"action"_qs, u"load"_qs}}, u"'action' must be one of start, snapshot, stop"_qs},
            {{{u"action"_qs, 1}}, u"'action' must be one of start, snapshot, stop"_qs},
            {{{u"action"_qs, u"snapshot"_qs}}, u"the readahead probe is not loaded: 'start' it first"_qs},
            {{{u"action"_qs, u"start"_qs}}, u"readahead is watched on the live machine, not a recorded tree (--sysroot): nothing was loaded"_qs},
        };
        int id = 2;
        for (const auto &row : rows) {
            QJsonObject request = row.request;
            request.insert(u"op", u"readahead"_qs);
            request.insert(u"id", ++id);
            agent.send(request);
            const QJsonObject a = agent.next();
            QCOMPARE(a.value(u"id").toInt(), id);
            QCOMPARE(a.value(u"ok"), QJsonValue(false));
            QCOMPARE(a.value(u"error").toString(), row.error);
        }
        agent.send({{u"op"_qs, u"readahead"_qs}, {u"id"_qs, 99}, {u"action"_qs, u"stop"_qs}});
        const QJsonObject stopped = agent.next();
        QVERIFY(stopped.value(u"ok").toBool());
        QCOMPARE(stopped.value(u"loaded"), QJsonValue(false));
    }

    // An agent that is not root (nobody, through setpriv) refuses the start
    // with words: the probe's BPF program needs root.
    void readaheadOpOfAnAgentNotRootIsRefused()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (QStandardPaths::findExecutable(u"setpriv"_qs).isEmpty())
            QSKIP("no setpriv (util-linux)");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_qs, QDir::tempPath());
        p.setProcessEnvironment(env);
        p.start(u"setpriv"_qs, {u"--reuid=65534"_qs, u"--regid=65534"_qs, u"--clear-groups"_qs,
                                 binary("blocktune-cli"), u"agent"_qs});
        QVERIFY(p.waitForStarted());
        auto answer = [&p](const QJsonObject &request) {
            p.write(line(request));
            for (int i = 0; i < 300 && !p.canReadLine(); ++i)
                p.waitForReadyRead(100);
            return p.readLine();
        };
        const QByteArray lines[] = {answer(hello()),
                                    answer({{u"op"_qs, u"readahead"_qs}, {u"id"_qs, 2}, {u"action"_qs, u"start"_qs}})};
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(QJsonDocument::fromJson(lines[0]).object().value(u"euid").toInt(), 65534);
        const QJsonObject a = QJsonDocument::fromJson(lines[1]).object();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QCOMPARE(a.value(u"code").toString(), u"refused"_qs);
        QVERIFY2(a.value(u"error").toString().contains(u"not root, and the probe's BPF program needs root"_qs),
                 qPrintable(a.value(u"error").toString()));
    }

    // On the live machine as root: a start loads the probe and answers its
    // counters; a dd of the test's own loop shows in the next snapshot as
    // about 64 async windows of its read_ahead_kb; the probe stays loaded
    // while a reader that started it has not stopped, and is gone with the
    // last stop (a snapshot is refused again).
    void readaheadOpCountsADdOfTheHostsLoop()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (!ReadaheadProbe::builtIn())
            QSKIP("built without BPF support (BLOCKTUNE_BPF off)");
        ReadaheadLoop loop;
        QVERIFY(loop.isValid());
        const quint64 number = loop.number();
        QVERIFY(number != 0);
        Agent agent;
        agent.send(hello());
        agent.next();
        int id = 1;
        auto ask = [&](const QString &action) {
            agent.send({{u"op"_qs, u"readahead"_qs}, {u"id"_qs, ++id}, {u"action"_qs, action}});
            return agent.next(30000);
        };
        const QJsonObject start = ask(u"start"_qs);
        QVERIFY2(start.value(u"ok").toBool(), qPrintable(start.value(u"error").toString()));
        QVERIFY(readaheadCoverageFromJson(start.value(u"coverage").toObject()));
        auto before = readaheadSnapshotFromJson(start.value(u"snapshot").toObject());
        QVERIFY(before);
        QVERIFY(loop.dropCache());
        QVERIFY(loop.dd());
        const QJsonObject snap = ask(u"snapshot"_qs);
        QVERIFY2(snap.value(u"ok").toBool(), qPrintable(snap.value(u"error").toString()));
        auto after = readaheadSnapshotFromJson(snap.value(u"snapshot").toObject());
        QVERIFY(after);
        const DeviceReadaheadCounters c = readaheadDelta(before->devices, after->devices).value(number);
        const quint64 async = c.of(ReadaheadKind::Async).windows;
        QVERIFY2(async >= 48 && async <= 80, qPrintable(QString::number(async)));
        QCOMPARE(*readaheadFigures(c).sizeP50KiB, ReadaheadLoop::kReadAheadKiB);

        // Two readers: the first stop leaves it loaded for the second.
        QVERIFY(ask(u"start"_qs).value(u"ok").toBool());
        QCOMPARE(ask(u"stop"_qs).value(u"loaded"), QJsonValue(true));
        QVERIFY(ask(u"snapshot"_qs).value(u"ok").toBool());
        QCOMPARE(ask(u"stop"_qs).value(u"loaded"), QJsonValue(false));
        const QJsonObject gone = ask(u"snapshot"_qs);
        QCOMPARE(gone.value(u"ok"), QJsonValue(false));
        QVERIFY2(gone.value(u"error").toString().contains(u"'start' it first"_qs), qPrintable(gone.value(u"error").toString()));
    }

    // dead_journals lists what a killed session left (not a running one's);
    // restore_journal brings it back by that path, from the file there.
    void deadJournalIsListedAndRestoredByItsPath()
    {
        const DeadAndLiveJournals j;
        QVERIFY(j.isValid());
        QCOMPARE(j.readAhead(u"sdb"_qs), u"4096"_qs);
        Agent agent({QStringLiteral("--sysroot"), j.tree()});
        agent.send(hello());
        agent.next();
        agent.send({{QStringLiteral("op"), QStringLiteral("dead_journals")}, {QStringLiteral("id"), 2}});
        const QJsonObject listed = agent.next();
        QVERIFY2(listed.value(u"ok").toBool(), qPrintable(listed.value(u"error").toString()));
        const QJsonArray journals = listed.value(u"journals").toArray();
        QCOMPARE(journals.size(), 1);
        const QJsonObject dead = journals.at(0).toObject();
        QCOMPARE(dead.value(u"path").toString(), j.deadJournal());
        QCOMPARE(dead.value(u"owner_alive").toBool(true), false);
        const QJsonArray entries = dead.value(u"journal").toObject().value(u"entries").toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.at(0).toObject().value(u"device").toString(), u"sdb"_qs);
        QCOMPARE(entries.at(0).toObject().value(u"original").toString(), u"128"_qs);

        agent.send({{QStringLiteral("op"), QStringLiteral("restore_journal")}, {QStringLiteral("id"), 3},
                    {QStringLiteral("path"), j.deadJournal()}});
        const QJsonObject restored = agent.next();
        QVERIFY2(restored.value(u"ok").toBool(), QJsonDocument(restored).toJson().constData());
        QCOMPARE(restored.value(u"report").toObject().value(u"items").toArray().at(0).toObject().value(u"status").toString(),
                 u"restored"_qs);
        QCOMPARE(restored.value(u"queues").toObject().value(u"sdb").toObject().value(u"queue/read_ahead_kb").toString().trimmed(),
                 u"128"_qs); // the client's mirror follows
        QCOMPARE(j.readAhead(u"sdb"_qs), u"128"_qs);
        QCOMPARE(j.journals(), QStringList{QFileInfo(j.liveJournal()).fileName()});
        QCOMPARE(j.readAhead(u"sdc"_qs), u"64"_qs); // the running session's change is its own
    }

    // journals: what restore finds there, the running session's journal
    // too (restore leaves it alone and says so), and the folder.
    void journalsOpListsEveryJournalAndItsFolder()
    {
        const DeadAndLiveJournals j;
        QVERIFY(j.isValid());
        Agent agent({QStringLiteral("--sysroot"), j.tree()});
        agent.send(hello());
        agent.next();
        agent.send({{QStringLiteral("op"), QStringLiteral("journals")}, {QStringLiteral("id"), 2}});
        const QJsonObject listed = agent.next();
        QVERIFY2(listed.value(u"ok").toBool(), qPrintable(listed.value(u"error").toString()));
        QCOMPARE(listed.value(u"journal_dir").toString(), j.journalDir());
        QMap<QString, bool> ownerAlive;
        for (const QJsonValue &v : listed.value(u"journals").toArray())
            ownerAlive.insert(v.toObject().value(u"path").toString(), v.toObject().value(u"owner_alive").toBool());
        QCOMPARE(ownerAlive, (QMap<QString, bool>{{j.deadJournal(), false}, {j.liveJournal(), true}}));
        QCOMPARE(j.readAhead(u"sdb"_qs), u"4096"_qs); // listed, not restored
    }

    // restore_journal takes only a path dead_journals answers: anything
    // else is refused naming what is allowed, and nothing is read,
    // written or removed.
    void restoreJournalRefusesWhatIsNotADeadJournal_data()
    {
        QTest::addColumn<QJsonValue>("pathAsked"); // %DEAD, %LIVE, %DIR, %BASE (its name), %NAME (the dead one's) replaced
        QTest::addColumn<QString>("error");
        const QString notDead = u"'%1' is not a journal of a session that died on this host; restore_journal takes one "
                                "of the paths dead_journals answers (now: %DEAD)"_qs;
        const QString needsPath = u"restore_journal needs 'path': one of the paths dead_journals answers"_qs;
        QTest::newRow("no path") << QJsonValue(QJsonValue::Undefined) << needsPath;
        QTest::newRow("empty path") << QJsonValue(QString()) << needsPath;
        QTest::newRow("a number") << QJsonValue(1) << needsPath;
        QTest::newRow("a list of paths") << QJsonValue(QJsonArray{u"%DEAD"_qs}) << needsPath;
        QTest::newRow("a running session's journal") << QJsonValue(u"%LIVE"_qs) << notDead.arg(u"%LIVE"_qs);
        QTest::newRow("the dead one through ..") << QJsonValue(u"%DIR/../%BASE/%NAME"_qs)
                                                 << notDead.arg(u"%DIR/../%BASE/%NAME"_qs);
        QTest::newRow("the dead one's file name alone") << QJsonValue(u"%NAME"_qs) << notDead.arg(u"%NAME"_qs);
        QTest::newRow("a file outside") << QJsonValue(u"/etc/passwd"_qs) << notDead.arg(u"/etc/passwd"_qs);
        QTest::newRow("the applied state's name") << QJsonValue(u"%DIR/profile-state.json"_qs)
                                                  << notDead.arg(u"%DIR/profile-state.json"_qs);
    }
    void restoreJournalRefusesWhatIsNotADeadJournal()
    {
        QFETCH(QJsonValue, pathAsked);
        QFETCH(QString, error);
        const DeadAndLiveJournals j;
        QVERIFY(j.isValid());
        const auto fill = [&j](QString s) {
            return s.replace(u"%DEAD"_qs, j.deadJournal())
                .replace(u"%LIVE"_qs, j.liveJournal())
                .replace(u"%DIR"_qs, j.journalDir())
                .replace(u"%BASE"_qs, QFileInfo(j.journalDir()).fileName())
                .replace(u"%NAME"_qs, QFileInfo(j.deadJournal()).fileName());
        };
        QJsonValue path = pathAsked;
        if (path.isString())
            path = fill(path.toString());
        else if (path.isArray())
            path = QJsonArray{fill(path.toArray().at(0).toString())};
        const QStringList before = j.journals();
        Agent agent({QStringLiteral("--sysroot"), j.tree()});
        agent.send(hello());
        agent.next();
        QJsonObject request{{QStringLiteral("op"), QStringLiteral("restore_journal")}, {QStringLiteral("id"), 2}};
        if (!path.isUndefined())
            request.insert(u"path", path);
        agent.send(request);
        const QJsonObject o = agent.next();
        QCOMPARE(o.value(u"ok").toBool(true), false);
        QCOMPARE(o.value(u"error").toString(), fill(error));
        QCOMPARE(o.value(u"code").toString(), path.isString() && !path.toString().isEmpty() ? u"refused"_qs : u"invalid"_qs);
        QCOMPARE(j.journals(), before);
        QCOMPARE(j.readAhead(u"sdb"_qs), u"4096"_qs);
        QCOMPARE(j.readAhead(u"sdc"_qs), u"64"_qs);
    }

    void sshCommandLineIsWhatTheUserAskedFor()
    {
        RemoteTarget t;
        t.host = QStringLiteral("admin@server");
        t.sshConfig = QStringLiteral("/tmp/cfg");
        t.sshOptions = {QStringLiteral("Port=2222"), QStringLiteral("BatchMode=yes")};
        QCOMPARE(*sshCommandLine(t), (QStringList{QStringLiteral("ssh"), QStringLiteral("-F"), QStringLiteral("/tmp/cfg"),
                                                  QStringLiteral("-o"), QStringLiteral("Port=2222"), QStringLiteral("-o"),
                                                  QStringLiteral("BatchMode=yes"), QStringLiteral("admin@server"),
                                                  QStringLiteral("blocktune-cli agent")}));
        t.host = QStringLiteral("-oProxyCommand=evil");
        QVERIFY(!sshCommandLine(t).ok());
        const ProcessResult r = run(binary("blocktune-cli"), {QStringLiteral("--host"), QStringLiteral("-x"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("starts with '-'"));
    }
};

QTEST_GUILESS_MAIN(TestAgent)
#include "tst_agent.moc"
