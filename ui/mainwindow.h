#pragma once

#include <QMainWindow>

#include <memory>

class QLabel;
class QTimer;
class QMenu;
class QSplitter;
class QTabWidget;
class QTemporaryDir;

namespace blocktune {

class DetailsView;
class DeviceEvents;
class DeviceTree;
class ConsoleSession;
class Machine;
struct PendingJournal;
struct SessionEvent;
struct SessionOptions;
class TuningPanel;
class MonitorView;
class ReadTestView;
class HistoryView;
class ProfilesView;
class AdviseView;
class DiagnoseView;

/// The console's main window on one Machine (core/machine/machine.h: this
/// machine, a recorded tree or a host), made once where the window starts.
/// It owns the console's one TuningSession (on its own thread,
/// core/console/consolesession.h), made from the machine: the device tree,
/// the settings panel and the read test's sweeps all go through it, so a
/// user who is not root is asked for authorization once per console session.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    /// `sysroot` empty = the live machine; else a recorded tree (read-only).
    explicit MainWindow(const QString &sysroot, const QString &initialDevice = {}, QWidget *parent = nullptr);
    /// The same with the session's options (tests give a writer factory).
    MainWindow(const QString &sysroot, const QString &initialDevice, const SessionOptions &options,
               QWidget *parent = nullptr);
    /// A window on `machine` (openMachine()): everything it shows and does
    /// goes there.
    explicit MainWindow(std::shared_ptr<Machine> machine, const QString &initialDevice = {}, QWidget *parent = nullptr);
    ~MainWindow() override;

    /// A window of its own on a snapshot (`blocktune-cli record
    /// FILE.tar.gz`), unpacked into a temporary directory that goes with
    /// the window; read-only, titled with the file's name, deleted on
    /// close. nullptr when it cannot be opened, with `error` naming the
    /// file and what is wrong with it.
    static MainWindow *openSnapshot(const QString &tarball, QString *error);
    /// A window of its own on `machine` (a host: File -> Connect to host,
    /// `blocktune --host HOST`): every change goes where the machine is, its
    /// name is in the title and the status bar, and when its connection
    /// drops the window says what was restored there and offers to
    /// reconnect. Deleted on close; the machine (ssh) goes with it.
    static MainWindow *openWindow(std::shared_ptr<Machine> machine, const QString &initialDevice = {});
    /// File -> Connect to host: the dialog; the host opens in a new window.
    void showConnectDialog();

    DeviceTree *deviceTree() const { return m_tree; }
    TuningPanel *tuningPanel() const { return m_tuning; }
    MonitorView *monitorView() const { return m_monitor; }
    ReadTestView *readTestView() const { return m_readTest; }
    HistoryView *historyView() const { return m_history; }
    ProfilesView *profilesView() const { return m_profiles; }
    AdviseView *adviseView() const { return m_advise; }
    DiagnoseView *diagnoseView() const { return m_diagnose; }
    DetailsView *detailsView() const { return m_details; }
    QTabWidget *tabs() const { return m_tabs; }
    ConsoleSession *session() const { return m_session; }
    /// What this window works on.
    Machine *machine() const { return m_machine.get(); }
    /// The connection to the host dropped (what the window says about it).
    bool isConnectionLost() const { return m_connectionLost; }
    /// The device list is on screen (the first scan arrived).
    bool isReady() const { return m_ready; }

    /// Journals left by a session that died (kill -9, crash): offers to
    /// restore the original values they hold. Called once after show().
    void offerJournalRestore();

public Q_SLOTS:
    /// Scans again on the session thread; the tree follows when it is done.
    void rescan();

private Q_SLOTS:
    /// The status line: how many devices, and whether their hotplug is followed.
    void showDeviceCount();

Q_SIGNALS:
    /// The first device list is on screen.
    void ready();

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void askToRestore(const QList<PendingJournal> &found);
    // The constructor's steps.
    void buildViews();
    void layOutViews();
    void buildMenus();
    void buildThemeMenu(QMenu *viewMenu);
    void wireViews();
    /// The machine's hotplug (a burst of uevents, or a host's digest that
    /// changed): one rescan.
    void watchDevices();
    /// The machine's connection: what the agent of the last one restored,
    /// its loss, and the history copied when its tab is shown.
    void followConnection();
    void closeOnTerminationSignals();
    /// Geometry, splitter and the last device from QSettings.
    void restoreWindowState();

    void showError(const QString &text);
    void showAbout();
    void showPlotHelp();
    void showModel();
    void showDetails(const QString &name);
    void deviceSelected(const QString &name);
    /// The selected device went away (hotplug): the views say so.
    void deviceGone(const QString &name, const QString &why);
    /// What the session did last, whoever asked: the status bar and the
    /// monitor's marks follow it.
    void sessionHappened(const SessionEvent &event);
    /// The device tree's "Apply profile…": the Profiles tab, that device preselected.
    void openProfilesFor(const QString &name);
    /// The monitor samples the selected device whichever tab is shown (it
    /// draws only while its own is), so its history goes on.
    void updateMonitorDevices();
    void connectionLost(const QString &why);
    void reconnect();
    /// Brings the machine's history up to date (a host's: copied) and shows it.
    void refreshHistory();
    QString privilegeText(const struct SessionState *state) const;
    static QString writerText(const QString &writer, bool asRoot);

    /// What the window works on; outlives the session (deleted in the
    /// destructor's body), which may still talk to a host's agent.
    std::shared_ptr<Machine> m_machine;
    ConsoleSession *m_session = nullptr;
    DeviceTree *m_tree = nullptr;
    DetailsView *m_details = nullptr;
    QTabWidget *m_tabs = nullptr;
    TuningPanel *m_tuning = nullptr;
    MonitorView *m_monitor = nullptr;
    ReadTestView *m_readTest = nullptr;
    HistoryView *m_history = nullptr;
    ProfilesView *m_profiles = nullptr;
    AdviseView *m_advise = nullptr;
    DiagnoseView *m_diagnose = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_privilege = nullptr;
    QLabel *m_lastError = nullptr;
    QSplitter *m_splitter = nullptr;
    DeviceEvents *m_deviceEvents = nullptr; ///< nullptr: nothing to follow (a recorded tree)
    /// A scan that failed is tried again after a while (a host's snapshot
    /// cut short by a device going): the list shown meanwhile is said to be
    /// the one before, and a hotplug that already passed is not told again.
    QTimer *m_rescanRetry = nullptr;
    QString m_followingStopped; ///< why the hotplug is no longer followed ("": it is, or never was)
    QString m_initialDevice;
    bool m_ready = false;
    std::unique_ptr<QTemporaryDir> m_snapshotDir; ///< an opened snapshot, unpacked
    bool m_connectionLost = false;
    bool m_askedForFocus = false;
};

} // namespace blocktune
