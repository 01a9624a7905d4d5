#include "monitor.h"

#include "common/tr.h"

#include "devices/devicemodel.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace blocktune {

namespace {

// /proc/interrupts prints each CPU's count as an unsigned int and we sum
// them, so a sum drops by 2^32 each time one CPU's count wraps
// (kernel/irq/proc.c: kstat_irqs_cpu() is unsigned int). Add back the
// fewest wraps that make the step non-negative.
quint64 irqSumDelta(quint64 before, quint64 after)
{
    if (after >= before)
        return after - before;
    const quint64 drop = before - after;
    const quint64 wraps = (drop + 0xffffffffULL) >> 32;
    return after + (wraps << 32) - before;
}

// Fills `r`, built in place in the sample's list: a DeviceRates is large
// (its optional histograms), and 5,000 of them a tick are not moved.
void fillRates(DeviceRates &r, const QString &name, const DiskCounters &before, const DiskCounters &after,
               double seconds, double ms)
{
    auto delta = [&](DiskCounters::Field f) { return counterDelta(before[f], after[f]); };
    r.name = name;
    // iostat -x (sysstat rd_stats.c compute_ext_disk_stats()): sectors are
    // always 512 bytes in diskstats, whatever the device's block size.
    r.reads = delta(DiskCounters::ReadsCompleted);
    r.readsMerged = delta(DiskCounters::ReadsMerged);
    const quint64 sectorsRead = delta(DiskCounters::SectorsRead);
    r.readBytes = sectorsRead * 512;
    r.readsPerSec = double(r.reads) / seconds;
    r.readMBps = double(r.readBytes) / 1e6 / seconds;
    r.readMergesPerSec = double(r.readsMerged) / seconds;
    if (r.reads > 0) {
        r.avgReadRequestKiB = double(sectorsRead) / 2.0 / double(r.reads);
        r.readAwaitMs = double(delta(DiskCounters::MsReading)) / double(r.reads);
    }

    r.writes = delta(DiskCounters::WritesCompleted);
    r.writesMerged = delta(DiskCounters::WritesMerged);
    const quint64 sectorsWritten = delta(DiskCounters::SectorsWritten);
    r.writeBytes = sectorsWritten * 512;
    r.writesPerSec = double(r.writes) / seconds;
    r.writeMBps = double(r.writeBytes) / 1e6 / seconds;
    r.writeMergesPerSec = double(r.writesMerged) / seconds;
    if (r.writes > 0) {
        r.avgWriteRequestKiB = double(sectorsWritten) / 2.0 / double(r.writes);
        r.writeAwaitMs = double(delta(DiskCounters::MsWriting)) / double(r.writes);
    }

    r.queueDepth = double(delta(DiskCounters::WeightedMs)) / ms;
    // io_ticks is updated when requests start and end, so across a short
    // interval it can exceed the wall time a little; iostat caps at 100 too.
    r.utilPct = std::min(100.0, double(delta(DiskCounters::IoTicksMs)) / ms * 100.0);
    r.inFlight = after[DiskCounters::InFlight];
}

// One group member's step in a tick.
struct MemberDelta
{
    bool present = false;
    bool counted = false;
    quint64 readBytes = 0;
    quint64 reads = 0;
    std::optional<DeviceLatency> latency;
};

} // namespace

BalanceFigures balanceOf(const std::vector<double> &load)
{
    BalanceFigures figures;
    if (load.empty())
        return figures;
    double sum = 0, sumSquares = 0;
    for (double x : load) {
        sum += x;
        sumSquares += x * x;
    }
    if (sum <= 0 || sumSquares <= 0)
        return figures;
    const double n = double(load.size());
    const double mean = sum / n;
    double variance = 0;
    for (double x : load)
        variance += (x - mean) * (x - mean);
    variance /= n;
    figures.cv = std::sqrt(variance) / mean;
    figures.jain = (sum * sum) / (n * sumSquares);
    return figures;
}

