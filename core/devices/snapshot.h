#pragma once
// Machine snapshots: the part of /sys, /proc and /dev that blocktune reads,
// copied into a tree that --sysroot opens (and packed as FILE.tar.gz).
// Attributes and symlinks only: no device is opened, no file outside those
// trees is read, and /dev holds udev's links, never a device node.

#include "common/result.h"
#include "common/sysroot.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace blocktune {

struct SnapshotReport
{
    int devices = 0;   ///< block devices recorded (partitions included)
    int files = 0;     ///< attribute and proc files copied
    int links = 0;     ///< symlinks written
    QStringList skipped; ///< what could not be read, with why (one line each)
};

struct SnapshotOptions
{
    /// On the live machine: read proc/diskstats and proc/uptime again this
    /// long after the first reading, into proc/diskstats.2 and
    /// proc/uptime.2, so the recording holds one interval of the counters
    /// (the console's Monitor replays it). 0: one reading.
    int counterGapMs = 0;
    /// The only block devices to record, as a user names them (sdb,
    /// /dev/sdb, a link below /dev), with every device they stack with
    /// (partitions, a partition's disk, holders, slaves): a host's agent
    /// records these for a CLI command that names its devices. Empty: every
    /// block device. proc/ is recorded whole either way, dev/ links only
    /// those leading to the recorded devices; a name that is no device
    /// records nothing of it.
    QStringList devices;
};

/// Copies what blocktune reads of `root` (the live machine or a recorded
/// tree) into the directory `into` (made if missing; must be empty): every
/// block device's directory attributes (queue/, iosched/, mq/, md/, dm/,
/// loop/, holders/, slaves/, partitions), the device/ chain up to its PCI
/// function (identity, msi_irqs/), the sys/class/block, sys/block and
/// sys/dev/block links, proc/ diskstats, partitions, stat, interrupts,
/// version, mdstat, uptime, self/mountinfo, sys/kernel/osrelease,
/// sys/vm/enable_context_readahead, and the symlinks of dev/disk/ and
/// dev/mapper/.
Result<SnapshotReport> recordSnapshot(const SysRoot &root, const QString &into, const SnapshotOptions &options = {});

/// recordSnapshot() into a temporary directory, then `tar -czf` into
/// `tarball` (written to TARBALL.part and renamed when complete).
Result<SnapshotReport> recordSnapshotTarball(const SysRoot &root, const QString &tarball,
                                             const SnapshotOptions &options = {});

/// True for a name --sysroot unpacks first: *.tar.gz, *.tgz.
bool isSnapshotTarball(const QString &path);
/// Unpacks a snapshot tarball into `dir` (tar -xzf, no owners kept) and
/// checks that it holds a tree (sys/class/block or sys/block).
Status unpackSnapshot(const QString &tarball, const QString &dir);

/// What a snapshot holds of the queues of `devices` (kernel names of whole
/// disks; "" for the machine-wide proc/sys/vm switch), read now:
/// {"DEVICE": {"queue/read_ahead_kb": "128\n", ..., "queue/iosched/X": ...}}.
/// A host's agent sends it after a change so the client's mirror follows
/// without a whole snapshot.
QJsonObject recordQueueFiles(const SysRoot &root, const QStringList &devices);
/// Writes such files into `mirror` (a recorded tree of that machine): each
/// named queue's attributes, its iosched/ replaced whole. Refuses a name or
/// a path that would leave the queue's directory.
Status patchQueueFiles(const SysRoot &mirror, const QJsonObject &files);

/// recordSnapshot() kept in memory, for a mirror that wants a few devices
/// without a tarball: {"files": {"sys/...": "text"}, "links":
/// {"sys/class/block/sdb": "../../devices/..."}, "dirs": [the folders made],
/// "devices": N, "skipped": [...]}, file contents as Latin-1 (bytes kept).
/// Fails when the files hold more than `maxBytes`.
Result<QJsonObject> recordSnapshotJson(const SysRoot &root, const SnapshotOptions &options, qint64 maxBytes);
/// Writes such JSON into `mirrorDir` (a recorded tree of that machine),
/// beside what it holds: files are overwritten, a link already there is
/// kept. Refuses a path that is not relative, holds "." or "..", or is not
/// below sys/, proc/ or dev/, and a link whose text is absolute; nothing is
/// written then.
Status writeSnapshotJson(const QString &mirrorDir, const QJsonObject &json);

} // namespace blocktune
