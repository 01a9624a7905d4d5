// The one road for every change: one model, one writer, one journal.
#include "session.h"

#include "common/tr.h"
#include "tuning/tuning_p.h"

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

} // namespace

/// Makes the real writer on the first write, so a session that only reads
/// never starts the helper (or asks polkit), and one that writes starts it
/// once.
class TuningSession::LazyWriter final : public AttributeWriter
{
public:
    LazyWriter(const SysRoot &root, WriterFactory factory) : m_root(root), m_factory(std::move(factory)) {}

    Result<WrittenValue> write(const AttributeWrite &request) override
    {
        if (!m_real) {
            m_real = m_factory ? m_factory(m_root) : makeAttributeWriter(m_root);
            m_started.store(m_real.get());
        }
        return m_real->write(request);
    }
    QString describe() const override
    {
        const AttributeWriter *real = m_started.load();
        return real ? real->describe() : QString();
    }
    Result<UdevRulesResult> changeRules(const SysRoot &root, RulesChange change, const QString &fileName,
                                        const QByteArray &content) override
    {
        if (!m_real) {
            m_real = m_factory ? m_factory(m_root) : makeAttributeWriter(m_root);
            m_started.store(m_real.get());
        }
        return m_real->changeRules(root, change, fileName, content);
    }
    void cancel() override
    {
        if (AttributeWriter *real = m_started.load())
            real->cancel();
    }
    bool started() const { return m_started.load() != nullptr; }

private:
    SysRoot m_root;
    WriterFactory m_factory;
    std::unique_ptr<AttributeWriter> m_real;
    std::atomic<AttributeWriter *> m_started{nullptr}; ///< read from other threads (cancel)
};

TuningSession::TuningSession(SysRoot root, SessionOptions options)
    : m_root(std::move(root)), m_options(std::move(options)),
      m_writer(std::make_unique<LazyWriter>(m_root, m_options.writerFactory)),
      m_tuner(std::make_unique<Tuner>(m_root, *m_writer))
{
}

TuningSession::~TuningSession()
{
    const QMutexLocker locker(&m_lock);
    if (m_options.remote) {
        // The host restores too when the connection ends; this says so first.
        if (m_options.remote->temporaryCount() > 0)
            m_options.remote->restoreTemporary();
    } else if (m_tuner->holdsTemporary()) {
        m_tuner->restore();
    }
    m_tuner.reset();
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
    if (m_options.remote)
        if (Status refreshed = m_options.remote->refresh(); !refreshed)
            return refreshed.error();
    m_model.reset();
    return modelLocked();
}

void TuningSession::refreshLocked(const QStringList &queues)
{
    if (!m_model || queues.isEmpty())
        return;
    if (m_options.remote) {
        // The host changed: record it again (a failure keeps the old mirror,
        // and the next rescan says why).
        if (m_options.remote->refresh()) {
            m_model.reset();
            (void)modelLocked();
        }
        return;
    }
    // Copy on write: snapshots handed out earlier stay as they were.
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
    if (m_options.remote)
        return m_options.remote->changeUdevRules(change, fileName, content);
    return m_writer->changeRules(m_root, change, fileName, content);
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
    auto model = modelLocked();
    if (!model) {
        ChangePlan failed;
        failed.errors << model.error();
        return failed;
    }
    return planChanges(m_root, **model, changes, options);
}

ChangeReport TuningSession::runLocked(const ChangePlan &plan, JournalMode mode)
{
    if (!m_options.readOnlyReason.isEmpty() && plan.ok() && !plan.writes.isEmpty()) {
        ChangeReport refused;
        refused.plan = plan;
        for (const PlannedWrite &w : plan.writes)
            refused.outcomes.append(SettingOutcome{w, SettingStatus::Skipped, {}, {}});
        refused.error = makeError(Refused, m_options.readOnlyReason);
        return refused;
    }
    ChangeReport report = m_options.remote ? m_options.remote->apply(plan, mode == JournalMode::Temporary)
                          : mode == JournalMode::Temporary ? m_tuner->applyTemporary(plan)
                                                           : m_tuner->apply(plan);
    const bool wrote = std::any_of(report.outcomes.cbegin(), report.outcomes.cend(), [](const SettingOutcome &o) {
        return o.status != SettingStatus::Planned && o.status != SettingStatus::Skipped;
    });
    if (wrote)
        refreshLocked(touchedQueues(plan));
    if (report.ok() && mode == JournalMode::Persistent && !m_options.remote)
        detail::mergeOriginals(m_persistent, plan.originals);
    return report;
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
    return runLocked(plan(changes, options), JournalMode::Persistent);
}

