// `blocktune-cli record`: what blocktune reads, copied into a tree the path
// layer opens with a root prefix. Every source path comes from SysRoot
// (sysPath/procPath/devPath); files are read with a size bound, links are
// written with the text the kernel (or udev) gave them, so the relative
// layout works unchanged under the snapshot's root.
#include "snapshot.h"

#include <QDir>
#include <QElapsedTimer>
#include <QThread>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

#include <cerrno>
#include <climits>
#include <optional>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blocktune {

namespace {

// The attributes blocktune (and lsblk, for comparison) reads; the same
// lists as scripts/mksysroot/capture.py.
const char *const kBlockAttrs[] = {"dev", "size", "ro", "removable", "stat", "inflight", "uevent", "hidden",
                                   "alignment_offset", "discard_alignment", "diskseq", "partition", "start",
                                   "capability", "ext_range", "range", "wwid", "nsid", "serial"};
const char *const kQueueAttrs[] = {
    "read_ahead_kb", "scheduler", "nr_requests", "max_sectors_kb", "max_hw_sectors_kb", "rotational",
    "logical_block_size", "physical_block_size", "minimum_io_size", "optimal_io_size", "hw_sector_size",
    "discard_granularity", "discard_max_bytes", "discard_max_hw_bytes", "discard_zeroes_data", "zoned", "dax",
    "write_same_max_bytes", "write_zeroes_max_bytes", "add_random", "nomerges", "rq_affinity", "iostats",
    "wbt_lat_usec", "write_cache", "chunk_sectors", "max_segments", "max_segment_size", "nr_zones",
    "context_readahead"};
const char *const kDeviceAttrs[] = {"model", "vendor", "rev", "wwid", "type", "serial", "firmware_rev",
                                    "transport", "state", "queue_depth", "scsi_level", "timeout", "address",
                                    "cntlid", "numa_node", "queue_count", "sqsize", "device"};
const char *const kPciAttrs[] = {"vendor", "device", "class", "subsystem_vendor", "subsystem_device", "revision",
                                 "irq", "numa_node"};
const char *const kMqAttrs[] = {"cpu_list", "nr_tags", "nr_reserved_tags"};
// uptime right after diskstats: the time of that reading. A recording of
// a recording carries its second reading along (kReplayFiles).
const char *const kProcFiles[] = {"diskstats", "uptime", "partitions", "stat", "interrupts", "version", "mdstat",
                                  "self/mountinfo", "sys/kernel/osrelease", "sys/vm/enable_context_readahead",
                                  "diskstats.2", "uptime.2"};

constexpr qsizetype kMaxAttrBytes = 1 << 20; // /proc/interrupts of a big box; an attribute is a page

/// A recording kept in memory: {"files", "links", "dirs"}, and how many
/// bytes its files hold. (At namespace scope: nested in Recorder, clang
/// finds it not default-constructible inside Recorder's definition, where
/// std::optional asks, because of the member initializer.)
struct SnapshotInMemory
{
    QJsonObject files;
    QJsonObject links;
    QStringList dirs;
    qint64 bytes = 0;
};

class Recorder
{
public:
    Recorder(const SysRoot &root, QString into) : m_root(root), m_into(std::move(into))
    {
        char buf[PATH_MAX];
        const QByteArray base = m_root.isLive() ? QByteArray("/") : m_root.root().toLocal8Bit();
        m_base = ::realpath(base.constData(), buf) ? QByteArray(buf) : base;
        if (!m_base.endsWith('/'))
            m_base += '/';
    }

    SnapshotReport report;

    /// "sys/...", "proc/...", "dev/..." -> the path in the source root.
    QByteArray source(const QByteArray &rel) const
    {
        if (rel.startsWith("sys/"))
            return m_root.sysPath(QByteArrayView(rel).sliced(4));
        if (rel.startsWith("proc/"))
            return m_root.procPath(QByteArrayView(rel).sliced(5));
        return m_root.devPath(QByteArrayView(rel).sliced(4));
    }
    QString target(const QByteArray &rel) const { return m_into + u'/' + QString::fromLocal8Bit(rel); }

