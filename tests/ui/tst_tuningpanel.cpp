// The console's settings panel and main window, driven as a user would
// (offscreen), writing into a copy of a recorded tree.
#include "previewsupport.h"
#include "mainwindow.h"
#include "devicetree.h"
#include "tuningpanel.h"
#include "sessionsupport.h"
#include "testsupport.h"
#include "widgetsupport.h"

#include "privilege/privilege.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryFile>
#include <QTest>
#include <QTimer>

#include <chrono>

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

/// Every attribute file of a tree, for "nothing changed".
QMap<QString, QByteArray> snapshot(const QString &root)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(root + QStringLiteral("/sys"), QDir::Files | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly))
            out.insert(it.filePath(), f.readAll().trimmed()); // a write back has no newline
    }
    return out;
}

/// A stand-in for pkexec + blocktune-helper: counts its starts in a file,
/// waits `delay` seconds first (an authorization prompt), then runs the real
/// helper on `root`.
QString fakeHelper(const QTemporaryDir &dir, const QString &root, int delay = 0)
{
    const QString path = dir.filePath(QStringLiteral("fake-pkexec"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QStringLiteral("#!/bin/sh\necho started >> '%1'\nsleep %2\nexec '%3' --sysroot '%4'\n")
                .arg(dir.filePath(QStringLiteral("starts")))
                .arg(delay)
                .arg(QStringLiteral(BLOCKTUNE_BIN_DIR "/blocktune-helper"), root)
                .toUtf8());
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

int startsOf(const QTemporaryDir &dir)
{
    QFile f(dir.filePath(QStringLiteral("starts")));
    return f.open(QIODevice::ReadOnly) ? int(f.readAll().count('\n')) : 0;
}

SessionOptions throughHelper(const QString &command)
{
    SessionOptions options;
    options.writerFactory = [command](const SysRoot &) { return std::make_unique<HelperWriter>(QStringList{command}); };
    return options;
}

bool waitLoaded(TuningPanel &panel, const QString &device)
{
    return QTest::qWaitFor([&] { return panel.loadedDevice() == device; }, 30000);
}

/// Applies the form without the confirmation and waits for the outcome.
bool applyAndWait(TuningPanel &panel)
{
    QSignalSpy applied(&panel, &TuningPanel::applied);
    if (!panel.applyChanges(false) || !applied.wait(15000))
        return false;
    return applied.at(0).at(0).toBool();
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

        ConsoleSession session{SysRoot(root)};
        TuningPanel panel(&session);
        panel.setDevice(u"sdb"_qs);
        QVERIFY(waitLoaded(panel, u"sdb"_qs));
        auto *spin = child<QSpinBox>(&panel, u"Readahead in KiB"_qs);
        auto *slider = child<QSlider>(&panel, u"Readahead"_qs);
        QVERIFY(spin && slider);
        QCOMPARE(spin->value(), 128);

        // Dragging the slider one step right doubles readahead: 128 -> 256.
        slider->setValue(slider->value() + 1);
        QCOMPARE(spin->value(), 256);
        spin->setValue(4096);
        QVERIFY(applyAndWait(panel));
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"4096"_qs);
        QVERIFY2(panel.lastMessage().contains(u"applied"_qs), qPrintable(panel.lastMessage()));
        QVERIFY(waitLoaded(panel, u"sdb"_qs));
        QCOMPARE(spin->value(), 4096); // reloaded from the tree

        // Revert brings back what the session changed.
        QSignalSpy loaded(&panel, &TuningPanel::settingsLoaded);
        panel.revertSession();
        QVERIFY(loaded.wait(30000));
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"128"_qs);
        QCOMPARE(spin->value(), 128);
    }

    // The status line says the last thing the session did, whoever asked
    // (it said "Restored 1 setting" after Advise had applied 768 KiB), and a
    // write made elsewhere reaches the form without taking the user's
    // unapplied edit away; a re-read that finds nothing new (a hotplug
    // elsewhere) moves nothing on screen, the keyboard focus included.
    void statusAndFormFollowWritesMadeElsewhere()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        ConsoleSession session{SysRoot(root)};
        TuningPanel panel(&session);
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setDevice(u"sdb"_qs);
        QVERIFY(waitLoaded(panel, u"sdb"_qs));
        auto *spin = child<QSpinBox>(&panel, u"Readahead in KiB"_qs);
        auto *scheduler = child<QComboBox>(&panel, u"I/O scheduler"_qs);
        auto *status = panel.findChild<QLabel *>(u"status"_qs);
        QVERIFY(spin && scheduler && status);
        spin->setValue(1024);
        QVERIFY(applyAndWait(panel));
        QVERIFY(waitLoaded(panel, u"sdb"_qs));
        QSignalSpy restored(session.worker(), &SessionWorker::restored);
        panel.revertSession();
        QTRY_VERIFY_WITH_TIMEOUT(!restored.isEmpty(), 30000);
        QTRY_VERIFY2_WITH_TIMEOUT(status->text().startsWith(u"Reverted the session"_qs), qPrintable(status->text()), 30000);
        QVERIFY(waitLoaded(panel, u"sdb"_qs));
        QCOMPARE(spin->value(), 128);

        // The user edits readahead and leaves it there, the focus on it.
        spin->setFocus();
        spin->setValue(512);
        QVERIFY(spin->hasFocus());

        // Nothing new (a hotplug of another device): nothing moves.
        QSignalSpy loaded(&panel, &TuningPanel::settingsLoaded);
        panel.refresh();
        QVERIFY(loaded.wait(30000));
        QCOMPARE(spin->value(), 512);
        QVERIFY(spin->hasFocus());

        // Another view (Advise, Profiles) writes through the session: the
        // scheduler it changed shows, the edit stays, and the status line
        // says what was written.
        const QString other = scheduler->currentText() == u"none"_qs ? u"mq-deadline"_qs : u"none"_qs;
        QSignalSpy planned(session.worker(), &SessionWorker::planned);
        const quint64 ticket = session.plan({{u"sdb"_qs, u"scheduler"_qs, SettingValue(other)}});
        QTRY_VERIFY_WITH_TIMEOUT(!planned.isEmpty(), 30000); // (wait() would miss an answer that came first)
        QCOMPARE(planned.at(0).at(0).toULongLong(), ticket);
        session.apply(planned.at(0).at(1).value<ChangePlan>());
        QTRY_COMPARE_WITH_TIMEOUT(scheduler->currentText(), other, 30000);
        QVERIFY2(status->text().contains(u"sdb scheduler"_qs) && status->text().startsWith(u"Applied 1 change"_qs),
                 qPrintable(status->text()));
        QCOMPARE(spin->value(), 512);
        QVERIFY(spin->hasFocus());
        QVERIFY(child<QSpinBox>(&panel, u"Readahead in KiB"_qs)->isEnabled());
        bool applyEnabled = false;
        for (QPushButton *b : panel.findChildren<QPushButton *>())
            if (b->text() == u"Apply…"_qs)
                applyEnabled = b->isEnabled();
        QVERIFY(applyEnabled); // the edit is still there to apply
    }

    void mdFloorIsShownAndMembersCanFollow()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        ConsoleSession session{SysRoot(root)};
        TuningPanel panel(&session);
        panel.setDevice(u"md0"_qs);
        QVERIFY(waitLoaded(panel, u"md0"_qs));
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
        QVERIFY(applyAndWait(panel));
        QCOMPARE(readAttr(root, u"md0/queue/read_ahead_kb"_qs), u"1024"_qs);
        for (const char *disk : {"sdb", "sdc", "sdi"})
            QCOMPARE(readAttr(root, QString::fromLatin1(disk) + u"/queue/read_ahead_kb"_qs), u"1024"_qs);
    }

    void invalidValueChangesNothing()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        ConsoleSession session{SysRoot(root)};
        TuningPanel panel(&session);
        panel.setDevice(u"sdb"_qs);
        QVERIFY(waitLoaded(panel, u"sdb"_qs));
        auto *maxSectors = child<QSpinBox>(&panel, u"max_sectors_kb"_qs);
        QVERIFY(maxSectors && maxSectors->suffix().contains(u"KiB"_qs));
        // The spin box is clamped to the device's range; a value the
        // kernel would refuse cannot even be entered.
        maxSectors->setValue(1 << 24);
        QVERIFY(quint64(maxSectors->value()) <= readAttr(root, u"sdb/queue/max_hw_sectors_kb"_qs).toULongLong());

        // A tunable typed as text is refused by the planner, with the
        // readahead change beside it: nothing at all is written.
        const auto before = snapshot(root);
        child<QSpinBox>(&panel, u"Readahead in KiB"_qs)->setValue(2048);
        auto *tunables = child<QTableWidget>(&panel, u"Scheduler tunables"_qs);
        QVERIFY(tunables && tunables->rowCount() > 0);
        tunables->item(0, 1)->setText(u"soon"_qs);
        QVERIFY(!applyAndWait(panel));
        QVERIFY2(panel.lastMessage().contains(u"Nothing was changed"_qs), qPrintable(panel.lastMessage()));
        QVERIFY2(panel.lastMessage().contains(u"'soon'"_qs), qPrintable(panel.lastMessage()));
        QCOMPARE(snapshot(root), before);
    }

    // A user who is not root: the console's one session starts the helper
    // once, however many changes the panel applies.
    void oneHelperPerConsoleSession()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        QTemporaryDir work;
        const QString helper = fakeHelper(work, root);
        MainWindow window(root, u"sdb"_qs, throughHelper(helper));
        TuningPanel *panel = window.tuningPanel();
        QVERIFY(waitLoaded(*panel, u"sdb"_qs));
        QCOMPARE(startsOf(work), 0); // reading starts nothing
        child<QSpinBox>(panel, u"Readahead in KiB"_qs)->setValue(1024);
        QVERIFY2(applyAndWait(*panel), qPrintable(panel->lastMessage()));
        QVERIFY(waitLoaded(*panel, u"sdb"_qs));
        child<QSpinBox>(panel, u"Readahead in KiB"_qs)->setValue(2048);
        QVERIFY2(applyAndWait(*panel), qPrintable(panel->lastMessage()));
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"2048"_qs);
        QCOMPARE(startsOf(work), 1);
        QVERIFY(window.session()->state().writerStarted);
    }

    // While the helper waits for authorization the window keeps painting,
    // and Cancel gives the change up: nothing is written.
    void waitingForAuthorizationCanBeCancelled()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        QTemporaryDir work;
        const QString helper = fakeHelper(work, root, 30);
        ConsoleSession session{SysRoot(root), throughHelper(helper)};
        TuningPanel panel(&session);
        panel.setDevice(u"sdb"_qs);
        QVERIFY(waitLoaded(panel, u"sdb"_qs));
        const auto before = snapshot(root);
        child<QSpinBox>(&panel, u"Readahead in KiB"_qs)->setValue(1024);
        QSignalSpy applied(&panel, &TuningPanel::applied);
        QVERIFY(panel.applyChanges(false));
        QVERIFY(QTest::qWaitFor([&] { return startsOf(work) == 1; }, 30000));

        // The event loop runs while the "prompt" waits (the fake helper
        // answers after 30 s): a 20 ms timer keeps firing. Fifteen ticks are
        // waited for, not timed: a busy machine delays them, but an event
        // loop blocked on the helper would fire none of them, or be late by
        // the whole prompt.
        QElapsedTimer clock;
        clock.start();
        qint64 worstLate = 0, last = 0;
        int ticks = 0;
        QTimer timer;
        timer.setInterval(20);
        QObject::connect(&timer, &QTimer::timeout, &timer, [&] {
            const qint64 now = clock.elapsed();
            if (ticks++ > 0)
                worstLate = std::max(worstLate, now - last - 20);
            last = now;
        });
        timer.start();
        const bool ticked = QTest::qWaitFor([&] { return ticks >= 15; }, 20000);
        timer.stop();
        QVERIFY2(ticked, qPrintable(QStringLiteral("%1 ticks of a 20 ms timer in 20 s while the helper waited")
                                        .arg(ticks)));
        QVERIFY2(worstLate < 10000, qPrintable(QStringLiteral("a tick came %1 ms late: the event loop waited for "
                                                              "the helper")
                                                   .arg(worstLate)));
        QCOMPARE(startsOf(work), 1);
        QVERIFY(applied.isEmpty());
        QVERIFY(panel.isBusy());

        auto *cancel = [&]() -> QPushButton * {
            for (QPushButton *b : panel.findChildren<QPushButton *>())
                if (b->text() == u"Cancel"_qs)
                    return b;
            return nullptr;
        }();
        QVERIFY(cancel && !cancel->isHidden());
        clock.restart();
        cancel->click();
        QVERIFY(applied.wait(30000));
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(applied.at(0).at(0).toBool(), false);
        QVERIFY2(panel.lastMessage().contains(u"cancelled"_qs), qPrintable(panel.lastMessage()));
        QCOMPARE(snapshot(root), before);
    }

    // "Try for 60 s": a temporary change with a countdown, restored unless
    // kept; kept, it is still taken back by Revert session.
    void tryForAMinute()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        ConsoleSession session{SysRoot(root)};
        TuningPanel panel(&session);
        panel.setDevice(u"sdb"_qs);
        QVERIFY(waitLoaded(panel, u"sdb"_qs));
        auto *spin = child<QSpinBox>(&panel, u"Readahead in KiB"_qs);
        spin->setValue(1024);
        QSignalSpy applied(&panel, &TuningPanel::applied);
        QVERIFY(panel.tryChanges());
        // Try is previewed as Apply is: the device, 128 -> 1024, for 60 s.
        ChangePreviewDialog *preview = readyPreview();
        QVERIFY(preview);
        QCOMPARE(preview->rows().size(), 1);
        QCOMPARE(preview->rows().at(0).device, u"sdb"_qs);
        QCOMPARE(preview->rows().at(0).current, u"128"_qs);
        QCOMPARE(preview->rows().at(0).next, u"1024"_qs);
        QVERIFY2(preview->scopeText().contains(u"for 60 s"_qs), qPrintable(preview->scopeText()));
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"128"_qs); // nothing before it is accepted
        preview->accept();
        QVERIFY(applied.wait(30000));
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"1024"_qs);
        QCOMPARE(panel.trialSecondsLeft(), 60);
        QVERIFY(QTest::qWaitFor([&] { return session.state().temporary == 1; }, 30000));
        auto settled = [&] {
            return QTest::qWaitFor([&] { return !panel.isBusy() && panel.loadedDevice() == u"sdb"_qs; }, 30000);
        };
        QVERIFY(settled());
        panel.endTrial(); // what the countdown does at 0
        QVERIFY(settled());
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"128"_qs);
        QCOMPARE(panel.trialSecondsLeft(), 0);
        QCOMPARE(spin->value(), 128);

        spin->setValue(2048);
        QVERIFY(panel.tryChanges(false)); // as confirmed
        QVERIFY(applied.wait(30000));
        panel.keepTrial();
        QVERIFY(QTest::qWaitFor([&] { return session.state().temporary == 0 && session.state().persistent > 0; }, 30000));
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"2048"_qs);
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
        QVERIFY(settled());
        panel.revertSession();
        QVERIFY(settled());
        QCOMPARE(readAttr(root, u"sdb/queue/read_ahead_kb"_qs), u"128"_qs);
    }

    // The console on a recorded tree shows it and writes nothing.
    void recordedTreeIsReadOnlyInTheConsole()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"sdb"_qs);
        TuningPanel *panel = window.tuningPanel();
        QVERIFY(waitLoaded(*panel, u"sdb"_qs));
        child<QSpinBox>(panel, u"Readahead in KiB"_qs)->setValue(4096);
        QPushButton *apply = nullptr;
        for (QPushButton *b : panel->findChildren<QPushButton *>())
            if (b->text().startsWith(u"Apply"_qs))
                apply = b;
        QVERIFY(apply);
        QVERIFY(!apply->isEnabled());
        QVERIFY2(apply->toolTip().contains(u"recorded tree"_qs), qPrintable(apply->toolTip()));
        bool said = false;
        for (QLabel *label : panel->findChildren<QLabel *>())
            said |= label->text().contains(u"is a recorded tree"_qs);
        QVERIFY(said);
        QCOMPARE(readAttr(recordedTree("md-raid10-f2"), u"sdb/queue/read_ahead_kb"_qs), u"128"_qs);
    }

    // A session killed with -9 leaves its journal; the console's next start
    // offers the originals back and, asked, restores them.
    void nextStartRestoresAKilledSession()
    {
        QTemporaryDir dir;
        const QString root = copyOf(dir, "md-raid10-f2");
        const auto before = snapshot(root);
        QProcess hold;
        hold.start(QStringLiteral(BLOCKTUNE_BIN_DIR "/blocktune-cli"),
                   {u"--sysroot"_qs, root, u"set"_qs, u"sdb"_qs, u"read_ahead_kb=64"_qs, u"--hold"_qs, u"60"_qs});
        QVERIFY(hold.waitForStarted());
        QVERIFY(QTest::qWaitFor([&] { return readAttr(root, u"sdb/queue/read_ahead_kb"_qs) == u"64"_qs; }, 30000));
        QVERIFY(QTest::qWaitFor([&] { return !QDir(m_journals.path()).entryList(QDir::Files).isEmpty(); }, 30000));
        hold.kill();
        QVERIFY(hold.waitForFinished(30000));

        MainWindow window(root, u"sdb"_qs, SessionOptions{});
        window.offerJournalRestore(); // asks the session thread; the question follows its answer
        QMessageBox *box = nullptr;
        QVERIFY(QTest::qWaitFor([&] { return (box = window.findChild<QMessageBox *>()) != nullptr; }, 30000));
        QVERIFY2(box->text().contains(u"sdb read_ahead_kb = 128"_qs), qPrintable(box->text()));
        box->button(QMessageBox::Yes)->click();
        QVERIFY(QTest::qWaitFor([&] { return readAttr(root, u"sdb/queue/read_ahead_kb"_qs) == u"128"_qs; }, 30000));
        QVERIFY(QTest::qWaitFor([&] { return QDir(m_journals.path()).entryList(QDir::Files).isEmpty(); }, 30000));
        QCOMPARE(snapshot(root), before);
    }

    void mainWindowShowsTheStack()
    {
        MainWindow window(recordedTree("scst-raid0-lvm"), u"md0"_qs);
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        const DeviceTree *tree = window.deviceTree();
        QCOMPARE(tree->topLevelItemCount(), 5); // md0, the three LVs, sda
        QCOMPARE(tree->selectedDevice(), u"md0"_qs);
        const auto lvs = tree->itemsFor(u"dm-1"_qs);
        QCOMPARE(lvs.size(), 1); // a volume at the top, once
        QCOMPARE(lvs.first()->text(DeviceTree::Name), u"vg_scst/lun1 (dm-1)"_qs);
        QCOMPARE(lvs.first()->text(DeviceTree::Scheduler), u"none"_qs);
        QCOMPARE(window.tabs()->tabText(0), u"Settings"_qs);
    }

private:
    QTemporaryDir m_journals;
};

QTEST_MAIN(TestTuningPanel)
#include "tst_tuningpanel.moc"
