#pragma once
// What core/session offers: the one road every change travels. A
// TuningSession owns, for one machine (live or a recorded tree):
//   - the SysRoot,
//   - one device model, scanned on first use and again only on hotplug or
//     when asked (rescan()), never on every call,
//   - one AttributeWriter, made on the first write (direct as root; else one
//     blocktune-helper process, so polkit asks once per session),
//   - the journal and the temporary changes with their restore,
//   - what this session changed for good, so revertAll() can undo it.
// The CLI's get/set/restore, the console's settings panel, read-test sweeps,
// profiles and the advisor all go through it.
//
//     TuningSession session(root);
//     ChangePlan plan = session.plan({{"sdb", "read_ahead_kb", SettingValue(quint64(4096))}});
//     if (plan.ok()) show(plan);                 // the preview
//     ChangeReport done = session.apply(plan);   // journal, writes, read-back
//
// Every operation is synchronous. A session is used from one thread at a
// time: a CLI command's, the agent's queue thread, the console's session
// thread (ConsoleSession, core/console/consolesession.h, so a pkexec prompt
// never freezes the window; its jobs reach the session through a
// SessionPort whose calls run on that thread). What may be read from any
// thread is fixed at construction (root(), readOnlyReason(),
// capabilities()), plus cancelPendingWrite(), which is
// meant to be called from another thread while a write waits. The plain
// lock each public call takes once only serializes a caller that breaks
// the rule; no call takes it twice (the *Locked helpers), so the session
// needs no recursive mutex.

#include "common/result.h"
#include "common/sysroot.h"
#include "devices/devicemodel.h"
#include "privilege/privilege.h"
#include "session/sessionbackend.h"
#include "tuning/tuning.h"

#include <QMutex>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace blocktune {

/// What a session can do where it works: callers ask this instead of
/// combining "recorded" and "remote".
struct SessionCapabilities
{
    bool canMeasure = false; ///< read tests, sweeps, advice and measured diagnosis run
    bool canWrite = false;   ///< changes are allowed (else readOnlyReason says why)
};

/// Something a session did to the devices (wrote, tried, restored,
/// reverted), described once where it happened: what every view's status
/// line shows, whichever view or job asked for it (ConsoleSession::happened).
struct SessionEvent
{
    enum class Kind {
        Applied,         ///< a change set written for good
        Tried,           ///< written as a temporary change
        Kept,            ///< the temporary changes kept
        Restored,        ///< the temporary changes' values brought back
        Reverted,        ///< everything this session changed, undone
        ProfileApplied,  ///< a profile's change set, its before-state remembered
        ProfileReverted, ///< a profile's remembered values brought back
        JournalRestored, ///< what a dead session left, brought back
        Measured,        ///< a job's temporary changes for measuring, all folded into one
    };
    Kind kind = Kind::Applied;
    bool ok = true;       ///< false: refused, failed, or not everything came back
    QString text;         ///< one sentence, in the user's language
    QStringList details;  ///< one line per setting: "loop5 read_ahead_kb: 2560 → 768"
    QStringList devices;  ///< the devices it touched
    /// The ticket of the ConsoleSession request (or job) that made it, so a
    /// view can tell its own writes, which it describes itself, from the
    /// others'; 0 when nobody asked through a ticket (keepTemporary).
    quint64 ticket = 0;
};

/// Builds the events (sessionevent.cpp); the session calls them.
SessionEvent changeEvent(const ChangeReport &report, SessionEvent::Kind kind, const QString &profile = {});
SessionEvent restoreEvent(const RestoreReport &report, SessionEvent::Kind kind, const QStringList &profiles = {});
SessionEvent keptEvent(int count);
/// Several events of one job told as what they did together: its temporary
/// changes (tried and restored) as one Measured event, then the others as
/// they were. Empty in, empty out.
QList<SessionEvent> foldJobEvents(const QList<SessionEvent> &events);

