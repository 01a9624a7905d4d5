// blocktune-cli readahead: what the kernel's readahead does for the
// workload that runs now, per block device (core/readahead).
#include "clicontext.h"

#include "common/units.h"
#include "devices/devicemodel.h"
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
    QStringList devices; ///< kernel names, as the model has them
};

constexpr qint64 kMinIntervalMs = 100;
constexpr qint64 kMaxMs = 24LL * 3600 * 1000;

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
        "with --watch also every --interval; --json prints the same as JSON (schema in "
        "docs/json.md), one line per interval with --watch."));
    parser.addPositionalArgument(QStringLiteral("DEVICE"),
                                 QStringLiteral("kernel name (sda, loop0) or /dev path; none = every device "
                                                "that read ahead"),
                                 QStringLiteral("[DEVICE...]"));
    parser.addOption({QStringLiteral("duration"), QStringLiteral("watch this long, 100ms to 24h (default 30s)"),
                      QStringLiteral("TIME"), QStringLiteral("30s")});
    parser.addOption({QStringLiteral("interval"),
                      QStringLiteral("with --watch, print every TIME, 100ms to the duration (default 1s)"),
                      QStringLiteral("TIME"), QStringLiteral("1s")});
    parser.addOption({QStringLiteral("watch"), QStringLiteral("also print the table of every --interval")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("print JSON (schema 1) instead of the table")});
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
    o->devices = parser.positionalArguments();
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

void printReport(CliContext &ctx, const ReadaheadReport &report, bool json, bool oneLine)
{
    if (!json) {
        ctx.out << formatReadaheadReport(report);
        ctx.out.flush();
    } else if (oneLine) {
        ctx.out << QJsonDocument(readaheadReportToJson(report)).toJson(QJsonDocument::Compact) << '\n';
        ctx.out.flush();
    } else {
        printJsonObject(ctx, readaheadReportToJson(report));
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
