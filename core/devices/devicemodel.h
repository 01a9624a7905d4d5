#pragma once

#include "blockdevice.h"

#include "common/result.h"
#include "common/sysroot.h"

#include <QHash>
#include <QList>

namespace blocktune {

struct ScanOptions
{
    enum class Enumerate {
        Auto,       ///< libudev on the live machine, a sysfs walk on a recorded tree
        Udev,       ///< libudev (live only)
        SysfsWalk,  ///< ROOT/sys/class/block, or sys/block where a tree has no class/block
    };
    Enumerate enumerate = Enumerate::Auto;
    /// Probe filesystems with libblkid (live machine only; opens each
    /// device read-only).
    bool probeFilesystems = true;
};

/// Every block device of a machine (live or recorded) and how they stack.
class DeviceModel final
{
public:
    static Result<DeviceModel> scan(const SysRoot &root, const ScanOptions &options = {});
    /// How many scans this process made (BLOCKTUNE_DEBUG_SCANS=1 makes the
    /// CLI print it: tests prove a command scans once).
    static int scansInProcess();

    const QList<BlockDevice> &devices() const { return m_devices; }
    /// What the scan could not use, one sentence each ("sdb: queue/
    /// read_ahead_kb holds 'fast', not a number (shown as unknown)"): a
    /// recorded tree may hold garbage; such values are unknown (null).
    const QStringList &warnings() const { return m_warnings; }
    const BlockDevice *find(const QString &name) const;
    /// Accepts "sda", "/dev/sda" or a link below /dev (/dev/disk/by-id/...,
    /// /dev/mapper/NAME), resolved in the scanned root: ROOT/dev in a
    /// recorded tree, never the live /dev.
    const BlockDevice *findByUserName(const QString &nameOrPath) const;
    /// Devices with nothing under them (disks, loops), in display order.
    QStringList roots() const;
    /// What stacks on a device: its partitions, then its holders.
    QStringList children(const QString &name) const;

    /// Reads the queue settings (readahead, scheduler, limits, context
    /// switch) of these whole devices again, and their partitions' copies:
    /// after a write, without scanning every device.
    void refreshQueues(const SysRoot &root, const QStringList &names);

private:
    SysRoot m_root;
    QList<BlockDevice> m_devices;
    QStringList m_warnings;
    QHash<QString, qsizetype> m_index;
    QHash<QString, QStringList> m_partitions; ///< disk -> its partitions
};

/// The queue values a view shows for each row and refreshes every few
/// seconds, in case something outside blocktune changed them.
struct QueueValues
{
    std::optional<quint64> readAheadKiB;
    QString scheduler; ///< the active one; empty when the device has no queue/scheduler
};

/// Reads read_ahead_kb and the active scheduler of a few whole devices (the
/// rows on screen), by kernel name, without scanning: two small reads each.
/// A device that is gone (or a name that is not one) is left out.
QHash<QString, QueueValues> readQueueValues(const SysRoot &root, const QStringList &devices);

/// Orders kernel names as people expect: sdz before sdaa, nvme0n1p2 before
/// nvme0n1p10.
bool kernelNameLess(const QString &a, const QString &b);

} // namespace blocktune
