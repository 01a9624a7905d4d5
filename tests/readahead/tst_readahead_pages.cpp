// The readahead probe's page columns on the live kernel, on loop devices of
// this test (their files in memory, /dev/shm, so reading them reads nothing
// ahead on the disk that holds a file):
//  - dd (buffered, bs=64K) of a 256 MiB loop at read_ahead_kb 1024: about
//    256 async windows of 1 MiB, window p50 = 1024 KiB, at least 95 % of the
//    pages read ahead used;
//  - an ext4 filesystem made on the test's own loop, its files read with cat:
//    counted for that loop device, nothing for the bdev pseudo-filesystem
//    (0:3) nor for the disk of / (vda here);
//  - in both, the pages read ahead plus the pages read on demand agree with
//    the sectors /proc/diskstats counted for the loop within 5 %.
//
// Where "read on demand" comes from (mm/filemap.c, mm/readahead.c, 6.18):
// every page a buffered read brings in enters the page cache through
// __filemap_add_folio, which fires mm_filemap_add_to_page_cache (s_dev, i_ino,
// index, order). A miss calls page_cache_sync_ra, whose window starts at the
// missed index: the pages the reader asked for are the first pages of the
// sync window, and the probe counts them among the pages read ahead (as the
// founding table's "size" does). What enters the cache outside every window
// is read on demand: filemap_create_folio when readahead brought nothing,
// filemap_read_folio of a folio that is not uptodate, and a filesystem's
// metadata read through its device's buffer cache (ext4's inode table,
// directory and extent blocks: sb_bread on the bdev inode, s_dev 0:3 with
// i_ino = the device). The probe follows only pages inside windows, so the
// test counts every page added to the loop's two page caches (the
// filesystem's, s_dev = the loop; the raw device's, s_dev 0:3 and i_ino =
// the loop) with bpftrace on that tracepoint during the same run; read on
// demand = added - read ahead, and read ahead may never exceed added.
#include "bpftrace_referee.h"
#include "common/counts.h"
#include "devices/devicemodel.h"
#include "readahead/readahead.h"
#include "readaheadloop.h"
#include "testloop.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

constexpr quint64 kReadAheadKiB = 1024;
constexpr quint64 kPageKiB = 4;

/// Sectors read (512 B) of `name`, /proc/diskstats' sixth column.
quint64 sectorsRead(const QString &name)
{
    QFile f(QStringLiteral("/proc/diskstats"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() > 5 && fields[2] == name.toLatin1())
            return fields[5].toULongLong();
    }
    return 0;
}

/// bpftrace's count of the pages added to the page cache of the loop whose
/// kernel dev_t is `kernelDev`: its filesystem's files (s_dev = the loop)
/// and the raw device's (the bdev inode: s_dev 0:3, i_ino = the loop).
QString addedPagesProgram(quint64 kernelDev)
{
    return QStringLiteral("tracepoint:filemap:mm_filemap_add_to_page_cache /args->s_dev == %1 || "
                          "(args->s_dev == 3 && args->i_ino == %1)/ { @added = sum(1 << args->order); }")
        .arg(kernelDev);
}

quint64 kernelDevOf(quint64 number)
{
    return (quint64(majorOf(number)) << 20) | minorOf(number);
}

/// The device of the filesystem that holds `path` (vda for / here).
quint64 deviceOfPath(const char *path)
{
    struct stat st {};
    if (::stat(path, &st) != 0)
        return 0;
    return deviceNumber(::major(st.st_dev), ::minor(st.st_dev));
}

QString describe(const ReadaheadFigures &f)
{
    return QStringLiteral("windows %1, read ahead %2, used %3, wasted %4, untracked %5")
        .arg(f.windows)
        .arg(f.pagesReadAhead)
        .arg(f.pagesUsed)
        .arg(f.pagesWasted)
        .arg(f.pagesUntracked);
}

} // namespace

