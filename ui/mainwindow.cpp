#include "mainwindow.h"

#include "devicetree.h"
#include "tuningpanel.h"
#include "monitor/monitorview.h"
#include "readtest/readtestview.h"
#include "history/historyview.h"

#include "common/sysroot.h"
#include "devices/devices.h"
#include "session/sessionthread.h"
#include "tuning/tuning.h"

#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QTabWidget>
#include <QPlainTextEdit>
#include <QSocketNotifier>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>

namespace blocktune {

MainWindow::MainWindow(const QString &sysroot, const QString &initialDevice, QWidget *parent)
    : MainWindow(sysroot, initialDevice, SessionOptions{}, parent)
{
}

MainWindow::MainWindow(const QString &sysroot, const QString &initialDevice, const SessionOptions &options,
                       QWidget *parent)
    : QMainWindow(parent), m_session(new SessionThread(SysRoot(sysroot), options, this)),
      m_initialDevice(initialDevice)
{
    setWindowTitle(sysroot.isEmpty() ? tr("blocktune") : tr("blocktune — %1").arg(sysroot));
    auto *splitter = new QSplitter(this);
    m_tree = new DeviceTree(splitter);
    m_tabs = new QTabWidget(splitter);
    m_tuning = new TuningPanel(m_session, m_tabs);
    m_tabs->addTab(m_tuning, tr("Settings"));
    m_readTest = new ReadTestView(m_session, m_tabs);
    m_tabs->addTab(m_readTest, tr("Read test"));
    m_monitor = new MonitorView(sysroot, m_tabs);
    m_tabs->addTab(m_monitor, tr("Monitor"));
    m_details = new QPlainTextEdit(m_tabs);
    m_details->setReadOnly(true);
    m_details->setFont(QFont(QStringLiteral("monospace")));
    m_tabs->addTab(m_details, tr("Details"));
    m_history = new HistoryView({}, m_tabs);
    m_tabs->addTab(m_history, tr("History"));
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    setCentralWidget(splitter);
    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
    m_privilege = new QLabel(this);
    statusBar()->addPermanentWidget(m_privilege);

    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(tr("&Rescan devices"), QKeySequence::Refresh, this, &MainWindow::rescan);
    fileMenu->addSeparator();
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    connect(m_tree, &DeviceTree::deviceSelected, this, &MainWindow::deviceSelected);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateMonitorDevices);
    // A sweep changes readahead while it runs and restores it at the end;
    // the session refreshed what it touched, the views read it again.
    connect(m_readTest, &ReadTestView::finished, this, [this] {
        m_session->publish();
        m_tuning->reload();
    });
    connect(m_session, &SessionThread::modelChanged, this, &MainWindow::showModel);
    connect(m_session->worker(), &SessionWorker::scanFailed, this,
            [this](quint64, const QString &message) { m_status->setText(message); });
    connect(m_session, &SessionThread::stateChanged, this, [this](const SessionState &state) {
        QStringList parts;
        if (m_session->isRecorded())
            parts << tr("recorded tree: writes go to its files");
        else if (!state.writerStarted)
            parts << tr("read-only until the first change authorizes");
        else
            parts << tr("writing through %1").arg(state.writer);
        if (state.temporary > 0)
            parts << tr("%n temporary change(s) will be restored", nullptr, state.temporary);
        if (state.busy)
            parts << tr("writing…");
        m_privilege->setText(parts.join(QStringLiteral(" · ")));
    });
    connect(m_readTest, &ReadTestView::historyRecorded, m_history, &HistoryView::reload);
    connect(m_readTest, &ReadTestView::message, this, [this](const QString &text) {
        statusBar()->showMessage(text.section(u'\n', 0, 0), 10000);
    });
    connect(m_monitor, &MonitorView::failed, this, [this](const QString &text) {
        statusBar()->showMessage(text, 10000);
    });
    connect(m_tuning, &TuningPanel::message, this, [this](const QString &text) {
        statusBar()->showMessage(text.section(u'\n', 0, 0), 10000);
    });

