#pragma once

#include "result.h"
#include "safeopen.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <optional>

#include <sys/types.h>

namespace blocktune {

/// "none [mq-deadline] kyber bfq" -> active "mq-deadline", all four listed.
struct BracketChoice
{
    QString active;
    QStringList choices;
};

/// Parsers for the text formats sysfs and procfs use; pure functions so
/// tests can feed them garbage.
namespace sysfs {
std::optional<quint64> parseU64(QByteArrayView text);
std::optional<qint64> parseI64(QByteArrayView text);
/// Accepts blk-mq ("none [mq-deadline]"), legacy ("noop deadline [cfq]")
/// and bio-based devices that print a bare "none".
std::optional<BracketChoice> parseBracketChoice(QByteArrayView text);
QByteArray stripNewline(QByteArray text);
} // namespace sysfs

/// An open directory under the root (a device's sysfs directory, usually);
/// every read is relative to it, so a device's twenty attributes cost one
/// path walk instead of twenty. One that SysRoot::openDevice() or the
/// attribute readers and writers opened follows no link below itself
/// (followsNoLinks()): what root reads or writes there stays there.
class SysDir final
{
public:
    SysDir() = default;
    ~SysDir();
    SysDir(SysDir &&other) noexcept;
    SysDir &operator=(SysDir &&other) noexcept;
    SysDir(const SysDir &) = delete;
    SysDir &operator=(const SysDir &) = delete;

    static SysDir open(const QByteArray &absolutePath);

    bool isValid() const { return m_fd >= 0; }
    /// True when nothing below this directory is reached through a link
    /// (safeopen::openBeneath): the root-side readers and writers.
    bool followsNoLinks() const { return m_beneath; }
    /// Why open() failed (an errno value), 0 when it did not.
    int openError() const { return m_openError; }
    const QByteArray &path() const { return m_path; }

    /// Raw contents, at most 64 KiB; nullopt when missing or unreadable,
    /// with the errno value in *error when asked (ENOENT: missing).
    std::optional<QByteArray> readRaw(const char *relative, int *error = nullptr) const;
    /// Contents with the trailing newline stripped.
    std::optional<QString> readString(const char *relative) const;
    std::optional<quint64> readU64(const char *relative) const;
    std::optional<BracketChoice> readBracketChoice(const char *relative) const;
    bool exists(const char *relative) const;
    bool isDirectory(const char *relative) const;
    /// Target of a symlink, as written (usually relative).
    std::optional<QByteArray> readLink(const char *relative) const;
    /// Entry names of a subdirectory ("" = this one), without . and ..
    QStringList list(const char *relative = "") const;
    SysDir sub(const char *relative) const;
    /// The type of what `relative` names, itself (a link is S_IFLNK);
    /// nullopt when it does not exist or cannot be reached.
    std::optional<mode_t> fileType(const char *relative) const;

    /// Contents of `relative`, at most `maxBytes`; the error names the path.
    Result<QByteArray> read(const char *relative, qsizetype maxBytes = 1 << 24) const;
    /// Writes one attribute file below this directory: one line, at most
    /// 4 KiB, to a regular file that already exists, never through a link.
    /// Returns what the file reads back afterwards, which is what the
    /// kernel kept.
    Result<QString> writeAttribute(const char *relative, const QString &value) const;

private:
    friend class SysRoot;
    int m_fd = -1;
    int m_openError = 0;
    bool m_beneath = false;
    QByteArray m_path;
};

/// How a tree lists its block devices.
enum class BlockLayout {
    /// sys/class/block names every device, partitions included: every
    /// kernel since 2.6.25, and the trees scripts/mk-sysroot.py makes.
    ClassBlock,
    /// Only sys/block: whole devices, each partition a subdirectory of its
    /// disk, stacking in holders/ and slaves/ (older kernels, and recorded
    /// machines that copied sys/block and sys/dev/block but not sys/class).
    SysBlock,
};

/// The one way to reach /sys, /proc and /dev. A non-empty root makes every
/// path land in a recorded tree, as `lsblk --sysroot` does.
class SysRoot final
{
public:
    SysRoot() = default; ///< the live machine
    explicit SysRoot(const QString &root);

