// JSON forms of read test and sweep results, both directions (docs/json.md):
// the output of `test --json`/`sweep --json` (rounded, summarized), which the
// history keeps, and the exact form the agent protocol carries, with the
// same names for the same things.
#include "readtest.h"

#include <QJsonArray>

#include <cmath>

namespace blocktune {

namespace {

// Figures rounded to what a measurement can claim; keeps the output readable.
// `scale` is 1/step: dividing by an exact power of ten gives the double
// nearest the decimal, which QJsonDocument prints without noise digits.
double rounded(double value, double scale = 1e3)
{
    return std::round(value * scale) / scale;
}

QJsonValue optionalNumber(const std::optional<quint64> &value)
{
    return value ? QJsonValue(double(*value)) : QJsonValue(QJsonValue::Null);
}

QJsonObject latencyToJson(const LatencySummary &l, bool percentiles)
{
    QJsonObject o{{QStringLiteral("mean"), rounded(l.meanMs)}, {QStringLiteral("max"), rounded(l.maxMs)}};
    if (percentiles) {
        o.insert(QStringLiteral("p50"), rounded(l.p50Ms));
        o.insert(QStringLiteral("p99"), rounded(l.p99Ms));
    }
    return o;
}

// `latency_us`: fio's figures and percentile keys, and (per run) the
// non-empty buckets of the histogram as [upper_us, count].
QJsonObject latencyUsToJson(const LatencyDistribution &d, const QList<double> &percentiles, bool withHistogram)
{
    QJsonObject pcts;
    for (const double p : percentiles)
        pcts.insert(percentileKey(p), rounded(d.percentileUs(p)));
    QJsonObject o{{QStringLiteral("count"), double(d.count)}, {QStringLiteral("mean"), rounded(d.meanUs)},
                  {QStringLiteral("min"), rounded(d.minUs)},   {QStringLiteral("max"), rounded(d.maxUs)},
                  {QStringLiteral("stdev"), rounded(d.stdevUs)}, {QStringLiteral("percentiles"), pcts}};
    if (withHistogram) {
        QJsonArray histogram;
        for (const LatencyBucket &b : d.buckets)
            histogram.append(QJsonArray{rounded(b.upperUs), double(b.count)});
        o.insert(QStringLiteral("histogram"), histogram);
    }
    return o;
}

QJsonObject settingsToJson(const RecordedSettings &s)
{
    return QJsonObject{
        {QStringLiteral("device"), s.device},
        {QStringLiteral("queue_device"), s.queueDevice},
        {QStringLiteral("read_ahead_kb"), optionalNumber(s.readAheadKiB)},
        {QStringLiteral("scheduler"), s.scheduler.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s.scheduler)},
        {QStringLiteral("nr_requests"), optionalNumber(s.nrRequests)},
        {QStringLiteral("max_sectors_kb"), optionalNumber(s.maxSectorsKiB)},
        {QStringLiteral("logical_block_size"), optionalNumber(s.logicalBlockBytes)},
        {QStringLiteral("kernel"), s.kernel},
    };
}

QJsonObject deviceStatsToJson(const DeviceCounterDelta &d)
{
    QJsonObject o{{QStringLiteral("device"), d.device}, {QStringLiteral("available"), d.available},
                  {QStringLiteral("consumed_bytes"), double(d.consumedBytes)}};
    if (d.available) {
        o.insert(QStringLiteral("requests"), double(d.requests));
        o.insert(QStringLiteral("merges"), double(d.merges));
        o.insert(QStringLiteral("device_bytes"), double(d.deviceBytes));
        o.insert(QStringLiteral("avg_request_kb"), rounded(d.avgRequestKiB, 1e2));
        o.insert(QStringLiteral("overshoot_bytes"), double(d.overshootBytes));
    }
    return o;
}

QJsonObject streamToJson(const StreamResult &s, const QList<double> &percentiles)
{
    const bool random = s.pattern == AccessPattern::Random;
    QJsonObject o{
        {QStringLiteral("name"), s.name},
        {QStringLiteral("device"), s.device},
        {QStringLiteral("offset"), double(s.offset)},
        {QStringLiteral("role"), streamRoleName(s.role)},
        {QStringLiteral("pattern"), random ? QStringLiteral("random") : QStringLiteral("sequential")},
        {QStringLiteral("bytes"), double(s.bytes)},
        {QStringLiteral("planned_bytes"), double(s.plannedBytes)},
        {QStringLiteral("reads"), double(s.reads)},
        {QStringLiteral("seconds"), rounded(s.seconds, 1e6)},
        {QStringLiteral("mb_per_s"), rounded(s.mbPerSec)},
        {QStringLiteral("latency_ms"), latencyToJson(s.latency, random)},
        {QStringLiteral("latency_us"), latencyUsToJson(s.latencyUs, percentiles, true)},
        {QStringLiteral("error"), s.error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s.error)},
    };
    if (s.workers.size() > 1) {
        QJsonArray threads;
        for (const WorkerResult &w : s.workers)
            threads.append(QJsonObject{
                {QStringLiteral("bytes"), double(w.bytes)},
                {QStringLiteral("reads"), double(w.reads)},
                {QStringLiteral("seconds"), rounded(w.seconds, 1e6)},
                {QStringLiteral("mb_per_s"), rounded(w.seconds > 0 ? double(w.bytes) / w.seconds / 1e6 : 0.0)},
                {QStringLiteral("latency_ms"), latencyToJson(w.latency, false)},
                {QStringLiteral("error"), w.error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(w.error)},
            });
        o.insert(QStringLiteral("threads"), threads);
    }
    return o;
}

