#pragma once

#include "common/sysroot.h"

#include <QStringList>
#include <QTextStream>

namespace blocktune::cli {

/// What every subcommand gets: the root to read, and the two streams.
struct CliContext
{
    SysRoot root;
    QTextStream &out;
    QTextStream &err;
};

/// Exit codes: 0 success, 1 the operation failed, 2 bad usage or input.
enum ExitCode : int { ExitOk = 0, ExitFailed = 1, ExitUsage = 2 };

/// Writes "blocktune-cli: MESSAGE" to stderr and returns `code`.
int fail(CliContext &ctx, const QString &message, int code = ExitFailed);

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

} // namespace blocktune::cli