ChangeReport TuningSession::applyTemporary(const QList<SettingChange> &changes, const PlanOptions &options)
{
    const QMutexLocker locker(&m_lock);
    return runLocked(plan(changes, options), JournalMode::Temporary);
}

RestoreReport TuningSession::restoreTemporary()
{
    const QMutexLocker locker(&m_lock);
    if (m_options.remote) {
        if (m_options.remote->temporaryCount() == 0)
            return {};
        RestoreReport report = m_options.remote->restoreTemporary();
        refreshLocked(touchedQueues(report));
        return report;
    }
    if (!m_tuner->holdsTemporary())
        return {};
    RestoreReport report = m_tuner->restore();
    refreshLocked(touchedQueues(report));
    return report;
}

void TuningSession::keepTemporary()
{
    const QMutexLocker locker(&m_lock);
    if (m_options.remote) {
        (void)m_options.remote->keepTemporary();
        return;
    }
    detail::mergeOriginals(m_persistent, m_tuner->keep());
}

RestoreReport TuningSession::revertAll()
{
    const QMutexLocker locker(&m_lock);
    RestoreReport report;
    if (!m_options.readOnlyReason.isEmpty())
        return report; // wrote nothing, so nothing to take back
    if (m_options.remote) {
        report = m_options.remote->revertAll();
        refreshLocked(touchedQueues(report));
        return report;
    }
    if (m_tuner->holdsTemporary())
        report = m_tuner->restore();
    if (!m_persistent.isEmpty()) {
        const RestoreReport back = detail::restoreEntries(m_root, *m_writer, m_persistent);
        QList<JournalEntry> left;
        for (const RestoreItem &item : back.items)
            if (item.status == RestoreStatus::Failed)
                left << item.entry;
        m_persistent = left;
        report.items += back.items;
        report.messages += back.messages;
    }
    refreshLocked(touchedQueues(report));
    return report;
}

bool TuningSession::holdsTemporary() const
{
    const QMutexLocker locker(&m_lock);
    return m_options.remote ? m_options.remote->temporaryCount() > 0 : m_tuner->holdsTemporary();
}

int TuningSession::temporaryCount() const
{
    const QMutexLocker locker(&m_lock);
    return m_options.remote ? m_options.remote->temporaryCount() : int(m_tuner->temporaryOriginals().size());
}

int TuningSession::persistentCount() const
{
    const QMutexLocker locker(&m_lock);
    return m_options.remote ? m_options.remote->persistentCount() : int(m_persistent.size());
}

QString TuningSession::journalPath() const
{
    const QMutexLocker locker(&m_lock);
    return m_tuner->journalPath();
}

QList<PendingJournal> TuningSession::deadJournals() const
{
    QList<PendingJournal> out;
    if (m_options.remote)
        return out; // the host's agent has its own (blocktune-cli --host HOST restore)
    for (const PendingJournal &p : findJournals(m_root))
        if (!p.ownerAlive)
            out << p;
    return out;
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
    RestoreReport report = blocktune::restoreJournal(m_root, *m_writer, journal);
    refreshLocked(touchedQueues(report));
    return report;
}

bool TuningSession::writerStarted() const
{
    return m_options.remote ? m_options.readOnlyReason.isEmpty() : m_writer->started();
}

QString TuningSession::writerDescription() const
{
    return m_options.remote ? m_options.remote->writer() : m_writer->describe();
}

void TuningSession::cancelPendingWrite()
{
    m_writer->cancel();
}

TemporarySettings::TemporarySettings(TuningSession &session, const QList<SettingChange> &changes,
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
