// The journal of original values, and restoring from it.
//
// A journal is one JSON file per transaction (persistent changes) or per
// Tuner session (temporary changes), written before the first change with
// the values to bring back. It names the process that owns it, so
// `restore` never undoes a live session's changes behind its back, and each
// device's identity, so it never writes onto a device that took the name.
#include "tuning.h"
#include "tuning_p.h"

#include "common/safeopen.h"
#include "common/tr.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blocktune {

namespace {

QString modeName(JournalMode mode)
{
    return mode == JournalMode::Temporary ? QStringLiteral("temporary") : QStringLiteral("persistent");
}

Status fsyncDirectory(const QByteArray &dir)
{
    const int fd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return makeError(errno, QStringLiteral("cannot open %1: %2").arg(QString::fromLocal8Bit(dir), errnoText(errno)));
    ::fsync(fd);
    ::close(fd);
    return {};
}

// The temporary names writeJournal() uses: blocktune-PID-N.json.tmp for a
// journal, profile-state[-HASH].json.PID.tmp for the applied state. A
// kill -9 between create and rename leaves one behind.
qint64 pidOfTemporary(const QString &name)
{
    static const QRegularExpression journalTemp(QStringLiteral("^blocktune-([0-9]{1,7})-[0-9]{1,9}\\.json\\.tmp$"));
    static const QRegularExpression stateTemp(
        QStringLiteral("^profile-state(-[0-9a-f]{12})?\\.json\\.([0-9]{1,7})\\.tmp$"));
    if (const auto m = journalTemp.match(name); m.hasMatch())
        return m.captured(1).toLongLong();
    if (const auto m = stateTemp.match(name); m.hasMatch())
        return m.captured(2).toLongLong();
    return 0;
}

QString bootId()
{
    // Journals describe the live kernel's state: read the live /proc.
    const SysRoot live;
    return live.readString(live.procPath("sys/kernel/random/boot_id")).valueOr(QString()).trimmed();
}

// One entry, every field checked for its type: a journal is written by
// blocktune, so anything else in it is damage (or a hand edit), and it
// names values root will write back.
Result<JournalEntry> entryFromJson(const QJsonValue &v, qsizetype index)
{
    const QString where = QStringLiteral("entry %1").arg(index + 1);
    if (!v.isObject())
        return makeError(InvalidArgument, where + QStringLiteral(" is not an object"));
    const QJsonObject o = v.toObject();
    for (const char16_t *name : {u"device", u"dev", u"diskseq", u"attribute", u"original", u"scheduler"}) {
        const QJsonValue field = o.value(QStringView(name));
        if (!field.isUndefined() && !field.isString())
            return makeError(InvalidArgument, QStringLiteral("%1: '%2' is not a string").arg(where, QStringView(name)));
    }
    for (const char16_t *name : {u"device", u"attribute", u"original"})
        if (!o.contains(QStringView(name)))
            return makeError(InvalidArgument, QStringLiteral("%1 has no '%2'").arg(where, QStringView(name)));
    JournalEntry e;
    e.device = o.value(u"device").toString();
    if (o.contains(u"dev")) {
        const QString dev = o.value(u"dev").toString();
        bool majorOk = false, minorOk = false;
        e.major = dev.section(u':', 0, 0).toInt(&majorOk);
        e.minor = dev.section(u':', 1).toInt(&minorOk);
        if (!majorOk || !minorOk || e.major < 0 || e.minor < 0)
            return makeError(InvalidArgument, QStringLiteral("%1: dev '%2' is not MAJOR:MINOR").arg(where, dev.left(32)));
    }
    e.diskseq = o.value(u"diskseq").toString();
    e.attribute = o.value(u"attribute").toString();
    e.original = o.value(u"original").toString();
    e.scheduler = o.value(u"scheduler").toString();
    if (Status st = detail::checkJournalEntry(e); !st)
        return makeError(InvalidArgument, QStringLiteral("%1: %2").arg(where, st.error().message));
    return e;
}

RestoreItem restoreOne(const SysRoot &root, AttributeWriter &writer, const JournalEntry &e)
{
    RestoreItem item;
    item.entry = e;
    const QString where = e.device.isEmpty() ? TuningText::tr("this machine") : e.device;
    if (e.attribute.startsWith(attribute::IoschedPrefix)) {
        const QString active = detail::readAttribute(root, e.device, QString(attribute::Scheduler)).valueOr(QString());
        if (active != e.scheduler) {
            item.status = RestoreStatus::Discarded;
            item.message = TuningText::tr("%1 belonged to %2, which is no longer active on %3 (now %4): it went with it")
                               .arg(e.attribute, e.scheduler, where, active);
            return item;
        }
    }
    auto found = detail::readAttribute(root, e.device, e.attribute);
    if (!found) {
        item.status = RestoreStatus::Failed;
        item.message = found.error().message;
        return item;
    }
    item.found = *found;
    if (*found == e.original) {
        item.status = RestoreStatus::AlreadyOriginal;
        item.kept = *found;
        return item;
    }
    auto written = writer.write(AttributeWrite{e.device, e.attribute, e.original});
    if (!written) {
        item.status = RestoreStatus::Failed;
        item.message = TuningText::tr("writing %1=%2 back to %3 failed: %4")
                           .arg(e.attribute, e.original, where, written.error().message);
        return item;
    }
    item.kept = written->kept;
    if (written->kept == e.original) {
        item.status = RestoreStatus::Restored;
    } else {
        item.status = RestoreStatus::Failed;
        item.message = TuningText::tr("%1 on %2: wrote %3 back, the kernel kept %4")
                           .arg(e.attribute, where, e.original, written->kept);
    }
    return item;
}

// Is `device` still the device the journal entry was made for?
QString identityProblem(const SysRoot &root, const JournalEntry &e)
{
    // Opened as the writes will be: the device's directory, no link below it.
    auto dir = root.openDevice(e.device);
    if (!dir)
        return TuningText::tr("%1 no longer exists: nothing to restore there").arg(e.device);
    const SysDir &d = *dir;
    const QString dev = d.readString("dev").value_or(QString()).trimmed();
    const QString was = QStringLiteral("%1:%2").arg(e.major).arg(e.minor);
    if ((e.major || e.minor) && dev != was)
        return TuningText::tr("%1 is now device %2, the journal's was %3: another device took the name; not restoring")
            .arg(e.device, dev, was);
    const QString seq = d.readString("diskseq").value_or(QString()).trimmed();
    if (!e.diskseq.isEmpty() && !seq.isEmpty() && seq != e.diskseq)
        return TuningText::tr("%1 was re-attached or its medium changed since (diskseq %2, now %3); not restoring")
            .arg(e.device, e.diskseq, seq);
    return {};
}

} // namespace

