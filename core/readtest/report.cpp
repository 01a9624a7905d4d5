// Human-readable reports of read tests, in dd's words: the CLI prints them,
// the console shows them (translated, with the user's decimal separator).
#include "readtest.h"

#include "common/tr.h"
#include "common/units.h"

#include <QTextStream>

#include <algorithm>
#include <cmath>

namespace blocktune {

namespace {

// The locale's decimal sign, no digit grouping: dd prints "1520 MB/s".
QLocale ungrouped(QLocale locale)
{
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
    return locale;
}

QString threeDigits(double v, const QLocale &locale)
{
    return locale.toString(v, 'f', v >= 10 ? 0 : 1);
}

QString settingsLine(const RecordedSettings &s)
{
    auto num = [](const std::optional<quint64> &v) { return v ? QString::number(*v) : QStringLiteral("?"); };
    QString line = ReadTestText::tr("read_ahead_kb %1, scheduler %2, nr_requests %3, max_sectors_kb %4")
                       .arg(num(s.readAheadKiB), s.scheduler.isEmpty() ? QStringLiteral("?") : s.scheduler,
                            num(s.nrRequests), num(s.maxSectorsKiB));
    if (s.queueDevice != s.device)
        line += ReadTestText::tr(" (of %1)").arg(s.queueDevice);
    if (!s.kernel.isEmpty())
        line += ReadTestText::tr(", kernel %1").arg(s.kernel);
    return line;
}

QString amountText(const ReadTestSpec &spec, const PlannedStream &first, const QLocale &locale)
{
    if (spec.durationMs)
        return ReadTestText::tr("for %1 s").arg(locale.toString(double(*spec.durationMs) / 1000.0));
    if (spec.count)
        return ReadTestText::tr("%1 blocks").arg(*spec.count);
    return formatBytes(first.length);
}


// "; latency p50 61.2 us, p99 180 us, p99.9 1.21 ms"
QString latencyText(const LatencyDistribution &d, const QList<double> &percentiles, const QLocale &locale)
{
    if (d.count == 0 || percentiles.isEmpty())
        return {};
    QStringList parts;
    for (const double p : percentiles)
        parts << QStringLiteral("p%1 %2").arg(locale.toString(p, 'g', 6), formatLatencyUs(d.percentileUs(p), locale));
    return ReadTestText::tr("; latency %1").arg(parts.join(QStringLiteral(", ")));
}

QString streamLine(const StreamResult &s, const QList<double> &percentiles, const QLocale &locale)
{
    QString line = ReadTestText::tr("%1 %2 %3 copied, %4 s, %5")
                       .arg(s.name.leftJustified(12), streamRoleName(s.role).leftJustified(10),
                            formatDdBytes(s.bytes, locale), locale.toString(s.seconds, 'f', 4),
                            formatMbPerSec(s.mbPerSec, locale));
    if (s.pattern == AccessPattern::Random)
        line = ReadTestText::tr("%1 random     %2 reads, latency mean %3 ms, p50 %4 ms, p99 %5 ms, max %6 ms")
                   .arg(s.name.leftJustified(12), QString::number(s.reads),
                        locale.toString(s.latency.meanMs, 'f', 3), locale.toString(s.latency.p50Ms, 'f', 3),
                        locale.toString(s.latency.p99Ms, 'f', 3), locale.toString(s.latency.maxMs, 'f', 3));
    else
        line += latencyText(s.latencyUs, percentiles, locale);
    if (!s.error.isEmpty())
        line += ReadTestText::tr("  [I/O error]");
    return line;
}

void printDeviceStats(QTextStream &out, const QList<RunResult> &runs, const QLocale &locale)
{
    const QList<DeviceCounterDelta> totals = sumDeviceStats(runs);
    for (const DeviceCounterDelta &d : totals) {
        if (!d.available) {
            out << ReadTestText::tr("%1: no diskstats line (no device counters)").arg(d.device) << '\n';
            continue;
        }
        out << ReadTestText::tr("%1: %2 read requests, avg %3 KiB, %4 merges; device read %5 bytes for %6 "
                                "consumed (readahead overshoot %7 bytes)")
                   .arg(d.device, QString::number(d.requests), locale.toString(d.avgRequestKiB, 'f', 1),
                        QString::number(d.merges), QString::number(d.deviceBytes), QString::number(d.consumedBytes),
                        QString::number(d.overshootBytes))
            << '\n';
    }
}

QString runSuffix(const RunResult &r)
{
    return r.cancelled ? ReadTestText::tr("  (interrupted)")
                       : (!r.errors.isEmpty() ? ReadTestText::tr("  (failed)") : QString());
}

// The runs the summary counts: the complete ones, or every run when none
// completed (a cancelled single run), with their labels.
void countedRuns(const ReadTestResult &result, QStringList &labels, QList<double> &rates)
{
    for (const RunResult &r : result.runs)
        if (!r.cancelled && r.errors.isEmpty()) {
            labels << r.label;
            rates << r.mbPerSec;
        }
    if (!labels.isEmpty())
        return;
    for (const RunResult &r : result.runs) {
        labels << r.label;
        rates << r.mbPerSec;
    }
}

// "a 304, b 476, c 1492": every counted run beside the median.
QString runFigures(const ReadTestResult &result, const QLocale &locale)
{
    QStringList labels, parts;
    QList<double> rates;
    countedRuns(result, labels, rates);
    for (qsizetype i = 0; i < labels.size(); ++i)
        parts << QStringLiteral("%1 %2").arg(labels.at(i), formatMbPerSec(rates.at(i), locale).chopped(5));
    return parts.join(QStringLiteral(", "));
}

} // namespace

std::optional<RunDisagreement> runDisagreement(const QStringList &labels, const QList<double> &rates)
{
    if (rates.size() < 2 || labels.size() != rates.size() || !runsDisagree(rates))
        return std::nullopt;
    const auto others = [&](qsizetype i) {
        QList<double> rest = rates;
        rest.removeAt(i);
        return medianOf(rest);
    };
    // The first run, when it alone is the slowest, a stall below every other
    // run: a cold start is what a person looks for first, and what repeats.
    // (When another run is as slow, the one that stands out is elsewhere.)
    QList<double> sorted = rates;
    std::sort(sorted.begin(), sorted.end());
    qsizetype pick = -1;
    if (rates.at(0) == sorted.at(0) && rates.at(0) < sorted.at(1) * (1.0 - kStallFraction))
        pick = 0;
    double widest = 0;
    for (qsizetype i = 0; pick < 0 && i < rates.size(); ++i)
        if (rates.at(i) > 0 && others(i) > 0 && std::abs(std::log(rates.at(i) / others(i))) > widest)
            widest = std::abs(std::log(rates.at(i) / others(i)));
    for (qsizetype i = 0; pick < 0 && i < rates.size(); ++i)
        if (rates.at(i) > 0 && others(i) > 0 && std::abs(std::log(rates.at(i) / others(i))) == widest)
            pick = i;
    if (pick < 0)
        return std::nullopt; // a run of 0 MB/s: nothing to compare it with
    RunDisagreement d;
    d.label = labels.at(pick);
    d.mbPerSec = rates.at(pick);
    d.othersMbPerSec = others(pick);
    d.slower = d.mbPerSec < d.othersMbPerSec;
    d.factor = d.slower ? d.othersMbPerSec / std::max(d.mbPerSec, 1e-9) : d.mbPerSec / d.othersMbPerSec;
    d.first = pick == 0;
    return d;
}

std::optional<RunDisagreement> runDisagreement(const ReadTestResult &result)
{
    QStringList labels;
    QList<double> rates;
    countedRuns(result, labels, rates);
    return runDisagreement(labels, rates);
}

QString describeDisagreement(const RunDisagreement &d, const QLocale &given)
{
    const QLocale locale = ungrouped(given);
    const QString factor = locale.toString(d.factor, 'f', 1);
    const QString figures = ReadTestText::tr("%1 against %2").arg(formatMbPerSec(d.mbPerSec, locale).chopped(5),
                                                                   formatMbPerSec(d.othersMbPerSec, locale));
    if (d.first && d.slower)
        return ReadTestText::tr("The first run was %1× slower than the others (%2): a cold start outside this "
                                "test. Each run starts with this device's cache dropped, so the first is no colder "
                                "here than the rest; a virtual machine's host that backs idle memory again on first "
                                "touch, or a busy host, slows the first read after a pause. The figure is the "
                                "median.")
            .arg(factor, figures);
    if (d.slower)
        return ReadTestText::tr("Run %1 was %2× slower than the others (%3): the machine stalled during it (a busy "
                                "host? other reads of the device?). The figure is the median.")
            .arg(d.label, factor, figures);
    return ReadTestText::tr("Run %1 was %2× faster than the others (%3): the machine's speed changed during the test "
                            "(a host that was busy before? another cache?). The figure is the median.")
        .arg(d.label, factor, figures);
}

QString formatLatencyUs(double us, const QLocale &given)
{
    const QLocale locale = ungrouped(given);
    if (us < 1000)
        return locale.toString(us, 'f', us < 10 ? 2 : (us < 100 ? 1 : 0)) + QStringLiteral(" us");
    if (us < 1e6)
        return locale.toString(us / 1000, 'f', 2) + QStringLiteral(" ms");
    return locale.toString(us / 1e6, 'f', 2) + QStringLiteral(" s");
}

QString formatMbPerSec(double mbps, const QLocale &given)
{
    const QLocale locale = ungrouped(given);
    // dd prints rates with about three significant digits.
    const int decimals = mbps >= 100 ? 0 : (mbps >= 10 ? 1 : 2);
    return locale.toString(mbps, 'f', decimals) + QStringLiteral(" MB/s");
}

QString formatDdBytes(quint64 bytes, const QLocale &given)
{
    const QLocale locale = ungrouped(given);
    if (bytes < 1000)
        return ReadTestText::tr("%1 bytes").arg(bytes);
    static const char *si[] = {"kB", "MB", "GB", "TB", "PB"};
    static const char *iec[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double d = double(bytes) / 1000.0;
    int i = 0;
    while (d >= 1000.0 && i < 4) {
        d /= 1000.0;
        ++i;
    }
    QString amounts = threeDigits(d, locale) + u' ' + QLatin1StringView(si[i]);
    if (bytes >= 1024) {
        double b = double(bytes) / 1024.0;
        int j = 0;
        while (b >= 1024.0 && j < 4) {
            b /= 1024.0;
            ++j;
        }
        amounts += QStringLiteral(", ") + threeDigits(b, locale) + u' ' + QLatin1StringView(iec[j]);
    }
    //: dd's amount: "268435456 bytes (268 MB, 256 MiB)"
    return ReadTestText::tr("%1 bytes (%2)").arg(QString::number(bytes), amounts);
}

QString describeReadTest(const ReadTest &test, const QString &title, const QLocale &given)
{
    const QLocale locale = ungrouped(given);
    const ReadTestSpec &spec = test.spec();
    const PlannedStream &first = test.streams().constFirst();
    QString text;
    QTextStream out(&text);
    out << ReadTestText::tr("%1: bs %2, %3").arg(title, formatBytes(spec.blockSize), amountText(spec, first, locale))
        << (spec.kind == ReadTestKind::Concurrent ? ReadTestText::tr(" per measured stream")
                                                  : ReadTestText::tr(" from offset %1").arg(first.start))
        << ", " << (spec.direct ? QStringLiteral("O_DIRECT") : ReadTestText::tr("buffered"))
        << (spec.fadviseSequential ? QStringLiteral(", fadvise SEQUENTIAL") : QString());
    if (spec.kind == ReadTestKind::Server)
        out << ", "
            << (spec.sharedFd ? ReadTestText::tr("%1 threads sharing one descriptor")
                              : ReadTestText::tr("%1 threads with a descriptor each"))
                   .arg(spec.threads);
    if (spec.kind == ReadTestKind::Mixed)
        out << ", "
            << ReadTestText::tr("%1 sequential + %2 random readers (%3)")
                   .arg(spec.seqStreams)
                   .arg(spec.randomReaders)
                   .arg(formatBytes(spec.randomBlockSize));
    out << '\n';
    out.flush();
    return text;
}

QList<double> textPercentiles(const ReadTestSpec &spec)
{
    return spec.percentiles == defaultLatencyPercentiles() ? QList<double>{50, 99, 99.9} : spec.percentiles;
}

QString formatRun(ReadTestKind kind, const RunResult &r, const QList<double> &percentiles, const QLocale &given)
{
    const QLocale locale = ungrouped(given);
    QString text;
    QTextStream out(&text);
    const QString tag = QStringLiteral("\t%1) ").arg(r.label);
    const QString suffix = runSuffix(r);
    if (r.streams.isEmpty()) {
        out << tag << ReadTestText::tr("not run") << suffix << '\n';
        out.flush();
        return text;
    }
    switch (kind) {
    case ReadTestKind::Sequential:
    case ReadTestKind::Server: {
        const StreamResult &s = r.streams.constFirst();
        out << tag
            << ReadTestText::tr("%1 copied, %2 s, %3")
                   .arg(formatDdBytes(s.bytes, locale), locale.toString(s.seconds, 'f', 4),
                        formatMbPerSec(s.mbPerSec, locale))
            << latencyText(s.latencyUs, percentiles, locale);
        if (s.workers.size() > 1) {
            QStringList per;
            for (const WorkerResult &w : s.workers)
                per << locale.toString(w.seconds > 0 ? double(w.bytes) / w.seconds / 1e6 : 0.0, 'f', 1);
            // "12.5, 13.1" but "12,5; 13,1" where the comma is the decimal sign.
            const QString separator = locale.decimalPoint() == u"," ? QStringLiteral("; ") : QStringLiteral(", ");
            out << "; "
                << ReadTestText::tr("%1 threads: %2 MB/s").arg(QString::number(s.workers.size()), per.join(separator));
        }
        out << suffix << '\n';
        break;
    }
    case ReadTestKind::Concurrent:
    case ReadTestKind::Mixed:
        out << tag
            << ReadTestText::tr("measured %1 copied, %2 s, %3; aggregate %4, fairness %5")
                   .arg(formatDdBytes(r.measuredBytes, locale), locale.toString(r.seconds, 'f', 4),
                        formatMbPerSec(r.mbPerSec, locale), formatMbPerSec(r.aggregateMbPerSec, locale),
                        locale.toString(r.fairnessJain, 'f', 3))
            << suffix << '\n';
        for (const StreamResult &s : r.streams)
            out << "\t     " << streamLine(s, percentiles, locale) << '\n';
        break;
    }
    out.flush();
    return text;
}

QString formatReadTestResult(const ReadTestResult &result, const QLocale &given)
{
    const QLocale locale = ungrouped(given);
    QString text;
    QTextStream out(&text);
    if (!result.runs.isEmpty() && !result.runs.constFirst().settings.isEmpty()) {
        const RunResult &first = result.runs.constFirst();
        for (const RecordedSettings &s : first.settings)
            out << s.device << ": " << settingsLine(s) << '\n';
        out << ReadTestText::tr("cold start: %1").arg(first.cacheDrop) << '\n';
    }
    for (const RunResult &r : result.runs)
        out << formatRun(result.kind, r, textPercentiles(result.spec), locale);
    const Summary &m = result.mbPerSec;
    if (m.count > 0) {
        // The median first: one slow (or lucky) run does not move it.
        // No %n plural: without a translator (the CLI) it would print "run(s)".
        out << ReadTestText::tr("median %1 (%2; min-max %3-%4); mean %5, stdev %6 MB/s (%7)")
                   .arg(formatMbPerSec(m.median, locale), runFigures(result, locale),
                        formatMbPerSec(m.min, locale).chopped(5), formatMbPerSec(m.max, locale),
                        formatMbPerSec(m.mean, locale), locale.toString(m.stdev, 'f', 2),
                        m.count == 1 ? ReadTestText::tr("1 run") : ReadTestText::tr("%1 runs").arg(m.count))
            << '\n';
        if (const auto d = runDisagreement(result))
            out << describeDisagreement(*d, locale) << '\n';
    }
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
            out << "  " << s.name.leftJustified(12) << ' ' << streamRoleName(s.role).leftJustified(10) << ' '
                << ReadTestText::tr("mean %1").arg(formatMbPerSec(summarize(rates).mean, locale));
            if (s.pattern == AccessPattern::Random)
                out << ReadTestText::tr(", p99 latency %1 ms").arg(locale.toString(summarize(lat).mean, 'f', 3));
            out << '\n';
        }
    }
    printDeviceStats(out, result.runs, locale);
    out.flush();
    return text;
}

