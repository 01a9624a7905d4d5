#include "devicemodel.h"

#include "common/tr.h"

#include "mdgeometry.h"

#include <QFileInfo>
#include <QSet>

#include <blkid/blkid.h>
#include <libudev.h>

#include <atomic>
#include <climits>
#include <functional>
#include <cstdlib>
#include <memory>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace blocktune {

QString deviceTypeName(DeviceType type)
{
    switch (type) {
    case DeviceType::Disk: return QStringLiteral("disk");
    case DeviceType::Partition: return QStringLiteral("part");
    case DeviceType::Md: return QStringLiteral("md");
    case DeviceType::Dm: return QStringLiteral("dm");
    case DeviceType::Loop: return QStringLiteral("loop");
    case DeviceType::Rom: return QStringLiteral("rom");
    case DeviceType::Other: break;
    }
    return QStringLiteral("other");
}

namespace {

constexpr int kLoopMajor = 7;
constexpr int kScsiCdromMajor = 11;

struct UdevDeleter
{
    void operator()(udev *u) const { udev_unref(u); }
    void operator()(udev_enumerate *e) const { udev_enumerate_unref(e); }
    void operator()(udev_device *d) const { udev_device_unref(d); }
};

// What udev knows that sysfs does not (or says better).
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

// ID_MODEL_ENC escapes spaces as \x20; decode \xHH only.
QString decodeUdevEncoded(const char *text)
{
    QByteArray out;
    for (const char *p = text; *p; ++p) {
        if (p[0] == '\\' && p[1] == 'x' && std::isxdigit(uchar(p[2])) && std::isxdigit(uchar(p[3]))) {
            out.append(char(QByteArray(p + 2, 2).toInt(nullptr, 16)));
            p += 3;
        } else {
            out.append(*p);
        }
    }
    return QString::fromUtf8(out).trimmed();
}

QString property(udev_device *device, const char *key)
{
    const char *value = udev_device_get_property_value(device, key);
    return value ? QString::fromUtf8(value).trimmed() : QString();
}

UdevFacts udevFacts(udev_device *device)
{
    UdevFacts facts;
    facts.devName = property(device, "DEVNAME");
    if (const char *enc = udev_device_get_property_value(device, "ID_MODEL_ENC"))
        facts.model = decodeUdevEncoded(enc);
    if (facts.model.isEmpty())
        facts.model = property(device, "ID_MODEL").replace(u'_', u' ');
    facts.serial = property(device, "ID_SERIAL_SHORT");
    if (facts.serial.isEmpty())
        facts.serial = property(device, "ID_SERIAL");
    facts.wwn = property(device, "ID_WWN_WITH_EXTENSION");
    if (facts.wwn.isEmpty())
        facts.wwn = property(device, "ID_WWN");
    facts.bus = property(device, "ID_BUS");
    facts.fsType = property(device, "ID_FS_TYPE");
    facts.fsLabel = property(device, "ID_FS_LABEL");
    facts.fsUuid = property(device, "ID_FS_UUID");
    return facts;
}

struct Candidate
{
    QString name;
    QByteArray dir; // real sysfs directory
    std::optional<UdevFacts> udev;
};

QByteArray realPath(const QByteArray &path)
{
    char resolved[PATH_MAX];
    return ::realpath(path.constData(), resolved) ? QByteArray(resolved) : QByteArray();
}

QByteArray baseName(const QByteArray &path)
{
    return path.mid(path.lastIndexOf('/') + 1);
}

// ROOT/sys/class/block/NAME -> "../../devices/..../NAME". sysfs has no
// symlinks between class/block and devices/, so joining the link text and
// folding ".." lexically gives the real directory without realpath()'s
// readlink on every component (5,000 devices: 80,000 syscalls saved).
QByteArray resolveClassLink(const QByteArray &classDir, const QByteArray &target)
{
    if (target.startsWith('/'))
        return target;
    QByteArray base = classDir;
    QByteArrayView rest(target);
    while (rest.startsWith("../")) {
        base.truncate(base.lastIndexOf('/'));
        rest = rest.sliced(3);
    }
    return base + '/' + rest;
}

QList<Candidate> enumerateSysfs(const SysRoot &root)
{
    QList<Candidate> out;
    const SysDir classDir = root.openSys("class/block");
    const QByteArray classPath = root.sysPath("class/block");
    const QStringList names = classDir.list();
    out.reserve(names.size());
    for (const QString &name : names) {
        const QByteArray local = name.toLocal8Bit();
        const auto link = classDir.readLink(local.constData());
        const QByteArray dir = link ? resolveClassLink(classPath, *link)
                                    : realPath(classPath + '/' + local);
        if (!dir.isEmpty())
            out.append(Candidate{name, dir, std::nullopt});
    }
    return out;
}

QList<Candidate> enumerateUdev()
{
    QList<Candidate> out;
    std::unique_ptr<udev, UdevDeleter> ctx(udev_new());
    if (!ctx)
        return out;
    std::unique_ptr<udev_enumerate, UdevDeleter> en(udev_enumerate_new(ctx.get()));
    udev_enumerate_add_match_subsystem(en.get(), "block");
    udev_enumerate_scan_devices(en.get());
    for (udev_list_entry *entry = udev_enumerate_get_list_entry(en.get()); entry;
         entry = udev_list_entry_get_next(entry)) {
        const char *syspath = udev_list_entry_get_name(entry);
        std::unique_ptr<udev_device, UdevDeleter> dev(
            udev_device_new_from_syspath(ctx.get(), syspath));
        if (!dev)
            continue;
        const QByteArray dir = realPath(syspath);
        if (dir.isEmpty())
            continue;
        out.append(Candidate{QString::fromUtf8(udev_device_get_sysname(dev.get())), dir,
                             udevFacts(dev.get())});
    }
    return out;
}

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

struct FsFacts
{
    QString type, label, uuid;
};

std::optional<FsFacts> probeFilesystem(const QByteArray &devNode)
{
    blkid_probe probe = blkid_new_probe_from_filename(devNode.constData());
    if (!probe)
        return std::nullopt;
    blkid_probe_enable_superblocks(probe, 1);
    blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID | BLKID_SUBLKS_TYPE);
    FsFacts facts;
    if (blkid_do_safeprobe(probe) == 0) {
        const char *value = nullptr;
        if (blkid_probe_lookup_value(probe, "TYPE", &value, nullptr) == 0)
            facts.type = QString::fromUtf8(value);
        if (blkid_probe_lookup_value(probe, "LABEL", &value, nullptr) == 0)
            facts.label = QString::fromUtf8(value);
        if (blkid_probe_lookup_value(probe, "UUID", &value, nullptr) == 0)
            facts.uuid = QString::fromUtf8(value);
    }
    blkid_free_probe(probe);
    return facts;
}