    bool isDir(const QByteArray &rel) const
    {
        struct stat st {};
        return ::lstat(source(rel).constData(), &st) == 0 && S_ISDIR(st.st_mode);
    }
    bool isLink(const QByteArray &rel) const
    {
        struct stat st {};
        return ::lstat(source(rel).constData(), &st) == 0 && S_ISLNK(st.st_mode);
    }
    QList<QByteArray> list(const QByteArray &rel) const
    {
        QList<QByteArray> out;
        if (DIR *d = ::opendir(source(rel).constData())) {
            while (const dirent *e = ::readdir(d))
                if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
                    out << QByteArray(e->d_name);
            ::closedir(d);
        }
        std::sort(out.begin(), out.end());
        return out;
    }
    /// The real path of `rel` inside the root, as "sys/devices/...";
    /// empty when it leaves the root.
    QByteArray resolved(const QByteArray &rel) const
    {
        char buf[PATH_MAX];
        if (!::realpath(source(rel).constData(), buf))
            return {};
        const QByteArray real(buf);
        return real.startsWith(m_base) ? real.mid(m_base.size()) : QByteArray();
    }

    /// Where the recording goes instead of a folder (recordSnapshotJson()).
    using InMemory = SnapshotInMemory;
    std::optional<InMemory> m_memory;

    void mkdir(const QByteArray &rel)
    {
        if (m_memory)
            m_memory->dirs << QString::fromLocal8Bit(rel);
        else
            QDir().mkpath(target(rel));
    }

