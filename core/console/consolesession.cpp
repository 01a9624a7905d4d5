#include "consolesession.h"

#include "monitor/monitor.h"

#include <mutex>
#include <utility>

namespace blocktune {

// ---- SessionWorker (session thread) ---------------------------------------------

namespace {

/// The events a job tells while it runs on this thread (ConsoleSession::
/// runJob sets it for the job's duration); elsewhere the worker takes them.
thread_local QList<SessionEvent> *t_consoleJobEvents = nullptr;

/// Guards the workers' untold events: a session may be called outside a job
/// from a thread other than its own (a view's destructor ending a trial).
std::mutex g_eventsMutex;

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
    m_events << event; // under g_eventsMutex (the session's sink holds it)
}

void SessionWorker::publishEvents(quint64 ticket)
{
    QList<SessionEvent> events;
    {
        const std::lock_guard lock(g_eventsMutex);
        events = std::exchange(m_events, {});
    }
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

// ---- ConsoleSession (GUI thread) -------------------------------------------------

namespace {

/// The session's sink: a job's events stay with the job (its thread), the
/// others go to the worker, which publishes them after its answer.
SessionOptions withEventSink(SessionOptions options, SessionWorker **worker)
{
    options.eventSink = [worker](const SessionEvent &event) {
        if (t_consoleJobEvents) {
            t_consoleJobEvents->append(event);
            return;
        }
        const std::lock_guard lock(g_eventsMutex);
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
    m_thread.quit();
    m_thread.wait();
    // The worker went with its thread: what the session tells from here on
    // (restoring what it still holds) has nobody to hear it.
    {
        const std::lock_guard lock(g_eventsMutex);
        m_worker = nullptr;
    }
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
    return post([](SessionWorker *w, quint64 t) { w->rescan(t); });
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

std::unique_ptr<CounterSource> ConsoleSession::counterSource() const
{
    return m_measurer->counterSource();
}

Measurer::LatencyLoader ConsoleSession::latencyLoader() const
{
    return m_measurer->latencyLoader();
}

quint64 ConsoleSession::findDeadJournals()
{
    return post([](SessionWorker *w, quint64 t) { w->findDeadJournals(t); });
}

quint64 ConsoleSession::runJob(QObject *context, SessionJob job)
{
    const quint64 ticket = m_nextTicket++;
    TuningSession *session = m_session.get();
    Measurer *measurer = m_measurer.get();
    SessionWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        context,
        [this, ticket, session, measurer, worker, job = std::move(job)] {
            QList<SessionEvent> told;
            // (Saved and put back: a job that runs events may run another.)
            QList<SessionEvent> *const outer = std::exchange(t_consoleJobEvents, &told);
            job(SessionJobContext{*session, *measurer});
            t_consoleJobEvents = outer;
            // Published on the session thread, whose answers reach the GUI
            // thread in order: the model and state first, then what the job
            // did, then the end.
            QMetaObject::invokeMethod(
                worker,
                [this, worker, ticket, events = foldJobEvents(told)] {
                    worker->publish(true);
                    for (SessionEvent e : events) {
                        e.ticket = ticket;
                        Q_EMIT worker->happened(e);
                    }
                    QMetaObject::invokeMethod(this, [this, ticket] { Q_EMIT jobFinished(ticket); }, Qt::QueuedConnection);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return ticket;
}

} // namespace blocktune
