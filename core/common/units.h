#pragma once

#include "result.h"

#include <QString>

namespace blocktune {

/// "64K", "256M", "1G", "4096", "2T", "512KiB" -> bytes (binary multiples,
/// as dd and blockdev count). `what` names the option in error messages.
Result<quint64> parseSize(const QString &text, const QString &what);
/// "100ms", "10s", "2m", "1.5s" -> milliseconds (a bare number = seconds).
Result<qint64> parseDurationMs(const QString &text, const QString &what);
/// 1536 -> "1.5K", as lsblk prints sizes (binary, one decimal).
QString formatBytes(quint64 bytes);

} // namespace blocktune
