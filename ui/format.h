#pragma once
// How the console writes numbers: in the user's locale (QLocale(), so
// "74,3 MB/s" under LANG=de_DE.UTF-8), with one unit per quantity:
// throughput in decimal MB/s as dd prints it, readahead and request sizes in
// KiB as sysfs counts them, device sizes in binary units as lsblk does.
// Digits are never grouped ("8192 KiB", "1520 MB/s", as the spin boxes and
// dd show them); only the decimal sign is the locale's. JSON and the CLI
// never come here: they stay locale-independent.

#include <QLocale>
#include <QString>

namespace blocktune::format {

/// How long "Try" holds a setting before it is put back unless kept: the
/// tuning panel's and Advise's.
inline constexpr int kTrySeconds = 60;

/// `locale` without digit grouping: what every function here formats with
/// (and what the plots' tick labels use).
QLocale ungrouped(QLocale locale = QLocale());
/// A number with `decimals` places: "1234,5" in German.
QString number(double value, int decimals, const QLocale &locale = QLocale());
/// A whole number: "65536".
QString count(quint64 value, const QLocale &locale = QLocale());
/// Throughput in decimal MB/s with about three significant digits, as dd
/// prints rates: "812 MB/s", "74,3 MB/s", "3,25 MB/s".
QString rate(double mbPerSec, const QLocale &locale = QLocale());
/// A read's latency in microseconds, as the CLI prints it: "61,2 us", "1,21 ms".
QString latencyUs(double us, const QLocale &locale = QLocale());
/// KiB, for readahead and request sizes: "4096 KiB", "12,5 KiB".
QString kib(double kib, int decimals = 0, const QLocale &locale = QLocale());
/// A size in bytes in binary units with one decimal: "1,5 GiB", "512 B".
QString size(quint64 bytes, const QLocale &locale = QLocale());

} // namespace blocktune::format
