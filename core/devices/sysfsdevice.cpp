// Reading one block device's sysfs directory: its number and size, what
// kind it is, the queue settings, what it stacks on, its identity, and the
// md/dm/loop details.
#include "devicescan_p.h"

#include "devicemodel.h"
#include "mdgeometry.h"

#include "common/tr.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>

namespace blocktune::detail {

namespace {

constexpr int kLoopMajor = 7;
constexpr int kScsiCdromMajor = 11;
/// sysfs show() fills one page: no attribute blocktune reads is longer.
constexpr qsizetype kMaxAttributeBytes = 4096;

enum class Need { Optional, Required };

// Reads one device's attributes and says what was wrong with those it could
// not use. A recorded tree may hold anything (an empty file, a word where a
// number belongs, a symlink loop, megabytes): such a value is unknown and
// the scan's warnings say which file and why. A missing file is worth a
// warning only where every kernel has it (Need::Required).
class AttributeReader
{
public:
    AttributeReader(const SysDir &dir, const QString &device, QStringList &warnings)
        : m_dir(dir), m_device(device), m_warnings(warnings)
    {
    }

    const SysDir &dir() const { return m_dir; }

    std::optional<QByteArray> raw(const char *relative, Need need = Need::Optional)
    {
        int error = 0;
        auto data = m_dir.readRaw(relative, &error);
        if (!data) {
            if (error != ENOENT)
                warn(DevicesText::tr("%1: %2 cannot be read: %3 (shown as unknown)"), relative, errnoText(error));
            else if (need == Need::Required)
                warn(DevicesText::tr("%1: %2 is missing (shown as unknown)"), relative);
            return std::nullopt;
        }
        if (data->size() > kMaxAttributeBytes) {
            warn(DevicesText::tr("%1: %2 holds more than %3 bytes, longer than any sysfs attribute "
                                 "(shown as unknown)"),
                 relative, QString::number(kMaxAttributeBytes));
            return std::nullopt;
        }
        return data;
    }

    std::optional<quint64> number(const char *relative, Need need = Need::Optional,
                                  QByteArrayView allowedWord = {})
    {
        const auto data = raw(relative, need);
        if (!data)
            return std::nullopt;
        if (auto value = sysfs::parseU64(*data))
            return value;
        const QByteArray text = sysfs::stripNewline(*data).trimmed();
        if (!allowedWord.isEmpty() && text == allowedWord)
            return std::nullopt;
        if (text.isEmpty())
            warn(DevicesText::tr("%1: %2 is empty, not a number (shown as unknown)"), relative);
        else
            warn(DevicesText::tr("%1: %2 holds '%3', not a number (shown as unknown)"), relative, quoted(text));
        return std::nullopt;
    }

    std::optional<bool> flag(const char *relative, Need need = Need::Optional)
    {
        if (auto v = number(relative, need))
            return *v != 0;
        return std::nullopt;
    }

    std::optional<BracketChoice> choice(const char *relative)
    {
        const auto data = raw(relative);
        if (!data)
            return std::nullopt;
        if (auto parsed = sysfs::parseBracketChoice(*data))
            return parsed;
        warn(DevicesText::tr("%1: %2 holds '%3', not a list of schedulers with the active one in brackets "
                             "(shown as unknown)"),
             relative, quoted(sysfs::stripNewline(*data).trimmed()));
        return std::nullopt;
    }

    // "8:16" -> 8, 16; false for anything else.
    bool deviceNumber(int &major, int &minor)
    {
        const auto data = raw("dev", Need::Required);
        if (!data)
            return false;
        const QByteArray text = sysfs::stripNewline(*data).trimmed();
        const qsizetype colon = text.indexOf(':');
        const auto maj = colon > 0 ? sysfs::parseU64(text.left(colon)) : std::nullopt;
        const auto min = colon > 0 ? sysfs::parseU64(text.mid(colon + 1)) : std::nullopt;
        // MAJORBITS 12, MINORBITS 20 (include/linux/kdev_t.h)
        if (!maj || !min || *maj >= (1u << 12) || *min >= (1u << 20)) {
            warn(DevicesText::tr("%1: %2 holds '%3', not MAJOR:MINOR (shown as unknown)"), "dev", quoted(text));
            return false;
        }
        major = int(*maj);
        minor = int(*min);
        return true;
    }

