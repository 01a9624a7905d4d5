#include "clicontext.h"

namespace blocktune::cli {

int runGet(CliContext &ctx, const QStringList &)
{
    return fail(ctx, QStringLiteral("this command is not built yet"));
}

int runSet(CliContext &ctx, const QStringList &)
{
    return fail(ctx, QStringLiteral("this command is not built yet"));
}

int runRestore(CliContext &ctx, const QStringList &)
{
    return fail(ctx, QStringLiteral("this command is not built yet"));
}

} // namespace blocktune::cli
