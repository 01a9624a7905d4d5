#pragma once
// Details shared by core/tuning's sources (and its tests); not an interface.

#include "tuning.h"

#include "common/safeopen.h"

namespace blocktune::detail {

inline constexpr int kSettingsJsonSchema = 1;
inline constexpr int kJournalFormat = 1;

struct StripeFloor
{
    std::optional<quint64> stripeKiB;
    std::optional<quint64> floorKiB;
};
/// md: the model's geometry; dm (and md without one): 2 x io_opt.
StripeFloor stripeFloor(const BlockDevice &queue);
QString contextBuiltInText(const QString &device);
QList<IoschedTunable> readIosched(const SysDir &queueOwner);
/// Tunables a scheduler brings to queue/iosched/ (mainline sources), for
/// checking a tunable before the switch that creates it. Empty: unknown.
QStringList knownTunables(const QString &scheduler);

/// The attribute's value now, as AttributeWriter attributes name it
/// (scheduler: the active name only).
Result<QString> readAttribute(const SysRoot &root, const QString &device, const QString &attribute);

/// Writes back `entries` (scheduler first on each device, its tunables
/// last, read_ahead_kb after them), checking each device is still the one
/// that was changed.
RestoreReport restoreEntries(const SysRoot &root, AttributeWriter &writer, const QList<JournalEntry> &entries);

/// Adds `more` to `into`, keeping the first original of each attribute.
void mergeOriginals(QList<JournalEntry> &into, const QList<JournalEntry> &more);
/// Fills pid, start time, boot id and creation time of a new journal.
void initJournal(Journal &journal, const SysRoot &root, JournalMode mode);
/// Atomic (temp file, fsync, rename, fsync dir); gives the journal a path
/// in journalDirectory() when it has none.
Status writeJournal(Journal &journal, const QJsonObject &extra = {});
Status removeJournal(const QString &path);
QJsonObject journalToJson(const Journal &journal);
QJsonObject journalEntryToJson(const JournalEntry &entry);
/// One entry, every field checked (`index` names it in the message).
Result<JournalEntry> journalEntryFromJson(const QJsonValue &v, qsizetype index);
Result<Journal> journalFromJson(const QByteArray &data);
/// The same checks on a journal's fields already parsed (a host's agent
/// sends them inside its answer).
Result<Journal> journalFromObject(const QJsonObject &o);

/// Creates `path` 0700 if missing; refused unless it is a directory of this
/// user that nobody else may write (journals and locks live there):
/// safeopen::openFolder and safeopen::checkFolderOwner.
Status ensurePrivateDirectory(const QString &path);
/// The same, the folder opened (no link to it followed) for what is made in it.
Result<UniqueFd> openPrivateDirectory(const QString &path);
/// Removes what writeJournal() left half-made in the journal folder `dirFd`
/// when its process was killed: blocktune-PID-N.json.tmp and
/// profile-state*.json.PID.tmp, regular files of this user whose process
/// is gone. Returns how many.
int removeStaleTemporaries(int dirFd);
/// How journals (and device locks) name a root: empty for the live
/// machine, else the tree's canonical path.
QString journalRootKey(const SysRoot &root);
/// Checks what a journal asks to write back before anything is restored
/// from it: a kernel name, an allowlisted attribute, one short line.
Status checkJournalEntry(const JournalEntry &entry);

/// Start time of a process in clock ticks since boot (/proc/PID/stat field
/// 22), 0 when unknown.
quint64 processStartTime(qint64 pid);
/// True if `pid` runs and is the process that started at `startTime`.
bool processAlive(qint64 pid, quint64 startTime);

} // namespace blocktune::detail
