#include "mainwindow.h"

#include "advisor/advisor.h"

#include "devicepane.h"
#include "detailsview.h"
#include "appearance.h"
#include "devicetree.h"
#include "tuningpanel.h"
#include "common/termination.h"
#include "console/consolesession.h"
#include "monitor/monitorview.h"
#include "readtest/readtestview.h"
#include "history/historyview.h"
#include "profiles/profilesview.h"
#include "advisor/adviseview.h"
#include "advisor/diagnoseview.h"
#include "remote/connectdialog.h"
#include "machine/machine.h"

#include "common/sysroot.h"
#include "devices/devices.h"
#include "devices/snapshot.h"
#include "monitor/monitor.h"
#include "profiles/profiles.h"
#include "windowfit.h"
#include "tuning/tuning.h"

#include <QDir>
#include <QGuiApplication>
#include <QScreen>
#include <QFileDialog>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QLabel>
#include <QActionGroup>
#include <QMenuBar>
#include <QCloseEvent>
#include <QShowEvent>
#include <QCoreApplication>
#include <QMessageBox>

#include <memory>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QTabWidget>
#include <QSocketNotifier>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>

#include <sys/utsname.h>
#include <unistd.h>

namespace blocktune {

namespace {

SessionOptions consoleOptions(const QString &sysroot)
{
    SessionOptions options;
    if (!sysroot.isEmpty())
        options.readOnlyReason = MainWindow::tr("%1 is a recorded tree, a recording of a machine: read-only, the "
                                                "console only shows it (nothing is applied or measured there)")
                                     .arg(sysroot);
    return options;
}

QString kernelRelease()
{
    struct utsname u {};
    return ::uname(&u) == 0 ? QString::fromLocal8Bit(u.release) : QString();
}

} // namespace

MainWindow::MainWindow(const QString &sysroot, const QString &initialDevice, QWidget *parent)
    : MainWindow(sysroot, initialDevice, consoleOptions(sysroot), parent)
{
}

MainWindow::MainWindow(const QString &sysroot, const QString &initialDevice, const SessionOptions &options,
                       QWidget *parent)
    : MainWindow(openMachine(SysRoot(sysroot), options), initialDevice, parent)
{
}

MainWindow::MainWindow(std::shared_ptr<Machine> machine, const QString &initialDevice, QWidget *parent)
    : QMainWindow(parent), m_machine(std::move(machine)),
      m_session(new ConsoleSession(m_machine->root(), m_machine->sessionOptions(), m_machine->measurer(), this)),
      m_initialDevice(initialDevice)
{
    const QString name = m_machine->displayName();
    setWindowTitle(name.isEmpty() ? tr("blocktune") : tr("blocktune — %1").arg(name));
    buildViews();
    layOutViews();
    buildMenus();
    wireViews();
    watchDevices();
    followConnection();
    closeOnTerminationSignals();
    restoreWindowState();
    m_privilege->setText(privilegeText(nullptr));
    rescan();
}

void MainWindow::buildViews()
{
    const QString root = m_machine->root().root();
    m_splitter = new QSplitter(this);
    auto *pane = new DevicePane(root, m_splitter);
    m_tree = pane->tree();
    m_tabs = new QTabWidget(m_splitter);
    m_tuning = new TuningPanel(m_session, m_tabs);
    m_readTest = new ReadTestView(m_session, *m_machine, m_tabs);
    const std::shared_ptr<Measurer> measurer = m_machine->measurer();
    m_monitor = new MonitorView(root, measurer->counterSource(), std::make_unique<SteadyClock>(), m_tabs);
    if (auto loader = measurer->latencyLoader())
        m_monitor->setLatencyLoader(std::move(loader)); // a host's histograms, from its agent
    // The Readahead view's source is the machine's; the monitor does not know
    // the machine. Weak: a load still running as the window closes must not
    // keep the machine alive on the loader's thread.
    if (const MachineCapabilities can = m_machine->capabilities(); can.readaheadProbe) {
        m_monitor->setReadaheadLoader([machine = std::weak_ptr<Machine>(m_machine)]()
                                          -> Result<std::unique_ptr<ReadaheadSource>> {
            if (const std::shared_ptr<Machine> m = machine.lock())
                return m->openReadaheadSource();
            return makeError(NotSupported, QStringLiteral("the window closed"));
        });
    } else {
        m_monitor->setReadaheadUnavailable(can.noReadaheadProbe);
    }
    // A recorded tree or a snapshot: frozen counters (a host's mirror is
    // recorded too, but its counters come live from the host's agent).
    m_monitor->setRecording(m_machine->capabilities().frozenCounters);
    m_details = new DetailsView(m_tabs);
    // The machine's history: this machine's store, or a copy of a host's
    // database beside its mirror, fetched when the tab is shown (refreshHistory).
    m_history = new HistoryView(m_machine->historyPath(), m_tabs);
    m_profiles = new ProfilesView(m_session, m_machine->profiles(), m_tabs);
    m_advise = new AdviseView(m_session, *m_machine, m_machine->profileUserDir(), m_tabs);
    m_diagnose = new DiagnoseView(m_session, *m_machine, m_tabs);
    m_status = new QLabel(this);
    m_privilege = new QLabel(this);
    m_lastError = new QLabel(this);
    m_lastError->setAccessibleName(tr("Last error"));
}

void MainWindow::layOutViews()
{
    m_tabs->addTab(m_tuning, tr("Settings"));
    m_tabs->addTab(m_readTest, tr("Read test"));
    m_tabs->addTab(m_monitor, tr("Monitor"));
    m_tabs->addTab(m_details, tr("Details"));
    m_tabs->addTab(m_history, tr("History"));
    m_tabs->addTab(m_profiles, tr("Profiles"));
    m_tabs->addTab(m_advise, tr("Advise"));
    m_tabs->addTab(m_diagnose, tr("Diagnose"));
    // Half each: the tree keeps its columns, the eight tabs' pages (the
    // Profiles table, the Advise curve) get the width they need.
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    setCentralWidget(m_splitter);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_privilege);
    statusBar()->addPermanentWidget(m_lastError);
}