QString formatSweepHeader()
{
    return QStringLiteral("%1 %2 %3\n").arg(QStringLiteral("read_ahead_kb"), 13).arg(QStringLiteral("MB/s"), 10)
        .arg(ReadTestText::tr("avg req KiB"), 12);
}

QString formatSweepPoint(const SweepPoint &point, const QLocale &given)
{
    const QLocale locale = ungrouped(given);
    QString line = QStringLiteral("%1 %2 %3").arg(point.readAheadKiB, 13)
                       .arg(locale.toString(point.mbPerSec, 'f', 1), 10)
                       .arg(locale.toString(point.avgRequestKiB, 'f', 1), 12);
    if (point.result.cancelled)
        line += ReadTestText::tr("  (interrupted)");
    else if (point.result.failed)
        line += ReadTestText::tr("  (failed)");
    return line + u'\n';
}

QString formatSweepResult(const SweepResult &result, bool withTable, const QLocale &given)
{
    const QLocale locale = ungrouped(given);
    QString text;
    QTextStream out(&text);
    if (withTable) {
        out << formatSweepHeader();
        for (const SweepPoint &p : result.points)
            out << formatSweepPoint(p, locale);
    }
    // The curve: one bar per point, scaled to the fastest.
    double best = 0;
    for (const SweepPoint &p : result.points)
        best = std::max(best, p.mbPerSec);
    if (best > 0 && result.points.size() > 1) {
        out << '\n';
        for (const SweepPoint &p : result.points)
            out << QStringLiteral("%1 KiB |").arg(p.readAheadKiB, 10)
                << QString(int(std::lround(p.mbPerSec / best * 50.0)), u'#') << ' ' << formatMbPerSec(p.mbPerSec, locale)
                << '\n';
    }
    if (result.originalKiB)
        out << (result.restored ? ReadTestText::tr("restored read_ahead_kb %1 on %2")
                                : ReadTestText::tr("NOT restored read_ahead_kb %1 on %2"))
                   .arg(*result.originalKiB)
                   .arg(result.queueDevice)
            << '\n';
    out.flush();
    return text;
}

} // namespace blocktune