QJsonObject runToJson(const RunResult &r, bool withIntervals, const QList<double> &percentiles)
{
    QJsonArray streams;
    for (const StreamResult &s : r.streams)
        streams.append(streamToJson(s, percentiles));
    QJsonObject o{
        {QStringLiteral("label"), r.label},
        {QStringLiteral("bytes"), double(r.measuredBytes)},
        {QStringLiteral("seconds"), rounded(r.seconds, 1e6)},
        {QStringLiteral("mb_per_s"), rounded(r.mbPerSec)},
        {QStringLiteral("aggregate_mb_per_s"), rounded(r.aggregateMbPerSec)},
        {QStringLiteral("fairness_jain"), rounded(r.fairnessJain, 1e4)},
        {QStringLiteral("complete"), !r.cancelled && r.errors.isEmpty()},
        {QStringLiteral("cancelled"), r.cancelled},
        {QStringLiteral("cache_drop"), r.cacheDrop},
        {QStringLiteral("streams"), streams},
        {QStringLiteral("errors"), QJsonArray::fromStringList(r.errors)},
    };
    if (!r.deviceStats.isEmpty())
        o.insert(QStringLiteral("device_stats"), deviceStatsToJson(r.deviceStats.constFirst()));
    if (!r.settings.isEmpty())
        o.insert(QStringLiteral("settings"), settingsToJson(r.settings.constFirst()));
    if (withIntervals) {
        QJsonArray intervals;
        for (const IntervalSample &sample : r.intervals) {
            QJsonArray perStream;
            for (const IntervalSample::Stream &s : sample.streams)
                perStream.append(QJsonObject{
                    {QStringLiteral("bytes"), double(s.bytes)},
                    {QStringLiteral("reads"), double(s.reads)},
                    {QStringLiteral("mb_per_s"), rounded(sample.seconds > 0 ? double(s.bytes) / sample.seconds / 1e6 : 0.0)},
                    {QStringLiteral("latency_mean_ms"), rounded(s.meanLatencyMs)},
                    {QStringLiteral("latency_max_ms"), rounded(s.maxLatencyMs)},
                });
            intervals.append(QJsonObject{{QStringLiteral("t"), rounded(sample.endSeconds, 1e4)},
                                         {QStringLiteral("dt"), rounded(sample.seconds, 1e4)},
                                         {QStringLiteral("streams"), perStream}});
        }
        o.insert(QStringLiteral("intervals"), intervals);
    }
    return o;
}