void MainWindow::buildMenus()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    // F5 reads everything a list shows again: the devices and the profiles
    // (their folders are watched too; this is for a folder a watch cannot
    // see, such as one on NFS).
    fileMenu->addAction(tr("&Rescan devices and profiles"), QKeySequence::Refresh, this, [this] {
        rescan();
        m_profiles->relist();
    });
    fileMenu->addAction(tr("&Open snapshot…"), QKeySequence::Open, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Open snapshot"), QString(),
                                                          tr("blocktune snapshots (*.tar.gz *.tgz)"));
        if (file.isEmpty())
            return;
        QString error;
        if (MainWindow *window = openSnapshot(file, &error))
            window->show();
        else
            QMessageBox::warning(this, tr("Open snapshot"), error);
    });
    fileMenu->addAction(tr("&Connect to host…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
                        &MainWindow::showConnectDialog);
    fileMenu->addSeparator();
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *deviceList = viewMenu->addAction(tr("&Device list"), this,
                                              [this] { m_tree->setFocus(Qt::ShortcutFocusReason); });
    deviceList->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_L), QKeySequence(Qt::ALT | Qt::Key_D)});
    for (int i = 0; i < m_tabs->count(); ++i)
        viewMenu->addAction(m_tabs->tabText(i), QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)), this,
                            [this, i] { m_tabs->setCurrentIndex(i); });
    buildThemeMenu(viewMenu);
    // Ctrl+Tab between the tabs from anywhere, not only when the tab bar has focus.
    auto *next = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Tab), this);
    next->setContext(Qt::WindowShortcut);
    connect(next, &QShortcut::activated, this,
            [this] { m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count()); });
    auto *previous = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab), this);
    previous->setContext(Qt::WindowShortcut);
    connect(previous, &QShortcut::activated, this, [this] {
        m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count());
    });

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("How to read these &plots"), QKeySequence::HelpContents, this, &MainWindow::showPlotHelp);
    helpMenu->addAction(tr("&About blocktune"), this, &MainWindow::showAbout);
}

