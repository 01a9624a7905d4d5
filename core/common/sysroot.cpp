#include "sysroot.h"

#include "common/tr.h"
#include "safeopen.h"

#include <QDir>

#include <cerrno>
#include <climits>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blocktune {

QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

QString errnoDetail(int err)
{
    return QStringLiteral("%1 (errno %2)").arg(errnoText(err)).arg(err);
}

namespace {

// read() until EOF or the cap; sysfs attributes are one page at most.
std::optional<QByteArray> readAllFd(int fd, qsizetype maxBytes)
{
    QByteArray out;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return std::nullopt;
        }
        if (n == 0)
            break;
        out.append(buffer, n);
        if (out.size() >= maxBytes) {
            out.truncate(maxBytes);
            break;
        }
    }
    return out;
}

bool isDirectoryPath(const QByteArray &path)
{
    struct stat st {};
    return ::stat(path.constData(), &st) == 0 && S_ISDIR(st.st_mode);
}

// stat() follows links: a dangling or looping entry leads nowhere.
bool leadsSomewhere(const QByteArray &path)
{
    struct stat st {};
    return ::stat(path.constData(), &st) == 0;
}

} // namespace

namespace sysfs {

QByteArray stripNewline(QByteArray text)
{
    while (!text.isEmpty() && (text.endsWith('\n') || text.endsWith('\0')))
        text.chop(1);
    return text;
}

std::optional<quint64> parseU64(QByteArrayView text)
{
    text = text.trimmed();
    if (text.isEmpty() || text.size() > 20)
        return std::nullopt;
    quint64 value = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        const quint64 digit = quint64(c - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return std::nullopt;
        value = value * 10 + digit;
    }
    return value;
}

std::optional<qint64> parseI64(QByteArrayView text)
{
    text = text.trimmed();
    bool negative = false;
    if (text.startsWith('-')) {
        negative = true;
        text = text.sliced(1);
    }
    const auto magnitude = parseU64(text);
    if (!magnitude || *magnitude > quint64(INT64_MAX))
        return std::nullopt;
    return negative ? -qint64(*magnitude) : qint64(*magnitude);
}

std::optional<BracketChoice> parseBracketChoice(QByteArrayView text)
{
    BracketChoice choice;
    int bracketed = 0;
    for (QByteArray word : text.toByteArray().trimmed().split(' ')) {
        if (word.isEmpty())
            continue;
        if (word.startsWith('[') && word.endsWith(']') && word.size() > 2) {
            word = word.mid(1, word.size() - 2);
            if (word.contains('[') || word.contains(']'))
                return std::nullopt;
            choice.active = QString::fromLatin1(word);
            ++bracketed;
        } else if (word.contains('[') || word.contains(']')) {
            return std::nullopt;
        }
        choice.choices.append(QString::fromLatin1(word));
    }
    if (choice.choices.isEmpty() || bracketed > 1)
        return std::nullopt;
    // bio-based devices (md, most dm) print a bare "none": that is the
    // active choice, the only one.
    if (bracketed == 0) {
        if (choice.choices.size() != 1)
            return std::nullopt;
        choice.active = choice.choices.constFirst();
    }
    return choice;
}

} // namespace sysfs

// ---- SysDir ---------------------------------------------------------------

SysDir::~SysDir()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

SysDir::SysDir(SysDir &&other) noexcept
    : m_fd(other.m_fd), m_openError(other.m_openError), m_beneath(other.m_beneath), m_path(std::move(other.m_path))
{
    other.m_fd = -1;
}

SysDir &SysDir::operator=(SysDir &&other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = other.m_fd;
        m_openError = other.m_openError;
        m_beneath = other.m_beneath;
        m_path = std::move(other.m_path);
        other.m_fd = -1;
    }
    return *this;
}

