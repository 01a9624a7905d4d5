#pragma once
// JSON lines, the framing of blocktune's two pipes: the privileged helper
// (core/privilege) and the remote agent (core/remote). One compact JSON
// object per line each way; a line longer than the reader allows is
// refused as a whole, never buffered without bound.

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace blocktune {

/// `o` as one compact JSON line, newline included.
QByteArray jsonLine(const QJsonObject &o);

/// The first key that appears twice in one object of `json` (at any depth),
/// decoded ("o\u0070" is "op"); nullopt when every object names each key
/// once. QJsonDocument keeps the last of two equal keys without a word, so
/// {"op":"get","op":"set"} would be carried out as a set: the helper and
/// the agent refuse such a request, naming the key. Meant for text that
/// QJsonDocument has parsed already.
std::optional<QString> duplicateJsonKey(QByteArrayView json);

/// The wire names of Result's error codes ("invalid", "not_found",
/// "not_supported", "refused", "interrupted", "io") and back.
QString errorCodeName(int code);
int errorCodeFromName(const QString &name);

/// Cuts a byte stream into lines. A line longer than `maxLine` bytes
/// (newline excluded) comes out as one overlong marker and its bytes are
/// dropped as they arrive, so memory stays bounded whatever is sent.
class JsonLineReader final
{
public:
    explicit JsonLineReader(qsizetype maxLine) : m_maxLine(maxLine) {}

    struct Line
    {
        QByteArray text;        ///< without the newline; empty when overlong
        bool overlong = false;
    };

    void append(QByteArrayView data);
    /// The next complete line, or nullopt until more data arrives.
    std::optional<Line> next();
    /// At end of input: the unterminated rest as a last line, if any.
    std::optional<Line> finish();
    qsizetype maxLine() const { return m_maxLine; }

private:
    qsizetype m_maxLine;
    QByteArray m_buffer;
    qsizetype m_scanned = 0;   ///< bytes of m_buffer known to hold no newline
    bool m_discarding = false; ///< inside a line already too long
};

} // namespace blocktune