// View -> Theme: follow the desktop, or light or dark whatever it says;
// kept for the next start.
void MainWindow::buildThemeMenu(QMenu *viewMenu)
{
    viewMenu->addSeparator();
    QMenu *menu = viewMenu->addMenu(tr("&Theme"));
    menu->setObjectName(QStringLiteral("themeMenu"));
    auto *group = new QActionGroup(menu);
    const std::pair<ThemeChoice, QString> choices[] = {{ThemeChoice::System, tr("Follow the &desktop")},
                                                       {ThemeChoice::Light, tr("&Light")},
                                                       {ThemeChoice::Dark, tr("Dar&k")}};
    for (const auto &[choice, text] : choices) {
        QAction *action = menu->addAction(text);
        action->setObjectName(QStringLiteral("theme-") + themeChoiceName(choice));
        action->setCheckable(true);
        action->setChecked(choice == currentTheme());
        group->addAction(action);
        connect(action, &QAction::triggered, this, [choice] {
            applyTheme(choice);
            saveTheme(choice);
        });
    }
    // Another window's menu changed it: this one's ticks follow.
    connect(menu, &QMenu::aboutToShow, menu, [menu] {
        for (QAction *action : menu->actions())
            action->setChecked(action->objectName() == QStringLiteral("theme-") + themeChoiceName(currentTheme()));
    });
}

void MainWindow::wireViews()
{
    connect(m_tree, &DeviceTree::deviceSelected, this, &MainWindow::deviceSelected);
    connect(m_tree, &DeviceTree::selectedDeviceGone, this, &MainWindow::deviceGone);
    connect(m_tree, &DeviceTree::applyProfileRequested, this, &MainWindow::openProfilesFor);
    // A write made elsewhere reaches the settings panel as the session's
    // event (ConsoleSession::happened): it takes the new values in and
    // keeps the user's unapplied edits.
    connect(m_advise, &AdviseView::profileSaved, m_profiles, &ProfilesView::refresh);
    connect(m_history, &HistoryView::advised, this, [this](const Advice &advice) {
        m_advise->showRecordedAdvice(advice);
        m_tabs->setCurrentWidget(m_advise);
    });
    auto statusLine = [this](const QString &text) { statusBar()->showMessage(text.section(u'\n', 0, 0), 10000); };
    connect(m_advise, &AdviseView::message, this, statusLine);
    connect(m_diagnose, &DiagnoseView::message, this, statusLine);
    // A sweep changes readahead while it runs and restores it at the end;
    // its job publishes the session's model, the panel reads it again.
    connect(m_readTest, &ReadTestView::finished, this, [this] { m_tuning->refresh(); });
    connect(m_session, &ConsoleSession::happened, this, &MainWindow::sessionHappened);
    connect(m_session, &ConsoleSession::modelChanged, this, &MainWindow::showModel);
    // The tree keeps the list it has, said to be the one from before; the
    // scan is tried again until it succeeds (the hotplug that made the
    // list stale will not be told again).
    m_rescanRetry = new QTimer(this);
    m_rescanRetry->setSingleShot(true);
    m_rescanRetry->setInterval(5000);
    connect(m_rescanRetry, &QTimer::timeout, this, &MainWindow::rescan);
    connect(m_session->worker(), &SessionWorker::scanFailed, this, [this](quint64, const QString &message) {
        m_status->setText(tr("The device list shown is from before: scanning failed (%1); trying again in %n s", nullptr,
                             m_rescanRetry->interval() / 1000)
                              .arg(message.section(u'\n', 0, 0)));
        m_rescanRetry->start();
    });
    connect(m_session, &ConsoleSession::stateChanged, this,
            [this](const SessionState &state) { m_privilege->setText(privilegeText(&state)); });
    connect(m_readTest, &ReadTestView::historyRecorded, m_history, &HistoryView::reload);
    connect(m_advise, &AdviseView::historyRecorded, m_history, &HistoryView::reload);
    connect(m_readTest, &ReadTestView::message, this, [this](const QString &text) {
        statusBar()->showMessage(text.section(u'\n', 0, 0), 10000);
    });
    connect(m_monitor, &MonitorView::failed, this, &MainWindow::showError);
    connect(m_tuning, &TuningPanel::message, this, [this](const QString &text) {
        statusBar()->showMessage(text.section(u'\n', 0, 0), 10000);
    });
    connect(m_tuning, &TuningPanel::applied, this, [this](bool ok) {
        if (!ok)
            showError(m_tuning->lastMessage().section(u'\n', 0, 0));
    });
    connect(m_tree, &DeviceTree::deviceSelected, this, [](const QString &name) {
        QSettings().setValue(QStringLiteral("console/lastDevice"), name);
    });
}

