// `advise` and `diagnose`: core/advisor, printed as text or JSON.
#include "clicontext.h"

#include "advisor/advisor.h"
#include "common/termination.h"
#include "common/units.h"
#include "history/history.h"
#include "readtest/measurer.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>

namespace blocktune::cli {

namespace {

int parseArgs(CliContext &ctx, QCommandLineParser &p, const QString &command, const QStringList &args, bool &done,
              bool deviceOptional = false)
{
    done = true;
    if (!p.parse(QStringList{QStringLiteral("blocktune-cli %1").arg(command)} + args))
        return failUsage(ctx, p, command);
    if (p.isSet(QStringLiteral("help"))) {
        printCommandHelp(ctx, p, command);
        return ExitOk;
    }
    const QStringList pos = p.positionalArguments();
    if (pos.size() > 1 || (pos.isEmpty() && !deviceOptional))
        return fail(ctx, pos.isEmpty() ? QStringLiteral("%1 needs a DEVICE (e.g. sdb or /dev/sdb)").arg(command)
                                       : QStringLiteral("%1 takes one DEVICE (got: %2)").arg(command, pos.join(u' ')),
                    ExitUsage);
    done = false;
    return ExitOk;
}

int exitCodeFor(const Error &e)
{
    return e.code >= InvalidArgument && e.code != Interrupted ? ExitUsage : ExitFailed;
}

Result<quint64> blockSizeOption(const QCommandLineParser &p, const QCommandLineOption &bs)
{
    if (!p.isSet(bs))
        return quint64(64 * 1024);
    auto v = parseSize(p.value(bs), QStringLiteral("--bs"));
    if (!v)
        return v.error();
    if (*v == 0 || *v > 64ull << 20)
        return makeError(InvalidArgument, QStringLiteral("--bs %1 is out of range (512 bytes to 64M)").arg(p.value(bs)));
    return *v;
}

// `--tolerance 5%`, `5` (percent) : 0.5% to 50%.
Result<double> toleranceOption(const QString &text)
{
    QString t = text.trimmed();
    if (t.endsWith(u'%'))
        t.chop(1);
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !(v >= 0.5 && v <= 50))
        return makeError(InvalidArgument, QStringLiteral("--tolerance '%1' is not a percentage from 0.5% to 50% "
                                                         "(e.g. 5%)").arg(text));
    return v / 100.0;
}

// `history:ID` (a sweep or an advice kept in the history) or a JSON file.
Result<RecordedCurve> readRecordedCurve(CliContext &ctx, const QString &from)
{
    if (from.startsWith(QStringLiteral("history:"))) {
        bool ok = false;
        const qint64 id = from.mid(8).toLongLong(&ok);
        if (!ok || id < 1)
            return makeError(InvalidArgument, QStringLiteral("--from %1: the id after history: is not a whole number "
                                                             "of at least 1 (blocktune-cli history lists them)")
                                                  .arg(from));
        auto record = HistoryStore(historyHere(ctx)).get(id);
        if (!record)
            return record.error();
        if (record->kind != u"sweep" && record->kind != u"advice")
            return makeError(InvalidArgument, QStringLiteral("--from %1: record %2 is a %3 %4, not a sweep or an "
                                                             "advice: only those have a readahead curve to advise "
                                                             "from")
                                                  .arg(from).arg(id).arg(record->kind, record->test));
        return recordedCurveFromJson(record->result, from);
    }
    QFile file(from);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(InvalidArgument, QStringLiteral("--from %1: cannot read it (%2); give a JSON file or "
                                                         "history:ID").arg(from, file.errorString()));
    constexpr qint64 kMaxCurveFile = 16 << 20;
    if (file.size() > kMaxCurveFile)
        return makeError(InvalidArgument, QStringLiteral("--from %1: %2 bytes is more than a curve file holds "
                                                         "(16 MiB at most)").arg(from).arg(file.size()));
    return parseRecordedCurve(file.readAll(), from);
}

int adviseFromRecorded(CliContext &ctx, const QCommandLineParser &p, AdviseSpec spec, bool workloadGiven,
                       const QString &from, bool asJson)
{
    auto recorded = readRecordedCurve(ctx, from);
    if (!recorded)
        return fail(ctx, recorded.error().message, ExitUsage);
    if (!workloadGiven && !recorded->workload.isEmpty()) {
        if (auto w = parseWorkload(recorded->workload))
            spec.workload = *w;
    }
    if (!p.positionalArguments().isEmpty())
        spec.device = p.positionalArguments().constFirst();
    const Advice advice = adviseFromCurve(*recorded, spec,
                                          from.startsWith(QStringLiteral("history:")) ? from
                                                                                      : QStringLiteral("file:") + from);
    if (asJson)
        ctx.out << QJsonDocument(adviceToJson(advice)).toJson(QJsonDocument::Indented);
    else
        ctx.out << formatAdvice(advice);
    ctx.out.flush();
    // A curve with no steady answer recommends nothing: a script must not
    // take its exit status for an answer.
    return advice.recommends() || advice.cancelled ? ExitOk : ExitNoAnswer;
}

} // namespace

