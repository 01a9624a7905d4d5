// Every session operation has the same effect through both backends: this
// machine's (the Tuner, the journal, the writer) and a host's agent over a
// private sshd on 127.0.0.1 (tests/support/privatesshd.h), the host being
// this machine. Both are the product's Machine (core/machine/machine.h),
// opened as a window opens one; each operation makes its session from the
// machine (root() + sessionOptions()) and measures through its measurer().
// Each row runs one operation on the test's own loop device and checks the
// device's sysfs values and the journals afterwards.
#include "advisor/advisor.h"
#include "devices/devicemodel.h"
#include "devices/snapshot.h"
#include "machine/machine.h"
#include "outputshape.h"
#include "privatesshd.h"
#include "profiles/profiles.h"
#include "readtest/measurer.h"
#include "readtest/readtest.h"
#include "remote/remote.h"
#include "session/session.h"
#include "testloop.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSet>
#include <QRegularExpression>
#include <QTest>
#include <QThread>

#include <csignal>
#include <thread>

using namespace blocktune;
using namespace blocktune::test;

namespace {

enum class Op {
    Apply,
    TrialExpires,
    TrialKept,
    RevertSession,
    ProfileApplyVerifyRevert,
    StalePlanRefused,
    SweepRestores,
    RevertReadaheadWithLimits,
    InstallUninstallAtBoot,
    AdviseRestores,
    DeadJournalRestored,
};

/// What a row of cliCommandsHaveTheSameEffect runs through both roads.
enum class CliOp {
    SetThenGet,
    Hold,
    RestoreKilledHold,
    TestKeptInHistory,
    SweepRestores,
};

/// A session on `machine`, as a window makes its own: on its root (a
/// host's: the mirror here) with its options (a host's: its agent as the
/// backend). The machine outlives it.
std::unique_ptr<TuningSession> sessionOn(const Machine &machine)
{
    return std::make_unique<TuningSession>(machine.root(), machine.sessionOptions());
}

QStringList sessionJournals(const QString &dir)
{
    return QDir(dir).entryList({QStringLiteral("blocktune-*.json")}, QDir::Files);
}

Profile profileOf(const QString &device, quint64 kib, const QString &name = QStringLiteral("both"))
{
    const QByteArray json = QStringLiteral(R"({"schema":1,"name":"%3","rules":[{"match":{"name":"%1"},)"
                                           R"("set":{"read_ahead_kb":%2}}]})")
                                .arg(device)
                                .arg(kib)
                                .arg(name)
                                .toUtf8();
    auto p = parseProfile(json, QStringLiteral("test"));
    return p ? *p : Profile();
}

/// Removes the session journals a failed row left in the test's own
/// journal folder, so the rows after it start without them.
class JournalSweeper final
{
public:
    explicit JournalSweeper(QString dir) : m_dir(std::move(dir)) {}
    ~JournalSweeper()
    {
        if (QTest::currentTestFailed())
            for (const QString &name : sessionJournals(m_dir))
                QFile::remove(m_dir + u'/' + name);
    }
    Q_DISABLE_COPY_MOVE(JournalSweeper)

private:
    QString m_dir;
};

} // namespace