    /// Copies one regular, readable file (an attribute) to `as` (default:
    /// the same place); silent when absent.
    void copy(const QByteArray &rel, QByteArray as = {})
    {
        struct stat st {};
        const QByteArray from = source(rel);
        if (::lstat(from.constData(), &st) != 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0444))
            return;
        const int fd = ::open(from.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0) {
            report.skipped << QStringLiteral("%1: %2").arg(QString::fromLocal8Bit(rel), errnoText(errno));
            return;
        }
        QByteArray data;
        char chunk[4096];
        for (;;) {
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                // Some attributes refuse reads (EIO, EINVAL on a device that
                // went away): recorded as missing, which readers handle.
                report.skipped << QStringLiteral("%1: %2").arg(QString::fromLocal8Bit(rel), errnoText(errno));
                ::close(fd);
                return;
            }
            if (n == 0 || data.size() > kMaxAttrBytes)
                break;
            data.append(chunk, n);
        }
        ::close(fd);
        if (m_memory) {
            m_memory->files.insert(QString::fromLocal8Bit(as.isEmpty() ? rel : as), QString::fromLatin1(data));
            m_memory->bytes += data.size();
            ++report.files;
            return;
        }
        const QString to = target(as.isEmpty() ? rel : as);
        QDir().mkpath(QFileInfo(to).path());
        QFile out(to);
        if (out.open(QIODevice::WriteOnly | QIODevice::Truncate) && out.write(data) == data.size())
            ++report.files;
    }

    /// Writes the link `rel` with the source's link text; returns where it
    /// leads inside the root ("sys/devices/..."), or empty.
    QByteArray link(const QByteArray &rel)
    {
        char buf[PATH_MAX];
        const ssize_t n = ::readlink(source(rel).constData(), buf, sizeof buf - 1);
        if (n <= 0)
            return {};
        const QByteArray text(buf, n);
        if (m_memory) {
            const QString key = QString::fromLocal8Bit(rel);
            if (!m_memory->links.contains(key)) {
                m_memory->links.insert(key, QString::fromLocal8Bit(text));
                ++report.links;
            }
            return resolved(rel);
        }
        const QString to = target(rel);
        QDir().mkpath(QFileInfo(to).path());
        if (!QFileInfo(to).isSymLink() && ::symlink(text.constData(), QFile::encodeName(to).constData()) == 0)
            ++report.links;
        return resolved(rel);
    }

    /// Files and links below `rel`, recursively, no link followed (md/, dm/).
    void copyTree(const QByteArray &rel, int depth = 0)
    {
        if (depth > 4)
            return;
        mkdir(rel);
        for (const QByteArray &name : list(rel)) {
            const QByteArray child = rel + '/' + name;
            if (isLink(child))
                link(child);
            else if (isDir(child))
                copyTree(child, depth + 1);
            else
                copy(child);
        }
    }

    void blockDir(const QByteArray &rel)
    {
        if (rel.isEmpty() || m_seen.contains(rel))
            return;
        m_seen.insert(rel);
        ++report.devices;
        for (const char *a : kBlockAttrs)
            copy(rel + '/' + a);
        const QByteArray queue = rel + "/queue";
        if (isDir(queue)) {
            for (const char *a : kQueueAttrs)
                copy(queue + '/' + a);
            if (isDir(queue + "/iosched"))
                copyTree(queue + "/iosched");
        }
        if (isDir(rel + "/mq"))
            for (const QByteArray &hw : list(rel + "/mq"))
                for (const char *a : kMqAttrs)
                    copy(rel + "/mq/" + hw + '/' + a);
        for (const char *sub : {"md", "dm", "loop"})
            if (isDir(rel + '/' + sub))
                copyTree(rel + '/' + sub);
        for (const char *sub : {"holders", "slaves"}) {
            const QByteArray dir = rel + '/' + sub;
            if (!isDir(dir))
                continue;
            mkdir(dir);
            for (const QByteArray &name : list(dir))
                link(dir + '/' + name);
        }
        if (isLink(rel + "/device"))
            deviceDir(link(rel + "/device"));
        for (const QByteArray &name : list(rel)) {
            const QByteArray child = rel + '/' + name;
            if (!isLink(child) && isDir(child) && QFileInfo::exists(QString::fromLocal8Bit(source(child + "/partition"))))
                blockDir(child);
        }
    }

    void deviceDir(const QByteArray &rel)
    {
        if (rel.isEmpty() || m_seen.contains(rel))
            return;
        m_seen.insert(rel);
        for (const char *a : kDeviceAttrs) {
            const QByteArray p = rel + '/' + a;
            if (isLink(p))
                deviceDir(link(p)); // nvme's "device" names its PCI function
            else
                copy(p);
        }
        // Up to the root: the PCI function's IRQ vectors (the monitor's
        // interrupts per disk).
        static const QRegularExpression pci(QStringLiteral("^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]$"));
        for (QByteArray d = rel; d.startsWith("sys/devices/") && d.count('/') > 2; d = d.left(d.lastIndexOf('/'))) {
            const QByteArray base = d.mid(d.lastIndexOf('/') + 1);
            if (!pci.match(QString::fromLatin1(base)).hasMatch() || m_seen.contains(d))
                continue;
            m_seen.insert(d);
            for (const char *a : kPciAttrs)
                copy(d + '/' + a);
            if (isDir(d + "/msi_irqs")) {
                mkdir(d + "/msi_irqs");
                for (const QByteArray &n : list(d + "/msi_irqs"))
                    copy(d + "/msi_irqs/" + n);
            }
        }
    }

    /// Links below a dev/ directory (udev's by-id, by-path, mapper names).
    void devLinks(const QByteArray &rel, int depth = 0)
    {
        if (depth > 2 || !isDir(rel))
            return;
        for (const QByteArray &name : list(rel)) {
            const QByteArray child = rel + '/' + name;
            if (isLink(child)) {
                if (wanted(linkedName(child)))
                    link(child);
            } else if (isDir(child)) {
                devLinks(child, depth + 1);
            }
        }
    }

    Status run()
    {
        auto layout = m_root.blockLayout();
        if (!layout)
            return layout.error();
        // sys/class/block names every device; sys/block the whole ones.
        for (const char *dir : {"sys/class/block", "sys/block"}) {
            if (!isDir(dir))
                continue;
            mkdir(dir);
            for (const QByteArray &name : list(dir)) {
                if (!wanted(name))
                    continue;
                const QByteArray entry = QByteArray(dir) + '/' + name;
                if (isLink(entry))
                    blockDir(link(entry));
                else if (isDir(entry))
                    blockDir(entry); // a tree that copied sys/block as directories
            }
        }
        if (isDir("sys/dev/block")) {
            mkdir("sys/dev/block");
            for (const QByteArray &name : list("sys/dev/block")) {
                // Recording a few devices: the link's last name says whose
                // it is, one readlink instead of a realpath of every device.
                if (m_only && !wanted(linkedName("sys/dev/block/" + name)))
                    continue;
                if (m_seen.contains(resolved("sys/dev/block/" + name)))
                    link("sys/dev/block/" + name);
            }
        }
        QElapsedTimer sinceCounters;
        sinceCounters.start();
        for (const char *f : kProcFiles)
            copy(QByteArray("proc/") + f);
        devLinks("dev/disk");
        devLinks("dev/mapper");
        if (m_counterGapMs > 0 && m_root.isLive()) {
            // The counters again, so a recording can show one interval's
            // rates (the console's Monitor replays the two readings).
            QThread::msleep(ulong(std::max<qint64>(0, m_counterGapMs - sinceCounters.elapsed())));
            copy("proc/diskstats", "proc/diskstats.2");
            copy("proc/uptime", "proc/uptime.2");
        }
        return {};
    }

    int m_counterGapMs = 0;
    std::optional<QSet<QByteArray>> m_only; ///< the only devices recorded; nullopt: all

    /// `names` as a user gives them (sdb, /dev/sdb, a link below /dev, read
    /// in the root's dev/) as kernel names, with every device they stack
    /// with: a disk's partitions, a partition's disk, holders, slaves, and
    /// theirs. Read from sys/ alone (no scan, no udev): what `get`, `set
    /// --members` and a read test read of a device. Unknown names are left out.
    QSet<QByteArray> stackOf(const QStringList &names) const
    {
        QList<QByteArray> todo;
        for (const QString &user : names) {
            const QByteArray name = user.toLocal8Bit();
            if (!name.startsWith("/dev/")) {
                todo << name;
                continue;
            }
            const QByteArray rel = "dev/" + name.mid(5);
            todo << (isLink(rel) ? linkedName(rel) : name.mid(name.lastIndexOf('/') + 1));
        }
        QSet<QByteArray> seen;
        while (!todo.isEmpty()) {
            const QByteArray name = todo.takeLast();
            if (name.isEmpty() || name.contains('/') || name == "." || name == ".." || seen.contains(name))
                continue;
            QByteArray entry = "sys/class/block/" + name;
            if (!exists(entry))
                entry = "sys/block/" + name;
            if (!exists(entry))
                continue;
            seen.insert(name);
            for (const char *sub : {"/holders", "/slaves"})
                todo << list(entry + sub);
            for (const QByteArray &child : list(entry))
                if (exists(entry + '/' + child + "/partition"))
                    todo << child;
            if (exists(entry + "/partition")) {
                const QByteArray real = resolved(entry);
                const QByteArray disk = real.left(real.lastIndexOf('/'));
                todo << disk.mid(disk.lastIndexOf('/') + 1);
            }
        }
        return seen;
    }

