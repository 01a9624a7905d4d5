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
    m_lastSecond = -1;
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
    // Redrawn when a second begins, not at every sample: a column is a
    // second or more, and redrawing at 10 Hz only grew the newest column's
    // colour, for 8 % of a core on 100 devices (bench/heatmap_cost.cpp).
    const qint64 second = qint64(std::floor(sample.t));
    if (second != m_lastSecond)
        m_dirty = true;
    m_lastSecond = second;
    if (!m_unavailable.isEmpty())
        return;
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

double LatencyHeatmap::shownCount(const QString &device, Row row, double t, int bucket) const
{
    const qsizetype index = m_devices.indexOf(device);
    QCPColorMap *colorMap = m_maps[size_t(row)];
    const int column = int(std::floor((t - m_columnsStart) / m_secondsPerColumn));
    if (!colorMap || index < 0 || column < 0 || column >= m_columns || bucket < 0 || bucket >= kBuckets)
        return std::nan("");
    return colorMap->data()->cell(int(index) * (m_columns + m_gap) + column, bucket);
}

double LatencyHeatmap::keyOf(qsizetype index, double t) const
{
    return double(index) * (m_columns + m_gap) + (t - m_columnsStart) / m_secondsPerColumn - 0.5;
}

// A title row, then queue time above device time, each one colour map with
// the devices side by side, the colour scale at the right.
void LatencyHeatmap::rebuildLayout()
{
    m_plot->clearItems();
    m_plot->clearPlottables();
    m_plot->plotLayout()->clear();
    m_maps = {};
    m_rects = {};
    m_markerLines = {};
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
    QSharedPointer<QCPAxisTickerText> buckets(new QCPAxisTickerText);
    for (int b = 0; b < kBuckets; b += 3)
        buckets->addTick(b, bucketLabel(b));
    m_deviceTicker.reset(new QCPAxisTickerText);
    m_timeTicker.reset(new QCPAxisTickerText);
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
    QStringList labels;
    for (int b = 0; b < kBuckets; ++b)
        labels << bucketLabel(b);
    auto *rows = new QCPMarginGroup(m_plot);
    for (int row = 0; row < 2; ++row) {
        auto *rect = new QCPAxisRect(m_plot);
        grid->addElement(row, 0, rect);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, rows);
        QCPAxis *keys = rect->axis(QCPAxis::atBottom);
        QCPAxis *values = rect->axis(QCPAxis::atLeft);
        values->setTicker(buckets);
        values->setLabel(row == Queue ? tr("queue time") : tr("device time"));
        // Cells, not seconds: the time of each block is in its tick labels.
        keys->setTicker(m_timeTicker);
        keys->setSubTicks(false);
        keys->setTickLabels(row == Device);
        if (row == Queue) {
            QCPAxis *names = rect->axis(QCPAxis::atTop);
            names->setVisible(true);
            names->setTicker(m_deviceTicker);
            names->setSubTicks(false);
            names->setTickLength(0, 0);
            names->grid()->setVisible(false);
            // Side by side beyond eight members the names stand upright.
            names->setTickLabelRotation(m_devices.size() > 8 ? -90 : 0);
            m_plot->setMinimumHeight(m_devices.size() > 8 ? 380 : 300); // the rows keep their height
            connect(keys, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), names,
                    qOverload<const QCPRange &>(&QCPAxis::setRange));
        }
        auto *colorMap = new QCPColorMap(keys, values);
        colorMap->setGradient(gradient);
        colorMap->setInterpolate(false);
        colorMap->setColorScale(m_scale);
        colorMap->setName(row == Queue ? tr("queue time") : tr("device time"));
        colorMap->setProperty("valueLabels", labels);
        colorMap->setProperty("keyBlocksLabel", tr("device"));
        // The settings changed: dashed lines up every block, joined outside
        // the rect (one curve a row instead of an item per block).
        auto *lines = new QCPCurve(keys, values);
        lines->setPen(seriesPen(2, Qt::DashLine));
        setSeries(lines, kSeriesText);
        m_maps[size_t(row)] = colorMap;
        m_rects[size_t(row)] = rect;
        m_markerLines[size_t(row)] = lines;
    }
    m_layoutDirty = false;
    applyPlotPalette(m_plot);
}

