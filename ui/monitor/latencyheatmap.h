#pragma once

#include <QHash>
#include <QSharedPointer>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <array>
#include <deque>

class QCustomPlot;
class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPCurve;
class QCPAxisTickerText;
class QCPTextElement;

namespace blocktune {

struct Sample;

/// The block layer's latency as a heatmap (core's BPF probe, through
/// Sample's DeviceRates::latency): time across, the log2 latency buckets
/// up (1 us to 2^32 us), the number of requests as colour (log scale, one
/// scale for every cell). Two rows: queue time (insert to issue) and device
/// time (issue to completion), reads and writes together. Each row is one
/// colour map holding a block per device side by side: the selected device,
/// or the members of its md array, dm device or user group, so that a slow
/// member stands out. (One map and one axis rect per device cost a hundred
/// devices' worth of axes, ticks and images at every redraw.) Vertical
/// markers where this console changed a setting. Counts are kept in
/// one-second bins for an hour; the shown span is drawn in at most 600
/// columns a device and kMaxCells columns in all, each a whole number of
/// seconds. Where no histograms come, it says why instead.
class LatencyHeatmap final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LatencyHeatmap)

public:
    enum Row { Queue, Device };
    static constexpr int kBuckets = 32;
    static constexpr int kKeptSeconds = 3600;
    static constexpr int kMaxColumns = 600;
    /// Columns of one row, all devices' blocks and the gaps between them.
    static constexpr int kMaxCells = 1200;

    explicit LatencyHeatmap(QWidget *parent = nullptr);
    ~LatencyHeatmap() override;

    /// The columns: one device, or a group's members (kernel names). Clears.
    void setDevices(const QStringList &devices);
    QStringList devices() const { return m_devices; }
    /// The span shown, in seconds, ending at the newest sample.
    void setWindowSeconds(int seconds);
    /// Takes the shown devices' histograms of one sample (or why there are
    /// none). Redraws on refresh(), once the sample's second is a new one.
    void addSample(const Sample &sample);
    /// A vertical line at `t` (seconds on the monitor's time axis).
    void addMarker(double t, const QString &label);
    void clear();
    /// Rebuilds the maps when something changed since the last call.
    void refresh();

    /// What the heatmap says instead of drawing; empty while it draws.
    QString unavailableText() const { return m_unavailable; }
    /// Requests counted for `device` in `row`, bucket `bucket`, in the
    /// one-second bin holding `t` (0 when none).
    quint64 countAt(const QString &device, Row row, double t, int bucket) const;
    /// The colour map of one row (nullptr when not shown).
    QCPColorMap *map(Row row) const { return m_maps[size_t(row)]; }
    /// What the map shows for `device` in `row` at bucket `bucket` in the
    /// column holding `t`: the requests of that column's seconds, NaN when
    /// none (or not shown).
    double shownCount(const QString &device, Row row, double t, int bucket) const;
    /// Seconds each column of the maps adds up (after refresh()).
    int secondsPerColumn() const { return m_secondsPerColumn; }
    QCustomPlot *plot() const { return m_plot; }
    int markerCount() const { return int(m_markers.size()); }

private:
    struct Bin
    {
        qint64 second = 0;
        std::array<quint64, kBuckets> queue{};
        std::array<quint64, kBuckets> device{};
    };
    struct Marker
    {
        double t = 0;
        QString label;
    };
    void rebuildLayout();
    void fillMaps();
    void drawMarkers();
    const Bin *binAt(const QString &device, qint64 second) const;
    /// The key (in cells) of time `t` in the block of device `index`.
    double keyOf(qsizetype index, double t) const;

    QCustomPlot *m_plot = nullptr;
    QCPTextElement *m_title = nullptr;
    QCPColorScale *m_scale = nullptr;
    QStringList m_devices;
    QHash<QString, std::deque<Bin>> m_bins;
    std::array<QCPColorMap *, 2> m_maps{};
    std::array<QCPAxisRect *, 2> m_rects{};
    std::array<QCPCurve *, 2> m_markerLines{};
    QSharedPointer<QCPAxisTickerText> m_deviceTicker;
    QSharedPointer<QCPAxisTickerText> m_timeTicker;
    std::deque<Marker> m_markers;
    QString m_unavailable;
    double m_lastT = 0;
    qint64 m_lastSecond = -1; // of the newest sample
    int m_windowSeconds = 120;
    // The blocks as last filled: each device's columns from m_columnsStart
    // (seconds), m_secondsPerColumn each, then m_gap empty columns.
    int m_secondsPerColumn = 1;
    int m_columns = 0;
    int m_gap = 0;
    double m_columnsStart = 0;
    bool m_dirty = false;
    bool m_layoutDirty = true;
};

} // namespace blocktune
