// The Machine a window is made on (core/machine/machine.h): this machine as
// it runs and a recorded tree, asked what they can do and where their
// history, profiles, counters and hotplug are; and the views, which take
// what they show from the machine, not from where the session's files are.

#include "advisor/adviseview.h"
#include "console/consolesession.h"
#include "history/history.h"
#include "machine/machine.h"
#include "mainwindow.h"
#include "monitor/monitor.h"
#include "monitor/monitorview.h"
#include "pageheader.h"
#include "privatesshd.h"
#include "readtest/readtestview.h"
#include "sessionsupport.h"
#include "testsupport.h"

#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <csignal>

#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

/// A machine that says what a host says (the measurements and the
/// temporary changes are kept there) while its session is a recorded
/// tree's: a view that looked at the session instead would not know.
class FarMachine final : public Machine
{
public:
    explicit FarMachine(SysRoot root) : m_root(std::move(root)) {}
    QString displayName() const override { return QStringLiteral("far.example"); }
    const SysRoot &root() const override { return m_root; }
    SessionOptions sessionOptions() const override { return {}; }
    MachineCapabilities capabilities() const override
    {
        MachineCapabilities c;
        c.write = true;
        c.measure = true;
        c.latencyProbe = true;
        c.keepsItsOwnHistory = true;
        c.changesHeldThere = true;
        return c;
    }
    std::shared_ptr<Measurer> measurer() const override { return makeLocalMeasurer(m_root); }
    QString historyPath() const override { return QStringLiteral("/nonexistent/far.sqlite"); }
    bool refreshHistory(QObject *, std::function<void(const QString &)>) override { return false; }
    std::shared_ptr<ProfileLibrary> profiles() const override { return {}; }
    QString profileUserDir() const override { return {}; }
    DeviceEvents *watchDevices(QObject *) override { return nullptr; }

private:
    SysRoot m_root;
};

QStringList labelTexts(const QWidget &widget)
{
    QStringList texts;
    for (const QLabel *label : widget.findChildren<QLabel *>())
        texts << label->text();
    return texts;
}

} // namespace