void MainWindow::watchDevices()
{
    m_deviceEvents = m_machine->watchDevices(this);
    if (!m_deviceEvents)
        return;
    connect(m_deviceEvents, &DeviceEvents::devicesChanged, this, &MainWindow::rescan);
    // The status line stops saying it follows the moment it does not.
    connect(m_deviceEvents, &DeviceEvents::stopped, this, [this](const QString &why) {
        m_followingStopped = why.isEmpty() ? tr("no reason given") : why.section(u'\n', 0, 0);
        showDeviceCount();
    });
    m_deviceEvents->start();
}

void MainWindow::followConnection()
{
    const QString name = m_machine->displayName();
    // What the agent of a connection that dropped put back (it said so to
    // the agent that answers now).
    if (const std::optional<PreviousEnd> previous = m_machine->previousEnd()) {
        QString text = tr("When the last connection to %1 ended (%2), the agent there restored %n temporary change(s)",
                          nullptr, previous->restored)
                           .arg(name, previous->why);
        if (previous->failed > 0)
            text += tr("; %n could not be restored (blocktune-cli --host %1 restore)", nullptr, previous->failed).arg(name);
        statusBar()->showMessage(text, 60000);
    }
    connect(m_machine.get(), &Machine::connectionLost, this, &MainWindow::connectionLost);
    if (m_machine->isConnectionLost())
        QMetaObject::invokeMethod(this, [this] { connectionLost(QString()); }, Qt::QueuedConnection);
    connect(m_machine.get(), &Machine::reconnected, this, [this](const std::shared_ptr<Machine> &fresh) {
        MainWindow *window = openWindow(fresh);
        window->restoreGeometry(saveGeometry());
        window->tabs()->setCurrentIndex(m_tabs->currentIndex());
        window->m_initialDevice = m_tree->selectedDevice();
        window->show();
        close();
    });
    connect(m_machine.get(), &Machine::reconnectFailed, this, [this](const QString &message) {
        // ssh's own words; nothing is retried on its own.
        showError(message);
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Reconnect"), message, QMessageBox::Close, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    if (m_machine->capabilities().keepsItsOwnHistory)
        m_tabs->setTabToolTip(m_tabs->indexOf(m_history), tr("The read tests and sweeps kept on %1").arg(name));
    // A history kept elsewhere is copied when its tab is shown and after each test there.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_history)
            refreshHistory();
    });
    connect(m_readTest, &ReadTestView::finished, this, [this] {
        if (m_tabs->currentWidget() == m_history)
            refreshHistory();
    });
}

void MainWindow::closeOnTerminationSignals()
{
    // SIGINT/SIGTERM/SIGHUP close the window like the user would, so a
    // running sweep is cancelled and its readahead restored by the views'
    // destructors (the journal covers only a kill -9).
    if (!TerminationSignals::install() || TerminationSignals::fd() < 0)
        return;
    auto *notifier = new QSocketNotifier(TerminationSignals::fd(), QSocketNotifier::Read, this);
    connect(notifier, &QSocketNotifier::activated, this, [this, notifier] {
        notifier->setEnabled(false);
        close();
    });
}

