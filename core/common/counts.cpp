// Device numbers and log2 histograms: what the BPF probes count, read as
// percentiles, and both on the wire.
#include "counts.h"

#include <QStringList>

#include <algorithm>
#include <bit>
#include <cmath>

namespace blocktune {

std::optional<quint64> parseDeviceNumber(const QString &text)
{
    const QStringList parts = text.split(u':');
    auto number = [](const QString &digits, uint *out) {
        bool ok = !digits.isEmpty() && digits.size() <= 10
                  && std::all_of(digits.begin(), digits.end(), [](QChar c) { return c >= u'0' && c <= u'9'; });
        *out = ok ? digits.toUInt(&ok) : 0;
        return ok;
    };
    uint major = 0, minor = 0;
    if (parts.size() != 2 || !number(parts[0], &major) || !number(parts[1], &minor))
        return std::nullopt;
    return deviceNumber(major, minor);
}

QString deviceNumberText(quint64 number)
{
    return QStringLiteral("%1:%2").arg(majorOf(number)).arg(minorOf(number));
}

quint64 Log2Histogram::total() const
{
    quint64 n = 0;
    for (quint64 c : counts)
        n += c;
    return n;
}

std::optional<double> Log2Histogram::percentileUs(double p) const
{
    const quint64 n = total();
    if (n == 0 || !std::isfinite(p))
        return std::nullopt;
    // fio's rank: the ceil(p*n/100)-th smallest value, at least the first.
    const double clamped = std::clamp(p, 0.0, 100.0);
    const quint64 rank = std::max<quint64>(1, quint64(std::ceil(clamped * double(n) / 100.0)));
    quint64 seen = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        seen += counts[i];
        if (seen >= rank)
            return log2BucketUpperUs(int(i));
    }
    return log2BucketUpperUs(int(counts.size()) - 1);
}

Log2Histogram histogramDelta(const Log2Histogram &before, const Log2Histogram &after)
{
    Log2Histogram d;
    for (size_t i = 0; i < d.counts.size(); ++i)
        d.counts[i] = after.counts[i] >= before.counts[i] ? after.counts[i] - before.counts[i] : 0;
    return d;
}

double log2BucketUpperUs(int bucket)
{
    return std::ldexp(1.0, bucket + 1);
}

QJsonArray log2HistogramToJson(const Log2Histogram &h)
{
    QJsonArray pairs;
    for (size_t i = 0; i < h.counts.size(); ++i)
        if (h.counts[i] != 0)
            pairs.append(QJsonArray{log2BucketUpperUs(int(i)), double(h.counts[i])});
    return pairs;
}

std::optional<quint64> jsonCount(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!(d >= 0 && d <= 9007199254740992.0) || std::floor(d) != d)
        return std::nullopt;
    return quint64(d);
}

std::optional<Log2Histogram> log2HistogramFromJson(const QJsonValue &v)
{
    if (!v.isArray())
        return std::nullopt;
    Log2Histogram h;
    for (const QJsonValue &pair : v.toArray()) {
        const QJsonArray a = pair.toArray();
        const auto upper = jsonCount(a.at(0));
        const auto count = jsonCount(a.at(1));
        if (a.size() != 2 || !upper || !count || *upper < 2 || (*upper & (*upper - 1)) != 0)
            return std::nullopt;
        const int bucket = std::countr_zero(*upper) - 1; // upper = 2^(bucket+1)
        if (bucket >= int(h.counts.size()))
            return std::nullopt;
        h.counts[size_t(bucket)] = *count;
    }
    return h;
}

} // namespace blocktune
