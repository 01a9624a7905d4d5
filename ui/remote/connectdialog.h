#pragma once
// File -> Connect to host: the hosts of ~/.ssh/config and the recently used
// ones; ssh does the authentication and the host-key check, and what it
// says when either fails is shown as it said it. The connection (ssh, the
// agent's greeting, the first snapshot of the host) is made on a thread of
// its own (openMachineInBackground()), so the window never freezes while
// ssh waits. This and app/console/main.cpp's --host are where a host is
// chosen; everything after asks the Machine.

#include "machine/machine.h"

#include <QDialog>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;

namespace blocktune {

/// Hosts to offer: ~/.ssh/config's, then the recent ones not among them.
QStringList knownHosts();
/// Puts `host` first in the recent list (QSettings "remote/recentHosts", ten kept).
void rememberHost(const QString &host);

class ConnectDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectDialog)

public:
    explicit ConnectDialog(QWidget *parent = nullptr);
    ~ConnectDialog() override;

    QComboBox *hostBox() const { return m_host; }

Q_SIGNALS:
    /// The host answered and its mirror is made: the machine a window opens on.
    void connected(const std::shared_ptr<blocktune::Machine> &machine);

private:
    void start();
    void setBusy(bool busy);

    QComboBox *m_host = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_connect = nullptr;
    bool m_busy = false;
};

} // namespace blocktune
