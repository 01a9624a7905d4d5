// The readahead probe's counters for Prometheus (core/metrics/readahead.cpp,
// `blocktune-cli readahead --collect`): the text of a made-up snapshot
// (names, labels, one HELP and TYPE per family), promtool (Debian's
// prometheus package) accepting it, the command line's refusals, and, as
// root, the collector on a loop device of this test: the textfile has the
// loop's windows during a dd, promtool accepts it, and SIGTERM stops the
// collector (exit status 0, the file removed, the probe unloaded with it).
#include "common/counts.h"
#include "metrics/metrics.h"
#include "readahead/readahead.h"
#include "testloop.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QString promtool()
{
    return QStandardPaths::findExecutable(QStringLiteral("promtool"));
}

ProcessResult promtoolCheck(const QByteArray &text)
{
    return run(promtool(), {u"check"_qs, u"metrics"_qs}, 60000, text);
}

/// loop0 (7:0): a dd's windows and pages; sda1 (8:1): a file's sync
/// windows; 0:45: a filesystem without a block device (no label known).
ReadaheadSnapshot madeUpSnapshot()
{
    ReadaheadSnapshot s;
    DeviceReadaheadCounters loop;
    ReadaheadKindCounters &async = loop.of(ReadaheadKind::Async);
    async.windows = 256;
    async.atCap = 250;
    async.sizes = {{256, 250}, {128, 2}};
    async.pagesReadAhead = 65536;
    async.pagesUsed = 65000;
    async.pagesWasted = 100;
    ReadaheadKindCounters &sync = loop.of(ReadaheadKind::Sync);
    sync.windows = 1;
    sync.missWindows = 1;
    sync.sizes = {{64, 1}};
    sync.pagesReadAhead = 64;
    sync.pagesUsed = 64;
    sync.interleavedRestarts = 3;
    s.devices.insert(deviceNumber(7, 0), loop);
    DeviceReadaheadCounters part;
    part.of(ReadaheadKind::Mmap).windows = 5;
    part.of(ReadaheadKind::Mmap).pagesUntracked = 7;
    s.devices.insert(deviceNumber(8, 1), part);
    DeviceReadaheadCounters anonymous;
    anonymous.of(ReadaheadKind::Forced).windows = 2;
    s.devices.insert(deviceNumber(0, 45), anonymous);
    s.dropped = 4;
    return s;
}

const QHash<quint64, QString> kLabels{{deviceNumber(7, 0), u"loop0"_qs}, {deviceNumber(8, 1), u"sda1"_qs}};

bool dropCache(const QString &path)
{
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    ::close(fd);
    return ok;
}

/// The value of the sample `series` (name and labels, as written) in `text`.
std::optional<double> sampleValue(const QByteArray &text, const QString &series)
{
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(QByteArray(series.toUtf8() + ' ')))
            return line.mid(series.size() + 1).toDouble();
    return std::nullopt;
}

} // namespace

