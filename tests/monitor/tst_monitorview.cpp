// The console's monitor view on a recorded md array whose counters the
// test advances: the plots get the member shares, the throughput and the
// status line; an empty selection stops sampling; teardown joins the thread.
#include "monitor/monitorview.h"
#include "monitortestsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QCPGraph *graphNamed(QCustomPlot *plot, const QString &name)
{
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == name)
            return plot->graph(i);
    return nullptr;
}

double lastValue(QCPGraph *graph)
{
    return graph && !graph->data()->isEmpty() ? (graph->data()->constEnd() - 1)->value : -1;
}

} // namespace

class TestMonitorView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void plotsWhatTheArrayReads()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), dir.path()));
        MonitorView view(dir.path());
        view.resize(900, 700);
        view.show();
        auto *plot = view.findChild<QCustomPlot *>(QStringLiteral("monitorPlot"));
        QVERIFY(plot);
        QSignalSpy plotted(&view, &MonitorView::plotted);
        view.setIntervalMs(50);
        view.setDevices({u"md0"_qs});
        QCOMPARE(view.devices(), QStringList{u"md0"_qs});

        // The array reads; sdb carries three times sdc's share, the rest even.
        const QStringList members{u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs,
                                  u"sdf"_qs, u"sdg"_qs, u"sdh"_qs, u"sdi"_qs};
        QMap<QString, quint64> sectors;
        for (const QString &m : members)
            sectors.insert(m, m == u"sdb" ? 3 * 2048 : m == u"sdc" ? 2048 : 2 * 2048);
        sectors.insert(u"md0"_qs, 16 * 2048);
        // Real time here: the view samples on its own thread every 50 ms.
        QTRY_VERIFY_WITH_TIMEOUT(
            (advanceDiskstats(dir.path(), sectors), lastValue(graphNamed(plot, u"md0 read MB/s"_qs)) > 0), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            (advanceDiskstats(dir.path(), sectors), lastValue(graphNamed(plot, u"md0/sdc share %"_qs)) > 0), 10000);

        QCPGraph *sdb = graphNamed(plot, u"md0/sdb share %"_qs);
        QCPGraph *sdc = graphNamed(plot, u"md0/sdc share %"_qs);
        QVERIFY(sdb && sdc);
        // Every tick that saw reads saw the same proportions: 3 and 1 of 16.
        QVERIFY2(qAbs(lastValue(sdb) - 100.0 * 3 / 16) < 1e-3, qPrintable(QString::number(lastValue(sdb))));
        QVERIFY2(qAbs(lastValue(sdc) - 100.0 * 1 / 16) < 1e-3, qPrintable(QString::number(lastValue(sdc))));
        QVERIFY(graphNamed(plot, u"md0 Jain x100"_qs));
        QVERIFY(graphNamed(plot, u"md0 read request KiB"_qs));
        QVERIFY(graphNamed(plot, u"md0 aqu-sz"_qs));
        QVERIFY(graphNamed(plot, u"md0 irq/s (shared lines)"_qs)); // AHCI lines also serve sda
        QVERIFY(graphNamed(plot, u"all interrupts/s"_qs));
        QVERIFY2(view.statusText().contains(u"md0 Jain"_qs), qPrintable(view.statusText()));
        QTRY_VERIFY(!plotted.isEmpty());

        // The span: the x axis shows the last 30 s.
        view.setWindowSeconds(30);
        QCOMPARE(view.windowSeconds(), 30);
        QCOMPARE(plot->axisRect(0)->axis(QCPAxis::atBottom)->range().size(), 30.0);

        if (qEnvironmentVariableIsSet("BLOCKTUNE_MONITOR_SCREENSHOT"))
            view.grab().save(qEnvironmentVariable("BLOCKTUNE_MONITOR_SCREENSHOT"));

        // Nothing selected: sampling stops, no more redraws.
        view.setDevices({});
        QTest::qWait(200);
        plotted.clear();
        QTest::qWait(400);
        QCOMPARE(plotted.size(), 0);
    }

    void unknownTreeReportsAnError()
    {
        QTemporaryDir dir; // no sys/ at all
        MonitorView view(dir.path());
        QSignalSpy failed(&view, &MonitorView::failed);
        view.setDevices({u"sda"_qs});
        QVERIFY(failed.wait(5000));
        QVERIFY2(!view.statusText().isEmpty(), "the error is shown");
    }

    void destroyedWhileSampling()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("live-loop"), dir.path()));
        auto *view = new MonitorView(dir.path());
        view->setIntervalMs(10);
        view->setDevices({u"vda"_qs, u"loop0"_qs});
        QSignalSpy plotted(view, &MonitorView::plotted);
        QVERIFY(plotted.wait(5000));
        delete view; // joins the sampling thread; must not hang or crash
    }
};

QTEST_MAIN(TestMonitorView)
#include "tst_monitorview.moc"
