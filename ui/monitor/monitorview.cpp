#include "monitorview.h"

#include "latencyheatmap.h"
#include "readaheadview.h"

#include "format.h"
#include "plottableswitch.h"
#include "plottheme.h"
#include "theme.h"
#include "monitor/monitor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <qcustomplot.h>

#include <cmath>
#include <deque>

namespace blocktune {

namespace {

// The time plots; the balance bars are a chart of their own below them.
enum Rect { Throughput, Interrupts, RequestSize, QueueDepth, RectCount };

// What each plot shows; the line styles are explained in the titles
// rather than in five legends.
const char *const kRectTitles[RectCount] = {
    QT_TRANSLATE_NOOP("blocktune::MonitorView", "MB/s\n(write dashed)"),
    QT_TRANSLATE_NOOP("blocktune::MonitorView", "interrupts/s\n(thick: all)"),
    QT_TRANSLATE_NOOP("blocktune::MonitorView", "read request\nKiB"),
    QT_TRANSLATE_NOOP("blocktune::MonitorView", "queue depth\n(thin: in flight, 1 s mean)")};

constexpr int kMinWindowSeconds = 30;
constexpr int kMaxWindowSeconds = 3600;
/// In-flight counts are instants: sampled at 10 Hz they zigzag into a
/// hatch. Their mean over each second is drawn as a step instead.
constexpr double kStepSeconds = 1.0;
/// Beyond this many devices the legend names the first ones and says how
/// many more there are, and each device's lines are drawn thin through its
/// one-second means: a hundred devices' lines at every sample are a wall
/// of ink, and drawing them saturated the GUI thread (0.3 redraws/s on 100
/// devices at 10 Hz, bench/heatmap_cost.cpp).
constexpr int kDetailedDevices = 12;
/// A redraw waits until the GUI thread has had this many times the last
/// redraw's duration to itself: drawing takes at most a quarter of it,
/// however slow the machine or large the plots.
constexpr int kRedrawSpacing = 3;
/// The longest the plots wait for their next redraw while samples come.
constexpr qint64 kMaxRedrawGapNs = 1'000'000'000;

/// One step-averaged series: the points of the open bucket are folded into
/// one, keyed at the newest sample, holding the bucket's mean.
struct StepAverage
{
    qint64 bucket = -1;
    double sum = 0;
    int count = 0;
    double lastKey = 0;
};

/// One group's bytes read per member over the last kBalanceSeconds.
struct BalanceWindow
{
    QString group;
    QStringList members;
    std::deque<std::pair<double, std::vector<quint64>>> samples; // (t, bytes per member)
};

} // namespace

struct MonitorView::Private
{
    MonitorView *q = nullptr;
    QString sysroot;
    MonitorThread *thread = nullptr;
    QCustomPlot *plot = nullptr;
    QLabel *status = nullptr;
    QComboBox *span = nullptr;
    QPushButton *pause = nullptr;
    QPushButton *exportButton = nullptr;
    QCheckBox *latency = nullptr;
    QCheckBox *readahead = nullptr;
    QScrollArea *scroll = nullptr; ///< holds the plots, the heatmap and the Readahead view
    ReadaheadView *readaheadView = nullptr;
    QString readaheadRefusal; ///< why this machine cannot be watched; empty: it can
    QLabel *recordingNote = nullptr; ///< a recording: its counters are frozen
    LatencyHeatmap *heatmap = nullptr;
    QCPAxisRect *rects[RectCount] = {};
    QCPLegend *deviceLegend = nullptr;
    QCPTextElement *legendMore = nullptr; // "and N more" beside a capped legend
    int legendEntries = 0; // (QCPLegend::itemCount() counts a row's empty cells too)
    QCPAxisRect *balanceRect = nullptr;
    QCPTextElement *balanceHeading = nullptr;
    QCPBars *balanceBars = nullptr;
    QSharedPointer<QCPAxisTickerText> balanceTicker;
    QCPItemStraightLine *evenLine = nullptr;
    QTimer *replotTimer = nullptr;
    // The last redraw of the plots and the heatmap: when it ended and how
    // long it took (beforeReplot to afterReplot, both plots).
    QElapsedTimer sinceRedraw;
    QElapsedTimer redrawClock;
    qint64 redrawNs = 0;
    QHash<QString, StepAverage> steps; // keyed by series name
    BalanceWindow balance;
    QString balanceTitle;
    bool paused = false;
    bool recording = false;

    PlotSeries history;
    QHash<QString, QCPGraph *> graphs; // keyed by PlotSeries series name
    QStringList devices;
    QList<GroupSpec> userGroups;
    int intervalMs = 100;
    int windowSeconds = 120;
    bool running = false;
    bool dirty = false;
    double lastT = 0;
    QString statusText;

