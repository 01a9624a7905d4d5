// The readahead probe on the live kernel, on a buffered loop device of our
// own: a sequential dd of it is counted for that loop (async windows, no
// window larger than its read_ahead_kb, the windows at the cap at the cap's
// size), nothing of it for the bdev pseudo-filesystem 0:3, and nothing for
// the loop while it is idle. The CLI prints the same in its JSON, and
// refuses an unknown device or a bad duration with exit status 2. The
// referee: bpftrace (Debian's package) counts page_cache_async_ra events of
// the loop during the same dd, and the probe's async windows are that count.
#include "bpftrace_referee.h"
#include "common/counts.h"
#include "devices/devicemodel.h"
#include "readahead/readahead.h"
#include "readaheadloop.h"
#include "testloop.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

#include <QRegularExpression>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

constexpr quint64 kReadAheadKiB = ReadaheadLoop::kReadAheadKiB;

} // namespace

class TestReadaheadLive : public QObject
{
    Q_OBJECT

private:

private slots:
    void sequentialDdIsCountedForItsLoopAndNothingWhenIdle()
    {
        REQUIRE_ROOT_AND_BPF();
        ReadaheadLoop loop;
        QVERIFY(loop.isValid());
        QCOMPARE(readAhead(loop.name()), kReadAheadKiB);
        const quint64 number = loopNumber(loop.name());
        QVERIFY(number != 0);
        auto probe = ReadaheadProbe::load();
        QVERIFY2(probe, probe ? "" : qPrintable(probe.error().message));
        QVERIFY(dropCache(loop.path()));

        auto before = (*probe)->snapshot();
        QVERIFY(before);
        QVERIFY(ddWhole(loop.path()));
        auto after = (*probe)->snapshot();
        QVERIFY(after);
        const ReadaheadCountersMap read = readaheadDelta(before->devices, after->devices);
        const DeviceReadaheadCounters c = read.value(number);
        const ReadaheadKindCounters &async = c.of(ReadaheadKind::Async);
        // 64 MiB in 1 MiB windows once the window has grown: about 64 (this
        // kernel: 132 for 128 MiB).
        QVERIFY2(async.windows >= 48 && async.windows <= 80, qPrintable(QString::number(async.windows)));
        QVERIFY(c.of(ReadaheadKind::Sync).windows >= 1); // the first read missed
        const ReadaheadFigures all = readaheadFigures(c);
        QVERIFY(all.sizeMaxKiB && all.sizeP50KiB);
        QVERIFY2(*all.sizeMaxKiB <= kReadAheadKiB, qPrintable(QString::number(*all.sizeMaxKiB)));
        QCOMPARE(*all.sizeP50KiB, kReadAheadKiB);
        QVERIFY2(all.atCap >= async.windows / 2, qPrintable(QStringLiteral("%1 of %2").arg(all.atCap).arg(async.windows)));
        // The raw device is its own, not the bdev pseudo-filesystem's.
        QCOMPARE(readaheadFigures(read.value(deviceNumber(0, 3))).windows, quint64(0));

        // Idle: nobody reads it, nothing is counted for it.
        QThread::msleep(1000);
        auto idle = (*probe)->snapshot();
        QVERIFY(idle);
        const ReadaheadCountersMap quiet = readaheadDelta(after->devices, idle->devices);
        QCOMPARE(readaheadFigures(quiet.value(number)).windows, quint64(0));
    }