    if (m_session->root().isLive()) {
        m_watcher = new DeviceWatcher(this);
        // Hotplug: coalesce a burst of uevents into one rescan.
        auto *debounce = new QTimer(this);
        debounce->setSingleShot(true);
        debounce->setInterval(200);
        connect(debounce, &QTimer::timeout, this, &MainWindow::rescan);
        auto kick = [debounce](const QString &) { debounce->start(); };
        connect(m_watcher, &DeviceWatcher::deviceAdded, debounce, kick);
        connect(m_watcher, &DeviceWatcher::deviceRemoved, debounce, kick);
        connect(m_watcher, &DeviceWatcher::deviceChanged, debounce, kick);
        m_watcher->start();
    }
    // SIGINT/SIGTERM/SIGHUP close the window like the user would, so a
    // running sweep is cancelled and its readahead restored by the views'
    // destructors (the journal covers only a kill -9).
    if (TerminationSignals::install() && TerminationSignals::fd() >= 0) {
        auto *notifier = new QSocketNotifier(TerminationSignals::fd(), QSocketNotifier::Read, this);
        connect(notifier, &QSocketNotifier::activated, this, [this, notifier] {
            notifier->setEnabled(false);
            close();
        });
    }
    resize(1280, 760);
    m_privilege->setText(m_session->isRecorded() ? tr("recorded tree: writes go to its files")
                                                 : tr("read-only until the first change authorizes"));
    rescan();
}

MainWindow::~MainWindow() = default;

void MainWindow::rescan()
{
    m_session->rescan();
}

void MainWindow::showModel()
{
    const ModelSnapshot model = m_session->model();
    if (!model)
        return;
    m_tree->setModel(*model);
    m_status->setText(tr("%n block device(s)", nullptr, int(model->devices().size()))
                      + (m_watcher && m_watcher->isRunning()
                             ? tr(" — following hotplug (%1 events)").arg(m_watcher->source())
                             : QString()));
    if (!m_initialDevice.isEmpty()) {
        const auto found = m_tree->findItems(m_initialDevice, Qt::MatchExactly | Qt::MatchRecursive);
        if (!found.isEmpty())
            m_tree->setCurrentItem(found.constFirst());
        m_initialDevice.clear();
    }
    if (!m_ready) {
        m_ready = true;
        Q_EMIT ready();
    }
}

void MainWindow::offerJournalRestore()
{
    QStringList dead;
    QList<Journal> journals;
    for (const PendingJournal &pending : m_session->session().deadJournals()) {
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
        auto *conn = new QMetaObject::Connection;
        *conn = connect(m_session->worker(), &SessionWorker::restored, this,
                        [this, ticket, conn](quint64 t, const RestoreReport &report) {
                            if (t != ticket)
                                return;
                            QObject::disconnect(*conn);
                            delete conn;
                            QStringList outcome;
                            for (const RestoreItem &item : report.items)
                                outcome << tr("%1 %2: %3").arg(item.entry.device, item.entry.attribute,
                                                              restoreStatusName(item.status));
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
    updateMonitorDevices();
}

void MainWindow::updateMonitorDevices()
{
    const QString selected = m_tree->selectedDevice();
    const QStringList wanted = m_tabs->currentWidget() == m_monitor && !selected.isEmpty()
                                   ? QStringList{selected} : QStringList{};
    if (m_monitor->devices() != wanted)
        m_monitor->setDevices(wanted);
}

void MainWindow::showDetails(const QString &name)
{
    const ModelSnapshot model = m_session->model();
    const BlockDevice *d = model ? model->find(name) : nullptr;
    if (!d) {
        m_details->setPlainText(tr("%1 is gone").arg(name));
        return;
    }
    m_details->setPlainText(QString::fromUtf8(QJsonDocument(deviceToJson(*d)).toJson(QJsonDocument::Indented)));
}

} // namespace blocktune
