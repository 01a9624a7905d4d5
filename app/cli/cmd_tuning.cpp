// get, set and restore: the CLI face of core/tuning.
#include "clicontext.h"

#include "common/termination.h"
#include "common/units.h"
#include "devices/devices.h"
#include "privilege/privilege.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

namespace blocktune::cli {

namespace {

// Parses the common shape of our subcommands; returns -1 to go on, else an
// exit code (help printed, or a usage error reported).
int parseArgs(CliContext &ctx, QCommandLineParser &parser, const QString &name, const QStringList &args)
{
    parser.addHelpOption();
    if (!parser.parse(QStringList{u"blocktune-cli " + name} + args))
        return failUsage(ctx, parser, name);
    if (parser.isSet(QStringLiteral("help"))) {
        // Qt names the program by the path it was started as; say how to call it.
        QString help = parser.helpText();
        const qsizetype end = help.indexOf(u" [options]");
        if (help.startsWith(u"Usage: ") && end > 7)
            help.replace(7, end - 7, u"blocktune-cli [--sysroot DIR] " + name);
        ctx.out << help;
        ctx.out.flush();
        return ExitOk;
    }
    return -1;
}

void printJson(CliContext &ctx, const QJsonObject &o)
{
    ctx.out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    ctx.out.flush();
}

QString orDash(const std::optional<quint64> &v)
{
    return v ? QString::number(*v) : QStringLiteral("-");
}

void printSettings(CliContext &ctx, const DeviceSettings &s)
{
    QTextStream &out = ctx.out;
    out << s.name << " (" << deviceTypeName(s.type) << ' ' << s.major << ':' << s.minor;
    if (s.isPartition)
        out << ", settings of " << s.queueDevice;
    out << ")\n";
    struct Line
    {
        QString key, value, allowed;
    };
    QList<Line> lines;
    lines.append({QStringLiteral("read_ahead_kb"), orDash(s.readAheadKiB),
                  QStringLiteral("KiB, 0 to %1, kept in whole %2 KiB pages").arg(kMaxReadAheadKiB).arg(s.pageKiB)});
    lines.append({QStringLiteral("ra_sectors"), s.readAheadKiB ? QString::number(*s.readAheadKiB * 2) : QStringLiteral("-"),
                  QStringLiteral("512-byte sectors, as blockdev --getra/--setra count them")});
    lines.append({QStringLiteral("scheduler"), s.scheduler.isEmpty() ? QStringLiteral("-") : s.scheduler,
                  s.schedulers.isEmpty() ? QStringLiteral("none to choose")
                                         : QStringLiteral("available: %1").arg(s.schedulers.join(u", "))});
    for (const IoschedTunable &t : s.iosched)
        lines.append({u"iosched." + t.name, t.value, QStringLiteral("tunable of %1").arg(s.scheduler)});
    lines.append({QStringLiteral("nr_requests"), orDash(s.nrRequests),
                  s.nrRequestsRange ? QStringLiteral("%1 to %2").arg(s.nrRequestsRange->min).arg(s.nrRequestsRange->max)
                                    : QStringLiteral("not settable (bio-based)")});
    lines.append({QStringLiteral("max_sectors_kb"), orDash(s.maxSectorsKiB),
                  QStringLiteral("KiB, %1 to %2 (max_hw_sectors_kb)").arg(s.maxSectorsRange.min).arg(s.maxSectorsRange.max)});
    if (s.contextReadaheadSwitch.isEmpty())
        lines.append({QStringLiteral("context_readahead"), QStringLiteral("built in"),
                      QStringLiteral("always on since 2.6.31; no switch on this kernel")});
    else
        lines.append({QStringLiteral("context_readahead"),
                      s.contextReadahead ? QString::number(int(*s.contextReadahead)) : QStringLiteral("-"),
                      QStringLiteral("0 or 1 (%1)").arg(s.contextReadaheadSwitch)});
    if (s.readaheadFloorKiB)
        lines.append({QStringLiteral("readahead floor"), QString::number(*s.readaheadFloorKiB),
                      QStringLiteral("KiB, 2 x stripe of %1 KiB (the kernel's minimum after re-assembly)")
                          .arg(*s.stripeKiB)});
    if (!s.memberDisks.isEmpty())
        lines.append({QStringLiteral("member disks"), s.memberDisks.join(u','), QStringLiteral("set --members to change them too")});
    qsizetype wk = 0, wv = 0;
    for (const Line &l : std::as_const(lines)) {
        wk = std::max(wk, l.key.size());
        wv = std::max(wv, l.value.size());
    }
    for (const Line &l : std::as_const(lines))
        out << "  " << l.key.leftJustified(wk + 2) << l.value.leftJustified(wv + 2) << l.allowed << '\n';
    for (const QString &n : s.notes)
        out << "note: " << n << '\n';
    out.flush();
}

void printPlanMessages(CliContext &ctx, const ChangePlan &plan)
{
    for (const QString &n : plan.notes)
        ctx.err << "note: " << n << '\n';
    for (const QString &w : plan.warnings)
        ctx.err << "warning: " << w << '\n';
    ctx.err.flush();
}

void printOutcomes(CliContext &ctx, const ChangeReport &report, bool dryRun)
{
    for (const QString &line : changeReportLines(report, {true, !dryRun, true}))
        ctx.out << line << '\n';
    ctx.out.flush();
}

void printRestore(CliContext &ctx, const RestoreReport &report, bool onlyActions = false)
{
    for (const RestoreItem &item : report.items) {
        // A rollback lists what it had to do; values never changed are noise.
        if (onlyActions && (item.status == RestoreStatus::AlreadyOriginal || item.status == RestoreStatus::Discarded))
            continue;
        const QString device = item.entry.device.isEmpty() ? QStringLiteral("(machine)") : item.entry.device;
        ctx.out << "  " << device << ' ' << item.entry.attribute << ' ';
        switch (item.status) {
        case RestoreStatus::Restored:
            ctx.out << item.found << " -> " << item.kept << "  restored";
            break;
        case RestoreStatus::AlreadyOriginal:
            ctx.out << item.kept << "  already original";
            break;
        default:
            ctx.out << restoreStatusName(item.status) << ": " << item.message;
            break;
        }
        ctx.out << '\n';
    }
    for (const QString &m : report.messages)
        ctx.out << "  " << m << '\n';
    ctx.out.flush();
}

} // namespace

int runGet(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Shows a device's tunable settings with their current values and what each accepts: readahead "
        "(KiB and sectors), scheduler and its tunables, nr_requests, max_sectors_kb, context readahead, and "
        "for md/dm the readahead floor. A partition shows its disk's settings."));
    parser.addPositionalArgument(QStringLiteral("DEVICE"), QStringLiteral("kernel name, /dev path or by-id link"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print JSON (keys as list --json uses)"));
    parser.addOption(json);
    if (const int r = parseArgs(ctx, parser, QStringLiteral("get"), args); r >= 0)
        return r;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return fail(ctx, QStringLiteral("get takes exactly one device (got %1)").arg(pos.size()), ExitUsage);
    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local, pos);
    auto settings = session.settings(pos.constFirst());
    if (!settings)
        return fail(ctx, settings.error().message, settings.error().code == NotFound ? ExitUsage : ExitFailed);
    if (parser.isSet(json))
        printJson(ctx, deviceSettingsToJson(*settings));
    else
        printSettings(ctx, *settings);
    return ExitOk;
}

