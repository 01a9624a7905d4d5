#include "latency.h"

#include <QMap>

#include <algorithm>
#include <cmath>

namespace blocktune {

QList<double> defaultLatencyPercentiles()
{
    return {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
}

int LatencyHistogram::bucketOf(quint64 ns)
{
    if (ns <= 1000)
        return 0;
    const double us = double(ns) / 1000.0;
    int exponent = 0;
    const double mantissa = std::frexp(us, &exponent); // us = mantissa x 2^exponent, mantissa in [0.5, 1)
    const int octave = exponent - 1;                    // us in [2^octave, 2^(octave + 1))
    if (octave >= kOctaves)
        return kBuckets - 1;
    const int sub = std::min(kSubBuckets - 1, int((mantissa * 2.0 - 1.0) * kSubBuckets));
    return 1 + octave * kSubBuckets + sub;
}

double LatencyHistogram::lowerUs(int bucket)
{
    if (bucket <= 0)
        return 0;
    if (bucket >= kBuckets - 1)
        return std::ldexp(1.0, kOctaves);
    const int octave = (bucket - 1) / kSubBuckets;
    const int sub = (bucket - 1) % kSubBuckets;
    return std::ldexp(1.0 + double(sub) / kSubBuckets, octave);
}

double LatencyHistogram::upperUs(int bucket)
{
    if (bucket <= 0)
        return 1;
    if (bucket >= kBuckets - 1)
        return std::ldexp(1.0, kOctaves + 1);
    return lowerUs(bucket + 1);
}

void LatencyHistogram::record(quint64 ns)
{
    ++m_counts[size_t(bucketOf(ns))];
    m_minNs = m_count == 0 ? ns : std::min(m_minNs, ns);
    m_maxNs = std::max(m_maxNs, ns);
    ++m_count;
    m_sumNs += double(ns);
    m_sumSquaresNs += double(ns) * double(ns);
}

void LatencyHistogram::merge(const LatencyHistogram &other)
{
    if (other.m_count == 0)
        return;
    for (size_t i = 0; i < m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
    m_minNs = m_count == 0 ? other.m_minNs : std::min(m_minNs, other.m_minNs);
    m_maxNs = std::max(m_maxNs, other.m_maxNs);
    m_count += other.m_count;
    m_sumNs += other.m_sumNs;
    m_sumSquaresNs += other.m_sumSquaresNs;
}

LatencyDistribution LatencyHistogram::distribution() const
{
    LatencyDistribution d;
    d.count = m_count;
    if (m_count == 0)
        return d;
    const double n = double(m_count);
    d.minUs = double(m_minNs) / 1000.0;
    d.maxUs = double(m_maxNs) / 1000.0;
    d.meanUs = m_sumNs / n / 1000.0;
    const double variance = m_count > 1 ? std::max(0.0, (m_sumSquaresNs - m_sumNs * m_sumNs / n) / (n - 1)) : 0.0;
    d.stdevUs = std::sqrt(variance) / 1000.0;
    for (int i = 0; i < kBuckets; ++i)
        if (m_counts[size_t(i)])
            d.buckets << LatencyBucket{lowerUs(i), i == kBuckets - 1 ? std::max(upperUs(i), d.maxUs) : upperUs(i),
                                       m_counts[size_t(i)]};
    return d;
}

double LatencyDistribution::percentileUs(double pct) const
{
    if (count == 0 || buckets.isEmpty())
        return 0;
    const quint64 rank = std::max<quint64>(1, quint64(std::ceil(std::clamp(pct, 0.0, 100.0) * double(count) / 100.0)));
    quint64 seen = 0;
    for (const LatencyBucket &b : buckets) {
        seen += b.count;
        if (seen >= rank)
            return std::clamp((b.lowerUs + b.upperUs) / 2.0, minUs, maxUs);
    }
    return maxUs;
}

LatencyDistribution mergeLatency(const QList<LatencyDistribution> &parts)
{
    LatencyDistribution out;
    double sum = 0, sumSquares = 0;
    QMap<double, LatencyBucket> buckets; // by lower bound: the grid is shared
    for (const LatencyDistribution &d : parts) {
        if (d.count == 0)
            continue;
        out.minUs = out.count == 0 ? d.minUs : std::min(out.minUs, d.minUs);
        out.maxUs = std::max(out.maxUs, d.maxUs);
        const double n = double(d.count);
        sum += d.meanUs * n;
        sumSquares += d.stdevUs * d.stdevUs * std::max(0.0, n - 1) + n * d.meanUs * d.meanUs;
        out.count += d.count;
        for (const LatencyBucket &b : d.buckets) {
            LatencyBucket &into = buckets[b.lowerUs];
            into.lowerUs = b.lowerUs;
            into.upperUs = std::max(into.upperUs, b.upperUs);
            into.count += b.count;
        }
    }
    if (out.count == 0)
        return out;
    const double n = double(out.count);
    out.meanUs = sum / n;
    out.stdevUs = out.count > 1 ? std::sqrt(std::max(0.0, (sumSquares - sum * sum / n) / (n - 1))) : 0.0;
    out.buckets = buckets.values();
    return out;
}

QString percentileKey(double pct)
{
    return QString::number(pct, 'f', 6);
}

} // namespace blocktune
