// The findings from the live workload (core/advisor/live.cpp) on made-up
// readahead counters: each stated just past its condition, not stated just
// short of it, and not stated with one event too few; the read_ahead_kb each
// names; the JSON readahead --json adds; diagnoseLive() on a recorded tree
// with a fake source (a disk's partitions counted for it, nothing read).
#include "advisor/advisor.h"
#include "readahead/readahead.h"
#include "session/session.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>

#include <atomic>

using namespace blocktune;
using namespace blocktune::test;

Q_DECLARE_METATYPE(blocktune::DeviceReadaheadCounters)

namespace {

/// Windows of `pages` pages each, `n` of them, into `c` (sizes and counts).
void addWindows(ReadaheadKindCounters &c, quint64 n, quint32 pages, bool miss, quint64 atCap = 0)
{
    c.windows += n;
    if (miss)
        c.missWindows += n;
    c.atCap += atCap;
    c.sizes[pages] += n;
}

/// `pages` used pages that waited about `us` microseconds (log2 bucket).
void addWait(ReadaheadKindCounters &c, quint64 pages, double us)
{
    int bucket = 0;
    while (bucket < 31 && log2BucketUpperUs(bucket) <= us)
        ++bucket;
    c.wait.counts[size_t(bucket)] += pages;
}

DeviceReadahead device(const DeviceReadaheadCounters &c, std::optional<quint64> readAheadKiB)
{
    DeviceReadahead d;
    d.name = QStringLiteral("loop7");
    d.blockDevice = true;
    d.queueDevice = d.name;
    d.readAheadKiB = readAheadKiB;
    for (const ReadaheadKind kind : kAllReadaheadKinds)
        d.kinds[size_t(kind)] = readaheadFigures(c.of(kind));
    d.all = readaheadFigures(c);
    return d;
}

QStringList codes(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.code;
    return out;
}

const Finding *findingOf(const QList<Finding> &findings, const QString &code)
{
    for (const Finding &f : findings)
        if (f.code == code)
            return &f;
    return nullptr;
}

// dd of a stream at read_ahead_kb 1024 (256 pages): `async` windows, `atCap`
// of them at the cap, `used` of `pages` pages used, waiting about `waitUs`.
DeviceReadaheadCounters stream(quint64 async, quint64 atCap, quint64 pages, quint64 used, double waitUs)
{
    DeviceReadaheadCounters c;
    addWindows(c.of(ReadaheadKind::Sync), 1, 64, true);
    ReadaheadKindCounters &a = c.of(ReadaheadKind::Async);
    addWindows(a, atCap, 256, false, atCap);
    addWindows(a, async - atCap, 128, false);
    a.pagesReadAhead = pages;
    a.pagesUsed = used;
    a.pagesWasted = pages - used;
    addWait(a, used, waitUs);
    return c;
}

// Short bursts: `syncWindows` sync windows, `asyncWindows` async ones,
// `pages` read ahead of which `used` used and `wasted` evicted unused (the
// rest still cached).
DeviceReadaheadCounters bursts(quint64 syncWindows, quint64 asyncWindows, quint64 pages, quint64 used, quint64 wasted)
{
    DeviceReadaheadCounters c;
    addWindows(c.of(ReadaheadKind::Sync), syncWindows, 4, true);
    ReadaheadKindCounters &a = c.of(ReadaheadKind::Async);
    addWindows(a, asyncWindows, 64, false);
    a.pagesReadAhead = pages;
    a.pagesUsed = used;
    a.pagesWasted = wasted;
    addWait(a, used, 200);
    return c;
}

// Interleaved readers: `restarts` of `syncWindows` sync windows.
DeviceReadaheadCounters interleaved(quint64 syncWindows, quint64 restarts)
{
    DeviceReadaheadCounters c;
    ReadaheadKindCounters &s = c.of(ReadaheadKind::Sync);
    addWindows(s, syncWindows, 32, true);
    s.interleavedRestarts = restarts;
    s.pagesReadAhead = syncWindows * 32;
    s.pagesUsed = s.pagesReadAhead;
    addWindows(c.of(ReadaheadKind::Async), syncWindows, 32, false);
    return c;
}

// Random reads: `syncWindows` sync windows of `pages` pages, `async` async ones.
DeviceReadaheadCounters randomReads(quint64 syncWindows, quint32 pages, quint64 async)
{
    DeviceReadaheadCounters c;
    ReadaheadKindCounters &s = c.of(ReadaheadKind::Sync);
    addWindows(s, syncWindows, pages, true);
    s.pagesReadAhead = syncWindows * pages;
    s.pagesUsed = syncWindows;
    s.pagesWasted = 0;
    if (async)
        addWindows(c.of(ReadaheadKind::Async), async, 8, false);
    return c;
}

/// A readahead source of made-up snapshots, one after the other (the last repeated).
class FakeSource final : public ReadaheadSource
{
public:
    explicit FakeSource(QList<ReadaheadSnapshot> snapshots) : m_snapshots(std::move(snapshots)) {}
    Result<ReadaheadSnapshot> snapshot() override
    {
        const ReadaheadSnapshot s = m_snapshots.at(std::min<qsizetype>(m_taken, m_snapshots.size() - 1));
        ++m_taken;
        return s;
    }
    ReadaheadCoverage coverage() const override { return {}; }
    int taken() const { return int(m_taken); }

private:
    QList<ReadaheadSnapshot> m_snapshots;
    qsizetype m_taken = 0;
};

} // namespace