class TestReadaheadMetrics : public QObject
{
    Q_OBJECT

private slots:
    void madeUpSnapshotReadsAsCounters()
    {
        const QByteArray text = readaheadMetricsText(madeUpSnapshot(), kLabels);
        const QStringList families{u"blocktune_readahead_windows_total"_qs, u"blocktune_readahead_windows_at_cap_total"_qs,
                                   u"blocktune_readahead_sized_windows_total"_qs, u"blocktune_readahead_window_bytes_total"_qs,
                                   u"blocktune_readahead_pages_total"_qs, u"blocktune_readahead_interleaved_restarts_total"_qs,
                                   u"blocktune_readahead_dropped_events_total"_qs};
        for (const QString &f : families) {
            QCOMPARE(text.count(QString(u"# HELP "_qs + f + u' ').toUtf8()), 1);
            QVERIFY2(text.contains(QString(u"# TYPE "_qs + f + u" counter\n"_qs).toUtf8()), qPrintable(f));
        }
        const QList<QPair<QString, double>> expected{
            {u"blocktune_readahead_windows_total{device=\"loop0\",kind=\"async\"}"_qs, 256},
            {u"blocktune_readahead_windows_total{device=\"loop0\",kind=\"sync\"}"_qs, 1},
            {u"blocktune_readahead_windows_total{device=\"loop0\",kind=\"mmap\"}"_qs, 0},
            {u"blocktune_readahead_windows_total{device=\"sda1\",kind=\"mmap\"}"_qs, 5},
            {u"blocktune_readahead_windows_total{device=\"0:45\",kind=\"forced\"}"_qs, 2},
            {u"blocktune_readahead_windows_at_cap_total{device=\"loop0\",kind=\"async\"}"_qs, 250},
            {u"blocktune_readahead_sized_windows_total{device=\"loop0\",kind=\"async\"}"_qs, 252},
            // (250 x 256 + 2 x 128) pages of 4 KiB
            {u"blocktune_readahead_window_bytes_total{device=\"loop0\",kind=\"async\"}"_qs, 263192576},
            {u"blocktune_readahead_window_bytes_total{device=\"loop0\",kind=\"sync\"}"_qs, 262144},
            {u"blocktune_readahead_pages_total{device=\"loop0\",outcome=\"read_ahead\"}"_qs, 65600},
            {u"blocktune_readahead_pages_total{device=\"loop0\",outcome=\"used\"}"_qs, 65064},
            {u"blocktune_readahead_pages_total{device=\"loop0\",outcome=\"wasted\"}"_qs, 100},
            {u"blocktune_readahead_pages_total{device=\"sda1\",outcome=\"untracked\"}"_qs, 7},
            {u"blocktune_readahead_interleaved_restarts_total{device=\"loop0\"}"_qs, 3},
            {u"blocktune_readahead_dropped_events_total"_qs, 4},
        };
        for (const auto &[series, value] : expected) {
            const std::optional<double> v = sampleValue(text, series);
            QVERIFY2(v, qPrintable(series + u" is missing from:\n"_qs + QString::fromUtf8(text)));
            QCOMPARE(*v, value);
        }
        // Devices by label, each family's samples together.
        const qsizetype first = text.indexOf("blocktune_readahead_windows_total{device=\"0:45\"");
        const qsizetype second = text.indexOf("blocktune_readahead_windows_total{device=\"loop0\"");
        const qsizetype third = text.indexOf("blocktune_readahead_windows_total{device=\"sda1\"");
        QVERIFY(first >= 0 && first < second && second < third);
        QVERIFY(text.indexOf("blocktune_readahead_windows_at_cap_total{") > third);
        // Nothing read ahead yet: only the dropped events.
        const QByteArray empty = readaheadMetricsText(ReadaheadSnapshot{}, {});
        QCOMPARE(empty.count("# TYPE "), 1);
        QVERIFY(empty.contains("blocktune_readahead_dropped_events_total 0\n"));
    }

    void promtoolAcceptsTheText()
    {
        if (promtool().isEmpty())
            QFAIL("promtool is missing (apt-get install prometheus; scripts/bootstrap.sh)");
        for (const QByteArray &text : {readaheadMetricsText(madeUpSnapshot(), kLabels), readaheadMetricsText({}, {})}) {
            const ProcessResult checked = promtoolCheck(text);
            QVERIFY2(checked.exitCode == 0 && checked.out.trimmed().isEmpty() && checked.err.trimmed().isEmpty(),
                     QByteArray(checked.out + checked.err + text).constData());
        }
    }

