// DeviceModel::scan ties the parts together (devicescan_p.h): enumerate
// (libudev or a sysfs walk), read each device, probe filesystems, let
// partitions inherit their disk's queue, then follow the stack down to the
// leaf disks (a loop to the disk holding its backing file).
#include "devicemodel.h"

#include "devicescan_p.h"

#include "common/tr.h"

#include <QSet>

#include <atomic>

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

using namespace detail;

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

// libudev on the live machine, a sysfs walk on a recorded tree, unless the
// options say which; libudev on a recorded tree is refused.
Result<bool> chooseUdev(const SysRoot &root, const ScanOptions &options)
{
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
    return useUdev;
}

void settleFilesystem(BlockDevice &d, const Candidate &candidate, const SysRoot &root,
                      const ScanOptions &options)
{
    // ScanOptions::probeFilesystems = false promises not to open devices
    // (a read test's refusals must not issue a single read).
    if (options.probeFilesystems && root.isLive() && d.sizeBytes.value_or(0) > 0
        && d.type != DeviceType::Rom) {
        if (auto fs = probeFilesystem(root.devPath(d.name.toLocal8Bit()))) {
            if (!fs->type.isEmpty() || d.fstype.isEmpty()) {
                d.fstype = fs->type;
                d.label = fs->label;
                d.uuid = fs->uuid;
            }
        }
    }
    if (!options.probeFilesystems && !candidate.udev) {
        d.fstype.clear();
        d.label.clear();
        d.uuid.clear();
    }
}

// Leaf disks: follow partitions to their disk, slaves down the stack,
// a loop to the device holding its backing file.
class LeafDisks final
{
public:
    LeafDisks(const SysRoot &root, const QList<BlockDevice> &devices,
              const QHash<QString, qsizetype> &index, QStringList &warnings)
        : m_root(root), m_devices(devices), m_index(index), m_warnings(warnings)
    {
        for (const BlockDevice &d : devices)
            m_byDevNumber.insert({d.major, d.minor}, d.name);
        m_mounts = readMountInfo(root);
    }

    QStringList of(const QString &name, int depth);

private:
    const BlockDevice *find(const QString &name) const
    {
        const auto it = m_index.constFind(name);
        return it == m_index.constEnd() ? nullptr : &m_devices[*it];
    }

    const SysRoot &m_root;
    const QList<BlockDevice> &m_devices;
    const QHash<QString, qsizetype> &m_index;
    QStringList &m_warnings;
    QHash<QPair<int, int>, QString> m_byDevNumber;
    QList<MountEntry> m_mounts;
    QHash<QString, QStringList> m_memo;
    QSet<QString> m_onPath; // a loop in slaves/ (garbage) must end, and warn once
};

QStringList LeafDisks::of(const QString &name, int depth)
{
    if (auto it = m_memo.constFind(name); it != m_memo.constEnd())
        return *it;
    QStringList out;
    const BlockDevice *d = find(name);
    if (!d || depth > 32)
        return out;
    if (m_onPath.contains(name)) {
        m_warnings.append(DevicesText::tr("%1: what it is built on (slaves/) leads back to %1; "
                                          "its leaf disks are incomplete").arg(name));
        m_memo.insert(name, out);
        return out;
    }
    m_onPath.insert(name);
    auto add = [&out](const QStringList &more) {
        for (const QString &n : more)
            if (!out.contains(n))
                out.append(n);
    };
    if (d->type == DeviceType::Partition) {
        add(of(d->parent, depth + 1));
    } else if (!d->slaves.isEmpty()) {
        for (const QString &slave : d->slaves)
            add(of(slave, depth + 1));
    } else if (d->type == DeviceType::Loop) {
        if (d->loop && !d->loop->backingFile.isEmpty()) {
            if (auto dev = deviceHoldingFile(m_root, d->loop->backingFile, m_mounts)) {
                const QString holder = m_byDevNumber.value({dev->first, dev->second});
                if (!holder.isEmpty() && holder != name)
                    add(of(holder, depth + 1));
            }
        }
    } else if (d->type == DeviceType::Disk || d->type == DeviceType::Rom) {
        out.append(name);
    }
    m_onPath.remove(name);
    std::sort(out.begin(), out.end(), kernelNameLess);
    m_memo.insert(name, out);
    return out;
}

// Marks the devices that hold / or /usr: the mounted device, and down from
// it what it is built on (a partition's disk, an array's or a volume's
// members), each with the mount points it carries.
void markSystemDevices(QList<BlockDevice> &devices, const QHash<QString, qsizetype> &index,
                       const QList<MountEntry> &mounts)
{
    for (const MountEntry &m : mounts) {
        if (m.mountPoint != u"/" && m.mountPoint != u"/usr")
            continue;
        QStringList todo;
        for (const BlockDevice &d : std::as_const(devices))
            if (d.hasDeviceNumber() && d.major == m.major && d.minor == m.minor)
                todo << d.name;
        QSet<QString> seen;
        while (!todo.isEmpty()) {
            const QString name = todo.takeFirst();
            const auto it = index.constFind(name);
            if (seen.contains(name) || it == index.constEnd())
                continue;
            seen.insert(name);
            BlockDevice &d = devices[*it];
            if (!d.systemMounts.contains(m.mountPoint))
                d.systemMounts << m.mountPoint;
            if (d.type == DeviceType::Partition)
                todo << d.parent;
            todo << d.slaves;
        }
    }
}

} // namespace

int DeviceModel::scansInProcess()
{
    return g_scans.load();
}

Result<DeviceModel> DeviceModel::scan(const SysRoot &root, const ScanOptions &options)
{
    ++g_scans;
    const auto useUdev = chooseUdev(root, options);
    if (!useUdev)
        return useUdev.error();

    const auto layout = root.blockLayout();
    if (!layout)
        return layout.error();

    const QList<Candidate> candidates = *useUdev ? enumerateUdev() : enumerateSysfs(root, *layout);
    std::optional<bool> vmContextSwitch;
    if (auto v = root.readU64(root.procPath("sys/vm/enable_context_readahead")))
        vmContextSwitch = *v != 0;

    DeviceModel model;
    model.m_root = root;
    model.m_devices.reserve(candidates.size());
    for (const Candidate &candidate : candidates) {
        auto read = readDevice(candidate, vmContextSwitch, model.m_warnings);
        if (!read)
            continue;
        BlockDevice d = std::move(*read);
        settleFilesystem(d, candidate, root, options);
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

    LeafDisks leafDisks(root, model.m_devices, model.m_index, model.m_warnings);
    for (BlockDevice &d : model.m_devices)
        d.leafDisks = leafDisks.of(d.name, 0);
    markSystemDevices(model.m_devices, model.m_index, readMountInfo(root));
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
        // /dev/disk/by-id/..., /dev/mapper/NAME: resolve the link where
        // the devices were scanned.
        const QString target = m_root.resolveInRoot(nameOrPath);
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
        // The scan already said what it could not use; a refresh leaves
        // such values unknown without saying it again.
        QStringList alreadyWarned;
        readQueueSettings(d, SysDir::open(d.sysfsDir.toLocal8Bit()), alreadyWarned);
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
        // class/block/NAME (or sys/block/NAME in a tree without class/) is
        // the link to the device directory; opening it as a directory
        // follows it (no realpath walk needed).
        const auto entry = root.deviceEntry(name);
        if (!entry)
            continue;
        const SysDir dir = SysDir::open(*entry);
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
