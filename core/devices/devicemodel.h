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

private:
    SysRoot m_root;
    QList<BlockDevice> m_devices;
    QStringList m_warnings;
    QHash<QString, qsizetype> m_index;
    QHash<QString, QStringList> m_partitions; ///< disk -> its partitions
};

/// Orders kernel names as people expect: sdz before sdaa, nvme0n1p2 before
/// nvme0n1p10.
bool kernelNameLess(const QString &a, const QString &b);

} // namespace blocktune