// What the sampler keeps between ticks. /proc/diskstats lists devices in
// the same order tick after tick, so lines are matched to the previous
// reading by position (one name comparison each) and the per-device plan
// (what to report, which IRQ lines, which group) is rebuilt only when that
// order changes, or when the watched set, groups or topology do. No name is
// hashed on an ordinary tick: that is what keeps 5,000 devices at 10 Hz
// cheap.
struct Sampler::State
{
    struct Reading
    {
        QStringList names;                  ///< in file order; shared while the layout holds
        std::vector<DiskCounters> counters; ///< same order as names
        QHash<QString, int> index;          ///< name -> position
        std::optional<quint64> intrTotal;
        QHash<int, quint64> irq;
        std::optional<LatencyTotalsMap> latency; ///< nullopt: no source, or its read failed
        qint64 ns = 0;
    };
    struct Reported
    {
        int pos = -1;    ///< in the current reading
        int irqSet = -1; ///< index into irqSets
        bool shared = false;
    };
    struct PlannedGroup
    {
        GroupSpec spec;
        std::vector<int> memberPos; ///< -1 = not in the current reading
    };

    Reading prev, cur;
    bool havePrev = false;
    quint64 tick = 0;
    qint64 startNs = 0;

    bool planDirty = true;
    std::vector<Reported> reported;
    QStringList missingWatched;
    std::vector<PlannedGroup> groups;
    std::vector<QList<int>> irqSets;
    QList<int> irqLines; ///< every line in irqSets, read each tick
    QHash<QString, quint64> cumulativeReadBytes; ///< group members, since the baseline

    // Parses `text` into cur. While each line's name matches the previous
    // reading's at the same position, only the counters are stored (no
    // QString is built or copied); true when the whole layout is unchanged.
    bool parse(QByteArrayView text)
    {
        cur.counters.clear();
        cur.counters.reserve(prev.counters.size());
        bool same = havePrev;
        QStringList names; // built only once the layout differs
        const char *p = text.data();
        const char *end = p + text.size();
        while (p < end) {
            const char *lineEnd = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
            if (!lineEnd)
                lineEnd = end;
            QByteArrayView name;
            DiskCounters counters;
            if (parseDiskStatsLine(QByteArrayView(p, lineEnd - p), name, counters)) {
                const qsizetype i = qsizetype(cur.counters.size());
                if (same && !(i < prev.names.size() && QLatin1StringView(name) == prev.names[i])) {
                    same = false;
                    names = prev.names.mid(0, i);
                }
                if (!same)
                    names.append(QString::fromLatin1(name));
                cur.counters.push_back(counters);
            }
            p = lineEnd + 1;
        }
        const qsizetype count = qsizetype(cur.counters.size());
        if (same && count != prev.names.size()) {
            // Every line matched but the file got shorter: devices at the end went.
            same = false;
            names = prev.names.mid(0, count);
        }
        if (same) {
            cur.names = prev.names;
            cur.index = prev.index;
        } else {
            cur.names = std::move(names);
            cur.index.clear();
            cur.index.reserve(cur.names.size());
            for (qsizetype i = 0; i < cur.names.size(); ++i)
                cur.index.insert(cur.names[i], int(i));
        }
        return same;
    }

