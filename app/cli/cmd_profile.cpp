// profile list | show | save | apply | revert | verify | export | import |
// install | uninstall: the CLI face of core/profiles.
#include "clicontext.h"

#include "common/termination.h"
#include "devices/devices.h"
#include "privilege/privilege.h"
#include "profiles/profiles.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace blocktune::cli {

namespace {

const QString kSubcommands = QStringLiteral("list, show, save, apply, revert, verify, export, import, install, uninstall");

// The one session of this command: its model (scanned once) and, for
// apply and revert, its writer and journal.
Result<std::shared_ptr<const DeviceModel>> scanDevices(TuningSession &session)
{
    return session.model();
}

/// A profile's rules may match any device: the machine's root holds every
/// one first (a host's mirror records them all; here they are all there).
/// -1 to go on, else the exit code.
int needEveryDevice(CliContext &ctx)
{
    if (Status recorded = ctx.machine->recordDevices({}); !recorded)
        return fail(ctx, recorded.error().message);
    return -1;
}

// One positional argument (a profile name or file) and nothing else.
Result<QString> onePositional(const QCommandLineParser &parser, const QString &what)
{
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return makeError(InvalidArgument, QStringLiteral("give exactly one %1 (got %2)").arg(what).arg(pos.size()));
    return pos.constFirst();
}

int usageError(CliContext &ctx, const Error &e)
{
    return fail(ctx, e.message, ExitUsage);
}

// A profile by name, from the machine's library (a host's is there), or a
// file, read here on the user's machine (a path with '/', or NAME.json);
// an unreadable or invalid one is bad input.
Result<Profile> loadProfile(CliContext &ctx, const QString &nameOrFile)
{
    const bool isFile = nameOrFile.contains(u'/') || nameOrFile.endsWith(QStringLiteral(".json"));
    if (isFile || !isValidProfileName(nameOrFile))
        return ProfileStore::standard(SysRoot()).load(nameOrFile); // a file, or the store's refusal
    return ctx.machine->profiles()->load(nameOrFile);
}

// The start every command on one profile shares: its options parsed, one
// NAME|FILE, the profile loaded. nullopt: return *exitCode (help shown, or a
// usage error or a bad profile reported, with `refusal` after it).
std::optional<Profile> profileArgument(CliContext &ctx, QCommandLineParser &parser, const QString &command,
                                       const QStringList &args, int *exitCode, const QString &refusal = {})
{
    parser.addPositionalArgument(QStringLiteral("NAME|FILE"), QStringLiteral("a profile name or a profile file"));
    if (const int r = parseCommandArgs(ctx, parser, command, args); r >= 0) {
        *exitCode = r;
        return std::nullopt;
    }
    auto which = onePositional(parser, QStringLiteral("profile name or file"));
    auto profile = which ? loadProfile(ctx, *which) : Result<Profile>(which.error());
    if (profile)
        return *profile;
    fail(ctx, profile.error().message, ExitUsage);
    if (!refusal.isEmpty())
        fail(ctx, refusal, ExitUsage);
    *exitCode = ExitUsage;
    return std::nullopt;
}

QString firstSentence(const QString &text, int max = 72)
{
    QString s = text.section(QStringLiteral(". "), 0, 0).simplified();
    if (!s.endsWith(u'.') && s.size() < text.simplified().size())
        s += u'.';
    return s.size() > max ? s.left(max - 3) + QStringLiteral("...") : s;
}

Status writeOutput(CliContext &ctx, const QString &file, const QByteArray &data, bool overwrite)
{
    if (file.isEmpty() || file == u"-") {
        ctx.out << QString::fromUtf8(data);
        ctx.out.flush();
        return {};
    }
    QFile probe(file);
    if (probe.exists() && !overwrite)
        return makeError(Refused, QStringLiteral("%1 exists already: choose another file, or replace it with --force").arg(file));
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size())
        return makeError(Refused, QStringLiteral("cannot write %1: %2").arg(file, f.errorString()));
    return {};
}

/// A profile made here (save, import) kept: in `file` here ("-": printed),
/// or, with no file, in the machine's library as the user's NAME.json
/// there. The file written, as the output names it (HOST:PATH on a host).
Result<QString> keepProfile(CliContext &ctx, const Profile &profile, const QString &file, bool force)
{
    if (file == u"-") {
        if (Status st = writeOutput(ctx, file, profileToJson(profile), true); !st)
            return st.error();
        return file;
    }
    if (file.isEmpty())
        return ctx.machine->profiles()->save(profile, force);
    if (Status st = writeProfileFile(profile, file, force); !st)
        return st.error();
    return file;
}