private:
    bool exists(const QByteArray &rel) const { return ::access(source(rel).constData(), F_OK) == 0; }
    bool wanted(const QByteArray &name) const { return !m_only || m_only->contains(name); }
    /// The device a dev/ link leads to ("../../sdb" -> "sdb").
    QByteArray linkedName(const QByteArray &rel) const
    {
        char buf[PATH_MAX];
        const ssize_t n = ::readlink(source(rel).constData(), buf, sizeof buf - 1);
        if (n <= 0)
            return {};
        const QByteArray text(buf, n);
        return text.mid(text.lastIndexOf('/') + 1);
    }

    const SysRoot &m_root;
    QString m_into;
    QByteArray m_base;
    QSet<QByteArray> m_seen;
};

} // namespace

Result<SnapshotReport> recordSnapshot(const SysRoot &root, const QString &into, const SnapshotOptions &options)
{
    if (!QDir().mkpath(into))
        return makeError(EACCES, QStringLiteral("cannot make the snapshot directory %1").arg(into));
    if (!QDir(into).isEmpty())
        return makeError(InvalidArgument, QStringLiteral("snapshot directory %1 is not empty").arg(into));
    Recorder recorder(root, into);
    recorder.m_counterGapMs = options.counterGapMs;
    if (!options.devices.isEmpty())
        recorder.m_only = recorder.stackOf(options.devices);
    if (Status st = recorder.run(); !st)
        return st.error();
    return recorder.report;
}

