// The device tree on recorded machines: arrays as arrays (md0 once with its
// eight members), LVM volumes by VG/LV name, the empty-device and virtual
// filters, search by serial and WWN, and a value changed outside the
// console showing at the next refresh of the rows on screen.
#include "devicepane.h"
#include "devicetree.h"
#include "testsupport.h"

#include "devices/devices.h"

#include <QCheckBox>
#include <QFile>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

DeviceModel scanTree(const QString &root)
{
    ScanOptions options;
    options.probeFilesystems = false;
    auto model = DeviceModel::scan(SysRoot(root), options);
    if (!model)
        qFatal("cannot scan %s: %s", qPrintable(root), qPrintable(model.error().message));
    return *model;
}

QStringList topLevelNames(const DeviceTree &tree)
{
    QStringList names;
    for (int i = 0; i < tree.topLevelItemCount(); ++i)
        if (!tree.topLevelItem(i)->isHidden())
            names << tree.topLevelItem(i)->text(DeviceTree::Name);
    return names;
}

QStringList childNames(const QTreeWidgetItem *item)
{
    QStringList names;
    for (int i = 0; i < item->childCount(); ++i)
        names << item->child(i)->text(DeviceTree::Name);
    return names;
}

/// The kernel names of the rows a user can see (not hidden by the search).
QStringList shownDevices(DeviceTree &tree)
{
    QStringList names;
    for (QTreeWidgetItemIterator it(&tree, QTreeWidgetItemIterator::NotHidden); *it; ++it)
        names << (*it)->data(DeviceTree::Name, Qt::UserRole).toString();
    return names;
}

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

} // namespace