// advise's options, and its --help.
struct AdviseOptions
{
    QCommandLineOption workload{QStringLiteral("workload"), QStringLiteral("seq (default), concurrent:N, server:N or "
                                                                           "mixed:K+R"),
                                QStringLiteral("W")};
    QCommandLineOption bs{QStringLiteral("bs"), QStringLiteral("the workload's read size (default 64K)"),
                          QStringLiteral("SIZE")};
    QCommandLineOption budget{QStringLiteral("budget"),
                              QStringLiteral("time for the whole advice, kept within 10% (default 60s)"),
                              QStringLiteral("DURATION")};
    QCommandLineOption tolerance{QStringLiteral("tolerance"),
                                 QStringLiteral("how much below the plateau the pick may be (default 5%; 0.5% to 50%)"),
                                 QStringLiteral("PCT")};
    QCommandLineOption from{QStringLiteral("from"),
                            QStringLiteral("advise from a recorded curve instead of reading: history:ID (a sweep or "
                                           "an advice in the history), or a JSON file (sweep --json, advise --json, or "
                                           "{\"curve\":[{\"read_ahead_kb\":N,\"mb_per_s\":X},...]})"),
                            QStringLiteral("SOURCE")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("print JSON (see docs/json.md)")};
};

void describeAdvise(QCommandLineParser &p, const AdviseOptions &o)
{
    p.setApplicationDescription(QStringLiteral(
        "Finds the smallest readahead that reaches the plateau: measures what the device delivers with O_DIRECT "
        "(1 MiB reads, 16 in flight), then measures read_ahead_kb at powers of two from 4 KiB to 64 MiB (at most a "
        "quarter of the device) at least 3 times each, in interleaved passes, each run cold; refines around the "
        "knee, measures the widest points again while the budget allows, and confirms the pick against a "
        "plateau point in turn. A point's figure is the median of its runs; the curve is read as a "
        "non-decreasing fit of those, and the plateau is the median of its top 3 values. It recommends the "
        "smallest value within the tolerance of the plateau (or within the measured noise, when that is wider), "
        "never below the md/dm floor, and names the values that are the same within noise. Every value is a "
        "temporary change, restored at the end, on error and on SIGINT/SIGTERM (after a kill -9: blocktune-cli "
        "restore). With --from, the same answer from a curve recorded earlier, reading nothing.\n"
        "Exit status: 0 a recommendation, 1 failure, 2 invalid usage (nothing changed), 3 no steady answer (the "
        "noise or two speeds of the machine: nothing is recommended, and no \"recommended\" line is printed), "
        "128+N when stopped by signal N."));
    p.addPositionalArgument(QStringLiteral("DEVICE"), QStringLiteral("the device read and whose readahead is swept "
                                                                     "(with --from: the name the advice is for, "
                                                                     "optional)"));
    p.addOptions({o.workload, o.bs, o.budget, o.tolerance, o.from, o.json});
    p.addHelpOption();
}

