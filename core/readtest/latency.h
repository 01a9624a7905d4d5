#pragma once
// Read latencies as fio keeps them: every read a test issues goes into a
// bounded log-linear histogram (128 linear buckets per octave, so a bucket
// is at most 0.8% wide, from 1 us to 2^26 us = 67 s; faster reads share the
// first bucket, slower ones the last). The memory is fixed: one histogram
// per reading thread, merged per stream at the end of a run.

#include <QList>
#include <QString>

#include <array>
#include <cstdint>

namespace blocktune {

/// fio's default completion-latency percentile list.
QList<double> defaultLatencyPercentiles();

/// One bucket of a distribution: reads that took more than `lowerUs` and at
/// most `upperUs` microseconds.
struct LatencyBucket
{
    double lowerUs = 0;
    double upperUs = 0;
    quint64 count = 0;
};

/// A stream's latencies over one run, as results carry them: the figures
/// and the non-empty buckets of the histogram.
struct LatencyDistribution
{
    quint64 count = 0;
    double minUs = 0;
    double maxUs = 0;
    double meanUs = 0;
    double stdevUs = 0;
    QList<LatencyBucket> buckets; ///< ascending, non-empty only

    /// The latency below which `pct` percent of the reads fall (fio's rank:
    /// the ceil(pct/100 x count)-th read): its bucket's middle, held within
    /// the measured min and max. 0 when no read was counted.
    double percentileUs(double pct) const;
};

/// Several runs' (or streams') latencies as one: the buckets added up (all
/// distributions share LatencyHistogram's grid), mean and stdev pooled.
LatencyDistribution mergeLatency(const QList<LatencyDistribution> &parts);

/// fio's spelling of a percentile key: 99.9 -> "99.900000".
QString percentileKey(double pct);

/// The histogram a reading thread fills: no allocation, no lock. One
/// writer; read after the thread is joined.
class LatencyHistogram
{
public:
    static constexpr int kSubBuckets = 128;
    static constexpr int kOctaves = 26;
    /// Bucket 0: at most 1 us; then kOctaves x kSubBuckets; the last: above 2^26 us.
    static constexpr int kBuckets = 1 + kOctaves * kSubBuckets + 1;

    void record(quint64 ns);
    void merge(const LatencyHistogram &other);
    quint64 count() const { return m_count; }
    LatencyDistribution distribution() const;

    /// Bucket bounds in microseconds (kBuckets - 1: upper bound = the max).
    static double lowerUs(int bucket);
    static double upperUs(int bucket);
    static int bucketOf(quint64 ns);

private:
    std::array<quint64, kBuckets> m_counts{};
    quint64 m_count = 0;
    quint64 m_minNs = 0;
    quint64 m_maxNs = 0;
    double m_sumNs = 0;
    double m_sumSquaresNs = 0;
};

} // namespace blocktune
