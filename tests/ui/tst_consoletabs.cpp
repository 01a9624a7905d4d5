// The console's Profiles, Advise and Diagnose tabs in the main window on
// recorded trees (offscreen): the Profiles tab and the device tree's
// "Apply profile…" that opens it on a device, the preview's rows; Diagnose's
// static checks as cards; Advise and measured Diagnose refused with the reason.
#include "previewsupport.h"
#include "mainwindow.h"
#include "devicetree.h"
#include "profilesview.h"
#include "adviseview.h"
#include "diagnoseview.h"
#include "history/historyview.h"
#include "monitor/monitorview.h"
#include "tuningpanel.h"
#include "testsupport.h"
#include "widgetsupport.h"

#include "history/history.h"
#include "privilege/privilege.h"
#include "profiles/profiles.h"
#include "session/session.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFrame>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QProgressBar>
#include <QSpinBox>
#include <qcustomplot.h>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

bool writeAttr(const QString &root, const QString &rel, const QByteArray &value)
{
    QFile f(root + QStringLiteral("/sys/class/block/") + rel);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(value) == value.size();
}

QString readAttr(const QString &root, const QString &rel)
{
    QFile f(root + QStringLiteral("/sys/class/block/") + rel);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

int tabOf(const QTabWidget *tabs, const QString &text)
{
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i) == text)
            return i;
    return -1;
}

// Waits for the Profiles page's preview of `profile`.
bool previewOf(QSignalSpy &spy, const QString &profile)
{
    for (int i = 0; i < 10; ++i) {
        if (spy.isEmpty() && !spy.wait(20000))
            return false;
        const auto r = spy.takeFirst().at(0).value<ProfileResult>();
        if (r.kind == ProfileResult::Preview && r.profile == profile)
            return true;
    }
    return false;
}