#define REQUIRE_ROOT_BPF_AND_BPFTRACE()                                                              \
    do {                                                                                             \
        REQUIRE_ROOT_AND_BPF();                                                                      \
        if (!Bpftrace::available()) {                                                                \
            if (rootRequired())                                                                      \
                QFAIL("no /usr/bin/bpftrace: install Debian's bpftrace (scripts/bootstrap.sh does)"); \
            QSKIP("no /usr/bin/bpftrace: install Debian's bpftrace (scripts/bootstrap.sh does)");    \
        }                                                                                            \
    } while (false)

class TestReadaheadPages : public QObject
{
    Q_OBJECT

private:
    /// A buffered loop device of this test over a file in memory, at
    /// kReadAheadKiB, its readahead put back before it is detached.
    struct Loop
    {
        LoopDevice device;
        QString original;
        Loop(qint64 bytes, const QByteArray &fill)
            : device(bytes, false, fill, true)
        {
            if (!device.isValid())
                return;
            original = queueAttr(device.name(), "read_ahead_kb");
            setQueueAttr(device.name(), "read_ahead_kb", QString::number(kReadAheadKiB));
        }
        ~Loop()
        {
            if (device.isAttached() && !original.isEmpty())
                setQueueAttr(device.name(), "read_ahead_kb", original);
        }
        Q_DISABLE_COPY_MOVE(Loop)
    };

    /// What one run counted for a loop: the probe's delta, bpftrace's pages
    /// added to its page cache, diskstats' pages read.
    struct Counted
    {
        ReadaheadCountersMap delta;
        quint64 added = 0;
        quint64 diskPages = 0;
    };

    /// Runs `workload` with the probe and the referee loaded; false (and a
    /// failed QVERIFY) when something around it failed.
    template<typename Work>
    /// Counts `workload` with the probe and bpftrace together. On failure
    /// `why` names the step that failed (with bpftrace's words).
    static bool countDuring(ReadaheadSource &probe, const QString &loopName, quint64 number, Work workload, Counted *out,
                            QString *why)
    {
        Bpftrace referee;
        if (!referee.start(addedPagesProgram(kernelDevOf(number)))) {
            *why = u"bpftrace did not attach in 3 minutes: "_qs + QString::fromUtf8(referee.said());
            return false;
        }
        auto before = probe.snapshot();
        const quint64 sectorsBefore = sectorsRead(loopName);
        if (!before) {
            *why = u"the probe's first snapshot failed: "_qs + before.error().message;
            return false;
        }
        if (!workload()) {
            *why = u"the workload failed"_qs;
            return false;
        }
        auto after = probe.snapshot();
        const quint64 sectorsAfter = sectorsRead(loopName);
        if (!after) {
            *why = u"the probe's second snapshot failed: "_qs + after.error().message;
            return false;
        }
        if (!referee.stop()) {
            *why = u"bpftrace did not end after SIGINT: "_qs + QString::fromUtf8(referee.said());
            return false;
        }
        out->delta = readaheadDelta(before->devices, after->devices);
        out->added = referee.value(QStringLiteral("added"));
        out->diskPages = (sectorsAfter - sectorsBefore) / (kPageKiB * 2);
        return true;
    }

