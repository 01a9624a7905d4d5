// The profile file format: versioned JSON, parsed strictly (an unknown key
// is a typo until proven otherwise) with messages that say where and what
// is allowed.
#include "profiles.h"
#include "profiles_p.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <cmath>
#include <fnmatch.h>

namespace blocktune {

namespace {

// JSON numbers are doubles: integers are exact up to 2^53.
constexpr double kMaxExactInteger = 9007199254740992.0;

class Problems
{
public:
    explicit Problems(QString source) : m_source(std::move(source)) {}
    void add(const QString &where, const QString &what)
    {
        m_lines << (where.isEmpty() ? QStringLiteral("%1: %2").arg(m_source, what)
                                    : QStringLiteral("%1: %2: %3").arg(m_source, where, what));
    }
    bool any() const { return !m_lines.isEmpty(); }
    Error error() const { return makeError(InvalidArgument, m_lines.join(u'\n')); }

private:
    QString m_source;
    QStringList m_lines;
};

QString typeNames()
{
    return QStringLiteral("disk, part, md, dm, loop");
}

// Text that goes into exports (udev and tuned comment lines, tuned's
// summary=): why it cannot, or empty.
QString controlCharacterIn(const QString &text)
{
    const qsizetype i = detail::firstControlCharacter(text);
    if (i < 0)
        return {};
    return QStringLiteral("a control character (U+%1) at character %2; text, line breaks and tabs are allowed")
        .arg(uint(text.at(i).unicode()), 4, 16, QLatin1Char('0'))
        .arg(i + 1);
}

QString jsonTypeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("true/false");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("a list");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

void checkKeys(Problems &problems, const QString &where, const QJsonObject &o, const QStringList &allowed)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (allowed.contains(it.key()))
            continue;
        const QString at = where.isEmpty() ? it.key() : where + u'.' + it.key();
        problems.add(at, QStringLiteral("unknown key '%1' (keys: %2)").arg(it.key().left(64), allowed.join(u", ")));
    }
}

std::optional<QString> nonEmptyString(Problems &problems, const QString &where, const QJsonValue &v,
                                      const QString &what)
{
    if (!v.isString() || v.toString().trimmed().isEmpty()) {
        problems.add(where, QStringLiteral("%1 must be a non-empty string (got %2)").arg(what, jsonTypeName(v)));
        return std::nullopt;
    }
    return v.toString().trimmed();
}