// What was asked for: the test's options and how it ended.
QJsonObject testSpecToJson(const ReadTestResult &result)
{
    const ReadTestSpec &spec = result.spec;
    QJsonObject o{
        {QStringLiteral("schema"), kReadTestSchema},
        {QStringLiteral("test"), readTestKindName(result.kind)},
        {QStringLiteral("device"), result.device},
        {QStringLiteral("block_size"), double(spec.blockSize)},
        {QStringLiteral("size"), optionalNumber(spec.sizeBytes)},
        {QStringLiteral("count"), optionalNumber(spec.count)},
        {QStringLiteral("time_ms"), spec.durationMs ? QJsonValue(double(*spec.durationMs)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("direct"), spec.direct},
        {QStringLiteral("fadvise_sequential"), spec.fadviseSequential},
        {QStringLiteral("repeat"), spec.repeat},
        {QStringLiteral("interval_ms"), spec.intervalMs},
        {QStringLiteral("cancelled"), result.cancelled},
        {QStringLiteral("failed"), result.failed},
        {QStringLiteral("errors"), QJsonArray::fromStringList(result.errors)},
    };
    if (result.kind == ReadTestKind::Server) {
        o.insert(QStringLiteral("threads"), spec.threads);
        o.insert(QStringLiteral("shared_fd"), spec.sharedFd);
    }
    if (result.kind == ReadTestKind::Mixed) {
        o.insert(QStringLiteral("seq_streams"), spec.seqStreams);
        o.insert(QStringLiteral("random_readers"), spec.randomReaders);
        o.insert(QStringLiteral("random_block_size"), double(spec.randomBlockSize));
    }
    return o;
}

// Each run, and the figures over the runs.
void insertRuns(QJsonObject &o, const ReadTestResult &result, bool withIntervals)
{
    QJsonArray runs;
    QList<double> aggregate, fairness;
    for (const RunResult &r : result.runs) {
        runs.append(runToJson(r, withIntervals, result.spec.percentiles));
        aggregate << r.aggregateMbPerSec;
        fairness << r.fairnessJain;
    }
    o.insert(QStringLiteral("runs"), runs);
    // The median is the test's figure; mean, min and max beside it.
    o.insert(QStringLiteral("median_mb_per_s"), rounded(result.mbPerSec.median));
    o.insert(QStringLiteral("mean_mb_per_s"), rounded(result.mbPerSec.mean));
    o.insert(QStringLiteral("min_mb_per_s"), rounded(result.mbPerSec.min));
    o.insert(QStringLiteral("max_mb_per_s"), rounded(result.mbPerSec.max));
    o.insert(QStringLiteral("stdev_mb_per_s"), rounded(result.mbPerSec.stdev));
    o.insert(QStringLiteral("aggregate_mb_per_s"), rounded(summarize(aggregate).mean));
    o.insert(QStringLiteral("fairness_jain"), rounded(summarize(fairness).mean, 1e4));
    const auto d = runDisagreement(result);
    o.insert(QStringLiteral("runs_disagree"),
             d ? QJsonValue(QJsonObject{{QStringLiteral("run"), d->label},
                                        {QStringLiteral("mb_per_s"), rounded(d->mbPerSec)},
                                        {QStringLiteral("others_mb_per_s"), rounded(d->othersMbPerSec)},
                                        {QStringLiteral("factor"), rounded(d->factor)},
                                        {QStringLiteral("slower"), d->slower},
                                        {QStringLiteral("first"), d->first}})
               : QJsonValue());
}

// Stream `i` of the first run over all the runs: MB/s is the mean of the
// runs' figures.
QJsonObject streamOverRunsToJson(const QList<RunResult> &runs, qsizetype i, const QList<double> &percentiles)
{
    QList<double> rates, latMean, latP99;
    QList<LatencyDistribution> latencies;
    quint64 bytes = 0;
    double latMax = 0;
    QString error;
    for (const RunResult &r : runs) {
        if (i >= r.streams.size())
            continue;
        const StreamResult &s = r.streams.at(i);
        rates << s.mbPerSec;
        latMean << s.latency.meanMs;
        latP99 << s.latency.p99Ms;
        latMax = std::max(latMax, s.latency.maxMs);
        latencies << s.latencyUs;
        bytes += s.bytes;
        if (error.isEmpty())
            error = s.error;
    }
    const StreamResult &s = runs.constFirst().streams.at(i);
    QJsonObject latency{{QStringLiteral("mean"), rounded(summarize(latMean).mean)},
                        {QStringLiteral("max"), rounded(latMax)}};
    if (s.pattern == AccessPattern::Random)
        latency.insert(QStringLiteral("p99"), rounded(summarize(latP99).mean));
    return QJsonObject{
        {QStringLiteral("name"), s.name},
        {QStringLiteral("device"), s.device},
        {QStringLiteral("offset"), double(s.offset)},
        {QStringLiteral("role"), streamRoleName(s.role)},
        {QStringLiteral("pattern"), s.pattern == AccessPattern::Random ? QStringLiteral("random")
                                                                         : QStringLiteral("sequential")},
        {QStringLiteral("mb_per_s"), rounded(summarize(rates).mean)},
        {QStringLiteral("bytes"), double(bytes)},
        {QStringLiteral("latency_ms"), latency},
        {QStringLiteral("latency_us"), latencyUsToJson(mergeLatency(latencies), percentiles, false)},
        {QStringLiteral("error"), error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(error)},
    };
}

// What the kernel counted over all the runs, and the settings of the first.
void insertDevices(QJsonObject &o, const ReadTestResult &result)
{
    const QList<DeviceCounterDelta> totals = sumDeviceStats(result.runs);
    if (!totals.isEmpty()) {
        o.insert(QStringLiteral("device_stats"), deviceStatsToJson(totals.constFirst()));
        QJsonObject byDevice;
        for (const DeviceCounterDelta &d : totals)
            byDevice.insert(d.device, deviceStatsToJson(d));
        o.insert(QStringLiteral("device_stats_by_device"), byDevice);
    }
    if (!result.runs.isEmpty() && !result.runs.constFirst().settings.isEmpty()) {
        const RunResult &first = result.runs.constFirst();
        o.insert(QStringLiteral("settings"), settingsToJson(first.settings.constFirst()));
        QJsonObject byDevice;
        for (const RecordedSettings &s : first.settings)
            byDevice.insert(s.device, settingsToJson(s));
        o.insert(QStringLiteral("settings_by_device"), byDevice);
    }
}

} // namespace