    void buildPlot();
    QHBoxLayout *buildBar();
    void restart();
    void clearGraphs();
    void onSample(const Sample &s);
    void show(const QString &series, double value, Rect rect, const QString &label, int colour,
              Qt::PenStyle style, QCPLegend *legend, bool stepAverage = false);
    void fill(QCPGraph *graph, const QString &series);
    void fillAll();
    void addPoint(QCPGraph *graph, const QString &series, double t, double v);
    void updateBalance(const Sample &s);
    void updateHeatmap(const Sample &s);
    void drawBalance();
    void setBalanceShown(bool shown);
    void replot(bool now = false);
    void showSpan();
    void showStatus();
    void connectWorker();
    void replayRecording();
    bool detailed() const { return devices.size() <= kDetailedDevices; }
};

void MonitorView::Private::buildPlot()
{
    plot->setAutoAddPlottableToLegend(false);
    plot->setLocale(format::ungrouped()); // tick labels with the user's decimal sign
    plot->plotLayout()->clear();
    auto *margins = new QCPMarginGroup(plot);
    for (int i = 0; i < RectCount; ++i) {
        auto *rect = new QCPAxisRect(plot);
        plot->plotLayout()->addElement(i + 1, 0, rect); // row 0: the legend
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->axis(QCPAxis::atLeft)->setLabel(MonitorView::tr(kRectTitles[i]));
        rect->axis(QCPAxis::atBottom)->setRange(0, windowSeconds);
        rect->axis(QCPAxis::atLeft)->setRange(0, 1);
        rects[i] = rect;
    }
    rects[QueueDepth]->axis(QCPAxis::atBottom)->setLabel(MonitorView::tr("seconds"));
    // The legend in a row of its own above the plots, in one line: inside a
    // plot it hid the first seconds of the throughput line.
    // Beside an empty element that takes the rest of the row: a legend
    // with no items yet has no width to give, and alone in the column it
    // would squeeze every plot below it to its own (nil) maximum width.
    auto *legendRow = new QCPLayoutGrid;
    plot->plotLayout()->addElement(0, 0, legendRow);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    deviceLegend = new QCPLegend;
    legendRow->addElement(0, 0, deviceLegend);
    legendMore = new QCPTextElement(plot, QString(), QFont(q->font().family(), 8));
    legendMore->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    legendMore->setMargins(QMargins(4, 0, 0, 0));
    legendRow->addElement(0, 1, legendMore);
    legendRow->setColumnStretchFactor(0, 0.001);
    legendRow->setMargins(QMargins(0, 0, 0, 0));
    deviceLegend->setLayer(QStringLiteral("legend"));
    deviceLegend->setFont(QFont(q->font().family(), 8));
    deviceLegend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    deviceLegend->setWrap(6);
    deviceLegend->setBorderPen(Qt::NoPen);
    deviceLegend->setBrush(Qt::NoBrush);
    deviceLegend->setMargins(QMargins(0, 0, 0, 0));

    // The balance chart: one bar per member, named on the axis with its
    // share; not in the layout until a group is sampled.
    balanceHeading = new QCPTextElement(plot, QString(), QFont(q->font().family(), 9, QFont::Bold));
    balanceRect = new QCPAxisRect(plot);
    balanceRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    balanceTicker.reset(new QCPAxisTickerText);
    QCPAxis *keys = balanceRect->axis(QCPAxis::atBottom);
    keys->setTicker(balanceTicker);
    keys->setSubTicks(false);
    keys->setTickLength(0, 3);
    keys->grid()->setVisible(false);
    QCPAxis *values = balanceRect->axis(QCPAxis::atLeft);
    values->setLabel(MonitorView::tr("share of bytes read %\n(even: dashed)"));
    values->setRange(0, 100);
    balanceBars = new QCPBars(keys, values);
    balanceBars->setName(MonitorView::tr("read share %"));
    balanceBars->setWidth(0.6);
    balanceBars->setPen(seriesPen(1));
    balanceBars->setBrush(seriesBrush(170));
    setSeries(balanceBars, 0);
    evenLine = new QCPItemStraightLine(plot);
    evenLine->setClipAxisRect(balanceRect);
    evenLine->point1->setAxes(keys, values);
    evenLine->point2->setAxes(keys, values);
    evenLine->setPen(seriesPen(1, Qt::DashLine));
    setSeries(evenLine, kSeriesNeutral);
    evenLine->setVisible(false);
    // Made outside the layout: setBalanceShown() adds them for a group.
}

void MonitorView::Private::setBalanceShown(bool shown)
{
    QCPLayoutGrid *layout = plot->plotLayout();
    const bool inLayout = balanceRect->layout() == layout;
    if (shown == inLayout)
        return;
    if (shown) {
        layout->addElement(RectCount + 1, 0, balanceHeading); // after the legend and the plots
        layout->addElement(RectCount + 2, 0, balanceRect);
        layout->setRowStretchFactor(RectCount + 1, 0.01);
        layout->setRowStretchFactor(RectCount + 2, 1.4);
        applyPlotPalette(plot); // the heading and the chart were out of the layout when it was coloured
    } else {
        layout->take(balanceHeading);
        layout->take(balanceRect);
        layout->simplify();
    }
    dirty = true;
}

void MonitorView::Private::clearGraphs()
{
    for (QCPGraph *g : std::as_const(graphs)) {
        // QCustomPlot only cleans its own default legend when a plottable
        // goes; ours would keep an item pointing at the deleted graph.
        g->removeFromLegend(deviceLegend);
        plot->removeGraph(g);
    }
    graphs.clear();
    steps.clear();
    legendEntries = 0;
    legendMore->setText(devices.size() > kDetailedDevices
                            ? MonitorView::tr("and %n more", nullptr, int(devices.size() - kDetailedDevices))
                            : QString());
    balance = {};
    balanceTitle.clear();
    balanceBars->data()->clear();
    setBalanceShown(false);
    dirty = true;
}

void MonitorView::Private::restart()
{
    clearGraphs();
    history = PlotSeries(PlotSeries::Limits{std::max(1, 3'600'000 / intervalMs), 64 << 20});
    lastT = 0;
    heatmap->clear();
    readaheadView->setDevices(devices);
    if (devices.isEmpty()) {
        if (running)
            QMetaObject::invokeMethod(thread->worker(), &MonitorWorker::stop, Qt::QueuedConnection);
        running = false;
        return;
    }
    if (recording) {
        replayRecording();
        return;
    }
    MonitorWorker *worker = thread->worker();
    const QStringList watched = devices;
    const QList<GroupSpec> groups = userGroups;
    const int ms = intervalMs;
    QMetaObject::invokeMethod(worker, [worker, watched, groups, ms] {
        worker->setWatched(watched);
        worker->setUserGroups(groups);
        worker->start(ms);
    }, Qt::QueuedConnection);
    running = true;
}

void MonitorView::Private::addPoint(QCPGraph *graph, const QString &series, double t, double v)
{
    const auto step = steps.find(series);
    if (step == steps.end() || std::isnan(v)) {
        if (step != steps.end())
            *step = StepAverage{};
        graph->addData(t, v); // NaN stays NaN: a gap in the line
        return;
    }
    const auto bucket = qint64(std::floor(t / kStepSeconds));
    if (bucket != step->bucket) {
        *step = StepAverage{bucket, v, 1, t};
    } else {
        step->sum += v;
        ++step->count;
        graph->data()->remove(step->lastKey);
        step->lastKey = t;
    }
    graph->addData(t, step->sum / step->count);
}

void MonitorView::Private::fill(QCPGraph *graph, const QString &series)
{
    graph->data()->clear();
    if (steps.contains(series))
        steps[series] = StepAverage{};
    const double from = lastT - windowSeconds;
    for (qsizetype i = 0; i < history.size(); ++i) {
        const double t = history.timeAt(i);
        if (t >= from)
            addPoint(graph, series, t, history.valueAt(series, i));
    }
}

void MonitorView::Private::fillAll()
{
    for (auto it = graphs.cbegin(); it != graphs.cend(); ++it)
        fill(it.value(), it.key());
    dirty = true;
}

void MonitorView::Private::show(const QString &series, double value, Rect rect, const QString &label,
                                int colour, Qt::PenStyle style, QCPLegend *legend, bool stepAverage)
{
    auto it = graphs.find(series);
    if (it == graphs.end()) {
        QCPGraph *graph = plot->addGraph(rects[rect]->axis(QCPAxis::atBottom), rects[rect]->axis(QCPAxis::atLeft));
        graph->setName(label);
        if (stepAverage) {
            graph->setPen(seriesPen(1.0, Qt::SolidLine, 150)); // the series' colour, lighter
            graph->setLineStyle(QCPGraph::lsStepRight);
            steps.insert(series, StepAverage{});
        } else if (colour == kSeriesText) {
            // The total over the devices' lines: thick, in the text's colour.
            graph->setPen(seriesPen(2.5, style));
            graph->setAdaptiveSampling(true);
        } else if (detailed()) {
            graph->setPen(seriesPen(1.5, style));
            graph->setAdaptiveSampling(true);
        } else {
            // Many devices: one point a second (its mean), a 1 px line
            // (QPainter strokes a wider one as a polygon, several times
            // slower).
            graph->setPen(seriesPen(1.0, style));
            steps.insert(series, StepAverage{});
        }
        setSeries(graph, colour);
        if (legend && legendEntries < kDetailedDevices) {
            graph->addToLegend(legend);
            ++legendEntries;
        }
        // A series shown for the first time (a device selected again, a
        // group appearing) gets what the history already holds.
        fill(graph, series);
        graphs.insert(series, graph);
        return;
    }
    addPoint(*it, series, lastT, value);
}

void MonitorView::Private::updateBalance(const Sample &s)
{
    const GroupBalance *g = s.groups.isEmpty() ? nullptr : &s.groups.constFirst();
    if (!g) {
        balance = {};
        balanceTitle.clear();
        setBalanceShown(false);
        return;
    }
    QStringList members;
    for (const MemberShare &m : g->members)
        members << m.name;
    if (g->name != balance.group || members != balance.members)
        balance = BalanceWindow{g->name, members, {}};
    std::vector<quint64> bytes;
    bytes.reserve(size_t(g->members.size()));
    for (const MemberShare &m : g->members)
        bytes.push_back(m.present ? m.readBytes : 0);
    balance.samples.emplace_back(s.t, std::move(bytes));
    while (!balance.samples.empty() && balance.samples.front().first <= s.t - MonitorView::kBalanceSeconds)
        balance.samples.pop_front();
    setBalanceShown(true);
}

void MonitorView::Private::drawBalance()
{
    if (balance.group.isEmpty())
        return;
    const qsizetype n = balance.members.size();
    std::vector<double> sums(size_t(n), 0.0);
    for (const auto &[t, bytes] : balance.samples)
        for (size_t i = 0; i < bytes.size() && i < sums.size(); ++i)
            sums[i] += double(bytes[i]);
    double total = 0;
    for (double v : sums)
        total += v;
    QVector<double> keys, values;
    balanceTicker->clear();
    double top = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const double share = total > 0 ? 100.0 * sums[size_t(i)] / total : 0.0;
        keys << double(i + 1);
        values << share;
        top = std::max(top, share);
        balanceTicker->addTick(double(i + 1), total > 0 ? QStringLiteral("%1\n%2 %").arg(balance.members[i],
                                                                                           format::number(share, 1))
                                                        : balance.members[i]);
    }
    balanceBars->setData(keys, values, true);
    QCPAxis *keyAxis = balanceRect->axis(QCPAxis::atBottom);
    keyAxis->setRange(0.4, double(n) + 0.6);
    balanceRect->axis(QCPAxis::atLeft)->setRange(0, std::max(10.0, std::ceil(top * 1.15 / 5) * 5));
    // The even share, as a reference line.
    QCPItemStraightLine *even = evenLine;
    even->point1->setCoords(0, n > 0 ? 100.0 / double(n) : 0);
    even->point2->setCoords(1, n > 0 ? 100.0 / double(n) : 0);
    even->setVisible(total > 0 && n > 0);
    if (total <= 0) {
        balanceTitle = MonitorView::tr("%1: no reads in the last %2 s").arg(balance.group).arg(MonitorView::kBalanceSeconds);
    } else {
        std::vector<double> load(sums.begin(), sums.end());
        const BalanceFigures figures = balanceOf(load);
        balanceTitle = MonitorView::tr("%1 read balance over the last %2 s: Jain's index %3 (1 = even, %4 = one member does all)")
                           .arg(balance.group)
                           .arg(MonitorView::kBalanceSeconds)
                           .arg(format::number(figures.jain.value_or(0), 3), format::number(1.0 / double(n), 3));
    }
    balanceHeading->setText(balanceTitle);
}

