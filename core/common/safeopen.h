#pragma once
// Opening files without following links: the one way blocktune reaches a
// file it reads or writes as root where someone else could change the path
// between a check and the open (a recorded tree a user owns, the textfile
// folder the prometheus user owns, rules.d, the journal folder, the
// history). Every function here opens once and checks what it opened; none
// checks a path and then opens it again.
//
//     auto dir = safeopen::openFolder("/var/lib/prometheus/node-exporter");
//     safeopen::checkFolderOwner(dir->get(), {0, prometheusUid}, ...);
//     safeopen::replaceFile(dir->get(), "blocktune.prom", ...);

#include "result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <sys/types.h>

namespace blocktune {

/// An owned file descriptor, closed when it goes.
class UniqueFd final
{
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : m_fd(fd) {}
    ~UniqueFd();
    UniqueFd(UniqueFd &&other) noexcept : m_fd(other.release()) {}
    UniqueFd &operator=(UniqueFd &&other) noexcept;
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;

    int get() const { return m_fd; }
    bool isValid() const { return m_fd >= 0; }
    int release()
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }

private:
    int m_fd = -1;
};

namespace safeopen {

/// How openBeneath() resolves a path. openat2(2) with RESOLVE_NO_SYMLINKS |
/// RESOLVE_BENEATH came with Linux 5.6; before that (or under a seccomp
/// filter that answers ENOSYS) each component is opened with openat and
/// O_NOFOLLOW in turn. Both refuse the same paths.
enum class Method { Automatic, Walk };
/// For tests: force the walk, or go back to openat2 where the kernel has it.
void setMethod(Method method);
/// Whether this kernel answers openat2 (asked once).
bool kernelHasOpenat2();

/// Opens `relative` below the folder `dirFd`: no component may be a
/// symbolic link (the last one included), none may be "..", and it must
/// not be absolute. `flags` as for openat(2); O_CLOEXEC is added. The
/// error's code is the errno value (ELOOP for a link) and its message
/// names the component that was a link, ready to follow "cannot open X: ".
Result<UniqueFd> openBeneath(int dirFd, QByteArrayView relative, int flags, mode_t mode = 0);

/// Who may have made the folders on the way to one that openFolder() opens.
enum class Trust {
    /// A symbolic link on the way is followed only where no one but root or
    /// this user could have made it: in a folder owned by one of them that
    /// group and others cannot write. The folder itself is never a link.
    Links,
    /// Besides, every folder on the way is entered from such a folder (or
    /// from a sticky one, /tmp, when the folder entered is root's or this
    /// user's): nobody else could rename one aside and put theirs there.
    WholePath,
};

/// An absolute folder opened as a directory (O_RDONLY, so it can be
/// fsynced and listed), walked from "/" one component at a time under
/// `trust`. Errors name the component and the reason.
Result<UniqueFd> openFolder(const QByteArray &absolutePath, Trust trust = Trust::Links);

/// The folder `dirFd` must be owned by one of `owners` and not be writable
/// by group or others: the journal's folder, the textfile folder and the
/// history's share this rule. `shown` names the folder in the message,
/// `what` says what it is for ("the journal directory").
Status checkFolderOwner(int dirFd, const QList<uid_t> &owners, const QString &shown, const QString &what);

/// Where the open file `fd` is now, as the kernel names it
/// (/proc/self/fd/N); empty when that cannot be read.
QByteArray pathOf(int fd);
/// True when `path` is `folder` or lies below it ("/a/b" is below "/a",
/// "/ab" is not).
bool isAtOrBelow(QByteArrayView path, QByteArrayView folder);

/// Writes `data` as `name` in the folder `dirFd`, whole or not at all: a
/// new `tempName` made there with O_CREAT|O_EXCL|O_NOFOLLOW, every write,
/// the fsync and the close checked, then renamed over `name` and the folder
/// fsynced. A symbolic link (or anything but a regular file) at `name` is
/// refused, naming `shown`; on any failure the temporary file is removed
/// and the old `name` is as it was.
Status replaceFile(int dirFd, const QByteArray &name, const QByteArray &tempName, QByteArrayView data, mode_t mode,
                   const QString &shown);

} // namespace safeopen
} // namespace blocktune
