#include "jsonlines.h"

#include "result.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <cerrno>
#include <vector>

namespace blocktune {

QByteArray jsonLine(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QString errorCodeName(int code)
{
    switch (code) {
    case InvalidArgument: return QStringLiteral("invalid");
    case NotFound: return QStringLiteral("not_found");
    case NotSupported: return QStringLiteral("not_supported");
    case Refused: return QStringLiteral("refused");
    case Interrupted: return QStringLiteral("interrupted");
    default: break;
    }
    return QStringLiteral("io");
}

int errorCodeFromName(const QString &name)
{
    if (name == u"invalid")
        return InvalidArgument;
    if (name == u"not_found")
        return NotFound;
    if (name == u"not_supported")
        return NotSupported;
    if (name == u"refused")
        return Refused;
    if (name == u"interrupted")
        return Interrupted;
    return EIO;
}

namespace {

// A string token, quotes included, as the text it stands for.
QString decodeJsonString(QByteArrayView token)
{
    if (!token.contains('\\'))
        return QString::fromUtf8(token.sliced(1, token.size() - 2));
    // Escapes (\u0070, surrogate pairs): the parser decodes them as it
    // decoded the key it kept.
    return QJsonDocument::fromJson('[' + token.toByteArray() + ']').array().at(0).toString();
}

} // namespace

std::optional<QString> duplicateJsonKey(QByteArrayView json)
{
    // A scan, not a second parser: strings are skipped whole (a '{' inside
    // one is text), and a string right after '{' or an object's ',' is a key.
    struct Level
    {
        bool object = false;
        bool expectKey = false;
        QSet<QString> keys;
    };
    std::vector<Level> levels; // on the heap: depth costs no stack
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '{' || c == '[') {
            levels.push_back(Level{c == '{', c == '{', {}});
        } else if (c == '}' || c == ']') {
            if (!levels.empty())
                levels.pop_back();
        } else if (c == ',') {
            if (!levels.empty() && levels.back().object)
                levels.back().expectKey = true;
        } else if (c == '"') {
            const qsizetype start = i;
            for (++i; i < json.size() && json[i] != '"'; ++i)
                if (json[i] == '\\')
                    ++i;
            if (levels.empty() || !levels.back().object || !levels.back().expectKey)
                continue;
            levels.back().expectKey = false;
            const QString key = decodeJsonString(json.sliced(start, qMin(i, json.size() - 1) - start + 1));
            if (levels.back().keys.contains(key))
                return key;
            levels.back().keys.insert(key);
        }
    }
    return std::nullopt;
}

void JsonLineReader::append(QByteArrayView data)
{
    m_buffer.append(data);
}

std::optional<JsonLineReader::Line> JsonLineReader::next()
{
    for (;;) {
        const qsizetype nl = m_buffer.indexOf('\n', m_scanned);
        if (nl < 0) {
            m_scanned = m_buffer.size();
            // Never hold more than one line's worth of a line without end.
            if (m_buffer.size() > m_maxLine) {
                m_discarding = true;
                m_buffer.clear();
                m_scanned = 0;
            }
            return std::nullopt;
        }
        Line line;
        if (m_discarding || nl > m_maxLine)
            line.overlong = true;
        else
            line.text = m_buffer.left(nl);
        m_buffer.remove(0, nl + 1);
        m_scanned = 0;
        m_discarding = false;
        return line;
    }
}

std::optional<JsonLineReader::Line> JsonLineReader::finish()
{
    if (auto line = next())
        return line;
    if (m_discarding) {
        m_discarding = false;
        return Line{{}, true};
    }
    if (m_buffer.isEmpty())
        return std::nullopt;
    Line line{m_buffer, false};
    m_buffer.clear();
    m_scanned = 0;
    return line;
}

} // namespace blocktune
