#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <array>
#include <deque>

class QCustomPlot;
class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPTextElement;

namespace blocktune {

struct Sample;

/// The block layer's latency as a heatmap (core's BPF probe, through
/// Sample's DeviceRates::latency): time across, the log2 latency buckets
/// up (1 us to 2^32 us), the number of requests as colour (log scale, one
/// scale for every cell). Two rows: queue time (insert to issue) and device
/// time (issue to completion), reads and writes together. One column per
/// device: the selected device, or the members of its md array, dm device
/// or user group side by side, so that a slow member stands out. Vertical
/// markers where this console changed a setting. Counts are kept in
/// one-second bins for an hour; the shown span is drawn in at most 600
/// columns. Where no histograms come, it says why instead.
class LatencyHeatmap final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LatencyHeatmap)

public:
    enum Row { Queue, Device };
    static constexpr int kBuckets = 32;
    static constexpr int kKeptSeconds = 3600;
    static constexpr int kMaxColumns = 600;

    explicit LatencyHeatmap(QWidget *parent = nullptr);
    ~LatencyHeatmap() override;

    /// The columns: one device, or a group's members (kernel names). Clears.
    void setDevices(const QStringList &devices);
    QStringList devices() const { return m_devices; }
    /// The span shown, in seconds, ending at the newest sample.
    void setWindowSeconds(int seconds);
    /// Takes the shown devices' histograms of one sample (or why there are
    /// none). Redraws on refresh().
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
    /// The colour map of one cell of the grid (nullptr when not shown).
    QCPColorMap *map(const QString &device, Row row) const;
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
    const Bin *binAt(const QString &device, qint64 second) const;

    QCustomPlot *m_plot = nullptr;
    QCPTextElement *m_title = nullptr;
    QCPColorScale *m_scale = nullptr;
    QStringList m_devices;
    QHash<QString, std::deque<Bin>> m_bins;
    QHash<QString, std::array<QCPColorMap *, 2>> m_maps;
    QList<QCPAxisRect *> m_rects;
    std::deque<Marker> m_markers;
    QString m_unavailable;
    double m_lastT = 0;
    int m_windowSeconds = 120;
    bool m_dirty = false;
    bool m_layoutDirty = true;
};

} // namespace blocktune
