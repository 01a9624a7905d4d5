// Log2 latency histograms: what the BPF probe counts, read as percentiles.
#include "monitor.h"

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

} // namespace blocktune