class TestMachine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A recorded tree is shown, never measured: its counters are its files
    // (one frozen reading), nothing follows its hotplug, it has no
    // connection to lose, and its history and profiles are this machine's.
    void aRecordedTreeIsShownNotMeasured()
    {
        const QString tree = recordedTree("md-raid10-f2");
        SessionOptions options;
        options.readOnlyReason = QStringLiteral("a recording");
        const std::shared_ptr<Machine> machine = openMachine(SysRoot(tree), options);
        QCOMPARE(machine->displayName(), tree);
        QCOMPARE(machine->root().root(), tree);
        QCOMPARE(machine->readOnlyReason(), u"a recording"_qs);
        QVERIFY(!machine->sessionOptions().backend); // the session's own backend on the tree

        const MachineCapabilities can = machine->capabilities();
        QVERIFY(!can.write);
        QVERIFY(!can.measure);
        QVERIFY(!can.latencyProbe);
        QVERIFY(!can.readaheadProbe);
        QCOMPARE(can.noReadaheadProbe, u"a recorded tree (--sysroot) has no running kernel or workload to watch"_qs);
        const auto readahead = machine->openReadaheadSource();
        QVERIFY(!readahead);
        QCOMPARE(readahead.error().message, can.noReadaheadProbe);
        QVERIFY(can.frozenCounters);
        QVERIFY(!can.keepsItsOwnHistory);
        QVERIFY(!can.changesHeldThere);

        // The counters are the tree's /proc/diskstats, as recorded.
        std::unique_ptr<CounterSource> counters = machine->measurer()->counterSource();
        const auto stats = counters->diskStats();
        QVERIFY2(stats, qPrintable(stats ? QString() : stats.error().message));
        QVERIFY2(stats->startsWith("   8       0 sda 94553 18822 5280824"), stats->left(80).constData());
        QVERIFY(!machine->measurer()->latencyLoader()); // the monitor's own (none on a tree)

        QObject parent;
        QVERIFY(!machine->watchDevices(&parent));
        QVERIFY(!machine->isConnectionLost());
        QVERIFY(!machine->previousEnd());
        bool called = false;
        QVERIFY(!machine->refreshHistory(&parent, [&](const QString &) { called = true; }));
        QCoreApplication::processEvents();
        QVERIFY(!called);
        QCOMPARE(machine->historyPath(), HistoryStore::defaultPath());
        QVERIFY(machine->profiles());
        QVERIFY(machine->profiles()->host().isEmpty());
        QCOMPARE(machine->profileUserDir(), ProfileStore::standard(SysRoot(tree)).userDir());
    }

    // A test's writable copy of a tree may be written, still not measured.
    void aWritableTreeWritesButDoesNotMeasure()
    {
        const std::shared_ptr<Machine> machine = openMachine(SysRoot(recordedTree("nvme-parts")));
        QVERIFY(machine->capabilities().write);
        QVERIFY(!machine->capabilities().measure);
    }

    // This machine as it runs: measured, its hotplug told as it happens.
    void theLiveMachineMeasuresAndFollowsHotplug()
    {
        const std::shared_ptr<Machine> machine = openMachine(SysRoot());
        QVERIFY(machine->displayName().isEmpty());
        const MachineCapabilities can = machine->capabilities();
        QVERIFY(can.write);
        QVERIFY(can.measure);
        QVERIFY(can.latencyProbe);
        QVERIFY(can.readaheadProbe);
        QVERIFY(!can.frozenCounters);
        QVERIFY(!can.keepsItsOwnHistory);
        QObject parent;
        DeviceEvents *events = machine->watchDevices(&parent);
        QVERIFY(events);
        QCOMPARE(events->parent(), &parent);
        QCOMPARE(events->pollIntervalMs(), 0);
        QVERIFY(!events->isRunning()); // started by its owner
    }

    // The window makes its session from the machine and shows the machine:
    // its name in the title, its frozen counters, no hotplug on a tree.
    void aWindowOnATreeShowsItsMachine()
    {
        const QString tree = recordedTree("md-raid10-f2");
        MainWindow window(tree, u"md0"_qs);
        QTRY_VERIFY_WITH_TIMEOUT(window.isReady(), 30000);
        QCOMPARE(window.machine()->displayName(), tree);
        QCOMPARE(window.session()->root().root(), tree);
        QCOMPARE(window.windowTitle(), u"blocktune — %1"_qs.arg(tree));
        QVERIFY(window.monitorView()->isRecording());
        QVERIFY(!window.findChild<DeviceEvents *>());
        QVERIFY(!window.isConnectionLost());
    }

    // A host (the private sshd): made on a thread and handed to this one,
    // measured there, its history copied beside its mirror, its hotplug
    // asked for, and its connection's loss told once, after which nothing
    // is fetched.
    void aHostIsAskedThereAndSaysWhenItIsLost()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (const QString why = PrivateSshd::unavailable(); !why.isEmpty()) {
            if (rootRequired())
                QFAIL(qPrintable(u"BLOCKTUNE_REQUIRE_ROOT=1 forbids skipping: " + why));
            QSKIP(qPrintable(why));
        }
        PrivateSshd sshd;
        const QString started = sshd.start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
        RemoteTarget target;
        target.host = PrivateSshd::host();
        target.sshConfig = sshd.sshConfig();
        target.remoteCommand = PrivateSshd::agentCommand();
        QObject context;
        std::optional<Result<std::shared_ptr<Machine>>> opened;
        openMachineInBackground(&context, target, [&](Result<std::shared_ptr<Machine>> m) { opened = std::move(m); });
        QTRY_VERIFY_WITH_TIMEOUT(opened.has_value(), 60000);
        QVERIFY2(opened->ok(), qPrintable(opened->ok() ? QString() : opened->error().message));
        const std::shared_ptr<Machine> machine = **opened;
        QCOMPARE(machine->thread(), QThread::currentThread());

        QCOMPARE(machine->displayName(), u"testhost"_qs);
        QVERIFY(QFileInfo(machine->root().root() + u"/sys/block"_qs).isDir()); // the mirror
        QVERIFY(machine->sessionOptions().backend);
        const MachineCapabilities can = machine->capabilities();
        QVERIFY(can.write); // root there
        QVERIFY(can.measure);
        QVERIFY(can.keepsItsOwnHistory);
        QVERIFY(can.changesHeldThere);
        QVERIFY(!can.frozenCounters);
        QVERIFY(machine->measurer()->latencyLoader()); // the host's histograms
        // The host's readahead probe, through its agent (root there).
        QVERIFY2(can.readaheadProbe, qPrintable(can.noReadaheadProbe));
        if (ReadaheadProbe::builtIn()) {
            auto readahead = machine->openReadaheadSource();
            QVERIFY2(readahead, qPrintable(readahead ? QString() : readahead.error().message));
            auto first = (*readahead)->snapshot();
            auto second = (*readahead)->snapshot();
            QVERIFY(first && second);
            QVERIFY(second->takenMs >= first->takenMs);
        }
        QCOMPARE(machine->profiles()->host(), u"testhost"_qs);
        QCOMPARE(machine->historyPath(), machine->root().root() + u"/history.sqlite"_qs);
        QObject parent;
        DeviceEvents *events = machine->watchDevices(&parent);
        QVERIFY(events);
        QCOMPARE(events->pollIntervalMs(), 5000);

        std::optional<QString> fetched;
        QVERIFY(machine->refreshHistory(&context, [&](const QString &error) { fetched = error; }));
        QTRY_VERIFY_WITH_TIMEOUT(fetched.has_value(), 30000);
        QVERIFY2(fetched->isEmpty(), qPrintable(*fetched));

        QSignalSpy lost(machine.get(), &Machine::connectionLost);
        QVERIFY(!machine->isConnectionLost());
        const QList<qint64> ssh = sshChildren();
        QVERIFY(!ssh.isEmpty());
        for (qint64 pid : ssh)
            ::kill(pid_t(pid), SIGKILL);
        QVERIFY(lost.wait(30000));
        QVERIFY(machine->isConnectionLost());
        QVERIFY(!machine->refreshHistory(&context, [](const QString &) {}));
        QTest::qWait(200);
        QCOMPARE(lost.size(), 1);
    }

    // The read test and the advisor take what they say from the machine: one
    // whose measurements are kept there says so, and the advisor measures
    // it, though the session under them is a recorded tree's.
    void viewsAskTheMachineNotTheSession()
    {
        const QString tree = recordedTree("nvme-parts");
        FarMachine far{SysRoot(tree)};
        ConsoleSession session{SysRoot(tree)};
        QVERIFY(waitForModel(session));

        ReadTestView test(&session, far);
        QVERIFY2(labelTexts(test).contains(u"Tests run on far.example and are kept in its history "
                                           "(blocktune-cli --host far.example history)"_qs),
                 qPrintable(labelTexts(test).join(u" | ")));
        for (QPushButton *b : test.findChildren<QPushButton *>())
            if (b->text() == u"Start")
                QVERIFY(b->toolTip().isEmpty());

        // The same view on the tree's own machine refuses, naming the tree.
        ReadTestView here(&session, *openMachine(SysRoot(tree)));
        QVERIFY2(labelTexts(here).contains(u"Read tests need the live machine: %1 is a recorded tree (read-only)"_qs.arg(tree)),
                 qPrintable(labelTexts(here).join(u" | ")));

        AdviseView advise(&session, far, QString());
        QVERIFY(advise.findChild<PageHeader *>()->disabledReason().isEmpty());
        AdviseView adviseHere(&session, *openMachine(SysRoot(tree)), QString());
        QVERIFY(adviseHere.findChild<PageHeader *>()->disabledReason().contains(u"recorded tree"));
    }
};

QTEST_MAIN(TestMachine)
#include "tst_machine.moc"
