// Enumerating block devices without udev (a recorded machine, or the live
// one when asked): the entries of ROOT/sys/class/block, or where a tree has
// none, sys/block with the partitions under their disks.
#include "devicescan_p.h"

#include <QSet>

#include <climits>
#include <cstdlib>

namespace blocktune::detail {

namespace {

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

} // namespace

QByteArray realPath(const QByteArray &path)
{
    char resolved[PATH_MAX];
    return ::realpath(path.constData(), resolved) ? QByteArray(resolved) : QByteArray();
}

QByteArray baseName(const QByteArray &path)
{
    return path.mid(path.lastIndexOf('/') + 1);
}

QList<Candidate> enumerateSysfs(const SysRoot &root, BlockLayout layout)
{
    QList<Candidate> out;
    if (layout == BlockLayout::ClassBlock) {
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

    // No class/block: enumerate as lsblk does. sys/block has the whole
    // devices (symlinks into sys/devices, or on old kernels the device
    // directories themselves); each partition is a subdirectory of its
    // disk named after it (sda1 in sda/, nvme0n1p2 in nvme0n1/); holders/
    // and slaves/ lead to anything a partial copy left out of sys/block.
    QSet<QString> seen;
    auto addWithPartitions = [&out, &seen](const QString &name, const QByteArray &dir) {
        if (dir.isEmpty() || seen.contains(name))
            return;
        seen.insert(name);
        out.append(Candidate{name, dir, std::nullopt});
        const SysDir disk = SysDir::open(dir);
        for (const QString &entry : disk.list()) {
            if (entry.size() <= name.size() || !entry.startsWith(name))
                continue;
            const QByteArray local = entry.toLocal8Bit();
            if (disk.exists(QByteArray(local + "/partition").constData()) && !seen.contains(entry)) {
                seen.insert(entry);
                out.append(Candidate{entry, dir + '/' + local, std::nullopt});
            }
        }
    };
    const SysDir blockDir = root.openSys("block");
    const QByteArray blockPath = root.sysPath("block");
    for (const QString &name : blockDir.list()) {
        const QByteArray local = name.toLocal8Bit();
        const auto link = blockDir.readLink(local.constData());
        addWithPartitions(name, link ? resolveClassLink(blockPath, *link) : realPath(blockPath + '/' + local));
    }
    // out grows while it is walked: what a holder or slave leads to is
    // walked in turn.
    for (qsizetype i = 0; i < out.size(); ++i) {
        const QByteArray dir = out[i].dir;
        const SysDir device = SysDir::open(dir);
        for (const char *stack : {"holders", "slaves"}) {
            for (const QString &name : device.list(stack)) {
                if (seen.contains(name))
                    continue;
                const QByteArray rel = QByteArray(stack) + '/' + name.toLocal8Bit();
                if (const auto link = device.readLink(rel.constData()))
                    addWithPartitions(name, resolveClassLink(dir + '/' + stack, *link));
            }
        }
    }
    return out;
}

} // namespace blocktune::detail
