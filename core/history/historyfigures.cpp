// The named figures of a history record (schema 2 of `history --json`),
// read from the record's whole result: the test's options, its summary, one
// object per device and per stream (a test) or per readahead point (a
// sweep). Every key is a name; no device name or unit sits inside a key.
#include "history.h"

#include "readtest/readtest.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace blocktune {

namespace {

QJsonObject pick(const QJsonObject &from, std::initializer_list<const char *> keys)
{
    QJsonObject out;
    for (const char *key : keys) {
        const QString k = QString::fromLatin1(key);
        if (from.contains(k) && !from.value(k).isNull())
            out.insert(k, from.value(k));
    }
    return out;
}

// Settings and kernel counts per device: the test's `settings_by_device`
// and `device_stats_by_device`, or a sweep's one `settings`.
QJsonArray devicesOf(const QJsonObject &result)
{
    QJsonObject settings = result.value(u"settings_by_device").toObject();
    if (settings.isEmpty() && result.value(u"settings").isObject()) {
        const QJsonObject one = result.value(u"settings").toObject();
        settings.insert(one.value(u"device").toString(), one);
    }
    const QJsonObject stats = result.value(u"device_stats_by_device").toObject();
    QStringList names = settings.keys();
    for (const QString &name : stats.keys())
        if (!names.contains(name))
            names << name;
    QJsonArray out;
    for (const QString &name : names) {
        QJsonObject d = pick(settings.value(name).toObject(),
                             {"queue_device", "read_ahead_kb", "scheduler", "nr_requests", "max_sectors_kb"});
        const QJsonObject s = stats.value(name).toObject();
        if (s.value(u"available").toBool())
            for (auto it = s.constBegin(); it != s.constEnd(); ++it)
                if (it.key() != u"device" && it.key() != u"available")
                    d.insert(it.key(), it.value());
        d.insert(QStringLiteral("device"), name);
        out.append(d);
    }
    return out;
}

// A stream's latency_us with its percentiles as an array: test --json
// keeps fio's keys ("99.900000"), the history names every figure.
QJsonObject latencyFiguresOf(const QJsonObject &latency)
{
    QJsonObject out = pick(latency, {"count", "mean", "min", "max", "stdev"});
    QList<std::pair<double, QJsonValue>> pcts;
    const QJsonObject given = latency.value(u"percentiles").toObject();
    for (auto it = given.constBegin(); it != given.constEnd(); ++it)
        pcts.append({it.key().toDouble(), it.value()});
    std::sort(pcts.begin(), pcts.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QJsonArray list;
    for (const auto &[pct, us] : pcts)
        list.append(QJsonObject{{QStringLiteral("percentile"), pct}, {QStringLiteral("us"), us}});
    out.insert(QStringLiteral("percentiles"), list);
    return out;
}

QJsonArray streamsOf(const QJsonObject &result)
{
    QJsonArray out;
    for (const QJsonValue &v : result.value(u"streams").toArray()) {
        QJsonObject stream = pick(v.toObject(), {"name", "device", "offset", "role", "pattern", "mb_per_s", "bytes",
                                                 "latency_ms", "error"});
        if (v[u"latency_us"].isObject())
            stream.insert(QStringLiteral("latency_us"), latencyFiguresOf(v[u"latency_us"].toObject()));
        out.append(stream);
    }
    return out;
}

QJsonArray pointsOf(const QJsonObject &result)
{
    QJsonArray out;
    for (const QJsonValue &v : result.value(u"points").toArray())
        out.append(pick(v.toObject(), {"read_ahead_kb", "requested_read_ahead_kb", "mb_per_s", "min_mb_per_s",
                                       "max_mb_per_s", "avg_request_kb", "complete"}));
    return out;
}

} // namespace

QJsonObject historyFigures(const QString &kind, const QJsonObject &result)
{
    if (result.isEmpty())
        return {};
    QJsonObject figures{
        {QStringLiteral("spec"),
         pick(result, {"block_size", "size", "count", "time_ms", "direct", "fadvise_sequential", "repeat", "threads",
                       "shared_fd", "seq_streams", "random_readers", "random_block_size"})},
        {QStringLiteral("devices"), devicesOf(result)},
    };
    if (kind == u"advice") {
        QJsonArray points;
        for (const QJsonValue &v : result.value(u"curve").toArray()) {
            QJsonObject point = pick(v.toObject(), {"read_ahead_kb", "mb_per_s", "fitted_mb_per_s", "min_mb_per_s",
                                                    "max_mb_per_s", "spread_pct", "avg_request_kb"});
            point.insert(QStringLiteral("runs"), v[u"runs"].toArray().size());
            points.append(point);
        }
        QJsonObject summary = pick(result, {"workload", "queue_device", "recommended_read_ahead_kb", "knee_kb",
                                            "unresolved_pick_read_ahead_kb", "raw_peak_mb_per_s", "floor_kb",
                                            "original_read_ahead_kb", "restored", "memory_kb"});
        const QJsonObject analysis = pick(result.value(u"analysis").toObject(),
                                          {"plateau_mb_per_s", "band_pct", "noise_pct", "resolved"});
        for (auto it = analysis.constBegin(); it != analysis.constEnd(); ++it)
            summary.insert(it.key(), it.value());
        return QJsonObject{{QStringLiteral("summary"), summary}, {QStringLiteral("points"), points}};
    }
    if (kind == u"sweep") {
        const QJsonArray points = pointsOf(result);
        QJsonObject best;
        for (const QJsonValue &p : points)
            if (best.isEmpty() || p[u"mb_per_s"].toDouble() > best.value(u"mb_per_s").toDouble())
                best = p.toObject();
        QJsonObject summary = pick(result, {"queue_device", "original_read_ahead_kb", "restored"});
        if (!best.isEmpty()) {
            summary.insert(QStringLiteral("best_mb_per_s"), best.value(u"mb_per_s"));
            summary.insert(QStringLiteral("best_read_ahead_kb"), best.value(u"read_ahead_kb"));
        }
        figures.insert(QStringLiteral("summary"), summary);
        figures.insert(QStringLiteral("points"), points);
        return figures;
    }
    QJsonObject summary = pick(result, {"median_mb_per_s", "mean_mb_per_s", "min_mb_per_s", "max_mb_per_s",
                                        "stdev_mb_per_s", "aggregate_mb_per_s", "fairness_jain"});
    if (!summary.contains(u"median_mb_per_s")) {
        // A test kept before the median was its figure: the median of the
        // runs it counted (the complete ones, or all when none completed).
        QList<double> complete, all;
        for (const QJsonValue &run : result.value(u"runs").toArray()) {
            all << run[u"mb_per_s"].toDouble();
            if (run[u"complete"].toBool(true))
                complete << run[u"mb_per_s"].toDouble();
        }
        if (!all.isEmpty())
            summary.insert(QStringLiteral("median_mb_per_s"),
                           std::round(medianOf(complete.isEmpty() ? all : complete) * 1e3) / 1e3);
    }
    summary.insert(QStringLiteral("runs"), result.value(u"runs").toArray().size());
    figures.insert(QStringLiteral("summary"), summary);
    figures.insert(QStringLiteral("streams"), streamsOf(result));
    return figures;
}

} // namespace blocktune
