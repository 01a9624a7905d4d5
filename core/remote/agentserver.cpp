// The agent's side of a remote session: one TuningSession served over
// JSON lines, and put back the way it was when the line goes.
#include "remote.h"

#include "common/termination.h"
#include "common/tr.h"
#include "devices/devicemodel.h"
#include "devices/devicewatcher.h"
#include "devices/snapshot.h"
#include "history/history.h"
#include "monitor/monitor.h"
#include "profiles/profiles.h"
#include "readahead/readahead.h"
#include "readtest/readtest.h"
#include "tuning/tuning.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <chrono>
#include <poll.h>
#include <pwd.h>
#include <thread>
#include <unistd.h>

namespace blocktune {

QString protocolMismatchMessage(int agentVersion, int clientVersion, const QString &host)
{
    const QString where = host.isEmpty() ? QStringLiteral("the remote host") : host;
    return QStringLiteral("protocol mismatch: agent %1, client %2: %3")
        .arg(agentVersion)
        .arg(clientVersion)
        .arg(agentVersion < clientVersion
                 ? QStringLiteral("upgrade blocktune on %1 (the agent is older)").arg(where)
                 : QStringLiteral("upgrade blocktune on this machine (the client is older than the agent on %1)")
                       .arg(where));
}

QString agentUserName()
{
    if (const passwd *pw = ::getpwuid(::geteuid()))
        return QString::fromLocal8Bit(pw->pw_name);
    return QString::number(::geteuid());
}

AgentPrivilege agentPrivilege(const SysRoot &root, const QString &helperPath)
{
    AgentPrivilege p;
    if (!root.isLive() || ::geteuid() == 0) {
        p.writer = QStringLiteral("direct");
        return p;
    }
    const QString user = agentUserName();
    // "": the helper with no arguments only (sudoers' way of saying so); an
    // argument such as --sysroot is refused by sudo itself.
    const QString rule = QStringLiteral("%1 ALL=(root) NOPASSWD: %2 \"\"").arg(user, helperPath);
    if (!QFileInfo(helperPath).isExecutable()) {
        p.writer = QStringLiteral("none");
        p.readOnlyReason = QStringLiteral("read-only: %1 is not root here and %2 is missing (install blocktune)")
                               .arg(user, helperPath);
        return p;
    }
    if (QStandardPaths::findExecutable(QStringLiteral("sudo")).isEmpty()) {
        p.writer = QStringLiteral("none");
        p.readOnlyReason = QStringLiteral("read-only: %1 is not root here and sudo is not installed (connect as "
                                          "root, or install sudo and add the sudoers line '%2')")
                               .arg(user, rule);
        return p;
    }
    // -n: never ask for a password (there is nobody to type one); -l CMD:
    // exit 0 only when sudoers lets this user run exactly that command.
    QProcess sudo;
    sudo.start(QStringLiteral("sudo"), {QStringLiteral("-n"), QStringLiteral("-l"), helperPath});
    const bool allowed = sudo.waitForStarted(5000) && sudo.waitForFinished(10000)
                         && sudo.exitStatus() == QProcess::NormalExit && sudo.exitCode() == 0;
    if (!allowed) {
        p.writer = QStringLiteral("none");
        p.readOnlyReason = QStringLiteral("read-only: %1 is not root here and may not run %2 with sudo -n "
                                          "(connect as root, or add the sudoers line '%3')")
                               .arg(user, helperPath, rule);
        return p;
    }
    p.writer = QStringLiteral("blocktune-helper (sudo -n)");
    p.writerFactory = [helperPath](const SysRoot &) -> std::unique_ptr<AttributeWriter> {
        return std::make_unique<HelperWriter>(QStringList{QStringLiteral("sudo"), QStringLiteral("-n"), helperPath});
    };
    return p;
}

QJsonObject agentError(const Error &error)
{
    return QJsonObject{{QStringLiteral("ok"), false},
                       {QStringLiteral("error"), error.message},
                       {QStringLiteral("code"), errorCodeName(error.code)}};
}

namespace {

Error invalid(const QString &message)
{
    return makeError(InvalidArgument, message);
}

/// "changes": [{"device":"sdb","key":"read_ahead_kb","value":"4096"}, ...]
Result<QList<SettingChange>> changesFrom(const QJsonObject &request)
{
    const QJsonValue v = request.value(u"changes");
    if (!v.isArray() || v.toArray().isEmpty())
        return invalid(QStringLiteral("'changes' must be a non-empty array of {\"device\",\"key\",\"value\"}"));
    QList<SettingChange> out;
    for (const QJsonValue &item : v.toArray()) {
        const QJsonObject o = item.toObject();
        if (!o.value(u"device").isString() || !o.value(u"key").isString() || !o.value(u"value").isString())
            return invalid(QStringLiteral("each change needs string 'device', 'key' and 'value' (keys: %1)")
                               .arg(settingKeys().join(u", ")));
        auto change = parseSettingChange(o.value(u"device").toString(),
                                         o.value(u"key").toString() + u'=' + o.value(u"value").toString());
        if (!change)
            return change.error();
        out << *change;
    }
    return out;
}

PlanOptions planOptionsFrom(const QJsonObject &request)
{
    PlanOptions options;
    options.applyToMembers = request.value(u"members").toBool();
    return options;
}

/// What the client's status bar shows: how many attributes the session
/// holds temporarily and changed for good.
void insertCounts(QJsonObject &o, const TuningSession &session)
{
    o.insert(u"temporary_count", session.temporaryCount());
    o.insert(u"persistent_count", session.persistentCount());
    // The session's journal here (what `set --hold` names), empty when it
    // holds none.
    o.insert(u"journal", session.journalPath());
}

QJsonObject reportAnswer(const ChangeReport &report, bool dryRun)
{
    QJsonObject o{{QStringLiteral("ok"), report.ok()}, {QStringLiteral("report"), changeReportToJson(report, dryRun)}};
    if (report.error) {
        o.insert(u"error", report.error->message);
        o.insert(u"code", errorCodeName(report.error->code));
    }
    return o;
}

QJsonObject opSettings(AgentCall &call)
{
    auto settings = call.session.settings(call.request.value(u"device").toString());
    if (!settings)
        return agentError(settings.error());
    return {{QStringLiteral("settings"), deviceSettingsToJson(*settings)}};
}

QJsonObject opPlan(AgentCall &call)
{
    auto changes = changesFrom(call.request);
    if (!changes)
        return agentError(changes.error());
    const ChangePlan plan = call.session.plan(*changes, planOptionsFrom(call.request));
    QJsonObject o = reportAnswer(plannedReport(plan), true);
    if (plan.ok())
        o.insert(u"plan", planToJson(plan)); // what "apply" takes as it is
    return o;
}

/// The whole devices a change touched, for the answer's "queues" (the
/// client's mirror follows them).
QJsonObject touchedQueueFiles(const SysRoot &root, const QList<PlannedWrite> &writes, const RestoreReport &restored)
{
    QStringList devices;
    for (const PlannedWrite &w : writes)
        if (!devices.contains(w.device))
            devices << w.device;
    for (const RestoreItem &item : restored.items)
        if (!devices.contains(item.entry.device) && !item.entry.attribute.isEmpty())
            devices << item.entry.device;
    return recordQueueFiles(root, devices);
}

/// {"plan": {...}} (planToJson: what a console planned on its mirror,
/// checked here and written as it is), or {"changes": [...]} (a script's
/// words, planned here once).
Result<ChangePlan> planFrom(AgentCall &call)
{
    if (call.request.contains(u"plan")) {
        auto plan = planFromJson(call.request.value(u"plan"));
        if (!plan)
            return plan.error();
        if (Status checked = checkPlanHere(call.session.root(), *plan); !checked)
            return checked.error();
        return plan;
    }
    auto changes = changesFrom(call.request);
    if (!changes)
        return changes.error();
    return call.session.plan(*changes, planOptionsFrom(call.request));
}

/// {"op":"apply"|"apply_temporary", "plan"|"changes", "remember"?: PROFILE}:
/// with "remember", the originals go to this host's applied state first
/// (a profile's apply), so a revert from any process brings them back.
QJsonObject opApply(AgentCall &call, bool temporary)
{
    auto plan = planFrom(call);
    if (!plan)
        return agentError(plan.error());
    const QJsonValue remember = call.request.value(u"remember");
    if (!remember.isUndefined() && (temporary || !remember.isString() || remember.toString().isEmpty()))
        return agentError(invalid(QStringLiteral("'remember' names the profile of a persistent apply")));
    RememberedApply done;
    if (remember.isString())
        done = call.session.applyRemembered(*plan, remember.toString());
    else
        done.report = temporary ? call.session.applyTemporary(*plan) : call.session.apply(*plan);
    QJsonObject o = reportAnswer(done.report, false);
    insertCounts(o, call.session);
    o.insert(u"queues", touchedQueueFiles(call.session.root(), done.report.plan.writes, {}));
    if (remember.isString()) {
        o.insert(u"state_path", done.statePath);
        o.insert(u"messages", QJsonArray::fromStringList(done.messages));
    }
    return o;
}

QJsonObject restoreAnswer(const RestoreReport &report, TuningSession &session)
{
    QJsonObject o{{QStringLiteral("ok"), report.ok()}, {QStringLiteral("report"), restoreReportToJson(report)}};
    insertCounts(o, session);
    o.insert(u"queues", touchedQueueFiles(session.root(), {}, report));
    return o;
}

QJsonObject opRestoreTemporary(AgentCall &call)
{
    return restoreAnswer(call.session.restoreTemporary(), call.session);
}

QJsonObject opRevertAll(AgentCall &call)
{
    return restoreAnswer(call.session.revertAll(), call.session);
}

QJsonObject opKeepTemporary(AgentCall &call)
{
    call.session.keepTemporary();
    QJsonObject o;
    insertCounts(o, call.session);
    return o;
}

/// {"op":"revert_profile"}: this host's applied state brought back
/// (`profile revert` there); the state it was, when there was one.
QJsonObject opRevertProfile(AgentCall &call)
{
    const RememberedRevert back = call.session.revertRemembered();
    QJsonObject o = restoreAnswer(back.restore, call.session);
    if (back.state)
        o.insert(u"state", appliedStateToJson(*back.state));
    return o;
}

/// {"op":"applied_state"}: {"state": {...}} or {"state": null}.
QJsonObject opAppliedState(AgentCall &call)
{
    auto state = call.session.appliedState();
    if (!state)
        return agentError(state.error());
    return {{QStringLiteral("state"), *state ? QJsonValue(appliedStateToJson(**state)) : QJsonValue()}};
}

/// {"op":"dead_journals"}: the journals this host's sessions left when they
/// died (crash, kill -9), oldest first, as `restore` here finds them:
/// {"journals":[pendingJournalToJson(), ...]}.
QJsonObject opDeadJournals(AgentCall &call)
{
    QJsonArray journals;
    for (const PendingJournal &p : call.session.deadJournals())
        journals.append(pendingJournalToJson(p));
    return {{QStringLiteral("journals"), journals}};
}

/// {"op":"journals"}: what `blocktune-cli restore` finds here: the journal
/// folder and every journal in it made for this root, whose owner still
/// runs or not ({"journal_dir", "journals": [pendingJournalToJson()]});
/// unreadable ones are set aside, as restore does. `--host HOST restore`
/// prints them as restore prints them here, and restores the dead ones
/// through restore_journal.
QJsonObject opJournals(AgentCall &call)
{
    auto dir = journalDirectory();
    if (!dir)
        return agentError(dir.error());
    QJsonArray journals;
    for (const PendingJournal &p : findJournals(call.session.root()))
        journals.append(pendingJournalToJson(p));
    return {{QStringLiteral("journal_dir"), *dir}, {QStringLiteral("journals"), journals}};
}

/// {"op":"restore_journal","path":PATH}: one of this host's dead journals,
/// named by the path dead_journals gave, restored through this session from
/// the file as it is here. Nothing else is taken: the client names a
/// journal, never a file or the values to write.
QJsonObject opRestoreJournal(AgentCall &call)
{
    const QJsonValue path = call.request.value(u"path");
    if (!path.isString() || path.toString().isEmpty())
        return agentError(invalid(QStringLiteral("restore_journal needs 'path': one of the paths dead_journals answers")));
    QStringList dead;
    for (const PendingJournal &p : call.session.deadJournals()) {
        if (p.path == path.toString() && !p.journal)
            return agentError(makeError(Refused, p.error));
        if (p.path == path.toString())
            return restoreAnswer(call.session.restoreJournal(*p.journal), call.session);
        if (p.journal)
            dead << p.path;
    }
    return agentError(makeError(
        Refused, QStringLiteral("'%1' is not a journal of a session that died on this host; restore_journal takes "
                                "one of the paths dead_journals answers (now: %2)")
                     .arg(path.toString().left(256), dead.isEmpty() ? QStringLiteral("none") : dead.join(u", "))));
}

/// Sends `path` as "chunk" events ({"data": base64, kSnapshotChunk bytes
/// at most}); the bytes sent.
Result<qint64> sendChunks(AgentCall &call, const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(EIO, QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    qint64 bytes = 0;
    while (!file.atEnd()) {
        const QByteArray chunk = file.read(kSnapshotChunk);
        if (chunk.isEmpty() && file.error() != QFileDevice::NoError)
            return makeError(EIO, QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
        if (call.cancel->load())
            return makeError(Interrupted, QStringLiteral("stopped"));
        if (!call.event(QStringLiteral("chunk"), {{QStringLiteral("data"), QString::fromLatin1(chunk.toBase64())}}))
            break;
        bytes += chunk.size();
    }
    return bytes;
}

/// {"op":"history_db"}: a consistent copy of this host's history database
/// (HistoryStore::copyTo) in "chunk" events, then {"bytes":N}; {"bytes":0,
/// "empty":true} when there is none yet.
QJsonObject opHistoryDb(AgentCall &call)
{
    QTemporaryDir scratch;
    if (!scratch.isValid())
        return agentError(makeError(EIO, QStringLiteral("cannot make a temporary directory: %1").arg(scratch.errorString())));
    const QString copy = scratch.filePath(QStringLiteral("history.sqlite"));
    if (Status copied = HistoryStore().copyTo(copy); !copied) {
        if (copied.error().code == NotFound)
            return {{QStringLiteral("bytes"), 0}, {QStringLiteral("empty"), true}};
        return agentError(copied.error());
    }
    auto bytes = sendChunks(call, copy);
    if (!bytes)
        return agentError(bytes.error());
    return {{QStringLiteral("bytes"), double(*bytes)}};
}

/// 'change' and 'file' of a udev_rules or preview_rules request; an
/// error names what is wrong (the file name itself is checked where it is
/// used, checkUdevRulesName()).
Result<RulesChange> rulesChangeFrom(const QJsonObject &request)
{
    const QJsonValue change = request.value(u"change");
    if (change != QJsonValue(QStringLiteral("install")) && change != QJsonValue(QStringLiteral("remove")))
        return invalid(QStringLiteral("'change' must be install or remove (got '%1')").arg(change.toString().left(32)));
    if (!request.value(u"file").isString())
        return invalid(QStringLiteral("'file' must be a rules file's name (NN-blocktune-NAME.rules)"));
    const QJsonValue content = request.value(u"content");
    if (!content.isUndefined() && !content.isString())
        return invalid(QStringLiteral("'content' must be the rules file's text"));
    return change.toString() == u"install" ? RulesChange::Install : RulesChange::Remove;
}

/// {"op":"udev_rules","change":"install"|"remove","file":NAME,"content":TEXT}:
/// a profile's udev rules installed at boot through this session's writer.
QJsonObject opUdevRules(AgentCall &call)
{
    auto change = rulesChangeFrom(call.request);
    if (!change)
        return agentError(change.error());
    auto done = call.session.changeUdevRules(*change, call.request.value(u"file").toString(),
                                             call.request.value(u"content").toString().toUtf8());
    if (!done)
        return agentError(done.error());
    return {{QStringLiteral("path"), done->path},
            {QStringLiteral("replaced"), done->replaced},
            {QStringLiteral("udevd_running"), done->udevdRunning},
            {QStringLiteral("commands"), QJsonArray::fromStringList(done->commands)},
            {QStringLiteral("message"), done->message}};
}

/// {"op":"preview_rules","change":"install"|"remove","file":NAME,
/// "content":TEXT}: what udev_rules would find, changing nothing
/// (previewUdevRules(): the same checks): {"path", "current": the file's
/// text now, or null}.
QJsonObject opPreviewRules(AgentCall &call)
{
    auto change = rulesChangeFrom(call.request);
    if (!change)
        return agentError(change.error());
    auto preview = previewUdevRules(call.session.root(), *change, call.request.value(u"file").toString(),
                                    call.request.value(u"content").toString().toUtf8());
    if (!preview)
        return agentError(preview.error());
    return {{QStringLiteral("path"), preview->path},
            {QStringLiteral("current"), preview->current ? QJsonValue(QString::fromUtf8(*preview->current)) : QJsonValue()}};
}

/// {"op":"installed_rules","profile":NAME}: the rules files `profile
/// install` wrote for NAME here ({"dir", "files": [file names]}).
QJsonObject opInstalledRules(AgentCall &call)
{
    const QJsonValue name = call.request.value(u"profile");
    if (!name.isString() || !isValidProfileName(name.toString()))
        return agentError(invalid(QStringLiteral("'profile' must be a profile name (letters, digits, _ . -), got '%1'")
                                      .arg(name.toString().left(64))));
    const SysRoot &root = call.session.root();
    return {{QStringLiteral("dir"), QString(root.root() + QStringLiteral("/etc/udev/rules.d"))},
            {QStringLiteral("files"), QJsonArray::fromStringList(installedUdevRules(root, name.toString()))}};
}

/// {"op":"snapshot"}: recordSnapshotTarball() of this host, sent as
/// "chunk" events ({"data": base64, at most kSnapshotChunk bytes each}),
/// then the answer {"bytes", "devices", "files", "links", "skipped"}.
QJsonObject opSnapshot(AgentCall &call)
{
    QTemporaryDir scratch;
    if (!scratch.isValid())
        return agentError(makeError(EIO, QStringLiteral("cannot make a temporary directory: %1").arg(scratch.errorString())));
    const QString tarball = scratch.filePath(QStringLiteral("snapshot.tar.gz"));
    auto report = recordSnapshotTarball(call.session.root(), tarball);
    if (!report)
        return agentError(report.error());
    auto bytes = sendChunks(call, tarball);
    if (!bytes)
        return agentError(bytes.error());
    return {{QStringLiteral("bytes"), double(*bytes)},
            {QStringLiteral("devices"), report->devices},
            {QStringLiteral("files"), report->files},
            {QStringLiteral("links"), report->links},
            {QStringLiteral("skipped"), QJsonArray::fromStringList(report->skipped)}};
}

/// Op "mirror": at most so many names, and so many bytes of files (a
/// whole host goes through op "snapshot", a tarball).
constexpr qsizetype kMirrorMaxDevices = 256;
constexpr qint64 kMirrorMaxBytes = 64 * 1024 * 1024;

/// {"op":"mirror","devices":["sdb","/dev/md0"]}: what a snapshot holds of
/// those devices and every device they stack with (SnapshotOptions::
/// devices), with all of proc/, as files: {"files":{"sys/...":"text"},
/// "links":{...},"dirs":[...],"devices":N,"skipped":[...]}
/// (snapshotDirToJson()). The CLI's mirror of a host for a command that
/// names its devices: a few files, read from sys/ without a scan, instead of
/// a tarball of the whole host. A name the host has no device for records
/// nothing of it (the client's session says "no block device named ...").
QJsonObject opMirror(AgentCall &call)
{
    const QJsonValue devices = call.request.value(u"devices");
    if (!devices.isArray() || devices.toArray().isEmpty() || devices.toArray().size() > kMirrorMaxDevices)
        return agentError(makeError(InvalidArgument, QStringLiteral("'devices' is a list of 1 to %1 device names "
                                                                    "(the whole host: op snapshot)")
                                                         .arg(kMirrorMaxDevices)));
    QStringList names;
    for (const QJsonValue &v : devices.toArray()) {
        if (!v.isString() || v.toString().isEmpty())
            return agentError(makeError(InvalidArgument, QStringLiteral("'devices' holds something that is not a device name")));
        names << v.toString();
    }
    SnapshotOptions options;
    options.devices = names;
    auto files = recordSnapshotJson(call.session.root(), options, kMirrorMaxBytes);
    if (!files)
        return agentError(files.error());
    return *files;
}

/// {"op":"counters","devices":[...],"irqs":[...]}: one reading of the raw
/// counters a Sampler works from (a console's monitor samples a remote
/// host through these): /proc/diskstats as text, the watched devices'
/// inflight, the interrupt total and the asked lines.
QJsonObject opCounters(AgentCall &call)
{
    thread_local std::unique_ptr<ProcSource> source;
    thread_local QString sourceRoot;
    if (!source || sourceRoot != call.session.root().root()) {
        source = std::make_unique<ProcSource>(call.session.root());
        sourceRoot = call.session.root().root();
    }
    auto stats = source->diskStats();
    if (!stats)
        return agentError(stats.error());
    QJsonObject inflight;
    for (const QJsonValue &v : call.request.value(u"devices").toArray()) {
        const QString name = v.toString();
        if (name.isEmpty() || name.contains(u'/') || name.startsWith(u'.'))
            return agentError(invalid(QStringLiteral("'devices' holds '%1', which is not a kernel device name").arg(name.left(64))));
        if (const auto f = source->inFlight(name))
            inflight.insert(name, QJsonArray{double(f->reads), double(f->writes)});
    }
    QList<int> lines;
    for (const QJsonValue &v : call.request.value(u"irqs").toArray())
        lines << v.toInt(-1);
    const InterruptCounts irq = source->interrupts(lines);
    QJsonObject counts;
    for (auto it = irq.lines.cbegin(); it != irq.lines.cend(); ++it)
        counts.insert(QString::number(it.key()), double(it.value()));
    QJsonObject o{{QStringLiteral("diskstats"), QString::fromLatin1(*stats)},
                  {QStringLiteral("inflight"), inflight},
                  {QStringLiteral("irq_lines"), counts}};
    if (irq.total)
        o.insert(u"irq_total", double(*irq.total));
    return o;
}

/// {"op":"latency"}: the cumulative queue and device time histograms of
/// this host's block devices since the first such call, from the BPF
/// program (BlockLatencyProbe, loaded then, as root only; unloaded when the
/// agent ends), each device as blocktune-helper's latency ticks carry it
/// ({"totals":[{"dev":"8:16","read":{...},"write":{...}},...]}). A console's
/// monitor takes differences, as from the helper's stream.
QJsonObject opLatency(AgentCall &call)
{
    thread_local std::unique_ptr<BlockLatencyProbe> probe;
    if (!probe) {
        if (!call.session.root().isLive())
            return agentError(makeError(Refused, QStringLiteral("latency histograms measure the live machine, not "
                                                                "a recorded tree (--sysroot)")));
        if (::geteuid() != 0)
            return agentError(makeError(Refused, QStringLiteral(
                "latency histograms unavailable: the agent on this host is not root (connect as root; the "
                "BPF program needs it)")));
        auto loaded = BlockLatencyProbe::load();
        if (!loaded)
            return agentError(loaded.error());
        probe = std::move(*loaded);
    }
    auto totals = probe->totals();
    if (!totals)
        return agentError(totals.error());
    QJsonArray out;
    for (auto it = totals->cbegin(); it != totals->cend(); ++it)
        out.append(latencyTotalsToJson(it.key(), it.value()));
    return {{QStringLiteral("totals"), out}};
}

/// {"op":"readahead","action":"start"|"snapshot"|"stop"}: this host's
/// readahead probe (core/readahead), loaded by the first "start" (as root
/// only) and unloaded by the "stop" of the last reader that started it, or
/// when the agent ends: nothing stays loaded while nobody watches. "start"
/// and "snapshot" answer {"snapshot": the probe's cumulative counters
/// (readaheadSnapshotToJson), "coverage": what it sees on this kernel};
/// "stop" answers {"loaded": whether other readers keep it}. No other field.
QJsonObject opReadahead(AgentCall &call)
{
    thread_local std::unique_ptr<ReadaheadProbe> probe;
    thread_local int readers = 0;
    for (auto it = call.request.begin(); it != call.request.end(); ++it)
        if (it.key() != u"op" && it.key() != u"id" && it.key() != u"action")
            return agentError(invalid(QStringLiteral("'readahead' takes 'action', nothing else (got '%1')")
                                          .arg(it.key().left(64))));
    const QJsonValue action = call.request.value(u"action");
    const QStringList actions{QStringLiteral("start"), QStringLiteral("snapshot"), QStringLiteral("stop")};
    if (!action.isString() || !actions.contains(action.toString()))
        return agentError(invalid(QStringLiteral("'action' must be one of %1").arg(actions.join(u", "))));
    if (action.toString() == u"stop") {
        readers = std::max(0, readers - 1);
        if (readers == 0)
            probe.reset();
        return {{QStringLiteral("loaded"), bool(probe)}};
    }
    if (action.toString() == u"start" && !probe) {
        if (!call.session.root().isLive())
            return agentError(makeError(Refused, QStringLiteral("readahead is watched on the live machine, not a "
                                                                "recorded tree (--sysroot): nothing was loaded")));
        if (::geteuid() != 0)
            return agentError(makeError(Refused, QStringLiteral(
                "readahead cannot be observed: the agent on this host runs as %1, not root, and the probe's BPF "
                "program needs root (connect as root)").arg(agentUserName())));
        auto loaded = ReadaheadProbe::load();
        if (!loaded)
            return agentError(loaded.error());
        probe = std::move(*loaded);
    }
    if (!probe)
        return agentError(makeError(Refused, QStringLiteral("the readahead probe is not loaded: 'start' it first")));
    auto snapshot = probe->snapshot();
    if (!snapshot) {
        if (readers == 0)
            probe.reset(); // a start that failed leaves nothing loaded
        return agentError(snapshot.error());
    }
    if (action.toString() == u"start")
        ++readers;
    return {{QStringLiteral("snapshot"), readaheadSnapshotToJson(*snapshot)},
            {QStringLiteral("coverage"), readaheadCoverageToJson(probe->coverage())}};
}

/// {"op":"profiles"}: this host's profiles (the agent user's folder, the
/// machine's, the presets: what `profile list` shows there) as
/// {"profiles":[{"name","origin","path","description","error","shadows"}],
/// "user_dir","system_dir","digest"}; with "digest_only": true only the
/// digest, which a console polls to follow the folders.
QJsonObject opProfiles(AgentCall &call)
{
    const ProfileStore store = ProfileStore::standard(call.session.root());
    QJsonObject o{{QStringLiteral("digest"), QString::fromLatin1(profileFolderDigest(store))}};
    if (call.request.value(u"digest_only").toBool())
        return o;
    QJsonArray list;
    for (const ProfileEntry &e : store.list())
        list.append(QJsonObject{{QStringLiteral("name"), e.name},
                                {QStringLiteral("origin"), profileOriginName(e.origin)},
                                {QStringLiteral("path"), e.path},
                                {QStringLiteral("description"), e.description},
                                {QStringLiteral("error"), e.error},
                                {QStringLiteral("shadows"), QJsonArray::fromStringList(e.shadows)}});
    o.insert(u"profiles", list);
    o.insert(u"user_dir", store.userDir());
    o.insert(u"system_dir", store.systemDir());
    return o;
}

/// {"op":"profile","name":NAME}: one of this host's profiles, as its file
/// reads ({"text": the JSON, "source": where it came from}).
QJsonObject opProfile(AgentCall &call)
{
    const QString name = call.request.value(u"name").toString();
    if (!isValidProfileName(name))
        return agentError(invalid(QStringLiteral("'name' must be a profile name (letters, digits, _ . -), got '%1'")
                                      .arg(name.left(64))));
    auto profile = ProfileStore::standard(call.session.root()).load(name);
    if (!profile)
        return agentError(profile.error());
    return {{QStringLiteral("text"), QString::fromUtf8(profileToJson(*profile))},
            {QStringLiteral("source"), profile->source}};
}

/// {"op":"save_profile","text":JSON,"overwrite":bool}: a profile (checked
/// as a file is) saved as the agent user's NAME.json here; {"path"}.
QJsonObject opSaveProfile(AgentCall &call)
{
    auto profile = parseProfile(call.request.value(u"text").toString().toUtf8(), QStringLiteral("save_profile"));
    if (!profile)
        return agentError(profile.error());
    const QString path = ProfileStore::standard(call.session.root()).userPath(profile->name);
    if (Status st = writeProfileFile(*profile, path, call.request.value(u"overwrite").toBool()); !st)
        return agentError(st.error());
    return {{QStringLiteral("path"), path}};
}

/// {"op":"block_devices"}: this host's block devices as a count and a
/// digest of their names and sysfs nodes, which a console polls to follow
/// the host's hotplug (core/remote/hostwatcher.h).
QJsonObject opBlockDevices(AgentCall &call)
{
    const BlockDeviceDigest d = blockDeviceDigest(call.session.root());
    return {{QStringLiteral("count"), d.count}, {QStringLiteral("digest"), QString::fromLatin1(d.digest)}};
}

QJsonObject opHistory(AgentCall &call)
{
    HistoryNotice notice;
    const auto records = HistoryStore().list(call.request.value(u"device").toString(),
                                             call.request.value(u"limit").toInt(0), &notice);
    if (!records)
        return agentError(records.error());
    QJsonObject o{{QStringLiteral("history"), historyToJson(*records)}};
    if (!notice.text.isEmpty())
        o.insert(u"notice", notice.text);
    return o;
}

/// {"op":"monitor","devices":[...],"interval_ms":100,"count":N}: a
/// "sample" event per tick (the `monitor --json` line as "sample"), until
/// `count` ticks (0: until stopped).
QJsonObject opMonitor(AgentCall &call)
{
    const int intervalMs = call.request.value(u"interval_ms").toInt(1000);
    const qint64 count = qint64(call.request.value(u"count").toDouble(0));
    if (intervalMs < 10 || intervalMs > 3600 * 1000)
        return agentError(invalid(QStringLiteral("'interval_ms' %1 is outside 10 to 3600000").arg(intervalMs)));
    if (count < 0)
        return agentError(invalid(QStringLiteral("'count' must be 0 (until stopped) or more")));
    auto model = call.session.rescan();
    if (!model)
        return agentError(model.error());
    QStringList devices;
    for (const QJsonValue &v : call.request.value(u"devices").toArray()) {
        const BlockDevice *d = (*model)->find(v.toString());
        if (!d)
            return agentError(makeError(NotFound, QStringLiteral("no block device '%1' on this host").arg(v.toString())));
        devices << d->name;
    }
    const SysRoot &root = call.session.root();
    Sampler sampler(std::make_unique<ProcSource>(root), std::make_unique<SteadyClock>());
    sampler.setWatched(devices);
    sampler.setTopology(buildTopology(root, **model));
    if (auto baseline = sampler.sample(); !baseline)
        return agentError(baseline.error());
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    QByteArray line;
    qint64 done = 0;
    while (count == 0 || done < count) {
        // Absolute deadlines: a slow tick does not shift the ones after it.
        const auto deadline = start + std::chrono::milliseconds(qint64(intervalMs) * (done + 1));
        while (!call.cancel->load() && Clock::now() < deadline)
            std::this_thread::sleep_for(std::min<Clock::duration>(deadline - Clock::now(), std::chrono::milliseconds(20)));
        if (call.cancel->load())
            break;
        auto sample = sampler.sample();
        if (!sample)
            return agentError(sample.error());
        if (!sample->appeared.isEmpty() || !sample->vanished.isEmpty())
            if (auto rescanned = call.session.rescan())
                sampler.setTopology(buildTopology(root, **rescanned));
        line.resize(0);
        appendSampleJson(*sample, line);
        if (line.endsWith('\n'))
            line.chop(1);
        if (!call.rawEvent(QStringLiteral("sample"), QStringLiteral("sample"), line))
            break;
        ++done;
    }
    return {{QStringLiteral("ticks"), double(done)}, {QStringLiteral("stopped"), call.cancel->load()}};
}

/// Progress and finished runs of a test as events (the console's read-test
/// view draws them as they come).
ReadTestObserver eventObserver(AgentCall &call)
{
    ReadTestObserver o;
    o.progress = [&call](int run, const QString &label, const QList<IntervalSample> &fresh, const QStringList &names) {
        QJsonArray samples;
        for (const IntervalSample &s : fresh)
            samples.append(intervalToExactJson(s));
        call.event(QStringLiteral("progress"), {{QStringLiteral("run"), run},
                                                {QStringLiteral("label"), label},
                                                {QStringLiteral("names"), QJsonArray::fromStringList(names)},
                                                {QStringLiteral("samples"), samples}});
    };
    o.runFinished = [&call](const RunResult &run) {
        call.event(QStringLiteral("run"), {{QStringLiteral("run"), runToExactJson(run)}});
    };
    return o;
}

/// The request's "source": who asked, kept as the history record's source
/// ("console" when not said, as clients before it; "cli"). Anything else
/// is refused: the history's sources are a fixed set.
Result<QString> historySourceOf(const QJsonObject &request)
{
    const QJsonValue v = request.value(u"source");
    if (v.isUndefined())
        return QStringLiteral("console");
    if (v == QJsonValue(QStringLiteral("console")) || v == QJsonValue(QStringLiteral("cli")))
        return v.toString();
    return makeError(InvalidArgument, QStringLiteral("'source' is \"console\" or \"cli\""));
}

/// Kept in this host's history, as `blocktune-cli test` keeps it.
void keepInHistory(QJsonObject &answer, const HistoryRecord &record)
{
    HistoryNotice notice;
    if (auto id = HistoryStore().add(record, &notice))
        answer.insert(u"history_id", double(*id));
    else
        answer.insert(u"history_error", id.error().message);
}

/// What op keep_advice takes of a record: its fields, typed and bounded.
Result<HistoryRecord> adviceRecordFrom(const QJsonObject &request)
{
    const auto refuse = [](const QString &why) {
        return Result<HistoryRecord>(makeError(InvalidArgument, QStringLiteral("keep_advice: %1").arg(why)));
    };
    auto source = historySourceOf(request);
    if (!source)
        return source.error();
    const QJsonValue v = request.value(u"record");
    if (!v.isObject())
        return refuse(QStringLiteral("'record' is an object"));
    const QJsonObject o = v.toObject();
    static const QStringList kFields{QStringLiteral("test"),     QStringLiteral("device"), QStringLiteral("description"),
                                     QStringLiteral("mb_per_s"), QStringLiteral("ok"),     QStringLiteral("settings"),
                                     QStringLiteral("metrics"),  QStringLiteral("result")};
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!kFields.contains(it.key()))
            return refuse(QStringLiteral("'record' has no field '%1' (fields: %2)").arg(it.key().left(64), kFields.join(u", ")));
    for (const char *text : {"test", "device", "description"})
        if (!o.value(QLatin1StringView(text)).isString() || o.value(QLatin1StringView(text)).toString().size() > 512)
            return refuse(QStringLiteral("'%1' is a string of at most 512 characters").arg(QLatin1StringView(text)));
    if (!SysRoot::isPlausibleKernelName(o.value(u"device").toString()))
        return refuse(QStringLiteral("'device' is a kernel name"));
    const double mb = o.value(u"mb_per_s").toDouble(-1);
    if (!o.value(u"mb_per_s").isDouble() || !std::isfinite(mb) || mb < 0)
        return refuse(QStringLiteral("'mb_per_s' is a number, 0 or more"));
    if (!o.value(u"ok").isBool())
        return refuse(QStringLiteral("'ok' is true or false"));
    for (const char *flat : {"settings", "metrics"}) {
        const QJsonValue f = o.value(QLatin1StringView(flat));
        if (!f.isObject() || f.toObject().size() > 1024)
            return refuse(QStringLiteral("'%1' is an object of at most 1024 names").arg(QLatin1StringView(flat)));
        for (const QJsonValue &x : f.toObject())
            if (!x.isDouble() && !(x.isString() && x.toString().size() <= 512))
                return refuse(QStringLiteral("'%1' holds numbers and short strings").arg(QLatin1StringView(flat)));
    }
    if (!o.value(u"result").isObject())
        return refuse(QStringLiteral("'result' is an object (advise --json)"));
    HistoryRecord r;
    r.recordedAt = QDateTime::currentDateTimeUtc();
    r.source = *source;
    r.kind = QStringLiteral("advice");
    r.test = o.value(u"test").toString();
    r.device = o.value(u"device").toString();
    r.kernel = QSysInfo::kernelVersion(); // the advice read here
    r.description = o.value(u"description").toString();
    r.mbPerSec = mb;
    r.ok = o.value(u"ok").toBool();
    r.settings = o.value(u"settings").toObject();
    r.metrics = o.value(u"metrics").toObject();
    r.result = o.value(u"result").toObject();
    r.figures = historyFigures(r.kind, r.result);
    return r;
}

/// {"op":"keep_advice","source":"cli","record":{"test","device",
/// "description","mb_per_s","ok","settings","metrics","result"}}: an advice
/// made by the client from this host's reads (its read tests ran here and
/// are kept already), kept in this host's history as a local advise keeps
/// it; the answer {"history_id"} (or "history_error").
QJsonObject opKeepAdvice(AgentCall &call)
{
    auto record = adviceRecordFrom(call.request);
    if (!record)
        return agentError(record.error());
    QJsonObject answer;
    keepInHistory(answer, *record);
    return answer;
}

/// {"op":"readtest","spec":{...}}: the test prepared and run here, with
/// "progress" and "run" events; the answer {"result":{...}}
/// (readTestToExactJson(): the names of `test --json`, unrounded).
QJsonObject opReadTest(AgentCall &call)
{
    auto source = historySourceOf(call.request);
    if (!source)
        return agentError(source.error());
    auto spec = readTestSpecFromJson(call.request.value(u"spec"));
    if (!spec)
        return agentError(spec.error());
    auto model = call.session.rescan();
    if (!model)
        return agentError(model.error());
    auto test = ReadTest::prepare(call.session.root(), **model, *spec);
    if (!test)
        return agentError(test.error());
    const ReadTestResult result = test->run(eventObserver(call), call.cancel);
    QJsonObject answer{{QStringLiteral("ok"), !result.failed}, {QStringLiteral("result"), readTestToExactJson(result)}};
    if (result.failed)
        answer.insert(u"error", result.errors.join(u"; "));
    if (!result.failed && !result.cancelled)
        keepInHistory(answer, historyRecord(result, *source,
                                            describeReadTest(*test, QStringLiteral("test %1 %2")
                                                                        .arg(readTestKindName(spec->kind), test->primaryDevice()))
                                                .trimmed()));
    return answer;
}

/// {"op":"sweep","device":"sdb","read_ahead_kb":[...],"spec":{...}}: a
/// readahead sweep in this session (restored at its end, or by the agent
/// when the connection goes), with "point_started", "point", "progress"
/// and "run" events; the answer {"sweep":{...}} (sweepToExactJson()).
QJsonObject opSweep(AgentCall &call)
{
    auto source = historySourceOf(call.request);
    if (!source)
        return agentError(source.error());
    auto spec = readTestSpecFromJson(call.request.value(u"spec"));
    if (!spec)
        return agentError(spec.error());
    QList<quint64> values;
    for (const QJsonValue &v : call.request.value(u"read_ahead_kb").toArray())
        values << quint64(v.toDouble());
    auto model = call.session.rescan();
    if (!model)
        return agentError(model.error());
    auto sweep = ReadaheadSweep::prepare(call.session.root(), **model,
                                         SweepSpec{call.request.value(u"device").toString(), values, *spec});
    if (!sweep)
        return agentError(sweep.error());
    SweepObserver observer;
    observer.test = eventObserver(call);
    observer.pointStarted = [&call](int index, quint64 kib) {
        call.event(QStringLiteral("point_started"),
                   {{QStringLiteral("index"), index}, {QStringLiteral("read_ahead_kb"), double(kib)}});
    };
    observer.pointFinished = [&call](const SweepPoint &point) {
        call.event(QStringLiteral("point"), {{QStringLiteral("point"), sweepPointToExactJson(point)}});
    };
    const SweepResult result = sweep->run(call.session, observer, call.cancel);
    QJsonObject answer{{QStringLiteral("ok"), !result.failed}, {QStringLiteral("sweep"), sweepToExactJson(result)}};
    if (result.failed)
        answer.insert(u"error", result.errors.join(u"; "));
    insertCounts(answer, call.session);
    if (!result.failed && !result.cancelled && !result.points.isEmpty())
        keepInHistory(answer, historyRecord(result, *source,
                                            describeReadTest(sweep->test(), QStringLiteral("sweep read_ahead_kb of %1, test %2")
                                                                                .arg(sweep->queueDevice(), readTestKindName(spec->kind)))
                                                .trimmed()));
    return answer;
}

} // namespace

namespace {

QString agentEndPath()
{
    auto dir = journalDirectory();
    return dir ? *dir + QStringLiteral("/agent-ended-%1.json").arg(::geteuid()) : QString();
}

} // namespace

void recordAgentEnd(const AgentServer::Outcome &outcome)
{
    const QString path = agentEndPath();
    if (path.isEmpty() || outcome.restored.items.isEmpty())
        return;
    int restored = 0;
    int failed = 0;
    for (const RestoreItem &item : outcome.restored.items)
        (item.status == RestoreStatus::Failed ? failed : restored) += 1;
    const QString why = outcome.signal ? TerminationSignals::name(outcome.signal)
                        : outcome.outputLost ? QStringLiteral("the connection was lost")
                                             : QStringLiteral("the connection ended");
    const QJsonObject o{{QStringLiteral("when"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
                        {QStringLiteral("why"), why},
                        {QStringLiteral("restored"), restored},
                        {QStringLiteral("failed"), failed},
                        {QStringLiteral("messages"), QJsonArray::fromStringList(outcome.restored.messages)}};
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject takePreviousAgentEnd()
{
    const QString path = agentEndPath();
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject o = QJsonDocument::fromJson(file.read(64 * 1024)).object();
    file.close();
    file.remove();
    return o;
}

AgentServer::AgentServer(TuningSession &session, QJsonObject hello) : m_session(session), m_hello(std::move(hello))
{
    addOp(QStringLiteral("settings"), &opSettings);
    addOp(QStringLiteral("plan"), &opPlan);
    addOp(QStringLiteral("apply"), [](AgentCall &c) { return opApply(c, false); });
    addOp(QStringLiteral("apply_temporary"), [](AgentCall &c) { return opApply(c, true); });
    addOp(QStringLiteral("restore_temporary"), &opRestoreTemporary);
    addOp(QStringLiteral("keep_temporary"), &opKeepTemporary);
    addOp(QStringLiteral("revert_all"), &opRevertAll);
    addOp(QStringLiteral("revert_profile"), &opRevertProfile);
    addOp(QStringLiteral("applied_state"), &opAppliedState);
    addOp(QStringLiteral("dead_journals"), &opDeadJournals);
    addOp(QStringLiteral("restore_journal"), &opRestoreJournal);
    addOp(QStringLiteral("snapshot"), &opSnapshot);
    addOp(QStringLiteral("mirror"), &opMirror);
    addOp(QStringLiteral("keep_advice"), &opKeepAdvice);
    addOp(QStringLiteral("journals"), &opJournals);
    addOp(QStringLiteral("counters"), &opCounters);
    addOp(QStringLiteral("latency"), &opLatency);
    addOp(QStringLiteral("readahead"), &opReadahead);
    addOp(QStringLiteral("block_devices"), &opBlockDevices);
    addOp(QStringLiteral("profiles"), &opProfiles);
    addOp(QStringLiteral("profile"), &opProfile);
    addOp(QStringLiteral("save_profile"), &opSaveProfile);
    addOp(QStringLiteral("readtest"), &opReadTest);
    addOp(QStringLiteral("history_db"), &opHistoryDb);
    addOp(QStringLiteral("udev_rules"), &opUdevRules);
    addOp(QStringLiteral("preview_rules"), &opPreviewRules);
    addOp(QStringLiteral("installed_rules"), &opInstalledRules);
    addOp(QStringLiteral("sweep"), &opSweep);
    addOp(QStringLiteral("history"), &opHistory);
    addOp(QStringLiteral("monitor"), &opMonitor);
}

AgentServer::~AgentServer() = default;

void AgentServer::addOp(const QString &name, AgentHandler handler)
{
    m_ops[name] = std::move(handler);
}

QStringList AgentServer::ops() const
{
    QStringList names{QStringLiteral("hello"), QStringLiteral("stop")};
    for (const auto &[name, handler] : m_ops)
        names << name;
    return names;
}

bool AgentServer::writeLine(QByteArrayView line)
{
    const std::lock_guard lock(m_writeMutex);
    if (m_outputLost.load())
        return false;
    qsizetype done = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(m_outFd, line.data() + done, size_t(line.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            // EPIPE: the reader (ssh) is gone. Stop what runs; serve() restores.
            m_outputLost.store(true);
            m_cancel.store(true);
            return false;
        }
        done += n;
    }
    return true;
}

void AgentServer::answer(const QJsonObject &request, QJsonObject body)
{
    if (!body.contains(u"ok"))
        body.insert(u"ok", true);
    if (request.contains(u"id"))
        body.insert(u"id", request.value(u"id"));
    body.insert(u"op", request.value(u"op"));
    writeLine(jsonLine(body));
}

QJsonObject AgentServer::handleHello(const QJsonObject &request)
{
    const QJsonValue version = request.value(u"version");
    if (!version.isDouble())
        return agentError(invalid(QStringLiteral("hello needs the client's protocol 'version' (this agent speaks %1)")
                                      .arg(kAgentProtocolVersion)));
    QJsonObject o = m_hello;
    o.insert(u"program", kAgentProgram);
    o.insert(u"version", kAgentProtocolVersion);
    if (version.toInt() != kAgentProtocolVersion) {
        const QJsonObject refused = agentError(makeError(
            NotSupported, protocolMismatchMessage(kAgentProtocolVersion, version.toInt(), m_hello.value(u"host").toString())));
        for (auto it = refused.begin(); it != refused.end(); ++it)
            o.insert(it.key(), it.value());
        o.insert(u"code", QStringLiteral("version"));
        return o;
    }
    m_greeted = true;
    QJsonArray ops;
    for (const QString &name : this->ops())
        ops.append(name);
    o.insert(u"ops", ops);
    return o;
}

void AgentServer::runQueue()
{
    for (;;) {
        QJsonObject request;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_shutdown || !m_queue.empty(); });
            if (m_shutdown)
                return;
            request = std::move(m_queue.front());
            m_queue.pop_front();
            m_runningId = request.value(u"id");
            m_running = true;
            m_cancel.store(false);
        }
        const QString op = request.value(u"op").toString();
        const QJsonValue id = request.value(u"id");
        AgentCall call{request, m_session, &m_cancel, {}, {}};
        call.event = [this, id](const QString &name, const QJsonObject &body) {
            QJsonObject e = body;
            e.insert(u"id", id);
            e.insert(u"event", name);
            return writeLine(jsonLine(e));
        };
        call.rawEvent = [this, id](const QString &name, const QString &key, QByteArrayView json) {
            QJsonObject head{{QStringLiteral("id"), id}, {QStringLiteral("event"), name}};
            QByteArray line = QJsonDocument(head).toJson(QJsonDocument::Compact);
            line.chop(1); // the closing brace: the raw member goes in before it
            line += ",\"" + key.toUtf8() + "\":";
            line += json;
            line += "}\n";
            return writeLine(line);
        };
        QJsonObject body = m_ops.at(op)(call);
        {
            const std::lock_guard lock(m_mutex);
            m_running = false;
            m_runningId = QJsonValue();
        }
        answer(request, std::move(body));
    }
}

void AgentServer::refuse(const QJsonObject &request, const Error &error)
{
    answer(request, agentError(error));
}

/// One request line: refused, answered at once (hello, stop) or queued.
void AgentServer::handleLine(const JsonLineReader::Line &line)
{
    if (line.overlong) {
        refuse({}, invalid(QStringLiteral("request longer than %1 bytes refused").arg(kAgentMaxRequest)));
        return;
    }
    if (line.text.trimmed().isEmpty())
        return;
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(line.text, &parseError);
    if (!doc.isObject()) {
        refuse({}, invalid(QStringLiteral("request is not a JSON object (expected e.g. "
                                          "{\"op\":\"hello\",\"id\":1,\"version\":%1})")
                               .arg(kAgentProtocolVersion)));
        return;
    }
    // QJsonDocument keeps the last of two equal keys, anywhere in the
    // request (a plan's entries too): refused, as the helper refuses it.
    if (const auto key = duplicateJsonKey(line.text)) {
        refuse({}, invalid(QStringLiteral("field '%1' appears twice in one object of the request (each field once)")
                               .arg(key->left(64))));
        return;
    }
    const QJsonObject request = doc.object();
    const QJsonValue id = request.value(u"id");
    if (!id.isUndefined() && !id.isDouble() && !(id.isString() && id.toString().size() <= 64)) {
        refuse({}, invalid(QStringLiteral("field 'id' must be a number or a short string")));
        return;
    }
    const QString op = request.value(u"op").toString();
    if (op == u"hello") {
        answer(request, handleHello(request));
        return;
    }
    if (!m_greeted) {
        refuse(request, makeError(Refused, QStringLiteral("send {\"op\":\"hello\",\"version\":%1} first")
                                               .arg(kAgentProtocolVersion)));
        return;
    }
    if (op == u"stop") {
        handleStop(request);
        return;
    }
    if (op == u"run") {
        // Protocol 3 ran a whole blocktune-cli command line here; a client
        // of this protocol never sends it.
        refuse(request, makeError(NotSupported, QStringLiteral("op 'run' is gone since protocol 4: this agent runs no "
                                                               "command lines; blocktune-cli --host runs each command "
                                                               "on the client through these ops: %1")
                                                    .arg(ops().join(u", "))));
        return;
    }
    if (!m_ops.count(op)) {
        refuse(request, invalid(QStringLiteral("unknown op '%1' (ops: %2)").arg(op.left(64), ops().join(u", "))));
        return;
    }
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back(request);
    }
    m_wake.notify_one();
}

/// Stops the op with that id: the running one at its next block, a queued
/// one before it starts.
void AgentServer::handleStop(const QJsonObject &request)
{
    const QJsonValue target = request.value(u"target");
    bool stopped = false;
    std::optional<QJsonObject> dropped;
    {
        const std::lock_guard lock(m_mutex);
        if (m_running && m_runningId == target) {
            m_cancel.store(true);
            stopped = true;
        } else {
            for (auto it = m_queue.begin(); it != m_queue.end(); ++it)
                if (it->value(u"id") == target) {
                    dropped = *it;
                    m_queue.erase(it);
                    stopped = true;
                    break;
                }
        }
    }
    if (dropped)
        refuse(*dropped, makeError(Interrupted, QStringLiteral("stopped before it started")));
    answer(request, {{QStringLiteral("stopped"), stopped}});
}

AgentServer::Outcome AgentServer::serve(int inFd, int outFd)
{
    m_outFd = outFd;
    Outcome outcome;
    JsonLineReader reader(kAgentMaxRequest);
    std::thread worker([this] { runQueue(); });

    char chunk[16384];
    for (;;) {
        if ((outcome.signal = TerminationSignals::pending()) != 0 || m_outputLost.load())
            break;
        pollfd fds[2] = {{inFd, POLLIN, 0}, {TerminationSignals::fd(), POLLIN, 0}};
        const int ready = ::poll(fds, fds[1].fd >= 0 ? 2 : 1, 200);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0 || !(fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        const ssize_t n = ::read(inFd, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0) {
            outcome.inputEnded = true;
            if (auto last = reader.finish())
                handleLine(*last);
            break;
        }
        reader.append(QByteArrayView(chunk, n));
        while (auto line = reader.next())
            handleLine(*line);
    }

    // The client is gone (or asked us to end): stop the op that runs, skip
    // the queued ones, and put back what this session holds temporarily.
    // A request queued right before EOF is not run: nobody reads its answer.
    {
        const std::lock_guard lock(m_mutex);
        m_shutdown = true;
        m_queue.clear();
        m_cancel.store(true);
    }
    m_wake.notify_all();
    worker.join();
    outcome.outputLost = m_outputLost.load();
    outcome.restored = m_session.restoreTemporary();
    return outcome;
}

} // namespace blocktune
