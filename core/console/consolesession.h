#pragma once
// The console's one door to its TuningSession, which only the session's own
// thread ever touches. Every operation that can block (a scan, a write
// through the helper waiting for a pkexec prompt, a restore) runs there;
// answers come back as queued signals carrying value structs, matched to
// the request by a ticket. Work that drives the session for a while (a
// sweep, an advice, a profile's apply) is a job: it runs on its view's
// worker thread, and runJob() hands it a SessionPort (core/session) whose
// every call is queued onto the session thread and waited for, one step at
// a time, so the panels' requests are answered between a sweep's steps;
// when the job ends, what it changed is published. Nothing hands the
// session out; views ask the one ConsoleSession, and none keeps a copy of
// what the session tracks.

#include "readtest/measurer.h"
#include "session/session.h"

#include <QObject>
#include <QThread>

#include <functional>
#include <atomic>
#include <memory>
#include <optional>

namespace blocktune {

/// A device's settings as read on the session thread.
struct SettingsReply
{
    QString device;
    std::optional<DeviceSettings> settings; ///< nullopt: see error
    QString error;
};

/// What the status bar shows about the session.
struct SessionState
{
    int temporary = 0;     ///< attributes held by temporary changes
    int persistent = 0;    ///< attributes changed for good this session
    bool writerStarted = false;
    QString writer;        ///< "direct", "blocktune-helper (pkexec)", or empty
    bool busy = false;     ///< a write is in progress (perhaps waiting for a prompt)
};

using ModelSnapshot = std::shared_ptr<const DeviceModel>;

/// Lives on the session thread; ConsoleSession calls it.
class SessionWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionWorker)

public:
    explicit SessionWorker(TuningSession &session) : m_session(session) {}
    ~SessionWorker() override = default;

    void rescan(quint64 ticket);
    void readSettings(quint64 ticket, const QString &device);
    void plan(quint64 ticket, const QList<blocktune::SettingChange> &changes, const blocktune::PlanOptions &options);
    void apply(quint64 ticket, const blocktune::ChangePlan &plan, bool temporary);
    void restoreTemporary(quint64 ticket);
    void keepTemporary();
    void revertAll(quint64 ticket);
    void restoreJournals(quint64 ticket, const QList<blocktune::Journal> &journals);
    void findDeadJournals(quint64 ticket);
    void publish(bool modelToo);
    /// Emits happened() for each event the session told on this thread
    /// since the last call (its writes, restores and reverts), carrying
    /// the ticket of the request that made them.
    void publishEvents(quint64 ticket);
    /// Where the session's sink puts what it told: to the job whose call
    /// runs (callForJob()), else kept for publishEvents().
    void takeEvent(const blocktune::SessionEvent &event);

Q_SIGNALS:
    void modelChanged(const blocktune::ModelSnapshot &model);
    void scanFailed(quint64 ticket, const QString &message);
    void settingsRead(quint64 ticket, const blocktune::SettingsReply &reply);
    void planned(quint64 ticket, const blocktune::ChangePlan &plan);
    void applied(quint64 ticket, const blocktune::ChangeReport &report);
    void restored(quint64 ticket, const blocktune::RestoreReport &report);
    void deadJournalsFound(quint64 ticket, const QList<blocktune::PendingJournal> &journals);
    void stateChanged(const blocktune::SessionState &state);
    void happened(const blocktune::SessionEvent &event);

private:
    friend struct JobDoor; // the one caller of callForJob()

    SessionState state(bool busy) const;
    /// A job's call, on this thread: `call` on the session, what the
    /// session tells meanwhile added to `told`.
    void callForJob(QList<blocktune::SessionEvent> *told, const std::function<void(TuningSession &)> &call);

    TuningSession &m_session;
    QList<SessionEvent> m_events; ///< told, not yet published
    QList<SessionEvent> *m_jobEvents = nullptr; ///< during callForJob() only
};

/// What a job is handed for as long as it runs: the session's calls, each
/// carried out on the session thread, and where reads are measured beside
/// it (this machine, or the session's host; the measurer is called on the
/// job's thread).
struct SessionJobContext
{
    SessionPort &session;
    Measurer &measurer;
};
using SessionJob = std::function<void(const SessionJobContext &)>;

struct JobDoor; // consolesession.cpp

/// Owns the TuningSession, its measurer, its worker and the thread they run
/// on. Create it on the GUI thread; the destructor waits for the operation
/// in progress, then the session restores its temporary changes. Jobs run
/// on their callers' threads, which must end before this does.
class ConsoleSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsoleSession)

