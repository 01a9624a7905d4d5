#pragma once

#include "result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

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
/// path walk instead of twenty.
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

private:
    int m_fd = -1;
    int m_openError = 0;
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

    /// Writes one attribute file: one line, at most 4 KiB, the last path
    /// component not followed if it is a symlink, the file must already exist
    /// below ROOT/sys or ROOT/proc/sys. Returns what the file reads back
    /// afterwards, which is what the kernel kept.
    Result<QString> writeAttribute(const QByteArray &absolutePath, const QString &value) const;

    /// True when `name` could be a kernel block device name: no '/', no
    /// "..", no NUL or whitespace, not empty, short.
    static bool isPlausibleKernelName(const QString &name);

private:
    QByteArray m_root;
};

} // namespace blocktune
