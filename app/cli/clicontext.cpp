#include "clicontext.h"

namespace blocktune::cli {

int fail(CliContext &ctx, const QString &message, int code)
{
    ctx.err << "blocktune-cli: " << message << Qt::endl;
    return code;
}

} // namespace blocktune::cli
