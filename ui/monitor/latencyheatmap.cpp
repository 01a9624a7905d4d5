#include "latencyheatmap.h"

#include "plottableswitch.h"
#include "plottheme.h"
#include "theme.h"
#include "monitor/monitor.h"

#include <QSet>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

namespace blocktune {

namespace {

constexpr int kMaxMarkers = 64;

/// Bucket i's lower bound (1 us for bucket 0, which also holds less), in
/// three digits at most: 1 us, 512 us, 4.1 ms, 262 ms, 2.1 s.
QString bucketLabel(int bucket)
{
    const double us = std::ldexp(1.0, bucket);
    const QLocale locale;
    if (us < 1000)
        return LatencyHeatmap::tr("%1 us").arg(locale.toString(us, 'f', 0));
    const double ms = us / 1000;
    if (ms < 1000)
        return LatencyHeatmap::tr("%1 ms").arg(locale.toString(ms, 'f', ms < 10 ? 1 : 0));
    const double s = ms / 1000;
    return LatencyHeatmap::tr("%1 s").arg(locale.toString(s, 'f', s < 10 ? 1 : 0));
}

void addInto(std::array<quint64, LatencyHeatmap::kBuckets> &into, const Log2Histogram &h)
{
    for (int i = 0; i < LatencyHeatmap::kBuckets; ++i)
        into[size_t(i)] += h.counts[size_t(i)];
}

} // namespace

LatencyHeatmap::LatencyHeatmap(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot->setObjectName(QStringLiteral("latencyHeatmap"));
    m_plot->setAccessibleName(tr("Latency heatmap"));
    m_plot->setMinimumHeight(300);
    // For a screen reader and for copying: the cells as a table.
    layout->addWidget(new PlotTableSwitch(m_plot, nullptr, this));
    m_unavailable = tr("Latency histograms are off.");
    rebuildLayout();
    themePlot(m_plot);
}

LatencyHeatmap::~LatencyHeatmap() = default;

void LatencyHeatmap::setDevices(const QStringList &devices)
{
    m_devices = devices;
    clear();
}

void LatencyHeatmap::setWindowSeconds(int seconds)
{
    m_windowSeconds = std::clamp(seconds, 1, kKeptSeconds);
    m_dirty = true;
}

void LatencyHeatmap::clear()
{
    m_bins.clear();
    m_markers.clear();
    m_lastT = 0;
    m_layoutDirty = true;
    m_dirty = true;
}

void LatencyHeatmap::addSample(const Sample &sample)
{
    if (sample.baseline)
        return;
    m_lastT = sample.t;
    if (m_unavailable != sample.latencyUnavailable) {
        m_unavailable = sample.latencyUnavailable;
        m_layoutDirty = true;
    }
    m_dirty = true;
    if (!m_unavailable.isEmpty())
        return;
    const qint64 second = qint64(std::floor(sample.t));
    QSet<QString> taken; // a watched device that is also a member counts once
    auto take = [&](const QString &name, const std::optional<DeviceLatency> &latency) {
        if (!latency || !m_devices.contains(name) || taken.contains(name))
            return;
        taken.insert(name);
        std::deque<Bin> &bins = m_bins[name];
        if (bins.empty() || bins.back().second != second) {
            bins.push_back(Bin{});
            bins.back().second = second;
        }
        Bin &bin = bins.back();
        addInto(bin.queue, latency->readQueue);
        addInto(bin.queue, latency->writeQueue);
        addInto(bin.device, latency->readDevice);
        addInto(bin.device, latency->writeDevice);
        while (!bins.empty() && bins.front().second <= second - kKeptSeconds)
            bins.pop_front();
    };
    for (const DeviceRates &d : sample.devices)
        take(d.name, d.latency);
    for (const GroupBalance &g : sample.groups)
        for (const MemberShare &m : g.members)
            take(m.name, m.latency);
}

void LatencyHeatmap::addMarker(double t, const QString &label)
{
    m_markers.push_back({t, label});
    while (m_markers.size() > size_t(kMaxMarkers))
        m_markers.pop_front();
    m_dirty = true;
}

const LatencyHeatmap::Bin *LatencyHeatmap::binAt(const QString &device, qint64 second) const
{
    const auto it = m_bins.constFind(device);
    if (it == m_bins.cend())
        return nullptr;
    for (const Bin &bin : *it) {
        if (bin.second == second)
            return &bin;
    }
    return nullptr;
}

quint64 LatencyHeatmap::countAt(const QString &device, Row row, double t, int bucket) const
{
    const Bin *bin = binAt(device, qint64(std::floor(t)));
    if (!bin || bucket < 0 || bucket >= kBuckets)
        return 0;
    return (row == Queue ? bin->queue : bin->device)[size_t(bucket)];
}

QCPColorMap *LatencyHeatmap::map(const QString &device, Row row) const
{
    const auto it = m_maps.constFind(device);
    return it == m_maps.cend() ? nullptr : it->at(size_t(row));
}

// A title row, then the grid: queue time above device time, one column per
// device, the colour scale at the right.
void LatencyHeatmap::rebuildLayout()
{
    m_plot->clearItems();
    m_plot->clearPlottables();
    m_plot->plotLayout()->clear();
    m_maps.clear();
    m_rects.clear();
    m_scale = nullptr;
    m_title = new QCPTextElement(m_plot, QString());
    m_plot->plotLayout()->addElement(0, 0, m_title);
    if (!m_unavailable.isEmpty() || m_devices.isEmpty()) {
        m_title->setText(m_devices.isEmpty() ? tr("Select a device to see its latency.")
                                             : tr("No latency heatmap: %1").arg(m_unavailable));
        m_layoutDirty = false;
        applyPlotPalette(m_plot);
        return;
    }
    m_title->setText(m_devices.size() > 1 ? tr("Latency per member: requests by latency bucket over time")
                                          : tr("Latency of %1: requests by latency bucket over time")
                                                .arg(m_devices.constFirst()));
    auto *grid = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 0, grid);
    auto *margins = new QCPMarginGroup(m_plot);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int b = 0; b < kBuckets; b += 3)
        ticker->addTick(b, bucketLabel(b));
    m_scale = new QCPColorScale(m_plot);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setDataScaleType(QCPAxis::stLogarithmic);
    m_scale->axis()->setLabel(tr("requests"));
    m_scale->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    m_plot->plotLayout()->addElement(1, 1, m_scale);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.01); // the scale: its own width only
    // The scale's gradient is its maps' (setColorScale() hands it on).
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    m_scale->setGradient(gradient);
    for (int c = 0; c < m_devices.size(); ++c) {
        std::array<QCPColorMap *, 2> maps{};
        // Rows line up across the columns; each column's two plots line
        // up at the left (only the first has the buckets' names there).
        auto *column = new QCPMarginGroup(m_plot);
        for (int row = 0; row < 2; ++row) {
            auto *rect = new QCPAxisRect(m_plot);
            grid->addElement(row, c, rect);
            rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
            rect->setMarginGroup(QCP::msLeft | QCP::msRight, column);
            rect->axis(QCPAxis::atLeft)->setTicker(ticker);
            // The buckets' names once, at the left; the time axis with two
            // or three ticks, as columns are narrow beside eight members.
            rect->axis(QCPAxis::atLeft)->setTickLabels(c == 0);
            rect->axis(QCPAxis::atBottom)->ticker()->setTickCount(m_devices.size() > 2 ? 2 : 5);
            if (c == 0)
                rect->axis(QCPAxis::atLeft)->setLabel(row == Queue ? tr("queue time") : tr("device time"));
            if (row == Queue) {
                rect->axis(QCPAxis::atTop)->setVisible(true);
                rect->axis(QCPAxis::atTop)->setTicks(false);
                rect->axis(QCPAxis::atTop)->setTickLabels(false);
                rect->axis(QCPAxis::atTop)->setLabel(m_devices.at(c));
            } else {
                rect->axis(QCPAxis::atBottom)->setLabel(tr("seconds"));
            }
            auto *colorMap = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            colorMap->setGradient(gradient);
            colorMap->setInterpolate(false);
            colorMap->setColorScale(m_scale);
            QStringList labels;
            for (int b = 0; b < kBuckets; ++b)
                labels << bucketLabel(b);
            colorMap->setProperty("valueLabels", labels);
            colorMap->setName(QStringLiteral("%1 %2").arg(m_devices.at(c), row == Queue ? tr("queue time") : tr("device time")));
            maps[size_t(row)] = colorMap;
            m_rects << rect;
        }
        m_maps.insert(m_devices.at(c), maps);
    }
    m_layoutDirty = false;
    applyPlotPalette(m_plot);
}