void printTable(QTextStream &out, const QList<QStringList> &rows)
{
    QList<qsizetype> width;
    for (const QStringList &r : rows)
        for (qsizetype i = 0; i < r.size(); ++i) {
            if (width.size() <= i)
                width << 0;
            width[i] = std::max(width[i], r.at(i).size());
        }
    for (const QStringList &r : rows) {
        QString line;
        for (qsizetype i = 0; i < r.size(); ++i)
            line += i + 1 < r.size() ? r.at(i).leftJustified(width[i] + 2) : r.at(i);
        out << line.trimmed() << '\n';
    }
}

void printResolution(CliContext &ctx, const Profile &profile, const ProfileResolution &res)
{
    QTextStream &out = ctx.out;
    out << "profile " << profile.name << " (" << profile.source << "), " << profile.rules.size()
        << (profile.rules.size() == 1 ? " rule\n" : " rules\n");
    QList<QStringList> rows{{QStringLiteral("DEVICE"), QStringLiteral("SETTING"), QStringLiteral("CURRENT -> NEW"),
                             QStringLiteral("RULE"), QStringLiteral("")}};
    for (const ResolvedSetting &r : res.settings) {
        const QString current = r.current.isEmpty() ? QStringLiteral("(none)") : r.current;
        QString value;
        QString state;
        switch (r.state) {
        case ResolvedState::Change:
            value = current + QStringLiteral(" -> ") + r.target;
            state = r.reason;
            break;
        case ResolvedState::Unchanged:
            value = current;
            state = QStringLiteral("unchanged");
            break;
        case ResolvedState::Kept:
            value = current;
            state = QStringLiteral("kept: ") + r.reason;
            break;
        case ResolvedState::Skipped:
            value = QStringLiteral("-");
            state = QStringLiteral("skipped: ") + r.reason;
            break;
        }
        QString rule = ruleLabel(r.rule);
        if (!r.overridden.isEmpty()) {
            QStringList lost;
            for (int o : r.overridden)
                lost << QString::number(o + 1);
            rule += QStringLiteral(" (over %1)").arg(lost.join(u','));
        }
        if (!r.via.isEmpty())
            state = (QStringLiteral("via %1").arg(r.via.join(u',')) + (state.isEmpty() ? QString() : u"; " + state));
        rows << QStringList{r.device, r.setting.key, value, rule, state};
    }
    if (rows.size() > 1)
        printTable(out, rows);
    else
        out << "no device matches any rule\n";
    if (!res.unmatchedDevices.isEmpty())
        out << "devices no rule matched: " << res.unmatchedDevices.join(QStringLiteral(", ")) << '\n';
    for (int r : res.unmatchedRules)
        out << "rule that matched nothing: " << ruleLabel(r) << " (" << profile.rules.at(r).match.describe() << ")\n";
    for (const FloorOverride &f : res.floorOverrides)
        out << "the kernel's floor wins on " << f.device << ": read_ahead_kb " << f.valueKiB << " is below 2 x stripe ("
            << f.floorKiB << " KiB, stripe " << f.stripeKiB << " KiB); re-assembly or a reshape raises it again\n";
    out.flush();
}

void printErrors(CliContext &ctx, const QList<Error> &errors)
{
    for (const Error &e : errors)
        ctx.err << "blocktune-cli: " << e.message << '\n';
    ctx.err.flush();
}

void printRestoreItems(CliContext &ctx, const RestoreReport &report, bool dryRun = false)
{
    for (const RestoreItem &item : report.items) {
        const QString device = item.entry.device.isEmpty() ? QStringLiteral("(machine)") : item.entry.device;
        ctx.out << "  " << device << ' ' << item.entry.attribute << ' ';
        if (item.status == RestoreStatus::Restored)
            ctx.out << item.found << " -> " << item.kept << (dryRun ? "  would be restored" : "  restored");
        else if (item.status == RestoreStatus::AlreadyOriginal)
            ctx.out << item.kept << "  already original";
        else
            ctx.out << restoreStatusName(item.status) << ": " << item.message;
        ctx.out << '\n';
    }
    for (const QString &m : report.messages)
        ctx.out << "  " << m << '\n';
    ctx.out.flush();
}

// ---- the subcommands ----------------------------------------------------------------

