// `history`: the read tests and sweeps kept by the console and the CLI
// (core/history), newest first.
#include "clicontext.h"

#include "history/history.h"
#include "readtest/readtest.h"

#include <QCommandLineParser>
#include <QJsonDocument>

namespace blocktune::cli {

int runHistory(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Lists the read tests and sweeps kept in the history database (%1; BLOCKTUNE_HISTORY_DB overrides), "
        "newest first: time, device, test, MB/s (a sweep: its best point) and the settings in force.")
                                    .arg(HistoryStore::defaultPath()));
    const QCommandLineOption json{QStringLiteral("json"), QStringLiteral("print JSON (docs/json.md: history --json)")};
    const QCommandLineOption device{QStringLiteral("device"), QStringLiteral("only the records of this device"),
                                    QStringLiteral("NAME")};
    const QCommandLineOption limit{QStringLiteral("limit"), QStringLiteral("at most N records (newest)"),
                                   QStringLiteral("N")};
    p.addHelpOption();
    p.addOptions({json, device, limit});
    if (!p.parse(QStringList{QStringLiteral("blocktune-cli history")} + args))
        return failUsage(ctx, p, QStringLiteral("history"));
    if (p.isSet(QStringLiteral("help"))) {
        printCommandHelp(ctx, p, QStringLiteral("history"));
        return ExitOk;
    }
    if (!p.positionalArguments().isEmpty())
        return fail(ctx, QStringLiteral("history takes no arguments (got '%1'; a device goes with --device)")
                             .arg(p.positionalArguments().join(u' ')),
                    ExitUsage);
    int n = 0;
    if (p.isSet(limit)) {
        bool ok = false;
        n = p.value(limit).toInt(&ok);
        if (!ok || n < 1)
            return fail(ctx, QStringLiteral("--limit '%1' is not a whole number of at least 1").arg(p.value(limit)),
                        ExitUsage);
    }
    QString name = p.value(device);
    if (name.startsWith(QStringLiteral("/dev/")))
        name = name.mid(5);

    HistoryNotice notice;
    const auto records = HistoryStore(historyHere(ctx)).list(name, n, &notice);
    if (!notice.text.isEmpty())
        ctx.err << "blocktune-cli: " << notice.text << Qt::endl;
    if (!records)
        return fail(ctx, records.error().message);
    if (p.isSet(json)) {
        ctx.out << QJsonDocument(historyToJson(*records)).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (records->isEmpty()) {
        ctx.out << "no records" << (name.isEmpty() ? QString() : QStringLiteral(" for %1").arg(name)) << '\n';
        return ExitOk;
    }
    ctx.out << QStringLiteral("%1  %2  %3 %4 %5  %6  %7\n")
                   .arg(QStringLiteral("id").rightJustified(5), QStringLiteral("time (UTC)").leftJustified(19),
                        QStringLiteral("device").leftJustified(10), QStringLiteral("kind").leftJustified(16),
                        QStringLiteral("MB/s").rightJustified(9), QStringLiteral("source").leftJustified(7),
                        QStringLiteral("settings"));
    for (const HistoryRecord &r : *records) {
        QStringList settings;
        for (auto it = r.settings.constBegin(); it != r.settings.constEnd(); ++it)
            if (it.key().startsWith(r.device + u' '))
                settings << it.key().mid(r.device.size() + 1) + u'='
                        + (it->isDouble() ? QString::number(it->toDouble(), 'g', 12) : it->toString());
        ctx.out << QStringLiteral("%1  %2  %3 %4 %5  %6  %7%8\n")
                       .arg(QString::number(r.id).rightJustified(5),
                            r.recordedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                            r.device.leftJustified(10), QString(r.kind + u' ' + r.test).leftJustified(16),
                            formatMbPerSec(r.mbPerSec).chopped(5).rightJustified(9), r.source.leftJustified(7),
                            settings.join(u' '), r.ok ? QString() : QStringLiteral(" (incomplete)"));
    }
    return ExitOk;
}

} // namespace blocktune::cli