class TestReadaheadFindings : public QObject
{
    Q_OBJECT

private slots:
    void findingsAtTheirThresholds_data()
    {
        QTest::addColumn<DeviceReadaheadCounters>("counters");
        QTest::addColumn<quint64>("readAheadKiB");
        QTest::addColumn<QStringList>("stated");
        QTest::addColumn<QStringList>("notStated");

        const QStringList capped{u"readahead_capped"_qs};
        // 80% of 100 async windows at the cap, 95% of 16384 pages used, waited ~1 ms.
        QTest::newRow("capped: at the thresholds") << stream(100, 80, 16384, 15565, 1000) << quint64(1024) << capped
                                                   << QStringList{};
        QTest::newRow("capped: 79% at the cap") << stream(100, 79, 16384, 16384, 1000) << quint64(1024) << QStringList{}
                                                << capped;
        QTest::newRow("capped: 94.9% used") << stream(100, 100, 16384, 15564, 1000) << quint64(1024) << QStringList{}
                                            << capped;
        // 20 ms of wait: the pages were there long before the reader came.
        QTest::newRow("capped: waited 16-32 ms") << stream(100, 100, 16384, 16384, 20000) << quint64(1024)
                                                 << QStringList{} << capped;
        QTest::newRow("capped: 49 async windows") << stream(49, 49, 16384, 16384, 1000) << quint64(1024)
                                                  << QStringList{} << capped;
        QTest::newRow("capped: 1023 pages") << stream(100, 100, 1023, 1023, 1000) << quint64(1024) << QStringList{}
                                            << capped;

        const QStringList wasted{u"readahead_wasted"_qs};
        // 500 bursts at 2048 KiB as measured here: 24,008 pages for 8,000 used.
        QTest::newRow("wasted: bursts at 2048 KiB") << bursts(1000, 1000, 24008, 8000, 16008) << quint64(2048) << wasted
                                                    << QStringList{u"random_reads"_qs, u"readahead_capped"_qs};
        QTest::newRow("wasted: 50% evicted") << bursts(1000, 1000, 20000, 10000, 10000) << quint64(2048) << wasted
                                             << QStringList{};
        QTest::newRow("wasted: 49.9% evicted") << bursts(1000, 1000, 20000, 10020, 9980) << quint64(2048)
                                               << QStringList{} << wasted;
        // ... at 64 KiB: 11,631 for 8,000.
        QTest::newRow("wasted: bursts at 64 KiB") << bursts(1000, 1000, 11631, 8000, 3631) << quint64(64)
                                                  << QStringList{} << wasted;
        // Unused but still cached: they may be read yet.
        QTest::newRow("wasted: unused, still cached") << bursts(1000, 1000, 24008, 8000, 0) << quint64(2048)
                                                      << QStringList{} << wasted;
        QTest::newRow("wasted: 1023 pages") << bursts(25, 25, 1023, 100, 923) << quint64(2048) << QStringList{}
                                            << wasted;
        QTest::newRow("wasted: 49 windows") << bursts(25, 24, 4000, 100, 3900) << quint64(2048) << QStringList{}
                                            << wasted;
        QTest::newRow("wasted: 50 windows") << bursts(25, 25, 4000, 100, 3900) << quint64(2048) << wasted
                                            << QStringList{};

        const QStringList inter{u"streams_interleaved"_qs};
        QTest::newRow("interleaved: 20 of 80") << interleaved(80, 20) << quint64(128) << inter << QStringList{};
        QTest::newRow("interleaved: 19 of 40") << interleaved(40, 19) << quint64(128) << QStringList{} << inter;
        QTest::newRow("interleaved: 24.9%") << interleaved(1000, 249) << quint64(128) << QStringList{} << inter;
        QTest::newRow("interleaved: 25%") << interleaved(1000, 250) << quint64(128) << inter << QStringList{};

        const QStringList random{u"random_reads"_qs};
        // 2,000 random 4 KiB reads at 2048 KiB as measured here: one-page sync windows, no async.
        QTest::newRow("random: 2000 reads") << randomReads(2000, 1, 0) << quint64(2048) << random
                                            << QStringList{u"readahead_wasted"_qs, u"readahead_capped"_qs};
        QTest::newRow("random: 100 windows") << randomReads(100, 1, 0) << quint64(2048) << random << QStringList{};
        QTest::newRow("random: 99 windows") << randomReads(99, 1, 0) << quint64(2048) << QStringList{} << random;
        QTest::newRow("random: 1% async") << randomReads(2000, 1, 20) << quint64(2048) << random << QStringList{};
        QTest::newRow("random: 1.05% async") << randomReads(2000, 1, 21) << quint64(2048) << QStringList{} << random;
        QTest::newRow("random: windows of 16 KiB") << randomReads(2000, 4, 0) << quint64(2048) << random
                                                   << QStringList{};
        QTest::newRow("random: windows of 20 KiB") << randomReads(2000, 5, 0) << quint64(2048) << QStringList{}
                                                   << random;
    }

