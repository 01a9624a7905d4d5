// The console's monitor view on a recorded md array whose counters the
// test advances through a fake source and clock, sample by sample: the
// balance bars name each member with its share and Jain's index, say when
// the array is idle and vanish for a disk; in-flight is a step average; a
// missing device leaves a gap; pause, wheel zoom and PNG export; an empty
// selection stops sampling; teardown joins the thread.
#include "monitor/latencyheatmap.h"
#include "monitor/monitorview.h"
#include "plottableswitch.h"
#include "monitortestsupport.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cmath>

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

QCPBars *barsOf(QCustomPlot *plot)
{
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto *bars = qobject_cast<QCPBars *>(plot->plottable(i)))
            return bars;
    return nullptr;
}

const QStringList kMembers{u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs, u"sdf"_qs, u"sdg"_qs, u"sdh"_qs, u"sdi"_qs};
// 64 KiB reads per 100 ms: sdb three times sdc, the rest twice; md0 all of it.
const QMap<QString, quint64> kUneven{{u"md0"_qs, 16 * 128}, {u"sdb"_qs, 3 * 128}, {u"sdc"_qs, 128},
                                     {u"sdd"_qs, 2 * 128},  {u"sde"_qs, 2 * 128}, {u"sdf"_qs, 2 * 128},
                                     {u"sdg"_qs, 2 * 128},  {u"sdh"_qs, 2 * 128}, {u"sdi"_qs, 2 * 128}};

/// The monitor view on the recorded raid10 tree (its topology: md0 over
/// sdb..sdi on two AHCI controllers) with a fake counter source and clock:
/// the test makes every sample itself, the sampling timer never fires.
struct Rig
{
    Rig() : Rig(std::make_unique<FakeSource>(), std::make_unique<FakeClock>()) {}

    FakeSource *source = nullptr;
    FakeClock *clock = nullptr;
    QMap<QString, Counters> counters;
    QTemporaryDir dir;
    MonitorView view;
    int samples = 0; ///< non-baseline samples the view was sent

    QCustomPlot *plot() { return view.findChild<QCustomPlot *>(QStringLiteral("monitorPlot")); }

    /// One sample `ms` after the last: `sectors` more read on each named
    /// device, `inflight` requests in flight everywhere, `drop` left out of
    /// /proc/diskstats.
    void step(double ms, const QMap<QString, quint64> &sectors, quint64 inflight = 0, const QStringList &drop = {})
    {
        for (auto it = sectors.cbegin(); it != sectors.cend(); ++it) {
            Counters &c = counters[it.key()];
            c[0] += it.value() / 128; // 64 KiB reads
            c[2] += it.value();
        }
        QList<std::pair<QString, Counters>> lines;
        for (auto it = counters.begin(); it != counters.end(); ++it) {
            it.value()[8] = inflight;
            if (!drop.contains(it.key()))
                lines.append({it.key(), it.value()});
        }
        MonitorWorker *worker = view.worker();
        FakeSource *src = source;
        FakeClock *clk = clock;
        QMetaObject::invokeMethod(worker, [=] {
            clk->advanceMs(ms);
            src->setDevices(lines);
            src->intrTotal = src->intrTotal.value_or(0) + 500;
            src->irqs[34] += 100;
            src->irqs[35] += 50;
            worker->tick();
        }, Qt::BlockingQueuedConnection);
    }

    bool sampling()
    {
        bool on = false;
        MonitorWorker *worker = view.worker();
        QMetaObject::invokeMethod(worker, [&on, worker] { on = worker->isSampling(); }, Qt::BlockingQueuedConnection);
        return on;
    }

private:
    Rig(std::unique_ptr<FakeSource> s, std::unique_ptr<FakeClock> c)
        : source(s.get()), clock(c.get()), view(recordedTree("md-raid10-f2"), std::move(s), std::move(c))
    {
        for (const QString &name : QStringList{u"sda"_qs} + kMembers + QStringList{u"md0"_qs})
            counters.insert(name, Counters{});
        QList<std::pair<QString, Counters>> lines;
        for (auto it = counters.cbegin(); it != counters.cend(); ++it)
            lines.append({it.key(), it.value()});
        source->setDevices(lines); // before the worker's thread reads it
        source->intrTotal = 0;
        source->irqs = {{34, 0}, {35, 0}};
        view.resize(900, 900);
        view.show();
        // The sampling timer stays quiet during a test (and the view keeps an
        // hour of samples at this interval: 60).
        view.setIntervalMs(60'000);
        QObject::connect(view.worker(), &MonitorWorker::sampled, &view, [this](const Sample &sample) {
            if (!sample.baseline)
                ++samples;
        });
    }
};

LatencyHeatmap *heatmap(Rig &rig)
{
    return rig.view.latencyHeatmap();
}

/// Latency totals the test grows by hand (the BPF probe's seam).
class FakeLatency final : public LatencySource
{
public:
    Result<LatencyTotalsMap> totals() override { return map; }
    LatencyTotalsMap map;
};

} // namespace

