// `blocktune-cli --host HOST record FILE.tar.gz`: HOST is recorded there
// (op "snapshot") and the tarball written here. Every other command runs
// here on HOST's Machine (main.cpp, core/machine).
#include "clicontext.h"

#include "common/termination.h"
#include "remote/remote.h"

namespace blocktune::cli {

int recordRemote(CliContext &ctx, const RemoteTarget &target, const QStringList &args)
{
    if (auto line = sshCommandLine(target); !line)
        return fail(ctx, line.error().message, ExitUsage);
    // The file is checked here, before ssh starts.
    QString tarball;
    if (const int r = recordArgument(ctx, args, &tarball); r >= 0)
        return r;
    // A signal before the snapshot starts is said as such (install() makes
    // it pending instead of killing us while ssh lives on).
    TerminationSignals::install();
    RemoteSession session(target);
    // ssh's own words (host key mismatch, authentication) reach the user as
    // ssh printed them; nothing is retried.
    session.setForwardSshErrors(true);
    if (Status opened = session.open(); !opened)
        return fail(ctx, opened.error().message, ExitFailed);
    if (const int sig = TerminationSignals::pending()) {
        session.close();
        return fail(ctx, QStringLiteral("interrupted by %1 before record ran on %2")
                             .arg(TerminationSignals::name(sig), target.host),
                    128 + sig);
    }
    auto report = session.fetchSnapshot(tarball);
    session.close();
    if (!report)
        return fail(ctx, report.error().message);
    printRecordSummary(ctx, tarball, *report);
    return ExitOk;
}

} // namespace blocktune::cli
