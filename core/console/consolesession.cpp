#include "consolesession.h"

#include "monitor/monitor.h"

#include <condition_variable>
#include <mutex>
#include <type_traits>
#include <utility>

namespace blocktune {

// ---- SessionWorker (session thread) ---------------------------------------------

namespace {

SessionState stateOf(const TuningSession &session, bool busy)
{
    SessionState s;
    s.temporary = session.temporaryCount();
    s.persistent = session.persistentCount();
    s.writerStarted = session.writerStarted();
    s.writer = session.writerDescription();
    s.busy = busy;
    return s;
}

} // namespace

SessionState SessionWorker::state(bool busy) const
{
    return stateOf(m_session, busy);
}

void SessionWorker::takeEvent(const SessionEvent &event)
{
    if (m_jobEvents)
        m_jobEvents->append(event);
    else
        m_events << event;
}

void SessionWorker::callForJob(QList<SessionEvent> *told, const std::function<void(TuningSession &)> &call)
{
    QList<SessionEvent> *const outer = std::exchange(m_jobEvents, told);
    call(m_session);
    m_jobEvents = outer;
}

void SessionWorker::publishEvents(quint64 ticket)
{
    const QList<SessionEvent> events = std::exchange(m_events, {});
    for (SessionEvent e : events) {
        e.ticket = ticket;
        Q_EMIT happened(e);
    }
}

void SessionWorker::publish(bool modelToo)
{
    if (modelToo)
        if (auto model = m_session.model())
            Q_EMIT modelChanged(*model);
    Q_EMIT stateChanged(state(false));
}

void SessionWorker::rescan(quint64 ticket)
{
    auto model = m_session.rescan();
    if (!model) {
        Q_EMIT scanFailed(ticket, model.error().message);
        return;
    }
    Q_EMIT modelChanged(*model);
}

void SessionWorker::readSettings(quint64 ticket, const QString &device)
{
    SettingsReply reply;
    reply.device = device;
    auto read = m_session.settings(device);
    if (read)
        reply.settings = *read;
    else
        reply.error = read.error().message;
    Q_EMIT settingsRead(ticket, reply);
}

void SessionWorker::plan(quint64 ticket, const QList<SettingChange> &changes, const PlanOptions &options)
{
    Q_EMIT planned(ticket, m_session.plan(changes, options));
}

void SessionWorker::apply(quint64 ticket, const ChangePlan &plan, bool temporary)
{
    Q_EMIT stateChanged(state(true));
    const ChangeReport report = temporary ? m_session.applyTemporary(plan) : m_session.apply(plan);
    Q_EMIT applied(ticket, report);
    publish(true);
    publishEvents(ticket);
}

void SessionWorker::restoreTemporary(quint64 ticket)
{
    Q_EMIT stateChanged(state(true));
    Q_EMIT restored(ticket, m_session.restoreTemporary());
    publish(true);
    publishEvents(ticket);
}

void SessionWorker::keepTemporary()
{
    m_session.keepTemporary();
    publish(false);
    publishEvents(0);
}

void SessionWorker::revertAll(quint64 ticket)
{
    Q_EMIT stateChanged(state(true));
    Q_EMIT restored(ticket, m_session.revertAll());
    publish(true);
    publishEvents(ticket);
}

void SessionWorker::restoreJournals(quint64 ticket, const QList<Journal> &journals)
{
    Q_EMIT stateChanged(state(true));
    RestoreReport all;
    for (const Journal &journal : journals) {
        const RestoreReport one = m_session.restoreJournal(journal);
        all.items += one.items;
        all.messages += one.messages;
    }
    Q_EMIT restored(ticket, all);
    publish(true);
    publishEvents(ticket);
}

void SessionWorker::findDeadJournals(quint64 ticket)
{
    Q_EMIT deadJournalsFound(ticket, m_session.deadJournals());
}

// ---- The jobs' door (a job's thread -> the session thread) ----------------------

/// Where a job's calls enter the session thread: posted to the worker,
/// answered there. ~ConsoleSession closes it before the thread ends.
struct JobDoor
{
    explicit JobDoor(SessionWorker *worker) : m_worker(worker) {}

    /// Queues `work(worker)` on the session thread; false when the door is
    /// closed. Work queued when the thread ends is destroyed unrun. Called
    /// on the session thread itself (a job whose context lives there), it
    /// runs at once: queued, its caller would wait for itself.
    template<typename F>
    bool post(F &&work)
    {
        std::unique_lock lock(m_mutex);
        SessionWorker *const worker = m_worker;
        if (!worker)
            return false;
        if (QThread::currentThread() == worker->thread()) {
            lock.unlock(); // the worker goes on this thread only
            work(worker);
            return true;
        }
        QMetaObject::invokeMethod(
            worker, [worker, work = std::forward<F>(work)]() mutable { work(worker); }, Qt::QueuedConnection);
        return true;
    }