BlockDevice readDevice(const SysRoot &root, const Candidate &candidate,
                       const std::optional<bool> &vmContextSwitch, bool probeFilesystems)
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

    // ScanOptions::probeFilesystems = false promises not to open devices
    // (a read test's refusals must not issue a single read).
    if (probeFilesystems && root.isLive() && d.sizeBytes.value_or(0) > 0 && d.type != DeviceType::Rom) {
        if (auto fs = probeFilesystem(root.devPath(d.name.toLocal8Bit()))) {
            if (!fs->type.isEmpty() || d.fstype.isEmpty()) {
                d.fstype = fs->type;
                d.label = fs->label;
                d.uuid = fs->uuid;
            }
        }
    }
    return d;
}

// A partition shares its disk's request queue, so it reports the disk's
// queue settings and media flags; udev gives partitions the disk's model
// and serial too.
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

// "36 25 0:32 / /tmp rw,nosuid - tmpfs tmpfs rw" -> mount point and dev.
struct MountEntry
{
    QString mountPoint;
    int major = 0;
    int minor = 0;
};

QString unescapeMount(const QByteArray &field)
{
    QByteArray out;
    for (qsizetype i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size()) {
            out.append(char(field.mid(i + 1, 3).toInt(nullptr, 8)));
            i += 3;
        } else {
            out.append(field[i]);
        }
    }
    return QString::fromLocal8Bit(out);
}

QList<MountEntry> readMountInfo(const SysRoot &root)
{
    QList<MountEntry> mounts;
    auto data = root.readFile(root.procPath("self/mountinfo"));
    if (!data)
        return mounts;
    for (const QByteArray &line : data->split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() < 5)
            continue;
        const QList<QByteArray> dev = fields[2].split(':');
        if (dev.size() != 2)
            continue;
        mounts.append(MountEntry{unescapeMount(fields[4]), dev[0].toInt(), dev[1].toInt()});
    }
    return mounts;
}