int runList(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral(
        "Lists the profiles: yours ($XDG_CONFIG_HOME/blocktune/profiles), the machine's (/etc/blocktune/profiles) "
        "and the presets built in. A profile hides a same-named one further down that list."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print JSON"));
    parser.addOption(json);
    if (const int r = parseCommandArgs(ctx, parser, QStringLiteral("profile list"), args); r >= 0)
        return r;
    if (!parser.positionalArguments().isEmpty())
        return fail(ctx, QStringLiteral("profile list takes no arguments"), ExitUsage);
    const std::shared_ptr<ProfileLibrary> library = ctx.machine->profiles();
    auto listed = library->list();
    auto folders = listed ? library->folders() : Result<ProfileFolders>(listed.error());
    if (!folders)
        return fail(ctx, folders.error().message);
    const QList<ProfileEntry> &entries = *listed;
    if (parser.isSet(json)) {
        QJsonArray list;
        for (const ProfileEntry &e : entries)
            list.append(QJsonObject{{QStringLiteral("name"), e.name},
                                    {QStringLiteral("origin"), profileOriginName(e.origin)},
                                    {QStringLiteral("path"), e.path},
                                    {QStringLiteral("description"), e.description},
                                    {QStringLiteral("error"), e.error.isEmpty() ? QJsonValue() : QJsonValue(e.error)},
                                    {QStringLiteral("shadows"), QJsonArray::fromStringList(e.shadows)}});
        printJsonObject(ctx, QJsonObject{{QStringLiteral("user_dir"), folders->user},
                                         {QStringLiteral("system_dir"), folders->system},
                                         {QStringLiteral("profiles"), list}});
        return ExitOk;
    }
    QList<QStringList> rows{{QStringLiteral("NAME"), QStringLiteral("FROM"), QStringLiteral("DESCRIPTION")}};
    for (const ProfileEntry &e : entries)
        rows << QStringList{e.name, profileOriginName(e.origin),
                            e.error.isEmpty() ? firstSentence(e.description) : QStringLiteral("(unreadable: see profile show)")};
    printTable(ctx.out, rows);
    ctx.out << "yours: " << folders->user << ", the machine's: " << folders->system << '\n';
    ctx.out.flush();
    return ExitOk;
}

int runShow(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral("Shows a profile: its description and rules (--json: the file)."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print the profile file"));
    parser.addOption(json);
    int exitCode = ExitOk;
    const std::optional<Profile> profile = profileArgument(ctx, parser, QStringLiteral("profile show"), args, &exitCode);
    if (!profile)
        return exitCode;
    if (parser.isSet(json)) {
        ctx.out << QString::fromUtf8(profileToJson(*profile));
        ctx.out.flush();
        return ExitOk;
    }
    ctx.out << profile->name << " (" << profile->source << ")\n";
    if (!profile->description.isEmpty())
        ctx.out << profile->description << "\n";
    for (int r = 0; r < profile->rules.size(); ++r) {
        const ProfileRule &rule = profile->rules.at(r);
        QStringList set;
        for (const ProfileSetting &s : rule.settings)
            set << s.key + u'=' + s.text();
        ctx.out << ruleLabel(r) << ": " << rule.match.describe() << ": " << set.join(u' ') << '\n';
        if (!rule.comment.isEmpty())
            ctx.out << "  (" << rule.comment << ")\n";
    }
    ctx.out.flush();
    return ExitOk;
}

int runSave(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral(
        "Saves the current settings of the chosen devices (default: every tunable device that is not a partition) "
        "as a profile, one rule per device matched by its most stable identity: md UUID, dm name, WWN, serial; "
        "the kernel name only where there is nothing else (the rule's comment says so).\n--changed keeps only what "
        "differs from what the kernel sets by itself (docs/cli.md, profile save: how the defaults are known)."));
    const QCommandLineOption name(QStringLiteral("name"), QStringLiteral("the profile's name"), QStringLiteral("N"));
    const QCommandLineOption devices(QStringLiteral("devices"), QStringLiteral("only these devices (a,b,c)"), QStringLiteral("LIST"));
    const QCommandLineOption changed(QStringLiteral("changed"), QStringLiteral("only what differs from the kernel's defaults"));
    const QCommandLineOption file(QStringLiteral("file"), QStringLiteral("write here (- for stdout) instead of your profiles folder"),
                                  QStringLiteral("F"));
    const QCommandLineOption description(QStringLiteral("description"), QStringLiteral("when it fits and why"), QStringLiteral("TEXT"));
    const QCommandLineOption force(QStringLiteral("force"), QStringLiteral("replace an existing profile file"));
    parser.addOptions({name, devices, changed, file, description, force});
    if (const int r = parseCommandArgs(ctx, parser, QStringLiteral("profile save"), args); r >= 0)
        return r;
    if (!parser.positionalArguments().isEmpty())
        return fail(ctx, QStringLiteral("profile save takes no arguments (got '%1'; devices go in --devices)")
                             .arg(parser.positionalArguments().join(u' ')), ExitUsage);
    if (!parser.isSet(name))
        return fail(ctx, QStringLiteral("profile save needs --name N"), ExitUsage);
    SaveOptions options;
    options.name = parser.value(name);
    options.description = parser.value(description);
    options.changedOnly = parser.isSet(changed);
    const QString host = ctx.machine->hostName();
    options.machine = host.isEmpty() ? ctx.machine->placeName() : host;
    if (parser.isSet(devices))
        options.devices = parser.value(devices).split(u',', Qt::SkipEmptyParts);
    if (parser.isSet(devices) && options.devices.isEmpty())
        return fail(ctx, QStringLiteral("--devices needs device names (a,b,c)"), ExitUsage);
    if (!isValidProfileName(options.name))
        return fail(ctx, QStringLiteral("'%1' is not a profile name (letters, digits, _ . -, starting with a letter or "
                                        "digit, at most 64)").arg(options.name.left(64)), ExitUsage);
    if (const int r = needEveryDevice(ctx); r >= 0)
        return r;
    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    auto model = scanDevices(session);
    if (!model)
        return fail(ctx, model.error().message);
    auto saved = saveProfile(ctx.root, **model, options);
    if (!saved)
        return fail(ctx, saved.error().message, saved.error().code == NotFound ? ExitFailed : ExitUsage);
    for (const QString &n : saved->notes)
        ctx.err << "note: " << n << '\n';
    ctx.err.flush();
    const auto target = keepProfile(ctx, saved->profile, parser.value(file), parser.isSet(force));
    if (!target)
        return fail(ctx, target.error().message);
    if (*target != u"-")
        ctx.out << "saved " << saved->profile.rules.size() << (saved->profile.rules.size() == 1 ? " rule" : " rules")
                << " as " << *target << Qt::endl;
    return ExitOk;
}

int runApply(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral(
        "Applies a profile: resolves its rules against the devices present (later rules win per setting), shows "
        "each device, setting, current -> new and the rule that decided it, the devices no rule matched, the rules "
        "that matched nothing and values the md/dm floor will override; then writes everything as one change set "
        "(validated first, journaled, rolled back on a failed write). The values it replaced are kept, so "
        "`profile revert` brings them back, also from another process."));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"), QStringLiteral("show the preview; change nothing"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print the preview and report as JSON"));
    parser.addOptions({dryRun, json});
    int exitCode = ExitOk;
    const std::optional<Profile> profile = profileArgument(ctx, parser, QStringLiteral("profile apply"), args, &exitCode, QStringLiteral("refused: nothing was changed"));
    if (!profile)
        return exitCode;
    if (const int r = needEveryDevice(ctx); r >= 0)
        return r;
    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    if (auto model = scanDevices(session); !model)
        return fail(ctx, model.error().message);
    const bool asJson = parser.isSet(json);

    auto toJson = [&](const ProfilePreview &preview, const ChangeReport &report, bool dry, const QString &state,
                      const QStringList &messages) {
        QJsonObject o;
        o.insert(u"ok", preview.ok() && report.ok());
        o.insert(u"dry_run", dry);
        o.insert(u"profile", profile->name);
        o.insert(u"resolution", resolutionToJson(*profile, preview.resolution));
        QJsonArray errors;
        for (const Error &e : preview.errors)
            errors.append(e.message);
        o.insert(u"errors", errors);
        o.insert(u"report", changeReportToJson(report, dry));
        o.insert(u"state_file", state.isEmpty() ? QJsonValue() : QJsonValue(state));
        o.insert(u"messages", QJsonArray::fromStringList(messages));
        return o;
    };

    if (parser.isSet(dryRun)) {
        const ProfilePreview preview = previewProfile(*profile, session);
        ChangeReport report = plannedReport(preview.plan);
        if (!preview.ok())
            report.error = preview.errors.constFirst();
        if (asJson) {
            printJsonObject(ctx, toJson(preview, report, true, {}, {}));
        } else {
            printResolution(ctx, *profile, preview.resolution);
            printErrors(ctx, preview.errors);
            for (const QString &w : preview.plan.warnings)
                ctx.err << "warning: " << w << '\n';
            ctx.err << (preview.ok() ? "dry run: nothing was changed" : "blocktune-cli: refused: nothing was changed")
                    << Qt::endl;
        }
        return preview.ok() ? ExitOk : ExitUsage;
    }

    TerminationSignals::install();
    const ProfileApplyReport done = applyProfile(*profile, session);
    if (asJson) {
        printJsonObject(ctx, toJson(done.preview, done.report, false, done.statePath, done.messages));
    } else {
        printResolution(ctx, *profile, done.preview.resolution);
        printErrors(ctx, done.preview.errors);
        for (const QString &line : changeReportLines(done.report, {false, true, false}))
            ctx.out << line << '\n';
        for (const QString &m : done.messages)
            ctx.out << m << '\n';
        if (done.ok() && !done.statePath.isEmpty())
            ctx.out << "the values before are kept in " << done.statePath
                    << ": blocktune-cli profile revert brings them back\n";
        ctx.out.flush();
        for (const QString &w : done.preview.plan.warnings)
            ctx.err << "warning: " << w << '\n';
        ctx.err.flush();
    }
    if (!done.preview.ok()) {
        if (!asJson)
            ctx.err << "blocktune-cli: refused: nothing was changed" << Qt::endl;
        return ExitUsage;
    }
    if (!done.report.ok()) {
        if (!asJson)
            fail(ctx, done.report.error->message);
        if (const int sig = TerminationSignals::pending())
            return 128 + sig;
        return ExitFailed;
    }
    return ExitOk;
}

