#pragma once
// What core/tuning offers: reading a device's tunable settings with what
// each accepts, validating a change set as a whole, applying it as a
// transaction (journal first, roll back on failure), temporary changes that
// are undone on every exit path, and restoring what a dead session left.
//
// Everything here is synchronous. Callers go through TuningSession
// (core/session/session.h), which owns the model, the writer and the journal;
// this header holds the pieces it is made of. A kill -9 during a temporary
// change leaves a journal; `blocktune-cli restore` (or findJournals() +
// restoreJournal()) brings the originals back.

#include "common/result.h"
#include "common/sysroot.h"
#include "devices/devicemodel.h"
#include "privilege/privilege.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace blocktune {

// ---- Change sets ----------------------------------------------------------------

/// A setting's value, parsed once where it enters blocktune (a CLI word, the
/// console's slider, a profile): a whole number when the text is one (digits
/// only, fits 64 bits), else the word as given (a scheduler name, or text a
/// numeric setting refuses with a message that quotes it). The planner reads
/// the number and never parses text again.
class SettingValue final
{
public:
    SettingValue() = default;
    SettingValue(quint64 number) : m_number(number), m_text(QString::number(number)) {}
    SettingValue(const QString &text);

    const std::optional<quint64> &number() const { return m_number; }
    /// The value as the user wrote it (for a number: its decimal form).
    const QString &text() const { return m_text; }
    bool isEmpty() const { return m_text.isEmpty(); }
    bool operator==(const SettingValue &other) const { return m_text == other.m_text; }

private:
    std::optional<quint64> m_number;
    QString m_text;
};

/// One requested change, as a user writes it: `sdb read_ahead_kb=4096`.
/// Keys: read_ahead_kb, ra_sectors (512-byte sectors, as blockdev --setra),
/// scheduler, nr_requests, max_sectors_kb, context_readahead, iosched.NAME.
/// `device` may be a kernel name, /dev/NAME or a /dev/disk/by-* link.
struct SettingChange
{
    QString device;
    QString key;
    SettingValue value;
};

/// What readDeviceSettings() notes for a device whose kernel has no
/// context readahead switch (so a view showing the switch can leave it out).
QString contextReadaheadBuiltInNote(const QString &device);

/// The keys a SettingChange accepts, for messages ("iosched.NAME" last).
QStringList settingKeys();
/// "read_ahead_kb=4096" on `device` -> SettingChange; refuses a missing '='
/// or an empty key or value.
Result<SettingChange> parseSettingChange(const QString &device, const QString &assignment);

// ---- Reading a device's settings -----------------------------------------------------

struct IoschedTunable
{
    QString name;
    QString value;
};

/// A device's tunable settings now, and what each accepts. For a partition
/// these are its whole disk's (`queueDevice`): partitions have no queue.
struct DeviceSettings
{
    QString name;
    DeviceType type = DeviceType::Other;
    int major = 0;
    int minor = 0;
    QString queueDevice;
    bool isPartition = false;

    std::optional<quint64> readAheadKiB;
    quint64 pageKiB = 4; ///< the kernel keeps readahead in whole pages
    QString scheduler;
    QStringList schedulers;
    QList<IoschedTunable> iosched; ///< the active scheduler's, sorted by name
    std::optional<quint64> nrRequests;
    std::optional<NumberRange> nrRequestsRange; ///< nullopt: bio-based, not settable
    std::optional<quint64> maxSectorsKiB;
    std::optional<quint64> maxHwSectorsKiB;
    NumberRange maxSectorsRange;
    /// The context readahead switch's state where the kernel has one.
    std::optional<bool> contextReadahead;
    /// "queue/context_readahead", "/proc/sys/vm/enable_context_readahead",
    /// or empty: built in and always on since 2.6.31, not tunable.
    QString contextReadaheadSwitch;

    /// md/dm: data width of a stripe and the kernel's readahead floor
    /// (2 x stripe), below which re-assembly or reshape raises it again.
    std::optional<quint64> stripeKiB;
    std::optional<quint64> readaheadFloorKiB;
    QStringList memberDisks; ///< md/dm: the whole disks underneath

    QStringList notes; ///< things a user should know, in words
};