// A pkexec stand-in: counts its starts, keeps the requests it passes on,
// and runs the real helper on `root`.
QString fakeHelper(const QTemporaryDir &dir, const QString &root)
{
    const QString path = dir.filePath(QStringLiteral("fake-pkexec"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QStringLiteral("#!/bin/sh\necho started >> '%1'\ntee -a '%2' | '%3' --sysroot '%4'\n")
                .arg(dir.filePath(QStringLiteral("starts")), dir.filePath(QStringLiteral("requests")),
                     QStringLiteral(BLOCKTUNE_BIN_DIR "/blocktune-helper"), root)
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

ProfileResult nextResult(QSignalSpy &spy, ProfileResult::Kind kind)
{
    for (int i = 0; i < 10; ++i) {
        if (spy.isEmpty() && !spy.wait(20000))
            break;
        const auto r = spy.takeFirst().at(0).value<ProfileResult>();
        if (r.kind == kind)
            return r;
    }
    return {};
}

} // namespace

class TestConsoleTabs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_config;
    QTemporaryDir m_journals;

private Q_SLOTS:
    void initTestCase()
    {
        // The console's profile folder and settings: the test's own.
        qputenv("XDG_CONFIG_HOME", m_config.path().toLocal8Bit());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
    }

    // The Monitor goes on sampling while another tab is shown (it draws
    // only when its own is) and keeps its history: coming back goes on
    // where it was (it once restarted the plots, t 8.2 s -> 1.2 s).
    void monitorSamplesWhileItsTabIsHidden()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"sdb"_qs);
        window.resize(1280, 760);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        MonitorView *monitor = window.monitorView();
        // Sampled as a live machine's Monitor is (a recording's says its
        // counters are frozen and samples nothing): the sampling is what
        // this is about.
        monitor->setRecording(false);
        QSignalSpy plotted(monitor, &MonitorView::plotted);
        window.tabs()->setCurrentWidget(monitor);
        QTRY_VERIFY_WITH_TIMEOUT(!plotted.isEmpty() && plotted.constLast().at(0).toDouble() >= 1.0, 30000);
        const double shown = plotted.constLast().at(0).toDouble();

        window.tabs()->setCurrentWidget(window.tuningPanel());
        QCOMPARE(monitor->devices(), QStringList{u"sdb"_qs}); // still sampling
        plotted.clear();
        QTest::qWait(2000);
        QVERIFY(plotted.isEmpty()); // nothing drawn off screen

        window.tabs()->setCurrentWidget(monitor);
        QVERIFY(plotted.wait(30000));
        const double back = plotted.constLast().at(0).toDouble();
        QVERIFY2(back >= shown + 1.8, qPrintable(u"t %1 s before, %2 s back"_qs.arg(shown).arg(back)));
        QVERIFY2(monitor->statusText().startsWith(u"t "_qs), qPrintable(monitor->statusText()));
    }

    void applyProfileFromTheDeviceTree()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"sdb"_qs);
        window.resize(1280, 760);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        QTabWidget *tabs = window.tabs();
        const int profilesTab = tabOf(tabs, u"Profiles"_qs);
        QVERIFY(profilesTab >= 0);
        QCOMPARE(tabs->widget(profilesTab), window.profilesView());
        QVERIFY(tabOf(tabs, u"Advise"_qs) >= 0);
        QVERIFY(tabOf(tabs, u"Diagnose"_qs) >= 0);
        QCOMPARE(tabs->currentIndex(), 0);

        ProfilesView *page = window.profilesView();
        QSignalSpy done(page, &ProfilesView::finished);
        page->select(u"streaming-md"_qs);
        QVERIFY(previewOf(done, u"streaming-md"_qs));

        // Right click on md0, "Apply profile…": the Profiles tab, md0 chosen.
        DeviceTree *tree = window.deviceTree();
        QVERIFY(tree->selectDevice(u"md0"_qs));
        QAction *action = tree->applyProfileAction();
        QVERIFY(action);
        QCOMPARE(action->text(), u"Apply profile…"_qs);
        QCOMPARE(tree->contextMenuPolicy(), Qt::CustomContextMenu);
        action->trigger();
        QCOMPARE(tabs->currentWidget(), page);
        QCOMPARE(page->device(), u"md0"_qs);
        QVERIFY(previewOf(done, u"streaming-md"_qs)); // read again for it

        // The preview's rows: md0's shown and selected, the others hidden.
        auto *table = page->findChild<QTableWidget *>();
        QVERIFY(table->rowCount() > 2);
        int md0 = -1, shown = 0;
        for (int r = 0; r < table->rowCount(); ++r) {
            if (!table->isRowHidden(r))
                ++shown;
            if (table->item(r, 0)->text() == u"md0"_qs && table->item(r, 1)->text() == u"read_ahead_kb"_qs)
                md0 = r;
        }
        QVERIFY(md0 >= 0);
        QVERIFY(!table->isRowHidden(md0));
        QVERIFY(table->selectionModel()->isRowSelected(md0, {}));
        QCOMPARE(table->item(md0, 2)->text(), u"8192"_qs);  // current
        QCOMPARE(table->item(md0, 3)->text(), u"32768"_qs); // new
        QCOMPARE(table->item(md0, 4)->text(), u"rule 1 (type md)"_qs);
        for (int r = 0; r < table->rowCount(); ++r)
            QCOMPARE(table->isRowHidden(r), table->item(r, 0)->text() != u"md0"_qs);
        // "Only this device" off: every device's rows again, md0's still selected.
        auto *only = page->findChild<QCheckBox *>(u"onlyDevice"_qs);
        QVERIFY(only->isChecked());
        only->setChecked(false);
        int visible = 0;
        for (int r = 0; r < table->rowCount(); ++r)
            visible += !table->isRowHidden(r);
        QCOMPARE(visible, table->rowCount());
        QVERIFY(visible > shown);
        QVERIFY(table->selectionModel()->isRowSelected(md0, {}));

        // A recorded tree: the reason on the page, the writing buttons off.
        auto *reason = page->findChild<QLabel *>(u"readOnlyReason"_qs);
        QVERIFY(reason);
        QVERIFY2(reason->text().contains(u"is a recorded tree"_qs), qPrintable(reason->text()));
        for (auto *b : page->findChildren<QPushButton *>())
            if (b->text() == u"Apply"_qs || b->text() == u"Revert"_qs || b->text() == u"Install at boot"_qs)
                QVERIFY(!b->isEnabled());
    }

    // readahead under the md floor on a recorded md tree: the static
    // diagnosis shows the below_md_floor card; at the floor it does not.
    void diagnoseStaticOnARecordedMdTree()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        QVERIFY(writeAttr(dir.path(), u"md0/queue/read_ahead_kb"_qs, "4096")); // floor 8192
        MainWindow window(dir.path(), u"md0"_qs);
        window.resize(1280, 760);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        DiagnoseView *view = window.diagnoseView();
        window.tabs()->setCurrentWidget(view);
        QCOMPARE(view->device(), u"md0"_qs);
        // Before it ran: a line of what it will do (here only the static
        // checks: a recorded tree has nothing to read), no progress bar.
        auto *intro = view->findChild<QLabel *>(u"diagnoseIntro"_qs);
        QVERIFY(intro);
        QTRY_VERIFY(intro->isVisible());
        QVERIFY2(intro->text().startsWith(u"Diagnose md0: "_qs), qPrintable(intro->text()));
        QVERIFY2(intro->text().contains(u"take under a second"_qs), qPrintable(intro->text()));
        QVERIFY2(!intro->text().contains(u"O_DIRECT"_qs), qPrintable(intro->text()));
        QVERIFY(!view->findChild<QProgressBar *>()->isVisible());
        // Measuring is refused with the reason; the static checks run.
        QVERIFY(!view->measureDisabledReason().isEmpty());
        auto *staticOnly = view->findChild<QCheckBox *>(u"staticOnly"_qs);
        QVERIFY(staticOnly->isChecked());
        QVERIFY(!staticOnly->isEnabled());
        QVERIFY(!view->run(true));
        QSignalSpy done(view, &DiagnoseView::finished);
        auto *run = [&]() -> QPushButton * {
            for (auto *b : view->findChildren<QPushButton *>())
                if (b->text() == u"Diagnose"_qs)
                    return b;
            return nullptr;
        }();
        QVERIFY(run && run->isEnabled());
        run->click();
        QVERIFY(done.wait(30000));
        QCOMPARE(done.takeFirst().at(0).toBool(), true);
        QVERIFY(!intro->isVisible()); // the findings take its place
        QVERIFY(!view->findChild<QProgressBar *>()->isVisible());
        QCOMPARE(view->findingCodes(), QStringList{u"below_md_floor"_qs});
        auto *card = view->findChild<QFrame *>(u"below_md_floor"_qs);
        QVERIFY(card);
        QTRY_VERIFY(card->isVisible()); // shown by the next event loop turn
        auto *summary = card->findChild<QLabel *>(u"summary"_qs);
        QVERIFY2(summary->text().contains(u"below the array's floor of 8192 KiB"_qs), qPrintable(summary->text()));
        auto *evidence = card->findChild<QTableWidget *>(u"evidence"_qs);
        QVERIFY(evidence);
        // In words with units, not JSON keys (the key in the label's tooltip).
        QStringList rows, keys;
        for (int r = 0; r < evidence->rowCount(); ++r) {
            rows << evidence->item(r, 0)->text() + u'=' + evidence->item(r, 1)->text();
            keys << evidence->item(r, 0)->toolTip();
        }
        QCOMPARE(rows, (QStringList{u"The array's floor (2 × stripe)=8192 KiB"_qs, u"Readahead=4096 KiB"_qs,
                                    u"Stripe=4096 KiB"_qs}));
        QCOMPARE(keys, (QStringList{u"floor_kb"_qs, u"read_ahead_kb"_qs, u"stripe_kb"_qs}));
        // A sentence, its device's name as written (not "Md0's"), "×" not "x".
        QVERIFY2(summary->text().startsWith(u"md0's"_qs) && summary->text().endsWith(u'.')
                     && summary->text().contains(u"(2 × stripe)"_qs),
                 qPrintable(summary->text()));
        bool fixShown = false;
        for (auto *l : card->findChildren<QLabel *>())
            fixShown |= l->text() == u"Fix: read_ahead_kb = 8192"_qs;
        QVERIFY(fixShown);
        auto *apply = card->findChild<QPushButton *>(u"applyFix"_qs);
        QVERIFY(apply);
        QVERIFY(!apply->isEnabled()); // read-only tree: the fix is shown, not offered
        QVERIFY(!view->applyFix(u"below_md_floor"_qs));
        QCOMPARE(readAttr(dir.path(), u"md0/queue/read_ahead_kb"_qs), u"4096"_qs);

        // At the floor: no card.
        QVERIFY(writeAttr(dir.path(), u"md0/queue/read_ahead_kb"_qs, "8192"));
        run->click();
        QVERIFY(done.wait(30000));
        QVERIFY(!view->findingCodes().contains(u"below_md_floor"_qs));
        QVERIFY(!view->findChild<QFrame *>(u"below_md_floor"_qs));
    }

    // On a writable copy the fix's Apply goes through the session and the
    // card goes away on the next check.
    void diagnoseFixAppliesThroughTheSession()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        QVERIFY(writeAttr(dir.path(), u"md0/queue/read_ahead_kb"_qs, "4096"));
        MainWindow window(dir.path(), u"md0"_qs, SessionOptions{});
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        DiagnoseView *view = window.diagnoseView();
        QSignalSpy done(view, &DiagnoseView::finished);
        QVERIFY(view->run(false));
        QVERIFY(done.wait(30000));
        QCOMPARE(view->findingCodes(), QStringList{u"below_md_floor"_qs});
        auto *apply = view->findChild<QFrame *>(u"below_md_floor"_qs)->findChild<QPushButton *>(u"applyFix"_qs);
        QVERIFY(apply->isEnabled());
        apply->click();
        QVERIFY(acceptPreview()); // the fix is previewed as every write is
        QVERIFY(done.wait(30000)); // checked again after the write
        QCOMPARE(readAttr(dir.path(), u"md0/queue/read_ahead_kb"_qs), u"8192"_qs);
        QVERIFY(view->findingCodes().isEmpty());
    }

    // A write made in one view is what every other view's status line says
    // (Settings once said "Restored 1 setting" after Advise had applied),
    // and the settings form shows the value written.
    void statusLinesSayTheLastWriteWhoeverMadeIt()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        QVERIFY(writeAttr(dir.path(), u"md0/queue/read_ahead_kb"_qs, "4096"));
        MainWindow window(dir.path(), u"md0"_qs, SessionOptions{});
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        TuningPanel *panel = window.tuningPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->loadedDevice(), u"md0"_qs, 30000);
        auto *settingsStatus = panel->findChild<QLabel *>(u"status"_qs);
        auto *adviseStatus = window.adviseView()->findChild<QLabel *>(u"status"_qs);
        QVERIFY(settingsStatus && adviseStatus);
        auto *spin = child<QSpinBox>(panel, u"Readahead in KiB"_qs);
        QVERIFY(spin);
        QCOMPARE(spin->value(), 4096);

        DiagnoseView *view = window.diagnoseView();
        QSignalSpy done(view, &DiagnoseView::finished);
        QVERIFY(view->run(false));
        QVERIFY(done.wait(30000));
        auto *apply = view->findChild<QFrame *>(u"below_md_floor"_qs)->findChild<QPushButton *>(u"applyFix"_qs);
        QVERIFY(apply);
        apply->click();
        QVERIFY(acceptPreview()); // the fix's change, shown first
        QVERIFY(done.wait(30000));
        // "Applied 1 change(s)" untranslated; "1 change" with the plurals loaded.
        QTRY_VERIFY2_WITH_TIMEOUT(settingsStatus->text().startsWith(u"Applied 1 change"_qs)
                                      && settingsStatus->text().endsWith(u": md0 read_ahead_kb: 4096 → 8192"_qs),
                                  qPrintable(settingsStatus->text()), 30000);
        const QString said = settingsStatus->text();
        QCOMPARE(adviseStatus->text(), said);
        QTRY_COMPARE_WITH_TIMEOUT(spin->value(), 8192, 30000);
    }

    // A user: Apply and Install at boot go through the session's one
    // helper, started once for both (one prompt per console).
    void profileApplyAndInstallShareTheHelper()
    {
        QTemporaryDir dir, work;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        QVERIFY(QDir().mkpath(dir.path() + u"/etc/udev/rules.d"_qs)); // udev is installed there
        SessionOptions options;
        const QString helper = fakeHelper(work, dir.path());
        options.writerFactory = [helper](const SysRoot &) { return std::make_unique<HelperWriter>(QStringList{helper}); };
        MainWindow window(dir.path(), u"md0"_qs, options);
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        ProfilesView *page = window.profilesView();
        QSignalSpy done(page, &ProfilesView::finished);
        page->select(u"streaming-md"_qs);
        QVERIFY(previewOf(done, u"streaming-md"_qs));
        QCOMPARE(startsOf(work), 0);
        page->apply();
        QVERIFY(acceptPreview()); // md0, the window's device, ticked by itself
        ProfileResult r = nextResult(done, ProfileResult::Apply);
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(readAttr(dir.path(), u"md0/queue/read_ahead_kb"_qs), u"32768"_qs);
        QCOMPARE(startsOf(work), 1);
        page->installAtBoot();
        r = nextResult(done, ProfileResult::Install);
        QVERIFY2(r.ok, qPrintable(r.message));
        const QString rules = dir.path() + u"/etc/udev/rules.d/"_qs + udevRulesFileName(u"streaming-md"_qs);
        QVERIFY2(QFile::exists(rules), qPrintable(r.message));
        QCOMPARE(r.message, u"Installed "_qs + rules);
        QCOMPARE(startsOf(work), 1); // the same helper, no second prompt
        QFile requests(work.filePath(u"requests"_qs));
        QVERIFY(requests.open(QIODevice::ReadOnly));
        QVERIFY(requests.readAll().contains("\"op\":\"install_rules\"")); // it wrote the file, not the console
    }

    void adviseIsRefusedOnARecordedTree()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        AdviseView *view = window.adviseView();
        QCOMPARE(view->device(), u"md0"_qs);
        QVERIFY2(view->disabledReason().contains(u"is a recorded tree"_qs), qPrintable(view->disabledReason()));
        for (auto *b : view->findChildren<QPushButton *>())
            if (b->text() == u"Advise"_qs) {
                QVERIFY(!b->isEnabled());
                QCOMPARE(b->toolTip(), view->disabledReason());
            }
        QVERIFY(!view->start());
        QVERIFY(!view->isRunning());
        // The page starts with what Advise does and how long it takes (the
        // budget), in the place the curve takes once it runs.
        auto *intro = view->findChild<QLabel *>(u"adviseIntro"_qs);
        QVERIFY(intro);
        QVERIFY2(intro->text().startsWith(u"Advise for md0: "_qs), qPrintable(intro->text()));
        QVERIFY2(intro->text().contains(u"about 60 s (the budget)"_qs), qPrintable(intro->text()));
        view->findChild<QSpinBox *>(u"budget"_qs)->setValue(30);
        QVERIFY2(intro->text().contains(u"about 30 s (the budget)"_qs), qPrintable(intro->text()));
        QVERIFY(!intro->isHidden());
        QVERIFY(view->findChild<QCustomPlot *>(u"adviseCurve"_qs)->isHidden()
                || !view->findChild<QCustomPlot *>(u"adviseCurve"_qs)->isVisibleTo(view));
    }

    // History: a sweep kept earlier gives its advice on the Advise page,
    // computed from its curve, nothing read (a recorded tree: nothing could be).
    void adviseFromASweepInTheHistory()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"history.sqlite"_qs);
        const QByteArray before = qgetenv("BLOCKTUNE_HISTORY_DB");
        qputenv("BLOCKTUNE_HISTORY_DB", db.toLocal8Bit());
        const auto restoreEnv = qScopeGuard([&] { qputenv("BLOCKTUNE_HISTORY_DB", before); });
        HistoryRecord r;
        r.recordedAt = QDateTime::currentDateTimeUtc();
        r.source = u"cli"_qs;
        r.kind = u"sweep"_qs;
        r.test = u"seq"_qs;
        r.device = u"md0"_qs;
        r.mbPerSec = 2150;
        r.result = QJsonDocument::fromJson(R"({"sweep":"read_ahead_kb","test":"seq","device":"md0","points":[
            {"read_ahead_kb":128,"mb_per_s":900},{"read_ahead_kb":1024,"mb_per_s":2050},
            {"read_ahead_kb":4096,"mb_per_s":2100},{"read_ahead_kb":16384,"mb_per_s":2150}]})").object();
        const auto id = HistoryStore(db).add(r);
        QVERIFY2(id, id ? "" : qPrintable(id.error().message));

        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        HistoryView *history = window.historyView();
        QVERIFY(QTest::qWaitFor([&] { return history->recordCount() == 1; }, 30000));
        auto *button = history->findChild<QPushButton *>(u"historyAdvise"_qs);
        QVERIFY(button);
        QVERIFY(!button->isEnabled());
        history->findChild<QTableView *>(u"historyList"_qs)->selectRow(0);
        QVERIFY(button->isEnabled());
        QSignalSpy advised(history, &HistoryView::advised);
        button->click();
        QVERIFY(advised.wait(30000));
        AdviseView *view = window.adviseView();
        auto *tabs = window.findChild<QTabWidget *>();
        QVERIFY(tabs);
        QVERIFY(tabs->currentWidget() == view || view->isVisibleTo(tabs->currentWidget()));
        // The knee of the recorded curve (the record holds no floor).
        QCOMPARE(view->recommendedKiB(), std::optional<quint64>(1024));
        QVERIFY2(view->resultText().contains(u"the same within the tolerance and the noise"_qs),
                 qPrintable(view->resultText()));
        QVERIFY2(view->resultText().contains(u"From 1024 KiB to 16384 KiB the curve gives"_qs),
                 qPrintable(view->resultText()));
    }
};

QTEST_MAIN(TestConsoleTabs)
#include "tst_consoletabs.moc"
