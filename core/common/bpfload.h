#pragma once
// What the BPF probes' loaders share (core/monitor/latencyprobe.cpp,
// core/readahead/readaheadprobe.cpp): libbpf's own messages, kept for the
// loaders' errors instead of written to stderr (a command's stderr is for
// its own lines).

#include <QByteArray>

namespace blocktune::bpfload {

/// Routes libbpf's warnings into lastLibbpfLine() (once per process; a no-op
/// in a build without BPF).
void captureLibbpfMessages();
/// libbpf's last warning or error line; empty when there was none.
QByteArray lastLibbpfLine();

} // namespace blocktune::bpfload
