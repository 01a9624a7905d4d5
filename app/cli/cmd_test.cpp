// `test seq|concurrent|server|mixed` and `sweep`: the read tests of
// core/readtest, printed as dd prints (a/b/c lines) or as JSON.
#include "clicontext.h"

#include "common/termination.h"
#include "common/units.h"
#include "history/history.h"
#include "readtest/readtest.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QRegularExpression>

#include <atomic>
#include <csignal>
#include <thread>
#include <tuple>

namespace blocktune::cli {

namespace {

// ---- options ------------------------------------------------------------------

struct Options
{
    QCommandLineOption bs{QStringLiteral("bs"), QStringLiteral("block size of each read (default 64K; K/M/G are binary)"),
                          QStringLiteral("SIZE")};
    QCommandLineOption size{QStringLiteral("size"),
                            QStringLiteral("bytes each measured stream reads (default: 256M or what the device "
                                           "holds past the offset, whichever is less)"),
                            QStringLiteral("SIZE")};
    QCommandLineOption count{QStringLiteral("count"), QStringLiteral("blocks each measured stream reads (as dd count=)"),
                             QStringLiteral("N")};
    QCommandLineOption time{QStringLiteral("time"),
                            QStringLiteral("read for this long instead (10s, 500ms), going round the range again (cold) at its end, as fio's time_based does"),
                            QStringLiteral("DURATION")};
    QCommandLineOption offset{QStringLiteral("offset"), QStringLiteral("start this many bytes into the device (as dd skip=, in bytes)"),
                              QStringLiteral("SIZE")};
    QCommandLineOption direct{QStringLiteral("direct"),
                              QStringLiteral("O_DIRECT: bypass the page cache (and readahead); --bs and --offset must "
                                             "be multiples of the logical block size")};
    // One word for how many times, in the CLI, the console and the JSON
    // ("repeat"); "runs" is what they give (the JSON's "runs" array), and
    // --runs is accepted for it too.
    QCommandLineOption repeat{{QStringLiteral("repeat"), QStringLiteral("runs")},
                              QStringLiteral("how many runs, each cold, labelled a, b, c... (default %1; --runs N "
                                             "is the same)"),
                              QStringLiteral("N")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("print JSON ({\"schema\": 1, ...}; see docs/json.md)")};
    QCommandLineOption intervals{QStringLiteral("intervals"),
                                 QStringLiteral("with --json: include every measurement interval")};
    QCommandLineOption interval{QStringLiteral("interval"), QStringLiteral("measurement interval (default 100ms)"),
                                QStringLiteral("DURATION")};
    QCommandLineOption progress{QStringLiteral("progress"), QStringLiteral("print throughput every second on stderr")};
    QCommandLineOption fadviseSequential{QStringLiteral("fadvise-sequential"),
                                         QStringLiteral("posix_fadvise(SEQUENTIAL) on each descriptor (doubles the "
                                                        "readahead window, as fio's default fadvise_hint=1 does)")};
    QCommandLineOption dropCaches{QStringLiteral("drop-caches"),
                                  QStringLiteral("also write 1 to /proc/sys/vm/drop_caches before each run (root; "
                                                 "drops the whole machine's page cache)")};
    QCommandLineOption measure{QStringLiteral("measure"), QStringLiteral("a measured stream (repeatable)"),
                               QStringLiteral("DEV[@OFFSET]")};
    QCommandLineOption background{QStringLiteral("background"),
                                  QStringLiteral("a stream that loops until the measured ones end (repeatable)"),
                                  QStringLiteral("DEV[@OFFSET]")};
    QCommandLineOption threads{QStringLiteral("threads"),
                               QStringLiteral("threads serving the one stream, taking consecutive blocks in turn (default 4)"),
                               QStringLiteral("N")};
    QCommandLineOption sharedFd{QStringLiteral("shared-fd"),
                                QStringLiteral("all threads read through one descriptor (one readahead state) "
                                               "instead of one each")};
    QCommandLineOption seq{QStringLiteral("seq"), QStringLiteral("sequential streams, spread over the device (default 1)"),
                           QStringLiteral("K")};
    QCommandLineOption random{QStringLiteral("random"), QStringLiteral("random readers running beside them (default 1)"),
                              QStringLiteral("R")};
    QCommandLineOption randomBs{QStringLiteral("random-bs"), QStringLiteral("the random readers' read size (default 4K)"),
                                QStringLiteral("SIZE")};
    QCommandLineOption percentiles{QStringLiteral("percentiles"),
                                   QStringLiteral("latency percentiles to report, as fio's percentile_list: "
                                                  "50,99,99.9 or 50:99:99.9 (default fio's 1 ... 99.99; text shows "
                                                  "p50, p99, p99.9)"),
                                   QStringLiteral("LIST")};
    // sweep
    QCommandLineOption ra{QStringLiteral("ra"), QStringLiteral("read_ahead_kb values to try, in KiB: 128,512,4096"),
                          QStringLiteral("LIST")};
    QCommandLineOption test{QStringLiteral("test"),
                            QStringLiteral("the test run at each value: seq (default), server, mixed or concurrent"),
                            QStringLiteral("KIND")};
    QCommandLineOption withRuns{QStringLiteral("with-runs"),
                                QStringLiteral("with --json: include each point's full test result, its runs")};
};

Result<quint64> parseCount(const QString &text, const QString &what, quint64 min, quint64 max)
{
    bool ok = false;
    const quint64 value = text.trimmed().toULongLong(&ok);
    if (!ok || value < min || value > max)
        return makeError(InvalidArgument, QStringLiteral("%1 '%2' is not a whole number from %3 to %4")
                                              .arg(what, text).arg(min).arg(max));
    return value;
}

/// A SIZE option into `out`, when given.
Status sizeOption(const QCommandLineParser &p, const QCommandLineOption &opt, quint64 &out)
{
    if (!p.isSet(opt))
        return {};
    auto v = parseSize(p.value(opt), QStringLiteral("--") + opt.names().constFirst());
    if (!v)
        return v.error();
    out = *v;
    return {};
}

/// A whole-number option from `min` to `max` into `out`, when given.
template<typename T>
Status countOption(const QCommandLineParser &p, const QCommandLineOption &opt, quint64 min, quint64 max, T &out)
{
    if (!p.isSet(opt))
        return {};
    auto v = parseCount(p.value(opt), QStringLiteral("--") + opt.names().constFirst(), min, max);
    if (!v)
        return v.error();
    out = T(*v);
    return {};
}

/// How much each stream reads and how it is measured: --bs, --size,
/// --count, --time, --interval, --repeat and the cache switches.
Status readAmountOptions(const QCommandLineParser &p, const Options &o, ReadTestSpec &spec, bool sweep)
{
    if (auto st = sizeOption(p, o.bs, spec.blockSize); !st)
        return st;
    if (p.isSet(o.size)) {
        quint64 v = 0;
        if (auto st = sizeOption(p, o.size, v); !st)
            return st;
        spec.sizeBytes = v;
    }
    if (p.isSet(o.count)) {
        quint64 v = 0;
        if (auto st = countOption(p, o.count, 1, UINT64_MAX, v); !st)
            return st;
        spec.count = v;
    }
    if (p.isSet(o.time)) {
        auto ms = parseDurationMs(p.value(o.time), QStringLiteral("--time"));
        if (!ms)
            return ms.error();
        spec.durationMs = *ms;
    }
    if (p.isSet(o.interval)) {
        auto ms = parseDurationMs(p.value(o.interval), QStringLiteral("--interval"));
        if (!ms)
            return ms.error();
        if (*ms < 10 || *ms > 60000)
            return makeError(InvalidArgument, QStringLiteral("--interval %1 is out of range (10ms to 60s)")
                                                  .arg(p.value(o.interval)));
        spec.intervalMs = int(*ms);
    }
    spec.repeat = sweep ? 1 : 3;
    if (auto st = countOption(p, o.repeat, 1, 1000, spec.repeat); !st)
        return st;
    spec.direct = p.isSet(o.direct);
    spec.fadviseSequential = p.isSet(o.fadviseSequential);
    spec.dropCaches = p.isSet(o.dropCaches);
    if (p.isSet(o.percentiles)) {
        spec.percentiles.clear();
        const QString list = p.value(o.percentiles);
        for (const QString &part : list.split(QRegularExpression(QStringLiteral("[,:]")))) {
            bool ok = false;
            const double v = part.trimmed().toDouble(&ok);
            if (!ok || !(v > 0 && v <= 100))
                return makeError(InvalidArgument, QStringLiteral("--percentiles %1: '%2' is not a percentile (a "
                                                                 "number more than 0 and at most 100, e.g. "
                                                                 "50,99,99.9)").arg(list, part));
            spec.percentiles << v;
        }
    }
    return {};
}

/// Options of another kind of test are refused, not silently ignored.
Status refuseOtherKindsOptions(const QCommandLineParser &p, const Options &o, const ReadTestSpec &spec, bool sweep)
{
    const bool server = spec.kind == ReadTestKind::Server;
    const bool mixed = spec.kind == ReadTestKind::Mixed;
    const bool concurrent = spec.kind == ReadTestKind::Concurrent;
    for (const auto &[opt, allowed, kind] :
         {std::tuple{&o.threads, server, "server"}, std::tuple{&o.sharedFd, server, "server"},
          std::tuple{&o.seq, mixed, "mixed"}, std::tuple{&o.random, mixed, "mixed"},
          std::tuple{&o.randomBs, mixed, "mixed"}, std::tuple{&o.background, concurrent, "concurrent"}}) {
        if (p.isSet(*opt) && !allowed)
            return makeError(InvalidArgument, QStringLiteral("--%1 belongs to test %2")
                                                  .arg(opt->names().constFirst(), QLatin1StringView(kind)));
    }
    if (!concurrent && !sweep && p.isSet(o.measure))
        return makeError(InvalidArgument, QStringLiteral("--measure belongs to test concurrent"));
    if (concurrent && p.isSet(o.offset))
        return makeError(InvalidArgument, QStringLiteral("test concurrent takes offsets as DEV@OFFSET, not --offset"));
    return {};
}

/// The options of server, mixed and concurrent (their streams).
Status readKindOptions(const QCommandLineParser &p, const Options &o, ReadTestSpec &spec)
{
    if (auto st = countOption(p, o.threads, 1, 256, spec.threads); !st)
        return st;
    spec.sharedFd = p.isSet(o.sharedFd);
    if (auto st = countOption(p, o.seq, 1, 64, spec.seqStreams); !st)
        return st;
    if (auto st = countOption(p, o.random, 0, 64, spec.randomReaders); !st)
        return st;
    if (auto st = sizeOption(p, o.randomBs, spec.randomBlockSize); !st)
        return st;
    if (spec.kind != ReadTestKind::Concurrent)
        return {};
    for (const QString &text : p.values(o.measure)) {
        auto t = parseStreamTarget(text);
        if (!t)
            return t.error();
        spec.measure << *t;
    }
    for (const QString &text : p.values(o.background)) {
        auto t = parseStreamTarget(text);
        if (!t)
            return t.error();
        spec.background << *t;
    }
    return {};
}

/// Fills `spec` from the parsed options valid for its kind.
Status specFromOptions(const QCommandLineParser &p, const Options &o, ReadTestSpec &spec, bool sweep)
{
    if (auto st = readAmountOptions(p, o, spec, sweep); !st)
        return st;
    if (auto st = refuseOtherKindsOptions(p, o, spec, sweep); !st)
        return st;
    return readKindOptions(p, o, spec);
}

// The device given as the one positional argument, with --offset.
Status singleTarget(const QCommandLineParser &p, const Options &o, const QString &command, ReadTestSpec &spec)
{
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 1)
        return makeError(InvalidArgument, pos.isEmpty()
                             ? QStringLiteral("%1 needs a DEVICE (e.g. sdb or /dev/sdb)").arg(command)
                             : QStringLiteral("%1 takes one DEVICE (got: %2)").arg(command, pos.join(u' ')));
    StreamTarget t;
    t.device = pos.constFirst();
    if (p.isSet(o.offset)) {
        auto v = parseSize(p.value(o.offset), QStringLiteral("--offset"));
        if (!v)
            return v.error();
        t.offset = *v;
    }
    spec.measure = {t};
    return {};
}

// Every option is known to every test, so an option of another kind gets
// "--threads belongs to test server" instead of "unknown option"; --help
// lists only the ones that apply.
void addTestOptions(QCommandLineParser &p, Options &o, ReadTestKind kind, bool sweep)
{
    o.repeat.setDescription(o.repeat.description().arg(sweep ? 1 : 3));
    auto hideUnless = [](QCommandLineOption &opt, bool shown) {
        if (!shown)
            opt.setFlags(QCommandLineOption::HiddenFromHelp);
    };
    hideUnless(o.offset, kind != ReadTestKind::Concurrent || sweep);
    hideUnless(o.measure, kind == ReadTestKind::Concurrent || sweep);
    hideUnless(o.background, kind == ReadTestKind::Concurrent || sweep);
    hideUnless(o.threads, kind == ReadTestKind::Server || sweep);
    hideUnless(o.sharedFd, kind == ReadTestKind::Server || sweep);
    hideUnless(o.seq, kind == ReadTestKind::Mixed || sweep);
    hideUnless(o.random, kind == ReadTestKind::Mixed || sweep);
    hideUnless(o.randomBs, kind == ReadTestKind::Mixed || sweep);
    p.addOptions({o.bs, o.size, o.count, o.time, o.offset, o.direct, o.repeat, o.json, o.intervals, o.interval,
                  o.progress, o.fadviseSequential, o.dropCaches, o.measure, o.background, o.threads, o.sharedFd,
                  o.seq, o.random, o.randomBs, o.percentiles});
    if (!sweep) {
        o.ra.setFlags(QCommandLineOption::HiddenFromHelp);
        o.test.setFlags(QCommandLineOption::HiddenFromHelp);
        o.withRuns.setFlags(QCommandLineOption::HiddenFromHelp);
        p.addOptions({o.ra, o.test, o.withRuns});
    }
    p.addHelpOption();
}

// A refusal before anything ran (our codes: invalid, not found, refused,
// not supported) is a usage error; an errno (a sysfs read failed) is not.
int exitCodeFor(const Error &e)
{
    return e.code >= InvalidArgument ? ExitUsage : ExitFailed;
}

// ---- SIGINT / SIGTERM -------------------------------------------------------------

// ---- progress -------------------------------------------------------------------------

// Once a second on stderr: the last second's throughput per stream.
struct ProgressPrinter
{
    explicit ProgressPrinter(QTextStream &stream) : err(stream) {}
    QTextStream &err;
    double lastPrinted = 0;
    QList<quint64> bytes;
    double seconds = 0;

