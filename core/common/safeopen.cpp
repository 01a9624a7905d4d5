#include "safeopen.h"

#include "tr.h"

#include <QStringList>

#include <pwd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <vector>

namespace blocktune {

UniqueFd::~UniqueFd()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

UniqueFd &UniqueFd::operator=(UniqueFd &&other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = other.release();
    }
    return *this;
}

namespace safeopen {

namespace {

std::atomic<bool> g_forceWalk{false};
std::atomic<int> g_openat2{-1}; // -1 not asked yet, 0 missing, 1 there

// "a//b/./c" -> a, b, c. ".." stays, for the callers to refuse or handle.
QList<QByteArray> componentsOf(QByteArrayView path)
{
    QList<QByteArray> out;
    for (const QByteArray &part : path.toByteArray().split('/'))
        if (!part.isEmpty() && part != ".")
            out << part;
    return out;
}

int openat2Beneath(int dirFd, const char *path, int flags, mode_t mode)
{
    open_how how {};
    how.flags = quint64(unsigned(flags));
    how.mode = (flags & O_CREAT) ? mode : 0; // openat2 refuses a mode it would not use
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    // EAGAIN: a rename raced the lookup somewhere below dirFd; the kernel
    // asks to try again rather than risk an escape.
    for (int attempt = 0;; ++attempt) {
        const long fd = ::syscall(SYS_openat2, dirFd, path, &how, sizeof how);
        if (fd >= 0 || (errno != EINTR && errno != EAGAIN) || attempt == 16)
            return int(fd);
    }
}

// The same refusal without openat2: every folder on the way opened with
// O_NOFOLLOW (O_PATH: search permission is enough), the last too.
int walkBeneath(int dirFd, const QList<QByteArray> &parts, int flags, mode_t mode)
{
    UniqueFd here;
    int at = dirFd;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        const int fd = ::openat(at, parts[i].constData(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            return -1;
        here = UniqueFd(fd);
        at = fd;
    }
    const int fd = ::openat(at, parts.constLast().constData(), flags | O_NOFOLLOW, mode);
    if (fd >= 0 && (flags & O_PATH)) {
        // O_PATH|O_NOFOLLOW hands out the link itself instead of refusing it.
        struct stat st {};
        if (::fstat(fd, &st) != 0 || S_ISLNK(st.st_mode)) {
            ::close(fd);
            errno = ELOOP;
            return -1;
        }
    }
    return fd;
}

// After a refusal: which prefix of `parts` is a symbolic link, for the
// message; empty when none is (the failure had another reason).
QByteArray firstLinkOn(int dirFd, const QList<QByteArray> &parts)
{
    UniqueFd here;
    int at = dirFd;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        struct stat st {};
        if (::fstatat(at, parts[i].constData(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return {};
        if (S_ISLNK(st.st_mode))
            return parts.mid(0, i + 1).join('/');
        const int fd = ::openat(at, parts[i].constData(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            return {};
        here = UniqueFd(fd);
        at = fd;
    }
    return {};
}

bool ownedByUs(uid_t uid)
{
    return uid == 0 || uid == ::geteuid();
}

// Only root or this user can add, remove or rename entries here.
bool writableOnlyByUs(const struct stat &st)
{
    return ownedByUs(st.st_uid) && !(st.st_mode & 0022);
}

// Entering `child` from `parent` cannot land in someone else's folder:
// nobody else could have renamed it there. In a sticky folder (/tmp) only
// an entry's owner may rename it.
bool safeToEnter(const struct stat &parent, const struct stat &child)
{
    return writableOnlyByUs(parent) || ((parent.st_mode & S_ISVTX) && ownedByUs(child.st_uid));
}

QString shownPath(const QList<QByteArray> &walked)
{
    return QString::fromLocal8Bit('/' + walked.join('/'));
}

} // namespace

void setMethod(Method method)
{
    g_forceWalk = method == Method::Walk;
}

bool kernelHasOpenat2()
{
    int known = g_openat2.load();
    if (known < 0) {
        const int fd = openat2Beneath(AT_FDCWD, ".", O_PATH | O_CLOEXEC, 0);
        known = fd >= 0 ? 1 : (errno == ENOSYS ? 0 : 1);
        if (fd >= 0)
            ::close(fd);
        g_openat2 = known;
    }
    return known == 1;
}

Result<UniqueFd> openBeneath(int dirFd, QByteArrayView relative, int flags, mode_t mode)
{
    const QList<QByteArray> parts = componentsOf(relative);
    if (relative.startsWith('/') || parts.contains(QByteArray("..")))
        return makeError(EXDEV, CommonText::tr("'%1' leads out of its folder").arg(QString::fromLocal8Bit(relative)));
    if (parts.isEmpty())
        return makeError(ENOENT, errnoText(ENOENT));
    flags |= O_CLOEXEC;
    const QByteArray joined = parts.join('/');
    const int fd = !g_forceWalk && kernelHasOpenat2() ? openat2Beneath(dirFd, joined.constData(), flags, mode)
                                                      : walkBeneath(dirFd, parts, flags, mode);
    if (fd >= 0)
        return UniqueFd(fd);
    const int err = errno;
    if (err == ELOOP || err == ENOTDIR || err == EXDEV) {
        if (const QByteArray link = firstLinkOn(dirFd, parts); !link.isEmpty())
            return makeError(ELOOP, CommonText::tr("%1 is a symbolic link, which is not followed here")
                                        .arg(QString::fromLocal8Bit(link)));
    }
    return makeError(err, errnoText(err));
}

Result<UniqueFd> openFolder(const QByteArray &absolutePath, Trust trust)
{
    const QString shown = QString::fromLocal8Bit(absolutePath);
    if (!absolutePath.startsWith('/'))
        return makeError(InvalidArgument, CommonText::tr("%1 is not an absolute path").arg(shown));
    std::vector<UniqueFd> stack;
    stack.emplace_back(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    QList<QByteArray> walked; // the folders stack holds, for messages
    QList<QByteArray> todo = componentsOf(absolutePath);
    int links = 0;
    while (!todo.isEmpty()) {
        const QByteArray part = todo.takeFirst();
        if (part == "..") { // every folder on the stack is real: its parent is the one below it
            if (stack.size() > 1) {
                stack.pop_back();
                walked.removeLast();
            }
            continue;
        }
        const int parent = stack.back().get();
        struct stat parentSt {};
        if (::fstat(parent, &parentSt) != 0)
            return makeError(errno, CommonText::tr("cannot open %1: %2").arg(shown, errnoText(errno)));
        const QString here = shownPath(walked + QList<QByteArray>{part});
        UniqueFd child(::openat(parent, part.constData(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (child.isValid()) {
            struct stat childSt {};
            if (trust == Trust::WholePath && (::fstat(child.get(), &childSt) != 0 || !safeToEnter(parentSt, childSt)))
                return makeError(Refused, CommonText::tr("%1 lies in %2, which users other than root can change: "
                                                         "use a folder whose every parent only root can write")
                                              .arg(here, shownPath(walked)));
            stack.push_back(std::move(child));
            walked.append(part);
            continue;
        }
        const int err = errno;
        struct stat st {};
        if (::fstatat(parent, part.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode))
            return makeError(err, CommonText::tr("cannot open %1: %2").arg(here, errnoText(err)));
        if (todo.isEmpty())
            return makeError(Refused, CommonText::tr("%1 is a symbolic link: name the folder it leads to").arg(here));
        if (!writableOnlyByUs(parentSt))
            return makeError(Refused, CommonText::tr("%1 is a symbolic link in a folder that users other than root "
                                                     "can write: not followed")
                                          .arg(here));
        char target[PATH_MAX];
        const ssize_t n = ::readlinkat(parent, part.constData(), target, sizeof target - 1);
        if (n <= 0 || ++links > 40) // 40: the kernel's MAXSYMLINKS
            return makeError(ELOOP, CommonText::tr("cannot open %1: %2").arg(here, errnoText(ELOOP)));
        if (target[0] == '/') {
            stack.resize(1);
            walked.clear();
        }
        todo = componentsOf(QByteArrayView(target, n)) + todo;
    }
    // O_PATH was enough on the way; the folder itself is read and fsynced.
    UniqueFd folder(::openat(stack.back().get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!folder.isValid())
        return makeError(errno, CommonText::tr("cannot open %1: %2").arg(shown, errnoText(errno)));
    return folder;
}

Status checkFolderOwner(int dirFd, const QList<uid_t> &owners, const QString &shown, const QString &what)
{
    struct stat st {};
    if (::fstat(dirFd, &st) != 0)
        return makeError(errno, CommonText::tr("cannot use %1 %2: %3").arg(what, shown, errnoText(errno)));
    if (S_ISDIR(st.st_mode) && owners.contains(st.st_uid) && !(st.st_mode & 0022))
        return {};
    auto name = [](uid_t uid) {
        const passwd *pw = ::getpwuid(uid);
        return pw ? QStringLiteral("%1 (uid %2)").arg(QString::fromLocal8Bit(pw->pw_name)).arg(uid)
                  : QStringLiteral("uid %1").arg(uid);
    };
    QStringList allowed;
    for (uid_t uid : owners)
        if (!allowed.contains(name(uid)))
            allowed << name(uid);
    return makeError(Refused, CommonText::tr("%1 %2 is not a private directory: it must be owned by %3 and not be "
                                             "writable by group or others (it is owned by %4, mode %5)")
                                  .arg(what, shown, allowed.join(CommonText::tr(" or ")), name(st.st_uid))
                                  .arg(st.st_mode & 07777, 4, 8, QLatin1Char('0')));
}

QByteArray pathOf(int fd)
{
    char buffer[PATH_MAX];
    const QByteArray link = "/proc/self/fd/" + QByteArray::number(fd);
    const ssize_t n = ::readlink(link.constData(), buffer, sizeof buffer - 1);
    return n > 0 ? QByteArray(buffer, n) : QByteArray();
}

bool isAtOrBelow(QByteArrayView path, QByteArrayView folder)
{
    if (folder.endsWith('/'))
        folder.chop(1);
    return path == folder || (path.startsWith(folder) && path.size() > folder.size() && path[folder.size()] == '/');
}

namespace {

// Every byte out, or the errno value of the failure.
int writeWhole(int fd, QByteArrayView data)
{
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        done += n;
    }
    return 0;
}

} // namespace

Status replaceFile(int dirFd, const QByteArray &name, const QByteArray &tempName, QByteArrayView data, mode_t mode,
                   const QString &shown)
{
    struct stat st {};
    if (::fstatat(dirFd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
        return makeError(Refused, S_ISLNK(st.st_mode)
                                      ? CommonText::tr("%1 is a symbolic link: refusing to write through it or over "
                                                       "it (remove it, and find out who made it)").arg(shown)
                                      : CommonText::tr("%1 is not a regular file: refusing to replace it").arg(shown));
    const int fd = ::openat(dirFd, tempName.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return makeError(errno, CommonText::tr("cannot write %1: %2").arg(shown, errnoText(errno)));
    int err = writeWhole(fd, data);
    // fchmod: the umask must not decide who may read it; fsync: the data is
    // on disk before the name points at it; close: NFS reports late errors there.
    if (!err && (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0))
        err = errno;
    if (::close(fd) != 0 && !err && errno != EINTR)
        err = errno;
    if (!err && ::renameat(dirFd, tempName.constData(), dirFd, name.constData()) != 0)
        err = errno;
    if (err) {
        ::unlinkat(dirFd, tempName.constData(), 0);
        return makeError(err, CommonText::tr("cannot write %1: %2; the previous file is unchanged")
                                  .arg(shown, errnoText(err)));
    }
    if (::fsync(dirFd) != 0)
        return makeError(errno, CommonText::tr("%1 was written, but its folder could not be synced: %2")
                                    .arg(shown, errnoText(errno)));
    return {};
}

} // namespace safeopen
} // namespace blocktune