void parseMatch(Problems &problems, const QString &where, const QJsonValue &value, ProfileMatch &m)
{
    if (!value.isObject()) {
        problems.add(where, QStringLiteral("'match' must be an object of keys every device must match, {} for "
                                           "every device (got %1)").arg(jsonTypeName(value)));
        return;
    }
    const QJsonObject o = value.toObject();
    checkKeys(problems, where, o, detail::matchKeys());
    auto at = [&](const char16_t *key) -> QString { return where + u'.' + QStringView(key); };

    if (o.contains(u"name")) {
        if (auto s = nonEmptyString(problems, at(u"name"), o.value(u"name"), QStringLiteral("a kernel-name glob"))) {
            if (detail::isNameGlob(*s))
                m.name = *s;
            else
                problems.add(at(u"name"), QStringLiteral("'%1' is not a kernel-name glob (letters, digits, _ . : - "
                                                         "and the glob characters * ? [ ] !)").arg(s->left(64)));
        }
    }
    if (o.contains(u"not_name")) {
        const QJsonValue v = o.value(u"not_name");
        QJsonArray list = v.isArray() ? v.toArray() : QJsonArray{v};
        if (list.isEmpty())
            problems.add(at(u"not_name"), QStringLiteral("give at least one kernel-name glob to leave out"));
        for (const QJsonValue &item : std::as_const(list)) {
            auto s = nonEmptyString(problems, at(u"not_name"), item, QStringLiteral("each entry"));
            if (s && detail::isNameGlob(*s))
                m.notName << *s;
            else if (s)
                problems.add(at(u"not_name"), QStringLiteral("'%1' is not a kernel-name glob").arg(s->left(64)));
        }
    }
    if (o.contains(u"type")) {
        if (auto s = nonEmptyString(problems, at(u"type"), o.value(u"type"), QStringLiteral("the device type"))) {
            m.type = detail::profileDeviceType(*s);
            if (!m.type)
                problems.add(at(u"type"), QStringLiteral("unknown device type '%1' (types: %2)").arg(s->left(64), typeNames()));
        }
    }
    if (o.contains(u"rotational")) {
        const QJsonValue v = o.value(u"rotational");
        if (v.isBool())
            m.rotational = v.toBool();
        else
            problems.add(at(u"rotational"), QStringLiteral("must be true or false (got %1)").arg(jsonTypeName(v)));
    }
    if (o.contains(u"transport")) {
        if (auto s = nonEmptyString(problems, at(u"transport"), o.value(u"transport"), QStringLiteral("the transport"))) {
            const bool plain = std::all_of(s->cbegin(), s->cend(), [](QChar c) {
                return (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') || c == u'_' || c == u'-';
            });
            if (plain && s->size() <= 32)
                m.transport = *s;
            else
                problems.add(at(u"transport"), QStringLiteral("'%1' is not a transport name as list shows them (sata, "
                                                              "nvme, usb, virtio, scsi, iscsi, sas, fc, mmc)")
                                                   .arg(s->left(64)));
        }
    }
    struct Literal
    {
        const char16_t *key;
        QString *out;
    };
    for (const Literal &l : {Literal{u"model", &m.model}, Literal{u"serial", &m.serial}, Literal{u"wwn", &m.wwn},
                             Literal{u"dm_name", &m.dmName}}) {
        if (!o.contains(QStringView(l.key)))
            continue;
        auto s = nonEmptyString(problems, at(l.key), o.value(QStringView(l.key)), QStringLiteral("the value"));
        if (!s)
            continue;
        if (detail::isLiteralIdentity(*s))
            *l.out = *s;
        else
            problems.add(at(l.key), QStringLiteral("'%1' has characters an identity cannot have (printable, at most "
                                                   "128, no quotes, backslashes, $ % * ? [ ] |)")
                                        .arg(s->left(64)));
    }
    if (o.contains(u"md_uuid")) {
        if (auto s = nonEmptyString(problems, at(u"md_uuid"), o.value(u"md_uuid"), QStringLiteral("the array UUID"))) {
            m.mdUuid = normalizeMdUuid(*s);
            if (m.mdUuid.isEmpty())
                problems.add(at(u"md_uuid"), QStringLiteral("'%1' is not an md UUID (32 hex digits, as mdadm --detail "
                                                            "prints it: 3cd62a1f:c0c0d9b7:4b4c3bd7:6fb6b2a1)")
                                                 .arg(s->left(64)));
        }
    }
}

std::optional<ProfileSetting> parseSetting(Problems &problems, const QString &where, const QString &key,
                                           const QJsonValue &v)
{
    const auto info = detail::profileKeyInfo(key);
    if (!info) {
        QStringList keys = settingKeys();
        problems.add(where, key.startsWith(detail::kIoschedPrefix)
                                ? QStringLiteral("'%1' is not a scheduler tunable name (iosched.NAME, NAME of "
                                                 "letters, digits and _)").arg(key.left(64))
                                : QStringLiteral("unknown key '%1' (keys: %2)").arg(key.left(64), keys.join(u", ")));
        return std::nullopt;
    }
    ProfileSetting s;
    s.key = key;
    if (!info->numeric) {
        // The scheduler: a name the device lists (checked against devices later).
        if (!v.isString() || !detail::isSchedulerName(v.toString())) {
            problems.add(where, QStringLiteral("a scheduler name is needed, such as \"mq-deadline\" (got %1)")
                                    .arg(v.isString() ? u'\'' + v.toString().left(64) + u'\'' : jsonTypeName(v)));
            return std::nullopt;
        }
        s.value = v.toString();
        return s;
    }
    const QString allowed = QStringLiteral("allowed: %1 to %2%3%4")
                                .arg(info->min)
                                .arg(info->max)
                                .arg(info->unit.isEmpty() ? QString() : u' ' + info->unit)
                                .arg(info->bounds ? QStringLiteral(", as a number or a string; \">N\" only raises, "
                                                                   "\"<N\" only lowers")
                                                  : QString());
    quint64 n = 0;
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (d < 0 || d != std::floor(d) || d > kMaxExactInteger) {
            problems.add(where, QStringLiteral("%1 is not a whole number from %2 (%3)").arg(d).arg(info->min).arg(allowed));
            return std::nullopt;
        }
        n = quint64(d);
    } else if (v.isBool() && key == u"context_readahead") {
        n = v.toBool() ? 1 : 0;
    } else if (v.isString()) {
        QString text = v.toString();
        if (text.startsWith(u'>') || text.startsWith(u'<')) {
            if (!info->bounds) {
                problems.add(where, QStringLiteral("'%1': %2 takes no '>' or '<' (%3)").arg(text.left(64), key, allowed));
                return std::nullopt;
            }
            s.bound = text.startsWith(u'>') ? ValueBound::AtLeast : ValueBound::AtMost;
            text = text.mid(1);
        }
        const auto parsed = isPlainDecimal(text) && text.size() <= 20 ? sysfs::parseU64(text.toLatin1()) : std::nullopt;
        if (!parsed) {
            problems.add(where, QStringLiteral("'%1' is not a whole number (%2)").arg(v.toString().left(64), allowed));
            return std::nullopt;
        }
        n = *parsed;
    } else {
        problems.add(where, QStringLiteral("a number is needed, got %1 (%2)").arg(jsonTypeName(v), allowed));
        return std::nullopt;
    }
    if (n < info->min || n > info->max) {
        problems.add(where, QStringLiteral("%1 is out of range (%2)").arg(n).arg(allowed));
        return std::nullopt;
    }
    s.value = QString::number(n);
    return s;
}

