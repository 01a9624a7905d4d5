// The monitor's one loop: a Sampler ticked at absolute deadlines, the device
// topology rebuilt when devices come or go, stopped between ticks. The
// console's MonitorWorker ticks it from a timer; blocktune-cli monitor runs
// it (run()), printing what each tick hands on.
#include "monitor.h"

#include "common/termination.h"
#include "common/tr.h"
#include "devices/devicemodel.h"

#include <QSet>

#include <algorithm>
#include <utility>
#include <unistd.h>

namespace blocktune {

void TickSchedule::start(qint64 nowNs, qint64 periodNs)
{
    m_startNs = nowNs;
    m_periodNs = std::max<qint64>(periodNs, 1);
    m_next = 1;
}

void TickSchedule::tickDone(qint64 nowNs)
{
    m_next = std::max(m_next + 1, (nowNs - m_startNs) / m_periodNs + 1);
}

TerminationWaiter::TerminationWaiter(const Clock &clock, const std::atomic_bool *cancel)
    : m_clock(clock), m_cancel(cancel)
{
    if (m_cancel)
        return; // the agent's own signal state is the agent's to read
    TerminationSignals::install();
    TerminationSignals::clear();
}

bool TerminationWaiter::stopped() const
{
    return m_cancel ? m_cancel->load() : TerminationSignals::pending() != 0;
}

void TerminationWaiter::waitUntil(qint64 deadlineNs)
{
    while (!stopped()) {
        const qint64 left = deadlineNs - m_clock.monotonicNs();
        if (left <= 0)
            return;
        // poll() counts whole milliseconds: round up, never spin. The
        // agent's flag has no pipe: looked at every 20 ms.
        const qint64 ms = (left + 999'999) / 1'000'000;
        if (m_cancel)
            ::usleep(useconds_t(std::min<qint64>(ms, 20) * 1000));
        else
            TerminationSignals::waitMs(ms);
    }
}

MonitorLoop::MonitorLoop(SysRoot root, std::unique_ptr<CounterSource> source, std::unique_ptr<Clock> clock)
    : m_root(std::move(root)), m_clock(clock.get()), m_sampler(std::move(source), std::move(clock)),
      m_readaheadUnavailable(MonitorText::tr("readahead figures are off"))
{
}

MonitorLoop::~MonitorLoop() = default;

Status MonitorLoop::refreshTopology()
{
    ScanOptions options;
    options.probeFilesystems = false;
    auto model = DeviceModel::scan(m_root, options);
    if (!model)
        return model.error();
    useDevices(std::move(*model));
    return {};
}

void MonitorLoop::useDevices(DeviceModel model)
{
    m_sampler.setTopology(buildTopology(m_root, model));
    m_devices = std::move(model);
}

void MonitorLoop::setReadaheadSource(std::unique_ptr<ReadaheadSource> source)
{
    if (!source) {
        setReadaheadUnavailable(MonitorText::tr("readahead figures are off"));
        return;
    }
    m_readahead = std::move(source);
    m_lastReadahead.reset(); // the first tick with it takes the first snapshot
    m_readaheadUnavailable.clear();
}

void MonitorLoop::setReadaheadUnavailable(const QString &reason)
{
    m_readahead.reset();
    m_lastReadahead.reset();
    m_readaheadUnavailable = reason;
}

// The counters between this tick's snapshot and the previous one's, as the
// readahead command's report reads them, handed to the sample's devices by
// name. A baseline (the sampler was reset) starts the counting again.
void MonitorLoop::addReadahead(Sample &sample)
{
    sample.readaheadUnavailable = m_readaheadUnavailable;
    if (!m_readahead)
        return;
    auto now = m_readahead->snapshot();
    if (!now) {
        // Said in this sample; the next one counts from its own snapshot.
        sample.readaheadUnavailable = now.error().message;
        m_lastReadahead.reset();
        return;
    }
    std::optional<ReadaheadSnapshot> before = std::exchange(m_lastReadahead, std::move(*now));
    if (sample.baseline || !before)
        return;
    if (!m_devices) {
        if (Status scanned = refreshTopology(); !scanned) {
            sample.readaheadUnavailable = scanned.error().message;
            return;
        }
    }
    const ReadaheadReport report
        = buildReadaheadReport(*before, *m_lastReadahead, *m_devices, m_root, m_sampler.watched());
    QHash<QString, const DeviceReadahead *> byName;
    for (const DeviceReadahead &d : report.devices)
        byName.insert(d.name, &d);
    for (DeviceRates &d : sample.devices)
        if (const DeviceReadahead *r = byName.value(d.name))
            d.readahead = *r;
}

Status MonitorLoop::enableLatency()
{
    if (!m_root.isLive()) {
        // The probe sees this machine's requests, not the recorded tree's.
        Error e = makeError(InvalidArgument, MonitorText::tr(
            "latency histograms unavailable: they measure the live machine, not a recorded tree (--sysroot)"));
        m_sampler.setLatencyUnavailable(e.message);
        return e;
    }
    auto probe = BlockLatencyProbe::load();
    if (!probe) {
        m_sampler.setLatencyUnavailable(probe.error().message);
        return probe.error();
    }
    m_sampler.setLatencySource(std::move(*probe));
    return {};
}

void MonitorLoop::disableLatency()
{
    m_sampler.setLatencyUnavailable(MonitorText::tr("latency histograms are off"));
}

Result<Sample> MonitorLoop::tick(Status *rescan)
{
    auto sample = m_sampler.sample();
    if (sample && (!sample->appeared.isEmpty() || !sample->vanished.isEmpty())) {
        // A device came or went: its IRQ lines and groups change too (and
        // the readahead figures' names).
        Status refreshed = refreshTopology();
        if (rescan)
            *rescan = std::move(refreshed);
    }
    if (sample)
        addReadahead(*sample); // right after diskstats: both describe the same moment
    return sample;
}

Result<MonitorRunStats> MonitorLoop::run(qint64 periodNs, qint64 count, TickWaiter &waiter,
                                         const std::function<void(const Sample &)> &onSample)
{
    MonitorRunStats stats;
    TickSchedule schedule;
    schedule.start(m_clock->monotonicNs(), periodNs);
    stats.startNs = schedule.startNs();
    while (count == 0 || stats.ticks < count) {
        waiter.waitUntil(schedule.deadlineNs());
        if (waiter.stopped())
            break;
        const qint64 tickStart = m_clock->monotonicNs();
        auto sample = tick();
        if (!sample)
            return sample.error();
        onSample(*sample);
        const qint64 tickEnd = m_clock->monotonicNs();
        stats.maxTickNs = std::max(stats.maxTickNs, tickEnd - tickStart);
        stats.sumTickNs += tickEnd - tickStart;
        ++stats.ticks;
        schedule.tickDone(tickEnd);
    }
    return stats;
}

Result<GroupSpec> parseUserGroup(const QString &text, const DeviceModel &model)
{
    const qsizetype eq = text.indexOf(u'=');
    const QString name = eq > 0 ? text.left(eq) : QString();
    const QString usage = QStringLiteral(" (use --group NAME=DEV,DEV[,...], e.g. --group exports=sdb1,sdc1)");
    if (name.isEmpty())
        return makeError(InvalidArgument, QStringLiteral("--group '%1': no group name before '='").arg(text) + usage);
    auto group = makeUserGroup(name, text.mid(eq + 1).split(u',', Qt::SkipEmptyParts), model);
    if (!group) {
        const bool tooFew = group.error().message.startsWith(u"a group needs");
        return makeError(InvalidArgument, QStringLiteral("--group '%1': %2").arg(text, group.error().message)
                                              + (tooFew ? usage : QString()));
    }
    return group;
}

Result<QList<GroupSpec>> parseUserGroups(const QStringList &texts, const DeviceModel &model)
{
    QList<GroupSpec> groups;
    QSet<QString> names;
    for (const QString &text : texts) {
        auto parsed = parseUserGroup(text, model);
        if (!parsed)
            return parsed.error();
        if (names.contains(parsed->name))
            return makeError(InvalidArgument, QStringLiteral("--group: the name '%1' is given twice").arg(parsed->name));
        names.insert(parsed->name);
        groups << *parsed;
    }
    return groups;
}

} // namespace blocktune
