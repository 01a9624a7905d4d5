// Read tests on the test's own loop devices (root): loop devices with
// --direct-io=on read their file with O_DIRECT, so they behave like a disk
// (readahead changes request sizes and throughput). Every device here is
// created by this test over a file of known, non-zero contents, its queue
// settings are put back before it is detached, and the files are hashed at
// the start and at the end: the tests only ever read.
#include "readtest/readtest.h"
#include "session/session.h"
#include "stats/diskstats.h"
#include "tuning/tuning.h"
#include "testloop.h"
#include "testsupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTest>

#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <random>
#include <thread>

#include <sys/utsname.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

quint64 readsCompleted(const QString &dev)
{
    auto table = readDiskStats(SysRoot());
    return table ? table->value(dev)[DiskCounters::ReadsCompleted] : 0;
}

QJsonObject runJson(const QStringList &args, int expectExit = 0, ProcessResult *raw = nullptr)
{
    const ProcessResult r = run(binary("blocktune-cli"), args, 120000);
    if (raw)
        *raw = r;
    if (r.exitCode != expectExit) {
        qWarning("blocktune-cli %s exited %d (expected %d): %s", qPrintable(args.join(u' ')), r.exitCode,
                 expectExit, r.err.constData());
        return {};
    }
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", r.out.left(400).constData());
    return doc.object();
}

QString kernelRelease()
{
    struct utsname u {};
    ::uname(&u);
    return QString::fromLatin1(u.release);
}

} // namespace

class TestReadTestLive : public QObject
{
    Q_OBJECT

private:
    QByteArray m_fill = knownContents();
    std::unique_ptr<TestLoop> m_a; // 96 MiB, the main device
    std::unique_ptr<TestLoop> m_b; // 32 MiB, a second device for concurrent tests
    QTemporaryDir m_journals;

private Q_SLOTS:
    void initTestCase()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        // Journals of this test's sweeps go to a directory of its own, so a
        // `restore` here never touches another session's journal.
        QVERIFY(m_journals.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
        m_a = std::make_unique<TestLoop>(96 << 20, m_fill);
        m_b = std::make_unique<TestLoop>(32 << 20, m_fill);
        QVERIFY2(m_a->isValid() && m_b->isValid(), "cannot attach and set up loop devices");
        // Let udev's probe of the new devices finish before counting reads.
        run(QStringLiteral("udevadm"), {QStringLiteral("settle"), QStringLiteral("--timeout=10")});
    }

    void cleanupTestCase()
    {
        m_b.reset();
        m_a.reset();
    }

    // Reopening after each change and dropping the cache are what make a
    // sweep honest: 4 KiB reads must follow readahead in both throughput
    // and the device's request size.
    void readaheadDecidesThroughputAndRequestSize()
    {
        const QString dev = m_a->name();
        const QJsonObject sweep = runJson({QStringLiteral("sweep"), dev, QStringLiteral("--ra"), QStringLiteral("4,1024"),
                                           QStringLiteral("--bs"), QStringLiteral("4K"), QStringLiteral("--size"),
                                           QStringLiteral("32M"), QStringLiteral("--json")});
        QCOMPARE(sweep.value(u"schema").toInt(), 1);
        const QJsonArray points = sweep.value(u"points").toArray();
        QCOMPARE(points.size(), 2);
        const QJsonObject small = points.at(0).toObject(), large = points.at(1).toObject();
        QCOMPARE(small.value(u"read_ahead_kb").toInt(), 4);
        QCOMPARE(large.value(u"read_ahead_kb").toInt(), 1024);
        const double slow = small.value(u"mb_per_s").toDouble(), fast = large.value(u"mb_per_s").toDouble();
        QVERIFY2(slow > 0 && fast >= 3 * slow, qPrintable(QStringLiteral("%1 vs %2 MB/s").arg(slow).arg(fast)));
        const double smallReq = small.value(u"avg_request_kb").toDouble();
        const double largeReq = large.value(u"avg_request_kb").toDouble();
        QVERIFY2(smallReq > 0 && smallReq <= 8, qPrintable(QString::number(smallReq)));
        QVERIFY2(largeReq >= 128 && largeReq >= 16 * smallReq, qPrintable(QString::number(largeReq)));
        QCOMPARE(sweep.value(u"restored").toBool(), true);
        QCOMPARE(sweep.value(u"original_read_ahead_kb").toInt(), 128);
        QCOMPARE(readAhead(dev), quint64(128));
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }

