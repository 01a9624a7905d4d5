// Read tests and sweeps between the console and the agent: every field of
// the spec that goes there and of the results that come back, so the
// console's views show a test run on the host as they show one run here.
// Not the `test --json` schema (docs/json.md), which rounds and summarizes for
// people and scripts; both ends are the same version (the hello checks).
#include "remote.h"

#include <QJsonArray>

namespace blocktune::wire {

namespace {

QJsonValue u64(quint64 v)
{
    return double(v);
}
quint64 u64(const QJsonValue &v)
{
    return quint64(v.toDouble());
}
QJsonValue opt(const std::optional<quint64> &v)
{
    return v ? QJsonValue(double(*v)) : QJsonValue(QJsonValue::Null);
}
std::optional<quint64> opt(const QJsonValue &v)
{
    return v.isDouble() ? std::optional<quint64>(quint64(v.toDouble())) : std::nullopt;
}
QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << s.toString();
    return out;
}

QJsonArray targetsToJson(const QList<StreamTarget> &targets)
{
    QJsonArray a;
    for (const StreamTarget &t : targets)
        a.append(QJsonObject{{QStringLiteral("device"), t.device}, {QStringLiteral("offset"), u64(t.offset)}});
    return a;
}
QList<StreamTarget> targetsFromJson(const QJsonValue &v)
{
    QList<StreamTarget> out;
    for (const QJsonValue &t : v.toArray())
        out << StreamTarget{t[u"device"].toString(), u64(t[u"offset"])};
    return out;
}

QJsonObject latencyToJson(const LatencySummary &l)
{
    return {{QStringLiteral("count"), u64(l.count)}, {QStringLiteral("mean"), l.meanMs},
            {QStringLiteral("max"), l.maxMs},        {QStringLiteral("p50"), l.p50Ms},
            {QStringLiteral("p99"), l.p99Ms}};
}
LatencySummary latencyFromJson(const QJsonValue &v)
{
    return {u64(v[u"count"]), v[u"mean"].toDouble(), v[u"max"].toDouble(), v[u"p50"].toDouble(), v[u"p99"].toDouble()};
}

QJsonObject distributionToJson(const LatencyDistribution &d)
{
    QJsonArray buckets;
    for (const LatencyBucket &b : d.buckets)
        buckets.append(QJsonArray{b.lowerUs, b.upperUs, u64(b.count)});
    return {{QStringLiteral("count"), u64(d.count)}, {QStringLiteral("min"), d.minUs},
            {QStringLiteral("max"), d.maxUs},        {QStringLiteral("mean"), d.meanUs},
            {QStringLiteral("stdev"), d.stdevUs},    {QStringLiteral("buckets"), buckets}};
}
LatencyDistribution distributionFromJson(const QJsonValue &v)
{
    LatencyDistribution d;
    d.count = u64(v[u"count"]);
    d.minUs = v[u"min"].toDouble();
    d.maxUs = v[u"max"].toDouble();
    d.meanUs = v[u"mean"].toDouble();
    d.stdevUs = v[u"stdev"].toDouble();
    for (const QJsonValue &b : v[u"buckets"].toArray())
        d.buckets << LatencyBucket{b[0].toDouble(), b[1].toDouble(), u64(b[2])};
    return d;
}

QJsonObject streamToJson(const StreamResult &s)
{
    QJsonArray workers;
    for (const WorkerResult &w : s.workers)
        workers.append(QJsonObject{{QStringLiteral("bytes"), u64(w.bytes)},
                                   {QStringLiteral("reads"), u64(w.reads)},
                                   {QStringLiteral("seconds"), w.seconds},
                                   {QStringLiteral("latency"), latencyToJson(w.latency)},
                                   {QStringLiteral("error"), w.error}});
    return {{QStringLiteral("name"), s.name},
            {QStringLiteral("device"), s.device},
            {QStringLiteral("offset"), u64(s.offset)},
            {QStringLiteral("planned"), u64(s.plannedBytes)},
            {QStringLiteral("role"), int(s.role)},
            {QStringLiteral("pattern"), int(s.pattern)},
            {QStringLiteral("bytes"), u64(s.bytes)},
            {QStringLiteral("reads"), u64(s.reads)},
            {QStringLiteral("seconds"), s.seconds},
            {QStringLiteral("mbps"), s.mbPerSec},
            {QStringLiteral("latency"), latencyToJson(s.latency)},
            {QStringLiteral("latency_us"), distributionToJson(s.latencyUs)},
            {QStringLiteral("error"), s.error},
            {QStringLiteral("workers"), workers}};
}
StreamResult streamFromJson(const QJsonValue &v)
{
    StreamResult s;
    s.name = v[u"name"].toString();
    s.device = v[u"device"].toString();
    s.offset = u64(v[u"offset"]);
    s.plannedBytes = u64(v[u"planned"]);
    s.role = StreamRole(v[u"role"].toInt());
    s.pattern = AccessPattern(v[u"pattern"].toInt());
    s.bytes = u64(v[u"bytes"]);
    s.reads = u64(v[u"reads"]);
    s.seconds = v[u"seconds"].toDouble();
    s.mbPerSec = v[u"mbps"].toDouble();
    s.latency = latencyFromJson(v[u"latency"]);
    s.latencyUs = distributionFromJson(v[u"latency_us"]);
    s.error = v[u"error"].toString();
    for (const QJsonValue &w : v[u"workers"].toArray())
        s.workers << WorkerResult{u64(w[u"bytes"]), u64(w[u"reads"]), w[u"seconds"].toDouble(),
                                  latencyFromJson(w[u"latency"]), w[u"error"].toString()};
    return s;
}

QJsonObject settingsToJson(const RecordedSettings &s)
{
    return {{QStringLiteral("device"), s.device},
            {QStringLiteral("queue"), s.queueDevice},
            {QStringLiteral("ra"), opt(s.readAheadKiB)},
            {QStringLiteral("scheduler"), s.scheduler},
            {QStringLiteral("nr"), opt(s.nrRequests)},
            {QStringLiteral("max_sectors"), opt(s.maxSectorsKiB)},
            {QStringLiteral("lbs"), opt(s.logicalBlockBytes)},
            {QStringLiteral("kernel"), s.kernel}};
}
RecordedSettings settingsFromJson(const QJsonValue &v)
{
    RecordedSettings s;
    s.device = v[u"device"].toString();
    s.queueDevice = v[u"queue"].toString();
    s.readAheadKiB = opt(v[u"ra"]);
    s.scheduler = v[u"scheduler"].toString();
    s.nrRequests = opt(v[u"nr"]);
    s.maxSectorsKiB = opt(v[u"max_sectors"]);
    s.logicalBlockBytes = opt(v[u"lbs"]);
    s.kernel = v[u"kernel"].toString();
    return s;
}

QJsonObject deviceDeltaToJson(const DeviceCounterDelta &d)
{
    return {{QStringLiteral("device"), d.device},          {QStringLiteral("available"), d.available},
            {QStringLiteral("requests"), u64(d.requests)}, {QStringLiteral("merges"), u64(d.merges)},
            {QStringLiteral("bytes"), u64(d.deviceBytes)}, {QStringLiteral("consumed"), u64(d.consumedBytes)},
            {QStringLiteral("avg_kib"), d.avgRequestKiB},  {QStringLiteral("overshoot"), double(d.overshootBytes)}};
}
DeviceCounterDelta deviceDeltaFromJson(const QJsonValue &v)
{
    DeviceCounterDelta d;
    d.device = v[u"device"].toString();
    d.available = v[u"available"].toBool();
    d.requests = u64(v[u"requests"]);
    d.merges = u64(v[u"merges"]);
    d.deviceBytes = u64(v[u"bytes"]);
    d.consumedBytes = u64(v[u"consumed"]);
    d.avgRequestKiB = v[u"avg_kib"].toDouble();
    d.overshootBytes = qint64(v[u"overshoot"].toDouble());
    return d;
}

QJsonObject summaryToJson(const Summary &s)
{
    return {{QStringLiteral("count"), s.count}, {QStringLiteral("mean"), s.mean},
            {QStringLiteral("median"), s.median}, {QStringLiteral("min"), s.min},
            {QStringLiteral("max"), s.max},     {QStringLiteral("stdev"), s.stdev}};
}
Summary summaryFromJson(const QJsonValue &v)
{
    Summary s;
    s.count = v[u"count"].toInt();
    s.mean = v[u"mean"].toDouble();
    s.median = v[u"median"].toDouble();
    s.min = v[u"min"].toDouble();
    s.max = v[u"max"].toDouble();
    s.stdev = v[u"stdev"].toDouble();
    return s;
}

template<typename T, typename F>
QJsonArray arrayOf(const QList<T> &items, F &&toJson)
{
    QJsonArray a;
    for (const T &item : items)
        a.append(toJson(item));
    return a;
}
template<typename T, typename F>
QList<T> listOf(const QJsonValue &v, F &&fromJson)
{
    QList<T> out;
    for (const QJsonValue &item : v.toArray())
        out << fromJson(item);
    return out;
}

} // namespace

