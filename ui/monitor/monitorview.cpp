#include "monitorview.h"

#include "monitor/monitor.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

namespace blocktune {

namespace {

enum Rect { Throughput, Interrupts, RequestSize, QueueDepth, Balance, RectCount };

// What each plot shows; the line styles are explained in the titles
// rather than in five legends.
const char *const kRectTitles[RectCount] = {"MB/s\n(write dashed)", "interrupts/s\n(black: all)",
                                            "read request\nKiB", "queue depth\n(in flight dotted)",
                                            "read share %\n(Jain x100 dashed)"};

QColor paletteColor(qsizetype i)
{
    static const QColor colors[] = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44),
                                    QColor(255, 127, 14), QColor(148, 103, 189), QColor(140, 86, 75),
                                    QColor(227, 119, 194), QColor(23, 190, 207)};
    return colors[size_t(i) % std::size(colors)];
}

} // namespace

struct MonitorView::Private
{
    MonitorView *q = nullptr;
    QString sysroot;
    MonitorThread *thread = nullptr;
    QCustomPlot *plot = nullptr;
    QLabel *status = nullptr;
    QComboBox *span = nullptr;
    QCPAxisRect *rects[RectCount] = {};
    QCPLegend *deviceLegend = nullptr;
    QCPLegend *balanceLegend = nullptr;
    QTimer *replotTimer = nullptr;

    History history;
    QHash<QString, QCPGraph *> graphs; // keyed by History series name
    QStringList devices;
    QList<GroupSpec> userGroups;
    int intervalMs = 100;
    int windowSeconds = 120;
    bool running = false;
    bool dirty = false;
    double lastT = 0;
    QString statusText;

    void buildPlot();
    void restart();
    void clearGraphs();
    void onSample(const Sample &s);
    void show(const QString &series, double value, Rect rect, const QString &label, const QColor &color,
              Qt::PenStyle style, double scale, QCPLegend *legend);
    void fill(QCPGraph *graph, const QString &series, double scale);
    void replot();
};