namespace detail {

// The journal directory must be ours alone: a journal names values root
// will write back. The rule is safeopen's, shared with the textfile folder.
Result<UniqueFd> openPrivateDirectory(const QString &path)
{
    const QByteArray p = QFile::encodeName(QFileInfo(path).absoluteFilePath());
    if (::mkdir(p.constData(), 0700) != 0 && errno != EEXIST)
        return makeError(errno, TuningText::tr("cannot create the journal directory %1: %2").arg(path, errnoText(errno)));
    auto dir = safeopen::openFolder(p);
    if (!dir)
        return makeError(dir.error().code, TuningText::tr("cannot use the journal directory %1: %2")
                                               .arg(path, dir.error().message));
    if (Status st = safeopen::checkFolderOwner(dir->get(), {::geteuid()}, path, TuningText::tr("the journal directory"));
        !st)
        return st.error();
    return dir;
}

Status ensurePrivateDirectory(const QString &path)
{
    auto dir = openPrivateDirectory(path);
    return dir ? Status() : Status(dir.error());
}

int removeStaleTemporaries(int dirFd)
{
    const int listFd = ::openat(dirFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *listing = listFd >= 0 ? ::fdopendir(listFd) : nullptr;
    if (!listing) {
        if (listFd >= 0)
            ::close(listFd);
        return 0;
    }
    int removed = 0;
    while (const dirent *entry = ::readdir(listing)) {
        const qint64 pid = pidOfTemporary(QString::fromLocal8Bit(entry->d_name));
        struct stat st {};
        if (pid <= 0 || pid == ::getpid()
            || ::fstatat(dirFd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)
            || st.st_uid != ::geteuid())
            continue;
        // Alive (or a reused pid we may not signal): maybe mid-write; left.
        if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH)
            continue;
        if (::unlinkat(dirFd, entry->d_name, 0) == 0)
            ++removed;
    }
    ::closedir(listing);
    return removed;
}

// Journals name the tree they were made for by its canonical path, so a
// relative --sysroot from another directory still finds them.
QString journalRootKey(const SysRoot &root)
{
    if (root.isLive())
        return {};
    const QString canonical = QFileInfo(root.root()).canonicalFilePath();
    return canonical.isEmpty() ? root.root() : canonical;
}

Result<QString> readAttribute(const SysRoot &root, const QString &device, const QString &attr)
{
    auto text = readAllowedAttribute(root, device, attr);
    if (!text)
        return text.error();
    if (attr == attribute::Scheduler) {
        if (auto choice = sysfs::parseBracketChoice(text->toLatin1()))
            return choice->active;
    }
    return text->trimmed();
}

RestoreReport restoreEntries(const SysRoot &root, AttributeWriter &writer, const QList<JournalEntry> &entries)
{
    RestoreReport report;
    QStringList order;
    QHash<QString, QList<JournalEntry>> byDevice;
    for (const JournalEntry &e : entries) {
        if (!byDevice.contains(e.device))
            order << e.device;
        byDevice[e.device].append(e);
    }
    for (const QString &device : std::as_const(order)) {
        QList<JournalEntry> list = byDevice.value(device);
        const QString problem = device.isEmpty() ? QString() : identityProblem(root, list.constFirst());
        if (!problem.isEmpty()) {
            for (const JournalEntry &e : std::as_const(list))
                report.items.append(RestoreItem{e, RestoreStatus::DeviceChanged, {}, {}, problem});
            continue;
        }
        // The scheduler first: switching back resets nr_requests and brings
        // the old scheduler's tunables back at their defaults; then ours.
        // read_ahead_kb last, as the planner orders it: writing
        // max_sectors_kb re-applies the queue limits, and kernels raise
        // readahead there (measured on 6.18: a loop's 1280 KiB back
        // brought read_ahead_kb from 128 to 2560, 2 x max_sectors_kb).
        auto rank = [](const JournalEntry &e) {
            if (e.attribute == attribute::Scheduler)
                return 0;
            if (e.attribute.startsWith(attribute::IoschedPrefix))
                return 2;
            return e.attribute == attribute::ReadAheadKb ? 3 : 1;
        };
        std::stable_sort(list.begin(), list.end(),
                         [&](const JournalEntry &a, const JournalEntry &b) { return rank(a) < rank(b); });
        for (const JournalEntry &e : std::as_const(list))
            report.items.append(restoreOne(root, writer, e));
    }
    return report;
}

void mergeOriginals(QList<JournalEntry> &into, const QList<JournalEntry> &more)
{
    for (const JournalEntry &e : more) {
        const bool known = std::any_of(into.cbegin(), into.cend(), [&](const JournalEntry &x) {
            return x.device == e.device && x.attribute == e.attribute && x.scheduler == e.scheduler;
        });
        if (!known)
            into.append(e);
    }
}

quint64 processStartTime(qint64 pid)
{
    const SysRoot live;
    auto stat = live.readFile(live.procPath(QByteArray(QByteArray::number(pid) + "/stat")), 4096);
    if (!stat)
        return 0;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so
    // count fields after the last ')'. starttime is field 22.
    const qsizetype close = stat->lastIndexOf(')');
    if (close < 0)
        return 0;
    const QList<QByteArray> fields = stat->mid(close + 2).split(' ');
    return fields.size() > 19 ? fields[19].toULongLong() : 0;
}

bool processAlive(qint64 pid, quint64 startTime)
{
    if (pid <= 0)
        return false;
    if (::kill(pid_t(pid), 0) != 0 && errno != EPERM)
        return false;
    const quint64 now = processStartTime(pid);
    return startTime == 0 || now == 0 || now == startTime;
}

void initJournal(Journal &journal, const SysRoot &root, JournalMode mode)
{
    journal.pid = ::getpid();
    journal.pidStart = processStartTime(journal.pid);
    journal.mode = mode;
    journal.root = detail::journalRootKey(root);
    journal.bootId = bootId();
    journal.created = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QJsonObject journalEntryToJson(const JournalEntry &e)
{
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
    return o;
}

Result<JournalEntry> journalEntryFromJson(const QJsonValue &v, qsizetype index)
{
    return entryFromJson(v, index);
}

QJsonObject journalToJson(const Journal &j)
{
    QJsonArray entries;
    for (const JournalEntry &e : j.entries)
        entries.append(journalEntryToJson(e));
    QJsonObject o;
    o.insert(u"blocktune_journal", kJournalFormat);
    o.insert(u"pid", double(j.pid));
    o.insert(u"pid_start", QString::number(j.pidStart));
    o.insert(u"mode", modeName(j.mode));
    o.insert(u"root", j.root);
    o.insert(u"boot_id", j.bootId);
    o.insert(u"created", j.created);
    o.insert(u"entries", entries);
    return o;
}

Status checkJournalEntry(const JournalEntry &e)
{
    if (!e.device.isEmpty() && !SysRoot::isPlausibleKernelName(e.device))
        return makeError(InvalidArgument, QStringLiteral("'%1' is not a device name").arg(e.device.left(64)));
    if (!isAllowedAttributeName(e.attribute))
        return makeError(InvalidArgument,
                         QStringLiteral("attribute '%1' is not one blocktune changes").arg(e.attribute.left(64)));
    if (e.original.size() > 64 || std::any_of(e.original.cbegin(), e.original.cend(), [](QChar c) {
            return c.unicode() < 0x20 || c.unicode() > 0x7e;
        }))
        return makeError(InvalidArgument, QStringLiteral("the original value of %1 is not one short printable line")
                                              .arg(e.attribute));
    return {};
}

Result<Journal> journalFromJson(const QByteArray &data)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(data, &err);
    if (err.error != QJsonParseError::NoError)
        return makeError(InvalidArgument, QStringLiteral("not JSON: %1 at byte %2 of %3")
                                              .arg(err.errorString()).arg(err.offset).arg(data.size()));
    if (!doc.isObject())
        return makeError(InvalidArgument, QStringLiteral("not a JSON object"));
    return journalFromObject(doc.object());
}

Result<Journal> journalFromObject(const QJsonObject &o)
{
    if (o.value(u"blocktune_journal").toInteger(-1) != kJournalFormat)
        return makeError(InvalidArgument, QStringLiteral("not a blocktune journal of format %1").arg(kJournalFormat));
    Journal j;
    // A pid is a positive whole number up to 2^22 (PID_MAX_LIMIT).
    j.pid = o.value(u"pid").toInteger(-1);
    if (j.pid < 1 || j.pid > 4194304)
        return makeError(InvalidArgument, QStringLiteral("'pid' is not a process id"));
    bool startOk = false;
    j.pidStart = o.value(u"pid_start").toString().toULongLong(&startOk);
    if (!startOk)
        return makeError(InvalidArgument, QStringLiteral("'pid_start' is not a whole number in a string"));
    const QString mode = o.value(u"mode").toString();
    if (mode != u"temporary" && mode != u"persistent")
        return makeError(InvalidArgument, QStringLiteral("unknown mode '%1'").arg(mode.left(32)));
    j.mode = mode == u"temporary" ? JournalMode::Temporary : JournalMode::Persistent;
    for (const char16_t *name : {u"root", u"boot_id", u"created"})
        if (!o.value(QStringView(name)).isString())
            return makeError(InvalidArgument, QStringLiteral("'%1' is not a string").arg(QStringView(name)));
    j.root = o.value(u"root").toString();
    j.bootId = o.value(u"boot_id").toString();
    j.created = o.value(u"created").toString();
    if (!o.value(u"entries").isArray())
        return makeError(InvalidArgument, QStringLiteral("'entries' is not a list"));
    const QJsonArray entries = o.value(u"entries").toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        auto e = entryFromJson(entries.at(i), i);
        if (!e)
            return e.error();
        j.entries.append(*e);
    }
    return j;
}