/// Reads `device` (kernel name, /dev path or by-* link) from `model` and
/// the queue's sysfs directory under `root`.
Result<DeviceSettings> readDeviceSettings(const SysRoot &root, const DeviceModel &model,
                                          const QString &device);
/// The `get --json` object: the same key names as `list --json`
/// (read_ahead_kb, scheduler, schedulers, nr_requests, max_sectors_kb,
/// max_hw_sectors_kb, context_readahead), plus ra_sectors, iosched,
/// queue_device, readahead_floor_kb, members and "allowed". See docs/json.md.
QJsonObject deviceSettingsToJson(const DeviceSettings &settings);

// ---- Validation ------------------------------------------------------------------

/// One attribute write a change set turns into.
struct PlannedWrite
{
    SettingChange request; ///< as the user wrote it
    QString device;        ///< whose queue (a whole disk); empty = machine-wide
    QString attribute;     ///< an AttributeWriter attribute (privilege.h)
    QString value;         ///< what is written (ra_sectors already in KiB)
    QString current;       ///< the value now; empty for a tunable that appears with a scheduler switch
    bool forMembers = false; ///< added by PlanOptions::applyToMembers
};

/// An original value to bring back: one per attribute a change set touches
/// or disturbs (a scheduler switch resets nr_requests and the old
/// scheduler's tunables). Carries the device's identity so a restore never
/// lands on another device that took over the name.
struct JournalEntry
{
    QString device; ///< empty: machine-wide attribute
    int major = 0;
    int minor = 0;
    QString diskseq;   ///< /sys/block/X/diskseq (5.15+), changes on media/loop reattach
    QString attribute;
    QString original;
    QString scheduler; ///< iosched/ entries: the scheduler the tunable belongs to
};

struct ChangePlan
{
    QList<PlannedWrite> writes;     ///< in apply order (see planChanges)
    QList<JournalEntry> originals;  ///< what a rollback or restore brings back
    QStringList warnings;           ///< applies, but the user should think twice
    QStringList notes;              ///< applies as asked; how it is interpreted
    QList<Error> errors;            ///< one per invalid change; any = nothing applies
    bool ok() const { return errors.isEmpty(); }
};

struct PlanOptions
{
    /// md/dm readahead: also set the same value on the member disks.
    bool applyToMembers = false;
    /// How the caller names that option in notes: the CLI's flag, or the
    /// console's check box.
    QString membersOption = QStringLiteral("--members");
};

/// Validates a whole change set against the live values and orders it:
/// per queue the scheduler first (it resets nr_requests and brings its own
/// tunables), then iosched tunables, nr_requests, max_sectors_kb, and
/// read_ahead_kb last (before 6.15 a queue-limits update could overwrite it).
ChangePlan planChanges(const SysRoot &root, const DeviceModel &model, const QList<SettingChange> &changes,
                       const PlanOptions &options = {});

// ---- Outcomes -----------------------------------------------------------------------

enum class SettingStatus {
    Planned,    ///< validated, not written (dry run, or validation failed elsewhere)
    Applied,    ///< written; `kept` is what the kernel kept
    RolledBack, ///< written, then undone because a later write failed
    Failed,     ///< the write failed (or its rollback did)
    Skipped,    ///< not attempted because an earlier write failed
};
/// "planned", "applied", "rolled back", "failed", "skipped": the JSON's and the CLI's word.
QString settingStatusName(SettingStatus status);
/// The same word in the user's language (the console's; English without a translator).
QString settingStatusText(SettingStatus status);

struct SettingOutcome
{
    PlannedWrite write;
    SettingStatus status = SettingStatus::Planned;
    QString kept;    ///< what the kernel kept (read back)
    QString message; ///< why it failed or what the kernel changed
};

enum class RestoreStatus {
    Restored,        ///< written back
    AlreadyOriginal, ///< found at its original value: nothing to write
    Discarded,       ///< a tunable of a scheduler no longer active: gone with it
    DeviceChanged,   ///< the device is gone or another one took its name
    Failed,          ///< the write back failed
};
/// "restored", "already original", "discarded", "device changed", "failed": the JSON's and the CLI's word.
QString restoreStatusName(RestoreStatus status);
/// The same word in the user's language (the console's; English without a translator).
QString restoreStatusText(RestoreStatus status);

