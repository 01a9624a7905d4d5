// `blocktune-cli agent`: this host's end of a remote session (core/remote).
// It serves one TuningSession over JSON lines on stdin/stdout; ssh carries
// them. It runs no command lines: `blocktune-cli --host` runs each command
// on the client, against this host's Machine, through the typed ops.
#include "clicontext.h"

#include "common/termination.h"
#include "devices/devices.h"
#include "privilege/privilege.h"
#include "remote/remote.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QSysInfo>

#include <csignal>
#include <unistd.h>

namespace blocktune::cli {

namespace {

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

    AgentServer server(session, hello);
    const SysRoot root = ctx.root;
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
