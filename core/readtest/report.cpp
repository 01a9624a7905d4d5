// Human-readable reports of read tests, in dd's words: the CLI prints them,
// the console shows them.
#include "readtest.h"

#include "common/units.h"

#include <QTextStream>

#include <algorithm>
#include <cmath>

namespace blocktune {

namespace {

QString threeDigits(double v)
{
    return QString::number(v, 'f', v >= 10 ? 0 : 1);
}

QString settingsLine(const RecordedSettings &s)
{
    auto num = [](const std::optional<quint64> &v) { return v ? QString::number(*v) : QStringLiteral("?"); };
    QString line = QStringLiteral("read_ahead_kb %1, scheduler %2, nr_requests %3, max_sectors_kb %4")
                       .arg(num(s.readAheadKiB), s.scheduler.isEmpty() ? QStringLiteral("?") : s.scheduler,
                            num(s.nrRequests), num(s.maxSectorsKiB));
    if (s.queueDevice != s.device)
        line += QStringLiteral(" (of %1)").arg(s.queueDevice);
    if (!s.kernel.isEmpty())
        line += QStringLiteral(", kernel %1").arg(s.kernel);
    return line;
}

QString amountText(const ReadTestSpec &spec, const PlannedStream &first)
{
    if (spec.durationMs)
        return QStringLiteral("for %1 s").arg(double(*spec.durationMs) / 1000.0);
    if (spec.count)
        return QStringLiteral("%1 blocks").arg(*spec.count);
    return formatBytes(first.length);
}

QString streamLine(const StreamResult &s)
{
    QString line = QStringLiteral("%1 %2 %3 copied, %4 s, %5")
                       .arg(s.name.leftJustified(12), streamRoleName(s.role).leftJustified(10), formatDdBytes(s.bytes))
                       .arg(s.seconds, 0, 'f', 4)
                       .arg(formatMbPerSec(s.mbPerSec));
    if (s.pattern == AccessPattern::Random)
        line = QStringLiteral("%1 random     %2 reads, latency mean %3 ms, p50 %4 ms, p99 %5 ms, max %6 ms")
                   .arg(s.name.leftJustified(12))
                   .arg(s.reads)
                   .arg(s.latency.meanMs, 0, 'f', 3)
                   .arg(s.latency.p50Ms, 0, 'f', 3)
                   .arg(s.latency.p99Ms, 0, 'f', 3)
                   .arg(s.latency.maxMs, 0, 'f', 3);
    if (!s.error.isEmpty())
        line += QStringLiteral("  [I/O error]");
    return line;
}

void printDeviceStats(QTextStream &out, const QList<RunResult> &runs)
{
    const QList<DeviceCounterDelta> totals = sumDeviceStats(runs);
    for (const DeviceCounterDelta &d : totals) {
        if (!d.available) {
            out << d.device << ": no diskstats line (no device counters)\n";
            continue;
        }
        out << d.device << ": " << d.requests << " read requests, avg " << QString::number(d.avgRequestKiB, 'f', 1) << " KiB, "
            << d.merges << " merges; device read " << d.deviceBytes << " bytes for " << d.consumedBytes
            << " consumed (readahead overshoot " << d.overshootBytes << " bytes)\n";
    }
}

} // namespace

QString formatMbPerSec(double mbps)
{
    // dd prints rates with about three significant digits.
    const int decimals = mbps >= 100 ? 0 : (mbps >= 10 ? 1 : 2);
    return QStringLiteral("%1 MB/s").arg(mbps, 0, 'f', decimals);
}

QString formatDdBytes(quint64 bytes)
{
    if (bytes < 1000)
        return QStringLiteral("%1 bytes").arg(bytes);
    static const char *si[] = {"kB", "MB", "GB", "TB", "PB"};
    static const char *iec[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double d = double(bytes) / 1000.0;
    int i = 0;
    while (d >= 1000.0 && i < 4) {
        d /= 1000.0;
        ++i;
    }
    QString text = QStringLiteral("%1 bytes (%2 %3").arg(bytes).arg(threeDigits(d), QLatin1StringView(si[i]));
    if (bytes >= 1024) {
        double b = double(bytes) / 1024.0;
        int j = 0;
        while (b >= 1024.0 && j < 4) {
            b /= 1024.0;
            ++j;
        }
        text += QStringLiteral(", %1 %2").arg(threeDigits(b), QLatin1StringView(iec[j]));
    }
    return text + u')';
}

QString describeReadTest(const ReadTest &test, const QString &title)
{
    const ReadTestSpec &spec = test.spec();
    const PlannedStream &first = test.streams().constFirst();
    QString text;
    QTextStream out(&text);
    out << title << ": bs " << formatBytes(spec.blockSize) << ", " << amountText(spec, first)
        << (spec.kind == ReadTestKind::Concurrent ? QStringLiteral(" per measured stream")
                                                  : QStringLiteral(" from offset %1").arg(first.start))
        << ", " << (spec.direct ? "O_DIRECT" : "buffered") << (spec.fadviseSequential ? ", fadvise SEQUENTIAL" : "");
    if (spec.kind == ReadTestKind::Server)
        out << ", " << spec.threads << " threads" << (spec.sharedFd ? " sharing one descriptor" : " with a descriptor each");
    if (spec.kind == ReadTestKind::Mixed)
        out << ", " << spec.seqStreams << " sequential + " << spec.randomReaders << " random readers ("
            << formatBytes(spec.randomBlockSize) << ")";
    out << '\n';
    out.flush();
    return text;
}

QString formatRun(ReadTestKind kind, const RunResult &r)
{
    QString text;
    QTextStream out(&text);
    const QString tag = QStringLiteral("\t%1) ").arg(r.label);
    const QString suffix = r.cancelled ? QStringLiteral("  (interrupted)")
                                       : (!r.errors.isEmpty() ? QStringLiteral("  (failed)") : QString());
    if (r.streams.isEmpty()) {
        out << tag << "not run" << suffix << '\n';
        out.flush();
        return text;
    }
    switch (kind) {
    case ReadTestKind::Sequential:
    case ReadTestKind::Server: {
        const StreamResult &s = r.streams.constFirst();
        out << tag << formatDdBytes(s.bytes) << " copied, " << QString::number(s.seconds, 'f', 4) << " s, "
            << formatMbPerSec(s.mbPerSec);
        if (s.workers.size() > 1) {
            QStringList per;
            for (const WorkerResult &w : s.workers)
                per << QString::number(w.seconds > 0 ? double(w.bytes) / w.seconds / 1e6 : 0.0, 'f', 1);
            out << "; " << s.workers.size() << " threads: " << per.join(QStringLiteral(", ")) << " MB/s";
        }
        out << suffix << '\n';
        break;
    }
    case ReadTestKind::Concurrent:
    case ReadTestKind::Mixed:
        out << tag << "measured " << formatDdBytes(r.measuredBytes) << " copied, " << QString::number(r.seconds, 'f', 4)
            << " s, " << formatMbPerSec(r.mbPerSec) << "; aggregate " << formatMbPerSec(r.aggregateMbPerSec)
            << ", fairness " << QString::number(r.fairnessJain, 'f', 3) << suffix << '\n';
        for (const StreamResult &s : r.streams)
            out << "\t     " << streamLine(s) << '\n';
        break;
    }
    out.flush();
    return text;
}

QString formatReadTestResult(const ReadTestResult &result)
{
    QString text;
    QTextStream out(&text);
    if (!result.runs.isEmpty() && !result.runs.constFirst().settings.isEmpty()) {
        const RunResult &first = result.runs.constFirst();
        for (const RecordedSettings &s : first.settings)
            out << s.device << ": " << settingsLine(s) << '\n';
        out << "cold start: " << first.cacheDrop << '\n';
    }
    for (const RunResult &r : result.runs)
        out << formatRun(result.kind, r);
    const Summary &m = result.mbPerSec;
    if (m.count > 0)
        out << "mean " << formatMbPerSec(m.mean) << ", min " << formatMbPerSec(m.min) << ", max "
            << formatMbPerSec(m.max) << ", stdev " << QString::number(m.stdev, 'f', 2) << " MB/s (" << m.count
            << (m.count == 1 ? " run)" : " runs)") << '\n';
    if ((result.kind == ReadTestKind::Concurrent || result.kind == ReadTestKind::Mixed) && !result.runs.isEmpty()) {
        // Per stream over the runs.
        const QList<StreamResult> &streams = result.runs.constFirst().streams;
        for (qsizetype i = 0; i < streams.size(); ++i) {
            QList<double> rates, lat;
            for (const RunResult &r : result.runs)
                if (i < r.streams.size()) {
                    rates << r.streams.at(i).mbPerSec;
                    lat << r.streams.at(i).latency.p99Ms;
                }
            const StreamResult &s = streams.at(i);
            out << "  " << s.name.leftJustified(12) << ' ' << streamRoleName(s.role).leftJustified(10) << " mean "
                << formatMbPerSec(summarize(rates).mean);
            if (s.pattern == AccessPattern::Random)
                out << ", p99 latency " << QString::number(summarize(lat).mean, 'f', 3) << " ms";
            out << '\n';
        }
    }
    printDeviceStats(out, result.runs);
    out.flush();
    return text;
}

QString formatSweepHeader()
{
    return QStringLiteral("%1 %2 %3\n").arg(QStringLiteral("read_ahead_kb"), 13).arg(QStringLiteral("MB/s"), 10)
        .arg(QStringLiteral("avg req KiB"), 12);
}

QString formatSweepPoint(const SweepPoint &point)
{
    QString line = QStringLiteral("%1 %2 %3").arg(point.readAheadKiB, 13).arg(point.mbPerSec, 10, 'f', 1)
                       .arg(point.avgRequestKiB, 12, 'f', 1);
    if (point.result.cancelled)
        line += QStringLiteral("  (interrupted)");
    else if (point.result.failed)
        line += QStringLiteral("  (failed)");
    return line + u'\n';
}

QString formatSweepResult(const SweepResult &result, bool withTable)
{
    QString text;
    QTextStream out(&text);
    if (withTable) {
        out << formatSweepHeader();
        for (const SweepPoint &p : result.points)
            out << formatSweepPoint(p);
    }
    // The curve: one bar per point, scaled to the fastest.
    double best = 0;
    for (const SweepPoint &p : result.points)
        best = std::max(best, p.mbPerSec);
    if (best > 0 && result.points.size() > 1) {
        out << '\n';
        for (const SweepPoint &p : result.points)
            out << QStringLiteral("%1 KiB |").arg(p.readAheadKiB, 10)
                << QString(int(std::lround(p.mbPerSec / best * 50.0)), u'#') << ' ' << formatMbPerSec(p.mbPerSec) << '\n';
    }
    if (result.originalKiB)
        out << (result.restored ? "restored" : "NOT restored") << " read_ahead_kb " << *result.originalKiB << " on "
            << result.queueDevice << '\n';
    out.flush();
    return text;
}

} // namespace blocktune
