// The BPF latency probe on the live machine, on a direct-I/O loop device of
// our own (read only): its request count for the device is diskstats' (to
// the request in most runs; 1% allowed, see there), and its queue + device
// nanoseconds are diskstats' ms reading within 10%, with scheduler none
// (requests mostly issued without an insert) and mq-deadline (every request
// inserted). The CLI's --latency JSON has the documented shape.
#include "monitortestsupport.h"
#include "testloop.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QThread>

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

DiskCounters countersOf(const QString &name)
{
    auto table = readDiskStats(SysRoot());
    return table ? table->value(name) : DiskCounters{};
}

// A freshly attached device may still be probed (blkid, udev): wait until
// its counters hold still.
bool waitIdle(const QString &name)
{
    quint64 last = countersOf(name)[DiskCounters::ReadsCompleted];
    for (int i = 0; i < 50; ++i) {
        QThread::msleep(100);
        const quint64 now = countersOf(name)[DiskCounters::ReadsCompleted];
        if (now == last)
            return true;
        last = now;
    }
    return false;
}

// kReads O_DIRECT 4 KiB reads at random aligned offsets; false on any error.
bool directReads(const QString &path)
{
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0)
        return false;
    void *buffer = nullptr;
    if (::posix_memalign(&buffer, 4096, 4096) != 0) {
        ::close(fd);
        return false;
    }
    std::mt19937 rng(20);
    std::uniform_int_distribution<qint64> block(0, kDeviceBytes / 4096 - 1);
    bool ok = true;
    for (int i = 0; i < kReads && ok; ++i)
        ok = ::pread(fd, buffer, 4096, off_t(block(rng) * 4096)) == 4096;
    std::free(buffer);
    ::close(fd);
    return ok;
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
    QVERIFY(waitIdle(loop.name()));
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

        const DiskCounters before = countersOf(loop.name());
        const LatencyTotals bpfBefore = readTotalsOf(**probe, before);
        QVERIFY(directReads(loop.path()));
        // The reader wakes in blk_update_request, before the block layer
        // accounts the last read in diskstats: let that finish.
        QThread::msleep(100);
        const DiskCounters after = countersOf(loop.name());
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
        QTRY_VERIFY_WITH_TIMEOUT((cli.waitForReadyRead(20), cli.peek(1 << 20).contains('\n')), 10000);
        QVERIFY(directReads(loop.path()));
        // The lines written while we read are still in the pipe: take them
        // first, so the two lines waited for are ticks after the reads.
        while (cli.waitForReadyRead(20)) {
        }
        const qsizetype linesAfterReads = cli.peek(1 << 24).count('\n');
        QTRY_VERIFY_WITH_TIMEOUT((cli.waitForReadyRead(20), cli.peek(1 << 24).count('\n') >= linesAfterReads + 2),
                                 10000);
        QCOMPARE(::kill(pid_t(cli.processId()), SIGINT), 0);
        QVERIFY(cli.waitForFinished(5000));
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
};

QTEST_GUILESS_MAIN(TestLatencyProbeLive)
#include "tst_latencyprobe_live.moc"
