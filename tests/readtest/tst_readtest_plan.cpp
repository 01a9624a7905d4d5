// Read tests without root: the parsers, the statistics, and the refusals
// ReadTest::prepare() gives on recorded machines (tests/data/sysroot), where
// every size and alignment is known and nothing can be read.
#include "readtest/readtest.h"
#include "session/session.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <climits>
#include <cmath>

using namespace blocktune;
using namespace blocktune::test;

Q_DECLARE_METATYPE(QList<quint64>)
Q_DECLARE_METATYPE(QList<double>)

namespace {

ReadTestSpec seqSpec(const QString &device, quint64 offset = 0)
{
    ReadTestSpec spec;
    spec.measure = {StreamTarget{device, offset}};
    return spec;
}

// nvme0n1 in the nvme-parts tree: 1953525168 sectors of 512 bytes.
constexpr quint64 kNvmeBytes = 1953525168ULL * 512;

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestReadTestPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void streamTarget_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("device");
        QTest::addColumn<quint64>("offset");
        QTest::newRow("name") << "sdb" << true << "sdb" << quint64(0);
        QTest::newRow("path") << "/dev/sdb" << true << "/dev/sdb" << quint64(0);
        QTest::newRow("offset K") << "sdc@64K" << true << "sdc" << quint64(65536);
        QTest::newRow("offset G") << "/dev/sdc@1G" << true << "/dev/sdc" << (quint64(1) << 30);
        QTest::newRow("offset bytes") << "loop0@4096" << true << "loop0" << quint64(4096);
        QTest::newRow("empty") << "" << false << "" << quint64(0);
        QTest::newRow("only offset") << "@1G" << false << "" << quint64(0);
        QTest::newRow("bad offset") << "sdb@lots" << false << "" << quint64(0);
        QTest::newRow("negative offset") << "sdb@-4K" << false << "" << quint64(0);
        QTest::newRow("empty offset") << "sdb@" << false << "" << quint64(0);
    }
    void streamTarget()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(QString, device);
        QFETCH(quint64, offset);
        const auto t = parseStreamTarget(text);
        QCOMPARE(t.ok(), valid);
        if (!valid) {
            QVERIFY2(t.error().message.contains(text.isEmpty() ? QStringLiteral("DEV") : text),
                     qPrintable(t.error().message));
            return;
        }
        QCOMPARE(t->device, device);
        QCOMPARE(t->offset, offset);
    }

    void readaheadList_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<quint64>>("values");
        QTest::addColumn<QString>("complaint");
        QTest::newRow("KiB numbers") << "128,512,4096" << QList<quint64>{128, 512, 4096} << QString();
        QTest::newRow("spaces") << " 4 , 1024 " << QList<quint64>{4, 1024} << QString();
        QTest::newRow("suffixes") << "512K,4M,1G" << QList<quint64>{512, 4096, 1048576} << QString();
        QTest::newRow("zero") << "0" << QList<quint64>{0} << QString();
        QTest::newRow("kernel max") << "4294967295" << QList<quint64>{4294967295ULL} << QString();
        QTest::newRow("above max") << "4294967296" << QList<quint64>{} << "limit";
        QTest::newRow("duplicate") << "128,512,128" << QList<quint64>{} << "twice";
        QTest::newRow("empty") << "" << QList<quint64>{} << "empty";
        QTest::newRow("trailing comma") << "128," << QList<quint64>{} << "empty";
        QTest::newRow("garbage") << "128,fast" << QList<quint64>{} << "fast";
        QTest::newRow("negative") << "-128" << QList<quint64>{} << "-128";
        QTest::newRow("bytes not KiB") << "1536B" << QList<quint64>{} << "whole number of KiB";
    }
    void readaheadList()
    {
        QFETCH(QString, text);
        QFETCH(QList<quint64>, values);
        QFETCH(QString, complaint);
        const auto parsed = parseReadaheadList(text);
        if (complaint.isEmpty()) {
            QVERIFY2(parsed.ok(), parsed.ok() ? "" : qPrintable(parsed.error().message));
            QCOMPARE(*parsed, values);
        } else {
            QVERIFY(!parsed.ok());
            QVERIFY2(parsed.error().message.contains(complaint), qPrintable(parsed.error().message));
        }
    }

    void kindNames()
    {
        for (ReadTestKind k : {ReadTestKind::Sequential, ReadTestKind::Concurrent, ReadTestKind::Server,
                               ReadTestKind::Mixed})
            QCOMPARE(parseReadTestKind(readTestKindName(k)), std::optional<ReadTestKind>(k));
        QCOMPARE(readTestKindName(ReadTestKind::Sequential), QStringLiteral("seq"));
        QVERIFY(!parseReadTestKind(QStringLiteral("sequential")).has_value());
        QVERIFY(!parseReadTestKind(QString()).has_value());
    }

    void summary_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<double>("mean");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<double>("stdev");
        QTest::addColumn<double>("median");
        // The reference thread's runs of test 3: 21.6, 22.8, 24.1 MB/s.
        QTest::newRow("thread a/b/c") << QList<double>{21.6, 22.8, 24.1} << 22.8333 << 21.6 << 24.1 << 1.2503 << 22.8;
        QTest::newRow("one run") << QList<double>{102.0} << 102.0 << 102.0 << 102.0 << 0.0 << 102.0;
        QTest::newRow("equal") << QList<double>{5, 5, 5, 5} << 5.0 << 5.0 << 5.0 << 0.0 << 5.0;
        QTest::newRow("none") << QList<double>{} << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
        // Issue 35's stream card: a cold first run; the median is not the last run.
        QTest::newRow("a/b/c 304/476/1492") << QList<double>{304, 476, 1492} << 757.3333 << 304.0 << 1492.0 << 642.0260
                                           << 476.0;
        QTest::newRow("even count") << QList<double>{10, 40, 20, 30} << 25.0 << 10.0 << 40.0 << 12.9099 << 25.0;
    }
    void summary()
    {
        QFETCH(QList<double>, values);
        QFETCH(double, mean);
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(double, stdev);
        QFETCH(double, median);
        const Summary s = summarize(values);
        QCOMPARE(s.median, median);
        QCOMPARE(s.count, int(values.size()));
        QVERIFY2(std::abs(s.mean - mean) < 1e-3, qPrintable(QString::number(s.mean)));
        QCOMPARE(s.min, min);
        QCOMPARE(s.max, max);
        QVERIFY2(std::abs(s.stdev - stdev) < 1e-3, qPrintable(QString::number(s.stdev)));
    }

    void jain_data()
    {
        QTest::addColumn<QList<double>>("rates");
        QTest::addColumn<double>("index");
        QTest::newRow("equal shares") << QList<double>{50, 50, 50} << 1.0;
        QTest::newRow("one takes all of 4") << QList<double>{100, 0, 0, 0} << 0.25;
        // Thread's test 3 with cfq: sdb 4 MB/s beside sdc's ~70 MB/s.
        QTest::newRow("starved") << QList<double>{4.0, 70.0} << (74.0 * 74.0) / (2.0 * (16.0 + 4900.0));
        QTest::newRow("single") << QList<double>{12.5} << 1.0;
        QTest::newRow("empty") << QList<double>{} << 1.0;
        QTest::newRow("all zero") << QList<double>{0, 0} << 1.0;
    }
    void jain()
    {
        QFETCH(QList<double>, rates);
        QFETCH(double, index);
        QVERIFY2(std::abs(jainFairness(rates) - index) < 1e-9, qPrintable(QString::number(jainFairness(rates))));
    }

    // Runs that disagree by more than a stall are named, the first run
    // preferred when it is the slow one; runs within a stall are not.
    void disagreement_data()
    {
        QTest::addColumn<QList<double>>("rates");
        QTest::addColumn<QString>("run");   // empty: they agree
        QTest::addColumn<bool>("slower");
        QTest::addColumn<double>("factor");
        QTest::addColumn<QString>("says");
        QTest::newRow("cold first") << QList<double>{304, 476, 1492} << u"a"_qs << true << 984.0 / 304.0
                                    << u"The first run was 3.2× slower than the others (304 against 984 MB/s)"_qs;
        QTest::newRow("within a stall") << QList<double>{1000, 1100, 1050} << QString() << false << 0.0 << QString();
        QTest::newRow("middle stalls") << QList<double>{1000, 400, 1000} << u"b"_qs << true << 2.5
                                       << u"Run b was 2.5× slower than the others"_qs;
        QTest::newRow("first ties the slowest") << QList<double>{500, 500, 1500} << u"c"_qs << false << 3.0
                                                << u"Run c was 3.0× faster than the others"_qs;
        QTest::newRow("last is lucky") << QList<double>{1000, 1000, 2500} << u"c"_qs << false << 2.5
                                       << u"Run c was 2.5× faster than the others"_qs;
        QTest::newRow("one run") << QList<double>{100} << QString() << false << 0.0 << QString();
    }
    void disagreement()
    {
        QFETCH(QList<double>, rates);
        QFETCH(QString, run);
        QFETCH(bool, slower);
        QFETCH(double, factor);
        QFETCH(QString, says);
        QStringList labels;
        for (qsizetype i = 0; i < rates.size(); ++i)
            labels << QString(QChar(u'a' + int(i)));
        const auto d = runDisagreement(labels, rates);
        QCOMPARE(d.has_value(), !run.isEmpty());
        if (!d)
            return;
        QCOMPARE(d->label, run);
        QCOMPARE(d->slower, slower);
        QVERIFY2(std::abs(d->factor - factor) < 1e-6, qPrintable(QString::number(d->factor)));
        const QString text = describeDisagreement(*d);
        QVERIFY2(text.startsWith(says), qPrintable(text));
        QVERIFY(text.endsWith(u"The figure is the median."_qs));
    }

    // The text and the JSON lead with the median, every run beside it, and
    // say when the runs disagree.
    void reportLeadsWithTheMedian()
    {
        ReadTestResult result;
        result.kind = ReadTestKind::Sequential;
        result.device = u"loop5"_qs;
        const QList<double> rates{304, 476, 1492};
        for (qsizetype i = 0; i < rates.size(); ++i) {
            RunResult r;
            r.label = QString(QChar(u'a' + int(i)));
            r.mbPerSec = rates.at(i);
            r.seconds = 1;
            result.runs << r;
        }
        result.mbPerSec = summarize(rates);
        const QString text = formatReadTestResult(result);
        QVERIFY2(text.contains(u"median 476 MB/s (a 304, b 476, c 1492; min-max 304-1492 MB/s)"_qs),
                 qPrintable(text));
        QVERIFY2(text.contains(u"The first run was 3.2× slower"_qs), qPrintable(text));
        const QJsonObject json = readTestToJson(result);
        QCOMPARE(json.value(u"median_mb_per_s"_qs).toDouble(), 476.0);
        QCOMPARE(json.value(u"mean_mb_per_s"_qs).toDouble(), 757.333);
        const QJsonObject disagree = json.value(u"runs_disagree"_qs).toObject();
        QCOMPARE(disagree.value(u"run"_qs).toString(), u"a"_qs);
        QVERIFY(disagree.value(u"first"_qs).toBool());
    }

    // The exact form (the agent protocol's): every field comes back as it
    // was written, through JSON text, under the names `test --json` uses.
    void exactFormRoundTrips()
    {
        ReadTestResult result;
        result.kind = ReadTestKind::Mixed;
        result.device = u"loop5"_qs;
        result.spec.kind = ReadTestKind::Mixed;
        result.spec.measure = {StreamTarget{u"loop5"_qs, 4096}};
        result.spec.background = {StreamTarget{u"loop6"_qs, 0}};
        result.spec.blockSize = 1 << 20;
        result.spec.sizeBytes = 64ULL << 20;
        result.spec.durationMs = 2500;
        result.spec.direct = true;
        result.spec.fadviseSequential = true;
        result.spec.dropCaches = true;
        result.spec.repeat = 2;
        result.spec.intervalMs = 250;
        result.spec.threads = 6;
        result.spec.sharedFd = true;
        result.spec.seqStreams = 2;
        result.spec.randomReaders = 3;
        result.spec.randomBlockSize = 8192;
        result.spec.percentiles = {50, 99.9};
        RunResult run;
        run.label = u"a"_qs;
        run.measuredBytes = 123456789;
        run.seconds = 1.2345678;
        run.mbPerSec = 100.0001234;
        run.aggregateMbPerSec = 150.5;
        run.fairnessJain = 0.98765;
        run.cacheDrop = u"fadvise+blkflsbuf"_qs;
        run.errors = {u"one"_qs};
        StreamResult s;
        s.name = u"random1"_qs;
        s.device = u"loop5"_qs;
        s.offset = 4096;
        s.plannedBytes = 777;
        s.role = StreamRole::Background;
        s.pattern = AccessPattern::Random;
        s.bytes = 5555;
        s.reads = 12;
        s.seconds = 0.123456789;
        s.mbPerSec = 44.4444444;
        s.latency = LatencySummary{12, 0.5123456, 3.25, 0.4, 3.1};
        s.latencyUs.count = 12;
        s.latencyUs.minUs = 101.5;
        s.latencyUs.maxUs = 3250;
        s.latencyUs.meanUs = 512.3456;
        s.latencyUs.stdevUs = 77.7;
        s.latencyUs.buckets = {LatencyBucket{100, 102, 5}, LatencyBucket{3200, 3300, 7}};
        s.error = u"short read"_qs;
        s.workers = {WorkerResult{1, 2, 0.25, LatencySummary{2, 0.1, 0.2, 0.15, 0.2}, u"w"_qs},
                     WorkerResult{3, 4, 0.5, {}, {}}};
        run.streams = {s};
        run.intervals = {IntervalSample{0.25, 0.25, {IntervalSample::Stream{10, 1, 0.3333333, 0.9}}}};
        DeviceCounterDelta loop6;
        loop6.device = u"loop6"_qs;
        DeviceCounterDelta loop5{u"loop5"_qs, true, 9, 8, 7, 6, 5.4321, -3};
        run.deviceStats = {loop6, loop5}; // the order is kept, not sorted
        RecordedSettings settings;
        settings.device = u"loop5p1"_qs;
        settings.queueDevice = u"loop5"_qs;
        settings.readAheadKiB = 4096;
        settings.scheduler = u"mq-deadline"_qs;
        settings.maxSectorsKiB = 1280;
        settings.logicalBlockBytes = 4096;
        settings.kernel = u"6.1.0"_qs;
        run.settings = {settings};
        result.runs = {run};
        result.mbPerSec = summarize({100.0001234});
        result.cancelled = true;
        result.failed = true;
        result.errors = {u"setup"_qs};

        const QJsonObject exact = readTestToExactJson(result);
        const QJsonObject text = QJsonDocument::fromJson(QJsonDocument(exact).toJson()).object();
        const ReadTestResult back = readTestFromJson(text);
        QCOMPARE(readTestToExactJson(back), exact);
        QCOMPARE(back.kind, result.kind);
        QCOMPARE(back.device, result.device);
        QCOMPARE(back.spec.measure.constFirst().offset, 4096u);
        QCOMPARE(back.spec.background.constFirst().device, u"loop6"_qs);
        QCOMPARE(back.spec.sizeBytes, result.spec.sizeBytes);
        QCOMPARE(back.spec.durationMs, result.spec.durationMs);
        QVERIFY(back.spec.direct && back.spec.fadviseSequential && back.spec.dropCaches && back.spec.sharedFd);
        QCOMPARE(back.spec.repeat, 2);
        QCOMPARE(back.spec.intervalMs, 250);
        QCOMPARE(back.spec.threads, 6);
        QCOMPARE(back.spec.seqStreams, 2);
        QCOMPARE(back.spec.randomReaders, 3);
        QCOMPARE(back.spec.randomBlockSize, 8192u);
        QCOMPARE(back.spec.percentiles, result.spec.percentiles);
        QCOMPARE(back.mbPerSec.median, result.mbPerSec.median);
        QCOMPARE(back.mbPerSec.count, 1);
        QVERIFY(back.cancelled && back.failed);
        const RunResult &r = back.runs.constFirst();
        QCOMPARE(r.seconds, run.seconds);
        QCOMPARE(r.mbPerSec, run.mbPerSec);
        QCOMPARE(r.fairnessJain, run.fairnessJain);
        QCOMPARE(r.cacheDrop, run.cacheDrop);
        QCOMPARE(r.deviceStats.size(), 2);
        QCOMPARE(r.deviceStats.at(0).device, u"loop6"_qs);
        QCOMPARE(r.deviceStats.at(1).avgRequestKiB, 5.4321);
        QCOMPARE(r.deviceStats.at(1).overshootBytes, -3);
        QCOMPARE(r.settings.constFirst().queueDevice, u"loop5"_qs);
        QCOMPARE(r.settings.constFirst().readAheadKiB, std::optional<quint64>(4096));
        QVERIFY(!r.settings.constFirst().nrRequests);
        QCOMPARE(r.intervals.constFirst().streams.constFirst().meanLatencyMs, 0.3333333);
        const StreamResult &bs = r.streams.constFirst();
        QCOMPARE(bs.role, StreamRole::Background);
        QCOMPARE(bs.pattern, AccessPattern::Random);
        QCOMPARE(bs.plannedBytes, 777u);
        QCOMPARE(bs.mbPerSec, s.mbPerSec);
        QCOMPARE(bs.latency.meanMs, s.latency.meanMs);
        QCOMPARE(bs.latencyUs.buckets.size(), 2);
        QCOMPARE(bs.latencyUs.buckets.at(1).lowerUs, 3200.0);
        QCOMPARE(bs.workers.size(), 2);
        QCOMPARE(bs.workers.at(0).latency.p50Ms, 0.15);
        QCOMPARE(bs.workers.at(0).error, u"w"_qs);

        // One vocabulary: what the output names, the exact form names the
        // same way (and the old wire's names are gone).
        const QJsonObject output = readTestToJson(result);
        for (const char16_t *key : {u"test", u"device", u"block_size", u"size", u"count", u"time_ms", u"direct",
                                    u"fadvise_sequential", u"repeat", u"interval_ms", u"seq_streams", u"random_readers", u"random_block_size", u"cancelled",
                                    u"failed", u"errors", u"schema"})
            QVERIFY2(exact.value(QStringView(key)) == output.value(QStringView(key)), qPrintable(QString::fromUtf16(key)));
        for (const char16_t *old : {u"kind", u"bs", u"duration_ms", u"fadvise", u"random_bs", u"summary"})
            QVERIFY2(!exact.contains(QStringView(old)), qPrintable(QString::fromUtf16(old)));
        const QJsonObject outRun = output.value(u"runs").toArray().at(0).toObject();
        const QJsonObject exactRun = exact.value(u"runs").toArray().at(0).toObject();
        for (const QString &key : outRun.keys())
            QVERIFY2(exactRun.contains(key) || key == u"complete" || key == u"device_stats" || key == u"settings",
                     qPrintable(key));
        QCOMPARE(exactRun.value(u"settings_by_device").toObject().value(u"loop5p1").toObject(),
                 outRun.value(u"settings").toObject());
        const QJsonObject outStream = outRun.value(u"streams").toArray().at(0).toObject();
        const QJsonObject exactStream = exactRun.value(u"streams").toArray().at(0).toObject();
        for (const QString &key : outStream.keys())
            QVERIFY2(exactStream.contains(key), qPrintable(key));
    }

    void exactSweepRoundTrips()
    {
        SweepResult sweep;
        sweep.test = ReadTestKind::Concurrent;
        sweep.device = u"loop5p1"_qs;
        sweep.queueDevice = u"loop5"_qs;
        sweep.originalKiB = 128;
        sweep.restored = true;
        sweep.restoreMessage = u"restored 128 KiB"_qs;
        sweep.journalPath = u"/run/x.json"_qs;
        sweep.errors = {u"e"_qs};
        SweepPoint p;
        p.requestedKiB = 4000;
        p.readAheadKiB = 4096;
        p.mbPerSec = 321.123456;
        p.avgRequestKiB = 511.75;
        p.result.device = u"loop5p1"_qs;
        p.result.mbPerSec = summarize({321.123456, 300});
        sweep.points = {p};
        const QJsonObject exact = sweepToExactJson(sweep);
        const SweepResult back = sweepFromJson(QJsonDocument::fromJson(QJsonDocument(exact).toJson()).object());
        QCOMPARE(sweepToExactJson(back), exact);
        QCOMPARE(back.test, ReadTestKind::Concurrent);
        QCOMPARE(back.queueDevice, u"loop5"_qs);
        QCOMPARE(back.originalKiB, std::optional<quint64>(128));
        QVERIFY(back.restored);
        QCOMPARE(back.restoreMessage, sweep.restoreMessage);
        QCOMPARE(back.journalPath, sweep.journalPath);
        QCOMPARE(back.points.constFirst().requestedKiB, 4000u);
        QCOMPARE(back.points.constFirst().readAheadKiB, 4096u);
        QCOMPARE(back.points.constFirst().mbPerSec, 321.123456);
        QCOMPARE(back.points.constFirst().result.mbPerSec.median, p.result.mbPerSec.median);
        const QJsonObject output = sweepToJson(sweep);
        for (const char16_t *key : {u"schema", u"sweep", u"test", u"device", u"queue_device", u"original_read_ahead_kb",
                                    u"restored", u"restore_message", u"journal", u"cancelled", u"failed", u"errors"})
            QVERIFY2(exact.value(QStringView(key)) == output.value(QStringView(key)), qPrintable(QString::fromUtf16(key)));
        const QJsonObject outPoint = output.value(u"points").toArray().at(0).toObject();
        const QJsonObject exactPoint = exact.value(u"points").toArray().at(0).toObject();
        for (const char16_t *key : {u"read_ahead_kb", u"requested_read_ahead_kb", u"avg_request_kb"})
            QVERIFY2(exactPoint.value(QStringView(key)) == outPoint.value(QStringView(key)), qPrintable(QString::fromUtf16(key)));
    }

    // ---- prepare() on recorded trees ----

    void defaultsAreBoundedByTheDevice()
    {
        const SysRoot root(recordedTree("nvme-parts"));
        // A 512 MiB partition: 256 MiB by default.
        auto big = ReadTest::prepare(root, seqSpec(QStringLiteral("nvme0n1p1")));
        QVERIFY2(big.ok(), big.ok() ? "" : qPrintable(big.error().message));
        QCOMPARE(big->streams().size(), 1);
        QCOMPARE(big->streams().constFirst().length, quint64(256) << 20);
        QCOMPARE(big->spec().repeat, 3);
        QCOMPARE(big->spec().blockSize, quint64(64) << 10);
        // 100 MiB before the end: only those 100 MiB.
        const quint64 p1 = 1048576ULL * 512;
        auto tail = ReadTest::prepare(root, seqSpec(QStringLiteral("/dev/nvme0n1p1"), p1 - (100ULL << 20)));
        QVERIFY(tail.ok());
        QCOMPARE(tail->streams().constFirst().length, quint64(100) << 20);
    }

    void partitionsUseTheirDisksQueue()
    {
        const SysRoot root(recordedTree("nvme-parts"));
        auto t = ReadTest::prepare(root, seqSpec(QStringLiteral("nvme0n1p2")));
        QVERIFY(t.ok());
        QCOMPARE(t->testDevices().size(), 1);
        QCOMPARE(t->testDevices().constFirst().name, QStringLiteral("nvme0n1p2"));
        QCOMPARE(t->testDevices().constFirst().queueDevice, QStringLiteral("nvme0n1"));
        QCOMPARE(t->testDevices().constFirst().sizeBytes, 4194304ULL * 512);
        // The settings recorded are the disk's (the tree's readahead is 128 KiB).
        const RecordedSettings s = t->currentSettings(t->testDevices().constFirst());
        QCOMPARE(s.queueDevice, QStringLiteral("nvme0n1"));
        QCOMPARE(s.readAheadKiB, std::optional<quint64>(128));
        QVERIFY(!s.scheduler.isEmpty());
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<quint64>("offset");
        QTest::addColumn<quint64>("bs");
        QTest::addColumn<quint64>("size");
        QTest::addColumn<quint64>("count");
        QTest::addColumn<bool>("direct");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("complaint");
        const quint64 none = 0;
        QTest::newRow("unknown device") << "sdq" << none << quint64(65536) << none << none << false << int(NotFound) << "no block device named 'sdq'";
        QTest::newRow("path escape") << "/dev/../etc/passwd" << none << quint64(65536) << none << none << false << int(NotFound) << "no block device";
        QTest::newRow("zero bs") << "nvme0n1" << none << none << none << none << false << int(InvalidArgument) << "--bs must be at least 1 byte";
        QTest::newRow("huge bs") << "nvme0n1" << none << (quint64(1) << 30) << none << none << false << int(InvalidArgument) << "too large";
        QTest::newRow("size past end") << "nvme0n1p2" << none << quint64(65536) << (quint64(3) << 30) << none << false << int(InvalidArgument) << "goes past the end of nvme0n1p2";
        QTest::newRow("offset+size past end") << "nvme0n1p1" << (quint64(500) << 20) << quint64(65536) << (quint64(16) << 20) << none << false << int(InvalidArgument) << "at most 12M (12582912 bytes) fits";
        QTest::newRow("count past end") << "nvme0n1p1" << none << (quint64(1) << 20) << none << quint64(513) << false << int(InvalidArgument) << "--count 513";
        QTest::newRow("offset past end") << "nvme0n1p1" << (quint64(512) << 20) << quint64(65536) << none << none << false << int(InvalidArgument) << "offset 512M (536870912 bytes) is past the end";
        QTest::newRow("direct unaligned bs") << "nvme0n1" << none << quint64(1000) << none << none << true << int(InvalidArgument) << "--bs 1000 is not a multiple of nvme0n1's logical block size (512 bytes)";
        QTest::newRow("direct unaligned offset") << "nvme0n1" << quint64(100) << quint64(4096) << none << none << true << int(InvalidArgument) << "offset 100 is not a multiple";
        QTest::newRow("direct unaligned size") << "nvme0n1" << none << quint64(4096) << quint64(4097) << none << true << int(InvalidArgument) << "length 4097";
        QTest::newRow("buffered unaligned ok") << "nvme0n1" << quint64(100) << quint64(1000) << quint64(4097) << none << false << 0 << QString();
    }
    void refusals()
    {
        QFETCH(QString, device);
        QFETCH(quint64, offset);
        QFETCH(quint64, bs);
        QFETCH(quint64, size);
        QFETCH(quint64, count);
        QFETCH(bool, direct);
        QFETCH(int, code);
        QFETCH(QString, complaint);
        ReadTestSpec spec = seqSpec(device, offset);
        spec.blockSize = bs;
        if (size)
            spec.sizeBytes = size;
        if (count)
            spec.count = count;
        spec.direct = direct;
        const auto t = ReadTest::prepare(SysRoot(recordedTree("nvme-parts")), spec);
        if (code == 0) {
            QVERIFY2(t.ok(), t.ok() ? "" : qPrintable(t.error().message));
            return;
        }
        QVERIFY(!t.ok());
        QCOMPARE(t.error().code, code);
        QVERIFY2(t.error().message.contains(complaint), qPrintable(t.error().message));
    }

    void optionConflicts_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("complaint");
        QTest::newRow("size and count") << 0 << "at most one of --size, --count and --time";
        QTest::newRow("zero repeat") << 1 << "--repeat 0";
        QTest::newRow("zero threads") << 2 << "--threads 0";
        QTest::newRow("zero count") << 3 << "--count must be at least 1";
        QTest::newRow("two devices for seq") << 4 << "reads one device";
        QTest::newRow("background outside concurrent") << 5 << "--background streams belong to test concurrent";
        QTest::newRow("concurrent without measure") << 6 << "needs at least one --measure";
        QTest::newRow("zero time") << 7 << "--time must be more than 0";
        QTest::newRow("zero size") << 8 << "--size must be more than 0";
        QTest::newRow("count overflow") << 9 << "more than any device holds";
    }
    void optionConflicts()
    {
        QFETCH(int, which);
        QFETCH(QString, complaint);
        ReadTestSpec spec = seqSpec(QStringLiteral("nvme0n1"));
        switch (which) {
        case 0: spec.sizeBytes = 1 << 20; spec.count = 4; break;
        case 1: spec.repeat = 0; break;
        case 2: spec.kind = ReadTestKind::Server; spec.threads = 0; break;
        case 3: spec.count = 0; break;
        case 4: spec.measure << StreamTarget{QStringLiteral("nvme0n1p1"), 0}; break;
        case 5: spec.background << StreamTarget{QStringLiteral("nvme0n1p1"), 0}; break;
        case 6: spec.kind = ReadTestKind::Concurrent; spec.measure.clear(); spec.background << StreamTarget{QStringLiteral("nvme0n1"), 0}; break;
        case 7: spec.durationMs = 0; break;
        case 8: spec.sizeBytes = 0; break;
        case 9: spec.count = UINT64_MAX / 1000; break;
        }
        const auto t = ReadTest::prepare(SysRoot(recordedTree("nvme-parts")), spec);
        QVERIFY(!t.ok());
        QCOMPARE(t.error().code, int(InvalidArgument));
        QVERIFY2(t.error().message.contains(complaint), qPrintable(t.error().message));
    }

    void concurrentAndMixedPlans()
    {
        const SysRoot root(recordedTree("nvme-parts"));
        ReadTestSpec c;
        c.kind = ReadTestKind::Concurrent;
        c.measure = {StreamTarget{QStringLiteral("nvme0n1p1"), 0}, StreamTarget{QStringLiteral("nvme0n1p1"), 0}};
        c.background = {StreamTarget{QStringLiteral("nvme0n1p3"), 1 << 20}};
        c.sizeBytes = 8 << 20;
        auto ct = ReadTest::prepare(root, c);
        QVERIFY2(ct.ok(), ct.ok() ? "" : qPrintable(ct.error().message));
        QCOMPARE(ct->streams().size(), 3);
        // Same device twice: distinct names, one device entry.
        QCOMPARE(ct->streams().at(0).name, QStringLiteral("nvme0n1p1"));
        QCOMPARE(ct->streams().at(1).name, QStringLiteral("nvme0n1p1#2"));
        QCOMPARE(ct->testDevices().size(), 2);
        // A background stream loops over the rest of its device, like a
        // `while true; do dd if=DEV; done` reading the whole device.
        const PlannedStream &bg = ct->streams().at(2);
        QCOMPARE(bg.role, StreamRole::Background);
        QCOMPARE(bg.name, QStringLiteral("nvme0n1p3@1M"));
        QCOMPARE(bg.length, 1948278784ULL * 512 - (1 << 20));

        ReadTestSpec m;
        m.kind = ReadTestKind::Mixed;
        m.measure = {StreamTarget{QStringLiteral("nvme0n1"), 0}};
        m.seqStreams = 4;
        m.randomReaders = 2;
        auto mt = ReadTest::prepare(root, m);
        QVERIFY(mt.ok());
        QCOMPARE(mt->streams().size(), 6);
        // Sequential streams a quarter of the device apart, each 256 MiB.
        const quint64 quarter = (kNvmeBytes / 4) - (kNvmeBytes / 4) % 512;
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(mt->streams().at(i).start, quint64(i) * quarter);
            QCOMPARE(mt->streams().at(i).length, quint64(256) << 20);
            QCOMPARE(mt->streams().at(i).role, StreamRole::Measure);
        }
        QCOMPARE(mt->streams().at(4).pattern, AccessPattern::Random);
        QCOMPARE(mt->streams().at(5).role, StreamRole::Background);
        QCOMPARE(mt->streams().at(5).blockSize, quint64(4096));

        // Too much for each of K streams is refused, naming the share.
        m.sizeBytes = kNvmeBytes / 2;
        auto tooMuch = ReadTest::prepare(root, m);
        QVERIFY(!tooMuch.ok());
        QVERIFY2(tooMuch.error().message.contains(QStringLiteral("each of the 4 sequential streams")),
                 qPrintable(tooMuch.error().message));

        ReadTestSpec s;
        s.kind = ReadTestKind::Server;
        s.measure = {StreamTarget{QStringLiteral("nvme0n1"), 0}};
        s.threads = 8;
        s.sharedFd = true;
        auto st = ReadTest::prepare(root, s);
        QVERIFY(st.ok());
        QCOMPARE(st->streams().size(), 1);
        QCOMPARE(st->streams().constFirst().threads, 8);
        QVERIFY(st->streams().constFirst().sharedFd);
    }

    // A recorded tree describes another machine's disks: its dev/ holds no
    // recording of their data, only (at best) a link that opens this
    // machine's device of that name. Here dev/nvme0n1 is such a stand-in,
    // a readable file: a run must refuse, naming the tree, and open nothing
    // (no run, so no "cannot open" either).
    void runOnRecordedTreeIsRefused()
    {
        QTemporaryDir dir;
        QVERIFY(copyTree(recordedTree("nvme-parts"), dir.path()));
        QDir().mkpath(dir.filePath(QStringLiteral("dev")));
        QFile node(dir.filePath(QStringLiteral("dev/nvme0n1")));
        QVERIFY(node.open(QIODevice::WriteOnly));
        node.write(QByteArray(1 << 20, 'x'));
        node.close();

        ReadTestSpec spec = seqSpec(QStringLiteral("nvme0n1"));
        spec.repeat = 3;
        auto t = ReadTest::prepare(SysRoot(dir.path()), spec);
        QVERIFY(t.ok());
        const Status live = t->checkLiveMachine();
        QVERIFY(!live);
        QCOMPARE(live.error().code, int(Refused));
        const ReadTestResult r = t->run();
        QVERIFY(r.failed);
        QVERIFY(r.runs.isEmpty());
        QCOMPARE(r.errors.size(), 1);
        const QString &message = r.errors.constFirst();
        QVERIFY2(message.startsWith(dir.path() + QStringLiteral(" is a recorded tree (--sysroot): its nvme0n1 ")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("nothing is read")), qPrintable(message));
        const QJsonObject json = readTestToJson(r);
        QCOMPARE(json.value(u"schema").toInt(), kReadTestSchema);
        QCOMPARE(json.value(u"failed").toBool(), true);
        QCOMPARE(json.value(u"errors").toArray().size(), 1);
    }

    // The sweep on a recorded tree changes nothing: the tree's
    // read_ahead_kb keeps its value and no journal is written.
    void sweepOnRecordedTreeChangesNothing()
    {
        QTemporaryDir dir, journals;
        QVERIFY(copyTree(recordedTree("nvme-parts"), dir.path()));
        qputenv("BLOCKTUNE_JOURNAL_DIR", journals.path().toLocal8Bit());
        const SysRoot root(dir.path());
        const QString ra = QString::fromLocal8Bit(root.sysPath("block/nvme0n1/queue/read_ahead_kb"));
        const QByteArray before = readFile(ra);
        QVERIFY(!before.isEmpty());
        TuningSession session(root);
        const auto model = session.model();
        QVERIFY(model.ok());
        SweepSpec sweep;
        sweep.device = QStringLiteral("nvme0n1");
        sweep.readAheadKiB = {4096, 8192};
        sweep.test = seqSpec(QStringLiteral("nvme0n1"));
        auto prepared = ReadaheadSweep::prepare(root, **model, sweep);
        QVERIFY2(prepared.ok(), prepared.ok() ? "" : qPrintable(prepared.error().message));
        const SweepResult r = prepared->run(session);
        qunsetenv("BLOCKTUNE_JOURNAL_DIR");
        QVERIFY(r.failed);
        QVERIFY(r.points.isEmpty());
        QVERIFY2(r.errors.value(0).contains(QStringLiteral("is a recorded tree (--sysroot)")), qPrintable(r.errors.value(0)));
        QCOMPARE(readFile(ra), before);
        QVERIFY(r.journalPath.isEmpty());
        QVERIFY(QDir(journals.path()).entryList({QStringLiteral("blocktune-*.json")}, QDir::Files).isEmpty());
    }

    // blocktune-cli test/sweep --sysroot: refused before anything is said
    // about the test, exit 2, the reason on stderr.
    void cliRefusesMeasuringARecordedTree_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("test seq") << QStringList{QStringLiteral("test"), QStringLiteral("seq"), QStringLiteral("nvme0n1")};
        QTest::newRow("test server") << QStringList{QStringLiteral("test"), QStringLiteral("server"),
                                                    QStringLiteral("nvme0n1p1"), QStringLiteral("--threads"),
                                                    QStringLiteral("2")};
        QTest::newRow("sweep") << QStringList{QStringLiteral("sweep"), QStringLiteral("nvme0n1"), QStringLiteral("--ra"),
                                              QStringLiteral("128,4096")};
    }
    void cliRefusesMeasuringARecordedTree()
    {
        QFETCH(QStringList, args);
        QTemporaryDir journals;
        qputenv("BLOCKTUNE_JOURNAL_DIR", journals.path().toLocal8Bit());
        const QString tree = recordedTree("nvme-parts");
        const ProcessResult r = run(binary("blocktune-cli"), QStringList{QStringLiteral("--sysroot"), tree} + args);
        qunsetenv("BLOCKTUNE_JOURNAL_DIR");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        const QString err = QString::fromLocal8Bit(r.err);
        QVERIFY2(err.contains(tree + QStringLiteral(" is a recorded tree (--sysroot)")) && err.contains(u"nothing is read"),
                 qPrintable(err));
        QVERIFY(QDir(journals.path()).entryList({QStringLiteral("blocktune-*.json")}, QDir::Files).isEmpty());
    }

    void sweepRefusesBeforeChanging()
    {
        const SysRoot root(recordedTree("nvme-parts"));
        TuningSession session(root);
        const auto model = session.model();
        QVERIFY(model.ok());
        const DeviceModel &devices = **model;
        SweepSpec sweep;
        sweep.device = QStringLiteral("nvme0n1p1");
        sweep.readAheadKiB = {128, 4096};
        sweep.test = seqSpec(QStringLiteral("nvme0n1p1"));
        sweep.test.repeat = 1;
        auto ok = ReadaheadSweep::prepare(root, devices, sweep);
        QVERIFY2(ok.ok(), ok.ok() ? "" : qPrintable(ok.error().message));
        // The partition's readahead is its disk's.
        QCOMPARE(ok->queueDevice(), QStringLiteral("nvme0n1"));

        SweepSpec other = sweep;
        other.device = QStringLiteral("dm-0");
        auto unrelated = ReadaheadSweep::prepare(root, devices, other);
        QVERIFY(!unrelated.ok());
        QVERIFY2(unrelated.error().message.contains(QStringLiteral("does not read dm-0")),
                 qPrintable(unrelated.error().message));

        SweepSpec empty = sweep;
        empty.readAheadKiB.clear();
        QVERIFY(!ReadaheadSweep::prepare(root, devices, empty).ok());

        SweepSpec missing = sweep;
        missing.device = QStringLiteral("sdz");
        auto m = ReadaheadSweep::prepare(root, devices, missing);
        QVERIFY(!m.ok());
        QCOMPARE(m.error().code, int(NotFound));
    }
};

QTEST_GUILESS_MAIN(TestReadTestPlan)
#include "tst_readtest_plan.moc"