QJsonObject specToJson(const ReadTestSpec &s)
{
    return {{QStringLiteral("kind"), readTestKindName(s.kind)},
            {QStringLiteral("measure"), targetsToJson(s.measure)},
            {QStringLiteral("background"), targetsToJson(s.background)},
            {QStringLiteral("bs"), u64(s.blockSize)},
            {QStringLiteral("size"), opt(s.sizeBytes)},
            {QStringLiteral("count"), opt(s.count)},
            {QStringLiteral("duration_ms"), s.durationMs ? QJsonValue(double(*s.durationMs)) : QJsonValue()},
            {QStringLiteral("direct"), s.direct},
            {QStringLiteral("fadvise"), s.fadviseSequential},
            {QStringLiteral("drop_caches"), s.dropCaches},
            {QStringLiteral("repeat"), s.repeat},
            {QStringLiteral("interval_ms"), s.intervalMs},
            {QStringLiteral("threads"), s.threads},
            {QStringLiteral("shared_fd"), s.sharedFd},
            {QStringLiteral("seq_streams"), s.seqStreams},
            {QStringLiteral("random_readers"), s.randomReaders},
            {QStringLiteral("random_bs"), u64(s.randomBlockSize)},
            {QStringLiteral("percentiles"), QJsonArray::fromVariantList(QVariantList(s.percentiles.cbegin(),
                                                                                     s.percentiles.cend()))}};
}

