#pragma once
// What a command printed without its figures, to compare two runs of it
// that measured (here and through a host, say): a JSON document's shape
// and a text's words.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace blocktune::test {

/// The shape of a JSON value, figures left out: an object's keys with the
/// shapes of their values, an array's length with its items' shapes, a
/// scalar's type (a number and a null count as one: a figure may be
/// missing in one run and measured in another).
inline QString jsonShape(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Object: {
        const QJsonObject o = v.toObject();
        QStringList parts;
        // A histogram's length is a figure; so is whether the runs disagree
        // (null, or the object that says how).
        for (auto it = o.begin(); it != o.end(); ++it)
            parts << it.key() + u':'
                    + (it.key() == u"histogram" || it.key() == u"runs_disagree" ? it.key() : jsonShape(it.value()));
        return u'{' + parts.join(u',') + u'}';
    }
    case QJsonValue::Array: {
        const QJsonArray a = v.toArray();
        QStringList parts;
        for (const QJsonValue &item : a)
            parts << jsonShape(item);
        return QStringLiteral("[%1:").arg(a.size()) + parts.join(u',') + u']';
    }
    case QJsonValue::Double:
    case QJsonValue::Null: return QStringLiteral("number");
    case QJsonValue::Bool: return QStringLiteral("bool");
    case QJsonValue::String: return QStringLiteral("string");
    default: return QStringLiteral("undefined");
    }
}

/// The shape of one JSON document (test --json), or of each line of a
/// stream of them (monitor --json), one line each.
inline QString jsonDocumentsShape(const QByteArray &text)
{
    QJsonParseError error;
    const QJsonDocument whole = QJsonDocument::fromJson(text, &error);
    if (error.error == QJsonParseError::NoError)
        return jsonShape(whole.object());
    QStringList shapes;
    for (const QByteArray &line : text.trimmed().split('\n'))
        shapes << jsonShape(QJsonDocument::fromJson(line).object());
    return shapes.join(u'\n');
}

/// Text with every number replaced by '#': the lines a read test prints,
/// without its figures. A latency's unit follows its figure (61.2 us,
/// 1.21 ms), so it goes too.
inline QString withoutFigures(const QByteArray &text)
{
    static const QRegularExpression number(QStringLiteral("[0-9]+([.,][0-9]+)?"));
    static const QRegularExpression latency(QStringLiteral("(p[#]+ #) (us|ms|s)\\b"));
    // The note on runs that disagree is there when the figures say so: one
    // side's runs may, the other's not.
    static const QRegularExpression disagreement(QStringLiteral("^[^\\n]*The figure is the median\\.\\n"),
                                                 QRegularExpression::MultilineOption);
    return QString::fromUtf8(text)
        .remove(disagreement)
        .replace(number, QStringLiteral("#"))
        .replace(latency, QStringLiteral("\\1 t"));
}

} // namespace blocktune::test
