#include "clicontext.h"

namespace blocktune::cli {

int runMonitor(CliContext &ctx, const QStringList &)
{
    return fail(ctx, QStringLiteral("this command is not built yet"));
}

} // namespace blocktune::cli