    void operator()(int, const QString &label, const QList<IntervalSample> &fresh, const QStringList &names)
    {
        for (const IntervalSample &s : fresh) {
            if (s.endSeconds < lastPrinted) { // a new run started
                lastPrinted = 0;
                bytes.clear();
                seconds = 0;
            }
            if (bytes.size() != s.streams.size())
                bytes = QList<quint64>(s.streams.size(), 0);
            for (qsizetype i = 0; i < s.streams.size(); ++i)
                bytes[i] += s.streams.at(i).bytes;
            seconds += s.seconds;
            if (s.endSeconds - lastPrinted >= 1.0) {
                err << label << ") " << QString::number(s.endSeconds, 'f', 1) << " s:";
                for (qsizetype i = 0; i < bytes.size(); ++i)
                    err << ' ' << names.value(i) << ' ' << formatMbPerSec(double(bytes[i]) / seconds / 1e6);
                err << Qt::endl;
                lastPrinted = s.endSeconds;
                bytes.fill(0);
                seconds = 0;
            }
        }
    }
};

int parseOrHelp(CliContext &ctx, QCommandLineParser &p, const QString &command, const QStringList &args, bool &done)
{
    done = false;
    if (!p.parse(QStringList{QStringLiteral("blocktune-cli %1").arg(command)} + args)) {
        done = true;
        return failUsage(ctx, p, command);
    }
    if (p.isSet(QStringLiteral("help"))) {
        done = true;
        printCommandHelp(ctx, p, command);
        return ExitOk;
    }
    return ExitOk;
}

const char *kTestSummary =
    "Measures streaming reads as dd does (MB/s = 10^6 bytes/s), each run cold (the device's cached "
    "pages dropped) with freshly opened read-only descriptors, and records the settings in force and "
    "the device's own counters (requests, average request size, merges, readahead overshoot).\n"
    "Exit status: 0 success, 1 an I/O error or failure (results still printed), 2 invalid usage "
    "(nothing read), 128+N when stopped by signal N (partial results printed).";

void describeTestKind(QCommandLineParser &p, ReadTestKind kind)
{
    switch (kind) {
    case ReadTestKind::Sequential:
        p.setApplicationDescription(QStringLiteral("Sequential read of one device, repeated (a, b, c).\n")
                                    + QLatin1StringView(kTestSummary));
        p.addPositionalArgument(QStringLiteral("DEVICE"), QStringLiteral("sdb, /dev/sdb, /dev/disk/by-id/..."));
        break;
    case ReadTestKind::Concurrent:
        p.setApplicationDescription(
            QStringLiteral("Streams started together: --measure streams read their range once, --background "
                           "streams loop (like `while true; do dd ...; done`) until the measured ones end. "
                           "Reports per-stream MB/s, the aggregate and Jain's fairness index.\n")
            + QLatin1StringView(kTestSummary));
        break;
    case ReadTestKind::Server:
        p.setApplicationDescription(
            QStringLiteral("One sequential stream served by N threads taking consecutive blocks in turn, as "
                           "nfsd or SCST worker threads do; each thread has its own descriptor unless "
                           "--shared-fd.\n") + QLatin1StringView(kTestSummary));
        p.addPositionalArgument(QStringLiteral("DEVICE"), QStringLiteral("sdb, /dev/sdb, ..."));
        break;
    case ReadTestKind::Mixed:
        p.setApplicationDescription(
            QStringLiteral("K sequential streams (spread over the device) with R random readers as noise; "
                           "reports the sequential throughput and the random readers' latency.\n")
            + QLatin1StringView(kTestSummary));
        p.addPositionalArgument(QStringLiteral("DEVICE"), QStringLiteral("sdb, /dev/sdb, ..."));
        break;
    }
}

/// The test's spec from its parsed arguments; -1 to go on, else the exit code.
int testSpecFromArgs(CliContext &ctx, const QCommandLineParser &p, const Options &o, const QString &command,
                     ReadTestSpec &spec)
{
    // Before the positional arguments: a sweep's option given a value
    // would otherwise read as a second DEVICE.
    for (const QCommandLineOption *opt : {&o.ra, &o.test, &o.withRuns})
        if (p.isSet(*opt))
            return fail(ctx, QStringLiteral("--%1 belongs to blocktune-cli sweep").arg(opt->names().constFirst()),
                        ExitUsage);
    if (auto st = specFromOptions(p, o, spec, false); !st)
        return fail(ctx, st.error().message, ExitUsage);
    if (spec.kind == ReadTestKind::Concurrent) {
        if (!p.positionalArguments().isEmpty())
            return fail(ctx, QStringLiteral("test concurrent takes its devices as --measure DEV[@OFFSET] and "
                                            "--background DEV[@OFFSET] (got '%1')")
                                 .arg(p.positionalArguments().join(u' ')), ExitUsage);
    } else if (auto st = singleTarget(p, o, command, spec); !st) {
        return fail(ctx, st.error().message, ExitUsage);
    }
    if (!p.isSet(o.json) && p.isSet(o.intervals))
        return fail(ctx, QStringLiteral("--intervals goes with --json"), ExitUsage);
    return -1;
}

/// The end of a test or sweep whose results are printed: its errors, then
/// the exit status (128+N when signal N stopped it).
int finishRun(CliContext &ctx, const QStringList &errors, int sig, bool failed)
{
    for (const QString &e : errors)
        fail(ctx, e);
    if (sig) {
        fail(ctx, QStringLiteral("interrupted by %1: results above are partial").arg(TerminationSignals::name(sig)));
        return 128 + sig;
    }
    return failed ? ExitFailed : ExitOk;
}

/// A machine that measures nothing (a recorded tree) refuses with the
/// test's reason; -1 to go on. A host's is measured there (its agent), so
/// the mirror the test was prepared on is not what is read.
int refuseUnmeasurable(CliContext &ctx, const ReadTest &test)
{
    if (ctx.machine->capabilities().measure)
        return -1;
    if (Status live = test.checkLiveMachine(); !live)
        return fail(ctx, live.error().message, ExitUsage);
    return fail(ctx, QStringLiteral("%1 cannot be measured").arg(ctx.machine->displayName()), ExitUsage);
}

/// The devices a test reads, as the user named them.
QStringList devicesOf(const ReadTestSpec &spec)
{
    QStringList devices;
    for (const QList<StreamTarget> *targets : {&spec.measure, &spec.background})
        for (const StreamTarget &t : *targets)
            if (!t.device.isEmpty() && !devices.contains(t.device))
                devices << t.device;
    return devices;
}

int runTestKind(CliContext &ctx, ReadTestKind kind, const QStringList &args)
{
    const QString command = QStringLiteral("test ") + readTestKindName(kind);
    QCommandLineParser p;
    Options o;
    describeTestKind(p, kind);
    addTestOptions(p, o, kind, false);
    bool done = false;
    if (const int rc = parseOrHelp(ctx, p, command, args, done); done)
        return rc;
    ReadTestSpec spec;
    spec.kind = kind;
    if (const int rc = testSpecFromArgs(ctx, p, o, command, spec); rc >= 0)
        return rc;

    needDevices(ctx, devicesOf(spec));
    auto test = ReadTest::prepare(ctx.root, spec);
    if (!test)
        return fail(ctx, test.error().message, exitCodeFor(test.error()));
    if (const int rc = refuseUnmeasurable(ctx, *test); rc >= 0)
        return rc;

    const bool json = p.isSet(o.json);
    if (!json) {
        ctx.out << describeReadTest(*test, command);
        ctx.out.flush();
    }
    ReadTestObserver observer;
    ProgressPrinter printer(ctx.err);
    if (p.isSet(o.progress))
        observer.progress = std::ref(printer);

    ReadTestResult result;
    int sig = 0;
    {
        const CommandCancel stop;
        result = ctx.machine->measurer()->runReadTest(*test, observer, stop.flag());
        sig = stop.signal();
    }
    if (json)
        ctx.out << QJsonDocument(readTestToJson(result, p.isSet(o.intervals))).toJson(QJsonDocument::Indented);
    else
        ctx.out << formatReadTestResult(result);
    ctx.out.flush();
    if (!result.runs.isEmpty())
        keepInHistory(ctx, historyRecord(result, QStringLiteral("cli"), describeReadTest(*test, command).trimmed()));
    return finishRun(ctx, result.errors, sig, result.failed);
}

void describeSweep(QCommandLineParser &p, Options &o)
{
    p.setApplicationDescription(
        QStringLiteral("Runs a read test at each readahead value: sets read_ahead_kb (of the whole disk, for a "
                       "partition) as a temporary change journaled first, runs the test with freshly opened "
                       "descriptors, records MB/s and the average request size, and restores the original "
                       "value at the end, on error, and on SIGINT/SIGTERM (after a kill -9: blocktune-cli "
                       "restore).\nExit status: 0 success, 1 failure (results printed), 2 invalid usage "
                       "(nothing changed), 128+N when stopped by signal N."));
    p.addPositionalArgument(QStringLiteral("DEVICE"), QStringLiteral("the device read (and whose readahead is swept)"));
    p.addOptions({o.ra, o.test, o.withRuns});
    addTestOptions(p, o, ReadTestKind::Sequential, true);
}

/// The sweep's spec from its parsed arguments; -1 to go on, else the exit code.
int sweepSpecFromArgs(CliContext &ctx, const QCommandLineParser &p, const Options &o, SweepSpec &sweep)
{
    if (!p.isSet(o.ra))
        return fail(ctx, QStringLiteral("sweep needs --ra with the read_ahead_kb values to try, e.g. "
                                        "--ra 128,512,4096"), ExitUsage);
    auto values = parseReadaheadList(p.value(o.ra));
    if (!values)
        return fail(ctx, values.error().message, ExitUsage);
    sweep.readAheadKiB = *values;
    sweep.test.kind = ReadTestKind::Sequential;
    if (p.isSet(o.test)) {
        const auto kind = parseReadTestKind(p.value(o.test));
        if (!kind)
            return fail(ctx, QStringLiteral("--test '%1' is not a test (seq, server, mixed, concurrent)")
                                 .arg(p.value(o.test)), ExitUsage);
        sweep.test.kind = *kind;
    }
    if (auto st = specFromOptions(p, o, sweep.test, true); !st)
        return fail(ctx, st.error().message, ExitUsage);
    if (auto st = singleTarget(p, o, QStringLiteral("sweep"), sweep.test); !st)
        return fail(ctx, st.error().message, ExitUsage);
    sweep.device = sweep.test.measure.constFirst().device;
    if (sweep.test.kind == ReadTestKind::Concurrent) {
        // The swept device is measured unless --measure names the streams.
        if (!p.values(o.measure).isEmpty()) {
            sweep.test.measure.clear();
            for (const QString &text : p.values(o.measure)) {
                auto t = parseStreamTarget(text);
                if (!t)
                    return fail(ctx, t.error().message, ExitUsage);
                sweep.test.measure << *t;
            }
        }
    } else if (p.isSet(o.measure) || p.isSet(o.background)) {
        return fail(ctx, QStringLiteral("--measure and --background go with --test concurrent"), ExitUsage);
    }
    if (!p.isSet(o.json) && (p.isSet(o.intervals) || p.isSet(o.withRuns)))
        return fail(ctx, QStringLiteral("--intervals and --with-runs go with --json"), ExitUsage);
    return -1;
}

QString describeSweepRun(const ReadaheadSweep &prepared, ReadTestKind kind)
{
    return describeReadTest(prepared.test(), QStringLiteral("sweep read_ahead_kb of %1, test %2")
                                                 .arg(prepared.queueDevice(), readTestKindName(kind)));
}

} // namespace