int runAdvise(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser p;
    const AdviseOptions o;
    describeAdvise(p, o);
    const QCommandLineOption &workload = o.workload, &bs = o.bs, &budget = o.budget, &tolerance = o.tolerance,
                             &from = o.from, &json = o.json;
    bool done = false;
    const bool fromGiven = args.contains(QStringLiteral("--from"))
        || std::any_of(args.cbegin(), args.cend(), [](const QString &a) { return a.startsWith(QStringLiteral("--from=")); });
    if (const int rc = parseArgs(ctx, p, QStringLiteral("advise"), args, done, fromGiven); done)
        return rc;

    AdviseSpec spec;
    spec.device = p.positionalArguments().value(0);
    if (p.isSet(tolerance)) {
        auto t = toleranceOption(p.value(tolerance));
        if (!t)
            return fail(ctx, t.error().message, ExitUsage);
        spec.tolerance = *t;
    }
    if (p.isSet(workload)) {
        auto w = parseWorkload(p.value(workload));
        if (!w)
            return fail(ctx, QStringLiteral("--workload: ") + w.error().message, ExitUsage);
        spec.workload = *w;
    }
    auto size = blockSizeOption(p, bs);
    if (!size)
        return fail(ctx, size.error().message, ExitUsage);
    spec.blockSize = *size;
    if (p.isSet(budget)) {
        auto ms = parseDurationMs(p.value(budget), QStringLiteral("--budget"));
        if (!ms)
            return fail(ctx, ms.error().message, ExitUsage);
        if (*ms > 3600 * 1000)
            return fail(ctx, QStringLiteral("--budget %1 is longer than the 1 h allowed").arg(p.value(budget)), ExitUsage);
        spec.budgetMs = *ms;
    }
    if (p.isSet(from)) {
        if (p.isSet(budget) || p.isSet(bs))
            return fail(ctx, QStringLiteral("--from reads nothing, so --%1 has nothing to set (leave it out)")
                                 .arg(p.isSet(budget) ? QStringLiteral("budget") : QStringLiteral("bs")),
                        ExitUsage);
        return adviseFromRecorded(ctx, p, spec, p.isSet(workload), p.value(from), p.isSet(json));
    }
    if (!ctx.machine->capabilities().measure)
        return fail(ctx, QStringLiteral("advise measures reads, and --sysroot %1 is a recorded tree: there is nothing "
                                        "to read there (blocktune-cli diagnose --static checks a recorded tree)")
                             .arg(ctx.root.root()), ExitUsage);

    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    const std::shared_ptr<Measurer> measurer = ctx.machine->measurer();
    ReadTestEngine engine(session, *measurer, spec.device);
    const bool asJson = p.isSet(json);
    Result<Advice> advice = makeError(Interrupted, QString());
    int sig = 0;
    {
        const CommandCancel watch;
        advice = advise(session, engine, spec,
                        [&](const CurvePoint &pt) {
                            if (!asJson)
                                ctx.err << "  read_ahead_kb " << pt.readAheadKiB << ": " << formatMbPerSec(pt.mbPerSec)
                                        << Qt::endl;
                        },
                        watch.flag());
        sig = watch.signal();
    }
    if (!advice)
        return fail(ctx, advice.error().message, exitCodeFor(advice.error()));
    if (asJson)
        ctx.out << QJsonDocument(adviceToJson(*advice)).toJson(QJsonDocument::Indented);
    else
        ctx.out << formatAdvice(*advice);
    ctx.out.flush();
    if (!advice->cancelled && !sig)
        keepInHistory(ctx, historyRecord(*advice, QStringLiteral("cli"))); // metrics exports the last one
    if (!advice->restored)
        fail(ctx, advice->restoreMessage);
    if (sig) {
        fail(ctx, QStringLiteral("interrupted by %1: the advice above is partial").arg(TerminationSignals::name(sig)));
        return 128 + sig;
    }
    if (!advice->restored)
        return ExitFailed;
    return advice->recommends() || advice->cancelled ? ExitOk : ExitNoAnswer;
}

