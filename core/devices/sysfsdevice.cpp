// Reading one block device's sysfs directory: its number and size, what
// kind it is, the queue settings, what it stacks on, its identity, and the
// md/dm/loop details.
#include "devicescan_p.h"

#include "devicemodel.h"
#include "mdgeometry.h"

#include <algorithm>

namespace blocktune::detail {

namespace {

constexpr int kLoopMajor = 7;
constexpr int kScsiCdromMajor = 11;

std::optional<bool> readBool(const SysDir &dir, const char *relative)
{
    if (auto v = dir.readU64(relative))
        return *v != 0;
    return std::nullopt;
}

QString transportFromPath(const QByteArray &dir)
{
    // Where udev has no ID_BUS (no udevd here), the device path tells the bus.
    if (dir.contains("/nvme/"))
        return QStringLiteral("nvme");
    if (dir.contains("/usb"))
        return QStringLiteral("usb");
    if (dir.contains("/ata"))
        return QStringLiteral("sata");
    if (dir.contains("/session") && dir.contains("/host"))
        return QStringLiteral("iscsi");
    if (dir.contains("/virtio"))
        return QStringLiteral("virtio");
    if (dir.contains("/mmc"))
        return QStringLiteral("mmc");
    if (dir.contains("/rport-") || dir.contains("/fc_"))
        return QStringLiteral("fc");
    if (dir.contains("/end_device-") || dir.contains("/sas_"))
        return QStringLiteral("sas");
    return {};
}

QString wwnFromSysfs(const QString &wwid)
{
    // SCSI wwid "naa.5000c500a1b2c3d4" is written 0x5000c500a1b2c3d4, as udev does.
    if (wwid.startsWith(u"naa."))
        return u"0x" + wwid.mid(4);
    return wwid;
}

void readQueue(BlockDevice &d, const SysDir &queueOwner, const char *prefix)
{
    auto at = [prefix](const char *attr) -> QByteArray { return QByteArray(prefix) + attr; };
    d.readAheadKiB = queueOwner.readU64(at("queue/read_ahead_kb").constData());
    if (auto sched = queueOwner.readBracketChoice(at("queue/scheduler").constData())) {
        d.scheduler = sched->active;
        d.schedulers = sched->choices;
    }
    d.nrRequests = queueOwner.readU64(at("queue/nr_requests").constData());
    d.maxSectorsKiB = queueOwner.readU64(at("queue/max_sectors_kb").constData());
    d.maxHwSectorsKiB = queueOwner.readU64(at("queue/max_hw_sectors_kb").constData());
    d.optimalIoBytes = queueOwner.readU64(at("queue/optimal_io_size").constData());
    d.minimumIoBytes = queueOwner.readU64(at("queue/minimum_io_size").constData());
    d.logicalBlockBytes = queueOwner.readU64(at("queue/logical_block_size").constData());
    if (auto ctx = readBool(queueOwner, at("queue/context_readahead").constData())) {
        d.contextReadahead = ctx;
        d.contextReadaheadPath = QStringLiteral("queue/context_readahead");
    }
}

void readMd(BlockDevice &d, const SysDir &dir)
{
    MdInfo md;
    const SysDir mdDir = dir.sub("md");
    md.level = mdDir.readString("level").value_or(QString());
    if (auto n = mdDir.readU64("raid_disks"))
        md.raidDisks = int(*n);
    md.chunkBytes = mdDir.readU64("chunk_size");
    if (auto layout = mdDir.readU64("layout"))
        md.layout = quint32(*layout);
    if (md.layout) {
        if (md.level == u"raid10")
            md.layoutName = raid10LayoutName(*md.layout);
        else if (md.level == u"raid5" || md.level == u"raid6" || md.level == u"raid4")
            md.layoutName = raid5LayoutName(*md.layout);
    }
    md.arrayState = mdDir.readString("array_state").value_or(QString());
    if (auto deg = mdDir.readU64("degraded"))
        md.degraded = int(*deg);
    md.uuid = mdDir.readString("uuid").value_or(QString());
    md.stripeKiB = mdStripeKiB(md.level, md.raidDisks, md.chunkBytes, md.layout);
    if (md.stripeKiB)
        md.readaheadFloorKiB = 2 * *md.stripeKiB;
    for (const QString &entry : mdDir.list()) {
        if (!entry.startsWith(u"dev-"))
            continue;
        const QByteArray memberDir = entry.toLocal8Bit();
        MdMember member;
        const auto link = mdDir.readLink(QByteArray(memberDir + "/block").constData());
        member.name = link ? QString::fromLocal8Bit(baseName(*link)) : entry.mid(4);
        member.state = mdDir.readString(QByteArray(memberDir + "/state").constData()).value_or(QString());
        if (auto slot = mdDir.readU64(QByteArray(memberDir + "/slot").constData()))
            member.slot = int(*slot);
        md.members.append(member);
    }
    std::sort(md.members.begin(), md.members.end(), [](const MdMember &a, const MdMember &b) {
        if (a.slot.has_value() != b.slot.has_value())
            return a.slot.has_value();
        if (a.slot && b.slot && *a.slot != *b.slot)
            return *a.slot < *b.slot;
        return kernelNameLess(a.name, b.name);
    });
    d.md = md;
}

QString dmKind(const QString &uuid)
{
    if (uuid.startsWith(u"LVM-"))
        return QStringLiteral("lvm");
    if (uuid.startsWith(u"CRYPT-"))
        return QStringLiteral("crypt");
    if (uuid.startsWith(u"mpath-"))
        return QStringLiteral("multipath");
    return QStringLiteral("other");
}

} // namespace

BlockDevice readDevice(const Candidate &candidate, const std::optional<bool> &vmContextSwitch)
{
    BlockDevice d;
    d.name = candidate.name;
    d.sysfsDir = QString::fromLocal8Bit(candidate.dir);
    const SysDir dir = SysDir::open(candidate.dir);

    if (auto dev = dir.readString("dev")) {
        const qsizetype colon = dev->indexOf(u':');
        d.major = dev->left(colon).toInt();
        d.minor = dev->mid(colon + 1).toInt();
    }
    if (auto sectors = dir.readU64("size"))
        d.sizeBytes = *sectors * 512;
    d.readOnly = readBool(dir, "ro");
    d.path = candidate.udev && !candidate.udev->devName.isEmpty()
                 ? candidate.udev->devName
                 : u"/dev/" + d.name;

    const auto partitionNumber = dir.readRaw("partition");
    const bool isPartition = partitionNumber.has_value();
    if (isPartition) {
        d.type = DeviceType::Partition;
        d.parent = QString::fromLocal8Bit(baseName(candidate.dir.left(candidate.dir.lastIndexOf('/'))));
        if (auto n = sysfs::parseU64(*partitionNumber))
            d.partitionNumber = int(*n);
        d.queueDevice = d.parent;
        // Queue settings and identity come from the parent disk once the
        // whole model is read (inheritFromDisk): partitions have no queue/.
    } else {
        d.queueDevice = d.name;
        readQueue(d, dir, "");
        d.rotational = readBool(dir, "queue/rotational");
        d.removable = readBool(dir, "removable");
        // The kernel names these itself (md_alloc(), dm's "dm-%d", loop's
        // "loop%d"), so the name says which directory to look for; an sd disk
        // costs no failed lookups.
        if (d.name.startsWith(u"md") && dir.isDirectory("md"))
            d.type = DeviceType::Md;
        else if (d.name.startsWith(u"dm-") && dir.isDirectory("dm"))
            d.type = DeviceType::Dm;
        else if (d.major == kLoopMajor || (d.name.startsWith(u"loop") && dir.isDirectory("loop")))
            d.type = DeviceType::Loop;
        else if (d.major == kScsiCdromMajor || d.name.startsWith(u"sr"))
            d.type = DeviceType::Rom;
        else
            d.type = DeviceType::Disk;
    }
    if (!d.contextReadahead && vmContextSwitch) {
        d.contextReadahead = vmContextSwitch;
        d.contextReadaheadPath = QStringLiteral("/proc/sys/vm/enable_context_readahead");
    }

    d.slaves = dir.list("slaves");
    d.holders = dir.list("holders");
    std::sort(d.slaves.begin(), d.slaves.end(), kernelNameLess);
    std::sort(d.holders.begin(), d.holders.end(), kernelNameLess);

    // Identity: udev where it has it, else sysfs (this machine runs no udevd).
    auto idRead = [&dir](const char *rel) { return dir.readString(rel).value_or(QString()).trimmed(); };
    if (candidate.udev) {
        d.model = candidate.udev->model;
        d.serial = candidate.udev->serial;
        d.wwn = candidate.udev->wwn;
        d.transport = candidate.udev->bus;
        d.fstype = candidate.udev->fsType;
        d.label = candidate.udev->fsLabel;
        d.uuid = candidate.udev->fsUuid;
    }
    if (d.type == DeviceType::Disk || d.type == DeviceType::Rom) {
        if (d.model.isEmpty())
            d.model = idRead("device/model");
        if (d.serial.isEmpty()) {
            d.serial = idRead("serial");          // virtio
            if (d.serial.isEmpty())
                d.serial = idRead("device/serial"); // nvme controller
        }
        if (d.wwn.isEmpty()) {
            QString wwid = idRead("wwid");        // nvme namespace
            if (wwid.isEmpty())
                wwid = idRead("device/wwid");     // scsi
            d.wwn = wwnFromSysfs(wwid);
        }
        if (d.transport.isEmpty() || d.transport == u"ata")
            d.transport = transportFromPath(candidate.dir);
    } else if (!isPartition) {
        d.transport.clear();
    }

    if (d.type == DeviceType::Md)
        readMd(d, dir);
    if (d.type == DeviceType::Dm) {
        DmInfo dm;
        dm.name = dir.readString("dm/name").value_or(QString());
        dm.uuid = dir.readString("dm/uuid").value_or(QString());
        dm.kind = dmKind(dm.uuid);
        d.dm = dm;
    }
    if (d.type == DeviceType::Loop) {
        LoopInfo loop;
        loop.backingFile = dir.readString("loop/backing_file").value_or(QString());
        loop.directIo = readBool(dir, "loop/dio");
        // An unattached loop has no loop/ directory: report no loop details.
        if (!loop.backingFile.isEmpty() || loop.directIo)
            d.loop = loop;
    }
    return d;
}

// udev gives partitions the disk's model and serial too.
void inheritFromDisk(BlockDevice &part, const BlockDevice &disk)
{
    part.readAheadKiB = disk.readAheadKiB;
    part.scheduler = disk.scheduler;
    part.schedulers = disk.schedulers;
    part.nrRequests = disk.nrRequests;
    part.maxSectorsKiB = disk.maxSectorsKiB;
    part.maxHwSectorsKiB = disk.maxHwSectorsKiB;
    part.optimalIoBytes = disk.optimalIoBytes;
    part.minimumIoBytes = disk.minimumIoBytes;
    part.logicalBlockBytes = disk.logicalBlockBytes;
    if (!part.contextReadahead) {
        part.contextReadahead = disk.contextReadahead;
        part.contextReadaheadPath = disk.contextReadaheadPath;
    }
    part.rotational = disk.rotational;
    part.removable = disk.removable;
    if (part.model.isEmpty())
        part.model = disk.model;
    if (part.serial.isEmpty())
        part.serial = disk.serial;
    if (part.wwn.isEmpty())
        part.wwn = disk.wwn;
    if (part.transport.isEmpty())
        part.transport = disk.transport;
}

} // namespace blocktune::detail
