// Log2 latency histograms: what the BPF probe counts, read as percentiles.
#include "monitor.h"

#include <QJsonArray>

#include <algorithm>
#include <bit>
#include <cmath>

namespace blocktune {

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
    // fio's rank: the ceil(p*n/100)-th smallest wait, at least the first.
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

DeviceLatency latencyDelta(const DeviceLatencyTotals &before, const DeviceLatencyTotals &after)
{
    DeviceLatency l;
    l.readQueue = histogramDelta(before.read.queue, after.read.queue);
    l.readDevice = histogramDelta(before.read.device, after.read.device);
    l.writeQueue = histogramDelta(before.write.queue, after.write.queue);
    l.writeDevice = histogramDelta(before.write.device, after.write.device);
    return l;
}

// ---- The wire form of the totals (helper and agent) ------------------------------

namespace {

QJsonArray wireHistogram(const Log2Histogram &h)
{
    QJsonArray pairs;
    for (size_t i = 0; i < h.counts.size(); ++i)
        if (h.counts[i] != 0)
            pairs.append(QJsonArray{log2BucketUpperUs(int(i)), double(h.counts[i])});
    return pairs;
}

QJsonObject wireTotals(const LatencyTotals &t)
{
    return QJsonObject{{QStringLiteral("requests"), double(t.requests)},
                       {QStringLiteral("queue_ns"), double(t.queueNs)},
                       {QStringLiteral("device_ns"), double(t.deviceNs)},
                       {QStringLiteral("queue"), wireHistogram(t.queue)},
                       {QStringLiteral("device"), wireHistogram(t.device)}};
}

// A count as JSON carries it: a whole number from 0 to 2^53.
std::optional<quint64> wireCount(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!(d >= 0 && d <= 9007199254740992.0) || std::floor(d) != d)
        return std::nullopt;
    return quint64(d);
}

std::optional<Log2Histogram> histogramFromWire(const QJsonValue &v)
{
    if (!v.isArray())
        return std::nullopt;
    Log2Histogram h;
    for (const QJsonValue &pair : v.toArray()) {
        const QJsonArray a = pair.toArray();
        const auto upper = wireCount(a.at(0));
        const auto count = wireCount(a.at(1));
        if (a.size() != 2 || !upper || !count || *upper < 2 || (*upper & (*upper - 1)) != 0)
            return std::nullopt;
        const int bucket = std::countr_zero(*upper) - 1; // upper = 2^(bucket+1)
        if (bucket >= int(h.counts.size()))
            return std::nullopt;
        h.counts[size_t(bucket)] = *count;
    }
    return h;
}

std::optional<LatencyTotals> totalsFromWire(const QJsonValue &v)
{
    const QJsonObject o = v.toObject();
    const auto requests = wireCount(o.value(u"requests"));
    const auto queueNs = wireCount(o.value(u"queue_ns"));
    const auto deviceNs = wireCount(o.value(u"device_ns"));
    const auto queue = histogramFromWire(o.value(u"queue"));
    const auto device = histogramFromWire(o.value(u"device"));
    if (!requests || !queueNs || !deviceNs || !queue || !device)
        return std::nullopt;
    return LatencyTotals{*requests, *queueNs, *deviceNs, *queue, *device};
}

} // namespace

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

QJsonObject latencyTotalsToJson(quint64 number, const DeviceLatencyTotals &totals)
{
    return QJsonObject{{QStringLiteral("dev"), QStringLiteral("%1:%2").arg(number >> 32).arg(number & 0xffffffffu)},
                       {QStringLiteral("read"), wireTotals(totals.read)},
                       {QStringLiteral("write"), wireTotals(totals.write)}};
}

std::optional<DeviceLatencyTotals> latencyTotalsFromJson(const QJsonObject &o, quint64 *number)
{
    const auto dev = parseDeviceNumber(o.value(u"dev").toString());
    const auto read = totalsFromWire(o.value(u"read"));
    const auto write = totalsFromWire(o.value(u"write"));
    if (!dev || !read || !write)
        return std::nullopt;
    *number = *dev;
    return DeviceLatencyTotals{*read, *write};
}

} // namespace blocktune
