// The client's side of a remote session: ssh in a QProcess, JSON lines
// over its pipes. ssh authenticates, checks the host key and encrypts;
// what it says about that is passed on as it said it, and nothing is
// retried.
#include "remote.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cerrno>
#include <csignal>
#include <cstdio>

namespace blocktune {

Result<QStringList> sshCommandLine(const RemoteTarget &target)
{
    if (target.host.isEmpty())
        return makeError(InvalidArgument, QStringLiteral("--host needs a host (user@server or an ~/.ssh/config alias)"));
    if (target.host.startsWith(u'-'))
        return makeError(InvalidArgument,
                         QStringLiteral("--host '%1' starts with '-': ssh would read it as an option").arg(target.host));
    QStringList args{target.ssh};
    if (!target.sshConfig.isEmpty())
        args << QStringLiteral("-F") << target.sshConfig;
    for (const QString &option : target.sshOptions)
        args << QStringLiteral("-o") << option;
    args << target.host
         << (target.remoteCommand.isEmpty() ? QStringLiteral("blocktune-cli agent") : target.remoteCommand);
    return args;
}

RemoteSession::RemoteSession(RemoteTarget target, QObject *parent) : QObject(parent), m_target(std::move(target)) {}

RemoteSession::~RemoteSession()
{
    close(2000);
}

bool RemoteSession::isOpen() const
{
    return m_process && m_process->state() == QProcess::Running && m_hello.version == kAgentProtocolVersion;
}

QString RemoteSession::lostMessage() const
{
    QString why;
    if (!m_process || m_process->state() == QProcess::NotRunning) {
        if (m_process && m_process->exitStatus() == QProcess::CrashExit)
            why = QStringLiteral("ssh was killed");
        else if (m_process)
            why = QStringLiteral("ssh exited with status %1").arg(m_process->exitCode());
    }
    QString text = QStringLiteral("connection to %1 lost").arg(m_target.host);
    if (!why.isEmpty())
        text += QStringLiteral(" (%1)").arg(why);
    const QByteArray errors = m_sshErrors.trimmed();
    if (!errors.isEmpty())
        text += QStringLiteral(": ") + QString::fromLocal8Bit(errors);
    return text;
}

Status RemoteSession::open(int timeoutMs)
{
    auto command = sshCommandLine(m_target);
    if (!command)
        return command.error();
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(m_forwardErrors ? QProcess::ForwardedErrorChannel : QProcess::SeparateChannels);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &RemoteSession::readLines);
    connect(m_process, &QProcess::readyReadStandardError, this,
            [this] { m_sshErrors += m_process->readAllStandardError().right(64 * 1024); });
    connect(m_process, &QProcess::finished, this, [this] {
        readLines();
        if (!m_closing)
            Q_EMIT connectionLost(lostMessage());
    });
    // A Ctrl-C at the terminal goes to the whole process group: ssh would
    // die at once, and the stop the client sends (with the partial results
    // that come back) would never reach the agent. The client decides when
    // ssh ends; ssh keeps an inherited SIG_IGN for SIGINT.
    m_process->setChildProcessModifier([] { ::signal(SIGINT, SIG_IGN); });
    m_process->start(command->constFirst(), command->mid(1));
    if (!m_process->waitForStarted(10000))
        return makeError(NotFound, QStringLiteral("cannot run %1: %2").arg(m_target.ssh, m_process->errorString()));

    auto greeting = call(QJsonObject{{QStringLiteral("op"), QStringLiteral("hello")},
                                     {QStringLiteral("version"), kAgentProtocolVersion}});
    Q_UNUSED(timeoutMs) // ssh's own ConnectTimeout decides how long connecting may take
    if (!greeting) {
        // ssh failed (host key, authentication, no such host) or the agent
        // did not start: ssh's words are above (forwarded) or in the message.
        QString message = QStringLiteral("could not reach the agent on %1: %2").arg(m_target.host, lostMessage());
        if (m_forwardErrors)
            message += QStringLiteral(" (ssh's message is above)");
        return makeError(EHOSTUNREACH, message);
    }
    const QJsonObject &g = *greeting;
    const int version = g.value(u"version").toInt();
    if (g.value(u"program").toString() != kAgentProgram) {
        close(1000);
        return makeError(Refused, QStringLiteral("%1 on %2 is not a blocktune agent (it answered %3)")
                                      .arg(m_target.remoteCommand.isEmpty() ? QStringLiteral("blocktune-cli agent")
                                                                            : m_target.remoteCommand,
                                           m_target.host, QString::fromUtf8(QJsonDocument(g).toJson(QJsonDocument::Compact).left(200))));
    }
    if (version != kAgentProtocolVersion || !g.value(u"ok").toBool()) {
        const QString message = version != kAgentProtocolVersion
                                    ? protocolMismatchMessage(version, kAgentProtocolVersion, m_target.host)
                                    : g.value(u"error").toString();
        close(1000);
        return makeError(NotSupported, message);
    }
    m_hello.version = version;
    m_hello.host = g.value(u"host").toString();
    m_hello.user = g.value(u"user").toString();
    m_hello.writer = g.value(u"writer").toString();
    m_hello.readOnlyReason = g.value(u"read_only").toString();
    m_hello.raw = g;
    return {};
}