    /// Queues a job's `call` on the session; what the session tells
    /// meanwhile goes to `told`. As post().
    bool call(QList<SessionEvent> *told, std::function<void(TuningSession &)> call)
    {
        return post([told, call = std::move(call)](SessionWorker *w) { w->callForJob(told, call); });
    }

    void close()
    {
        const std::lock_guard lock(m_mutex);
        m_worker = nullptr;
    }

private:
    std::mutex m_mutex;
    SessionWorker *m_worker;
};

namespace {

/// One call's answer, handed from the session thread to the job's, which
/// waits for it; dropped when the call is destroyed unrun.
template<typename R>
class Answer final
{
public:
    void give(R value)
    {
        const std::lock_guard lock(m_mutex);
        m_value.emplace(std::move(value));
        m_ready.notify_all();
    }
    void drop()
    {
        const std::lock_guard lock(m_mutex);
        m_dropped = true;
        m_ready.notify_all();
    }
    std::optional<R> wait()
    {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return m_value || m_dropped; });
        return std::move(m_value);
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::optional<R> m_value;
    bool m_dropped = false;
};

/// Drops its answer when the last copy of the call goes (after the call
/// gave one, the drop changes nothing).
template<typename R>
class DropOnDestruction final
{
public:
    explicit DropOnDestruction(std::shared_ptr<Answer<R>> answer) : m_answer(std::move(answer)) {}
    ~DropOnDestruction() { m_answer->drop(); }
    Q_DISABLE_COPY_MOVE(DropOnDestruction)

private:
    std::shared_ptr<Answer<R>> m_answer;
};

Error sessionEnded()
{
    // Seen by a job whose window is closing, never by a person.
    return makeError(Interrupted, QStringLiteral("the console's session has ended"));
}

/// A job's session: what is fixed when the session was made, answered here;
/// every other call carried through the door and waited for, so the job's
/// thread never touches the TuningSession and the session thread answers
/// the panels between the job's calls.
class DoorPort final : public SessionPort
{
public:
    DoorPort(std::shared_ptr<JobDoor> door, const TuningSession &session)
        : m_door(std::move(door)), m_root(session.root()), m_readOnlyReason(session.readOnlyReason()),
          m_capabilities(session.capabilities())
    {
    }

    const SysRoot &root() const override { return m_root; }
    SessionCapabilities capabilities() const override { return m_capabilities; }
    const QString &readOnlyReason() const override { return m_readOnlyReason; }

    Result<std::shared_ptr<const DeviceModel>> model() override
    {
        return call([](TuningSession &s) { return s.model(); }, Result<std::shared_ptr<const DeviceModel>>(sessionEnded()));
    }
    Result<std::shared_ptr<const DeviceModel>> rescan() override
    {
        return call([](TuningSession &s) { return s.rescan(); }, Result<std::shared_ptr<const DeviceModel>>(sessionEnded()));
    }
    Result<DeviceSettings> settings(const QString &device) override
    {
        return call([device](TuningSession &s) { return s.settings(device); }, Result<DeviceSettings>(sessionEnded()));
    }
    ChangePlan plan(const QList<SettingChange> &changes, const PlanOptions &options) override
    {
        ChangePlan ended;
        ended.errors << sessionEnded();
        return call([changes, options](TuningSession &s) { return s.plan(changes, options); }, ended);
    }
    ChangeReport applyTemporary(const QList<SettingChange> &changes, const PlanOptions &options) override
    {
        ChangeReport ended;
        ended.error = sessionEnded();
        return call([changes, options](TuningSession &s) { return s.applyTemporary(changes, options); }, ended);
    }
    RestoreReport restoreTemporary() override
    {
        return call([](TuningSession &s) { return s.restoreTemporary(); }, endedRestore());
    }
    bool holdsTemporary() const override
    {
        return call([](TuningSession &s) { return s.holdsTemporary(); }, false);
    }
    QString journalPath() const override
    {
        return call([](TuningSession &s) { return s.journalPath(); }, QString());
    }
    RememberedApply applyRemembered(const ChangePlan &plan, const QString &profile) override
    {
        RememberedApply ended;
        ended.report = plannedReport(plan);
        ended.report.error = sessionEnded();
        return call([plan, profile](TuningSession &s) { return s.applyRemembered(plan, profile); }, ended);
    }
    RememberedRevert revertRemembered() override
    {
        return call([](TuningSession &s) { return s.revertRemembered(); }, RememberedRevert{std::nullopt, endedRestore()});
    }
    Result<std::optional<AppliedState>> appliedState() override
    {
        return call([](TuningSession &s) { return s.appliedState(); },
                    Result<std::optional<AppliedState>>(sessionEnded()));
    }
    Result<UdevRulesResult> changeUdevRules(RulesChange change, const QString &fileName,
                                            const QByteArray &content) override
    {
        return call([change, fileName, content](TuningSession &s) { return s.changeUdevRules(change, fileName, content); },
                    Result<UdevRulesResult>(sessionEnded()));
    }

