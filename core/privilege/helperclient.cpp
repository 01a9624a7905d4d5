// The unprivileged side of blocktune-helper: one QProcess per session,
// requests in order, answers matched by id.
#include "privilege.h"

#include "common/jsonlines.h"
#include "common/tr.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>

#include <unistd.h>

namespace blocktune {

HelperClient::HelperClient(QStringList command, QObject *parent)
    : QObject(parent), m_command(command.isEmpty() ? defaultCommand() : std::move(command))
{
}

HelperClient::~HelperClient()
{
    stop();
}

QStringList HelperClient::defaultCommand()
{
    // pkexec wants an absolute path, and the polkit action names the
    // installed one: BINDIR/../libexec/blocktune/blocktune-helper, found from
    // this program's directory so a staged install finds its own. In the
    // build tree the helper is this program's neighbour in bin/.
    const QString dir = QCoreApplication::applicationDirPath();
    // cleanPath: pkexec matches the path against the action's exec.path as
    // a string, so no "bin/.." may stay in it.
    const QString installed = QDir::cleanPath(dir + u'/' + QStringLiteral(BLOCKTUNE_HELPER_FROM_BINDIR));
    return {QStringLiteral("pkexec"),
            QFileInfo::exists(installed) ? installed : dir + u"/blocktune-helper"};
}

bool HelperClient::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

bool HelperClient::ensureStarted(QString *error)
{
    if (isRunning())
        return true;
    if (m_process) {
        m_process->deleteLater();
        m_process = nullptr;
    }
    m_reader = JsonLineReader(kHelperMaxAnswer);
    m_greeted = false;
    const QString program = m_command.value(0);
    if (program.isEmpty()
        || (QStandardPaths::findExecutable(program).isEmpty() && !QFileInfo(program).isExecutable())) {
        *error = program == u"pkexec"
                     ? PrivilegeText::tr("pkexec is not installed: install pkexec (polkit) or run as root")
                     : PrivilegeText::tr("cannot run %1: not found or not executable").arg(program);
        return false;
    }
    if (m_command.size() > 1 && m_command.constFirst() == u"pkexec" && !QFileInfo(m_command[1]).isExecutable()) {
        *error = PrivilegeText::tr("%1 is missing: install blocktune-helper (cmake --install or the blocktune package)")
                     .arg(m_command[1]);
        return false;
    }
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &HelperClient::readReplies);
    connect(m_process, &QProcess::finished, this, [this] {
        readReplies();
        failPending(exitExplanation());
    });
    m_cancel.store(false);
    ++m_starts;
    m_process->start(program, m_command.mid(1));
    if (!m_process->waitForStarted(10000)) {
        *error = PrivilegeText::tr("cannot start %1: %2").arg(m_command.join(u' '), m_process->errorString());
        return false;
    }
    // The greeting is the first request: its answer proves we talk to a
    // blocktune-helper of our protocol, and under pkexec it arrives only
    // once the user is authorized.
    const quint64 helloId = m_nextId++;
    m_pending.append(helloId);
    QJsonObject hello{{QStringLiteral("op"), QStringLiteral("hello")}, {QStringLiteral("id"), double(helloId)}};
    m_process->write(QJsonDocument(hello).toJson(QJsonDocument::Compact) + '\n');
    m_helloId = helloId;
    return true;
}

quint64 HelperClient::submit(QJsonObject request)
{
    const quint64 id = m_nextId++;
    QString error;
    if (!ensureStarted(&error)) {
        m_ready.append(HelperReply{id, false, {}, error});
        deliver();
        return id;
    }
    request.insert(u"id", double(id));
    if (std::exchange(m_streamNext, false)) {
        m_streamId = id;
        m_streamOpen = false;
        m_streamLast = {};
        m_streamError.clear();
    }
    m_pending.append(id);
    m_process->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    return id;
}