namespace {

/// What `set` was asked, its words parsed and its options checked.
struct SetRequest
{
    QList<SettingChange> changes;
    std::optional<qint64> holdMs;
    PlanOptions options;
    bool dryRun = false;
    bool asJson = false;
};

void describeSet(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Changes settings as one transaction: every change is validated first (nothing is written if any "
        "is invalid), the original values are journaled, then written in order; if a write fails, what was "
        "written is rolled back.\n\nKeys: read_ahead_kb (KiB), ra_sectors (512-byte sectors, as blockdev "
        "--setra), scheduler, nr_requests, max_sectors_kb, context_readahead (0/1, where the kernel has a "
        "switch), iosched.NAME (a tunable of the scheduler active after this change).\nSeveral devices: "
        "set sdb read_ahead_kb=4096 sdc read_ahead_kb=4096 scheduler=mq-deadline"));
    parser.addPositionalArgument(QStringLiteral("DEVICE"), QStringLiteral("kernel name, /dev path or by-id link"));
    parser.addPositionalArgument(QStringLiteral("KEY=VALUE..."), QStringLiteral("settings for that device"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"), QStringLiteral("show current -> new; change nothing"));
    const QCommandLineOption hold(QStringLiteral("hold"),
                                  QStringLiteral("apply, keep for SECONDS (or 500ms, 2m), then restore and exit; "
                                                 "Ctrl-C or SIGTERM restores at once"),
                                  QStringLiteral("SECONDS"));
    const QCommandLineOption members(QStringLiteral("members"),
                                     QStringLiteral("md/dm readahead: set the same value on the member disks"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print the report as JSON"));
    parser.addOptions({dryRun, hold, members, json});
}

/// -1 to go on, else the exit code (help printed, or a usage error).
int parseSetArgs(CliContext &ctx, const QStringList &args, SetRequest *request)
{
    QCommandLineParser parser;
    describeSet(parser);
    if (const int r = parseArgs(ctx, parser, QStringLiteral("set"), args); r >= 0)
        return r;
    auto changes = parseChangeWords(parser.positionalArguments());
    if (!changes)
        return fail(ctx, changes.error().message, ExitUsage);
    request->changes = *changes;
    const QString hold = QStringLiteral("hold");
    if (parser.isSet(hold)) {
        auto ms = parseDurationMs(parser.value(hold), QStringLiteral("--hold"));
        if (!ms)
            return fail(ctx, ms.error().message, ExitUsage);
        if (*ms <= 0)
            return fail(ctx, QStringLiteral("--hold needs a duration above zero"), ExitUsage);
        request->holdMs = *ms;
    }
    request->dryRun = parser.isSet(QStringLiteral("dry-run"));
    if (request->holdMs && request->dryRun)
        return fail(ctx, QStringLiteral("--dry-run and --hold exclude each other"), ExitUsage);
    request->options.applyToMembers = parser.isSet(QStringLiteral("members"));
    request->asJson = parser.isSet(QStringLiteral("json"));
    return -1;
}

/// The outcome of each write and, where a rollback had to act, what it did.
void printApplied(CliContext &ctx, const ChangeReport &report)
{
    printOutcomes(ctx, report, false);
    printPlanMessages(ctx, report.plan);
    if (!report.rollback)
        return;
    const bool acted = std::any_of(report.rollback->items.cbegin(), report.rollback->items.cend(),
                                   [](const RestoreItem &i) {
                                       return i.status != RestoreStatus::AlreadyOriginal
                                              && i.status != RestoreStatus::Discarded;
                                   });
    if (acted || !report.rollback->messages.isEmpty()) {
        ctx.out << "rollback:\n";
        printRestore(ctx, *report.rollback, true);
    }
}

/// The exit code of an apply that did not go through; -1 when it did.
int applyFailure(CliContext &ctx, const ChangeReport &report, bool asJson)
{
    if (report.invalid()) {
        if (!asJson)
            for (const Error &e : std::as_const(report.plan.errors))
                fail(ctx, e.message);
        if (!asJson)
            ctx.err << "blocktune-cli: nothing was changed" << Qt::endl;
        return ExitUsage;
    }
    if (!report.ok()) {
        if (!asJson)
            fail(ctx, report.error->message);
        if (const int sig = TerminationSignals::pending())
            return 128 + sig;
        return ExitFailed;
    }
    return -1;
}

/// --hold after a good apply: keep, restore, report.
int holdThenRestore(CliContext &ctx, TuningSession &session, const ChangeReport &report, qint64 holdMs,
                    bool asJson)
{
    // Held: the session journal covers a kill -9 from here on.
    const QDateTime until = QDateTime::currentDateTime().addMSecs(holdMs);
    if (!asJson) {
        ctx.out << "holding until " << until.toString(u"HH:mm:ss") << " (journal " << session.journalPath()
                << "); Ctrl-C restores now" << Qt::endl;
    }
    const int sig = TerminationSignals::waitMs(holdMs); // the signal that cut it short, or 0
    const RestoreReport back = session.restoreTemporary();
    if (asJson) {
        QJsonObject o = changeReportToJson(report, false);
        o.insert(u"held_ms", double(holdMs));
        o.insert(u"interrupted_by_signal", sig ? QJsonValue(sig) : QJsonValue());
        o.insert(u"restore", restoreReportToJson(back));
        printJson(ctx, o);
    } else {
        ctx.out << (sig ? QStringLiteral("signal %1: restoring now").arg(sig) : QStringLiteral("hold over: restoring"))
                << '\n';
        printRestore(ctx, back);
    }
    if (!back.ok())
        return fail(ctx, QStringLiteral("some original values could not be restored (see above); "
                                        "blocktune-cli restore tries again"));
    return sig ? 128 + sig : ExitOk;
}

} // namespace

int runSet(CliContext &ctx, const QStringList &args)
{
    SetRequest request;
    if (const int r = parseSetArgs(ctx, args, &request); r >= 0)
        return r;
    const std::optional<qint64> holdMs = request.holdMs;
    const bool asJson = request.asJson;

    TerminationSignals::install();
    QStringList devices;
    for (const SettingChange &c : request.changes)
        if (!c.device.isEmpty() && !devices.contains(c.device))
            devices << c.device;
    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local, devices);
    const ChangePlan plan = session.plan(request.changes, request.options);
    if (request.dryRun) {
        const ChangeReport report = plannedReport(plan);
        if (asJson) {
            printJson(ctx, changeReportToJson(report, true));
        } else {
            printOutcomes(ctx, report, true);
            printPlanMessages(ctx, report.plan);
        }
        if (!report.plan.ok()) {
            if (!asJson)
                for (const Error &e : std::as_const(report.plan.errors))
                    fail(ctx, e.message);
            return ExitUsage;
        }
        if (!asJson)
            ctx.err << "dry run: nothing was changed" << Qt::endl;
        return ExitOk;
    }

    const ChangeReport report = holdMs ? session.applyTemporary(plan) : session.apply(plan);
    if (asJson && (!report.ok() || !holdMs))
        printJson(ctx, changeReportToJson(report, false));
    else if (!asJson)
        printApplied(ctx, report);
    if (const int r = applyFailure(ctx, report, asJson); r >= 0)
        return r;
    if (!holdMs)
        return ExitOk;
    return holdThenRestore(ctx, session, report, *holdMs, asJson);
}

namespace {

/// restore's work on one journal found, as its JSON entry; `allOk` turns
/// false when it could not be read or restored in full.
QJsonObject restoreOneJournal(CliContext &ctx, TuningSession &session, const PendingJournal &p, bool asJson,
                              bool &allOk)
{
    QJsonObject j;
    j.insert(u"path", p.path);
    if (!p.journal) {
        allOk = false;
        j.insert(u"status", QStringLiteral("unreadable"));
        j.insert(u"error", p.error);
        j.insert(u"set_aside", p.setAsideTo.isEmpty() ? QJsonValue() : QJsonValue(p.setAsideTo));
        if (!asJson)
            fail(ctx, p.error);
        return j;
    }
    const Journal &journal = *p.journal;
    j.insert(u"pid", double(journal.pid));
    j.insert(u"mode", journal.mode == JournalMode::Temporary ? QStringLiteral("temporary") : QStringLiteral("persistent"));
    j.insert(u"created", journal.created);
    if (p.ownerAlive) {
        j.insert(u"status", QStringLiteral("owner running"));
        if (!asJson)
            ctx.out << p.path << ": belongs to running process " << journal.pid
                    << ", which restores on its own exit; left alone\n";
        return j;
    }
    if (!asJson)
        ctx.out << p.path << " (pid " << journal.pid << ", " << journal.created << "):\n";
    const RestoreReport report = session.restoreJournal(journal);
    allOk = allOk && report.ok();
    j.insert(u"status", report.ok() ? QStringLiteral("restored") : QStringLiteral("partly restored"));
    j.insert(u"report", restoreReportToJson(report));
    if (!asJson)
        printRestore(ctx, report);
    return j;
}

} // namespace

int runRestore(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Restores the original values that journals of ended sessions hold (after a crash, kill -9 or a "
        "failed rollback), then removes those journals. A journal of a session that still runs is left "
        "alone: that session restores on its own exit.\nJournals live in $BLOCKTUNE_JOURNAL_DIR, else "
        "/run/blocktune (root), else $XDG_RUNTIME_DIR/blocktune."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print the report as JSON"));
    parser.addOption(json);
    if (const int r = parseArgs(ctx, parser, QStringLiteral("restore"), args); r >= 0)
        return r;
    if (!parser.positionalArguments().isEmpty())
        return fail(ctx, QStringLiteral("restore takes no arguments (got '%1')")
                             .arg(parser.positionalArguments().join(u' ')), ExitUsage);
    const bool asJson = parser.isSet(json);
    // This machine's journal folder, or a host's (its agent's paths there).
    auto folder = ctx.machine->journals();
    if (!folder)
        return fail(ctx, folder.error().message);
    const QString &dir = folder->dir;

    const QList<PendingJournal> &pending = folder->journals;
    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    bool allOk = true;
    QJsonArray journals;
    for (const PendingJournal &p : pending)
        journals.append(restoreOneJournal(ctx, session, p, asJson, allOk));
    if (asJson) {
        QJsonObject o;
        o.insert(u"ok", allOk);
        o.insert(u"journal_dir", dir);
        o.insert(u"journals", journals);
        printJson(ctx, o);
    } else if (pending.isEmpty()) {
        ctx.out << "nothing to restore (no journal in " << dir << ")" << Qt::endl;
    }
    ctx.out.flush();
    return allOk ? ExitOk : ExitFailed;
}

} // namespace blocktune::cli
