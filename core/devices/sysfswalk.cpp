// Enumerating block devices without udev (a recorded machine, or the live
// one when asked): the entries of ROOT/sys/class/block.
#include "devicescan_p.h"

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

} // namespace blocktune::detail