bool isSnapshotTarball(const QString &path)
{
    return path.endsWith(u".tar.gz") || path.endsWith(u".tgz");
}

Result<SnapshotReport> recordSnapshotTarball(const SysRoot &root, const QString &tarball, const SnapshotOptions &options)
{
    if (!isSnapshotTarball(tarball))
        return makeError(InvalidArgument, QStringLiteral("'%1' does not end in .tar.gz or .tgz").arg(tarball));
    QTemporaryDir scratch;
    if (!scratch.isValid())
        return makeError(EIO, QStringLiteral("cannot make a temporary directory: %1").arg(scratch.errorString()));
    auto report = recordSnapshot(root, scratch.path(), options);
    if (!report)
        return report;
    const QString part = tarball + QStringLiteral(".part");
    QProcess tar;
    QStringList args{QStringLiteral("-czf"), part, QStringLiteral("-C"), scratch.path(), QStringLiteral("--owner=0"),
                     QStringLiteral("--group=0"), QStringLiteral("--numeric-owner")};
    for (const char *top : {"sys", "proc", "dev"})
        if (QFileInfo::exists(scratch.filePath(QString::fromLatin1(top))))
            args << QString::fromLatin1(top);
    tar.start(QStringLiteral("tar"), args);
    if (!tar.waitForStarted(10000))
        return makeError(ENOENT, QStringLiteral("cannot run tar: %1").arg(tar.errorString()));
    tar.waitForFinished(-1);
    if (tar.exitStatus() != QProcess::NormalExit || tar.exitCode() != 0) {
        QFile::remove(part);
        return makeError(EIO, QStringLiteral("tar could not write %1: %2")
                                  .arg(tarball, QString::fromLocal8Bit(tar.readAllStandardError()).trimmed()));
    }
    QFile::remove(tarball);
    if (!QFile::rename(part, tarball))
        return makeError(EIO, QStringLiteral("cannot rename %1 to %2").arg(part, tarball));
    return report;
}

Status unpackSnapshot(const QString &tarball, const QString &dir)
{
    if (!QFileInfo(tarball).isFile())
        return makeError(NotFound, QStringLiteral("%1: no such snapshot file").arg(tarball));
    QProcess tar;
    // GNU tar refuses members with ".." and strips a leading "/" by default.
    tar.start(QStringLiteral("tar"), {QStringLiteral("-xzf"), tarball, QStringLiteral("-C"), dir,
                                      QStringLiteral("--no-same-owner"), QStringLiteral("--no-same-permissions")});
    if (!tar.waitForStarted(10000))
        return makeError(ENOENT, QStringLiteral("cannot run tar: %1").arg(tar.errorString()));
    tar.waitForFinished(-1);
    if (tar.exitStatus() != QProcess::NormalExit || tar.exitCode() != 0)
        return makeError(InvalidArgument, QStringLiteral("%1 is not a blocktune snapshot (tar: %2)")
                                              .arg(tarball, QString::fromLocal8Bit(tar.readAllStandardError()).trimmed().left(300)));
    if (auto tree = SysRoot::openTree(dir); !tree)
        return makeError(InvalidArgument, QStringLiteral("%1 holds no recorded machine: %2").arg(tarball, tree.error().message));
    return {};
}

namespace {

constexpr char kVmSwitch[] = "sys/vm/enable_context_readahead";

bool isQueueFileName(const QString &rel)
{
    const QStringList parts = rel.split(u'/');
    if (parts.size() < 2 || parts.size() > 3 || parts.at(0) != u"queue")
        return false;
    if (parts.size() == 3 && parts.at(1) != u"iosched")
        return false;
    return std::none_of(parts.cbegin(), parts.cend(),
                        [](const QString &p) { return p.isEmpty() || p.startsWith(u'.') || p.contains(u'\\'); });
}

} // namespace