public:
    /// `measurer` empty: this machine's (makeLocalMeasurer()).
    explicit ConsoleSession(SysRoot root, SessionOptions options = {}, std::shared_ptr<Measurer> measurer = {},
                            QObject *parent = nullptr);
    ~ConsoleSession() override;

    const SysRoot &root() const { return m_session->root(); }
    bool isRecorded() const { return m_session->isRecorded(); }
    /// Where the session works and what it can do there.
    SessionCapabilities capabilities() const { return m_session->capabilities(); }
    /// Why writes are refused (shown where Apply would be), or empty.
    const QString &readOnlyReason() const { return m_session->readOnlyReason(); }
    SessionWorker *worker() const { return m_worker; }

    /// The newest model the worker published (nullptr before the first scan).
    ModelSnapshot model() const { return m_model; }
    /// The newest state (the writer, the counts); before the first answer,
    /// as the session was made.
    const SessionState &state() const { return m_state; }
    /// The last thing the session did to the devices (happened()), whoever
    /// asked for it; nullopt before the first.
    const std::optional<SessionEvent> &lastEvent() const { return m_lastEvent; }

    // Each returns the ticket its answer will carry.
    quint64 rescan();
    /// How the rescans went, for a report of a list that did not follow:
    /// "rescans asked A (posted P, started S), models published M, a
    /// rescan queued: ticket T".
    QString rescanReport() const;
    quint64 readSettings(const QString &device);
    quint64 plan(const QList<SettingChange> &changes, const PlanOptions &options = {});
    quint64 apply(const ChangePlan &plan, bool temporary = false);
    quint64 restoreTemporary();
    void keepTemporary();
    quint64 revertAll();
    quint64 restoreJournals(const QList<Journal> &journals);
    /// Journals of sessions that died (crash, kill -9): the worker's
    /// deadJournalsFound().
    quint64 findDeadJournals();
    /// Runs `job` on `context`'s thread (a view's worker thread: a sweep
    /// takes minutes, and the session thread stays free for the panels
    /// between the job's calls), handing it a SessionPort whose calls run
    /// on the session thread while the job's thread waits; then the model
    /// and state it left are published, and jobFinished(ticket) follows
    /// them. A call made after this object began to go fails ("the
    /// session has ended") instead of waiting.
    quint64 runJob(QObject *context, SessionJob job);
    /// Gives up a write that waits for authorization (thread-safe).
    void cancelPendingWrite() { m_session->cancelPendingWrite(); }

Q_SIGNALS:
    /// The same as the worker's, on the GUI thread, after model() is updated.
    void modelChanged(const blocktune::ModelSnapshot &model);
    void stateChanged(const blocktune::SessionState &state);
    /// A job's end, after the model and state it left were published.
    void jobFinished(quint64 ticket);
    /// The session wrote, tried, restored or reverted something: the one
    /// place that says what happened, for every view's status line. A
    /// job's events come when it ends, its temporary changes for measuring
    /// folded into one (foldJobEvents()); the others after their answer.
    void happened(const blocktune::SessionEvent &event);

private:
    template<typename F>
    quint64 post(F &&call);
    void announce(const blocktune::SessionEvent &event);

    std::unique_ptr<TuningSession> m_session;
    std::shared_ptr<Measurer> m_measurer;
    QThread m_thread;
    SessionWorker *m_worker = nullptr;
    /// Where jobs' calls enter the session thread (made by the first
    /// runJob(), closed by the destructor); jobs' ports share it.
    std::shared_ptr<JobDoor> m_door;
    ModelSnapshot m_model;
    SessionState m_state;
    std::optional<SessionEvent> m_lastEvent;
    quint64 m_nextTicket = 1;
    /// The ticket of the rescan queued and not started yet (0: none): a
    /// rescan asked meanwhile is that one.
    std::shared_ptr<std::atomic<quint64>> m_queuedRescan = std::make_shared<std::atomic<quint64>>(0);
    quint64 m_rescansAsked = 0;
    quint64 m_rescansPosted = 0;
    std::shared_ptr<std::atomic<quint64>> m_rescansStarted = std::make_shared<std::atomic<quint64>>(0);
    quint64 m_modelsPublished = 0;
};

} // namespace blocktune

Q_DECLARE_METATYPE(blocktune::SettingsReply)
Q_DECLARE_METATYPE(blocktune::SessionState)
Q_DECLARE_METATYPE(blocktune::SessionEvent)
Q_DECLARE_METATYPE(blocktune::ModelSnapshot)
Q_DECLARE_METATYPE(blocktune::ChangePlan)
Q_DECLARE_METATYPE(blocktune::ChangeReport)
Q_DECLARE_METATYPE(blocktune::RestoreReport)
Q_DECLARE_METATYPE(blocktune::PlanOptions)
Q_DECLARE_METATYPE(QList<blocktune::SettingChange>)
Q_DECLARE_METATYPE(QList<blocktune::Journal>)
Q_DECLARE_METATYPE(QList<blocktune::PendingJournal>)
