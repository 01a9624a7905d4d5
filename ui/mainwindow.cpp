#include "mainwindow.h"

#include "devicetree.h"
#include "tuningpanel.h"
#include "monitor/monitorview.h"
#include "readtest/readtestview.h"

#include "common/sysroot.h"
#include "devices/devices.h"
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
    : QMainWindow(parent), m_root(std::make_unique<SysRoot>(sysroot)), m_initialDevice(initialDevice)
{
    setWindowTitle(sysroot.isEmpty() ? tr("blocktune") : tr("blocktune — %1").arg(sysroot));
    auto *splitter = new QSplitter(this);
    m_tree = new DeviceTree(splitter);
    m_tabs = new QTabWidget(splitter);
    m_tuning = new TuningPanel(sysroot, m_tabs);
    m_tabs->addTab(m_tuning, tr("Settings"));
    m_readTest = new ReadTestView(sysroot, m_tabs);
    m_tabs->addTab(m_readTest, tr("Read test"));
    m_monitor = new MonitorView(sysroot, m_tabs);
    m_tabs->addTab(m_monitor, tr("Monitor"));
    m_details = new QPlainTextEdit(m_tabs);
    m_details->setReadOnly(true);
    m_details->setFont(QFont(QStringLiteral("monospace")));
    m_tabs->addTab(m_details, tr("Details"));
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    setCentralWidget(splitter);
    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);

    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(tr("&Rescan devices"), QKeySequence::Refresh, this, &MainWindow::rescan);
    fileMenu->addSeparator();
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    connect(m_tree, &DeviceTree::deviceSelected, this, &MainWindow::deviceSelected);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateMonitorDevices);
    // A sweep changes readahead while it runs and restores it at the end.
    connect(m_readTest, &ReadTestView::finished, this, [this] {
        rescan();
        m_tuning->reload();
    });
    connect(m_readTest, &ReadTestView::message, this, [this](const QString &text) {
        statusBar()->showMessage(text.section(u'\n', 0, 0), 10000);
    });
    connect(m_monitor, &MonitorView::failed, this, [this](const QString &text) {
        statusBar()->showMessage(text, 10000);
    });
    connect(m_tuning, &TuningPanel::settingsChanged, this, &MainWindow::rescan);
    connect(m_tuning, &TuningPanel::message, this, [this](const QString &text) {
        statusBar()->showMessage(text.section(u'\n', 0, 0), 10000);
    });

    if (m_root->isLive()) {
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
    rescan();
}

MainWindow::~MainWindow() = default;

void MainWindow::rescan()
{
    auto model = DeviceModel::scan(*m_root);
    if (!model) {
        m_status->setText(model.error().message);
        return;
    }
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
}

void MainWindow::offerJournalRestore()
{
    QStringList dead;
    QList<Journal> journals;
    for (const PendingJournal &pending : findJournals(*m_root)) {
        if (pending.ownerAlive || !pending.journal)
            continue;
        journals.append(*pending.journal);
        for (const JournalEntry &e : pending.journal->entries)
            dead << tr("%1 %2 = %3").arg(e.device.isEmpty() ? tr("(machine)") : e.device, e.attribute, e.original);
    }
    if (journals.isEmpty())
        return;
    const auto answer = QMessageBox::question(
        this, tr("Restore settings?"),
        tr("A blocktune session ended without restoring what it changed (crash or kill). "
           "Restore these original values?\n\n%1").arg(dead.join(u'\n')));
    if (answer != QMessageBox::Yes)
        return;
    auto writer = makeAttributeWriter(*m_root);
    QStringList outcome;
    for (const Journal &journal : std::as_const(journals)) {
        const RestoreReport report = restoreJournal(*m_root, *writer, journal);
        for (const RestoreItem &item : report.items)
            outcome << tr("%1 %2: %3").arg(item.entry.device, item.entry.attribute, restoreStatusName(item.status));
    }
    statusBar()->showMessage(outcome.join(u"; "), 15000);
    rescan();
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
    auto model = DeviceModel::scan(*m_root);
    const BlockDevice *d = model ? model->find(name) : nullptr;
    if (!d) {
        m_details->setPlainText(tr("%1 is gone").arg(name));
        return;
    }
    m_details->setPlainText(QString::fromUtf8(QJsonDocument(deviceToJson(*d)).toJson(QJsonDocument::Indented)));
}

} // namespace blocktune
