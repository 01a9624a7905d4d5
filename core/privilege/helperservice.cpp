// blocktune-helper's protocol: one JSON object per line in, one per line out.
// Requests are taken apart field by field; nothing unexpected is tolerated,
// so a confused or hostile caller learns why and changes nothing.
#include "privilege.h"

#include "common/jsonlines.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <cmath>

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

// A request taken apart: every field checked for its type, none unknown.
struct HelperRequest
{
    QJsonObject json;
    QJsonValue id;
    QString op, device, attr, value, name, content;
    bool rulesOp = false; ///< install_rules or remove_rules
};

// The line as one JSON object; empty when it is one, else the reply that
// refuses it.
QByteArray readRequestObject(const QByteArray &line, QJsonObject &request)
{
    if (line.size() > kHelperMaxRulesLine)
        return HelperService::overlongLine();
    if (line.contains('\0'))
        return toLine(errorObject(QStringLiteral("request contains a NUL byte"), QStringLiteral("invalid")));

    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    // Only install_rules carries a file; every other request stays within a line.
    if (line.size() > kHelperMaxLine
        && (parseError.error != QJsonParseError::NoError || doc.object().value(u"op").toString() != u"install_rules"))
        return HelperService::overlongLine();
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return toLine(errorObject(
            QStringLiteral("request is not a JSON object%1 (expected e.g. {\"op\":\"set\",\"device\":\"sdb\","
                           "\"attribute\":\"read_ahead_kb\",\"value\":\"4096\"})")
                .arg(parseError.error != QJsonParseError::NoError ? u": " + parseError.errorString() : QString()),
            QStringLiteral("invalid")));
    // QJsonDocument keeps the last of two equal keys: {"op":"get","op":"set"}
    // would be a set that reads like a get.
    if (const auto key = duplicateJsonKey(line))
        return toLine(errorObject(QStringLiteral("field '%1' appears twice in the request (each field once)")
                                      .arg(key->left(64)),
                                  QStringLiteral("invalid")));
    request = doc.object();
    return {};
}

// The object's fields into `r`; empty when they are all known and well
// typed, else the reply that refuses the request.
QByteArray readRequestFields(const QJsonObject &request, HelperRequest &r)
{
    static const QStringList known{QStringLiteral("op"), QStringLiteral("id"), QStringLiteral("device"),
                                   QStringLiteral("attribute"), QStringLiteral("value"), QStringLiteral("name"),
                                   QStringLiteral("content"), QStringLiteral("devices"),
                                   QStringLiteral("interval_ms")};
    for (auto it = request.begin(); it != request.end(); ++it)
        if (!known.contains(it.key()))
            return toLine(errorObject(QStringLiteral("unknown field '%1' (fields: %2)")
                                          .arg(it.key().left(64), known.join(u", ")),
                                      QStringLiteral("invalid"), request));
    r.json = request;
    r.id = request.value(u"id");
    if (!r.id.isUndefined() && !r.id.isDouble() && !(r.id.isString() && r.id.toString().size() <= 64))
        return toLine(errorObject(QStringLiteral("field 'id' must be a number or a short string"),
                                  QStringLiteral("invalid")));

    QString error;
    if (!stringField(request, u"op", &r.op, &error))
        return toLine(errorObject(error, QStringLiteral("invalid"), request));
    // The streaming ops check their own fields: core/monitor/helperlatency.cpp,
    // core/readahead/helperreadahead.cpp.
    if (r.op == u"latency" || r.op == u"readahead")
        return {};
    if (request.contains(u"devices") || request.contains(u"interval_ms"))
        return toLine(errorObject(QStringLiteral("'devices' and 'interval_ms' belong to latency ('interval_ms' to "
                                                 "readahead too)"),
                                  QStringLiteral("invalid"), request));
    if (!stringField(request, u"device", &r.device, &error)
        || !stringField(request, u"attribute", &r.attr, &error) || !stringField(request, u"value", &r.value, &error)
        || !stringField(request, u"name", &r.name, &error) || !stringField(request, u"content", &r.content, &error))
        return toLine(errorObject(error, QStringLiteral("invalid"), request));
    r.rulesOp = r.op == u"install_rules" || r.op == u"remove_rules";
    if (!r.rulesOp && (request.contains(u"name") || request.contains(u"content")))
        return toLine(errorObject(QStringLiteral("'name' and 'content' belong to install_rules and remove_rules"),
                                  QStringLiteral("invalid"), request));
    return {};
}

