// blocktune-helper's protocol: one JSON object per line in, one per line out.
// Requests are taken apart field by field; nothing unexpected is tolerated,
// so a confused or hostile caller learns why and changes nothing.
#include "privilege.h"

#include "common/jsonlines.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <unistd.h>

namespace blocktune {

namespace {

QByteArray toLine(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QJsonObject errorObject(const QString &message, const QString &code, const QJsonObject &request = {})
{
    QJsonObject o;
    o.insert(u"ok", false);
    if (request.contains(u"id"))
        o.insert(u"id", request.value(u"id"));
    if (request.value(u"op").isString())
        o.insert(u"op", request.value(u"op"));
    o.insert(u"error", message);
    o.insert(u"code", code);
    return o;
}

// A field that must be a string when present.
bool stringField(const QJsonObject &request, const char16_t *name, QString *out, QString *error)
{
    const QJsonValue v = request.value(QStringView(name));
    if (v.isUndefined()) {
        out->clear();
        return true;
    }
    if (!v.isString()) {
        *error = QStringLiteral("field '%1' must be a string").arg(QStringView(name));
        return false;
    }
    *out = v.toString();
    return true;
}

} // namespace

QByteArray HelperService::overlongLine()
{
    return toLine(errorObject(QStringLiteral("request longer than %1 bytes refused").arg(kHelperMaxLine),
                              QStringLiteral("invalid")));
}

QByteArray HelperService::handleLine(const QByteArray &line) const
{
    if (line.size() > kHelperMaxRulesLine)
        return overlongLine();
    if (line.contains('\0'))
        return toLine(errorObject(QStringLiteral("request contains a NUL byte"), QStringLiteral("invalid")));

    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    // Only install_rules carries a file; every other request stays within a line.
    if (line.size() > kHelperMaxLine
        && (parseError.error != QJsonParseError::NoError || doc.object().value(u"op").toString() != u"install_rules"))
        return overlongLine();
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return toLine(errorObject(
            QStringLiteral("request is not a JSON object%1 (expected e.g. {\"op\":\"set\",\"device\":\"sdb\","
                           "\"attribute\":\"read_ahead_kb\",\"value\":\"4096\"})")
                .arg(parseError.error != QJsonParseError::NoError ? u": " + parseError.errorString() : QString()),
            QStringLiteral("invalid")));
    const QJsonObject request = doc.object();

    static const QStringList known{QStringLiteral("op"), QStringLiteral("id"), QStringLiteral("device"),
                                   QStringLiteral("attribute"), QStringLiteral("value"), QStringLiteral("name"),
                                   QStringLiteral("content")};
    for (auto it = request.begin(); it != request.end(); ++it)
        if (!known.contains(it.key()))
            return toLine(errorObject(QStringLiteral("unknown field '%1' (fields: %2)")
                                          .arg(it.key().left(64), known.join(u", ")),
                                      QStringLiteral("invalid"), request));
    const QJsonValue id = request.value(u"id");
    if (!id.isUndefined() && !id.isDouble() && !(id.isString() && id.toString().size() <= 64))
        return toLine(errorObject(QStringLiteral("field 'id' must be a number or a short string"),
                                  QStringLiteral("invalid")));

    QString op, device, attr, value, name, content, error;
    if (!stringField(request, u"op", &op, &error) || !stringField(request, u"device", &device, &error)
        || !stringField(request, u"attribute", &attr, &error) || !stringField(request, u"value", &value, &error)
        || !stringField(request, u"name", &name, &error) || !stringField(request, u"content", &content, &error))
        return toLine(errorObject(error, QStringLiteral("invalid"), request));
    const bool rulesOp = op == u"install_rules" || op == u"remove_rules";
    if (!rulesOp && (request.contains(u"name") || request.contains(u"content")))
        return toLine(errorObject(QStringLiteral("'name' and 'content' belong to install_rules and remove_rules"),
                                  QStringLiteral("invalid"), request));

    QJsonObject reply;
    reply.insert(u"ok", true);
    if (!id.isUndefined())
        reply.insert(u"id", id);
    reply.insert(u"op", op);

    if (op == u"hello") {
        reply.insert(u"program", QStringLiteral("blocktune-helper"));
        reply.insert(u"version", kHelperProtocolVersion);
        reply.insert(u"euid", qint64(::geteuid()));
        reply.insert(u"sysroot", !m_root.isLive());
        return toLine(reply);
    }
    if (op == u"get") {
        if (request.contains(u"value"))
            return toLine(errorObject(QStringLiteral("'get' takes no value"), QStringLiteral("invalid"), request));
        auto path = resolveAttribute(m_root, device, attr);
        if (!path)
            return toLine(errorObject(path.error().message, errorCodeName(path.error().code), request));
        auto text = m_root.readString(*path);
        if (!text)
            return toLine(errorObject(text.error().message, errorCodeName(text.error().code), request));
        QString shown = *text;
        if (attr == attribute::Scheduler)
            if (auto choice = sysfs::parseBracketChoice(text->toLatin1()))
                shown = choice->active;
        if (!device.isEmpty())
            reply.insert(u"device", device);
        reply.insert(u"attribute", attr);
        reply.insert(u"value", shown);
        return toLine(reply);
    }
    if (op == u"set") {
        if (!request.value(u"value").isString())
            return toLine(errorObject(QStringLiteral("'set' needs a string 'value'"), QStringLiteral("invalid"),
                                      request));
        auto written = writeCheckedAttribute(m_root, AttributeWrite{device, attr, value});
        if (!written)
            return toLine(errorObject(written.error().message, errorCodeName(written.error().code), request));
        if (!device.isEmpty())
            reply.insert(u"device", device);
        reply.insert(u"attribute", attr);
        reply.insert(u"value", written->kept);
        reply.insert(u"previous", written->previous);
        return toLine(reply);
    }
    if (rulesOp) {
        if (request.contains(u"device") || request.contains(u"attribute") || request.contains(u"value")
            || !request.contains(u"name") || (op == u"install_rules") != request.contains(u"content"))
            return toLine(errorObject(QStringLiteral("'%1' takes 'name'%2, nothing else")
                                          .arg(op, op == u"install_rules" ? QStringLiteral(" and 'content'") : QString()),
                                      QStringLiteral("invalid"), request));
        auto done = op == u"install_rules" ? installUdevRules(m_root, name, content.toUtf8())
                                           : removeUdevRules(m_root, name);
        if (!done)
            return toLine(errorObject(done.error().message, errorCodeName(done.error().code), request));
        reply.insert(u"path", done->path);
        reply.insert(u"replaced", done->replaced);
        reply.insert(u"udevd", done->udevdRunning);
        reply.insert(u"commands", QJsonArray::fromStringList(done->commands));
        reply.insert(u"message", done->message);
        return toLine(reply);
    }
    return toLine(errorObject(QStringLiteral("unknown op '%1' (ops: hello, get, set, install_rules, remove_rules)")
                                  .arg(op.left(64)),
                              QStringLiteral("invalid"), request));
}

} // namespace blocktune