    /// Read ahead + read on demand (added - read ahead) against diskstats.
    static void checkAgainstDiskstats(const ReadaheadFigures &loop, const Counted &c)
    {
        qInfo("pages: read ahead %llu, added to the page cache %llu (read on demand %lld), diskstats %llu",
              loop.pagesReadAhead, c.added, qint64(c.added) - qint64(loop.pagesReadAhead), c.diskPages);
        QVERIFY(c.diskPages > 0);
        // The probe counts only pages it saw added, inside a window.
        QVERIFY2(loop.pagesReadAhead <= c.added, qPrintable(describe(loop)));
        const quint64 onDemand = c.added - loop.pagesReadAhead;
        const quint64 both = loop.pagesReadAhead + onDemand;
        const quint64 gap = both > c.diskPages ? both - c.diskPages : c.diskPages - both;
        QVERIFY2(gap * 20 <= c.diskPages,
                 qPrintable(QStringLiteral("read ahead %1 + on demand %2 against diskstats' %3 pages")
                                .arg(loop.pagesReadAhead)
                                .arg(onDemand)
                                .arg(c.diskPages)));
    }

private slots:
    void ddOfARawLoopUsesWhatItReadsAhead()
    {
        REQUIRE_ROOT_BPF_AND_BPFTRACE();
        const Tracefs tracefs;
        QVERIFY2(tracefs.error.isEmpty(), qPrintable(tracefs.error));
        constexpr qint64 kBytes = qint64(256) << 20;
        Loop loop(kBytes, knownContents());
        QVERIFY(loop.device.isValid());
        QCOMPARE(readAhead(loop.device.name()), kReadAheadKiB);
        const quint64 number = loopNumber(loop.device.name());
        QVERIFY(number != 0);
        auto probe = ReadaheadProbe::load();
        QVERIFY2(probe, probe ? "" : qPrintable(probe.error().message));
        QVERIFY(dropCache(loop.device.path()));

        Counted c;
        const QString path = loop.device.path();
        QString why;
        const bool counted = countDuring(**probe, loop.device.name(), number, [&path] {
            return run(QStringLiteral("dd"), {u"if="_qs + path, u"of=/dev/null"_qs, u"bs=64K"_qs, u"status=none"_qs})
                       .exitCode
                   == 0;
        }, &c, &why);
        QVERIFY2(counted, qPrintable(why));
        const DeviceReadaheadCounters counters = c.delta.value(number);
        const ReadaheadFigures all = readaheadFigures(counters);
        const quint64 async = counters.of(ReadaheadKind::Async).windows;
        qInfo("%s: async windows %llu, %s", qPrintable(loop.device.name()), async, qPrintable(describe(all)));
        // 256 MiB in 1 MiB windows, once the window has grown to the cap
        // (this kernel: 68 for 64 MiB, 132 for 128 MiB).
        QVERIFY2(async >= 240 && async <= 280, qPrintable(QString::number(async)));
        QVERIFY(all.sizeP50KiB);
        QCOMPARE(*all.sizeP50KiB, kReadAheadKiB);
        // dd read every page once, right after it was read ahead.
        QVERIFY2(all.pagesReadAhead > 0 && all.pagesUsed * 100 >= all.pagesReadAhead * 95, qPrintable(describe(all)));
        // A raw device's sequential read reads everything through windows:
        // what the probe counts read ahead is (nearly) all the loop read.
        QVERIFY2(all.pagesReadAhead * 100 >= c.diskPages * 95,
                 qPrintable(QStringLiteral("%1 of diskstats' %2").arg(describe(all)).arg(c.diskPages)));
        checkAgainstDiskstats(all, c);
    }

