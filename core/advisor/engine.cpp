// The real measuring engine: readahead through the session as temporary
// changes, reads through ReadTest (time-based, one cold run each).
#include "advisor.h"
#include "advisor_p.h"

#include "common/tr.h"
#include "monitor/monitor.h"
#include "readtest/measurer.h"
#include "session/session.h"
#include "stats/diskstats.h"
#include "tuning/tuning.h"


#include <cerrno>

namespace blocktune {

namespace {

/// The counters a measurement takes before and after it.
struct CounterReading
{
    std::optional<quint64> interrupts; ///< the machine's total; nullopt when unknown
    QList<quint64> memberSectors;      ///< sectors read, per member disk asked
    QList<quint64> numbers;            ///< the device's then each member's deviceNumber() (0: not listed)
    std::optional<LatencyTotalsMap> latency; ///< the source's totals, read right after diskstats
};

/// One reading of the machine the measurer measures: this one, or the
/// host's through its agent in one round trip (the agent's counters carry
/// diskstats and the interrupt total).
CounterReading readCounters(Measurer &measurer, const QString &device, const QStringList &members,
                            LatencySource *latency)
{
    CounterReading r;
    r.memberSectors = QList<quint64>(members.size(), 0);
    const std::unique_ptr<CounterSource> source = measurer.counterSource();
    r.interrupts = source->interrupts({}).total;
    if (members.isEmpty() && !latency)
        return r;
    if (auto text = source->diskStats()) {
        const DiskStatsTable table = parseDiskStats(*text);
        auto number = [&table](const QString &name) {
            const auto it = table.constFind(name);
            return it == table.cend() ? 0 : deviceNumber(quint32(it->major), quint32(it->minor));
        };
        r.numbers << number(device);
        for (qsizetype i = 0; i < members.size(); ++i) {
            r.memberSectors[i] = table.value(members.at(i))[DiskCounters::SectorsRead];
            r.numbers << number(members.at(i));
        }
    }
    if (latency) {
        if (auto totals = latency->totals())
            r.latency = std::move(*totals);
    }
    return r;
}

/// What one device's requests waited between two readings of the totals.
DeviceLatency latencyBetween(const CounterReading &before, const CounterReading &after, quint64 number)
{
    static const DeviceLatencyTotals kNone;
    const DeviceLatencyTotals &a = before.latency->contains(number) ? (*before.latency)[number] : kNone;
    const DeviceLatencyTotals &b = after.latency->contains(number) ? (*after.latency)[number] : kNone;
    return latencyDelta(a, b);
}

Error recordedRefusal(const QString &device)
{
    return makeError(Refused, AdvisorText::tr("%1 is on a recorded tree (--sysroot): there is nothing to read, so "
                                             "nothing can be measured (diagnose --static checks a recorded tree)")
                                  .arg(device));
}

} // namespace

ReadTestEngine::ReadTestEngine(SessionPort &session, Measurer &measurer, const QString &device)
    : m_session(session), m_measurer(measurer), m_device(device)
{
}

Result<ReadTestResult> ReadTestEngine::runTest(const ReadTestSpec &spec, const std::atomic_bool *cancel)
{
    if (!m_session.capabilities().canMeasure)
        return recordedRefusal(m_device);
    auto model = m_session.model();
    if (!model)
        return model.error();
    auto test = ReadTest::prepare(m_session.root(), **model, spec);
    if (!test)
        return test.error();
    // Prepared on the model (a host's: its mirror), run where the measurer reads.
    ReadTestResult result = m_measurer.runReadTest(*test, {}, cancel);
    if (result.failed)
        return makeError(EIO, result.errors.isEmpty() ? AdvisorText::tr("reading %1 failed").arg(m_device)
                                                      : result.errors.join(QStringLiteral("; ")));
    // A cut-short run measured a part of a point: it is no point of the curve.
    if (result.cancelled || result.runs.isEmpty())
        return makeError(Interrupted, AdvisorText::tr("measuring %1 was cancelled").arg(m_device));
    return result;
}

Result<Measurement> ReadTestEngine::measureBuffered(const BufferedProbe &probe, const std::atomic_bool *cancel)
{
    if (!m_session.capabilities().canMeasure)
        return recordedRefusal(m_device);
    auto found = advisor_detail::lookUpDevice(m_session, m_device);
    if (!found)
        return found.error();
    const DeviceSettings *settings = &found->settings;
    const quint64 deviceBytes = found->sizeBytes();
    const QString queue = found->queue();
    const ChangeReport report =
        m_session.applyTemporary({SettingChange{queue, QStringLiteral("read_ahead_kb"), SettingValue(probe.readAheadKiB)}});
    if (!report.ok())
        return report.error ? *report.error
                            : makeError(EIO, AdvisorText::tr("setting read_ahead_kb %1 on %2 failed")
                                                 .arg(probe.readAheadKiB).arg(queue));

    Measurement m;
    bool parsed = false;
    if (!report.outcomes.isEmpty())
        m.readAheadKiB = report.outcomes.constFirst().kept.toULongLong(&parsed);
    if (!parsed)
        m.readAheadKiB = probe.readAheadKiB;

    ReadTestSpec spec;
    spec.kind = probe.workload.kind;
    spec.blockSize = probe.blockSize;
    spec.durationMs = probe.durationMs;
    spec.repeat = 1;
    const int streams = probe.workload.kind == ReadTestKind::Concurrent ? probe.workload.streams : 1;
    // Concurrent streams start at equal distances over the device, each
    // looping over its own share (so no stream reads another's pages).
    const quint64 share = deviceBytes / quint64(streams) / probe.blockSize * probe.blockSize;
    for (int i = 0; i < streams; ++i)
        spec.measure << StreamTarget{m_device, share * quint64(i)};
    if (streams > 1 && share > 0)
        spec.sizeBytes = qMin<quint64>(share, 256ull << 20);
    if (probe.workload.kind == ReadTestKind::Server)
        spec.threads = probe.workload.streams;
    if (probe.workload.kind == ReadTestKind::Mixed) {
        spec.seqStreams = probe.workload.streams;
        spec.randomReaders = probe.workload.randomReaders;
    }

    const QString kernelName = found->device->name;
    const CounterReading before = readCounters(m_measurer, kernelName, settings->memberDisks, m_latency);
    auto result = runTest(spec, cancel);
    if (!result)
        return result.error();
    const CounterReading after = readCounters(m_measurer, kernelName, settings->memberDisks, m_latency);
    if (before.latency && after.latency && before.numbers.size() == after.numbers.size()
        && !after.numbers.isEmpty() && after.numbers.constFirst() != 0) {
        m.latency = latencyBetween(before, after, after.numbers.constFirst());
        for (qsizetype i = 1; i < after.numbers.size(); ++i)
            m.memberLatency << latencyBetween(before, after, after.numbers.at(i));
    }

    const RunResult &run = result->runs.constFirst();
    m.mbPerSec = run.mbPerSec;
    m.seconds = run.seconds;
    m.bytes = run.measuredBytes;
    for (const StreamResult &s : run.streams)
        if (s.role == StreamRole::Measure)
            m.streamMbPerSec << s.mbPerSec;
    if (!run.deviceStats.isEmpty() && run.deviceStats.constFirst().available) {
        const DeviceCounterDelta &dev = run.deviceStats.constFirst();
        m.avgRequestKiB = dev.avgRequestKiB;
        if (dev.consumedBytes > 0)
            m.deviceReadRatio = double(dev.deviceBytes) / double(dev.consumedBytes);
    }
    if (before.interrupts && after.interrupts)
        m.interrupts = counterDelta(*before.interrupts, *after.interrupts);
    for (qsizetype i = 0; i < after.memberSectors.size(); ++i)
        m.memberBytes << counterDelta(before.memberSectors.value(i), after.memberSectors.at(i)) * 512;
    return m;
}

Result<double> ReadTestEngine::measureRawMbPerSec(quint64 blockSize, int inFlight, qint64 durationMs,
                                                  const std::atomic_bool *cancel)
{
    // Server threads take consecutive blocks in turn: `inFlight` O_DIRECT
    // requests are outstanding at once, with no page cache or readahead.
    ReadTestSpec spec;
    spec.kind = ReadTestKind::Server;
    spec.measure = {StreamTarget{m_device, 0}};
    spec.blockSize = blockSize;
    spec.threads = inFlight;
    spec.direct = true;
    spec.durationMs = durationMs;
    spec.repeat = 1;
    auto result = runTest(spec, cancel);
    if (!result)
        return result.error();
    return result->runs.constFirst().mbPerSec;
}

Result<StreamPairMeasurement> ReadTestEngine::measureStreamPair(quint64 blockSize, qint64 durationMs,
                                                                const std::atomic_bool *cancel)
{
    auto found = advisor_detail::lookUpDevice(m_session, m_device);
    if (!found)
        return found.error();
    const DeviceSettings *settings = &found->settings;
    const quint64 half = found->sizeBytes() / 2 / blockSize * blockSize;
    if (half == 0)
        return makeError(InvalidArgument, AdvisorText::tr("%1 is too small for two streams").arg(m_device));

    StreamPairMeasurement pair;
    pair.scheduler = settings->scheduler;
    ReadTestSpec alone;
    alone.kind = ReadTestKind::Sequential;
    alone.measure = {StreamTarget{m_device, 0}};
    alone.blockSize = blockSize;
    alone.sizeBytes = qMin<quint64>(half, 256ull << 20);
    alone.durationMs = durationMs;
    alone.repeat = 1;
    auto first = runTest(alone, cancel);
    if (!first)
        return first.error();
    pair.aloneMbPerSec = first->runs.constFirst().mbPerSec;

    ReadTestSpec both = alone;
    both.kind = ReadTestKind::Concurrent;
    both.background = {StreamTarget{m_device, half}};
    auto second = runTest(both, cancel);
    if (!second)
        return second.error();
    for (const StreamResult &s : second->runs.constFirst().streams) {
        if (s.role == StreamRole::Measure)
            pair.withMbPerSec = s.mbPerSec;
        else
            pair.otherMbPerSec = s.mbPerSec;
    }
    return pair;
}

bool ReadTestEngine::restore(QString *message)
{
    if (!m_session.holdsTemporary())
        return true;
    const RestoreReport back = m_session.restoreTemporary();
    QStringList said = back.messages;
    for (const RestoreItem &item : back.items)
        if (!item.message.isEmpty())
            said << item.message;
    if (message)
        *message = said.join(QStringLiteral("; "));
    return back.ok();
}

} // namespace blocktune
