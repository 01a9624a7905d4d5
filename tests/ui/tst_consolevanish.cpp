// A device that goes away while the console shows, monitors and tests it:
// the test's own direct-I/O loop device loses its backing file (reads fail
// with EIO) and is detached mid-test. The test ends with a message naming
// the device and the error, its settings are restored, the tree drops the
// detached device, and the monitor goes on sampling. And hotplugs beside
// the device being tuned disturb nothing the user is doing.
//
// Other people's loop devices come and go beside these tests (a name is
// reused): the test's own are found by their backing files.
#include "devicetree.h"
#include "mainwindow.h"
#include "tuningpanel.h"
#include "widgetsupport.h"
#include "console/consolesession.h"
#include "monitor/monitorview.h"
#include "readtest/readtestview.h"
#include "testloop.h"
#include "testsupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QApplication>

using namespace blocktune;
using namespace blocktune::test;

namespace {

/// The kernel name the window's model gives the loop device over `backingFile`
/// (attached, not empty), or empty.
QString deviceOver(MainWindow &window, const QString &backingFile)
{
    const ModelSnapshot model = window.session()->model();
    if (!model)
        return {};
    for (const BlockDevice &d : model->devices())
        if (d.loop && d.loop->backingFile == backingFile && d.sizeBytes.value_or(0) > 0)
            return d.name;
    return {};
}

/// That device has a row in the tree.
bool treeShows(MainWindow &window, const QString &backingFile)
{
    const QString name = deviceOver(window, backingFile);
    return !name.isEmpty() && !window.deviceTree()->itemsFor(name).isEmpty();
}

QString labelsOf(QWidget *w)
{
    QStringList texts;
    for (QLabel *l : w->findChildren<QLabel *>())
        texts << l->text();
    return texts.join(u" | ");
}

} // namespace

