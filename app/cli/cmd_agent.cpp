// `blocktune-cli agent`: this host's end of a remote session (core/remote).
// It serves one TuningSession over JSON lines on stdin/stdout; ssh carries
// them. The CLI's own commands run in that session for `blocktune-cli
// --host` (op "run"), so what they print there is what they print here.
#include "clicontext.h"

#include "common/termination.h"
#include "devices/devices.h"
#include "privilege/privilege.h"
#include "remote/remote.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QCommandLineParser>
#include <QIODevice>
#include <QJsonArray>
#include <QSysInfo>

#include <csignal>
#include <unistd.h>

namespace blocktune::cli {

namespace {

/// What a command writes to one of its streams, sent on as events
/// {"event":"out"|"err","text":...} whenever the command flushes.
class EventDevice final : public QIODevice
{
public:
    EventDevice(AgentCall &call, QString name) : m_call(call), m_name(std::move(name)) { open(QIODevice::WriteOnly); }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override
    {
        if (size > 0)
            m_call.event(m_name, {{QStringLiteral("text"), QString::fromUtf8(data, size)}});
        return size; // a lost connection is the server's to notice
    }

private:
    AgentCall &m_call;
    QString m_name;
};

struct RunnableCommand
{
    const char *name;
    int (*run)(CliContext &, const QStringList &);
    bool rescan; ///< looks devices up: scan again first (one may have appeared)
};

// What `--host` runs on the agent: every command that reads or tunes this
// host. They write only through the context's streams and stop on its
// cancel flag, so what they print here is printed there and stopping the
// client stops them. Paths in their arguments (profile files, --file,
// --output, a tuned.conf) name files on this host. Not here: record (the
// client fetches the tarball through op "snapshot"), agent.
const RunnableCommand kRunnable[] = {
    {"list", &runList, false},         {"get", &runGet, true},           {"set", &runSet, true},
    {"restore", &runRestore, false},   {"test", &runTest, false},        {"sweep", &runSweep, true},
    {"monitor", &runMonitor, false},   {"history", &runHistory, false},  {"advise", &runAdvise, true},
    {"diagnose", &runDiagnose, true},  {"profile", &runProfile, true},  {"metrics", &runMetrics, true},
};

QJsonObject runCommand(const SysRoot &root, AgentCall &call)
{
    const QString name = call.request.value(u"command").toString();
    const RunnableCommand *command = nullptr;
    QStringList names;
    for (const RunnableCommand &c : kRunnable) {
        names << QString::fromLatin1(c.name);
        if (name == QLatin1StringView(c.name))
            command = &c;
    }
    if (!command)
        return agentError(makeError(InvalidArgument, QStringLiteral("'%1' cannot run through the agent (commands: %2)")
                                                         .arg(name.left(64), names.join(u", "))));
    QStringList args;
    for (const QJsonValue &v : call.request.value(u"args").toArray()) {
        if (!v.isString())
            return agentError(makeError(InvalidArgument, QStringLiteral("'args' must be an array of strings")));
        args << v.toString();
    }
    if (command->rescan)
        (void)call.session.rescan();
    EventDevice outDevice(call, QStringLiteral("out"));
    EventDevice errDevice(call, QStringLiteral("err"));
    QTextStream out(&outDevice);
    QTextStream err(&errDevice);
    // Measured here, kept in this host's history: the agent's own machine.
    CliContext ctx{root, out, err, openMachine(root)};
    ctx.session = &call.session;
    ctx.cancel = call.cancel;
    ctx.rawOut = &outDevice;
    const int status = command->run(ctx, args);
    out.flush();
    err.flush();
    return {{QStringLiteral("ok"), status == ExitOk}, {QStringLiteral("exit"), status}};
}

QJsonObject listDevices(const SysRoot &root, AgentCall &call)
{
    ScanOptions options;
    options.probeFilesystems = call.request.value(u"probe").toBool(true);
    auto model = DeviceModel::scan(root, options);
    if (!model)
        return agentError(model.error());
    return {{QStringLiteral("model"), modelToJson(*model)},
            {QStringLiteral("warnings"), QJsonArray::fromStringList(model->warnings())}};
}

} // namespace

int runAgent(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "This host's end of a remote session: reads JSON requests, one per line, on stdin and answers on "
        "stdout (protocol %1; docs/json.md). Started by `blocktune-cli --host HOST ...` or the "
        "console through ssh, not by hand. When its input ends or SIGHUP/SIGTERM/SIGINT arrives (the ssh "
        "connection dropped), it restores every temporary change it made, then exits.\nWrites: as root "
        "directly; else through blocktune-helper with sudo -n when sudoers allows it; else the session is "
        "read-only and every write says why.").arg(kAgentProtocolVersion));
    if (const int r = parseCommandArgs(ctx, parser, QStringLiteral("agent"), args); r >= 0)
        return r;
    if (!parser.positionalArguments().isEmpty())
        return fail(ctx, QStringLiteral("agent takes no arguments (got '%1')")
                             .arg(parser.positionalArguments().join(u' ')), ExitUsage);
    if (::isatty(STDIN_FILENO))
        ctx.err << "blocktune-cli agent: speaking JSON lines on stdin/stdout (protocol " << kAgentProtocolVersion
                << "); start it through ssh with blocktune-cli --host" << Qt::endl;

    TerminationSignals::install();
    // A write to a vanished ssh fails with EPIPE instead of killing us
    // before the restore.
    std::signal(SIGPIPE, SIG_IGN);

    const QStringList helper = HelperClient::defaultCommand();
    const AgentPrivilege privilege = agentPrivilege(ctx.root, helper.value(1));
    SessionOptions options;
    options.writerFactory = privilege.writerFactory;
    options.readOnlyReason = privilege.readOnlyReason;
    TuningSession session(ctx.root, options);

    QJsonObject hello;
    hello.insert(u"host", QSysInfo::machineHostName());
    hello.insert(u"user", agentUserName());
    hello.insert(u"euid", qint64(::geteuid()));
    hello.insert(u"writer", privilege.writer);
    hello.insert(u"read_only", privilege.readOnlyReason.isEmpty() ? QJsonValue() : QJsonValue(privilege.readOnlyReason));
    hello.insert(u"blocktune", QStringLiteral(BLOCKTUNE_VERSION));
    hello.insert(u"sysroot", !ctx.root.isLive());
    if (const QJsonObject previous = takePreviousAgentEnd(); !previous.isEmpty())
        hello.insert(u"previous_end", previous);
    hello.insert(u"commands", [] {
        QJsonArray names;
        for (const RunnableCommand &c : kRunnable)
            names.append(QString::fromLatin1(c.name));
        return names;
    }());

    AgentServer server(session, hello);
    const SysRoot root = ctx.root;
    server.addOp(QStringLiteral("run"), [root](AgentCall &call) { return runCommand(root, call); });
    server.addOp(QStringLiteral("list"), [root](AgentCall &call) { return listDevices(root, call); });
    const AgentServer::Outcome outcome = server.serve(STDIN_FILENO, STDOUT_FILENO);
    recordAgentEnd(outcome); // for the hello of the client that reconnects

    // Said on stderr, which ssh carries while the connection lasts.
    const qsizetype restored = std::count_if(outcome.restored.items.cbegin(), outcome.restored.items.cend(),
                                             [](const RestoreItem &i) { return i.status == RestoreStatus::Restored; });
    if (!outcome.restored.items.isEmpty())
        ctx.err << "blocktune-cli agent: " << (outcome.signal ? TerminationSignals::name(outcome.signal)
                                                              : QStringLiteral("connection ended"))
                << "; " << restored << " temporary change(s) restored" << Qt::endl;
    if (!outcome.restored.ok()) {
        for (const QString &m : outcome.restored.messages)
            ctx.err << "blocktune-cli agent: " << m << Qt::endl;
        return ExitFailed;
    }
    return outcome.signal ? 128 + outcome.signal : ExitOk;
}

} // namespace blocktune::cli
