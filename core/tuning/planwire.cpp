// A change plan as typed JSON fields, for a plan made on one machine (a
// console's mirror of a host) and written on another (the host's agent),
// and the check the writing side makes of it against its own devices. Each
// write is a change of `set --json` (plannedWriteToJson(), reportjson.cpp).
#include "tuning.h"
#include "tuning_p.h"

#include "common/tr.h"

#include <QJsonArray>

namespace blocktune {

namespace {

QJsonArray stringsToJson(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

Result<QStringList> stringsFromJson(const QJsonObject &o, const char16_t *name)
{
    const QJsonValue v = o.value(QStringView(name));
    QStringList out;
    if (v.isUndefined())
        return out;
    if (!v.isArray())
        return makeError(InvalidArgument, QStringLiteral("plan: '%1' is not a list of strings").arg(QStringView(name)));
    for (const QJsonValue &item : v.toArray()) {
        if (!item.isString())
            return makeError(InvalidArgument, QStringLiteral("plan: '%1' is not a list of strings").arg(QStringView(name)));
        out << item.toString();
    }
    return out;
}

/// The device `entry` names on this machine, or why it is not the one the
/// plan was made for.
QString identityMismatch(const SysRoot &root, const JournalEntry &e)
{
    auto dir = root.deviceDirectory(e.device);
    if (!dir)
        return TuningText::tr("%1 does not exist here").arg(e.device);
    const SysDir d = SysDir::open(*dir);
    const QString dev = d.readString("dev").value_or(QString()).trimmed();
    const QString was = QStringLiteral("%1:%2").arg(e.major).arg(e.minor);
    if ((e.major || e.minor) && dev != was)
        return TuningText::tr("%1 is device %2 here, the plan was made for %3").arg(e.device, dev, was);
    const QString seq = d.readString("diskseq").value_or(QString()).trimmed();
    if (!e.diskseq.isEmpty() && !seq.isEmpty() && seq != e.diskseq)
        return TuningText::tr("%1 was re-attached since the plan was made (diskseq %2, now %3)").arg(e.device, e.diskseq, seq);
    return {};
}

} // namespace

QJsonObject planToJson(const ChangePlan &plan)
{
    QJsonArray writes;
    for (const PlannedWrite &w : plan.writes)
        writes.append(plannedWriteToJson(w));
    QJsonArray originals;
    for (const JournalEntry &e : plan.originals)
        originals.append(detail::journalEntryToJson(e));
    return {{QStringLiteral("writes"), writes},
            {QStringLiteral("originals"), originals},
            {QStringLiteral("warnings"), stringsToJson(plan.warnings)},
            {QStringLiteral("notes"), stringsToJson(plan.notes)}};
}

Result<ChangePlan> planFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return makeError(InvalidArgument, QStringLiteral("'plan' must be an object {\"writes\",\"originals\"}"));
    const QJsonObject o = v.toObject();
    if (!o.value(u"writes").isArray() || !o.value(u"originals").isArray())
        return makeError(InvalidArgument, QStringLiteral("plan: 'writes' and 'originals' must be lists"));
    ChangePlan plan;
    const QJsonArray writes = o.value(u"writes").toArray();
    if (writes.isEmpty())
        return makeError(InvalidArgument, QStringLiteral("plan: 'writes' is empty: nothing to apply"));
    for (qsizetype i = 0; i < writes.size(); ++i) {
        auto w = plannedWriteFromJson(writes.at(i), QStringLiteral("plan: write %1").arg(i + 1));
        if (!w)
            return w.error();
        plan.writes << *w;
    }
    const QJsonArray originals = o.value(u"originals").toArray();
    for (qsizetype i = 0; i < originals.size(); ++i) {
        auto e = detail::journalEntryFromJson(originals.at(i), i);
        if (!e)
            return makeError(InvalidArgument, QStringLiteral("plan: original %1").arg(e.error().message));
        plan.originals << *e;
    }
    auto warnings = stringsFromJson(o, u"warnings");
    auto notes = stringsFromJson(o, u"notes");
    if (!warnings)
        return warnings.error();
    if (!notes)
        return notes.error();
    plan.warnings = *warnings;
    plan.notes = *notes;
    return plan;
}

Status checkPlanHere(const SysRoot &root, const ChangePlan &plan)
{
    for (const PlannedWrite &w : plan.writes) {
        // What the helper checks before it writes: a kernel name, an
        // allowlisted attribute, a value of its form, a queue that has it.
        if (auto checked = checkAttributeWrite(root, AttributeWrite{w.device, w.attribute, w.value}); !checked)
            return checked.error();
        if (w.current.isEmpty())
            continue; // a tunable that appears with the scheduler switch before it
        const bool journaled = std::any_of(plan.originals.cbegin(), plan.originals.cend(), [&](const JournalEntry &e) {
            return e.device == w.device && e.attribute == w.attribute;
        });
        if (!journaled)
            return makeError(InvalidArgument, TuningText::tr("the plan writes %1 on %2 without its original value: "
                                                             "nothing could bring it back, so nothing was changed")
                                                  .arg(w.attribute, w.device.isEmpty() ? TuningText::tr("this machine")
                                                                                       : w.device));
    }
    for (const JournalEntry &e : plan.originals) {
        if (Status st = detail::checkJournalEntry(e); !st)
            return st;
        if (e.device.isEmpty())
            continue;
        if (const QString problem = identityMismatch(root, e); !problem.isEmpty())
            return makeError(Refused, problem + TuningText::tr(": the plan is stale, nothing was changed (look again)"));
    }
    return {};
}

} // namespace blocktune