Result<ReadTestSpec> specFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return makeError(InvalidArgument, QStringLiteral("'spec' must be an object"));
    ReadTestSpec s;
    const auto kind = parseReadTestKind(v[u"kind"].toString());
    if (!kind)
        return makeError(InvalidArgument, QStringLiteral("'spec.kind' %1 is not seq, concurrent, server or mixed")
                                              .arg(v[u"kind"].toString().left(32)));
    s.kind = *kind;
    s.measure = targetsFromJson(v[u"measure"]);
    s.background = targetsFromJson(v[u"background"]);
    s.blockSize = u64(v[u"bs"]);
    s.sizeBytes = opt(v[u"size"]);
    s.count = opt(v[u"count"]);
    if (v[u"duration_ms"].isDouble())
        s.durationMs = qint64(v[u"duration_ms"].toDouble());
    s.direct = v[u"direct"].toBool();
    s.fadviseSequential = v[u"fadvise"].toBool();
    s.dropCaches = v[u"drop_caches"].toBool();
    s.repeat = v[u"repeat"].toInt(3);
    s.intervalMs = v[u"interval_ms"].toInt(100);
    s.threads = v[u"threads"].toInt(4);
    s.sharedFd = v[u"shared_fd"].toBool();
    s.seqStreams = v[u"seq_streams"].toInt(1);
    s.randomReaders = v[u"random_readers"].toInt(1);
    s.randomBlockSize = u64(v[u"random_bs"]);
    if (v[u"percentiles"].isArray()) {
        s.percentiles.clear();
        for (const QJsonValue &p : v[u"percentiles"].toArray())
            s.percentiles << p.toDouble(-1); // plan() refuses what is not 0 < p <= 100
    }
    return s;
}

