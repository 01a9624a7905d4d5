#include "clicontext.h"

#include <QCommandLineParser>
#include <QJsonDocument>

namespace blocktune::cli {

TuningSession &sessionFor(CliContext &ctx, std::optional<TuningSession> &local)
{
    if (ctx.session)
        return *ctx.session;
    local.emplace(ctx.root);
    return *local;
}

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

int parseCommandArgs(CliContext &ctx, QCommandLineParser &parser, const QString &name, const QStringList &args)
{
    parser.addHelpOption();
    if (!parser.parse(QStringList{u"blocktune-cli " + name} + args))
        return fail(ctx, parser.errorText() + QStringLiteral(" (see blocktune-cli %1 --help)").arg(name), ExitUsage);
    if (parser.isSet(QStringLiteral("help"))) {
        printCommandHelp(ctx, parser, name);
        return ExitOk;
    }
    return -1;
}

void printJsonObject(CliContext &ctx, const QJsonObject &o)
{
    ctx.out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    ctx.out.flush();
}

} // namespace blocktune::cli
