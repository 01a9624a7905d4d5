#include "connectdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace blocktune {

QStringList knownHosts()
{
    QStringList hosts = sshConfigHosts(QDir::homePath() + QStringLiteral("/.ssh/config"));
    const QStringList recent = QSettings().value(QStringLiteral("remote/recentHosts")).toStringList();
    for (const QString &h : recent)
        if (!hosts.contains(h))
            hosts << h;
    return hosts;
}

void rememberHost(const QString &host)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("remote/recentHosts")).toStringList();
    recent.removeAll(host);
    recent.prepend(host);
    settings.setValue(QStringLiteral("remote/recentHosts"), recent.mid(0, 10));
}

ConnectDialog::ConnectDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Connect to host"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("blocktune runs <tt>ssh HOST blocktune-cli agent</tt>: ssh checks the host key and "
                                "authenticates as it always does, and blocktune must be installed there. "
                                "Changes need root there, or the sudoers line of docs/cli.md (Remote hosts)."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    m_host = new QComboBox(this);
    m_host->setEditable(true);
    m_host->addItems(knownHosts());
    m_host->setCurrentIndex(m_host->count() > 0 ? 0 : -1);
    m_host->lineEdit()->setPlaceholderText(tr("user@server or an ~/.ssh/config alias"));
    m_host->setAccessibleName(tr("Host"));
    m_host->setMinimumContentsLength(28);
    form->addRow(tr("&Host:"), m_host);
    layout->addLayout(form);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setObjectName(QStringLiteral("connectStatus"));
    layout->addWidget(m_status);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_connect = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    m_connect->setDefault(true);
    layout->addWidget(buttons);
    connect(m_connect, &QPushButton::clicked, this, &ConnectDialog::start);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

ConnectDialog::~ConnectDialog() = default;

void ConnectDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_connect->setEnabled(!busy);
    m_host->setEnabled(!busy);
}

void ConnectDialog::start()
{
    if (m_busy)
        return;
    RemoteTarget target;
    target.host = m_host->currentText().trimmed();
    if (auto line = sshCommandLine(target); !line) {
        m_status->setText(line.error().message);
        return;
    }
    setBusy(true);
    m_status->setText(tr("Connecting to %1…").arg(target.host));
    openMachineInBackground(this, target, [this, target](Result<std::shared_ptr<Machine>> machine) {
        setBusy(false);
        if (!machine) {
            // ssh's words (host key, authentication) as it wrote them.
            m_status->setText(machine.error().message);
            return;
        }
        rememberHost(target.host);
        Q_EMIT connected(*machine);
        accept();
    });
}

} // namespace blocktune