void MonitorView::Private::onSample(const Sample &s)
{
    if (s.baseline || !running)
        return;
    history.record(s);
    lastT = s.t;
    updateBalance(s);
    updateHeatmap(s);
    if (readahead->isChecked() && readaheadRefusal.isEmpty()) // else it says why it cannot watch
        readaheadView->addSample(s);
    QStringList summary{MonitorView::tr("t %1 s").arg(format::number(s.t, 1))};
    for (const DeviceRates &dev : s.devices)
        summary << QStringLiteral("%1 %2 %3").arg(dev.name, format::rate(dev.readMBps), format::kib(dev.avgReadRequestKiB));
    if (s.interruptsPerSec)
        summary << MonitorView::tr("%1 interrupts/s").arg(format::number(*s.interruptsPerSec, 0));
    for (const GroupBalance &g : s.groups)
        if (g.bytes.jain)
            summary << MonitorView::tr("%1 Jain %2").arg(g.name, format::number(*g.bytes.jain, 3));
    if (!s.missing.isEmpty())
        summary << MonitorView::tr("missing: %1").arg(s.missing.join(u' '));
    statusText = summary.join(QStringLiteral("  ·  "));
    showStatus();
    if (paused)
        return; // the history has it; unpausing draws it

    QSet<QCPGraph *> fed;
    auto put = [&](const QString &series, double value, Rect rect, const QString &label, int color,
                   Qt::PenStyle style, QCPLegend *legend, bool stepAverage = false) {
        show(series, value, rect, label, color, style, legend, stepAverage);
        fed.insert(graphs.value(series));
    };
    if (s.interruptsPerSec)
        put(QStringLiteral("interrupts_per_s"), *s.interruptsPerSec, Interrupts, MonitorView::tr("all interrupts/s"),
            kSeriesText, Qt::SolidLine, nullptr);
    for (const DeviceRates &dev : s.devices) {
        const int color = int(devices.indexOf(dev.name));
        const QString p = dev.name + u'/';
        put(p + u"read_mb_per_s", dev.readMBps, Throughput, MonitorView::tr("%1 read MB/s").arg(dev.name), color,
            Qt::SolidLine, deviceLegend);
        put(p + u"write_mb_per_s", dev.writeMBps, Throughput, MonitorView::tr("%1 write MB/s").arg(dev.name), color,
            Qt::DashLine, nullptr);
        if (dev.irqPerSec)
            put(p + u"irq_per_s", *dev.irqPerSec, Interrupts,
                (dev.irqShared ? MonitorView::tr("%1 irq/s (shared lines)") : MonitorView::tr("%1 irq/s")).arg(dev.name),
                color, Qt::SolidLine, nullptr);
        put(p + u"avg_read_request_kb", dev.reads > 0 ? dev.avgReadRequestKiB : qQNaN(), RequestSize,
            MonitorView::tr("%1 read request KiB").arg(dev.name), color, Qt::SolidLine, nullptr);
        put(p + u"queue_depth", dev.queueDepth, QueueDepth, MonitorView::tr("%1 aqu-sz").arg(dev.name), color,
            Qt::SolidLine, nullptr);
        put(p + u"inflight", double(dev.inFlight), QueueDepth, MonitorView::tr("%1 in flight").arg(dev.name), color,
            Qt::SolidLine, nullptr, true);
    }
    // A series without a value this tick (its device vanished: no line in
    // /proc/diskstats) gets a gap, not a line drawn across the hole.
    for (auto it = graphs.begin(); it != graphs.end(); ++it)
        if (!fed.contains(it.value()))
            addPoint(it.value(), it.key(), lastT, qQNaN());
    for (QCPGraph *graph : std::as_const(graphs)) {
        graph->data()->removeBefore(lastT - windowSeconds);
        if (recording) // one interval: a point, no line to draw
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    }
    dirty = true;
}

