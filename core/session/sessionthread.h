#pragma once
// The console's way to the TuningSession: every operation that can block (a
// scan, a write through the helper waiting for a pkexec prompt, a restore)
// runs on the session's own thread; answers come back as queued signals
// carrying value structs, matched to the request by a ticket. Views ask the
// one SessionThread; none keeps a copy of what the session tracks.

#include "session.h"

#include <QObject>
#include <QThread>

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

/// Lives on the session thread; SessionThread calls it.
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
    void publish(bool modelToo);

Q_SIGNALS:
    void modelChanged(const blocktune::ModelSnapshot &model);
    void scanFailed(quint64 ticket, const QString &message);
    void settingsRead(quint64 ticket, const blocktune::SettingsReply &reply);
    void planned(quint64 ticket, const blocktune::ChangePlan &plan);
    void applied(quint64 ticket, const blocktune::ChangeReport &report);
    void restored(quint64 ticket, const blocktune::RestoreReport &report);
    void stateChanged(const blocktune::SessionState &state);

private:
    SessionState state(bool busy) const;

    TuningSession &m_session;
};

/// Owns the TuningSession, its worker and the thread they run on. Create it
/// on the GUI thread; the destructor waits for the operation in progress,
/// then the session restores its temporary changes.
class SessionThread final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionThread)

public:
    explicit SessionThread(SysRoot root, SessionOptions options = {}, QObject *parent = nullptr);
    ~SessionThread() override;

    /// For work on other threads that drives the session itself (a sweep on
    /// the read test's worker): the session is thread-safe.
    TuningSession &session() { return *m_session; }
    const SysRoot &root() const { return m_session->root(); }
    bool isRecorded() const { return m_session->isRecorded(); }
    /// The host a remote session works on (the root is its mirror), or empty.
    QString remoteHost() const { return m_session->remoteHost(); }
    /// Why writes are refused (shown where Apply would be), or empty.
    const QString &readOnlyReason() const { return m_session->readOnlyReason(); }
    SessionWorker *worker() const { return m_worker; }

    /// The newest model the worker published (nullptr before the first scan).
    ModelSnapshot model() const { return m_model; }
    const SessionState &state() const { return m_state; }

    // Each returns the ticket its answer will carry.
    quint64 rescan();
    quint64 readSettings(const QString &device);
    quint64 plan(const QList<SettingChange> &changes, const PlanOptions &options = {});
    quint64 apply(const ChangePlan &plan, bool temporary = false);
    quint64 restoreTemporary();
    void keepTemporary();
    quint64 revertAll();
    quint64 restoreJournals(const QList<Journal> &journals);
    /// Publishes the session's model and state as they are (after a sweep
    /// that went through the session from another thread): no scan.
    void publish();
    /// Gives up a write that waits for authorization (thread-safe).
    void cancelPendingWrite() { m_session->cancelPendingWrite(); }

Q_SIGNALS:
    /// The same as the worker's, on the GUI thread, after model() is updated.
    void modelChanged(const blocktune::ModelSnapshot &model);
    void stateChanged(const blocktune::SessionState &state);

private:
    template<typename F>
    quint64 post(F &&call);

    std::unique_ptr<TuningSession> m_session;
    QThread m_thread;
    SessionWorker *m_worker = nullptr;
    ModelSnapshot m_model;
    SessionState m_state;
    quint64 m_nextTicket = 1;
};

} // namespace blocktune

Q_DECLARE_METATYPE(blocktune::SettingsReply)
Q_DECLARE_METATYPE(blocktune::SessionState)
Q_DECLARE_METATYPE(blocktune::ModelSnapshot)
Q_DECLARE_METATYPE(blocktune::ChangePlan)
Q_DECLARE_METATYPE(blocktune::ChangeReport)
Q_DECLARE_METATYPE(blocktune::RestoreReport)
Q_DECLARE_METATYPE(blocktune::PlanOptions)
Q_DECLARE_METATYPE(QList<blocktune::SettingChange>)
Q_DECLARE_METATYPE(QList<blocktune::Journal>)