    void plan(const QStringList &watched, const Topology &topology, const QList<GroupSpec> &userGroups)
    {
        reported.clear();
        missingWatched.clear();
        groups.clear();
        irqSets.clear();
        QHash<QList<int>, int> setIndex;
        auto addReported = [&](const QString &name, int pos) {
            Reported r;
            r.pos = pos;
            const auto lines = topology.irqs.constFind(name);
            if (lines != topology.irqs.cend() && !lines->isEmpty()) {
                auto it = setIndex.constFind(*lines);
                if (it == setIndex.cend()) {
                    it = setIndex.insert(*lines, int(irqSets.size()));
                    irqSets.push_back(*lines);
                }
                r.irqSet = *it;
                r.shared = topology.sharedIrqs.contains(name);
            }
            reported.push_back(r);
        };
        if (watched.isEmpty()) {
            std::vector<int> order(cur.counters.size());
            for (size_t i = 0; i < order.size(); ++i)
                order[i] = int(i);
            std::sort(order.begin(), order.end(), [this](int a, int b) {
                return kernelNameLess(cur.names[a], cur.names[b]);
            });
            reported.reserve(order.size());
            for (int pos : order)
                addReported(cur.names[pos], pos);
        } else {
            for (const QString &name : watched) {
                const int pos = cur.index.value(name, -1);
                if (pos < 0)
                    missingWatched.append(name);
                else
                    addReported(name, pos);
            }
        }
        irqLines.clear();
        for (const QList<int> &set : irqSets)
            for (int line : set)
                if (!irqLines.contains(line))
                    irqLines.append(line);
        std::sort(irqLines.begin(), irqLines.end());
        auto addGroup = [&](const GroupSpec &spec) {
            PlannedGroup g{spec, {}};
            for (const QString &member : spec.members)
                g.memberPos.push_back(cur.index.value(member, -1));
            groups.push_back(std::move(g));
        };
        for (const GroupSpec &g : userGroups)
            addGroup(g);
        for (const GroupSpec &g : topology.groups)
            if (watched.isEmpty() || watched.contains(g.name))
                addGroup(g);
        planDirty = false;
    }

    // The phases of Sampler::sample() after parse() and plan().
    void listLayoutChanges(Sample &s) const;
    std::vector<std::optional<double>> irqSetRates(double seconds) const;
    // Position of cur's device `pos` in prev, -1 when it appeared this tick.
    int previousOf(int pos, bool sameLayout) const
    {
        if (sameLayout)
            return pos;
        return prev.index.value(cur.names[pos], -1);
    }
    void addDeviceRates(Sample &s, CounterSource &source, bool readInFlight, bool sameLayout,
                        double seconds, double ms) const;
    DeviceLatency latencyOf(const DiskCounters &device) const;
    QHash<QString, MemberDelta> memberDeltas(Sample &s, bool sameLayout);
    void addGroupBalances(Sample &s, bool sameLayout);
    void finish()
    {
        std::swap(prev, cur);
        havePrev = true;
    }
};

// Devices that came or went: the owner rebuilds the topology.
void Sampler::State::listLayoutChanges(Sample &s) const
{
    for (const QString &name : std::as_const(cur.names))
        if (!prev.index.contains(name))
            s.appeared.append(name);
    for (const QString &name : std::as_const(prev.names))
        if (!cur.index.contains(name))
            s.vanished.append(name);
    std::sort(s.appeared.begin(), s.appeared.end(), kernelNameLess);
    std::sort(s.vanished.begin(), s.vanished.end(), kernelNameLess);
}

// Interrupts/s per distinct set of lines, computed once for all the
// devices that share it (every partition of a disk, every disk of an HBA).
std::vector<std::optional<double>> Sampler::State::irqSetRates(double seconds) const
{
    std::vector<std::optional<double>> setRates(irqSets.size());
    for (size_t i = 0; i < irqSets.size(); ++i) {
        quint64 sum = 0;
        bool any = false;
        for (int line : irqSets[i]) {
            const auto after = cur.irq.constFind(line);
            const auto before = prev.irq.constFind(line);
            if (after == cur.irq.cend() || before == prev.irq.cend())
                continue;
            sum += irqSumDelta(*before, *after);
            any = true;
        }
        if (any)
            setRates[i] = double(sum) / seconds;
    }
    return setRates;
}