QJsonObject readTestToJson(const ReadTestResult &result, bool withIntervals)
{
    QJsonObject o = testSpecToJson(result);
    insertRuns(o, result, withIntervals);
    QJsonArray streams;
    if (!result.runs.isEmpty()) {
        for (qsizetype i = 0; i < result.runs.constFirst().streams.size(); ++i)
            streams.append(streamOverRunsToJson(result.runs, i, result.spec.percentiles));
    }
    o.insert(QStringLiteral("streams"), streams);
    insertDevices(o, result);
    return o;
}

QJsonObject sweepToJson(const SweepResult &result, bool withRuns)
{
    QJsonArray points;
    for (const SweepPoint &p : result.points) {
        QJsonObject point{
            {QStringLiteral("read_ahead_kb"), double(p.readAheadKiB)},
            {QStringLiteral("requested_read_ahead_kb"), double(p.requestedKiB)},
            {QStringLiteral("mb_per_s"), rounded(p.mbPerSec)},
            {QStringLiteral("avg_request_kb"), rounded(p.avgRequestKiB, 1e2)},
            {QStringLiteral("min_mb_per_s"), rounded(p.result.mbPerSec.min)},
            {QStringLiteral("max_mb_per_s"), rounded(p.result.mbPerSec.max)},
            {QStringLiteral("complete"), !p.result.cancelled && !p.result.failed},
        };
        if (withRuns)
            point.insert(QStringLiteral("result"), readTestToJson(p.result));
        points.append(point);
    }
    QJsonObject o{
        {QStringLiteral("schema"), kReadTestSchema},
        {QStringLiteral("sweep"), QStringLiteral("read_ahead_kb")},
        {QStringLiteral("device"), result.device},
        {QStringLiteral("queue_device"), result.queueDevice},
        {QStringLiteral("original_read_ahead_kb"), optionalNumber(result.originalKiB)},
        {QStringLiteral("restored"), result.restored},
        {QStringLiteral("restore_message"), result.restoreMessage},
        {QStringLiteral("points"), points},
        {QStringLiteral("cancelled"), result.cancelled},
        {QStringLiteral("failed"), result.failed},
        {QStringLiteral("errors"), QJsonArray::fromStringList(result.errors)},
    };
    o.insert(QStringLiteral("test"), readTestKindName(result.test));
    o.insert(QStringLiteral("journal"), result.journalPath);
    if (!result.points.isEmpty()) {
        const ReadTestResult &first = result.points.constFirst().result;
        o.insert(QStringLiteral("block_size"), double(first.spec.blockSize));
        if (!first.runs.isEmpty() && !first.runs.constFirst().settings.isEmpty())
            o.insert(QStringLiteral("settings"), settingsToJson(first.runs.constFirst().settings.constFirst()));
    }
    return o;
}

// ---- The exact form: the agent protocol's ---------------------------------
//
// The same objects and names as above, unrounded and complete, so a result
// read back is the result written: every run with its streams, threads,
// intervals and per-device counters and settings, and the spec as asked.