int runTest(CliContext &ctx, const QStringList &args)
{
    const QString usage = QStringLiteral(
        "Usage: blocktune-cli test seq DEVICE [--bs 64K] [--size 256M | --count N | --time 10s] [--offset X]\n"
        "                          [--direct] [--repeat N] [--json]\n"
        "       blocktune-cli test concurrent --measure DEV[@OFFSET]... [--background DEV[@OFFSET]...] [options]\n"
        "       blocktune-cli test server DEVICE --threads N [--shared-fd] [options]\n"
        "       blocktune-cli test mixed DEVICE --seq K --random R [--random-bs 4K] [options]\n"
        "(blocktune-cli test KIND --help lists every option)\n");
    if (args.isEmpty())
        return fail(ctx, QStringLiteral("test needs a kind: seq, concurrent, server or mixed\n") + usage, ExitUsage);
    if (args.constFirst() == u"--help" || args.constFirst() == u"-h") {
        ctx.out << usage;
        ctx.out.flush();
        return ExitOk;
    }
    const auto kind = parseReadTestKind(args.constFirst());
    if (!kind)
        return fail(ctx, QStringLiteral("unknown test '%1' (tests: seq, concurrent, server, mixed)\n")
                             .arg(args.constFirst()) + usage, ExitUsage);
    return runTestKind(ctx, *kind, args.mid(1));
}