    void ext4FilesAreCountedForTheirLoop()
    {
        REQUIRE_ROOT_BPF_AND_BPFTRACE();
        const Tracefs tracefs;
        QVERIFY2(tracefs.error.isEmpty(), qPrintable(tracefs.error));
        constexpr qint64 kBytes = qint64(128) << 20;
        constexpr int kFiles = 4;
        constexpr qint64 kFileBytes = qint64(16) << 20;
        Loop loop(kBytes, {});
        QVERIFY(loop.device.isValid());
        const QString dev = loop.device.path();
        // mkfs on this test's loop only: its path, checked to be ours.
        QVERIFY(loop.device.isAttached());
        const ProcessResult mkfs = run(QStringLiteral("mkfs.ext4"),
                                       {u"-q"_qs, u"-F"_qs, u"-E"_qs, u"lazy_itable_init=0,lazy_journal_init=0"_qs, dev});
        QVERIFY2(mkfs.exitCode == 0, mkfs.err.constData());
        QTemporaryDir mountPoint;
        QVERIFY(mountPoint.isValid());
        const QString dir = mountPoint.path();
        // Unmounted on every path, before the loop is detached (declared after it).
        bool mounted = false;
        auto unmount = qScopeGuard([&mounted, &dir] {
            if (mounted && run(QStringLiteral("umount"), {dir}).exitCode != 0)
                run(QStringLiteral("umount"), {u"-l"_qs, dir});
        });
        const auto mountIt = [&](bool readOnly) {
            QStringList args;
            if (readOnly)
                args << u"-o"_qs << u"ro"_qs;
            args << dev << dir;
            mounted = run(QStringLiteral("mount"), args).exitCode == 0;
            return mounted;
        };
        QVERIFY(mountIt(false));
        const QByteArray contents = knownContents();
        for (int i = 0; i < kFiles; ++i) {
            QFile f(QDir(dir).filePath(QStringLiteral("file%1").arg(i)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (qint64 written = 0; written < kFileBytes; written += contents.size())
                QCOMPARE(f.write(contents), qint64(contents.size()));
        }
        // Unmounted and mounted again: nothing of the files is cached, and
        // the loop's own cache is dropped too.
        QCOMPARE(run(QStringLiteral("umount"), {dir}).exitCode, 0);
        mounted = false;
        QVERIFY(dropCache(dev));
        QVERIFY(mountIt(true));

        const quint64 number = loopNumber(loop.device.name());
        QVERIFY(number != 0);
        const quint64 root = deviceOfPath("/");
        QVERIFY(root != 0 && root != number);
        auto probe = ReadaheadProbe::load();
        QVERIFY2(probe, probe ? "" : qPrintable(probe.error().message));
        Counted c;
        QStringList files;
        for (int i = 0; i < kFiles; ++i)
            files << QDir(dir).filePath(QStringLiteral("file%1").arg(i));
        QString why;
        const bool counted = countDuring(**probe, loop.device.name(), number, [&files] {
            const ProcessResult r = run(QStringLiteral("sh"), QStringList{u"-c"_qs, u"cat \"$@\" >/dev/null"_qs, u"cat"_qs} + files);
            return r.exitCode == 0;
        }, &c, &why);
        QVERIFY2(counted, qPrintable(why));

        const ReadaheadFigures onLoop = readaheadFigures(c.delta.value(number));
        const ReadaheadFigures onBdevFs = readaheadFigures(c.delta.value(deviceNumber(0, 3)));
        const ReadaheadFigures onRoot = readaheadFigures(c.delta.value(root));
        const quint64 filePages = quint64(kFiles) * kFileBytes / 1024 / kPageKiB;
        qInfo("%s: %s; 0:3: %s; %u:%u (/): %s", qPrintable(loop.device.name()), qPrintable(describe(onLoop)),
              qPrintable(describe(onBdevFs)), majorOf(root), minorOf(root), qPrintable(describe(onRoot)));
        // The files' reads are the loop's: nearly all their pages, in windows.
        QVERIFY2(onLoop.windows > 0 && onLoop.pagesReadAhead * 100 >= filePages * 95, qPrintable(describe(onLoop)));
        QVERIFY2(onLoop.pagesUsed * 100 >= onLoop.pagesReadAhead * 95, qPrintable(describe(onLoop)));
        // Not the bdev pseudo-filesystem's (nothing ever is: a raw device's
        // read is its device's).
        QCOMPARE(onBdevFs.windows, quint64(0));
        QCOMPARE(onBdevFs.pagesReadAhead, quint64(0));
        // Not the root filesystem's: the loop's file is in memory, so nothing
        // of this read reads ahead there. The machine's other work may read
        // on / meanwhile, but not a whole set of our files' size.
        QVERIFY2(onRoot.pagesReadAhead < filePages, qPrintable(describe(onRoot)));
        checkAgainstDiskstats(onLoop, c);
    }
};

QTEST_GUILESS_MAIN(TestReadaheadPages)
#include "tst_readahead_pages.moc"
