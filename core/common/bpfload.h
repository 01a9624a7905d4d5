#pragma once
// What the BPF probes' loaders share (core/monitor/latencyprobe.cpp,
// core/readahead/readaheadprobe.cpp): libbpf's own messages, kept for the
// loaders' errors instead of written to stderr (a command's stderr is for
// its own lines), and the words for a program the kernel refused. (The BPF
// programs' shared part is bpf/log2bucket.bpf.h.)

#include "common/result.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace blocktune::bpfload {

/// Routes libbpf's warnings into lastLibbpfLine() (once per process; a no-op
/// in a build without BPF).
void captureLibbpfMessages();
/// libbpf's last warning or error line; empty when there was none.
QByteArray lastLibbpfLine();

/// What stops every BPF program here, for an EPERM or EACCES from libbpf:
/// kernel lockdown (confidentiality), or not root; nullopt for anything
/// else. `prefix` starts the message (the probe's own: "latency histograms
/// unavailable: ").
std::optional<Error> privilegeRefusal(int err, const QString &prefix);
/// libbpf's `step` ("open", "load", "attach") failed with `err`: said with
/// errno and libbpf's last line.
Error stepFailure(int err, const char *step, const QString &prefix);

} // namespace blocktune::bpfload
