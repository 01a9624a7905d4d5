// The device model on recorded machines (tests/data/sysroot, made by
// scripts/mk-sysroot.py): it must agree with lsblk --sysroot on the same
// trees, and md geometry must follow the kernel's formulas.
#include "devices/devices.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

DeviceModel scanTree(const char *name)
{
    auto model = DeviceModel::scan(SysRoot(recordedTree(name)));
    if (!model)
        qFatal("cannot scan %s: %s", name, qPrintable(model.error().message));
    return std::move(*model);
}

// lsblk names the types by what they are built from; map ours onto its.
bool typeMatches(const BlockDevice &d, const QString &lsblkType)
{
    switch (d.type) {
    case DeviceType::Disk: return lsblkType == u"disk";
    case DeviceType::Partition: return lsblkType == u"part";
    case DeviceType::Loop: return lsblkType == u"loop";
    case DeviceType::Rom: return lsblkType == u"rom";
    case DeviceType::Md: return d.md && lsblkType == d.md->level;
    case DeviceType::Dm:
        return (d.dm->kind == u"lvm" && lsblkType == u"lvm")
               || (d.dm->kind == u"crypt" && lsblkType == u"crypt")
               || (d.dm->kind == u"multipath" && lsblkType == u"mpath")
               || (d.dm->kind == u"other" && lsblkType == u"dm");
    case DeviceType::Other: break;
    }
    return false;
}

} // namespace