Status writeJournal(Journal &journal, const QJsonObject &extra)
{
    if (journal.path.isEmpty()) {
        auto dir = journalDirectory();
        if (!dir)
            return dir.error();
        static std::atomic<int> counter{0};
        journal.path = QStringLiteral("%1/blocktune-%2-%3.json").arg(*dir).arg(journal.pid).arg(++counter);
    }
    const QString dirPath = QFileInfo(journal.path).absolutePath();
    auto dir = openPrivateDirectory(dirPath);
    if (!dir)
        return dir.error();
    QJsonObject json = journalToJson(journal);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        json.insert(it.key(), it.value());
    const QByteArray data = QJsonDocument(json).toJson(QJsonDocument::Indented);
    const QByteArray name = QFile::encodeName(QFileInfo(journal.path).fileName());
    // A journal's name holds this pid already; the applied state's is
    // shared, so two processes never write one temporary file.
    const QByteArray temp = name.startsWith("blocktune-") ? QByteArray(name + ".tmp")
                                                          : QByteArray(name + '.' + QByteArray::number(::getpid()) + ".tmp");
    // Ours only: a file of this name is left by a dead process of our pid.
    ::unlinkat(dir->get(), temp.constData(), 0);
    // The values are on disk before the first change they protect.
    return safeopen::replaceFile(dir->get(), name, temp, data, 0600, journal.path);
}