int runRevert(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral(
        "Brings back the values from before the first profile applied since the last revert (or reboot), onto the "
        "same devices only (a re-attached or swapped device is left alone), scheduler first."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print the report as JSON"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    QStringLiteral("show what would be restored (found -> original); change nothing"));
    parser.addOptions({json, dryRun});
    if (const int r = parseCommandArgs(ctx, parser, QStringLiteral("profile revert"), args); r >= 0)
        return r;
    if (!parser.positionalArguments().isEmpty())
        return fail(ctx, QStringLiteral("profile revert takes no arguments"), ExitUsage);
    if (const int r = needEveryDevice(ctx); r >= 0)
        return r;
    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    const bool dry = parser.isSet(dryRun);
    const ProfileRevertReport done = dry ? previewRevert(session) : revertProfile(session);
    if (parser.isSet(json)) {
        QJsonObject o;
        o.insert(u"ok", done.ok());
        o.insert(u"dry_run", dry);
        o.insert(u"state_file", done.state ? QJsonValue(done.state->path) : QJsonValue());
        o.insert(u"profiles", done.state ? QJsonValue(QJsonArray::fromStringList(done.state->profiles)) : QJsonValue(QJsonArray()));
        o.insert(u"restore", restoreReportToJson(done.restore));
        printJsonObject(ctx, o);
    } else {
        if (done.state)
            ctx.out << (dry ? "would revert " : "reverting ") << done.state->profiles.join(QStringLiteral(", ")) << " ("
                    << done.state->path << "):\n";
        printRestoreItems(ctx, done.restore, dry);
        if (dry)
            ctx.err << "dry run: nothing was changed" << Qt::endl;
    }
    return done.ok() ? ExitOk : ExitFailed;
}

int runVerify(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral(
        "Compares the system with a profile and lists every drift (device, setting, expected, actual), as tuned-adm "
        "verify does. Exit status 0 when everything matches, 1 on drift, 2 for an invalid profile."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print the comparison as JSON"));
    parser.addOption(json);
    int exitCode = ExitOk;
    const std::optional<Profile> profile = profileArgument(ctx, parser, QStringLiteral("profile verify"), args, &exitCode);
    if (!profile)
        return exitCode;
    if (const int r = needEveryDevice(ctx); r >= 0)
        return r;
    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    auto model = scanDevices(session);
    if (!model)
        return fail(ctx, model.error().message);
    const VerifyReport report = verifyProfile(*profile, ctx.root, **model);
    if (parser.isSet(json)) {
        printJsonObject(ctx, verifyReportToJson(*profile, report));
    } else if (report.resolution.ok()) {
        if (report.drifts.isEmpty()) {
            ctx.out << "no drift: " << report.matching << " setting(s) as " << profile->name << " says\n";
        } else {
            QList<QStringList> rows{{QStringLiteral("DEVICE"), QStringLiteral("SETTING"), QStringLiteral("EXPECTED"),
                                     QStringLiteral("ACTUAL"), QStringLiteral("RULE")}};
            for (const Drift &d : report.drifts)
                rows << QStringList{d.device, d.key, d.expected, d.actual, ruleLabel(d.rule)};
            printTable(ctx.out, rows);
            ctx.out << report.drifts.size() << " drift(s), " << report.matching << " setting(s) match\n";
        }
        for (int r : report.resolution.unmatchedRules)
            ctx.out << "rule that matched nothing: " << ruleLabel(r) << " (" << profile->rules.at(r).match.describe() << ")\n";
        ctx.out.flush();
    }
    if (!report.resolution.ok()) {
        if (!parser.isSet(json))
            printErrors(ctx, report.resolution.errors);
        return ExitUsage;
    }
    return report.drifts.isEmpty() ? ExitOk : ExitFailed;
}

// The profile resolved against the machine's devices (kernel-settings: the
// paths carry its kernel names).
Result<ExportedText> exportForHost(CliContext &ctx, const Profile &profile)
{
    if (Status recorded = ctx.machine->recordDevices({}); !recorded)
        return recorded.error();
    std::optional<TuningSession> local;
    TuningSession &session = sessionFor(ctx, local);
    auto model = scanDevices(session);
    if (!model)
        return model.error();
    return exportKernelSettings(profile, resolveProfile(profile, ctx.root, **model), ctx.machine->placeName());
}

int runExport(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral(
        "Writes a profile as a udev rules file (applied by udev at every add and change event, so at boot), as a "
        "tuned.conf (for machines where tuned manages tuning), or as kernel-settings: the profile resolved on this "
        "host as kernel_settings_sysfs YAML for the linux-system-roles.kernel_settings role (this host's kernel "
        "names; docs/fleets.md). What the target cannot express exactly is said on stderr and in the file's "
        "comments."));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("udev, tuned or kernel-settings"),
                                    QStringLiteral("FORMAT"));
    const QCommandLineOption output(QStringLiteral("output"), QStringLiteral("write here instead of stdout"), QStringLiteral("F"));
    parser.addOptions({format, output});
    int exitCode = ExitOk;
    const std::optional<Profile> profile = profileArgument(ctx, parser, QStringLiteral("profile export"), args, &exitCode);
    if (!profile)
        return exitCode;
    const QString fmt = parser.value(format);
    if (fmt != u"udev" && fmt != u"tuned" && fmt != u"kernel-settings")
        return fail(ctx, parser.isSet(format)
                             ? QStringLiteral("unknown format '%1' (formats: udev, tuned, kernel-settings)").arg(fmt)
                             : QStringLiteral("profile export needs --format udev, tuned or kernel-settings"),
                    ExitUsage);
    auto text = fmt == u"udev"    ? exportUdevRules(*profile)
                : fmt == u"tuned" ? exportTuned(*profile)
                                  : exportForHost(ctx, *profile);
    if (!text)
        return usageError(ctx, text.error());
    for (const QString &w : text->warnings)
        ctx.err << "warning: " << w << '\n';
    ctx.err.flush();
    if (Status st = writeOutput(ctx, parser.value(output), text->text, true); !st)
        return fail(ctx, st.error().message);
    return ExitOk;
}

