// The BPF latency probe on the live machine, on a direct-I/O loop device of
// our own (read only): its request count for the device is diskstats' (to
// the request in most runs; 1% allowed, see there), and its queue + device
// nanoseconds are diskstats' ms reading within 10%, with scheduler none
// (requests mostly issued without an insert) and mq-deadline (every request
// inserted). A device with queue/iostats 0, which diskstats does not count,
// is counted all the same, with queue times from the insert. The CLI's
// --latency JSON has the documented shape. Debian's
// biolatency (libbpf-tools), run beside it, counts the same reads within 2%
// and places them alike (every quantile within a factor of two, the peaks
// in the same bucket or neighbours).
#include "monitortestsupport.h"
#include "testloop.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <random>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

constexpr qint64 kDeviceBytes = 64 << 20;
constexpr int kReads = 4000;

// kReads O_DIRECT 4 KiB reads at random aligned offsets; false on any error.
bool directReads(const QString &path)
{
    return directReads4k(path, kDeviceBytes, kReads);
}

LatencyTotals readTotalsOf(BlockLatencyProbe &probe, const DiskCounters &device)
{
    auto totals = probe.totals();
    if (!totals)
        return {};
    return totals->value(deviceNumber(quint32(device.major), quint32(device.minor))).read;
}

void setUpLoop(TestLoop &loop, const QString &scheduler)
{
    QVERIFY(loop.isValid());
    QVERIFY2(setQueueAttr(loop.name(), "scheduler", scheduler), qPrintable(scheduler));
    QVERIFY(waitReadsIdle(loop.name()));
}

void verifyHistogramShape(const QJsonObject &h)
{
    QVERIFY(h[u"histogram"_qs].isArray());
    quint64 n = 0;
    double lastUpper = 0;
    for (const QJsonValue &pair : h[u"histogram"_qs].toArray()) {
        const QJsonArray p = pair.toArray();
        QCOMPARE(p.size(), 2);
        const double upper = p[0].toDouble();
        QVERIFY(upper > lastUpper); // ascending
        QVERIFY(upper >= 2 && (quint64(upper) & (quint64(upper) - 1)) == 0); // a power of two
        QVERIFY(p[1].toInteger() > 0); // non-empty buckets only
        lastUpper = upper;
        n += quint64(p[1].toInteger());
    }
    QCOMPARE(h[u"p50_us"_qs].isDouble(), n > 0);
    QCOMPARE(h[u"p99_us"_qs].isDouble(), n > 0);
    if (n > 0)
        QVERIFY(h[u"p50_us"_qs].toDouble() <= h[u"p99_us"_qs].toDouble());
}

// biolatency from Debian's libbpf-tools: the referee of the probe's
// device-time histogram (both time issue -> complete, in log2 buckets of
// whole microseconds: [2^k, 2^(k+1)), 0 and 1 us in the first).
const char *const kBiolatency = "/usr/sbin/biolatency";

// Its histogram ("   low -> high   : count   |***|" rows) as our buckets;
// nullopt when no row parses.
std::optional<Log2Histogram> parseBiolatency(const QByteArray &text)
{
    static const QRegularExpression row(QStringLiteral(R"(^\s*(\d+)\s*->\s*(\d+)\s*:\s*(\d+)\s*\|)"));
    Log2Histogram h;
    bool any = false;
    for (const QByteArray &line : text.split('\n')) {
        const QRegularExpressionMatch m = row.match(QString::fromLatin1(line));
        if (!m.hasMatch())
            continue;
        const quint64 low = m.captured(1).toULongLong();
        int bucket = 0;
        while (bucket < 63 && (quint64(2) << bucket) <= low)
            ++bucket;
        if (bucket >= int(h.counts.size()) || (low != 0 && low != (quint64(1) << bucket)))
            return std::nullopt; // not a log2 edge: a format we do not know
        h.counts[size_t(bucket)] += m.captured(3).toULongLong();
        any = true;
    }
    return any ? std::optional<Log2Histogram>(h) : std::nullopt;
}

int modalBucket(const Log2Histogram &h)
{
    return int(std::max_element(h.counts.begin(), h.counts.end()) - h.counts.begin());
}

