// The console on another host over OpenSSH: a private sshd on 127.0.0.1
// (tests/support/privatesshd.h), the agent being the build's blocktune-cli.
// A change made in the window lands on the test's own loop device through
// the agent; the monitor samples it there; when ssh dies mid-trial the
// window says what the agent restored, and the device is back within 2 s.
#include "devicetree.h"
#include "mainwindow.h"
#include "monitor/monitorview.h"
#include "privatesshd.h"
#include "readtest/readtestview.h"
#include "remote/connectdialog.h"
#include "testloop.h"
#include "testsupport.h"
#include "tuningpanel.h"

#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>

#include <csignal>

using namespace blocktune;
using namespace blocktune::test;

namespace {

template<typename T>
T *child(QWidget *parent, const QString &accessibleName)
{
    for (T *w : parent->findChildren<T *>())
        if (w->accessibleName() == accessibleName)
            return w;
    return nullptr;
}

QString statusTexts(QMainWindow &window)
{
    QStringList texts;
    for (QLabel *label : window.statusBar()->findChildren<QLabel *>())
        texts << label->text();
    return texts.join(u" | ");
}

/// The ssh processes this test started (children of this process).
QList<qint64> sshChildren()
{
    QList<qint64> out;
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString &task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile children(tasks.filePath(task + QStringLiteral("/children")));
        if (!children.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray &word : children.readAll().split(' ')) {
            const qint64 pid = word.trimmed().toLongLong();
            QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
            if (pid > 0 && comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == "ssh")
                out << pid;
        }
    }
    return out;
}

} // namespace