int runImport(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral(
        "Reads a tuned profile as tuned does (include= first, from the sibling profile folders; the including "
        "profile wins) and saves its disk sections as a blocktune profile: devices= and devices_udev_regex= become "
        "matches, elevator= the scheduler, readahead= read_ahead_kb (N s = sectors, >N and <N kept). Everything "
        "else is listed as skipped."));
    parser.addPositionalArgument(QStringLiteral("TUNED_CONF"), QStringLiteral("a tuned.conf (PROFILES/NAME/tuned.conf)"));
    const QCommandLineOption name(QStringLiteral("name"), QStringLiteral("the profile's name (default: the tuned profile's folder)"),
                                  QStringLiteral("N"));
    const QCommandLineOption file(QStringLiteral("file"), QStringLiteral("write here (- for stdout) instead of your profiles folder"),
                                  QStringLiteral("F"));
    const QCommandLineOption force(QStringLiteral("force"), QStringLiteral("replace an existing profile file"));
    parser.addOptions({name, file, force});
    if (const int r = parseCommandArgs(ctx, parser, QStringLiteral("profile import"), args); r >= 0)
        return r;
    auto which = onePositional(parser, QStringLiteral("tuned.conf"));
    if (!which)
        return usageError(ctx, which.error());
    // The tuned.conf is read here; its virt_check is decided for the
    // machine it is imported for (a host's /proc, in its mirror).
    if (const int r = needEveryDevice(ctx); r >= 0)
        return r;
    auto imported = importTunedProfile(*which, parser.value(name), ctx.root);
    if (!imported)
        return usageError(ctx, imported.error());
    for (const QString &s : imported->skipped)
        ctx.err << "skipped: " << s << '\n';
    for (const QString &n : imported->notes)
        ctx.err << "note: " << n << '\n';
    ctx.err.flush();
    const auto target = keepProfile(ctx, imported->profile, parser.value(file), parser.isSet(force));
    if (!target)
        return fail(ctx, target.error().message);
    if (*target != u"-")
        ctx.out << "imported " << imported->profile.rules.size() << " rule(s) from " << imported->files.join(QStringLiteral(", "))
                << " as " << *target << Qt::endl;
    return ExitOk;
}