void parseRule(Problems &problems, int index, const QJsonValue &value, QList<ProfileRule> &rules)
{
    const QString where = ruleLabel(index);
    if (!value.isObject()) {
        problems.add(where, QStringLiteral("a rule is an object {\"match\": {...}, \"set\": {...}} (got %1)")
                                .arg(jsonTypeName(value)));
        return;
    }
    const QJsonObject o = value.toObject();
    checkKeys(problems, where, o, {QStringLiteral("match"), QStringLiteral("set"), QStringLiteral("comment")});
    ProfileRule rule;
    if (!o.contains(u"match"))
        problems.add(where, QStringLiteral("no 'match' (which devices; {} for every device)"));
    else
        parseMatch(problems, where + QStringLiteral(", match"), o.value(u"match"), rule.match);
    if (o.contains(u"comment")) {
        if (!o.value(u"comment").isString())
            problems.add(where + QStringLiteral(", comment"), QStringLiteral("must be a string"));
        else if (const QString why = controlCharacterIn(o.value(u"comment").toString()); !why.isEmpty())
            problems.add(where + QStringLiteral(", comment"), why);
        else
            rule.comment = o.value(u"comment").toString();
    }
    const QJsonValue set = o.value(u"set");
    if (!set.isObject() || set.toObject().isEmpty()) {
        problems.add(where, set.isUndefined()
                                ? QStringLiteral("no 'set' (the settings, keys: %1)").arg(settingKeys().join(u", "))
                                : QStringLiteral("'set' must be an object with at least one setting (keys: %1)")
                                      .arg(settingKeys().join(u", ")));
    } else {
        const QJsonObject so = set.toObject();
        for (auto it = so.begin(); it != so.end(); ++it)
            if (auto s = parseSetting(problems, where + QStringLiteral(", set.") + it.key().left(64), it.key(), it.value()))
                rule.settings.append(*s);
        if (so.contains(u"read_ahead_kb") && so.contains(u"ra_sectors"))
            problems.add(where, QStringLiteral("read_ahead_kb and ra_sectors are the same setting (the readahead, "
                                               "in KiB or in 512-byte sectors): give one"));
    }
    detail::sortSettings(rule.settings);
    rules.append(rule);
}

} // namespace

QString ruleLabel(int index)
{
    return QStringLiteral("rule %1").arg(index + 1);
}

bool isValidProfileName(const QString &name)
{
    if (name.isEmpty() || name.size() > 64 || name == u"." || name == u"..")
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char16_t c = name.at(i).unicode();
        const bool alnum = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9');
        if (!alnum && (i == 0 || (c != u'_' && c != u'.' && c != u'-')))
            return false;
    }
    return true;
}