    /// What the session told during this job's calls (the session thread's).
    const QList<SessionEvent> &told() const { return m_told; }

private:
    static RestoreReport endedRestore()
    {
        RestoreReport ended;
        ended.messages << sessionEnded().message;
        ended.items.append(RestoreItem{{}, RestoreStatus::Failed, {}, {}, sessionEnded().message});
        return ended;
    }

    /// `f(session)` on the session thread, waited for; `whenEnded` when the
    /// door is closed or the call was dropped with the thread.
    template<typename F, typename R = std::invoke_result_t<F &, TuningSession &>>
    R call(F f, R whenEnded) const
    {
        auto answer = std::make_shared<Answer<R>>();
        auto dropper = std::make_shared<DropOnDestruction<R>>(answer);
        const bool posted = m_door->call(&m_told, [f = std::move(f), answer, dropper](TuningSession &session) {
            answer->give(f(session));
        });
        if (!posted)
            return whenEnded;
        dropper.reset(); // the call's copies hold it now
        std::optional<R> value = answer->wait();
        return value ? std::move(*value) : whenEnded;
    }

    std::shared_ptr<JobDoor> m_door;
    const SysRoot m_root;
    const QString m_readOnlyReason;
    const SessionCapabilities m_capabilities;
    /// Written on the session thread during a call, read there at the end.
    mutable QList<SessionEvent> m_told;
};

} // namespace

// ---- ConsoleSession (GUI thread) -------------------------------------------------

namespace {

/// The session's sink, called on the session thread (or, once that has
/// ended, by the session's destructor on the GUI thread, when the worker
/// is gone): the worker keeps a job's events for the job and the others
/// for publishEvents().
SessionOptions withEventSink(SessionOptions options, SessionWorker **worker)
{
    options.eventSink = [worker](const SessionEvent &event) {
        if (SessionWorker *w = *worker)
            w->takeEvent(event);
    };
    return options;
}

} // namespace

ConsoleSession::ConsoleSession(SysRoot root, SessionOptions options, std::shared_ptr<Measurer> measurer,
                               QObject *parent)
    : QObject(parent),
      m_session(std::make_unique<TuningSession>(std::move(root), withEventSink(std::move(options), &m_worker))),
      m_measurer(measurer ? std::move(measurer) : makeLocalMeasurer(m_session->root())),
      m_state(stateOf(*m_session, false))
{
    qRegisterMetaType<SettingsReply>();
    qRegisterMetaType<SessionState>();
    qRegisterMetaType<SessionEvent>();
    qRegisterMetaType<ModelSnapshot>();
    qRegisterMetaType<ChangePlan>();
    qRegisterMetaType<ChangeReport>();
    qRegisterMetaType<RestoreReport>();
    qRegisterMetaType<PlanOptions>();
    qRegisterMetaType<QList<SettingChange>>();
    qRegisterMetaType<QList<Journal>>();
    qRegisterMetaType<QList<PendingJournal>>();

    m_thread.setObjectName(QStringLiteral("blocktune session"));
    m_worker = new SessionWorker(*m_session);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &SessionWorker::modelChanged, this, [this](const ModelSnapshot &model) {
        m_model = model;
        ++m_modelsPublished;
        Q_EMIT modelChanged(model);
    });
    connect(m_worker, &SessionWorker::stateChanged, this, [this](const SessionState &state) {
        m_state = state;
        Q_EMIT stateChanged(state);
    });
    connect(m_worker, &SessionWorker::happened, this, &ConsoleSession::announce);
    m_thread.start();
}