HelperReply HelperClient::call(QJsonObject request, int timeoutMs, int firstTimeoutMs)
{
    ++m_waitingFor;
    if (!isRunning())
        m_cancel.store(false); // a cancel of an earlier prompt does not carry over
    const quint64 id = submit(std::move(request));
    const int limit = m_greeted ? timeoutMs : firstTimeoutMs;
    QElapsedTimer timer;
    timer.start();
    HelperReply result;
    for (;;) {
        const auto it = std::find_if(m_ready.begin(), m_ready.end(),
                                     [id](const HelperReply &r) { return r.id == id; });
        if (it != m_ready.end()) {
            result = *it;
            m_ready.erase(it);
            break;
        }
        if (!isRunning()) {
            readReplies();
            failPending(exitExplanation());
            continue; // our failure reply is in m_ready now
        }
        if (m_cancel.exchange(false)) {
            for (quint64 pendingId : std::exchange(m_pending, {}))
                if (pendingId != m_helloId)
                    m_ready.append(HelperReply{pendingId, false, QJsonObject{{QStringLiteral("code"), QStringLiteral("interrupted")}},
                                               PrivilegeText::tr("cancelled while waiting for blocktune-helper%1")
                                                   .arg(m_greeted ? QString() : PrivilegeText::tr(" (authorization)"))});
            // No grace period: a prompt does not read its stdin.
            m_process->kill();
            m_process->waitForFinished(3000);
            continue;
        }
        const qint64 left = limit - timer.elapsed();
        if (left <= 0) {
            // Answers come in order: a helper that misses one is stuck, and
            // waiting on it would misattribute every later answer.
            failPending(PrivilegeText::tr("blocktune-helper gave no answer within %1 s").arg(limit / 1000));
            stop();
            continue;
        }
        m_process->waitForReadyRead(int(std::min<qint64>(left, 100)));
        readReplies();
    }
    --m_waitingFor;
    deliver();
    return result;
}

void HelperClient::readReplies()
{
    if (!m_process)
        return;
    m_reader.append(m_process->readAllStandardOutput());
    while (auto next = m_reader.next()) {
        const QByteArray line = next->overlong ? QByteArray("(an answer longer than 1 MiB)") : next->text;
        if (m_streamOpen && keepStreamLine(line))
            continue;
        if (m_pending.isEmpty())
            continue; // nothing asked: ignore, never guess
        const quint64 id = m_pending.takeFirst();
        const QJsonObject body = QJsonDocument::fromJson(line).object();
        HelperReply reply{id, body.value(u"ok").toBool(), body, body.value(u"error").toString()};
        if (body.isEmpty())
            reply.error = PrivilegeText::tr("blocktune-helper answered something that is not JSON: %1")
                              .arg(QString::fromUtf8(line.left(200)));
        else if (quint64(body.value(u"id").toDouble()) != id)
            reply = HelperReply{id, false, body, PrivilegeText::tr("blocktune-helper answered out of order")};
        if (id == m_helloId) {
            if (!reply.ok || body.value(u"program").toString() != u"blocktune-helper"
                || body.value(u"version").toInt() != kHelperProtocolVersion) {
                failPending(PrivilegeText::tr("%1 is not a blocktune-helper speaking protocol %2 (%3)")
                                .arg(m_command.join(u' ')).arg(kHelperProtocolVersion)
                                .arg(reply.error.isEmpty() ? QString::fromUtf8(line.left(200)) : reply.error));
                stop();
                return;
            }
            m_greeted = true;
            continue;
        }
        if (id == m_streamId && m_streamId != 0) {
            m_streamOpen = reply.ok;
            m_streamLast = reply.ok ? body : QJsonObject();
            if (!reply.ok)
                m_streamError = reply.error;
        }
        m_ready.append(reply);
    }
    deliver();
}

