#pragma once
// A private OpenSSH server for the remote tests: sshd on 127.0.0.1 on a
// free port with a temporary host key, an authorized client key and its own
// sshd_config (never the system's sshd), and an ssh_config whose host
// "testhost" reaches it as root (user@testhost as another user whose key
// authorizeUser() put in place). file("wrong_known_hosts") names another
// host key for that port. Root only: sshd logs users in only as root.
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <utility>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace blocktune::test {

/// A TCP port on 127.0.0.1 nobody listens on right now (the kernel's pick).
inline int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = -1;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

class PrivateSshd final
{
public:
    PrivateSshd() = default;
    ~PrivateSshd() { stop(); }
    Q_DISABLE_COPY_MOVE(PrivateSshd)

    /// Why the remote tests cannot run here, or empty.
    static QString unavailable()
    {
        if (::geteuid() != 0)
            return QStringLiteral("needs root (sshd logs users in only as root; loop devices)");
        if (!QFileInfo(QStringLiteral("/usr/sbin/sshd")).isExecutable())
            return QStringLiteral("/usr/sbin/sshd is missing (apt-get install openssh-server; scripts/bootstrap.sh)");
        return {};
    }

    /// Starts it and waits until a command runs through it; empty, or what failed.
    QString start()
    {
        if (!m_dir.isValid() || !m_userKeys.isValid())
            return QStringLiteral("no temporary directory");
        // sshd reads a user's authorized keys as that user.
        QFile::setPermissions(m_userKeys.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                                     | QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
        for (const char *key : {"host_key", "other_host_key", "client_key"}) {
            const ProcessResult made = run(QStringLiteral("ssh-keygen"),
                                           {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                            QStringLiteral("-N"), QString(), QStringLiteral("-C"),
                                            QStringLiteral("blocktune-test"), QStringLiteral("-f"), path(key)});
            if (made.exitCode != 0)
                return QStringLiteral("ssh-keygen failed: ") + QString::fromLocal8Bit(made.err);
        }
        write(path("authorized_keys"), read(path("client_key.pub")));
        m_port = freeLoopbackPort();
        write(path("sshd_config"),
              QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\nAuthorizedKeysFile %3 %5/%u\nPidFile %4\n"
                             "PermitRootLogin prohibit-password\nPasswordAuthentication no\n"
                             "KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\nAllowTcpForwarding no\n"
                             "X11Forwarding no\nPrintMotd no\nLogLevel ERROR\n")
                  .arg(m_port)
                  .arg(path("host_key"), path("authorized_keys"), path("sshd.pid"), m_userKeys.path())
                  .toUtf8());
        QDir().mkpath(QStringLiteral("/run/sshd")); // privilege separation (made by the system's unit at boot)
        const QByteArray hostName = QStringLiteral("[127.0.0.1]:%1 ").arg(m_port).toUtf8();
        for (const auto &[known, key] : {std::pair{"known_hosts", "host_key.pub"}, std::pair{"wrong_known_hosts", "other_host_key.pub"}})
            write(path(known), hostName + read(path(key)).trimmed().split(' ').mid(0, 2).join(' ') + '\n');
        write(path("ssh_config"),
              QStringLiteral("Host testhost\n  HostName 127.0.0.1\n  Port %1\n  User root\n  IdentityFile %2\n"
                             "  IdentitiesOnly yes\n  UserKnownHostsFile %3\n  GlobalKnownHostsFile /dev/null\n"
                             "  StrictHostKeyChecking yes\n  BatchMode yes\n  LogLevel ERROR\n  ConnectTimeout 10\n")
                  .arg(m_port)
                  .arg(path("client_key"), path("known_hosts"))
                  .toUtf8());
        const ProcessResult check = run(QStringLiteral("/usr/sbin/sshd"), {QStringLiteral("-t"), QStringLiteral("-f"), path("sshd_config")});
        if (check.exitCode != 0)
            return QStringLiteral("sshd -t: ") + QString::fromLocal8Bit(check.err);
        m_sshd.setProcessChannelMode(QProcess::ForwardedChannels);
        m_sshd.start(QStringLiteral("/usr/sbin/sshd"),
                     {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), path("sshd_config")});
        if (!m_sshd.waitForStarted())
            return QStringLiteral("sshd did not start");
        QElapsedTimer t;
        t.start();
        ProcessResult probe;
        do {
            QThread::msleep(100);
            probe = run(QStringLiteral("ssh"), {QStringLiteral("-F"), path("ssh_config"), QStringLiteral("testhost"),
                                               QStringLiteral("true")}, 20000);
        } while (probe.exitCode != 0 && t.elapsed() < 10000 && m_sshd.state() == QProcess::Running);
        return probe.exitCode == 0 ? QString() : QStringLiteral("ssh through it failed: ") + QString::fromLocal8Bit(probe.err);
    }

    void stop()
    {
        if (m_sshd.state() == QProcess::NotRunning)
            return;
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(5000))
            m_sshd.kill();
        m_sshd.waitForFinished();
    }

    QString sshConfig() const { return path("ssh_config"); }
    /// The same host reached through tests/support/slowlink.py (every chunk
    /// held `delayMs` each way; SIGUSR1 to the pid in `pidFile` cuts the link).
    QString slowLinkConfig(int delayMs, const QString &pidFile) const
    {
        const QString relay = QStringLiteral(BLOCKTUNE_SOURCE_DIR "/tests/support/slowlink.py");
        QString config = QString::fromUtf8(read(path("ssh_config")));
        config += QStringLiteral("  ProxyCommand python3 %1 --delay-ms %2 --pid-file %3 127.0.0.1 %p\n")
                      .arg(relay).arg(delayMs).arg(pidFile);
        write(path("ssh_config_slow"), config.toUtf8());
        return path("ssh_config_slow");
    }
    /// One of the files it made (keys, known_hosts, configs).
    QString file(const char *name) const { return path(name); }

    /// Lets `user` log in with the client key (its own authorized keys file).
    void authorizeUser(const QString &user)
    {
        const QString keys = m_userKeys.filePath(user);
        write(keys, read(path("client_key.pub")));
        QFile::setPermissions(keys, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    void forgetUser(const QString &user) { QFile::remove(m_userKeys.filePath(user)); }
    /// 'text' for a remote shell.
    static QString quote(QString s) { return u'\'' + s.replace(u'\'', QStringLiteral("'\\''")) + u'\''; }
    static QString host() { return QStringLiteral("testhost"); }

    /// The agent command ssh runs: the build's CLI with the environment the
    /// test has that the agent must share (ssh gives it a clean one).
    static QString agentCommand(const QString &cliArgs = QStringLiteral("agent"))
    {
        QString command = QStringLiteral("env");
        // HOME and XDG too: under ctest they are the build's, and the agent
        // (root, as the test) must keep its profiles and journals there.
        for (const char *name : {"BLOCKTUNE_HISTORY_DB", "BLOCKTUNE_JOURNAL_DIR", "HOME", "XDG_DATA_HOME",
                                 "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "ASAN_OPTIONS",
                                 "LSAN_OPTIONS", "UBSAN_OPTIONS"})
            if (qEnvironmentVariableIsSet(name))
                command += u' ' + quote(QString::fromLatin1(name) + u'=' + qEnvironmentVariable(name));
        return command + u' ' + quote(binary("blocktune-cli")) + u' ' + cliArgs;
    }

private:
    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    static QByteArray read(const QString &file)
    {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static void write(const QString &file, const QByteArray &data)
    {
        QFile f(file);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(data);
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    }

    QTemporaryDir m_dir;
    QTemporaryDir m_userKeys;
    QProcess m_sshd;
    int m_port = -1;
};

/// A user made for one test (no home, no password yet not locked: sshd
/// without PAM refuses a locked one), allowed to log in to `sshd` with the
/// client key, deleted with its key on every path. agentCommand(): the
/// build's agent with only the sanitizer options (a user's own journal
/// folder, when given, as /run/user/UID would be after a PAM login).
class ThrowawayUser final
{
public:
    ThrowawayUser(PrivateSshd &sshd, const QString &prefix) : m_sshd(sshd), m_name(prefix + QString::number(::getpid()))
    {
        const ProcessResult added = run(QStringLiteral("useradd"), {QStringLiteral("-M"), QStringLiteral("-s"),
                                                                    QStringLiteral("/bin/sh"), QStringLiteral("-d"),
                                                                    QStringLiteral("/"), QStringLiteral("-p"),
                                                                    QStringLiteral("*"), m_name});
        m_error = added.exitCode == 0 ? QString() : QString::fromLocal8Bit(added.err);
        if (m_error.isEmpty())
            m_sshd.authorizeUser(m_name);
    }
    ~ThrowawayUser()
    {
        m_sshd.forgetUser(m_name);
        run(QStringLiteral("userdel"), {QStringLiteral("-f"), m_name});
    }
    Q_DISABLE_COPY_MOVE(ThrowawayUser)

    /// Why useradd failed, or empty.
    const QString &error() const { return m_error; }
    const QString &name() const { return m_name; }
    QString agentCommand(const QString &journalDir = {}) const
    {
        QStringList env;
        if (!journalDir.isEmpty())
            env << PrivateSshd::quote(QStringLiteral("BLOCKTUNE_JOURNAL_DIR=") + journalDir);
        for (const char *name : {"ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"})
            if (qEnvironmentVariableIsSet(name))
                env << PrivateSshd::quote(QString::fromLatin1(name) + u'=' + qEnvironmentVariable(name));
        return (env.isEmpty() ? QString() : QStringLiteral("env ") + env.join(u' ') + u' ')
               + PrivateSshd::quote(binary("blocktune-cli")) + QStringLiteral(" agent");
    }

private:
    PrivateSshd &m_sshd;
    QString m_name;
    QString m_error;
};

/// The ssh processes this test started (children of this process): what a
/// dropped connection is made of, and what must be gone after a close.
inline QList<qint64> sshChildren()
{
    QList<qint64> out;
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString &task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile children(tasks.filePath(task + QStringLiteral("/children")));
        if (!children.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray &word : children.readAll().split(' ')) {
            const qint64 pid = word.trimmed().toLongLong();
            QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
            if (pid > 0 && comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == "ssh")
                out << pid;
        }
    }
    return out;
}

} // namespace blocktune::test