void MonitorView::Private::buildPlot()
{
    plot->setAutoAddPlottableToLegend(false);
    plot->plotLayout()->clear();
    auto *margins = new QCPMarginGroup(plot);
    for (int i = 0; i < RectCount; ++i) {
        auto *rect = new QCPAxisRect(plot);
        plot->plotLayout()->addElement(i, 0, rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->axis(QCPAxis::atLeft)->setLabel(QString::fromLatin1(kRectTitles[i]));
        rect->axis(QCPAxis::atBottom)->setRange(0, windowSeconds);
        rect->axis(QCPAxis::atLeft)->setRange(0, 1);
        rects[i] = rect;
    }
    rects[Balance]->axis(QCPAxis::atBottom)->setLabel(QStringLiteral("seconds"));
    rects[Balance]->axis(QCPAxis::atLeft)->setRange(0, 105);
    auto makeLegend = [this](QCPAxisRect *rect) {
        auto *legend = new QCPLegend;
        rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        legend->setLayer(QStringLiteral("legend"));
        legend->setFont(QFont(q->font().family(), 7));
        legend->setRowSpacing(0);
        legend->setWrap(3); // columns of three: an 8-disk array fits a short plot
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
        legend->setBrush(QColor(255, 255, 255, 200));
        return legend;
    };
    deviceLegend = makeLegend(rects[Throughput]);
    balanceLegend = makeLegend(rects[Balance]);
}

void MonitorView::Private::clearGraphs()
{
    for (QCPGraph *g : std::as_const(graphs)) {
        // QCustomPlot only cleans its own default legend when a plottable
        // goes; ours would keep an item pointing at the deleted graph.
        g->removeFromLegend(deviceLegend);
        g->removeFromLegend(balanceLegend);
        plot->removeGraph(g);
    }
    graphs.clear();
    dirty = true;
}

void MonitorView::Private::restart()
{
    clearGraphs();
    history = History(History::Limits{std::max(1, 3'600'000 / intervalMs), 64 << 20});
    lastT = 0;
    if (devices.isEmpty()) {
        if (running)
            QMetaObject::invokeMethod(thread->worker(), &MonitorWorker::stop, Qt::QueuedConnection);
        running = false;
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

void MonitorView::Private::fill(QCPGraph *graph, const QString &series, double scale)
{
    graph->data()->clear();
    const double from = lastT - windowSeconds;
    for (qsizetype i = 0; i < history.size(); ++i) {
        const double t = history.timeAt(i);
        const double v = history.valueAt(series, i);
        if (t >= from)
            graph->addData(t, v * scale); // NaN stays NaN: a gap in the line
    }
}

void MonitorView::Private::show(const QString &series, double value, Rect rect, const QString &label,
                                const QColor &color, Qt::PenStyle style, double scale, QCPLegend *legend)
{
    auto it = graphs.find(series);
    if (it == graphs.end()) {
        QCPGraph *graph = plot->addGraph(rects[rect]->axis(QCPAxis::atBottom), rects[rect]->axis(QCPAxis::atLeft));
        graph->setName(label);
        graph->setPen(QPen(color, 1.5, style));
        graph->setAdaptiveSampling(true);
        if (legend)
            graph->addToLegend(legend);
        // A series shown for the first time (a device selected again, a
        // group appearing) gets what the history already holds.
        fill(graph, series, scale);
        graphs.insert(series, graph);
        return;
    }
    (*it)->addData(lastT, value * scale);
}

void MonitorView::Private::onSample(const Sample &s)
{
    if (s.baseline || !running)
        return;
    history.record(s);
    lastT = s.t;
    QStringList summary{QStringLiteral("t %1 s").arg(s.t, 0, 'f', 1)};
    if (s.interruptsPerSec) {
        show(QStringLiteral("interrupts_per_s"), *s.interruptsPerSec, Interrupts,
             QStringLiteral("all interrupts/s"), Qt::black, Qt::SolidLine, 1, nullptr);
        summary << QStringLiteral("%1 interrupts/s").arg(*s.interruptsPerSec, 0, 'f', 0);
    }
    for (const DeviceRates &dev : s.devices) {
        const QColor color = paletteColor(devices.indexOf(dev.name));
        const QString p = dev.name + u'/';
        show(p + u"read_mb_per_s", dev.readMBps, Throughput, dev.name + u" read MB/s", color,
             Qt::SolidLine, 1, deviceLegend);
        show(p + u"write_mb_per_s", dev.writeMBps, Throughput, dev.name + u" write MB/s", color,
             Qt::DashLine, 1, nullptr);
        if (dev.irqPerSec)
            show(p + u"irq_per_s", *dev.irqPerSec, Interrupts,
                 dev.name + (dev.irqShared ? u" irq/s (shared lines)" : u" irq/s"), color, Qt::SolidLine, 1,
                 nullptr);
        show(p + u"avg_read_request_kb", dev.reads > 0 ? dev.avgReadRequestKiB : qQNaN(), RequestSize,
             dev.name + u" read request KiB", color, Qt::SolidLine, 1, nullptr);
        show(p + u"queue_depth", dev.queueDepth, QueueDepth, dev.name + u" aqu-sz", color, Qt::SolidLine, 1,
             nullptr);
        show(p + u"inflight", double(dev.inFlight), QueueDepth, dev.name + u" in flight", color, Qt::DotLine,
             1, nullptr);
        summary << QStringLiteral("%1 %2 MB/s %3 KiB").arg(dev.name).arg(dev.readMBps, 0, 'f', 1)
                       .arg(dev.avgReadRequestKiB, 0, 'f', 0);
    }
    for (const GroupBalance &g : s.groups) {
        for (qsizetype i = 0; i < g.members.size(); ++i) {
            const MemberShare &m = g.members[i];
            if (m.share)
                show(g.name + u'/' + m.name + u"/share", *m.share, Balance,
                     g.name + u'/' + m.name + u" share %", paletteColor(i), Qt::SolidLine, 100, balanceLegend);
        }
        if (g.bytes.jain) {
            show(g.name + u"/jain", *g.bytes.jain, Balance, g.name + u" Jain x100", Qt::black, Qt::DashDotLine,
                 100, balanceLegend);
            summary << QStringLiteral("%1 Jain %2").arg(g.name).arg(*g.bytes.jain, 0, 'f', 3);
        }
    }
    if (!s.missing.isEmpty())
        summary << QStringLiteral("missing: %1").arg(s.missing.join(u' '));
    statusText = summary.join(QStringLiteral("  ·  "));
    status->setText(statusText);
    for (QCPGraph *graph : std::as_const(graphs))
        graph->data()->removeBefore(lastT - windowSeconds);
    dirty = true;
}

void MonitorView::Private::replot()
{
    if (!dirty)
        return;
    dirty = false;
    const double upper = std::max(lastT, double(windowSeconds));
    for (int i = 0; i < RectCount; ++i) {
        rects[i]->axis(QCPAxis::atBottom)->setRange(upper - windowSeconds, upper);
        if (i == Balance)
            continue;
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
    plot->replot(QCustomPlot::rpQueuedReplot);
    Q_EMIT q->plotted(lastT);
}

MonitorView::MonitorView(const QString &sysroot, QWidget *parent)
    : QWidget(parent), d(std::make_unique<Private>())
{
    d->q = this;
    d->sysroot = sysroot;
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    d->status = new QLabel(tr("Select a device to watch it live."), this);
    d->status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->span = new QComboBox(this);
    for (const int seconds : {30, 120, 600, 3600})
        d->span->addItem(seconds < 120 ? tr("%1 s").arg(seconds) : tr("%1 min").arg(seconds / 60), seconds);
    d->span->setCurrentIndex(1);
    d->span->setToolTip(tr("Time span the plots show (one hour is kept)"));
    bar->addWidget(d->status, 1);
    bar->addWidget(d->span);
    layout->addLayout(bar);
    d->plot = new QCustomPlot(this);
    d->plot->setObjectName(QStringLiteral("monitorPlot"));
    d->plot->setMinimumHeight(500);
    layout->addWidget(d->plot, 1);
    d->buildPlot();

    connect(d->span, &QComboBox::activated, this,
            [this](int index) { setWindowSeconds(d->span->itemData(index).toInt()); });

    // Samples may come at 20 Hz or more; the plots are redrawn at most 10
    // times a second.
    d->replotTimer = new QTimer(this);
    d->replotTimer->setInterval(100);
    connect(d->replotTimer, &QTimer::timeout, this, [this] { d->replot(); });
    d->replotTimer->start();

    d->thread = new MonitorThread(sysroot, this);
    connect(d->thread->worker(), &MonitorWorker::sampled, this, [this](const Sample &s) { d->onSample(s); });
    connect(d->thread->worker(), &MonitorWorker::failed, this, [this](const QString &message) {
        d->statusText = message;
        d->status->setText(message);
        Q_EMIT failed(message);
    });
}

MonitorView::~MonitorView()
{
    // Stop and join the sampling thread before the plots it feeds go away.
    delete d->thread;
    d->thread = nullptr;
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
    if (!wasRunning || unique.isEmpty()) {
        d->restart();
        return;
    }
    // Keep sampling (and the history); show only the new set.
    d->clearGraphs();
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
    seconds = std::clamp(seconds, 10, 3600);
    if (seconds == d->windowSeconds)
        return;
    d->windowSeconds = seconds;
    const int index = d->span->findData(seconds);
    if (index >= 0)
        d->span->setCurrentIndex(index);
    const QHash<QString, QCPGraph *> graphs = d->graphs;
    for (auto it = graphs.cbegin(); it != graphs.cend(); ++it) {
        const bool percent = it.key().endsWith(u"/share") || it.key().endsWith(u"/jain");
        d->fill(it.value(), it.key(), percent ? 100 : 1);
    }
    d->dirty = true;
    d->replot();
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
