#include "readaheadview.h"

#include "format.h"
#include "plottableswitch.h"
#include "plottheme.h"
#include "theme.h"
#include "monitor/monitor.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

namespace blocktune {

namespace {

constexpr int kMaxReadaheadMarkers = 64;

const char *const kReadaheadPlotTitles[ReadaheadView::PlotCount] = {
    QT_TRANSLATE_NOOP("blocktune::ReadaheadView", "windows/s"),
    QT_TRANSLATE_NOOP("blocktune::ReadaheadView", "window KiB, p50\n(pale band: the cap)"),
    QT_TRANSLATE_NOOP("blocktune::ReadaheadView", "pages/s used\n(dashed: wasted)"),
    QT_TRANSLATE_NOOP("blocktune::ReadaheadView", "wait of used\npages, p50 ms")};

/// The series of a device, where each is drawn and how.
struct ReadaheadSeriesStyle
{
    const char *name;
    ReadaheadView::Plot plot;
    Qt::PenStyle pen;
};
const ReadaheadSeriesStyle kReadaheadSeries[] = {
    {"async", ReadaheadView::Windows, Qt::SolidLine},  {"sync", ReadaheadView::Windows, Qt::DashLine},
    {"mmap", ReadaheadView::Windows, Qt::DotLine},     {"forced", ReadaheadView::Windows, Qt::DashDotLine},
    {"cap", ReadaheadView::WindowSize, Qt::SolidLine}, {"size", ReadaheadView::WindowSize, Qt::SolidLine},
    {"used", ReadaheadView::Pages, Qt::SolidLine},     {"wasted", ReadaheadView::Pages, Qt::DashLine},
    {"wait", ReadaheadView::Wait, Qt::SolidLine}};

/// What the line styles of the windows plot mean, in the legend.
struct ReadaheadKindStyle
{
    ReadaheadKind kind;
    Qt::PenStyle pen;
};
const ReadaheadKindStyle kReadaheadKindStyles[] = {{ReadaheadKind::Async, Qt::SolidLine},
                                 {ReadaheadKind::Sync, Qt::DashLine},
                                 {ReadaheadKind::Mmap, Qt::DotLine},
                                 {ReadaheadKind::Forced, Qt::DashDotLine}};

double readaheadRatio(double value, double over)
{
    return over > 0 ? value / over : qQNaN();
}

/// A core message as a sentence: capitalised, a full stop unless it ends in one.
QString asSentence(QString text)
{
    if (text.isEmpty())
        return text;
    text[0] = text[0].toUpper();
    if (!text.endsWith(u'.') && !text.endsWith(u'…'))
        text += u'.';
    return text;
}

} // namespace

ReadaheadView::ReadaheadView(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    layout->addWidget(buildHeader());
    m_messageLabel = new QLabel(this);
    m_messageLabel->setObjectName(QStringLiteral("readaheadMessage"));
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_messageLabel->setMargin(12);
    layout->addWidget(m_messageLabel);
    m_plot->setObjectName(QStringLiteral("readaheadPlot"));
    m_plot->setAccessibleName(tr("Readahead plots"));
    // Four plots of about 170 px each, as the monitor's above.
    m_plot->setMinimumHeight(720);
    m_plots = new PlotTableSwitch(m_plot, nullptr, this);
    layout->addWidget(m_plots, 1);
    buildPlot();
    themePlot(m_plot);
    showMessage(tr("Readahead figures are off."));
}

ReadaheadView::~ReadaheadView() = default;

// The title, the newest figures, and "How to read this".
QWidget *ReadaheadView::buildHeader()
{
    auto *header = new QWidget(this);
    auto *row = new QHBoxLayout(header);
    row->setContentsMargins(0, 0, 0, 0);
    auto *title = new QLabel(tr("Readahead"), header);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    m_figures = new QLabel(header);
    m_figures->setObjectName(QStringLiteral("readaheadFigures"));
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setWordWrap(true);
    m_figures->setAccessibleName(tr("Newest readahead figures"));
    m_help = new QPushButton(tr("How to read this"), header);
    m_help->setObjectName(QStringLiteral("readaheadHelp"));
    m_help->setToolTip(tr("What the readahead plots show, and what to change when they show it"));
    connect(m_help, &QPushButton::clicked, this, &ReadaheadView::showHelp);
    row->addWidget(title);
    row->addWidget(m_figures, 1);
    row->addWidget(m_help, 0, Qt::AlignTop);
    return header;
}

void ReadaheadView::buildPlot()
{
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->setLocale(format::ungrouped());
    m_plot->plotLayout()->clear();
    auto *margins = new QCPMarginGroup(m_plot);
    for (int i = 0; i < PlotCount; ++i) {
        auto *rect = new QCPAxisRect(m_plot);
        m_plot->plotLayout()->addElement(i + 1, 0, rect); // row 0: the legend
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->axis(QCPAxis::atLeft)->setLabel(tr(kReadaheadPlotTitles[i]));
        rect->axis(QCPAxis::atBottom)->setRange(0, m_windowSeconds);
        rect->axis(QCPAxis::atLeft)->setRange(0, 1);
        m_rects[size_t(i)] = rect;
    }
    m_rects[Wait]->axis(QCPAxis::atBottom)->setLabel(tr("seconds"));
    // The legend in a row of its own, as the monitor's: the devices (their
    // colours are the plots' above) and what each line style of the
    // windows plot is.
    auto *legend = new QCPLegend;
    m_legend = legend;
    m_plot->plotLayout()->addElement(0, 0, legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    legend->setLayer(QStringLiteral("legend"));
    legend->setFont(QFont(font().family(), 8));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(8);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setMargins(QMargins(0, 0, 0, 0));
    for (const ReadaheadKindStyle &k : kReadaheadKindStyles) {
        QCPGraph *sample = m_plot->addGraph(m_rects[Windows]->axis(QCPAxis::atBottom),
                                            m_rects[Windows]->axis(QCPAxis::atLeft));
        sample->setName(tr("%1 windows").arg(readaheadKindName(k.kind)));
        sample->setPen(seriesPen(1.5, k.pen));
        setSeries(sample, kSeriesText);
        sample->addToLegend(legend);
    }
}

void ReadaheadView::setDevices(const QStringList &devices)
{
    m_devices = devices;
    clear();
}

void ReadaheadView::setWindowSeconds(int seconds)
{
    m_windowSeconds = std::clamp(seconds, 1, kKeptSeconds);
    m_dirty = true;
}

void ReadaheadView::clear()
{
    for (QCPGraph *g : std::as_const(m_graphs)) {
        g->removeFromLegend(m_legend); // QCustomPlot cleans only its own default legend
        m_plot->removeGraph(g);
    }
    m_graphs.clear();
    m_bins.clear();
    m_markers.clear();
    m_lastT = 0;
    m_lastSecond = -1;
    m_figures->clear();
    m_dirty = true;
}

void ReadaheadView::showMessage(const QString &text)
{
    m_message = text;
    m_messageLabel->setText(text);
    m_messageLabel->setVisible(!text.isEmpty());
    m_plots->setVisible(text.isEmpty());
    m_figures->setVisible(text.isEmpty());
    m_dirty = true;
}

void ReadaheadView::addSample(const Sample &sample)
{
    if (sample.baseline)
        return;
    m_lastT = sample.t;
    const qint64 second = qint64(std::floor(sample.t));
    if (second != m_lastSecond)
        m_dirty = true; // redrawn once a second: a point is a second
    m_lastSecond = second;
    if (!sample.readaheadUnavailable.isEmpty()) {
        if (const QString text = asSentence(sample.readaheadUnavailable); text != m_message)
            showMessage(text);
        return;
    }
    if (!m_message.isEmpty())
        showMessage(QString());
    for (const DeviceRates &d : sample.devices) {
        if (!d.readahead || !m_devices.contains(d.name))
            continue;
        std::deque<Bin> &bins = m_bins[d.name];
        if (bins.empty() || bins.back().second != second) {
            bins.push_back(Bin{});
            bins.back().second = second;
        }
        Bin &bin = bins.back();
        const DeviceReadahead &r = *d.readahead;
        bin.seconds += sample.intervalS;
        for (const ReadaheadKind kind : kAllReadaheadKinds)
            bin.windows[size_t(kind)] += r.of(kind).windows;
        bin.atCap += r.all.atCap;
        if (r.all.sizeP50KiB) {
            bin.sizedWindows += r.all.sizedWindows;
            bin.sizeKiBxWindows += double(*r.all.sizeP50KiB) * double(r.all.sizedWindows);
        }
        bin.used += r.all.pagesUsed;
        bin.wasted += r.all.pagesWasted;
        if (r.all.waitP50Ms) {
            bin.waited += r.all.waitedPages;
            bin.waitMsxPages += *r.all.waitP50Ms * double(r.all.waitedPages);
        }
        if (r.readAheadKiB)
            bin.capKiB = r.readAheadKiB;
        while (!bins.empty() && bins.front().second <= second - kKeptSeconds)
            bins.pop_front();
    }
    QStringList lines;
    for (const QString &device : std::as_const(m_devices))
        if (const QString line = figuresOf(device); !line.isEmpty())
            lines << line;
    m_figures->setText(lines.join(u'\n'));
}

double ReadaheadView::valueOf(const Bin &bin, const QString &series)
{
    for (const ReadaheadKind kind : kAllReadaheadKinds)
        if (series == readaheadKindName(kind))
            return readaheadRatio(double(bin.windows[size_t(kind)]), bin.seconds);
    if (series == u"size")
        return readaheadRatio(bin.sizeKiBxWindows, double(bin.sizedWindows));
    if (series == u"cap")
        return bin.capKiB ? double(*bin.capKiB) : qQNaN();
    if (series == u"used")
        return readaheadRatio(double(bin.used), bin.seconds);
    if (series == u"wasted")
        return readaheadRatio(double(bin.wasted), bin.seconds);
    if (series == u"wait")
        return readaheadRatio(bin.waitMsxPages, double(bin.waited));
    return qQNaN();
}

const ReadaheadView::Bin *ReadaheadView::binAt(const QString &device, qint64 second) const
{
    const auto it = m_bins.constFind(device);
    if (it == m_bins.cend())
        return nullptr;
    for (auto bin = it->crbegin(); bin != it->crend(); ++bin)
        if (bin->second == second)
            return &*bin;
    return nullptr;
}

double ReadaheadView::valueAt(const QString &device, const QString &series, double t) const
{
    const Bin *bin = binAt(device, qint64(std::floor(t)));
    return bin ? valueOf(*bin, series) : qQNaN();
}

// The last whole second's figures (the one running, until one is whole).
QString ReadaheadView::figuresOf(const QString &device) const
{
    const auto it = m_bins.constFind(device);
    if (it == m_bins.cend() || it->empty())
        return {};
    const Bin &bin = it->size() > 1 && it->back().second == m_lastSecond ? (*it)[it->size() - 2] : it->back();
    quint64 windows = 0;
    for (quint64 n : bin.windows)
        windows += n;
    const double size = valueOf(bin, QStringLiteral("size"));
    const double wait = valueOf(bin, QStringLiteral("wait"));
    const QString dash = QStringLiteral("–");
    return tr("%1: %2 async, %3 sync, %4 mmap, %5 forced windows/s · window %6 of %7 (%8 at the cap) · "
              "%9 used, %10 wasted pages/s · wait %11")
        .arg(device,
             format::number(valueOf(bin, QStringLiteral("async")), 1),
             format::number(valueOf(bin, QStringLiteral("sync")), 1),
             format::number(valueOf(bin, QStringLiteral("mmap")), 1),
             format::number(valueOf(bin, QStringLiteral("forced")), 1),
             std::isnan(size) ? dash : format::kib(size),
             bin.capKiB ? format::kib(double(*bin.capKiB)) : dash,
             windows ? tr("%1 %").arg(format::number(100.0 * double(bin.atCap) / double(windows), 0)) : dash,
             format::number(valueOf(bin, QStringLiteral("used")), 0))
        .arg(format::number(valueOf(bin, QStringLiteral("wasted")), 0),
             std::isnan(wait) ? dash : tr("%1 ms").arg(format::number(wait, wait < 10 ? 2 : 0)));
}

QString ReadaheadView::figuresText() const
{
    return m_figures->text();
}

QCPGraph *ReadaheadView::graph(const QString &device, const QString &series)
{
    const QString key = device + u'/' + series;
    if (QCPGraph *g = m_graphs.value(key))
        return g;
    const ReadaheadSeriesStyle *style = nullptr;
    for (const ReadaheadSeriesStyle &s : kReadaheadSeries)
        if (series == QLatin1StringView(s.name))
            style = &s;
    QCPAxisRect *rect = m_rects[size_t(style->plot)];
    QCPGraph *g = m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    g->setName(series == u"async" ? device : tr("%1 %2").arg(device, series));
    if (series == u"cap") {
        // A wide pale band under the windows' line: windows at the cap run
        // along it, where a thin dashed line would hide behind them.
        g->setPen(seriesPen(5.0, Qt::SolidLine, 70));
        g->setLineStyle(QCPGraph::lsStepRight);
    } else {
        g->setPen(seriesPen(1.5, style->pen));
    }
    setSeries(g, int(m_devices.indexOf(device)));
    if (series == u"async")
        g->addToLegend(m_legend);
    m_graphs.insert(key, g);
    return g;
}

// Each device's one-second points in the span, the newest second too.
void ReadaheadView::fillGraphs()
{
    const qint64 from = qint64(std::floor(m_lastT)) - m_windowSeconds;
    for (auto it = m_bins.cbegin(); it != m_bins.cend(); ++it) {
        for (const ReadaheadSeriesStyle &s : kReadaheadSeries) {
            const QString series = QLatin1StringView(s.name);
            QVector<double> keys, values;
            for (const Bin &bin : it.value()) {
                if (bin.second < from)
                    continue;
                keys << double(bin.second) + 0.5;
                values << valueOf(bin, series);
            }
            graph(it.key(), series)->setData(keys, values, true);
        }
    }
}

void ReadaheadView::addMarker(double t, const QString &label)
{
    m_markers.push_back({t, label});
    while (m_markers.size() > size_t(kMaxReadaheadMarkers))
        m_markers.pop_front();
    m_dirty = true;
}

// Each marker in the span: a dashed line down every plot, its label at the
// top of the first, as on the latency heatmap.
void ReadaheadView::drawMarkers()
{
    m_plot->clearItems();
    const double upper = std::max(m_lastT, double(m_windowSeconds));
    for (const Marker &marker : m_markers) {
        if (marker.t < upper - m_windowSeconds || marker.t > upper)
            continue;
        for (QCPAxisRect *rect : m_rects) {
            auto *line = new QCPItemStraightLine(m_plot);
            line->setClipAxisRect(rect);
            line->point1->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            line->point2->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            line->point1->setCoords(marker.t, 0);
            line->point2->setCoords(marker.t, 1);
            line->setPen(seriesPen(1.0, Qt::DashLine));
            setSeries(line, kSeriesNeutral);
        }
        QCPAxisRect *first = m_rects[Windows];
        auto *text = new QCPItemText(m_plot);
        text->setClipAxisRect(first);
        text->position->setAxes(first->axis(QCPAxis::atBottom), first->axis(QCPAxis::atLeft));
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(marker.t, 0.02);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setPadding(QMargins(4, 0, 0, 0));
        text->setText(marker.label);
        setSeries(text, kSeriesText);
    }
}

void ReadaheadView::refresh()
{
    if (!m_dirty || !m_message.isEmpty())
        return;
    m_dirty = false;
    fillGraphs();
    const double upper = std::max(m_lastT, double(m_windowSeconds));
    for (QCPAxisRect *rect : m_rects) {
        rect->axis(QCPAxis::atBottom)->setRange(upper - m_windowSeconds, upper);
        QCPAxis *axis = rect->axis(QCPAxis::atLeft);
        double top = 0;
        for (QCPGraph *g : std::as_const(m_graphs)) {
            if (g->valueAxis() != axis)
                continue;
            bool found = false;
            const QCPRange r = g->getValueRange(found, QCP::sdBoth, QCPRange(upper - m_windowSeconds, upper));
            if (found)
                top = std::max(top, r.upper);
        }
        axis->setRange(0, top > 0 ? top * 1.15 : 1);
    }
    drawMarkers();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString ReadaheadView::helpText()
{
    return tr("<p><b>Windows/s</b>: how often the kernel's readahead started a window, by kind. "
              "<b>async</b> (solid): the reader reached the marker of a stream the kernel recognised, and the "
              "next window was read ahead while it read on: readahead is working. <b>sync</b> (dashed): a "
              "miss started or restarted a window, and the reader waited for it. Many sync windows and few "
              "async ones mean readahead does not see a stream: random reads, or several readers of one "
              "stream through descriptors of their own. <b>mmap</b> (dotted): page faults of mapped files; "
              "<b>forced</b> (dash-dotted): fadvise WILLNEED or readahead(2).</p>"
              "<p><b>Window size</b>: the windows' median size against the cap, the device's read_ahead_kb "
              "(the pale band). Async windows at the cap on a steady stream: readahead is the limit, the device gets "
              "no larger requests than it; raise it and watch MB/s above.</p>"
              "<p><b>Pages/s</b>: pages read ahead that someone read before they left the page cache (used, "
              "solid) and those evicted unread (wasted, dashed): I/O for nothing, and memory taken from the "
              "rest. Wasted pages near the used ones: lower readahead.</p>"
              "<p><b>Wait</b>: how long used pages sat in the cache before they were read (median; log2 "
              "buckets' upper bounds). Short waits with windows at the cap: the reader catches up with "
              "readahead.</p>"
              "<p>Each point adds up one second. Dashed vertical lines mark where this console changed a "
              "setting: compare before and after. Counted by a BPF program on the kernel's readahead "
              "tracepoints, for the device whose read_ahead_kb governs the reads; loaded while this view is "
              "on, unloaded when it is turned off.</p>");
}

void ReadaheadView::showHelp()
{
    auto *box = new QMessageBox(QMessageBox::Information, tr("How to read the readahead plots"), helpText(),
                                QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("readaheadHelpBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace blocktune