void Sampler::State::addDeviceRates(Sample &s, CounterSource &source, bool readInFlight, bool sameLayout,
                                    double seconds, double ms) const
{
    const std::vector<std::optional<double>> setRates = irqSetRates(seconds);
    s.devices.reserve(qsizetype(reported.size()));
    for (const Reported &r : reported) {
        const int before = previousOf(r.pos, sameLayout);
        if (before < 0)
            continue; // appeared this tick: no interval to report yet
        const QString &name = cur.names[r.pos];
        DeviceRates &rates = s.devices.emplaceBack();
        fillRates(rates, name, prev.counters[size_t(before)], cur.counters[size_t(r.pos)], seconds, ms);
        if (readInFlight) {
            rates.inFlightSplit = source.inFlight(name);
            if (rates.inFlightSplit)
                rates.inFlight = rates.inFlightSplit->reads + rates.inFlightSplit->writes;
        }
        if (r.irqSet >= 0) {
            rates.irqPerSec = setRates[size_t(r.irqSet)];
            rates.irqShared = rates.irqPerSec.has_value() && r.shared;
        }
        if (cur.latency && prev.latency)
            rates.latency = latencyOf(cur.counters[size_t(r.pos)]);
    }
}

// The interval's histograms of one device, found by its major:minor. A
// device the probe has not seen yet had nothing to count.
DeviceLatency Sampler::State::latencyOf(const DiskCounters &device) const
{
    const quint64 key = deviceNumber(quint32(device.major), quint32(device.minor));
    static const DeviceLatencyTotals kNone;
    const auto after = cur.latency->constFind(key);
    if (after == cur.latency->cend())
        return {};
    const auto beforeIt = prev.latency->constFind(key);
    const DeviceLatencyTotals &before = beforeIt == prev.latency->cend() ? kNone : *beforeIt;
    return latencyDelta(before, *after);
}

// Each member's delta once per tick, whatever the number of groups
// it is in, so the since-start sums count every byte once.
QHash<QString, MemberDelta> Sampler::State::memberDeltas(Sample &s, bool sameLayout)
{
    QHash<QString, MemberDelta> deltas;
    for (const PlannedGroup &g : groups) {
        for (qsizetype i = 0; i < g.spec.members.size(); ++i) {
            const QString &member = g.spec.members[i];
            if (deltas.contains(member))
                continue;
            MemberDelta md;
            const int pos = g.memberPos[size_t(i)];
            md.present = pos >= 0;
            const int before = md.present ? previousOf(pos, sameLayout) : -1;
            if (before >= 0) {
                const DiskCounters &a = prev.counters[size_t(before)];
                const DiskCounters &b = cur.counters[size_t(pos)];
                md.counted = true;
                md.readBytes = counterDelta(a[DiskCounters::SectorsRead], b[DiskCounters::SectorsRead]) * 512;
                md.reads = counterDelta(a[DiskCounters::ReadsCompleted], b[DiskCounters::ReadsCompleted]);
                cumulativeReadBytes[member] += md.readBytes;
                if (cur.latency && prev.latency)
                    md.latency = latencyOf(b);
            }
            if (!md.present && !s.missing.contains(member))
                s.missing.append(member);
            deltas.insert(member, md);
        }
    }
    return deltas;
}

void Sampler::State::addGroupBalances(Sample &s, bool sameLayout)
{
    QHash<QString, MemberDelta> deltas = memberDeltas(s, sameLayout);
    for (const PlannedGroup &g : groups) {
        GroupBalance balance;
        balance.name = g.spec.name;
        balance.kind = g.spec.kind;
        std::vector<double> bytes, requests, sinceStart;
        quint64 totalBytes = 0, totalReads = 0;
        for (const QString &member : g.spec.members) {
            const MemberDelta &md = deltas[member];
            MemberShare share;
            share.name = member;
            share.present = md.present;
            share.readBytes = md.readBytes;
            share.reads = md.reads;
            share.latency = md.latency;
            if (md.counted) {
                bytes.push_back(double(md.readBytes));
                requests.push_back(double(md.reads));
                sinceStart.push_back(double(cumulativeReadBytes.value(member)));
                totalBytes += md.readBytes;
                totalReads += md.reads;
            }
            balance.members.append(share);
        }
        for (MemberShare &share : balance.members) {
            if (!deltas[share.name].counted)
                continue;
            if (totalBytes > 0)
                share.share = double(share.readBytes) / double(totalBytes);
            if (totalReads > 0)
                share.requestShare = double(share.reads) / double(totalReads);
        }
        balance.bytes = balanceOf(bytes);
        balance.requests = balanceOf(requests);
        balance.sinceStart = balanceOf(sinceStart);
        s.groups.append(std::move(balance));
    }
}