struct SessionOptions
{
    /// Empty: makeAttributeWriter() (direct as root or on a tree, else the
    /// helper). For the local backend only.
    WriterFactory writerFactory;
    /// Probe filesystems with libblkid when scanning (opens every device):
    /// only `list` wants that; tuning never does.
    bool probeFilesystems = false;
    /// Called (on the calling thread, under the session's lock) with every
    /// write, restore and revert it made; empty: nobody listens.
    std::function<void(const SessionEvent &)> eventSink;
    /// Refuse every write with this reason (the console on a recorded
    /// tree, a remote host without root). Empty: writes allowed.
    QString readOnlyReason;
    /// Where changes are made; empty: this machine (makeLocalBackend()
    /// with writerFactory). A host's (core/remote) keeps the root, a
    /// mirror of the host, in step with every change it makes there.
    std::shared_ptr<SessionBackend> backend;
};

/// A session as long work sees it: the calls sweeps, the advisor and a
/// profile's apply, revert, verify and install make, and nothing else.
/// TuningSession is one (the CLI and the agent hand theirs over directly);
/// the console hands a job a port whose every call is carried out on the
/// session's own thread (ConsoleSession::runJob), so no other thread ever
/// touches its TuningSession. Each call is one step, complete when it
/// returns; nothing here hands the session itself out.
class SessionPort
{
public:
    virtual ~SessionPort() = default;

    /// Fixed when the session was made.
    virtual const SysRoot &root() const = 0;
    virtual SessionCapabilities capabilities() const = 0;
    /// Fixed when the session was made: why writes are refused, or empty.
    virtual const QString &readOnlyReason() const = 0;

    virtual Result<std::shared_ptr<const DeviceModel>> model() = 0;
    virtual Result<std::shared_ptr<const DeviceModel>> rescan() = 0;
    virtual Result<DeviceSettings> settings(const QString &device) = 0;

    virtual ChangePlan plan(const QList<SettingChange> &changes, const PlanOptions &options = {}) = 0;
    /// Planned and written as one step (nothing else runs in between).
    virtual ChangeReport applyTemporary(const QList<SettingChange> &changes, const PlanOptions &options = {}) = 0;
    virtual RestoreReport restoreTemporary() = 0;
    virtual bool holdsTemporary() const = 0;
    virtual QString journalPath() const = 0;

    virtual RememberedApply applyRemembered(const ChangePlan &plan, const QString &profile) = 0;
    virtual RememberedRevert revertRemembered() = 0;
    virtual Result<std::optional<AppliedState>> appliedState() = 0;
    virtual Result<UdevRulesResult> changeUdevRules(RulesChange change, const QString &fileName,
                                                    const QByteArray &content = {}) = 0;
};

class TuningSession final : public SessionPort
{
public:
    explicit TuningSession(SysRoot root, SessionOptions options = {});
    /// Restores the temporary changes still held (persistent ones stay).
    ~TuningSession() override;
    Q_DISABLE_COPY_MOVE(TuningSession)

    const SysRoot &root() const override { return m_root; }
    /// A recorded tree: nothing is measured here, and writes land in its
    /// files. A host's session's mirror is one too (measuring happens there).
    bool isRecorded() const { return !m_root.isLive(); }
    /// Where the session works and what it can do there.
    SessionCapabilities capabilities() const override;
    /// Why this session refuses to write, or empty when it may.
    const QString &readOnlyReason() const override { return m_options.readOnlyReason; }

    // ---- The device model -------------------------------------------------
    /// The model, scanned on the first call; the same snapshot until rescan().
    Result<std::shared_ptr<const DeviceModel>> model() override;
    /// Scans again (hotplug, or a value changed outside this session).
    Result<std::shared_ptr<const DeviceModel>> rescan() override;
    /// How many times this session scanned the devices.
    int scanCount() const { return m_scans.load(); }

    // ---- Reading ----------------------------------------------------------
    /// A device's settings now (values read from sysfs; identity from the model).
    Result<DeviceSettings> settings(const QString &device) override;

