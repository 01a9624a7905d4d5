// JSON forms of read test and sweep results (schema documented in docs/json.md).
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