QByteArray replyGet(const SysRoot &root, const HelperRequest &r, QJsonObject reply)
{
    const QJsonObject &request = r.json;
    if (request.contains(u"value"))
        return toLine(errorObject(QStringLiteral("'get' takes no value"), QStringLiteral("invalid"), request));
    auto text = readAllowedAttribute(root, r.device, r.attr);
    if (!text)
        return toLine(errorObject(text.error().message, errorCodeName(text.error().code), request));
    QString shown = *text;
    if (r.attr == attribute::Scheduler)
        if (auto choice = sysfs::parseBracketChoice(text->toLatin1()))
            shown = choice->active;
    if (!r.device.isEmpty())
        reply.insert(u"device", r.device);
    reply.insert(u"attribute", r.attr);
    reply.insert(u"value", shown);
    return toLine(reply);
}

QByteArray replySet(const SysRoot &root, const HelperRequest &r, QJsonObject reply)
{
    const QJsonObject &request = r.json;
    if (!request.value(u"value").isString())
        return toLine(errorObject(QStringLiteral("'set' needs a string 'value'"), QStringLiteral("invalid"),
                                  request));
    auto written = writeCheckedAttribute(root, AttributeWrite{r.device, r.attr, r.value});
    if (!written)
        return toLine(errorObject(written.error().message, errorCodeName(written.error().code), request));
    if (!r.device.isEmpty())
        reply.insert(u"device", r.device);
    reply.insert(u"attribute", r.attr);
    reply.insert(u"value", written->kept);
    reply.insert(u"previous", written->previous);
    return toLine(reply);
}

QByteArray replyRules(const SysRoot &root, const HelperRequest &r, QJsonObject reply)
{
    const QJsonObject &request = r.json;
    const QString &op = r.op;
    if (request.contains(u"device") || request.contains(u"attribute") || request.contains(u"value")
        || !request.contains(u"name") || (op == u"install_rules") != request.contains(u"content"))
        return toLine(errorObject(QStringLiteral("'%1' takes 'name'%2, nothing else")
                                      .arg(op, op == u"install_rules" ? QStringLiteral(" and 'content'") : QString()),
                                  QStringLiteral("invalid"), request));
    auto done = op == u"install_rules" ? installUdevRules(root, r.name, r.content.toUtf8())
                                       : removeUdevRules(root, r.name);
    if (!done)
        return toLine(errorObject(done.error().message, errorCodeName(done.error().code), request));
    reply.insert(u"path", done->path);
    reply.insert(u"replaced", done->replaced);
    reply.insert(u"udevd", done->udevdRunning);
    reply.insert(u"commands", QJsonArray::fromStringList(done->commands));
    reply.insert(u"message", done->message);
    return toLine(reply);
}

QByteArray replyStream(const HelperStreamOp &op, const HelperRequest &r, std::unique_ptr<HelperStream> *stream)
{
    if (!op)
        return toLine(errorObject(QStringLiteral("this helper has no '%1' op").arg(r.op), errorCodeName(Refused), r.json));
    auto started = op(r.json, stream);
    if (!started)
        return toLine(errorObject(started.error().message, errorCodeName(started.error().code), r.json));
    return *started;
}

// A JSON value as a message shows it.
QString shownJsonValue(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String: return u'"' + v.toString().left(40) + u'"';
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: return QString::number(v.toDouble(), 'g', 12);
    case QJsonValue::Array: return QStringLiteral("a list");
    case QJsonValue::Object: return QStringLiteral("an object");
    default: return QStringLiteral("null");
    }
}

} // namespace

Result<int> checkHelperIntervalMs(const QString &op, const QJsonValue &v, int minMs, int maxMs)
{
    const QString rule = QStringLiteral("a whole number of milliseconds from %1 to %2").arg(minMs).arg(maxMs);
    if (v.isUndefined())
        return makeError(InvalidArgument, QStringLiteral("'%1' needs 'interval_ms', %2").arg(op, rule));
    if (!v.isDouble() || std::floor(v.toDouble()) != v.toDouble())
        return makeError(InvalidArgument, QStringLiteral("'interval_ms' must be %1 (got %2)").arg(rule, shownJsonValue(v)));
    const double ms = v.toDouble();
    if (ms < minMs || ms > maxMs)
        return makeError(InvalidArgument, QStringLiteral("'interval_ms' %1 is out of range (allowed: %2 to %3 ms)")
                                              .arg(QString::number(ms, 'g', 12))
                                              .arg(minMs)
                                              .arg(maxMs));
    return int(ms);
}