SysDir SysDir::open(const QByteArray &absolutePath)
{
    SysDir dir;
    dir.m_fd = ::open(absolutePath.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    dir.m_openError = dir.m_fd < 0 ? errno : 0;
    dir.m_path = absolutePath;
    return dir;
}

std::optional<QByteArray> SysDir::readRaw(const char *relative, int *error) const
{
    if (m_fd < 0) {
        if (error)
            *error = m_openError ? m_openError : EBADF;
        return std::nullopt;
    }
    // O_NONBLOCK: a named pipe in a recorded tree must not hang the open
    // (sysfs and procfs reads ignore the flag).
    UniqueFd fd;
    if (m_beneath) {
        auto opened = safeopen::openBeneath(m_fd, relative, O_RDONLY | O_NONBLOCK);
        if (!opened) {
            if (error)
                *error = opened.error().code;
            return std::nullopt;
        }
        fd = std::move(*opened);
    } else {
        fd = UniqueFd(::openat(m_fd, relative, O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    }
    if (!fd.isValid()) {
        if (error)
            *error = errno;
        return std::nullopt;
    }
    // A sysfs attribute arrives whole in one read (show() fills one page),
    // and a short read of a regular file is its end: skip the EOF read.
    char buffer[4096];
    ssize_t n;
    do {
        n = ::read(fd.get(), buffer, sizeof buffer);
    } while (n < 0 && errno == EINTR);
    std::optional<QByteArray> data;
    if (n >= 0 && size_t(n) < sizeof buffer) {
        data = QByteArray(buffer, n);
    } else if (n >= 0) {
        auto rest = readAllFd(fd.get(), 64 * 1024 - n);
        if (rest)
            data = QByteArray(buffer, n) + *rest;
    }
    if (!data && error)
        *error = errno;
    return data;
}

std::optional<QString> SysDir::readString(const char *relative) const
{
    auto raw = readRaw(relative);
    if (!raw)
        return std::nullopt;
    return QString::fromUtf8(sysfs::stripNewline(std::move(*raw)));
}

std::optional<quint64> SysDir::readU64(const char *relative) const
{
    auto raw = readRaw(relative);
    return raw ? sysfs::parseU64(*raw) : std::nullopt;
}

std::optional<BracketChoice> SysDir::readBracketChoice(const char *relative) const
{
    auto raw = readRaw(relative);
    return raw ? sysfs::parseBracketChoice(*raw) : std::nullopt;
}

bool SysDir::exists(const char *relative) const
{
    if (m_beneath)
        return fileType(relative).has_value();
    return m_fd >= 0 && ::faccessat(m_fd, relative, F_OK, 0) == 0;
}

bool SysDir::isDirectory(const char *relative) const
{
    if (m_beneath)
        return m_fd >= 0 && safeopen::openBeneath(m_fd, relative, O_PATH | O_DIRECTORY).ok();
    struct stat st {};
    return m_fd >= 0 && ::fstatat(m_fd, relative, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

namespace {

// The folder of `relative` ("" = dir itself) and its last component: the
// folder reached without links when `beneath`.
UniqueFd parentOf(int dirFd, bool beneath, const char *relative, QByteArray *last)
{
    const QByteArray path(relative);
    const qsizetype slash = path.lastIndexOf('/');
    *last = path.mid(slash + 1);
    const QByteArray folder = slash < 0 ? QByteArray(".") : path.left(slash);
    if (beneath && folder != ".") {
        auto opened = safeopen::openBeneath(dirFd, folder, O_PATH | O_DIRECTORY);
        return opened ? std::move(*opened) : UniqueFd();
    }
    return UniqueFd(::openat(dirFd, folder.constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
}

} // namespace

std::optional<QByteArray> SysDir::readLink(const char *relative) const
{
    if (m_fd < 0)
        return std::nullopt;
    QByteArray last;
    const UniqueFd parent = parentOf(m_fd, m_beneath, relative, &last);
    char buffer[PATH_MAX];
    const ssize_t n = parent.isValid() ? ::readlinkat(parent.get(), last.constData(), buffer, sizeof buffer - 1) : -1;
    if (n <= 0)
        return std::nullopt;
    return QByteArray(buffer, n);
}

std::optional<mode_t> SysDir::fileType(const char *relative) const
{
    if (m_fd < 0)
        return std::nullopt;
    QByteArray last;
    const UniqueFd parent = parentOf(m_fd, m_beneath, relative, &last);
    struct stat st {};
    if (!parent.isValid() || ::fstatat(parent.get(), last.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        return std::nullopt;
    return st.st_mode & S_IFMT;
}

QStringList SysDir::list(const char *relative) const
{
    QStringList names;
    if (m_fd < 0)
        return names;
    int fd = -1;
    if (!*relative)
        fd = ::openat(m_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    else if (!m_beneath)
        fd = ::openat(m_fd, relative, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    else if (auto opened = safeopen::openBeneath(m_fd, relative, O_RDONLY | O_DIRECTORY))
        fd = opened->release();
    if (fd < 0)
        return names;
    DIR *dir = ::fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return names;
    }
    while (const dirent *entry = ::readdir(dir)) {
        if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0)
            continue;
        names.append(QString::fromLocal8Bit(entry->d_name));
    }
    ::closedir(dir);
    names.sort();
    return names;
}

SysDir SysDir::sub(const char *relative) const
{
    SysDir dir;
    dir.m_beneath = m_beneath;
    if (m_fd >= 0 && m_beneath) {
        if (auto opened = safeopen::openBeneath(m_fd, relative, O_RDONLY | O_DIRECTORY))
            dir.m_fd = opened->release();
    } else if (m_fd >= 0) {
        dir.m_fd = ::openat(m_fd, relative, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    dir.m_path = m_path + '/' + relative;
    return dir;
}

Result<QByteArray> SysDir::read(const char *relative, qsizetype maxBytes) const
{
    const QString shown = QString::fromLocal8Bit(m_path + '/' + relative);
    if (m_fd < 0)
        return makeError(m_openError ? m_openError : EBADF,
                         CommonText::tr("cannot open %1: %2").arg(shown, errnoText(m_openError ? m_openError : EBADF)));
    // O_NONBLOCK: a named pipe in a recorded tree must not hang the open.
    auto fd = safeopen::openBeneath(m_fd, relative, O_RDONLY | O_NONBLOCK);
    if (!fd)
        return makeError(fd.error().code, CommonText::tr("cannot open %1: %2").arg(shown, fd.error().message));
    auto data = readAllFd(fd->get(), maxBytes);
    if (!data)
        return makeError(errno, CommonText::tr("cannot read %1: %2").arg(shown, errnoText(errno)));
    return std::move(*data);
}

Result<QString> SysDir::writeAttribute(const char *relative, const QString &value) const
{
    const QByteArray payload = value.toUtf8();
    const QString shown = QString::fromLocal8Bit(m_path + '/' + relative);
    if (payload.size() > 4096 || payload.contains('\n') || payload.contains('\0'))
        return makeError(InvalidArgument,
                         CommonText::tr("refusing to write to %1: the value must be one line "
                                        "of at most 4096 bytes").arg(shown));
    if (m_fd < 0)
        return makeError(NotFound, CommonText::tr("%1 does not exist").arg(shown));
    // No O_CREAT: only an attribute the kernel already offers can be written.
    // O_TRUNC is a no-op on sysfs and /proc/sys (as with `echo > attr`), but
    // in a recorded tree of plain files a shorter value must not leave the
    // tail of a longer one behind ("256" over "8192\n" reading "2562").
    // O_NONBLOCK: a named pipe planted in a tree must not hang the open.
    auto fd = safeopen::openBeneath(m_fd, relative, O_WRONLY | O_TRUNC | O_NONBLOCK);
    if (!fd) {
        if (fd.error().code == ELOOP)
            return makeError(Refused, CommonText::tr("refusing to write %1: %2").arg(shown, fd.error().message));
        return makeError(fd.error().code, CommonText::tr("cannot open %1 for writing: %2").arg(shown, fd.error().message));
    }
    struct stat st {};
    if (::fstat(fd->get(), &st) != 0 || !S_ISREG(st.st_mode)) // sysfs and procfs attributes are regular files
        return makeError(Refused, CommonText::tr("refusing to write %1: not a regular file").arg(shown));
    const ssize_t written = ::write(fd->get(), payload.constData(), size_t(payload.size()));
    const int writeErr = written < 0 ? errno : EIO;
    if (written != payload.size())
        return makeError(writeErr, CommonText::tr("writing '%1' to %2 failed: %3").arg(value, shown, errnoText(writeErr)));
    // Re-read: the kernel rounds and clamps, and what it kept is the truth.
    auto kept = read(relative, 64 * 1024);
    return kept ? QString::fromUtf8(sysfs::stripNewline(std::move(*kept))) : value; // write-only: nothing to learn
}

// ---- SysRoot --------------------------------------------------------------

SysRoot::SysRoot(const QString &root)
{
    QString cleaned = root;
    while (cleaned.size() > 1 && cleaned.endsWith(u'/'))
        cleaned.chop(1);
    if (cleaned == u"/")
        cleaned.clear();
    m_root = cleaned.toLocal8Bit();
    // Resolved once: a tree whose links are changed later cannot move where
    // opens must land (a missing tree keeps its name and finds nothing).
    char resolved[PATH_MAX];
    m_realRoot = m_root.isEmpty() || !::realpath(m_root.constData(), resolved) ? m_root : QByteArray(resolved);
    if (m_realRoot == "/")
        m_realRoot.clear();
}

Result<SysRoot> SysRoot::openTree(const QString &dir)
{
    SysRoot root(dir);
    if (root.isLive())
        return root;
    if (!isDirectoryPath(root.sysPath("")))
        return makeError(NotFound, CommonText::tr("%1: no sys/ directory there (expected a tree made by "
                                                  "scripts/mk-sysroot.py or a copy of /sys and /proc)")
                                       .arg(dir));
    if (auto layout = root.blockLayout(); !layout)
        return makeError(layout.error().code, dir + u": " + layout.error().message);
    return root;
}

Result<BlockLayout> SysRoot::blockLayout() const
{
    if (isDirectoryPath(sysPath("class/block")))
        return BlockLayout::ClassBlock;
    if (isDirectoryPath(sysPath("block")))
        return BlockLayout::SysBlock;
    return makeError(NotFound, CommonText::tr("not a Linux sysfs tree: neither %1 nor %2 exists")
                                   .arg(displayPath(sysPath("class/block")), displayPath(sysPath("block"))));
}

QByteArray SysRoot::sysPath(QByteArrayView relative) const
{
    return m_root + "/sys/" + relative;
}

QByteArray SysRoot::procPath(QByteArrayView relative) const
{
    return m_root + "/proc/" + relative;
}

QByteArray SysRoot::devPath(QByteArrayView name) const
{
    return m_root + "/dev/" + name;
}

QString SysRoot::resolveInRoot(const QString &absolutePath) const
{
    if (!absolutePath.startsWith(u'/'))
        return {};
    // Components still to walk, front first; what is resolved so far.
    QList<QByteArray> todo = absolutePath.toLocal8Bit().split('/');
    QList<QByteArray> done;
    int links = 0;
    while (!todo.isEmpty()) {
        const QByteArray part = todo.takeFirst();
        if (part.isEmpty() || part == ".")
            continue;
        if (part == "..") {
            if (!done.isEmpty())
                done.removeLast();
            continue;
        }
        const QByteArray here = m_root + '/' + (done.isEmpty() ? QByteArray() : done.join('/') + '/') + part;
        struct stat st {};
        if (::lstat(here.constData(), &st) != 0) {
            if (todo.isEmpty() && errno == ENOENT) { // the device node a tree does not hold
                done.append(part);
                break;
            }
            return {};
        }
        if (!S_ISLNK(st.st_mode)) {
            done.append(part);
            continue;
        }
        if (++links > 40) // the kernel's limit (MAXSYMLINKS): a loop
            return {};
        char target[PATH_MAX];
        const ssize_t n = ::readlink(here.constData(), target, sizeof target - 1);
        if (n <= 0)
            return {};
        const QByteArray text(target, n);
        if (text.startsWith('/'))
            done.clear();
        QList<QByteArray> more = text.split('/');
        todo = more + todo;
    }
    return QString::fromLocal8Bit('/' + done.join('/'));
}

QString SysRoot::displayPath(const QByteArray &absolute) const
{
    return QString::fromLocal8Bit(absolute);
}

Result<SysDir> SysRoot::openFolderOf(const QByteArray &absolutePath, std::initializer_list<const char *> under) const
{
    const qsizetype slash = absolutePath.lastIndexOf('/');
    const QByteArray folder = absolutePath.left(qMax<qsizetype>(slash, 1));
    SysDir dir = SysDir::open(folder);
    if (!dir.isValid())
        return makeError(dir.openError(), CommonText::tr("cannot open %1: %2")
                                              .arg(displayPath(absolutePath), errnoText(dir.openError())));
    dir.m_beneath = true;
    // Where the open landed, not where the path seemed to lead: a link
    // swapped in on the way (a tree's queue/ -> /etc) shows here.
    const QByteArray landed = safeopen::pathOf(dir.m_fd);
    for (const char *place : under)
        if (safeopen::isAtOrBelow(landed, QByteArray(m_realRoot + '/' + place)))
            return dir;
    QStringList places;
    for (const char *place : under)
        places << displayPath(m_root + '/' + place);
    return makeError(Refused, CommonText::tr("refusing %1: its folder is %2, not below %3")
                                  .arg(displayPath(absolutePath), QString::fromLocal8Bit(landed),
                                       places.join(CommonText::tr(" or "))));
}

Result<QByteArray> SysRoot::readFile(const QByteArray &absolutePath, qsizetype maxBytes) const
{
    auto dir = openFolderOf(absolutePath, {"sys", "proc"});
    if (!dir)
        return dir.error();
    return dir->read(absolutePath.mid(absolutePath.lastIndexOf('/') + 1).constData(), maxBytes);
}

Result<QString> SysRoot::readString(const QByteArray &absolutePath) const
{
    auto data = readFile(absolutePath, 64 * 1024);
    if (!data)
        return data.error();
    return QString::fromUtf8(sysfs::stripNewline(std::move(*data)));
}

Result<quint64> SysRoot::readU64(const QByteArray &absolutePath) const
{
    auto data = readFile(absolutePath, 64);
    if (!data)
        return data.error();
    if (auto value = sysfs::parseU64(*data))
        return *value;
    return makeError(InvalidArgument, CommonText::tr("%1 does not hold a number: '%2'")
                                          .arg(displayPath(absolutePath),
                                               QString::fromUtf8(sysfs::stripNewline(*data))));
}

Result<BracketChoice> SysRoot::readBracketChoice(const QByteArray &absolutePath) const
{
    auto data = readFile(absolutePath, 4096);
    if (!data)
        return data.error();
    if (auto choice = sysfs::parseBracketChoice(*data))
        return *choice;
    return makeError(InvalidArgument, CommonText::tr("%1 is not a list of choices: '%2'")
                                          .arg(displayPath(absolutePath),
                                               QString::fromUtf8(sysfs::stripNewline(*data))));
}

bool SysRoot::isPlausibleKernelName(const QString &name)
{
    if (name.isEmpty() || name.size() > 64 || name == u"." || name == u"..")
        return false;
    for (QChar c : name) {
        if (c == u'/' || c.isNull() || c.isSpace() || c.unicode() < 0x20 || c.unicode() > 0x7e)
            return false;
    }
    return !name.contains(u"..");
}

Result<QByteArray> SysRoot::deviceEntry(const QString &kernelName) const
{
    if (!isPlausibleKernelName(kernelName))
        return makeError(InvalidArgument,
                         CommonText::tr("'%1' is not a block device name (a kernel name such as "
                                        "sda, sda1, nvme0n1, md0, dm-0 or loop0)")
                             .arg(kernelName));
    const QByteArray name = kernelName.toLocal8Bit();
    const QByteArray classEntry = sysPath(QByteArray("class/block/" + name));
    if (leadsSomewhere(classEntry))
        return classEntry;
    // Where class/block exists it lists every device; only a tree without
    // it is looked up the way lsblk does: sys/block, then the partition
    // directories under their disk (sda1 in sys/block/sda/, nvme0n1p2 in
    // sys/block/nvme0n1/).
    if (!isDirectoryPath(sysPath("class/block"))) {
        const QByteArray whole = sysPath(QByteArray("block/" + name));
        if (leadsSomewhere(whole))
            return whole;
        for (const QString &disk : openSys("block").list()) {
            if (kernelName.size() <= disk.size() || !kernelName.startsWith(disk))
                continue;
            const QByteArray part = sysPath(QByteArray("block/" + disk.toLocal8Bit() + '/' + name));
            if (leadsSomewhere(part + "/partition"))
                return part;
        }
    }
    return makeError(NotFound, CommonText::tr("no block device named '%1'").arg(kernelName));
}

Result<QByteArray> SysRoot::deviceDirectory(const QString &kernelName) const
{
    auto entry = deviceEntry(kernelName);
    if (!entry)
        return entry.error();
    char resolved[PATH_MAX];
    if (!::realpath(entry->constData(), resolved))
        return makeError(NotFound, CommonText::tr("no block device named '%1'").arg(kernelName));
    return QByteArray(resolved);
}

Result<QString> SysRoot::writeAttribute(const QByteArray &absolutePath, const QString &value) const
{
    // The folder may be reached through sysfs links (class/block/X); the
    // attribute itself is opened below it without following one.
    auto dir = openFolderOf(absolutePath, {"sys", "proc/sys"});
    if (!dir) {
        if (dir.error().code == ENOENT)
            return makeError(NotFound, CommonText::tr("%1 does not exist").arg(displayPath(absolutePath)));
        return dir.error();
    }
    return dir->writeAttribute(absolutePath.mid(absolutePath.lastIndexOf('/') + 1).constData(), value);
}

Result<SysDir> SysRoot::openDevice(const QString &kernelName) const
{
    auto entry = deviceEntry(kernelName);
    if (!entry)
        return entry.error();
    SysDir dir = SysDir::open(*entry);
    if (!dir.isValid())
        return makeError(NotFound, CommonText::tr("no block device named '%1'").arg(kernelName));
    // Opened once; where it landed decides, and everything below it is
    // reached through this descriptor without following a link.
    const QByteArray landed = safeopen::pathOf(dir.m_fd);
    const QByteArray devices = m_realRoot + "/sys/devices";
    if (!safeopen::isAtOrBelow(landed, devices) || landed == devices)
        return makeError(Refused, CommonText::tr("'%1' does not lead to a device directory under sysfs").arg(kernelName));
    dir.m_beneath = true;
    dir.m_path = landed;
    return dir;
}

Result<UniqueFd> SysRoot::openRootFolder() const
{
    const QByteArray path = m_realRoot.isEmpty() ? QByteArray("/") : m_realRoot;
    UniqueFd fd(::open(path.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd.isValid())
        return makeError(errno, CommonText::tr("cannot open %1: %2").arg(QString::fromLocal8Bit(path), errnoText(errno)));
    // The tree's folder may have been swapped for a link since it was named.
    if (safeopen::pathOf(fd.get()) != path)
        return makeError(Refused, CommonText::tr("%1 is no longer the folder it was (now %2)")
                                      .arg(QString::fromLocal8Bit(path), QString::fromLocal8Bit(safeopen::pathOf(fd.get()))));
    return fd;
}

} // namespace blocktune
