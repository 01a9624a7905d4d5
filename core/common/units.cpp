#include "units.h"

#include "common/tr.h"

#include <QRegularExpression>

#include <cmath>

namespace blocktune {

Result<quint64> parseSize(const QString &text, const QString &what)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+)\\s*([KMGTP]?)(?:i?B)?\\s*$"),
                                       QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(text);
    if (!m.hasMatch())
        return makeError(InvalidArgument,
                         CommonText::tr("%1: '%2' is not a size (use a number of bytes, or with "
                                        "K, M, G, T as binary multiples: 64K, 256M, 1G)")
                             .arg(what, text));
    bool ok = false;
    const quint64 number = m.captured(1).toULongLong(&ok);
    const QString tooLarge = CommonText::tr("%1: '%2' is too large (at most 16E - 1 bytes: 18446744073709551615, "
                                            "16383P)").arg(what, text);
    if (!ok) // digits only, so it overflowed
        return makeError(InvalidArgument, tooLarge);
    const QString unit = m.captured(2).toUpper();
    int shift = 0;
    if (unit == u"K") shift = 10;
    else if (unit == u"M") shift = 20;
    else if (unit == u"G") shift = 30;
    else if (unit == u"T") shift = 40;
    else if (unit == u"P") shift = 50;
    if (shift && number > (UINT64_MAX >> shift))
        return makeError(InvalidArgument, tooLarge);
    return number << shift;
}

Result<qint64> parseDurationMs(const QString &text, const QString &what)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return makeError(InvalidArgument,
                         CommonText::tr("%1: '%2' is not a duration (use 100ms, 10s, 2m or 1h)")
                             .arg(what, text));
    const double number = m.captured(1).toDouble();
    const QString unit = m.captured(2);
    double ms = number * 1000.0;
    if (unit == u"ms") ms = number;
    else if (unit == u"m") ms = number * 60'000.0;
    else if (unit == u"h") ms = number * 3'600'000.0;
    // 10^15 ms (about 31,700 years) keeps every later sum in qint64.
    if (ms > 1e15)
        return makeError(InvalidArgument, CommonText::tr("%1: '%2' is too long (at most 277777777h)").arg(what, text));
    return qint64(std::llround(ms));
}

QString formatBytes(quint64 bytes)
{
    static const char units[] = {'B', 'K', 'M', 'G', 'T', 'P', 'E'};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 6) {
        value /= 1024.0;
        ++unit;
    }
    if (unit == 0)
        return QString::number(bytes) + u'B';
    const double rounded = std::round(value * 10.0) / 10.0;
    const QString number = rounded == std::floor(rounded) ? QString::number(qint64(rounded))
                                                           : QString::number(rounded, 'f', 1);
    return number + QChar::fromLatin1(units[unit]);
}

} // namespace blocktune
