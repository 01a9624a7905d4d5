#pragma once
// blocktune-helper's "latency" op and its reader (helperlatency.cpp), beside
// the BPF probe the op loads. Here, not in core/privilege, so that privilege/
// (the helper's protocol and client) stays below the monitor: the helper's
// HelperService is handed helperLatencyOp(), the console's MonitorWorker
// calls startHelperLatencySource().
#include "monitor.h"

#include "privilege/privilege.h"

#include <QJsonObject>

#include <functional>
#include <memory>

namespace blocktune {

/// Where the helper's "latency" op gets its source: the built-in BPF
/// program (BlockLatencyProbe) unless a test gives a fake.
using HelperLatencyLoader = std::function<Result<std::unique_ptr<LatencySource>>()>;

/// The "latency" op of a helper serving `root`: checks a request field by
/// field (devices, interval_ms; no other field), then loads the source and
/// makes the stream; answers with the stream's first tick or why the request
/// is refused, nothing loaded unless every check passed. `loader` empty: the
/// built-in BPF program, on the live machine only; a test's loader also
/// serves a recorded tree.
HelperStreamOp helperLatencyOp(SysRoot root, HelperLatencyLoader loader = {});

/// A LatencySource read from blocktune-helper's "latency" op (started with
/// `command`, pkexec by default): the helper loads its built-in BPF program
/// and streams the cumulative histograms of the block devices of `root`
/// (whole disks and partitions, the first kHelperMaxLatencyDevices by name)
/// every `intervalMs`; totals() hands over the newest. Fails with why the
/// helper could not start or the program could not load. Lives on the
/// thread that calls this (the monitor worker's).
Result<std::unique_ptr<LatencySource>> startHelperLatencySource(const SysRoot &root, QStringList command = {},
                                                                int intervalMs = kHelperMinLatencyIntervalMs);

} // namespace blocktune
