// blocktune-cli monitor on recorded trees: the --json lines and their
// structure, the table, stopping (count, duration, SIGINT), and refusals of
// bad input with exit status 2.
#include "monitortestsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <QElapsedTimer>
#include <QFile>

#include <cmath>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

ProcessResult monitor(const QString &tree, const QStringList &args)
{
    return run(binary("blocktune-cli"),
               QStringList{QStringLiteral("--sysroot"), tree, QStringLiteral("monitor")} + args, 60000);
}

QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> lines;
    for (const QByteArray &line : out.split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return {};
        lines << doc.object();
    }
    return lines;
}

QStringList sortedKeys(const QJsonObject &o)
{
    QStringList keys = o.keys();
    keys.sort();
    return keys;
}

const QStringList kDeviceKeys = [] {
    QStringList k{u"read_bytes"_qs, u"read_mb_per_s"_qs, u"reads_per_s"_qs, u"avg_read_request_kb"_qs,
                  u"read_await_ms"_qs, u"queue_depth"_qs, u"util_pct"_qs, u"inflight"_qs,
                  u"write_bytes"_qs, u"write_mb_per_s"_qs, u"writes_per_s"_qs, u"write_await_ms"_qs,
                  u"irq_per_s"_qs};
    k.sort();
    return k;
}();

} // namespace

class TestMonitorCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonLinePerTickWithTheSchema()
    {
        QElapsedTimer wall;
        wall.start();
        const ProcessResult r = monitor(recordedTree("md-raid10-f2"),
                                        {u"md0"_qs, u"--count"_qs, u"3"_qs, u"--interval"_qs, u"20ms"_qs, u"--json"_qs});
        const double wallS = double(wall.elapsed()) / 1000.0;
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.isEmpty());
        QCOMPARE(r.out.count('\n'), 3);
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 3);
        double previousT = 0;
        for (const QJsonObject &line : lines) {
            QCOMPARE(sortedKeys(line), (QStringList{u"devices"_qs, u"groups"_qs, u"interrupts_per_s"_qs,
                                                    u"interval_s"_qs, u"missing"_qs, u"t"_qs, u"time"_qs}));
            // Each interval is the time since the reading before (the first:
            // since the baseline at t 0), as the machine's clock measured it:
            // a tick late on a loaded machine makes one longer and the next
            // shorter (the deadlines are absolute).
            const double t = line[u"t"_qs].toDouble(), interval = line[u"interval_s"_qs].toDouble();
            QVERIFY2(t > previousT, qPrintable(QString::number(t)));
            QVERIFY2(interval > 0 && std::abs(interval - (t - previousT)) < 0.0015, // t has 3 decimals
                     qPrintable(QStringLiteral("interval_s %1 at t %2 after %3").arg(interval).arg(t).arg(previousT)));
            previousT = t;
            // A static recorded tree: the structure is all there, the deltas are 0.
            QCOMPARE(line[u"interrupts_per_s"_qs].toDouble(-1), 0.0);
            const QJsonObject devices = line[u"devices"_qs].toObject();
            QCOMPARE(devices.keys(), QStringList{u"md0"_qs});
            const QJsonObject md0 = devices[u"md0"_qs].toObject();
            QCOMPARE(sortedKeys(md0), kDeviceKeys);
            QCOMPARE(md0[u"read_bytes"_qs].toInteger(-1), 0);
            QCOMPARE(md0[u"irq_per_s"_qs].toDouble(-1), 0.0); // AHCI lines 34 and 35 found
            const QJsonObject group = line[u"groups"_qs].toObject()[u"md0"_qs].toObject();
            QCOMPARE(sortedKeys(group), (QStringList{u"cv"_qs, u"jain"_qs, u"kind"_qs, u"members"_qs}));
            QCOMPARE(group[u"kind"_qs].toString(), u"md"_qs);
            const QJsonObject members = group[u"members"_qs].toObject();
            QCOMPARE(members.keys(), (QStringList{u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs, u"sdf"_qs,
                                                  u"sdg"_qs, u"sdh"_qs, u"sdi"_qs}));
            QCOMPARE(sortedKeys(members[u"sdb"_qs].toObject()),
                     (QStringList{u"present"_qs, u"read_bytes"_qs, u"share"_qs}));
            QVERIFY(members[u"sdb"_qs].toObject()[u"share"_qs].isNull()); // nothing read: no share
            QVERIFY(group[u"jain"_qs].isNull());
            QVERIFY(line[u"missing"_qs].toArray().isEmpty());
        }
        // Three 20 ms periods at least, and no more than the process lived.
        QVERIFY2(previousT >= 0.06 - 0.0005 && previousT <= wallS,
                 qPrintable(QStringLiteral("t %1 s, the process ran %2 s").arg(previousT).arg(wallS)));
    }

    void allDevicesWhenNoneNamed()
    {
        const ProcessResult r = monitor(recordedTree("nvme-parts"), {u"--count"_qs, u"1"_qs, u"--interval"_qs,
                                                                      u"10ms"_qs, u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 1);
        const QJsonObject devices = lines[0][u"devices"_qs].toObject();
        QCOMPARE(devices.keys(), (QStringList{u"dm-0"_qs, u"nvme0n1"_qs, u"nvme0n1p1"_qs, u"nvme0n1p2"_qs,
                                              u"nvme0n1p3"_qs}));
        for (const QString &name : devices.keys())
            QCOMPARE(devices[name].toObject()[u"irq_per_s"_qs].toDouble(-1), 0.0); // nvme0q0..8
    }

    void devicesByPathAndUserGroup()
    {
        const ProcessResult r = monitor(recordedTree("raid5-degraded"),
                                        {u"/dev/md0"_qs, u"--group"_qs, u"system=sda1,/dev/sda2"_qs, u"--count"_qs,
                                         u"1"_qs, u"--interval"_qs, u"10ms"_qs, u"--json"_qs});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 1);
        const QJsonObject groups = lines[0][u"groups"_qs].toObject();
        QCOMPARE(sortedKeys(groups), (QStringList{u"md0"_qs, u"system"_qs}));
        QCOMPARE(groups[u"system"_qs].toObject()[u"kind"_qs].toString(), u"user"_qs);
        QCOMPARE(groups[u"system"_qs].toObject()[u"members"_qs].toObject().keys(),
                 (QStringList{u"sda1"_qs, u"sda2"_qs}));
        // sdd1 failed: not a member that carries load.
        QCOMPARE(groups[u"md0"_qs].toObject()[u"members"_qs].toObject().keys(),
                 (QStringList{u"sdb1"_qs, u"sdc1"_qs, u"sde1"_qs}));
    }

    void tableWhenNotATerminal()
    {
        const ProcessResult r = monitor(recordedTree("md-raid10-f2"),
                                        {u"md0"_qs, u"sda"_qs, u"--count"_qs, u"2"_qs, u"--interval"_qs, u"10ms"_qs});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(!out.contains(QChar(0x1b)), "no terminal escapes into a pipe");
        QCOMPARE(out.count(u"Device "_qs), 2); // one block per tick, appended
        QVERIFY(out.contains(u"rareq-sz"_qs) && out.contains(u"aqu-sz"_qs) && out.contains(u"irq/s"_qs));
        QVERIFY(out.contains(u"\nmd0 "_qs) && out.contains(u"\nsda "_qs));
        QVERIFY(out.contains(u"md0 (md, 8 members)"_qs));
        QVERIFY(out.contains(u"  sdi "_qs));
        QVERIFY(out.contains(u"shared with other disks"_qs)); // sda's AHCI line serves sdb..sdf too
    }

    void durationSetsTheTickCount()
    {
        const ProcessResult r = monitor(recordedTree("live-loop"), {u"vda"_qs, u"--duration"_qs, u"100ms"_qs,
                                                                     u"--interval"_qs, u"20ms"_qs, u"--json"_qs,
                                                                     u"--stats"_qs});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(jsonLines(r.out).size(), 5);
        // --stats: one JSON line on stderr with the monitor's own cost.
        const QJsonObject stats = QJsonDocument::fromJson(r.err).object();
        QCOMPARE(stats[u"ticks"_qs].toInt(), 5);
        QCOMPARE(stats[u"devices"_qs].toInt(), 1);
        QVERIFY(stats.contains(u"cpu_pct_of_one_core"_qs));
        QCOMPARE(stats[u"history_bytes"_qs].toInteger(-1), 0);
    }

    void historyMemoryIsReported()
    {
        const ProcessResult r = monitor(recordedTree("live-loop"), {u"--count"_qs, u"3"_qs, u"--interval"_qs,
                                                                     u"10ms"_qs, u"--json"_qs, u"--history"_qs,
                                                                     u"1s"_qs, u"--stats"_qs});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject stats = QJsonDocument::fromJson(r.err).object();
        QCOMPARE(stats[u"history_points"_qs].toInt(), 100);
        const int series = stats[u"history_series"_qs].toInt();
        QVERIFY(series >= 10 * 7); // ten devices, seven figures or more each
        // Each series is a ring of 100 floats; plus the time axis.
        QCOMPARE(stats[u"history_bytes"_qs].toInteger(), qint64(series) * 100 * 4 + 100 * 8);
    }

    void sigintEndsCleanly()
    {
        QProcess p;
        p.start(binary("blocktune-cli"), {u"--sysroot"_qs, recordedTree("live-loop"), u"monitor"_qs,
                                          u"--interval"_qs, u"20ms"_qs, u"--json"_qs});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT((p.waitForReadyRead(50), p.peek(1 << 20).count('\n') >= 2), 30000);
        QVERIFY2(signalProcess(p, SIGINT), "it had ended before the signal");
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY(out.endsWith('\n')); // no line cut in half
        QVERIFY(jsonLines(out).size() >= 2);
        QVERIFY(p.readAllStandardError().isEmpty());
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mention");
        QTest::newRow("unknown device") << QStringList{u"sdzz"_qs} << u"sdzz"_qs;
        QTest::newRow("not a device path") << QStringList{u"/dev/../etc/passwd"_qs} << u"passwd"_qs;
        QTest::newRow("interval zero") << QStringList{u"--interval"_qs, u"0"_qs} << u"--interval"_qs;
        QTest::newRow("interval too short") << QStringList{u"--interval"_qs, u"5ms"_qs} << u"10ms"_qs;
        QTest::newRow("interval too long") << QStringList{u"--interval"_qs, u"2h"_qs} << u"1h"_qs;
        QTest::newRow("interval word") << QStringList{u"--interval"_qs, u"fast"_qs} << u"fast"_qs;
        QTest::newRow("interval negative") << QStringList{u"--interval"_qs, u"-1s"_qs} << u"-1s"_qs;
        QTest::newRow("count zero") << QStringList{u"--count"_qs, u"0"_qs} << u"--count"_qs;
        QTest::newRow("count word") << QStringList{u"--count"_qs, u"many"_qs} << u"many"_qs;
        QTest::newRow("count and duration") << QStringList{u"--count"_qs, u"2"_qs, u"--duration"_qs, u"1s"_qs}
                                            << u"--duration"_qs;
        QTest::newRow("duration below interval")
            << QStringList{u"--duration"_qs, u"50ms"_qs, u"--interval"_qs, u"100ms"_qs} << u"shorter"_qs;
        QTest::newRow("duration word") << QStringList{u"--duration"_qs, u"ever"_qs} << u"ever"_qs;
        QTest::newRow("group of one") << QStringList{u"--group"_qs, u"g=sdb"_qs} << u"at least two"_qs;
        QTest::newRow("group without name") << QStringList{u"--group"_qs, u"=sdb,sdc"_qs} << u"group name"_qs;
        QTest::newRow("group without =") << QStringList{u"--group"_qs, u"sdb,sdc"_qs} << u"NAME=DEV"_qs;
        QTest::newRow("group unknown member") << QStringList{u"--group"_qs, u"g=sdb,nosuch"_qs} << u"nosuch"_qs;
        QTest::newRow("group member twice") << QStringList{u"--group"_qs, u"g=sdb,sdb"_qs} << u"twice"_qs;
        QTest::newRow("group named like a device") << QStringList{u"--group"_qs, u"sda=sdb,sdc"_qs}
                                                   << u"device name"_qs;
        QTest::newRow("group name with space") << QStringList{u"--group"_qs, u"my group=sdb,sdc"_qs}
                                               << u"my group"_qs;
        QTest::newRow("same group twice")
            << QStringList{u"--group"_qs, u"g=sdb,sdc"_qs, u"--group"_qs, u"g=sdd,sde"_qs} << u"twice"_qs;
        QTest::newRow("history word") << QStringList{u"--history"_qs, u"long"_qs} << u"long"_qs;
        // The probe watches the running kernel: a recorded tree has none.
        QTest::newRow("readahead on a recorded tree") << QStringList{u"--readahead"_qs} << u"recorded tree"_qs;
        QTest::newRow("readahead below 100ms")
            << QStringList{u"--readahead"_qs, u"--interval"_qs, u"50ms"_qs} << u"at least 100ms"_qs;
        QTest::newRow("unknown option") << QStringList{u"--fast"_qs} << u"fast"_qs;
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mention);
        const ProcessResult r = monitor(recordedTree("md-raid10-f2"), args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(QString::fromUtf8(r.err).contains(mention), r.err.constData());
    }

    void unreadableDiskstatsFails()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("live-loop"), dir.path()));
        QVERIFY(QFile::remove(dir.filePath(u"proc/diskstats"_qs)));
        const ProcessResult r = monitor(dir.path(), {u"--count"_qs, u"1"_qs, u"--interval"_qs, u"10ms"_qs});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("proc/diskstats"), r.err.constData());
    }

    // A recorded tree's proc/diskstats as garbage: the monitor ends within
    // its time (a named pipe once hung the open), and a device whose line
    // is garbage is missing, never shown with made-up counters.
    void garbageDiskstatsEndsAndShowsNothingMadeUp_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("empty file") << "empty" << 0;
        QTest::newRow("named pipe") << "fifo" << 1;
        QTest::newRow("symlink loop") << "loop" << 1;
        QTest::newRow("10 MB of digits") << "huge" << 0;
        QTest::newRow("words for counters") << "words" << 0;
        QTest::newRow("a counter past 2^64") << "overflow" << 0;
    }
    void garbageDiskstatsEndsAndShowsNothingMadeUp()
    {
        QFETCH(QString, kind);
        QFETCH(int, exitCode);
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("live-loop"), dir.path()));
        const QString path = dir.filePath(u"proc/diskstats"_qs);
        QVERIFY(QFile::remove(path));
        const QByteArray path8 = QFile::encodeName(path);
        QFile f(path);
        if (kind == u"fifo") {
            QCOMPARE(::mkfifo(path8.constData(), 0600), 0);
        } else if (kind == u"loop") {
            QCOMPARE(::symlink("diskstats", path8.constData()), 0);
        } else {
            QVERIFY(f.open(QIODevice::WriteOnly));
            if (kind == u"huge")
                f.write(QByteArray(10 << 20, '7'));
            else if (kind == u"words")
                f.write("   7       0 loop0 many 0 lots 13861 0 0 0 0 0 6128 13861 0 0 0 0 0 0\n");
            else if (kind == u"overflow")
                f.write("   7       0 loop0 111309 0 18446744073709551617 13861 0 0 0 0 0 6128 13861 0 0 0 0 0 0\n");
            f.close();
        }
        QElapsedTimer t;
        t.start();
        const ProcessResult r = monitor(dir.path(), {u"loop0"_qs, u"--count"_qs, u"2"_qs, u"--interval"_qs, u"20ms"_qs,
                                                     u"--json"_qs});
        QVERIFY2(t.elapsed() < 20000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(r.exitCode, exitCode);
        if (exitCode != 0) {
            QVERIFY2(r.err.contains("proc/diskstats"), r.err.constData());
            return;
        }
        const QList<QJsonObject> lines = jsonLines(r.out);
        QVERIFY(!lines.isEmpty());
        for (const QJsonObject &line : lines) {
            QVERIFY2(line.value(u"missing").toArray().contains(u"loop0"_qs), QJsonDocument(line).toJson().constData());
            QVERIFY(!line.value(u"devices").toObject().contains(u"loop0"_qs));
        }
    }

    void help()
    {
        const ProcessResult r = monitor(recordedTree("live-loop"), {u"--help"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--interval") && r.out.contains("--json") && r.out.contains("--group"));
    }
};

QTEST_GUILESS_MAIN(TestMonitorCli)
#include "tst_monitorcli.moc"
