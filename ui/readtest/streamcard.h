#pragma once
// One stream of a running read test, as a card: device, offset, role, the
// live MB/s figure with a sparkline, reads in flight and the read size.

#include <QFrame>
#include <QList>

#include <optional>

class QLabel;

namespace blocktune {

/// The last minute of a stream's MB/s as a line; painted, not a plot, so
/// eight cards cost nothing to redraw.
class Sparkline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Sparkline)

public:
    /// In series colour `series` (theme.h), as the stream's line in the live plot.
    explicit Sparkline(int series, QWidget *parent = nullptr);
    ~Sparkline() override = default;
    void add(double value);
    /// A run boundary: a tick at the current end of the line.
    void markBoundary();
    QSize sizeHint() const override { return {160, 36}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int m_series;
    QList<double> m_values;
    QList<qsizetype> m_boundaries; ///< indices into m_values
    qsizetype m_dropped = 0;       ///< values shifted out on the left
};

class StreamCard final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StreamCard)

public:
    /// `role` is "measured" or "background" (or "random" for mixed noise);
    /// `series` the stream's colour in the live plot (theme.h's seriesColor).
    StreamCard(const QString &name, const QString &device, quint64 offset, const QString &role, int series,
               QWidget *parent = nullptr);
    ~StreamCard() override = default;

    QString name() const { return m_name; }
    QString role() const { return m_role; }
    /// The MB/s figure on the card, as shown ("512 MB/s"): live while a run
    /// reads, then the median of the finished runs.
    QString rateText() const;
    /// The finished runs beside the figure: "a 304 · b 476 · c 1492 MB/s,
    /// 304–1492".
    QString runsText() const;
    /// Why the runs disagree (core's describeDisagreement), or empty when
    /// they agree within a stall.
    QString disagreementText() const;

    /// One interval: bytes and reads delivered in `seconds`, the mean
    /// latency of those reads.
    void addInterval(quint64 bytes, quint64 reads, double seconds, double meanLatencyMs);
    /// A run ended: its MB/s, and the device's own average request size.
    /// The card's figure becomes the median of the runs so far.
    void finishRun(const QString &label, double mbPerSec, std::optional<double> deviceRequestKiB);
    void startRun(const QString &label);

private:
    QString finishedRunsText() const;

    QString m_name;
    QString m_role;
    QLabel *m_rate = nullptr;
    QLabel *m_inflight = nullptr;
    QLabel *m_request = nullptr;
    QLabel *m_runs = nullptr;
    QLabel *m_disagree = nullptr;
    Sparkline *m_spark = nullptr;
    QStringList m_labels;  ///< the finished runs
    QList<double> m_rates; ///< their MB/s
    QString m_disagreement;
};

} // namespace blocktune
