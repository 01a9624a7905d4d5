// JSON forms of change and restore reports (`set --json`, `restore --json`),
// both directions: the CLI writes them, the agent protocol carries them,
// and a plan's writes are a report's changes (docs/json.md).
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

RestoreStatus restoreStatusFrom(const QString &name)
{
    for (RestoreStatus s : {RestoreStatus::Restored, RestoreStatus::AlreadyOriginal, RestoreStatus::Discarded,
                            RestoreStatus::DeviceChanged, RestoreStatus::Failed})
        if (restoreStatusName(s) == name)
            return s;
    return RestoreStatus::Failed;
}

SettingStatus settingStatusFrom(const QString &name)
{
    for (SettingStatus s : {SettingStatus::Planned, SettingStatus::Applied, SettingStatus::RolledBack,
                            SettingStatus::Failed, SettingStatus::Skipped})
        if (settingStatusName(s) == name)
            return s;
    return SettingStatus::Failed;
}

PlannedWrite writeFrom(const QJsonObject &o)
{
    PlannedWrite w;
    w.request.device = o.value(u"device").toString();
    w.request.key = o.value(u"key").toString();
    w.request.value = SettingValue(o.value(u"value").toString());
    w.device = o.value(u"queue_device").toString();
    w.attribute = o.value(u"attribute").toString();
    w.current = o.value(u"current").toString();
    w.value = o.value(u"new").toString();
    w.forMembers = o.value(u"for_members").toBool();
    return w;
}

QStringList stringsFrom(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &item : v.toArray())
        out << item.toString();
    return out;
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
        QJsonObject c = plannedWriteToJson(o.write);
        c.insert(u"kept", textOrNull(o.kept));
        c.insert(u"status", settingStatusName(o.status));
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

QJsonObject plannedWriteToJson(const PlannedWrite &w)
{
    QJsonObject c;
    c.insert(u"device", w.request.device);
    c.insert(u"key", w.request.key);
    c.insert(u"value", w.request.value.text());
    c.insert(u"queue_device", textOrNull(w.device));
    c.insert(u"attribute", w.attribute);
    c.insert(u"current", textOrNull(w.current));
    c.insert(u"new", w.value);
    c.insert(u"for_members", w.forMembers);
    return c;
}

Result<PlannedWrite> plannedWriteFromJson(const QJsonValue &v, const QString &where)
{
    if (!v.isObject())
        return makeError(InvalidArgument, where + QStringLiteral(" is not an object"));
    const QJsonObject o = v.toObject();
    for (const char16_t *name : {u"device", u"key", u"value", u"attribute", u"new"})
        if (!o.value(QStringView(name)).isString())
            return makeError(InvalidArgument, QStringLiteral("%1: '%2' is not a string").arg(where, QStringView(name)));
    for (const char16_t *name : {u"queue_device", u"current"})
        if (!o.value(QStringView(name)).isString() && !o.value(QStringView(name)).isNull())
            return makeError(InvalidArgument,
                             QStringLiteral("%1: '%2' is not a string or null").arg(where, QStringView(name)));
    if (!o.value(u"for_members").isBool())
        return makeError(InvalidArgument, QStringLiteral("%1: 'for_members' is not true or false").arg(where));
    return writeFrom(o);
}

RestoreReport restoreReportFromJson(const QJsonObject &o)
{
    RestoreReport report;
    for (const QJsonValue &v : o.value(u"items").toArray()) {
        const QJsonObject i = v.toObject();
        RestoreItem item;
        item.entry.device = i.value(u"device").toString();
        item.entry.attribute = i.value(u"attribute").toString();
        item.entry.original = i.value(u"original").toString();
        item.entry.scheduler = i.value(u"scheduler").toString();
        item.status = restoreStatusFrom(i.value(u"status").toString());
        item.found = i.value(u"found").toString();
        item.kept = i.value(u"kept").toString();
        item.message = i.value(u"message").toString();
        report.items << item;
    }
    report.messages = stringsFrom(o.value(u"messages"));
    return report;
}

ChangeReport changeReportFromJson(const QJsonObject &o)
{
    ChangeReport report;
    for (const QJsonValue &v : o.value(u"changes").toArray()) {
        const QJsonObject c = v.toObject();
        const PlannedWrite w = writeFrom(c);
        report.plan.writes << w;
        report.outcomes.append(SettingOutcome{w, settingStatusFrom(c.value(u"status").toString()),
                                              c.value(u"kept").toString(), c.value(u"message").toString()});
    }
    for (const QJsonValue &v : o.value(u"errors").toArray())
        report.plan.errors << makeError(InvalidArgument, v.toString());
    report.plan.warnings = stringsFrom(o.value(u"warnings"));
    report.plan.notes = stringsFrom(o.value(u"notes"));
    if (o.value(u"rollback").isObject())
        report.rollback = restoreReportFromJson(o.value(u"rollback").toObject());
    report.journalPath = o.value(u"journal").toString();
    return report;
}

} // namespace blocktune