    void findingsAtTheirThresholds()
    {
        QFETCH(DeviceReadaheadCounters, counters);
        QFETCH(quint64, readAheadKiB);
        QFETCH(QStringList, stated);
        QFETCH(QStringList, notStated);
        const QList<Finding> found = readaheadFindings(device(counters, readAheadKiB));
        const QStringList got = codes(found);
        for (const QString &code : stated)
            QVERIFY2(got.contains(code), qPrintable(code + u" not stated; got: "_qs + got.join(u", ")));
        for (const QString &code : notStated)
            QVERIFY2(!got.contains(code), qPrintable(code + u" stated"_qs));
        for (const Finding &f : found) {
            QCOMPARE(f.device, u"loop7"_qs);
            QVERIFY(!f.summary.isEmpty());
            QVERIFY(!f.evidence.isEmpty());
        }
    }

    // The value each names: capped doubles; wasted names what a stream used
    // (used pages per sync window, a power of two, at most half).
    void findingsNameTheReadaheadToSet()
    {
        const QList<Finding> capped = readaheadFindings(device(stream(100, 100, 16384, 16384, 1000), 1024));
        const Finding *c = findingOf(capped, u"readahead_capped"_qs);
        QVERIFY(c);
        QCOMPARE(c->fix[u"read_ahead_kb"_qs].toInteger(), 2048);
        QCOMPARE(c->evidence[u"at_cap_pct"_qs].toDouble(), 100.0);
        // At the largest value it would name: stated, nothing to raise to.
        const Finding *top = findingOf(readaheadFindings(device(stream(100, 100, 16384, 16384, 1000), kCappedMaxKiB)),
                                       u"readahead_capped"_qs);
        QVERIFY(top);
        QVERIFY(top->fix.isEmpty());

        // 8,000 pages used by 1,000 sync windows: 32 KiB a stream.
        const Finding *w = findingOf(readaheadFindings(device(bursts(1000, 1000, 24008, 8000, 16008), 2048)),
                                     u"readahead_wasted"_qs);
        QVERIFY(w);
        QCOMPARE(w->fix[u"read_ahead_kb"_qs].toInteger(), 32);
        QCOMPARE(w->evidence[u"pages_wasted"_qs].toInteger(), 16008);
        QCOMPARE(w->evidence[u"wasted_pct"_qs].toDouble(), 66.7);
        QCOMPARE(w->evidence[u"used_kib_per_stream"_qs].toInteger(), 32);
        // Streams longer than half the readahead: half of it.
        const Finding *half = findingOf(readaheadFindings(device(bursts(100, 100, 20000, 9000, 11000), 256)),
                                        u"readahead_wasted"_qs);
        QVERIFY(half);
        QCOMPARE(half->fix[u"read_ahead_kb"_qs].toInteger(), 128);
        // Already at 16 KiB: nothing smaller to name.
        const Finding *small = findingOf(readaheadFindings(device(bursts(1000, 1000, 4000, 1000, 3000), 16)),
                                         u"readahead_wasted"_qs);
        QVERIFY(small);
        QVERIFY(small->fix.isEmpty());

        for (const Finding &f : readaheadFindings(device(randomReads(2000, 1, 0), 2048)))
            QVERIFY2(f.fix.isEmpty(), qPrintable(f.code));
    }