class TestConsoleVanish : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", (m_home.path() + u"/journals").toLocal8Bit());
        qputenv("BLOCKTUNE_HISTORY_DB", (m_home.path() + u"/history.sqlite").toLocal8Bit());
        qputenv("XDG_CONFIG_HOME", m_home.path().toLocal8Bit());
    }

    void deviceVanishesMidTest()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        TestLoop loop(64 << 20, knownContents());
        QVERIFY(loop.isValid());
        const QString dev = loop.name();

        MainWindow window(QString(), dev);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        DeviceTree *tree = window.deviceTree();
        QCOMPARE(tree->selectedDevice(), dev);
        QCOMPARE(tree->itemsFor(dev).size(), 1);

        // The monitor watches it while a test reads it with 4 KiB requests
        // at readahead 4 KiB (a sweep point of 100 runs over the 64 MiB):
        // busy far longer than this waits, however fast the disk.
        MonitorView *monitor = window.monitorView();
        window.tabs()->setCurrentWidget(monitor);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->devices(), QStringList{dev}, 30000);
        QSignalSpy plotted(monitor, &MonitorView::plotted);

        ReadTestView *view = window.readTestView();
        auto *kind = view->findChild<QComboBox *>(QStringLiteral("kind"));
        kind->setCurrentIndex(kind->findData(QStringLiteral("seq")));
        view->findChild<QComboBox *>(QStringLiteral("bs"))->setCurrentText(QStringLiteral("4K"));
        view->findChild<QLineEdit *>(QStringLiteral("size"))->setText(QString());
        view->findChild<QCheckBox *>(QStringLiteral("sweep"))->setChecked(true);
        view->findChild<QLineEdit *>(QStringLiteral("ra"))->setText(QStringLiteral("4,8"));
        view->findChild<QSpinBox *>(QStringLiteral("repeat"))->setValue(100);
        QSignalSpy finished(view, &ReadTestView::finished);
        QSignalSpy progressed(view, &ReadTestView::progressed);
        QVERIFY(view->start());
        QVERIFY(progressed.wait(30000));
        QCOMPARE(queueAttr(dev, "read_ahead_kb"), QStringLiteral("4"));

        // The disk fails (its backing file loses all but 1 MiB: EIO beyond)
        // and is detached; the kernel lets it go once the test closes it.
        QVERIFY(QFile::resize(loop.backingFile(), 1 << 20));
        QCOMPARE(run(QStringLiteral("losetup"), {QStringLiteral("-d"), loop.path()}).exitCode, 0);

        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString report = view->reportText();
        QVERIFY2(report.contains(dev), qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("Input/output error")), qPrintable(report));
        // The sweep's readahead is put back before the device goes (the
        // kernel resets a detached loop's, so the report says it).
        QVERIFY2(report.contains(QStringLiteral("restored read_ahead_kb 128 on ") + dev), qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("at offset")), qPrintable(report));
        QVERIFY(QDir(m_home.path() + u"/journals").entryList(QDir::Files).isEmpty());

        // Detached, the loop device is empty: the tree (which hides empty
        // devices) drops it, by hotplug or by its own refresh. Known by its
        // backing file: once detached, the name is anyone's (others attach
        // loops on this machine), and may be shown again as theirs.
        QVERIFY(loop.waitUntilGone(10000));
        auto holder = [&] {
            const ModelSnapshot model = window.session()->model();
            const BlockDevice *d = model ? model->find(dev) : nullptr;
            return d && d->loop ? d->loop->backingFile : QString();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(tree->itemsFor(dev).isEmpty() || (!holder().isEmpty() && holder() != loop.backingFile()),
                                  qPrintable(dev + u" still shown over "_qs + holder()), 30000);
        // The monitor keeps sampling the rest of the machine.
        const qsizetype before = plotted.size();
        QTRY_VERIFY_WITH_TIMEOUT(plotted.size() > before, 30000);
        QVERIFY(window.isVisible());
    }

    // Loop devices attached and detached beside the one being tuned, again
    // and again as on a busy host: the tree keeps the selection (no new
    // deviceSelected), the panel its unapplied edit (512 must not fall back
    // to the device's value) and the keyboard focus. When the device itself
    // is detached, the panel says so plainly.
    void hotplugDisturbsNothingTheUserIsDoing()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice mine(16 << 20, false);
        QVERIFY(mine.isValid());
        MainWindow window(QString(), mine.name());
        window.resize(1200, 800);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        const QString dev = deviceOver(window, mine.backingFile());
        QVERIFY(!dev.isEmpty());
        DeviceTree *tree = window.deviceTree();
        QCOMPARE(tree->selectedDevice(), dev);
        TuningPanel *panel = window.tuningPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->loadedDevice(), dev, 30000);
        auto *spin = child<QSpinBox>(panel, u"Readahead in KiB"_qs);
        QVERIFY(spin);
        // Loop devices keep their queue settings across users: whatever it
        // has, the edit differs from it.
        const int edit = spin->value() == 512 ? 1024 : 512;
        window.tabs()->setCurrentWidget(panel);
        spin->setFocus(Qt::TabFocusReason);
        spin->setValue(edit);
        QTRY_VERIFY(spin->hasFocus());

        QSignalSpy selected(tree, &DeviceTree::deviceSelected);
        QSignalSpy gone(tree, &DeviceTree::selectedDeviceGone);
        for (int i = 0; i < 3; ++i) {
            LoopDevice other(8 << 20, false);
            QVERIFY(other.isValid());
            QTRY_VERIFY_WITH_TIMEOUT(treeShows(window, other.backingFile()), 30000);
            QCOMPARE(spin->value(), edit);
            const QString file = other.backingFile();
            other.detach();
            QTRY_VERIFY_WITH_TIMEOUT(!treeShows(window, file), 30000);
        }
        QTest::qWait(500); // the panel's re-read after the last one
        QCOMPARE(deviceOver(window, mine.backingFile()), dev);
        QCOMPARE(tree->selectedDevice(), dev);
        QVERIFY2(selected.isEmpty(), qPrintable(selected.isEmpty() ? QString() : selected.at(0).at(0).toString()));
        QVERIFY(gone.isEmpty());
        QCOMPARE(panel->loadedDevice(), dev);
        QCOMPARE(spin->value(), edit);
        QVERIFY(spin->isEnabled());
        QVERIFY2(spin->hasFocus(),
                 QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "nothing");

        // The device itself goes: said plainly, and the form is off.
        mine.detach();
        QVERIFY(gone.wait(30000));
        QCOMPARE(gone.at(0).at(0).toString(), dev);
        QTRY_VERIFY2_WITH_TIMEOUT(labelsOf(panel).contains(dev + u" is gone: the loop device was detached"_qs),
                                  qPrintable(labelsOf(panel)), 30000);
        QVERIFY2(labelsOf(panel).contains(u"not applied; nothing was written to "_qs + dev), qPrintable(labelsOf(panel)));
        QVERIFY(!spin->isEnabled());
        QVERIFY(tree->selectedDevice().isEmpty());
    }

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(TestConsoleVanish)
#include "tst_consolevanish.moc"