Status removeJournal(const QString &path)
{
    if (path.isEmpty())
        return {};
    const QByteArray p = QFile::encodeName(path);
    if (::unlink(p.constData()) != 0 && errno != ENOENT)
        return makeError(errno, TuningText::tr("cannot remove the journal %1: %2").arg(path, errnoText(errno)));
    return fsyncDirectory(QFile::encodeName(QFileInfo(path).absolutePath()));
}

} // namespace detail

Result<QString> journalDirectory()
{
    const QString override = qEnvironmentVariable("BLOCKTUNE_JOURNAL_DIR");
    if (!override.isEmpty())
        return override;
    if (::geteuid() == 0)
        return QStringLiteral("/run/blocktune");
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (runtime.isEmpty())
        return makeError(NotFound, TuningText::tr("XDG_RUNTIME_DIR is not set, so there is no private place for the "
                                                  "journal of original values; set it (or BLOCKTUNE_JOURNAL_DIR)"));
    return QString(runtime + u"/blocktune");
}

namespace {

// A journal that does not read back is never guessed at: it is renamed out
// of the way (so the next look does not trip on it again) and reported
// with where it went, for a person to look at.
QString setAside(const QString &path)
{
    const QString stamp = QDateTime::currentDateTimeUtc().toString(u"yyyyMMdd-HHmmss");
    QString target = path + QStringLiteral(".bad-") + stamp;
    for (int n = 2; QFileInfo::exists(target); ++n)
        target = path + QStringLiteral(".bad-%1-%2").arg(stamp).arg(n);
    return ::rename(QFile::encodeName(path).constData(), QFile::encodeName(target).constData()) == 0 ? target
                                                                                                      : QString();
}

} // namespace

