#pragma once
// Where a TuningSession's changes are made. One interface, two
// implementations, chosen once where the session is made:
//   - this machine (makeLocalBackend(): the Tuner, the journal, the writer),
//   - another host (core/remote's agent backend: the agent over ssh
//     journals, writes, reads back and restores there, and the session's
//     root is a mirror of that host which the backend keeps in step).
// The session keeps what both share (the model, the lock, the read-only
// reason) and calls its backend under that lock, one call at a time.

#include "common/result.h"
#include "common/sysroot.h"
#include "privilege/privilege.h"
#include "tuning/tuning.h"

#include <functional>
#include <memory>
#include <optional>

namespace blocktune {

/// Makes a local session's writer on its first write.
using WriterFactory = std::function<std::unique_ptr<AttributeWriter>(const SysRoot &)>;

/// applyRemembered(): the change and where its before-state is kept.
struct RememberedApply
{
    ChangeReport report;
    QString statePath;    ///< the applied state (on the host for a host: HOST:PATH)
    QStringList messages; ///< what the user should know besides the report
};

/// revertRemembered(): what was remembered and what came back.
struct RememberedRevert
{
    std::optional<AppliedState> state; ///< nullopt: nothing was remembered
    RestoreReport restore;
};

class SessionBackend
{
public:
    virtual ~SessionBackend() = default;

    /// Read tests, sweeps and advice can measure the machine behind this
    /// backend (a live machine here, or the host's agent).
    virtual bool canMeasure() const = 0;
    /// "direct", "blocktune-helper (pkexec)" ("" before a local session's
    /// first write), "root@server: direct".
    virtual QString writerDescription() const = 0;
    /// A local writer is started (the helper authorized); a host's is
    /// whenever the host may write.
    virtual bool writerStarted() const = 0;
    /// From any thread: gives up a write that waits (a pkexec prompt).
    virtual void cancelPendingWrite() = 0;

    /// Before a full rescan: the host's mirror recorded again. Local: nothing.
    virtual Status reload() = 0;

    /// Journals the originals, writes, reads back, rolls back on a failure;
    /// a temporary change is held until restoreTemporary(). Afterwards the
    /// session's root holds the new values of every queue the plan touched.
    virtual ChangeReport apply(const ChangePlan &plan, JournalMode mode) = 0;
    virtual RestoreReport restoreTemporary() = 0;
    virtual void keepTemporary() = 0;
    virtual RestoreReport revertAll() = 0;
    virtual int temporaryCount() const = 0;
    virtual int persistentCount() const = 0;
    /// The temporary changes' journal, empty when none is held.
    virtual QString journalPath() const = 0;

    /// apply() of a persistent change whose originals are first merged into
    /// the applied state on disk under `profile` (a profile's apply), so a
    /// later process can revert it; when nothing stayed, the state is put
    /// back as it was.
    virtual RememberedApply applyRemembered(const ChangePlan &plan, const QString &profile) = 0;
    /// Brings the applied state's originals back and settles its file.
    virtual RememberedRevert revertRemembered() = 0;
    virtual Result<std::optional<AppliedState>> appliedState() = 0;
    /// Where the applied state is kept (for "nothing remembered in PATH").
    virtual QString appliedStatePlace() = 0;

    /// Journals whose process is gone (crash, kill -9), oldest first; a
    /// host's are the host's (paths HOST:PATH).
    virtual QList<PendingJournal> deadJournals() = 0;
    /// One of them brought back. A host's agent takes only a journal that
    /// is one of its dead ones, named by its path, and restores it from its
    /// own file.
    virtual RestoreReport restoreJournal(const Journal &journal) = 0;

    /// A profile's udev rules installed (or removed) at boot, through the
    /// writer this backend already has.
    virtual Result<UdevRulesResult> changeUdevRules(RulesChange change, const QString &fileName,
                                                    const QByteArray &content) = 0;
};

/// This machine (or a recorded tree): the Tuner, the journal and one
/// writer made by `factory` on the first write (empty: makeAttributeWriter()).
std::unique_ptr<SessionBackend> makeLocalBackend(const SysRoot &root, WriterFactory factory = {});

} // namespace blocktune
