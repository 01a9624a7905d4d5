// blocktune-cli monitor: iostat -x style figures, interrupts and md member
// balance, as a table refreshed in place or one JSON line per tick.
#include "clicontext.h"

#include "common/units.h"
#include "devices/devices.h"
#include "monitor/monitor.h"
#include "tuning/tuning.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QSet>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <unistd.h>

namespace blocktune::cli {

namespace {

constexpr qint64 kMinIntervalMs = 10;
constexpr qint64 kMaxIntervalMs = 3'600'000;
constexpr qint64 kMaxCount = 1'000'000'000;

qint64 monotonicNs()
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

double cpuSeconds()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/// What ends the loop between ticks. Locally SIGINT, SIGTERM and SIGHUP,
/// through core's one termination mechanism (a flag and a pipe, so a tick
/// is not late by a polling step); run by the agent, its cancel flag (the
/// client interrupted, or the connection ended).
class StopSignals final
{
public:
    explicit StopSignals(const CliContext &ctx) : m_agent(ctx.cancel)
    {
        if (m_agent)
            return; // the agent's own signal state is the agent's to read
        TerminationSignals::install();
        TerminationSignals::clear();
    }
    Q_DISABLE_COPY_MOVE(StopSignals)

    bool stopped() const { return m_agent ? m_agent->load() : TerminationSignals::pending() != 0; }
    /// Sleeps until the monotonic deadline or a stop.
    void waitUntil(qint64 deadlineNs) const
    {
        while (!stopped()) {
            const qint64 left = deadlineNs - monotonicNs();
            if (left <= 0)
                return;
            // poll() counts whole milliseconds: round up, never spin. The
            // agent's flag has no pipe: looked at every 20 ms.
            const qint64 ms = (left + 999'999) / 1'000'000;
            if (m_agent)
                ::usleep(useconds_t(std::min<qint64>(ms, 20) * 1000));
            else
                TerminationSignals::waitMs(ms);
        }
    }

private:
    const std::atomic_bool *m_agent;
};

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

    for (const GroupBalance &g : s.groups) {
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
                row += fixed(double(m.readBytes) / 1e6 / s.intervalS).rightJustified(11)
                       + fixed(double(m.reads) / s.intervalS).rightJustified(11)
                       + percent(m.share).rightJustified(10) + percent(m.requestShare).rightJustified(11);
            }
            lines << row;
        }
    }
    return lines;
}

/// "NAME=dev1,dev2": a group the user wants balanced (checked by core).
Result<GroupSpec> parseGroup(const QString &text, const DeviceModel &model)
{
    const qsizetype eq = text.indexOf(u'=');
    const QString name = eq > 0 ? text.left(eq) : QString();
    const QString usage = QStringLiteral(" (use --group NAME=DEV,DEV[,...], e.g. --group exports=sdb1,sdc1)");
    if (name.isEmpty())
        return makeError(InvalidArgument, QStringLiteral("--group '%1': no group name before '='").arg(text) + usage);
    auto group = makeUserGroup(name, text.mid(eq + 1).split(u',', Qt::SkipEmptyParts), model);
    if (!group) {
        const bool tooFew = group.error().message.startsWith(u"a group needs");
        return makeError(InvalidArgument, QStringLiteral("--group '%1': %2").arg(text, group.error().message)
                                              + (tooFew ? usage : QString()));
    }
    return group;
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

} // namespace