// A recording's one interval, through the same sampler as live counters: a
// fresh thread on the replay (first reading, then the second), started
// with an interval no one waits for, ticked once more, stopped.
void MonitorView::Private::replayRecording()
{
    auto replay = loadCounterReplay(SysRoot(sysroot));
    if (!replay) {
        recordingNote->setText(MonitorView::tr("This is a recording: its counters are frozen at the moment it was "
                                               "recorded, so nothing moves here. (A snapshot made by blocktune-cli "
                                               "record holds two readings a second apart and shows that interval.)"));
        statusText = MonitorView::tr("Counters frozen (a recording): nothing to plot");
        showStatus();
        running = false;
        return;
    }
    recordingNote->setText(MonitorView::tr("This is a recording: its counters are frozen. Shown: the one interval "
                                           "it holds, %1 s between its two readings (proc/diskstats and "
                                           "proc/diskstats.2).")
                               .arg(format::number(replay->seconds, 1)));
    delete thread;
    auto [source, clock] = makeCounterReplay(SysRoot(sysroot), std::move(*replay));
    thread = new MonitorThread(sysroot, std::move(source), std::move(clock), q);
    connectWorker();
    MonitorWorker *worker = thread->worker();
    const QStringList watched = devices;
    const QList<GroupSpec> groups = userGroups;
    QMetaObject::invokeMethod(worker, [worker, watched, groups] {
        worker->setWatched(watched);
        worker->setUserGroups(groups);
        worker->start(3'600'000); // the first reading: the baseline
        worker->tick();           // the second: the interval's figures
        worker->stop();
    }, Qt::QueuedConnection);
    running = true;
}

