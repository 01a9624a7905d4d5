// blocktune-cli readahead: what the kernel's readahead does for the
// workload that runs now, per block device (core/readahead).
#include "clicontext.h"

#include "advisor/advisor.h"
#include "common/units.h"
#include "devices/devicemodel.h"
#include "metrics/metrics.h"
#include "readahead/readahead.h"

#include <QJsonDocument>

#include <chrono>
#include <thread>

namespace blocktune::cli {

namespace {

/// What the command line asked for, checked.
struct ReadaheadOptions
{
    qint64 durationMs = 0;
    qint64 intervalMs = 0;
    bool watch = false;
    bool json = false;
    bool collect = false;
    QString textfileDir; ///< with collect
    QStringList devices; ///< kernel names, as the model has them
};

constexpr qint64 kMinIntervalMs = 100;
constexpr qint64 kMaxMs = 24LL * 3600 * 1000;
constexpr qint64 kCollectIntervalMs = 15000;

void describeReadahead(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Watches what the kernel's readahead does for the workload that runs now, per block "
        "device, from its readahead tracepoints (a BPF program, loaded by this command as root, "
        "else by blocktune-helper through pkexec, and with --host by HOST's agent): windows by kind (sync: a "
        "miss started one; async: the reader hit the marker of a recognised stream; mmap: a page "
        "fault; forced: fadvise WILLNEED or readahead(2)), their size (p50/p90 in KiB) and how "
        "many reached the cap (read_ahead_kb). Reads are counted for the device whose "
        "read_ahead_kb governs them: a block device read itself, or the filesystem's device of "
        "a file. Reads nothing itself. Prints the table at the end of --duration (or at Ctrl-C), "
        "with --watch also every --interval, then the findings (readahead_capped, readahead_wasted, "
        "streams_interleaved, random_reads: each stated only with enough events to tell, with its "
        "evidence and the read_ahead_kb to set; docs/cli.md has the thresholds); --json prints the "
        "same as JSON (schema in docs/json.md), one line per interval with --watch. With --collect it keeps "
        "the probe loaded until SIGTERM or Ctrl-C and writes the counters of every device for Prometheus to "
        "DIR/%1 every --interval (default 15s; node_exporter's textfile collector, Debian: %2; the package's "
        "blocktune-readahead.service, not enabled), removing that file when it stops (docs/fleets.md).")
        .arg(kReadaheadTextfileName, kDebianTextfileDir));
    parser.addPositionalArgument(QStringLiteral("DEVICE"),
                                 QStringLiteral("kernel name (sda, loop0) or /dev path; none = every device "
                                                "that read ahead"),
                                 QStringLiteral("[DEVICE...]"));
    parser.addOption({QStringLiteral("duration"), QStringLiteral("watch this long, 100ms to 24h (default 30s)"),
                      QStringLiteral("TIME"), QStringLiteral("30s")});
    parser.addOption({QStringLiteral("interval"),
                      QStringLiteral("with --watch, print every TIME, 100ms to the duration (default 1s); with --collect, "
                                     "write every TIME, 100ms to 24h (default 15s)"),
                      QStringLiteral("TIME"), QStringLiteral("1s")});
    parser.addOption({QStringLiteral("watch"), QStringLiteral("also print the table of every --interval")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("print JSON (schema 1) instead of the table")});
    parser.addOption({QStringLiteral("collect"),
                      QStringLiteral("run until stopped, writing the counters for Prometheus (needs --textfile-dir)")});
    parser.addOption({QStringLiteral("textfile-dir"),
                      QStringLiteral("with --collect, write DIR/%1 (temporary file, fsync, rename)").arg(kReadaheadTextfileName),
                      QStringLiteral("DIR")});
}

/// A TIME option as milliseconds within [min, max]; -1 to go on, else the exit code.
int readTime(CliContext &ctx, const QCommandLineParser &parser, const QString &name, qint64 min, qint64 max,
             qint64 *out)
{
    const QString text = parser.value(name);
    auto ms = parseDurationMs(text, u"--" + name);
    if (!ms)
        return fail(ctx, ms.error().message, ExitUsage);
    if (*ms < min || *ms > max)
        return fail(ctx, QStringLiteral("--%1 %2: must be between %3 and %4")
                             .arg(name, text, min == kMinIntervalMs ? QStringLiteral("100ms") : QStringLiteral("--interval"),
                                  max == kMaxMs ? QStringLiteral("24h") : QStringLiteral("--duration")),
                    ExitUsage);
    *out = *ms;
    return -1;
}

