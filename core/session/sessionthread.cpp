#include "sessionthread.h"

namespace blocktune {

// ---- SessionWorker (session thread) ---------------------------------------------

SessionState SessionWorker::state(bool busy) const
{
    SessionState s;
    s.temporary = m_session.temporaryCount();
    s.persistent = m_session.persistentCount();
    s.writerStarted = m_session.writerStarted();
    s.writer = m_session.writerDescription();
    s.busy = busy;
    return s;
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
}

void SessionWorker::restoreTemporary(quint64 ticket)
{
    Q_EMIT stateChanged(state(true));
    Q_EMIT restored(ticket, m_session.restoreTemporary());
    publish(true);
}

void SessionWorker::keepTemporary()
{
    m_session.keepTemporary();
    publish(false);
}

void SessionWorker::revertAll(quint64 ticket)
{
    Q_EMIT stateChanged(state(true));
    Q_EMIT restored(ticket, m_session.revertAll());
    publish(true);
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
}

// ---- SessionThread (GUI thread) -------------------------------------------------

SessionThread::SessionThread(SysRoot root, SessionOptions options, QObject *parent)
    : QObject(parent), m_session(std::make_unique<TuningSession>(std::move(root), std::move(options)))
{
    qRegisterMetaType<SettingsReply>();
    qRegisterMetaType<SessionState>();
    qRegisterMetaType<ModelSnapshot>();
    qRegisterMetaType<ChangePlan>();
    qRegisterMetaType<ChangeReport>();
    qRegisterMetaType<RestoreReport>();
    qRegisterMetaType<PlanOptions>();
    qRegisterMetaType<QList<SettingChange>>();
    qRegisterMetaType<QList<Journal>>();

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
    m_thread.start();
}

SessionThread::~SessionThread()
{
    // A write waiting for a prompt would hold the thread: give it up.
    m_session->cancelPendingWrite();
    m_thread.quit();
    m_thread.wait();
    m_session.reset(); // restores the temporary changes still held
}

template<typename F>
quint64 SessionThread::post(F &&call)
{
    const quint64 ticket = m_nextTicket++;
    QMetaObject::invokeMethod(m_worker, [w = m_worker, ticket, call = std::forward<F>(call)] { call(w, ticket); },
                              Qt::QueuedConnection);
    return ticket;
}

quint64 SessionThread::rescan()
{
    return post([](SessionWorker *w, quint64 t) { w->rescan(t); });
}

quint64 SessionThread::readSettings(const QString &device)
{
    return post([device](SessionWorker *w, quint64 t) { w->readSettings(t, device); });
}

quint64 SessionThread::plan(const QList<SettingChange> &changes, const PlanOptions &options)
{
    return post([changes, options](SessionWorker *w, quint64 t) { w->plan(t, changes, options); });
}

quint64 SessionThread::apply(const ChangePlan &plan, bool temporary)
{
    m_state.busy = true;
    return post([plan, temporary](SessionWorker *w, quint64 t) { w->apply(t, plan, temporary); });
}

quint64 SessionThread::restoreTemporary()
{
    return post([](SessionWorker *w, quint64 t) { w->restoreTemporary(t); });
}

void SessionThread::keepTemporary()
{
    post([](SessionWorker *w, quint64) { w->keepTemporary(); });
}

quint64 SessionThread::revertAll()
{
    return post([](SessionWorker *w, quint64 t) { w->revertAll(t); });
}

void SessionThread::publish()
{
    post([](SessionWorker *w, quint64) { w->publish(true); });
}

quint64 SessionThread::restoreJournals(const QList<Journal> &journals)
{
    return post([journals](SessionWorker *w, quint64 t) { w->restoreJournals(t, journals); });
}

} // namespace blocktune
