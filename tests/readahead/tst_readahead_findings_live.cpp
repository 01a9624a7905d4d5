// The findings from the live workload (core/advisor) on the live kernel, on
// a buffered loop device of the test's own over a 256 MiB file, with the
// readahead probe counting while the test reads it:
// - 2,000 random 4 KiB reads at readahead 2048 KiB: no async windows,
//   random_reads, no readahead_wasted;
// - 500 bursts of 16 sequential 4 KiB reads at random offsets at 2048 KiB:
//   most pages read ahead wasted, readahead_wasted naming a smaller value;
//   the same bursts at 64 KiB waste at most two thirds of that share;
// - dd of the whole device at 128 KiB: readahead_capped naming 256 KiB;
// - `blocktune-cli test server --threads 4` (a descriptor each) against
//   `--shared-fd`: more interleaved restarts and streams_interleaved, the
//   shared descriptor none.
// A page read ahead counts as wasted once it leaves the page cache unused:
// each case drops the loop's cached pages (POSIX_FADV_DONTNEED on the
// device, this test's own) before its last snapshot. (Closing the last
// descriptor of a block device empties its page cache too, kill_bdev() in
// bdev_release(): seen here, the bursts' pages were wasted without the
// drop; it stays for a device someone else holds open.) The loop's
// read_ahead_kb is put back and the loop detached on every path.
#include "advisor/advisor.h"
#include "devices/devicemodel.h"
#include "readahead/readahead.h"
#include "readaheadloop.h"
#include "testloop.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

#include <csignal>
#include <fcntl.h>
#include <random>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

constexpr qint64 kDeviceBytes = 256 << 20;
constexpr qint64 kPage = 4096;

// Reads `runs` runs of `length` sequential 4 KiB reads, each at a random
// page of the device (one descriptor, opened after read_ahead_kb was set:
// it keeps the value it was opened with). length 1: random reads.
bool readRuns(const QString &path, int runs, int length, unsigned seed)
{
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    std::mt19937 rng(seed);
    std::uniform_int_distribution<qint64> page(0, kDeviceBytes / kPage - length);
    char buf[kPage];
    bool ok = true;
    for (int r = 0; r < runs && ok; ++r) {
        const qint64 first = page(rng) * kPage;
        for (int i = 0; i < length && ok; ++i)
            ok = ::pread(fd, buf, kPage, first + i * kPage) == kPage;
    }
    ::close(fd);
    return ok;
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

QString describe(const DeviceReadahead &d, const QList<Finding> &findings)
{
    const ReadaheadFigures &a = d.all;
    return QStringLiteral("sync %1 async %2 size p50 %3 p90 %4 KiB; read ahead %5 used %6 wasted %7 cached %8; "
                          "interleaved %9 of %10 sync; findings: %11")
        .arg(d.of(ReadaheadKind::Sync).windows).arg(d.of(ReadaheadKind::Async).windows)
        .arg(a.sizeP50KiB.value_or(0)).arg(a.sizeP90KiB.value_or(0)).arg(a.pagesReadAhead).arg(a.pagesUsed)
        .arg(a.pagesWasted).arg(a.pagesUnusedCached).arg(a.interleavedRestarts).arg(a.missWindows)
        .arg(codes(findings).join(u", "));
}

double wastedShare(const DeviceReadahead &d)
{
    return d.all.pagesReadAhead ? double(d.all.pagesWasted) / double(d.all.pagesReadAhead) : 0;
}

} // namespace

class TestReadaheadFindingsLive : public QObject
{
    Q_OBJECT

    std::unique_ptr<ReadaheadProbe> m_probe;
    QString m_skip;

    // The loop, read_ahead_kb put back before it is detached (loop devices
    // keep it across attaches).
    struct Loop
    {
        LoopDevice device{kDeviceBytes, false, knownContents()};
        QString original;
        Loop()
        {
            if (device.isValid())
                original = queueAttr(device.name(), "read_ahead_kb");
        }
        ~Loop()
        {
            if (device.isAttached() && !original.isEmpty())
                setQueueAttr(device.name(), "read_ahead_kb", original);
        }
    };