int parseReadaheadArgs(CliContext &ctx, const QStringList &args, ReadaheadOptions *o)
{
    QCommandLineParser parser;
    describeReadahead(parser);
    if (const int r = parseCommandArgs(ctx, parser, QStringLiteral("readahead"), args); r >= 0)
        return r;
    if (const int r = readTime(ctx, parser, QStringLiteral("duration"), kMinIntervalMs, kMaxMs, &o->durationMs); r >= 0)
        return r;
    o->watch = parser.isSet(QStringLiteral("watch"));
    o->json = parser.isSet(QStringLiteral("json"));
    o->collect = parser.isSet(QStringLiteral("collect"));
    o->devices = parser.positionalArguments();
    if (o->collect) {
        for (const char *other : {"duration", "watch", "json"})
            if (parser.isSet(QString::fromLatin1(other)))
                return fail(ctx, QStringLiteral("--collect runs until it is stopped and writes the textfile: "
                                                "--%1 does not go with it").arg(QString::fromLatin1(other)),
                            ExitUsage);
        if (!o->devices.isEmpty())
            return fail(ctx, QStringLiteral("--collect writes every device that reads ahead (got '%1')")
                                 .arg(o->devices.join(u' ')),
                        ExitUsage);
        o->textfileDir = parser.value(QStringLiteral("textfile-dir"));
        if (o->textfileDir.isEmpty())
            return fail(ctx, QStringLiteral("--collect needs --textfile-dir DIR (Debian's: %1)").arg(kDebianTextfileDir),
                        ExitUsage);
        o->intervalMs = kCollectIntervalMs;
        if (parser.isSet(QStringLiteral("interval"))) {
            if (const int r = readTime(ctx, parser, QStringLiteral("interval"), kMinIntervalMs, kMaxMs, &o->intervalMs);
                r >= 0)
                return r;
        }
        return -1;
    }
    if (parser.isSet(QStringLiteral("textfile-dir")))
        return fail(ctx, QStringLiteral("--textfile-dir goes with --collect"), ExitUsage);
    if (parser.isSet(QStringLiteral("interval")) && !o->watch)
        return fail(ctx, QStringLiteral("--interval goes with --watch (without it the table is printed once, "
                                        "at the end)"),
                    ExitUsage);
    // Only --watch reads the interval (its default of 1 s may exceed a short --duration).
    if (o->watch) {
        if (const int r = readTime(ctx, parser, QStringLiteral("interval"), kMinIntervalMs, o->durationMs,
                                   &o->intervalMs);
            r >= 0)
            return r;
    }
    return -1;
}

/// The DEVICEs as the model's kernel names; -1 to go on, else the exit code.
int resolveDevices(CliContext &ctx, const DeviceModel &model, QStringList *devices)
{
    QStringList names;
    for (const QString &arg : std::as_const(*devices)) {
        const BlockDevice *d = model.findByUserName(arg);
        if (!d || !d->hasDeviceNumber())
            return fail(ctx, QStringLiteral("no block device named '%1' (devices: %2)").arg(arg, knownDevices(model)),
                        ExitUsage);
        if (!names.contains(d->name))
            names << d->name;
    }
    *devices = names;
    return -1;
}

/// The table and its findings (core/advisor), or the JSON with "findings".
void printReport(CliContext &ctx, const ReadaheadReport &report, bool json, bool oneLine)
{
    const QList<Finding> findings = readaheadFindings(report);
    if (!json) {
        ctx.out << formatReadaheadReport(report) << formatReadaheadFindings(findings);
        ctx.out.flush();
        return;
    }
    QJsonObject o = readaheadReportToJson(report);
    o.insert(QStringLiteral("findings"), readaheadFindingsToJson(findings));
    if (oneLine) {
        ctx.out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
        ctx.out.flush();
    } else {
        printJsonObject(ctx, o);
    }
}