void MonitorView::Private::connectWorker()
{
    QObject::connect(thread->worker(), &MonitorWorker::sampled, q, [this](const Sample &s) { onSample(s); });
    QObject::connect(thread->worker(), &MonitorWorker::failed, q, [this](const QString &message) {
        statusText = message;
        showStatus();
        Q_EMIT q->failed(message);
    });
}

void MonitorView::Private::showSpan()
{
    const int index = span->findData(windowSeconds);
    if (index >= 0) {
        span->setCurrentIndex(index);
        return;
    }
    // A span the wheel made: shown as the combo's last entry.
    const int custom = span->count() - 1;
    const QString text = windowSeconds < 120 ? MonitorView::tr("%1 s").arg(windowSeconds)
                                             : MonitorView::tr("%1 min").arg(format::number(windowSeconds / 60.0, 1));
    if (span->itemData(custom, Qt::UserRole + 1).toBool()) {
        span->setItemText(custom, text);
        span->setItemData(custom, windowSeconds);
    } else {
        span->addItem(text, windowSeconds);
        span->setItemData(span->count() - 1, true, Qt::UserRole + 1);
    }
    span->setCurrentIndex(span->count() - 1);
}

// The heatmap's columns: the shown device, or the members of its group
// (an md array's, a dm device's, or the user's group of that name).
void MonitorView::Private::updateHeatmap(const Sample &s)
{
    if (!latency->isChecked())
        return;
    QStringList columns = devices;
    if (devices.size() == 1) {
        for (const GroupBalance &g : s.groups) {
            if (g.name != devices.constFirst())
                continue;
            columns.clear();
            for (const MemberShare &m : g.members)
                columns << m.name;
        }
    }
    if (heatmap->devices() != columns)
        heatmap->setDevices(columns);
    heatmap->addSample(s);
}

// Draws what came since the last redraw: not while the view is off screen
// (another tab: drawn at once when it shows again, showEvent()), and not
// sooner than kRedrawSpacing times the last redraw's duration after it
// (unless `now`), nor later than kMaxRedrawGapNs: a slow redraw slows the
// plots down, it does not freeze them.
void MonitorView::Private::replot(bool now)
{
    if (!dirty || paused || !q->isVisible())
        return;
    if (!now && sinceRedraw.isValid()
        && sinceRedraw.nsecsElapsed() < std::min(kRedrawSpacing * redrawNs, kMaxRedrawGapNs))
        return;
    dirty = false;
    const double upper = std::max(lastT, double(windowSeconds));
    for (int i = 0; i < RectCount; ++i) {
        rects[i]->axis(QCPAxis::atBottom)->setRange(upper - windowSeconds, upper);
        QCPAxis *axis = rects[i]->axis(QCPAxis::atLeft);
        double top = 0;
        for (QCPGraph *graph : std::as_const(graphs)) {
            if (graph->valueAxis() != axis)
                continue;
            bool found = false;
            const QCPRange r = graph->getValueRange(found, QCP::sdBoth, QCPRange(upper - windowSeconds, upper));
            if (found)
                top = std::max(top, r.upper);
        }
        axis->setRange(0, top > 0 ? top * 1.1 : 1);
    }
    drawBalance();
    plot->replot(QCustomPlot::rpQueuedReplot);
    if (heatmap->isVisible())
        heatmap->refresh();
    if (readaheadView->isVisible())
        readaheadView->refresh();
    redrawNs = 0;
    Q_EMIT q->plotted(lastT);
}

