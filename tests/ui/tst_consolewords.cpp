// What the console says, in words a person reads: Details as labelled
// values with units (the JSON one button away), a status line that says
// who writes, a recorded tree that says it is a recording and read-only,
// Settings without a "0 KiB" when nothing is selected, and a Monitor that
// says a recording's counters are frozen instead of drawing flat zeros,
// or replays the one interval a snapshot holds.
#include "mainwindow.h"
#include "diagnoseview.h"
#include "monitor/monitorview.h"
#include "profilesview.h"
#include "tuningpanel.h"
#include "testsupport.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFrame>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTranslator>

#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

/// The value a form shows beside `label` (the field's accessible name).
QString field(QWidget *page, const QString &label)
{
    for (QLabel *l : page->findChildren<QLabel *>())
        if (l->accessibleName() == label && l->isVisibleTo(page))
            return l->text();
    return {};
}

QString statusBarText(MainWindow &window)
{
    QStringList texts;
    for (QLabel *l : window.statusBar()->findChildren<QLabel *>())
        texts << l->text();
    return texts.join(u" | ");
}

bool openOn(MainWindow &window)
{
    window.resize(1280, 720);
    window.show();
    return QTest::qWaitFor([&] { return window.isReady(); }, 30000);
}

} // namespace

class TestConsoleWords : public QObject
{
    Q_OBJECT