    /// A string without its newline (`trimmed`: also without the padding
    /// SCSI's vendor and model carry); nothing to warn about when missing.
    QString text(const char *relative, bool trimmed = false)
    {
        const auto data = raw(relative);
        if (!data)
            return {};
        const QString value = QString::fromUtf8(sysfs::stripNewline(*data));
        return trimmed ? value.trimmed() : value;
    }

private:
    // sentence: %1 the device, %2 the file, %3 what it holds or why.
    void warn(const QString &sentence, const char *relative, const QString &detail = {})
    {
        QString text = sentence.arg(m_device, QString::fromLocal8Bit(relative));
        if (!detail.isNull())
            text = text.arg(detail);
        m_warnings.append(text);
    }

    // A little of it, printable: it is going to a terminal.
    static QString quoted(const QByteArray &text)
    {
        QString shown;
        for (char c : text.left(40))
            shown += (c >= 0x20 && c < 0x7f) ? QChar::fromLatin1(c) : u'?';
        if (text.size() > 40)
            shown += u"...";
        return shown;
    }

    const SysDir &m_dir;
    const QString &m_device;
    QStringList &m_warnings;
};

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

void readQueue(BlockDevice &d, AttributeReader &read)
{
    d.readAheadKiB = read.number("queue/read_ahead_kb", Need::Required);
    if (auto sched = read.choice("queue/scheduler")) {
        d.scheduler = sched->active;
        d.schedulers = sched->choices;
    }
    d.nrRequests = read.number("queue/nr_requests");
    d.maxSectorsKiB = read.number("queue/max_sectors_kb");
    d.maxHwSectorsKiB = read.number("queue/max_hw_sectors_kb");
    d.optimalIoBytes = read.number("queue/optimal_io_size");
    d.minimumIoBytes = read.number("queue/minimum_io_size");
    d.logicalBlockBytes = read.number("queue/logical_block_size");
    if (auto ctx = read.flag("queue/context_readahead")) {
        d.contextReadahead = ctx;
        d.contextReadaheadPath = QStringLiteral("queue/context_readahead");
    }
}

std::optional<int> asInt(std::optional<quint64> v)
{
    if (v && *v <= quint64(INT_MAX))
        return int(*v);
    return std::nullopt;
}

void readMd(BlockDevice &d, AttributeReader &read)
{
    MdInfo md;
    md.level = read.text("md/level");
    md.raidDisks = asInt(read.number("md/raid_disks"));
    md.chunkBytes = read.number("md/chunk_size");
    if (auto layout = read.number("md/layout"); layout && *layout <= UINT32_MAX)
        md.layout = quint32(*layout);
    if (md.layout) {
        if (md.level == u"raid10")
            md.layoutName = raid10LayoutName(*md.layout);
        else if (md.level == u"raid5" || md.level == u"raid6" || md.level == u"raid4")
            md.layoutName = raid5LayoutName(*md.layout);
    }
    md.arrayState = read.text("md/array_state");
    md.degraded = asInt(read.number("md/degraded"));
    md.uuid = read.text("md/uuid");
    md.stripeKiB = mdStripeKiB(md.level, md.raidDisks, md.chunkBytes, md.layout);
    if (md.stripeKiB)
        md.readaheadFloorKiB = 2 * *md.stripeKiB;
    for (const QString &entry : read.dir().list("md")) {
        if (!entry.startsWith(u"dev-"))
            continue;
        const QByteArray memberDir = "md/" + entry.toLocal8Bit();
        MdMember member;
        const auto link = read.dir().readLink(QByteArray(memberDir + "/block").constData());
        member.name = link ? QString::fromLocal8Bit(baseName(*link)) : entry.mid(4);
        member.state = read.text(QByteArray(memberDir + "/state").constData());
        // A spare's or a failed member's slot is "none".
        member.slot = asInt(read.number(QByteArray(memberDir + "/slot").constData(), Need::Optional, "none"));
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

// Partition or whole device; a whole device's queue and what kind it is.
// True for a partition.
bool readKind(BlockDevice &d, AttributeReader &read, const Candidate &candidate)
{
    const SysDir &dir = read.dir();
    const bool isPartition = dir.exists("partition");
    if (isPartition) {
        d.type = DeviceType::Partition;
        d.parent = QString::fromLocal8Bit(baseName(candidate.dir.left(candidate.dir.lastIndexOf('/'))));
        d.partitionNumber = asInt(read.number("partition", Need::Required));
        d.queueDevice = d.parent;
        // Queue settings and identity come from the parent disk once the
        // whole model is read (inheritFromDisk): partitions have no queue/.
    } else {
        d.queueDevice = d.name;
        readQueue(d, read);
        d.rotational = read.flag("queue/rotational", Need::Required);
        d.removable = read.flag("removable", Need::Required);
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
    return isPartition;
}

// Identity: udev where it has it, else sysfs (this machine runs no udevd).
void readIdentity(BlockDevice &d, AttributeReader &read, const Candidate &candidate, bool isPartition)
{
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
            d.model = read.text("device/model", true);
        if (d.serial.isEmpty()) {
            d.serial = read.text("serial", true);          // virtio
            if (d.serial.isEmpty())
                d.serial = read.text("device/serial", true); // nvme controller
        }
        if (d.wwn.isEmpty()) {
            QString wwid = read.text("wwid", true);        // nvme namespace
            if (wwid.isEmpty())
                wwid = read.text("device/wwid", true);     // scsi
            d.wwn = wwnFromSysfs(wwid);
        }
        if (d.transport.isEmpty() || d.transport == u"ata")
            d.transport = transportFromPath(candidate.dir);
    } else if (!isPartition) {
        d.transport.clear();
    }
}

void readDm(BlockDevice &d, AttributeReader &read)
{
    DmInfo dm;
    dm.name = read.text("dm/name");
    dm.uuid = read.text("dm/uuid");
    dm.kind = dmKind(dm.uuid);
    d.dm = dm;
}

void readLoop(BlockDevice &d, AttributeReader &read)
{
    LoopInfo loop;
    loop.backingFile = read.text("loop/backing_file");
    loop.directIo = read.flag("loop/dio");
    // An unattached loop has no loop/ directory: report no loop details.
    if (!loop.backingFile.isEmpty() || loop.directIo)
        d.loop = loop;
}

} // namespace

std::optional<BlockDevice> readDevice(const Candidate &candidate, const std::optional<bool> &vmContextSwitch,
                                      QStringList &warnings)
{
    const SysDir dir = SysDir::open(candidate.dir);
    if (!dir.isValid()) {
        warnings.append(DevicesText::tr("%1: its directory %2 cannot be opened: %3 (left out)")
                            .arg(candidate.name, QString::fromLocal8Bit(candidate.dir), errnoText(dir.openError())));
        return std::nullopt;
    }
    BlockDevice d;
    d.name = candidate.name;
    d.sysfsDir = QString::fromLocal8Bit(candidate.dir);
    AttributeReader read(dir, d.name, warnings);

    read.deviceNumber(d.major, d.minor);
    if (auto sectors = read.number("size", Need::Required); sectors && *sectors <= UINT64_MAX / 512)
        d.sizeBytes = *sectors * 512;
    d.readOnly = read.flag("ro", Need::Required);
    d.path = candidate.udev && !candidate.udev->devName.isEmpty()
                 ? candidate.udev->devName
                 : u"/dev/" + d.name;

    const bool isPartition = readKind(d, read, candidate);
    if (!d.contextReadahead && vmContextSwitch) {
        d.contextReadahead = vmContextSwitch;
        d.contextReadaheadPath = QStringLiteral("/proc/sys/vm/enable_context_readahead");
    }

    d.slaves = dir.list("slaves");
    d.holders = dir.list("holders");
    std::sort(d.slaves.begin(), d.slaves.end(), kernelNameLess);
    std::sort(d.holders.begin(), d.holders.end(), kernelNameLess);

    readIdentity(d, read, candidate, isPartition);
    if (d.type == DeviceType::Md)
        readMd(d, read);
    if (d.type == DeviceType::Dm)
        readDm(d, read);
    if (d.type == DeviceType::Loop)
        readLoop(d, read);
    return d;
}

void readQueueSettings(BlockDevice &d, const SysDir &dir, QStringList &warnings)
{
    AttributeReader read(dir, d.name, warnings);
    readQueue(d, read);
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
