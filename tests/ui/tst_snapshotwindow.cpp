// A snapshot (blocktune-cli record FILE.tar.gz) opened in the console:
// its own read-only window on the recorded machine, titled with the file,
// its unpacked folder gone with the window; a file that is no snapshot is
// refused with its name.
#include "devicetree.h"
#include "mainwindow.h"
#include "testsupport.h"

#include "common/sysroot.h"
#include "console/consolesession.h"
#include "devices/snapshot.h"

#include <QDir>
#include <QFile>
#include <QPointer>
#include <QTemporaryDir>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QStringList unpackedSnapshots()
{
    return QDir(QDir::tempPath()).entryList({QStringLiteral("blocktune-snapshot-*")}, QDir::Dirs);
}

} // namespace

class TestSnapshotWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void snapshotOpensReadOnlyAndCleansUp()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString tarball = dir.filePath(QStringLiteral("raid10.tar.gz"));
        auto tree = SysRoot::openTree(recordedTree("md-raid10-f2"));
        QVERIFY(tree.ok());
        auto recorded = recordSnapshotTarball(*tree, tarball);
        QVERIFY2(recorded.ok(), recorded.ok() ? "" : qPrintable(recorded.error().message));

        const QStringList before = unpackedSnapshots();
        QString error;
        QPointer<MainWindow> window = MainWindow::openSnapshot(tarball, &error);
        QVERIFY2(window, qPrintable(error));
        window->show();
        QVERIFY(QTest::qWaitFor([&] { return window->isReady(); }, 30000));
        QCOMPARE(unpackedSnapshots().size(), before.size() + 1);
        QVERIFY2(window->windowTitle().contains(QStringLiteral("snapshot raid10.tar.gz")), qPrintable(window->windowTitle()));
        // The array as one row with its eight members, as on the tree itself.
        const auto md0 = window->deviceTree()->itemsFor(QStringLiteral("md0"));
        QCOMPARE(md0.size(), 1);
        QCOMPARE(md0.first()->childCount(), 8);
        // Read-only, and the reason names the snapshot, not a temporary path.
        QVERIFY(window->session()->readOnlyReason().contains(QStringLiteral("raid10.tar.gz is a snapshot")));

        window->close(); // deleted on close, its unpacked folder with it
        QTRY_VERIFY_WITH_TIMEOUT(window.isNull(), 30000);
        QCOMPARE(unpackedSnapshots(), before);
    }

    void notASnapshotIsRefused()
    {
        QTemporaryDir dir;
        const QString bogus = dir.filePath(QStringLiteral("notes.tar.gz"));
        QFile f(bogus);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("these are not the tarballs you are looking for\n");
        f.close();
        const QStringList before = unpackedSnapshots();
        QString error;
        QVERIFY(!MainWindow::openSnapshot(bogus, &error));
        QVERIFY2(error.contains(bogus) && error.contains(QStringLiteral("is not a blocktune snapshot")), qPrintable(error));
        QVERIFY(!MainWindow::openSnapshot(dir.filePath(QStringLiteral("missing.tar.gz")), &error));
        QVERIFY2(error.contains(QStringLiteral("no such snapshot file")), qPrintable(error));
        QCOMPARE(unpackedSnapshots(), before);
    }
};

QTEST_MAIN(TestSnapshotWindow)
#include "tst_snapshotwindow.moc"