void MainWindow::restoreWindowState()
{
    QSettings settings;
    // The last geometry where it still fits the screen it lands on, else
    // 1280x760 or 90% of that screen, whichever is smaller.
    const bool restored = restoreGeometry(settings.value(QStringLiteral("console/geometry")).toByteArray());
    if (!isMaximized() && !isFullScreen()) {
        const QScreen *on = screen() ? screen() : QGuiApplication::primaryScreen();
        const QRect available = on ? on->availableGeometry() : QRect();
        const QRect fitted = fitWindowGeometry(available, QSize(1280, 760), restored ? geometry() : QRect());
        setGeometry(fitted);
    }
    m_splitter->restoreState(settings.value(QStringLiteral("console/splitter")).toByteArray());
    if (m_initialDevice.isEmpty())
        m_initialDevice = settings.value(QStringLiteral("console/lastDevice")).toString();
}

MainWindow::~MainWindow()
{
    // The views go first: their destructors cancel and wait for work that
    // drives the session (a sweep, an advice, a profile), and the session
    // (a child made before them, so otherwise deleted first) must outlive it.
    delete m_splitter;
    // Then the session (a remote one tells its host to restore), before the
    // connection and the mirror (members) go.
    delete m_session;
}

QString MainWindow::privilegeText(const SessionState *state) const
{
    const QString name = m_machine->displayName();
    // The session's last state may arrive after the loss (a call that
    // failed on the dead link): the label stays what the loss said.
    if (m_connectionLost)
        return tr("%1: disconnected").arg(name);
    QStringList parts;
    const MachineCapabilities can = m_machine->capabilities();
    if (can.changesHeldThere) {
        // The agent's "user@host: direct" or "user@host: blocktune-helper (sudo -n)".
        const QString writer = m_session->state().writer;
        const QString user = writer.section(u'@', 0, 0);
        parts << (m_session->readOnlyReason().isEmpty()
                      ? tr("%1: %2").arg(name, writerText(writer.section(u": "_qs, 1), user == u"root"))
                      : tr("%1: read-only").arg(name));
    } else if (!m_session->readOnlyReason().isEmpty()) {
        parts << (m_session->isRecorded() ? tr("a recording: read-only") : tr("read-only"));
    } else if (m_session->isRecorded()) {
        parts << tr("a recording: writes change its files, not a machine");
    } else {
        const bool started = state && state->writerStarted;
        parts << writerText(started ? state->writer : QString(), ::geteuid() == 0);
    }
    if (state && state->temporary > 0)
        parts << (can.changesHeldThere ? tr("%n temporary change(s) held there", nullptr, state->temporary)
                                       : tr("%n temporary change(s) will be restored", nullptr, state->temporary));
    if (state && state->busy)
        parts << tr("writing…");
    return parts.join(QStringLiteral(" · "));
}

// Who writes, in words: root writes directly; a user's writes go through
// blocktune-helper, started by pkexec (polkit asks once, at the first
// change) or by sudo. `writer` is the backend's description ("direct",
// "blocktune-helper (pkexec)"), empty before the writer started.
QString MainWindow::writerText(const QString &writer, bool asRoot)
{
    if (writer == u"direct")
        return asRoot ? tr("writes directly as root") : tr("writes directly");
    if (writer.startsWith(u"blocktune-helper")) {
        if (writer.contains(u"pkexec"))
            return tr("writes through blocktune-helper via pkexec (polkit)");
        if (writer.contains(u"sudo"))
            return tr("writes through blocktune-helper via sudo");
        return tr("writes through blocktune-helper");
    }
    if (!writer.isEmpty())
        return tr("writes through %1").arg(writer);
    return asRoot ? tr("writes directly as root")
                  : tr("writes through blocktune-helper via pkexec (polkit asks at the first change)");
}

