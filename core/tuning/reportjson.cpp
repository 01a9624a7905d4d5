// JSON forms of change and restore reports (`set --json`, `restore --json`).
#include "tuning.h"

#include <QJsonArray>

namespace blocktune {

namespace {

QJsonValue textOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

QJsonObject restoreItemToJson(const RestoreItem &item)
{
    QJsonObject o;
    o.insert(u"device", textOrNull(item.entry.device));
    o.insert(u"attribute", item.entry.attribute);
    o.insert(u"original", item.entry.original);
    if (!item.entry.scheduler.isEmpty())
        o.insert(u"scheduler", item.entry.scheduler);
    o.insert(u"found", textOrNull(item.found));
    o.insert(u"kept", textOrNull(item.kept));
    o.insert(u"status", restoreStatusName(item.status));
    o.insert(u"message", textOrNull(item.message));
    return o;
}

} // namespace

QJsonObject restoreReportToJson(const RestoreReport &report)
{
    QJsonArray items;
    for (const RestoreItem &item : report.items)
        items.append(restoreItemToJson(item));
    QJsonObject o;
    o.insert(u"ok", report.ok());
    o.insert(u"items", items);
    o.insert(u"messages", QJsonArray::fromStringList(report.messages));
    return o;
}

ChangeReport plannedReport(const ChangePlan &plan)
{
    ChangeReport report;
    report.plan = plan;
    for (const PlannedWrite &w : plan.writes)
        report.outcomes.append(SettingOutcome{w, SettingStatus::Planned, {}, {}});
    if (!plan.ok())
        report.error = plan.errors.constFirst();
    return report;
}

QJsonObject changeReportToJson(const ChangeReport &report, bool dryRun)
{
    QJsonArray changes;
    for (const SettingOutcome &o : report.outcomes) {
        QJsonObject c;
        c.insert(u"device", o.write.request.device);
        c.insert(u"key", o.write.request.key);
        c.insert(u"value", o.write.request.value.text());
        c.insert(u"queue_device", textOrNull(o.write.device));
        c.insert(u"attribute", o.write.attribute);
        c.insert(u"current", textOrNull(o.write.current));
        c.insert(u"new", o.write.value);
        c.insert(u"kept", textOrNull(o.kept));
        c.insert(u"status", settingStatusName(o.status));
        c.insert(u"for_members", o.write.forMembers);
        c.insert(u"message", textOrNull(o.message));
        changes.append(c);
    }
    QJsonArray errors;
    for (const Error &e : report.plan.errors)
        errors.append(e.message);
    QJsonObject o;
    o.insert(u"ok", report.ok());
    o.insert(u"dry_run", dryRun);
    o.insert(u"changes", changes);
    o.insert(u"errors", errors);
    o.insert(u"error", report.error ? QJsonValue(report.error->message) : QJsonValue());
    o.insert(u"warnings", QJsonArray::fromStringList(report.plan.warnings));
    o.insert(u"notes", QJsonArray::fromStringList(report.plan.notes));
    o.insert(u"rollback", report.rollback ? QJsonValue(restoreReportToJson(*report.rollback)) : QJsonValue());
    o.insert(u"journal", textOrNull(report.journalPath));
    return o;
}

} // namespace blocktune