bool HelperClient::keepStreamLine(const QByteArray &line)
{
    const QJsonObject body = QJsonDocument::fromJson(line).object();
    if (body.isEmpty() || quint64(body.value(u"id").toDouble()) != m_streamId)
        return false;
    if (body.value(u"end").toBool()) {
        m_streamOpen = false;
        m_streamLast = {};
        m_streamError = PrivilegeText::tr("blocktune-helper ended the stream");
    } else {
        m_streamLast = body;
    }
    return true;
}

HelperReply HelperClient::startStream(QJsonObject request, int timeoutMs, int firstTimeoutMs)
{
    m_streamNext = true;
    return call(std::move(request), timeoutMs, firstTimeoutMs);
}

QJsonObject HelperClient::streamLine(QString *error)
{
    if (m_streamOpen && m_process) {
        // Without an event loop (tests, the CLI) nothing else reads the
        // pipe; a helper that found it full writes more once it is read.
        for (int i = 0; i < 8 && m_process->waitForReadyRead(0); ++i)
            readReplies();
        readReplies();
        if (!isRunning()) {
            m_streamOpen = false;
            m_streamLast = {};
            m_streamError = exitExplanation();
        }
    }
    if (!m_streamOpen) {
        *error = m_streamError.isEmpty() ? PrivilegeText::tr("no latency stream was started") : m_streamError;
        return {};
    }
    error->clear();
    return m_streamLast;
}

void HelperClient::deliver()
{
    if (m_waitingFor > 0)
        return; // call() collects its own answer; the others follow it
    const QList<HelperReply> ready = std::exchange(m_ready, {});
    for (const HelperReply &r : ready)
        Q_EMIT replyReceived(r);
}

void HelperClient::failPending(const QString &why)
{
    for (quint64 id : std::exchange(m_pending, {}))
        if (id != m_helloId)
            m_ready.append(HelperReply{id, false, {}, why});
    deliver();
}

QString HelperClient::exitExplanation() const
{
    if (!m_process)
        return PrivilegeText::tr("blocktune-helper is not running");
    const QString err = QString::fromLocal8Bit(m_process->readAllStandardError()).trimmed();
    const bool viaPkexec = m_command.value(0) == u"pkexec";
    if (m_process->exitStatus() == QProcess::CrashExit)
        return PrivilegeText::tr("blocktune-helper died (%1)").arg(err.isEmpty() ? m_process->errorString() : err);
    const int code = m_process->exitCode();
    // pkexec(1): 126 = the authorization dialog was dismissed, 127 = not
    // authorized or the authentication failed.
    if (viaPkexec && code == 126)
        return PrivilegeText::tr("authorization was dismissed (pkexec exit 126); nothing was changed by the helper");
    if (viaPkexec && code == 127)
        return PrivilegeText::tr("not authorized to change block device settings (pkexec exit 127)%1")
            .arg(err.isEmpty() ? QString() : u": " + err);
    return PrivilegeText::tr("blocktune-helper exited with code %1%2").arg(code).arg(err.isEmpty() ? QString() : u": " + err);
}

void HelperClient::stop()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->closeWriteChannel(); // the helper exits on EOF
        if (!m_process->waitForFinished(3000)) {
            m_process->kill();
            m_process->waitForFinished(3000);
        }
    }
}

// ---- HelperWriter ---------------------------------------------------------

HelperWriter::HelperWriter(QStringList command)
    : m_thread(new QThread), m_client(new HelperClient(std::move(command)))
{
    m_thread->setObjectName(QStringLiteral("blocktune-helper client"));
    m_client->moveToThread(m_thread);
    m_thread->start();
}

