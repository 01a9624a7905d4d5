#pragma once

#include <QMainWindow>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace blocktune {

class DeviceTree;
class DeviceWatcher;
class SysRoot;
class TuningPanel;
class MonitorView;
class ReadTestView;

/// The console's main window.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    /// `sysroot` empty = the live machine; else a recorded tree.
    explicit MainWindow(const QString &sysroot, const QString &initialDevice = {},
                        QWidget *parent = nullptr);
    ~MainWindow() override;

    DeviceTree *deviceTree() const { return m_tree; }
    TuningPanel *tuningPanel() const { return m_tuning; }
    MonitorView *monitorView() const { return m_monitor; }
    ReadTestView *readTestView() const { return m_readTest; }
    QTabWidget *tabs() const { return m_tabs; }

    /// Journals left by a session that died (kill -9, crash): offers to
    /// restore the original values they hold. Called once after show().
    void offerJournalRestore();

public Q_SLOTS:
    void rescan();

private:
    void showDetails(const QString &name);
    void deviceSelected(const QString &name);
    /// Samples only while the Monitor tab is on screen.
    void updateMonitorDevices();

    std::unique_ptr<SysRoot> m_root;
    DeviceTree *m_tree = nullptr;
    QPlainTextEdit *m_details = nullptr;
    QTabWidget *m_tabs = nullptr;
    TuningPanel *m_tuning = nullptr;
    MonitorView *m_monitor = nullptr;
    ReadTestView *m_readTest = nullptr;
    QLabel *m_status = nullptr;
    DeviceWatcher *m_watcher = nullptr;
    QString m_initialDevice;
};

} // namespace blocktune
