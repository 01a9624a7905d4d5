#include "clicontext.h"

namespace blocktune::cli {

int runTest(CliContext &ctx, const QStringList &)
{
    return fail(ctx, QStringLiteral("this command is not built yet"));
}

int runSweep(CliContext &ctx, const QStringList &)
{
    return fail(ctx, QStringLiteral("this command is not built yet"));
}

} // namespace blocktune::cli