namespace {

QJsonValue u64(quint64 v)
{
    return double(v);
}
quint64 u64(const QJsonValue &v)
{
    return quint64(v.toDouble());
}
std::optional<quint64> optionalFrom(const QJsonValue &v)
{
    return v.isDouble() ? std::optional<quint64>(quint64(v.toDouble())) : std::nullopt;
}
QJsonValue nullIfEmpty(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}
QStringList stringListOf(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << s.toString();
    return out;
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

QJsonArray targetsToJson(const QList<StreamTarget> &targets)
{
    return arrayOf(targets, [](const StreamTarget &t) {
        return QJsonObject{{QStringLiteral("device"), t.device}, {QStringLiteral("offset"), u64(t.offset)}};
    });
}
QList<StreamTarget> targetsFromJson(const QJsonValue &v)
{
    return listOf<StreamTarget>(v, [](const QJsonValue &t) { return StreamTarget{t[u"device"].toString(), u64(t[u"offset"])}; });
}

QJsonObject exactLatencyToJson(const LatencySummary &l)
{
    return {{QStringLiteral("count"), u64(l.count)}, {QStringLiteral("mean"), l.meanMs},
            {QStringLiteral("max"), l.maxMs},        {QStringLiteral("p50"), l.p50Ms},
            {QStringLiteral("p99"), l.p99Ms}};
}
LatencySummary latencyFromJson(const QJsonValue &v)
{
    return {u64(v[u"count"]), v[u"mean"].toDouble(), v[u"max"].toDouble(), v[u"p50"].toDouble(), v[u"p99"].toDouble()};
}

// `latency_us` with every bucket as [lower_us, upper_us, count] under
// `buckets` (the output's `histogram` keeps only the upper bound).
QJsonObject exactDistributionToJson(const LatencyDistribution &d)
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

QJsonObject exactStreamToJson(const StreamResult &s)
{
    QJsonArray threads;
    for (const WorkerResult &w : s.workers)
        threads.append(QJsonObject{{QStringLiteral("bytes"), u64(w.bytes)},
                                   {QStringLiteral("reads"), u64(w.reads)},
                                   {QStringLiteral("seconds"), w.seconds},
                                   {QStringLiteral("latency_ms"), exactLatencyToJson(w.latency)},
                                   {QStringLiteral("error"), nullIfEmpty(w.error)}});
    return {{QStringLiteral("name"), s.name},
            {QStringLiteral("device"), s.device},
            {QStringLiteral("offset"), u64(s.offset)},
            {QStringLiteral("role"), streamRoleName(s.role)},
            {QStringLiteral("pattern"), s.pattern == AccessPattern::Random ? QStringLiteral("random")
                                                                             : QStringLiteral("sequential")},
            {QStringLiteral("bytes"), u64(s.bytes)},
            {QStringLiteral("planned_bytes"), u64(s.plannedBytes)},
            {QStringLiteral("reads"), u64(s.reads)},
            {QStringLiteral("seconds"), s.seconds},
            {QStringLiteral("mb_per_s"), s.mbPerSec},
            {QStringLiteral("latency_ms"), exactLatencyToJson(s.latency)},
            {QStringLiteral("latency_us"), exactDistributionToJson(s.latencyUs)},
            {QStringLiteral("error"), nullIfEmpty(s.error)},
            {QStringLiteral("threads"), threads}};
}
StreamResult streamFromJson(const QJsonValue &v)
{
    StreamResult s;
    s.name = v[u"name"].toString();
    s.device = v[u"device"].toString();
    s.offset = u64(v[u"offset"]);
    s.role = v[u"role"].toString() == u"background" ? StreamRole::Background : StreamRole::Measure;
    s.pattern = v[u"pattern"].toString() == u"random" ? AccessPattern::Random : AccessPattern::Sequential;
    s.bytes = u64(v[u"bytes"]);
    s.plannedBytes = u64(v[u"planned_bytes"]);
    s.reads = u64(v[u"reads"]);
    s.seconds = v[u"seconds"].toDouble();
    s.mbPerSec = v[u"mb_per_s"].toDouble();
    s.latency = latencyFromJson(v[u"latency_ms"]);
    s.latencyUs = distributionFromJson(v[u"latency_us"]);
    s.error = v[u"error"].toString();
    for (const QJsonValue &w : v[u"threads"].toArray())
        s.workers << WorkerResult{u64(w[u"bytes"]), u64(w[u"reads"]), w[u"seconds"].toDouble(),
                                  latencyFromJson(w[u"latency_ms"]), w[u"error"].toString()};
    return s;
}

RecordedSettings settingsFromJson(const QJsonValue &v)
{
    RecordedSettings s;
    s.device = v[u"device"].toString();
    s.queueDevice = v[u"queue_device"].toString();
    s.readAheadKiB = optionalFrom(v[u"read_ahead_kb"]);
    s.scheduler = v[u"scheduler"].toString();
    s.nrRequests = optionalFrom(v[u"nr_requests"]);
    s.maxSectorsKiB = optionalFrom(v[u"max_sectors_kb"]);
    s.logicalBlockBytes = optionalFrom(v[u"logical_block_size"]);
    s.kernel = v[u"kernel"].toString();
    return s;
}

QJsonObject exactDeviceStatsToJson(const DeviceCounterDelta &d)
{
    return {{QStringLiteral("device"), d.device},
            {QStringLiteral("available"), d.available},
            {QStringLiteral("consumed_bytes"), u64(d.consumedBytes)},
            {QStringLiteral("requests"), u64(d.requests)},
            {QStringLiteral("merges"), u64(d.merges)},
            {QStringLiteral("device_bytes"), u64(d.deviceBytes)},
            {QStringLiteral("avg_request_kb"), d.avgRequestKiB},
            {QStringLiteral("overshoot_bytes"), double(d.overshootBytes)}};
}
DeviceCounterDelta deviceStatsFromJson(const QJsonValue &v)
{
    DeviceCounterDelta d;
    d.device = v[u"device"].toString();
    d.available = v[u"available"].toBool();
    d.consumedBytes = u64(v[u"consumed_bytes"]);
    d.requests = u64(v[u"requests"]);
    d.merges = u64(v[u"merges"]);
    d.deviceBytes = u64(v[u"device_bytes"]);
    d.avgRequestKiB = v[u"avg_request_kb"].toDouble();
    d.overshootBytes = qint64(v[u"overshoot_bytes"].toDouble());
    return d;
}

// A list of per-device objects as the output writes them (an object by
// device name) with the order kept beside it.
template<typename T, typename F>
void insertByDevice(QJsonObject &o, const QString &name, const QList<T> &items, F &&toJson)
{
    QJsonObject byDevice;
    QJsonArray order;
    for (const T &item : items) {
        byDevice.insert(item.device, toJson(item));
        order.append(item.device);
    }
    o.insert(name + QStringLiteral("_by_device"), byDevice);
    o.insert(name + QStringLiteral("_devices"), order);
}
template<typename T, typename F>
QList<T> byDeviceFrom(const QJsonValue &v, const QString &name, F &&fromJson)
{
    const QJsonObject byDevice = v[name + QStringLiteral("_by_device")].toObject();
    QList<T> out;
    for (const QJsonValue &device : v[name + QStringLiteral("_devices")].toArray())
        out << fromJson(byDevice.value(device.toString()));
    return out;
}

QJsonObject summaryToJson(const Summary &s)
{
    return {{QStringLiteral("runs_counted"), s.count},           {QStringLiteral("median_mb_per_s"), s.median},
            {QStringLiteral("mean_mb_per_s"), s.mean},            {QStringLiteral("min_mb_per_s"), s.min},
            {QStringLiteral("max_mb_per_s"), s.max},              {QStringLiteral("stdev_mb_per_s"), s.stdev}};
}
Summary summaryFromJson(const QJsonValue &v)
{
    Summary s;
    s.count = v[u"runs_counted"].toInt();
    s.median = v[u"median_mb_per_s"].toDouble();
    s.mean = v[u"mean_mb_per_s"].toDouble();
    s.min = v[u"min_mb_per_s"].toDouble();
    s.max = v[u"max_mb_per_s"].toDouble();
    s.stdev = v[u"stdev_mb_per_s"].toDouble();
    return s;
}

QJsonObject merged(QJsonObject into, const QJsonObject &from)
{
    for (auto it = from.constBegin(); it != from.constEnd(); ++it)
        into.insert(it.key(), it.value());
    return into;
}

} // namespace

QJsonObject readTestSpecToJson(const ReadTestSpec &s)
{
    return {{QStringLiteral("test"), readTestKindName(s.kind)},
            {QStringLiteral("measure"), targetsToJson(s.measure)},
            {QStringLiteral("background"), targetsToJson(s.background)},
            {QStringLiteral("block_size"), u64(s.blockSize)},
            {QStringLiteral("size"), optionalNumber(s.sizeBytes)},
            {QStringLiteral("count"), optionalNumber(s.count)},
            {QStringLiteral("time_ms"), s.durationMs ? QJsonValue(double(*s.durationMs)) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("direct"), s.direct},
            {QStringLiteral("fadvise_sequential"), s.fadviseSequential},
            {QStringLiteral("drop_caches"), s.dropCaches},
            {QStringLiteral("repeat"), s.repeat},
            {QStringLiteral("interval_ms"), s.intervalMs},
            {QStringLiteral("threads"), s.threads},
            {QStringLiteral("shared_fd"), s.sharedFd},
            {QStringLiteral("seq_streams"), s.seqStreams},
            {QStringLiteral("random_readers"), s.randomReaders},
            {QStringLiteral("random_block_size"), u64(s.randomBlockSize)},
            {QStringLiteral("percentiles"), QJsonArray::fromVariantList(QVariantList(s.percentiles.cbegin(),
                                                                                     s.percentiles.cend()))}};
}

Result<ReadTestSpec> readTestSpecFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return makeError(InvalidArgument, QStringLiteral("'spec' must be an object"));
    ReadTestSpec s;
    const auto kind = parseReadTestKind(v[u"test"].toString());
    if (!kind)
        return makeError(InvalidArgument, QStringLiteral("'spec.test' %1 is not seq, concurrent, server or mixed")
                                              .arg(v[u"test"].toString().left(32)));
    s.kind = *kind;
    s.measure = targetsFromJson(v[u"measure"]);
    s.background = targetsFromJson(v[u"background"]);
    s.blockSize = u64(v[u"block_size"]);
    s.sizeBytes = optionalFrom(v[u"size"]);
    s.count = optionalFrom(v[u"count"]);
    if (v[u"time_ms"].isDouble())
        s.durationMs = qint64(v[u"time_ms"].toDouble());
    s.direct = v[u"direct"].toBool();
    s.fadviseSequential = v[u"fadvise_sequential"].toBool();
    s.dropCaches = v[u"drop_caches"].toBool();
    s.repeat = v[u"repeat"].toInt(3);
    s.intervalMs = v[u"interval_ms"].toInt(100);
    s.threads = v[u"threads"].toInt(4);
    s.sharedFd = v[u"shared_fd"].toBool();
    s.seqStreams = v[u"seq_streams"].toInt(1);
    s.randomReaders = v[u"random_readers"].toInt(1);
    s.randomBlockSize = u64(v[u"random_block_size"]);
    if (v[u"percentiles"].isArray()) {
        s.percentiles.clear();
        for (const QJsonValue &p : v[u"percentiles"].toArray())
            s.percentiles << p.toDouble(-1); // plan() refuses what is not 0 < p <= 100
    }
    return s;
}