    void cliRefusesCollectWithoutItsFolderOrWithOtherModes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("no folder") << QStringList{u"--collect"_qs} << u"--collect needs --textfile-dir DIR"_qs;
        QTest::newRow("folder without collect") << QStringList{u"--textfile-dir"_qs, u"/tmp"_qs}
                                                << u"--textfile-dir goes with --collect"_qs;
        QTest::newRow("duration") << QStringList{u"--collect"_qs, u"--textfile-dir"_qs, u"/tmp"_qs, u"--duration"_qs, u"1s"_qs}
                                  << u"--duration does not go with it"_qs;
        QTest::newRow("watch") << QStringList{u"--collect"_qs, u"--textfile-dir"_qs, u"/tmp"_qs, u"--watch"_qs}
                               << u"--watch does not go with it"_qs;
        QTest::newRow("device") << QStringList{u"--collect"_qs, u"--textfile-dir"_qs, u"/tmp"_qs, u"loop0"_qs}
                                << u"every device that reads ahead (got 'loop0')"_qs;
        QTest::newRow("interval out of range")
            << QStringList{u"--collect"_qs, u"--textfile-dir"_qs, u"/tmp"_qs, u"--interval"_qs, u"10ms"_qs}
            << u"--interval 10ms"_qs;
    }

    void cliRefusesCollectWithoutItsFolderOrWithOtherModes()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const ProcessResult r = run(binary("blocktune-cli"), QStringList{u"readahead"_qs} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // The collector on a buffered loop device of this test (its file in
    // memory) at read_ahead_kb 1024: a dd of it shows in the textfile as the
    // loop's async windows; SIGTERM ends it with status 0 and no file left.
    void collectorWritesTheLoopsWindowsAndStopsOnSigterm()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (!ReadaheadProbe::builtIn()) {
            if (rootRequired())
                QFAIL("built without BPF support, and BLOCKTUNE_REQUIRE_ROOT=1 asks for every root test");
            QSKIP("built without BPF support (BLOCKTUNE_BPF off)");
        }
        if (promtool().isEmpty())
            QFAIL("promtool is missing (apt-get install prometheus; scripts/bootstrap.sh)");
        LoopDevice device(qint64(64) << 20, false, knownContents(), true);
        QVERIFY(device.isValid());
        const QString original = queueAttr(device.name(), "read_ahead_kb");
        auto putBack = qScopeGuard([&] {
            if (device.isAttached())
                setQueueAttr(device.name(), "read_ahead_kb", original);
        });
        QVERIFY(setQueueAttr(device.name(), "read_ahead_kb", u"1024"_qs));
        QVERIFY(dropCache(device.path()));
        QTemporaryDir dir; // root's, 0700: a folder writeTextfile accepts
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QString(kReadaheadTextfileName));

        QProcess cli;
        cli.start(binary("blocktune-cli"),
                  {u"readahead"_qs, u"--collect"_qs, u"--textfile-dir"_qs, dir.path(), u"--interval"_qs, u"300ms"_qs});
        QVERIFY(cli.waitForStarted());
        auto stop = qScopeGuard([&cli] {
            if (cli.state() != QProcess::NotRunning) {
                cli.kill();
                cli.waitForFinished();
            }
        });
        // The first file is written once the probe is loaded.
        QElapsedTimer t;
        t.start();
        while (!QFile::exists(file) && t.elapsed() < 180000) // loading takes seconds on a busy machine
            if (cli.waitForFinished(100)) // it stopped: the probe did not load
                break;
        QVERIFY2(QFile::exists(file), cli.readAllStandardError().constData());
        const ProcessResult dd = run(u"dd"_qs, {u"if="_qs + device.path(), u"of=/dev/null"_qs, u"bs=64K"_qs, u"status=none"_qs});
        QCOMPARE(dd.exitCode, 0);
        const QString async = u"blocktune_readahead_windows_total{device=\""_qs + device.name() + u"\",kind=\"async\"}"_qs;
        QByteArray text;
        std::optional<double> windows;
        // Waited for, not timed: the next files come every 300 ms on a quiet machine.
        for (t.restart(); t.elapsed() < 120000; QThread::msleep(100)) {
            QFile f(file);
            if (f.open(QIODevice::ReadOnly))
                text = f.readAll();
            windows = sampleValue(text, async);
            if (windows && *windows >= 48)
                break;
        }
        // 64 MiB in 1 MiB windows: about 64 (tst_readahead_live: 68).
        QVERIFY2(windows && *windows >= 48, text.constData());
        QVERIFY2(QFileInfo(file).permissions().testFlag(QFileDevice::ReadOther), "node_exporter's user must read it");
        const ProcessResult checked = promtoolCheck(text);
        QVERIFY2(checked.exitCode == 0, QByteArray(checked.out + checked.err + text).constData());

        QVERIFY2(signalProcess(cli, SIGTERM), "it had ended before the signal");
        QVERIFY(cli.waitForFinished(180000));
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY2(cli.readAllStandardError().isEmpty(), "stopped without a word");
        QVERIFY2(!QFile::exists(file), "the collector's file outlived it");
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestReadaheadMetrics)
#include "tst_readahead_metrics.moc"
