// The one road: a TuningSession scans once, plans once, writes the plan it
// showed, starts its writer only for a write, and takes back everything it
// changed. Copies of recorded trees; the CLI run as a user would.
#include "sessionsupport.h"
#include "tuningtestutil.h"

#include "monitor/monitor.h"
#include "session/session.h"

#include <QProcessEnvironment>

using namespace blocktune;
using namespace blocktune::test;

namespace {

/// Counts how often the session asks for a writer.
struct CountingFactory
{
    std::shared_ptr<int> made = std::make_shared<int>(0);
    SessionOptions options() const
    {
        SessionOptions o;
        o.writerFactory = [made = made](const SysRoot &root) {
            ++*made;
            return std::make_unique<DirectWriter>(root);
        };
        return o;
    }
};

ProcessResult runCli(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"BLOCKTUNE_DEBUG_SCANS"_qs, u"1"_qs);
    p.setProcessEnvironment(env);
    p.start(binary("blocktune-cli"), args);
    ProcessResult r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(60000))
        return r;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_journals;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_journals.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
    }

    void scansOncePlansOnceWritesThePlan()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        TuningSession session{SysRoot(tree.path())};
        QCOMPARE(session.scanCount(), 0); // nothing until asked

        const ChangePlan plan = session.plan({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(4096))},
                                              {u"sdb"_qs, u"scheduler"_qs, SettingValue(u"bfq"_qs)}});
        QVERIFY(plan.ok());
        QCOMPARE(plan.writes.size(), 2);
        QCOMPARE(plan.writes.at(0).attribute, u"scheduler"_qs); // scheduler first
        QCOMPARE(plan.writes.at(1).value, u"4096"_qs);
        const ChangeReport report = session.apply(plan);
        QVERIFY2(report.ok(), report.error ? qPrintable(report.error->message) : "");
        // What was written is what the preview said, in its order.
        QCOMPARE(report.outcomes.size(), plan.writes.size());
        for (qsizetype i = 0; i < plan.writes.size(); ++i) {
            QCOMPARE(report.outcomes.at(i).write.attribute, plan.writes.at(i).attribute);
            QCOMPARE(report.outcomes.at(i).status, SettingStatus::Applied);
        }
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"4096"_qs);

        // The settings read afterwards are the new ones, and no second scan
        // was needed for them: the session refreshed the queue it wrote.
        auto after = session.settings(u"sdb"_qs);
        QVERIFY(after.ok());
        QCOMPARE(after->readAheadKiB, std::optional<quint64>(4096));
        QCOMPARE(after->scheduler, u"bfq"_qs);
        auto model = session.model();
        QVERIFY(model.ok());
        QCOMPARE((*model)->find(u"sdb"_qs)->readAheadKiB, std::optional<quint64>(4096));
        QCOMPARE(session.scanCount(), 1);

        // A second plan starts from the values now in force.
        const ChangePlan again = session.plan({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(512))}});
        QVERIFY(again.ok());
        QCOMPARE(again.writes.at(0).current, u"4096"_qs);
        QCOMPARE(session.scanCount(), 1);
    }

    void writerIsMadeForTheFirstWriteOnly()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        CountingFactory factory;
        TuningSession session{SysRoot(tree.path()), factory.options()};
        QVERIFY(session.settings(u"sdb"_qs).ok());
        QVERIFY(session.plan({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(256))}}).ok());
        // Invalid: refused before any writer is needed.
        QVERIFY(!session.apply({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(u"lots"_qs)}}).ok());
        QCOMPARE(*factory.made, 0);
        QVERIFY(!session.writerStarted());
        QVERIFY(session.apply({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(256))}}).ok());
        QVERIFY(session.applyTemporary({{u"sdc"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(512))}}).ok());
        QVERIFY(session.revertAll().ok());
        QCOMPARE(*factory.made, 1);
        QVERIFY(session.writerStarted());
        QCOMPARE(session.writerDescription(), u"direct"_qs);
    }

    void revertAllTakesBackPersistentAndTemporary()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const auto before = tree.snapshot();
        TuningSession session{SysRoot(tree.path())};
        QVERIFY(session.apply({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(512))},
                               {u"sdb"_qs, u"scheduler"_qs, SettingValue(u"kyber"_qs)}}).ok());
        // Twice on the same attribute: revert goes to the first original.
        QVERIFY(session.apply({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(1024))}}).ok());
        QVERIFY(session.applyTemporary({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(64))},
                                        {u"sdc"_qs, u"nr_requests"_qs, SettingValue(quint64(16))}}).ok());
        QCOMPARE(session.temporaryCount(), 2);
        QVERIFY(session.persistentCount() >= 2);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"64"_qs);

        const RestoreReport back = session.revertAll();
        QVERIFY(back.ok());
        QCOMPARE(tree.snapshot(), before);
        QCOMPARE(session.temporaryCount(), 0);
        QCOMPARE(session.persistentCount(), 0);
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }

    void temporaryChangesGoWithTheSession()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const QString sdbBefore = tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs);
        {
            TuningSession session{SysRoot(tree.path())};
            QVERIFY(session.apply({{u"sdd"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(2048))}}).ok());
            QVERIFY(session.applyTemporary({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(4))}}).ok());
            QVERIFY(QFile::exists(session.journalPath()));
        }
        // The temporary one is back; the persistent one stays, as asked.
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), sdbBefore);
        QCOMPARE(tree.read(u"sdd"_qs, u"queue/read_ahead_kb"_qs), u"2048"_qs);
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }

    // Every write, try and restore is told once, in words, where it
    // happened (what every status line of the console shows); a job's many
    // temporary changes for measuring are told as one.
    void eventsSayWhatWasWritten()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const QString before = tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs);
        QList<SessionEvent> told;
        SessionOptions options;
        options.eventSink = [&told](const SessionEvent &e) { told << e; };
        TuningSession session(SysRoot(tree.path()), options);
        QVERIFY(session.apply({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(512))}}).ok());
        QCOMPARE(told.size(), 1);
        QCOMPARE(told.at(0).kind, SessionEvent::Kind::Applied);
        QVERIFY(told.at(0).ok);
        QCOMPARE(told.at(0).details, QStringList{u"sdb read_ahead_kb: "_qs + before + u" → 512"_qs});
        QCOMPARE(told.at(0).devices, QStringList{u"sdb"_qs});

        // Refused: said so, nothing written.
        told.clear();
        QVERIFY(!session.apply({{u"sdb"_qs, u"scheduler"_qs, SettingValue(u"cfq"_qs)}}).ok());
        QVERIFY(told.isEmpty() || !told.at(0).ok);

        // A sweep's three tries and its restore: one event, all back.
        told.clear();
        for (quint64 kib : {128, 1024, 4096})
            QVERIFY(session.applyTemporary({{u"sdb"_qs, u"read_ahead_kb"_qs, SettingValue(kib)}}).ok());
        QVERIFY(session.restoreTemporary().ok());
        QCOMPARE(told.size(), 4);
        const QList<SessionEvent> folded = foldJobEvents(told);
        QCOMPARE(folded.size(), 1);
        QCOMPARE(folded.at(0).kind, SessionEvent::Kind::Measured);
        QVERIFY(folded.at(0).ok);
        QVERIFY2(folded.at(0).text.startsWith(u"Measured on sdb with 3 temporary change"_qs)
                     && folded.at(0).text.endsWith(u"all restored"_qs),
                 qPrintable(folded.at(0).text));
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"512"_qs);

        // A try not restored (a job that ended early): still held, not ok.
        const QList<SessionEvent> open = foldJobEvents(QList<SessionEvent>{told.at(0)});
        QCOMPARE(open.size(), 1);
        QVERIFY(!open.at(0).ok);
        QVERIFY2(open.at(0).text.contains(u"still held"_qs), qPrintable(open.at(0).text));
    }

    void cliCommandsScanOnce_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("set") << QStringList{u"set"_qs, u"sdb"_qs, u"read_ahead_kb=4096"_qs, u"scheduler=bfq"_qs} << 0;
        QTest::newRow("set --dry-run") << QStringList{u"set"_qs, u"--dry-run"_qs, u"md0"_qs, u"read_ahead_kb=16384"_qs} << 0;
        QTest::newRow("set --members") << QStringList{u"set"_qs, u"--members"_qs, u"md0"_qs, u"read_ahead_kb=16384"_qs} << 0;
        QTest::newRow("set refused") << QStringList{u"set"_qs, u"sdb"_qs, u"scheduler=cfq"_qs} << 2;
        QTest::newRow("get") << QStringList{u"get"_qs, u"md0"_qs} << 0;
    }
    void cliCommandsScanOnce()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        TreeCopy tree(u"md-raid10-f2"_qs);
        const ProcessResult r = runCli(QStringList{u"--sysroot"_qs, tree.path()} + args);
        QVERIFY2(r.exitCode == exitCode, r.err.constData());
        QVERIFY2(r.err.contains("blocktune-cli: device scans: 1\n"), r.err.constData());
    }

    void userGroupsAreCheckedInCore_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("members");
        QTest::addColumn<QString>("complaint"); // empty: accepted
        QTest::newRow("two members") << u"exports"_qs << QStringList{u"sdb"_qs, u"/dev/sdc"_qs} << QString();
        QTest::newRow("one member") << u"exports"_qs << QStringList{u"sdb"_qs} << u"at least two devices"_qs;
        QTest::newRow("twice") << u"exports"_qs << QStringList{u"sdb"_qs, u"sdb"_qs} << u"'sdb' is listed twice"_qs;
        QTest::newRow("unknown") << u"exports"_qs << QStringList{u"sdb"_qs, u"sdz9"_qs} << u"no block device named 'sdz9'"_qs;
        QTest::newRow("device name") << u"md0"_qs << QStringList{u"sdb"_qs, u"sdc"_qs} << u"is a device name"_qs;
        QTest::newRow("path-like name") << u"a/b"_qs << QStringList{u"sdb"_qs, u"sdc"_qs} << u"not a usable group name"_qs;
        QTest::newRow("empty name") << QString() << QStringList{u"sdb"_qs, u"sdc"_qs} << u"needs a name"_qs;
    }
    void userGroupsAreCheckedInCore()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, members);
        QFETCH(QString, complaint);
        TuningSession session{SysRoot(recordedTree("md-raid10-f2"))};
        auto model = session.model();
        QVERIFY(model.ok());
        const auto group = makeUserGroup(name, members, **model);
        if (complaint.isEmpty()) {
            QVERIFY2(group.ok(), group.ok() ? "" : qPrintable(group.error().message));
            QCOMPARE(group->members, (QStringList{u"sdb"_qs, u"sdc"_qs}));
        } else {
            QVERIFY(!group.ok());
            QVERIFY2(group.error().message.contains(complaint), qPrintable(group.error().message));
        }
    }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