// The session's writer installs the rules: here, root writes them and a
// user asks the helper (pkexec); on a host, its agent's writer (root, or
// the helper with sudo -n; a read-only session refuses with its reason).
Result<UdevRulesResult> changeRules(CliContext &ctx, RulesChange change, const QString &fileName,
                                    const QByteArray &content = {})
{
    std::optional<TuningSession> local;
    return sessionFor(ctx, local).changeUdevRules(change, fileName, content);
}

void printRulesResult(CliContext &ctx, const UdevRulesResult &r, const QString &did)
{
    ctx.out << did << ' ' << r.path << '\n';
    for (const QString &c : r.commands)
        ctx.out << "  " << c << '\n';
    if (!r.message.isEmpty())
        ctx.out << r.message << '\n';
    ctx.out.flush();
}

/// The JSON of `profile install|uninstall --json`: one entry per rules file.
QJsonObject rulesJson(const QString &profile, bool dry, const QJsonArray &files, const QStringList &warnings)
{
    QJsonObject o;
    o.insert(u"ok", true);
    o.insert(u"dry_run", dry);
    o.insert(u"profile", profile);
    o.insert(u"files", files);
    o.insert(u"warnings", QJsonArray::fromStringList(warnings));
    o.insert(u"commands", QJsonArray());
    o.insert(u"message", QJsonValue());
    o.insert(u"error", QJsonValue());
    return o;
}