    void cliPrintsTheLoopsWindowsAsJson()
    {
        REQUIRE_ROOT_AND_BPF();
        ReadaheadLoop loop;
        QVERIFY(loop.isValid());
        QVERIFY(dropCache(loop.path()));
        // --watch: its first line says the probe is loaded and counting, so
        // dd starts after that (a fixed sleep lost the race on a loaded
        // machine). Ctrl-C ends the run when dd is done, however long
        // loading and dd took (a fixed --duration lost that race too), and
        // the last line covers the whole run.
        QProcess cli;
        cli.start(binary("blocktune-cli"), {u"readahead"_qs, loop.name(), u"--duration"_qs, u"10m"_qs,
                                            u"--watch"_qs, u"--interval"_qs, u"500ms"_qs, u"--json"_qs});
        QVERIFY(cli.waitForStarted());
        auto stop = qScopeGuard([&cli] {
            cli.kill();
            cli.waitForFinished();
        });
        QVERIFY2(QTest::qWaitFor([&cli] { return cli.canReadLine() || cli.state() != QProcess::Running; }, 180000),
                 "no line from blocktune-cli readahead --watch in 3 minutes");
        QVERIFY2(cli.canReadLine(), cli.readAllStandardError().constData());
        QElapsedTimer counting;
        counting.start();
        QVERIFY(ddWhole(loop.path()));
        const qint64 countedMs = counting.elapsed();
        QVERIFY2(signalProcess(cli, SIGINT), "it had ended before the signal");
        QVERIFY2(cli.waitForFinished(180000), "blocktune-cli readahead did not end in 3 minutes after Ctrl-C");
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 0);
        // The last line is the whole run's: from the probe's first snapshot,
        // before the first line, to Ctrl-C after dd.
        const QList<QByteArray> lines = cli.readAllStandardOutput().trimmed().split('\n');
        QVERIFY(lines.size() >= 2);
        const QJsonObject o = QJsonDocument::fromJson(lines.last()).object();
        QVERIFY2(o[u"duration_s"_qs].toDouble() * 1000 >= double(countedMs), lines.last().constData());
        QCOMPARE(o[u"schema"_qs].toInt(), 1);
        const QJsonObject dev = o[u"devices"_qs][loop.name()].toObject();
        QCOMPARE(quint64(dev[u"read_ahead_kb"_qs].toInteger()), kReadAheadKiB);
        QVERIFY2(dev[u"windows"_qs][u"async"_qs].toInteger() >= 48, QJsonDocument(dev).toJson().constData());
        QCOMPARE(quint64(dev[u"window_kib"_qs][u"p50"_qs].toInteger()), kReadAheadKiB);
        QVERIFY(quint64(dev[u"window_kib"_qs][u"max"_qs].toInteger()) <= kReadAheadKiB);
        QVERIFY(dev[u"at_cap"_qs].toInteger() > 0);
    }

    // bpftrace on the same tracepoint, filtered to the loop's inode on the
    // bdev pseudo-filesystem (s_dev 0:3, i_ino = the loop's dev_t), counts
    // the async windows the probe counts during the same dd.
    void asyncWindowsEqualBpftracesCount()
    {
        REQUIRE_ROOT_AND_BPF();
        if (!QFileInfo(QString::fromLatin1(kBpftrace)).isExecutable()) {
            const char *why = "no /usr/bin/bpftrace: install Debian's bpftrace (scripts/bootstrap.sh does)";
            if (rootRequired())
                QFAIL(why);
            QSKIP(why);
        }
        const Tracefs tracefs;
        QVERIFY2(tracefs.error.isEmpty(), qPrintable(tracefs.error));
        ReadaheadLoop loop;
        QVERIFY(loop.isValid());
        const quint64 number = loopNumber(loop.name());
        QVERIFY(number != 0);
        const quint64 kernelDev = (quint64(majorOf(number)) << 20) | minorOf(number);
        auto probe = ReadaheadProbe::load();
        QVERIFY2(probe, probe ? "" : qPrintable(probe.error().message));
        QVERIFY(dropCache(loop.path()));
        Bpftrace bt;
        QVERIFY2(bt.start(QStringLiteral("tracepoint:readahead:page_cache_async_ra /args->s_dev == 3 && "
                                         "args->i_ino == %1/ { @async = count(); }")
                              .arg(kernelDev)),
                 bt.said().constData());
        auto before = (*probe)->snapshot();
        QVERIFY(before);
        QVERIFY(ddWhole(loop.path()));
        auto after = (*probe)->snapshot();
        QVERIFY(after);
        QVERIFY2(bt.stop(), bt.said().constData()); // bpftrace prints its maps (@async: N) and leaves
        const QByteArray said = bt.said();
        const QRegularExpressionMatch m = QRegularExpression(u"@async: (\\d+)"_qs).match(QString::fromUtf8(said));
        QVERIFY2(m.hasMatch(), said.constData());
        const quint64 refereeCount = m.captured(1).toULongLong();
        const quint64 ours =
            readaheadDelta(before->devices, after->devices).value(number).of(ReadaheadKind::Async).windows;
        qInfo("async windows of %s: probe %llu, bpftrace %llu", qPrintable(loop.name()), ours, refereeCount);
        QVERIFY(refereeCount > 0);
        QCOMPARE(ours, refereeCount);
    }

    // A recorded tree has no kernel to load the probe into, nor a workload.
    void cliRefusesARecordedTree()
    {
        const ProcessResult r = run(binary("blocktune-cli"), {u"--sysroot"_qs, recordedTree("md-raid10-f2"), u"readahead"_qs});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(u"a recorded tree (--sysroot) has no running kernel"_qs), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void cliRefusesAnUnknownDeviceAndABadDuration_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown device") << QStringList{u"nosuchdisk9"_qs} << u"no block device named 'nosuchdisk9'"_qs;
        QTest::newRow("duration not a time") << QStringList{u"--duration"_qs, u"soon"_qs} << u"--duration"_qs;
        QTest::newRow("duration zero") << QStringList{u"--duration"_qs, u"0s"_qs} << u"must be between"_qs;
        QTest::newRow("interval longer than duration")
            << QStringList{u"--duration"_qs, u"1s"_qs, u"--watch"_qs, u"--interval"_qs, u"2s"_qs} << u"--interval 2s"_qs;
        QTest::newRow("interval without watch") << QStringList{u"--interval"_qs, u"1s"_qs} << u"--watch"_qs;
        QTest::newRow("watch, default interval longer than duration")
            << QStringList{u"--duration"_qs, u"500ms"_qs, u"--watch"_qs} << u"--interval 1s"_qs;
        QTest::newRow("unknown option") << QStringList{u"--durration"_qs, u"1s"_qs} << u"--duration"_qs;
    }

    void cliRefusesAnUnknownDeviceAndABadDuration()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const ProcessResult r = run(binary("blocktune-cli"), QStringList{u"readahead"_qs} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestReadaheadLive)
#include "tst_readahead_live.moc"