    // Without a block device (read_ahead_kb unknown) capped and wasted name
    // nothing and are not stated; interleaving and random reads still are.
    void noReadaheadKnownNoValueNamed()
    {
        QVERIFY(codes(readaheadFindings(device(bursts(1000, 1000, 24008, 8000, 16008), std::nullopt))).isEmpty());
        QCOMPARE(codes(readaheadFindings(device(randomReads(2000, 1, 0), std::nullopt))),
                 QStringList{u"random_reads"_qs});
    }

    void findingsToJsonCarryTheDevice()
    {
        ReadaheadReport report;
        report.devices << device(randomReads(2000, 1, 0), 2048) << device(interleaved(80, 40), 128);
        report.devices[1].name = u"sdb"_qs;
        const QList<Finding> found = readaheadFindings(report);
        QCOMPARE(codes(found), (QStringList{u"random_reads"_qs, u"streams_interleaved"_qs}));
        const QJsonArray a = readaheadFindingsToJson(found);
        QCOMPARE(a.size(), 2);
        QCOMPARE(a[0][u"device"_qs].toString(), u"loop7"_qs);
        QCOMPARE(a[0][u"severity"_qs].toString(), u"note"_qs);
        QCOMPARE(a[1][u"device"_qs].toString(), u"sdb"_qs);
        QCOMPARE(a[1][u"code"_qs].toString(), u"streams_interleaved"_qs);
        QCOMPARE(a[1][u"evidence"_qs][u"interleaved_restarts"_qs].toInteger(), 40);
        QVERIFY(a[1][u"fix"_qs].toObject().isEmpty());
        const QString text = formatReadaheadFindings(found);
        QVERIFY2(text.contains(u"[note] random_reads"_qs), qPrintable(text));
        QVERIFY2(formatReadaheadFindings({}).contains(u"none"_qs), "no findings said");
    }