namespace {

/// The latency probe where `measurer` reads: the host's agent's, or this
/// machine's BPF probe.
Result<std::unique_ptr<LatencySource>> loadLatencyProbe(Measurer &measurer)
{
    if (const Measurer::LatencyLoader there = measurer.latencyLoader())
        return there();
    auto here = BlockLatencyProbe::load();
    if (!here)
        return here.error();
    return std::unique_ptr<LatencySource>(std::move(*here));
}

/// --live TIME: 1 s to 24 h; -1 to go on, else the exit code.
int liveOption(CliContext &ctx, const QString &text, qint64 *ms)
{
    auto v = parseDurationMs(text, QStringLiteral("--live"));
    if (!v)
        return fail(ctx, v.error().message, ExitUsage);
    if (*v < 1000 || *v > 24LL * 3600 * 1000)
        return fail(ctx, QStringLiteral("--live %1: must be between 1s and 24h").arg(text), ExitUsage);
    *ms = *v;
    return -1;
}

/// diagnose DEVICE --live TIME: the readahead probe where the machine
/// offers it, the workload that runs watched, nothing read.
int diagnoseLiveCommand(CliContext &ctx, const QString &device, qint64 liveMs, bool asJson)
{
    if (const MachineCapabilities can = ctx.machine->capabilities(); !can.readaheadProbe)
        return fail(ctx, QStringLiteral("diagnose --live watches the kernel's readahead, and %1").arg(can.noReadaheadProbe),
                    ExitUsage);
    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    if (auto found = session.settings(device); !found)
        return fail(ctx, found.error().message, exitCodeFor(found.error()));
    auto source = ctx.machine->openReadaheadSource();
    if (!source)
        return fail(ctx, source.error().message);
    // On stderr also with --json: the probe took a second or two to load,
    // and the workload counts from here.
    ctx.err << "watching " << device << "'s readahead for " << QString::number(double(liveMs) / 1000.0)
            << " s (nothing is read)" << Qt::endl;
    Result<Diagnosis> result = makeError(Interrupted, QString());
    int sig = 0;
    {
        const CommandCancel watch;
        result = diagnoseLive(session, **source, device, liveMs, watch.flag());
        sig = watch.signal();
    }
    if (!result)
        return fail(ctx, result.error().message, exitCodeFor(result.error()));
    if (asJson)
        ctx.out << QJsonDocument(diagnosisToJson(*result)).toJson(QJsonDocument::Indented);
    else
        ctx.out << formatDiagnosis(*result);
    ctx.out.flush();
    return sig ? 128 + sig : ExitOk;
}

} // namespace

