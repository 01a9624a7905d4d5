#pragma once
// File -> Connect to host: the hosts of ~/.ssh/config and the recently used
// ones; ssh does the authentication and the host-key check, and what it
// says when either fails is shown as it said it. The connection (ssh, the
// agent's greeting, the first snapshot of the host) is made on a thread of
// its own, so the window never freezes while ssh waits.

#include "remote/remote.h"

#include <QDialog>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QTemporaryDir;

namespace blocktune {

/// A connected host and the folder its mirror lives in (removed with it).
struct RemoteHost
{
    RemoteConnection connection;
    std::shared_ptr<QTemporaryDir> mirror;
};

/// Connects to `target` on a thread of its own; `done` runs on `context`'s
/// thread with the host or ssh's/the agent's message. Nothing runs when
/// `context` is gone by then (the connection is dropped, and the agent
/// restores nothing because nothing was changed).
void connectInBackground(QObject *context, const RemoteTarget &target,
                         std::function<void(Result<RemoteHost>)> done);

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
    /// The host answered and its mirror is made.
    void connected(const blocktune::RemoteTarget &target, const std::shared_ptr<blocktune::RemoteHost> &host);

private:
    void start();
    void setBusy(bool busy);

    QComboBox *m_host = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_connect = nullptr;
    bool m_busy = false;
};

} // namespace blocktune