// The whole text in the tooltip, as much as fits in the label: a hundred
// devices' figures would otherwise widen the window past the screen.
void MonitorView::Private::showStatus()
{
    const QString shown = status->fontMetrics().elidedText(statusText, Qt::ElideRight, status->width());
    if (status->text() != shown)
        status->setText(shown);
    status->setToolTip(shown == statusText ? QString() : statusText);
}

// The bar above the plots: the latest figures, then Latency, Pause, the
// span and Export.
QHBoxLayout *MonitorView::Private::buildBar()
{
    auto *bar = new QHBoxLayout;
    status = new QLabel(MonitorView::tr("Select a device to watch it live."), q);
    status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Its width is what the bar leaves, not its text's (showStatus() elides).
    status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    status->setMinimumWidth(1);
    status->setAccessibleName(MonitorView::tr("Latest figures"));
    span = new QComboBox(q);
    for (const int seconds : {30, 120, 600, 3600})
        span->addItem(seconds < 120 ? MonitorView::tr("%1 s").arg(seconds) : MonitorView::tr("%1 min").arg(seconds / 60), seconds);
    span->setCurrentIndex(1);
    span->setToolTip(MonitorView::tr("Time span the plots show (one hour is kept); the mouse wheel over the plots zooms"));
    span->setAccessibleName(MonitorView::tr("Time span"));
    pause = new QPushButton(MonitorView::tr("&Pause"), q);
    pause->setCheckable(true);
    pause->setToolTip(MonitorView::tr("Freeze the plots; sampling goes on and shows when you resume"));
    exportButton = new QPushButton(MonitorView::tr("E&xport PNG…"), q);
    exportButton->setToolTip(MonitorView::tr("Save the plots as they are on screen"));
    latency = new QCheckBox(MonitorView::tr("&Latency"), q);
    latency->setToolTip(MonitorView::tr("A heatmap of each request's queue and device time, from the block layer "
                              "(a BPF program; without root through blocktune-helper, which asks for a password). "
                              "Members of an array side by side."));
    readahead = new QCheckBox(MonitorView::tr("Rea&dahead"), q);
    readahead->setToolTip(MonitorView::tr("What the kernel's readahead does for the workload that runs now, per "
                                          "device: windows by kind, their size against the cap, pages used and "
                                          "wasted (a BPF program on its readahead tracepoints, loaded while this "
                                          "is on)."));
    bar->addWidget(status, 1);
    bar->addWidget(latency);
    bar->addWidget(readahead);
    bar->addWidget(pause);
    bar->addWidget(span);
    bar->addWidget(exportButton);
    return bar;
}

MonitorView::MonitorView(const QString &sysroot, QWidget *parent)
    : MonitorView(sysroot, std::make_unique<ProcSource>(SysRoot(sysroot)), std::make_unique<SteadyClock>(), parent)
{
}

