#pragma once
// What core/remote offers: blocktune on another host over OpenSSH. ssh does
// the authentication, the host-key check and the encryption; blocktune
// writes no network code. The two ends speak JSON lines (core/common/
// jsonlines.h, as the helper does) over ssh's stdin and stdout:
//
//   AgentServer    `blocktune-cli agent` on the remote host: serves one
//                  TuningSession (the same road every local change takes)
//                  and restores every temporary change it holds when its
//                  input ends or a signal arrives (ssh dropped).
//   RemoteSession  the client: runs `ssh [-F FILE] [-o OPT]... HOST CMD`
//                  in a QProcess, greets the agent, sends requests and
//                  collects their events and answers (blocking call() for
//                  the CLI; submit() and signals for an event loop).
//
// The protocol (docs/json.md, "blocktune-cli agent"): every request is an object with
// "op" and a client-chosen "id"; every request gets exactly one answer
// {"id","op","ok",...,"error"?,"code"?}; streaming ops send events
// {"id","event",...} before it. The first request must be
// {"op":"hello","version":kAgentProtocolVersion}.

#include "common/jsonlines.h"
#include "common/result.h"
#include "devices/snapshot.h"
#include "profiles/profiles.h"
#include "readtest/measurer.h"
#include "readtest/readtest.h"
#include "session/session.h"

#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QThread>
#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace blocktune {

/// Bumped on any change one end would misread.
/// 2: changes travel as typed plans ("plan"), answers carry the touched
/// queues' files ("queues"), profiles apply and revert on the host.
/// 3: plans, reports, read tests and sweeps in the names of `--json`
/// (docs/json.md, "One vocabulary").
/// 4: no op "run" (the client runs every command against the host's
/// Machine); ops preview_rules and installed_rules; shadows in profiles.
inline constexpr int kAgentProtocolVersion = 4;
/// Longest request line the agent takes (bytes, newline excluded).
inline constexpr qsizetype kAgentMaxRequest = 64 * 1024;
/// Longest answer line the client takes: a list of thousands of devices.
inline constexpr qsizetype kAgentMaxAnswer = 256 * 1024 * 1024;
/// Bytes of a snapshot tarball per "chunk" event (base64 on the wire).
inline constexpr qint64 kSnapshotChunk = 1024 * 1024;
/// What the agent's hello names itself.
inline constexpr QLatin1StringView kAgentProgram{"blocktune-cli agent"};

/// "agent 3, client 2": which end to upgrade, for a refused hello.
QString protocolMismatchMessage(int agentVersion, int clientVersion, const QString &host = {});

// ---- The agent -------------------------------------------------------------------

/// How the agent may write on its host.
struct AgentPrivilege
{
    WriterFactory writerFactory; ///< empty: the default (direct as root)
    QString readOnlyReason;      ///< non-empty: every write is refused with it
    QString writer;              ///< "direct", "blocktune-helper (sudo -n)", or "none"
};

/// The user the agent runs as (passwd name, else the uid).
QString agentUserName();

/// Root (or a recorded tree): direct writes. Else, when `sudo -n -l HELPER`
/// says the user may run the helper without a password: the helper through
/// `sudo -n` (never pkexec: nobody is there to answer a prompt). Else
/// read-only, with the reason and the sudoers line that would allow it.
AgentPrivilege agentPrivilege(const SysRoot &root, const QString &helperPath);

/// One request being served: what the handler gets.
struct AgentCall
{
    const QJsonObject &request;
    TuningSession &session;
    /// Set when the client asked to stop this op, or the connection ended:
    /// long work checks it after every block.
    const std::atomic_bool *cancel;
    /// Sends {"id":..,"event":NAME, ...body} now. False once the
    /// connection is gone.
    std::function<bool(const QString &name, const QJsonObject &body)> event;
    /// The same with one member whose value is raw JSON text (a monitor
    /// sample, already encoded).
    std::function<bool(const QString &name, const QString &key, QByteArrayView json)> rawEvent;
};

/// An op's handler returns the answer's members ("ok" is added as true
/// unless it sets it; "id" and "op" are added).
using AgentHandler = std::function<QJsonObject(AgentCall &call)>;

/// The answer members for a failed op: {"ok":false,"error":..,"code":..}.
QJsonObject agentError(const Error &error);

class AgentServer final
{
public:
    /// `hello` holds what the greeting tells the client besides the
    /// program and version (host, user, writer, read_only...).
    AgentServer(TuningSession &session, QJsonObject hello);
    ~AgentServer();
    Q_DISABLE_COPY_MOVE(AgentServer)

    /// Adds (or replaces) an op. The built-in ops: hello, stop, settings,
    /// plan, apply, apply_temporary, restore_temporary, keep_temporary,
    /// revert_all, revert_profile, applied_state, dead_journals,
    /// restore_journal, monitor, counters, snapshot, history, profiles,
    /// profile, save_profile.
    void addOp(const QString &name, AgentHandler handler);
    QStringList ops() const;

