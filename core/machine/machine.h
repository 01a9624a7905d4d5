#pragma once
// What blocktune works on: this machine (live, or a recorded tree) or a
// host over ssh, chosen once where a window starts (openMachine()) and
// asked by everything after it. A Machine offers what a view needs: the
// session's options (its backend and why it may not write), measuring (the
// Measurer: read tests, sweeps, counters, the latency loader), the history,
// device events (hotplug), profiles, what it can do, a name to show, and the
// connection's state as signals. Nobody asks "is it a host": the answer to
// every such question is one of the methods below.
//
//   LocalMachine (localmachine.cpp)  this machine's sysfs, or a recorded
//                                    tree's files; never loses a connection
//   HostMachine  (hostmachine.cpp)   a host's agent over ssh (core/remote)
//                                    and the mirror of its devices here

#include "common/result.h"
#include "common/sysroot.h"
#include "history/history.h"
#include "profiles/profiles.h"
#include "readahead/readahead.h"
#include "readtest/measurer.h"
#include "remote/remote.h"
#include "session/session.h"

#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace blocktune {

/// What a machine can do, asked instead of where it is.
struct MachineCapabilities
{
    bool write = false;          ///< changes are allowed (else readOnlyReason() says why)
    bool measure = false;        ///< read tests, sweeps, advice and a measured diagnosis run
    bool latencyProbe = false;   ///< the monitor can ask for latency histograms
    /// The kernel's readahead windows can be watched there (readahead
    /// probe); when not, noReadaheadProbe says why, in words.
    bool readaheadProbe = false;
    QString noReadaheadProbe;
    bool frozenCounters = false; ///< the counters are a recording's files: one reading that never moves
    /// The machine keeps what it measures in its own history (a host's agent
    /// writes it there); false: the console keeps it in this machine's store.
    bool keepsItsOwnHistory = false;
    /// Temporary changes are held by an agent on the machine, which restores
    /// them when the connection ends; false: by this process, at its end.
    bool changesHeldThere = false;
};

/// Follows a machine's block devices and says when they changed (a burst
/// of events is one devicesChanged() once the debounce is over).
class DeviceEvents : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DeviceEvents)

public:
    using QObject::QObject;
    ~DeviceEvents() override = default;

    /// Starts following; false when it cannot (netlink refused).
    virtual bool start() = 0;
    virtual bool isRunning() const = 0;
    /// Told as they happen: the event source ("udev", "kernel"); empty when asked.
    virtual QString source() const = 0;
    /// Asked every so many milliseconds (a host, whose uevents do not
    /// reach here); 0 when told as they happen.
    virtual int pollIntervalMs() const = 0;

Q_SIGNALS:
    /// Devices came, went or changed: scan again.
    void devicesChanged();
    /// No longer followed (a host's agent cannot say any more): `why`.
    void stopped(const QString &why);
};

/// The journals `restore` finds on a machine: its journal folder and every
/// journal there made for its root (findJournals()), named by their paths
/// there, whose owner still runs or not.
struct JournalFolder
{
    QString dir;
    QList<PendingJournal> journals;
};

/// What the agent of a connection that dropped restored (told by the agent
/// that answers now).
struct PreviousEnd
{
    QString why;
    int restored = 0;
    int failed = 0;
};

/// A machine's block devices as `list --json` prints them (docs/json.md),
/// with what the scan could not read (said on stderr by the CLI).
struct DeviceListing
{
    QJsonObject json;
    QStringList warnings;
};

/// The udev rules files one profile has installed on a machine (`profile
/// uninstall`): the folder looked in and the files' names there.
struct InstalledUdevRules
{
    QString dir;
    QStringList files;
};

class Machine : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Machine)