    // One settings folder for the whole case: QSettings keeps the folder
    // it first found, so a folder per test was written again after its
    // removal and left in /tmp.
    QTemporaryDir m_home;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        keepConsoleStateIn(m_home);
    }

    void init()
    {
        // No last device remembered: forget the one an earlier test left
        // selected.
        QSettings().clear();
    }

    void detailsIsAFormWithUnits()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        QVERIFY(openOn(window));
        window.tabs()->setCurrentIndex(3);
        QWidget *page = window.tabs()->currentWidget();
        QTRY_VERIFY(!field(page, u"Readahead"_qs).isEmpty());
        // md0 of the recorded raid10 far-2: 8 disks, 512 KiB chunks.
        QVERIFY2(field(page, u"Readahead"_qs).contains(u" KiB ("_qs) && field(page, u"Readahead"_qs).contains(u"sectors"_qs),
                 qPrintable(field(page, u"Readahead"_qs)));
        QCOMPARE(field(page, u"Type"_qs), u"md array"_qs);
        QCOMPARE(field(page, u"Level"_qs), u"raid10"_qs);
        QCOMPARE(field(page, u"Layout"_qs), u"f2"_qs);
        QCOMPARE(field(page, u"Chunk"_qs), u"512 KiB"_qs);
        QVERIFY2(field(page, u"Readahead floor"_qs).startsWith(u"8192 KiB"_qs), qPrintable(field(page, u"Readahead floor"_qs)));
        QVERIFY2(field(page, u"Size"_qs).contains(u"GiB"_qs) || field(page, u"Size"_qs).contains(u"TiB"_qs),
                 qPrintable(field(page, u"Size"_qs)));
        // No JSON on the page; Copy as JSON puts list --json's object on the clipboard.
        QPushButton *copy = nullptr;
        for (QPushButton *b : page->findChildren<QPushButton *>())
            if (b->text().remove(u'&') == u"Copy as JSON"_qs)
                copy = b;
        QVERIFY2(copy, "a Copy as JSON button");
        for (QLabel *l : page->findChildren<QLabel *>())
            QVERIFY2(!l->text().contains(u"\"read_ahead_kb\""_qs), qPrintable(l->text()));
        QApplication::clipboard()->clear();
        copy->click();
        const QJsonObject json = QJsonDocument::fromJson(QApplication::clipboard()->text().toUtf8()).object();
        QCOMPARE(json.value(u"name").toString(), u"md0"_qs);
        QCOMPARE(json.value(u"md").toObject().value(u"layout").toString(), u"f2"_qs);
    }

    void detailsOfAPartitionNamesItsDisk()
    {
        MainWindow window(recordedTree("nvme-parts"), u"nvme0n1p1"_qs);
        QVERIFY(openOn(window));
        window.tabs()->setCurrentIndex(3);
        QWidget *page = window.tabs()->currentWidget();
        QTRY_VERIFY(!field(page, u"Type"_qs).isEmpty());
        QVERIFY2(field(page, u"Type"_qs).contains(u"nvme0n1"_qs), qPrintable(field(page, u"Type"_qs)));
        QCOMPARE(field(page, u"Whole disk"_qs), u"nvme0n1"_qs);
    }

    // A recorded tree says it is a recording and read-only: in Settings'
    // note and in the status bar; no "writes into its files for tests".
    void recordedTreeSaysItIsARecording()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        QVERIFY(openOn(window));
        const QString status = statusBarText(window);
        QVERIFY2(status.contains(u"a recording: read-only"_qs), qPrintable(status));
        QLabel *note = window.tuningPanel()->findChild<QLabel *>(u"note"_qs);
        QTRY_VERIFY(note && note->isVisible());
        QVERIFY2(note->text().contains(u"recording"_qs) && note->text().contains(u"read-only"_qs),
                 qPrintable(note->text()));
        QVERIFY2(!note->text().contains(u"writes into its files"_qs), qPrintable(note->text()));
    }

    // A recording's editors are read-only where a person sees it: greyed
    // out with the reason as their tooltip, not movable beside a disabled
    // Apply.
    void recordedTreeEditorsAreReadOnly()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        QVERIFY(openOn(window));
        window.tabs()->setCurrentWidget(window.tuningPanel());
        TuningPanel *panel = window.tuningPanel();
        QSpinBox *maxSectors = nullptr;
        for (QSpinBox *spin : panel->findChildren<QSpinBox *>())
            if (spin->accessibleName() == u"max_sectors_kb"_qs)
                maxSectors = spin;
        QVERIFY(maxSectors);
        // The values are shown (md0's max_sectors_kb is not 0) ...
        QTRY_VERIFY(maxSectors->isVisible() && maxSectors->value() > 0);
        QList<QWidget *> editors;
        for (QSpinBox *spin : panel->findChildren<QSpinBox *>())
            editors << spin;
        for (QComboBox *combo : panel->findChildren<QComboBox *>())
            editors << combo;
        for (QSlider *slider : panel->findChildren<QSlider *>())
            editors << slider;
        QVERIFY(editors.size() >= 5);
        // ... and none of them can be edited; each says why.
        for (QWidget *w : editors) {
            if (!w->isVisibleTo(panel))
                continue;
            QVERIFY2(!w->isEnabled(), qPrintable(w->accessibleName()));
            QVERIFY2(w->toolTip().contains(u"recording"_qs) && w->toolTip().contains(u"read-only"_qs),
                     qPrintable(w->accessibleName() + u": "_qs + w->toolTip()));
        }
        // Typing into the box changes nothing.
        const int before = maxSectors->value();
        maxSectors->setFocus();
        QTest::keyClicks(maxSectors, u"9"_qs);
        QCOMPARE(maxSectors->value(), before);
    }

    // A device with no scheduler (md0: none, bio-based) has no tunables:
    // no empty table for them; sdb's mq-deadline has some, shown.
    void noEmptyTunablesTable()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        QVERIFY(openOn(window));
        window.tabs()->setCurrentWidget(window.tuningPanel());
        TuningPanel *panel = window.tuningPanel();
        QTableWidget *tunables = nullptr;
        for (QTableWidget *t : panel->findChildren<QTableWidget *>())
            if (t->accessibleName() == u"Scheduler tunables"_qs)
                tunables = t;
        QVERIFY(tunables);
        QTRY_COMPARE(panel->loadedDevice(), u"md0"_qs);
        QVERIFY(!tunables->isVisible());
        panel->setDevice(u"sdb"_qs);
        QTRY_COMPARE(panel->loadedDevice(), u"sdb"_qs);
        QTRY_VERIFY(tunables->isVisible() && tunables->rowCount() > 0);
    }

    // Diagnose's findings in the console's language: a German console's
    // card says its summary in German (core translates it where it is
    // made; the CLI, with no translator, stays English).
    void diagnoseSpeaksTheConsolesLanguage()
    {
        QTemporaryDir tree;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        QFile ra(tree.filePath(u"sys/class/block/md0/queue/read_ahead_kb"_qs));
        QVERIFY(ra.open(QIODevice::WriteOnly | QIODevice::Truncate) && ra.write("4096") == 4);
        ra.close();
        QTranslator german;
        QVERIFY(german.load(u":/i18n/blocktune_de.qm"_qs));
        QVERIFY(QCoreApplication::installTranslator(&german));
        const auto keep = qScopeGuard([&] { QCoreApplication::removeTranslator(&german); });

        MainWindow window(tree.path(), u"md0"_qs);
        QVERIFY(openOn(window));
        DiagnoseView *diagnose = window.diagnoseView();
        window.tabs()->setCurrentWidget(diagnose);
        QSignalSpy diagnosed(diagnose, &DiagnoseView::finished);
        diagnose->setDevice(u"md0"_qs);
        QVERIFY(diagnose->run(false));
        QVERIFY(diagnosed.wait(30000));
        const QList<QFrame *> cards = diagnose->findChildren<QFrame *>(u"below_md_floor"_qs);
        QCOMPARE(cards.size(), 1);
        auto *summary = cards.first()->findChild<QLabel *>(u"summary"_qs);
        QVERIFY(summary);
        // md0: 4096 KiB under the raid10's floor of 8192 KiB.
        QVERIFY2(summary->text().contains(u"liegt unter der Untergrenze des Arrays von 8192 KiB"_qs),
                 qPrintable(summary->text()));
        QVERIFY2(!summary->text().contains(u"below the array"_qs), qPrintable(summary->text()));
    }

    // The Profiles list says where a profile comes from in the console's
    // language: "(Vorlage)" in German, not the CLI's "(preset)".
    void profileOriginsSpeakTheConsolesLanguage()
    {
        QTranslator german;
        QVERIFY(german.load(u":/i18n/blocktune_de.qm"_qs));
        QVERIFY(QCoreApplication::installTranslator(&german));
        const auto keep = qScopeGuard([&] { QCoreApplication::removeTranslator(&german); });
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        QVERIFY(openOn(window));
        auto *list = window.profilesView()->findChild<QListWidget *>();
        QVERIFY(list);
        QTRY_VERIFY(window.profilesView()->profileNames().contains(u"streaming-md"_qs));
        QStringList texts;
        for (int i = 0; i < list->count(); ++i)
            texts << list->item(i)->text();
        QVERIFY2(texts.contains(u"streaming-md  (Vorlage)"_qs), qPrintable(texts.join(u" | ")));
    }

    // Nothing selected: no form with a disabled "0 KiB" that reads as
    // readahead off.
    void settingsShowNoValuesWithoutADevice()
    {
        MainWindow window(recordedTree("md-raid10-f2"));
        QVERIFY(openOn(window));
        // What the panel is told before the first selection (the tree picks
        // its first row when it gets the keyboard, so say it here).
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::qWait(200);
        window.tuningPanel()->setDevice(QString());
        QTest::qWait(200);
        for (QSpinBox *spin : window.tuningPanel()->findChildren<QSpinBox *>())
            QVERIFY2(!spin->isVisible(), qPrintable(spin->accessibleName() + u": "_qs + spin->text()));
    }

    // The live machine: who writes, in words.
    void statusSaysWhoWrites()
    {
        MainWindow window{QString(), QString()};
        QVERIFY(openOn(window));
        const QString status = statusBarText(window);
        QVERIFY2(!status.contains(u"read-only until"_qs) && !status.contains(u"writing through direct"_qs),
                 qPrintable(status));
        if (::geteuid() == 0)
            QVERIFY2(status.contains(u"writes directly as root"_qs), qPrintable(status));
        else
            QVERIFY2(status.contains(u"through blocktune-helper via pkexec (polkit"_qs), qPrintable(status));
    }

    // A recorded tree's counters do not move: the Monitor says so.
    void monitorSaysARecordingIsFrozen()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        QVERIFY(openOn(window));
        window.tabs()->setCurrentWidget(window.monitorView());
        auto *note = window.monitorView()->findChild<QLabel *>(u"recordingNote"_qs);
        QVERIFY2(note, "the Monitor has a note for recordings");
        QTRY_VERIFY(note->isVisible());
        QVERIFY2(note->text().contains(u"frozen"_qs), qPrintable(note->text()));
        QTest::qWait(500);
        QVERIFY2(!window.monitorView()->statusText().contains(u"md0 0 MB/s"_qs), qPrintable(window.monitorView()->statusText()));
    }

    // A snapshot with two readings (blocktune-cli record): the interval
    // between them, replayed as one sample. md0 read 100 MiB in 2 s here.
    void monitorReplaysTwoReadings()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        QFile stats(dir.filePath(u"proc/diskstats"_qs));
        QVERIFY(stats.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromLatin1(stats.readAll()).split(u'\n');
        stats.close();
        for (QString &line : lines) {
            QStringList f = line.simplified().split(u' ');
            if (f.size() >= 14 && f.at(2) == u"md0") {
                f[3] = QString::number(f.at(3).toULongLong() + 800);    // reads
                f[5] = QString::number(f.at(5).toULongLong() + 204800); // sectors: 100 MiB
                line = f.join(u' ');
            }
        }
        QFile later(dir.filePath(u"proc/diskstats.2"_qs));
        QVERIFY(later.open(QIODevice::WriteOnly));
        later.write(lines.join(u'\n').toLatin1());
        later.close();
        QFile up(dir.filePath(u"proc/uptime"_qs));
        QVERIFY(up.open(QIODevice::ReadOnly));
        const double t = up.readAll().split(' ').value(0).toDouble();
        up.close();
        QFile up2(dir.filePath(u"proc/uptime.2"_qs));
        QVERIFY(up2.open(QIODevice::WriteOnly));
        up2.write(QByteArray::number(t + 2.0, 'f', 2) + " 0.00\n");
        up2.close();

        MainWindow window(dir.path(), u"md0"_qs);
        QVERIFY(openOn(window));
        window.tabs()->setCurrentWidget(window.monitorView());
        // 104857600 bytes in 2 s: 52.4 MB/s (decimal, as dd prints).
        QTRY_VERIFY_WITH_TIMEOUT(window.monitorView()->statusText().contains(u"md0 52.4 MB/s"_qs), 30000);
        auto *note = window.monitorView()->findChild<QLabel *>(u"recordingNote"_qs);
        QVERIFY(note && note->isVisible());
        QVERIFY2(note->text().contains(u"2.0 s"_qs), qPrintable(note->text()));
    }
};

QTEST_MAIN(TestConsoleWords)
#include "tst_consolewords.moc"
