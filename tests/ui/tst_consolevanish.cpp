// A device that goes away while the console shows, monitors and tests it:
// the test's own direct-I/O loop device loses its backing file (reads fail
// with EIO) and is detached mid-test. The test ends with a message naming
// the device and the error, its settings are restored, the tree drops the
// detached device, and the monitor goes on sampling.
#include "devicetree.h"
#include "mainwindow.h"
#include "monitor/monitorview.h"
#include "readtest/readtestview.h"
#include "session/consolesession.h"
#include "testloop.h"
#include "testsupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

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
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 20000));
        DeviceTree *tree = window.deviceTree();
        QCOMPARE(tree->selectedDevice(), dev);
        QCOMPARE(tree->itemsFor(dev).size(), 1);

        // The monitor watches it while a test reads it with 4 KiB requests
        // at readahead 4 KiB (a sweep point of 100 runs over the 64 MiB):
        // busy far longer than this waits, however fast the disk.
        MonitorView *monitor = window.monitorView();
        window.tabs()->setCurrentWidget(monitor);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->devices(), QStringList{dev}, 5000);
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
        QVERIFY(progressed.wait(10000));
        QCOMPARE(queueAttr(dev, "read_ahead_kb"), QStringLiteral("4"));

        // The disk fails (its backing file loses all but 1 MiB: EIO beyond)
        // and is detached; the kernel lets it go once the test closes it.
        QVERIFY(QFile::resize(loop.backingFile(), 1 << 20));
        QCOMPARE(run(QStringLiteral("losetup"), {QStringLiteral("-d"), loop.path()}).exitCode, 0);

        QVERIFY(finished.wait(15000));
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
                                  qPrintable(dev + u" still shown over "_qs + holder()), 10000);
        // The monitor keeps sampling the rest of the machine.
        const qsizetype before = plotted.size();
        QTRY_VERIFY_WITH_TIMEOUT(plotted.size() > before, 5000);
        QVERIFY(window.isVisible());
    }

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(TestConsoleVanish)
#include "tst_consolevanish.moc"
