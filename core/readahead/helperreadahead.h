#pragma once
// blocktune-helper's "readahead" op and its reader (helperreadahead.cpp),
// beside the BPF probe the op loads, as core/monitor's helperlatency.h is
// beside the latency probe: the helper's HelperService is handed
// helperReadaheadOp(), and a process that is not root reads the probe
// through the helper with startHelperReadaheadSource()
// (Machine::openReadaheadSource() does, for this machine).
#include "readahead.h"

#include "privilege/privilege.h"

#include <functional>
#include <memory>

namespace blocktune {

/// Bounds of the "readahead" op's interval (ms).
inline constexpr int kHelperMinReadaheadIntervalMs = 100;
inline constexpr int kHelperMaxReadaheadIntervalMs = 60000;
/// How often the reader asks the helper for a snapshot: a snapshot() is at
/// most this old.
inline constexpr int kHelperReadaheadIntervalMs = 250;

/// Where the helper's "readahead" op gets its source: the built-in BPF
/// program (ReadaheadProbe) unless a test gives a fake.
using HelperReadaheadLoader = std::function<Result<std::unique_ptr<ReadaheadSource>>()>;

/// The "readahead" op of a helper serving `root`: takes 'interval_ms' (a
/// whole number of ms, kHelperMinReadaheadIntervalMs to
/// kHelperMaxReadaheadIntervalMs) and no other field (no program, path, map
/// or device: the probe counts every device), then loads the source and makes
/// the stream; answers with the stream's first tick or why the request is
/// refused, nothing loaded unless every check passed. Each tick carries the
/// source's snapshot (readaheadSnapshotToJson) and its coverage. `loader`
/// empty: the built-in BPF program, on the live machine only; a test's loader
/// also serves a recorded tree.
HelperStreamOp helperReadaheadOp(SysRoot root, HelperReadaheadLoader loader = {});

/// A ReadaheadSource read from blocktune-helper's "readahead" op (started
/// with `command`, pkexec by default): the helper loads its built-in BPF
/// program and streams snapshots every `intervalMs`; snapshot() hands over
/// one taken within the last `intervalMs` (waiting up to that long for the
/// next tick when the newest read is older). Fails with why the helper could not
/// start or the program could not load. The helper, and with it the program,
/// goes when the source is destroyed. Lives on the thread that calls this.
Result<std::unique_ptr<ReadaheadSource>> startHelperReadaheadSource(QStringList command = {},
                                                                    int intervalMs = kHelperReadaheadIntervalMs);

} // namespace blocktune