ConsoleSession::~ConsoleSession()
{
    // A write waiting for a prompt would hold the thread: give it up.
    m_session->cancelPendingWrite();
    // A job's call from now on fails at once; one queued already is run,
    // or dropped with the worker, failing the same way.
    if (m_door)
        m_door->close();
    m_thread.quit();
    m_thread.wait();
    // The worker went with its thread: what the session tells from here on
    // (restoring what it still holds) has nobody to hear it.
    m_worker = nullptr;
    m_session.reset(); // restores the temporary changes still held
}

template<typename F>
quint64 ConsoleSession::post(F &&call)
{
    const quint64 ticket = m_nextTicket++;
    QMetaObject::invokeMethod(m_worker, [w = m_worker, ticket, call = std::forward<F>(call)] { call(w, ticket); },
                              Qt::QueuedConnection);
    return ticket;
}

void ConsoleSession::announce(const SessionEvent &event)
{
    m_lastEvent = event;
    Q_EMIT happened(event);
}

quint64 ConsoleSession::rescan()
{
    // A rescan asked while one waits in the queue is that one: it reads the
    // devices as they are when it starts, after this call. Without this, a
    // host whose hotplug is asked every few seconds and whose scan takes
    // longer on a busy machine queued scans without end, and every other
    // request (a profile's preview, a plan) behind them.
    ++m_rescansAsked;
    if (const quint64 queued = m_queuedRescan->load(); queued != 0)
        return queued;
    const quint64 ticket = m_nextTicket++;
    m_queuedRescan->store(ticket);
    ++m_rescansPosted;
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, ticket, queued = m_queuedRescan, started = m_rescansStarted] {
            queued->store(0); // started: what changes from now on needs a scan of its own
            started->fetch_add(1);
            w->rescan(ticket);
        },
        Qt::QueuedConnection);
    return ticket;
}

QString ConsoleSession::rescanReport() const
{
    return QStringLiteral("rescans asked %1 (posted %2, started %3), models published %4, queued ticket %5")
        .arg(m_rescansAsked)
        .arg(m_rescansPosted)
        .arg(m_rescansStarted->load())
        .arg(m_modelsPublished)
        .arg(m_queuedRescan->load());
}

quint64 ConsoleSession::readSettings(const QString &device)
{
    return post([device](SessionWorker *w, quint64 t) { w->readSettings(t, device); });
}

quint64 ConsoleSession::plan(const QList<SettingChange> &changes, const PlanOptions &options)
{
    return post([changes, options](SessionWorker *w, quint64 t) { w->plan(t, changes, options); });
}

quint64 ConsoleSession::apply(const ChangePlan &plan, bool temporary)
{
    m_state.busy = true;
    return post([plan, temporary](SessionWorker *w, quint64 t) { w->apply(t, plan, temporary); });
}

quint64 ConsoleSession::restoreTemporary()
{
    return post([](SessionWorker *w, quint64 t) { w->restoreTemporary(t); });
}

void ConsoleSession::keepTemporary()
{
    post([](SessionWorker *w, quint64) { w->keepTemporary(); });
}

quint64 ConsoleSession::revertAll()
{
    return post([](SessionWorker *w, quint64 t) { w->revertAll(t); });
}

quint64 ConsoleSession::restoreJournals(const QList<Journal> &journals)
{
    return post([journals](SessionWorker *w, quint64 t) { w->restoreJournals(t, journals); });
}


quint64 ConsoleSession::findDeadJournals()
{
    return post([](SessionWorker *w, quint64 t) { w->findDeadJournals(t); });
}

quint64 ConsoleSession::runJob(QObject *context, SessionJob job)
{
    const quint64 ticket = m_nextTicket++;
    if (!m_door)
        m_door = std::make_shared<JobDoor>(m_worker);
    auto port = std::make_shared<DoorPort>(m_door, *m_session);
    Measurer *measurer = m_measurer.get();
    QMetaObject::invokeMethod(
        context,
        [this, ticket, port, measurer, door = m_door, job = std::move(job)] {
            job(SessionJobContext{*port, *measurer});
            // Published on the session thread, whose answers reach the GUI
            // thread in order: the model and state first, then what the job
            // did, then the end.
            door->post([this, ticket, port](SessionWorker *worker) {
                worker->publish(true);
                for (SessionEvent e : foldJobEvents(port->told())) {
                    e.ticket = ticket;
                    Q_EMIT worker->happened(e);
                }
                QMetaObject::invokeMethod(this, [this, ticket] { Q_EMIT jobFinished(ticket); }, Qt::QueuedConnection);
            });
        },
        Qt::QueuedConnection);
    return ticket;
}

} // namespace blocktune
