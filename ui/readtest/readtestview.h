#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <memory>

namespace blocktune {

class SessionThread;

/// The console's read test: runs `seq`, `server`, `mixed` or `concurrent`
/// on a device (or a readahead sweep of one of them) and shows
///   - the live throughput of every stream (100 ms intervals, redrawn about
///     ten times a second),
///   - the runs as dd prints them (a, b, c with mean, min, max, stdev), the
///     settings in force and the device's counters,
///   - for a sweep, the curve: MB/s and average request size against
///     read_ahead_kb.
/// The test runs on a worker thread; Stop (or closing the view) cancels it
/// within 200 ms, and a sweep puts the original readahead back on every path
/// (a crash is covered by the tuning journal).
///
/// Embedding: `auto *view = new ReadTestView(session, parent);` then
/// `view->setDevice(name)`, e.g. from DeviceTree::deviceSelected. Sweeps
/// change settings through the console's one TuningSession, as the tuning
/// panel does (direct as root, else the one blocktune-helper).
class ReadTestView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReadTestView)

public:
    /// Tests read the devices of `session`'s machine; sweeps change
    /// readahead through that session (one helper for the whole console).
    explicit ReadTestView(SessionThread *session, QWidget *parent = nullptr);
    /// Cancels a running test and waits for it (and a sweep's restore).
    ~ReadTestView() override;

    QString device() const;
    bool isRunning() const;
    /// The text shown under the plots: the runs, the summary, the counters.
    QString reportText() const;
    /// The sweep's points so far: x = read_ahead_kb, y = MB/s.
    QList<QPointF> sweepCurve() const;

public Q_SLOTS:
    void setDevice(const QString &name);
    /// Starts with the options in the form. Refused options (a size past
    /// the device's end, an unaligned --direct block...) give false and a
    /// message(), and nothing runs.
    bool start();
    /// Cancels; finished() follows within about 200 ms.
    void stop();

Q_SIGNALS:
    void started();
    /// `ok` is false after an I/O error, a failed setting or a cancel.
    void finished(bool ok);
    void message(const QString &text);
    /// After each redraw of the live plot: seconds into the current run.
    void progressed(double seconds);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace blocktune
