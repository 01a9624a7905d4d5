#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace blocktune {

enum class DeviceType { Disk, Partition, Md, Dm, Loop, Rom, Other };

/// "disk", "part", "md", "dm", "loop", "rom", "other" (the JSON names).
QString deviceTypeName(DeviceType type);

struct MdMember
{
    QString name;            ///< kernel name of the member (sdb1)
    std::optional<int> slot; ///< null for spares and "none"
    QString state;           ///< in_sync, faulty, spare, write_mostly... as sysfs says
};

/// Geometry of an md array and what the kernel derives from it.
/// See ../shared/reference/kernel-facts.md: stripe = data chunks per row,
/// readahead floor = 2 x stripe.
struct MdInfo
{
    QString level;             ///< raid0, raid1, raid10, raid4, raid5, raid6, linear
    std::optional<int> raidDisks;
    std::optional<quint64> chunkBytes;
    std::optional<quint32> layout; ///< the raw md/layout number
    QString layoutName;        ///< raid10 as mdadm names it: n2, f2, o2; raid5 left-symmetric...
    QString arrayState;
    std::optional<int> degraded;
    std::optional<quint64> stripeKiB;
    std::optional<quint64> readaheadFloorKiB;
    QString uuid;
    QList<MdMember> members;
};

struct DmInfo
{
    QString name;
    QString uuid;
    QString kind; ///< lvm, crypt, multipath, other
};

struct LoopInfo
{
    QString backingFile;
    std::optional<bool> directIo;
};

/// One block device as blocktune models it: identity, stacking and the
/// queue settings that decide streaming read speed.
struct BlockDevice
{
    QString name;      ///< kernel name: sda, sda1, md0, dm-0, loop0
    QString path;      ///< /dev/NAME (or udev's DEVNAME)
    int major = 0;
    int minor = 0; ///< 0:0 when `dev` could not be read (no block device has that number)
    DeviceType type = DeviceType::Other;
    std::optional<quint64> sizeBytes;
    QString parent;       ///< partitions: the whole disk
    QStringList slaves;   ///< what this device is built on
    QStringList holders;  ///< what is built on this device
    QStringList leafDisks; ///< the whole physical disks underneath
    std::optional<int> partitionNumber;

    std::optional<bool> rotational;
    std::optional<bool> readOnly;
    std::optional<bool> removable;
    QString model;
    QString serial;
    QString wwn;
    QString transport;

    /// The device whose queue/ these settings come from: the disk itself,
    /// or a partition's parent disk (partitions have no queue of their own).
    QString queueDevice;
    std::optional<quint64> readAheadKiB;
    QString scheduler;
    QStringList schedulers;
    std::optional<quint64> nrRequests;
    std::optional<quint64> maxSectorsKiB;
    std::optional<quint64> maxHwSectorsKiB;
    std::optional<quint64> optimalIoBytes;
    std::optional<quint64> minimumIoBytes;
    std::optional<quint64> logicalBlockBytes;
    /// A context readahead switch, where the kernel has one (the reference
    /// patch's queue/context_readahead, or a vendor's vm sysctl). Mainline
    /// has none: the feature is built in and always on since 2.6.31.
    std::optional<bool> contextReadahead;
    QString contextReadaheadPath; ///< which switch, when there is one

    QString fstype;
    QString label;
    QString uuid;
    /// "/" and "/usr" when this device's filesystem holds them, or one built
    /// on it does (a partition, an array, a volume): the system disk, which
    /// a preset must not change unless a person chose it (from
    /// /proc/self/mountinfo through the root, so a recorded tree says it too).
    QStringList systemMounts;

    QString sysfsDir; ///< the real device directory (under the root)

    std::optional<MdInfo> md;
    std::optional<DmInfo> dm;
    std::optional<LoopInfo> loop;

    bool isWhole() const { return type != DeviceType::Partition; }
    bool hasDeviceNumber() const { return major != 0 || minor != 0; }
};

} // namespace blocktune