class TestDeviceModelTrees : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void agreesWithLsblk_data()
    {
        QTest::addColumn<QString>("treeName");
        for (const char *t : {"live-loop", "scst-raid0-lvm", "md-raid10-f2", "raid5-degraded", "nvme-parts",
                              "scst-raid0-lvm-sysblock"})
            QTest::newRow(t) << QString::fromLatin1(t);
    }
    void agreesWithLsblk()
    {
        QFETCH(QString, treeName);
        const QString dir = recordedTree(treeName);
        const ProcessResult lsblk = run(QStringLiteral("lsblk"),
                                        {QStringLiteral("--sysroot"), dir, QStringLiteral("-J"), QStringLiteral("-b"), QStringLiteral("-a"),
                                         QStringLiteral("-o"), QStringLiteral("KNAME,PKNAME,MAJ:MIN,SIZE,RA,SCHED,ROTA,TYPE,RO,RM")});
        QVERIFY2(lsblk.exitCode == 0, lsblk.err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(lsblk.out).object().value(u"blockdevices").toArray();
        QVERIFY(!rows.isEmpty());

        const auto model = DeviceModel::scan(SysRoot(dir));
        QVERIFY(model.ok());

        QSet<QString> lsblkNames, ourNames;
        QSet<QPair<QString, QString>> lsblkEdges, ourEdges;
        for (const QJsonValue &v : rows) {
            const QJsonObject row = v.toObject();
            const QString name = row.value(u"kname").toString();
            lsblkNames.insert(name);
            if (!row.value(u"pkname").isNull())
                lsblkEdges.insert({row.value(u"pkname").toString(), name});
            const BlockDevice *d = model->find(name);
            QVERIFY2(d, qPrintable(name));
            const QString where = treeName + u'/' + name;
            QCOMPARE(QStringLiteral("%1:%2").arg(d->major).arg(d->minor), row.value(u"maj:min").toString());
            QCOMPARE(double(d->sizeBytes.value_or(0)), row.value(u"size").toDouble());
            QVERIFY2(d->readAheadKiB.has_value(), qPrintable(where));
            QCOMPARE(double(*d->readAheadKiB), row.value(u"ra").toDouble());
            // lsblk prints no scheduler where there is no choice: bio-based
            // devices (whose sysfs says a bare "none") and zram (no file).
            const QString sched = row.value(u"sched").toString();
            if (sched.isEmpty())
                QVERIFY2(d->scheduler.isEmpty() || d->scheduler == u"none", qPrintable(where));
            else
                QCOMPARE(d->scheduler, sched);
            QCOMPARE(d->rotational, std::optional<bool>(row.value(u"rota").toBool()));
            QCOMPARE(d->readOnly, std::optional<bool>(row.value(u"ro").toBool()));
            QCOMPARE(d->removable, std::optional<bool>(row.value(u"rm").toBool()));
            QVERIFY2(typeMatches(*d, row.value(u"type").toString()),
                     qPrintable(where + u" is " + deviceTypeName(d->type) + u", lsblk says " + row.value(u"type").toString()));
        }
        for (const BlockDevice &d : model->devices()) {
            ourNames.insert(d.name);
            for (const QString &child : model->children(d.name))
                ourEdges.insert({d.name, child});
        }
        QCOMPARE(ourNames, lsblkNames);
        QCOMPARE(ourEdges, lsblkEdges);
    }

    void raid10FarTwoGeometry()
    {
        const DeviceModel model = scanTree("md-raid10-f2");
        const BlockDevice *md0 = model.find(u"md0"_qs);
        QVERIFY(md0 && md0->md);
        QCOMPARE(md0->type, DeviceType::Md);
        QCOMPARE(md0->md->level, u"raid10"_qs);
        QCOMPARE(md0->md->layoutName, u"f2"_qs);
        QCOMPARE(md0->md->raidDisks, std::optional<int>(8));
        QCOMPARE(md0->md->chunkBytes, std::optional<quint64>(512 * 1024));
        // Far copies do not divide the width: 512K x 8 = 4 MiB, floor 8 MiB,
        // the same stripe the kernel reports as optimal_io_size.
        QCOMPARE(md0->md->stripeKiB, std::optional<quint64>(4096));
        QCOMPARE(md0->md->readaheadFloorKiB, std::optional<quint64>(8192));
        QCOMPARE(md0->optimalIoBytes, std::optional<quint64>(4096 * 1024));
        QCOMPARE(md0->md->members.size(), 8);
        for (int slot = 0; slot < 8; ++slot) {
            QCOMPARE(md0->md->members[slot].slot, std::optional<int>(slot));
            QCOMPARE(md0->md->members[slot].state, u"in_sync"_qs);
        }
        QCOMPARE(md0->slaves.size(), 8);
        QCOMPARE(md0->leafDisks, (QStringList{u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs,
                                               u"sdf"_qs, u"sdg"_qs, u"sdh"_qs, u"sdi"_qs}));
        QCOMPARE(model.find(u"sdb"_qs)->holders, QStringList{u"md0"_qs});
        QCOMPARE(model.find(u"sdb"_qs)->transport, u"sata"_qs);
    }

    // The referee is the kernel: each recorded array carries, as literals,
    // the io_opt its md personality reported and the readahead it set at
    // assembly (2 x io_opt). blocktune derives both from md/level,
    // raid_disks, chunk_size and layout alone, so a wrong stripe formula
    // disagrees with the machine here.
    void mdGeometryAgreesWithWhatTheKernelSet_data()
    {
        QTest::addColumn<QString>("treeName");
        for (const char *t : {"scst-raid0-lvm", "md-raid10-f2", "raid5-degraded"})
            QTest::newRow(t) << QString::fromLatin1(t);
    }
    void mdGeometryAgreesWithWhatTheKernelSet()
    {
        QFETCH(QString, treeName);
        const auto model = DeviceModel::scan(SysRoot(recordedTree(treeName)));
        QVERIFY(model.ok());
        const BlockDevice *md0 = model->find(u"md0"_qs);
        QVERIFY(md0 && md0->md && md0->md->stripeKiB);
        QVERIFY(md0->optimalIoBytes && md0->readAheadKiB);
        QCOMPARE(*md0->md->stripeKiB * 1024, *md0->optimalIoBytes);
        QCOMPARE(md0->md->readaheadFloorKiB, md0->readAheadKiB);
    }

    void raid0UnderLvmOnTheScstTarget()
    {
        const DeviceModel model = scanTree("scst-raid0-lvm");
        const BlockDevice *md0 = model.find(u"md0"_qs);
        QVERIFY(md0 && md0->md);
        QCOMPARE(md0->md->level, u"raid0"_qs);
        QCOMPARE(md0->md->stripeKiB, std::optional<quint64>(128)); // 64K x 2
        QCOMPARE(md0->md->readaheadFloorKiB, std::optional<quint64>(256));
        QCOMPARE(md0->slaves, (QStringList{u"sdb1"_qs, u"sdc1"_qs}));
        QCOMPARE(md0->holders, (QStringList{u"dm-0"_qs, u"dm-1"_qs, u"dm-2"_qs}));
        for (const char *lv : {"dm-0", "dm-1", "dm-2"}) {
            const BlockDevice *d = model.find(QString::fromLatin1(lv));
            QVERIFY(d && d->dm);
            QCOMPARE(d->dm->kind, u"lvm"_qs);
            QVERIFY(d->dm->name.startsWith(u"vg_scst-lun"_qs));
            QCOMPARE(d->leafDisks, (QStringList{u"sdb"_qs, u"sdc"_qs}));
        }
        // The 2.6 kernel of the thread: legacy schedulers, and the
        // out-of-tree context readahead switch on the member disks.
        const BlockDevice *sdb = model.find(u"sdb"_qs);
        QCOMPARE(sdb->scheduler, u"cfq"_qs);
        QCOMPARE(sdb->schedulers, (QStringList{u"noop"_qs, u"anticipatory"_qs, u"deadline"_qs, u"cfq"_qs}));
        QCOMPARE(sdb->contextReadahead, std::optional<bool>(true));
        QCOMPARE(model.find(u"sdb1"_qs)->contextReadahead, std::optional<bool>(true));
        QCOMPARE(model.find(u"sda"_qs)->contextReadahead, std::optional<bool>(false));
        QCOMPARE(md0->contextReadahead, std::nullopt);
    }

    void degradedRaid5WithAFaultyMember()
    {
        const DeviceModel model = scanTree("raid5-degraded");
        const BlockDevice *md0 = model.find(u"md0"_qs);
        QVERIFY(md0 && md0->md);
        QCOMPARE(md0->md->level, u"raid5"_qs);
        QCOMPARE(md0->md->degraded, std::optional<int>(1));
        QCOMPARE(md0->md->stripeKiB, std::optional<quint64>(1536)); // 512K x (4-1)
        QCOMPARE(md0->md->readaheadFloorKiB, std::optional<quint64>(3072));
        QCOMPARE(md0->readAheadKiB, std::optional<quint64>(3072));
        const auto faulty = std::find_if(md0->md->members.cbegin(), md0->md->members.cend(),
                                         [](const MdMember &m) { return m.name == u"sdd1"; });
        QVERIFY(faulty != md0->md->members.cend());
        QCOMPARE(faulty->state, u"faulty"_qs);
        QCOMPARE(faulty->slot, std::nullopt);
        QCOMPARE(md0->leafDisks, (QStringList{u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs}));
        const BlockDevice *sdb1 = model.find(u"sdb1"_qs);
        QCOMPARE(sdb1->parent, u"sdb"_qs);
        QCOMPARE(sdb1->queueDevice, u"sdb"_qs);
        QCOMPARE(sdb1->scheduler, u"bfq"_qs);
    }

    void nvmeWithPartitionsAndCrypt()
    {
        const DeviceModel model = scanTree("nvme-parts");
        const BlockDevice *disk = model.find(u"nvme0n1"_qs);
        QVERIFY(disk);
        QCOMPARE(disk->transport, u"nvme"_qs);
        QCOMPARE(disk->rotational, std::optional<bool>(false));
        QCOMPARE(disk->scheduler, u"none"_qs);
        QVERIFY(!disk->serial.isEmpty());
        QVERIFY(!disk->model.isEmpty());
        QCOMPARE(model.children(u"nvme0n1"_qs),
                 (QStringList{u"nvme0n1p1"_qs, u"nvme0n1p2"_qs, u"nvme0n1p3"_qs}));
        const BlockDevice *crypt = model.find(u"dm-0"_qs);
        QVERIFY(crypt && crypt->dm);
        QCOMPARE(crypt->dm->kind, u"crypt"_qs);
        QCOMPARE(crypt->slaves, QStringList{u"nvme0n1p3"_qs});
        QCOMPARE(crypt->leafDisks, QStringList{u"nvme0n1"_qs});
    }

    void loopLeadsToTheDiskHoldingItsFile()
    {
        // The recorded mountinfo says / is on vda, where the backing files were.
        const DeviceModel model = scanTree("live-loop");
        const BlockDevice *loop0 = model.find(u"loop0"_qs);
        QVERIFY(loop0 && loop0->loop);
        QCOMPARE(loop0->loop->directIo, std::optional<bool>(true));
        QCOMPARE(model.find(u"loop1"_qs)->loop->directIo, std::optional<bool>(false));
        QCOMPARE(loop0->leafDisks, QStringList{u"vda"_qs});
        QCOMPARE(model.find(u"vda"_qs)->transport, u"virtio"_qs);
        // An unattached loop has no backing file and nothing underneath.
        const BlockDevice *loop7 = model.find(u"loop7"_qs);
        QVERIFY(!loop7->loop);
        QVERIFY(loop7->leafDisks.isEmpty());
    }

    void raid10LayoutNames_data()
    {
        QTest::addColumn<quint32>("layout");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("near");
        QTest::newRow("n2") << quint32(0x102) << u"n2"_qs << 2;
        QTest::newRow("f2") << quint32(0x201) << u"f2"_qs << 1;
        QTest::newRow("o2") << quint32(0x10201) << u"o2"_qs << 1;
        QTest::newRow("n3") << quint32(0x103) << u"n3"_qs << 3;
        QTest::newRow("n2f2") << quint32(0x202) << u"n2f2"_qs << 2;
    }
    void raid10LayoutNames()
    {
        QFETCH(quint32, layout);
        QFETCH(QString, name);
        QFETCH(int, near);
        QCOMPARE(raid10LayoutName(layout), name);
        QCOMPARE(decodeRaid10Layout(layout).near, near);
    }

    void stripeWidths_data()
    {
        QTest::addColumn<QString>("level");
        QTest::addColumn<int>("disks");
        QTest::addColumn<quint32>("layout");
        QTest::addColumn<qint64>("stripeKiB"); // -1 = none
        QTest::newRow("raid0 2x64K") << u"raid0"_qs << 2 << quint32(0) << qint64(128);
        QTest::newRow("raid10 n2 4 disks") << u"raid10"_qs << 4 << quint32(0x102) << qint64(1024);
        QTest::newRow("raid10 f2 8 disks") << u"raid10"_qs << 8 << quint32(0x201) << qint64(4096);
        QTest::newRow("raid10 o2 4 disks") << u"raid10"_qs << 4 << quint32(0x10201) << qint64(2048);
        QTest::newRow("raid5 4 disks") << u"raid5"_qs << 4 << quint32(2) << qint64(1536);
        QTest::newRow("raid6 6 disks") << u"raid6"_qs << 6 << quint32(2) << qint64(2048);
        QTest::newRow("raid1") << u"raid1"_qs << 2 << quint32(0) << qint64(-1);
        QTest::newRow("linear") << u"linear"_qs << 3 << quint32(0) << qint64(-1);
        QTest::newRow("zero disks") << u"raid0"_qs << 0 << quint32(0) << qint64(-1);
    }
    void stripeWidths()
    {
        QFETCH(QString, level);
        QFETCH(int, disks);
        QFETCH(quint32, layout);
        QFETCH(qint64, stripeKiB);
        const auto stripe = mdStripeKiB(level, disks, quint64(level == u"raid0" ? 64 : 512) * 1024, layout);
        if (stripeKiB < 0)
            QCOMPARE(stripe, std::nullopt);
        else
            QCOMPARE(stripe, std::optional<quint64>(quint64(stripeKiB)));
    }

    void kernelNameOrder()
    {
        QStringList names{u"sdaa"_qs, u"sdb"_qs, u"sdz"_qs, u"sda"_qs, u"nvme0n1p10"_qs, u"nvme0n1p2"_qs};
        std::sort(names.begin(), names.end(), kernelNameLess);
        QCOMPARE(names, (QStringList{u"nvme0n1p2"_qs, u"nvme0n1p10"_qs, u"sda"_qs, u"sdb"_qs, u"sdz"_qs, u"sdaa"_qs}));
    }

    // Trees without sys/class/block, enumerated as lsblk does: an old
    // kernel's sys/block of real directories, and a partial copy whose
    // sys/block lacks md0, found through its member's holders/.
    void withoutClassBlock_data()
    {
        QTest::addColumn<bool>("oldKernel");
        QTest::newRow("old kernel: sys/block holds the directories") << true;
        QTest::newRow("partial copy: md0 only in holders/") << false;
    }
    void withoutClassBlock()
    {
        QFETCH(bool, oldKernel);
        QTemporaryDir tmp;
        const QString sys = tmp.filePath(u"sys"_qs);
        const QString hda = oldKernel ? sys + u"/block/hda"_qs : sys + u"/devices/pci0000:00/0000:00:1f.1/ide0/0.0/block/hda"_qs;
        const QString md0 = oldKernel ? sys + u"/block/md0"_qs : sys + u"/devices/virtual/block/md0"_qs;
        auto put = [](const QString &path, const QByteArray &data) {
            QDir().mkpath(QFileInfo(path).absolutePath());
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
        };
        auto link = [](const QString &path, const QString &target) {
            QDir().mkpath(QFileInfo(path).absolutePath());
            return QFile::link(target, path);
        };
        QVERIFY(put(hda + u"/dev"_qs, "3:0\n") && put(hda + u"/size"_qs, "2000\n") && put(hda + u"/ro"_qs, "0\n")
                && put(hda + u"/removable"_qs, "0\n") && put(hda + u"/queue/read_ahead_kb"_qs, "128\n")
                && put(hda + u"/queue/rotational"_qs, "1\n")
                && put(hda + u"/queue/scheduler"_qs, "noop anticipatory [deadline] cfq\n"));
        QVERIFY(put(hda + u"/hda1/dev"_qs, "3:1\n") && put(hda + u"/hda1/size"_qs, "1000\n")
                && put(hda + u"/hda1/ro"_qs, "0\n") && put(hda + u"/hda1/partition"_qs, "1\n"));
        QVERIFY(put(md0 + u"/dev"_qs, "9:0\n") && put(md0 + u"/size"_qs, "1000\n") && put(md0 + u"/ro"_qs, "0\n")
                && put(md0 + u"/removable"_qs, "0\n") && put(md0 + u"/queue/read_ahead_kb"_qs, "128\n")
                && put(md0 + u"/queue/rotational"_qs, "1\n") && put(md0 + u"/queue/scheduler"_qs, "none\n")
                && put(md0 + u"/md/level"_qs, "raid1\n") && put(md0 + u"/md/raid_disks"_qs, "1\n"));
        QVERIFY(link(hda + u"/hda1/holders/md0"_qs, QDir(hda + u"/hda1/holders"_qs).relativeFilePath(md0)));
        QVERIFY(link(md0 + u"/slaves/hda1"_qs, QDir(md0 + u"/slaves"_qs).relativeFilePath(hda + u"/hda1"_qs)));
        if (!oldKernel) // no sys/block/md0: a copy that missed it
            QVERIFY(link(sys + u"/block/hda"_qs, u"../devices/pci0000:00/0000:00:1f.1/ide0/0.0/block/hda"_qs));

        const auto model = DeviceModel::scan(SysRoot(tmp.path()));
        QVERIFY2(model.ok(), model.ok() ? "" : qPrintable(model.error().message));
        QStringList names;
        for (const BlockDevice &d : model->devices())
            names << d.name;
        QCOMPARE(names, (QStringList{u"hda"_qs, u"hda1"_qs, u"md0"_qs}));
        const BlockDevice *part = model->find(u"hda1"_qs);
        QCOMPARE(part->type, DeviceType::Partition);
        QCOMPARE(part->parent, u"hda"_qs);
        QCOMPARE(part->scheduler, u"deadline"_qs); // the disk's queue
        QCOMPARE(part->holders, QStringList{u"md0"_qs});
        const BlockDevice *md = model->find(u"md0"_qs);
        QCOMPARE(md->type, DeviceType::Md);
        QCOMPARE(md->slaves, QStringList{u"hda1"_qs});
        QCOMPARE(md->leafDisks, QStringList{u"hda"_qs});
        QCOMPARE(model->roots(), QStringList{u"hda"_qs});
        QCOMPARE(model->children(u"hda"_qs), QStringList{u"hda1"_qs});
        QCOMPARE(model->children(u"hda1"_qs), QStringList{u"md0"_qs});
    }

    // /dev/disk/by-* names resolve in the tree, not on this machine: the
    // recorded raid10 host has udev's by-id links in ROOT/dev/disk/by-id.
    void byIdLinksResolveInTheTree_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("device"); // "" = no device
        QTest::newRow("wwn of a member") << u"/dev/disk/by-id/wwn-0x5000c50063a1b2c0"_qs << u"sdb"_qs;
        QTest::newRow("ata model and serial") << u"/dev/disk/by-id/ata-ST2000NM0033-9ZM175_Z1X0A213"_qs << u"sdc"_qs;
        QTest::newRow("a partition") << u"/dev/disk/by-id/ata-Samsung_SSD_870_EVO_500GB_S62ANJ0R412345T-part2"_qs
                                     << u"sda2"_qs;
        QTest::newRow("the array") << u"/dev/disk/by-id/md-uuid-fbf1c0e0:c67c6a70:263679f8:426416e5"_qs << u"md0"_qs;
        QTest::newRow("no such link") << u"/dev/disk/by-id/wwn-0x0000000000000000"_qs << QString();
        QTest::newRow("no such directory") << u"/dev/disk/by-path/pci-0000:00:1f.2-ata-2"_qs << QString();
        QTest::newRow("plain name") << u"sdd"_qs << u"sdd"_qs;
        QTest::newRow("plain node") << u"/dev/sde"_qs << u"sde"_qs;
    }
    void byIdLinksResolveInTheTree()
    {
        QFETCH(QString, path);
        QFETCH(QString, device);
        if (path.startsWith(u"/dev/disk"_qs))
            QVERIFY2(!QFileInfo::exists(path), "the link must not exist on this machine for the test to prove anything");
        const DeviceModel model = scanTree("md-raid10-f2");
        const BlockDevice *d = model.findByUserName(path);
        if (device.isEmpty()) {
            QVERIFY2(!d, d ? qPrintable(d->name) : "");
        } else {
            QVERIFY2(d, qPrintable(path));
            QCOMPARE(d->name, device);
        }
    }

    // Links are followed inside the root: an absolute target and one that
    // climbs too far both stay in the tree; a loop ends.
    void devLinksStayInTheRoot()
    {
        QTemporaryDir tree;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        const QString byId = tree.filePath(u"dev/disk/by-id/"_qs);
        QVERIFY(QFile::link(u"/dev/sdf"_qs, byId + u"absolute"_qs));
        QVERIFY(QFile::link(u"../../../../../../../dev/sdg"_qs, byId + u"climbing"_qs));
        QVERIFY(QDir().mkpath(tree.filePath(u"dev/mapper"_qs)));
        QVERIFY(QFile::link(u"../md0"_qs, tree.filePath(u"dev/mapper/array"_qs)));
        QVERIFY(QFile::link(u"../../mapper/array"_qs, byId + u"chained"_qs));
        QVERIFY(QFile::link(u"loop-b"_qs, byId + u"loop-a"_qs));
        QVERIFY(QFile::link(u"loop-a"_qs, byId + u"loop-b"_qs));
        QVERIFY(QFile::link(u"../../../etc/passwd"_qs, byId + u"outside-dev"_qs));
        const auto model = DeviceModel::scan(SysRoot(tree.path()));
        QVERIFY(model.ok());
        auto nameOf = [&model](const QString &path) {
            const BlockDevice *d = model->findByUserName(path);
            return d ? d->name : QString();
        };
        QCOMPARE(nameOf(u"/dev/disk/by-id/absolute"_qs), u"sdf"_qs);
        QCOMPARE(nameOf(u"/dev/disk/by-id/climbing"_qs), u"sdg"_qs);
        QCOMPARE(nameOf(u"/dev/disk/by-id/chained"_qs), u"md0"_qs);
        QCOMPARE(nameOf(u"/dev/mapper/array"_qs), u"md0"_qs);
        QCOMPARE(nameOf(u"/dev/disk/by-id/loop-a"_qs), QString());
        QCOMPARE(nameOf(u"/dev/disk/by-id/outside-dev"_qs), QString());
        const SysRoot root(tree.path());
        // ROOT/etc does not exist; the live /etc/passwd is never looked at.
        QCOMPARE(root.resolveInRoot(u"/dev/disk/by-id/outside-dev"_qs), QString());
        QCOMPARE(root.resolveInRoot(u"/dev/disk/by-id/climbing"_qs), u"/dev/sdg"_qs);
        QCOMPARE(root.resolveInRoot(u"/dev/disk/by-id/loop-a"_qs), QString());
        QCOMPARE(root.resolveInRoot(u"dev/disk/by-id/absolute"_qs), QString());
    }

    // The digest a host's window polls for hotplug (the agent's
    // block_devices): a loop device detached and attached again to another
    // file of the same size between two looks changes it (a name is free
    // for anyone once detached); a setting changed does not.
    void digestSeesALoopReattachedToAnotherFile()
    {
        QTemporaryDir tree;
        QVERIFY(copyTree(recordedTree("live-loop"), tree.path()));
        const SysRoot root(tree.path());
        auto write = [&](const char *relative, const QByteArray &text) {
            QFile f(tree.filePath(QString::fromLatin1(relative)));
            return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
        };
        const BlockDeviceDigest first = blockDeviceDigest(root);
        QVERIFY(first.count > 0 && !first.digest.isEmpty());
        QCOMPARE(blockDeviceDigest(root).digest, first.digest);
        QVERIFY(write("sys/devices/virtual/block/loop0/queue/read_ahead_kb", "4096\n"));
        QCOMPARE(blockDeviceDigest(root).digest, first.digest);
        QVERIFY(write("sys/devices/virtual/block/loop0/loop/backing_file", "/var/tmp/someone-else/disk.img\n"));
        const BlockDeviceDigest reattached = blockDeviceDigest(root);
        QCOMPARE(reattached.count, first.count);
        QVERIFY(reattached.digest != first.digest);
        QVERIFY(write("sys/devices/virtual/block/loop0/loop/offset", "4096\n"));
        QVERIFY(blockDeviceDigest(root).digest != reattached.digest);
    }

    void notASysfsTree()
    {
        QTemporaryDir empty;
        const auto model = DeviceModel::scan(SysRoot(empty.path()));
        QVERIFY(!model.ok());
        QVERIFY2(model.error().message.contains(u"class/block"_qs), qPrintable(model.error().message));
    }
};

QTEST_GUILESS_MAIN(TestDeviceModelTrees)
#include "tst_devicemodel_trees.moc"