Sampler::Sampler(std::unique_ptr<CounterSource> source, std::unique_ptr<Clock> clock)
    : m_source(std::move(source)), m_clock(std::move(clock)),
      m_latencyUnavailable(MonitorText::tr("latency histograms are off")), d(std::make_unique<State>())
{
}

void Sampler::setLatencySource(std::unique_ptr<LatencySource> source)
{
    m_latency = std::move(source);
    m_latencyUnavailable.clear();
    if (!m_latency)
        m_latencyUnavailable = MonitorText::tr("latency histograms are off");
}

void Sampler::setLatencyUnavailable(const QString &reason)
{
    m_latency.reset();
    m_latencyUnavailable = reason;
}

Sampler::~Sampler() = default;

void Sampler::setWatched(const QStringList &devices)
{
    m_watched.clear();
    for (const QString &name : devices)
        if (!m_watched.contains(name))
            m_watched.append(name);
    d->planDirty = true;
}

void Sampler::setTopology(Topology topology)
{
    m_topology = std::move(topology);
    d->planDirty = true;
}

void Sampler::setUserGroups(const QList<GroupSpec> &groups)
{
    m_userGroups = groups;
    d->planDirty = true;
}

void Sampler::reset()
{
    d = std::make_unique<State>();
}

Result<Sample> Sampler::sample()
{
    State &st = *d;
    {
        auto text = m_source->diskStats();
        if (!text)
            return text.error();
        const bool sameLayout = st.parse(*text);
        if (!sameLayout)
            st.planDirty = true;
    }
    Sample s;
    s.latencyUnavailable = m_latencyUnavailable;
    st.cur.latency.reset();
    if (m_latency) {
        // Right after diskstats: both describe the same moment.
        auto totals = m_latency->totals();
        if (totals)
            st.cur.latency = std::move(*totals);
        else
            s.latencyUnavailable = totals.error().message;
    }
    const qint64 now = m_clock->monotonicNs();
    st.cur.ns = now;
    s.wallMs = m_clock->wallMs();
    if (st.havePrev && st.planDirty && st.cur.index.size() + st.prev.index.size() > 0)
        st.listLayoutChanges(s);
    if (st.planDirty)
        st.plan(m_watched, m_topology, m_userGroups);

    InterruptCounts interrupts = m_source->interrupts(st.irqLines);
    st.cur.intrTotal = interrupts.total;
    st.cur.irq = std::move(interrupts.lines);

    if (!st.havePrev) {
        s.baseline = true;
        st.startNs = now;
        st.finish();
        return s;
    }
    const qint64 elapsedNs = now - st.prev.ns;
    if (elapsedNs <= 0) {
        st.planDirty = true; // the plan was made for a reading now dropped
        return makeError(InvalidArgument,
                         MonitorText::tr("the clock did not advance between two readings (%1 ns)")
                             .arg(elapsedNs));
    }
    const double seconds = double(elapsedNs) / 1e9;
    const double ms = double(elapsedNs) / 1e6;
    s.tick = ++st.tick;
    s.t = double(now - st.startNs) / 1e9;
    s.intervalS = seconds;
    if (st.cur.intrTotal && st.prev.intrTotal)
        s.interruptsPerSec = double(counterDelta(*st.prev.intrTotal, *st.cur.intrTotal)) / seconds;

    const bool sameLayout = st.cur.index.isSharedWith(st.prev.index);
    st.addDeviceRates(s, *m_source, !m_watched.isEmpty(), sameLayout, seconds, ms);
    s.missing = m_watched.isEmpty() ? s.vanished : st.missingWatched;
    if (!st.groups.empty())
        st.addGroupBalances(s, sameLayout);

    st.finish();
    return s;
}

} // namespace blocktune