QJsonObject intervalToExactJson(const IntervalSample &sample)
{
    QJsonArray streams;
    for (const IntervalSample::Stream &s : sample.streams)
        streams.append(QJsonObject{{QStringLiteral("bytes"), u64(s.bytes)},
                                   {QStringLiteral("reads"), u64(s.reads)},
                                   {QStringLiteral("latency_mean_ms"), s.meanLatencyMs},
                                   {QStringLiteral("latency_max_ms"), s.maxLatencyMs}});
    return {{QStringLiteral("t"), sample.endSeconds}, {QStringLiteral("dt"), sample.seconds},
            {QStringLiteral("streams"), streams}};
}

IntervalSample intervalFromJson(const QJsonValue &v)
{
    IntervalSample sample;
    sample.endSeconds = v[u"t"].toDouble();
    sample.seconds = v[u"dt"].toDouble();
    for (const QJsonValue &s : v[u"streams"].toArray())
        sample.streams << IntervalSample::Stream{u64(s[u"bytes"]), u64(s[u"reads"]), s[u"latency_mean_ms"].toDouble(),
                                                 s[u"latency_max_ms"].toDouble()};
    return sample;
}

QJsonObject runToExactJson(const RunResult &r)
{
    QJsonObject o{{QStringLiteral("label"), r.label},
                  {QStringLiteral("bytes"), u64(r.measuredBytes)},
                  {QStringLiteral("seconds"), r.seconds},
                  {QStringLiteral("mb_per_s"), r.mbPerSec},
                  {QStringLiteral("aggregate_mb_per_s"), r.aggregateMbPerSec},
                  {QStringLiteral("fairness_jain"), r.fairnessJain},
                  {QStringLiteral("cancelled"), r.cancelled},
                  {QStringLiteral("cache_drop"), r.cacheDrop},
                  {QStringLiteral("streams"), arrayOf(r.streams, exactStreamToJson)},
                  {QStringLiteral("intervals"), arrayOf(r.intervals, intervalToExactJson)},
                  {QStringLiteral("errors"), QJsonArray::fromStringList(r.errors)}};
    insertByDevice(o, QStringLiteral("device_stats"), r.deviceStats, exactDeviceStatsToJson);
    insertByDevice(o, QStringLiteral("settings"), r.settings, settingsToJson);
    return o;
}