// Which device holds a loop's backing file: stat() on the live machine,
// the longest matching mount point in a recorded tree.
std::optional<std::pair<int, int>> deviceHoldingFile(const SysRoot &root, QString file,
                                                     const QList<MountEntry> &mounts)
{
    if (file.endsWith(u" (deleted)"))
        file.chop(10);
    if (root.isLive()) {
        struct stat st {};
        if (::stat(file.toLocal8Bit().constData(), &st) == 0)
            return std::make_pair(int(major(st.st_dev)), int(minor(st.st_dev)));
    }
    const MountEntry *best = nullptr;
    for (const MountEntry &m : mounts) {
        const bool under = file == m.mountPoint || m.mountPoint == u"/"
                           || file.startsWith(m.mountPoint + u'/');
        if (under && (!best || m.mountPoint.size() > best->mountPoint.size()))
            best = &m;
    }
    if (best)
        return std::make_pair(best->major, best->minor);
    return std::nullopt;
}

} // namespace

bool kernelNameLess(const QString &a, const QString &b)
{
    // Walk both names in runs of letters and digits. Digit runs compare as
    // numbers; letter runs by length first, so sdz < sdaa as the kernel
    // numbers disks; the rest lexically.
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const bool da = a[i].isDigit(), db = b[j].isDigit();
        qsizetype ei = i, ej = j;
        while (ei < a.size() && a[ei].isDigit() == da) ++ei;
        while (ej < b.size() && b[ej].isDigit() == db) ++ej;
        const QStringView ra = QStringView(a).sliced(i, ei - i);
        const QStringView rb = QStringView(b).sliced(j, ej - j);
        if (da && db) {
            const qulonglong na = ra.toULongLong(), nb = rb.toULongLong();
            if (na != nb)
                return na < nb;
        } else if (da != db) {
            return da; // digits before letters
        } else {
            // Same-prefix letter runs ("sd" + suffix): compare lengths first
            // only when one run extends the other's family ("sdz" vs "sdaa").
            if (ra.size() != rb.size() && ra.size() > 1 && rb.size() > 1
                && ra.first(2) == rb.first(2))
                return ra.size() < rb.size();
            const int c = ra.compare(rb);
            if (c != 0)
                return c < 0;
        }
        i = ei;
        j = ej;
    }
    return (a.size() - i) < (b.size() - j);
}

namespace {
std::atomic_int g_scans{0};
} // namespace

int DeviceModel::scansInProcess()
{
    return g_scans.load();
}

Result<DeviceModel> DeviceModel::scan(const SysRoot &root, const ScanOptions &options)
{
    ++g_scans;
    bool useUdev = false;
    switch (options.enumerate) {
    case ScanOptions::Enumerate::Auto: useUdev = root.isLive(); break;
    case ScanOptions::Enumerate::Udev: useUdev = true; break;
    case ScanOptions::Enumerate::SysfsWalk: useUdev = false; break;
    }
    if (useUdev && !root.isLive())
        return makeError(InvalidArgument,
                         DevicesText::tr("libudev cannot read a recorded tree (%1); walk sysfs instead")
                             .arg(root.root()));

    const SysDir classDir = root.openSys("class/block");
    if (!classDir.isValid())
        return makeError(NotFound, DevicesText::tr("%1 does not exist: not a Linux sysfs tree")
                                       .arg(root.displayPath(root.sysPath("class/block"))));

    const QList<Candidate> candidates = useUdev ? enumerateUdev() : enumerateSysfs(root);
    std::optional<bool> vmContextSwitch;
    if (auto v = root.readU64(root.procPath("sys/vm/enable_context_readahead")))
        vmContextSwitch = *v != 0;

    DeviceModel model;
    model.m_devices.reserve(candidates.size());
    for (const Candidate &candidate : candidates) {
        BlockDevice d = readDevice(root, candidate, vmContextSwitch, options.probeFilesystems);
        if (!options.probeFilesystems && !candidate.udev) {
            d.fstype.clear();
            d.label.clear();
            d.uuid.clear();
        }
        model.m_devices.append(std::move(d));
    }
    std::sort(model.m_devices.begin(), model.m_devices.end(),
              [](const BlockDevice &a, const BlockDevice &b) { return kernelNameLess(a.name, b.name); });
    for (qsizetype i = 0; i < model.m_devices.size(); ++i) {
        const BlockDevice &d = model.m_devices[i];
        model.m_index.insert(d.name, i);
        if (d.type == DeviceType::Partition)
            model.m_partitions[d.parent].append(d.name); // already in name order
    }
    for (BlockDevice &d : model.m_devices) {
        if (d.type != DeviceType::Partition)
            continue;
        if (const auto it = model.m_index.constFind(d.parent); it != model.m_index.constEnd())
            inheritFromDisk(d, model.m_devices[*it]);
    }

    // Leaf disks: follow partitions to their disk, slaves down the stack,
    // a loop to the device holding its backing file.
    QHash<QPair<int, int>, QString> byDevNumber;
    for (const BlockDevice &d : std::as_const(model.m_devices))
        byDevNumber.insert({d.major, d.minor}, d.name);
    const QList<MountEntry> mounts = readMountInfo(root);
    QHash<QString, QStringList> memo;
    std::function<QStringList(const QString &, int)> leaves = [&](const QString &name, int depth) {
        if (auto it = memo.constFind(name); it != memo.constEnd())
            return *it;
        QStringList out;
        const BlockDevice *d = model.find(name);
        if (!d || depth > 32)
            return out;
        auto add = [&out](const QStringList &more) {
            for (const QString &n : more)
                if (!out.contains(n))
                    out.append(n);
        };
        if (d->type == DeviceType::Partition) {
            add(leaves(d->parent, depth + 1));
        } else if (!d->slaves.isEmpty()) {
            for (const QString &slave : d->slaves)
                add(leaves(slave, depth + 1));
        } else if (d->type == DeviceType::Loop) {
            if (d->loop && !d->loop->backingFile.isEmpty()) {
                if (auto dev = deviceHoldingFile(root, d->loop->backingFile, mounts)) {
                    const QString holder = byDevNumber.value({dev->first, dev->second});
                    if (!holder.isEmpty() && holder != name)
                        add(leaves(holder, depth + 1));
                }
            }
        } else if (d->type == DeviceType::Disk || d->type == DeviceType::Rom) {
            out.append(name);
        }
        std::sort(out.begin(), out.end(), kernelNameLess);
        memo.insert(name, out);
        return out;
    };
    for (BlockDevice &d : model.m_devices)
        d.leafDisks = leaves(d.name, 0);
    return model;
}

