// The console on a light and on a dark Fusion palette, and switched from
// light to dark while open: every coloured thing a user reads (why-disabled
// lines, drift rows in the Profiles preview, settings that differ in the
// History comparison, Diagnose's finding cards, the plots) has a WCAG
// contrast of at least 4.5:1 against the background it is drawn on, the
// plots are no light boxes on a dark window, and drift is marked by more
// than colour. The ratio is computed here from the WCAG 2.x definition, not
// with the console's own function.
#include "mainwindow.h"
#include "adviseview.h"
#include "diagnoseview.h"
#include "console/consolesession.h"
#include "history/historyview.h"
#include "monitor/monitorview.h"
#include "profilesview.h"
#include "readtest/readtestview.h"
#include "tuning/tuningpanel.h"
#include "palettes.h"
#include "appearance.h"
#include "devicetree.h"
#include "testsupport.h"
#include "../history/historyfixture.h"

#include "history/history.h"
#include "profiles/profiles.h"

#include <QApplication>
#include <QAbstractScrollArea>
#include <QFocusFrame>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSlider>
#include <QTreeView>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include <qcustomplot.h>

#include <cmath>

using namespace blocktune;
using namespace blocktune::test;

namespace {

// WCAG 2.x: https://www.w3.org/TR/WCAG21/#dfn-relative-luminance
double wcagLuminance(const QColor &c)
{
    auto channel = [](int v8) {
        const double v = v8 / 255.0;
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue());
}

double wcagContrast(const QColor &a, const QColor &b)
{
    const double x = wcagLuminance(a), y = wcagLuminance(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

QString describe(const QString &what, const QColor &fg, const QColor &bg)
{
    return QStringLiteral("%1: %2 on %3 is %4:1").arg(what, fg.name(), bg.name()).arg(wcagContrast(fg, bg), 0, 'f', 2);
}

#define QVERIFY_READABLE(what, fg, bg)                                                                         \
    QVERIFY2(wcagContrast(fg, bg) >= 4.5, qPrintable(describe(what, fg, bg)))

/// The colour a cell is painted on and in: its own brushes where it has
/// them, else the view's.
QColor cellBackground(const QVariant &brush, const QWidget *view)
{
    const QBrush b = brush.value<QBrush>();
    return b.style() != Qt::NoBrush ? b.color() : view->palette().color(QPalette::Base);
}

QColor cellForeground(const QVariant &brush, const QWidget *view)
{
    const QBrush b = brush.value<QBrush>();
    return b.style() != Qt::NoBrush ? b.color() : view->palette().color(QPalette::Text);
}

/// A label paints no background: the window behind it shows.
void checkLabel(const QLabel *label, const char *what)
{
    QVERIFY2(label, what);
    QVERIFY2(!label->text().isEmpty(), what);
    label->ensurePolished();
    const QColor fg = label->palette().color(QPalette::WindowText);
    const QColor bg = label->parentWidget()->palette().color(QPalette::Window);
    QVERIFY_READABLE(QString::fromLatin1(what), fg, bg);
}

void checkPlot(QCustomPlot *plot, const QPalette &palette)
{
    QVERIFY(plot);
    const QColor window = palette.color(QPalette::Window);
    // The background as painted: a corner of the plot and the middle of
    // its first axis rect (no data there before a test ran).
    // A plot not shown yet (Advise's before its first run) has no size of
    // its own: paint it at one it could have.
    if (!plot->isVisible())
        plot->resize(640, 360);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = plot->toPixmap(plot->width(), plot->height()).toImage();
    const QColor bg = image.pixelColor(2, 2);
    const QRect first = plot->axisRect()->rect();
    const QColor inside = image.pixelColor(first.center().x() + 1, first.center().y() + 1);
    // No light box on a dark window (nor a black one on a light window).
    QVERIFY2(wcagContrast(bg, window) < 1.6, qPrintable(describe(plot->objectName() + u" against the window"_qs, bg, window)));
    QVERIFY2(wcagContrast(inside, window) < 1.6,
             qPrintable(describe(plot->objectName() + u" axis rect against the window"_qs, inside, window)));
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes()) {
            QVERIFY_READABLE(plot->objectName() + u" tick labels"_qs, axis->tickLabelColor(), bg);
            QVERIFY_READABLE(plot->objectName() + u" axis label"_qs, axis->labelColor(), bg);
            QVERIFY2(wcagContrast(axis->basePen().color(), bg) >= 3.0, qPrintable(plot->objectName() + u" axis"_qs));
        }
    }
    for (QCPLayoutElement *e : plot->plotLayout()->elements(true))
        if (auto *legend = qobject_cast<QCPLegend *>(e))
            QVERIFY_READABLE(plot->objectName() + u" legend"_qs, legend->textColor(), bg);
    for (int i = 0; i < plot->graphCount(); ++i)
        QVERIFY2(wcagContrast(plot->graph(i)->pen().color(), bg) >= 3.0,
                 qPrintable(describe(plot->objectName() + u" line "_qs + plot->graph(i)->name(),
                                     plot->graph(i)->pen().color(), bg)));
}

bool waitProfiles(ProfilesView *page, ProfileResult::Kind kind)
{
    return QTest::qWaitFor([&] { return !page->isBusy() && page->lastResult().kind == kind; }, 30000);
}

} // namespace

