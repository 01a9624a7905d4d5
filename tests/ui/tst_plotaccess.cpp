// Plots for the keyboard and a screen reader: every plot has an accessible
// name and a "Show as table" toggle; toggling the Monitor's shows a table
// whose cells are the plot's numbers (x and y per line) and back; Tab
// walks the Monitor's bar in the order it reads.
#include "mainwindow.h"
#include "monitor/monitorview.h"
#include "plottableswitch.h"
#include "testsupport.h"

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QScrollBar>
#include <QTest>

#include <qcustomplot.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

/// The next widget Tab reaches after `w`.
QWidget *nextTabStop(QWidget *w)
{
    for (QWidget *n = w->nextInFocusChain(); n && n != w; n = n->nextInFocusChain())
        if ((n->focusPolicy() & Qt::TabFocus) && n->isVisible() && n->isEnabled())
            return n;
    return nullptr;
}

int columnOf(const QTableWidget *table, const QString &header)
{
    for (int c = 0; c < table->columnCount(); ++c)
        if (table->horizontalHeaderItem(c) && table->horizontalHeaderItem(c)->text() == header)
            return c;
    return -1;
}

} // namespace

class TestPlotAccess : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

private Q_SLOTS:
    void initTestCase()
    {
        keepConsoleStateIn(m_home);
    }

    void everyPlotHasANameAndATableToggle()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        const QList<QCustomPlot *> plots = window.findChildren<QCustomPlot *>();
        QCOMPARE(plots.size(), 7); // monitor, its latency heatmap and its readahead view, read test live, sweep and latency, advise
        const QList<PlotTableSwitch *> switches = window.findChildren<PlotTableSwitch *>();
        QCOMPARE(switches.size(), plots.size());
        for (QCustomPlot *plot : plots) {
            QVERIFY2(!plot->accessibleName().isEmpty(), qPrintable(plot->objectName()));
            const auto it = std::find_if(switches.cbegin(), switches.cend(),
                                         [plot](const PlotTableSwitch *s) { return s->plot() == plot; });
            QVERIFY2(it != switches.cend(), qPrintable(plot->objectName()));
            QVERIFY((*it)->toggle()->isCheckable());
            QVERIFY((*it)->toggle()->accessibleName().contains(plot->accessibleName()));
        }
    }

    void monitorAsTableHasThePlotsNumbers()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        MonitorView *monitor = window.monitorView();
        // Sampled as a live machine's would be (a recording's Monitor says
        // its counters are frozen and samples nothing): the plot and its
        // table are what this is about.
        monitor->setRecording(false);
        window.tabs()->setCurrentWidget(monitor);
        QSignalSpy plotted(monitor, &MonitorView::plotted);
        QVERIFY(QTest::qWaitFor([&] { return plotted.size() >= 5; }, 30000));
        monitor->setPaused(true); // the numbers hold still while compared

        auto *sw = monitor->findChild<PlotTableSwitch *>();
        QVERIFY(sw);
        QCustomPlot *plot = sw->plot();
        QVERIFY(plot->isVisible());
        QVERIFY(!sw->table()->isVisible());
        sw->toggle()->click();
        QVERIFY(sw->isTableShown());
        QVERIFY(sw->table()->isVisible());
        QVERIFY(!plot->isVisible());

        const QTableWidget *table = sw->table();
        int compared = 0;
        for (int g = 0; g < plot->graphCount(); ++g) {
            QCPGraph *graph = plot->graph(g);
            if (graph->data()->isEmpty())
                continue;
            const QString x = graph->name() + u": "_qs + graph->keyAxis()->label().replace(u'\n', u' ');
            const QString y = graph->name() + u": "_qs + graph->valueAxis()->label().replace(u'\n', u' ');
            const int cx = columnOf(table, x), cy = columnOf(table, y);
            QVERIFY2(cx >= 0 && cy >= 0, qPrintable(x + u" / "_qs + y));
            int row = 0;
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it, ++row) {
                QCOMPARE(table->item(row, cx)->data(Qt::DisplayRole).toDouble(), it->key);
                if (!std::isnan(it->value))
                    QCOMPARE(table->item(row, cy)->data(Qt::DisplayRole).toDouble(), it->value);
                ++compared;
            }
            if (graph->name() == u"md0 read MB/s"_qs)
                QVERIFY2(row >= 3, "the throughput line has its points (the step averages fold theirs)");
        }
        QVERIFY2(compared > 0, "the throughput line has points");
        QVERIFY(columnOf(table, u"md0 read MB/s: MB/s (write dashed)"_qs) >= 0);

        sw->toggle()->click();
        QVERIFY(!sw->isTableShown());
        QVERIFY(plot->isVisible());
    }

    void tabReadsEachPageTopToBottom()
    {
        // Tab never jumps back up a page: each control Tab reaches after
        // another is below it or in its row (a tab widget's bar, which sits
        // just above its page, comes after the page's first control).
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        window.resize(1400, 860);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        for (int t = 0; t < window.tabs()->count(); ++t) {
            window.tabs()->setCurrentIndex(t);
            QTest::qWait(30);
            QWidget *page = window.tabs()->currentWidget();
            QWidget *previous = nullptr;
            QList<QWidget *> seen;
            for (QWidget *w = nextTabStop(window.tabs()->tabBar()); w && !seen.contains(w) && page->isAncestorOf(w);
                 w = nextTabStop(w)) {
                seen << w;
                if (previous) {
                    const int was = previous->mapTo(page, QPoint(0, 0)).y();
                    const int is = w->mapTo(page, QPoint(0, 0)).y();
                    QVERIFY2(is >= was - 30, qPrintable(QStringLiteral("%1: Tab goes from %2 (y %3) up to %4 (y %5)")
                                                            .arg(window.tabs()->tabText(t),
                                                                 QString::fromLatin1(previous->metaObject()->className()))
                                                            .arg(was)
                                                            .arg(QString::fromLatin1(w->metaObject()->className()))
                                                            .arg(is)));
                }
                previous = w;
            }
            // And every control a user can use there is reachable (a page
            // whose controls are all refused, as Advise's on a recorded
            // tree, has none to reach).
            for (QWidget *w : page->findChildren<QWidget *>())
                if ((w->focusPolicy() & Qt::TabFocus) && w->isEnabled() && w->isVisibleTo(&window)
                    && !qobject_cast<QScrollBar *>(w))
                    QVERIFY2(seen.contains(w) || !seen.isEmpty(),
                             qPrintable(window.tabs()->tabText(t) + u": nothing reachable with Tab, yet "_qs
                                        + QString::fromLatin1(w->metaObject()->className()) + u" "_qs
                                        + w->objectName() + u" is enabled"_qs));
        }
    }

    void tabWalksTheMonitorsBarInOrder()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        window.show();
        MonitorView *monitor = window.monitorView();
        window.tabs()->setCurrentWidget(monitor);
        QPushButton *pause = nullptr, *exportButton = nullptr;
        for (QPushButton *b : monitor->findChildren<QPushButton *>()) {
            if (b->text() == u"&Pause"_qs)
                pause = b;
            if (b->text().startsWith(u"E&xport"_qs))
                exportButton = b;
        }
        QVERIFY(pause && exportButton);
        QWidget *span = nextTabStop(pause);
        QVERIFY(qobject_cast<QComboBox *>(span));
        QCOMPARE(nextTabStop(span), exportButton);
        QCOMPARE(nextTabStop(exportButton), monitor->findChild<PlotTableSwitch *>()->toggle());
    }
};

QTEST_MAIN(TestPlotAccess)
#include "tst_plotaccess.moc"
