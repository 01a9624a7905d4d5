#pragma once
// How the console writes numbers: in the user's locale (QLocale(), so
// "74,3 MB/s" under LANG=de_DE.UTF-8), with one unit per quantity:
// throughput in decimal MB/s as dd prints it, readahead and request sizes in
// KiB as sysfs counts them, device sizes in binary units as lsblk does.
// JSON and the CLI never come here: they stay locale-independent.

#include <QLocale>
#include <QString>

namespace blocktune::format {

/// A number with `decimals` places: "1.234,5" in German.
QString number(double value, int decimals, const QLocale &locale = QLocale());
/// A whole number with the locale's digit grouping: "65.536" in German.
QString count(quint64 value, const QLocale &locale = QLocale());
/// Throughput in decimal MB/s with about three significant digits, as dd
/// prints rates: "812 MB/s", "74,3 MB/s", "3,25 MB/s".
QString rate(double mbPerSec, const QLocale &locale = QLocale());
/// KiB, for readahead and request sizes: "4.096 KiB", "12,5 KiB".
QString kib(double kib, int decimals = 0, const QLocale &locale = QLocale());
/// A size in bytes in binary units with one decimal: "1,5 GiB", "512 B".
QString size(quint64 bytes, const QLocale &locale = QLocale());

} // namespace blocktune::format
