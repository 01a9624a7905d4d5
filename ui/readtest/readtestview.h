#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>

class QFormLayout;

namespace blocktune {

class ConsoleSession;
class Machine;
class ReadTest;
class DeviceModel;
struct HistoryRecord;
struct ReadTestProgress;
struct ReadTestResult;
struct ReadTestSpec;
struct SweepResult;

/// The console's read test: runs `seq`, `server`, `mixed` or `concurrent`
/// on a device (or a readahead sweep of one of them) and shows
///   - a card per stream (device, offset, role, live MB/s and sparkline,
///     reads in flight, request size), side by side,
///   - the live throughput of every stream over all runs, run boundaries
///     marked (100 ms intervals, redrawn about ten times a second),
///   - the results as a sortable table (runs a, b, c per stream; mean, min,
///     max, spread; Jain's fairness), copied as dd's text or exported as
///     CSV and JSON, and the report as dd prints it,
///   - for a sweep, the curve: MB/s and average request size against
///     read_ahead_kb, with the knee marked.
/// Every finished test and sweep is kept in the history (core/history).
/// On a recorded tree Start is disabled, with the reason.
/// The test runs on a worker thread; Stop (or closing the view) cancels it
/// within 200 ms, and a sweep puts the original readahead back on every path
/// (a crash is covered by the tuning journal).
///
/// Embedding: `auto *view = new ReadTestView(session, machine, parent);` then
/// `view->setDevice(name)`, e.g. from DeviceTree::deviceSelected. Sweeps
/// change settings through the console's one TuningSession (a job's
/// SessionPort, on the session thread), as the tuning panel does (direct
/// as root, else the one blocktune-helper).
class ReadTestView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReadTestView)

public:
    /// Tests read the devices of `machine` (the one `session` works on);
    /// sweeps change readahead through that session (one helper for the
    /// whole console). What the machine can do is asked here, once.
    ReadTestView(ConsoleSession *session, const Machine &machine, QWidget *parent = nullptr);
    /// Cancels a running test and waits for it (and a sweep's restore).
    ~ReadTestView() override;

    QString device() const;
    bool isRunning() const;
    /// The text shown under the plots: the runs, the summary, the counters.
    QString reportText() const;
    /// The sweep's points so far: x = read_ahead_kb, y = MB/s.
    QList<QPointF> sweepCurve() const;
    /// The knee marked on the curve: the smallest readahead within 5% of
    /// the best point.
    std::optional<quint64> sweepKnee() const;
    /// The last test's report as dd prints it ("Copy as text").
    QString resultText() const;
    /// The results table as CSV, and the whole result as JSON (the CLI's
    /// schema, intervals included). false and a message() if not written.
    bool exportCsv(const QString &path);
    bool exportJson(const QString &path);

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
    /// A finished test or sweep was kept in the history (`id` > 0), or
    /// not (`id` 0; `note` says why). A damaged database set aside is in
    /// `note` too. The result is on screen either way.
    void historyRecorded(qint64 id, const QString &note);

private:
    // The constructor's steps: build the widgets, lay them out, wire them.
    void buildWidgets();
    void buildForm();
    void buildPlots();
    void buildCards();
    void buildResults();
    void layOut();
    QFormLayout *formLayout();
    void connectSignals();
    /// Makes the worker, wires its reports and starts its thread.
    void startWorker();
    void updateEnabled();

    // start()'s phases. Each gives false after refuse() when it refuses.
    bool refuse(const QString &why);
    bool refuseRecorded();
    bool readForm(ReadTestSpec &spec);
    bool startSweep(const DeviceModel &model, const ReadTestSpec &spec);
    bool startTest(const DeviceModel &model, const ReadTestSpec &spec);
    void resetForRun(const ReadTest &test, const ReadTestSpec &spec);

    // The worker's reports.
    void showProgress(const ReadTestProgress &p);
    void markRunStart(const QString &label);
    void showTestResult(const ReadTestResult &r);
    void showSweepResult(const SweepResult &r);
    void finish(bool ok, const QString &text, const QStringList &errors);

    void setupStreams(const ReadTest &test);
    void updateCurve();
    /// The Latency tab: run `label`'s read latencies, one line per stream.
    void showLatency(const QString &label);
    void keep(const HistoryRecord &record);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace blocktune
