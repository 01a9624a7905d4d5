// blocktune-cli record: a snapshot opened with --sysroot FILE.tar.gz reads
// back to the model of the machine (or tree) it was taken from.
#include "testsupport.h"

#include <QTemporaryDir>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace blocktune::test;

namespace {

ProcessResult cli(const QStringList &args)
{
    return run(binary("blocktune-cli"), args);
}

/// `list --json`'s devices by name.
QMap<QString, QJsonObject> devicesOf(const QByteArray &json)
{
    QMap<QString, QJsonObject> devices;
    for (const QJsonValue &v : QJsonDocument::fromJson(json).object().value(u"devices").toArray())
        devices.insert(v.toObject().value(u"name").toString(), v.toObject());
    return devices;
}

} // namespace

class TestRecord : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordedTreeReadsBackTheSame_data()
    {
        QTest::addColumn<QString>("tree");
        for (const char *name : {"live-loop", "md-raid10-f2", "nvme-parts", "raid5-degraded", "scst-raid0-lvm",
                                 "scst-raid0-lvm-sysblock"})
            QTest::newRow(name) << recordedTree(name);
    }
    void recordedTreeReadsBackTheSame()
    {
        QFETCH(QString, tree);
        QTemporaryDir dir;
        const QString snapshot = dir.filePath(QStringLiteral("snap.tar.gz"));
        const ProcessResult rec = cli({QStringLiteral("--sysroot"), tree, QStringLiteral("record"), snapshot});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        QVERIFY(rec.out.contains("block devices"));
        const ProcessResult original = cli({QStringLiteral("--sysroot"), tree, QStringLiteral("list"), QStringLiteral("--json")});
        const ProcessResult copy = cli({QStringLiteral("--sysroot"), snapshot, QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(copy.exitCode, 0);
        QVERIFY(original.out.size() > 500);
        QCOMPARE(copy.out, original.out);
        QCOMPARE(copy.err, original.err); // the same garbage warned about
        // The tree view and the settings read back the same too.
        QCOMPARE(cli({QStringLiteral("--sysroot"), snapshot, QStringLiteral("list")}).out,
                 cli({QStringLiteral("--sysroot"), tree, QStringLiteral("list")}).out);
    }

    // This machine: the snapshot's model is the live one as a tree can
    // hold it (sysfs only: no udev database, no libblkid probe, hence
    // --no-probe on the live side, where udev's words match sysfs here).
    // Other tests attach loop devices meanwhile: the snapshot must match a
    // live listing taken just before or just after it.
    // Other programs attach and detach loop devices meanwhile (a second of
    // recording is long enough for several, and a loop may be the same
    // before and after and another in between): every device but a loop
    // that is the same in the listings before and after the recording must
    // read back the same from it, and whatever else it holds must be a
    // loop. (A loop's read-back is recordedTreeReadsBackTheSame(live-loop).)
    void thisMachineReadsBackTheSame()
    {
        QTemporaryDir dir;
        const QString snapshot = dir.filePath(QStringLiteral("live.tgz"));
        const ProcessResult before = cli({QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--no-probe")});
        const ProcessResult rec = cli({QStringLiteral("record"), snapshot});
        const ProcessResult after = cli({QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--no-probe")});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        QCOMPARE(before.exitCode, 0);
        QCOMPARE(after.exitCode, 0);
        const ProcessResult copy = cli({QStringLiteral("--sysroot"), snapshot, QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(copy.exitCode, 0);
        const QMap<QString, QJsonObject> was = devicesOf(before.out);
        const QMap<QString, QJsonObject> is = devicesOf(after.out);
        const QMap<QString, QJsonObject> read = devicesOf(copy.out);
        int stable = 0;
        for (auto it = was.cbegin(); it != was.cend(); ++it) {
            if (it.key().startsWith(u"loop") || is.value(it.key()) != it.value())
                continue; // may have come, gone or changed meanwhile
            ++stable;
            QVERIFY2(read.contains(it.key()), qPrintable(it.key() + u" is not in the snapshot"_qs));
            QVERIFY2(read.value(it.key()) == it.value(),
                     qPrintable(u"%1 reads back differently:\n%2\nlive:\n%3"_qs.arg(
                         it.key(), QString::fromUtf8(QJsonDocument(read.value(it.key())).toJson()),
                         QString::fromUtf8(QJsonDocument(it.value()).toJson()))));
        }
        QVERIFY2(stable > 0, "no device but loops, or none the same before and after the recording");
        for (auto it = read.cbegin(); it != read.cend(); ++it)
            QVERIFY2(was.contains(it.key()) || is.contains(it.key()) || it.key().startsWith(u"loop"),
                     qPrintable(it.key() + u" is in the snapshot but was never on the machine"_qs));
    }

    // Attributes and links only: no device node, nothing outside sys/,
    // proc/ and dev/.
    void snapshotHoldsOnlyAttributesAndLinks()
    {
        QTemporaryDir dir;
        const QString snapshot = dir.filePath(QStringLiteral("snap.tar.gz"));
        QCOMPARE(cli({QStringLiteral("record"), snapshot}).exitCode, 0);
        const ProcessResult listing = run(QStringLiteral("tar"), {QStringLiteral("-tvzf"), snapshot});
        QCOMPARE(listing.exitCode, 0);
        int entries = 0;
        for (const QByteArray &line : listing.out.split('\n')) {
            if (line.isEmpty())
                continue;
            ++entries;
            QVERIFY2(line.startsWith('-') || line.startsWith('l') || line.startsWith('d'), line.constData());
            const QByteArray name = line.mid(line.lastIndexOf(' ', line.indexOf(" -> ") > 0 ? line.indexOf(" -> ") - 1 : -1) + 1);
            QVERIFY2(name.startsWith("sys/") || name.startsWith("proc/") || name.startsWith("dev/"), line.constData());
        }
        QVERIFY(entries > 20);
    }

    // The counters twice, a second apart, each with the uptime of its
    // reading: one interval the console's Monitor replays.
    void snapshotHoldsTwoReadingsOfTheCounters()
    {
        QTemporaryDir dir;
        const QString snapshot = dir.filePath(QStringLiteral("twice.tar.gz"));
        QCOMPARE(cli({QStringLiteral("record"), snapshot}).exitCode, 0);
        const QString tree = dir.filePath(QStringLiteral("tree"));
        QDir().mkpath(tree);
        QCOMPARE(run(QStringLiteral("tar"), {QStringLiteral("-xzf"), snapshot, QStringLiteral("-C"), tree}).exitCode, 0);
        auto read = [&](const char *name) {
            QFile f(tree + QStringLiteral("/proc/") + QString::fromLatin1(name));
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        QVERIFY(!read("diskstats").isEmpty());
        QVERIFY(!read("diskstats.2").isEmpty());
        const double first = read("uptime").split(' ').value(0).toDouble();
        const double second = read("uptime.2").split(' ').value(0).toDouble();
        QVERIFY2(second - first >= 0.95 && second - first < 5,
                 qPrintable(QStringLiteral("uptime %1 then %2").arg(first).arg(second)));
    }

    void badInputIsRefused()
    {
        ProcessResult r = cli({QStringLiteral("record"), QStringLiteral("/tmp/snapshot.zip")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("does not end in .tar.gz or .tgz"));
        r = cli({QStringLiteral("record")});
        QCOMPARE(r.exitCode, 2);
        r = cli({QStringLiteral("--sysroot"), QStringLiteral("/nonexistent/snap.tar.gz"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no such snapshot file"), r.err.constData());
        QTemporaryDir dir;
        const QString notTar = dir.filePath(QStringLiteral("x.tar.gz"));
        QFile f(notTar);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a tarball");
        f.close();
        r = cli({QStringLiteral("--sysroot"), notTar, QStringLiteral("list")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is not a blocktune snapshot"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"
