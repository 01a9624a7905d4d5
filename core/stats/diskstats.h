#pragma once

#include "common/result.h"
#include "common/sysroot.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <array>

namespace blocktune {

/// One device's line of /proc/diskstats (or its /sys/block/X/stat): the 17
/// counters after major, minor and name. Field numbers as in the kernel's
/// Documentation/admin-guide/iostats.rst, 1-based there, 0-based here.
struct DiskCounters
{
    enum Field {
        ReadsCompleted = 0,
        ReadsMerged,
        SectorsRead, ///< always 512-byte units
        MsReading,
        WritesCompleted,
        WritesMerged,
        SectorsWritten,
        MsWriting,
        InFlight,
        IoTicksMs,
        WeightedMs,
        DiscardsCompleted,
        DiscardsMerged,
        SectorsDiscarded,
        MsDiscarding,
        FlushesCompleted,
        MsFlushing,
        FieldCount
    };
    int major = 0;
    int minor = 0;
    int fieldsPresent = 0; ///< older kernels print 11 or 15
    std::array<quint64, FieldCount> value{};

    quint64 operator[](Field f) const { return value[f]; }
};

/// Difference of a counter that may have wrapped (32-bit on some arches and
/// older kernels, 64-bit elsewhere): the smaller of the plausible deltas.
quint64 counterDelta(quint64 before, quint64 after);

using DiskStatsTable = QHash<QString, DiskCounters>;

/// Parses the whole of /proc/diskstats. Lines that do not parse are skipped.
DiskStatsTable parseDiskStats(QByteArrayView text);
/// Parses one line of /proc/diskstats (without its newline) into `out`;
/// `name` views the device name inside `line`. False when the line does
/// not parse. For callers that keep their own layout across readings (the
/// monitor matches lines by position, not by hashing every name).
bool parseDiskStatsLine(QByteArrayView line, QByteArrayView &name, DiskCounters &out);
/// Reads ROOT/proc/diskstats once.
Result<DiskStatsTable> readDiskStats(const SysRoot &root);

} // namespace blocktune
