// The one road for every change: one model, one writer, one journal.
#include "session.h"


#include <QSet>

namespace blocktune {

namespace {

/// The whole devices a plan writes to (machine-wide writes have none).
QStringList touchedQueues(const ChangePlan &plan)
{
    QStringList out;
    for (const PlannedWrite &w : plan.writes)
        if (!w.device.isEmpty() && !out.contains(w.device))
            out << w.device;
    return out;
}

QStringList touchedQueues(const RestoreReport &report)
{
    QStringList out;
    for (const RestoreItem &item : report.items)
        if (!item.entry.device.isEmpty() && !out.contains(item.entry.device))
            out << item.entry.device;
    return out;
}

bool wroteAnything(const ChangeReport &report)
{
    return std::any_of(report.outcomes.cbegin(), report.outcomes.cend(), [](const SettingOutcome &o) {
        return o.status != SettingStatus::Planned && o.status != SettingStatus::Skipped;
    });
}

} // namespace

TuningSession::TuningSession(SysRoot root, SessionOptions options)
    : m_root(std::move(root)), m_options(std::move(options)),
      m_backend(m_options.backend ? m_options.backend
                                  : std::shared_ptr<SessionBackend>(makeLocalBackend(m_root, m_options.writerFactory)))
{
}

TuningSession::~TuningSession()
{
    const QMutexLocker locker(&m_lock);
    // A host restores too when the connection ends; this says so first.
    if (m_backend->temporaryCount() > 0)
        m_backend->restoreTemporary();
}

SessionCapabilities TuningSession::capabilities() const
{
    SessionCapabilities c;
    c.canMeasure = m_backend->canMeasure();
    c.canWrite = m_options.readOnlyReason.isEmpty();
    return c;
}

Result<std::shared_ptr<const DeviceModel>> TuningSession::modelLocked()
{
    if (m_model)
        return m_model;
    ScanOptions options;
    options.probeFilesystems = m_options.probeFilesystems;
    auto scanned = DeviceModel::scan(m_root, options);
    ++m_scans;
    if (!scanned)
        return scanned.error();
    m_model = std::make_shared<const DeviceModel>(std::move(*scanned));
    return m_model;
}

Result<std::shared_ptr<const DeviceModel>> TuningSession::model()
{
    const QMutexLocker locker(&m_lock);
    return modelLocked();
}

Result<std::shared_ptr<const DeviceModel>> TuningSession::rescan()
{
    const QMutexLocker locker(&m_lock);
    if (Status reloaded = m_backend->reload(); !reloaded)
        return reloaded.error();
    m_model.reset();
    return modelLocked();
}

void TuningSession::refreshLocked(const QStringList &queues)
{
    if (!m_model || queues.isEmpty())
        return;
    // Copy on write: snapshots handed out earlier stay as they were. The
    // backend left the touched queues' values in the root (a host's in its
    // mirror).
    auto fresh = std::make_shared<DeviceModel>(*m_model);
    fresh->refreshQueues(m_root, queues);
    m_model = std::move(fresh);
}

Result<UdevRulesResult> TuningSession::changeUdevRules(RulesChange change, const QString &fileName,
                                                      const QByteArray &content)
{
    const QMutexLocker locker(&m_lock);
    if (!m_options.readOnlyReason.isEmpty())
        return makeError(Refused, m_options.readOnlyReason);
    return m_backend->changeUdevRules(change, fileName, content);
}

Result<DeviceSettings> TuningSession::settings(const QString &device)
{
    const QMutexLocker locker(&m_lock);
    auto model = modelLocked();
    if (!model)
        return model.error();
    return readDeviceSettings(m_root, **model, device);
}

ChangePlan TuningSession::plan(const QList<SettingChange> &changes, const PlanOptions &options)
{
    const QMutexLocker locker(&m_lock);
    return planLocked(changes, options);
}

ChangePlan TuningSession::planLocked(const QList<SettingChange> &changes, const PlanOptions &options)
{
    auto model = modelLocked();
    if (!model) {
        ChangePlan failed;
        failed.errors << model.error();
        return failed;
    }
    return planChanges(m_root, **model, changes, options);
}

std::optional<ChangeReport> TuningSession::refusedLocked(const ChangePlan &plan) const
{
    if (m_options.readOnlyReason.isEmpty() || !plan.ok() || plan.writes.isEmpty())
        return std::nullopt;
    ChangeReport refused;
    refused.plan = plan;
    for (const PlannedWrite &w : plan.writes)
        refused.outcomes.append(SettingOutcome{w, SettingStatus::Skipped, {}, {}});
    refused.error = makeError(Refused, m_options.readOnlyReason);
    return refused;
}

ChangeReport TuningSession::runLocked(const ChangePlan &plan, JournalMode mode)
{
    const SessionEvent::Kind kind = mode == JournalMode::Temporary ? SessionEvent::Kind::Tried : SessionEvent::Kind::Applied;
    if (auto refused = refusedLocked(plan)) {
        tell(changeEvent(*refused, kind));
        return *refused;
    }
    ChangeReport report = m_backend->apply(plan, mode);
    if (wroteAnything(report))
        refreshLocked(touchedQueues(plan));
    if (plan.ok() && !plan.writes.isEmpty())
        tell(changeEvent(report, kind));
    return report;
}

void TuningSession::tell(const SessionEvent &event) const
{
    if (m_options.eventSink)
        m_options.eventSink(event);
}

ChangeReport TuningSession::apply(const ChangePlan &plan)
{
    const QMutexLocker locker(&m_lock);
    return runLocked(plan, JournalMode::Persistent);
}

ChangeReport TuningSession::applyTemporary(const ChangePlan &plan)
{
    const QMutexLocker locker(&m_lock);
    return runLocked(plan, JournalMode::Temporary);
}

ChangeReport TuningSession::apply(const QList<SettingChange> &changes, const PlanOptions &options)
{
    const QMutexLocker locker(&m_lock);
    return runLocked(planLocked(changes, options), JournalMode::Persistent);
}

ChangeReport TuningSession::applyTemporary(const QList<SettingChange> &changes, const PlanOptions &options)
{
    const QMutexLocker locker(&m_lock);
    return runLocked(planLocked(changes, options), JournalMode::Temporary);
}

RememberedApply TuningSession::applyRemembered(const ChangePlan &plan, const QString &profile)
{
    const QMutexLocker locker(&m_lock);
    RememberedApply out;
    if (!plan.ok() || plan.writes.isEmpty()) {
        out.report = plannedReport(plan);
        return out;
    }
    if (auto refused = refusedLocked(plan)) {
        out.report = *refused;
        tell(changeEvent(out.report, SessionEvent::Kind::ProfileApplied, profile));
        return out;
    }
    out = m_backend->applyRemembered(plan, profile);
    if (wroteAnything(out.report))
        refreshLocked(touchedQueues(plan));
    tell(changeEvent(out.report, SessionEvent::Kind::ProfileApplied, profile));
    return out;
}

RememberedRevert TuningSession::revertRemembered()
{
    const QMutexLocker locker(&m_lock);
    if (!m_options.readOnlyReason.isEmpty()) {
        RememberedRevert refused;
        refused.restore.messages << m_options.readOnlyReason;
        refused.restore.items.append(RestoreItem{{}, RestoreStatus::Failed, {}, {}, m_options.readOnlyReason});
        return refused;
    }
    RememberedRevert out = m_backend->revertRemembered();
    refreshLocked(touchedQueues(out.restore));
    if (out.state)
        tell(restoreEvent(out.restore, SessionEvent::Kind::ProfileReverted, out.state->profiles));
    return out;
}

Result<std::optional<AppliedState>> TuningSession::appliedState()
{
    const QMutexLocker locker(&m_lock);
    return m_backend->appliedState();
}

RestoreReport TuningSession::restoreTemporary()
{
    const QMutexLocker locker(&m_lock);
    if (m_backend->temporaryCount() == 0)
        return {};
    RestoreReport report = m_backend->restoreTemporary();
    refreshLocked(touchedQueues(report));
    tell(restoreEvent(report, SessionEvent::Kind::Restored));
    return report;
}

void TuningSession::keepTemporary()
{
    const QMutexLocker locker(&m_lock);
    const int held = m_backend->temporaryCount();
    m_backend->keepTemporary();
    if (held > 0)
        tell(keptEvent(held));
}

RestoreReport TuningSession::revertAll()
{
    const QMutexLocker locker(&m_lock);
    if (!m_options.readOnlyReason.isEmpty())
        return {}; // wrote nothing, so nothing to take back
    RestoreReport report = m_backend->revertAll();
    refreshLocked(touchedQueues(report));
    tell(restoreEvent(report, SessionEvent::Kind::Reverted));
    return report;
}

bool TuningSession::holdsTemporary() const
{
    return temporaryCount() > 0;
}

int TuningSession::temporaryCount() const
{
    const QMutexLocker locker(&m_lock);
    return m_backend->temporaryCount();
}

int TuningSession::persistentCount() const
{
    const QMutexLocker locker(&m_lock);
    return m_backend->persistentCount();
}

QString TuningSession::journalPath() const
{
    const QMutexLocker locker(&m_lock);
    return m_backend->journalPath();
}

QList<PendingJournal> TuningSession::deadJournals() const
{
    const QMutexLocker locker(&m_lock);
    return m_backend->deadJournals();
}

RestoreReport TuningSession::restoreJournal(const Journal &journal)
{
    const QMutexLocker locker(&m_lock);
    if (!m_options.readOnlyReason.isEmpty()) {
        RestoreReport refused;
        refused.messages << m_options.readOnlyReason;
        for (const JournalEntry &e : journal.entries)
            refused.items.append(RestoreItem{e, RestoreStatus::Failed, {}, {}, m_options.readOnlyReason});
        return refused;
    }
    RestoreReport report = m_backend->restoreJournal(journal);
    refreshLocked(touchedQueues(report));
    tell(restoreEvent(report, SessionEvent::Kind::JournalRestored));
    return report;
}

bool TuningSession::writerStarted() const
{
    return m_backend->writerStarted();
}

QString TuningSession::writerDescription() const
{
    return m_backend->writerDescription();
}

void TuningSession::cancelPendingWrite()
{
    // Not under the lock: the write that waits holds it.
    m_backend->cancelPendingWrite();
}

TemporarySettings::TemporarySettings(SessionPort &session, const QList<SettingChange> &changes,
                                     const PlanOptions &options)
    : m_session(session), m_report(session.applyTemporary(changes, options))
{
}

TemporarySettings::~TemporarySettings()
{
    if (!m_restored)
        m_session.restoreTemporary();
}

RestoreReport TemporarySettings::restore()
{
    m_restored = true;
    return m_session.restoreTemporary();
}

} // namespace blocktune