MonitorView::MonitorView(const QString &sysroot, std::unique_ptr<CounterSource> source, std::unique_ptr<Clock> clock,
                         QWidget *parent)
    : QWidget(parent), d(std::make_unique<Private>())
{
    d->q = this;
    d->sysroot = sysroot;
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(d->buildBar());
    d->recordingNote = new QLabel(this);
    d->recordingNote->setObjectName(QStringLiteral("recordingNote"));
    d->recordingNote->setWordWrap(true);
    d->recordingNote->hide();
    layout->addWidget(d->recordingNote);
    d->plot = new QCustomPlot(this);
    d->plot->setObjectName(QStringLiteral("monitorPlot"));
    d->plot->setAccessibleName(tr("Live plots"));
    // Four plots, each tall enough for its two-line axis label (about 150
    // px); on a short screen the scroll area below scrolls them.
    d->plot->setMinimumHeight(880);
    // In a scroll area: on a short screen (1280x720 at 150%) the plots
    // scroll, the bar with Pause stays on screen, and the balance chart
    // below them is a scroll away instead of under the screen's edge.
    auto *scroll = new QScrollArea(this);
    d->scroll = scroll;
    scroll->setObjectName(QStringLiteral("monitorScroll"));
    // The plots, and under them the latency heatmap when it is on.
    auto *page = new QWidget;
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(d->plot, 1);
    d->heatmap = new LatencyHeatmap(page);
    d->heatmap->setWindowSeconds(d->windowSeconds);
    d->heatmap->hide();
    pageLayout->addWidget(d->heatmap);
    d->readaheadView = new ReadaheadView(page);
    d->readaheadView->setWindowSeconds(d->windowSeconds);
    d->readaheadView->hide();
    pageLayout->addWidget(d->readaheadView);
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *plots = new PlotTableSwitch(d->plot, scroll, this);
    layout->addWidget(plots, 1);
    // Tab in the order the bar reads (the span box was made before Pause).
    setTabOrder(d->latency, d->readahead);
    setTabOrder(d->readahead, d->pause);
    setTabOrder(d->pause, d->span);
    setTabOrder(d->span, d->exportButton);
    setTabOrder(d->exportButton, plots->toggle());
    d->buildPlot();
    themePlot(d->plot);

    connect(d->span, &QComboBox::activated, this,
            [this](int index) { setWindowSeconds(d->span->itemData(index).toInt()); });
    connect(d->pause, &QPushButton::toggled, this, &MonitorView::setPaused);
    connect(d->latency, &QCheckBox::toggled, this, &MonitorView::setLatencyShown);
    connect(d->readahead, &QCheckBox::toggled, this, &MonitorView::setReadaheadShown);
    connect(d->exportButton, &QPushButton::clicked, this, [this] {
        // Asynchronous (open(), not exec()): no nested event loop.
        auto *dialog = new QFileDialog(this, tr("Export the plots"), QString(), tr("PNG images (*.png)"));
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setDefaultSuffix(QStringLiteral("png"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) { exportPng(path); });
        dialog->open();
    });
    // The wheel zooms the time span (not QCustomPlot's own zoom, which
    // would fight the plots following the newest sample).
    connect(d->plot, &QCustomPlot::mouseWheel, this, [this](QWheelEvent *event) {
        const double steps = event->angleDelta().y() / 120.0;
        if (steps == 0)
            return;
        setWindowSeconds(int(std::lround(d->windowSeconds * std::pow(0.8, steps))));
        event->accept();
    });

    // Samples may come at 20 Hz or more; the plots are redrawn at most 10
    // times a second.
    d->replotTimer = new QTimer(this);
    d->replotTimer->setInterval(100);
    connect(d->replotTimer, &QTimer::timeout, this, [this] { d->replot(); });
    d->replotTimer->start();
    for (QCustomPlot *p : {d->plot, d->heatmap->plot()}) {
        connect(p, &QCustomPlot::beforeReplot, this, [this] { d->redrawClock.start(); });
        connect(p, &QCustomPlot::afterReplot, this, [this] {
            // Only the redraws a person waits for count: QCustomPlot also
            // redraws off screen (its own layout), and those piled up to
            // seconds here, which held the plots back for three times that
            // once the tab was shown.
            if (isVisible())
                d->redrawNs += d->redrawClock.nsecsElapsed();
            d->sinceRedraw.start();
        });
    }

    d->thread = new MonitorThread(sysroot, std::move(source), std::move(clock), this);
    d->connectWorker();
}

void MonitorView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    d->replot(true);
}

MonitorView::~MonitorView()
{
    // Stop and join the sampling thread before the plots it feeds go away.
    delete d->thread;
    d->thread = nullptr;
}

void MonitorView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    d->showStatus(); // the layout has given the label its new width
}

MonitorWorker *MonitorView::worker() const
{
    return d->thread->worker();
}

QStringList MonitorView::devices() const
{
    return d->devices;
}

int MonitorView::intervalMs() const
{
    return d->intervalMs;
}

int MonitorView::windowSeconds() const
{
    return d->windowSeconds;
}

QString MonitorView::statusText() const
{
    return d->statusText;
}

QString MonitorView::balanceTitle() const
{
    return d->balanceTitle;
}

bool MonitorView::isPaused() const
{
    return d->paused;
}

bool MonitorView::exportPng(const QString &path)
{
    d->replot(true);
    // At the screen's device pixel ratio: crisp on a scaled screen, as on screen.
    if (d->plot->savePng(path, d->plot->width(), d->plot->height(), d->plot->devicePixelRatioF()))
        return true;
    const QString message = tr("cannot write %1 (check the folder exists and is writable)").arg(path);
    Q_EMIT failed(message);
    return false;
}

void MonitorView::setDevices(const QStringList &devices)
{
    QStringList unique;
    for (const QString &name : devices)
        if (!name.isEmpty() && !unique.contains(name))
            unique << name;
    if (unique == d->devices && (d->running || unique.isEmpty()))
        return;
    const bool wasRunning = d->running;
    d->devices = unique;
    if (!wasRunning || unique.isEmpty() || d->recording) {
        d->restart();
        return;
    }
    // Keep sampling (and the history); show only the new set.
    d->clearGraphs();
    d->readaheadView->setDevices(unique);
    MonitorWorker *worker = d->thread->worker();
    QMetaObject::invokeMethod(worker, [worker, unique] { worker->setWatched(unique); }, Qt::QueuedConnection);
}

void MonitorView::setIntervalMs(int ms)
{
    ms = std::clamp(ms, 10, 3'600'000);
    if (ms == d->intervalMs)
        return;
    d->intervalMs = ms;
    d->restart();
}

void MonitorView::setWindowSeconds(int seconds)
{
    seconds = std::clamp(seconds, kMinWindowSeconds, kMaxWindowSeconds);
    if (seconds == d->windowSeconds)
        return;
    d->windowSeconds = seconds;
    d->heatmap->setWindowSeconds(seconds);
    d->readaheadView->setWindowSeconds(seconds);
    d->showSpan();
    d->fillAll();
    const bool paused = d->paused;
    d->paused = false; // a paused view still zooms
    d->replot(true);
    d->paused = paused;
}