QString normalizeMdUuid(const QString &text)
{
    QString hex;
    for (QChar c : text) {
        if (c == u':' || c == u'-')
            continue;
        const char16_t u = c.toLower().unicode();
        if (!((u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'f')))
            return {};
        hex += QChar(u);
    }
    if (hex.size() != 32)
        return {};
    return hex.mid(0, 8) + u':' + hex.mid(8, 8) + u':' + hex.mid(16, 8) + u':' + hex.mid(24, 8);
}

Result<Profile> parseProfile(const QByteArray &json, const QString &source)
{
    Problems problems(source);
    const QString shape = QStringLiteral("a profile is {\"schema\": %1, \"name\": \"...\", \"description\": \"...\", "
                                         "\"rules\": [{\"match\": {...}, \"set\": {...}}]}")
                              .arg(kProfileSchema);
    if (json.trimmed().isEmpty())
        return makeError(InvalidArgument, QStringLiteral("%1:1:1: the file is empty (%2)").arg(source, shape));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const detail::TextPosition at = detail::positionOf(json, parseError.offset);
        return makeError(InvalidArgument, QStringLiteral("%1:%2:%3: not valid JSON: %4")
                                              .arg(source).arg(at.line).arg(at.column).arg(parseError.errorString()));
    }
    if (!doc.isObject())
        return makeError(InvalidArgument, QStringLiteral("%1: %2").arg(source, shape));
    const QJsonObject o = doc.object();
    checkKeys(problems, {}, o,
              {QStringLiteral("schema"), QStringLiteral("name"), QStringLiteral("description"), QStringLiteral("rules")});

    const QJsonValue schema = o.value(u"schema");
    if (schema.isUndefined())
        problems.add({}, QStringLiteral("no \"schema\" (this blocktune reads schema %1)").arg(kProfileSchema));
    else if (!schema.isDouble() || schema.toDouble() != kProfileSchema)
        problems.add(QStringLiteral("schema"),
                     schema.isDouble() && schema.toDouble() > kProfileSchema
                         ? QStringLiteral("schema %1 is newer than this blocktune reads (%2)").arg(schema.toDouble()).arg(kProfileSchema)
                         : QStringLiteral("must be %1 (got %2)").arg(kProfileSchema).arg(schema.isDouble() ? QString::number(schema.toDouble()) : jsonTypeName(schema)));

    Profile profile;
    profile.source = source;
    if (auto name = nonEmptyString(problems, QStringLiteral("name"), o.value(u"name"), QStringLiteral("the profile name"))) {
        if (isValidProfileName(*name))
            profile.name = *name;
        else
            problems.add(QStringLiteral("name"), QStringLiteral("'%1' is not a profile name (letters, digits, _ . -, "
                                                                "starting with a letter or digit, at most 64)")
                                                     .arg(name->left(64)));
    }
    if (o.contains(u"description")) {
        if (!o.value(u"description").isString())
            problems.add(QStringLiteral("description"), QStringLiteral("must be a string"));
        else if (const QString why = controlCharacterIn(o.value(u"description").toString()); !why.isEmpty())
            problems.add(QStringLiteral("description"), why);
        else
            profile.description = o.value(u"description").toString();
    }
    const QJsonValue rules = o.value(u"rules");
    if (!rules.isArray()) {
        problems.add(QStringLiteral("rules"), rules.isUndefined()
                                                  ? QStringLiteral("missing (a list of {\"match\", \"set\"} rules)")
                                                  : QStringLiteral("must be a list of rules (got %1)").arg(jsonTypeName(rules)));
    } else {
        const QJsonArray list = rules.toArray();
        if (list.isEmpty())
            problems.add(QStringLiteral("rules"), QStringLiteral("a profile needs at least one rule"));
        for (qsizetype i = 0; i < list.size(); ++i)
            parseRule(problems, int(i), list.at(i), profile.rules);
    }
    if (problems.any())
        return problems.error();
    return profile;
}