RunResult runFromJson(const QJsonValue &v)
{
    RunResult r;
    r.label = v[u"label"].toString();
    r.measuredBytes = u64(v[u"bytes"]);
    r.seconds = v[u"seconds"].toDouble();
    r.mbPerSec = v[u"mb_per_s"].toDouble();
    r.aggregateMbPerSec = v[u"aggregate_mb_per_s"].toDouble();
    r.fairnessJain = v[u"fairness_jain"].toDouble(1);
    r.cancelled = v[u"cancelled"].toBool();
    r.cacheDrop = v[u"cache_drop"].toString();
    r.streams = listOf<StreamResult>(v[u"streams"], streamFromJson);
    r.intervals = listOf<IntervalSample>(v[u"intervals"], intervalFromJson);
    r.errors = stringListOf(v[u"errors"]);
    r.deviceStats = byDeviceFrom<DeviceCounterDelta>(v, QStringLiteral("device_stats"), deviceStatsFromJson);
    r.settings = byDeviceFrom<RecordedSettings>(v, QStringLiteral("settings"), settingsFromJson);
    return r;
}

QJsonObject readTestToExactJson(const ReadTestResult &r)
{
    QJsonObject o = merged(readTestSpecToJson(r.spec), summaryToJson(r.mbPerSec));
    o.insert(QStringLiteral("schema"), kReadTestSchema);
    o.insert(QStringLiteral("test"), readTestKindName(r.kind));
    o.insert(QStringLiteral("device"), r.device);
    o.insert(QStringLiteral("runs"), arrayOf(r.runs, runToExactJson));
    o.insert(QStringLiteral("cancelled"), r.cancelled);
    o.insert(QStringLiteral("failed"), r.failed);
    o.insert(QStringLiteral("errors"), QJsonArray::fromStringList(r.errors));
    return o;
}

