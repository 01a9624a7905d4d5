// Applying a profile as one change set, and remembering what it replaced so
// `profile revert` can bring it back from another process.
#include "profiles.h"
#include "profiles_p.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace blocktune {

namespace {

// The state file is in the journal's documented format (README "Journal"),
// so restoreJournal() can settle it and rewrite what is left; it is not
// named blocktune-*.json, so `blocktune-cli restore` never takes it for a
// dead session's journal.
constexpr int kJournalFormat = 1;

// Journals name a recorded tree by its canonical path (as core/tuning does).
QString rootKey(const SysRoot &root)
{
    if (root.isLive())
        return {};
    const QString canonical = QFileInfo(root.root()).canonicalFilePath();
    return canonical.isEmpty() ? root.root() : canonical;
}

QString bootId()
{
    const SysRoot live; // the state describes the live kernel's boot
    return live.readString(live.procPath("sys/kernel/random/boot_id")).valueOr(QString()).trimmed();
}

Result<QString> statePath(const SysRoot &root)
{
    auto dir = journalDirectory();
    if (!dir)
        return dir.error();
    if (root.isLive())
        return QString(*dir + QStringLiteral("/profile-state.json"));
    const QByteArray hash = QCryptographicHash::hash(rootKey(root).toUtf8(), QCryptographicHash::Sha1).toHex();
    return QString(*dir + QStringLiteral("/profile-state-") + QString::fromLatin1(hash.left(12)) + QStringLiteral(".json"));
}

// Root writes these values back: the folder must be this user's alone.
Status ensurePrivateFolder(const QString &path)
{
    const QByteArray p = QFile::encodeName(path);
    if (::mkdir(p.constData(), 0700) != 0 && errno != EEXIST)
        return makeError(errno, QStringLiteral("cannot create %1: %2").arg(path, errnoText(errno)));
    struct stat st {};
    if (::lstat(p.constData(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 0022))
        return makeError(Refused, QStringLiteral("%1 is not a private folder of this user (a folder, owned by uid %2, "
                                                 "not group or world writable): the before-state is not kept there")
                                      .arg(path).arg(::geteuid()));
    return {};
}

QJsonObject stateToJson(const AppliedState &s)
{
    QJsonArray entries;
    for (const JournalEntry &e : s.journal.entries) {
        QJsonObject o;
        o.insert(u"device", e.device);
        if (!e.device.isEmpty())
            o.insert(u"dev", QStringLiteral("%1:%2").arg(e.major).arg(e.minor));
        if (!e.diskseq.isEmpty())
            o.insert(u"diskseq", e.diskseq);
        o.insert(u"attribute", e.attribute);
        o.insert(u"original", e.original);
        if (!e.scheduler.isEmpty())
            o.insert(u"scheduler", e.scheduler);
        entries.append(o);
    }
    QJsonObject o;
    o.insert(u"blocktune_journal", kJournalFormat);
    o.insert(u"pid", double(s.journal.pid));
    o.insert(u"pid_start", QStringLiteral("0"));
    o.insert(u"mode", QStringLiteral("persistent"));
    o.insert(u"root", s.journal.root);
    o.insert(u"boot_id", s.journal.bootId);
    o.insert(u"created", s.created);
    o.insert(u"profiles", QJsonArray::fromStringList(s.profiles));
    o.insert(u"entries", entries);
    return o;
}

Result<AppliedState> stateFromJson(const QByteArray &data, const QString &path)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(data, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(InvalidArgument, QStringLiteral("%1 is not readable (%2): look at it, then remove it")
                                              .arg(path, err.errorString()));
    const QJsonObject o = doc.object();
    if (o.value(u"blocktune_journal").toInt() != kJournalFormat)
        return makeError(InvalidArgument, QStringLiteral("%1 is not in the journal format %2").arg(path).arg(kJournalFormat));
    AppliedState s;
    s.path = path;
    s.created = o.value(u"created").toString();
    for (const QJsonValue &v : o.value(u"profiles").toArray())
        s.profiles << v.toString();
    s.journal.path = path;
    s.journal.pid = qint64(o.value(u"pid").toDouble());
    s.journal.mode = JournalMode::Persistent;
    s.journal.root = o.value(u"root").toString();
    s.journal.bootId = o.value(u"boot_id").toString();
    s.journal.created = s.created;
    for (const QJsonValue &v : o.value(u"entries").toArray()) {
        const QJsonObject e = v.toObject();
        JournalEntry j;
        j.device = e.value(u"device").toString();
        const QString dev = e.value(u"dev").toString();
        j.major = dev.section(u':', 0, 0).toInt();
        j.minor = dev.section(u':', 1, 1).toInt();
        j.diskseq = e.value(u"diskseq").toString();
        j.attribute = e.value(u"attribute").toString();
        j.original = e.value(u"original").toString();
        j.scheduler = e.value(u"scheduler").toString();
        if (j.attribute.isEmpty())
            return makeError(InvalidArgument, QStringLiteral("%1: an entry names no attribute").arg(path));
        s.journal.entries << j;
    }
    return s;
}

Status writeState(const AppliedState &s)
{
    if (Status st = ensurePrivateFolder(QFileInfo(s.path).absolutePath()); !st)
        return st;
    return detail::writeFileAtomically(s.path, QJsonDocument(stateToJson(s)).toJson(QJsonDocument::Indented), true,
                                       true);
}

} // namespace

Result<std::optional<AppliedState>> readAppliedState(const SysRoot &root)
{
    auto path = statePath(root);
    if (!path)
        return path.error();
    QFile f(*path);
    if (!f.exists())
        return std::optional<AppliedState>();
    if (!f.open(QIODevice::ReadOnly))
        return makeError(errno, QStringLiteral("cannot read %1: %2").arg(*path, f.errorString()));
    auto state = stateFromJson(f.read(1 << 20), *path);
    if (!state)
        return state.error();
    if (state->journal.root != rootKey(root))
        return makeError(Refused, QStringLiteral("%1 was written for %2, not this root: left alone")
                                      .arg(*path, state->journal.root.isEmpty() ? QStringLiteral("the live machine")
                                                                                : state->journal.root));
    return std::optional<AppliedState>(*state);
}

ProfileApplyReport applyProfile(const Profile &profile, TuningSession &session)
{
    const SysRoot &root = session.root();
    ProfileApplyReport out;
    out.preview = previewProfile(profile, session);
    out.report.plan = out.preview.plan;
    if (!out.preview.ok()) {
        out.report.error = out.preview.errors.constFirst();
        return out;
    }
    if (!session.readOnlyReason().isEmpty()) {
        out.report.error = makeError(Refused, session.readOnlyReason());
        return out;
    }
    if (out.preview.plan.writes.isEmpty()) {
        out.messages << QStringLiteral("nothing to change: every device already is as %1 says").arg(profile.name);
        return out;
    }

    // The before-state goes to disk before the first write, merged with what
    // an earlier apply remembered (the first original of each attribute wins).
    auto path = statePath(root);
    auto existing = readAppliedState(root);
    if (!path || !existing) {
        out.report.error = path ? existing.error() : path.error();
        return out;
    }
    const std::optional<AppliedState> before = *existing;
    AppliedState state;
    if (before) {
        state = *before;
    } else {
        state.path = *path;
        state.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        state.journal.root = rootKey(root);
        state.journal.bootId = bootId();
        state.journal.mode = JournalMode::Persistent;
    }
    state.journal.pid = ::getpid();
    for (const JournalEntry &e : std::as_const(out.preview.plan.originals)) {
        const bool known = std::any_of(state.journal.entries.cbegin(), state.journal.entries.cend(),
                                       [&](const JournalEntry &x) {
                                           return x.device == e.device && x.attribute == e.attribute
                                                  && x.scheduler == e.scheduler;
                                       });
        if (!known)
            state.journal.entries << e;
    }
    state.profiles.removeAll(profile.name);
    state.profiles << profile.name;
    if (Status st = writeState(state); !st) {
        out.report.error = makeError(st.error().code, st.error().message + QStringLiteral("; nothing was changed"));
        return out;
    }
    out.statePath = state.path;

    // The plan the preview showed is the plan written (the session's one road).
    out.report = session.apply(out.preview.plan);
    const bool stayed = std::any_of(out.report.outcomes.cbegin(), out.report.outcomes.cend(),
                                    [](const SettingOutcome &o) { return o.status == SettingStatus::Applied; });
    if (!out.report.ok() && !stayed && (!out.report.rollback || out.report.rollback->ok())) {
        // Nothing stayed (rolled back, or refused before a write): what was
        // remembered before this apply is still right.
        const Status st = before ? writeState(*before)
                                 : (QFile::remove(state.path) ? Status() : makeError(Refused, state.path));
        if (!st)
            out.messages << QStringLiteral("could not put %1 back as it was: %2").arg(state.path, st.error().message);
        out.statePath = before ? before->path : QString();
    }
    return out;
}

ProfileRevertReport revertProfile(TuningSession &session)
{
    const SysRoot &root = session.root();
    ProfileRevertReport out;
    auto state = readAppliedState(root);
    if (!state) {
        out.restore.items << RestoreItem{{}, RestoreStatus::Failed, {}, {}, state.error().message};
        out.restore.messages << state.error().message;
        return out;
    }
    if (!*state) {
        auto path = statePath(root);
        out.restore.messages << QStringLiteral("no profile was applied here since the last revert or reboot "
                                               "(nothing remembered in %1)")
                                    .arg(path ? *path : QStringLiteral("the journal folder"));
        return out;
    }
    out.state = **state;
    // Settles the entries on the devices they were taken from, then removes
    // the file, or keeps what could not be restored for another try.
    out.restore = session.restoreJournal(out.state->journal);
    return out;
}

} // namespace blocktune