class TestBothBackends : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        m_journals = m_home.filePath(QStringLiteral("journals"));
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.toLocal8Bit());
        qputenv("BLOCKTUNE_HISTORY_DB", m_home.filePath(QStringLiteral("history.sqlite")).toLocal8Bit());
        m_hereHistory = m_home.filePath(QStringLiteral("here.sqlite"));
    }

    void everyOperationHasTheSameEffect_data()
    {
        QTest::addColumn<int>("op");
        QTest::addColumn<bool>("host");
        const std::pair<const char *, Op> ops[] = {
            {"apply", Op::Apply},
            {"trial expires", Op::TrialExpires},
            {"trial kept", Op::TrialKept},
            {"revert session", Op::RevertSession},
            {"profile apply, verify, revert from a new session", Op::ProfileApplyVerifyRevert},
            {"stale plan refused", Op::StalePlanRefused},
            {"sweep restores", Op::SweepRestores},
            {"revert of readahead and max_sectors_kb together", Op::RevertReadaheadWithLimits},
            {"install and uninstall at boot", Op::InstallUninstallAtBoot},
            {"advise restores", Op::AdviseRestores},
            {"journal of a killed session restored", Op::DeadJournalRestored},
        };
        for (const auto &[name, op] : ops)
            for (bool host : {false, true})
                QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(QLatin1StringView(name),
                                                                      host ? u"host"_qs : u"local"_qs)))
                    << int(op) << host;
    }
    void everyOperationHasTheSameEffect()
    {
        QFETCH(int, op);
        QFETCH(bool, host);
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (host && !startSshd())
            return;
        TestLoop loop(32 << 20, knownContents());
        QVERIFY(loop.isValid());
        m_dev = loop.name();
        QCOMPARE(readAhead(m_dev), quint64(128));
        // These two open their own: on a recorded tree, and after a killed CLI.
        const bool opensItsOwn = Op(op) == Op::InstallUninstallAtBoot || Op(op) == Op::DeadJournalRestored;
        std::shared_ptr<Machine> m = opensItsOwn ? nullptr : open(host);
        QVERIFY(m || opensItsOwn);
        switch (Op(op)) {
        case Op::Apply: apply(*m); break;
        case Op::TrialExpires: trialExpires(*m); break;
        case Op::TrialKept: trialKept(*m); break;
        case Op::RevertSession: revertSession(*m); break;
        case Op::ProfileApplyVerifyRevert: profileApplyVerifyRevert(std::move(m), host); break;
        case Op::StalePlanRefused: stalePlanRefused(*m); break;
        case Op::SweepRestores: sweepRestores(*m); break;
        case Op::RevertReadaheadWithLimits: revertReadaheadWithLimits(*m); break;
        case Op::InstallUninstallAtBoot: installUninstallAtBoot(host); break;
        case Op::AdviseRestores: adviseRestores(*m); break;
        case Op::DeadJournalRestored: deadJournalRestored(host); break;
        }
        if (QTest::currentTestFailed())
            return;
        // No operation leaves a session journal behind once it is done.
        QTRY_COMPARE_WITH_TIMEOUT(sessionJournals(m_journals), QStringList(), 30000);
    }

    // Two windows (or a window and a CLI) changing one device: the host's
    // lock serialises them, and the second is told who holds it.
    void secondChangerIsToldWhoHoldsTheDevice_data()
    {
        QTest::addColumn<bool>("host");
        QTest::newRow("local: a CLI beside the session") << false;
        QTest::newRow("host: a second window's session") << true;
    }
    void secondChangerIsToldWhoHoldsTheDevice()
    {
        QFETCH(bool, host);
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (host && !startSshd())
            return;
        TestLoop loop(32 << 20, knownContents());
        QVERIFY(loop.isValid());
        m_dev = loop.name();
        const std::shared_ptr<Machine> first = open(host);
        QVERIFY(first);
        const std::unique_ptr<TuningSession> firstSession = sessionOn(*first);
        QVERIFY(firstSession->applyTemporary(planReadAhead(*firstSession, 2048)).ok());
        QString refusal;
        if (host) {
            const std::shared_ptr<Machine> second = open(true);
            QVERIFY(second);
            const std::unique_ptr<TuningSession> secondSession = sessionOn(*second);
            const ChangeReport refused = secondSession->apply(planReadAhead(*secondSession, 512));
            QVERIFY(!refused.ok());
            refusal = refused.error->message;
        } else {
            const ProcessResult r = run(binary("blocktune-cli"), {QStringLiteral("set"), m_dev, QStringLiteral("read_ahead_kb=512")});
            QCOMPARE(r.exitCode, 1);
            refusal = QString::fromUtf8(r.err);
        }
        const QRegularExpression who(QStringLiteral("%1 is being changed by blocktune process \\d+").arg(m_dev));
        QVERIFY2(who.match(refusal).hasMatch(), qPrintable(refusal));
        if (!host)
            QVERIFY2(refusal.contains(QString::number(QCoreApplication::applicationPid())), qPrintable(refusal));
        QCOMPARE(readAhead(m_dev), quint64(2048)); // the holder's value, not half of each
        QVERIFY(firstSession->restoreTemporary().ok());
        QCOMPARE(readAhead(m_dev), quint64(128));
    }

    // A slow link (every chunk held 100 ms each way) that is cut, by a
    // relay between ssh and the private sshd: every operation completes or
    // fails with a clear message, and the host holds what its journal says,
    // never half of a change set.
    void slowLinkThatIsCutLeavesNoHalfChange()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (!startSshd())
            return;
        TestLoop loop(32 << 20, knownContents());
        QVERIFY(loop.isValid());
        m_dev = loop.name();
        const QString ra0 = queueAttr(m_dev, "read_ahead_kb"), ms0 = queueAttr(m_dev, "max_sectors_kb");
        const QString pidFile = m_home.filePath(QStringLiteral("slowlink.pid"));
        const QString config = m_sshd->slowLinkConfig(100, pidFile);
        const auto both = [this](TuningSession &session) {
            return session.plan({SettingChange{m_dev, QStringLiteral("read_ahead_kb"), SettingValue(quint64(1024))},
                                 SettingChange{m_dev, QStringLiteral("max_sectors_kb"), SettingValue(quint64(64))}});
        };
        const auto cut = [&] {
            QFile f(pidFile);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY(::kill(pid_t(f.readAll().trimmed().toInt()), SIGUSR1) == 0);
        };

        // Slow, not lost: a change and its revert complete.
        std::shared_ptr<Machine> m = open(true, config);
        QVERIFY(m);
        std::unique_ptr<TuningSession> session = sessionOn(*m);
        QVERIFY(session->apply(both(*session)).ok());
        QCOMPARE(queueAttr(m_dev, "read_ahead_kb"), u"1024"_qs);
        QCOMPARE(queueAttr(m_dev, "max_sectors_kb"), u"64"_qs);
        QVERIFY(session->revertAll().ok());
        QCOMPARE(queueAttr(m_dev, "read_ahead_kb"), ra0);
        QCOMPARE(queueAttr(m_dev, "max_sectors_kb"), ms0);

        // Cut while a trial is held: the client says the link is gone, the
        // agent puts both values back from its journal.
        QVERIFY(session->applyTemporary(both(*session)).ok());
        cut();
        const RestoreReport late = session->restoreTemporary();
        QVERIFY2(late.messages.join(u' ').contains(u"lost"_qs), qPrintable(late.messages.join(u' ')));
        QTRY_COMPARE_WITH_TIMEOUT(queueAttr(m_dev, "read_ahead_kb"), ra0, 30000);
        QCOMPARE(queueAttr(m_dev, "max_sectors_kb"), ms0);
        QTRY_COMPARE_WITH_TIMEOUT(sessionJournals(m_journals), QStringList(), 30000);
        session.reset();
        m.reset();

        // Cut while a change set travels: it arrived whole or not at all.
        m = open(true, config);
        QVERIFY(m);
        session = sessionOn(*m);
        const ChangePlan plan = both(*session);
        std::optional<ChangeReport> report;
        std::thread applying([&] { report = session->apply(plan); });
        QThread::msleep(120);
        cut();
        applying.join();
        QVERIFY(report);
        if (!report->ok())
            QVERIFY2(!report->error->message.isEmpty(), "a failed change says why");
        QTRY_COMPARE_WITH_TIMEOUT(sessionJournals(m_journals), QStringList(), 30000);
        const QString ra = queueAttr(m_dev, "read_ahead_kb"), ms = queueAttr(m_dev, "max_sectors_kb");
        QVERIFY2((ra == u"1024"_qs && ms == u"64"_qs) || (ra == ra0 && ms == ms0),
                 qPrintable(QStringLiteral("half a change: read_ahead_kb %1, max_sectors_kb %2").arg(ra, ms)));
        session.reset();
        m.reset();
        setQueueAttr(m_dev, "read_ahead_kb", ra0);
        setQueueAttr(m_dev, "max_sectors_kb", ms0);
    }

    // The CLI's commands through both roads on the test's own loop device:
    // `blocktune-cli CMD` here, then `blocktune-cli --host testhost ... CMD`
    // (the host's Machine, its agent's typed ops). Each has the same effect
    // on the device and prints the same (measured: the same shape; a host's
    // paths, HOST:PATH, read as here's). The device is put back to 128 KiB
    // readahead after each road, on every path.
    void cliCommandsHaveTheSameEffect_data()
    {
        QTest::addColumn<int>("op");
        QTest::newRow("set, then get --json") << int(CliOp::SetThenGet);
        QTest::newRow("set --hold, restored when it ends") << int(CliOp::Hold);
        QTest::newRow("restore of a killed hold's journal") << int(CliOp::RestoreKilledHold);
        QTest::newRow("test seq, kept in the history") << int(CliOp::TestKeptInHistory);
        QTest::newRow("sweep restores") << int(CliOp::SweepRestores);
    }
    void cliCommandsHaveTheSameEffect()
    {
        QFETCH(int, op);
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (!startSshd())
            return;
        TestLoop loop(32 << 20, knownContents());
        QVERIFY(loop.isValid());
        m_dev = loop.name();
        const JournalSweeper sweeper(m_journals);
        QStringList printed[2]; // here, through the host
        for (const bool host : {false, true}) {
            qInfo("%s", host ? "through the host (--host testhost)" : "here");
            const auto back = qScopeGuard([this] { setQueueAttr(m_dev, "read_ahead_kb", QStringLiteral("128")); });
            QCOMPARE(readAhead(m_dev), quint64(128));
            QStringList &out = printed[host ? 1 : 0];
            switch (CliOp(op)) {
            case CliOp::SetThenGet: cliSetThenGet(host, out); break;
            case CliOp::Hold: cliHold(host, out); break;
            case CliOp::RestoreKilledHold: cliRestoreKilledHold(host, out); break;
            case CliOp::TestKeptInHistory: cliTestKeptInHistory(host, out); break;
            case CliOp::SweepRestores: cliSweepRestores(host, out); break;
            }
            if (QTest::currentTestFailed())
                return;
            // No command leaves a session journal behind once it is done.
            QTRY_COMPARE_WITH_TIMEOUT(sessionJournals(m_journals), QStringList(), 30000);
        }
        QCOMPARE(printed[1].size(), printed[0].size());
        for (qsizetype i = 0; i < printed[0].size(); ++i)
            QCOMPARE(printed[1].at(i), printed[0].at(i));
    }