    struct Outcome
    {
        int signal = 0;        ///< the termination signal that ended it, or 0
        bool inputEnded = false;
        bool outputLost = false;
        RestoreReport restored; ///< the temporary changes put back at the end
    };
    /// Reads requests from `inFd` and answers on `outFd` until the input
    /// ends, a write fails (the reader is gone) or a termination signal
    /// arrives (TerminationSignals must be installed, SIGPIPE ignored).
    /// Ops run one at a time on a thread of their own, so a stop, an EOF or
    /// a signal is seen while one runs. Then the running op is cancelled and
    /// every temporary change the session holds is restored.
    Outcome serve(int inFd, int outFd);

private:
    QJsonObject handleHello(const QJsonObject &request);
    void handleLine(const JsonLineReader::Line &line);
    void handleStop(const QJsonObject &request);
    void refuse(const QJsonObject &request, const Error &error);
    void runQueue();
    bool writeLine(QByteArrayView line);
    void answer(const QJsonObject &request, QJsonObject body);

    TuningSession &m_session;
    QJsonObject m_hello;
    std::map<QString, AgentHandler> m_ops;
    int m_outFd = -1;
    bool m_greeted = false;

    std::mutex m_mutex; ///< guards the queue, m_runningId and output
    std::condition_variable m_wake;
    std::deque<QJsonObject> m_queue;
    QJsonValue m_runningId;
    bool m_running = false;
    bool m_shutdown = false;
    std::atomic_bool m_cancel{false};
    std::atomic_bool m_outputLost{false};
    std::mutex m_writeMutex;
};

/// An agent that ended holding temporary changes (its connection dropped)
/// leaves what it restored in the journal directory, so the next agent's
/// hello can tell the client that reconnects: {"when","why","restored",
/// "failed","messages"}. Nothing is kept when nothing was held.
void recordAgentEnd(const AgentServer::Outcome &outcome);
/// The record an earlier agent left (and removes it), or empty.
QJsonObject takePreviousAgentEnd();

// ---- The client ------------------------------------------------------------------

/// Where and how to reach an agent.
struct RemoteTarget
{
    QString host;            ///< anything ssh takes: user@server, a ~/.ssh/config alias
    QString sshConfig;       ///< -F FILE, when set
    QStringList sshOptions;  ///< -o OPT each
    QString remoteCommand;   ///< default "blocktune-cli agent"
    QString ssh = QStringLiteral("ssh");
    /// Who asks: the "source" of the read tests and sweeps the agent keeps
    /// in the host's history ("console" or "cli", as each keeps them here).
    QString historySource = QStringLiteral("console");
};

/// {ssh, [-F FILE], [-o OPT]..., HOST, CMD}; refuses a host that is empty
/// or starts with '-' (ssh would take it for an option).
Result<QStringList> sshCommandLine(const RemoteTarget &target);

/// The agent's greeting.
struct AgentHello
{
    int version = 0;
    QString host;
    QString user;
    QString writer;
    QString readOnlyReason;
    QJsonObject raw;
};

class RemoteSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteSession)

public:
    explicit RemoteSession(RemoteTarget target, QObject *parent = nullptr);
    ~RemoteSession() override;

    /// ssh's stderr goes straight to ours (the CLI: ssh's own words, as it
    /// printed them), instead of being collected for sshErrors().
    void setForwardSshErrors(bool forward) { m_forwardErrors = forward; }

    /// Starts ssh and greets the agent; blocks up to `timeoutMs`. Fails with
    /// ssh's exit and its message (host key, authentication), or the
    /// agent's refusal (a protocol mismatch names both versions).
    Status open(int timeoutMs = 60000);
    bool isOpen() const;
    const AgentHello &hello() const { return m_hello; }
    const RemoteTarget &target() const { return m_target; }
    /// What ssh wrote on stderr (when not forwarded).
    QByteArray sshErrors() const { return m_sshErrors; }

    /// Sends `request` (an "id" is added) and blocks until its answer;
    /// events on the way go to `onEvent`. Fails when the connection ends
    /// first ("connection to HOST lost").
    /// `cancel` set while it waits: the agent is asked to stop the op
    /// ({"op":"stop"}), which then answers as a stopped op does.
    Result<QJsonObject> call(QJsonObject request, const std::function<void(const QJsonObject &)> &onEvent = {},
                             const std::atomic_bool *cancel = nullptr);
    /// For an event loop: sends and returns the id; eventReceived() and
    /// answerReceived() follow.
    quint64 submit(QJsonObject request);
    /// The agent's host recorded (op "snapshot") into `tarball` (*.tar.gz,
    /// written to TARBALL.part and renamed when complete): what
    /// `blocktune-cli record` writes there, carried here.
    Result<SnapshotReport> fetchSnapshot(const QString &tarball);
    /// An op that sends a file in "chunk" events (snapshot, history_db)
    /// into `into` (written to INTO.part, renamed over INTO when complete
    /// and as long as the answer says; nothing written when it says
    /// "empty"); the op's answer.
    Result<QJsonObject> fetchFile(const QJsonObject &request, const QString &into);
    /// Closes ssh's stdin: the agent restores its temporary changes and ends.
    void close(int waitMs = 5000);