QJsonObject rulesFileJson(const QString &path, const QString &action, const std::optional<QByteArray> &before,
                          const std::optional<QByteArray> &after)
{
    const auto text = [](const std::optional<QByteArray> &t) {
        return t ? QJsonValue(QString::fromUtf8(*t)) : QJsonValue();
    };
    return QJsonObject{{QStringLiteral("path"), path}, {QStringLiteral("action"), action}, {QStringLiteral("before"), text(before)}, {QStringLiteral("after"), text(after)}};
}

int rulesFailure(CliContext &ctx, bool asJson, QJsonObject o, const QString &error, int code = ExitFailed)
{
    if (!asJson)
        return fail(ctx, error, code);
    o.insert(u"ok", false);
    o.insert(u"error", error);
    printJsonObject(ctx, o);
    return code;
}

void addRulesResult(QJsonObject &o, const UdevRulesResult &r)
{
    o.insert(u"commands", QJsonArray::fromStringList(r.commands));
    o.insert(u"message", r.message.isEmpty() ? QJsonValue() : QJsonValue(r.message));
}

int runInstall(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral(
        "Installs a profile for every boot: writes its udev rules as /etc/udev/rules.d/70-blocktune-NAME.rules "
        "(through blocktune-helper when not root), then, where udevd runs, udevadm control --reload and udevadm "
        "trigger --action=change --subsystem-match=block."));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    QStringLiteral("show the file that would be written and its text now; change nothing"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print what was (or would be) done as JSON"));
    parser.addOptions({dryRun, json});
    int exitCode = ExitOk;
    const std::optional<Profile> profile = profileArgument(ctx, parser, QStringLiteral("profile install"), args, &exitCode);
    if (!profile)
        return exitCode;
    const bool dry = parser.isSet(dryRun);
    const bool asJson = parser.isSet(json);
    auto text = exportUdevRules(*profile);
    if (!text)
        return usageError(ctx, text.error());
    if (!asJson) {
        for (const QString &w : text->warnings)
            ctx.err << "warning: " << w << '\n';
        ctx.err.flush();
    }
    const QString fileName = udevRulesFileName(profile->name);
    QJsonObject o = rulesJson(profile->name, dry, {}, text->warnings);
    if (dry) {
        auto preview = ctx.machine->previewUdevRules(RulesChange::Install, fileName, text->text);
        if (!preview)
            return rulesFailure(ctx, asJson, o, preview.error().message);
        const QString action = !preview->current                ? QStringLiteral("install")
                               : *preview->current == text->text ? QStringLiteral("unchanged")
                                                                 : QStringLiteral("replace");
        if (asJson) {
            o.insert(u"files", QJsonArray{rulesFileJson(preview->path, action, preview->current, text->text)});
            printJsonObject(ctx, o);
        } else {
            ctx.out << (action == u"unchanged" ? QStringLiteral("%1 already holds these rules")
                                               : QStringLiteral("would %1 %2").arg(action))
                           .arg(preview->path) << '\n';
            ctx.out.flush();
            ctx.err << "dry run: nothing was changed" << Qt::endl;
        }
        return ExitOk;
    }
    auto done = changeRules(ctx, RulesChange::Install, fileName, text->text);
    if (!done)
        return rulesFailure(ctx, asJson, o, done.error().message);
    if (asJson) {
        o.insert(u"files", QJsonArray{rulesFileJson(done->path, done->replaced ? QStringLiteral("replace") : QStringLiteral("install"),
                                                    std::nullopt, text->text)});
        addRulesResult(o, *done);
        printJsonObject(ctx, o);
    } else {
        printRulesResult(ctx, *done, done->replaced ? QStringLiteral("replaced") : QStringLiteral("installed"));
    }
    return ExitOk;
}

