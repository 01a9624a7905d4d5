// blocktune-cli monitor: iostat -x style figures, interrupts and md member
// balance, as a table refreshed in place or one JSON line per tick.
#include "clicontext.h"

#include "common/units.h"
#include "devices/devices.h"
#include "monitor/monitor.h"
#include "readtest/measurer.h"

#include <QCommandLineParser>
#include <QDateTime>

#include <algorithm>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <unistd.h>

namespace blocktune::cli {

namespace {

constexpr qint64 kMinIntervalMs = 10;
constexpr qint64 kMaxIntervalMs = 3'600'000;
constexpr qint64 kMaxCount = 1'000'000'000;
constexpr qint64 kMinReadaheadIntervalMs = 100;

double cpuSeconds()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

QString fixed(double value, int decimals = 2)
{
    return QString::number(value, 'f', decimals);
}

QString percent(const std::optional<double> &fraction)
{
    return fraction ? QString::number(*fraction * 100.0, 'f', 1) + u'%' : QStringLiteral("-");
}

QString figure(const std::optional<double> &value, int decimals = 3)
{
    return value ? QString::number(*value, 'f', decimals) : QStringLiteral("-");
}

/// A group's balance, then each member's share.
void appendGroupLines(QStringList &lines, const GroupBalance &g, double intervalS)
{
    lines << QString();
    lines << QStringLiteral("%1 (%2, %3 members)  read balance: cv %4  jain %5   since start: cv %6  jain %7")
                 .arg(g.name, g.kind)
                 .arg(g.members.size())
                 .arg(figure(g.bytes.cv), figure(g.bytes.jain), figure(g.sinceStart.cv),
                      figure(g.sinceStart.jain));
    qsizetype width = 6;
    for (const MemberShare &m : g.members)
        width = std::max(width, m.name.size());
    lines << QStringLiteral("  ") + QStringLiteral("Member").leftJustified(width)
                 + QStringLiteral("      rMB/s        r/s     share  req-share");
    for (const MemberShare &m : g.members) {
        QString row = QStringLiteral("  ") + m.name.leftJustified(width);
        if (!m.present) {
            row += QStringLiteral("  (gone: not in /proc/diskstats)");
        } else {
            row += fixed(double(m.readBytes) / 1e6 / intervalS).rightJustified(11)
                   + fixed(double(m.reads) / intervalS).rightJustified(11)
                   + percent(m.share).rightJustified(10) + percent(m.requestShare).rightJustified(11);
        }
        lines << row;
    }
}

/// "p50/p99" of one histogram in us; "-" when it holds nothing.
QString percentiles(const Log2Histogram &h)
{
    const auto p50 = h.percentileUs(50), p99 = h.percentileUs(99);
    if (!p50 || !p99)
        return QStringLiteral("-");
    return QStringLiteral("%1/%2").arg(*p50, 0, 'f', 0).arg(*p99, 0, 'f', 0);
}

/// --latency: each device's queue and device time, p50/p99 in us (the upper
/// bounds of their log2 buckets).
void appendLatencyLines(QStringList &lines, const Sample &s, qsizetype nameWidth)
{
    bool any = false;
    for (const DeviceRates &d : s.devices)
        any = any || d.latency.has_value();
    if (!any)
        return;
    lines << QString();
    lines << QStringLiteral("Latency p50/p99 (us, log2 buckets' upper bounds)");
    static const char *const headers[] = {"read queue", "read device", "write queue", "write device"};
    QString header = QStringLiteral("Device").leftJustified(nameWidth);
    for (const char *h : headers)
        header += u' ' + QString::fromLatin1(h).rightJustified(14);
    lines << header;
    for (const DeviceRates &d : s.devices) {
        if (!d.latency)
            continue;
        const DeviceLatency &l = *d.latency;
        QString row = d.name.leftJustified(nameWidth);
        for (const Log2Histogram *h : {&l.readQueue, &l.readDevice, &l.writeQueue, &l.writeDevice})
            row += u' ' + percentiles(*h).rightJustified(14);
        lines << row;
    }
}

/// --readahead: each device's readahead over the tick, a short column set
/// (`readahead` has the whole table): windows per second by kind, the
/// windows' p50 size against the cap (read_ahead_kb) and how many reached
/// it, pages read ahead, used and wasted, and how long used pages waited.
void appendReadaheadLines(QStringList &lines, const Sample &s, qsizetype nameWidth)
{
    bool any = false;
    for (const DeviceRates &d : s.devices)
        any = any || d.readahead.has_value();
    if (!any)
        return;
    lines << QString();
    lines << QStringLiteral("Readahead (windows/s by kind; KiB; pages this tick; wait p50 in ms)");
    static const char *const headers[] = {"sync/s", "async/s", "mmap/s", "forced/s", "size-p50", "ra-kb",
                                          "at-cap", "ra-pages", "used", "wasted", "wait-p50"};
    QString header = QStringLiteral("Device").leftJustified(nameWidth);
    for (const char *h : headers)
        header += u' ' + QString::fromLatin1(h).rightJustified(9);
    lines << header;
    const auto count = [](const std::optional<quint64> &v) { return v ? QString::number(*v) : QStringLiteral("-"); };
    for (const DeviceRates &d : s.devices) {
        if (!d.readahead)
            continue;
        const DeviceReadahead &r = *d.readahead;
        QStringList cells;
        for (const ReadaheadKind kind : kAllReadaheadKinds)
            cells << fixed(s.intervalS > 0 ? double(r.of(kind).windows) / s.intervalS : 0.0, 1);
        cells << count(r.all.sizeP50KiB) << count(r.readAheadKiB) << QString::number(r.all.atCap)
              << QString::number(r.all.pagesReadAhead) << QString::number(r.all.pagesUsed)
              << QString::number(r.all.pagesWasted) << figure(r.all.waitP50Ms, 3);
        QString row = d.name.leftJustified(nameWidth);
        for (const QString &cell : std::as_const(cells))
            row += u' ' + cell.rightJustified(9);
        lines << row;
    }
}

/// The iostat -x look: one row per device, then each group's balance.
QStringList tableLines(const Sample &s)
{
    QStringList lines;
    QString head = QDateTime::fromMSecsSinceEpoch(s.wallMs).toString(QStringLiteral("HH:mm:ss"))
                   + QStringLiteral("  t %1 s  interval %2 s  interrupts/s %3")
                         .arg(fixed(s.t, 1), fixed(s.intervalS, 3), figure(s.interruptsPerSec, 0));
    lines << head;
    if (!s.appeared.isEmpty())
        lines << QStringLiteral("appeared: %1").arg(s.appeared.join(u' '));
    if (!s.missing.isEmpty())
        lines << QStringLiteral("missing (not in /proc/diskstats): %1").arg(s.missing.join(u' '));

    static const char *const headers[] = {"r/s", "rMB/s", "rrqm/s", "r_await", "rareq-sz", "w/s",
                                          "wMB/s", "wrqm/s", "w_await", "wareq-sz", "aqu-sz",
                                          "inflight", "%util", "irq/s"};
    qsizetype nameWidth = 6;
    for (const DeviceRates &d : s.devices)
        nameWidth = std::max(nameWidth, d.name.size());
    QString header = QStringLiteral("Device").leftJustified(nameWidth);
    for (const char *h : headers)
        header += u' ' + QString::fromLatin1(h).rightJustified(9);
    lines << header;
    bool anyShared = false;
    for (const DeviceRates &d : s.devices) {
        QString inflight = QString::number(d.inFlight);
        if (d.inFlightSplit)
            inflight = QStringLiteral("%1/%2").arg(d.inFlightSplit->reads).arg(d.inFlightSplit->writes);
        QString irq = figure(d.irqPerSec, 0);
        if (d.irqShared) {
            irq += u'*';
            anyShared = true;
        }
        const QString cells[] = {fixed(d.readsPerSec), fixed(d.readMBps), fixed(d.readMergesPerSec),
                                 fixed(d.readAwaitMs), fixed(d.avgReadRequestKiB), fixed(d.writesPerSec),
                                 fixed(d.writeMBps), fixed(d.writeMergesPerSec), fixed(d.writeAwaitMs),
                                 fixed(d.avgWriteRequestKiB), fixed(d.queueDepth), inflight,
                                 fixed(d.utilPct), irq};
        QString row = d.name.leftJustified(nameWidth);
        for (const QString &cell : cells)
            row += u' ' + cell.rightJustified(9);
        lines << row;
    }
    if (anyShared)
        lines << QStringLiteral("* irq/s of interrupt lines shared with other disks (one controller)");
    appendLatencyLines(lines, s, nameWidth);
    appendReadaheadLines(lines, s, nameWidth);

    for (const GroupBalance &g : s.groups)
        appendGroupLines(lines, g, s.intervalS);
    return lines;
}

/// The iostat -x look on a terminal (refreshed in place), the same appended
/// to a pipe or file, or one JSON line per tick.
class TickPrinter final
{
public:
    TickPrinter(CliContext &ctx, bool json) : m_ctx(ctx), m_json(json)
    {
        m_inPlace = !json && ::isatty(STDOUT_FILENO);
    }
    Q_DISABLE_COPY_MOVE(TickPrinter)

