// The console's settings panel and main window, driven as a user would
// (offscreen), writing into a copy of a recorded tree.
#include "mainwindow.h"
#include "devicetree.h"
#include "tuningpanel.h"
#include "testsupport.h"

#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

// A private copy of a recorded tree, so the panel can write into it.
QString copyOf(const QTemporaryDir &dir, const char *name)
{
    return copyTree(recordedTree(name), dir.path()) ? dir.path() : QString();
}

QString readAttr(const QString &root, const QString &rel)
{
    QFile f(root + QStringLiteral("/sys/class/block/") + rel);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

template<typename T>
T *child(QWidget *parent, const QString &accessibleName)
{
    for (T *w : parent->findChildren<T *>())
        if (w->accessibleName() == accessibleName)
            return w;
    return nullptr;
}

} // namespace

class TestTuningPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        // Journals of these tests stay in a private directory.
        QVERIFY(m_journals.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
    }

    void readaheadSliderAndApply()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        QVERIFY(!root.isEmpty());
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"128"_qs);

        TuningPanel panel(root);
        panel.setDevice(u"sdb"_qs);
        auto *spin = child<QSpinBox>(&panel, u"Readahead in KiB"_qs);
        auto *slider = child<QSlider>(&panel, u"Readahead"_qs);
        QVERIFY(spin && slider);
        QCOMPARE(spin->value(), 128);

        // Dragging the slider one step right doubles readahead: 128 -> 256.
        slider->setValue(slider->value() + 1);
        QCOMPARE(spin->value(), 256);
        spin->setValue(4096);
        QVERIFY(panel.applyChanges(false));
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"4096"_qs);
        QVERIFY2(panel.lastMessage().contains(u"applied"_qs), qPrintable(panel.lastMessage()));
        QCOMPARE(spin->value(), 4096); // reloaded from the tree

        // Revert brings back what the session changed.
        panel.revertSession();
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"128"_qs);
    }

    void mdFloorIsShownAndMembersCanFollow()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        TuningPanel panel(root);
        panel.setDevice(u"md0"_qs);
        auto *spin = child<QSpinBox>(&panel, u"Readahead in KiB"_qs);
        QVERIFY(spin);
        QCOMPARE(spin->value(), 8192);
        spin->setValue(1024);
        bool warned = false;
        for (QLabel *label : panel.findChildren<QLabel *>())
            warned |= label->text().contains(u"Below the kernel's floor of 8192 KiB"_qs);
        QVERIFY(warned);

        QCheckBox *members = nullptr;
        for (QCheckBox *box : panel.findChildren<QCheckBox *>())
            if (box->text().contains(u"member disks"_qs))
                members = box;
        QVERIFY(members && !members->isHidden());
        members->setChecked(true);
        QVERIFY(panel.applyChanges(false));
        QCOMPARE(readAttr(root, u"md0/queue/read_ahead_kb"_qs), u"1024"_qs);
        for (const char *disk : {"sdb", "sdc", "sdi"})
            QCOMPARE(readAttr(root, QString::fromLatin1(disk) + u"/queue/read_ahead_kb"_qs), u"1024"_qs);
    }

    void invalidValueChangesNothing()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        TuningPanel panel(root);
        panel.setDevice(u"sdb"_qs);
        auto *maxSectors = panel.findChildren<QSpinBox *>().at(2); // ra, nr_requests, max_sectors_kb
        QVERIFY(maxSectors->suffix().contains(u"KiB"_qs));
        // The spin box is clamped to the device's range; a value the
        // kernel would refuse cannot even be entered.
        maxSectors->setValue(1 << 24);
        QVERIFY(quint64(maxSectors->value()) <= readAttr(root, u"sdb/queue/max_hw_sectors_kb"_qs).toULongLong());
    }

    void mainWindowShowsTheStack()
    {
        MainWindow window(recordedTree("scst-raid0-lvm"), u"md0"_qs);
        const DeviceTree *tree = window.deviceTree();
        QCOMPARE(tree->topLevelItemCount(), 3); // sda, sdb, sdc
        QCOMPARE(tree->selectedDevice(), u"md0"_qs);
        const auto lvs = tree->findItems(u"dm-1"_qs, Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(lvs.size(), 2); // under md0 below sdb1 and below sdc1
        QCOMPARE(lvs.first()->parent()->text(DeviceTree::Name), u"md0"_qs);
        QCOMPARE(lvs.first()->text(DeviceTree::Scheduler), u"none"_qs);
        QCOMPARE(window.tabs()->tabText(0), u"Settings"_qs);
    }

private:
    QTemporaryDir m_journals;
};

QTEST_MAIN(TestTuningPanel)
#include "tst_tuningpanel.moc"