int runDiagnose(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Static checks on the device model (md floor, partitions, LVM), then, unless --static or on a recorded "
        "tree, a few seconds of measured reads (the current readahead and a larger one, O_DIRECT, one stream "
        "alone and beside a second, the workload), each comparison three times interleaved, every setting "
        "restored. A finding is stated only when its effect is larger than the measured noise. Each finding: "
        "code, severity, the cause in one sentence, evidence and a fix as settings (docs/cli.md lists the "
        "codes). --live TIME reads nothing: it watches the kernel's readahead for the workload that runs "
        "(root; the readahead probe) and prints its table and the findings from it (readahead_capped, "
        "readahead_wasted, streams_interleaved, random_reads).\n"
        "Exit status: 0 diagnosed (findings or none), 1 failure, 2 invalid usage, 128+N when stopped by signal N."));
    p.addPositionalArgument(QStringLiteral("DEVICE"), QStringLiteral("the device to diagnose"));
    const QCommandLineOption staticOnly{QStringLiteral("static"), QStringLiteral("static checks only: read nothing")};
    const QCommandLineOption bs{QStringLiteral("bs"), QStringLiteral("read size of the measured reads (default 64K)"),
                                QStringLiteral("SIZE")};
    const QCommandLineOption workload{QStringLiteral("workload"),
                                      QStringLiteral("the workload readahead_wasted checks the overshoot of: seq "
                                                     "(default), concurrent:N, server:N or mixed:K+R"),
                                      QStringLiteral("W")};
    const QCommandLineOption live{QStringLiteral("live"),
                                  QStringLiteral("read nothing: watch the workload that runs for TIME (1s to 24h) "
                                                 "and diagnose from the kernel's readahead"),
                                  QStringLiteral("TIME")};
    const QCommandLineOption json{QStringLiteral("json"), QStringLiteral("print JSON (see docs/json.md)")};
    p.addOptions({staticOnly, live, bs, workload, json});
    p.addHelpOption();
    bool done = false;
    if (const int rc = parseArgs(ctx, p, QStringLiteral("diagnose"), args, done); done)
        return rc;

    DiagnoseSpec spec;
    spec.device = p.positionalArguments().constFirst();
    if (p.isSet(live)) {
        for (const QCommandLineOption *o : {&staticOnly, &bs, &workload})
            if (p.isSet(*o))
                return fail(ctx, QStringLiteral("--live reads nothing, and --%1 is about what diagnose reads (leave "
                                                "it out)").arg(o->names().constFirst()),
                            ExitUsage);
        qint64 ms = 0;
        if (const int r = liveOption(ctx, p.value(live), &ms); r >= 0)
            return r;
        return diagnoseLiveCommand(ctx, spec.device, ms, p.isSet(json));
    }
    auto size = blockSizeOption(p, bs);
    if (!size)
        return fail(ctx, size.error().message, ExitUsage);
    spec.blockSize = *size;
    if (p.isSet(workload)) {
        auto w = parseWorkload(p.value(workload));
        if (!w)
            return fail(ctx, QStringLiteral("--workload: ") + w.error().message, ExitUsage);
        spec.workload = *w;
    }
    const bool canMeasure = ctx.machine->capabilities().measure;
    spec.measure = !p.isSet(staticOnly) && canMeasure;
    if (!p.isSet(staticOnly) && !canMeasure)
        ctx.err << "blocktune-cli: " << ctx.root.root()
                << " is a recorded tree: static checks only (nothing can be read there)" << Qt::endl;

    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    const std::shared_ptr<Measurer> measurer = ctx.machine->measurer();
    ReadTestEngine engine(session, *measurer, spec.device);
    // Queue and device time (queue_wait_dominates, slow_member) from the
    // BPF probe where the reads are measured: this machine's, or the
    // host's through its agent (the measurer's loader).
    std::unique_ptr<LatencySource> probe;
    QString latencyUnavailable;
    if (spec.measure) {
        auto loaded = loadLatencyProbe(*measurer);
        if (loaded) {
            probe = std::move(*loaded);
            engine.setLatencySource(probe.get());
        } else {
            latencyUnavailable = loaded.error().message;
        }
    }
    Result<Diagnosis> result = makeError(Interrupted, QString());
    int sig = 0;
    {
        const CommandCancel watch;
        result = diagnose(session, spec.measure ? &engine : nullptr, spec, watch.flag());
        sig = watch.signal();
    }
    if (!result)
        return fail(ctx, result.error().message, sig ? 128 + sig : exitCodeFor(result.error()));
    if (result->measured)
        result->latencyUnavailable = latencyUnavailable;
    if (p.isSet(json))
        ctx.out << QJsonDocument(diagnosisToJson(*result)).toJson(QJsonDocument::Indented);
    else
        ctx.out << formatDiagnosis(*result);
    ctx.out.flush();
    if (!result->restored)
        return fail(ctx, QStringLiteral("settings not restored: ") + result->restoreMessage);
    return sig ? 128 + sig : ExitOk;
}

} // namespace blocktune::cli