struct RestoreItem
{
    JournalEntry entry;
    RestoreStatus status = RestoreStatus::Failed;
    QString found; ///< the value before restoring
    QString kept;  ///< the value after
    QString message;
};

struct RestoreReport
{
    QList<RestoreItem> items;
    QStringList messages;
    bool ok() const;
};

struct ChangeReport
{
    ChangePlan plan;
    QList<SettingOutcome> outcomes; ///< one per plan.writes entry, same order
    std::optional<Error> error;     ///< why the set did not (fully) apply
    std::optional<RestoreReport> rollback; ///< when a failure undid earlier writes
    QString journalPath;            ///< a journal left behind (temporary, or a failed rollback)
    bool ok() const { return !error.has_value(); }
    /// Validation refused the set: nothing was written.
    bool invalid() const { return !plan.ok(); }
};

/// A plan as typed JSON fields (every write with the value it expects to
/// find, every original with the device's identity): what a console sends
/// a host's agent, which writes it without planning again.
QJsonObject planToJson(const ChangePlan &plan);
/// The inverse, every field checked for its type; an empty plan is refused.
Result<ChangePlan> planFromJson(const QJsonValue &v);
/// Checks a plan made elsewhere (on a mirror) against this machine before
/// it is applied: each write as the helper would check it, each written
/// attribute journaled, each original naming the same device (major:minor,
/// diskseq). Values that moved since are refused by the transaction itself
/// (DeviceLocks::forPlan names the device, the attribute and both values).
Status checkPlanHere(const SysRoot &root, const ChangePlan &plan);

/// What a dry run reports: the plan, every write "planned", and the plan's
/// first error when it was refused. Nothing is written.
ChangeReport plannedReport(const ChangePlan &plan);

QJsonObject changeReportToJson(const ChangeReport &report, bool dryRun);
QJsonObject restoreReportToJson(const RestoreReport &report);
/// How changeReportLines() lays a report out.
struct ChangeReportStyle
{
    bool aligned = true;     ///< columns padded (a terminal); single spaces otherwise
    bool withStatus = true;  ///< each write's outcome (not for a dry run's plan)
    bool membersMark = true; ///< "[--members]" after a write to an array's member
};
/// The report's writes as text, one line each: "sdb  read_ahead_kb  128 ->
/// 4096  applied (the kernel kept 4092)", "(machine)" for a machine-wide
/// attribute, "(new)" for a tunable that had no value. The one printer of a
/// ChangeReport: `set`, `profile apply` and the console's Settings panel.
QStringList changeReportLines(const ChangeReport &report, const ChangeReportStyle &style = {});
/// One planned write in the vocabulary `set --json` uses for a change:
/// `device`/`key`/`value` as asked, `queue_device`/`attribute` where it is
/// written, `current` found there and `new` written, `for_members`. The plan
/// (planToJson()) and the report (changeReportToJson()) both use it.
QJsonObject plannedWriteToJson(const PlannedWrite &write);
/// The inverse, every field checked for its type (`where` leads a message).
Result<PlannedWrite> plannedWriteFromJson(const QJsonValue &v, const QString &where);
/// The inverses of changeReportToJson() and restoreReportToJson(): the
/// report's changes, errors, warnings, notes, rollback and journal (the
/// answer's `ok`/`error` are the caller's).
ChangeReport changeReportFromJson(const QJsonObject &o);
RestoreReport restoreReportFromJson(const QJsonObject &o);

// ---- Journal ------------------------------------------------------------------------

enum class JournalMode { Temporary, Persistent };

/// Original values written down before the first change, so a crash or a
/// kill -9 can be undone by a later process.
struct Journal
{
    QString path;
    qint64 pid = 0;         ///< the process that made the change
    quint64 pidStart = 0;   ///< its start time (clock ticks after boot): pids get reused
    JournalMode mode = JournalMode::Temporary;
    QString root;           ///< SysRoot::root(): empty = the live machine
    QString bootId;         ///< /proc/sys/kernel/random/boot_id when written
    QString created;        ///< ISO 8601
    QList<JournalEntry> entries;
};