QList<PendingJournal> findJournals(const SysRoot &root)
{
    QList<PendingJournal> out;
    auto dir = journalDirectory();
    if (!dir)
        return out;
    // Temporary files of processes killed mid-write (kill -9): only our own
    // names, in our own private folder, of our user, their process gone.
    // Not made here when missing: there is nothing to find then.
    if (auto folder = safeopen::openFolder(QFile::encodeName(QFileInfo(*dir).absoluteFilePath())); folder
        && safeopen::checkFolderOwner(folder->get(), {::geteuid()}, *dir, TuningText::tr("the journal directory")))
        detail::removeStaleTemporaries(folder->get());
    const QDir d(*dir);
    const QStringList names = d.entryList({QStringLiteral("blocktune-*.json")}, QDir::Files, QDir::Name);
    for (const QString &name : names) {
        PendingJournal p;
        p.path = d.filePath(name);
        QFile f(p.path);
        if (!f.open(QIODevice::ReadOnly)) {
            p.error = TuningText::tr("cannot read %1: %2").arg(p.path, f.errorString());
            out.append(p);
            continue;
        }
        // Ours are a few KiB; anything past 1 MiB is not one of them.
        const QByteArray data = f.read((1 << 20) + 1);
        auto journal = data.size() > (1 << 20) ? Result<Journal>(makeError(InvalidArgument, QStringLiteral("larger than 1 MiB")))
                                               : detail::journalFromJson(data);
        if (!journal) {
            p.setAsideTo = setAside(p.path);
            p.error = TuningText::tr("%1 is not a readable journal (%2): nothing was restored from it; %3")
                          .arg(p.path, journal.error().message,
                               p.setAsideTo.isEmpty()
                                   ? TuningText::tr("it could not be moved aside (%1) and stays in place")
                                         .arg(errnoText(errno))
                                   : TuningText::tr("moved aside to %1: look at it, then remove it").arg(p.setAsideTo));
            out.append(p);
            continue;
        }
        if (journal->root != detail::journalRootKey(root))
            continue; // made for another tree (or the live machine)
        journal->path = p.path;
        p.ownerAlive = detail::processAlive(journal->pid, journal->pidStart);
        p.journal = *journal;
        out.append(p);
    }
    std::stable_sort(out.begin(), out.end(), [](const PendingJournal &a, const PendingJournal &b) {
        return (a.journal ? a.journal->created : QString()) < (b.journal ? b.journal->created : QString());
    });
    return out;
}