QByteArray profileToJson(const Profile &profile)
{
    auto str = [](const QString &s) {
        // A JSON string literal: QJsonDocument escapes it for us.
        const QByteArray a = QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact);
        return a.mid(1, a.size() - 2);
    };
    auto compact = [](const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); };
    QByteArray out = "{\n";
    out += "    \"schema\": " + QByteArray::number(kProfileSchema) + ",\n";
    out += "    \"name\": " + str(profile.name) + ",\n";
    out += "    \"description\": " + str(profile.description) + ",\n";
    out += "    \"rules\": [";
    for (qsizetype i = 0; i < profile.rules.size(); ++i) {
        const ProfileRule &r = profile.rules.at(i);
        out += i ? ",\n        {\n" : "\n        {\n";
        if (!r.comment.isEmpty())
            out += "            \"comment\": " + str(r.comment) + ",\n";
        out += "            \"match\": " + compact(detail::matchToJson(r.match)) + ",\n";
        out += "            \"set\": " + compact(detail::settingsToJson(r.settings)) + "\n        }";
    }
    out += profile.rules.isEmpty() ? "]\n}\n" : "\n    ]\n}\n";
    return out;
}

QString ProfileSetting::text() const
{
    switch (bound) {
    case ValueBound::AtLeast: return u'>' + value;
    case ValueBound::AtMost: return u'<' + value;
    case ValueBound::Exact: break;
    }
    return value;
}

QString ProfileSetting::settingName() const
{
    return key == u"ra_sectors" ? QStringLiteral("read_ahead_kb") : key;
}

namespace detail {

qsizetype firstControlCharacter(QStringView text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if ((c < 0x20 && c != u'\n' && c != u'\t') || c == 0x7f)
            return i;
    }
    return -1;
}

std::optional<ProfileKeyInfo> profileKeyInfo(const QString &key)
{
    if (key == u"read_ahead_kb")
        return ProfileKeyInfo{true, 0, kMaxReadAheadKiB, QStringLiteral("KiB"), true};
    if (key == u"ra_sectors")
        return ProfileKeyInfo{true, 0, 2 * kMaxReadAheadKiB + 1, QStringLiteral("512-byte sectors"), true};
    if (key == u"nr_requests")
        return ProfileKeyInfo{true, 1, 2147483647, QStringLiteral("requests (the device decides the upper limit)"), true};
    if (key == u"max_sectors_kb")
        return ProfileKeyInfo{true, 1, 4294967295ULL, QStringLiteral("KiB, up to the device's max_hw_sectors_kb"), true};
    if (key == u"context_readahead")
        return ProfileKeyInfo{true, 0, 1, QString(), false};
    if (key == u"scheduler")
        return ProfileKeyInfo{false, 0, 0, QString(), false};
    if (key.startsWith(detail::kIoschedPrefix) && isTunableName(key.mid(detail::kIoschedPrefix.size())))
        return ProfileKeyInfo{true, 0, 9223372036854775807ULL, QString(), true};
    return std::nullopt;
}

int profileKeyRank(const QString &key)
{
    static const QStringList order{QStringLiteral("read_ahead_kb"), QStringLiteral("ra_sectors"),
                                   QStringLiteral("scheduler"), QStringLiteral("nr_requests"),
                                   QStringLiteral("max_sectors_kb"), QStringLiteral("context_readahead")};
    const qsizetype i = order.indexOf(key);
    return i >= 0 ? int(i) : int(order.size());
}

void sortSettings(QList<ProfileSetting> &settings)
{
    std::stable_sort(settings.begin(), settings.end(), [](const ProfileSetting &a, const ProfileSetting &b) {
        const int ra = profileKeyRank(a.key), rb = profileKeyRank(b.key);
        return ra != rb ? ra < rb : a.key < b.key;
    });
}

QStringList matchKeys()
{
    return {QStringLiteral("name"),  QStringLiteral("not_name"), QStringLiteral("type"),
            QStringLiteral("rotational"), QStringLiteral("transport"), QStringLiteral("model"),
            QStringLiteral("serial"), QStringLiteral("wwn"), QStringLiteral("md_uuid"), QStringLiteral("dm_name")};
}

std::optional<DeviceType> profileDeviceType(const QString &name)
{
    for (DeviceType t : {DeviceType::Disk, DeviceType::Partition, DeviceType::Md, DeviceType::Dm, DeviceType::Loop})
        if (deviceTypeName(t) == name)
            return t;
    return std::nullopt;
}