Q_SIGNALS:
    void eventReceived(quint64 id, const QJsonObject &event);
    void answerReceived(quint64 id, const QJsonObject &answer);
    /// The connection ended without close() (ssh died, the network went).
    void connectionLost(const QString &why);

private:
    void readLines();
    QString lostMessage() const;

    RemoteTarget m_target;
    QProcess *m_process = nullptr;
    JsonLineReader m_reader{kAgentMaxAnswer};
    AgentHello m_hello;
    QByteArray m_sshErrors;
    bool m_forwardErrors = false;
    bool m_closing = false;
    quint64 m_nextId = 1;
    // The call() waiting now: its id, events and answer.
    quint64 m_waitId = 0;
    std::function<void(const QJsonObject &)> m_waitEvent;
    std::optional<QJsonObject> m_waitAnswer;
};

// ---- The console's remote session ------------------------------------------------

/// A RemoteSession on a thread of its own, for callers on several threads
/// (the session thread, the monitor's, a profile worker's): call() runs on
/// that thread, one request at a time, and blocks the caller until the
/// answer. Never call it from the GUI thread.
class RemoteLink final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteLink)

public:
    /// Starts ssh and greets the agent (blocks; see RemoteSession::open).
    static Result<std::shared_ptr<RemoteLink>> connect(const RemoteTarget &target);
    /// Closes ssh: the agent restores what it still holds and ends.
    ~RemoteLink() override;

    const RemoteTarget &target() const { return m_target; }
    const AgentHello &hello() const { return m_hello; }
    /// ssh ended without close(): every call fails from then on.
    bool isLost() const { return m_lost.load(); }

    Result<QJsonObject> call(const QJsonObject &request, const std::function<void(const QJsonObject &)> &onEvent = {},
                             const std::atomic_bool *cancel = nullptr);
    Result<SnapshotReport> fetchSnapshot(const QString &tarball);
    Result<QJsonObject> fetchFile(const QJsonObject &request, const QString &into);

Q_SIGNALS:
    /// From the link's thread: ssh died or the network went (why, in ssh's words).
    void connectionLost(const QString &why);

private:
    explicit RemoteLink(RemoteTarget target);
    template<typename F>
    auto onLinkThread(F &&work);

    RemoteTarget m_target;
    AgentHello m_hello;
    QThread *m_thread = nullptr;
    RemoteSession *m_session = nullptr; ///< lives on m_thread
    std::atomic_bool m_lost{false};
};

/// A connected host and its mirror: what a console window on it needs.
struct RemoteConnection
{
    std::shared_ptr<RemoteLink> link;
    std::shared_ptr<SessionBackend> backend;         ///< the session's changes, made there
    std::shared_ptr<Measurer> measurer;              ///< its read tests, sweeps and counters
    /// A consistent copy of the host's history database into `file` (left
    /// as it was when the host has none yet).
    std::function<Status(const QString &file)> fetchHistory;
    QString mirror; ///< the mirror's directory (a recorded tree of the host)
    /// Records `devices` (as a user names them) and every device they stack
    /// with into the mirror, beside what it holds (op "mirror": a few files,
    /// no tarball); empty: the whole host, as reload() does.
    std::function<Status(const QStringList &devices)> recordMirror;
    /// The host's profiles (its agent user's folder, its /etc, the presets),
    /// listed, loaded and saved there, and watched by asking every few seconds.
    std::shared_ptr<ProfileLibrary> profiles;
};

/// The profiles of the host behind `link` (what `--host HOST profile list`
/// shows), watched by asking its agent every `watchIntervalMs`.
std::shared_ptr<ProfileLibrary> makeHostProfileLibrary(std::shared_ptr<RemoteLink> link, int watchIntervalMs = 5000);

/// The session options of a window on `connection`: its backend and the
/// host's read-only reason (its measurer goes beside the session).
SessionOptions hostSessionOptions(const RemoteConnection &connection);

/// The applied state as the agent sends it ({"path","profiles","created",
/// "entries"}), and back.
QJsonObject appliedStateToJson(const AppliedState &state);
Result<AppliedState> appliedStateFromJson(const QJsonValue &v);

/// How much of a host connectToHost() records into the mirror.
enum class MirrorAtConnect {
    Whole,  ///< every device at once (a window shows them all)
    Nothing ///< none yet: recordMirror() brings what a command names
};

/// Connects to `target` and records the host into `mirrorDir` (an empty
/// directory the caller owns): blocks for ssh and the first snapshot.
Result<RemoteConnection> connectToHost(const RemoteTarget &target, const QString &mirrorDir,
                                       MirrorAtConnect record = MirrorAtConnect::Whole);

/// Hosts named in an ssh_config file (`Host` lines without wildcards or
/// negations, in file order, each once; `Include` is not followed).
QStringList sshConfigHosts(const QString &configFile);

} // namespace blocktune