    /// Before the first tick (after the baseline).
    void begin()
    {
        if (m_inPlace)
            writeRawOut(m_ctx, "\x1b[2J");
    }
    void print(const Sample &sample)
    {
        m_buffer.resize(0); // keeps the allocation: a tick of 5,000 devices is ~1 MB of JSON
        if (m_json)
            appendSampleJson(sample, m_buffer);
        else
            appendTable(sample);
        writeRawOut(m_ctx, m_buffer);
        m_lastDeviceCount = sample.devices.size();
    }
    qsizetype lastDeviceCount() const { return m_lastDeviceCount; }

private:
    void appendTable(const Sample &sample)
    {
        const QStringList lines = tableLines(sample);
        if (m_inPlace) {
            // Home, then each line clearing its old tail, then the rest
            // of the screen: no flicker.
            m_buffer.append("\x1b[H");
            for (const QString &line : lines)
                m_buffer.append(line.toUtf8()).append("\x1b[K\n");
            m_buffer.append("\x1b[J");
        } else {
            for (const QString &line : lines)
                m_buffer.append(line.toUtf8()).append('\n');
            m_buffer.append('\n');
        }
    }

    CliContext &m_ctx;
    bool m_json;
    bool m_inPlace = false;
    QByteArray m_buffer;
    qsizetype m_lastDeviceCount = 0;
};

/// A tick of thousands of devices is a megabyte of JSON: into a default
/// 64 KiB pipe that is 20 wake-ups of the reader per tick. Best effort
/// (pipe-max-size may be lower); not a pipe: no effect.
void enlargeStdoutPipe()
{
    struct stat st {};
    if (::fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
        ::fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
}

/// What the command line asked for, checked.
struct MonitorOptions
{
    qint64 intervalMs = 0;
    qint64 ticks = 0; ///< 0 = until interrupted
    qint64 historyPoints = 0;
    bool json = false;
    bool stats = false;
    bool latency = false;
    bool readahead = false;
    QStringList devices;
    QStringList groups;
};

void describeMonitor(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Watches block devices live, as iostat -x does: reads and writes per second, MB/s "
        "(10^6 bytes), request size (KiB), await (ms), queue depth (aqu-sz), utilisation, "
        "in-flight requests, and interrupts per second (in all and per device, where the "
        "device's interrupt lines can be found); with --latency also each device's queue and "
        "device time per request, measured by a BPF program; with --readahead what the kernel's "
        "readahead does for each device (windows, their size against read_ahead_kb, pages used and "
        "wasted), from its readahead tracepoints. md arrays and dm devices among the DEVICEs "
        "bring the balance of their members (share of bytes read, coefficient of variation, "
        "Jain's index); --group adds any set you pick.\n"
        "Without DEVICEs every device in /proc/diskstats is shown (disks, partitions, md, dm, "
        "loop). The table is refreshed in place on a terminal and appended otherwise; --json "
        "prints one line per tick (schema in docs/json.md). Runs until --duration or --count is "
        "reached, or until interrupted (Ctrl-C ends it cleanly, exit status 0)."));
    parser.addPositionalArgument(QStringLiteral("DEVICE"),
                                 QStringLiteral("kernel name (sda, md0) or /dev path; none = all"),
                                 QStringLiteral("[DEVICE...]"));
    const QCommandLineOption interval(QStringLiteral("interval"),
                                      QStringLiteral("time between ticks, 10ms to 1h (default 100ms)"),
                                      QStringLiteral("TIME"), QStringLiteral("100ms"));
    const QCommandLineOption duration(QStringLiteral("duration"),
                                      QStringLiteral("stop after this long (e.g. 10s)"), QStringLiteral("TIME"));
    const QCommandLineOption count(QStringLiteral("count"), QStringLiteral("stop after N ticks"),
                                   QStringLiteral("N"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("one JSON line per tick"));
    const QCommandLineOption group(QStringLiteral("group"),
                                   QStringLiteral("also show the balance of these devices (repeatable)"),
                                   QStringLiteral("NAME=DEV,DEV[,...]"));
    const QCommandLineOption history(QStringLiteral("history"),
                                     QStringLiteral("keep this much of every series in memory, as the "
                                                    "console does (bounded at 64 MiB); see --stats"),
                                     QStringLiteral("TIME"));
    const QCommandLineOption stats(QStringLiteral("stats"),
                                   QStringLiteral("at the end, print the monitor's own cost (CPU, tick "
                                                  "time, memory) as one JSON line on stderr"));
    const QCommandLineOption latency(QStringLiteral("latency"),
                                     QStringLiteral("also time every request with a BPF program (root): "
                                                    "queue and device time per device, p50/p99 in the "
                                                    "table, histograms in --json"));
    const QCommandLineOption readahead(QStringLiteral("readahead"),
                                       QStringLiteral("also watch the kernel's readahead per device with a BPF "
                                                      "program (root; at least 100ms between ticks): windows/s "
                                                      "by kind, window size against read_ahead_kb, pages used "
                                                      "and wasted, wait; in --json each device's \"readahead\" "
                                                      "object, as readahead --json has it"));
    for (const QCommandLineOption &o : {interval, duration, count, json, group, history, stats, latency, readahead})
        parser.addOption(o);
    parser.addHelpOption();
}

/// --duration or --count as a number of ticks (0: until interrupted); -1 to
/// go on, else the exit code.
int readTicks(CliContext &ctx, const QCommandLineParser &parser, MonitorOptions *o)
{
    const QString duration = QStringLiteral("duration"), count = QStringLiteral("count");
    if (parser.isSet(duration) && parser.isSet(count))
        return fail(ctx, QStringLiteral("--duration and --count both say when to stop; give one"), ExitUsage);
    if (parser.isSet(duration)) {
        auto ms = parseDurationMs(parser.value(duration), QStringLiteral("--duration"));
        if (!ms)
            return fail(ctx, ms.error().message, ExitUsage);
        if (*ms < o->intervalMs)
            return fail(ctx, QStringLiteral("--duration %1 is shorter than one --interval (%2)")
                                 .arg(parser.value(duration), parser.value(QStringLiteral("interval"))), ExitUsage);
        o->ticks = *ms / o->intervalMs;
    }
    if (parser.isSet(count)) {
        bool ok = false;
        o->ticks = parser.value(count).toLongLong(&ok);
        if (!ok || o->ticks < 1 || o->ticks > kMaxCount)
            return fail(ctx, QStringLiteral("--count '%1': must be a whole number from 1 to %2")
                                 .arg(parser.value(count)).arg(kMaxCount), ExitUsage);
    }
    return -1;
}

/// Checks the options; -1 to go on, else the exit code.
int readMonitorOptions(CliContext &ctx, const QCommandLineParser &parser, MonitorOptions *o)
{
    const QString interval = parser.value(QStringLiteral("interval"));
    auto intervalMs = parseDurationMs(interval, QStringLiteral("--interval"));
    if (!intervalMs)
        return fail(ctx, intervalMs.error().message, ExitUsage);
    if (*intervalMs < kMinIntervalMs || *intervalMs > kMaxIntervalMs)
        return fail(ctx, QStringLiteral("--interval %1: must be between 10ms and 1h").arg(interval), ExitUsage);
    o->intervalMs = *intervalMs;
    if (const int r = readTicks(ctx, parser, o); r >= 0)
        return r;
    const QString history = QStringLiteral("history");
    if (parser.isSet(history)) {
        auto ms = parseDurationMs(parser.value(history), QStringLiteral("--history"));
        if (!ms)
            return fail(ctx, ms.error().message, ExitUsage);
        o->historyPoints = *ms / o->intervalMs;
        if (o->historyPoints < 1 || o->historyPoints > 100'000'000)
            return fail(ctx, QStringLiteral("--history %1: must hold 1 to 10^8 ticks of --interval")
                                 .arg(parser.value(history)), ExitUsage);
    }
    o->json = parser.isSet(QStringLiteral("json"));
    o->stats = parser.isSet(QStringLiteral("stats"));
    o->latency = parser.isSet(QStringLiteral("latency"));
    o->readahead = parser.isSet(QStringLiteral("readahead"));
    // As readahead --watch: each tick reads the probe's tables, and windows
    // per second over a few milliseconds are noise.
    if (o->readahead && o->intervalMs < kMinReadaheadIntervalMs)
        return fail(ctx, QStringLiteral("--readahead needs at least 100ms between ticks (--interval %1)").arg(interval),
                    ExitUsage);
    o->devices = parser.positionalArguments();
    o->groups = parser.values(QStringLiteral("group"));
    return -1;
}

/// -1 to go on, else the exit code (help printed, or a usage error).
int parseMonitorArgs(CliContext &ctx, const QStringList &args, MonitorOptions *o)
{
    QCommandLineParser parser;
    describeMonitor(parser);
    const QString self = QStringLiteral("blocktune-cli monitor");
    if (!parser.parse(QStringList{self} + args))
        return failUsage(ctx, parser, QStringLiteral("monitor"));
    if (parser.isSet(QStringLiteral("help"))) {
        printCommandHelp(ctx, parser, QStringLiteral("monitor"));
        return ExitOk;
    }
    return readMonitorOptions(ctx, parser, o);
}

/// The DEVICEs and --groups, checked against the devices present, given to
/// the loop with the devices; -1 to go on, else the exit code.
int watchWhatWasAsked(CliContext &ctx, const DeviceModel &model, const MonitorOptions &o, MonitorLoop &loop)
{
    Sampler &sampler = loop.sampler();
    QStringList watched;
    for (const QString &arg : o.devices) {
        const BlockDevice *d = model.findByUserName(arg);
        if (!d)
            return fail(ctx, QStringLiteral("no block device named '%1' (devices: %2)")
                                 .arg(arg, knownDevices(model)), ExitUsage);
        if (!watched.contains(d->name))
            watched << d->name;
    }
    auto groups = parseUserGroups(o.groups, model);
    if (!groups)
        return fail(ctx, groups.error().message, ExitUsage);
    sampler.setWatched(watched);
    sampler.setUserGroups(*groups);
    loop.useDevices(model);
    return -1;
}

/// --readahead: the machine's readahead source for the loop. Said once
/// when it cannot open; the other figures go on, as with --latency.
void enableReadahead(CliContext &ctx, MonitorLoop &loop)
{
    if (::isatty(STDERR_FILENO))
        ctx.err << "blocktune-cli: monitor: loading the readahead probe (a second or two)..." << Qt::endl;
    auto source = ctx.machine->openReadaheadSource();
    if (!source) {
        loop.setReadaheadUnavailable(source.error().message);
        ctx.err << "blocktune-cli: monitor: " << source.error().message
                << "; showing the figures without readahead" << Qt::endl;
        return;
    }
    loop.setReadaheadSource(std::move(*source));
}

/// The latency histograms where the counters come from: a host's agent's
/// probe (the measurer's loader), else this machine's (the loop's own).
Status enableLatency(MonitorLoop &loop, Measurer &measurer)
{
    const Measurer::LatencyLoader there = measurer.latencyLoader();
    if (!there)
        return loop.enableLatency();
    auto source = there();
    if (!source) {
        loop.sampler().setLatencyUnavailable(source.error().message);
        return source.error();
    }
    loop.sampler().setLatencySource(std::move(*source));
    return Status::success();
}

/// --stats: the monitor's own cost, one JSON line on stderr.
void printStats(CliContext &ctx, const MonitorRunStats &run, double wall, double cpu, qsizetype devices,
                const std::optional<PlotSeries> &kept)
{
    long rssKiB = 0;
    if (auto status = SysRoot().readFile(SysRoot().procPath("self/status"))) {
        for (const QByteArray &line : status->split('\n'))
            if (line.startsWith("VmHWM:"))
                rssKiB = line.mid(6).trimmed().split(' ').value(0).toLong();
    }
    QByteArray line = QStringLiteral(
        "{\"ticks\":%1,\"devices\":%2,\"wall_s\":%3,\"cpu_s\":%4,\"cpu_pct_of_one_core\":%5,"
        "\"mean_tick_ms\":%6,\"max_tick_ms\":%7,\"peak_rss_kib\":%8,\"history_bytes\":%9,"
        "\"history_series\":%10,\"history_refused\":%11,\"history_points\":%12}\n")
                          .arg(run.ticks)
                          .arg(devices)
                          .arg(wall, 0, 'f', 3)
                          .arg(cpu, 0, 'f', 3)
                          .arg(wall > 0 ? cpu / wall * 100.0 : 0.0, 0, 'f', 2)
                          .arg(run.ticks ? double(run.sumTickNs) / double(run.ticks) / 1e6 : 0.0, 0, 'f', 3)
                          .arg(double(run.maxTickNs) / 1e6, 0, 'f', 3)
                          .arg(rssKiB)
                          .arg(kept ? kept->memoryBytes() : 0)
                          .arg(kept ? kept->seriesNames().size() : 0)
                          .arg(kept ? kept->refusedSeries() : 0)
                          .arg(kept ? kept->capacity() : 0)
                          .toUtf8();
    ctx.err << QString::fromUtf8(line);
    ctx.err.flush();
}

} // namespace

int runMonitor(CliContext &ctx, const QStringList &args)
{
    MonitorOptions o;
    if (const int r = parseMonitorArgs(ctx, args, &o); r >= 0)
        return r;
    // The probe watches the kernel it is loaded into, as it runs.
    if (const MachineCapabilities can = ctx.machine->capabilities(); o.readahead && !can.readaheadProbe)
        return fail(ctx, QStringLiteral("--readahead watches the kernel of the machine it runs on, and %1")
                             .arg(can.noReadaheadProbe),
                    ExitUsage);
    ScanOptions scanOptions;
    scanOptions.probeFilesystems = false;
    auto model = DeviceModel::scan(ctx.root, scanOptions);
    if (!model)
        return fail(ctx, model.error().message);
    // The machine's counters: this one's /proc (or the tree's files), or a
    // host's, one agent round trip per tick.
    const std::shared_ptr<Measurer> measurer = ctx.machine->measurer();
    MonitorLoop loop(ctx.root, measurer->counterSource(), std::make_unique<SteadyClock>());
    if (const int r = watchWhatWasAsked(ctx, *model, o, loop); r >= 0)
        return r;
    if (o.readahead)
        enableReadahead(ctx, loop);
    if (o.latency) {
        // Said once; the diskstats figures go on without the histograms.
        if (Status probe = enableLatency(loop, *measurer); !probe) {
            ctx.err << "blocktune-cli: monitor: " << probe.error().message
                    << "; showing the /proc/diskstats figures only" << Qt::endl;
        }
    }
    std::optional<PlotSeries> kept;
    if (o.historyPoints > 0)
        kept.emplace(PlotSeries::Limits{qsizetype(o.historyPoints), 64 << 20});

    TickPrinter printer(ctx, o.json);
    ctx.out.flush();
    if (o.json)
        enlargeStdoutPipe();
    TerminationWaiter waiter(loop.clock(), nullptr);
    const double cpuAtStart = cpuSeconds();
    if (auto baseline = loop.tick(); !baseline)
        return fail(ctx, baseline.error().message);
    printer.begin();
    auto run = loop.run(o.intervalMs * 1'000'000, o.ticks, waiter, [&](const Sample &sample) {
        if (kept)
            kept->record(sample);
        printer.print(sample);
    });
    if (!run)
        return fail(ctx, run.error().message);
    if (o.stats)
        printStats(ctx, *run, double(loop.clock().monotonicNs() - run->startNs) / 1e9, cpuSeconds() - cpuAtStart,
                   printer.lastDeviceCount(), kept);
    return ExitOk;
}

} // namespace blocktune::cli
