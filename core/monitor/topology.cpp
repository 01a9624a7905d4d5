// Which IRQ lines serve which device, and which devices form groups.
// Computed on start and when devices come or go, never per tick.
#include "monitor.h"

#include "common/tr.h"
#include "devices/devicemodel.h"

#include <QRegularExpression>

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace blocktune {

namespace {

QByteArray realPath(const QByteArray &path)
{
    char resolved[PATH_MAX];
    return ::realpath(path.constData(), resolved) ? QByteArray(resolved) : QByteArray();
}

bool isHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

bool isPciFunction(QByteArrayView name)
{
    // DDDD:BB:DD.F, as the PCI core names a function's directory.
    if (name.size() != 12 || name[4] != ':' || name[7] != ':' || name[10] != '.'
        || name[11] < '0' || name[11] > '7')
        return false;
    for (int i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (!isHex(name[i]))
            return false;
    return true;
}

// A function's MSI/MSI-X vectors are the file names in msi_irqs/
// (drivers/pci/msi/sysfs). Its `irq` file is the legacy INTx line, which
// with MSI-X enabled is allocated but unused (an NVMe drive shows 16
// there), so it only counts when nothing better names the device's lines.
struct PciFunctionIrqs
{
    QList<int> msi;
    int legacy = 0;
};

PciFunctionIrqs pciFunctionIrqs(const QByteArray &functionDir)
{
    PciFunctionIrqs irqs;
    const SysDir fn = SysDir::open(functionDir);
    for (const QString &entry : fn.list("msi_irqs")) {
        bool ok = false;
        const int irq = entry.toInt(&ok);
        if (ok && irq >= 0)
            irqs.msi.append(irq);
    }
    if (auto legacy = fn.readU64("irq"); legacy && *legacy <= quint64(INT_MAX))
        irqs.legacy = int(*legacy);
    return irqs;
}

void sortUnique(QList<int> &list)
{
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
}

struct DiskIrqFinder
{
    const SysRoot &root;
    const QList<IrqRow> &interrupts;
    QByteArray devicesRoot;
    QHash<QByteArray, PciFunctionIrqs> functionCache;

    DiskIrqFinder(const SysRoot &r, const QList<IrqRow> &rows)
        : root(r), interrupts(rows), devicesRoot(realPath(r.sysPath("devices")))
    {
    }

    QList<int> find(const BlockDevice &disk)
    {
        QList<int> irqs;
        QByteArray dir = disk.sysfsDir.toLocal8Bit();
        if (dir.isEmpty())
            dir = root.deviceDirectory(disk.name).valueOr(QByteArray());

        // The nearest PCI function above the device is the one whose
        // vectors complete its requests (a bridge above it has its own).
        QByteArray pciAddress;
        PciFunctionIrqs function;
        for (QByteArray cur = dir; !devicesRoot.isEmpty() && cur.size() > devicesRoot.size()
                                   && cur.startsWith(devicesRoot);
             cur.truncate(cur.lastIndexOf('/'))) {
            const QByteArray base = cur.mid(cur.lastIndexOf('/') + 1);
            if (!isPciFunction(base))
                continue;
            pciAddress = base;
            auto it = functionCache.find(cur);
            if (it == functionCache.end())
                it = functionCache.insert(cur, pciFunctionIrqs(cur));
            function = *it;
            break;
        }
        if (!function.msi.isEmpty())
            return function.msi;

        // No msi_irqs/ (a recorded tree without them, a platform device,
        // INTx): the handlers' names say whose a line is. nvme0q3 serves
        // the controller nvme0; virtio1-req.0 (virtio1 with INTx) the
        // virtio1 device; ahci[0000:00:1f.2] and the per-device MSI chip
        // "PCI-MSIX-0000:00:1f.2" name the PCI function.
        static const QRegularExpression nvmeCtrlInPath(QStringLiteral("/nvme/(nvme\\d+)/"));
        static const QRegularExpression nvmeName(QStringLiteral("^(nvme\\d+)(?:c\\d+)?n\\d+$"));
        static const QRegularExpression virtioInPath(QStringLiteral("/(virtio\\d+)/"));
        const QString path = QString::fromLocal8Bit(dir);
        QString nvmeCtrl;
        if (auto m = nvmeCtrlInPath.match(path); m.hasMatch())
            nvmeCtrl = m.captured(1);
        else if (auto n = nvmeName.match(disk.name); n.hasMatch())
            nvmeCtrl = n.captured(1);
        QString virtio;
        if (auto m = virtioInPath.match(path); m.hasMatch())
            virtio = m.captured(1);
        const QString address = QString::fromLatin1(pciAddress);
        const QString bracketed = address.isEmpty() ? QString() : u'[' + address + u']';
        const QRegularExpression nvmeQueue(nvmeCtrl.isEmpty()
                                               ? QStringLiteral("^$")
                                               : QStringLiteral("^%1q\\d+$").arg(nvmeCtrl));

        for (const IrqRow &row : interrupts) {
            bool mine = !address.isEmpty() && row.chip.contains(address);
            for (const QString &action : row.actions) {
                if (mine)
                    break;
                mine = (!nvmeCtrl.isEmpty() && nvmeQueue.match(action).hasMatch())
                       || (!virtio.isEmpty()
                           && (action == virtio || action.startsWith(virtio + u'-')))
                       || (!bracketed.isEmpty() && action.contains(bracketed));
            }
            if (mine)
                irqs.append(row.irq);
        }
        if (irqs.isEmpty() && function.legacy > 0) {
            // INTx, named only by driver ("ahci", "ata_piix"): take the
            // function's line if the kernel lists it as in use.
            for (const IrqRow &row : interrupts) {
                if (row.irq == function.legacy && !row.actions.isEmpty()) {
                    irqs.append(row.irq);
                    break;
                }
            }
        }
        sortUnique(irqs);
        return irqs;
    }
};

} // namespace

QList<int> diskIrqs(const SysRoot &root, const BlockDevice &disk, const QList<IrqRow> &interrupts)
{
    DiskIrqFinder finder(root, interrupts);
    return finder.find(disk);
}

Topology buildTopology(const SysRoot &root, const DeviceModel &model, const QList<IrqRow> &interrupts)
{
    Topology topology;
    DiskIrqFinder finder(root, interrupts);
    QHash<QString, QList<int>> diskLines;  // whole disk -> its lines
    QHash<int, QStringList> disksOnLine;   // line -> whole disks it serves
    auto linesOfDisk = [&](const QString &name) -> const QList<int> & {
        auto it = diskLines.find(name);
        if (it == diskLines.end()) {
            const BlockDevice *disk = model.find(name);
            it = diskLines.insert(name, disk ? finder.find(*disk) : QList<int>());
            for (int line : std::as_const(*it))
                disksOnLine[line].append(name);
        }
        return *it;
    };

    for (const BlockDevice &d : model.devices()) {
        QList<int> lines;
        for (const QString &leaf : d.leafDisks)
            lines += linesOfDisk(leaf);
        sortUnique(lines);
        if (!lines.isEmpty())
            topology.irqs.insert(d.name, lines);
    }
    for (auto it = topology.irqs.cbegin(); it != topology.irqs.cend(); ++it) {
        const BlockDevice *d = model.find(it.key());
        const QStringList leaves = d ? d->leafDisks : QStringList();
        bool shared = false;
        for (int line : it.value()) {
            for (const QString &disk : disksOnLine.value(line)) {
                if (!leaves.contains(disk)) {
                    shared = true;
                    break;
                }
            }
            if (shared)
                break;
        }
        if (shared)
            topology.sharedIrqs.insert(it.key());
    }

    for (const BlockDevice &d : model.devices()) {
        if (d.md) {
            GroupSpec group{d.name, QStringLiteral("md"), {}};
            // Members that carry I/O: those with a slot, not spares or faulty.
            for (const MdMember &member : d.md->members) {
                if (member.slot && !member.state.contains(u"faulty") && !member.state.contains(u"spare"))
                    group.members.append(member.name);
            }
            if (group.members.isEmpty())
                group.members = d.slaves;
            if (group.members.size() >= 2)
                topology.groups.append(group);
        } else if (d.type == DeviceType::Dm && d.slaves.size() >= 2) {
            topology.groups.append(GroupSpec{d.name, QStringLiteral("dm"), d.slaves});
        }
    }
    return topology;
}

Topology buildTopology(const SysRoot &root, const DeviceModel &model)
{
    QList<IrqRow> rows;
    if (auto data = root.readFile(root.procPath("interrupts")))
        rows = parseInterrupts(*data);
    return buildTopology(root, model, rows);
}

Result<GroupSpec> makeUserGroup(const QString &name, const QStringList &members, const DeviceModel &model)
{
    if (name.isEmpty())
        return makeError(InvalidArgument, MonitorText::tr("a group needs a name"));
    if (!SysRoot::isPlausibleKernelName(name) || name.contains(u',') || name.contains(u'='))
        return makeError(InvalidArgument, QStringLiteral("'%1' is not a usable group name (letters, digits, "
                                                         "'-', '_', no spaces or commas)").arg(name));
    if (model.find(name))
        return makeError(InvalidArgument,
                         QStringLiteral("'%1' is a device name; pick another group name").arg(name));
    GroupSpec group{name, QStringLiteral("user"), {}};
    for (const QString &member : members) {
        const BlockDevice *d = model.findByUserName(member.trimmed());
        if (!d)
            return makeError(NotFound, MonitorText::tr("no block device named '%1'").arg(member));
        if (group.members.contains(d->name))
            return makeError(InvalidArgument, QStringLiteral("'%1' is listed twice").arg(d->name));
        group.members.append(d->name);
    }
    if (group.members.size() < 2)
        return makeError(InvalidArgument, MonitorText::tr("a group needs at least two devices"));
    return group;
}

} // namespace blocktune