ReadTestResult readTestFromJson(const QJsonValue &v)
{
    ReadTestResult r;
    r.kind = parseReadTestKind(v[u"test"].toString()).value_or(ReadTestKind::Sequential);
    r.device = v[u"device"].toString();
    if (auto spec = readTestSpecFromJson(v))
        r.spec = *spec;
    r.runs = listOf<RunResult>(v[u"runs"], runFromJson);
    r.mbPerSec = summaryFromJson(v);
    r.cancelled = v[u"cancelled"].toBool();
    r.failed = v[u"failed"].toBool();
    r.errors = stringListOf(v[u"errors"]);
    return r;
}

QJsonObject sweepPointToExactJson(const SweepPoint &p)
{
    return {{QStringLiteral("read_ahead_kb"), u64(p.readAheadKiB)},
            {QStringLiteral("requested_read_ahead_kb"), u64(p.requestedKiB)},
            {QStringLiteral("mb_per_s"), p.mbPerSec},
            {QStringLiteral("avg_request_kb"), p.avgRequestKiB},
            {QStringLiteral("result"), readTestToExactJson(p.result)}};
}

SweepPoint sweepPointFromJson(const QJsonValue &v)
{
    SweepPoint p;
    p.readAheadKiB = u64(v[u"read_ahead_kb"]);
    p.requestedKiB = u64(v[u"requested_read_ahead_kb"]);
    p.mbPerSec = v[u"mb_per_s"].toDouble();
    p.avgRequestKiB = v[u"avg_request_kb"].toDouble();
    p.result = readTestFromJson(v[u"result"]);
    return p;
}

QJsonObject sweepToExactJson(const SweepResult &r)
{
    return {{QStringLiteral("schema"), kReadTestSchema},
            {QStringLiteral("sweep"), QStringLiteral("read_ahead_kb")},
            {QStringLiteral("test"), readTestKindName(r.test)},
            {QStringLiteral("device"), r.device},
            {QStringLiteral("queue_device"), r.queueDevice},
            {QStringLiteral("original_read_ahead_kb"), optionalNumber(r.originalKiB)},
            {QStringLiteral("restored"), r.restored},
            {QStringLiteral("restore_message"), r.restoreMessage},
            {QStringLiteral("journal"), r.journalPath},
            {QStringLiteral("points"), arrayOf(r.points, sweepPointToExactJson)},
            {QStringLiteral("cancelled"), r.cancelled},
            {QStringLiteral("failed"), r.failed},
            {QStringLiteral("errors"), QJsonArray::fromStringList(r.errors)}};
}

SweepResult sweepFromJson(const QJsonValue &v)
{
    SweepResult r;
    r.test = parseReadTestKind(v[u"test"].toString()).value_or(ReadTestKind::Sequential);
    r.device = v[u"device"].toString();
    r.queueDevice = v[u"queue_device"].toString();
    r.originalKiB = optionalFrom(v[u"original_read_ahead_kb"]);
    r.restored = v[u"restored"].toBool();
    r.restoreMessage = v[u"restore_message"].toString();
    r.journalPath = v[u"journal"].toString();
    r.points = listOf<SweepPoint>(v[u"points"], sweepPointFromJson);
    r.cancelled = v[u"cancelled"].toBool();
    r.failed = v[u"failed"].toBool();
    r.errors = stringListOf(v[u"errors"]);
    return r;
}

QList<DeviceCounterDelta> sumDeviceStats(const QList<RunResult> &runs)
{
    QList<DeviceCounterDelta> totals;
    for (const RunResult &r : runs) {
        for (const DeviceCounterDelta &d : r.deviceStats) {
            auto it = std::find_if(totals.begin(), totals.end(),
                                   [&](const DeviceCounterDelta &t) { return t.device == d.device; });
            if (it == totals.end()) {
                totals.append(d);
                continue;
            }
            it->available = it->available && d.available;
            it->requests += d.requests;
            it->merges += d.merges;
            it->deviceBytes += d.deviceBytes;
            it->consumedBytes += d.consumedBytes;
            it->overshootBytes += d.overshootBytes;
            it->avgRequestKiB = it->requests ? double(it->deviceBytes) / double(it->requests) / 1024.0 : 0.0;
        }
    }
    return totals;
}

} // namespace blocktune
