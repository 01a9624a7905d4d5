// `blocktune-cli list` as a user and a script see it: the documented JSON
// schema, the tree, and clear refusals of bad input.
#include "testsupport.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace blocktune::test;

namespace {

ProcessResult cli(const QStringList &args)
{
    return run(binary("blocktune-cli"), args);
}

QSet<QString> keysOf(const QJsonObject &o)
{
    const QStringList keys = o.keys();
    return QSet<QString>(keys.cbegin(), keys.cend());
}

QSet<QString> set(std::initializer_list<const char *> names)
{
    QSet<QString> out;
    for (const char *n : names)
        out.insert(QString::fromLatin1(n));
    return out;
}

} // namespace

class TestCliList : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonFollowsTheSchema()
    {
        const ProcessResult r = cli({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(doc.value(u"schema").toInt(), 1);
        const QJsonArray devices = doc.value(u"devices").toArray();
        QCOMPARE(devices.size(), 12); // sda + 2 partitions, sdb..sdi, md0

        const QSet<QString> common = set({"name", "path", "type", "major", "minor", "size_bytes", "parent",
                                          "slaves", "holders", "leaf_disks", "rotational", "read_only",
                                          "removable", "model", "serial", "wwn", "transport", "read_ahead_kb",
                                          "scheduler", "schedulers", "nr_requests", "max_sectors_kb",
                                          "max_hw_sectors_kb", "context_readahead", "fstype", "label", "uuid"});
        QJsonObject md0;
        for (const QJsonValue &v : devices) {
            const QJsonObject d = v.toObject();
            QSet<QString> expected = common;
            if (d.value(u"type").toString() == u"md")
                expected.insert(QStringLiteral("md"));
            QCOMPARE(keysOf(d), expected);
            if (d.value(u"name").toString() == u"md0")
                md0 = d;
        }
        QVERIFY(!md0.isEmpty());
        const QJsonObject md = md0.value(u"md").toObject();
        QCOMPARE(keysOf(md), set({"level", "raid_disks", "chunk_kb", "layout", "array_state", "degraded",
                                  "stripe_kb", "readahead_floor_kb", "members"}));
        QCOMPARE(md.value(u"layout").toString(), u"f2"_qs);
        QCOMPARE(md.value(u"chunk_kb").toInt(), 512);
        QCOMPARE(md.value(u"stripe_kb").toInt(), 4096);
        QCOMPARE(md.value(u"readahead_floor_kb").toInt(), 8192);
        QCOMPARE(md0.value(u"read_ahead_kb").toInt(), 8192);
        const QJsonArray members = md.value(u"members").toArray();
        QCOMPARE(members.size(), 8);
        QCOMPARE(keysOf(members.first().toObject()), set({"name", "slot", "state"}));
        QCOMPARE(members.first().toObject().value(u"name").toString(), u"sdb"_qs);
        QCOMPARE(md0.value(u"leaf_disks").toArray().size(), 8);
        QVERIFY(md0.value(u"parent").isNull());
    }

    void dmAndLoopObjects()
    {
        const ProcessResult nvme = cli({QStringLiteral("--sysroot"), recordedTree("nvme-parts"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(nvme.exitCode, 0);
        bool sawCrypt = false;
        for (const QJsonValue &v : QJsonDocument::fromJson(nvme.out).object().value(u"devices").toArray()) {
            const QJsonObject d = v.toObject();
            if (d.value(u"type").toString() == u"dm") {
                QCOMPARE(keysOf(d.value(u"dm").toObject()), set({"name", "uuid", "kind"}));
                QCOMPARE(d.value(u"dm").toObject().value(u"kind").toString(), u"crypt"_qs);
                sawCrypt = true;
            }
            if (d.value(u"type").toString() == u"part")
                QCOMPARE(d.value(u"parent").toString(), u"nvme0n1"_qs);
        }
        QVERIFY(sawCrypt);

        const ProcessResult live = cli({QStringLiteral("--sysroot"), recordedTree("live-loop"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(live.exitCode, 0);
        bool sawLoop = false;
        for (const QJsonValue &v : QJsonDocument::fromJson(live.out).object().value(u"devices").toArray()) {
            const QJsonObject d = v.toObject();
            if (d.value(u"name").toString() == u"loop0") {
                QCOMPARE(keysOf(d.value(u"loop").toObject()), set({"backing_file", "direct_io"}));
                QCOMPARE(d.value(u"loop").toObject().value(u"direct_io").toBool(), true);
                QCOMPARE(d.value(u"leaf_disks").toArray(), QJsonArray{u"vda"_qs});
                sawLoop = true;
            }
        }
        QVERIFY(sawLoop);
    }

    void treeShowsTheStack()
    {
        const ProcessResult r = cli({QStringLiteral("--sysroot"), recordedTree("scst-raid0-lvm"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = QString::fromUtf8(r.out).split(u'\n');
        QVERIFY(lines.first().startsWith(u"NAME"_qs));
        // sdb -> sdb1 -> md0 -> the three LVs, indented one level each.
        const qsizetype sdb = lines.indexOf(QRegularExpression(QStringLiteral("sdb\\s.*")));
        QVERIFY(sdb > 0);
        QVERIFY(lines[sdb + 1].startsWith(u"└─sdb1 "_qs));
        QVERIFY(lines[sdb + 2].startsWith(u"  └─md0 "_qs));
        QVERIFY(lines[sdb + 2].contains(u"raid0"_qs));
        QVERIFY(lines[sdb + 3].startsWith(u"    ├─dm-0 "_qs));
        QVERIFY(lines[sdb + 5].startsWith(u"    └─dm-2 "_qs));
        QVERIFY(lines[sdb].contains(u" cfq "_qs));
    }

    // A /dev/disk/by-id name is looked up in the tree (ROOT/dev/disk/by-id),
    // not on this machine, which has no such link.
    void byIdNamesResolveInTheTree()
    {
        const QString link = u"/dev/disk/by-id/wwn-0x5000c50063a1b2c0"_qs;
        QVERIFY(!QFileInfo::exists(link));
        const ProcessResult r = cli({QStringLiteral("--sysroot"), recordedTree("md-raid10-f2"), u"get"_qs, link,
                                     u"--json"_qs});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(u"name").toString(), u"sdb"_qs);
    }

    void refusesBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing sysroot") << QStringList{u"--sysroot"_qs, u"/nonexistent/tree"_qs, u"list"_qs} << u"no sys/ directory"_qs;
        QTest::newRow("sysroot without value") << QStringList{u"--sysroot"_qs} << u"needs a directory"_qs;
        QTest::newRow("unknown option") << QStringList{u"--frobnicate"_qs, u"list"_qs} << u"unknown option '--frobnicate'"_qs;
        QTest::newRow("unknown command") << QStringList{u"lst"_qs} << u"unknown command 'lst'"_qs;
        QTest::newRow("unknown list option") << QStringList{u"list"_qs, u"--jsn"_qs} << u"jsn"_qs;
        QTest::newRow("stray argument") << QStringList{u"list"_qs, u"sda"_qs} << u"no device names"_qs;
        QTest::newRow("no command") << QStringList{} << u"Usage"_qs;
    }
    void refusesBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const ProcessResult r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void helpIsTrue()
    {
        const ProcessResult r = cli({QStringLiteral("list"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        for (const char *option : {"--json", "--no-probe"})
            QVERIFY2(r.out.contains(option), option);
    }
};

QTEST_GUILESS_MAIN(TestCliList)
#include "tst_cli_list.moc"