QString bucketsText(const Log2Histogram &h)
{
    QStringList cells;
    for (size_t i = 0; i < h.counts.size(); ++i)
        if (h.counts[i])
            cells << QStringLiteral("[%1,%2) us: %3").arg(i ? quint64(1) << i : 0).arg(quint64(2) << i).arg(h.counts[i]);
    return cells.join(u", ");
}

} // namespace

class TestLatencyProbeLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        // CI (BLOCKTUNE_REQUIRE_ROOT=1) builds with BPF on this kind of
        // machine: a build without it there is a failure, not a skip.
        if (!BlockLatencyProbe::builtIn()) {
            if (qEnvironmentVariableIntValue("BLOCKTUNE_REQUIRE_ROOT") == 1)
                QFAIL("built without BPF support (BLOCKTUNE_BPF off: clang, bpftool, libbpf-dev and "
                      "/sys/kernel/btf/vmlinux are needed), and BLOCKTUNE_REQUIRE_ROOT=1 asks for every root test");
            QSKIP("built without BPF support (BLOCKTUNE_BPF off)");
        }
    }

    void countsAndTimesAgreeWithDiskstats_data()
    {
        QTest::addColumn<QString>("scheduler");
        QTest::newRow("none") << u"none"_qs;
        QTest::newRow("mq-deadline") << u"mq-deadline"_qs;
    }
    void countsAndTimesAgreeWithDiskstats()
    {
        QFETCH(QString, scheduler);
        TestLoop loop(kDeviceBytes, knownContents());
        setUpLoop(loop, scheduler);
        if (QTest::currentTestFailed())
            return;
        auto probe = BlockLatencyProbe::load();
        QVERIFY2(probe.ok(), probe.ok() ? "" : qPrintable(probe.error().message));

        const DiskCounters before = diskCountersOf(loop.name());
        const LatencyTotals bpfBefore = readTotalsOf(**probe, before);
        QVERIFY(directReads(loop.path()));
        // The reader wakes in blk_update_request, before the block layer
        // accounts the last read in diskstats: let that finish.
        QThread::msleep(100);
        const DiskCounters after = diskCountersOf(loop.name());
        const LatencyTotals bpfAfter = readTotalsOf(**probe, after);

        auto delta = [&](DiskCounters::Field f) { return counterDelta(before[f], after[f]); };
        const quint64 requests = delta(DiskCounters::ReadsCompleted) + delta(DiskCounters::WritesCompleted);
        const quint64 bpfRequests = bpfAfter.requests - bpfBefore.requests;
        QVERIFY2(requests >= quint64(kReads), qPrintable(QString::number(requests)));
        // Both count each read once, where the block layer accounts its
        // completion, and the probe never counts more. Measured: exact in
        // most runs, but some runs miss 1-11 reads of 4000 (once 26, on a
        // loaded machine), the loop's backing reads on its disk often as
        // many. Instrumented, such a run saw all 4000 issues but ran the
        // completion program 3998 times, with no recursion miss reported
        // (bpftool, recursion_misses) and nothing untracked; block_rq_complete
        // instead of block_io_done missed them the same way. Cause not found.
        // Allowed: 1%.
        qInfo("%s: probe %llu requests, diskstats %llu (untracked %llu, skipped runs %llu)", qPrintable(scheduler),
              bpfRequests, requests, (*probe)->untracked(), (*probe)->skippedRuns());
        QVERIFY2(bpfRequests <= requests, qPrintable(QString::number(bpfRequests)));
        QVERIFY2(requests - bpfRequests <= requests / 100, qPrintable(QString::number(bpfRequests)));
        QCOMPARE(histogramDelta(bpfBefore.queue, bpfAfter.queue).total(), bpfRequests);
        QCOMPARE(histogramDelta(bpfBefore.device, bpfAfter.device).total(), bpfRequests);

        // diskstats adds each read's time from its allocation to its
        // completion in ns and prints ms: within 1 ms of the truth, and
        // queue + device time leaves out only alloc -> insert.
        const double diskstatsMs = double(delta(DiskCounters::MsReading));
        const double queueMs = double(bpfAfter.queueNs - bpfBefore.queueNs) / 1e6;
        const double deviceMs = double(bpfAfter.deviceNs - bpfBefore.deviceNs) / 1e6;
        const double bpfMs = queueMs + deviceMs;
        qInfo("%s: %llu requests (diskstats %llu): queue %.3f ms + device %.3f ms = %.3f ms, diskstats %.0f ms "
              "(%+.2f%%)",
              qPrintable(scheduler), bpfRequests, requests, queueMs, deviceMs, bpfMs, diskstatsMs,
              (bpfMs - diskstatsMs) / diskstatsMs * 100.0);
        QVERIFY(diskstatsMs > 0);
        QVERIFY2(std::abs(bpfMs - diskstatsMs) <= 0.10 * diskstatsMs,
                 qPrintable(QStringLiteral("%1 ms vs diskstats %2 ms").arg(bpfMs).arg(diskstatsMs)));
        QVERIFY(deviceMs > 0);
    }

    // With queue/iostats 0 the block layer neither counts the device in
    // diskstats nor stamps a request's start_time_ns (what is there is left
    // from an earlier request: queue times of 195 s came out of it). The
    // probe still counts every read, and its queue time runs from
    // block_rq_insert, which it attaches on the first such request.
    void countsDevicesWithoutIoStatistics()
    {
        TestLoop loop(kDeviceBytes, knownContents());
        setUpLoop(loop, u"mq-deadline"_qs);
        if (QTest::currentTestFailed())
            return;
        // Loop devices keep their queue settings across detach and attach:
        // put it back before the device goes.
        const QString iostats = queueAttr(loop.name(), "iostats");
        QVERIFY(!iostats.isEmpty());
        auto restore = qScopeGuard([&] { setQueueAttr(loop.name(), "iostats", iostats); });
        // Reads with statistics first: their requests' start_time_ns stays
        // behind in the device's struct requests, what the reads without
        // them find there.
        QVERIFY(setQueueAttr(loop.name(), "iostats", u"1"_qs));
        QVERIFY(directReads(loop.path()));
        QVERIFY(waitReadsIdle(loop.name()));
        QVERIFY(setQueueAttr(loop.name(), "iostats", u"0"_qs));
        auto probe = BlockLatencyProbe::load();
        QVERIFY2(probe.ok(), probe.ok() ? "" : qPrintable(probe.error().message));

        // The first reads show the probe a request without statistics; the
        // next reading of its totals attaches the insert program.
        QVERIFY(directReads(loop.path()));
        QThread::msleep(100);
        const DiskCounters device = diskCountersOf(loop.name());
        const LatencyTotals before = readTotalsOf(**probe, device);
        QVERIFY(before.requests > 0);
        QElapsedTimer wall;
        wall.start();
        QVERIFY(directReads(loop.path()));
        const double wallUs = double(wall.nsecsElapsed()) / 1e3;
        QThread::msleep(100);
        const LatencyTotals after = readTotalsOf(**probe, device);
        const DiskCounters deviceAfter = diskCountersOf(loop.name());
        QCOMPARE(deviceAfter[DiskCounters::ReadsCompleted], device[DiskCounters::ReadsCompleted]);

        const quint64 n = after.requests - before.requests;
        const Log2Histogram queue = histogramDelta(before.queue, after.queue);
        const Log2Histogram deviceTime = histogramDelta(before.device, after.device);
        const double queueUs = double(after.queueNs - before.queueNs) / 1e3;
        const double deviceUs = double(after.deviceNs - before.deviceNs) / 1e3;
        qInfo("iostats 0: %llu requests, queue %.1f us + device %.1f us a request; queue: %s", n,
              n ? queueUs / double(n) : 0.0, n ? deviceUs / double(n) : 0.0, qPrintable(bucketsText(queue)));
        QVERIFY2(n >= quint64(kReads) - kReads / 100 && n <= quint64(kReads) + kReads / 100,
                 qPrintable(QString::number(n)));
        QCOMPARE(queue.total(), n);
        QCOMPARE(deviceTime.total(), n);
        // Under mq-deadline every read is inserted: queue time from there.
        // The reads are one at a time, each waiting in the queue inside its
        // own pread: together they wait no longer than the reads took, and
        // none longer than that (a start time left from an earlier request
        // gave 195 s), on any machine and under any load.
        QVERIFY(queueUs > 0);
        QVERIFY2(queueUs <= wallUs,
                 qPrintable(QStringLiteral("queue time %1 us over %2 reads that took %3 us").arg(queueUs).arg(n).arg(wallUs)));
        for (size_t i = 0; i < queue.counts.size(); ++i)
            if (queue.counts[i])
                QVERIFY2(double(quint64(1) << i) <= wallUs,
                         qPrintable(QStringLiteral("a queue time of %1 us or more in reads that took %2 us")
                                        .arg(quint64(1) << i).arg(wallUs)));
        QVERIFY(deviceUs > 0);
    }

    void cliJsonCarriesTheDocumentedLatencyObject()
    {
        TestLoop loop(kDeviceBytes, knownContents());
        setUpLoop(loop, u"mq-deadline"_qs);
        if (QTest::currentTestFailed())
            return;
        QProcess cli;
        cli.start(binary("blocktune-cli"),
                  {u"monitor"_qs, loop.name(), u"--interval"_qs, u"100ms"_qs, u"--json"_qs, u"--latency"_qs});
        QVERIFY(cli.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT((cli.waitForReadyRead(20), cli.peek(1 << 20).contains('\n')), 30000);
        QVERIFY(directReads(loop.path()));
        // The lines written while we read are still in the pipe: take them
        // first, so the two lines waited for are ticks after the reads.
        while (cli.waitForReadyRead(20)) {
        }
        const qsizetype linesAfterReads = cli.peek(1 << 24).count('\n');
        QTRY_VERIFY_WITH_TIMEOUT((cli.waitForReadyRead(20), cli.peek(1 << 24).count('\n') >= linesAfterReads + 2),
                                 10000);
        QVERIFY2(signalProcess(cli, SIGINT), "it had ended before the signal");
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(cli.readAllStandardError(), QByteArray());

        quint64 reads = 0;
        for (const QByteArray &line : cli.readAllStandardOutput().split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject dev =
                QJsonDocument::fromJson(line).object()[u"devices"_qs].toObject()[loop.name()].toObject();
            QVERIFY(dev.contains(u"read_await_ms"_qs));
            QVERIFY2(dev[u"latency"_qs].isObject(), line.constData());
            const QJsonObject latency = dev[u"latency"_qs].toObject();
            QCOMPARE(latency.keys(), (QStringList{u"read_device"_qs, u"read_queue"_qs, u"write_device"_qs,
                                                  u"write_queue"_qs}));
            for (const QString &key : latency.keys())
                verifyHistogramShape(latency[key].toObject());
            QCOMPARE(latency[u"write_device"_qs].toObject()[u"histogram"_qs].toArray().size(), 0);
            if (QTest::currentTestFailed())
                return;
            for (const QJsonValue &pair : latency[u"read_device"_qs].toObject()[u"histogram"_qs].toArray())
                reads += quint64(pair.toArray()[1].toInteger());
        }
        // Every read of ours completed inside the run, each in one tick's
        // histogram (the 1% the probe may miss, as above).
        QVERIFY2(reads >= quint64(kReads) - kReads / 100 && reads <= quint64(kReads) + 100,
                 qPrintable(QString::number(reads)));
    }
    // The referee: biolatency -d LOOP (issue -> complete, our loop device
    // only) runs beside the probe during the same direct reads; the probe's
    // read device-time histogram over that span must count the same
    // requests within 2%, agree on every quantile within a factor of two
    // (one log2 bucket), and peak in the same bucket or neighbours.
    void biolatencyAgreesWithTheProbe()
    {
        if (!QFileInfo(QString::fromLatin1(kBiolatency)).isExecutable()) {
            const char *why = "no /usr/sbin/biolatency: install Debian's libbpf-tools (scripts/bootstrap.sh does)";
            if (rootRequired())
                QFAIL(why);
            QSKIP(why);
        }
        TestLoop loop(kDeviceBytes, knownContents());
        setUpLoop(loop, u"none"_qs);
        if (QTest::currentTestFailed())
            return;
        auto probe = BlockLatencyProbe::load();
        QVERIFY2(probe.ok(), probe.ok() ? "" : qPrintable(probe.error().message));

        // Line-buffered, so its "Tracing block device I/O..." says it is attached.
        QProcess bio;
        bio.start(u"stdbuf"_qs, {u"-oL"_qs, QString::fromLatin1(kBiolatency), u"-d"_qs, loop.name()});
        QVERIFY2(bio.waitForStarted(), "stdbuf (coreutils) did not start");
        auto killBio = qScopeGuard([&bio] {
            if (bio.state() != QProcess::NotRunning) {
                bio.kill();
                bio.waitForFinished(5000);
            }
        });
        QTRY_VERIFY2_WITH_TIMEOUT((bio.waitForReadyRead(20), bio.peek(1 << 16).contains("Tracing")),
                                  qPrintable(QString::fromLocal8Bit(bio.readAllStandardError())), 30000);

        const DiskCounters device = diskCountersOf(loop.name());
        const LatencyTotals before = readTotalsOf(**probe, device);
        QVERIFY(directReads(loop.path()));
        QThread::msleep(100); // the last completion's accounting, as above
        const LatencyTotals after = readTotalsOf(**probe, device);

        // SIGINT: biolatency prints its histogram and leaves.
        QVERIFY2(signalProcess(bio, SIGINT), "it had ended before the signal");
        QVERIFY(bio.waitForFinished(30000));
        const QByteArray out = bio.readAllStandardOutput();
        QCOMPARE(bio.exitCode(), 0);
        const auto theirs = parseBiolatency(out);
        QVERIFY2(theirs, out.constData());
        const Log2Histogram ours = histogramDelta(before.device, after.device);

        const quint64 n = ours.total(), m = theirs->total();
        qInfo("probe: %llu requests, modal bucket %d; biolatency: %llu, modal bucket %d", n, modalBucket(ours), m,
              modalBucket(*theirs));
        qInfo("probe:      %s", qPrintable(bucketsText(ours)));
        qInfo("biolatency: %s", qPrintable(bucketsText(*theirs)));
        // Both see our reads (biolatency, like the probe, has been seen to
        // miss a completion of 4000: the 1% of the test above).
        QVERIFY2(m >= quint64(kReads) - kReads / 100 && m <= quint64(kReads) + kReads / 100, out.constData());
        QVERIFY2(double(n > m ? n - m : m - n) <= 0.02 * double(m),
                 qPrintable(QStringLiteral("probe %1 requests, biolatency %2").arg(n).arg(m)));
        // The same shape: both time a read to its completion with the same
        // clock, from stamps a few microseconds apart (on this VM the probe's
        // are a little longer: of 3994 reads, 607 and 1133 under 128 us), so
        // a read lands in the next bucket only where its time is near an
        // edge. Every quantile agrees within a factor of two: at each edge,
        // the reads one counts below it are, within 2% of all, no more than
        // the other counts below the next edge. And the peaks are the same
        // bucket or neighbours.
        const size_t buckets = std::min(ours.counts.size(), theirs->counts.size());
        quint64 belowOurs = 0, belowTheirs = 0;
        for (size_t i = 0; i + 1 < buckets; ++i) {
            belowOurs += ours.counts[i];
            belowTheirs += theirs->counts[i];
            const quint64 nextOurs = belowOurs + ours.counts[i + 1], nextTheirs = belowTheirs + theirs->counts[i + 1];
            const QString at = QStringLiteral("under %1 us: probe %2 of %3 reads (%4 under %5 us), biolatency %6 of %7 "
                                              "(%8)").arg(quint64(1) << (i + 1)).arg(belowOurs).arg(n).arg(nextOurs)
                                   .arg(quint64(1) << (i + 2)).arg(belowTheirs).arg(m).arg(nextTheirs);
            QVERIFY2(double(belowOurs) / double(n) <= double(nextTheirs) / double(m) + 0.02, qPrintable(at));
            QVERIFY2(double(belowTheirs) / double(m) <= double(nextOurs) / double(n) + 0.02, qPrintable(at));
        }
        QVERIFY2(std::abs(modalBucket(ours) - modalBucket(*theirs)) <= 1,
                 qPrintable(QStringLiteral("modal buckets %1 and %2").arg(modalBucket(ours)).arg(modalBucket(*theirs))));
    }
};

QTEST_GUILESS_MAIN(TestLatencyProbeLive)
#include "tst_latencyprobe_live.moc"