    // What the probe counted for the loop while `workload` ran, the loop's
    // cache dropped at the end; its findings.
    template<typename Workload>
    std::optional<std::pair<DeviceReadahead, QList<Finding>>> observe(const Loop &loop, Workload workload)
    {
        if (!dropCache(loop.device.path()))
            return std::nullopt;
        auto start = m_probe->snapshot();
        const DiskCounters diskBefore = diskCountersOf(loop.device.name());
        if (!start || !workload())
            return std::nullopt;
        // For the log: what the device read (diskstats), beside what the probe saw.
        const quint64 sectors = diskCountersOf(loop.device.name())[DiskCounters::SectorsRead]
                                - diskBefore[DiskCounters::SectorsRead];
        qInfo("%s read %llu pages (diskstats)", qPrintable(loop.device.name()), sectors / 8);
        QThread::msleep(200); // readahead still in flight settles
        if (!dropCache(loop.device.path()))
            return std::nullopt;
        auto end = m_probe->snapshot();
        auto model = DeviceModel::scan(SysRoot());
        if (!end || !model)
            return std::nullopt;
        const ReadaheadReport report = buildReadaheadReport(*start, *end, *model, SysRoot(), {loop.device.name()});
        const DeviceReadahead *d = report.find(loop.device.name());
        if (!d)
            return std::nullopt;
        return std::pair{*d, readaheadFindings(*d)};
    }

private slots:
    void initTestCase()
    {
        if (::geteuid() != 0)
            return;
        if (!ReadaheadProbe::builtIn()) {
            m_skip = u"built without BPF support (BLOCKTUNE_BPF off)"_qs;
            return;
        }
        auto probe = ReadaheadProbe::load();
        if (!probe) {
            m_skip = probe.error().message;
            return;
        }
        m_probe = std::move(*probe);
    }