QJsonObject pendingJournalToJson(const PendingJournal &pending)
{
    QJsonObject o{{QStringLiteral("path"), pending.path}, {QStringLiteral("owner_alive"), pending.ownerAlive}};
    o.insert(u"journal", pending.journal ? QJsonValue(detail::journalToJson(*pending.journal)) : QJsonValue());
    if (!pending.error.isEmpty())
        o.insert(u"error", pending.error);
    if (!pending.setAsideTo.isEmpty())
        o.insert(u"set_aside", pending.setAsideTo);
    return o;
}

Result<PendingJournal> pendingJournalFromJson(const QJsonValue &v)
{
    const QJsonObject o = v.toObject();
    if (!v.isObject() || !o.value(u"path").isString() || o.value(u"path").toString().isEmpty())
        return makeError(InvalidArgument, QStringLiteral("a journal found must be an object with a string 'path'"));
    PendingJournal p;
    p.path = o.value(u"path").toString();
    for (const char16_t *name : {u"error", u"set_aside"})
        if (!o.value(QStringView(name)).isUndefined() && !o.value(QStringView(name)).isString())
            return makeError(InvalidArgument, QStringLiteral("%1: '%2' is not a string").arg(p.path, QStringView(name)));
    p.error = o.value(u"error").toString();
    p.setAsideTo = o.value(u"set_aside").toString();
    p.ownerAlive = o.value(u"owner_alive").toBool();
    const QJsonValue journal = o.value(u"journal");
    if (journal.isObject()) {
        auto read = detail::journalFromObject(journal.toObject());
        if (!read)
            return makeError(InvalidArgument, QStringLiteral("%1 is not a readable journal: %2").arg(p.path, read.error().message));
        read->path = p.path;
        p.journal = *read;
    } else if (!journal.isNull() || p.error.isEmpty()) {
        return makeError(InvalidArgument, QStringLiteral("%1: 'journal' must be a journal's fields, or null with the "
                                                         "'error' that made it unreadable").arg(p.path));
    }
    return p;
}

