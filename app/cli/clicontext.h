#pragma once

#include "common/sysroot.h"
#include "common/termination.h"
#include "history/history.h"
#include "machine/machine.h"
#include "devices/snapshot.h"
#include "remote/remote.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QStringList>
#include <QTextStream>

#include <atomic>
#include <optional>

namespace blocktune::cli {

/// What every subcommand gets: the machine it works on (this one, a
/// recorded tree, or --host HOST's; main() opens it once), its root, and
/// the two streams. A command makes its session from the machine's root and
/// session options (sessionFor()), measures through machine->measurer() and
/// keeps what it measured where the machine says (keepInHistory()).
struct CliContext
{
    /// Always the machine's root(): on a host, the mirror of its devices.
    SysRoot root;
    QTextStream &out;
    QTextStream &err;
    std::shared_ptr<Machine> machine;
};

/// `local`, made on the spot on the machine's root with its session options (a host's: its agent).
/// `devices`: the ones the command names (as the user wrote them), which a
/// host's mirror records with their stack first (needDevices()); empty:
/// the mirror holds every device already (main() recorded it).
TuningSession &sessionFor(CliContext &ctx, std::optional<TuningSession> &local, const QStringList &devices = {});

/// Brings the devices a command names into the machine's root (a host's
/// mirror records them and their stack; nothing to do here). A failure is
/// said on stderr; the session then says what it cannot find.
void needDevices(CliContext &ctx, const QStringList &devices);

/// What stops a command's long work (a read test, a sweep, advise,
/// diagnose): SIGINT, SIGTERM or SIGHUP, through a SignalCancel while this
/// exists.
class CommandCancel final
{
public:
    CommandCancel() = default;
    Q_DISABLE_COPY_MOVE(CommandCancel)

    /// The flag long work checks after every block.
    const std::atomic_bool *flag() const;
    bool stopped() const { return flag()->load(); }
    /// The signal that stopped it, or 0.
    int signal() const;

private:
    SignalCancel m_signals;
};

/// Raw bytes on stdout, flushed after what `out` holds.
void writeRawOut(CliContext &ctx, QByteArrayView bytes);

/// Exit codes: 0 success, 1 the operation failed, 2 bad usage or input,
/// 3 advise finished without a steady answer (nothing recommended).
enum ExitCode : int { ExitOk = 0, ExitFailed = 1, ExitUsage = 2, ExitNoAnswer = 3 };

/// Writes "blocktune-cli: MESSAGE" to stderr and returns `code`.
int fail(CliContext &ctx, const QString &message, int code = ExitFailed);

/// Prints a command's --help with "blocktune-cli [--sysroot DIR] COMMAND" in
/// the usage line (Qt names the program by its path there).
void printCommandHelp(CliContext &ctx, const QCommandLineParser &parser, const QString &command);
/// A parse error of `command`'s options: an unknown option named, with the
/// closest option its --help shows ("test seq has no option --repeats; did
/// you mean --repeat?"); returns ExitUsage.
int failUsage(CliContext &ctx, const QCommandLineParser &parser, const QString &command);
/// The name in `known` closest to `unknown` (a prefix, or a few letters
/// off), or empty when none is close.
QString closestOption(const QString &unknown, const QStringList &known);
/// Parses a subcommand's options (adds --help); returns -1 to go on, else
/// the exit code (help printed, or a usage error reported). `name` is how
/// the command is called: "profile apply".
int parseCommandArgs(CliContext &ctx, QCommandLineParser &parser, const QString &name, const QStringList &args);
/// The devices of `model` by name for an error message (the first 12, then
/// how many in all).
QString knownDevices(const DeviceModel &model);
/// Prints `o` as indented JSON on stdout.
void printJsonObject(CliContext &ctx, const QJsonObject &o);

/// Keeps a finished test, sweep or advice in the history (core/history). A
/// failure to keep it is said on stderr and changes nothing else: the
/// result is printed already and the exit status stays the command's. A
/// recorded tree (--sysroot) reads no device, so nothing is kept; a host's
/// agent kept a test or sweep in the host's history already, and keeps an
/// advice when sent it (Machine::keepAdvice).
void keepInHistory(CliContext &ctx, const HistoryRecord &record);

/// The history database the machine's records are read from: this
/// machine's store, or the copy of a host's, brought up to date first
/// (blocking; a failure to is said on stderr, and the last copy is read).
QString historyHere(CliContext &ctx);

/// A subcommand: its name, a one-line summary, and its entry point (args
/// exclude the global options and the subcommand's own name).
struct Command
{
    const char *name;
    const char *summary;
    int (*run)(CliContext &ctx, const QStringList &args);
};

int runList(CliContext &ctx, const QStringList &args);    // cmd_list.cpp
int runGet(CliContext &ctx, const QStringList &args);     // cmd_tuning.cpp
int runSet(CliContext &ctx, const QStringList &args);     // cmd_tuning.cpp
int runRestore(CliContext &ctx, const QStringList &args); // cmd_tuning.cpp
int runTest(CliContext &ctx, const QStringList &args);    // cmd_test.cpp
int runSweep(CliContext &ctx, const QStringList &args);   // cmd_test.cpp
int runMonitor(CliContext &ctx, const QStringList &args); // cmd_monitor.cpp
int runHistory(CliContext &ctx, const QStringList &args); // cmd_history.cpp
int runAdvise(CliContext &ctx, const QStringList &args);  // cmd_advise.cpp
int runDiagnose(CliContext &ctx, const QStringList &args); // cmd_advise.cpp
int runProfile(CliContext &ctx, const QStringList &args); // cmd_profile.cpp
int runAgent(CliContext &ctx, const QStringList &args);   // cmd_agent.cpp
int runRecord(CliContext &ctx, const QStringList &args);  // cmd_record.cpp
int runMetrics(CliContext &ctx, const QStringList &args); // cmd_metrics.cpp
int runReadahead(CliContext &ctx, const QStringList &args); // cmd_readahead.cpp
/// record's parts, shared with --host (cmd_record.cpp): its arguments
/// parsed into the tarball's name (-1 to go on, else the exit code: help
/// printed or a usage error reported), and the summary line it prints.
int recordArgument(CliContext &ctx, const QStringList &args, QString *tarball);
void printRecordSummary(CliContext &ctx, const QString &tarball, const SnapshotReport &report);

/// `blocktune-cli --host HOST record ARGS` (cmd_remote.cpp): HOST recorded
/// there (op snapshot), the tarball written here.
int recordRemote(CliContext &ctx, const RemoteTarget &target, const QStringList &args);

} // namespace blocktune::cli
