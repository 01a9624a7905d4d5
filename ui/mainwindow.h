#pragma once

#include <QMainWindow>

#include <memory>

class QLabel;
class QPlainTextEdit;

namespace blocktune {

class DeviceTree;
class DeviceWatcher;
class SysRoot;

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

public Q_SLOTS:
    void rescan();

private:
    void showDetails(const QString &name);

    std::unique_ptr<SysRoot> m_root;
    DeviceTree *m_tree = nullptr;
    QPlainTextEdit *m_details = nullptr;
    QLabel *m_status = nullptr;
    DeviceWatcher *m_watcher = nullptr;
    QString m_initialDevice;
};

} // namespace blocktune
