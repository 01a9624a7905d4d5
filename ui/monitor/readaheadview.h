#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <array>
#include <deque>
#include <optional>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPLegend;
class QLabel;
class QPushButton;

namespace blocktune {

struct Sample;

/// What the kernel's readahead does for the workload that runs now, live,
/// per device shown (core's readahead figures, through Sample's
/// DeviceRates::readahead): four plots on the monitor's time axis, windows
/// per second by kind (async solid, sync dashed, mmap dotted, forced
/// dash-dotted), the windows' median size against the cap (read_ahead_kb,
/// a pale band), pages read ahead per second that were used against those
/// wasted, and how long used pages waited; a line of the newest second's
/// figures above them, vertical marks where this console changed a setting,
/// and "How to read this". Ticks are added up into one-second points (at
/// 10 Hz a tick holds a window or two). Where there are no figures (the
/// probe loading, the machine cannot be watched, the probe refused) it says
/// why instead of plotting.
class ReadaheadView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReadaheadView)

public:
    /// The plots, top to bottom.
    enum Plot { Windows, WindowSize, Pages, Wait, PlotCount };
    static constexpr int kKeptSeconds = 3600;

    explicit ReadaheadView(QWidget *parent = nullptr);
    ~ReadaheadView() override;

    /// The devices shown, in the monitor's colours (its order). Clears.
    void setDevices(const QStringList &devices);
    QStringList devices() const { return m_devices; }
    /// The span shown, in seconds, ending at the newest sample.
    void setWindowSeconds(int seconds);
    /// Takes the shown devices' figures of one sample, or why there are none.
    void addSample(const Sample &sample);
    /// Says `text` instead of the plots (loading, or why it cannot watch)
    /// until a sample with figures comes.
    void showMessage(const QString &text);
    /// A vertical line at `t` (seconds on the monitor's time axis).
    void addMarker(double t, const QString &label);
    void clear();
    /// Redraws when something changed since the last call.
    void refresh();

    /// What the view says instead of plotting; empty while it plots.
    QString message() const { return m_message; }
    /// The newest second's figures per device, as the line above the plots says them.
    QString figuresText() const;
    /// "How to read this".
    static QString helpText();
    /// The value plotted for `device` in the one-second point holding `t`
    /// (`series`: "sync", "async", "mmap", "forced", "size", "cap", "used",
    /// "wasted", "wait"); NaN when none.
    double valueAt(const QString &device, const QString &series, double t) const;
    QCustomPlot *plot() const { return m_plot; }
    int markerCount() const { return int(m_markers.size()); }

private:
    /// One device's figures added up over one second.
    struct Bin
    {
        qint64 second = 0;
        double seconds = 0; ///< the ticks' intervals
        std::array<quint64, 4> windows{}; ///< by ReadaheadKind
        quint64 atCap = 0;
        quint64 sizedWindows = 0;
        double sizeKiBxWindows = 0; ///< each tick's p50 weighted by its windows
        quint64 used = 0;
        quint64 wasted = 0;
        quint64 waited = 0;
        double waitMsxPages = 0; ///< each tick's wait p50 weighted by its pages
        std::optional<quint64> capKiB;
    };
    struct Marker
    {
        double t = 0;
        QString label;
    };
    void buildPlot();
    QWidget *buildHeader();
    QCPGraph *graph(const QString &device, const QString &series);
    void fillGraphs();
    void drawMarkers();
    void showHelp();
    const Bin *binAt(const QString &device, qint64 second) const;
    static double valueOf(const Bin &bin, const QString &series);
    QString figuresOf(const QString &device) const;

    QCustomPlot *m_plot = nullptr;
    QWidget *m_plots = nullptr; ///< the plot or its table (PlotTableSwitch)
    QCPLegend *m_legend = nullptr;
    QLabel *m_figures = nullptr;
    QLabel *m_messageLabel = nullptr;
    QPushButton *m_help = nullptr;
    std::array<QCPAxisRect *, PlotCount> m_rects{};
    QHash<QString, QCPGraph *> m_graphs; ///< "DEVICE/series"
    QStringList m_devices;
    QHash<QString, std::deque<Bin>> m_bins;
    std::deque<Marker> m_markers;
    QString m_message;
    double m_lastT = 0;
    qint64 m_lastSecond = -1;
    int m_windowSeconds = 120;
    bool m_dirty = false;
};

} // namespace blocktune
