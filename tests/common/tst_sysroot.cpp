#include "common/sysroot.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace blocktune;

class TestSysRoot : public QObject
{
    Q_OBJECT

private:
    static void writeFile(const QString &path, const QByteArray &data)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("QT_QPA_PLATFORM", "offscreen"); // the console is started below
    }

    void parseU64_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<quint64>("value");
        QTest::newRow("plain") << QByteArray("128\n") << true << quint64(128);
        QTest::newRow("zero") << QByteArray("0") << true << quint64(0);
        QTest::newRow("spaces") << QByteArray("  4096  \n") << true << quint64(4096);
        QTest::newRow("max") << QByteArray("18446744073709551615") << true << quint64(UINT64_MAX);
        QTest::newRow("overflow") << QByteArray("18446744073709551616") << false << quint64(0);
        QTest::newRow("negative") << QByteArray("-1") << false << quint64(0);
        QTest::newRow("empty") << QByteArray("") << false << quint64(0);
        QTest::newRow("word") << QByteArray("none") << false << quint64(0);
        QTest::newRow("hex") << QByteArray("0x10") << false << quint64(0);
        QTest::newRow("trailing junk") << QByteArray("12ab") << false << quint64(0);
    }
    void parseU64()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        QFETCH(quint64, value);
        const auto parsed = sysfs::parseU64(text);
        QCOMPARE(parsed.has_value(), ok);
        if (ok)
            QCOMPARE(*parsed, value);
    }

    void parseBracketChoice_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("active");
        QTest::addColumn<QStringList>("choices");
        QTest::newRow("blk-mq") << QByteArray("none [mq-deadline] kyber bfq\n") << true
                                << QStringLiteral("mq-deadline")
                                << QStringList{u"none"_qs, u"mq-deadline"_qs, u"kyber"_qs, u"bfq"_qs};
        QTest::newRow("legacy") << QByteArray("noop anticipatory deadline [cfq]") << true
                                << QStringLiteral("cfq")
                                << QStringList{u"noop"_qs, u"anticipatory"_qs, u"deadline"_qs, u"cfq"_qs};
        QTest::newRow("nvme none") << QByteArray("[none] mq-deadline") << true << QStringLiteral("none")
                                   << QStringList{u"none"_qs, u"mq-deadline"_qs};
        QTest::newRow("bio-based") << QByteArray("none\n") << true << QStringLiteral("none")
                                   << QStringList{u"none"_qs};
        QTest::newRow("two active") << QByteArray("[none] [bfq]") << false << QString() << QStringList();
        QTest::newRow("no active, several") << QByteArray("none bfq") << false << QString() << QStringList();
        QTest::newRow("empty") << QByteArray("\n") << false << QString() << QStringList();
        QTest::newRow("broken bracket") << QByteArray("none [bfq") << false << QString() << QStringList();
        QTest::newRow("empty brackets") << QByteArray("none []") << false << QString() << QStringList();
        // Found by fuzz_scheduler_line: an inner bracket made "m[mq-deadline" the active name.
        QTest::newRow("bracket inside brackets") << QByteArray("ne [m[mq-deadline] kyber bfq") << false << QString()
                                                 << QStringList();
        QTest::newRow("doubled brackets") << QByteArray("none [[bfq]]") << false << QString() << QStringList();
    }
    void parseBracketChoice()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        QFETCH(QString, active);
        QFETCH(QStringList, choices);
        const auto parsed = sysfs::parseBracketChoice(text);
        QCOMPARE(parsed.has_value(), ok);
        if (ok) {
            QCOMPARE(parsed->active, active);
            QCOMPARE(parsed->choices, choices);
        }
    }

    void readsGoThroughTheRoot()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(u"sys/devices/virtual/block/x0/queue/read_ahead_kb"_qs), "512\n");
        writeFile(dir.filePath(u"sys/devices/virtual/block/x0/queue/scheduler"_qs), "none [bfq]\n");
        writeFile(dir.filePath(u"proc/diskstats"_qs), "7 0 x0 1 2 3\n");
        QVERIFY(QFile::link(u"../../devices/virtual/block/x0"_qs, dir.filePath(u"sys/class/block/x0"_qs))
                || (QDir().mkpath(dir.filePath(u"sys/class/block"_qs))
                    && QFile::link(u"../../devices/virtual/block/x0"_qs, dir.filePath(u"sys/class/block/x0"_qs))));

        const SysRoot root(dir.path());
        QVERIFY(!root.isLive());
        QCOMPARE(*root.readU64(root.sysPath("class/block/x0/queue/read_ahead_kb")), quint64(512));
        QCOMPARE(root.readBracketChoice(root.sysPath("class/block/x0/queue/scheduler"))->active, u"bfq"_qs);
        QVERIFY(root.readString(root.procPath("diskstats"))->startsWith(u"7 0 x0"_qs));

        const auto missing = root.readU64(root.sysPath("class/block/x0/queue/nr_requests"));
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().message.contains(u"nr_requests"_qs), qPrintable(missing.error().message));

        const auto devDir = root.deviceDirectory(u"x0"_qs);
        QVERIFY(devDir.ok());
        QVERIFY(devDir->endsWith("/sys/devices/virtual/block/x0"));
        QCOMPARE(root.deviceDirectory(u"nosuch"_qs).error().code, int(NotFound));
        QCOMPARE(root.deviceDirectory(u"../x0"_qs).error().code, int(InvalidArgument));

        const SysDir d = SysDir::open(*devDir);
        QCOMPARE(d.readU64("queue/read_ahead_kb"), std::optional<quint64>(512));
        QCOMPARE(d.list("queue"), (QStringList{u"read_ahead_kb"_qs, u"scheduler"_qs}));
        QVERIFY(!d.readU64("queue/none").has_value());
    }

    // A tree without class/block is looked up as lsblk does: whole devices
    // in sys/block (links into sys/devices, or on old kernels the
    // directories themselves), partitions under their disk.
    void deviceEntryWithoutClassBlock_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("entry");    // below ROOT/sys, "" = not found
        QTest::addColumn<QString>("directory"); // below ROOT/sys after resolving
        QTest::newRow("disk, linked") << u"sda"_qs << u"block/sda"_qs << u"devices/pci0/host0/block/sda"_qs;
        QTest::newRow("partition, linked disk") << u"sda1"_qs << u"block/sda/sda1"_qs
                                                << u"devices/pci0/host0/block/sda/sda1"_qs;
        QTest::newRow("nvme partition") << u"nvme0n1p2"_qs << u"block/nvme0n1/nvme0n1p2"_qs
                                        << u"devices/pci1/nvme/nvme0/nvme0n1/nvme0n1p2"_qs;
        QTest::newRow("old kernel: real directory") << u"hda"_qs << u"block/hda"_qs << u"block/hda"_qs;
        QTest::newRow("old kernel: its partition") << u"hda3"_qs << u"block/hda/hda3"_qs << u"block/hda/hda3"_qs;
        QTest::newRow("a directory that is no partition") << u"sdaqueue"_qs << QString() << QString();
        QTest::newRow("missing partition") << u"sda9"_qs << QString() << QString();
        QTest::newRow("missing disk") << u"sdq"_qs << QString() << QString();
    }
    void deviceEntryWithoutClassBlock()
    {
        QFETCH(QString, name);
        QFETCH(QString, entry);
        QFETCH(QString, directory);
        QTemporaryDir dir;
        const QString sys = dir.filePath(u"sys"_qs);
        writeFile(sys + u"/devices/pci0/host0/block/sda/dev"_qs, "8:0\n");
        writeFile(sys + u"/devices/pci0/host0/block/sda/sda1/partition"_qs, "1\n");
        writeFile(sys + u"/devices/pci0/host0/block/sda/sdaqueue/x"_qs, "not a partition\n");
        writeFile(sys + u"/devices/pci1/nvme/nvme0/nvme0n1/nvme0n1p2/partition"_qs, "2\n");
        writeFile(sys + u"/block/hda/dev"_qs, "3:0\n");
        writeFile(sys + u"/block/hda/hda3/partition"_qs, "3\n");
        QVERIFY(QFile::link(u"../devices/pci0/host0/block/sda"_qs, sys + u"/block/sda"_qs));
        QVERIFY(QFile::link(u"../devices/pci1/nvme/nvme0/nvme0n1"_qs, sys + u"/block/nvme0n1"_qs));

        const SysRoot root(dir.path());
        QCOMPARE(root.blockLayout().value(), BlockLayout::SysBlock);
        const auto found = root.deviceEntry(name);
        const auto resolved = root.deviceDirectory(name);
        if (entry.isEmpty()) {
            QCOMPARE(found.error().code, int(NotFound));
            QCOMPARE(resolved.error().message, u"no block device named '"_qs + name + u"'"_qs);
            return;
        }
        QCOMPARE(QString::fromLocal8Bit(found.value()), sys + u'/' + entry);
        QCOMPARE(QString::fromLocal8Bit(resolved.value()), QFileInfo(sys + u'/' + directory).canonicalFilePath());
    }

    void writeKeepsToTheTreeAndReadsBack()
    {
        QTemporaryDir dir;
        const QString attr = dir.filePath(u"sys/devices/virtual/block/x0/queue/read_ahead_kb"_qs);
        writeFile(attr, "128\n");
        const SysRoot root(dir.path());

        auto kept = root.writeAttribute(attr.toLocal8Bit(), u"4096"_qs);
        QVERIFY2(kept.ok(), kept.ok() ? "" : qPrintable(kept.error().message));
        QCOMPARE(*kept, u"4096"_qs);
        QCOMPARE(*root.readU64(attr.toLocal8Bit()), quint64(4096));

        // Two lines: refused, nothing written.
        auto twoLines = root.writeAttribute(attr.toLocal8Bit(), u"1\n2"_qs);
        QVERIFY(!twoLines.ok());
        QCOMPARE(*root.readU64(attr.toLocal8Bit()), quint64(4096));

        // A symlinked attribute is refused.
        const QString link = dir.filePath(u"sys/devices/virtual/block/x0/queue/evil"_qs);
        writeFile(dir.filePath(u"outside"_qs), "keep\n");
        QVERIFY(QFile::link(dir.filePath(u"outside"_qs), link));
        auto viaLink = root.writeAttribute(link.toLocal8Bit(), u"x"_qs);
        QVERIFY(!viaLink.ok());
        QCOMPARE(viaLink.error().code, int(Refused));

        // Outside sys/ and proc/sys: refused, even if the file exists.
        auto outside = root.writeAttribute(dir.filePath(u"outside"_qs).toLocal8Bit(), u"x"_qs);
        QVERIFY(!outside.ok());
        QCOMPARE(outside.error().code, int(Refused));
        QFile f(dir.filePath(u"outside"_qs));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep\n"));

        // No creating new attributes.
        auto created = root.writeAttribute(dir.filePath(u"sys/devices/virtual/block/x0/queue/new"_qs).toLocal8Bit(), u"1"_qs);
        QVERIFY(!created.ok());
        QVERIFY(!QFile::exists(dir.filePath(u"sys/devices/virtual/block/x0/queue/new"_qs)));
    }

    void openTree_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("ok");
        QTest::newRow("live machine") << u"live"_qs << true;
        QTest::newRow("recorded tree") << u"recorded"_qs << true;
        QTest::newRow("no such directory") << u"missing"_qs << false;
        QTest::newRow("directory without sys/") << u"empty"_qs << false;
        QTest::newRow("sys is a file") << u"file"_qs << false;
        QTest::newRow("sys/ listing no block devices") << u"bare sys"_qs << false;
    }
    void openTree()
    {
        QFETCH(QString, kind);
        QFETCH(bool, ok);
        QTemporaryDir tmp;
        QString dir;
        if (kind == u"recorded")
            dir = test::recordedTree("md-raid10-f2");
        else if (kind == u"missing")
            dir = tmp.filePath(u"nosuch"_qs);
        else if (kind == u"empty")
            dir = tmp.path();
        else if (kind == u"file") {
            dir = tmp.path();
            writeFile(tmp.filePath(u"sys"_qs), "not a directory\n");
        } else if (kind == u"bare sys") {
            dir = tmp.path();
            QVERIFY(QDir().mkpath(tmp.filePath(u"sys/devices"_qs)));
        }
        const auto tree = SysRoot::openTree(dir);
        QCOMPARE(tree.ok(), ok);
        if (ok) {
            QCOMPARE(tree->isLive(), kind == u"live");
            QCOMPARE(tree->sysPath("block"), SysRoot(dir).sysPath("block"));
        } else if (kind == u"bare sys") {
            QCOMPARE(tree.error().message, dir + u": not a Linux sysfs tree: neither "_qs + dir
                                               + u"/sys/class/block nor "_qs + dir + u"/sys/block exists"_qs);
        } else {
            QCOMPARE(tree.error().message,
                     dir + u": no sys/ directory there (expected a tree made by scripts/mk-sysroot.py "
                           u"or a copy of /sys and /proc)"_qs);
        }
    }

    // The console, the CLI and the helper refuse a tree without sys/ with
    // the same sentence, exit 2, and do nothing else.
    void everyProgramRefusesTheSameWay_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("after");
        QTest::newRow("blocktune") << u"blocktune"_qs << QStringList();
        QTest::newRow("blocktune-cli") << u"blocktune-cli"_qs << QStringList{u"list"_qs};
        QTest::newRow("blocktune-helper") << u"blocktune-helper"_qs << QStringList();
    }
    void everyProgramRefusesTheSameWay()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, after);
        QTemporaryDir tmp;
        const auto tree = SysRoot::openTree(tmp.path());
        QVERIFY(!tree.ok());
        const test::ProcessResult r = test::run(test::binary(program.toLatin1().constData()),
                                                QStringList{u"--sysroot"_qs, tmp.path()} + after, 30000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromLocal8Bit(r.err).contains(program + u": --sysroot "_qs + tree.error().message),
                 r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void kernelNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("plausible");
        QTest::newRow("sda") << u"sda"_qs << true;
        QTest::newRow("nvme") << u"nvme0n1p3"_qs << true;
        QTest::newRow("dm") << u"dm-0"_qs << true;
        QTest::newRow("slash") << u"sda/../../etc"_qs << false;
        QTest::newRow("dotdot") << u".."_qs << false;
        QTest::newRow("dotdot inside") << u"a..b"_qs << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("space") << u"sd a"_qs << false;
        QTest::newRow("nul") << QString(u"sd" + QChar(0) + u"a") << false;
        QTest::newRow("newline") << u"sda\n"_qs << false;
        QTest::newRow("long") << QString(100, u'a') << false;
    }
    void kernelNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, plausible);
        QCOMPARE(SysRoot::isPlausibleKernelName(name), plausible);
    }
};

QTEST_GUILESS_MAIN(TestSysRoot)
#include "tst_sysroot.moc"
