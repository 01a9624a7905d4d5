#include "clicontext.h"

namespace blocktune::cli {

int fail(CliContext &ctx, const QString &message, int code)
{
    ctx.err << "blocktune-cli: " << message << Qt::endl;
    return code;
}

void printCommandHelp(CliContext &ctx, const QCommandLineParser &parser, const QString &command)
{
    QString help = parser.helpText();
    const qsizetype options = help.indexOf(QStringLiteral(" [options]"));
    if (help.startsWith(QStringLiteral("Usage: ")) && options > 0)
        help.replace(7, options - 7, QStringLiteral("blocktune-cli [--sysroot DIR] %1").arg(command));
    ctx.out << help;
    ctx.out.flush();
}

} // namespace blocktune::cli
