// ProcSource, the sampler's real source: interrupt lines from /proc/stat's
// columns or from /proc/interrupts, in-flight files, errors naming the
// file, and kept descriptors on the live machine giving fresh readings.
#include "monitortestsupport.h"

#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace blocktune;
using namespace blocktune::test;

namespace {

void writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestProcSource : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void interruptLinesFromStatColumns()
    {
        ProcSource source{SysRoot(recordedTree("md-raid10-f2"))};
        // Lines 34 and 35: the two AHCI controllers. /proc/stat's columns and
        // /proc/interrupts' per-CPU sums agree in the tree, as in a kernel.
        const InterruptCounts counts = source.interrupts({34, 35});
        QCOMPARE(counts.total, std::optional<quint64>(427962333));
        QCOMPARE(counts.lines.value(34), quint64(4380323 + 279596));
        QCOMPARE(counts.lines.value(35), quint64(1735071));
        const InterruptCounts totalOnly = source.interrupts({});
        QCOMPARE(totalOnly.total, counts.total);
        QVERIFY(totalOnly.lines.isEmpty());
    }

    void interruptLinesFromProcInterruptsWhenStatHasNoColumns()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        // An intr line with the total only: the lines come from /proc/interrupts.
        QByteArray stat = readFile(dir.filePath(u"proc/stat"_qs));
        const qsizetype at = stat.indexOf("intr ");
        const qsizetype lineEnd = stat.indexOf('\n', at);
        stat.replace(at, lineEnd - at, "intr 427962333");
        writeFile(dir.filePath(u"proc/stat"_qs), stat);
        ProcSource source{SysRoot(dir.path())};
        InterruptCounts counts = source.interrupts({34, 35, 999});
        QCOMPARE(counts.total, std::optional<quint64>(427962333));
        QCOMPARE(counts.lines.value(34), quint64(4380323 + 279596));
        QCOMPARE(counts.lines.value(35), quint64(1735071));
        QVERIFY(!counts.lines.contains(999)); // no such line anywhere: absent, not 0

        // No /proc/stat at all: no total, the lines still.
        QVERIFY(QFile::remove(dir.filePath(u"proc/stat"_qs)));
        counts = source.interrupts({34});
        QVERIFY(!counts.total);
        QCOMPARE(counts.lines.value(34), quint64(4659919));
    }

    void inFlightFiles()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        ProcSource source{SysRoot(dir.path())};
        const auto md0 = source.inFlight(u"md0"_qs);
        QVERIFY(md0);
        QCOMPARE(md0->reads, quint64(0));
        writeFile(dir.filePath(u"sys/devices/virtual/block/md0/inflight"_qs), "       3        5\n");
        QCOMPARE(source.inFlight(u"md0"_qs)->writes, quint64(5)); // re-read, not cached
        writeFile(dir.filePath(u"sys/devices/virtual/block/md0/inflight"_qs), "3\n");
        QVERIFY(!source.inFlight(u"md0"_qs));
        writeFile(dir.filePath(u"sys/devices/virtual/block/md0/inflight"_qs), "three five\n");
        QVERIFY(!source.inFlight(u"md0"_qs));
        QVERIFY(!source.inFlight(u"nosuch"_qs));
        QVERIFY(source.inFlight(u"sda1"_qs)); // partitions have their own
    }

    void missingDiskstatsNamesTheFile()
    {
        QTemporaryDir dir;
        ProcSource source{SysRoot(dir.path())};
        const auto text = source.diskStats();
        QVERIFY(!text.ok());
        QVERIFY2(text.error().message.contains(dir.filePath(u"proc/diskstats"_qs)), qPrintable(text.error().message));
    }

    void recordedTreeIsReopenedEachTime()
    {
        // A writer replaces the file by rename: a kept descriptor would go
        // on reading the old one.
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("live-loop"), dir.path()));
        ProcSource source{SysRoot(dir.path())};
        QVERIFY(source.diskStats()->contains("vda"));
        QVERIFY(advanceDiskstats(dir.path(), {}, {u"vda"_qs}));
        QVERIFY(!source.diskStats()->contains("vda"));
    }

    void liveDescriptorsGiveFreshReadings()
    {
        // The machine's interrupt total always moves (the timer alone), so
        // two readings through the kept /proc/stat descriptor differ.
        ProcSource source{SysRoot()};
        const auto first = source.interrupts({});
        QVERIFY(first.total);
        std::optional<quint64> later;
        for (int i = 0; i < 50 && (!later || *later == *first.total); ++i) {
            QThread::msleep(20);
            later = source.interrupts({}).total;
        }
        QVERIFY(later && *later > *first.total);
        // And diskstats keeps parsing whole, every time.
        for (int i = 0; i < 3; ++i) {
            const auto text = source.diskStats();
            QVERIFY(text.ok());
            QVERIFY(!parseDiskStats(*text).isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestProcSource)
#include "tst_procsource.moc"