MainWindow *MainWindow::openWindow(std::shared_ptr<Machine> machine, const QString &initialDevice)
{
    auto *window = new MainWindow(std::move(machine), initialDevice);
    window->setAttribute(Qt::WA_DeleteOnClose);
    return window;
}

void MainWindow::refreshHistory()
{
    if (m_connectionLost)
        return;
    m_machine->refreshHistory(this, [this](const QString &error) {
        if (!error.isEmpty())
            showError(error);
        m_history->reload();
    });
}

void MainWindow::showConnectDialog()
{
    auto *dialog = new ConnectDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ConnectDialog::connected, this,
            [](const std::shared_ptr<Machine> &machine) { openWindow(machine)->show(); });
    dialog->open();
}

void MainWindow::connectionLost(const QString &why)
{
    if (m_connectionLost)
        return;
    m_connectionLost = true;
    const QString host = m_machine->displayName();
    const int held = m_session->state().temporary;
    // The agent restores what it holds when its input ends (docs/cli.md, "Remote
    // hosts"); this window's count is what it held at the last answer.
    const QString text = held > 0 ? tr("connection to %1 lost; %n temporary change(s) restored there", nullptr, held).arg(host)
                                  : tr("connection to %1 lost; no temporary change was held there").arg(host);
    m_splitter->setEnabled(false);
    m_privilege->setText(privilegeText(nullptr));
    showError(text);
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Connection lost"), text, QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("connectionLost"));
    if (!why.isEmpty())
        box->setInformativeText(why);
    QPushButton *again = box->addButton(tr("&Reconnect"), QMessageBox::AcceptRole);
    box->setDefaultButton(again);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(again, &QPushButton::clicked, this, &MainWindow::reconnect);
    box->open();
}

void MainWindow::reconnect()
{
    // The machine connects again the way it was reached: reconnected()
    // opens the fresh window (followConnection()), reconnectFailed() says why.
    statusBar()->showMessage(tr("Connecting to %1…").arg(m_machine->displayName()));
    m_machine->reconnect();
}