const BlockDevice *DeviceModel::find(const QString &name) const
{
    const auto it = m_index.constFind(name);
    return it == m_index.constEnd() ? nullptr : &m_devices[*it];
}

const BlockDevice *DeviceModel::findByUserName(const QString &nameOrPath) const
{
    if (const BlockDevice *d = find(nameOrPath))
        return d;
    if (nameOrPath.startsWith(u"/dev/")) {
        if (const BlockDevice *d = find(nameOrPath.mid(5)))
            return d;
        // /dev/disk/by-id/..., /dev/mapper/NAME: resolve the link.
        const QString target = QFileInfo(nameOrPath).canonicalFilePath();
        if (target.startsWith(u"/dev/"))
            return find(target.mid(5));
    }
    return nullptr;
}

QStringList DeviceModel::roots() const
{
    QStringList out;
    for (const BlockDevice &d : m_devices)
        if (d.type != DeviceType::Partition && d.slaves.isEmpty())
            out.append(d.name);
    return out;
}

QStringList DeviceModel::children(const QString &name) const
{
    QStringList out = m_partitions.value(name);
    if (const BlockDevice *d = find(name))
        for (const QString &holder : d->holders)
            if (find(holder))
                out.append(holder);
    return out;
}

void DeviceModel::refreshQueues(const SysRoot &root, const QStringList &names)
{
    std::optional<bool> vmContextSwitch;
    if (auto v = root.readU64(root.procPath("sys/vm/enable_context_readahead")))
        vmContextSwitch = *v != 0;
    for (const QString &name : names) {
        const auto it = m_index.constFind(name);
        if (it == m_index.constEnd())
            continue;
        BlockDevice &d = m_devices[*it];
        if (d.type == DeviceType::Partition)
            continue; // its disk's queue is the one to name
        readQueue(d, SysDir::open(d.sysfsDir.toLocal8Bit()), "");
        if (d.contextReadaheadPath.startsWith(u'/'))
            d.contextReadahead = vmContextSwitch;
        for (const QString &part : m_partitions.value(name))
            if (const auto p = m_index.constFind(part); p != m_index.constEnd())
                inheritFromDisk(m_devices[*p], d);
    }
}

QHash<QString, QueueValues> readQueueValues(const SysRoot &root, const QStringList &devices)
{
    QHash<QString, QueueValues> out;
    for (const QString &name : devices) {
        if (out.contains(name) || !SysRoot::isPlausibleKernelName(name))
            continue;
        // class/block/NAME is the kernel's link to the device directory;
        // opening it as a directory follows it (no realpath walk needed).
        const SysDir dir = root.openSys(QByteArray("class/block/" + name.toLocal8Bit()));
        if (!dir.isValid())
            continue;
        QueueValues values;
        values.readAheadKiB = dir.readU64("queue/read_ahead_kb");
        if (auto sched = dir.readBracketChoice("queue/scheduler"))
            values.scheduler = sched->active;
        out.insert(name, values);
    }
    return out;
}

} // namespace blocktune