private:
    QStringList hostArgs() const
    {
        return {QStringLiteral("--host"), PrivateSshd::host(), QStringLiteral("--ssh-config"), m_sshd->sshConfig(),
                QStringLiteral("--remote-command"), PrivateSshd::agentCommand()};
    }

    /// blocktune-cli ARGS here, or through the host. The host's client has
    /// a history of its own (m_hereHistory), not the one the host's agent
    /// keeps (BLOCKTUNE_HISTORY_DB, as the local road's): what the host
    /// measured is seen kept there, not here.
    ProcessResult cli(bool host, const QStringList &args) const
    {
        if (!host)
            return run(binary("blocktune-cli"), args);
        return run(QStringLiteral("env"),
                   QStringList{u"BLOCKTUNE_HISTORY_DB="_qs + m_hereHistory, binary("blocktune-cli")} + hostArgs() + args);
    }

    static QJsonObject jsonOf(const QByteArray &out) { return QJsonDocument::fromJson(out).object(); }
    /// What a road printed, a host's paths (HOST:PATH) read as this machine's
    /// (the agent here shares its folders).
    static QString asHere(QByteArray text) { return QString::fromUtf8(text.replace("testhost:/", "/")); }

    /// The records of the row's device, newest first: in the history `db`
    /// read here, or through a road (`history --json --device DEV`: a host's
    /// copied from it).
    QJsonArray recordsIn(const QString &db) const
    {
        const ProcessResult r = run(QStringLiteral("env"), {u"BLOCKTUNE_HISTORY_DB="_qs + db, binary("blocktune-cli"),
                                                            u"history"_qs, u"--json"_qs, u"--device"_qs, m_dev});
        return jsonOf(r.out).value(u"records").toArray();
    }
    QJsonArray recordsThrough(bool host) const
    {
        const ProcessResult r = cli(host, {u"history"_qs, u"--json"_qs, u"--device"_qs, m_dev, u"--limit"_qs, u"5"_qs});
        if (r.exitCode != 0)
            qWarning("history: %s", r.err.constData());
        return jsonOf(r.out).value(u"records").toArray();
    }

    void cliSetThenGet(bool host, QStringList &printed)
    {
        const ProcessResult set = cli(host, {u"set"_qs, m_dev, u"read_ahead_kb=1024"_qs});
        QVERIFY2(set.exitCode == 0, set.err.constData());
        QCOMPARE(readAhead(m_dev), quint64(1024)); // the device changed
        const ProcessResult got = cli(host, {u"get"_qs, m_dev, u"--json"_qs});
        QVERIFY2(got.exitCode == 0, got.err.constData());
        const QJsonObject seen = jsonOf(got.out);
        QCOMPARE(seen.value(u"name").toString(), m_dev);
        QCOMPARE(seen.value(u"read_ahead_kb").toInteger(), qint64(1024)); // and get sees it
        printed << asHere(set.out) << asHere(set.err) << asHere(got.out);
    }

    void cliHold(bool host, QStringList &printed)
    {
        QProcess held;
        QVERIFY(startHold(held, (host ? hostArgs() : QStringList())
                                    + QStringList{u"set"_qs, m_dev, u"read_ahead_kb=2048"_qs, u"--hold"_qs, u"3s"_qs}));
        QCOMPARE(readAhead(m_dev), quint64(2048)); // held
        QCOMPARE(sessionJournals(m_journals).size(), 1); // the crash cover: here, or the host's agent's
        QVERIFY(held.waitForFinished(30000));
        QCOMPARE(held.exitStatus(), QProcess::NormalExit);
        QCOMPARE(held.exitCode(), 0);
        QCOMPARE(readAhead(m_dev), quint64(128)); // restored when the hold ended
        printed << withoutFigures(held.readAllStandardOutput()) << asHere(held.readAllStandardError());
    }

    // A hold killed here (kill -9) leaves its journal; `restore` through
    // the road finds it (the host's agent: in its journal folder, this one)
    // and puts the device back.
    void cliRestoreKilledHold(bool host, QStringList &printed)
    {
        QProcess held;
        QVERIFY(startHold(held, {u"set"_qs, m_dev, u"read_ahead_kb=4096"_qs, u"--hold"_qs, u"120"_qs}));
        held.kill();
        QVERIFY(held.waitForFinished(30000));
        QCOMPARE(readAhead(m_dev), quint64(4096));
        QCOMPARE(sessionJournals(m_journals).size(), 1);
        const ProcessResult restored = cli(host, {u"restore"_qs, u"--json"_qs});
        QVERIFY2(restored.exitCode == 0, restored.err.constData());
        QCOMPARE(readAhead(m_dev), quint64(128));
        QCOMPARE(sessionJournals(m_journals), QStringList());
        const QJsonObject report = jsonOf(restored.out);
        QCOMPARE(report.value(u"journals").toArray().size(), 1);
        QVERIFY2(report.value(u"ok").toBool(), restored.out.constData());
        printed << jsonShape(report);
    }

    // A read test leaves readahead as it was and is kept in the machine's
    // history, which `history` through the same road shows: here, this
    // machine's; through the host, the host's agent keeps it there (its
    // BLOCKTUNE_HISTORY_DB, this machine's here) and the client keeps
    // nothing in its own.
    void cliTestKeptInHistory(bool host, QStringList &printed)
    {
        QVERIFY(setQueueAttr(m_dev, "read_ahead_kb", QStringLiteral("256")));
        const QJsonArray before = recordsThrough(host);
        const qint64 newestBefore = before.isEmpty() ? 0 : before.first()[u"id"].toInteger();
        const ProcessResult tested = cli(host, {u"test"_qs, u"seq"_qs, m_dev, u"--size"_qs, u"8M"_qs, u"--repeat"_qs,
                                                u"1"_qs, u"--json"_qs});
        QVERIFY2(tested.exitCode == 0, tested.err.constData());
        QCOMPARE(readAhead(m_dev), quint64(256)); // as it was
        const QJsonObject result = jsonOf(tested.out);
        QVERIFY2(!result.isEmpty(), tested.out.constData());

        const QJsonArray kept = recordsThrough(host);
        QVERIFY(!kept.isEmpty());
        const QJsonObject newest = kept.first().toObject();
        QVERIFY2(newest[u"id"].toInteger() > newestBefore, "the test just made is not in the history");
        QCOMPARE(newest[u"kind"].toString(), u"test"_qs);
        QCOMPARE(newest[u"test"].toString(), u"seq"_qs);
        QCOMPARE(newest[u"device"].toString(), m_dev);
        QCOMPARE(newest[u"source"].toString(), u"cli"_qs); // the CLI's, through the host too
        QCOMPARE(newest[u"devices"][0][u"read_ahead_kb"].toInteger(), qint64(256)); // what was in force
        if (host) {
            // Kept there: in the history the host's agent writes...
            const QJsonArray there = recordsIn(m_home.filePath(u"history.sqlite"_qs));
            QVERIFY(!there.isEmpty());
            QCOMPARE(there.first()[u"id"].toInteger(), newest[u"id"].toInteger());
            // ...and not in the client's own.
            QCOMPARE(recordsIn(m_hereHistory).size(), 0);
        }
        printed << jsonShape(result) << jsonShape(newest);
    }

    void cliSweepRestores(bool host, QStringList &printed)
    {
        QVERIFY(setQueueAttr(m_dev, "read_ahead_kb", QStringLiteral("256")));
        const ProcessResult swept = cli(host, {u"sweep"_qs, m_dev, u"--ra"_qs, u"64,1024"_qs, u"--size"_qs, u"8M"_qs,
                                               u"--repeat"_qs, u"1"_qs, u"--json"_qs});
        QVERIFY2(swept.exitCode == 0, swept.err.constData());
        QCOMPARE(readAhead(m_dev), quint64(256)); // put back
        const QJsonObject result = jsonOf(swept.out);
        const QJsonArray points = result[u"points"].toArray();
        QCOMPARE(points.size(), 2);
        QCOMPARE(points.at(1)[u"read_ahead_kb"].toInteger(), qint64(1024));
        QCOMPARE(result[u"original_read_ahead_kb"].toInteger(), qint64(256));
        QVERIFY(result[u"restored"].toBool());
        printed << jsonShape(result);
    }

    bool startSshd()
    {
        if (const QString why = PrivateSshd::unavailable(); !why.isEmpty()) {
            if (rootRequired())
                qFatal("BLOCKTUNE_REQUIRE_ROOT=1 forbids skipping: %s", qPrintable(why));
            QTest::qSkip(qPrintable(why), __FILE__, __LINE__);
            return false;
        }
        if (!m_sshd) {
            m_sshd = std::make_unique<PrivateSshd>();
            const QString started = m_sshd->start();
            if (!started.isEmpty()) {
                QTest::qFail(qPrintable(started), __FILE__, __LINE__);
                return false;
            }
        }
        return true;
    }

    /// This machine, or the host (its agent on this machine through the
    /// private sshd), opened as a window opens it (the host's whole mirror
    /// recorded at connect); on the tree `sysroot` instead of the live
    /// machine when one is given (the agent's --sysroot).
    std::shared_ptr<Machine> open(bool host, const QString &sshConfig = {}, const QString &sysroot = {})
    {
        if (!host)
            return openMachine(sysroot.isEmpty() ? SysRoot() : SysRoot(sysroot));
        RemoteTarget target;
        target.host = PrivateSshd::host();
        target.sshConfig = sshConfig.isEmpty() ? m_sshd->sshConfig() : sshConfig;
        target.remoteCommand = sysroot.isEmpty()
                                   ? PrivateSshd::agentCommand()
                                   : PrivateSshd::agentCommand(u"--sysroot "_qs + PrivateSshd::quote(sysroot) + u" agent"_qs);
        auto machine = openMachine(target);
        if (!machine) {
            qWarning("%s", qPrintable(machine.error().message));
            return nullptr;
        }
        return *machine;
    }

    ChangePlan planReadAhead(TuningSession &session, quint64 kib)
    {
        return session.plan({SettingChange{m_dev, QStringLiteral("read_ahead_kb"), SettingValue(kib)}});
    }

    /// What the session's model says now (a host's: its mirror, patched
    /// after each change).
    quint64 modelReadAhead(TuningSession &session)
    {
        auto settings = session.settings(m_dev);
        return settings ? settings->readAheadKiB.value_or(0) : 0;
    }

    void apply(Machine &m)
    {
        const std::unique_ptr<TuningSession> session = sessionOn(m);
        const ChangeReport done = session->apply(planReadAhead(*session, 1024));
        QVERIFY2(done.ok(), qPrintable(done.error ? done.error->message : QString()));
        QCOMPARE(readAhead(m_dev), quint64(1024));
        QCOMPARE(modelReadAhead(*session), quint64(1024));
        QCOMPARE(session->persistentCount(), 1);
        QVERIFY(session->revertAll().ok());
        QCOMPARE(readAhead(m_dev), quint64(128));
        QCOMPARE(modelReadAhead(*session), quint64(128));
    }

    void trialExpires(Machine &m)
    {
        const std::unique_ptr<TuningSession> session = sessionOn(m);
        QVERIFY(session->applyTemporary(planReadAhead(*session, 2048)).ok());
        QCOMPARE(readAhead(m_dev), quint64(2048));
        QCOMPARE(session->temporaryCount(), 1);
        QCOMPARE(sessionJournals(m_journals).size(), 1); // the crash cover, wherever the writes are
        QVERIFY(session->restoreTemporary().ok());
        QCOMPARE(readAhead(m_dev), quint64(128));
        QCOMPARE(session->temporaryCount(), 0);
        QCOMPARE(modelReadAhead(*session), quint64(128));
    }

    void trialKept(Machine &m)
    {
        const std::unique_ptr<TuningSession> session = sessionOn(m);
        QVERIFY(session->applyTemporary(planReadAhead(*session, 512)).ok());
        session->keepTemporary();
        QCOMPARE(session->temporaryCount(), 0);
        QCOMPARE(session->persistentCount(), 1);
        QCOMPARE(readAhead(m_dev), quint64(512));
        QVERIFY(session->revertAll().ok());
        QCOMPARE(readAhead(m_dev), quint64(128));
    }

    void revertSession(Machine &m)
    {
        const std::unique_ptr<TuningSession> session = sessionOn(m);
        QVERIFY(session->apply(planReadAhead(*session, 4096)).ok());
        QVERIFY(session->applyTemporary(planReadAhead(*session, 8192)).ok());
        QCOMPARE(readAhead(m_dev), quint64(8192));
        const RestoreReport back = session->revertAll();
        QVERIFY(back.ok());
        QCOMPARE(readAhead(m_dev), quint64(128));
        QCOMPARE(session->temporaryCount(), 0);
        QCOMPARE(session->persistentCount(), 0);
    }

    void profileApplyVerifyRevert(std::shared_ptr<Machine> m, bool host)
    {
        std::unique_ptr<TuningSession> session = sessionOn(*m);
        const Profile profile = profileOf(m_dev, 1024);
        QVERIFY(!profile.name.isEmpty());
        const ProfileApplyReport done = applyProfile(profile, *session);
        QVERIFY2(done.ok(), qPrintable(done.report.error ? done.report.error->message : QString()));
        QCOMPARE(readAhead(m_dev), quint64(1024));
        QVERIFY2(done.statePath.startsWith(host ? u"testhost:"_qs : m_journals), qPrintable(done.statePath));
        // Verify on the session's model: a host's mirror followed the change.
        auto model = session->model();
        QVERIFY(model.ok());
        const VerifyReport verified = verifyProfile(profile, session->root(), **model);
        QVERIFY2(verified.drifts.isEmpty(), "the model still shows the value from before the apply");
        auto state = session->appliedState();
        QVERIFY(state.ok() && state->has_value());
        QCOMPARE((*state)->profiles, QStringList{u"both"_qs});
        // The revert comes from another process, as `profile revert` does.
        session.reset();
        m.reset();
        const std::shared_ptr<Machine> later = open(host);
        QVERIFY(later);
        const std::unique_ptr<TuningSession> laterSession = sessionOn(*later);
        const ProfileRevertReport back = revertProfile(*laterSession);
        QVERIFY2(back.ok(), qPrintable(back.restore.messages.join(u"; ")));
        QVERIFY(back.state);
        QCOMPARE(back.state->profiles, QStringList{u"both"_qs});
        QCOMPARE(readAhead(m_dev), quint64(128));
        QCOMPARE(modelReadAhead(*laterSession), quint64(128));
        QVERIFY(!QFileInfo::exists(m_journals + u"/profile-state.json"));
        // Nothing is left to revert.
        const ProfileRevertReport again = revertProfile(*laterSession);
        QVERIFY(!again.state);
        QVERIFY2(again.restore.messages.join(u' ').contains(u"no profile was applied here"),
                 qPrintable(again.restore.messages.join(u' ')));
    }

    void stalePlanRefused(Machine &m)
    {
        const std::unique_ptr<TuningSession> session = sessionOn(m);
        const ChangePlan plan = planReadAhead(*session, 1024);
        QVERIFY(plan.ok());
        // Someone else changes the device after the plan was made.
        QVERIFY(setQueueAttr(m_dev, "read_ahead_kb", QStringLiteral("256")));
        const ChangeReport refused = session->apply(plan);
        QVERIFY(!refused.ok());
        const QString why = refused.error->message;
        QVERIFY2(why.contains(u"read_ahead_kb on "_qs + m_dev) && why.contains(u"256"), qPrintable(why));
        QCOMPARE(readAhead(m_dev), quint64(256)); // the other's value stays
        QVERIFY(setQueueAttr(m_dev, "read_ahead_kb", QStringLiteral("128")));
    }

    void sweepRestores(Machine &m)
    {
        const std::unique_ptr<TuningSession> session = sessionOn(m);
        SweepSpec spec;
        spec.device = m_dev;
        spec.readAheadKiB = {64, 1024};
        spec.test.measure = {StreamTarget{m_dev, 0}};
        spec.test.blockSize = 64 * 1024;
        spec.test.sizeBytes = 4 << 20;
        spec.test.repeat = 1;
        // Prepared on the model (a host's: its mirror), run where the machine's measurer reads.
        auto model = session->model();
        QVERIFY(model.ok());
        auto sweep = ReadaheadSweep::prepare(session->root(), **model, spec);
        QVERIFY2(sweep.ok(), qPrintable(sweep.ok() ? QString() : sweep.error().message));
        const SweepResult result = m.measurer()->runSweep(*session, *sweep, {}, nullptr);
        QVERIFY2(!result.failed, qPrintable(result.errors.join(u"; ")));
        QCOMPARE(result.points.size(), 2);
        QCOMPARE(result.points.at(1).readAheadKiB, quint64(1024));
        QCOMPARE(readAhead(m_dev), quint64(128));
    }

    // Writing max_sectors_kb back re-applies the queue limits, which raised
    // readahead to 2 x max_sectors_kb (6.18) when readahead came back first.
    void revertReadaheadWithLimits(Machine &m)
    {
        const std::unique_ptr<TuningSession> session = sessionOn(m);
        const QString ra0 = queueAttr(m_dev, "read_ahead_kb"), ms0 = queueAttr(m_dev, "max_sectors_kb");
        const ChangePlan plan = session->plan({SettingChange{m_dev, QStringLiteral("read_ahead_kb"), SettingValue(quint64(1024))},
                                                 SettingChange{m_dev, QStringLiteral("max_sectors_kb"), SettingValue(quint64(64))}});
        QVERIFY(session->apply(plan).ok());
        QCOMPARE(queueAttr(m_dev, "max_sectors_kb"), u"64"_qs);
        QVERIFY(session->revertAll().ok());
        QCOMPARE(queueAttr(m_dev, "read_ahead_kb"), ra0);
        QCOMPARE(queueAttr(m_dev, "max_sectors_kb"), ms0);
    }

    // A profile installed at boot: its udev rules file appears in the
    // machine's etc/udev/rules.d and goes again. On a recording of this
    // machine (the test's loop device in it) with a rules folder, which
    // the host's agent serves too (--sysroot): this VM has no udevd and no
    // /etc/udev/rules.d, and where udevd runs a live install replays change
    // events on every block device, which a test must not do to devices it
    // did not make. A tree runs no udevadm.
    void installUninstallAtBoot(bool host)
    {
        QTemporaryDir tree;
        QVERIFY(tree.isValid());
        const auto recorded = recordSnapshot(SysRoot(), tree.path());
        QVERIFY2(recorded.ok(), qPrintable(recorded.ok() ? QString() : recorded.error().message));
        QVERIFY(QDir(tree.path()).mkpath(u"etc/udev/rules.d"_qs)); // a machine with udev
        const QString rulesDir = tree.filePath(u"etc/udev/rules.d"_qs);
        const std::shared_ptr<Machine> m = open(host, {}, tree.path());
        QVERIFY(m);
        const std::unique_ptr<TuningSession> session = sessionOn(*m);

        const Profile profile = profileOf(m_dev, 4096, QStringLiteral("both-%1").arg(QCoreApplication::applicationPid()));
        QVERIFY(!profile.name.isEmpty());
        const auto rules = exportUdevRules(profile);
        QVERIFY2(rules.ok(), qPrintable(rules.ok() ? QString() : rules.error().message));
        // Its rule matches the test's loop device by name and nothing else.
        const QByteArray match = QStringLiteral("KERNEL==\"%1\"").arg(m_dev).toUtf8();
        QVERIFY2(rules->text.contains(match), rules->text.constData());
        const QString name = udevRulesFileName(profile.name);
        const QString file = rulesDir + u'/' + name;

        const auto installed = session->changeUdevRules(RulesChange::Install, name, rules->text);
        QVERIFY2(installed.ok(), qPrintable(installed.ok() ? QString() : installed.error().message));
        QVERIFY2(installed->path.startsWith(host ? u"testhost:"_qs : QString()), qPrintable(installed->path));
        QVERIFY2(installed->path.endsWith(u"/etc/udev/rules.d/"_qs + name), qPrintable(installed->path));
        QCOMPARE(QDir(rulesDir).entryList(QDir::Files | QDir::Hidden), QStringList{name});
        QFile written(file);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), rules->text);
        QVERIFY(installed->commands.isEmpty()); // no udevadm on a tree
        QCOMPARE(readAhead(m_dev), quint64(128)); // installed for the next boot, not applied now

        const auto removed = session->changeUdevRules(RulesChange::Remove, name);
        QVERIFY2(removed.ok(), qPrintable(removed.ok() ? QString() : removed.error().message));
        QCOMPARE(QDir(rulesDir).entryList(QDir::Files | QDir::Hidden), QStringList());
        // Uninstalled twice: the second says there is nothing to remove.
        const auto again = session->changeUdevRules(RulesChange::Remove, name);
        QVERIFY(!again.ok());
        QVERIFY2(again.error().message.contains(name + u" is not installed"_qs), qPrintable(again.error().message));
    }

    // The advisor's sweep sets every point as a temporary change through
    // the session (a host's through its agent) and puts the device back.
    void adviseRestores(Machine &m)
    {
        const std::unique_ptr<TuningSession> session = sessionOn(m);
        const std::shared_ptr<Measurer> measurer = m.measurer();
        ReadTestEngine engine(*session, *measurer, m_dev);
        AdviseSpec spec;
        spec.device = m_dev;
        spec.budgetMs = 7000; // the least for a 32 MiB device (12 points, 53 runs) is 5.9 s
        QList<std::pair<quint64, quint64>> measuredAt; // the point's readahead, the device's then
        const auto advice = advise(*session, engine, spec, [&](const CurvePoint &p) {
            measuredAt.append({p.readAheadKiB, readAhead(m_dev)});
        });
        QVERIFY2(advice.ok(), qPrintable(advice.ok() ? QString() : advice.error().message));
        QVERIFY(!advice->cancelled);
        // One report per run (each point three times or more), each run at
        // its point's readahead.
        QSet<quint64> points;
        for (const auto &[point, device] : std::as_const(measuredAt))
            points.insert(point);
        QCOMPARE(qsizetype(points.size()), advice->curve.size());
        QCOMPARE(qsizetype(measuredAt.size()), qsizetype(advice->runs));
        QVERIFY(measuredAt.size() >= 3 * points.size());
        for (const auto &[point, device] : std::as_const(measuredAt))
            QCOMPARE(device, point); // each point was read at its own readahead, on the device
        QVERIFY2(advice->restored, qPrintable(advice->restoreMessage));
        QCOMPARE(advice->originalKiB.value_or(0), quint64(128));
        QCOMPARE(readAhead(m_dev), quint64(128));
        QCOMPARE(modelReadAhead(*session), quint64(128));
        QCOMPARE(session->temporaryCount(), 0);
    }

    // A session killed (kill -9) while it held a trial leaves its journal;
    // the next session finds it (through the agent: the host's) and puts
    // the device back.
    void deadJournalRestored(bool host)
    {
        const JournalSweeper sweeper(m_journals);
        QProcess held;
        QVERIFY(startHold(held, {u"set"_qs, m_dev, u"read_ahead_kb=4096"_qs, u"--hold"_qs, u"120"_qs}));
        const qint64 pid = held.processId();
        held.kill(); // SIGKILL: no chance to restore
        QVERIFY(held.waitForFinished(30000));
        QCOMPARE(readAhead(m_dev), quint64(4096));
        const QStringList left = sessionJournals(m_journals);
        QCOMPARE(left.size(), 1);

        const std::shared_ptr<Machine> next = open(host);
        QVERIFY(next);
        const std::unique_ptr<TuningSession> session = sessionOn(*next);
        QCOMPARE(modelReadAhead(*session), quint64(4096));
        const QList<PendingJournal> dead = session->deadJournals();
        QCOMPARE(dead.size(), 1);
        QCOMPARE(dead.at(0).path, (host ? u"testhost:"_qs : QString()) + m_journals + u'/' + left.at(0));
        QVERIFY2(dead.at(0).journal, qPrintable(dead.at(0).error));
        const Journal journal = *dead.at(0).journal;
        QCOMPARE(journal.pid, pid);
        QCOMPARE(journal.entries.size(), 1);
        QCOMPARE(journal.entries.at(0).device, m_dev);
        QCOMPARE(journal.entries.at(0).attribute, QString(attribute::ReadAheadKb));
        QCOMPARE(journal.entries.at(0).original, u"128"_qs);

        const RestoreReport back = session->restoreJournal(journal);
        QVERIFY2(back.ok(), qPrintable(back.messages.join(u"; ")));
        QCOMPARE(back.items.size(), 1);
        QCOMPARE(restoreStatusName(back.items.at(0).status), restoreStatusName(RestoreStatus::Restored));
        QCOMPARE(readAhead(m_dev), quint64(128));
        QCOMPARE(modelReadAhead(*session), quint64(128)); // a host's mirror followed
        QCOMPARE(sessionJournals(m_journals), QStringList());
        QVERIFY(session->deadJournals().isEmpty());
    }

    QTemporaryDir m_home;
    QString m_journals;
    QString m_hereHistory; ///< the host's client's own history (cli())
    std::unique_ptr<PrivateSshd> m_sshd;
    QString m_dev;
};

QTEST_GUILESS_MAIN(TestBothBackends)
#include "tst_bothbackends.moc"