// The shown span in whole-second columns (as few seconds each as keep a
// device within kMaxColumns and all of them within kMaxCells), each the sum
// of its one-second bins, the columns at whole multiples of their width so
// that a bin stays in its column as time goes on; empty cells transparent;
// the buckets shown are the ones with counts (at least eight), one colour
// scale for all.
void LatencyHeatmap::fillMaps()
{
    const auto n = int(m_devices.size());
    const int perColumn = std::max(
        {1, (m_windowSeconds + kMaxColumns - 1) / kMaxColumns, (m_windowSeconds * n + kMaxCells - 1) / kMaxCells});
    const int columns = (m_windowSeconds + perColumn - 1) / perColumn;
    const int gap = n > 1 ? std::max(1, columns / 8) : 0;
    const double end = std::ceil(std::max(m_lastT, double(m_windowSeconds)) / perColumn) * perColumn;
    const double start = end - double(columns) * perColumn;
    m_secondsPerColumn = perColumn;
    m_columns = columns;
    m_gap = gap;
    m_columnsStart = start;
    const int stride = columns + gap;
    const int cells = n * stride - gap;
    int lowest = kBuckets, highest = -1;
    double most = 1;
    std::array<std::vector<double>, 2> counts;
    for (auto &row : counts)
        row.assign(size_t(cells) * kBuckets, 0.0);
    for (int i = 0; i < n; ++i) {
        const auto it = m_bins.constFind(m_devices.at(i));
        if (it == m_bins.cend())
            continue;
        // Newest first, down to the span's start.
        for (auto bin = it->crbegin(); bin != it->crend() && double(bin->second) >= start; ++bin) {
            const auto c = qint64(std::floor((double(bin->second) - start) / perColumn));
            if (c >= columns)
                continue;
            const size_t at = size_t(i * stride + int(c)) * kBuckets;
            for (int b = 0; b < kBuckets; ++b) {
                counts[Queue][at + size_t(b)] += double(bin->queue[size_t(b)]);
                counts[Device][at + size_t(b)] += double(bin->device[size_t(b)]);
            }
        }
    }
    for (int row = 0; row < 2; ++row) {
        QCPColorMapData *grid = m_maps[size_t(row)]->data();
        if (grid->keySize() != cells || grid->valueSize() != kBuckets)
            grid->setSize(cells, kBuckets);
        grid->setRange(QCPRange(0, std::max(1, cells - 1)), QCPRange(0, kBuckets - 1));
        for (int c = 0; c < cells; ++c) {
            for (int b = 0; b < kBuckets; ++b) {
                const double v = counts[size_t(row)][size_t(c) * kBuckets + size_t(b)];
                grid->setCell(c, b, v > 0 ? v : std::nan(""));
                if (v > 0) {
                    lowest = std::min(lowest, b);
                    highest = std::max(highest, b);
                    most = std::max(most, v);
                }
            }
        }
    }
    // For the table: each column's device and the middle of its seconds
    // (made again only when the columns moved: a third of a refresh).
    if (m_maps[Queue]->property("keyValues").toList().value(0) != QVariant(start + 0.5 * perColumn)
        || m_maps[Queue]->property("keyBlocks").toStringList().size() != cells) {
        QStringList blocks;
        QVariantList keys;
        blocks.reserve(cells);
        keys.reserve(cells);
        for (int c = 0; c < cells; ++c) {
            const bool inBlock = c % stride < columns;
            blocks << (inBlock ? m_devices.at(c / stride) : QString());
            keys << (inBlock ? QVariant(start + (c % stride + 0.5) * perColumn) : QVariant());
        }
        for (QCPColorMap *colorMap : m_maps) {
            colorMap->setProperty("keyBlocks", blocks);
            colorMap->setProperty("keyValues", keys);
        }
    }
    // Names over their blocks; a tick (and its grid line) at each block's
    // edges, the time under the first block's start and every block's end,
    // or, once blocks are too narrow for their numbers, in the axis's label.
    const QLocale locale;
    m_deviceTicker->clear();
    m_timeTicker->clear();
    for (int i = 0; i < n; ++i) {
        m_deviceTicker->addTick(keyOf(i, start + columns * perColumn / 2.0), m_devices.at(i));
        m_timeTicker->addTick(keyOf(i, start), i == 0 && n <= 8 ? locale.toString(start, 'f', 0) : QString());
        m_timeTicker->addTick(keyOf(i, end), n <= 8 ? locale.toString(end, 'f', 0) : QString());
    }
    m_rects[Device]->axis(QCPAxis::atBottom)->setLabel(
        n <= 8 ? tr("seconds")
               : tr("seconds %1 to %2 in each device's block").arg(locale.toString(start, 'f', 0),
                                                                  locale.toString(end, 'f', 0)));
    if (highest < 0) {
        lowest = 2;
        highest = 9;
    }
    const int top = std::min(kBuckets - 1, std::max(highest + 1, lowest + 7));
    for (QCPAxisRect *rect : m_rects) {
        rect->axis(QCPAxis::atBottom)->setRange(-0.5, cells - 0.5);
        rect->axis(QCPAxis::atLeft)->setRange(std::max(0, lowest - 1) - 0.5, top + 0.5);
    }
    if (m_scale)
        m_scale->setDataRange(QCPRange(1, std::max(most, 10.0)));
}

// Each marker in the span: a dashed line up every block, in both rows (one
// curve per row, going up one block and down the next, its turns outside
// the rect), and its label once, at the top of the first block.
void LatencyHeatmap::drawMarkers()
{
    m_plot->clearItems();
    const double end = m_columnsStart + double(m_columns) * m_secondsPerColumn;
    QVector<double> keys, values;
    double outside = -1e3;
    for (const Marker &marker : m_markers) {
        if (marker.t < m_columnsStart || marker.t > end)
            continue;
        for (qsizetype i = 0; i < m_devices.size(); ++i) {
            const double key = keyOf(i, marker.t);
            keys << key << key;
            values << outside << -outside;
            outside = -outside;
        }
        QCPAxisRect *first = m_rects[Queue];
        auto *text = new QCPItemText(m_plot);
        text->setClipAxisRect(first);
        text->position->setAxes(first->axis(QCPAxis::atBottom), first->axis(QCPAxis::atLeft));
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(keyOf(0, marker.t), 0.02);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setPadding(QMargins(4, 0, 0, 0));
        text->setText(marker.label);
        setSeries(text, kSeriesText);
    }
    for (QCPCurve *lines : m_markerLines)
        lines->setData(keys, values);
}

void LatencyHeatmap::refresh()
{
    if (!m_dirty && !m_layoutDirty)
        return;
    if (m_layoutDirty)
        rebuildLayout();
    if (m_maps[Queue]) {
        fillMaps();
        drawMarkers(); // its items take their colours from setSeries()
    }
    m_dirty = false;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace blocktune
