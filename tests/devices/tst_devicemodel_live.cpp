// The device model on the live machine: udev and sysfs enumeration agree,
// loop devices (with partitions and filesystems) are modelled right, and
// hotplug events arrive.
#include "devices/devices.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QThread>
#include <QSignalSpy>
#include <QTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

// This kernel (like many VM kernels) has no partition-table parsers, so
// partitions are added the way partx does it: BLKPG via addpart.
bool addPartition(const QString &dev, quint32 startSector, quint32 sectors)
{
    return run(QStringLiteral("addpart"), {dev, QStringLiteral("1"), QString::number(startSector),
                                           QString::number(sectors)}).exitCode == 0;
}

// A loop device over `image` that accepts partitions; "" on failure.
QString attachWithPartscan(const QString &image)
{
    const ProcessResult attached = run(QStringLiteral("losetup"),
                                       {QStringLiteral("--find"), QStringLiteral("--show"),
                                        QStringLiteral("--partscan"), image});
    return attached.exitCode == 0 ? QString::fromLocal8Bit(attached.out).trimmed() : QString();
}

// Detaches `dev` while it still holds `image` (its name is anyone's once it
// lets go: others attach loops on this machine), and waits until the
// kernel has let go of it (it defers a detach while the device is open:
// udev's probe of a partition, say); false when it has not within 10 s.
bool detachAndWait(const QString &dev, const QString &image)
{
    const QString name = dev.mid(5);
    const QString file = QFileInfo(image).canonicalFilePath();
    if (loopBackingFile(name) == file)
        run(QStringLiteral("losetup"), {QStringLiteral("-d"), dev});
    return QTest::qWaitFor([&] { return loopBackingFile(name) != file; }, 30000);
}

// The first device whose JSON differs between two scans, both JSONs; empty
// when they agree.
QString firstDifference(const DeviceModel &a, const DeviceModel &b)
{
    if (a.devices().size() != b.devices().size())
        return QStringLiteral("%1 devices through udev, %2 walking sysfs").arg(a.devices().size()).arg(b.devices().size());
    for (qsizetype i = 0; i < a.devices().size(); ++i) {
        const QJsonObject x = deviceToJson(a.devices()[i]), y = deviceToJson(b.devices()[i]);
        if (x != y)
            return QStringLiteral("udev: %1\nsysfs: %2")
                .arg(QString::fromUtf8(QJsonDocument(x).toJson(QJsonDocument::Compact)),
                     QString::fromUtf8(QJsonDocument(y).toJson(QJsonDocument::Compact)));
    }
    return {};
}

// The whole disk holding `file`, found independently of the model: stat,
// /sys/dev/block/MAJ:MIN, and up one level for a partition.
QString diskHolding(const QString &file)
{
    struct stat st {};
    if (::stat(file.toLocal8Bit().constData(), &st) != 0)
        return {};
    const QString link = QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_dev)).arg(minor(st.st_dev));
    const QFileInfo info(link);
    QString dir = info.canonicalFilePath();
    if (QFile::exists(dir + QStringLiteral("/partition")))
        dir = QFileInfo(dir).path();
    return QFileInfo(dir).fileName();
}

} // namespace

class TestDeviceModelLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void udevAndSysfsWalkAgree()
    {
        LoopDevice loop(16 << 20, true);
        if (::geteuid() == 0)
            QVERIFY(loop.isValid());
        ScanOptions viaUdev;
        viaUdev.enumerate = ScanOptions::Enumerate::Udev;
        ScanOptions viaSysfs;
        viaSysfs.enumerate = ScanOptions::Enumerate::SysfsWalk;
        // Others attach, detach and tune loop devices beside the test: the
        // two walks are compared over a moment in which the machine's
        // devices held still (its digest the same before and after), and
        // taken again when they differ. A walk that reads a device wrong
        // differs every time.
        QString difference = QStringLiteral("the machine's block devices changed during each of 20 pairs of scans");
        for (int attempt = 0; attempt < 20; ++attempt) {
            const QByteArray before = blockDeviceDigest(SysRoot()).digest;
            const auto a = DeviceModel::scan(SysRoot(), viaUdev);
            const auto b = DeviceModel::scan(SysRoot(), viaSysfs);
            QVERIFY(a.ok() && b.ok());
            QVERIFY(!a->devices().isEmpty());
            if (blockDeviceDigest(SysRoot()).digest != before)
                continue;
            difference = firstDifference(*a, *b);
            if (difference.isEmpty())
                return;
            QThread::msleep(100);
        }
        QFAIL(qPrintable(difference));
    }

    void loopDeviceIsModelled()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(32 << 20, true);
        QVERIFY(loop.isValid());
        const auto model = DeviceModel::scan(SysRoot());
        QVERIFY(model.ok());
        const BlockDevice *d = model->find(loop.name());
        QVERIFY(d);
        QCOMPARE(d->type, DeviceType::Loop);
        QCOMPARE(d->path, loop.path());
        QCOMPARE(d->sizeBytes, std::optional<quint64>(32 << 20));
        QVERIFY(d->loop.has_value());
        QCOMPARE(d->loop->backingFile, loop.backingFile());
        QCOMPARE(d->loop->directIo, std::optional<bool>(true));
        const QString holder = diskHolding(loop.backingFile());
        QVERIFY(!holder.isEmpty());
        QCOMPARE(d->leafDisks, QStringList{holder});

        QFile ra(QStringLiteral("/sys/block/%1/queue/read_ahead_kb").arg(loop.name()));
        QVERIFY(ra.open(QIODevice::ReadOnly));
        QCOMPARE(d->readAheadKiB, std::optional<quint64>(ra.readAll().trimmed().toULongLong()));
        QVERIFY(d->schedulers.contains(d->scheduler));
        QCOMPARE(model->findByUserName(loop.path()), d);
    }

    void partitionsAndFilesystemsOnALoop()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        // A file with an MBR and an ext4 filesystem in its partition.
        QTemporaryDir dir(testTempRoot() + QStringLiteral("/blocktune-test-XXXXXX"));
        const QString image = dir.filePath(QStringLiteral("disk.img"));
        const QString fsImage = dir.filePath(QStringLiteral("fs.img"));
        const quint32 sectors = 64 * 2048; // 64 MiB
        {
            QFile f(image);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(sectors) * 512));
        }
        QCOMPARE(run(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), QStringLiteral("-F"),
                                                   QStringLiteral("-L"), QStringLiteral("bt-label"),
                                                   fsImage, QStringLiteral("16M")}).exitCode, 0);
        {
            QFile fs(fsImage);
            QFile disk(image);
            QVERIFY(fs.open(QIODevice::ReadOnly) && disk.open(QIODevice::ReadWrite));
            QVERIFY(disk.seek(2048 * 512));
            disk.write(fs.readAll());
        }
        const QString dev = attachWithPartscan(image);
        QVERIFY(!dev.isEmpty());
        const QString name = dev.mid(5);
        auto detach = qScopeGuard([&] { QVERIFY2(detachAndWait(dev, image), qPrintable(dev + u" still attached"_qs)); });

        const QString partName = name + QStringLiteral("p1");
        QVERIFY(addPartition(dev, 2048, sectors - 2048));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(QStringLiteral("/sys/class/block/") + partName), 30000);
        const auto model = DeviceModel::scan(SysRoot());
        QVERIFY(model.ok());
        const BlockDevice *part = model->find(partName);
        const BlockDevice *disk = model->find(name);
        QVERIFY(part && disk);
        QCOMPARE(part->type, DeviceType::Partition);
        QCOMPARE(part->parent, name);
        QCOMPARE(part->partitionNumber, std::optional<int>(1));
        QCOMPARE(part->queueDevice, name);
        QCOMPARE(part->readAheadKiB, disk->readAheadKiB); // a partition reports its disk's
        QCOMPARE(part->scheduler, disk->scheduler);
        QCOMPARE(part->sizeBytes, std::optional<quint64>(quint64(sectors - 2048) * 512));
        QCOMPARE(part->leafDisks, disk->leafDisks);
        QCOMPARE(model->children(name), QStringList{partName});
        QCOMPARE(part->fstype, QStringLiteral("ext4"));
        QCOMPARE(part->label, QStringLiteral("bt-label"));
        QVERIFY(!part->uuid.isEmpty());
        QVERIFY(disk->fstype.isEmpty()); // the disk holds a partition table, not a filesystem
    }

    void hotplugEventsArrive()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        DeviceWatcher watcher;
        QVERIFY2(watcher.start(), qPrintable(watcher.errorString()));
        QSignalSpy changed(&watcher, &DeviceWatcher::deviceChanged);
        QSignalSpy added(&watcher, &DeviceWatcher::deviceAdded);
        QSignalSpy removed(&watcher, &DeviceWatcher::deviceRemoved);

        QTemporaryDir dir(testTempRoot() + QStringLiteral("/blocktune-test-XXXXXX"));
        const QString image = dir.filePath(QStringLiteral("disk.img"));
        {
            QFile f(image);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(16 << 20));
        }
        const QString dev = attachWithPartscan(image);
        QVERIFY(!dev.isEmpty());
        const QString name = dev.mid(5);
        auto detach = qScopeGuard([&] { QVERIFY2(detachAndWait(dev, image), qPrintable(dev + u" still attached"_qs)); });

        QVERIFY(addPartition(dev, 2048, 16 * 2048 - 2048));
        // Attaching changes loopN; adding a partition adds loopNp1.
        auto seen = [](const QSignalSpy &spy, const QString &n) {
            for (const auto &args : spy)
                if (args.at(0).toString() == n)
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(seen(changed, name), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(seen(added, name + QStringLiteral("p1")), 30000);
        detach.dismiss();
        QCOMPARE(run(QStringLiteral("losetup"), {QStringLiteral("-d"), dev}).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(seen(removed, name + QStringLiteral("p1")), 30000);
        QVERIFY2(detachAndWait(dev, image), qPrintable(dev + u" still attached"_qs));
    }
};

QTEST_GUILESS_MAIN(TestDeviceModelLive)
#include "tst_devicemodel_live.moc"