HelperService::HelperService(SysRoot root, HelperStreamOp latencyOp, HelperStreamOp readaheadOp)
    : m_root(std::move(root)), m_latencyOp(std::move(latencyOp)), m_readaheadOp(std::move(readaheadOp))
{
}

HelperService::~HelperService() = default;

QByteArray HelperService::overlongLine()
{
    return toLine(errorObject(QStringLiteral("request longer than %1 bytes refused").arg(kHelperMaxLine),
                              QStringLiteral("invalid")));
}

QByteArray HelperService::handleLine(const QByteArray &line, std::unique_ptr<HelperStream> *stream) const
{
    QJsonObject object;
    if (QByteArray refused = readRequestObject(line, object); !refused.isEmpty())
        return refused;
    HelperRequest request;
    if (QByteArray refused = readRequestFields(object, request); !refused.isEmpty())
        return refused;

    QJsonObject reply;
    reply.insert(u"ok", true);
    if (!request.id.isUndefined())
        reply.insert(u"id", request.id);
    reply.insert(u"op", request.op);

    if (request.op == u"hello") {
        reply.insert(u"program", QStringLiteral("blocktune-helper"));
        reply.insert(u"version", kHelperProtocolVersion);
        reply.insert(u"euid", qint64(::geteuid()));
        reply.insert(u"sysroot", !m_root.isLive());
        return toLine(reply);
    }
    if (request.op == u"get")
        return replyGet(m_root, request, reply);
    if (request.op == u"set")
        return replySet(m_root, request, reply);
    if (request.rulesOp)
        return replyRules(m_root, request, reply);
    if (request.op == u"latency")
        return replyStream(m_latencyOp, request, stream);
    if (request.op == u"readahead")
        return replyStream(m_readaheadOp, request, stream);
    return toLine(errorObject(QStringLiteral("unknown op '%1' (ops: hello, get, set, install_rules, remove_rules, "
                                             "latency, readahead)")
                                  .arg(request.op.left(64)),
                              QStringLiteral("invalid"), object));
}

ProcessIdentity currentIdentity()
{
    ProcessIdentity who{::getuid(), ::geteuid(), ::getgid(), ::getegid(), {}};
    for (const char *name : {"SUDO_UID", "SUDO_USER", "PKEXEC_UID", "DOAS_USER"})
        if (qEnvironmentVariableIsSet(name))
            who.elevation.append({QString::fromLatin1(name), qEnvironmentVariable(name)});
    return who;
}

QString sysrootRefusal(const ProcessIdentity &who)
{
    if (who.realUid != who.effectiveUid || who.realGid != who.effectiveGid)
        return QStringLiteral("--sysroot is refused when started through setuid or setgid (real uid %1, effective "
                              "uid %2)")
            .arg(who.realUid)
            .arg(who.effectiveUid);
    // Not root: the helper can do no more than the user who runs it.
    if (who.effectiveUid != 0)
        return {};
    // sudo sets the real uid to 0 as well: its variables are what tells a
    // root shell from a user's sudo. sudo and pkexec set them themselves,
    // over anything the caller passed, so a caller cannot hide behind them.
    for (const auto &[name, value] : who.elevation) {
        const bool uidVariable = name.endsWith(u"_UID");
        const bool root = uidVariable ? value == u"0" : value == u"root";
        if (root)
            continue;
        const QString tool = name.startsWith(u"SUDO") ? QStringLiteral("sudo")
                             : name.startsWith(u"PKEXEC") ? QStringLiteral("pkexec")
                                                          : QStringLiteral("doas");
        return QStringLiteral("--sysroot is refused when started through %1 by a user other than root (%2=%3): as "
                              "root on a tree that user controls, a link there could lead root's reads and writes "
                              "to any file. Run it as that user without %1, or from a root shell")
            .arg(tool, name, value.left(32));
    }
    return {};
}

} // namespace blocktune
