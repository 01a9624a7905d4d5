#include "clicontext.h"

#include "devices/devicemodel.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

#include <csignal>
#include <cstdio>

namespace blocktune::cli {

TuningSession &sessionFor(CliContext &ctx, std::optional<TuningSession> &local, const QStringList &devices)
{
    if (!devices.isEmpty())
        needDevices(ctx, devices);
    local.emplace(ctx.root, ctx.machine->sessionOptions());
    return *local;
}

void needDevices(CliContext &ctx, const QStringList &devices)
{
    if (devices.isEmpty())
        return;
    if (Status recorded = ctx.machine->recordDevices(devices); !recorded)
        ctx.err << "blocktune-cli: cannot record " << devices.join(u", ") << " of " << ctx.machine->displayName()
                << ": " << recorded.error().message << Qt::endl;
}

const std::atomic_bool *CommandCancel::flag() const
{
    return &m_signals.cancel;
}

int CommandCancel::signal() const
{
    return m_signals.signal();
}

void writeRawOut(CliContext &ctx, QByteArrayView bytes)
{
    ctx.out.flush();
    std::fwrite(bytes.data(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
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

namespace {

qsizetype editDistance(QStringView a, QStringView b)
{
    QList<qsizetype> row(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (qsizetype i = 1; i <= a.size(); ++i) {
        qsizetype diagonal = row[0];
        row[0] = i;
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const qsizetype above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

QString closestOption(const QString &unknown, const QStringList &known)
{
    QString best;
    qsizetype bestDistance = 0;
    for (const QString &name : known) {
        // A prefix ("--rep") is as close as a typo.
        const qsizetype d = name.startsWith(unknown) ? 1 : editDistance(unknown, name);
        if (best.isEmpty() || d < bestDistance) {
            best = name;
            bestDistance = d;
        }
    }
    // Far from everything: no guess.
    return !best.isEmpty() && bestDistance <= std::max<qsizetype>(2, unknown.size() / 3) ? best : QString();
}

int failUsage(CliContext &ctx, const QCommandLineParser &parser, const QString &command)
{
    const QString see = QStringLiteral(" (see blocktune-cli %1 --help)").arg(command);
    const QStringList unknown = parser.unknownOptionNames();
    if (unknown.isEmpty())
        return fail(ctx, parser.errorText() + see, ExitUsage);
    // The options --help shows (hidden ones are not suggested).
    QStringList known;
    static const QRegularExpression optionName(QStringLiteral("--([a-z0-9][a-z0-9-]*)"));
    for (const QRegularExpressionMatch &m : optionName.globalMatch(parser.helpText()))
        if (!known.contains(m.captured(1)))
            known << m.captured(1);
    const QString name = unknown.constFirst();
    const QString dashes = name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--");
    QString message = QStringLiteral("%1 has no option %2%3").arg(command, dashes, name);
    static const QStringList global{QStringLiteral("sysroot"), QStringLiteral("host"), QStringLiteral("ssh-config"),
                                    QStringLiteral("ssh-option"), QStringLiteral("remote-command")};
    if (global.contains(name))
        message += QStringLiteral(": --%1 goes before the command (blocktune-cli --%1 ... %2)").arg(name, command);
    else if (const QString guess = closestOption(name, known); !guess.isEmpty())
        message += QStringLiteral("; did you mean --%1?").arg(guess);
    return fail(ctx, message + see, ExitUsage);
}

int parseCommandArgs(CliContext &ctx, QCommandLineParser &parser, const QString &name, const QStringList &args)
{
    parser.addHelpOption();
    if (!parser.parse(QStringList{u"blocktune-cli " + name} + args))
        return failUsage(ctx, parser, name);
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

void keepInHistory(CliContext &ctx, const HistoryRecord &record)
{
    const MachineCapabilities can = ctx.machine->capabilities();
    if (!can.measure)
        return;
    if (can.keepsItsOwnHistory) {
        // A host's agent kept its read tests and sweeps as they ran; an
        // advice is made here from them, and sent there to be kept.
        if (record.kind != u"advice")
            return;
        if (Status kept = ctx.machine->keepAdvice(record); !kept)
            ctx.err << "blocktune-cli: the advice is not kept in " << ctx.machine->displayName()
                    << "'s history: " << kept.error().message << Qt::endl;
        return;
    }
    HistoryNotice notice;
    const auto id = HistoryStore(ctx.machine->historyPath()).add(record, &notice);
    if (!notice.text.isEmpty())
        ctx.err << "blocktune-cli: " << notice.text << Qt::endl;
    if (!id)
        ctx.err << "blocktune-cli: " << id.error().message << Qt::endl;
}

QString historyHere(CliContext &ctx)
{
    // The CLI runs no event loop of its own: this one is the only one, and
    // it waits for the copy alone.
    QEventLoop loop;
    QString error;
    if (ctx.machine->refreshHistory(&loop, [&](const QString &e) {
            error = e;
            loop.quit();
        }))
        loop.exec();
    if (!error.isEmpty())
        ctx.err << "blocktune-cli: " << error << Qt::endl;
    return ctx.machine->historyPath();
}

QString knownDevices(const DeviceModel &model)
{
    QStringList names;
    for (const BlockDevice &d : model.devices())
        names << d.name;
    if (names.size() > 12)
        return names.mid(0, 12).join(u", ") + QStringLiteral(", ... (%1 in all; see blocktune-cli list)")
                                                  .arg(names.size());
    return names.join(u", ");
}

} // namespace blocktune::cli