// The shown span in at most kMaxColumns columns, each the sum of its
// one-second bins; empty cells transparent; the buckets shown are the ones
// with counts (at least eight), one colour scale for all.
void LatencyHeatmap::fillMaps()
{
    const int columns = std::min(m_windowSeconds, kMaxColumns);
    const double width = double(m_windowSeconds) / columns;
    const double end = std::max(m_lastT, double(m_windowSeconds)), start = end - m_windowSeconds;
    int lowest = kBuckets, highest = -1;
    double most = 1;
    for (const QString &device : std::as_const(m_devices)) {
        for (int row = 0; row < 2; ++row) {
            QCPColorMap *colorMap = map(device, Row(row));
            if (!colorMap)
                continue;
            std::vector<double> cells(size_t(columns) * kBuckets, 0.0);
            for (const Bin &bin : m_bins.value(device)) {
                const int c = int(std::floor((double(bin.second) + 0.5 - start) / width));
                if (c < 0 || c >= columns)
                    continue;
                const auto &counts = row == Queue ? bin.queue : bin.device;
                for (int b = 0; b < kBuckets; ++b)
                    cells[size_t(c) * kBuckets + size_t(b)] += double(counts[size_t(b)]);
            }
            colorMap->data()->setSize(columns, kBuckets);
            colorMap->data()->setRange(QCPRange(start + width / 2, end - width / 2), QCPRange(0, kBuckets - 1));
            for (int c = 0; c < columns; ++c) {
                for (int b = 0; b < kBuckets; ++b) {
                    const double v = cells[size_t(c) * kBuckets + size_t(b)];
                    colorMap->data()->setCell(c, b, v > 0 ? v : std::nan(""));
                    if (v > 0) {
                        lowest = std::min(lowest, b);
                        highest = std::max(highest, b);
                        most = std::max(most, v);
                    }
                }
            }
        }
    }
    if (highest < 0) {
        lowest = 2;
        highest = 9;
    }
    const int top = std::min(kBuckets - 1, std::max(highest + 1, lowest + 7));
    for (QCPAxisRect *rect : std::as_const(m_rects)) {
        rect->axis(QCPAxis::atBottom)->setRange(start, end);
        rect->axis(QCPAxis::atLeft)->setRange(std::max(0, lowest - 1) - 0.5, top + 0.5);
    }
    if (m_scale)
        m_scale->setDataRange(QCPRange(1, std::max(most, 10.0)));
}

