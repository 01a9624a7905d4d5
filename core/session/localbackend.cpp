// The backend of a session on this machine (or a recorded tree): the
// Tuner's transactions, the journal, and one writer made on the first write.
#include "sessionbackend.h"

#include "tuning/tuning_p.h"

#include <QFile>

#include <atomic>

namespace blocktune {

namespace {

/// Makes the real writer on the first write, so a session that only reads
/// never starts the helper (or asks polkit), and one that writes starts it
/// once.
class LazyWriter final : public AttributeWriter
{
public:
    LazyWriter(const SysRoot &root, WriterFactory factory) : m_root(root), m_factory(std::move(factory)) {}

    Result<WrittenValue> write(const AttributeWrite &request) override { return real().write(request); }
    QString describe() const override
    {
        const AttributeWriter *started = m_started.load();
        return started ? started->describe() : QString();
    }
    Result<UdevRulesResult> changeRules(const SysRoot &root, RulesChange change, const QString &fileName,
                                        const QByteArray &content) override
    {
        return real().changeRules(root, change, fileName, content);
    }
    void cancel() override
    {
        if (AttributeWriter *started = m_started.load())
            started->cancel();
    }
    bool started() const { return m_started.load() != nullptr; }

private:
    AttributeWriter &real()
    {
        if (!m_real) {
            m_real = m_factory ? m_factory(m_root) : makeAttributeWriter(m_root);
            m_started.store(m_real.get());
        }
        return *m_real;
    }

    SysRoot m_root;
    WriterFactory m_factory;
    std::unique_ptr<AttributeWriter> m_real;
    std::atomic<AttributeWriter *> m_started{nullptr}; ///< read from other threads (cancel)
};

bool anythingStayed(const ChangeReport &report)
{
    return std::any_of(report.outcomes.cbegin(), report.outcomes.cend(),
                       [](const SettingOutcome &o) { return o.status == SettingStatus::Applied; });
}

class LocalBackend final : public SessionBackend
{
public:
    LocalBackend(const SysRoot &root, WriterFactory factory)
        : m_root(root), m_writer(root, std::move(factory)), m_tuner(std::make_unique<Tuner>(m_root, m_writer))
    {
    }
    ~LocalBackend() override
    {
        if (m_tuner->holdsTemporary())
            m_tuner->restore();
    }
    Q_DISABLE_COPY_MOVE(LocalBackend)

    bool canMeasure() const override { return m_root.isLive(); }
    QString writerDescription() const override { return m_writer.describe(); }
    bool writerStarted() const override { return m_writer.started(); }
    void cancelPendingWrite() override { m_writer.cancel(); }
    Status reload() override { return {}; }

    ChangeReport apply(const ChangePlan &plan, JournalMode mode) override
    {
        if (mode == JournalMode::Temporary)
            return m_tuner->applyTemporary(plan);
        ChangeReport report = m_tuner->apply(plan);
        if (report.ok())
            detail::mergeOriginals(m_persistent, plan.originals);
        return report;
    }
    RestoreReport restoreTemporary() override { return m_tuner->holdsTemporary() ? m_tuner->restore() : RestoreReport(); }
    void keepTemporary() override { detail::mergeOriginals(m_persistent, m_tuner->keep()); }
    RestoreReport revertAll() override;
    int temporaryCount() const override { return int(m_tuner->temporaryOriginals().size()); }
    int persistentCount() const override { return int(m_persistent.size()); }
    QString journalPath() const override { return m_tuner->journalPath(); }

    RememberedApply applyRemembered(const ChangePlan &plan, const QString &profile) override;
    RememberedRevert revertRemembered() override;
    Result<std::optional<AppliedState>> appliedState() override { return readAppliedState(m_root); }
    QString appliedStatePlace() override
    {
        auto path = appliedStatePath(m_root);
        return path ? *path : QStringLiteral("the journal folder");
    }

    QList<PendingJournal> deadJournals() override
    {
        QList<PendingJournal> out;
        for (const PendingJournal &p : findJournals(m_root))
            if (!p.ownerAlive)
                out << p;
        return out;
    }
    RestoreReport restoreJournal(const Journal &journal) override
    {
        return blocktune::restoreJournal(m_root, m_writer, journal);
    }
    Result<UdevRulesResult> changeUdevRules(RulesChange change, const QString &fileName,
                                            const QByteArray &content) override
    {
        return m_writer.changeRules(m_root, change, fileName, content);
    }

private:
    const SysRoot m_root;
    LazyWriter m_writer;
    std::unique_ptr<Tuner> m_tuner;
    QList<JournalEntry> m_persistent; ///< originals of what apply() changed for good
};

RestoreReport LocalBackend::revertAll()
{
    RestoreReport report = restoreTemporary();
    if (m_persistent.isEmpty())
        return report;
    const RestoreReport back = detail::restoreEntries(m_root, m_writer, m_persistent);
    QList<JournalEntry> left;
    for (const RestoreItem &item : back.items)
        if (item.status == RestoreStatus::Failed)
            left << item.entry;
    m_persistent = left;
    report.items += back.items;
    report.messages += back.messages;
    return report;
}

RememberedApply LocalBackend::applyRemembered(const ChangePlan &plan, const QString &profile)
{
    RememberedApply out;
    out.report = plannedReport(plan);
    // The before-state goes to disk before the first write, merged with
    // what an earlier apply remembered (the first original of each
    // attribute wins).
    auto existing = readAppliedState(m_root);
    if (!existing) {
        out.report.error = existing.error();
        return out;
    }
    const std::optional<AppliedState> before = *existing;
    auto fresh = before ? Result<AppliedState>(*before) : newAppliedState(m_root);
    if (!fresh) {
        out.report.error = fresh.error();
        return out;
    }
    AppliedState state = *fresh;
    rememberOriginals(state, plan.originals, profile);
    if (Status st = writeAppliedState(state); !st) {
        out.report.error = makeError(st.error().code, st.error().message + QStringLiteral("; nothing was changed"));
        return out;
    }
    out.statePath = state.path;

    out.report = apply(plan, JournalMode::Persistent);
    if (!out.report.ok() && !anythingStayed(out.report) && (!out.report.rollback || out.report.rollback->ok())) {
        // Nothing stayed (rolled back, or refused before a write): what was
        // remembered before this apply is still right.
        AppliedState previous = before.value_or(AppliedState());
        const Status st = before ? writeAppliedState(previous) : detail::removeJournal(state.path);
        if (!st)
            out.messages << QStringLiteral("could not put %1 back as it was: %2").arg(state.path, st.error().message);
        out.statePath = before ? before->path : QString();
    }
    return out;
}

RememberedRevert LocalBackend::revertRemembered()
{
    RememberedRevert out;
    auto state = readAppliedState(m_root);
    if (!state) {
        out.restore.items << RestoreItem{{}, RestoreStatus::Failed, {}, {}, state.error().message};
        out.restore.messages << state.error().message;
        return out;
    }
    if (!*state) {
        out.restore.messages << QStringLiteral("no profile was applied here since the last revert or reboot "
                                               "(nothing remembered in %1)")
                                    .arg(appliedStatePlace());
        return out;
    }
    out.state = **state;
    // Settles the entries on the devices they were taken from, then removes
    // the file, or keeps what could not be restored for another try.
    out.restore = blocktune::restoreJournal(m_root, m_writer, out.state->journal);
    return out;
}

} // namespace

std::unique_ptr<SessionBackend> makeLocalBackend(const SysRoot &root, WriterFactory factory)
{
    return std::make_unique<LocalBackend>(root, std::move(factory));
}

} // namespace blocktune
