#include "jsonlines.h"

#include "result.h"

#include <QJsonDocument>

#include <cerrno>

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