int runSweep(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser p;
    Options o;
    describeSweep(p, o);
    bool done = false;
    if (const int rc = parseOrHelp(ctx, p, QStringLiteral("sweep"), args, done); done)
        return rc;
    SweepSpec sweep;
    if (const int rc = sweepSpecFromArgs(ctx, p, o, sweep); rc >= 0)
        return rc;

    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local, QStringList{sweep.device} + devicesOf(sweep.test));
    auto model = session.model();
    if (!model)
        return fail(ctx, model.error().message);
    auto prepared = ReadaheadSweep::prepare(ctx.root, **model, sweep);
    if (!prepared)
        return fail(ctx, prepared.error().message, exitCodeFor(prepared.error()));
    if (const int rc = refuseUnmeasurable(ctx, prepared->test()); rc >= 0)
        return rc;

    const bool json = p.isSet(o.json);
    SweepObserver observer;
    ProgressPrinter printer(ctx.err);
    if (p.isSet(o.progress))
        observer.test.progress = std::ref(printer);
    if (!json) {
        ctx.out << describeSweepRun(*prepared, sweep.test.kind);
        ctx.out << formatSweepHeader();
        ctx.out.flush();
        observer.pointFinished = [&](const SweepPoint &point) {
            ctx.out << formatSweepPoint(point);
            ctx.out.flush();
        };
    }

    SweepResult result;
    int sig = 0;
    {
        const CommandCancel stop;
        result = ctx.machine->measurer()->runSweep(session, *prepared, observer, stop.flag());
        sig = stop.signal();
    }
    if (json)
        ctx.out << QJsonDocument(sweepToJson(result, p.isSet(o.withRuns))).toJson(QJsonDocument::Indented);
    else
        ctx.out << formatSweepResult(result, false);
    ctx.out.flush();
    if (!result.points.isEmpty())
        keepInHistory(ctx, historyRecord(result, QStringLiteral("cli"),
                                         describeSweepRun(*prepared, sweep.test.kind).trimmed()));
    if (!result.restoreMessage.isEmpty() && !result.restored)
        fail(ctx, result.restoreMessage);
    return finishRun(ctx, result.errors, sig, result.failed || !result.restored);
}

} // namespace blocktune::cli