QJsonObject recordQueueFiles(const SysRoot &root, const QStringList &devices)
{
    QJsonObject out;
    for (const QString &name : devices) {
        QJsonObject files;
        if (name.isEmpty()) {
            if (auto v = root.readFile(root.procPath(kVmSwitch), 4096))
                files.insert(QLatin1StringView("proc/") + QLatin1StringView(kVmSwitch), QString::fromLatin1(*v));
            out.insert(QString(), files);
            continue;
        }
        auto dir = root.deviceDirectory(name);
        if (!SysRoot::isPlausibleKernelName(name) || !dir)
            continue;
        const SysDir d = SysDir::open(*dir);
        for (const char *a : kQueueAttrs) {
            const QByteArray rel = QByteArray("queue/") + a;
            if (auto v = d.readRaw(rel.constData()))
                files.insert(QString::fromLatin1(rel), QString::fromLatin1(*v));
        }
        for (const QString &t : d.list("queue/iosched")) {
            const QByteArray rel = "queue/iosched/" + t.toLocal8Bit();
            if (auto v = d.readRaw(rel.constData()))
                files.insert(QString::fromLatin1(rel), QString::fromLatin1(*v));
        }
        out.insert(name, files);
    }
    return out;
}

Status patchQueueFiles(const SysRoot &mirror, const QJsonObject &files)
{
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QJsonObject queue = it.value().toObject();
        QString base;
        if (!it.key().isEmpty()) {
            auto dir = SysRoot::isPlausibleKernelName(it.key()) ? mirror.deviceDirectory(it.key())
                                                                : Result<QByteArray>(makeError(InvalidArgument, QString()));
            if (!dir)
                return makeError(NotFound, QStringLiteral("the mirror has no device '%1'").arg(it.key().left(64)));
            base = QString::fromLocal8Bit(*dir);
            // The scheduler's tunables are the new scheduler's: the old go.
            QDir(base + QStringLiteral("/queue/iosched")).removeRecursively();
        }
        for (auto f = queue.begin(); f != queue.end(); ++f) {
            const bool vm = it.key().isEmpty() && f.key() == QLatin1StringView("proc/") + QLatin1StringView(kVmSwitch);
            if (!vm && !isQueueFileName(f.key()))
                return makeError(InvalidArgument, QStringLiteral("'%1' is not a queue attribute").arg(f.key().left(64)));
            const QString path = vm ? QString::fromLocal8Bit(mirror.procPath(kVmSwitch)) : base + u'/' + f.key();
            QDir().mkpath(QFileInfo(path).absolutePath());
            QFile out(path);
            if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(f.value().toString().toLatin1()) < 0)
                return makeError(EIO, QStringLiteral("cannot write %1: %2").arg(path, out.errorString()));
        }
    }
    return {};
}

namespace {

/// A mirror's path as an agent names it: relative, below sys/, proc/ or
/// dev/, no "." or ".." part, no empty part.
bool isMirrorPath(const QString &rel)
{
    const QStringList parts = rel.split(u'/');
    if (parts.size() < 2 || !(parts.at(0) == u"sys" || parts.at(0) == u"proc" || parts.at(0) == u"dev"))
        return false;
    return std::none_of(parts.cbegin(), parts.cend(), [](const QString &p) {
        return p.isEmpty() || p == u"." || p == u".." || p.contains(QChar(0));
    });
}

/// True when a folder on the way to `rel` inside `mirrorDir` is a link:
/// writing there would land where the link leads, maybe outside the mirror.
bool crossesLink(const QString &mirrorDir, const QString &rel)
{
    QString path = mirrorDir;
    const QStringList parts = rel.split(u'/');
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        path += u'/' + parts.at(i);
        if (QFileInfo(path).isSymLink())
            return true;
    }
    return false;
}

} // namespace