class TestRemoteConsole : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", (m_home.path() + u"/journals").toLocal8Bit());
        qputenv("BLOCKTUNE_HISTORY_DB", (m_home.path() + u"/history.sqlite").toLocal8Bit());
        qputenv("XDG_CONFIG_HOME", m_home.path().toLocal8Bit());
        qputenv("HOME", m_home.path().toLocal8Bit());
    }

    void connectDialogOffersSshConfigAndRecentHosts()
    {
        QDir(m_home.path()).mkpath(QStringLiteral(".ssh"));
        QFile config(m_home.path() + u"/.ssh/config");
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("# hosts\nHost raid10 iscsi-target\n  HostName 10.0.0.5\nHost *.lab !bad\nhost=db1\n"
                     "Host raid10\nMatch all\n");
        config.close();
        QSettings().remove(QStringLiteral("remote/recentHosts"));
        rememberHost(QStringLiteral("root@old-box"));
        rememberHost(QStringLiteral("db1"));
        QCOMPARE(knownHosts(), (QStringList{u"raid10"_qs, u"iscsi-target"_qs, u"db1"_qs, u"root@old-box"_qs}));

        ConnectDialog dialog;
        QCOMPARE(dialog.hostBox()->count(), 4);
        QCOMPARE(dialog.hostBox()->itemText(0), u"raid10"_qs);

        // A host ssh cannot reach: ssh's own words, and the dialog stays.
        dialog.hostBox()->setCurrentText(QStringLiteral("-oProxyCommand=evil"));
        auto *connectButton = [&] {
            for (QPushButton *b : dialog.findChildren<QPushButton *>())
                if (b->isDefault())
                    return b;
            return static_cast<QPushButton *>(nullptr);
        }();
        QVERIFY(connectButton);
        connectButton->click();
        auto *status = dialog.findChild<QLabel *>(QStringLiteral("connectStatus"));
        QVERIFY(status->text().contains(u"starts with '-'"));
        dialog.hostBox()->setCurrentText(QStringLiteral("nosuchhost.invalid"));
        connectButton->click();
        QTRY_VERIFY_WITH_TIMEOUT(connectButton->isEnabled(), 30000);
        QVERIFY2(status->text().contains(u"nosuchhost.invalid"), qPrintable(status->text()));
        QVERIFY2(status->text().contains(u"resolve", Qt::CaseInsensitive), qPrintable(status->text()));
    }

    void consoleWorksOnTheHostAndRestoresWhenSshDies()
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
        TestLoop loop(64 << 20, knownContents());
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        QCOMPARE(readAhead(dev), quint64(128));

        RemoteTarget target;
        target.host = PrivateSshd::host();
        target.sshConfig = sshd.sshConfig();
        target.remoteCommand = PrivateSshd::agentCommand();
        QObject context;
        std::optional<Result<RemoteHost>> answer;
        connectInBackground(&context, target, [&](Result<RemoteHost> host) { answer = std::move(host); });
        QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), 60000);
        QVERIFY2(answer->ok(), qPrintable(answer->ok() ? QString() : answer->error().message));

        QPointer<MainWindow> window = MainWindow::openRemote(target, std::make_shared<RemoteHost>(std::move(**answer)));
        window->resize(1200, 800);
        window->show();
        QTRY_VERIFY_WITH_TIMEOUT(window->isReady(), 30000);
        QVERIFY(window->windowTitle().contains(u"testhost"));
        QCOMPARE(window->remoteHost(), u"testhost"_qs);
        QTRY_VERIFY2_WITH_TIMEOUT(statusTexts(*window).contains(u"testhost: writing as root@"), qPrintable(statusTexts(*window)), 5000);
        DeviceTree *tree = window->deviceTree();
        QCOMPARE(tree->itemsFor(dev).size(), 1);
        // The console measures only here: the read test says where to run it.
        QVERIFY(window->readTestView()->findChildren<QLabel *>().size() > 0);

        // A change in the settings panel lands on the host's device.
        tree->selectDevice(dev);
        TuningPanel *panel = window->tuningPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->loadedDevice(), dev, 20000);
        auto *spin = child<QSpinBox>(panel, u"Readahead in KiB"_qs);
        QVERIFY(spin);
        QCOMPARE(spin->value(), 128);
        spin->setValue(2048);
        QSignalSpy applied(panel, &TuningPanel::applied);
        QVERIFY(panel->applyChanges(false));
        QVERIFY(applied.wait(30000));
        QVERIFY2(applied.at(0).at(0).toBool(), qPrintable(panel->lastMessage()));
        QCOMPARE(readAhead(dev), quint64(2048));
        // Read back from the host (the mirror was recorded again).
        QTRY_COMPARE_WITH_TIMEOUT(spin->value(), 2048, 10000);

        // The monitor samples the host's counters.
        MonitorView *monitor = window->monitorView();
        QSignalSpy plotted(monitor, &MonitorView::plotted);
        window->tabs()->setCurrentWidget(monitor);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->devices(), QStringList{dev}, 5000);
        QVERIFY(plotted.wait(10000));
        window->tabs()->setCurrentWidget(panel);

        // A trial (temporary) through the agent, then ssh dies.
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isBusy(), 10000);
        spin->setValue(512);
        QVERIFY(panel->tryChanges());
        QTRY_COMPARE_WITH_TIMEOUT(readAhead(dev), quint64(512), 20000);
        QTRY_VERIFY2_WITH_TIMEOUT(statusTexts(*window).contains(QRegularExpression(u"1 temporary change(\\(s\\))? held there"_qs)),
                                  qPrintable(statusTexts(*window)), 10000);
        const QList<qint64> ssh = sshChildren();
        QVERIFY(!ssh.isEmpty());
        for (qint64 pid : ssh)
            ::kill(pid_t(pid), SIGKILL);
        QElapsedTimer since;
        since.start();
        QTRY_VERIFY_WITH_TIMEOUT(window->isConnectionLost(), 10000);
        QMessageBox *box = window->findChild<QMessageBox *>(QStringLiteral("connectionLost"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(QRegularExpression(u"connection to testhost lost; 1 temporary change(\\(s\\))? restored there"_qs)),
                 qPrintable(box->text()));
        QTRY_COMPARE_WITH_TIMEOUT(readAhead(dev), quint64(2048), 2000);
        QVERIFY2(since.elapsed() < 2000, qPrintable(QString::number(since.elapsed())));
        QVERIFY(statusTexts(*window).contains(u"testhost: disconnected"));

        // Reconnect opens a new window on the host; this one closes.
        QPushButton *again = nullptr;
        for (QAbstractButton *b : box->buttons())
            if (b->text().remove(u'&') == u"Reconnect")
                again = qobject_cast<QPushButton *>(b);
        QVERIFY(again);
        again->click();
        QTRY_VERIFY_WITH_TIMEOUT(window.isNull(), 60000);
        MainWindow *fresh = nullptr;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *m = qobject_cast<MainWindow *>(w); m && m->remoteHost() == u"testhost")
                fresh = m;
        QVERIFY(fresh);
        // The agent that answers now tells what the one before restored.
        QVERIFY2(fresh->statusBar()->currentMessage().contains(
                     QRegularExpression(u"the agent there restored 1 temporary change(\\(s\\))?"_qs)),
                 qPrintable(fresh->statusBar()->currentMessage()));
        QTRY_VERIFY_WITH_TIMEOUT(fresh->isReady(), 30000);
        QCOMPARE(fresh->deviceTree()->itemsFor(dev).size(), 1);
        delete fresh;
        setQueueAttr(dev, "read_ahead_kb", QStringLiteral("128"));
    }

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(TestRemoteConsole)
#include "tst_remoteconsole.moc"