    // What the CLI measured is kept: `history --json` lists it with the
    // device, the settings in force and the mean; --device and --limit filter.
    void cliHistoryListsFinishedTests()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QByteArray db = (dir.path() + QStringLiteral("/history.sqlite")).toLocal8Bit();
        const QByteArray saved = qgetenv("BLOCKTUNE_HISTORY_DB");
        qputenv("BLOCKTUNE_HISTORY_DB", db);
        const QString dev = m_a->name();
        const QJsonObject test = runJson({QStringLiteral("test"), QStringLiteral("seq"), dev, QStringLiteral("--bs"),
                                          QStringLiteral("64K"), QStringLiteral("--size"), QStringLiteral("8M"),
                                          QStringLiteral("--repeat"), QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY(!test.isEmpty());
        const QJsonObject list = runJson({QStringLiteral("history"), QStringLiteral("--json")});
        const QJsonObject none = runJson({QStringLiteral("history"), QStringLiteral("--json"), QStringLiteral("--device"),
                                          QStringLiteral("sdzz")});
        ProcessResult bad;
        runJson({QStringLiteral("history"), QStringLiteral("--limit"), QStringLiteral("0")}, 2, &bad);
        qputenv("BLOCKTUNE_HISTORY_DB", saved);
        QCOMPARE(list.value(u"schema").toInt(), 2);
        const QJsonArray records = list.value(u"records").toArray();
        QCOMPARE(records.size(), 1);
        const QJsonObject r = records.at(0).toObject();
        QCOMPARE(r.value(u"device").toString(), dev);
        QCOMPARE(r.value(u"source").toString(), QStringLiteral("cli"));
        QCOMPARE(r.value(u"test").toString(), QStringLiteral("seq"));
        QCOMPARE(r.value(u"ok").toBool(), true);
        QCOMPARE(r.value(u"mb_per_s").toDouble(), test.value(u"mean_mb_per_s").toDouble());
        const QJsonObject device = r.value(u"devices").toArray().at(0).toObject();
        QCOMPARE(device.value(u"device").toString(), dev);
        QCOMPARE(device.value(u"read_ahead_kb").toInt(), 128);
        QCOMPARE(r.value(u"summary").toObject().value(u"mean_mb_per_s").toDouble(), test.value(u"mean_mb_per_s").toDouble());
        QCOMPARE(r.value(u"streams").toArray().at(0).toObject().value(u"device").toString(), dev);
        QCOMPARE(r.value(u"spec").toObject().value(u"repeat").toInt(), 2);
        QVERIFY(!r.value(u"kernel").toString().isEmpty());
        QCOMPARE(none.value(u"records").toArray().size(), 0);
        QVERIFY2(bad.err.contains("--limit '0'"), bad.err.constData());
    }

    void seqReportsRunsLikeDd()
    {
        const QString dev = m_a->name();
        const QJsonObject r = runJson({QStringLiteral("test"), QStringLiteral("seq"), m_a->path(), QStringLiteral("--bs"),
                                       QStringLiteral("64K"), QStringLiteral("--count"), QStringLiteral("256"),
                                       QStringLiteral("--json")});
        QCOMPARE(r.value(u"schema").toInt(), 1);
        QCOMPARE(r.value(u"test").toString(), QStringLiteral("seq"));
        QCOMPARE(r.value(u"device").toString(), dev);
        const QJsonArray runs = r.value(u"runs").toArray();
        QCOMPARE(runs.size(), 3); // the default repeat
        QStringList labels;
        double minRate = 1e18, maxRate = 0;
        for (const QJsonValue &v : runs) {
            const QJsonObject run = v.toObject();
            labels << run.value(u"label").toString();
            QCOMPARE(run.value(u"bytes").toDouble(), double(16 << 20));
            QVERIFY(run.value(u"complete").toBool());
            QVERIFY(run.value(u"seconds").toDouble() > 0);
            const double rate = run.value(u"mb_per_s").toDouble();
            // MB/s is 10^6 bytes per second, as dd prints.
            QVERIFY(qAbs(rate - double(16 << 20) / run.value(u"seconds").toDouble() / 1e6) < 0.01 * rate);
            minRate = qMin(minRate, rate);
            maxRate = qMax(maxRate, rate);
            // Each run starts cold: the device itself delivered every byte.
            const QJsonObject stats = run.value(u"device_stats").toObject();
            QVERIFY2(stats.value(u"device_bytes").toDouble() >= double(16 << 20),
                     qPrintable(QString::number(stats.value(u"device_bytes").toDouble())));
            QCOMPARE(run.value(u"settings").toObject().value(u"read_ahead_kb").toInt(), 128);
        }
        QCOMPARE(labels, (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
        QCOMPARE(r.value(u"min_mb_per_s").toDouble(), minRate);
        QCOMPARE(r.value(u"max_mb_per_s").toDouble(), maxRate);
        const double mean = r.value(u"mean_mb_per_s").toDouble();
        QVERIFY(mean >= minRate && mean <= maxRate);
        const QJsonObject stats = r.value(u"device_stats").toObject();
        QVERIFY(stats.value(u"requests").toDouble() > 0);
        // Readahead 128 KiB: requests of about that size.
        QVERIFY2(stats.value(u"avg_request_kb").toDouble() > 64, qPrintable(QString::number(stats.value(u"avg_request_kb").toDouble())));
        const QJsonObject settings = r.value(u"settings").toObject();
        QCOMPARE(settings.value(u"scheduler").toString(), QStringLiteral("none"));
        QCOMPARE(settings.value(u"kernel").toString(), kernelRelease());
        QVERIFY(settings.value(u"max_sectors_kb").toInt() > 0);
        QVERIFY(settings.value(u"nr_requests").toInt() > 0);

        // The human form: dd's lines, labelled as in the reference thread
        // (--runs: the console's word, the same option as --repeat).
        const ProcessResult human = run(binary("blocktune-cli"), {QStringLiteral("test"), QStringLiteral("seq"), dev,
                                                                   QStringLiteral("--size"), QStringLiteral("8M"),
                                                                   QStringLiteral("--runs"), QStringLiteral("2")});
        QCOMPARE(human.exitCode, 0);
        const QString text = QString::fromUtf8(human.out);
        static const QRegularExpression line(QStringLiteral(
            "\\t([ab])\\) 8388608 bytes \\(8\\.4 MB, 8\\.0 MiB\\) copied, [0-9.]+ s, [0-9.]+ MB/s; latency p50 [0-9.]+ "
            "(us|ms|s), p99 [0-9.]+ (us|ms|s), p99\\.9 [0-9.]+ (us|ms|s)\\n"));
        QCOMPARE(text.count(line), 2);
        QVERIFY2(text.contains(QStringLiteral("read_ahead_kb 128")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("mean ")));
    }

    // fio as the referee: the same direct 64 KiB reads of the same loop
    // device, five rounds; the medians of p50 and p99 (blocktune's
    // latency_us against fio's clat_ns) within 15%. In each round both run
    // at the same time, each over its own half of the device (the halves
    // change places every round): this VM's latency changes from second to
    // second (its free page reporting), and rounds taken in turn put 42%
    // between the two tools' p50 on a CI run. Both run at real-time
    // priority (SCHED_FIFO): the referee compares how the tools measure,
    // not the scheduler's luck. On two cores a reader woken behind a
    // compiler waits out its slice, even a nice-19 one (CI builds the next
    // pass beside the suite): that put 3-4 ms into either tool's p99 at
    // random and failed a CI run (p99 22% apart). At real-time priority,
    // compared round by round, five runs beside a nice-19 build had p99
    // 4-11% apart and p50 0-3%.
    void latencyAgreesWithFio()
    {
        const QString fio = QStandardPaths::findExecutable(QStringLiteral("fio"));
        const QString chrt = QStandardPaths::findExecutable(QStringLiteral("chrt"));
        if (fio.isEmpty() || chrt.isEmpty())
            QFAIL("fio or chrt is missing (apt-get install fio util-linux; scripts/bootstrap.sh)");
        const quint64 half = quint64(48) << 20; // m_a holds 96 MiB
        QList<double> ours50, ours99, fio50, fio99;
        for (int round = 0; round < 5; ++round) {
            const quint64 oursAt = round % 2 ? half : 0, fioAt = round % 2 ? 0 : half;
            QProcess ours, referee;
            // --time reads from --offset to the device's end, round again.
            ours.start(chrt, {QStringLiteral("--fifo"), QStringLiteral("10"), binary("blocktune-cli"),
                              QStringLiteral("test"), QStringLiteral("seq"), m_a->name(), QStringLiteral("--direct"),
                              QStringLiteral("--bs"), QStringLiteral("64K"), QStringLiteral("--offset"),
                              QString::number(oursAt), QStringLiteral("--time"), QStringLiteral("2s"),
                              QStringLiteral("--repeat"), QStringLiteral("1"), QStringLiteral("--json")});
            referee.start(chrt, {QStringLiteral("--fifo"), QStringLiteral("10"), fio, QStringLiteral("--name=referee"),
                                 u"--filename="_qs + m_a->path(), QStringLiteral("--ioengine=psync"),
                                 QStringLiteral("--direct=1"), QStringLiteral("--bs=64k"), QStringLiteral("--rw=read"),
                                 QStringLiteral("--offset=%1").arg(fioAt), QStringLiteral("--size=%1").arg(half),
                                 QStringLiteral("--runtime=2"), QStringLiteral("--time_based"),
                                 QStringLiteral("--output-format=json")});
            QVERIFY(ours.waitForFinished(60000) && referee.waitForFinished(60000));
            QVERIFY2(ours.exitCode() == 0, ours.readAllStandardError().constData());
            QVERIFY2(referee.exitCode() == 0, referee.readAllStandardError().constData());
            const QJsonObject r = QJsonDocument::fromJson(ours.readAllStandardOutput()).object();
            const QJsonObject lat = r[u"runs"][0][u"streams"][0][u"latency_us"].toObject();
            // Enough reads for a p99 to mean something (the rounds are time
            // based: a device too slow for 500 reads a second fails here, and
            // says so, rather than in the comparison).
            QVERIFY2(lat.value(u"count").toDouble() > 1000,
                     qPrintable(QStringLiteral("precondition: over 1000 reads in 2 s for a p99; round %1 made %2")
                                    .arg(round).arg(lat.value(u"count").toDouble())));
            ours50 << lat[u"percentiles"][u"50.000000"].toDouble();
            ours99 << lat[u"percentiles"][u"99.000000"].toDouble();
            const QJsonObject clat =
                QJsonDocument::fromJson(referee.readAllStandardOutput())[u"jobs"][0][u"read"][u"clat_ns"].toObject();
            fio50 << clat[u"percentile"][u"50.000000"].toDouble() / 1000.0;
            fio99 << clat[u"percentile"][u"99.000000"].toDouble() / 1000.0;
        }
        auto median = [](QList<double> v) {
            std::sort(v.begin(), v.end());
            return v.at(v.size() / 2);
        };
        // The rounds are pairs: the median of each round's ratio. The
        // rounds themselves differ (p99 from 0.9 to 1.8 ms beside a build),
        // so the two tools' medians taken apart may come from different
        // rounds.
        auto ratiosOf = [&](const QList<double> &a, const QList<double> &b) {
            QList<double> ratios;
            for (qsizetype i = 0; i < a.size(); ++i)
                ratios << (b.at(i) > 0 ? a.at(i) / b.at(i) : 0.0);
            return ratios;
        };
        // The allowed gap: 15%, or twice how far the rounds' own ratios
        // stray from their median (a busy machine makes the two readers'
        // rounds differ; a systematic error keeps every round's ratio off
        // by the same amount and still fails).
        auto allowed = [&](const QList<double> &ratios, double middle) {
            QList<double> deviations;
            for (double r : ratios)
                deviations << std::abs(r - middle);
            return std::max(0.15, 2 * median(deviations));
        };
        const QList<double> ratios50 = ratiosOf(ours50, fio50), ratios99 = ratiosOf(ours99, fio99);
        const double ratio50 = median(ratios50), ratio99 = median(ratios99);
        const double allowed50 = allowed(ratios50, ratio50), allowed99 = allowed(ratios99, ratio99);
        const QString figures = QStringLiteral("p50 ours %1 fio %2 us (paired ratio %3, allowed +-%7); p99 ours %4 "
                                               "fio %5 us (%6, allowed +-%8)")
                                    .arg(median(ours50)).arg(median(fio50)).arg(ratio50, 0, 'f', 3)
                                    .arg(median(ours99)).arg(median(fio99)).arg(ratio99, 0, 'f', 3)
                                    .arg(allowed50, 0, 'f', 3).arg(allowed99, 0, 'f', 3);
        qInfo("%s", qPrintable(figures));
        QVERIFY2(std::abs(ratio50 - 1.0) <= allowed50, qPrintable(figures));
        QVERIFY2(std::abs(ratio99 - 1.0) <= allowed99, qPrintable(figures));
    }

    void concurrentReportsEveryStream()
    {
        const QString a = m_a->name(), b = m_b->name();
        const QJsonObject r = runJson({QStringLiteral("test"), QStringLiteral("concurrent"), QStringLiteral("--measure"), a,
                                       QStringLiteral("--measure"), a + QStringLiteral("@48M"), QStringLiteral("--background"),
                                       m_b->path(), QStringLiteral("--size"), QStringLiteral("16M"), QStringLiteral("--repeat"),
                                       QStringLiteral("2"), QStringLiteral("--json")});
        QCOMPARE(r.value(u"test").toString(), QStringLiteral("concurrent"));
        const QJsonArray runs = r.value(u"runs").toArray();
        QCOMPARE(runs.size(), 2);
        for (const QJsonValue &v : runs) {
            const QJsonArray streams = v.toObject().value(u"streams").toArray();
            QCOMPARE(streams.size(), 3);
            QCOMPARE(streams.at(0).toObject().value(u"name").toString(), a);
            QCOMPARE(streams.at(1).toObject().value(u"name").toString(), a + QStringLiteral("@48M"));
            QCOMPARE(streams.at(1).toObject().value(u"offset").toDouble(), double(48 << 20));
            QCOMPARE(streams.at(2).toObject().value(u"device").toString(), b);
            QCOMPARE(streams.at(2).toObject().value(u"role").toString(), QStringLiteral("background"));
            for (int i = 0; i < 2; ++i) {
                QCOMPARE(streams.at(i).toObject().value(u"role").toString(), QStringLiteral("measure"));
                QCOMPARE(streams.at(i).toObject().value(u"bytes").toDouble(), double(16 << 20));
            }
            QVERIFY(streams.at(2).toObject().value(u"bytes").toDouble() > 0);
            for (const QJsonValue &s : streams)
                QVERIFY(s.toObject().value(u"mb_per_s").toDouble() > 0);
            const double fairness = v.toObject().value(u"fairness_jain").toDouble();
            QVERIFY2(fairness > 1.0 / 3 - 1e-9 && fairness <= 1.0, qPrintable(QString::number(fairness)));
        }
        QCOMPARE(r.value(u"streams").toArray().size(), 3);
        QVERIFY(r.value(u"aggregate_mb_per_s").toDouble() > 0);
        QVERIFY(r.value(u"device_stats_by_device").toObject().contains(b));
    }

    void serverReportsEveryThread_data()
    {
        QTest::addColumn<bool>("sharedFd");
        QTest::newRow("own descriptors") << false;
        QTest::newRow("shared descriptor") << true;
    }
    void serverReportsEveryThread()
    {
        QFETCH(bool, sharedFd);
        QStringList args{QStringLiteral("test"), QStringLiteral("server"), m_a->name(), QStringLiteral("--threads"),
                         QStringLiteral("4"), QStringLiteral("--size"), QStringLiteral("32M"), QStringLiteral("--repeat"),
                         QStringLiteral("1"), QStringLiteral("--json")};
        if (sharedFd)
            args << QStringLiteral("--shared-fd");
        const QJsonObject r = runJson(args);
        QCOMPARE(r.value(u"threads").toInt(), 4);
        QCOMPARE(r.value(u"shared_fd").toBool(), sharedFd);
        const QJsonObject stream = r.value(u"runs").toArray().at(0).toObject().value(u"streams").toArray().at(0).toObject();
        QCOMPARE(stream.value(u"bytes").toDouble(), double(32 << 20));
        const QJsonArray threads = stream.value(u"threads").toArray();
        QCOMPARE(threads.size(), 4);
        double bytes = 0, reads = 0;
        for (const QJsonValue &t : threads) {
            QVERIFY(t.toObject().value(u"bytes").toDouble() > 0);
            bytes += t.toObject().value(u"bytes").toDouble();
            reads += t.toObject().value(u"reads").toDouble();
        }
        // Consecutive 64 KiB blocks taken in turn: every block read once.
        QCOMPARE(bytes, double(32 << 20));
        QCOMPARE(reads, double(512));
    }

    void mixedReportsLatency()
    {
        const QJsonObject r = runJson({QStringLiteral("test"), QStringLiteral("mixed"), m_a->name(), QStringLiteral("--seq"),
                                       QStringLiteral("2"), QStringLiteral("--random"), QStringLiteral("2"),
                                       QStringLiteral("--size"), QStringLiteral("16M"), QStringLiteral("--repeat"),
                                       QStringLiteral("1"), QStringLiteral("--json")});
        const QJsonArray streams = r.value(u"runs").toArray().at(0).toObject().value(u"streams").toArray();
        QCOMPARE(streams.size(), 4);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject s = streams.at(i).toObject();
            QCOMPARE(s.value(u"pattern").toString(), QStringLiteral("sequential"));
            QCOMPARE(s.value(u"bytes").toDouble(), double(16 << 20));
        }
        // The second stream starts half way into the device.
        QCOMPARE(streams.at(1).toObject().value(u"offset").toDouble(), double(48 << 20));
        for (int i = 2; i < 4; ++i) {
            const QJsonObject s = streams.at(i).toObject();
            QCOMPARE(s.value(u"pattern").toString(), QStringLiteral("random"));
            QVERIFY(s.value(u"reads").toDouble() > 0);
            const QJsonObject lat = s.value(u"latency_ms").toObject();
            QVERIFY(lat.value(u"p50").toDouble() > 0);
            QVERIFY(lat.value(u"p99").toDouble() >= lat.value(u"p50").toDouble());
            QVERIFY(lat.value(u"max").toDouble() >= lat.value(u"p99").toDouble());
        }
        QVERIFY(r.value(u"mean_mb_per_s").toDouble() > 0);
    }

    // A disk that fails part way through a test: its backing file is cut
    // to 24 MiB of the 48 the loop device still says it has (a loop keeps
    // its size until told: LOOP_SET_CAPACITY), so the stream on it reads
    // 24 MiB, then fails: it ends with a message naming the device, the
    // offset and the errno; the other stream finishes and is reported. Cut
    // before the run starts, so it is the same test on any device: cut
    // during the run, a device that reads 24 MiB within the first progress
    // report (100 ms) would have finished before the cut.
    void ioErrorEndsOnlyTheFailingStream()
    {
        TestLoop failing(48 << 20, m_fill);
        QVERIFY(failing.isValid());
        // Page by page: no readahead window reaches past the cut.
        QVERIFY(setQueueAttr(failing.name(), "read_ahead_kb", QStringLiteral("4")));
        ReadTestSpec spec;
        spec.kind = ReadTestKind::Concurrent;
        spec.measure = {StreamTarget{failing.name(), 0}, StreamTarget{m_b->name(), 0}};
        spec.blockSize = 4096;
        spec.sizeBytes = 32 << 20;
        spec.repeat = 3;
        auto test = ReadTest::prepare(SysRoot(), spec);
        QVERIFY2(test.ok(), test.ok() ? "" : qPrintable(test.error().message));
        QVERIFY(QFile::resize(failing.backingFile(), 24 << 20));
        const ReadTestResult r = test->run(ReadTestObserver{});
        QVERIFY(r.failed);
        QCOMPARE(r.runs.size(), 1); // no repeats after an I/O error
        const RunResult &run = r.runs.constFirst();
        QCOMPARE(run.streams.size(), 2);
        const StreamResult &bad = run.streams.at(0);
        QVERIFY2(bad.error.contains(failing.path()), qPrintable(bad.error));
        QVERIFY2(bad.error.contains(QStringLiteral("offset 25165824")), qPrintable(bad.error));
        QVERIFY2(bad.error.contains(QStringLiteral("Input/output error (errno 5)")), qPrintable(bad.error));
        QCOMPARE(bad.bytes, quint64(24) << 20);
        const StreamResult &good = run.streams.at(1);
        QVERIFY(good.error.isEmpty());
        QCOMPARE(good.bytes, quint64(32) << 20);
        QVERIFY(good.mbPerSec > 0);
        QCOMPARE(r.errors.size(), 1);
        QVERIFY(readTestToJson(r).value(u"errors").toArray().at(0).toString().contains(failing.path()));
    }

    // The same through the CLI inside a sweep: exit 1, the error printed,
    // and the readahead restored.
    void sweepRestoresAfterAnIoError()
    {
        TestLoop failing(32 << 20, m_fill);
        QVERIFY(failing.isValid());
        QVERIFY(QFile::resize(failing.backingFile(), 8 << 20));
        ProcessResult raw;
        const QJsonObject r = runJson({QStringLiteral("sweep"), failing.name(), QStringLiteral("--ra"),
                                       QStringLiteral("64,256"), QStringLiteral("--size"), QStringLiteral("16M"),
                                       QStringLiteral("--json")}, 1, &raw);
        QCOMPARE(r.value(u"failed").toBool(), true);
        QCOMPARE(r.value(u"restored").toBool(), true);
        QCOMPARE(r.value(u"points").toArray().size(), 1); // stopped at the first error
        QVERIFY2(raw.err.contains(failing.path().toLatin1()) && raw.err.contains("errno 5"), raw.err.constData());
        QCOMPARE(readAhead(failing.name()), quint64(128));
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }

    void cancellationStopsWithin200ms_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<quint64>("bs");
        QTest::addColumn<bool>("direct");
        QTest::newRow("seq 4K") << int(ReadTestKind::Sequential) << quint64(4096) << false;
        QTest::newRow("seq 1M reads, 4K readahead") << int(ReadTestKind::Sequential) << quint64(1 << 20) << false;
        QTest::newRow("seq 4K direct") << int(ReadTestKind::Sequential) << quint64(4096) << true;
        QTest::newRow("server 8 threads") << int(ReadTestKind::Server) << quint64(4096) << false;
        QTest::newRow("concurrent 8M blocks, with background") << int(ReadTestKind::Concurrent) << quint64(8 << 20) << false;
        QTest::newRow("mixed") << int(ReadTestKind::Mixed) << quint64(4096) << false;
    }
    void cancellationStopsWithin200ms()
    {
        QFETCH(int, kind);
        QFETCH(quint64, bs);
        QFETCH(bool, direct);
        // Readahead 4 KiB makes the main device slow enough to be busy for
        // seconds; a concurrent run adds a fast background loop.
        QVERIFY(setQueueAttr(m_a->name(), "read_ahead_kb", QStringLiteral("4")));
        const auto restore = qScopeGuard([&] { setQueueAttr(m_a->name(), "read_ahead_kb", QStringLiteral("128")); });
        ReadTestSpec spec;
        spec.kind = ReadTestKind(kind);
        spec.measure = {StreamTarget{m_a->name(), 0}};
        spec.blockSize = bs;
        spec.direct = direct;
        spec.threads = 8;
        spec.randomReaders = 4;
        spec.durationMs = 20000; // busy for far longer than the test waits
        if (spec.kind == ReadTestKind::Concurrent)
            spec.background = {StreamTarget{m_b->name(), 0}};
        spec.repeat = 3;
        auto test = ReadTest::prepare(SysRoot(), spec);
        QVERIFY2(test.ok(), test.ok() ? "" : qPrintable(test.error().message));

        std::atomic_bool cancel{false};
        std::atomic_bool running{false};
        ReadTestObserver observer;
        observer.progress = [&](int, const QString &, const QList<IntervalSample> &, const QStringList &) { running = true; };
        ReadTestResult result;
        std::chrono::steady_clock::time_point returned;
        std::thread worker([&] {
            result = test->run(observer, &cancel);
            returned = std::chrono::steady_clock::now();
        });
        QElapsedTimer waited;
        waited.start();
        while (!running && waited.elapsed() < 5000)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        const auto cancelledAt = std::chrono::steady_clock::now();
        cancel = true;
        worker.join();
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(returned - cancelledAt).count();
        QVERIFY(running);
        qInfo("stopped %lld ms after the cancel", qint64(ms));
        QVERIFY2(ms < 200, qPrintable(QStringLiteral("stopped %1 ms after the cancel").arg(ms)));
        QVERIFY(result.cancelled);
        QCOMPARE(result.runs.size(), 1);
        QVERIFY(result.runs.constFirst().cancelled);
        QVERIFY(result.runs.constFirst().measuredBytes > 0);
        QVERIFY(result.runs.constFirst().seconds < 5);
    }

    // The sweep through the tuning layer, cancelled from another thread
    // while a point runs: the original value comes back and the journal goes.
    void sweepRestoresWhenCancelled()
    {
        const QString dev = m_a->name();
        SweepSpec spec;
        spec.device = m_a->path();
        spec.readAheadKiB = {8, 16, 32};
        spec.test.measure = {StreamTarget{dev, 0}};
        spec.test.blockSize = 4096;
        spec.test.durationMs = 10000;
        spec.test.repeat = 1;
        TuningSession tuner{SysRoot()};
        const auto model = tuner.model();
        QVERIFY(model.ok());
        auto sweep = ReadaheadSweep::prepare(SysRoot(), **model, spec);
        QVERIFY2(sweep.ok(), sweep.ok() ? "" : qPrintable(sweep.error().message));
        std::atomic_bool cancel{false};
        std::atomic<quint64> seenDuringRun{0};
        SweepObserver observer;
        observer.test.progress = [&](int, const QString &, const QList<IntervalSample> &, const QStringList &) {
            if (!seenDuringRun)
                seenDuringRun = readAhead(dev);
            cancel = true;
        };
        const SweepResult r = sweep->run(tuner, observer, &cancel);
        QCOMPARE(seenDuringRun.load(), quint64(8));
        QVERIFY(r.cancelled);
        QCOMPARE(r.points.size(), 1);
        QVERIFY(r.restored);
        QCOMPARE(r.originalKiB, std::optional<quint64>(128));
        QCOMPARE(readAhead(dev), quint64(128));
        QVERIFY(!r.journalPath.isEmpty());
        QVERIFY(!QFile::exists(r.journalPath));
    }

    // SIGTERM to the CLI mid-sweep: partial results, a non-zero exit, and
    // the original readahead back.
    void sweepRestoresOnSigterm()
    {
        const QString dev = m_a->name();
        QProcess p;
        p.start(binary("blocktune-cli"), {QStringLiteral("sweep"), dev, QStringLiteral("--ra"), QStringLiteral("8,16,32"),
                                          QStringLiteral("--bs"), QStringLiteral("4K"), QStringLiteral("--time"),
                                          QStringLiteral("5s")});
        QVERIFY(p.waitForStarted());
        QElapsedTimer t;
        t.start();
        while (readAhead(dev) != 8 && t.elapsed() < 10000)
            QTest::qWait(10);
        QCOMPARE(readAhead(dev), quint64(8));
        QTest::qWait(300);
        p.terminate(); // SIGTERM
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + SIGTERM);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(out.contains(QStringLiteral("(interrupted)")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("restored read_ahead_kb 128")), qPrintable(out));
        QVERIFY2(err.contains(QStringLiteral("interrupted by SIGTERM")), qPrintable(err));
        QCOMPARE(readAhead(dev), quint64(128));
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }

    // SIGINT or SIGTERM during every kind of test and a sweep: the CLI stops
    // within 2 s, says so, exits 128+N (never dies of the signal), and the
    // readahead is what it was.
    void signalStopsEveryKind_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("signal");
        const QString a = m_a ? m_a->name() : QString();
        const QString b = m_b ? m_b->name() : QString();
        const QStringList slow{u"--bs"_qs, u"4K"_qs, u"--time"_qs, u"30s"_qs};
        const QList<std::pair<const char *, QStringList>> kinds{
            {"seq", QStringList{u"test"_qs, u"seq"_qs, a} + slow},
            {"concurrent", QStringList{u"test"_qs, u"concurrent"_qs, u"--measure"_qs, a, u"--background"_qs, b} + slow},
            {"server", QStringList{u"test"_qs, u"server"_qs, a, u"--threads"_qs, u"4"_qs} + slow},
            {"mixed", QStringList{u"test"_qs, u"mixed"_qs, a, u"--seq"_qs, u"1"_qs, u"--random"_qs, u"1"_qs} + slow},
            {"sweep", QStringList{u"sweep"_qs, a, u"--ra"_qs, u"8,16"_qs} + slow},
        };
        for (const auto &[kind, args] : kinds) {
            QTest::addRow("%s SIGINT", kind) << args << int(SIGINT);
            QTest::addRow("%s SIGTERM", kind) << args << int(SIGTERM);
        }
    }
    void signalStopsEveryKind()
    {
        QFETCH(QStringList, args);
        QFETCH(int, signal);
        const QString dev = m_a->name();
        const quint64 readsBefore = readsCompleted(dev);
        QProcess p;
        p.start(binary("blocktune-cli"), args);
        QVERIFY(p.waitForStarted());
        // Running: the device is being read.
        QVERIFY(QTest::qWaitFor([&] { return readsCompleted(dev) > readsBefore + 100; }, 30000));
        QElapsedTimer t;
        t.start();
        QVERIFY2(signalProcess(p, signal), "it had ended before the signal");
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + signal);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(signal == SIGINT ? u"interrupted by SIGINT"_qs : u"interrupted by SIGTERM"_qs), qPrintable(err));
        QCOMPARE(readAhead(dev), quint64(128));
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }

    // kill -9 leaves the swept value in place and the journal behind;
    // `blocktune-cli restore` brings the original back.
    void killedSweepIsRestoredFromTheJournal()
    {
        const QString dev = m_a->name();
        QProcess p;
        p.start(binary("blocktune-cli"), {QStringLiteral("sweep"), dev, QStringLiteral("--ra"), QStringLiteral("12,20"),
                                          QStringLiteral("--bs"), QStringLiteral("4K"), QStringLiteral("--time"),
                                          QStringLiteral("5s")});
        QVERIFY(p.waitForStarted());
        QElapsedTimer t;
        t.start();
        while (readAhead(dev) != 12 && t.elapsed() < 10000)
            QTest::qWait(10);
        QCOMPARE(readAhead(dev), quint64(12));
        p.kill(); // SIGKILL
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(readAhead(dev), quint64(12));
        QCOMPARE(QDir(m_journals.path()).entryList(QDir::Files).size(), 1);
        const ProcessResult restore = run(binary("blocktune-cli"), {QStringLiteral("restore")});
        QVERIFY2(restore.exitCode == 0, restore.err.constData());
        QCOMPARE(readAhead(dev), quint64(128));
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }

    void cliRefusalsChangeNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("complaint");
        // %A = the main device's name, %P = its /dev path.
        auto row = [](const char *name, const char *args, const char *complaint) {
            QTest::newRow(name) << QString::fromLatin1(args).split(u' ') << QString::fromLatin1(complaint);
        };
        row("size past the end", "test seq %A --size 1G", "goes past the end of %A");
        row("offset past the end", "test seq %P --offset 96M", "is past the end of %A");
        row("count past the end", "test seq %A --bs 1M --count 97", "--count 97");
        row("zero block size", "test seq %A --bs 0", "--bs must be at least 1 byte");
        row("unaligned direct bs", "test seq %A --direct --bs 1000", "--bs 1000 is not a multiple of %A's logical block size");
        row("unaligned direct offset", "test seq %A --direct --offset 100", "offset 100 is not a multiple");
        row("unknown device", "test seq nosuchdisk", "no block device named 'nosuchdisk'");
        row("bad size", "test seq %A --size 12Q", "'12Q' is not a size");
        row("bad duration", "test seq %A --time soon", "'soon' is not a duration");
        row("size and count", "test seq %A --size 1M --count 3", "at most one of --size, --count and --time");
        row("zero repeat", "test seq %A --repeat 0", "--repeat '0' is not a whole number from 1 to 1000");
        // --runs is --repeat by another name, checked the same way
        row("zero runs", "test seq %A --runs 0", "--repeat '0' is not a whole number from 1 to 1000");
        row("misspelt option", "test seq %A --repaet 2", "test seq has no option --repaet; did you mean --repeat?");
        row("sweep option with a value", "test seq %A --ra 128", "--ra belongs to blocktune-cli sweep");
        row("option of another test", "test seq %A --threads 4", "--threads belongs to test server");
        row("unknown test", "test sequential %A", "unknown test 'sequential'");
        row("no device", "test seq", "test seq needs a DEVICE");
        row("two devices", "test seq %A %A", "takes one DEVICE");
        row("zero threads", "test server %A --threads 0", "--threads '0'");
        row("zero seq streams", "test mixed %A --seq 0", "--seq '0'");
        row("concurrent without measure", "test concurrent", "needs at least one --measure");
        row("concurrent past the end", "test concurrent --measure %A@100M", "is past the end of %A");
        row("concurrent bad offset", "test concurrent --measure %A@x", "is not a size");
        row("sweep without values", "sweep %A", "sweep needs --ra");
        row("sweep bad value", "sweep %A --ra 128,abc", "'abc' is not a readahead size");
        row("sweep above the limit", "sweep %A --ra 4294967296", "above the kernel's limit");
        row("sweep duplicate", "sweep %A --ra 64,64", "listed twice");
        row("sweep unknown test", "sweep %A --ra 128 --test bogus", "--test 'bogus' is not a test");
        row("sweep past the end", "sweep %P --ra 8,16 --size 1G", "goes past the end of %A");
        row("sweep unaligned direct", "sweep %A --ra 8 --direct --bs 100", "not a multiple");
        row("sweep unknown device", "sweep nosuchdisk --ra 8", "no block device named 'nosuchdisk'");
    }
    void cliRefusalsChangeNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, complaint);
        const QString dev = m_a->name();
        for (QString &a : args)
            a.replace(QStringLiteral("%A"), dev).replace(QStringLiteral("%P"), m_a->path());
        complaint.replace(QStringLiteral("%A"), dev);
        const quint64 raBefore = readAhead(dev);
        const quint64 readsBefore = readsCompleted(dev);
        const ProcessResult r = run(binary("blocktune-cli"), args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(complaint), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QCOMPARE(readAhead(dev), raBefore);
        QCOMPARE(readsCompleted(dev), readsBefore); // not one read issued
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }

    // Last: the tests only ever read.
    void contentsUnchanged()
    {
        QVERIFY(!m_a->initialHash().isEmpty());
        QCOMPARE(fileHash(m_a->backingFile()), m_a->initialHash());
        QCOMPARE(fileHash(m_b->backingFile()), m_b->initialHash());
    }
};

QTEST_GUILESS_MAIN(TestReadTestLive)
#include "tst_readtest_live.moc"