public:
    ~Machine() override = default;

    /// What the title and the messages call it: the host, the recorded
    /// tree's folder, or empty for this machine as it runs.
    virtual QString displayName() const = 0;
    /// The name the machine gives itself (here QSysInfo::machineHostName(),
    /// a host's as its agent says); empty for a recorded tree.
    virtual QString hostName() const;
    /// What a file made for it says it was made on: "host NAME" or "the
    /// recorded tree DIR" (a host's agent serving one: "a recorded tree on
    /// host NAME").
    virtual QString placeName() const;
    /// What the session scans: this machine, the recorded tree, or a host's
    /// mirror here (a recorded tree of the host).
    virtual const SysRoot &root() const = 0;
    /// The session's options: its backend (a host's agent) and why it
    /// refuses to write, if it does.
    virtual SessionOptions sessionOptions() const = 0;
    QString readOnlyReason() const { return sessionOptions().readOnlyReason; }
    virtual MachineCapabilities capabilities() const = 0;

    /// Its block devices scanned now (`probe`: their filesystems' labels
    /// read too, which opens them). This machine's: a scan of root(); a
    /// host's: its agent's (the mirror has no devices to open).
    virtual Result<DeviceListing> listDevices(bool probe) const;

    /// Makes root() hold `devices` (as a user names them) and the devices
    /// they stack with, or every device when empty, before a session is
    /// made on it. This machine's root holds them all already; a host opened
    /// with MirrorAtConnect::Nothing records the first time it is asked
    /// (op "mirror": a few files; empty: the whole host).
    virtual Status recordDevices(const QStringList &devices)
    {
        Q_UNUSED(devices);
        return {};
    }

    /// Its journal folder and the journals in it (this machine's: a look in
    /// journalDirectory(); a host's: its agent's, op "journals"). Unreadable
    /// ones are set aside there, as findJournals() does.
    virtual Result<JournalFolder> journals() const;

    /// Where reads are measured and counters taken: handed to the session's
    /// owner, which hands it to read tests, sweeps, the advisor and the monitor.
    virtual std::shared_ptr<Measurer> measurer() const = 0;

    /// The history database the views read (this machine's store, or the
    /// copy of a host's beside its mirror).
    virtual QString historyPath() const = 0;
    /// Brings historyPath() up to date on a thread of its own, then calls
    /// `done(error)` on `context`'s thread (unless it is gone). False, and
    /// nothing called, when the history is read where it is kept.
    virtual bool refreshHistory(QObject *context, std::function<void(const QString &error)> done) = 0;

    /// Keeps an advice made here in a history kept there (a machine whose
    /// capabilities() say keepsItsOwnHistory: a host's agent keeps its own
    /// read tests and sweeps, and an advice through op keep_advice). Others
    /// refuse: their history is historyPath(), written by the caller.
    virtual Status keepAdvice(const HistoryRecord &record)
    {
        Q_UNUSED(record);
        return makeError(NotSupported, QStringLiteral("this machine's history is %1").arg(historyPath()));
    }

    /// What installing (or removing) a profile's udev rules file there would
    /// find, changing nothing (previewUdevRules() there; a host's: op
    /// preview_rules, its path named HOST:PATH).
    virtual Result<UdevRulesPreview> previewUdevRules(RulesChange change, const QString &fileName,
                                                      const QByteArray &content = {}) const;
    /// The rules files profile `profileName` has installed there
    /// (installedUdevRules(); a host's: op installed_rules).
    virtual Result<InstalledUdevRules> installedUdevRules(const QString &profileName) const;

    /// Starts watching the kernel's readahead there (core/readahead): loaded by
    /// this process as root, else through blocktune-helper (pkexec); a host's
    /// by its agent. Fails with capabilities().noReadaheadProbe where it cannot
    /// be watched, else why it did not load. Nothing stays loaded once the
    /// source is destroyed. Blocks a second or two while it loads: call it off
    /// the GUI thread, and use the source on the thread that opened it.
    virtual Result<std::unique_ptr<ReadaheadSource>> openReadaheadSource() const;

    /// Its profiles (listed, loaded, saved and watched there).
    virtual std::shared_ptr<ProfileLibrary> profiles() const = 0;
    /// The folder a profile made here is saved into (the advisor's).
    virtual QString profileUserDir() const = 0;

    /// Its hotplug, owned by `parent`, not started; nullptr when nothing
    /// changes (a recorded tree).
    virtual DeviceEvents *watchDevices(QObject *parent) = 0;

    /// The connection dropped (connectionLost() was emitted, or it had before
    /// this was asked); always false for this machine.
    virtual bool isConnectionLost() const { return false; }
    /// What the agent of the last connection restored when it ended.
    virtual std::optional<PreviousEnd> previousEnd() const { return std::nullopt; }
    /// Connects again the way it was reached, on a thread of its own:
    /// reconnected() with a fresh machine, or reconnectFailed() with ssh's
    /// words. Nothing happens for a machine without a connection.
    virtual void reconnect() {}

Q_SIGNALS:
    /// The connection ended without being closed (ssh died, the network went).
    void connectionLost(const QString &why);
    void reconnected(const std::shared_ptr<blocktune::Machine> &fresh);
    void reconnectFailed(const QString &message);

protected:
    explicit Machine(QObject *parent = nullptr) : QObject(parent) {}
};

/// This machine (`root` live) or a recorded tree, with the session's
/// `options` (a read-only reason, a test's writer); never blocks.
std::shared_ptr<Machine> openMachine(const SysRoot &root, SessionOptions options = {});
/// A host over ssh: connects, greets its agent and records its mirror into
/// a temporary folder that goes with the machine (`record`: all of it now,
/// for a window; nothing yet, for a CLI command, which asks recordDevices()
/// for what it names). Blocks for ssh and the first snapshot: call it off
/// the GUI thread (openMachineInBackground()).
Result<std::shared_ptr<Machine>> openMachine(const RemoteTarget &target,
                                             MirrorAtConnect record = MirrorAtConnect::Whole);
/// openMachine(target) on a thread of its own; `done` runs on `context`'s
/// thread with the machine (living on that thread) or ssh's/the agent's
/// message. Nothing runs when `context` is gone by then (the connection is
/// dropped, and the agent restores nothing because nothing was changed).
void openMachineInBackground(QObject *context, const RemoteTarget &target,
                             std::function<void(Result<std::shared_ptr<Machine>>)> done);

} // namespace blocktune
