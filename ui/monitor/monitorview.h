#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>

namespace blocktune {

class DeviceModel;

/// The console's live monitor: five stacked plots sharing one time axis,
/// for the devices given to setDevices():
///   throughput (MB/s read, write dashed), interrupts/s (all, and each
///   device's lines), average read request size (KiB), queue depth (aqu-sz,
///   in-flight dotted), and md member balance (each member's share of the
///   bytes read, %, and Jain's index x 100).
/// Sampling runs on its own thread (core's MonitorThread); plots are
/// redrawn at most ten times a second whatever the sampling rate. One hour
/// of every series is kept (bounded memory), the plots show the chosen span.
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
    ~MonitorView() override;

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
    /// The span the plots show, 10 s to 1 h (default 120 s).
    void setWindowSeconds(int seconds);
    /// Adds (or with no members removes) a group whose balance is plotted,
    /// such as two partitions exported by one server, checked against
    /// `model` as the CLI's --group is (core's makeUserGroup). Returns why it
    /// was refused, or an empty string.
    QString setUserGroup(const QString &name, const QStringList &members, const blocktune::DeviceModel &model);

Q_SIGNALS:
    /// After each redraw: the newest sample's time (seconds since sampling
    /// started).
    void plotted(double t);
    void failed(const QString &message);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace blocktune
