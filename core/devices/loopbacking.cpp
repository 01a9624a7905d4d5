// Which device holds a loop device's backing file, so a loop's leaf disk is
// the disk under its file: the mounts of /proc/self/mountinfo, and stat()
// on the live machine.
#include "devicescan_p.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace blocktune::detail {

namespace {

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

} // namespace

// "36 25 0:32 / /tmp rw,nosuid - tmpfs tmpfs rw" -> mount point and dev.
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

} // namespace blocktune::detail