RestoreReport restoreJournal(const SysRoot &root, AttributeWriter &writer, const Journal &journal)
{
    RestoreReport report;
    if (journal.root != detail::journalRootKey(root)) {
        report.messages << TuningText::tr("%1 was made for %2, not %3: left alone")
                               .arg(journal.path, journal.root.isEmpty() ? TuningText::tr("the live machine") : journal.root,
                                    root.isLive() ? TuningText::tr("the live machine") : root.root());
        report.items.append(RestoreItem{{}, RestoreStatus::Failed, {}, {}, report.messages.constLast()});
        return report;
    }
    const QString now = bootId();
    if (root.isLive() && !journal.bootId.isEmpty() && !now.isEmpty() && now != journal.bootId) {
        // sysfs settings do not survive a reboot: there is nothing to undo.
        report.messages << TuningText::tr("%1 is from an earlier boot: the kernel has since started afresh, nothing "
                                          "to restore; removed")
                               .arg(journal.path);
        if (Status st = detail::removeJournal(journal.path); !st)
            report.messages << st.error().message;
        return report;
    }
    // A running session changing the same device holds its lock: never write
    // between its steps (it would restore over us, or we over it).
    QStringList devices;
    for (const JournalEntry &e : journal.entries)
        devices << e.device;
    const auto locks = DeviceLocks::acquire(root, devices);
    if (!locks) {
        report.messages << locks.error().message + TuningText::tr("; %1 stays for another try").arg(journal.path);
        report.items.append(RestoreItem{{}, RestoreStatus::Failed, {}, {}, report.messages.constLast()});
        return report;
    }
    report = detail::restoreEntries(root, writer, journal.entries);
    Journal rest = journal;
    rest.entries.clear();
    for (const RestoreItem &item : std::as_const(report.items))
        if (item.status == RestoreStatus::Failed)
            rest.entries.append(item.entry);
    if (rest.entries.isEmpty()) {
        if (Status st = detail::removeJournal(journal.path); !st)
            report.messages << st.error().message;
    } else if (Status st = detail::writeJournal(rest); !st) {
        report.messages << st.error().message;
    } else {
        report.messages << TuningText::tr("%1 keeps %2 value(s) that could not be restored, for another try")
                               .arg(journal.path).arg(rest.entries.size());
    }
    return report;
}

Result<QString> appliedStatePath(const SysRoot &root)
{
    auto dir = journalDirectory();
    if (!dir)
        return dir.error();
    if (root.isLive())
        return QString(*dir + QStringLiteral("/profile-state.json"));
    const QByteArray hash =
        QCryptographicHash::hash(detail::journalRootKey(root).toUtf8(), QCryptographicHash::Sha1).toHex();
    return QString(*dir + QStringLiteral("/profile-state-") + QString::fromLatin1(hash.left(12)) + QStringLiteral(".json"));
}

Result<std::optional<AppliedState>> readAppliedState(const SysRoot &root)
{
    auto path = appliedStatePath(root);
    if (!path)
        return path.error();
    QFile f(*path);
    if (!f.exists())
        return std::optional<AppliedState>();
    if (!f.open(QIODevice::ReadOnly))
        return makeError(errno, QStringLiteral("cannot read %1: %2").arg(*path, f.errorString()));
    const QByteArray data = f.read((1 << 20) + 1);
    auto journal = data.size() > (1 << 20) ? Result<Journal>(makeError(InvalidArgument, QStringLiteral("larger than 1 MiB")))
                                           : detail::journalFromJson(data);
    if (!journal)
        return makeError(InvalidArgument, QStringLiteral("%1 is not readable (%2): look at it, then remove it")
                                              .arg(*path, journal.error().message));
    if (journal->root != detail::journalRootKey(root))
        return makeError(Refused, QStringLiteral("%1 was written for %2, not this root: left alone")
                                      .arg(*path, journal->root.isEmpty() ? QStringLiteral("the live machine")
                                                                          : journal->root));
    AppliedState state;
    state.path = *path;
    state.journal = *journal;
    state.journal.path = *path;
    state.journal.mode = JournalMode::Persistent;
    state.created = journal->created;
    for (const QJsonValue &v : QJsonDocument::fromJson(data).object().value(u"profiles").toArray())
        state.profiles << v.toString();
    return std::optional<AppliedState>(state);
}

Result<AppliedState> newAppliedState(const SysRoot &root)
{
    auto path = appliedStatePath(root);
    if (!path)
        return path.error();
    AppliedState state;
    detail::initJournal(state.journal, root, JournalMode::Persistent);
    state.path = state.journal.path = *path;
    state.created = state.journal.created;
    return state;
}

void rememberOriginals(AppliedState &state, const QList<JournalEntry> &originals, const QString &profile)
{
    detail::mergeOriginals(state.journal.entries, originals);
    state.profiles.removeAll(profile);
    state.profiles << profile;
}

Status writeAppliedState(AppliedState &state)
{
    state.journal.path = state.path;
    return detail::writeJournal(state.journal, {{QStringLiteral("profiles"), QJsonArray::fromStringList(state.profiles)}});
}

bool RestoreReport::ok() const
{
    return std::none_of(items.cbegin(), items.cend(),
                        [](const RestoreItem &i) { return i.status == RestoreStatus::Failed; });
}

} // namespace blocktune