    void init()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (!m_probe) {
            if (rootRequired())
                QFAIL(qPrintable(u"the readahead probe did not load: "_qs + m_skip));
            QSKIP(qPrintable(m_skip));
        }
    }

    void randomReadsAreNamedAndNotWasted()
    {
        Loop loop;
        QVERIFY(loop.device.isValid());
        QVERIFY(setQueueAttr(loop.device.name(), "read_ahead_kb", u"2048"_qs));
        const auto seen = observe(loop, [&] { return readRuns(loop.device.path(), 2000, 1, 40); });
        QVERIFY(seen);
        const auto &[d, findings] = *seen;
        qInfo("random, 2048 KiB: %s", qPrintable(describe(d, findings)));
        QCOMPARE(d.of(ReadaheadKind::Async).windows, quint64(0));
        QVERIFY(d.of(ReadaheadKind::Sync).windows >= kRandomMinWindows);
        QVERIFY2(codes(findings).contains(u"random_reads"_qs), qPrintable(describe(d, findings)));
        QVERIFY2(!codes(findings).contains(u"readahead_wasted"_qs), qPrintable(describe(d, findings)));
    }

    // dd of the whole device at 128 KiB: every window at the cap, every page
    // used as soon as it arrived: readahead_capped names twice the value.
    void ddAtASmallReadaheadIsCapped()
    {
        Loop loop;
        QVERIFY(loop.device.isValid());
        QVERIFY(setQueueAttr(loop.device.name(), "read_ahead_kb", u"128"_qs));
        const auto seen = observe(loop, [&] {
            return run(u"dd"_qs, {u"if="_qs + loop.device.path(), u"of=/dev/null"_qs, u"bs=64K"_qs, u"status=none"_qs})
                       .exitCode == 0;
        });
        QVERIFY(seen);
        const auto &[d, findings] = *seen;
        qInfo("dd, 128 KiB: %s; wait p50 %.3f ms", qPrintable(describe(d, findings)), d.all.waitP50Ms.value_or(-1));
        const Finding *capped = findingOf(findings, u"readahead_capped"_qs);
        QVERIFY2(capped, qPrintable(describe(d, findings)));
        QCOMPARE(capped->fix[u"read_ahead_kb"_qs].toInteger(), 256);
        QVERIFY(!findingOf(findings, u"random_reads"_qs) && !findingOf(findings, u"readahead_wasted"_qs));
    }

    // A database's short range scans: readahead grows a window each burst
    // leaves mostly unread.
    void burstsWasteAndALowerReadaheadWastesLess()
    {
        Loop loop;
        QVERIFY(loop.device.isValid());
        const auto bursts = [&] { return readRuns(loop.device.path(), 500, 16, 41); };
        QVERIFY(setQueueAttr(loop.device.name(), "read_ahead_kb", u"2048"_qs));
        const auto large = observe(loop, bursts);
        QVERIFY(large);
        QVERIFY(setQueueAttr(loop.device.name(), "read_ahead_kb", u"64"_qs));
        const auto small = observe(loop, bursts);
        QVERIFY(small);
        const auto &[at2048, found2048] = *large;
        const auto &[at64, found64] = *small;
        qInfo("bursts, 2048 KiB: %s (wasted %.1f%%)", qPrintable(describe(at2048, found2048)), 100 * wastedShare(at2048));
        qInfo("bursts, 64 KiB: %s (wasted %.1f%%)", qPrintable(describe(at64, found64)), 100 * wastedShare(at64));
        // The bursts read 8,000 pages; measured here, 7,439 of them were
        // counted as used pages read ahead (the rest read otherwise).
        QVERIFY2(at2048.all.pagesUsed >= 7200, qPrintable(describe(at2048, found2048)));
        QVERIFY2(wastedShare(at2048) > 0.5, qPrintable(describe(at2048, found2048)));
        const Finding *w = findingOf(found2048, u"readahead_wasted"_qs);
        QVERIFY2(w, qPrintable(describe(at2048, found2048)));
        const qint64 named = w->fix[u"read_ahead_kb"_qs].toInteger();
        qInfo("readahead_wasted names read_ahead_kb %lld", named);
        QVERIFY2(named >= qint64(kWastedMinKiB) && named < 2048, qPrintable(QString::number(named)));
        QVERIFY2(wastedShare(at64) <= wastedShare(at2048) * 2 / 3,
                 qPrintable(QStringLiteral("%1 at 64 KiB against %2 at 2048 KiB").arg(wastedShare(at64)).arg(wastedShare(at2048))));
    }

    // The SCST story: four threads take turns on one stream, each through its
    // own descriptor; through one shared descriptor there is one readahead
    // state and nothing to restart.
    void serverThreadsInterleaveUnlessTheyShareADescriptor()
    {
        Loop loop;
        QVERIFY(loop.device.isValid());
        QVERIFY(setQueueAttr(loop.device.name(), "read_ahead_kb", u"128"_qs));
        const auto server = [&](bool shared) {
            QStringList args{u"test"_qs, u"server"_qs, loop.device.path(), u"--threads"_qs, u"4"_qs, u"--size"_qs,
                             u"64M"_qs};
            if (shared)
                args << u"--shared-fd"_qs;
            const ProcessResult r = run(binary("blocktune-cli"), args);
            if (r.exitCode != 0)
                qWarning("%s", r.err.constData());
            return r.exitCode == 0;
        };
        const auto separate = observe(loop, [&] { return server(false); });
        QVERIFY(separate);
        const auto shared = observe(loop, [&] { return server(true); });
        QVERIFY(shared);
        const auto &[own, ownFindings] = *separate;
        const auto &[one, oneFindings] = *shared;
        qInfo("server, own descriptors: %s", qPrintable(describe(own, ownFindings)));
        qInfo("server, shared descriptor: %s", qPrintable(describe(one, oneFindings)));
        QVERIFY2(own.all.interleavedRestarts > one.all.interleavedRestarts, qPrintable(describe(own, ownFindings)));
        QVERIFY2(codes(ownFindings).contains(u"streams_interleaved"_qs), qPrintable(describe(own, ownFindings)));
        QVERIFY2(!codes(oneFindings).contains(u"streams_interleaved"_qs), qPrintable(describe(one, oneFindings)));
    }

    // diagnose --live while the bursts run: the finding, its device and the
    // value it names in the JSON, beside the loop's report.
    void diagnoseLiveNamesTheWasteOfBursts()
    {
        Loop loop;
        QVERIFY(loop.device.isValid());
        QVERIFY(setQueueAttr(loop.device.name(), "read_ahead_kb", u"2048"_qs));
        QVERIFY(dropCache(loop.device.path()));
        QProcess cli;
        // Ctrl-C ends the watch once the bursts are read, however long
        // loading the probe and the reads took (a fixed time races them on
        // a busy machine); diagnose prints what it saw and exits 130.
        cli.start(binary("blocktune-cli"), {u"diagnose"_qs, loop.device.name(), u"--live"_qs, u"10m"_qs, u"--json"_qs});
        QVERIFY(cli.waitForStarted());
        auto stop = qScopeGuard([&cli] {
            cli.kill();
            cli.waitForFinished();
        });
        QByteArray said;
        (void)QTest::qWaitFor(
            [&] {
                cli.waitForReadyRead(100);
                said += cli.readAllStandardError();
                return said.contains("watching") || cli.state() != QProcess::Running;
            },
            180000);
        QVERIFY2(said.contains("watching"), said.constData());
        QVERIFY(readRuns(loop.device.path(), 500, 16, 41));
        QVERIFY2(signalProcess(cli, SIGINT), "it had ended before the signal");
        QVERIFY2(cli.waitForFinished(180000), "diagnose --live did not end in 3 minutes after Ctrl-C");
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 128 + SIGINT);
        const QByteArray out = cli.readAllStandardOutput();
        const QJsonObject o = QJsonDocument::fromJson(out).object();
        QCOMPARE(o[u"device"_qs].toString(), loop.device.name());
        QVERIFY2(o[u"live"_qs][u"devices"_qs][loop.device.name()][u"pages"_qs][u"wasted"_qs].toInteger() > 10000,
                 out.constData());
        QJsonObject wasted;
        for (const QJsonValue f : o[u"findings"_qs].toArray())
            if (f[u"code"_qs].toString() == u"readahead_wasted")
                wasted = f.toObject();
        QVERIFY2(!wasted.isEmpty(), out.constData());
        QCOMPARE(wasted[u"device"_qs].toString(), loop.device.name());
        const qint64 named = wasted[u"fix"_qs][u"read_ahead_kb"_qs].toInteger();
        QVERIFY2(named >= qint64(kWastedMinKiB) && named < 2048, out.constData());
    }

    // blocktune-cli readahead adds the findings to its JSON (each line's of
    // its interval with --watch; the last line the whole run's).
    void readaheadPrintsTheFindingsInItsJson()
    {
        Loop loop;
        QVERIFY(loop.device.isValid());
        QVERIFY(setQueueAttr(loop.device.name(), "read_ahead_kb", u"2048"_qs));
        QVERIFY(dropCache(loop.device.path()));
        QProcess cli;
        // Ended with Ctrl-C after the reads (see above); readahead exits 0.
        cli.start(binary("blocktune-cli"), {u"readahead"_qs, loop.device.name(), u"--duration"_qs, u"10m"_qs,
                                            u"--watch"_qs, u"--interval"_qs, u"500ms"_qs, u"--json"_qs});
        QVERIFY(cli.waitForStarted());
        auto stop = qScopeGuard([&cli] {
            cli.kill();
            cli.waitForFinished();
        });
        QVERIFY2(QTest::qWaitFor([&cli] { return cli.canReadLine() || cli.state() != QProcess::Running; }, 180000),
                 "no line from blocktune-cli readahead --watch in 3 minutes");
        QVERIFY2(cli.canReadLine(), cli.readAllStandardError().constData());
        QVERIFY(readRuns(loop.device.path(), 2000, 1, 40));
        QVERIFY2(signalProcess(cli, SIGINT), "it had ended before the signal");
        QVERIFY2(cli.waitForFinished(180000), "blocktune-cli readahead did not end in 3 minutes after Ctrl-C");
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 0);
        const QList<QByteArray> lines = cli.readAllStandardOutput().trimmed().split('\n');
        const QJsonObject o = QJsonDocument::fromJson(lines.last()).object();
        QVERIFY2(o[u"findings"_qs].isArray(), lines.last().constData());
        QStringList found;
        for (const QJsonValue f : o[u"findings"_qs].toArray()) {
            QCOMPARE(f[u"device"_qs].toString(), loop.device.name());
            found << f[u"code"_qs].toString();
        }
        QVERIFY2(found.contains(u"random_reads"_qs), lines.last().constData());
        QVERIFY2(!found.contains(u"readahead_wasted"_qs), lines.last().constData());
    }

    // diagnose --live reads nothing: the loop's diskstats do not move while
    // it watches, and it refuses what it cannot do.
    void diagnoseLiveReadsNothing()
    {
        Loop loop;
        QVERIFY(loop.device.isValid());
        const DiskCounters before = diskCountersOf(loop.device.name());
        const ProcessResult r = run(binary("blocktune-cli"), {u"diagnose"_qs, loop.device.name(), u"--live"_qs, u"2s"_qs});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const DiskCounters after = diskCountersOf(loop.device.name());
        QCOMPARE(after[DiskCounters::SectorsRead], before[DiskCounters::SectorsRead]);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(u"live workload over"_qs) && out.contains(loop.device.name() + u"  read_ahead_kb"_qs),
                 r.out.constData());
        QVERIFY2(out.contains(u"no findings"_qs), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestReadaheadFindingsLive)
#include "tst_readahead_findings_live.moc"
