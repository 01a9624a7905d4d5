#pragma once

#include <QMainWindow>

#include <memory>

class QLabel;
class QMenu;
class QSplitter;
class QTabWidget;
class QTemporaryDir;

namespace blocktune {

class DetailsView;
class DeviceTree;
class DeviceWatcher;
class HostDeviceWatcher;
class ConsoleSession;
class Measurer;
class ProfileLibrary;
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
struct RemoteHost;
struct RemoteTarget;

/// The console's main window. It owns the console's one TuningSession (on
/// its own thread, core/console/consolesession.h): the device tree, the
/// settings panel and the read test's sweeps all go through it, so a user
/// who is not root is asked for authorization once per console session.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    /// `sysroot` empty = the live machine; else a recorded tree.
    explicit MainWindow(const QString &sysroot, const QString &initialDevice = {}, QWidget *parent = nullptr);
    /// The same with the session's options (tests give a writer factory),
    /// where it measures and where its profiles are (empty: this machine's;
    /// a host's agent and store for a host).
    MainWindow(const QString &sysroot, const QString &initialDevice, const SessionOptions &options,
               std::shared_ptr<Measurer> measurer = {}, std::shared_ptr<ProfileLibrary> profiles = {},
               QWidget *parent = nullptr);
    ~MainWindow() override;

    /// A window of its own on a snapshot (`blocktune-cli record
    /// FILE.tar.gz`), unpacked into a temporary directory that goes with
    /// the window; read-only, titled with the file's name, deleted on
    /// close. nullptr when it cannot be opened, with `error` naming the
    /// file and what is wrong with it.
    static MainWindow *openSnapshot(const QString &tarball, QString *error);
    /// A window of its own on a connected host (File -> Connect to host,
    /// `blocktune --host HOST`): every change goes to the host's agent, the
    /// host is in the title and the status bar, and when the connection
    /// drops the window says what the agent restored there and offers to
    /// reconnect. Deleted on close; ssh is closed with it.
    static MainWindow *openRemote(const RemoteTarget &target, std::shared_ptr<RemoteHost> host,
                                  const QString &initialDevice = {});
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
    /// The host this window works on, or empty for this machine.
    QString remoteHost() const;
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

Q_SIGNALS:
    /// The first device list is on screen.
    void ready();

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void askToRestore(const QList<PendingJournal> &found);
    // The constructor's steps.
    void buildViews(const QString &sysroot, std::shared_ptr<ProfileLibrary> profiles);
    void layOutViews();
    void buildMenus();
    void buildThemeMenu(QMenu *viewMenu);
    void wireViews();
    /// Hotplug on the live machine: a burst of uevents, one rescan.
    void watchDevices();
    void watchHost();
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
    /// A host's window: copies the host's history database and shows it.
    void fetchRemoteHistory();
    QString privilegeText(const struct SessionState *state) const;
    static QString writerText(const QString &writer, bool asRoot);

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
    DeviceWatcher *m_watcher = nullptr;
    HostDeviceWatcher *m_hostWatcher = nullptr; ///< a host's window
    static constexpr int kHostWatchIntervalMs = 5000;
    QString m_initialDevice;
    bool m_ready = false;
    std::unique_ptr<QTemporaryDir> m_snapshotDir; ///< an opened snapshot, unpacked
    std::shared_ptr<RemoteHost> m_remote;         ///< a connected host and its mirror
    std::shared_ptr<RemoteTarget> m_remoteTarget; ///< how it was reached (for reconnecting)
    bool m_connectionLost = false;
    bool m_askedForFocus = false;
};

} // namespace blocktune
