// Which interrupt lines serve which device, and which devices form groups,
// on the recorded trees: NVMe queues, a virtio disk under loop devices,
// AHCI controllers shared by md members, a 2.6-era SCST box, a degraded
// raid5.
#include "devices/devices.h"
#include "monitortestsupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

struct Mapped
{
    std::optional<DeviceModel> model;
    Topology topology;
};

Mapped mapTree(const QString &dir)
{
    Mapped m;
    const SysRoot root(dir);
    ScanOptions options;
    options.probeFilesystems = false;
    auto model = DeviceModel::scan(root, options);
    if (!model)
        return m;
    m.topology = buildTopology(root, *model);
    m.model = std::move(*model);
    return m;
}

const GroupSpec *group(const Topology &t, const QString &name)
{
    for (const GroupSpec &g : t.groups)
        if (g.name == name)
            return &g;
    return nullptr;
}

QList<int> range(int from, int to)
{
    QList<int> out;
    for (int i = from; i <= to; ++i)
        out << i;
    return out;
}

// Removes every msi_irqs/ below DIR/sys/devices (a tree recorded without
// them, or a platform whose devices have none).
void dropMsiDirectories(const QString &dir)
{
    const ProcessResult r = run(QStringLiteral("find"), {dir + QStringLiteral("/sys/devices"), QStringLiteral("-name"),
                                                         QStringLiteral("msi_irqs"), QStringLiteral("-type"),
                                                         QStringLiteral("d"), QStringLiteral("-prune"),
                                                         QStringLiteral("-exec"), QStringLiteral("rm"),
                                                         QStringLiteral("-rf"), QStringLiteral("{}"),
                                                         QStringLiteral("+")});
    QCOMPARE(r.exitCode, 0);
}

} // namespace