void MonitorView::setPaused(bool paused)
{
    if (paused == d->paused)
        return;
    d->paused = paused;
    if (d->pause->isChecked() != paused)
        d->pause->setChecked(paused);
    d->pause->setText(paused ? tr("&Resume") : tr("&Pause"));
    if (!paused)
        d->fillAll(); // what came while paused
}

void MonitorView::setLatencyShown(bool shown)
{
    if (d->latency->isChecked() != shown) {
        d->latency->setChecked(shown); // toggled() comes back here
        return;
    }
    if (d->heatmap->isVisibleTo(this) == shown)
        return;
    d->heatmap->setVisible(shown);
    d->heatmap->clear();
    MonitorWorker *worker = d->thread->worker();
    QMetaObject::invokeMethod(worker, [worker, shown] { worker->setLatency(shown); }, Qt::QueuedConnection);
}

void MonitorView::setReadaheadShown(bool shown)
{
    if (d->readahead->isChecked() != shown) {
        d->readahead->setChecked(shown); // toggled() comes back here
        return;
    }
    if (d->readaheadView->isVisibleTo(this) == shown)
        return;
    d->readaheadView->setVisible(shown);
    d->readaheadView->setDevices(d->devices);
    if (shown) {
        // Below the four plots: brought into view once the layout has it.
        QTimer::singleShot(0, this, [this] {
            if (d->readaheadView->isVisible())
                d->scroll->ensureWidgetVisible(d->readaheadView, 0, 0);
        });
    }
    if (shown && !d->readaheadRefusal.isEmpty()) {
        d->readaheadView->showMessage(tr("Readahead cannot be watched here: %1").arg(d->readaheadRefusal));
        return; // nothing to load
    }
    if (shown)
        d->readaheadView->showMessage(tr("Loading the readahead probe (a BPF program; this takes a second or two)…"));
    MonitorWorker *worker = d->thread->worker();
    QMetaObject::invokeMethod(worker, [worker, shown] { worker->setReadahead(shown); }, Qt::QueuedConnection);
}

bool MonitorView::isReadaheadShown() const
{
    return d->readahead->isChecked();
}

void MonitorView::setReadaheadLoader(std::function<Result<std::unique_ptr<ReadaheadSource>>()> loader)
{
    MonitorWorker *worker = d->thread->worker();
    QMetaObject::invokeMethod(worker, [worker, loader = std::move(loader)] { worker->setReadaheadLoader(loader); },
                              Qt::QueuedConnection);
}

void MonitorView::setReadaheadUnavailable(const QString &why)
{
    d->readaheadRefusal = why;
    if (!isReadaheadShown())
        return;
    setReadaheadShown(false); // through the worker: whatever it holds goes
    setReadaheadShown(true);
}

ReadaheadView *MonitorView::readaheadView() const
{
    return d->readaheadView;
}

void MonitorView::setLatencyLoader(std::function<Result<std::unique_ptr<LatencySource>>()> loader)
{
    MonitorWorker *worker = d->thread->worker();
    // Queued like setLatency(): the worker's thread runs both, in order.
    QMetaObject::invokeMethod(worker, [worker, loader = std::move(loader)] { worker->setLatencyLoader(loader); },
                              Qt::QueuedConnection);
}

void MonitorView::setRecording(bool recording)
{
    if (recording == d->recording)
        return;
    d->recording = recording;
    d->recordingNote->setVisible(recording);
    // Nothing to pause, and no block layer to trace, in a recording.
    d->pause->setEnabled(!recording);
    d->latency->setEnabled(!recording);
    d->latency->setToolTip(recording ? tr("A recording has no block layer to trace") : d->latency->toolTip());
    d->recordingNote->setText(tr("This is a recording: its counters are frozen."));
    if (!d->devices.isEmpty())
        d->restart();
}

bool MonitorView::isRecording() const
{
    return d->recording;
}

QString MonitorView::recordingText() const
{
    return d->recording ? d->recordingNote->text() : QString();
}

bool MonitorView::isLatencyShown() const
{
    return d->latency->isChecked();
}

LatencyHeatmap *MonitorView::latencyHeatmap() const
{
    return d->heatmap;
}

void MonitorView::markSettingChange(const QString &label)
{
    if (!d->running)
        return;
    const QString shown = label.size() > 48 ? label.left(47) + u'…' : label;
    d->heatmap->addMarker(d->lastT, shown);
    d->readaheadView->addMarker(d->lastT, shown);
    d->dirty = true;
}

QString MonitorView::setUserGroup(const QString &name, const QStringList &members, const DeviceModel &model)
{
    std::optional<GroupSpec> group;
    if (!members.isEmpty()) {
        auto checked = makeUserGroup(name, members, model);
        if (!checked)
            return tr("group '%1' refused: %2").arg(name, checked.error().message);
        group = *checked;
    }
    d->userGroups.removeIf([&name](const GroupSpec &g) { return g.name == name; });
    if (group)
        d->userGroups.append(*group);
    if (!d->running)
        return {};
    MonitorWorker *worker = d->thread->worker();
    const QList<GroupSpec> groups = d->userGroups;
    QMetaObject::invokeMethod(worker, [worker, groups] { worker->setUserGroups(groups); }, Qt::QueuedConnection);
    return {};
}

} // namespace blocktune
