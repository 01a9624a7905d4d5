#include "streamcard.h"

#include "format.h"
#include "theme.h"
#include "readtest/readtest.h"

#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QVBoxLayout>

#include <algorithm>

namespace blocktune {

namespace {
constexpr qsizetype kSparkPoints = 150; // 15 s at the engine's 100 ms interval

/// The bar that ties a card to its line: painted from the palette at each
/// paint, so a theme change recolours it.
class SeriesBar final : public QWidget
{
public:
    SeriesBar(int series, QWidget *parent) : QWidget(parent), m_series(series) { setFixedHeight(3); }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter(this).fillRect(rect(), seriesColor(m_series, palette()));
    }

private:
    int m_series;
};
}

Sparkline::Sparkline(int series, QWidget *parent) : QWidget(parent), m_series(series)
{
    setMinimumHeight(30);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void Sparkline::add(double value)
{
    m_values << value;
    if (m_values.size() > kSparkPoints) {
        m_values.removeFirst();
        ++m_dropped;
    }
    update();
}

void Sparkline::markBoundary()
{
    m_boundaries << m_dropped + m_values.size();
    update();
}

void Sparkline::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = QRectF(rect()).adjusted(1, 2, -1, -2);
    p.fillRect(rect(), palette().base());
    if (m_values.size() < 2)
        return;
    const double top = std::max(1.0, *std::max_element(m_values.cbegin(), m_values.cend()));
    const double step = r.width() / double(kSparkPoints - 1);
    auto xAt = [&](qsizetype i) { return r.left() + double(i) * step; };
    p.setPen(QPen(palette().mid().color(), 1, Qt::DotLine));
    for (qsizetype b : m_boundaries) {
        const qsizetype i = b - m_dropped;
        if (i > 0 && i < m_values.size())
            p.drawLine(QPointF(xAt(i), r.top()), QPointF(xAt(i), r.bottom()));
    }
    QPainterPath path;
    for (qsizetype i = 0; i < m_values.size(); ++i) {
        const QPointF pt(xAt(i), r.bottom() - m_values.at(i) / top * r.height());
        i == 0 ? path.moveTo(pt) : path.lineTo(pt);
    }
    p.setPen(QPen(seriesColor(m_series, palette()), 1.5));
    p.drawPath(path);
}

