// The read tests' latency histogram: buckets at most 0.8% wide from 1 us to
// 67 s, fio's percentile rank, merging of threads and runs, and the JSON a
// fio user's script reads (latency_us with fio's percentile keys).
#include "readtest/latency.h"
#include "readtest/readtest.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <random>

using namespace blocktune;

class TestLatency final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bucketsAreNarrowAndContainTheirValue()
    {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> exponent(0.0, 25.8); // 1 us .. 60 s
        for (int i = 0; i < 100000; ++i) {
            const quint64 ns = quint64(1000.0 * std::pow(2.0, exponent(rng))) + 1001;
            const int b = LatencyHistogram::bucketOf(ns);
            const double us = double(ns) / 1000.0;
            QVERIFY2(b > 0 && b < LatencyHistogram::kBuckets - 1, qPrintable(QString::number(ns)));
            QVERIFY2(LatencyHistogram::lowerUs(b) <= us && us < LatencyHistogram::upperUs(b),
                     qPrintable(QStringLiteral("%1 us in [%2, %3)").arg(us).arg(LatencyHistogram::lowerUs(b))
                                    .arg(LatencyHistogram::upperUs(b))));
            QVERIFY(LatencyHistogram::upperUs(b) / LatencyHistogram::lowerUs(b) - 1.0 <= 1.0 / 128 + 1e-12);
        }
        QCOMPARE(LatencyHistogram::bucketOf(500), 0);               // under 1 us: the first bucket
        QCOMPARE(LatencyHistogram::bucketOf(quint64(90e9)), LatencyHistogram::kBuckets - 1); // 90 s: the last
        // Fixed memory: about 26 KiB a reading thread, whatever it reads.
        QVERIFY(sizeof(LatencyHistogram) < 27 * 1024);
    }

    void percentilesFollowFiosRank()
    {
        // 1..1000 us, one read each: p50 is the 500th read, p99 the 990th,
        // p99.9 the 999th, each within its bucket's 0.8%.
        LatencyHistogram h;
        for (quint64 us = 1; us <= 1000; ++us)
            h.record(us * 1000 + 500);
        const LatencyDistribution d = h.distribution();
        QCOMPARE(d.count, quint64(1000));
        for (const auto &[pct, expected] : {std::pair{50.0, 500.5}, std::pair{99.0, 990.5}, std::pair{99.9, 999.5},
                                            std::pair{1.0, 10.5}})
            QVERIFY2(std::abs(d.percentileUs(pct) - expected) <= expected * 0.008,
                     qPrintable(QStringLiteral("p%1 = %2, expected %3").arg(pct).arg(d.percentileUs(pct)).arg(expected)));
        QCOMPARE(d.percentileUs(100), d.maxUs);
        QCOMPARE(d.minUs, 1.5);
        QCOMPARE(d.maxUs, 1000.5);
        QVERIFY(std::abs(d.meanUs - 501.0) < 1e-6);
        QVERIFY(std::abs(d.stdevUs - 288.8194) < 1e-3); // sample stdev of 1..1000
        QCOMPARE(LatencyDistribution{}.percentileUs(50), 0.0);
    }

    void threadsAndRunsMergeToTheWhole()
    {
        LatencyHistogram a, b, all;
        std::mt19937_64 rng(11);
        std::lognormal_distribution<double> wait(std::log(80e3), 0.6); // around 80 us
        for (int i = 0; i < 20000; ++i) {
            const quint64 ns = quint64(wait(rng));
            (i % 3 ? a : b).record(ns);
            all.record(ns);
        }
        LatencyHistogram threads = a;
        threads.merge(b);
        const LatencyDistribution whole = all.distribution();
        const LatencyDistribution merged = threads.distribution();
        const LatencyDistribution runs = mergeLatency({a.distribution(), b.distribution(), LatencyDistribution{}});
        for (const LatencyDistribution &d : {merged, runs}) {
            QCOMPARE(d.count, whole.count);
            QCOMPARE(d.buckets.size(), whole.buckets.size());
            QCOMPARE(d.minUs, whole.minUs);
            QCOMPARE(d.maxUs, whole.maxUs);
            QVERIFY(std::abs(d.meanUs - whole.meanUs) < 1e-6 * whole.meanUs);
            QVERIFY(std::abs(d.stdevUs - whole.stdevUs) < 1e-6 * whole.stdevUs);
            for (const double p : defaultLatencyPercentiles())
                QCOMPARE(d.percentileUs(p), whole.percentileUs(p));
        }
    }

    void jsonUsesFiosKeys()
    {
        QCOMPARE(percentileKey(99.9), QStringLiteral("99.900000"));
        QCOMPARE(percentileKey(50), QStringLiteral("50.000000"));
        LatencyHistogram h;
        for (int i = 0; i < 100; ++i)
            h.record(quint64(20000 + i * 100)); // 20.0 .. 29.9 us
        ReadTestResult result;
        result.kind = ReadTestKind::Sequential;
        result.spec.percentiles = {50, 99.9};
        RunResult run;
        run.label = QStringLiteral("a");
        StreamResult s;
        s.name = QStringLiteral("loop0");
        s.reads = 100;
        s.latencyUs = h.distribution();
        run.streams << s;
        result.runs << run;
        const QJsonObject o = readTestToJson(result);
        const QJsonObject lat = o[u"runs"][0][u"streams"][0][u"latency_us"].toObject();
        QCOMPARE(lat.value(u"count").toInteger(), 100);
        const QJsonObject pcts = lat.value(u"percentiles").toObject();
        QCOMPARE(pcts.keys(), (QStringList{QStringLiteral("50.000000"), QStringLiteral("99.900000")}));
        QVERIFY(std::abs(pcts.value(u"50.000000").toDouble() - 24.9) < 0.25);
        const QJsonArray histogram = lat.value(u"histogram").toArray();
        qint64 counted = 0;
        double lastUpper = 0;
        for (const QJsonValue &b : histogram) {
            QVERIFY(b[0].toDouble() > lastUpper); // ascending [upper_us, count]
            lastUpper = b[0].toDouble();
            counted += b[1].toInteger();
        }
        QCOMPARE(counted, 100);
        // Over the runs: the same figures, without the histogram.
        const QJsonObject over = o[u"streams"][0][u"latency_us"].toObject();
        QCOMPARE(over.value(u"percentiles").toObject(), pcts);
        QVERIFY(!over.contains(u"histogram"));
        // The run's line shows the list given.
        QVERIFY2(formatReadTestResult(result).contains(u"latency p50 24.9 us, p99.9 29.9 us"),
                 qPrintable(formatReadTestResult(result)));
    }
};

QTEST_GUILESS_MAIN(TestLatency)
#include "tst_latency.moc"
