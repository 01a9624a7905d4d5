#pragma once
// A ReadEngine with rates built to show a case: a readahead -> MB/s curve,
// member shares, a stream pair. It remembers what it was asked, and whether
// restore() came after the last readahead it "set".
#include "advisor/advisor.h"

#include <functional>
#include <random>

namespace blocktune::test {

class FakeEngine final : public ReadEngine
{
public:
    /// MB/s at a readahead (KiB); avg request = min(readahead, 1024) KiB.
    std::function<double(quint64)> curve = [](quint64) { return 100.0; };
    double rawMbPerSec = 200;
    /// Bytes the device read per byte the readers consumed, at a readahead
    /// for a workload (0: not counted).
    std::function<double(quint64, const Workload &)> readRatio = [](quint64, const Workload &) { return 0.0; };
    QList<quint64> memberBytes;   ///< per member, for every buffered measurement
    StreamPairMeasurement pair{100, 50, 50, QStringLiteral("mq-deadline")};
    /// Queue and device time of the device and its members, for every
    /// buffered measurement (nullopt / empty: no latency source).
    std::optional<DeviceLatency> latency;
    QList<DeviceLatency> memberLatency;

    /// Seeded noise on every run: each run's MB/s is the curve's times a
    /// normal draw of mean 1 and this relative sigma, and with
    /// `slowChance` a run falls into a slow mode (times `slowFactor`), as a
    /// busy machine's do. 0: every run the curve's value.
    double noiseSigma = 0;
    double slowChance = 0;
    double slowFactor = 0.5;
    std::mt19937_64 rng{1};

    QList<quint64> asked;          ///< readaheads measured, in order
    QList<qint64> askedMs;
    int restores = 0;
    bool holding = false;          ///< a readahead set and not restored

    Result<Measurement> measureBuffered(const BufferedProbe &probe, const std::atomic_bool *) override
    {
        asked << probe.readAheadKiB;
        askedMs << probe.durationMs;
        holding = true;
        Measurement m;
        m.readAheadKiB = probe.readAheadKiB;
        m.mbPerSec = curve(probe.readAheadKiB);
        if (noiseSigma > 0) {
            std::normal_distribution<double> draw(1.0, noiseSigma);
            m.mbPerSec *= std::max(0.05, draw(rng));
        }
        if (slowChance > 0 && std::uniform_real_distribution<double>(0, 1)(rng) < slowChance)
            m.mbPerSec *= slowFactor;
        m.avgRequestKiB = double(qMin<quint64>(probe.readAheadKiB, 1024));
        m.deviceReadRatio = readRatio(probe.readAheadKiB, probe.workload);
        m.seconds = double(probe.durationMs) / 1000.0;
        m.bytes = quint64(m.mbPerSec * 1e6 * m.seconds);
        m.streamMbPerSec = {m.mbPerSec};
        m.interrupts = m.bytes / 65536;
        m.memberBytes = memberBytes;
        m.latency = latency;
        m.memberLatency = memberLatency;
        return m;
    }
    Result<double> measureRawMbPerSec(quint64, int, qint64, const std::atomic_bool *) override { return rawMbPerSec; }
    Result<StreamPairMeasurement> measureStreamPair(quint64, qint64, const std::atomic_bool *) override { return pair; }
    bool restore(QString *) override
    {
        ++restores;
        holding = false;
        return true;
    }
};

} // namespace blocktune::test