class TestDeviceTree : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void arrayOnceWithItsMembers()
    {
        DeviceTree tree;
        tree.setModel(scanTree(recordedTree("md-raid10-f2")));
        QCOMPARE(tree.arrangement(), DeviceTree::Arrangement::Arrays);
        // The array first, then the system disk nothing is built on.
        QCOMPARE(topLevelNames(tree), (QStringList{u"md0"_qs, u"sda"_qs}));
        const QList<QTreeWidgetItem *> md0 = tree.itemsFor(u"md0"_qs);
        QCOMPARE(md0.size(), 1);
        QCOMPARE(childNames(md0.first()), (QStringList{u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs, u"sdf"_qs,
                                                       u"sdg"_qs, u"sdh"_qs, u"sdi"_qs}));
        QVERIFY2(md0.first()->text(DeviceTree::Detail).startsWith(u"raid10 f2"_qs),
                 qPrintable(md0.first()->text(DeviceTree::Detail)));
        QCOMPARE(childNames(tree.itemsFor(u"sda"_qs).first()), (QStringList{u"sda1"_qs, u"sda2"_qs}));
        // The long details are in the tooltip: members and their state.
        QVERIFY2(md0.first()->toolTip(DeviceTree::Name).contains(u"sdb (in_sync)"_qs),
                 qPrintable(md0.first()->toolTip(DeviceTree::Name)));

        // By disk, as lsblk shows it: the array under each of its members.
        tree.setArrangement(DeviceTree::Arrangement::Disks);
        QCOMPARE(tree.itemsFor(u"md0"_qs).size(), 8);
        QCOMPARE(tree.topLevelItemCount(), 9);
    }

    void lvmVolumesByName()
    {
        DeviceTree tree;
        tree.setModel(scanTree(recordedTree("scst-raid0-lvm")));
        QCOMPARE(topLevelNames(tree), (QStringList{u"md0"_qs, u"vg_scst/lun0 (dm-0)"_qs, u"vg_scst/lun1 (dm-1)"_qs,
                                                   u"vg_scst/lun2 (dm-2)"_qs, u"sda"_qs}));
        const QList<QTreeWidgetItem *> lun1 = tree.itemsFor(u"dm-1"_qs);
        QCOMPARE(lun1.size(), 1);
        QCOMPARE(lun1.first()->text(DeviceTree::Detail), u"lvm, on md0"_qs);
        QCOMPARE(lun1.first()->text(DeviceTree::Readahead), u"256"_qs);
        // md0's members are partitions: each under its disk, under md0, once.
        QCOMPARE(tree.itemsFor(u"md0"_qs).size(), 1);
        const QTreeWidgetItem *md0 = tree.itemsFor(u"md0"_qs).first();
        QCOMPARE(childNames(md0), (QStringList{u"sdb"_qs, u"sdc"_qs}));
        QCOMPARE(childNames(md0->child(0)), QStringList{u"sdb1"_qs});
        QCOMPARE(tree.itemsFor(u"sdb1"_qs).size(), 1);
        // Selecting by kernel name finds the row shown by its LVM name.
        QVERIFY(tree.selectDevice(u"dm-2"_qs));
        QCOMPARE(tree.selectedDevice(), u"dm-2"_qs);
        // Searching by the LVM name works too.
        tree.setSearchText(u"lun0"_qs);
        QCOMPARE(shownDevices(tree), QStringList{u"dm-0"_qs});
    }

    void emptyAndVirtualDevicesAreFiltered()
    {
        // live-loop: loop0 and loop1 attached (64 MiB), loop2..7 and zram0 of size 0.
        DeviceTree tree;
        tree.setModel(scanTree(recordedTree("live-loop")));
        QVERIFY(tree.hidesEmpty());
        QCOMPARE(topLevelNames(tree), (QStringList{u"loop0"_qs, u"loop1"_qs, u"vda"_qs}));

        tree.setHideEmpty(false);
        const QList<QTreeWidgetItem *> loop2 = tree.itemsFor(u"loop2"_qs);
        QCOMPARE(loop2.size(), 1);
        // Shown on request, a detached loop says so instead of "0 B HDD 2560".
        QCOMPARE(loop2.first()->text(DeviceTree::Detail), u"detached"_qs);
        QCOMPARE(loop2.first()->text(DeviceTree::Readahead), QString());
        QCOMPARE(loop2.first()->text(DeviceTree::Rotational), QString());
        QCOMPARE(tree.topLevelItemCount(), 10);

        tree.setHideEmpty(true);
        tree.setHideVirtual(true);
        QCOMPARE(topLevelNames(tree), QStringList{u"vda"_qs});

        // The pane's check boxes drive the same filters.
        DevicePane pane(recordedTree("live-loop"));
        pane.tree()->setModel(scanTree(recordedTree("live-loop")));
        auto *hideVirtual = pane.findChild<QCheckBox *>(u"hideVirtual"_qs);
        QVERIFY(hideVirtual);
        QCOMPARE(pane.tree()->topLevelItemCount(), 3);
        hideVirtual->click();
        QCOMPARE(topLevelNames(*pane.tree()), QStringList{u"vda"_qs});
    }

    void searchFindsBySerialAndWwn()
    {
        DeviceTree nvme;
        nvme.setModel(scanTree(recordedTree("nvme-parts")));
        nvme.setSearchText(u"s5gxnf0r912345k"_qs); // the controller's serial, any case
        QVERIFY2(shownDevices(nvme).contains(u"nvme0n1"_qs), qPrintable(shownDevices(nvme).join(u' ')));
        nvme.setSearchText(u"S5GXNF0R000000X"_qs);
        QCOMPARE(shownDevices(nvme), QStringList{});

        // sdc's WWN (naa.5000c50063a1b493): sdc and the array it is in.
        DevicePane pane(recordedTree("md-raid10-f2"));
        pane.tree()->setModel(scanTree(recordedTree("md-raid10-f2")));
        QTest::keyClicks(pane.searchField(), u"5000c50063a1b493"_qs);
        QCOMPARE(shownDevices(*pane.tree()), (QStringList{u"md0"_qs, u"sdc"_qs}));
        pane.searchField()->clear();
        QCOMPARE(shownDevices(*pane.tree()).size(), 12); // md0, 8 members, sda, sda1, sda2
    }

    void outsideChangesShowAtTheRefresh()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        DevicePane pane(dir.path());
        DeviceTree *tree = pane.tree();
        tree->setModel(scanTree(dir.path()));
        pane.resize(900, 700);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTreeWidgetItem *sdb = tree->itemsFor(u"sdb"_qs).first();
        QCOMPARE(sdb->text(DeviceTree::Readahead), u"128"_qs);
        QCOMPARE(sdb->text(DeviceTree::Scheduler), u"mq-deadline"_qs);
        QTreeWidgetItem *sda1 = tree->itemsFor(u"sda1"_qs).first();
        const QString sda1Before = sda1->text(DeviceTree::Readahead);

        // Someone runs blockdev --setra 8192 /dev/sdb and switches sdb and sda to bfq.
        QVERIFY(writeFile(dir.path() + u"/sys/block/sdb/queue/read_ahead_kb"_qs, "4096\n"));
        QVERIFY(writeFile(dir.path() + u"/sys/block/sdb/queue/scheduler"_qs, "none mq-deadline kyber [bfq]\n"));
        QVERIFY(writeFile(dir.path() + u"/sys/block/sda/queue/read_ahead_kb"_qs, "1024\n"));
        const int scans = DeviceModel::scansInProcess();
        tree->refreshVisibleValues(); // what the two-second timer calls
        QCOMPARE(DeviceModel::scansInProcess(), scans); // no scan: a few reads
        QCOMPARE(sdb->text(DeviceTree::Readahead), u"4096"_qs);
        QCOMPARE(sdb->text(DeviceTree::Scheduler), u"bfq"_qs);
        // A partition shows its disk's queue.
        QCOMPARE(sda1->text(DeviceTree::Readahead), u"1024"_qs);
        QVERIFY(sda1Before != u"1024"_qs);
        // The tree's own timer does the same.
        QVERIFY(writeFile(dir.path() + u"/sys/block/sdc/queue/read_ahead_kb"_qs, "2048\n"));
        QTRY_COMPARE_WITH_TIMEOUT(tree->itemsFor(u"sdc"_qs).first()->text(DeviceTree::Readahead), u"2048"_qs, 30000);
    }
};

QTEST_MAIN(TestDeviceTree)
#include "tst_devicetree.moc"