/// Sleeps until `until` (steady clock) in short steps; false when stopped.
bool waitUntil(std::chrono::steady_clock::time_point until, const CommandCancel &cancel)
{
    using namespace std::chrono_literals;
    while (!cancel.stopped()) {
        const auto now = std::chrono::steady_clock::now();
        if (now >= until)
            return true;
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(until - now, 50ms));
    }
    return false;
}

/// --collect: the probe stays loaded; every interval its counters go to the
/// textfile, until SIGTERM, SIGINT or SIGHUP. The probe is unloaded and the
/// file removed when it stops: counters of a probe no longer loaded would
/// read as a device that stopped reading.
int runCollect(CliContext &ctx, const ReadaheadOptions &o, ReadaheadSource &probe)
{
    ScanOptions scanOptions;
    scanOptions.probeFilesystems = false;
    QHash<quint64, QString> labels;
    const CommandCancel cancel;
    const auto begin = std::chrono::steady_clock::now();
    for (qint64 tick = 0;; ++tick) {
        if (tick > 0 && !waitUntil(begin + std::chrono::milliseconds(o.intervalMs * tick), cancel))
            break;
        auto now = probe.snapshot();
        if (!now)
            return fail(ctx, now.error().message);
        // Scanned every time: devices come and go while it runs.
        if (auto model = DeviceModel::scan(ctx.root, scanOptions))
            labels = readaheadDeviceLabels(*model);
        if (Status written = writeTextfile(o.textfileDir, readaheadMetricsText(*now, labels), kReadaheadTextfileName);
            !written)
            return fail(ctx, written.error().message, written.error().code == InvalidArgument ? ExitUsage : ExitFailed);
    }
    if (Status removed = removeTextfile(o.textfileDir, kReadaheadTextfileName); !removed)
        return fail(ctx, removed.error().message);
    return ExitOk;
}

} // namespace

int runReadahead(CliContext &ctx, const QStringList &args)
{
    ReadaheadOptions o;
    if (const int r = parseReadaheadArgs(ctx, args, &o); r >= 0)
        return r;
    // It loads a program into the kernel it watches: this machine's as it
    // runs (here or through blocktune-helper), or a host's through its agent.
    if (const MachineCapabilities can = ctx.machine->capabilities(); !can.readaheadProbe)
        return fail(ctx, QStringLiteral("readahead: %1").arg(can.noReadaheadProbe), ExitUsage);
    if (o.collect) {
        auto probe = ctx.machine->openReadaheadSource();
        if (!probe)
            return fail(ctx, probe.error().message);
        return runCollect(ctx, o, **probe);
    }
    ScanOptions scanOptions;
    scanOptions.probeFilesystems = false;
    auto model = DeviceModel::scan(ctx.root, scanOptions);
    if (!model)
        return fail(ctx, model.error().message);
    if (const int r = resolveDevices(ctx, *model, &o.devices); r >= 0)
        return r;
    auto probe = ctx.machine->openReadaheadSource();
    if (!probe)
        return fail(ctx, probe.error().message);
    const CommandCancel cancel;
    auto start = (*probe)->snapshot();
    if (!start)
        return fail(ctx, start.error().message);
    const auto begin = std::chrono::steady_clock::now();
    const auto end = begin + std::chrono::milliseconds(o.durationMs);
    ReadaheadSnapshot last = *start;
    for (qint64 tick = 1; o.watch; ++tick) {
        const auto next = begin + std::chrono::milliseconds(o.intervalMs * tick);
        if (next >= end || !waitUntil(next, cancel))
            break;
        auto now = (*probe)->snapshot();
        if (!now)
            return fail(ctx, now.error().message);
        ReadaheadReport r = buildReadaheadReport(last, *now, *model, ctx.root, o.devices);
        r.coverage = (*probe)->coverage();
        printReport(ctx, r, o.json, true);
        last = *now;
    }
    waitUntil(end, cancel);
    auto finish = (*probe)->snapshot();
    if (!finish)
        return fail(ctx, finish.error().message);
    // The report covers the whole run (with --watch too): from the first snapshot.
    ReadaheadReport report = buildReadaheadReport(*start, *finish, *model, ctx.root, o.devices);
    report.coverage = (*probe)->coverage();
    printReport(ctx, report, o.json, o.watch);
    return ExitOk;
}

} // namespace blocktune::cli
