// `metrics`: this machine's settings, stacking, drift and the history's last
// figures in the Prometheus text format (core/metrics), on stdout or as the
// textfile node_exporter's collector reads.
#include "clicontext.h"

#include "history/history.h"
#include "metrics/metrics.h"
#include "profiles/profiles.h"

#include <QCommandLineParser>

namespace blocktune::cli {

int runMetrics(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Prints the Prometheus text exposition format: each device's settings (bytes), how devices "
                       "stack, drift against the applied profile (or --profile), the newest read test, sweep and "
                       "advice per device from the history (the live machine's only), and blocktune_metrics_errors (the "
                       "reasons on stderr; the exit status stays 0). With --textfile-dir DIR it writes "
                       "DIR/%1 atomically instead, for node_exporter's textfile collector (Debian: %2; the "
                       "package's blocktune-metrics.timer runs this every 60 s once enabled). docs/fleets.md.")
            .arg(kTextfileName, kDebianTextfileDir));
    const QCommandLineOption textfileDir{QStringLiteral("textfile-dir"),
                                         QStringLiteral("write DIR/%1 (temporary file, fsync, rename)").arg(kTextfileName),
                                         QStringLiteral("DIR")};
    const QCommandLineOption profile{QStringLiteral("profile"),
                                     QStringLiteral("drift against this profile (name or file), not the applied one"),
                                     QStringLiteral("NAME")};
    p.addOptions({textfileDir, profile});
    if (const int r = parseCommandArgs(ctx, p, QStringLiteral("metrics"), args); r >= 0)
        return r;
    if (!p.positionalArguments().isEmpty())
        return fail(ctx, QStringLiteral("metrics takes no arguments (got '%1')").arg(p.positionalArguments().join(u' ')),
                    ExitUsage);
    // The machine's profiles: this machine's folders, or a host's (its agent's).
    const std::shared_ptr<ProfileLibrary> profiles = ctx.machine->profiles();
    MetricsOptions options;
    if (p.isSet(profile)) {
        // A profile asked for by name must exist: refused before anything is read.
        if (auto loaded = profiles->load(p.value(profile)); !loaded)
            return fail(ctx, loaded.error().message, ExitUsage);
        options.profile = p.value(profile);
    }
    if (p.isSet(textfileDir) && p.value(textfileDir).isEmpty())
        return fail(ctx, QStringLiteral("--textfile-dir needs a directory (Debian's: %1)").arg(kDebianTextfileDir),
                    ExitUsage);
    // A recorded tree is another machine: this machine's history is not
    // its. A host's is read from its copy here, brought up to date.
    if (ctx.machine->capabilities().measure)
        options.historyPath = historyHere(ctx);

    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    const MetricsReport report = collectMetrics(session, *profiles, options);
    for (const QString &e : report.errors)
        ctx.err << "blocktune-cli: metrics: " << e << '\n';
    ctx.err.flush();
    if (!p.isSet(textfileDir)) {
        writeRawOut(ctx, report.text);
        return ExitOk;
    }
    if (Status written = writeTextfile(p.value(textfileDir), report.text); !written)
        return fail(ctx, written.error().message, written.error().code == InvalidArgument ? ExitUsage : ExitFailed);
    return ExitOk;
}

} // namespace blocktune::cli