HelperWriter::~HelperWriter()
{
    // The client (and its QProcess) must die on the thread they live on.
    QMetaObject::invokeMethod(m_client, [c = m_client] { delete c; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

int HelperWriter::starts() const
{
    int n = 0;
    QMetaObject::invokeMethod(m_client, [&n, c = m_client] { n = c->starts(); }, Qt::BlockingQueuedConnection);
    return n;
}

QString HelperWriter::describe() const
{
    return QStringLiteral("blocktune-helper (%1)").arg(m_client->command().value(0));
}

Result<WrittenValue> HelperWriter::write(const AttributeWrite &request)
{
    QJsonObject json{{QStringLiteral("op"), QStringLiteral("set")},
                     {QStringLiteral("attribute"), request.attribute},
                     {QStringLiteral("value"), request.value}};
    if (!request.device.isEmpty())
        json.insert(u"device", request.device);
    HelperReply reply;
    QMetaObject::invokeMethod(m_client, [&reply, &json, c = m_client] { reply = c->call(json); },
                              Qt::BlockingQueuedConnection);
    if (!reply.ok)
        return makeError(errorCodeFromName(reply.body.value(u"code").toString()),
                         reply.error.isEmpty() ? PrivilegeText::tr("blocktune-helper refused without a reason")
                                               : reply.error);
    return WrittenValue{reply.body.value(u"previous").toString(), reply.body.value(u"value").toString()};
}

namespace {

QJsonObject rulesRequest(RulesChange change, const QString &fileName, const QByteArray &content)
{
    QJsonObject request{{QStringLiteral("op"), change == RulesChange::Install ? QStringLiteral("install_rules")
                                                                               : QStringLiteral("remove_rules")},
                        {QStringLiteral("name"), fileName}};
    if (change == RulesChange::Install)
        request.insert(u"content", QString::fromUtf8(content));
    return request;
}

Result<UdevRulesResult> rulesReply(const HelperReply &reply)
{
    if (!reply.ok)
        return makeError(errorCodeFromName(reply.body.value(u"code").toString()),
                         reply.error.isEmpty() ? QStringLiteral("blocktune-helper refused without a reason") : reply.error);
    UdevRulesResult r;
    r.path = reply.body.value(u"path").toString();
    r.replaced = reply.body.value(u"replaced").toBool();
    r.udevdRunning = reply.body.value(u"udevd").toBool();
    for (const QJsonValue &v : reply.body.value(u"commands").toArray())
        r.commands << v.toString();
    r.message = reply.body.value(u"message").toString();
    return r;
}

} // namespace

Result<UdevRulesResult> AttributeWriter::changeRules(const SysRoot &root, RulesChange change, const QString &fileName,
                                                     const QByteArray &content)
{
    return change == RulesChange::Install ? installUdevRules(root, fileName, content) : removeUdevRules(root, fileName);
}

Result<UdevRulesResult> HelperWriter::changeRules(const SysRoot &, RulesChange change, const QString &fileName,
                                                  const QByteArray &content)
{
    // The helper works on its own root (the machine, or its --sysroot in tests).
    const QJsonObject json = rulesRequest(change, fileName, content);
    HelperReply reply;
    QMetaObject::invokeMethod(m_client, [&reply, &json, c = m_client] { reply = c->call(json, 60000); },
                              Qt::BlockingQueuedConnection);
    return rulesReply(reply);
}

Result<UdevRulesResult> changeUdevRules(const SysRoot &root, RulesChange change, const QString &fileName,
                                        const QByteArray &content)
{
    // As with attributes: root, or a recorded tree the caller owns, writes
    // itself; a user asks the helper, which checks it all again.
    if (!root.isLive() || ::geteuid() == 0)
        return change == RulesChange::Install ? installUdevRules(root, fileName, content) : removeUdevRules(root, fileName);
    HelperClient client;
    return rulesReply(client.call(rulesRequest(change, fileName, content), 60000));
}

std::unique_ptr<AttributeWriter> makeAttributeWriter(const SysRoot &root)
{
    // A recorded tree is plain files the caller owns; root may write sysfs
    // itself. Only a user changing the live machine needs the helper.
    if (!root.isLive() || ::geteuid() == 0)
        return std::make_unique<DirectWriter>(root);
    return std::make_unique<HelperWriter>();
}

} // namespace blocktune