int runUninstall(CliContext &ctx, QCommandLineParser &parser, const QStringList &args)
{
    parser.setApplicationDescription(QStringLiteral(
        "Removes the udev rules `profile install` wrote for NAME (only files blocktune generated), then reloads udev "
        "where it runs. The settings in force stay until changed or the next boot: `profile revert` brings back "
        "what an apply replaced. Exit status 1 when none are installed."));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    QStringLiteral("show the files that would be removed; change nothing"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print what was (or would be) done as JSON"));
    parser.addOptions({dryRun, json});
    parser.addPositionalArgument(QStringLiteral("NAME"), QStringLiteral("the profile's name"));
    if (const int r = parseCommandArgs(ctx, parser, QStringLiteral("profile uninstall"), args); r >= 0)
        return r;
    auto which = onePositional(parser, QStringLiteral("profile name"));
    if (!which)
        return usageError(ctx, which.error());
    if (!isValidProfileName(*which))
        return fail(ctx, QStringLiteral("'%1' is not a profile name (letters, digits, _ . -)").arg(which->left(64)), ExitUsage);
    const bool dry = parser.isSet(dryRun);
    const bool asJson = parser.isSet(json);
    QJsonObject o = rulesJson(*which, dry, {}, {});
    const auto installed = ctx.machine->installedUdevRules(*which);
    if (!installed)
        return rulesFailure(ctx, asJson, o, installed.error().message);
    if (installed->files.isEmpty())
        return rulesFailure(ctx, asJson, o, QStringLiteral("no udev rules of profile %1 are installed in %2")
                                                .arg(*which, installed->dir));
    QJsonArray entries;
    for (const QString &f : installed->files) {
        if (dry) {
            auto preview = ctx.machine->previewUdevRules(RulesChange::Remove, f);
            if (!preview)
                return rulesFailure(ctx, asJson, o, preview.error().message);
            entries.append(rulesFileJson(preview->path, QStringLiteral("remove"), preview->current, std::nullopt));
            if (!asJson)
                ctx.out << "would remove " << preview->path << '\n';
            continue;
        }
        auto done = changeRules(ctx, RulesChange::Remove, f);
        if (!done) {
            o.insert(u"files", entries);
            return rulesFailure(ctx, asJson, o, done.error().message);
        }
        entries.append(rulesFileJson(done->path, QStringLiteral("remove"), std::nullopt, std::nullopt));
        addRulesResult(o, *done);
        if (!asJson)
            printRulesResult(ctx, *done, QStringLiteral("removed"));
    }
    if (asJson) {
        o.insert(u"files", entries);
        printJsonObject(ctx, o);
    } else if (dry) {
        ctx.out.flush();
        ctx.err << "dry run: nothing was changed" << Qt::endl;
    }
    return ExitOk;
}

} // namespace

int runProfile(CliContext &ctx, const QStringList &args)
{
    struct Sub
    {
        const char16_t *name;
        int (*run)(CliContext &, QCommandLineParser &, const QStringList &);
    };
    static const Sub subs[] = {{u"list", &runList},       {u"show", &runShow},       {u"save", &runSave},
                               {u"apply", &runApply},     {u"revert", &runRevert},   {u"verify", &runVerify},
                               {u"export", &runExport},   {u"import", &runImport},   {u"install", &runInstall},
                               {u"uninstall", &runUninstall}};
    if (args.isEmpty() || args.constFirst() == u"--help" || args.constFirst() == u"-h") {
        QTextStream &to = args.isEmpty() ? ctx.err : ctx.out;
        to << "Usage: blocktune-cli [--sysroot DIR] profile COMMAND [OPTIONS]\n\n"
              "  list                                     the profiles: yours, the machine's, the presets\n"
              "  show NAME|FILE [--json]                  a profile's description and rules\n"
              "  save --name N [--devices a,b] [--changed] [--file F]\n"
              "                                           the current settings as a profile\n"
              "  apply NAME|FILE [--dry-run] [--json]     preview, then apply as one change set\n"
              "  revert [--dry-run] [--json]              bring back what apply replaced\n"
              "  verify NAME|FILE [--json]                list drift (exit 1 on drift)\n"
              "  export NAME|FILE --format udev|tuned|kernel-settings\n"
              "                                           a udev rules file, a tuned.conf, or kernel_settings YAML\n"
              "  import TUNED_CONF [--name N] [--file F]  a tuned profile as a blocktune profile\n"
              "  install NAME|FILE [--dry-run] [--json]   the udev rules into /etc/udev/rules.d, reload udev\n"
              "  uninstall NAME [--dry-run] [--json]      remove them\n\n"
              "COMMAND --help says more. Profiles: $XDG_CONFIG_HOME/blocktune/profiles/NAME.json, then\n"
              "/etc/blocktune/profiles/, then the presets.\n";
        to.flush();
        return args.isEmpty() ? ExitUsage : ExitOk;
    }
    const QString sub = args.constFirst();
    for (const Sub &s : subs) {
        if (sub == QStringView(s.name)) {
            QCommandLineParser parser;
            return s.run(ctx, parser, args.mid(1));
        }
    }
    return fail(ctx, QStringLiteral("unknown profile command '%1' (commands: %2)").arg(sub.left(64), kSubcommands), ExitUsage);
}

} // namespace blocktune::cli