void LatencyHeatmap::refresh()
{
    if (!m_dirty && !m_layoutDirty)
        return;
    if (m_layoutDirty)
        rebuildLayout();
    if (!m_maps.isEmpty()) {
        fillMaps();
        m_plot->clearItems();
        const double start = std::max(m_lastT, double(m_windowSeconds)) - m_windowSeconds;
        for (const Marker &marker : m_markers) {
            if (marker.t < start)
                continue;
            for (QCPAxisRect *rect : std::as_const(m_rects)) {
                auto *line = new QCPItemStraightLine(m_plot);
                line->setClipAxisRect(rect);
                line->point1->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
                line->point2->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
                line->point1->setCoords(marker.t, 0);
                line->point2->setCoords(marker.t, 1);
                line->setPen(seriesPen(2, Qt::DashLine));
                setSeries(line, kSeriesText);
            }
            // The label once, at the top of the first column's queue row.
            auto *text = new QCPItemText(m_plot);
            text->setClipAxisRect(m_rects.constFirst());
            text->position->setAxes(m_rects.constFirst()->axis(QCPAxis::atBottom),
                                    m_rects.constFirst()->axis(QCPAxis::atLeft));
            text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            text->position->setCoords(marker.t, 0.02);
            text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
            text->setPadding(QMargins(4, 0, 0, 0));
            text->setText(marker.label);
            setSeries(text, kSeriesText);
        }
        applyPlotPalette(m_plot);
    }
    m_dirty = false;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace blocktune