class TestTheme : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

private Q_SLOTS:
    void initTestCase()
    {
        keepConsoleStateIn(m_home);
        QApplication::setStyle(u"Fusion"_qs);
    }

    void cleanup() { QApplication::setPalette(lightFusionPalette()); }

    void theRefereeIsWcag()
    {
        QCOMPARE(wcagContrast(Qt::black, Qt::white), 21.0);
        // #767676 is the lightest grey with 4.5:1 on white (WebAIM's figure: 4.54).
        QVERIFY(std::abs(wcagContrast(QColor(0x76, 0x76, 0x76), Qt::white) - 4.54) < 0.01);
        QVERIFY(wcagContrast(QColor(0x77, 0x77, 0x77), Qt::white) < 4.5);
    }

    void consoleReadsOnEveryTheme_data()
    {
        QTest::addColumn<QPalette>("opened");
        QTest::addColumn<QPalette>("shown");
        QTest::newRow("light") << lightFusionPalette() << lightFusionPalette();
        QTest::newRow("dark") << darkFusionPalette() << darkFusionPalette();
        QTest::newRow("light, then switched to dark") << lightFusionPalette() << darkFusionPalette();
    }

    void consoleReadsOnEveryTheme()
    {
        QFETCH(QPalette, opened);
        QFETCH(QPalette, shown);
        // md0's readahead under its floor: Diagnose has a finding, the
        // streaming-md profile a drift. The copy is recorded: read-only.
        QTemporaryDir tree;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        QFile ra(tree.filePath(u"sys/class/block/md0/queue/read_ahead_kb"_qs));
        QVERIFY(ra.open(QIODevice::WriteOnly | QIODevice::Truncate) && ra.write("4096") == 4);
        ra.close();

        QApplication::setPalette(opened);
        MainWindow window(tree.path(), u"md0"_qs);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));

        ProfilesView *profiles = window.profilesView();
        window.tabs()->setCurrentWidget(profiles);
        QVERIFY(waitProfiles(profiles, ProfileResult::Preview));
        profiles->select(u"streaming-md"_qs);
        QVERIFY(QTest::qWaitFor([&] { return profiles->selectedProfile() == u"streaming-md"_qs && !profiles->isBusy(); }, 30000));
        profiles->verify();
        QVERIFY(waitProfiles(profiles, ProfileResult::Verify));

        DiagnoseView *diagnose = window.diagnoseView();
        QSignalSpy diagnosed(diagnose, &DiagnoseView::finished);
        diagnose->setDevice(u"md0"_qs);
        QVERIFY(diagnose->run(false));
        QVERIFY(diagnosed.wait(30000));

        if (shown != opened) {
            QApplication::setPalette(shown);
            QTest::qWait(50); // the queued re-colouring after ApplicationPaletteChange
        }
        QCOMPARE(window.palette().color(QPalette::Window), shown.color(QPalette::Window));

        // Why-disabled lines: the settings panel, the Profiles page, Advise and Diagnose.
        QLabel *note = nullptr;
        for (QLabel *l : window.tuningPanel()->findChildren<QLabel *>())
            if (l->text().startsWith(window.session()->readOnlyReason()) && !l->text().isEmpty())
                note = l;
        checkLabel(note, "settings: why read-only");
        checkLabel(profiles->findChild<QLabel *>(u"readOnlyReason"_qs), "profiles: why read-only");
        checkLabel(window.adviseView()->findChild<QLabel *>(u"disabledReason"_qs), "advise: why not offered");
        checkLabel(diagnose->findChild<QLabel *>(u"disabledReason"_qs), "diagnose: why not measured");

        // Drift rows: readable, and marked by an icon and a word.
        const auto *table = profiles->findChild<QTableWidget *>();
        int drifts = 0;
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 5)->text() != u"drift"_qs)
                continue;
            ++drifts;
            QVERIFY2(!table->item(r, 0)->icon().isNull(), "a drift row's device carries the warning icon");
            for (int c = 0; c < table->columnCount(); ++c) {
                const QTableWidgetItem *item = table->item(r, c);
                const QColor bg = cellBackground(item->data(Qt::BackgroundRole), table);
                const QColor fg = cellForeground(item->data(Qt::ForegroundRole), table);
                QVERIFY_READABLE(u"drift cell "_qs + item->text(), fg, bg);
                // A tint, not a box of another brightness.
                QVERIFY2(wcagContrast(bg, table->palette().color(QPalette::Base)) < 1.6,
                         qPrintable(describe(u"drift tint against the table"_qs, bg, table->palette().color(QPalette::Base))));
            }
        }
        QVERIFY2(drifts > 0, "md0 drifted from streaming-md");

        // Diagnose's cards: the background as painted, the text as set.
        const QList<QFrame *> cards = diagnose->findChildren<QFrame *>(u"below_md_floor"_qs);
        QVERIFY2(!cards.isEmpty(), "the floor finding's card");
        for (QFrame *card : cards) {
            window.tabs()->setCurrentWidget(diagnose);
            QTest::qWait(20);
            const QImage image = card->grab().toImage();
            const QColor painted = image.pixelColor(image.width() - 6, 6);
            for (QLabel *label : card->findChildren<QLabel *>()) {
                if (label->text().isEmpty() || label->pixmap().isNull() == false)
                    continue;
                label->ensurePolished();
                QVERIFY_READABLE(u"finding card: "_qs + label->text().left(40), label->palette().color(QPalette::WindowText),
                                 painted);
            }
        }

        // The plots: the monitor's, the read test's two, the advise curve.
        checkPlot(window.monitorView()->findChild<QCustomPlot *>(u"monitorPlot"_qs), shown);
        for (QCustomPlot *plot : window.readTestView()->findChildren<QCustomPlot *>())
            checkPlot(plot, shown);
        checkPlot(window.adviseView()->findChild<QCustomPlot *>(u"adviseCurve"_qs), shown);
    }

    void historyComparisonReads_data() { consoleReadsOnEveryTheme_data(); }

    void historyComparisonReads()
    {
        QFETCH(QPalette, opened);
        QFETCH(QPalette, shown);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"history.sqlite"_qs);
        QVERIFY(HistoryStore(path).add(historyRecord(seqResult(128, {200}), u"console"_qs, {})));
        QVERIFY(HistoryStore(path).add(historyRecord(seqResult(1024, {260}), u"cli"_qs, {})));
        QApplication::setPalette(opened);
        HistoryView view(path);
        QSignalSpy loaded(&view, &HistoryView::loaded);
        view.show();
        QVERIFY(loaded.wait(30000));
        QSignalSpy compared(&view, &HistoryView::compared);
        view.compare(view.recordId(1), view.recordId(0));
        QVERIFY(compared.wait(30000));
        if (shown != opened) {
            QApplication::setPalette(shown);
            QTest::qWait(50);
        }
        auto *table = view.findChild<QTableView *>(u"historyCompare"_qs);
        const QAbstractItemModel *model = table->model();
        int differs = 0;
        for (int r = 0; r < model->rowCount(); ++r) {
            if (model->index(r, 3).data().toString() != u"differs"_qs)
                continue;
            ++differs;
            for (int c = 0; c < model->columnCount(); ++c) {
                const QModelIndex i = model->index(r, c);
                QVERIFY_READABLE(u"differing setting "_qs + i.data().toString(),
                                 cellForeground(i.data(Qt::ForegroundRole), table),
                                 cellBackground(i.data(Qt::BackgroundRole), table));
            }
        }
        QVERIFY2(differs > 0, "readahead 128 and 1024 differ");
    }

    // View -> Theme: Dark and Light whatever the platform's palette, kept
    // in QSettings for the next start; "Follow the desktop" puts the
    // platform's own look back (here: Fusion's light palette, so light).
    void themeMenuSwitchesAndIsRemembered()
    {
        QApplication::setPalette(lightFusionPalette());
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        window.show();
        auto *menu = window.menuBar()->findChild<QMenu *>(u"themeMenu"_qs);
        QVERIFY2(menu, "View has a Theme menu");
        auto action = [&](const char *name) { return menu->findChild<QAction *>(QString::fromLatin1(name)); };
        QVERIFY(action("theme-system") && action("theme-light") && action("theme-dark"));
        QVERIFY(action("theme-system")->isChecked());

        action("theme-dark")->trigger();
        QTRY_VERIFY(wcagLuminance(window.palette().color(QPalette::Window)) < 0.1);
        QVERIFY(wcagLuminance(window.tuningPanel()->palette().color(QPalette::Base)) < 0.1);
        QCOMPARE(QSettings().value(u"console/theme"_qs).toString(), u"dark"_qs);
        {
            MainWindow second(recordedTree("md-raid10-f2"), u"md0"_qs);
            auto *again = second.menuBar()->findChild<QMenu *>(u"themeMenu"_qs);
            QVERIFY(again->findChild<QAction *>(u"theme-dark"_qs)->isChecked());
        }
        QCOMPARE(savedTheme(), ThemeChoice::Dark);

        action("theme-light")->trigger();
        QTRY_VERIFY(wcagLuminance(window.palette().color(QPalette::Window)) > 0.5);
        QCOMPARE(QSettings().value(u"console/theme"_qs).toString(), u"light"_qs);

        action("theme-dark")->trigger();
        action("theme-system")->trigger();
        QTRY_VERIFY(wcagLuminance(window.palette().color(QPalette::Window)) > 0.5);
        QCOMPARE(savedTheme(), ThemeChoice::System);
    }

    // Where Qt cannot ask the desktop (6.4) the platform's palette tells.
    void desktopSchemeFromThePalette()
    {
        QCOMPARE(colorSchemeOf(darkFusionPalette()), ColorScheme::Dark);
        QCOMPARE(colorSchemeOf(lightFusionPalette()), ColorScheme::Light);
    }

    // A keyboard user sees where the focus is: a ring of at least 3:1
    // against the window around the device tree, a table and the
    // readahead slider, on light and dark.
    void focusIsVisible_data() { consoleReadsOnEveryTheme_data(); }

    void focusIsVisible()
    {
        QFETCH(QPalette, shown);
        applyTheme(ThemeChoice::System); // the console's style, with its focus ring
        QApplication::setPalette(shown);
        // A writable copy: a recording's editors are disabled and take no focus.
        QTemporaryDir copy;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), copy.path()));
        // sdb: mq-deadline, so the tunables table is shown (md0 has none).
        MainWindow window(copy.path(), u"sdb"_qs, SessionOptions{});
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(QTest::qWaitFor([&] { return window.tuningPanel()->loadedDevice() == u"sdb"_qs; }, 30000));
        QWidget *tree = nullptr;
        for (QTreeView *view : window.deviceTree()->findChildren<QTreeView *>())
            tree = view;
        if (!tree)
            tree = window.deviceTree();
        QSlider *slider = window.tuningPanel()->findChild<QSlider *>();
        QTableWidget *table = window.tuningPanel()->findChild<QTableWidget *>();
        for (QWidget *target : {tree, static_cast<QWidget *>(slider), static_cast<QWidget *>(table)}) {
            QVERIFY(target);
            target->setFocus(Qt::TabFocusReason);
            QTRY_VERIFY(target->hasFocus());
            const QRect around(target->mapTo(&window, QPoint(0, 0)), target->size());
            QPoint side, top;
            if (qobject_cast<QAbstractScrollArea *>(target)) {
                // A tree or a table fills its pane: its frame is the ring.
                side = QPoint(around.left() + 1, around.center().y());
                top = QPoint(around.center().x(), around.top() + 1);
            } else {
                auto *ring = window.findChild<QFocusFrame *>(u"focusRing"_qs);
                QVERIFY2(ring && ring->isVisible(), target->metaObject()->className());
                const QRect ringOn(ring->mapTo(&window, QPoint(0, 0)), ring->size());
                QVERIFY2(ringOn.contains(around) && ringOn != around, target->metaObject()->className());
                side = QPoint(around.left() - 2, around.center().y());
                top = QPoint(around.center().x(), around.top() - 2);
            }
            // Painted: the pixels of the ring, left and top.
            const QImage image = window.grab().toImage();
            const qreal dpr = image.devicePixelRatio();
            const QColor window_ = window.palette().color(QPalette::Window);
            side = QPoint(int(side.x() * dpr), int(side.y() * dpr));
            top = QPoint(int(top.x() * dpr), int(top.y() * dpr));
            for (const QPoint &at : {side, top}) {
                QVERIFY(image.rect().contains(at));
                const QColor c = image.pixelColor(at);
                QVERIFY2(wcagContrast(c, window_) >= 3.0,
                         qPrintable(describe(QString::fromLatin1(target->metaObject()->className())
                                                 + u" focus ring"_qs, c, window_)));
            }
        }
    }
};

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