QJsonObject intervalToJson(const IntervalSample &i)
{
    QJsonArray streams;
    for (const IntervalSample::Stream &s : i.streams)
        streams.append(QJsonArray{u64(s.bytes), u64(s.reads), s.meanLatencyMs, s.maxLatencyMs});
    return {{QStringLiteral("end"), i.endSeconds}, {QStringLiteral("dt"), i.seconds}, {QStringLiteral("s"), streams}};
}

IntervalSample intervalFromJson(const QJsonValue &v)
{
    IntervalSample i;
    i.endSeconds = v[u"end"].toDouble();
    i.seconds = v[u"dt"].toDouble();
    for (const QJsonValue &s : v[u"s"].toArray()) {
        const QJsonArray a = s.toArray();
        i.streams << IntervalSample::Stream{u64(a.at(0)), u64(a.at(1)), a.at(2).toDouble(), a.at(3).toDouble()};
    }
    return i;
}

QJsonObject runToJson(const RunResult &r)
{
    return {{QStringLiteral("label"), r.label},
            {QStringLiteral("seconds"), r.seconds},
            {QStringLiteral("bytes"), u64(r.measuredBytes)},
            {QStringLiteral("mbps"), r.mbPerSec},
            {QStringLiteral("aggregate"), r.aggregateMbPerSec},
            {QStringLiteral("jain"), r.fairnessJain},
            {QStringLiteral("streams"), arrayOf(r.streams, streamToJson)},
            {QStringLiteral("devices"), arrayOf(r.deviceStats, deviceDeltaToJson)},
            {QStringLiteral("settings"), arrayOf(r.settings, settingsToJson)},
            {QStringLiteral("intervals"), arrayOf(r.intervals, intervalToJson)},
            {QStringLiteral("cache_drop"), r.cacheDrop},
            {QStringLiteral("cancelled"), r.cancelled},
            {QStringLiteral("errors"), QJsonArray::fromStringList(r.errors)}};
}

RunResult runFromJson(const QJsonValue &v)
{
    RunResult r;
    r.label = v[u"label"].toString();
    r.seconds = v[u"seconds"].toDouble();
    r.measuredBytes = u64(v[u"bytes"]);
    r.mbPerSec = v[u"mbps"].toDouble();
    r.aggregateMbPerSec = v[u"aggregate"].toDouble();
    r.fairnessJain = v[u"jain"].toDouble(1);
    r.streams = listOf<StreamResult>(v[u"streams"], streamFromJson);
    r.deviceStats = listOf<DeviceCounterDelta>(v[u"devices"], deviceDeltaFromJson);
    r.settings = listOf<RecordedSettings>(v[u"settings"], settingsFromJson);
    r.intervals = listOf<IntervalSample>(v[u"intervals"], intervalFromJson);
    r.cacheDrop = v[u"cache_drop"].toString();
    r.cancelled = v[u"cancelled"].toBool();
    r.errors = strings(v[u"errors"]);
    return r;
}

