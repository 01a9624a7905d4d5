// Latency totals: what the BPF probe counts, between two readings and on the wire.
#include "monitor.h"

#include <QJsonArray>

namespace blocktune {

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

QJsonObject wireTotals(const LatencyTotals &t)
{
    return QJsonObject{{QStringLiteral("requests"), double(t.requests)},
                       {QStringLiteral("queue_ns"), double(t.queueNs)},
                       {QStringLiteral("device_ns"), double(t.deviceNs)},
                       {QStringLiteral("queue"), log2HistogramToJson(t.queue)},
                       {QStringLiteral("device"), log2HistogramToJson(t.device)}};
}

std::optional<LatencyTotals> totalsFromWire(const QJsonValue &v)
{
    const QJsonObject o = v.toObject();
    const auto requests = jsonCount(o.value(u"requests"));
    const auto queueNs = jsonCount(o.value(u"queue_ns"));
    const auto deviceNs = jsonCount(o.value(u"device_ns"));
    const auto queue = log2HistogramFromJson(o.value(u"queue"));
    const auto device = log2HistogramFromJson(o.value(u"device"));
    if (!requests || !queueNs || !deviceNs || !queue || !device)
        return std::nullopt;
    return LatencyTotals{*requests, *queueNs, *deviceNs, *queue, *device};
}

} // namespace

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