/// Where journals live: $BLOCKTUNE_JOURNAL_DIR if set, /run/blocktune as
/// root, else $XDG_RUNTIME_DIR/blocktune. Error when none can be used.
Result<QString> journalDirectory();

/// A journal file found on disk.
struct PendingJournal
{
    QString path;
    std::optional<Journal> journal; ///< nullopt: unreadable (see error)
    QString error;
    QString setAsideTo; ///< an unreadable journal's new name (NAME.bad-TIMESTAMP); empty if it stayed
    bool ownerAlive = false; ///< its process still runs: leave it alone
};

/// Every journal in journalDirectory() made for `root` (live or the same
/// recorded tree), oldest first, including unreadable ones. A journal that
/// does not parse (truncated, garbage, a field of the wrong type, a device
/// or attribute blocktune would never have written) is renamed to
/// NAME.bad-YYYYMMDD-HHMMSS and reported with that name; nothing from it is
/// ever restored.
QList<PendingJournal> findJournals(const SysRoot &root);

/// A found journal as typed JSON, as a host's agent sends its dead ones:
/// {"path", "owner_alive", "journal": the journal file's own fields, or
/// null with "error" and "set_aside" for an unreadable one}.
QJsonObject pendingJournalToJson(const PendingJournal &pending);
/// The inverse, the journal checked by the journal file's own reader (every
/// field typed, only allowlisted attributes), so nothing is shown or
/// offered that no journal could hold.
Result<PendingJournal> pendingJournalFromJson(const QJsonValue &v);

/// Brings a dead session's originals back (scheduler first, then the rest),
/// checking each device's identity; removes the journal when every entry is
/// settled, else rewrites it with what is left to retry.
RestoreReport restoreJournal(const SysRoot &root, AttributeWriter &writer, const Journal &journal);

/// What a profile revert brings back: the values from before the FIRST
/// profile applied since (later applies add only attributes not yet
/// recorded). Kept in journalDirectory() as profile-state.json (one per
/// recorded tree: profile-state-HASH.json), a persistent journal with the
/// profiles' names beside its entries, so it outlives the process but not
/// a reboot, which resets the settings anyway. It is not named
/// blocktune-*.json, so `blocktune-cli restore` never takes it for a dead
/// session's journal; restoreJournal() settles it as any other.
struct AppliedState
{
    QString path;
    QStringList profiles; ///< applied since, oldest first
    QString created;
    Journal journal;
};

/// Where `root`'s applied state is kept (it may not exist).
Result<QString> appliedStatePath(const SysRoot &root);
/// The remembered before-state for `root`, nullopt when none. Read with the
/// journal's strict reader; a state written for another root is refused.
Result<std::optional<AppliedState>> readAppliedState(const SysRoot &root);
/// A new state for `root` (path, creation time, boot id), no entries yet.
Result<AppliedState> newAppliedState(const SysRoot &root);
/// Adds the originals a change set journals (the first original of each
/// attribute wins) and `profile` as the latest applied.
void rememberOriginals(AppliedState &state, const QList<JournalEntry> &originals, const QString &profile);
/// Written atomically and synced, 0600 in a private folder, before the
/// first change it protects.
Status writeAppliedState(AppliedState &state);

// ---- Device locks -------------------------------------------------------------------

/// How long a change waits for another blocktune process that is changing
/// the same device before it is refused (a plain `set` holds its lock for
/// milliseconds; a `--hold` or a sweep for as long as it runs).
inline constexpr int kDeviceLockWaitMs = 5000;

/// Serialises blocktune processes that change the same device: an exclusive
/// flock(2) on JOURNALDIR/locks/blocktune-DEVICE.lock (recorded trees: with a tag
/// of the tree's path), so their journals and restores never interleave.
/// The file holds the holder's pid for the message the next one sees. The
/// kernel drops the lock when the holder exits, even by kill -9. Within one
/// process a device already locked is shared, not locked again (flock
/// would conflict with itself on a second descriptor).
class DeviceLocks final
{
public:
    DeviceLocks();
    ~DeviceLocks();
    DeviceLocks(DeviceLocks &&) noexcept;
    DeviceLocks &operator=(DeviceLocks &&) noexcept;
    Q_DISABLE_COPY(DeviceLocks)

