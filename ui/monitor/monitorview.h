#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>

namespace blocktune {

class Clock;
class CounterSource;
class DeviceModel;
class LatencyHeatmap;
class LatencySource;
class MonitorWorker;
class ReadaheadSource;
class ReadaheadView;
template<typename T>
class Result;

/// The console's live monitor, for the devices given to setDevices(): four
/// stacked plots sharing one time axis, throughput (MB/s read, write
/// dashed), interrupts/s (all, and each device's lines), average read
/// request size (KiB), queue depth (aqu-sz, and requests in flight as a
/// one-second step average), and, for a device with a group (an md array's
/// members, a dm device's slaves, a user group), the member balance as a
/// bar chart: each member's share of the bytes read over the last ten
/// seconds, with Jain's index. A device that vanishes leaves a gap.
/// "Latency" adds a heatmap under them (LatencyHeatmap: queue and device
/// time of every request, the members of a group side by side, marks where
/// this console changed a setting); "Readahead" what the kernel's readahead
/// does for each device (ReadaheadView: windows by kind, their size against
/// the cap, pages used and wasted, wait; the same marks), its source opened
/// off the GUI thread when turned on and destroyed when turned off.
/// Sampling runs on its own thread (core's MonitorThread); plots are
/// redrawn at most ten times a second whatever the sampling rate, never
/// while the view is off screen, and no sooner after a redraw than three
/// times its duration. Beyond 12 devices the legend is capped and the lines
/// are thin through one-second means. One hour
/// of every series is kept (bounded memory); the plots show the chosen span
/// (30 s to 1 h, also by the mouse wheel), and can be paused and exported.
///
/// Embedding: `auto *view = new MonitorView(sysroot, parent);` then
/// `view->setDevices({name})`, e.g. from DeviceTree::deviceSelected.
class MonitorView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MonitorView)

public:
    /// `sysroot` empty = the live machine; else a recorded tree.
    explicit MonitorView(const QString &sysroot, QWidget *parent = nullptr);
    /// With its counter source (the session's measurer's: this machine or its host) and clock
    /// (tests give their own and drive worker()->tick()).
    MonitorView(const QString &sysroot, std::unique_ptr<CounterSource> source, std::unique_ptr<Clock> clock,
                QWidget *parent = nullptr);
    ~MonitorView() override;

    /// The sampling worker (on its own thread: call it with invokeMethod).
    MonitorWorker *worker() const;
    /// Seconds over which the balance bars add up the bytes read.
    static constexpr int kBalanceSeconds = 10;
    /// The balance chart's heading: group, Jain's index, or that it is idle.
    /// Empty when no group is shown.
    QString balanceTitle() const;
    bool isPaused() const;
    bool isLatencyShown() const;
    /// Where the heatmap's histograms come from instead of the worker's own
    /// loader (a host's window: the host's agent). Takes effect at the next
    /// Latency on.
    void setLatencyLoader(std::function<Result<std::unique_ptr<LatencySource>>()> loader);
    /// The heatmap under the plots (ui/monitor/latencyheatmap.h).
    LatencyHeatmap *latencyHeatmap() const;
    bool isReadaheadShown() const;
    /// Where the Readahead view's figures come from: the machine's
    /// openReadaheadSource(), called on a thread of its own when the view is
    /// turned on (it blocks while the program loads). Without one the view
    /// says there is no source.
    void setReadaheadLoader(std::function<Result<std::unique_ptr<ReadaheadSource>>()> loader);
    /// The machine cannot be watched (its capabilities' noReadaheadProbe):
    /// the Readahead view says so instead of plotting, and loads nothing.
    void setReadaheadUnavailable(const QString &why);
    /// The Readahead view under the plots (ui/monitor/readaheadview.h).
    ReadaheadView *readaheadView() const;
    /// Saves the plots as they are on screen; false (and failed()) on error.
    bool exportPng(const QString &path);

    QStringList devices() const;
    int intervalMs() const;
    int windowSeconds() const;
    /// What the status line says (last figures, or the last error).
    QString statusText() const;

public Q_SLOTS:
    /// Kernel names to plot (md arrays bring their members' balance). An
    /// empty list stops sampling until devices are given again.
    void setDevices(const QStringList &devices);
    /// Sampling interval, 10 ms to 1 h (default 100 ms). Restarts the plots.
    void setIntervalMs(int ms);
    /// The span the plots show, 30 s to 1 h (default 120 s).
    void setWindowSeconds(int seconds);
    /// Freezes the plots (sampling and the history go on); unpausing shows
    /// what came meanwhile.
    void setPaused(bool paused);
    /// Shows the latency heatmap and turns the sampler's BPF histograms on
    /// (or off and hides it). Where they cannot run it says why.
    void setLatencyShown(bool shown);
    /// Shows the Readahead view and opens the readahead source (or closes
    /// it and hides the view). While it loads, and where it cannot run, the
    /// view says so.
    void setReadaheadShown(bool shown);
    /// A marker on the heatmap and the Readahead view at the newest sample:
    /// this console changed a setting (`label` says which).
    void markSettingChange(const QString &label);
    /// Adds (or with no members removes) a group whose balance is plotted,
    /// such as two partitions exported by one server, checked against
    /// `model` as the CLI's --group is (core's makeUserGroup). Returns why it
    /// was refused, or an empty string.
    QString setUserGroup(const QString &name, const QStringList &members, const blocktune::DeviceModel &model);
    /// The view shows a recording (a recorded tree, a snapshot), whose
    /// counters are frozen: it samples nothing and says so. Where the
    /// recording holds two readings of the counters (`blocktune-cli
    /// record`: proc/diskstats and proc/diskstats.2) it replays that one
    /// interval as a sample instead.
    void setRecording(bool recording);

public:
    bool isRecording() const;
    /// What the view says about a recording (empty on a live machine).
    QString recordingText() const;

Q_SIGNALS:
    /// After each redraw: the newest sample's time (seconds since sampling
    /// started).
    void plotted(double t);
    void failed(const QString &message);

protected:
    void resizeEvent(QResizeEvent *event) override;
    /// Shown again (its tab chosen), it draws what came meanwhile at once.
    void showEvent(QShowEvent *event) override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace blocktune