Result<QJsonObject> recordSnapshotJson(const SysRoot &root, const SnapshotOptions &options, qint64 maxBytes)
{
    Recorder recorder(root, QString());
    recorder.m_counterGapMs = options.counterGapMs;
    if (!options.devices.isEmpty())
        recorder.m_only = recorder.stackOf(options.devices);
    recorder.m_memory.emplace();
    if (Status st = recorder.run(); !st)
        return st.error();
    if (recorder.m_memory->bytes > maxBytes)
        return makeError(E2BIG, QStringLiteral("the devices' files hold %1 bytes, more than %2")
                                    .arg(recorder.m_memory->bytes)
                                    .arg(maxBytes));
    const SnapshotReport &r = recorder.report;
    return QJsonObject{{QStringLiteral("files"), recorder.m_memory->files},
                       {QStringLiteral("links"), recorder.m_memory->links},
                       {QStringLiteral("dirs"), QJsonArray::fromStringList(recorder.m_memory->dirs)},
                       {QStringLiteral("devices"), r.devices},
                       {QStringLiteral("skipped"), QJsonArray::fromStringList(r.skipped)}};
}

Status writeSnapshotJson(const QString &mirrorDir, const QJsonObject &json)
{
    const QJsonObject files = json.value(u"files").toObject();
    const QJsonObject links = json.value(u"links").toObject();
    const QJsonArray dirs = json.value(u"dirs").toArray();
    // Everything checked before anything is written.
    for (const QJsonValue &d : dirs)
        if (!isMirrorPath(d.toString()) || crossesLink(mirrorDir, d.toString() + QStringLiteral("/x")))
            return makeError(InvalidArgument, QStringLiteral("'%1' is not a folder of a snapshot").arg(d.toString().left(64)));
    for (auto it = files.begin(); it != files.end(); ++it)
        if (!isMirrorPath(it.key()) || !it.value().isString())
            return makeError(InvalidArgument, QStringLiteral("'%1' is not a file of a snapshot").arg(it.key().left(64)));
    for (auto it = links.begin(); it != links.end(); ++it)
        if (!isMirrorPath(it.key()) || !it.value().isString() || it.value().toString().isEmpty()
            || it.value().toString().startsWith(u'/') || it.value().toString().contains(QChar(0)))
            return makeError(InvalidArgument, QStringLiteral("'%1' is not a link of a snapshot").arg(it.key().left(64)));
    // A snapshot keeps files at their real paths: none is below one of its links.
    const auto belowALink = [&links](const QString &rel) {
        for (qsizetype cut = rel.indexOf(u'/'); cut > 0; cut = rel.indexOf(u'/', cut + 1))
            if (links.contains(rel.left(cut)))
                return true;
        return false;
    };
    QStringList paths = files.keys() + links.keys();
    for (const QJsonValue &d : dirs)
        paths << d.toString();
    for (const QString &rel : std::as_const(paths))
        if (belowALink(rel))
            return makeError(InvalidArgument, QStringLiteral("'%1' goes through a link").arg(rel.left(64)));
    for (const QJsonValue &d : dirs)
        QDir().mkpath(mirrorDir + u'/' + d.toString());
    // Files first, at the real paths a snapshot keeps them (no folder on
    // the way is a link), then the links: none of them is written through.
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QString path = mirrorDir + u'/' + it.key();
        if (crossesLink(mirrorDir, it.key()) || QFileInfo(path).isSymLink())
            return makeError(InvalidArgument, QStringLiteral("'%1' goes through a link").arg(it.key().left(64)));
        QDir().mkpath(QFileInfo(path).path());
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(it.value().toString().toLatin1()) < 0)
            return makeError(EIO, QStringLiteral("cannot write %1: %2").arg(path, out.errorString()));
    }
    for (auto it = links.begin(); it != links.end(); ++it) {
        const QString path = mirrorDir + u'/' + it.key();
        if (QFileInfo(path).isSymLink())
            continue;
        if (crossesLink(mirrorDir, it.key()))
            return makeError(InvalidArgument, QStringLiteral("'%1' goes through a link").arg(it.key().left(64)));
        QDir().mkpath(QFileInfo(path).path());
        if (::symlink(QFile::encodeName(it.value().toString()).constData(), QFile::encodeName(path).constData()) != 0)
            return makeError(errno, QStringLiteral("cannot write the link %1: %2").arg(path, errnoText(errno)));
    }
    return {};
}

} // namespace blocktune