QJsonObject resultToJson(const ReadTestResult &r)
{
    return {{QStringLiteral("kind"), readTestKindName(r.kind)},
            {QStringLiteral("device"), r.device},
            {QStringLiteral("spec"), specToJson(r.spec)},
            {QStringLiteral("runs"), arrayOf(r.runs, runToJson)},
            {QStringLiteral("summary"), summaryToJson(r.mbPerSec)},
            {QStringLiteral("cancelled"), r.cancelled},
            {QStringLiteral("failed"), r.failed},
            {QStringLiteral("errors"), QJsonArray::fromStringList(r.errors)}};
}

ReadTestResult resultFromJson(const QJsonValue &v)
{
    ReadTestResult r;
    r.kind = parseReadTestKind(v[u"kind"].toString()).value_or(ReadTestKind::Sequential);
    r.device = v[u"device"].toString();
    if (auto spec = specFromJson(v[u"spec"]))
        r.spec = *spec;
    r.runs = listOf<RunResult>(v[u"runs"], runFromJson);
    r.mbPerSec = summaryFromJson(v[u"summary"]);
    if (!v[u"summary"][u"median"].isDouble()) {
        // An agent from before the median: the same runs the summary counts.
        QList<double> complete, all;
        for (const RunResult &run : std::as_const(r.runs)) {
            all << run.mbPerSec;
            if (!run.cancelled && run.errors.isEmpty())
                complete << run.mbPerSec;
        }
        r.mbPerSec.median = medianOf(complete.isEmpty() ? all : complete);
    }
    r.cancelled = v[u"cancelled"].toBool();
    r.failed = v[u"failed"].toBool();
    r.errors = strings(v[u"errors"]);
    return r;
}

QJsonObject pointToJson(const SweepPoint &p)
{
    return {{QStringLiteral("requested"), u64(p.requestedKiB)},
            {QStringLiteral("ra"), u64(p.readAheadKiB)},
            {QStringLiteral("mbps"), p.mbPerSec},
            {QStringLiteral("avg_kib"), p.avgRequestKiB},
            {QStringLiteral("result"), resultToJson(p.result)}};
}

SweepPoint pointFromJson(const QJsonValue &v)
{
    SweepPoint p;
    p.requestedKiB = u64(v[u"requested"]);
    p.readAheadKiB = u64(v[u"ra"]);
    p.mbPerSec = v[u"mbps"].toDouble();
    p.avgRequestKiB = v[u"avg_kib"].toDouble();
    p.result = resultFromJson(v[u"result"]);
    return p;
}

QJsonObject sweepToJson(const SweepResult &r)
{
    return {{QStringLiteral("kind"), readTestKindName(r.test)},
            {QStringLiteral("device"), r.device},
            {QStringLiteral("queue"), r.queueDevice},
            {QStringLiteral("original"), opt(r.originalKiB)},
            {QStringLiteral("restored"), r.restored},
            {QStringLiteral("restore_message"), r.restoreMessage},
            {QStringLiteral("journal"), r.journalPath},
            {QStringLiteral("points"), arrayOf(r.points, pointToJson)},
            {QStringLiteral("cancelled"), r.cancelled},
            {QStringLiteral("failed"), r.failed},
            {QStringLiteral("errors"), QJsonArray::fromStringList(r.errors)}};
}

SweepResult sweepFromJson(const QJsonValue &v)
{
    SweepResult r;
    r.test = parseReadTestKind(v[u"kind"].toString()).value_or(ReadTestKind::Sequential);
    r.device = v[u"device"].toString();
    r.queueDevice = v[u"queue"].toString();
    r.originalKiB = opt(v[u"original"]);
    r.restored = v[u"restored"].toBool();
    r.restoreMessage = v[u"restore_message"].toString();
    r.journalPath = v[u"journal"].toString();
    r.points = listOf<SweepPoint>(v[u"points"], pointFromJson);
    r.cancelled = v[u"cancelled"].toBool();
    r.failed = v[u"failed"].toBool();
    r.errors = strings(v[u"errors"]);
    return r;
}

} // namespace blocktune::wire
