// The latency half of the monitor without the kernel: log2 histograms'
// percentiles, the sampler's per-interval deltas through a fake
// LatencySource (matched by major:minor), the --json latency object, and
// monitor --latency falling back to the diskstats figures when the probe is
// refused (BLOCKTUNE_BPF_REFUSE=1, so no root is needed).
#include "monitortestsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

using Buckets = QList<std::pair<int, quint64>>; // bucket index, count

Log2Histogram histogram(const Buckets &buckets)
{
    Log2Histogram h;
    for (const auto &[i, n] : buckets)
        h.counts[size_t(i)] = n;
    return h;
}

class FakeLatency final : public LatencySource
{
public:
    Result<LatencyTotalsMap> totals() override
    {
        if (failing)
            return makeError(EIO, u"reading the BPF latency map failed: Input/output error"_qs);
        return map;
    }
    LatencyTotalsMap map;
    bool failing = false;
};

Counters reads(quint64 n)
{
    Counters c{};
    c[0] = n;
    c[2] = n * 8;
    return c;
}

} // namespace

class TestLatencyMonitor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void percentile_data()
    {
        QTest::addColumn<Buckets>("buckets");
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("expected"); // -1: nullopt
        QTest::newRow("empty") << Buckets{} << 50.0 << -1.0;
        QTest::newRow("under 1 us: bucket 0, upper 2") << Buckets{{0, 3}} << 50.0 << 2.0;
        QTest::newRow("one bucket") << Buckets{{5, 10}} << 99.0 << 64.0;
        // 100 waits: 50 in [4,8), 50 in [64,128). Rank ceil(50) = 50th is the last of the first.
        QTest::newRow("p50 at the edge") << Buckets{{2, 50}, {6, 50}} << 50.0 << 8.0;
        QTest::newRow("p51 past it") << Buckets{{2, 50}, {6, 50}} << 51.0 << 128.0;
        // 1000 waits, 10 slow: the 990th is fast, the 991st slow.
        QTest::newRow("p99 fast") << Buckets{{3, 990}, {20, 10}} << 99.0 << 16.0;
        QTest::newRow("p99.1 slow") << Buckets{{3, 990}, {20, 10}} << 99.1 << double(1 << 21);
        QTest::newRow("p0 is the first wait") << Buckets{{4, 1}, {9, 5}} << 0.0 << 32.0;
        QTest::newRow("p100 the last") << Buckets{{4, 1}, {31, 1}} << 100.0 << 4294967296.0;
        QTest::newRow("garbage p above 100") << Buckets{{4, 1}, {9, 5}} << 250.0 << 1024.0;
        QTest::newRow("garbage p NaN") << Buckets{{4, 1}} << qQNaN() << -1.0;
    }
    void percentile()
    {
        QFETCH(Buckets, buckets);
        QFETCH(double, p);
        QFETCH(double, expected);
        const std::optional<double> got = histogram(buckets).percentileUs(p);
        if (expected < 0) {
            QVERIFY(!got);
        } else {
            QVERIFY(got);
            QCOMPARE(*got, expected);
        }
    }

    void samplerReportsEachIntervalsHistogramsByMajorMinor()
    {
        auto source = std::make_unique<FakeSource>();
        auto latency = std::make_unique<FakeLatency>();
        auto clock = std::make_unique<FakeClock>();
        FakeSource *src = source.get();
        FakeLatency *lat = latency.get();
        FakeClock *clk = clock.get();
        Sampler sampler(std::move(source), std::move(clock));
        // diskstatsText numbers them 8:0 and 8:1.
        src->setDevices({{u"sda"_qs, reads(0)}, {u"sdb"_qs, reads(0)}});
        DeviceLatencyTotals sda;
        sda.read.requests = 10;
        sda.read.queue = histogram({{1, 10}});
        sda.read.device = histogram({{4, 10}});
        lat->map.insert(deviceNumber(8, 0), sda);
        lat->map.insert(deviceNumber(9, 0), sda); // another device's: never shown
        sampler.setLatencySource(std::move(latency));
        QVERIFY(sampler.sample()->baseline);

        clk->advanceMs(100);
        src->setDevices({{u"sda"_qs, reads(30)}, {u"sdb"_qs, reads(0)}});
        sda.read.requests = 30;
        sda.read.queue = histogram({{1, 25}, {2, 5}});
        sda.read.device = histogram({{4, 20}, {7, 10}});
        sda.write.requests = 1;
        sda.write.device = histogram({{10, 1}});
        lat->map.insert(deviceNumber(8, 0), sda);
        auto s = sampler.sample();
        QVERIFY(s.ok());
        QVERIFY(s->latencyUnavailable.isEmpty());
        QCOMPARE(s->devices.size(), 2);
        const DeviceRates &a = s->devices[0];
        QVERIFY(a.latency);
        QCOMPARE(a.latency->readQueue.counts, histogram({{1, 15}, {2, 5}}).counts); // this interval only
        QCOMPARE(a.latency->readDevice.counts, histogram({{4, 10}, {7, 10}}).counts);
        QCOMPARE(a.latency->writeDevice.counts, histogram({{10, 1}}).counts);
        QCOMPARE(a.latency->writeQueue.total(), 0u);
        // sdb (8:1) did nothing: histograms, empty.
        QVERIFY(s->devices[1].latency);
        QCOMPARE(s->devices[1].latency->readDevice.total(), 0u);

        // The source fails: no histograms this tick, and the sample says why.
        clk->advanceMs(100);
        lat->failing = true;
        s = sampler.sample();
        QVERIFY(s.ok());
        QVERIFY(!s->devices[0].latency);
        QVERIFY(s->latencyUnavailable.contains(u"Input/output error"_qs));
    }

    void withoutASourceTheSampleSaysWhy()
    {
        auto source = std::make_unique<FakeSource>();
        auto clock = std::make_unique<FakeClock>();
        FakeSource *src = source.get();
        FakeClock *clk = clock.get();
        Sampler sampler(std::move(source), std::move(clock));
        src->setDevices({{u"sda"_qs, reads(0)}});
        sampler.setLatencyUnavailable(u"latency histograms unavailable: not root"_qs);
        QVERIFY(sampler.sample()->baseline);
        clk->advanceMs(100);
        auto s = sampler.sample();
        QVERIFY(s.ok());
        QVERIFY(!s->devices[0].latency);
        QCOMPARE(s->latencyUnavailable, u"latency histograms unavailable: not root"_qs);
    }

    void jsonLatencyObjectHasTheDocumentedShape()
    {
        Sample s;
        s.tick = 1;
        s.intervalS = 0.1;
        DeviceRates d;
        d.name = u"loop3"_qs;
        DeviceLatency l;
        l.readQueue = histogram({{0, 90}, {1, 10}});
        l.readDevice = histogram({{4, 50}, {5, 49}, {9, 1}});
        d.latency = l;
        s.devices << d;
        DeviceRates plain;
        plain.name = u"sda"_qs;
        s.devices << plain;
        QByteArray out;
        appendSampleJson(s, out);
        QVERIFY(out.endsWith('\n'));
        QJsonParseError error;
        const QJsonObject devices = QJsonDocument::fromJson(out, &error).object()[u"devices"_qs].toObject();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(!devices[u"sda"_qs].toObject().contains(u"latency"_qs));
        const QJsonObject latency = devices[u"loop3"_qs].toObject()[u"latency"_qs].toObject();
        QCOMPARE(latency.keys(),
                 (QStringList{u"read_device"_qs, u"read_queue"_qs, u"write_device"_qs, u"write_queue"_qs}));
        const QJsonObject rd = latency[u"read_device"_qs].toObject();
        QCOMPARE(rd.keys(), (QStringList{u"histogram"_qs, u"p50_us"_qs, u"p99_us"_qs}));
        QCOMPARE(QJsonDocument(rd[u"histogram"_qs].toArray()).toJson(QJsonDocument::Compact),
                 QByteArray("[[32,50],[64,49],[1024,1]]"));
        QCOMPARE(rd[u"p50_us"_qs].toDouble(), 32.0);
        QCOMPARE(rd[u"p99_us"_qs].toDouble(), 64.0);
        const QJsonObject rq = latency[u"read_queue"_qs].toObject();
        QCOMPARE(QJsonDocument(rq[u"histogram"_qs].toArray()).toJson(QJsonDocument::Compact),
                 QByteArray("[[2,90],[4,10]]"));
        QCOMPARE(rq[u"p99_us"_qs].toDouble(), 4.0);
        const QJsonObject wq = latency[u"write_queue"_qs].toObject();
        QVERIFY(wq[u"histogram"_qs].toArray().isEmpty());
        QVERIFY(wq[u"p50_us"_qs].isNull());
        QVERIFY(wq[u"p99_us"_qs].isNull());
    }

    void workerSamplesSayWhyLatencyIsMissing_data()
    {
        QTest::addColumn<QString>("sysroot");
        QTest::addColumn<QString>("reason");
        QTest::newRow("refused by the switch") << QString() << u"BLOCKTUNE_BPF_REFUSE=1"_qs;
        QTest::newRow("a recorded tree") << recordedTree("md-raid10-f2") << u"not a recorded tree"_qs;
    }
    void workerSamplesSayWhyLatencyIsMissing()
    {
        QFETCH(QString, sysroot);
        QFETCH(QString, reason);
        qputenv("BLOCKTUNE_BPF_REFUSE", "1");
        auto source = std::make_unique<FakeSource>();
        auto clock = std::make_unique<FakeClock>();
        FakeSource *src = source.get();
        FakeClock *clk = clock.get();
        src->setDevices({{u"sda"_qs, reads(0)}});
        MonitorWorker worker(sysroot, std::move(source), std::move(clock));
        QSignalSpy sampled(&worker, &MonitorWorker::sampled);
        worker.tick();
        clk->advanceMs(100);
        worker.tick();
        QCOMPARE(sampled.size(), 2);
        QCOMPARE(sampled.last().first().value<Sample>().latencyUnavailable, u"latency histograms are off"_qs);

        worker.setLatency(true);
        clk->advanceMs(100);
        worker.tick();
        const Sample s = sampled.last().first().value<Sample>();
        QVERIFY2(s.latencyUnavailable.contains(reason), qPrintable(s.latencyUnavailable));
        QVERIFY(!s.devices.isEmpty() && !s.devices.constFirst().latency);
        qunsetenv("BLOCKTUNE_BPF_REFUSE");
    }

    void refusedProbeSaysWhyAndKeepsTheDiskstatsFigures()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"BLOCKTUNE_BPF_REFUSE"_qs, u"1"_qs);
        p.setProcessEnvironment(env);
        p.start(binary("blocktune-cli"), {u"monitor"_qs, u"--latency"_qs, u"--json"_qs, u"--count"_qs, u"2"_qs,
                                          u"--interval"_qs, u"50ms"_qs});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0, err.constData());
        QCOMPARE(err.count('\n'), 1); // said once
        QVERIFY2(err.contains("BLOCKTUNE_BPF_REFUSE=1") && err.contains("/proc/diskstats figures only"),
                 err.constData());
        const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        for (const QByteArray &line : lines) {
            QVERIFY(!line.contains("\"latency\""));
            const QJsonObject devices = QJsonDocument::fromJson(line).object()[u"devices"_qs].toObject();
            QVERIFY(!devices.isEmpty());
            for (const QJsonValue &dev : devices)
                QVERIFY(dev.toObject()[u"read_await_ms"_qs].isDouble());
        }
    }
};

QTEST_GUILESS_MAIN(TestLatencyMonitor)
#include "tst_latencymonitor.moc"