int runMonitor(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Watches block devices live, as iostat -x does: reads and writes per second, MB/s "
        "(10^6 bytes), request size (KiB), await (ms), queue depth (aqu-sz), utilisation, "
        "in-flight requests, and interrupts per second (in all and per device, where the "
        "device's interrupt lines can be found). md arrays and dm devices among the DEVICEs "
        "bring the balance of their members (share of bytes read, coefficient of variation, "
        "Jain's index); --group adds any set you pick.\n"
        "Without DEVICEs every device in /proc/diskstats is shown (disks, partitions, md, dm, "
        "loop). The table is refreshed in place on a terminal and appended otherwise; --json "
        "prints one line per tick (schema in README.md). Runs until --duration or --count is "
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
    for (const QCommandLineOption &o : {interval, duration, count, json, group, history, stats})
        parser.addOption(o);
    parser.addHelpOption();
    const QString self = QStringLiteral("blocktune-cli monitor");
    if (!parser.parse(QStringList{self} + args))
        return fail(ctx, parser.errorText() + QStringLiteral(" (see blocktune-cli monitor --help)"), ExitUsage);
    if (parser.isSet(QStringLiteral("help"))) {
        ctx.out << parser.helpText().replace(self, QStringLiteral("blocktune-cli [--sysroot DIR] monitor"));
        ctx.out.flush();
        return ExitOk;
    }

    auto intervalMs = parseDurationMs(parser.value(interval), QStringLiteral("--interval"));
    if (!intervalMs)
        return fail(ctx, intervalMs.error().message, ExitUsage);
    if (*intervalMs < kMinIntervalMs || *intervalMs > kMaxIntervalMs)
        return fail(ctx, QStringLiteral("--interval %1: must be between 10ms and 1h")
                             .arg(parser.value(interval)), ExitUsage);
    if (parser.isSet(duration) && parser.isSet(count))
        return fail(ctx, QStringLiteral("--duration and --count both say when to stop; give one"), ExitUsage);
    qint64 ticks = 0; // 0 = until interrupted
    if (parser.isSet(duration)) {
        auto ms = parseDurationMs(parser.value(duration), QStringLiteral("--duration"));
        if (!ms)
            return fail(ctx, ms.error().message, ExitUsage);
        if (*ms < *intervalMs)
            return fail(ctx, QStringLiteral("--duration %1 is shorter than one --interval (%2)")
                                 .arg(parser.value(duration), parser.value(interval)), ExitUsage);
        ticks = *ms / *intervalMs;
    }
    if (parser.isSet(count)) {
        bool ok = false;
        ticks = parser.value(count).toLongLong(&ok);
        if (!ok || ticks < 1 || ticks > kMaxCount)
            return fail(ctx, QStringLiteral("--count '%1': must be a whole number from 1 to %2")
                                 .arg(parser.value(count)).arg(kMaxCount), ExitUsage);
    }
    qint64 historyPoints = 0;
    if (parser.isSet(history)) {
        auto ms = parseDurationMs(parser.value(history), QStringLiteral("--history"));
        if (!ms)
            return fail(ctx, ms.error().message, ExitUsage);
        historyPoints = *ms / *intervalMs;
        if (historyPoints < 1 || historyPoints > 100'000'000)
            return fail(ctx, QStringLiteral("--history %1: must hold 1 to 10^8 ticks of --interval")
                                 .arg(parser.value(history)), ExitUsage);
    }

    ScanOptions scanOptions;
    scanOptions.probeFilesystems = false;
    auto model = DeviceModel::scan(ctx.root, scanOptions);
    if (!model)
        return fail(ctx, model.error().message);

    QStringList watched;
    for (const QString &arg : parser.positionalArguments()) {
        const BlockDevice *d = model->findByUserName(arg);
        if (!d)
            return fail(ctx, QStringLiteral("no block device named '%1' (devices: %2)")
                                 .arg(arg, knownDevices(*model)), ExitUsage);
        if (!watched.contains(d->name))
            watched << d->name;
    }
    QList<GroupSpec> userGroups;
    QSet<QString> groupNames;
    for (const QString &spec : parser.values(group)) {
        auto parsed = parseGroup(spec, *model);
        if (!parsed)
            return fail(ctx, parsed.error().message, ExitUsage);
        if (groupNames.contains(parsed->name))
            return fail(ctx, QStringLiteral("--group: the name '%1' is given twice").arg(parsed->name), ExitUsage);
        groupNames.insert(parsed->name);
        userGroups << *parsed;
    }

    Sampler sampler(std::make_unique<ProcSource>(ctx.root), std::make_unique<SteadyClock>());
    sampler.setWatched(watched);
    sampler.setUserGroups(userGroups);
    sampler.setTopology(buildTopology(ctx.root, *model));
    std::optional<History> kept;
    if (historyPoints > 0)
        kept.emplace(History::Limits{qsizetype(historyPoints), 64 << 20});

    const bool asJson = parser.isSet(json);
    // Through the agent the table is appended: the terminal is the client's.
    const bool inPlace = !asJson && !ctx.rawOut && ::isatty(STDOUT_FILENO);
    ctx.out.flush();
    if (asJson && !ctx.rawOut) {
        // A tick of thousands of devices is a megabyte of JSON: into a
        // default 64 KiB pipe that is 20 wake-ups of the reader per tick.
        // Best effort (pipe-max-size may be lower); not a pipe: no effect.
        struct stat st {};
        if (::fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
            ::fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
    }

    StopSignals stopSignals(ctx);
    const double cpuAtStart = cpuSeconds();
    auto baseline = sampler.sample();
    if (!baseline)
        return fail(ctx, baseline.error().message);
    const qint64 startNs = monotonicNs();
    const qint64 periodNs = *intervalMs * 1'000'000;
    qint64 next = 1;
    qint64 done = 0;
    qint64 maxTickNs = 0, sumTickNs = 0;
    qsizetype lastDeviceCount = 0;
    QByteArray buffer;
    if (inPlace)
        writeRawOut(ctx, "\x1b[2J");
    while (ticks == 0 || done < ticks) {
        // Absolute deadlines: a slow tick does not shift the ones after it.
        stopSignals.waitUntil(startNs + next * periodNs);
        if (stopSignals.stopped())
            break;
        const qint64 tickStart = monotonicNs();
        auto sample = sampler.sample();
        if (!sample)
            return fail(ctx, sample.error().message);
        if (!sample->appeared.isEmpty() || !sample->vanished.isEmpty()) {
            // A device came or went: its IRQ lines and groups change too.
            if (auto rescanned = DeviceModel::scan(ctx.root, scanOptions))
                sampler.setTopology(buildTopology(ctx.root, *rescanned));
        }
        if (kept)
            kept->record(*sample);
        buffer.resize(0); // keeps the allocation: a tick of 5,000 devices is ~1 MB of JSON
        if (asJson) {
            appendSampleJson(*sample, buffer);
        } else {
            const QStringList lines = tableLines(*sample);
            if (inPlace) {
                // Home, then each line clearing its old tail, then the rest
                // of the screen: no flicker.
                buffer.append("\x1b[H");
                for (const QString &line : lines)
                    buffer.append(line.toUtf8()).append("\x1b[K\n");
                buffer.append("\x1b[J");
            } else {
                for (const QString &line : lines)
                    buffer.append(line.toUtf8()).append('\n');
                buffer.append('\n');
            }
        }
        writeRawOut(ctx, buffer);
        lastDeviceCount = sample->devices.size();
        const qint64 tickNs = monotonicNs() - tickStart;
        maxTickNs = std::max(maxTickNs, tickNs);
        sumTickNs += tickNs;
        ++done;
        next = std::max(next + 1, (monotonicNs() - startNs) / periodNs + 1);
    }

    if (parser.isSet(stats)) {
        const double wall = double(monotonicNs() - startNs) / 1e9;
        const double cpu = cpuSeconds() - cpuAtStart;
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
                              .arg(done)
                              .arg(lastDeviceCount)
                              .arg(wall, 0, 'f', 3)
                              .arg(cpu, 0, 'f', 3)
                              .arg(wall > 0 ? cpu / wall * 100.0 : 0.0, 0, 'f', 2)
                              .arg(done ? double(sumTickNs) / double(done) / 1e6 : 0.0, 0, 'f', 3)
                              .arg(double(maxTickNs) / 1e6, 0, 'f', 3)
                              .arg(rssKiB)
                              .arg(kept ? kept->memoryBytes() : 0)
                              .arg(kept ? kept->seriesNames().size() : 0)
                              .arg(kept ? kept->refusedSeries() : 0)
                              .arg(kept ? kept->capacity() : 0)
                              .toUtf8();
        ctx.err << QString::fromUtf8(line);
        ctx.err.flush();
    }
    return ExitOk;
}

} // namespace blocktune::cli
