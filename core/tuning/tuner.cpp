// Change sets as transactions: validate everything, journal the originals,
// write in order, and on the first failure undo what was written.
#include "tuning.h"
#include "tuning_p.h"

#include "common/termination.h"
#include "common/tr.h"

namespace blocktune {

namespace {

QString target(const PlannedWrite &w)
{
    return w.device.isEmpty() ? TuningText::tr("this machine") : w.device;
}

// One word per status, marked for lupdate: the JSON and the CLI take it as
// it is, the console through the translator.
const char *settingStatusWord(SettingStatus status)
{
    switch (status) {
    case SettingStatus::Planned: return QT_TRANSLATE_NOOP("blocktune::Tuning", "planned");
    case SettingStatus::Applied: return QT_TRANSLATE_NOOP("blocktune::Tuning", "applied");
    case SettingStatus::RolledBack: return QT_TRANSLATE_NOOP("blocktune::Tuning", "rolled back");
    case SettingStatus::Failed: return QT_TRANSLATE_NOOP("blocktune::Tuning", "failed");
    case SettingStatus::Skipped: return QT_TRANSLATE_NOOP("blocktune::Tuning", "skipped");
    }
    return "";
}

const char *restoreStatusWord(RestoreStatus status)
{
    switch (status) {
    case RestoreStatus::Restored: return QT_TRANSLATE_NOOP("blocktune::Tuning", "restored");
    case RestoreStatus::AlreadyOriginal: return QT_TRANSLATE_NOOP("blocktune::Tuning", "already original");
    case RestoreStatus::Discarded: return QT_TRANSLATE_NOOP("blocktune::Tuning", "discarded");
    case RestoreStatus::DeviceChanged: return QT_TRANSLATE_NOOP("blocktune::Tuning", "device changed");
    case RestoreStatus::Failed: return QT_TRANSLATE_NOOP("blocktune::Tuning", "failed");
    }
    return "";
}

} // namespace

QString settingStatusName(SettingStatus status)
{
    return QString::fromLatin1(settingStatusWord(status));
}

QString settingStatusText(SettingStatus status)
{
    return TuningText::tr(settingStatusWord(status));
}

QString restoreStatusName(RestoreStatus status)
{
    return QString::fromLatin1(restoreStatusWord(status));
}

QString restoreStatusText(RestoreStatus status)
{
    return TuningText::tr(restoreStatusWord(status));
}

Tuner::Tuner(SysRoot root, AttributeWriter &writer) : m_root(std::move(root)), m_writer(writer)
{
}

Tuner::~Tuner()
{
    if (holdsTemporary())
        restore();
}

ChangeReport Tuner::apply(const ChangePlan &plan)
{
    return run(plan, JournalMode::Persistent);
}

ChangeReport Tuner::applyTemporary(const ChangePlan &plan)
{
    return run(plan, JournalMode::Temporary);
}

namespace {

/// A refused plan's error: its messages, InvalidArgument unless one error
/// of another kind said why.
Error invalidPlanError(const ChangePlan &plan)
{
    QStringList messages;
    for (const Error &e : plan.errors)
        messages << e.message;
    const int code = plan.errors.constFirst().code == InvalidArgument || plan.errors.size() > 1
                         ? int(InvalidArgument)
                         : plan.errors.constFirst().code;
    return makeError(code, messages.join(u"; "));
}

void skipAll(ChangeReport &report, const Error &why)
{
    report.error = makeError(why.code, why.message + TuningText::tr("; nothing was changed"));
    for (SettingOutcome &o : report.outcomes)
        o.status = SettingStatus::Skipped;
}

/// Writes the plan in order until a write fails or a termination signal
/// arrives; the index where it stopped, or -1 when every write was made.
qsizetype writeInOrder(AttributeWriter &writer, ChangeReport &report)
{
    for (qsizetype i = 0; i < report.outcomes.size(); ++i) {
        SettingOutcome &o = report.outcomes[i];
        const PlannedWrite &w = o.write;
        if (TerminationSignals::installed() && TerminationSignals::pending()) {
            report.error = makeError(Interrupted, TuningText::tr("interrupted by signal %1 before %2=%3 on %4")
                                                      .arg(TerminationSignals::pending())
                                                      .arg(w.attribute, w.value, target(w)));
            return i;
        }
        auto written = writer.write(AttributeWrite{w.device, w.attribute, w.value});
        if (!written) {
            o.status = SettingStatus::Failed;
            o.message = written.error().message;
            report.error = makeError(written.error().code, TuningText::tr("%1=%2 on %3 failed: %4")
                                                               .arg(w.attribute, w.value, target(w),
                                                                    written.error().message));
            return i;
        }
        o.status = SettingStatus::Applied;
        o.kept = written->kept;
        if (o.kept != w.value)
            o.message = TuningText::tr("the kernel kept %1, not %2").arg(o.kept, w.value);
    }
    return -1;
}

/// After a rollback: what became of each write that had been made.
void markRolledBack(ChangeReport &report, const RestoreReport &rollback)
{
    for (SettingOutcome &o : report.outcomes) {
        if (o.status != SettingStatus::Applied)
            continue;
        const auto item = std::find_if(rollback.items.cbegin(), rollback.items.cend(), [&](const RestoreItem &r) {
            return r.entry.device == o.write.device && r.entry.attribute == o.write.attribute;
        });
        const bool undone = item == rollback.items.cend() // a tunable that went with its scheduler
                            || item->status == RestoreStatus::Restored
                            || item->status == RestoreStatus::AlreadyOriginal
                            || item->status == RestoreStatus::Discarded;
        if (undone) {
            o.status = SettingStatus::RolledBack;
        } else {
            o.status = SettingStatus::Failed;
            o.message = TuningText::tr("applied, but rolling it back failed: %1").arg(item->message);
        }
    }
}

} // namespace

ChangeReport Tuner::run(const ChangePlan &plan, JournalMode mode)
{
    ChangeReport report = plannedReport(plan);
    if (!report.plan.ok()) {
        report.error = invalidPlanError(report.plan);
        return report;
    }
    if (report.plan.writes.isEmpty())
        return report;
    // One blocktune process at a time per device, and what the plan found
    // must still be there once we hold them (devicelock.cpp).
    auto locks = DeviceLocks::forPlan(m_root, report.plan);
    if (!locks) {
        skipAll(report, locks.error());
        return report;
    }
    if (locks->waited())
        report.plan.notes << TuningText::tr("waited for %1").arg(locks->waitedFor());

    // The originals go to disk before the first write.
    Transaction t{mode, {}, m_session.entries};
    if (Status st = journalOriginals(t, report.plan); !st) {
        skipAll(report, st.error());
        return report;
    }
    const qsizetype failedAt = writeInOrder(m_writer, report);
    if (failedAt < 0) {
        if (mode == JournalMode::Persistent) {
            // The change is meant to stay; the journal only guarded the writes.
            if (Status st = detail::removeJournal(t.own.path); !st)
                report.plan.warnings << st.error().message;
        } else {
            report.journalPath = m_session.path;
            m_sessionLocks.adopt(std::move(*locks));
        }
        return report;
    }
    rollBack(t, report, failedAt);
    return report;
}

Status Tuner::journalOriginals(Transaction &t, const ChangePlan &plan)
{
    if (t.mode == JournalMode::Persistent) {
        detail::initJournal(t.own, m_root, JournalMode::Persistent);
        t.own.entries = plan.originals;
        return detail::writeJournal(t.own);
    }
    if (m_session.entries.isEmpty() && m_session.path.isEmpty())
        detail::initJournal(m_session, m_root, JournalMode::Temporary);
    detail::mergeOriginals(m_session.entries, plan.originals);
    Status st = detail::writeJournal(m_session);
    if (!st)
        m_session.entries = t.sessionBefore;
    return st;
}

void Tuner::rollBack(Transaction &t, ChangeReport &report, qsizetype failedAt)
{
    for (qsizetype i = failedAt; i < report.outcomes.size(); ++i)
        if (report.outcomes[i].status == SettingStatus::Planned)
            report.outcomes[i].status = SettingStatus::Skipped;
    // Undo this transaction: back to the values it found (for a temporary
    // set, the values before this step, not the session's first ones).
    RestoreReport rollback = detail::restoreEntries(m_root, m_writer, report.plan.originals);
    markRolledBack(report, rollback);
    const QString journalPath = t.mode == JournalMode::Persistent ? t.own.path : m_session.path;
    if (!rollback.ok()) {
        report.journalPath = journalPath;
        rollback.messages << TuningText::tr("the original values stay in %1: run blocktune-cli restore").arg(journalPath);
    } else if (t.mode == JournalMode::Persistent) {
        if (Status st = detail::removeJournal(t.own.path); !st)
            rollback.messages << st.error().message;
    } else {
        m_session.entries = t.sessionBefore;
        if (m_session.entries.isEmpty()) {
            if (Status st = detail::removeJournal(m_session.path); !st)
                rollback.messages << st.error().message;
            m_session = Journal{};
        } else if (Status st = detail::writeJournal(m_session); !st) {
            rollback.messages << st.error().message;
        }
    }
    report.rollback = rollback;
}

QList<JournalEntry> Tuner::keep()
{
    const QList<JournalEntry> kept = m_session.entries;
    if (!m_session.path.isEmpty())
        (void)detail::removeJournal(m_session.path);
    m_session = Journal{};
    return kept;
}

RestoreReport Tuner::restore()
{
    RestoreReport report;
    if (!holdsTemporary())
        return report;
    report = detail::restoreEntries(m_root, m_writer, m_session.entries);
    QList<JournalEntry> left;
    for (const RestoreItem &item : std::as_const(report.items))
        if (item.status == RestoreStatus::Failed)
            left.append(item.entry);
    if (left.isEmpty()) {
        if (Status st = detail::removeJournal(m_session.path); !st)
            report.messages << st.error().message;
        m_session = Journal{};
        m_sessionLocks.release();
        return report;
    }
    m_session.entries = left;
    if (Status st = detail::writeJournal(m_session); !st)
        report.messages << st.error().message;
    report.messages << TuningText::tr("%1 value(s) could not be restored; they stay in %2 for blocktune-cli restore")
                           .arg(left.size()).arg(m_session.path);
    // Nothing more this session can do; a later `restore` may.
    m_session = Journal{};
    m_sessionLocks.release();
    return report;
}

} // namespace blocktune
