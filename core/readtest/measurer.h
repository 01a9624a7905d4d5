#pragma once
// Where reads are measured and counters taken, beside a session whose
// changes go to the same place: this machine (makeLocalMeasurer()) or a
// host's agent over ssh (core/remote, whose mirror has no devices to read).
// Whoever makes the session makes its measurer (the console's Machine in
// core/machine, a CLI command, a test) and hands both to the read tests,
// sweeps, the advisor and the monitor, so none of them asks where it is.

#include "readtest/readtest.h"

#include <atomic>
#include <functional>
#include <memory>

namespace blocktune {

class CounterSource; // core/monitor
class LatencySource; // core/monitor
class SessionPort;   // core/session

/// Called from any thread.
class Measurer
{
public:
    virtual ~Measurer() = default;
    /// The machine's counters (/proc/diskstats, interrupts, inflight), one
    /// reading per call; a host's in one round trip each.
    virtual std::unique_ptr<CounterSource> counterSource() = 0;
    /// Where the monitor's latency histograms come from when they are not
    /// this process's (a host's agent); empty: the monitor's own loader
    /// (MonitorWorker::setLatency()).
    using LatencyLoader = std::function<Result<std::unique_ptr<LatencySource>>()>;
    virtual LatencyLoader latencyLoader() { return {}; }
    /// A prepared test run here, or by the host's agent in its session
    /// (kept in its history); the observer is fed as it runs and `cancel`
    /// stops it at the next block.
    virtual ReadTestResult runReadTest(const ReadTest &test, const ReadTestObserver &observer,
                                       const std::atomic_bool *cancel) = 0;
    /// A sweep whose points are set through `session` here, or through the
    /// host agent's own session there (restored on every path either way).
    virtual SweepResult runSweep(SessionPort &session, const ReadaheadSweep &sweep, const SweepObserver &observer,
                                 const std::atomic_bool *cancel) = 0;
};

/// This machine, or a recorded tree (whose counters are its files).
std::shared_ptr<Measurer> makeLocalMeasurer(const SysRoot &root);

} // namespace blocktune