StreamCard::StreamCard(const QString &name, const QString &device, quint64 offset, const QString &role,
                       int series, QWidget *parent)
    : QFrame(parent), m_name(name), m_role(role)
{
    setObjectName(QStringLiteral("streamCard"));
    setFrameShape(QFrame::StyledPanel);
    setMinimumWidth(170);
    setMaximumWidth(280);
    setAccessibleName(tr("stream %1").arg(name));

    auto *title = new QLabel(this);
    title->setText(QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()));
    auto *where = new QLabel(tr("%1 from %2 · %3").arg(device, format::size(offset), role), this);
    where->setStyleSheet(QStringLiteral("color: palette(placeholder-text)"));
    setAccessibleDescription(where->text()); // the device, the offset, the role
    // A colour bar ties the card to its line in the live plot.
    auto *bar = new SeriesBar(series, this);
    m_rate = new QLabel(QStringLiteral("–"), this);
    m_rate->setObjectName(QStringLiteral("rate"));
    QFont big = m_rate->font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    m_rate->setFont(big);
    m_spark = new Sparkline(series, this);
    m_inflight = new QLabel(this);
    m_request = new QLabel(this);
    m_runs = new QLabel(this);
    m_runs->setObjectName(QStringLiteral("runs"));
    m_runs->setWordWrap(true);
    m_disagree = new QLabel(this);
    m_disagree->setObjectName(QStringLiteral("disagree"));
    m_disagree->setWordWrap(true);
    m_disagree->hide();
    followPalette(m_disagree, [this] {
        QPalette own = m_disagree->palette();
        own.setColor(QPalette::WindowText, warningTextColor(palette()));
        m_disagree->setPalette(own);
    });
    m_inflight->setToolTip(tr("Reads outstanding on average in the last interval (reads/s × mean latency)"));
    m_request->setToolTip(tr("Bytes per read the stream issued; after a run, the device's own average "
                             "request size (/proc/diskstats)"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(2);
    layout->addWidget(bar);
    layout->addWidget(title);
    layout->addWidget(where);
    layout->addWidget(m_rate);
    layout->addWidget(m_spark);
    layout->addWidget(m_inflight);
    layout->addWidget(m_request);
    layout->addWidget(m_runs);
    layout->addWidget(m_disagree);
    layout->addStretch();
}

QString StreamCard::rateText() const
{
    return m_rate->text();
}

void StreamCard::addInterval(quint64 bytes, quint64 reads, double seconds, double meanLatencyMs)
{
    if (seconds <= 0)
        return;
    const double mbps = double(bytes) / seconds / 1e6;
    m_rate->setText(format::rate(mbps));
    m_spark->add(mbps);
    // Little's law: outstanding = arrival rate x time in the system.
    const double inflight = double(reads) / seconds * meanLatencyMs / 1000.0;
    m_inflight->setText(tr("in flight %1").arg(format::number(inflight, 1)));
    if (reads > 0)
        m_request->setText(tr("read size %1").arg(format::kib(double(bytes) / double(reads) / 1024.0, 0)));
}

QString StreamCard::runsText() const
{
    return m_runs->text();
}

QString StreamCard::disagreementText() const
{
    return m_disagreement;
}

// "a 304 · b 476 · c 1492 MB/s, 304–1492": each run, then the range.
QString StreamCard::finishedRunsText() const
{
    QStringList parts;
    for (qsizetype i = 0; i < m_labels.size(); ++i)
        parts << QStringLiteral("%1 %2").arg(m_labels.at(i), format::rate(m_rates.at(i)).chopped(5));
    QString text = parts.join(QStringLiteral(" · ")) + QStringLiteral(" MB/s");
    if (m_rates.size() > 1) {
        const auto [lo, hi] = std::minmax_element(m_rates.cbegin(), m_rates.cend());
        text += tr(", %1–%2").arg(format::rate(*lo).chopped(5), format::rate(*hi).chopped(5));
    }
    return text;
}

void StreamCard::startRun(const QString &label)
{
    m_spark->markBoundary();
    m_runs->setText(m_labels.isEmpty() ? tr("run %1").arg(label) : finishedRunsText() + tr(" · run %1").arg(label));
}

void StreamCard::finishRun(const QString &label, double mbPerSec, std::optional<double> deviceRequestKiB)
{
    m_labels << label;
    m_rates << mbPerSec;
    m_runs->setText(finishedRunsText());
    // The figure is the median of the runs so far, as the test's result
    // says it: one slow (or lucky) run does not become the headline.
    m_rate->setText(format::rate(medianOf(m_rates)));
    m_rate->setToolTip(m_rates.size() > 1 ? tr("The median of runs %1").arg(m_labels.join(QStringLiteral(", ")))
                                          : tr("Run %1").arg(label));
    const auto d = runDisagreement(m_labels, m_rates);
    m_disagreement = d ? describeDisagreement(*d, format::ungrouped()) : QString();
    m_disagree->setVisible(d.has_value());
    if (d) {
        m_disagree->setText(d->slower ? tr("⚠ Runs disagree: %1 was %2× slower")
                                            .arg(d->first ? tr("the first") : tr("run %1").arg(d->label),
                                                 format::number(d->factor, 1))
                                      : tr("⚠ Runs disagree: run %1 was %2× faster")
                                            .arg(d->label, format::number(d->factor, 1)));
        m_disagree->setToolTip(m_disagreement);
    }
    if (deviceRequestKiB)
        m_request->setText(tr("device request %1").arg(format::kib(*deviceRequestKiB, 0)));
}

} // namespace blocktune