class TestTopology : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nvmeQueues()
    {
        const Mapped m = mapTree(recordedTree("nvme-parts"));
        QVERIFY(m.model);
        // msi_irqs/ of 0000:3d:00.0 lists the admin queue and eight I/O queues.
        QCOMPARE(m.topology.irqs.value(u"nvme0n1"_qs), range(130, 138));
        // Partitions and the dm-crypt volume on p3 complete on the same lines.
        QCOMPARE(m.topology.irqs.value(u"nvme0n1p3"_qs), range(130, 138));
        QCOMPARE(m.topology.irqs.value(u"dm-0"_qs), range(130, 138));
        QVERIFY(m.topology.sharedIrqs.isEmpty()); // one disk on that controller
        QVERIFY(!m.topology.irqs.contains(u"nosuch"_qs));
        QVERIFY(m.topology.groups.isEmpty()); // dm-0 has one slave: no balance to show
    }

    void nvmeQueuesByActionName()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("nvme-parts"), dir.path()));
        dropMsiDirectories(dir.path());
        const Mapped m = mapTree(dir.path());
        // Without msi_irqs/ the rows named nvme0q0..nvme0q8 say whose they are;
        // i915, xhci_hcd and iwlwifi are not.
        QCOMPARE(m.topology.irqs.value(u"nvme0n1"_qs), range(130, 138));
        QCOMPARE(m.topology.irqs.value(u"nvme0n1p1"_qs), range(130, 138));
    }

    void virtioDiskUnderLoopDevices()
    {
        const Mapped m = mapTree(recordedTree("live-loop"));
        QVERIFY(m.model);
        // vda is virtio1 on PCI 0000:00:02.0: msi_irqs 35 (config), 36 (req.0).
        QCOMPARE(m.topology.irqs.value(u"vda"_qs), (QList<int>{35, 36}));
        // A loop device's requests end up on the disk holding its backing
        // file (/tmp on vda's filesystem): the same lines.
        QCOMPARE(m.model->find(u"loop0"_qs)->leafDisks, QStringList{u"vda"_qs});
        QCOMPARE(m.topology.irqs.value(u"loop0"_qs), (QList<int>{35, 36}));
        QCOMPARE(m.topology.irqs.value(u"loop1"_qs), (QList<int>{35, 36}));
        // Unattached loops and zram have no hardware under them.
        QVERIFY(!m.topology.irqs.contains(u"loop5"_qs));
        QVERIFY(!m.topology.irqs.contains(u"zram0"_qs));
        QVERIFY(m.topology.sharedIrqs.isEmpty());
    }

    void virtioByActionName()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("live-loop"), dir.path()));
        dropMsiDirectories(dir.path());
        // Rows virtio1-config and virtio1-req.0; virtio2-input.0 is another device's.
        QCOMPARE(mapTree(dir.path()).topology.irqs.value(u"vda"_qs), (QList<int>{35, 36}));
        QCOMPARE(mapTree(dir.path()).topology.irqs.value(u"loop0"_qs), (QList<int>{35, 36}));
    }

    void legacyIntxLine()
    {
        // An AHCI controller on INTx: no msi_irqs/, the row names only the
        // driver; the function's `irq` file says which line is its.
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        dropMsiDirectories(dir.path());
        QFile file(dir.filePath(u"proc/interrupts"_qs));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll();
        file.close();
        text.replace("PCI-MSI 512000-edge      ahci[0000:00:1f.2]", "IO-APIC  34-fasteoi   ahci");
        text.replace("PCI-MSI 2621440-edge      ahci[0000:05:00.0]", "IO-APIC  35-fasteoi   ahci");
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
        file.close();
        const Mapped m = mapTree(dir.path());
        QCOMPARE(m.topology.irqs.value(u"sdb"_qs), QList<int>{34});
        QCOMPARE(m.topology.irqs.value(u"sdi"_qs), QList<int>{35});
    }

    void ahciControllersSharedByMdMembers()
    {
        const Mapped m = mapTree(recordedTree("md-raid10-f2"));
        QVERIFY(m.model);
        // sda..sdf on 0000:00:1f.2 (irq 34), sdg..sdi on 0000:05:00.0 (irq 35).
        for (const char *disk : {"sda", "sdb", "sdf"})
            QCOMPARE(m.topology.irqs.value(QString::fromLatin1(disk)), QList<int>{34});
        for (const char *disk : {"sdg", "sdi"})
            QCOMPARE(m.topology.irqs.value(QString::fromLatin1(disk)), QList<int>{35});
        QCOMPARE(m.topology.irqs.value(u"md0"_qs), (QList<int>{34, 35}));
        // One line serves several disks: their irq/s is the controller's.
        QVERIFY(m.topology.sharedIrqs.contains(u"sdb"_qs));
        QVERIFY(m.topology.sharedIrqs.contains(u"sdi"_qs));
        QVERIFY(m.topology.sharedIrqs.contains(u"md0"_qs)); // irq 34 also serves sda
        QVERIFY(m.topology.sharedIrqs.contains(u"sda2"_qs));

        const GroupSpec *md0 = group(m.topology, u"md0"_qs);
        QVERIFY(md0);
        QCOMPARE(md0->kind, u"md"_qs);
        QCOMPARE(md0->members, (QStringList{u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs, u"sdf"_qs,
                                            u"sdg"_qs, u"sdh"_qs, u"sdi"_qs}));
    }

    void ahciByBracketedAddress()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        dropMsiDirectories(dir.path());
        const Mapped m = mapTree(dir.path());
        // Rows "ahci[0000:00:1f.2]" and "ahci[0000:05:00.0]"; eno1 is not a disk's.
        QCOMPARE(m.topology.irqs.value(u"sdc"_qs), QList<int>{34});
        QCOMPARE(m.topology.irqs.value(u"sdh"_qs), QList<int>{35});
    }

    void legacyScstTree()
    {
        const Mapped m = mapTree(recordedTree("scst-raid0-lvm"));
        QVERIFY(m.model);
        // 2.6.27: one MSI line 218 for the ICH10 AHCI, row "PCI-MSI-edge ahci".
        QCOMPARE(m.topology.irqs.value(u"sdb"_qs), QList<int>{218});
        // LV -> md0 -> sdb1 + sdc1 -> sdb, sdc: all on 218.
        QCOMPARE(m.topology.irqs.value(u"dm-1"_qs), QList<int>{218});
        const GroupSpec *md0 = group(m.topology, u"md0"_qs);
        QVERIFY(md0);
        QCOMPARE(md0->members, (QStringList{u"sdb1"_qs, u"sdc1"_qs}));
        // The LVs sit on md0 alone: no dm group.
        QVERIFY(!group(m.topology, u"dm-0"_qs));
    }

    void degradedRaid5LeavesTheFailedMemberOut()
    {
        const Mapped m = mapTree(recordedTree("raid5-degraded"));
        QVERIFY(m.model);
        const GroupSpec *md0 = group(m.topology, u"md0"_qs);
        QVERIFY(md0);
        // sdd1 is faulty (slot none): md sends it no I/O, so it is no share.
        QCOMPARE(md0->members, (QStringList{u"sdb1"_qs, u"sdc1"_qs, u"sde1"_qs}));
    }

    void unusedLegacyLineIsNotTaken()
    {
        // With MSI-X an NVMe function still shows its INTx pin in `irq`
        // (16 here) though nothing uses it; without msi_irqs/ and without
        // nvme0qN rows, the device has no known lines rather than a wrong one.
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("nvme-parts"), dir.path()));
        dropMsiDirectories(dir.path());
        QFile file(dir.filePath(u"proc/interrupts"_qs));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray kept;
        for (const QByteArray &line : file.readAll().split('\n'))
            if (!line.contains("nvme0q"))
                kept += line + '\n';
        file.close();
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(kept);
        file.close();
        QVERIFY(!mapTree(dir.path()).topology.irqs.contains(u"nvme0n1"_qs));
    }

    void noInterruptsFileMeansNoLines()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("nvme-parts"), dir.path()));
        dropMsiDirectories(dir.path());
        QVERIFY(QFile::remove(dir.filePath(u"proc/interrupts"_qs)));
        const Mapped m = mapTree(dir.path());
        QVERIFY(m.model);
        QVERIFY(m.topology.irqs.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTopology)
#include "tst_topology.moc"
