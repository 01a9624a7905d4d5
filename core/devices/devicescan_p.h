#pragma once
// The parts of DeviceModel::scan (devicemodel.cpp ties them together):
//   udevscan.cpp     libudev enumeration and what udev knows about a device
//   sysfswalk.cpp    enumeration of a tree without udev (a recorded machine)
//   sysfsdevice.cpp  one device's sysfs directory read into a BlockDevice
//   blkidprobe.cpp   filesystem type, label and uuid from libblkid
//   loopbacking.cpp  which device holds a loop device's backing file
// Private to core/devices.

#include "blockdevice.h"

#include "common/sysroot.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace blocktune::detail {

// ---- udevscan.cpp ----------------------------------------------------------

/// What udev knows that sysfs does not (or says better).
struct UdevFacts
{
    QString devName;
    QString model;
    QString serial;
    QString wwn;
    QString bus;
    QString fsType;
    QString fsLabel;
    QString fsUuid;
};

/// A device found by an enumeration, not read yet.
struct Candidate
{
    QString name;
    QByteArray dir; ///< real sysfs directory
    std::optional<UdevFacts> udev;
};

/// Every block device libudev lists (live machine only).
QList<Candidate> enumerateUdev();

// ---- sysfswalk.cpp ---------------------------------------------------------

/// Every block device of the tree: ROOT/sys/class/block, or for a tree
/// without it, sys/block, the partitions under their disks, and what
/// holders/ and slaves/ lead to.
QList<Candidate> enumerateSysfs(const SysRoot &root, BlockLayout layout);

/// realpath(3), or empty when the path does not resolve.
QByteArray realPath(const QByteArray &path);
/// The last path component.
QByteArray baseName(const QByteArray &path);

// ---- sysfsdevice.cpp -------------------------------------------------------

/// One device's directory: identity, queue settings, stacking, md/dm/loop
/// details. Partitions get their disk's queue later (inheritFromDisk).
/// What cannot be used (garbage, a required file missing) is unknown and
/// appended to `warnings`; nullopt when the directory cannot be opened.
std::optional<BlockDevice> readDevice(const Candidate &candidate, const std::optional<bool> &vmContextSwitch,
                                      QStringList &warnings);

/// A whole device's queue settings (readahead, scheduler, limits, the
/// context readahead switch) read again into `d`, what cannot be used
/// appended to `warnings`.
void readQueueSettings(BlockDevice &d, const SysDir &dir, QStringList &warnings);

/// A partition shares its disk's request queue: it reports the disk's queue
/// settings, media flags and identity.
void inheritFromDisk(BlockDevice &part, const BlockDevice &disk);

// ---- blkidprobe.cpp --------------------------------------------------------

struct FsFacts
{
    QString type, label, uuid;
};

/// Opens the device node read-only and asks libblkid for its superblock;
/// nullopt when it cannot be opened.
std::optional<FsFacts> probeFilesystem(const QByteArray &devNode);

// ---- loopbacking.cpp -------------------------------------------------------

/// One line of /proc/self/mountinfo: where a device is mounted.
struct MountEntry
{
    QString mountPoint;
    int major = 0;
    int minor = 0;
};

QList<MountEntry> readMountInfo(const SysRoot &root);

/// The device number of what holds `file` (a loop's backing file): stat()
/// on the live machine, the longest matching mount point in a recorded tree.
std::optional<std::pair<int, int>> deviceHoldingFile(const SysRoot &root, QString file,
                                                     const QList<MountEntry> &mounts);

} // namespace blocktune::detail