    // nvme-parts: reads of a filesystem on nvme0n1p2 count for nvme0n1, whose
    // read_ahead_kb (128) governs them; nvme0n1p3 saw none. The source is
    // read twice, nothing else.
    void diagnoseLiveCountsPartitionsForTheirDisk()
    {
        TuningSession session{SysRoot(recordedTree("nvme-parts"))};
        ReadaheadSnapshot start, end;
        start.takenMs = 1000;
        end.takenMs = 3000;
        end.devices.insert(deviceNumber(259, 2), randomReads(2000, 1, 0));
        FakeSource source({start, end});
        auto d = diagnoseLive(session, source, u"nvme0n1"_qs, 0);
        QVERIFY2(d, d ? "" : qPrintable(d.error().message));
        QCOMPARE(source.taken(), 2);
        QVERIFY(d->live);
        QCOMPARE(d->live->durationS, 2.0);
        const DeviceReadahead *disk = d->live->find(u"nvme0n1"_qs);
        QVERIFY(disk);
        QCOMPARE(disk->readAheadKiB, std::optional<quint64>(128));
        QCOMPARE(disk->of(ReadaheadKind::Sync).windows, quint64(2000));
        QVERIFY(codes(d->findings).contains(u"random_reads"_qs));
        QVERIFY(!d->measured);
        const QJsonObject json = diagnosisToJson(*d);
        QCOMPARE(json[u"live"_qs][u"devices"_qs][u"nvme0n1"_qs][u"windows"_qs][u"sync"_qs].toInteger(), 2000);
        QVERIFY(formatDiagnosis(*d).contains(u"live workload over 2.0 s"_qs));

        FakeSource again({start, end});
        auto other = diagnoseLive(session, again, u"nvme0n1p3"_qs, 0);
        QVERIFY(other);
        QVERIFY(!codes(other->findings).contains(u"random_reads"_qs));
        QCOMPARE(other->live->find(u"nvme0n1p3"_qs)->all.windows, quint64(0));

        FakeSource none({start, end});
        QVERIFY(!diagnoseLive(session, none, u"nosuchdisk9"_qs, 0));
    }

    // Cancelled (Ctrl-C) it reports what it saw so far, at once.
    void diagnoseLiveStopsWhenCancelled()
    {
        TuningSession session{SysRoot(recordedTree("nvme-parts"))};
        FakeSource source({ReadaheadSnapshot{}});
        std::atomic_bool cancel{true};
        QElapsedTimer t;
        t.start();
        auto d = diagnoseLive(session, source, u"nvme0n1"_qs, 60000, &cancel);
        QVERIFY(d);
        QVERIFY(t.elapsed() < 5000);
    }

    // Bad input is refused before anything loads, naming the problem.
    void diagnoseLiveRefusesBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        const QString dev = u"nvme0n1"_qs;
        const QStringList tree{u"--sysroot"_qs, recordedTree("nvme-parts")};
        QTest::newRow("not a time") << QStringList{u"diagnose"_qs, dev, u"--live"_qs, u"soon"_qs} << u"--live"_qs;
        QTest::newRow("too short") << QStringList{u"diagnose"_qs, dev, u"--live"_qs, u"500ms"_qs}
                                   << u"--live 500ms: must be between 1s and 24h"_qs;
        QTest::newRow("too long") << QStringList{u"diagnose"_qs, dev, u"--live"_qs, u"25h"_qs}
                                  << u"must be between 1s and 24h"_qs;
        QTest::newRow("with --bs") << QStringList{u"diagnose"_qs, dev, u"--live"_qs, u"2s"_qs, u"--bs"_qs, u"4K"_qs}
                                   << u"--live reads nothing, and --bs"_qs;
        QTest::newRow("with --workload")
            << QStringList{u"diagnose"_qs, dev, u"--live"_qs, u"2s"_qs, u"--workload"_qs, u"server:4"_qs}
            << u"--live reads nothing, and --workload"_qs;
        QTest::newRow("with --static") << QStringList{u"diagnose"_qs, dev, u"--live"_qs, u"2s"_qs, u"--static"_qs}
                                       << u"--live reads nothing, and --static"_qs;
        QTest::newRow("a recorded tree") << tree + QStringList{u"diagnose"_qs, dev, u"--live"_qs, u"2s"_qs}
                                         << u"diagnose --live watches the kernel's readahead, and a recorded tree"_qs;
    }

    void diagnoseLiveRefusesBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const ProcessResult r = run(binary("blocktune-cli"), args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestReadaheadFindings)
#include "tst_readahead_findings.moc"