MainWindow *MainWindow::openSnapshot(const QString &tarball, QString *error)
{
    auto dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/blocktune-snapshot-XXXXXX"));
    if (!dir->isValid()) {
        *error = tr("cannot make a folder to unpack %1 into: %2").arg(tarball, dir->errorString());
        return nullptr;
    }
    if (Status unpacked = unpackSnapshot(tarball, dir->path()); !unpacked) {
        *error = unpacked.error().message;
        return nullptr;
    }
    const QString name = QFileInfo(tarball).fileName();
    SessionOptions options;
    options.readOnlyReason = tr("%1 is a snapshot of a machine (blocktune-cli record): the console only shows it, "
                                "nothing is applied or measured there").arg(name);
    auto *window = new MainWindow(dir->path(), QString(), options);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setWindowTitle(tr("blocktune — snapshot %1").arg(name));
    window->m_snapshotDir = std::move(dir);
    return window;
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // Without a window manager (Xvfb, a kiosk, a bare X session) nobody
    // gives a new window the keyboard: X keeps PointerRoot focus, Qt's xcb
    // plugin does not count that as focus, the window never becomes active
    // and no shortcut works (tst_shortcuts). Ask for it once; a window
    // manager decides as it would anyway.
    if (!m_askedForFocus) {
        m_askedForFocus = true;
        activateWindow();
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("console/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("console/splitter"), m_splitter->saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::showError(const QString &text)
{
    if (text.isEmpty())
        return;
    m_lastError->setText(tr("last error: %1").arg(text.size() > 80 ? text.left(77) + u"…" : text));
    m_lastError->setToolTip(text);
    statusBar()->showMessage(text, 10000);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About blocktune"),
                       tr("<h3>blocktune %1</h3><p>A Linux block-device tuning console: see how devices stack, "
                          "change readahead and the I/O scheduler safely, measure streaming reads honestly, "
                          "watch the counters live.</p><p>Kernel %2<br>Qt %3 (built with %4)</p>")
                           .arg(QCoreApplication::applicationVersion(), kernelRelease().toHtmlEscaped(),
                                QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)));
}

void MainWindow::showPlotHelp()
{
    auto *box = new QMessageBox(QMessageBox::Information, tr("How to read these plots"),
        tr("<p><b>Throughput</b> is what the device delivered (decimal MB/s, as dd prints). A sequential "
           "stream far below what the disk does alone usually waits on readahead: each request is only as "
           "large as the readahead window.</p>"
           "<p><b>Interrupts/s</b> fall as requests grow: the same MB/s in fewer, larger requests. Interrupts "
           "inversely proportional to readahead mean the window decides the request size.</p>"
           "<p><b>Request size</b> (rareq-sz, KiB) is the average read request the device saw. Buffered streaming "
           "requests as large as readahead: raise it and watch MB/s.</p>"
           "<p><b>Queue depth</b> (aqu-sz) is the average number of requests in flight; one stream at depth ~1 "
           "cannot keep several disks busy.</p>"
           "<p><b>Member balance</b> shows each md member's share of the bytes read and Jain's fairness index "
           "(1 = perfectly even). Uneven shares point at layout or stripe-size problems.</p>"
           "<p><b>The latency heatmap</b> (Latency) counts requests by how long they waited: queue time above "
           "(held by the scheduler or nr_requests), device time below. Brighter cells higher up mean slower "
           "requests; in an array, the member whose column sits higher is the slow one.</p>"
           "<p><b>The Advise curve</b> is the median of at least three cold runs at each readahead, measured in "
           "passes over the grid. The <b>plateau</b> is the median of the best three points; the <b>knee</b> is "
           "the smallest readahead within the tolerance (5%) of it, or within the run-to-run noise when that is "
           "wider: the points in that band are the same within noise, and more readahead there buys nothing "
           "measurable. Each step up costs readahead × the workload's streams in memory.</p>"),
        QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::rescan()
{
    m_session->rescan();
}

void MainWindow::showDeviceCount()
{
    const ModelSnapshot model = m_session->model();
    if (!model)
        return;
    QString following;
    if (!m_followingStopped.isEmpty())
        following = tr(" — hotplug no longer followed (%1): F5 rescans").arg(m_followingStopped);
    else if (m_deviceEvents && m_deviceEvents->isRunning())
        following = m_deviceEvents->pollIntervalMs() > 0
                        ? tr(" — following %1's hotplug (asked every %n s)", nullptr, m_deviceEvents->pollIntervalMs() / 1000)
                              .arg(m_machine->displayName())
                        : tr(" — following hotplug (%1 events)").arg(m_deviceEvents->source());
    m_status->setText(tr("%n block device(s)", nullptr, int(model->devices().size())) + following);
}

void MainWindow::showModel()
{
    const ModelSnapshot model = m_session->model();
    if (!model)
        return;
    // The tree keeps its selection, and the panel its unapplied edits and
    // the focus: a hotplug elsewhere disturbs neither (the device's own
    // going is told by the tree's selectedDeviceGone()).
    if (m_rescanRetry)
        m_rescanRetry->stop();
    m_tree->setModel(model);
    m_tuning->refresh();
    if (const QString selected = m_tree->selectedDevice(); !selected.isEmpty())
        showDetails(selected);
    showDeviceCount();
    if (!m_initialDevice.isEmpty()) {
        m_tree->selectDevice(m_initialDevice);
        m_initialDevice.clear();
    }
    if (!m_ready) {
        m_ready = true;
        Q_EMIT ready();
    }
}

void MainWindow::offerJournalRestore()
{
    // Asked on the session thread (a host's are found there); the context
    // object ends the connection with the answer, or with the window.
    // Connected before asking: the thread may answer before
    // findDeadJournals() returns (the answer is queued to this thread, so
    // the ticket is set by the time it is read).
    auto ticket = std::make_shared<quint64>(0);
    auto *waiter = new QObject(this);
    connect(m_session->worker(), &SessionWorker::deadJournalsFound, waiter,
            [this, ticket, waiter](quint64 t, const QList<PendingJournal> &found) {
                if (t != *ticket)
                    return;
                waiter->deleteLater();
                askToRestore(found);
            });
    *ticket = m_session->findDeadJournals();
}

void MainWindow::askToRestore(const QList<PendingJournal> &found)
{
    QStringList dead;
    QList<Journal> journals;
    for (const PendingJournal &pending : found) {
        if (!pending.journal)
            continue;
        journals.append(*pending.journal);
        for (const JournalEntry &e : pending.journal->entries)
            dead << tr("%1 %2 = %3").arg(e.device.isEmpty() ? tr("(machine)") : e.device, e.attribute, e.original);
    }
    if (journals.isEmpty())
        return;
    // Window-modal and asynchronous: no nested event loop.
    auto *box = new QMessageBox(QMessageBox::Question, tr("Restore settings?"),
                                tr("A blocktune session ended without restoring what it changed (crash or kill). "
                                   "Restore these original values?\n\n%1").arg(dead.join(u'\n')),
                                QMessageBox::Yes | QMessageBox::No, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, journals](int answer) {
        if (answer != QMessageBox::Yes)
            return;
        const quint64 ticket = m_session->restoreJournals(journals);
        // The context object ends the connection: on the answer, or with the window
        // if it closes before the answer arrives.
        auto *waiter = new QObject(this);
        connect(m_session->worker(), &SessionWorker::restored, waiter,
                [this, ticket, waiter](quint64 t, const RestoreReport &report) {
                    if (t != ticket)
                        return;
                    waiter->deleteLater();
                    QStringList outcome;
                    for (const RestoreItem &item : report.items)
                        outcome << tr("%1 %2: %3").arg(item.entry.device, item.entry.attribute,
                                                      restoreStatusText(item.status));
                    statusBar()->showMessage(outcome.join(u"; "), 15000);
                    m_tuning->reload();
                });
    });
    box->open();
}

void MainWindow::deviceSelected(const QString &name)
{
    showDetails(name);
    m_tuning->setDevice(name);
    if (!m_readTest->isRunning())
        m_readTest->setDevice(name);
    if (!m_advise->isRunning())
        m_advise->setDevice(name);
    if (!m_diagnose->isRunning())
        m_diagnose->setDevice(name);
    m_profiles->setSelectedDevice(name); // what its previews tick at first
    updateMonitorDevices();
}

void MainWindow::deviceGone(const QString &name, const QString &why)
{
    m_tuning->deviceGone(name, why);
    m_details->showGone(why);
    statusBar()->showMessage(why, 15000);
}

void MainWindow::sessionHappened(const SessionEvent &event)
{
    statusBar()->showMessage(event.text, 15000);
    if (!event.ok)
        showError(event.text);
    // The monitor's heatmap marks where this console changed a setting.
    if (!event.devices.isEmpty())
        m_monitor->markSettingChange(event.text);
}

void MainWindow::openProfilesFor(const QString &name)
{
    m_tabs->setCurrentWidget(m_profiles);
    m_profiles->setDevice(name);
}

void MainWindow::updateMonitorDevices()
{
    const QString selected = m_tree->selectedDevice();
    if (selected.isEmpty())
        return; // nothing selected (the device went): the plots keep what they had
    const QStringList wanted{selected};
    if (m_monitor->devices() != wanted)
        m_monitor->setDevices(wanted);
}

void MainWindow::showDetails(const QString &name)
{
    const ModelSnapshot model = m_session->model();
    const BlockDevice *d = model ? model->find(name) : nullptr;
    m_details->showDevice(d, name);
}

} // namespace blocktune