bool isNameGlob(const QString &glob)
{
    if (glob.isEmpty() || glob.size() > 64)
        return false;
    return std::all_of(glob.cbegin(), glob.cend(), [](QChar c) {
        const char16_t u = c.unicode();
        return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'_'
               || u == u'.' || u == u':' || u == u'-' || u == u'*' || u == u'?' || u == u'[' || u == u']'
               || u == u'!';
    });
}

bool globMatches(const QString &glob, const QString &name)
{
    return ::fnmatch(glob.toLocal8Bit().constData(), name.toLocal8Bit().constData(), 0) == 0;
}

bool isLiteralIdentity(const QString &text)
{
    if (text.isEmpty() || text.size() > 128)
        return false;
    return std::all_of(text.cbegin(), text.cend(), [](QChar c) {
        const char16_t u = c.unicode();
        return u >= 0x20 && u < 0x7f && u != u'"' && u != u'\\' && u != u'$' && u != u'%' && u != u'*' && u != u'?'
               && u != u'[' && u != u']' && u != u'|';
    });
}

bool isSchedulerName(const QString &name)
{
    if (name.isEmpty() || name.size() > 32)
        return false;
    return std::all_of(name.cbegin(), name.cend(), [](QChar c) {
        const char16_t u = c.unicode();
        return (u >= u'a' && u <= u'z') || (u >= u'0' && u <= u'9') || u == u'_' || u == u'-';
    });
}

bool isTunableName(const QString &name)
{
    if (name.isEmpty() || name.size() > 64)
        return false;
    return std::all_of(name.cbegin(), name.cend(), [](QChar c) {
        const char16_t u = c.unicode();
        return (u >= u'a' && u <= u'z') || (u >= u'0' && u <= u'9') || u == u'_';
    });
}

TextPosition positionOf(const QByteArray &data, qsizetype offset)
{
    offset = std::clamp<qsizetype>(offset, 0, data.size());
    TextPosition p;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < offset; ++i) {
        if (data.at(i) == '\n') {
            ++p.line;
            lineStart = i + 1;
        }
    }
    p.column = int(QString::fromUtf8(data.mid(lineStart, offset - lineStart)).size()) + 1;
    return p;
}

quint64 keptNumber(const QString &key, quint64 value, quint64 pageKiB)
{
    const quint64 page = pageKiB ? pageKiB : 4;
    if (key == u"read_ahead_kb")
        return value / page * page;
    if (key == u"ra_sectors")
        return value / 2 / page * page * 2;
    if (key == u"nr_requests")
        return std::max<quint64>(value, kMinKernelRequests);
    return value;
}

QJsonObject matchToJson(const ProfileMatch &m)
{
    QJsonObject o;
    if (!m.name.isEmpty())
        o.insert(u"name", m.name);
    if (m.notName.size() == 1)
        o.insert(u"not_name", m.notName.constFirst());
    else if (!m.notName.isEmpty())
        o.insert(u"not_name", QJsonArray::fromStringList(m.notName));
    if (m.type)
        o.insert(u"type", deviceTypeName(*m.type));
    if (m.rotational)
        o.insert(u"rotational", *m.rotational);
    if (!m.transport.isEmpty())
        o.insert(u"transport", m.transport);
    if (!m.model.isEmpty())
        o.insert(u"model", m.model);
    if (!m.serial.isEmpty())
        o.insert(u"serial", m.serial);
    if (!m.wwn.isEmpty())
        o.insert(u"wwn", m.wwn);
    if (!m.mdUuid.isEmpty())
        o.insert(u"md_uuid", m.mdUuid);
    if (!m.dmName.isEmpty())
        o.insert(u"dm_name", m.dmName);
    return o;
}

QJsonObject settingsToJson(const QList<ProfileSetting> &settings)
{
    QJsonObject o;
    for (const ProfileSetting &s : settings) {
        const auto info = profileKeyInfo(s.key);
        // JSON numbers are doubles: larger integers stay strings, exactly.
        if (info && info->numeric && s.bound == ValueBound::Exact && s.value.toULongLong() <= quint64(kMaxExactInteger))
            o.insert(s.key, double(s.value.toULongLong()));
        else
            o.insert(s.key, s.text());
    }
    return o;
}

} // namespace detail

} // namespace blocktune