    // ---- Changing ----------------------------------------------------------
    /// Validates once against the model: the plan is the preview and what
    /// apply() writes, unchanged.
    ChangePlan plan(const QList<SettingChange> &changes, const PlanOptions &options = {}) override;
    /// Journals the originals, writes in order, reads back; rolls back on a
    /// failed write. The change stays; revertAll() can still undo it.
    ChangeReport apply(const ChangePlan &plan);
    /// The same, held until restoreTemporary(), revertAll() or destruction
    /// (or `blocktune-cli restore` after a kill -9): the values from before
    /// the FIRST temporary change come back.
    ChangeReport applyTemporary(const ChangePlan &plan);
    /// plan() then apply(), for callers that show no preview.
    ChangeReport apply(const QList<SettingChange> &changes, const PlanOptions &options = {});
    ChangeReport applyTemporary(const QList<SettingChange> &changes, const PlanOptions &options = {}) override;
    /// Brings back the values the temporary changes replaced.
    RestoreReport restoreTemporary() override;
    /// Keeps the temporary changes ("Try for 60 s", then Keep): they become
    /// this session's persistent changes, which revertAll() still undoes.
    void keepTemporary();
    /// Undoes everything this session changed, temporary and persistent.
    RestoreReport revertAll();

    bool holdsTemporary() const override;
    /// Attributes held by temporary changes ("2 temporary changes will be restored").
    int temporaryCount() const;
    /// Attributes this session changed for good (what revertAll() adds).
    int persistentCount() const;
    /// The temporary changes' journal, empty when none is held.
    QString journalPath() const override;

    // ---- A profile's before-state, kept across processes -----------------------
    /// apply() that first remembers the plan's originals in the applied
    /// state under `profile` (journal.cpp), so `profile revert` in any later
    /// process brings them back; where the session works (a host's state
    /// is the host's).
    RememberedApply applyRemembered(const ChangePlan &plan, const QString &profile) override;
    /// Brings the remembered originals back.
    RememberedRevert revertRemembered() override;
    Result<std::optional<AppliedState>> appliedState() override;

    // ---- udev rules (a profile installed at boot) -----------------------------
    /// installUdevRules()/removeUdevRules() through this session's writer:
    /// as a user, the helper it already started (one prompt per session).
    /// Refused with readOnlyReason() on a read-only session.
    Result<UdevRulesResult> changeUdevRules(RulesChange change, const QString &fileName,
                                            const QByteArray &content = {}) override;

    // ---- Journals of sessions that died -------------------------------------
    /// Journals whose process is gone (crash, kill -9), oldest first.
    QList<PendingJournal> deadJournals() const;
    RestoreReport restoreJournal(const Journal &journal);

    // ---- The writer ----------------------------------------------------------
    /// True once the writer exists (for the helper: started and authorized).
    bool writerStarted() const;
    /// "direct", "blocktune-helper (pkexec)", or "" before the first write.
    QString writerDescription() const;
    /// From any thread: gives up a write that waits (a pkexec prompt); the
    /// change set fails with Interrupted and what it wrote is rolled back.
    void cancelPendingWrite();

private:
    // The *Locked functions run under m_lock, which the public ones take
    // once: a plain mutex, so nothing may lock it twice.
    Result<std::shared_ptr<const DeviceModel>> modelLocked();
    ChangePlan planLocked(const QList<SettingChange> &changes, const PlanOptions &options);
    void refreshLocked(const QStringList &queues);
    ChangeReport runLocked(const ChangePlan &plan, JournalMode mode);
    /// Hands an event to the options' sink (under the lock: in order).
    void tell(const SessionEvent &event) const;
    /// The refusal of a read-only session, or nullopt when it may write.
    std::optional<ChangeReport> refusedLocked(const ChangePlan &plan) const;

    const SysRoot m_root;
    const SessionOptions m_options;
    mutable QMutex m_lock;
    std::shared_ptr<const DeviceModel> m_model;
    std::shared_ptr<SessionBackend> m_backend; ///< chosen once, in the constructor
    std::atomic_int m_scans{0};
};

/// RAII for one temporary change set: applied in the constructor, restored
/// (with every other temporary change the session holds) in the destructor.
class TemporarySettings final
{
public:
    TemporarySettings(SessionPort &session, const QList<SettingChange> &changes, const PlanOptions &options = {});
    ~TemporarySettings();
    Q_DISABLE_COPY_MOVE(TemporarySettings)

    bool ok() const { return m_report.ok(); }
    const ChangeReport &report() const { return m_report; }
    /// Restores now instead of at destruction.
    RestoreReport restore();

private:
    SessionPort &m_session;
    ChangeReport m_report;
    bool m_restored = false;
};

} // namespace blocktune