    /// Locks `devices` (kernel names; "" is the machine-wide switch) of
    /// `root`, in name order, waiting up to `waitMs` for each (less if a
    /// TerminationSignals signal arrives). Refused with a message naming the
    /// holder's pid and the device; nothing stays locked then.
    static Result<DeviceLocks> acquire(const SysRoot &root, QStringList devices, int waitMs = kDeviceLockWaitMs);
    /// Locks the devices `plan` writes, then checks that every value it
    /// journals as original is still what the device holds: a plan made
    /// before another process changed the device (or while waiting for it)
    /// is refused, naming the value that moved, instead of journaling and
    /// later restoring the other process's value.
    static Result<DeviceLocks> forPlan(const SysRoot &root, const ChangePlan &plan, int waitMs = kDeviceLockWaitMs);
    /// True when another process held one of them at first (what it found
    /// may have changed meanwhile), with whom it waited for in waitedFor().
    bool waited() const { return !m_waitedFor.isEmpty(); }
    const QString &waitedFor() const { return m_waitedFor; }
    /// Keeps `other`'s locks too (a temporary session growing by steps).
    void adopt(DeviceLocks &&other);
    QStringList devices() const;
    void release();

    struct Held; ///< one device's lock, shared within the process (devicelock.cpp)

private:
    std::vector<std::shared_ptr<Held>> m_held;
    QString m_waitedFor;
};

// ---- Transactions ------------------------------------------------------------------

/// Applies planned change sets through an AttributeWriter as transactions,
/// and holds temporary ones until restore() or destruction. The engine
/// under TuningSession (core/session), which owns the model, the writer and
/// the plans; use the session. Not thread-safe.
class Tuner final
{
public:
    Tuner(SysRoot root, AttributeWriter &writer);
    /// Restores whatever temporary changes are still held.
    ~Tuner();
    Q_DISABLE_COPY_MOVE(Tuner)

    /// Journals the originals, writes in order; on a failed write (or
    /// SIGINT/SIGTERM once TerminationSignals are installed) rolls back what
    /// it wrote. The change stays: the journal is removed on success. An
    /// invalid plan writes nothing.
    ChangeReport apply(const ChangePlan &plan);
    /// The same, but held: restore() (or ~Tuner, or `blocktune-cli restore`
    /// after a kill) brings back the values from before the FIRST temporary
    /// change, however many follow (a sweep's steps).
    ChangeReport applyTemporary(const ChangePlan &plan);
    /// Restores every temporary change held; removes the journal when done.
    RestoreReport restore();
    /// Keeps the temporary changes as they are: drops the journal and
    /// returns the originals they replaced (for the caller's revert).
    QList<JournalEntry> keep();
    bool holdsTemporary() const { return !m_session.entries.isEmpty(); }
    /// The originals the temporary changes replaced.
    const QList<JournalEntry> &temporaryOriginals() const { return m_session.entries; }
    /// The session journal (temporary changes), empty when none is held.
    QString journalPath() const { return m_session.path; }

private:
    /// One change set's journal: its own (persistent) or the session's
    /// (temporary), and the session's entries before it.
    struct Transaction
    {
        JournalMode mode;
        Journal own;
        QList<JournalEntry> sessionBefore;
    };
    ChangeReport run(const ChangePlan &plan, JournalMode mode);
    Status journalOriginals(Transaction &t, const ChangePlan &plan);
    void rollBack(Transaction &t, ChangeReport &report, qsizetype failedAt);

    SysRoot m_root;
    AttributeWriter &m_writer;
    Journal m_session;
    DeviceLocks m_sessionLocks; ///< held with the temporary changes, released by restore()
};

/// The words of `set`: DEVICE KEY=VALUE... [DEVICE KEY=VALUE...], a word
/// without '=' naming the device the settings after it are for. Checks the
/// shape only (each KEY=VALUE through parseSettingChange); the plan judges
/// devices, keys and values. The errors are the ones `set` prints.
Result<QList<SettingChange>> parseChangeWords(const QStringList &words);

} // namespace blocktune
