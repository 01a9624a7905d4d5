#pragma once
// The console's scratch device for `blocktune --demo`: a loop device with
// direct I/O (so readahead changes what reaches the "disk", as on a real
// one) over a file of pseudo-random data. The file is unlinked once the
// loop holds it, and the loop is attached with LO_FLAGS_AUTOCLEAR: the
// kernel detaches it when the last descriptor closes, so it goes away on a
// normal exit, on a signal and after a crash alike, and leaves no file.

#include "common/result.h"

#include <QString>

#include <memory>

namespace blocktune {

class DemoDevice final
{
public:
    /// Needs root (loop-control). `bytes` is rounded down to whole MiB.
    static Result<std::unique_ptr<DemoDevice>> create(quint64 bytes, const QString &directory = QStringLiteral("/var/tmp"));
    /// Closes the last descriptor: the kernel detaches the loop.
    ~DemoDevice();
    Q_DISABLE_COPY_MOVE(DemoDevice)

    /// Kernel name, e.g. "loop3".
    const QString &name() const { return m_name; }
    quint64 sizeBytes() const { return m_bytes; }

private:
    DemoDevice() = default;
    QString m_name;
    quint64 m_bytes = 0;
    int m_fd = -1; ///< the loop device, held open for the session
};

} // namespace blocktune
