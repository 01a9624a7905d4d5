#pragma once
// What the BPF probes' counts share (core/monitor's latency probe,
// core/readahead's readahead probe): device numbers as diskstats prints
// them, log2 histograms and their percentiles, and both on the wire (the
// helper's and the agent's JSON: counts as whole numbers JSON can carry).

#include <QJsonArray>
#include <QJsonValue>
#include <QString>

#include <array>
#include <optional>

namespace blocktune {

/// A device number as /proc/diskstats prints it, packed for a hash key.
constexpr quint64 deviceNumber(quint32 major, quint32 minor)
{
    return (quint64(major) << 32) | minor;
}
/// The kernel's own dev_t (MINORBITS 20, include/linux/kdev_t.h), as BPF
/// programs see it, as a deviceNumber().
constexpr quint64 deviceNumberOfKernelDev(quint32 dev)
{
    return deviceNumber(dev >> 20, dev & 0xfffff);
}
constexpr quint32 majorOf(quint64 number) { return quint32(number >> 32); }
constexpr quint32 minorOf(quint64 number) { return quint32(number); }
/// "MAJ:MIN" (as sysfs' dev files have it) as a deviceNumber(); nullopt otherwise.
std::optional<quint64> parseDeviceNumber(const QString &text);
/// "MAJ:MIN" of a deviceNumber().
QString deviceNumberText(quint64 number);

/// Log2 histogram: counts[i] holds values in [2^i, 2^(i+1)) us; counts[0] also < 1 us.
struct Log2Histogram {
    std::array<quint64, 32> counts{};
    quint64 total() const;
    friend bool operator==(const Log2Histogram &, const Log2Histogram &) = default;
    /// fio-style rank percentile (ceil(p*n/100)-th value), reported as the bucket's upper bound in us; nullopt when empty
    std::optional<double> percentileUs(double p) const;
};
/// `after - before`, bucket by bucket (a bucket that went down counts 0).
Log2Histogram histogramDelta(const Log2Histogram &before, const Log2Histogram &after);
/// Bucket i's upper bound in us: 2^(i+1).
double log2BucketUpperUs(int bucket);

/// A histogram on the wire: [[upper_us, count], ...], non-empty buckets only.
QJsonArray log2HistogramToJson(const Log2Histogram &h);
/// That form read back; nullopt when a pair is malformed or an upper bound
/// is not one of the buckets'.
std::optional<Log2Histogram> log2HistogramFromJson(const QJsonValue &v);
/// A count as JSON carries it: a whole number from 0 to 2^53; nullopt otherwise.
std::optional<quint64> jsonCount(const QJsonValue &v);

} // namespace blocktune