quint64 RemoteSession::submit(QJsonObject request)
{
    const quint64 id = m_nextId++;
    request.insert(u"id", double(id));
    if (m_process && m_process->state() == QProcess::Running)
        m_process->write(jsonLine(request));
    return id;
}

void RemoteSession::readLines()
{
    if (!m_process)
        return;
    m_reader.append(m_process->readAllStandardOutput());
    while (auto line = m_reader.next()) {
        if (line->overlong)
            continue; // cannot be matched to a request: dropped, never guessed
        const QJsonObject o = QJsonDocument::fromJson(line->text).object();
        if (o.isEmpty())
            continue;
        const quint64 id = quint64(o.value(u"id").toDouble());
        const bool isEvent = o.contains(u"event");
        if (m_waitId != 0 && id == m_waitId) {
            if (isEvent) {
                if (m_waitEvent)
                    m_waitEvent(o);
            } else {
                m_waitAnswer = o;
            }
            continue;
        }
        if (isEvent)
            Q_EMIT eventReceived(id, o);
        else
            Q_EMIT answerReceived(id, o);
    }
}

Result<QJsonObject> RemoteSession::call(QJsonObject request, const std::function<void(const QJsonObject &)> &onEvent,
                                        const std::atomic_bool *cancel)
{
    if (!m_process || m_process->state() != QProcess::Running)
        return makeError(EPIPE, lostMessage());
    const quint64 previous = m_waitId;
    const auto previousEvent = m_waitEvent;
    m_waitId = submit(std::move(request));
    m_waitEvent = onEvent;
    m_waitAnswer.reset();
    // Waits on the pipe; no nested event loop.
    bool stopSent = false;
    while (!m_waitAnswer && m_process->state() == QProcess::Running) {
        if (cancel && cancel->load() && !stopSent) {
            submit(QJsonObject{{QStringLiteral("op"), QStringLiteral("stop")}, {QStringLiteral("target"), double(m_waitId)}});
            stopSent = true;
        }
        m_process->waitForReadyRead(100);
        readLines();
    }
    readLines();
    std::optional<QJsonObject> answer = std::exchange(m_waitAnswer, std::nullopt);
    m_waitId = previous;
    m_waitEvent = previousEvent;
    if (!answer) {
        m_process->waitForFinished(2000);
        m_sshErrors += m_process->readAllStandardError();
        return makeError(EPIPE, lostMessage());
    }
    return *answer;
}

Result<QJsonObject> RemoteSession::fetchFile(const QJsonObject &request, const QString &into)
{
    QFile part(into + QStringLiteral(".part"));
    if (!part.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return makeError(EIO, QStringLiteral("cannot write %1: %2").arg(part.fileName(), part.errorString()));
    QString writeError;
    auto answer = call(request, [&](const QJsonObject &event) {
        if (!writeError.isEmpty() || event.value(u"event").toString() != u"chunk")
            return;
        const QByteArray data = QByteArray::fromBase64(event.value(u"data").toString().toLatin1());
        if (part.write(data) != data.size())
            writeError = QStringLiteral("cannot write %1: %2").arg(part.fileName(), part.errorString());
    });
    part.close();
    auto discard = [&](Error error) {
        part.remove();
        return error;
    };
    if (!answer)
        return discard(answer.error());
    if (!answer->value(u"ok").toBool())
        return discard(makeError(errorCodeFromName(answer->value(u"code").toString()),
                                 QStringLiteral("%1: %2").arg(m_target.host, answer->value(u"error").toString())));
    if (!writeError.isEmpty())
        return discard(makeError(EIO, writeError));
    if (part.size() != qint64(answer->value(u"bytes").toDouble(-1)))
        return discard(makeError(EIO, QStringLiteral("the file from %1 arrived incomplete (%2 of %3 bytes)")
                                          .arg(m_target.host).arg(part.size()).arg(qint64(answer->value(u"bytes").toDouble()))));
    if (answer->value(u"empty").toBool()) {
        part.remove();
        return *answer;
    }
    // rename(2) over the old file: a reader of it keeps the old one whole.
    if (::rename(QFile::encodeName(part.fileName()).constData(), QFile::encodeName(into).constData()) != 0)
        return discard(makeError(errno, QStringLiteral("cannot rename %1 to %2").arg(part.fileName(), into)));
    return *answer;
}

Result<SnapshotReport> RemoteSession::fetchSnapshot(const QString &tarball)
{
    if (!isSnapshotTarball(tarball))
        return makeError(InvalidArgument, QStringLiteral("'%1' does not end in .tar.gz or .tgz").arg(tarball));
    auto answer = fetchFile(QJsonObject{{QStringLiteral("op"), QStringLiteral("snapshot")}}, tarball);
    if (!answer)
        return answer.error();
    SnapshotReport report;
    report.devices = answer->value(u"devices").toInt();
    report.files = answer->value(u"files").toInt();
    report.links = answer->value(u"links").toInt();
    for (const QJsonValue &v : answer->value(u"skipped").toArray())
        report.skipped << v.toString();
    return report;
}

void RemoteSession::close(int waitMs)
{
    if (!m_process)
        return;
    m_closing = true;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->closeWriteChannel();
        if (!m_process->waitForFinished(waitMs)) {
            m_process->terminate();
            if (!m_process->waitForFinished(2000))
                m_process->kill();
            m_process->waitForFinished(1000);
        }
    }
    m_hello = {};
}

} // namespace blocktune
