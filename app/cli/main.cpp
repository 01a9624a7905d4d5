// blocktune-cli: the console's functions for scripts and terminals.
#include "clicontext.h"

#include "devices/devicemodel.h"
#include "devices/snapshot.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <optional>

#include <cstdio>
#include <iterator>

using namespace blocktune;
using namespace blocktune::cli;

namespace {

const Command kCommands[] = {
    {"list", "show every block device and how they stack (tree, or --json)", &runList},
    {"get", "show a device's settings and what each accepts", &runGet},
    {"set", "change settings (validated, rolled back on failure, journaled)", &runSet},
    {"restore", "restore the original values a journal holds (after a crash)", &runRestore},
    {"test", "measure streaming reads: seq, concurrent, server, mixed", &runTest},
    {"sweep", "run a read test at several readahead values, then restore", &runSweep},
    {"monitor", "live throughput, request size, queue depth, interrupts, md balance", &runMonitor},
    {"readahead", "what the kernel's readahead does for the running workload, per device (BPF, root)", &runReadahead},
    {"history", "the read tests and sweeps kept so far (--json, --device D, --limit N)", &runHistory},
    {"advise", "the smallest readahead that reaches the plateau, and how far from raw", &runAdvise},
    {"diagnose", "findings with their cause, evidence and fix (static, then measured)", &runDiagnose},
    {"profile", "tuning profiles: list, show, save, apply, revert, verify, export, import, install", &runProfile},
    {"metrics", "settings, stacking, drift and the history's figures for Prometheus (--textfile-dir)", &runMetrics},
    {"record", "snapshot what blocktune reads of /sys, /proc and /dev into FILE.tar.gz", &runRecord},
    {"agent", "serve a remote session on stdin/stdout (started through ssh by --host)", &runAgent},
};

void printUsage(QTextStream &out)
{
    out << "Usage: blocktune-cli [--sysroot DIR] COMMAND [OPTIONS]\n"
           "       blocktune-cli --host HOST [--ssh-config FILE] [--ssh-option OPT]... [--remote-command CMD]\n"
           "                     COMMAND [OPTIONS]   (every command but agent; see --host below)\n\n"
           "Inspect and tune Linux block devices for streaming reads.\n\n"
           "Global options:\n"
           "  --sysroot DIR   read DIR/sys and DIR/proc instead of the live machine\n"
           "                  (a recorded tree, as lsblk --sysroot; a FILE.tar.gz of\n"
           "                  blocktune-cli record is unpacked into a temporary directory)\n"
           "  --host HOST     work on HOST (anything ssh takes) through ssh HOST\n"
           "                  blocktune-cli agent; ssh does authentication and host keys.\n"
           "                  Every command runs here on HOST's devices (its agent's\n"
           "                  typed ops); Ctrl-C stops it and what it changed is\n"
           "                  restored. Profile names and udev rules are HOST's; files\n"
           "                  named in arguments (profile files, --file, --output, a\n"
           "                  tuned.conf, metrics --textfile-dir, record's FILE.tar.gz)\n"
           "                  are read and written here\n"
           "  --ssh-config FILE    passed to ssh as -F FILE\n"
           "  --ssh-option OPT     passed to ssh as -o OPT (repeatable)\n"
           "  --remote-command CMD the agent command on HOST (default: blocktune-cli agent)\n"
           "  -h, --help      show this help (COMMAND --help for a command's options)\n"
           "  --version       show the version\n\n"
           "Commands:\n";
    for (const Command &c : kCommands)
        out << "  " << QString::fromLatin1(c.name).leftJustified(14) << QString::fromLatin1(c.summary) << '\n';
    out << "\nExit status: 0 success, 1 the operation failed, 2 invalid usage or input.\n";
    out.flush();
}

/// What the options before COMMAND said.
struct GlobalOptions
{
    QString sysroot;
    /// A --sysroot FILE.tar.gz, unpacked; made only then (a QTemporaryDir
    /// makes its folder at once, and a CLI ended by a signal left one
    /// empty folder in /tmp per run).
    std::optional<QTemporaryDir> snapshotDir;
    RemoteTarget remote;
    bool viaHost = false;
};

/// --opt VALUE or --opt=VALUE; false (and a message) when VALUE is missing.
bool valueOf(QStringList &args, QTextStream &err, const QString &opt, const QString &name, QString *value)
{
    if (opt == name) {
        if (args.isEmpty()) {
            err << "blocktune-cli: " << name << " needs a value" << Qt::endl;
            return false;
        }
        *value = args.takeFirst();
    } else {
        *value = opt.mid(name.size() + 1);
    }
    return true;
}

bool isOption(const QString &opt, const char *name)
{
    return opt == QLatin1StringView(name) || opt.startsWith(QLatin1StringView(name) + u'=');
}

bool isRemoteOption(const QString &opt)
{
    return isOption(opt, "--host") || isOption(opt, "--ssh-config") || isOption(opt, "--ssh-option")
           || isOption(opt, "--remote-command");
}

/// --host, --ssh-config, --ssh-option, --remote-command; -1 to go on, else
/// the exit code.
int takeRemoteOption(QStringList &args, QTextStream &err, const QString &opt, GlobalOptions &g)
{
    const QString name = opt.section(u'=', 0, 0);
    QString value;
    if (!valueOf(args, err, opt, name, &value))
        return ExitUsage;
    if (name == u"--host") {
        g.remote.host = value;
        g.remote.historySource = QStringLiteral("cli");
        g.viaHost = true;
    } else if (name == u"--ssh-config") {
        g.remote.sshConfig = value;
    } else if (name == u"--ssh-option") {
        g.remote.sshOptions << value;
    } else {
        g.remote.remoteCommand = value;
    }
    return -1;
}

/// --sysroot DIR or FILE.tar.gz (unpacked for this run only; removed at
/// exit); -1 to go on, else the exit code.
int takeSysroot(QStringList &args, QTextStream &err, const QString &opt, GlobalOptions &g)
{
    if (opt == u"--sysroot") {
        if (args.isEmpty()) {
            err << "blocktune-cli: --sysroot needs a directory" << Qt::endl;
            return ExitUsage;
        }
        g.sysroot = args.takeFirst();
    } else {
        g.sysroot = opt.mid(10);
    }
    if (isSnapshotTarball(g.sysroot)) {
        g.snapshotDir.emplace();
        if (!g.snapshotDir->isValid()) {
            err << "blocktune-cli: --sysroot " << g.sysroot << ": cannot make a temporary directory" << Qt::endl;
            return ExitFailed;
        }
        if (Status unpacked = unpackSnapshot(g.sysroot, g.snapshotDir->path()); !unpacked) {
            err << "blocktune-cli: --sysroot " << unpacked.error().message << Qt::endl;
            return ExitUsage;
        }
        g.sysroot = g.snapshotDir->path();
    }
    if (auto tree = SysRoot::openTree(g.sysroot); !tree) {
        err << "blocktune-cli: --sysroot " << tree.error().message << Qt::endl;
        return ExitUsage;
    }
    return -1;
}

/// Takes the options before COMMAND off `args`; -1 to go on, else the exit
/// code (help or version printed, or a usage error).
int takeGlobalOptions(QStringList &args, QTextStream &out, QTextStream &err, GlobalOptions &g)
{
    while (!args.isEmpty() && args.constFirst().startsWith(u'-')) {
        const QString opt = args.takeFirst();
        if (isRemoteOption(opt)) {
            if (const int r = takeRemoteOption(args, err, opt, g); r >= 0)
                return r;
            continue;
        }
        if (opt == u"-h" || opt == u"--help") {
            printUsage(out);
            return ExitOk;
        }
        if (opt == u"--version") {
            out << "blocktune-cli " << QCoreApplication::applicationVersion() << Qt::endl;
            return ExitOk;
        }
        if (opt == u"--sysroot" || opt.startsWith(u"--sysroot=")) {
            if (const int r = takeSysroot(args, err, opt, g); r >= 0)
                return r;
            continue;
        }
        // An option of a command given before it lands here too.
        const QString name = opt.section(u'=', 0, 0).mid(opt.startsWith(u"--") ? 2 : 1);
        const QString guess = closestOption(name, {QStringLiteral("help"), QStringLiteral("version"),
                                                   QStringLiteral("sysroot"), QStringLiteral("host"),
                                                   QStringLiteral("ssh-config"), QStringLiteral("ssh-option"),
                                                   QStringLiteral("remote-command")});
        err << "blocktune-cli: unknown option '" << opt << "' before the command"
            << (guess.isEmpty() ? QString() : QStringLiteral("; did you mean --%1?").arg(guess))
            << " (see blocktune-cli --help)" << Qt::endl;
        return ExitUsage;
    }
    return -1;
}

/// The commands that bring into the host's mirror only the devices they
/// name (sessionFor(ctx, local, devices), needDevices()), or need none of
/// them (history reads the host's history), or ask for all of them when
/// they do (profile: list and show need none): a whole host's mirror is a
/// snapshot of every device, a second or more, which `get` does not need.
bool namesItsDevices(const QString &command)
{
    static const QStringList naming{QStringLiteral("get"), QStringLiteral("set"), QStringLiteral("test"),
                                    QStringLiteral("sweep"), QStringLiteral("history"), QStringLiteral("profile")};
    return naming.contains(command);
}

/// Connects to HOST and records the devices `command` needs (blocking: the
/// CLI has nothing else to do meanwhile); -1 to go on, else the exit code.
/// ssh's words, when it fails, are in the message.
int openHostMachine(CliContext &ctx, const RemoteTarget &target, const QString &command)
{
    if (auto line = sshCommandLine(target); !line)
        return fail(ctx, line.error().message, ExitUsage);
    auto machine = openMachine(target, MirrorAtConnect::Nothing);
    if (!machine)
        return fail(ctx, machine.error().message);
    ctx.machine = *machine;
    ctx.root = ctx.machine->root();
    if (!namesItsDevices(command)) {
        if (Status recorded = ctx.machine->recordDevices({}); !recorded)
            return fail(ctx, recorded.error().message);
    }
    return -1;
}

/// Runs the command here (on this machine, a recorded tree or HOST's
/// Machine; record: recorded there, written here).
int dispatch(CliContext &ctx, const GlobalOptions &g, const QString &name, const QStringList &args)
{
    const RemoteTarget &remote = g.remote;
    if (!g.viaHost && (!remote.sshConfig.isEmpty() || !remote.sshOptions.isEmpty() || !remote.remoteCommand.isEmpty()))
        return fail(ctx, QStringLiteral("--ssh-config, --ssh-option and --remote-command go with --host HOST"), ExitUsage);
    if (g.viaHost) {
        if (!g.sysroot.isEmpty())
            return fail(ctx, QStringLiteral("--sysroot and --host exclude each other (for a tree on HOST: "
                                            "--remote-command 'blocktune-cli --sysroot DIR agent')"),
                        ExitUsage);
        // Every command runs here on HOST's Machine (its agent's typed ops)
        // but these two: record is recorded there and written here, and the
        // agent is the host's own end.
        if (name == u"record")
            return recordRemote(ctx, remote, args);
        if (name == u"agent")
            return fail(ctx, QStringLiteral("agent is the host's end of --host, started there by ssh (ssh HOST "
                                            "blocktune-cli agent); it does not run through --host"),
                        ExitUsage);
    }
    for (const Command &c : kCommands) {
        if (name == QLatin1StringView(c.name)) {
            if (!ctx.machine) {
                if (const int r = openHostMachine(ctx, remote, name); r >= 0)
                    return r;
            }
            const int status = c.run(ctx, args);
            if (qEnvironmentVariableIntValue("BLOCKTUNE_DEBUG_SCANS") == 1)
                ctx.err << "blocktune-cli: device scans: " << DeviceModel::scansInProcess() << Qt::endl;
            return status;
        }
    }
    QStringList names;
    for (const Command &c : kCommands)
        names << QString::fromLatin1(c.name);
    const QString guess = closestOption(name, names);
    ctx.err << "blocktune-cli: unknown command '" << name << "'"
            << (guess.isEmpty() ? QString() : QStringLiteral("; did you mean %1?").arg(guess))
            << " (commands: " << names.join(u", ") << ")" << Qt::endl;
    return ExitUsage;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("blocktune-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BLOCKTUNE_VERSION));

    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList args = QCoreApplication::arguments().mid(1);
    GlobalOptions globals;
    if (const int r = takeGlobalOptions(args, out, err, globals); r >= 0)
        return r;
    if (args.isEmpty()) {
        printUsage(err);
        return ExitUsage;
    }
    const QString name = args.takeFirst();
    // A host's Machine is opened once the command is known (dispatch()).
    const SysRoot root(globals.sysroot);
    CliContext ctx{root, out, err, globals.viaHost ? nullptr : openMachine(root)};
    return dispatch(ctx, globals, name, args);
}