class TestMonitorView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // "Latency" on: the heatmap takes each interval's histograms from the
    // latency source, the members of md0 side by side in two rows (queue
    // and device time), counts where the requests fell; a slow member's
    // column lights up higher; a setting changed by the console is a marker.
    void latencyHeatmapSetsMembersSideBySide()
    {
        Rig rig;
        auto *latency = new FakeLatency;
        MonitorWorker *worker = rig.view.worker();
        QMetaObject::invokeMethod(worker, [worker, latency] {
            worker->setLatencyLoader([latency]() -> Result<std::unique_ptr<LatencySource>> {
                return std::unique_ptr<LatencySource>(latency);
            });
        }, Qt::BlockingQueuedConnection);
        rig.view.setDevices({u"md0"_qs});
        rig.view.setLatencyShown(true);
        QVERIFY(rig.view.isLatencyShown());
        LatencyHeatmap *heatmap = rig.view.latencyHeatmap();
        QVERIFY(heatmap->isVisible());
        // The diskstats lines are in name order, minor 0 up: md0 8:0, sda
        // 8:1, sdb 8:2 ... sdi 8:9. Every member 100 reads at 64-128 us
        // device time (bucket 6) and 2-4 us queue time (bucket 1); sdc, the
        // slow one, at 1-2 ms (bucket 10).
        auto grow = [&](int times) {
            QMetaObject::invokeMethod(worker, [latency, times] {
                for (int m = 0; m < kMembers.size(); ++m) {
                    LatencyTotals &t = latency->map[deviceNumber(8, quint32(m + 2))].read;
                    t.requests += 100 * quint64(times);
                    t.queue.counts[1] += 100 * quint64(times);
                    t.device.counts[m == 1 ? 10 : 6] += 100 * quint64(times);
                }
            }, Qt::BlockingQueuedConnection);
        };
        rig.step(100, kUneven); // the source's first reading: no interval yet
        grow(1);
        rig.step(1000, kUneven);
        grow(2);
        rig.step(1000, kUneven);
        QTRY_COMPARE(heatmap->devices(), kMembers);
        QVERIFY2(heatmap->unavailableText().isEmpty(), qPrintable(heatmap->unavailableText()));
        QCOMPARE(heatmap->countAt(u"sdb"_qs, LatencyHeatmap::Device, 1.1, 6), quint64(100));
        QCOMPARE(heatmap->countAt(u"sdb"_qs, LatencyHeatmap::Device, 2.1, 6), quint64(200));
        QCOMPARE(heatmap->countAt(u"sdb"_qs, LatencyHeatmap::Queue, 2.1, 1), quint64(200));
        QCOMPARE(heatmap->countAt(u"sdc"_qs, LatencyHeatmap::Device, 2.1, 10), quint64(200));
        QCOMPARE(heatmap->countAt(u"sdc"_qs, LatencyHeatmap::Device, 2.1, 6), quint64(0));

        rig.view.markSettingChange(u"read_ahead_kb 4096 on md0"_qs);
        rig.view.exportPng(rig.dir.filePath(u"heatmap.png"_qs)); // draws now
        QTRY_VERIFY(heatmap->markerCount() == 1);
        heatmap->refresh();
        // The colour maps hold the counts in their cells: sdc's device row
        // at bucket 10, sdb's at bucket 6, nothing at bucket 10 for sdb;
        // eight members in one map a row, a second a column.
        QVERIFY(heatmap->map(LatencyHeatmap::Device) && heatmap->map(LatencyHeatmap::Queue));
        QCOMPARE(heatmap->secondsPerColumn(), 1);
        QCOMPARE(heatmap->shownCount(u"sdc"_qs, LatencyHeatmap::Device, 2.5, 10), 200.0);
        QCOMPARE(heatmap->shownCount(u"sdb"_qs, LatencyHeatmap::Device, 2.5, 6), 200.0);
        QCOMPARE(heatmap->shownCount(u"sdi"_qs, LatencyHeatmap::Queue, 2.5, 1), 200.0);
        QVERIFY(std::isnan(heatmap->shownCount(u"sdb"_qs, LatencyHeatmap::Device, 2.5, 10)));
        QVERIFY(heatmap->plot()->itemCount() > 0); // the marker's label
        // As a table (a screen reader's view): a row per cell with its
        // device, its bucket named and its count.
        auto *asTable = heatmap->findChild<PlotTableSwitch *>();
        QVERIFY(asTable);
        asTable->setTableShown(true);
        QTableWidget *table = asTable->table();
        int countColumn = -1, bucketColumn = -1, deviceColumn = -1, timeColumn = -1;
        for (int c = 0; c < table->columnCount(); ++c) {
            const QString header = table->horizontalHeaderItem(c)->text();
            if (header == u"device time: count")
                countColumn = c;
            if (header == u"device time: device time")
                bucketColumn = c;
            if (header == u"device time: device")
                deviceColumn = c;
            if (header == u"device time: seconds")
                timeColumn = c;
        }
        QVERIFY2(countColumn > 0 && bucketColumn > 0 && deviceColumn >= 0 && timeColumn > 0,
                 "no device time columns");
        bool found = false;
        for (int r = 0; r < table->rowCount(); ++r)
            found = found || (table->item(r, deviceColumn)->text() == u"sdc"
                              && table->item(r, timeColumn)->data(Qt::DisplayRole).toDouble() == 2.5
                              && table->item(r, bucketColumn)->text() == u"1.0 ms"
                              && table->item(r, countColumn)->data(Qt::DisplayRole).toDouble() == 200.0);
        QVERIFY2(found, "sdc's 200 requests at 1.0 ms in second 2 are not in the table");
        asTable->setTableShown(false);
        if (qEnvironmentVariableIsSet("BLOCKTUNE_HEATMAP_SCREENSHOT") && (heatmap->plot()->replot(), true))
            heatmap->grab().save(qEnvironmentVariable("BLOCKTUNE_HEATMAP_SCREENSHOT"));

        // Off: hidden, and the sampler drops the source.
        rig.view.setLatencyShown(false);
        QVERIFY(!heatmap->isVisible());
    }

    // A source that cannot load: the heatmap says why, the plots go on.
    void latencyHeatmapSaysWhyItIsEmpty()
    {
        Rig rig;
        MonitorWorker *worker = rig.view.worker();
        QMetaObject::invokeMethod(worker, [worker] {
            worker->setLatencyLoader([]() -> Result<std::unique_ptr<LatencySource>> {
                return makeError(EPERM, u"loading the BPF program needs root (or CAP_BPF and CAP_PERFMON)"_qs);
            });
        }, Qt::BlockingQueuedConnection);
        rig.view.setDevices({u"md0"_qs});
        rig.view.setLatencyShown(true);
        rig.step(100, kUneven);
        rig.step(100, kUneven);
        QTRY_VERIFY(lastValue(graphNamed(rig.plot(), u"md0 read MB/s"_qs)) > 0);
        QVERIFY2(heatmap(rig)->unavailableText().contains(u"needs root"_qs), qPrintable(heatmap(rig)->unavailableText()));
        rig.view.exportPng(rig.dir.filePath(u"why.png"_qs));
        heatmap(rig)->refresh();
        QCOMPARE(heatmap(rig)->map(LatencyHeatmap::Device), nullptr);
    }

    void balanceBarsNameEachMember()
    {
        Rig rig;
        rig.view.setDevices({u"md0"_qs});
        QCOMPARE(rig.view.devices(), QStringList{u"md0"_qs});

        // The array reads; sdb carries three times sdc's share, the rest even.
        rig.step(100, kUneven);
        QTRY_VERIFY(lastValue(graphNamed(rig.plot(), u"md0 read MB/s"_qs)) > 0);
        rig.view.exportPng(rig.dir.filePath(u"first.png"_qs)); // draws now
        QCPBars *bars = barsOf(rig.plot());
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 8);
        QVERIFY2(bars->keyAxis()->axisRect()->layout() == rig.plot()->plotLayout(), "the balance chart is shown");
        auto ticker = bars->keyAxis()->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QStringList labels;
        for (const QString &label : ticker->ticks())
            labels << label.section(u'\n', 0, 0);
        QCOMPARE(labels, kMembers);
        // Each bar is the member's share of the bytes read: 3, 1 and 2 of 16.
        QCOMPARE(bars->data()->at(0)->value, 100.0 * 3 / 16);
        QCOMPARE(bars->data()->at(1)->value, 100.0 * 1 / 16);
        QCOMPARE(bars->data()->at(2)->value, 100.0 * 2 / 16);
        QVERIFY2(ticker->ticks().value(1.0).contains(u"18.8 %"_qs), qPrintable(ticker->ticks().value(1.0)));
        // Jain's index of 3,1,2,2,2,2,2,2: 16^2 / (8 x 34) = 0.941.
        QVERIFY2(rig.view.balanceTitle().contains(u"Jain's index 0.941"_qs), qPrintable(rig.view.balanceTitle()));
        QVERIFY(graphNamed(rig.plot(), u"md0 read request KiB"_qs));
        QVERIFY(graphNamed(rig.plot(), u"md0 aqu-sz"_qs));
        QVERIFY(graphNamed(rig.plot(), u"md0 irq/s (shared lines)"_qs)); // AHCI lines also serve sda
        QVERIFY(graphNamed(rig.plot(), u"all interrupts/s"_qs));
        QVERIFY2(rig.view.statusText().contains(u"md0 Jain"_qs), qPrintable(rig.view.statusText()));

        // Eleven quiet seconds: the chart says so instead of going blank.
        rig.step(11'000, {});
        rig.view.exportPng(rig.dir.filePath(u"idle.png"_qs));
        QTRY_VERIFY2(rig.view.balanceTitle().contains(u"no reads in the last 10 s"_qs), qPrintable(rig.view.balanceTitle()));
        QCOMPARE(barsOf(rig.plot())->data()->at(0)->value, 0.0);

        if (qEnvironmentVariableIsSet("BLOCKTUNE_MONITOR_SCREENSHOT"))
            rig.view.grab().save(qEnvironmentVariable("BLOCKTUNE_MONITOR_SCREENSHOT"));

        // A disk has no group: no balance chart, no empty legend.
        rig.view.setDevices({u"sda"_qs});
        rig.step(100, {{u"sda"_qs, 2048}});
        QTRY_VERIFY(lastValue(graphNamed(rig.plot(), u"sda read MB/s"_qs)) > 0);
        rig.view.exportPng(rig.dir.filePath(u"sda.png"_qs));
        QVERIFY(rig.view.balanceTitle().isEmpty());
        QVERIFY(barsOf(rig.plot())->keyAxis()->axisRect()->layout() == nullptr);
    }

    void inFlightIsAStepAverageAndGapsStayGaps()
    {
        Rig rig;
        rig.view.setDevices({u"md0"_qs});
        // Eight samples within the first second: 0, 4, 0, 4... in flight,
        // one step at their mean of 2.
        for (int i = 0; i < 8; ++i)
            rig.step(100, kUneven, i % 2 ? 4 : 0);
        QTRY_COMPARE(rig.samples, 8);
        QCPGraph *inflight = graphNamed(rig.plot(), u"md0 in flight"_qs);
        QVERIFY(inflight);
        QCOMPARE(inflight->lineStyle(), QCPGraph::lsStepRight);
        QCOMPARE(inflight->data()->size(), 1);
        QCOMPARE(lastValue(inflight), 2.0);

        // md0 vanishes from /proc/diskstats for two samples, then returns.
        QCPGraph *read = graphNamed(rig.plot(), u"md0 read MB/s"_qs);
        rig.step(100, kUneven, 0, {u"md0"_qs});
        rig.step(100, kUneven, 0, {u"md0"_qs});
        QTRY_COMPARE(rig.samples, 10);
        QVERIFY(std::isnan(lastValue(read)));
        // Back: the first reading is its new baseline, the second has rates.
        rig.step(100, kUneven);
        rig.step(100, kUneven);
        QTRY_COMPARE(rig.samples, 12);
        QVERIFY(lastValue(read) > 0);
        int gaps = 0;
        for (auto it = read->data()->constBegin(); it != read->data()->constEnd(); ++it)
            gaps += std::isnan(it->value) ? 1 : 0;
        QVERIFY2(gaps >= 1, "the line breaks where md0 was missing");
    }

    void pauseZoomAndExport()
    {
        Rig rig;
        QSignalSpy failed(&rig.view, &MonitorView::failed);
        rig.view.setDevices({u"md0"_qs});
        rig.step(100, kUneven);
        QTRY_COMPARE(rig.samples, 1);
        QCPGraph *read = graphNamed(rig.plot(), u"md0 read MB/s"_qs);
        QVERIFY(read);
        const int before = read->data()->size();

        // Paused: sampling goes on, the plots stay; resumed, they catch up.
        rig.view.setPaused(true);
        rig.step(100, kUneven);
        rig.step(100, kUneven);
        QTRY_COMPARE(rig.samples, 3);
        QCOMPARE(read->data()->size(), before);
        rig.view.setPaused(false);
        QCOMPARE(read->data()->size(), before + 2);

        // The wheel zooms the span, within 30 s .. 1 h.
        QCOMPARE(rig.view.windowSeconds(), 120);
        const QPointF at(rig.plot()->width() / 2.0, rig.plot()->height() / 4.0);
        QWheelEvent in(at, rig.plot()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                       Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(rig.plot(), &in);
        QCOMPARE(rig.view.windowSeconds(), 96);
        QCOMPARE(rig.plot()->axisRect(0)->axis(QCPAxis::atBottom)->range().size(), 96.0);
        for (int i = 0; i < 20; ++i)
            QCoreApplication::sendEvent(rig.plot(), &in);
        QCOMPARE(rig.view.windowSeconds(), 30);
        QWheelEvent out(at, rig.plot()->mapToGlobal(at), QPoint(), QPoint(0, -120 * 30), Qt::NoButton,
                        Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(rig.plot(), &out);
        QCOMPARE(rig.view.windowSeconds(), 3600);
        rig.view.setWindowSeconds(30);
        QCOMPARE(rig.plot()->axisRect(0)->axis(QCPAxis::atBottom)->range().size(), 30.0);

        // Export: the picture is the plots as shown; a bad path says so.
        const QString png = rig.dir.filePath(u"monitor.png"_qs);
        QVERIFY(rig.view.exportPng(png));
        const QImage image(png);
        QCOMPARE(image.size(), rig.plot()->size());
        QVERIFY(failed.isEmpty());
        QVERIFY(!rig.view.exportPng(rig.dir.filePath(u"no/such/dir/monitor.png"_qs)));
        QCOMPARE(failed.size(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains(u"no/such/dir"_qs), qPrintable(failed.at(0).at(0).toString()));
    }

    void nothingSelectedStopsSampling()
    {
        Rig rig;
        QSignalSpy plotted(&rig.view, &MonitorView::plotted);
        rig.view.setDevices({u"md0"_qs});
        QVERIFY(rig.sampling());
        rig.step(100, kUneven);
        QTRY_VERIFY(!plotted.isEmpty());

        // Nothing selected: the worker's timer stops, and a sample that was
        // already on its way draws nothing.
        rig.view.setDevices({});
        QVERIFY(!rig.sampling());
        rig.view.exportPng(rig.dir.filePath(u"cleared.png"_qs)); // the emptied plots drawn once
        plotted.clear();
        rig.step(100, kUneven);
        QTRY_COMPARE(rig.samples, 2); // delivered to the view...
        rig.view.exportPng(rig.dir.filePath(u"stopped.png"_qs)); // ...and a redraw forced
        QCOMPARE(plotted.size(), 0);
    }

    void plotsUseTheWidthBeforeAnyDeviceIsChosen()
    {
        // The empty legend above the plots once squeezed every plot to the
        // width of its axis labels until a device was chosen.
        Rig rig;
        auto *plot = rig.view.findChild<QCustomPlot *>(u"monitorPlot"_qs);
        QVERIFY(plot);
        plot->replot();
        QVERIFY(plot->axisRectCount() >= 4);
        for (int i = 0; i < plot->axisRectCount(); ++i)
            QVERIFY2(plot->axisRect(i)->width() > plot->width() / 2,
                     qPrintable(u"%1 of %2 px"_qs.arg(plot->axisRect(i)->width()).arg(plot->width())));
        rig.view.setDevices({u"md0"_qs});
        rig.step(100, kUneven);
        QTRY_VERIFY(plot->axisRect(0)->width() > plot->width() / 2);
    }

    // Twenty devices: the legend names twelve and says how many more, the
    // lines are thin, the status line (every device's figures) is cut to
    // the window, not the window widened to it.
    void manyDevicesKeepTheLegendShortAndTheWindowNarrow()
    {
        Rig rig;
        QStringList watched = QStringList{u"md0"_qs, u"sda"_qs} + kMembers;
        QMap<QString, quint64> reads;
        for (int i = 0; i < 10; ++i) {
            const QString name = u"vd"_qs + QChar(u'a' + i);
            rig.counters.insert(name, Counters{});
            watched << name;
        }
        for (const QString &name : std::as_const(watched))
            reads.insert(name, 128);
        rig.view.resize(900, 700);
        const int before = rig.view.sizeHint().width();
        rig.view.setDevices(watched);
        rig.step(100, reads);
        rig.step(100, reads);
        rig.step(100, reads);
        QTRY_VERIFY(graphNamed(rig.plot(), u"vdj read MB/s"_qs));
        QTRY_VERIFY(rig.view.statusText().contains(u"vdj"_qs));
        QCPLegend *legend = nullptr;
        QCPTextElement *more = nullptr;
        for (QCPLayoutElement *e : rig.plot()->plotLayout()->elements(true)) {
            legend = legend ? legend : qobject_cast<QCPLegend *>(e);
            if (auto *text = qobject_cast<QCPTextElement *>(e); text && text->text().startsWith(u"and "))
                more = text;
        }
        QVERIFY(legend);
        int entries = 0;
        for (int i = 0; i < legend->itemCount(); ++i)
            entries += legend->item(i) ? 1 : 0;
        QCOMPARE(entries, 12);
        QVERIFY(more);
        QCOMPARE(more->text(), u"and 8 more"_qs);
        QCOMPARE(graphNamed(rig.plot(), u"vdj read MB/s"_qs)->pen().widthF(), 1.0);
        QVERIFY2(rig.view.sizeHint().width() <= std::max(before, 900),
                 qPrintable(QString::number(rig.view.sizeHint().width())));
        auto *status = rig.view.findChild<QLabel *>();
        QVERIFY(status && status->text().endsWith(u'…'));
        QCOMPARE(status->toolTip(), rig.view.statusText());
    }

    void unknownTreeReportsAnError()
    {
        QTemporaryDir dir; // no sys/ at all
        MonitorView view(dir.path());
        QSignalSpy failed(&view, &MonitorView::failed);
        view.setDevices({u"sda"_qs});
        QVERIFY(failed.wait(30000));
        QVERIFY2(!view.statusText().isEmpty(), "the error is shown");
    }

    void destroyedWhileSampling()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("live-loop"), dir.path()));
        auto *view = new MonitorView(dir.path());
        view->show();
        view->setIntervalMs(10);
        view->setDevices({u"vda"_qs, u"loop0"_qs});
        QSignalSpy plotted(view, &MonitorView::plotted);
        QVERIFY(plotted.wait(30000));
        delete view; // joins the sampling thread; must not hang or crash
    }

    // Off screen (another tab) the view samples but does not draw; shown
    // again, it draws what came meanwhile at once: the console showed the
    // plots of the moment the tab was left, on their first axes (0..1, the
    // figures cut off), for up to 8 s after it was chosen again.
    void hiddenViewDrawsOnlyWhenShown()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("live-loop"), dir.path()));
        MonitorView view(dir.path());
        view.setIntervalMs(10);
        view.setDevices({u"vda"_qs});
        QSignalSpy plotted(&view, &MonitorView::plotted);
        QSignalSpy sampled(view.worker(), &MonitorWorker::sampled);
        QTRY_VERIFY(sampled.size() >= 10);
        QCOMPARE(plotted.size(), 0);
        view.show();
        QCOMPARE(plotted.size(), 1); // in show(), not at a later timer tick
        QVERIFY(plotted.last().at(0).toDouble() > 0);
        // Hidden and shown again: drawn again at once.
        QTRY_VERIFY(sampled.size() >= 20);
        view.hide();
        const int before = int(sampled.size());
        QTRY_VERIFY(sampled.size() >= before + 5);
        const double hiddenAt = plotted.last().at(0).toDouble();
        const qsizetype drawn = plotted.size();
        view.show();
        QCOMPARE(plotted.size(), drawn + 1);
        QVERIFY(plotted.last().at(0).toDouble() > hiddenAt);
    }
};

QTEST_MAIN(TestMonitorView)
#include "tst_monitorview.moc"
