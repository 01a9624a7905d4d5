#include "format.h"

#include "readtest/readtest.h"

#include <algorithm>
#include <cstdint>

namespace blocktune::format {

QLocale ungrouped(QLocale locale)
{
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
    return locale;
}

QString number(double value, int decimals, const QLocale &locale)
{
    return ungrouped(locale).toString(value, 'f', decimals);
}

QString count(quint64 value, const QLocale &locale)
{
    return ungrouped(locale).toString(qulonglong(value));
}

QString rate(double mbPerSec, const QLocale &locale)
{
    // dd's digits, as the read test reports (and the CLI) print them.
    return formatMbPerSec(mbPerSec, locale);
}

QString latencyUs(double us, const QLocale &locale)
{
    return formatLatencyUs(us, locale);
}

QString kib(double kib, int decimals, const QLocale &locale)
{
    return number(kib, decimals, locale) + QStringLiteral(" KiB");
}

QString size(quint64 bytes, const QLocale &locale)
{
    // formattedDataSize: IEC prefixes (KiB, MiB, GiB), the locale's decimal
    // separator; whole bytes stay "512 B".
    return ungrouped(locale).formattedDataSize(qint64(std::min<quint64>(bytes, quint64(INT64_MAX))), 1,
                                    QLocale::DataSizeIecFormat);
}

} // namespace blocktune::format
