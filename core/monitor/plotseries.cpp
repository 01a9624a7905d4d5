#include "monitor.h"

#include <cmath>
#include <limits>

namespace blocktune {

PlotSeries::PlotSeries(Limits limits) : m_limits(limits), m_time(std::max<qsizetype>(1, limits.capacity))
{
    m_limits.capacity = m_time.capacity();
}

void PlotSeries::beginPoint(double t)
{
    m_time.push(t);
    // Every series gets the new point as a gap until set() fills it, so all
    // rings stay aligned with the time axis.
    const float gap = std::numeric_limits<float>::quiet_NaN();
    for (auto it = m_series.begin(); it != m_series.end(); ++it)
        it->push(gap);
}

bool PlotSeries::set(const QString &series, double value)
{
    if (m_time.isEmpty())
        return false;
    auto it = m_series.find(series);
    if (it == m_series.end()) {
        const qsizetype bytes = m_limits.capacity * qsizetype(sizeof(float));
        if (m_refused.contains(series) || m_seriesBytes + bytes > m_limits.budgetBytes) {
            m_refused.insert(series);
            return false;
        }
        RingBuffer<float> ring(m_limits.capacity);
        for (qsizetype i = 0; i < m_time.size(); ++i)
            ring.push(std::numeric_limits<float>::quiet_NaN());
        it = m_series.insert(series, std::move(ring));
        m_seriesBytes += bytes;
    }
    it->setLast(float(value));
    return true;
}

void PlotSeries::record(const Sample &sample)
{
    if (sample.baseline)
        return;
    beginPoint(sample.t);
    if (sample.interruptsPerSec)
        set(QStringLiteral("interrupts_per_s"), *sample.interruptsPerSec);
    for (const DeviceRates &d : sample.devices) {
        const QString prefix = d.name + u'/';
        set(prefix + u"read_mb_per_s", d.readMBps);
        set(prefix + u"write_mb_per_s", d.writeMBps);
        set(prefix + u"reads_per_s", d.readsPerSec);
        // No reads, no request size: a gap, not a dive to 0.
        set(prefix + u"avg_read_request_kb",
            d.reads > 0 ? d.avgReadRequestKiB : std::numeric_limits<double>::quiet_NaN());
        set(prefix + u"queue_depth", d.queueDepth);
        set(prefix + u"util_pct", d.utilPct);
        set(prefix + u"inflight", double(d.inFlight));
        if (d.irqPerSec)
            set(prefix + u"irq_per_s", *d.irqPerSec);
    }
    for (const GroupBalance &g : sample.groups) {
        const QString prefix = g.name + u'/';
        if (g.bytes.jain)
            set(prefix + u"jain", *g.bytes.jain);
        if (g.bytes.cv)
            set(prefix + u"cv", *g.bytes.cv);
        for (const MemberShare &m : g.members)
            if (m.share)
                set(prefix + m.name + u"/share", *m.share);
    }
}

QStringList PlotSeries::seriesNames() const
{
    QStringList names = m_series.keys();
    names.sort();
    return names;
}

double PlotSeries::valueAt(const QString &series, qsizetype i) const
{
    const auto it = m_series.constFind(series);
    if (it == m_series.cend() || i < 0 || i >= it->size())
        return std::numeric_limits<double>::quiet_NaN();
    return double(it->at(i));
}

qsizetype PlotSeries::memoryBytes() const
{
    qsizetype bytes = m_time.memoryBytes();
    for (const auto &ring : m_series)
        bytes += ring.memoryBytes();
    return bytes;
}

void PlotSeries::clear()
{
    m_time.clear();
    m_series.clear();
    m_refused.clear();
    m_seriesBytes = 0;
}

} // namespace blocktune