    /// The root a `--sysroot DIR` option names, checked once for every
    /// program: DIR must hold a sys/ directory that lists block devices
    /// (blockLayout()). An empty DIR is the live machine. The error says
    /// what was expected, ready to follow "PROGRAM: --sysroot ".
    static Result<SysRoot> openTree(const QString &dir);

    /// sys/class/block where the tree has it, else sys/block; an error
    /// naming both when there is neither (not a Linux sysfs tree).
    Result<BlockLayout> blockLayout() const;

    bool isLive() const { return m_root.isEmpty(); }
    QString root() const { return QString::fromLocal8Bit(m_root); }

    QByteArray sysPath(QByteArrayView relative) const;  ///< ROOT/sys/relative
    QByteArray procPath(QByteArrayView relative) const; ///< ROOT/proc/relative
    QByteArray devPath(QByteArrayView name) const;      ///< ROOT/dev/name
    /// A /dev path as it resolves in this root ("/dev/disk/by-id/wwn-0x50..."
    /// -> "/dev/sdb"): every symlink is followed inside ROOT (an absolute
    /// target means ROOT/target, ".." stops at ROOT), so an open tree never
    /// consults the live /dev. The last component may be missing (a tree
    /// has links but no device nodes). Empty when the path does not
    /// resolve (a missing directory, a symlink loop) or is not absolute.
    QString resolveInRoot(const QString &absolutePath) const;
    /// The same paths for display (no root prefix shown when live).
    QString displayPath(const QByteArray &absolute) const;

    SysDir openSys(QByteArrayView relative) const { return SysDir::open(sysPath(relative)); }

    Result<QByteArray> readFile(const QByteArray &absolutePath, qsizetype maxBytes = 1 << 24) const;
    Result<QString> readString(const QByteArray &absolutePath) const;
    Result<quint64> readU64(const QByteArray &absolutePath) const;
    Result<BracketChoice> readBracketChoice(const QByteArray &absolutePath) const;

    /// Kernel name -> the path that names the device, not resolved:
    /// ROOT/sys/class/block/NAME, or in a tree without class/block
    /// ROOT/sys/block/NAME (a whole device) or ROOT/sys/block/DISK/NAME (a
    /// partition). On the live machine the class link keeps following a
    /// device that is re-created under the same name.
    Result<QByteArray> deviceEntry(const QString &kernelName) const;
    /// Kernel name -> real sysfs device directory (deviceEntry() resolved),
    /// or an error saying the device does not exist.
    Result<QByteArray> deviceDirectory(const QString &kernelName) const;
    /// The device's sysfs directory opened once, the way sysfs needs (the
    /// class/block link followed), and refused unless that open landed
    /// below ROOT/sys/devices, where the kernel keeps device directories.
    /// Nothing below it follows a link (SysDir::followsNoLinks()). The
    /// root-side road: the helper's get and set, restore's identity check.
    Result<SysDir> openDevice(const QString &kernelName) const;
    /// The root folder itself (/ or the tree), opened and checked to be the
    /// folder this SysRoot was made for: the base of safeopen::openBeneath()
    /// for files a tree keeps outside sys and proc (etc/udev/rules.d).
    Result<UniqueFd> openRootFolder() const;

    /// Writes one attribute file: one line, at most 4 KiB, the last path
    /// component not followed if it is a symlink, the file must already exist
    /// below ROOT/sys or ROOT/proc/sys (where its folder was opened, not
    /// where the path seemed to lead). Returns what the file reads back
    /// afterwards, which is what the kernel kept.
    Result<QString> writeAttribute(const QByteArray &absolutePath, const QString &value) const;

    /// True when `name` could be a kernel block device name: no '/', no
    /// "..", no NUL or whitespace, not empty, short.
    static bool isPlausibleKernelName(const QString &name);

    /// The folder of `absolutePath` opened (links on the way followed, as
    /// sysfs has them), refused unless it landed at or below one of `under`
    /// (relative to the root: "sys", "proc/sys"). Nothing below it follows
    /// a link.
    Result<SysDir> openFolderOf(const QByteArray &absolutePath, std::initializer_list<const char *> under) const;

private:

    QByteArray m_root;
    /// m_root with every link resolved once, when the SysRoot was made:
    /// where opens must land, whatever the tree's links say later.
    QByteArray m_realRoot;
};

} // namespace blocktune
