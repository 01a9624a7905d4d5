// `blocktune-cli metrics` against an outside referee: promtool (Debian's
// prometheus package) must accept what it prints on the live machine, on
// every recorded tree, on a generated 5,000-device tree and on a snapshot;
// the figures must be the trees' own, drift must follow a changed value,
// and the history's figures must come out in base units.
#include "advisor/advisor.h"
#include "history/history.h"
#include "metrics/metrics.h"
#include "testsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimeZone>
#include <QTest>

#include <pwd.h>

#include <cmath>
#include <limits>

using namespace blocktune;
using namespace blocktune::test;

namespace {

ProcessResult cli(const QStringList &args)
{
    return run(binary("blocktune-cli"), args);
}

/// The value of one sample line `NAME{LABELS} VALUE`, or nullopt.
std::optional<double> sampleValue(const QByteArray &text, const QString &nameAndLabels)
{
    const QByteArray prefix = QByteArray(nameAndLabels.toUtf8() + ' ');
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).toDouble();
    return std::nullopt;
}

QString promtool()
{
    return QStandardPaths::findExecutable(QStringLiteral("promtool"));
}

/// The ```promql blocks of a Markdown file (of its section `section` only,
/// when given: from that heading to the next one of its level).
QStringList promqlBlocks(const QString &path, const QString &section = {})
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(f.readAll());
    if (!section.isEmpty()) {
        const qsizetype from = text.indexOf(u"\n"_qs + section + u'\n');
        if (from < 0)
            return {};
        const qsizetype to = text.indexOf(u"\n## "_qs, from + section.size() + 1);
        text = text.mid(from, to < 0 ? -1 : to - from);
    }
    QStringList blocks;
    static const QRegularExpression fence(u"\n```promql\n(.*?)```"_qs, QRegularExpression::DotMatchesEverythingOption);
    for (auto it = fence.globalMatch(text); it.hasNext();)
        blocks << it.next().captured(1).trimmed();
    return blocks;
}

/// `text` indented by `spaces` on every line (YAML block scalars).
QString indented(const QString &text, int spaces)
{
    const QString pad(spaces, u' ');
    return pad + QString(text).replace(u'\n', u'\n' + pad);
}

} // namespace

class TestMetrics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void labelValuesAreEscaped_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("escaped");
        QTest::newRow("plain") << u"sda"_qs << u"sda"_qs;
        QTest::newRow("backslash") << u"a\\b"_qs << u"a\\\\b"_qs;
        QTest::newRow("quote") << u"vg\"lv"_qs << u"vg\\\"lv"_qs;
        QTest::newRow("newline") << u"x\ny"_qs << u"x\\ny"_qs;
        QTest::newRow("all three") << u"\\\"\n"_qs << u"\\\\\\\"\\n"_qs;
        QTest::newRow("empty") << QString() << QString();
    }
    void labelValuesAreEscaped()
    {
        QFETCH(QString, value);
        QFETCH(QString, escaped);
        QCOMPARE(escapeLabelValue(value), escaped);
    }

    void sampleValuesAreTheShortestExactDecimal_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        // A history record's time in whole milliseconds, as seconds: 17
        // digits printed 1796530829.7160001 here before.
        QTest::newRow("timestamp ms") << 1796530829716 / 1000.0 << u"1796530829.716"_qs;
        QTest::newRow("timestamp whole s") << 1700000100000 / 1000.0 << u"1700000100"_qs;
        QTest::newRow("timestamp 1 ms") << 1700000100001 / 1000.0 << u"1700000100.001"_qs;
        QTest::newRow("bytes") << 4294967296.0 << u"4294967296"_qs;
        QTest::newRow("half") << 0.5 << u"0.5"_qs;
        QTest::newRow("third") << 1.0 / 3 << u"0.3333333333333333"_qs;
        QTest::newRow("tiny") << 1e-7 << u"1e-07"_qs;
        QTest::newRow("past 2^53") << 1.5e20 << u"1.5e+20"_qs;
        QTest::newRow("negative") << -2.25 << u"-2.25"_qs;
        QTest::newRow("nan") << std::nan("") << u"NaN"_qs;
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << u"+Inf"_qs;
    }
    void sampleValuesAreTheShortestExactDecimal()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(formatSampleValue(value), text);
        if (!std::isnan(value))
            QCOMPARE(text.toDouble(), value); // reads back as the same double
    }

    void samplesOfAFamilyStayTogether()
    {
        Exposition e;
        e.family(u"a_bytes"_qs, u"A\nwith a newline"_qs);
        e.family(u"b_info"_qs, u"B"_qs);
        e.family(u"never_sampled"_qs, u"left out"_qs);
        e.sample(u"a_bytes"_qs, {{u"device"_qs, u"sda"_qs}}, 4194304);
        e.sample(u"b_info"_qs, {{u"name"_qs, u"vg\"x"_qs}}, 1);
        e.sample(u"a_bytes"_qs, {{u"device"_qs, u"sdb"_qs}}, 0.5);
        QCOMPARE(QString::fromUtf8(e.text()),
                 u"# HELP a_bytes A\\nwith a newline\n# TYPE a_bytes gauge\na_bytes{device=\"sda\"} 4194304\n"
                 "a_bytes{device=\"sdb\"} 0.5\n# HELP b_info B\n# TYPE b_info gauge\nb_info{name=\"vg\\\"x\"} 1\n"_qs);
    }

    void promtoolAcceptsEveryMachine_data()
    {
        QTest::addColumn<QString>("tree"); // empty: the live machine; "synth": generated here
        QTest::newRow("live") << QString();
        for (const char *t : {"md-raid10-f2", "raid5-degraded", "scst-raid0-lvm", "scst-raid0-lvm-sysblock",
                              "nvme-parts", "live-loop"})
            QTest::newRow(t) << recordedTree(t);
        QTest::newRow("5000 devices") << u"synth"_qs;
        QTest::newRow("snapshot") << u"snapshot"_qs;
    }
    void promtoolAcceptsEveryMachine()
    {
        QFETCH(QString, tree);
        if (promtool().isEmpty())
            QFAIL("promtool is missing (apt-get install prometheus; scripts/bootstrap.sh)");
        // 25,000 small files: in memory where there is /dev/shm (on this VM's
        // disk, making and removing them took over a minute).
        const QFileInfo shm(QStringLiteral("/dev/shm"));
        QTemporaryDir dir(shm.isDir() && shm.isWritable() ? QStringLiteral("/dev/shm/blocktune-test-XXXXXX")
                                                          : QDir::tempPath() + QStringLiteral("/blocktune-test-XXXXXX"));
        QStringList args;
        if (tree == u"synth") {
            const ProcessResult made = run(QFileInfo::exists(u"/usr/bin/python3"_qs) ? u"/usr/bin/python3"_qs : u"python3"_qs, {QStringLiteral(BLOCKTUNE_SOURCE_DIR "/scripts/mk-sysroot.py"),
                                                          u"synth"_qs, dir.filePath(u"t"_qs), u"--disks"_qs, u"1000"_qs,
                                                          u"--parts"_qs, u"4"_qs});
            QVERIFY2(made.exitCode == 0, made.err.constData());
            tree = dir.filePath(u"t"_qs);
        } else if (tree == u"snapshot") {
            const QString tarball = dir.filePath(u"machine.tar.gz"_qs);
            const ProcessResult recorded = cli({u"record"_qs, tarball});
            QVERIFY2(recorded.exitCode == 0, recorded.err.constData());
            tree = tarball;
        }
        if (!tree.isEmpty())
            args << u"--sysroot"_qs << tree;
        const ProcessResult m = cli(args << u"metrics"_qs);
        QCOMPARE(m.exitCode, 0);
        QVERIFY(m.out.contains("# TYPE blocktune_read_ahead_bytes gauge"));
        QVERIFY(m.out.contains("blocktune_metrics_errors "));
        const ProcessResult checked = run(promtool(), {u"check"_qs, u"metrics"_qs}, 60000, m.out);
        QVERIFY2(checked.exitCode == 0, QByteArray(checked.out + checked.err).constData());
        // Which program wrote it, once, as node_exporter's *_build_info.
        const QByteArray buildInfo = "blocktune_build_info{version=\"" BLOCKTUNE_VERSION "\",qt_version=\"" QT_VERSION_STR
                                     "\"} 1\n";
        QVERIFY2(m.out.startsWith("# HELP blocktune_build_info ") && m.out.count(buildInfo) == 1, m.out.left(400).constData());
        // One spelling of readahead in every name: read_ahead, as sysfs has it.
        static const QRegularExpression typeLine(u"^# TYPE (\\S+) "_qs, QRegularExpression::MultilineOption);
        for (auto it = typeLine.globalMatch(QString::fromUtf8(m.out)); it.hasNext();) {
            const QString name = it.next().captured(1);
            QVERIFY2(!name.contains(u"readahead"_qs), qPrintable(name));
        }
        if (QByteArrayView(QTest::currentDataTag()) == QByteArrayView("5000 devices")) {
            // Every disk and its four partitions: 1,000 readaheads, 4,000 partitions.
            QCOMPARE(m.out.count("\nblocktune_read_ahead_bytes{"), 1000);
            QCOMPARE(m.out.count("\nblocktune_partition_info{"), 4000);
        }
    }

    void figuresAreTheTreesOwnInBytes()
    {
        const ProcessResult m = cli({u"--sysroot"_qs, recordedTree("md-raid10-f2"), u"metrics"_qs});
        QCOMPARE(m.exitCode, 0);
        // The tree: md0 raid10 far-2 over 8 disks, chunk 512 KiB, read_ahead_kb 8192;
        // the kernel's floor there is 2 x (512 KiB x 8) = 8 MiB.
        QCOMPARE(sampleValue(m.out, u"blocktune_read_ahead_bytes{device=\"md0\"}"_qs), 8388608.0);
        QCOMPARE(sampleValue(m.out, u"blocktune_read_ahead_floor_bytes{device=\"md0\"}"_qs), 8388608.0);
        QCOMPARE(sampleValue(m.out, u"blocktune_md_member_info{device=\"md0\",member=\"sdb\"}"_qs), 1.0);
        QCOMPARE(m.out.count("\nblocktune_md_member_info{device=\"md0\""), 8);
        QVERIFY(!m.out.contains("blocktune_read_ahead_floor_bytes{device=\"sdb\"}")); // a plain disk has none

        const ProcessResult lvm = cli({u"--sysroot"_qs, recordedTree("scst-raid0-lvm"), u"metrics"_qs});
        QVERIFY(lvm.out.contains("blocktune_dm_slave_info{device=\"dm-0\",slave=\"md0\",name=\"vg_scst-lun0\"} 1"));
        QVERIFY(lvm.out.contains("blocktune_partition_info{device=\"sdb1\",disk=\"sdb\"} 1"));
        QCOMPARE(sampleValue(lvm.out, u"blocktune_metrics_errors"_qs), 0.0);
    }

    void driftFollowsAChangedValue()
    {
        QTemporaryDir tree;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        QTemporaryDir journals;
        qputenv("BLOCKTUNE_JOURNAL_DIR", journals.path().toLocal8Bit());
        const ProcessResult applied = cli({u"--sysroot"_qs, tree.path(), u"profile"_qs, u"apply"_qs, u"backup-target"_qs});
        QVERIFY2(applied.exitCode == 0, applied.err.constData());
        ProcessResult m = cli({u"--sysroot"_qs, tree.path(), u"metrics"_qs});
        QVERIFY(m.out.contains("blocktune_profile_applied_info{profile=\"backup-target\"} 1"));
        const QString sdbFifo = u"blocktune_profile_drift{profile=\"backup-target\",device=\"sdb\",setting=\"iosched.fifo_batch\"}"_qs;
        QCOMPARE(sampleValue(m.out, sdbFifo), 0.0);
        QVERIFY(!m.out.contains("setting=\"iosched.fifo_batch\"} 1"));

        // Someone changes sdb behind blocktune's back.
        QFile fifo(tree.filePath(u"sys/block/sdb/queue/iosched/fifo_batch"_qs));
        QVERIFY(fifo.open(QIODevice::WriteOnly | QIODevice::Truncate));
        fifo.write("8\n");
        fifo.close();
        m = cli({u"--sysroot"_qs, tree.path(), u"metrics"_qs});
        QCOMPARE(sampleValue(m.out, sdbFifo), 1.0);
        QCOMPARE(sampleValue(m.out, u"blocktune_profile_drift{profile=\"backup-target\",device=\"sdc\",setting=\"iosched.fifo_batch\"}"_qs), 0.0);

        // --profile: drift against another profile than the applied one.
        m = cli({u"--sysroot"_qs, tree.path(), u"metrics"_qs, u"--profile"_qs, u"desktop-defaults"_qs});
        QCOMPARE(m.exitCode, 0);
        QVERIFY(m.out.contains("blocktune_profile_applied_info{profile=\"backup-target\"} 1"));
        QVERIFY(m.out.contains("blocktune_profile_drift{profile=\"desktop-defaults\""));
        QVERIFY(!m.out.contains("blocktune_profile_drift{profile=\"backup-target\""));
        qunsetenv("BLOCKTUNE_JOURNAL_DIR");
    }

    void historyFiguresInBaseUnits()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"history.sqlite"_qs);
        auto record = [](const QString &kind, const QString &device, double mb, qint64 secs, bool ok) {
            HistoryRecord r;
            r.recordedAt = QDateTime::fromSecsSinceEpoch(secs, Qt::UTC);
            r.source = u"cli"_qs;
            r.kind = kind;
            r.test = u"seq"_qs;
            r.device = device;
            r.mbPerSec = mb;
            r.ok = ok;
            if (kind == u"sweep")
                r.result = QJsonObject{{u"queue_device"_qs, device},
                                       {u"points"_qs, QJsonArray{QJsonObject{{u"read_ahead_kb"_qs, 128}, {u"mb_per_s"_qs, 300.0}},
                                                                 QJsonObject{{u"read_ahead_kb"_qs, 2048}, {u"mb_per_s"_qs, mb}}}}};
            else
                r.result = QJsonObject{{u"mean_mb_per_s"_qs, mb}};
            return r;
        };
        const HistoryStore store(db);
        QVERIFY(store.add(record(u"test"_qs, u"loop9"_qs, 100.0, 1700000000, true)));
        QVERIFY(store.add(record(u"test"_qs, u"loop9"_qs, 330.5, 1700000100, true)));
        // A test of another kind recorded at a time with milliseconds.
        HistoryRecord ms = record(u"test"_qs, u"loop9"_qs, 99.0, 0, true);
        ms.test = u"concurrent:2"_qs;
        ms.recordedAt = QDateTime::fromMSecsSinceEpoch(1796530829716, Qt::UTC);
        QVERIFY(store.add(ms));
        QVERIFY(store.add(record(u"test"_qs, u"loop9"_qs, 2.0, 1700000200, false))); // stopped: not the figure
        QVERIFY(store.add(record(u"sweep"_qs, u"loop9"_qs, 1510.0, 1700000300, true)));
        // Two advices as advise keeps them, and a newer one stopped half way.
        auto advice = [](double plateau, qint64 secs, bool cancelled) {
            RecordedCurve c;
            c.device = u"loop9"_qs;
            c.rawMbPerSec = 1200.0;
            for (const auto &[kib, mb] : {std::pair{128ull, 300.0}, std::pair{512ull, plateau * 0.8},
                                          std::pair{1024ull, plateau}, std::pair{2048ull, plateau},
                                          std::pair{4096ull, plateau}})
            {
                CurvePoint p;
                p.readAheadKiB = kib;
                p.mbPerSec = mb;
                p.runs = {mb, mb, mb};
                c.curve << p;
            }
            AdviseSpec spec;
            spec.device = c.device;
            Advice a = adviseFromCurve(c, spec, u"measured"_qs);
            a.cancelled = cancelled;
            HistoryRecord r = historyRecord(a, u"cli"_qs);
            r.recordedAt = QDateTime::fromSecsSinceEpoch(secs, Qt::UTC);
            return r;
        };
        QVERIFY(store.add(advice(900.0, 1700000400, false)));
        QVERIFY(store.add(advice(1000.0, 1700000500, false)));
        QVERIFY(store.add(advice(50.0, 1700000600, true)));
        qputenv("BLOCKTUNE_HISTORY_DB", db.toLocal8Bit());
        const ProcessResult m = cli({u"metrics"_qs});
        qunsetenv("BLOCKTUNE_HISTORY_DB");
        QCOMPARE(m.exitCode, 0);
        QCOMPARE(sampleValue(m.out, u"blocktune_read_test_bytes_per_second{device=\"loop9\",test=\"seq\"}"_qs), 330.5e6);
        QCOMPARE(sampleValue(m.out, u"blocktune_read_test_timestamp_seconds{device=\"loop9\",test=\"seq\"}"_qs), 1700000100.0);
        // Seconds to the millisecond, written as the record has them.
        QVERIFY2(m.out.contains("\nblocktune_read_test_timestamp_seconds{device=\"loop9\",test=\"concurrent:2\"} "
                                "1796530829.716\n"),
                 m.out.constData());
        QCOMPARE(sampleValue(m.out, u"blocktune_sweep_best_read_ahead_bytes{device=\"loop9\",test=\"seq\"}"_qs), 2097152.0);
        QCOMPARE(sampleValue(m.out, u"blocktune_sweep_best_bytes_per_second{device=\"loop9\",test=\"seq\"}"_qs), 1510e6);
        // The newest complete advice: 1024 KiB reach its plateau of 1000 MB/s.
        const QString adv = u"{device=\"loop9\",workload=\"seq\"}"_qs;
        QCOMPARE(sampleValue(m.out, u"blocktune_advise_recommended_read_ahead_bytes"_qs + adv), 1048576.0);
        QCOMPARE(sampleValue(m.out, u"blocktune_advise_plateau_bytes_per_second"_qs + adv), 1000e6);
        QCOMPARE(sampleValue(m.out, u"blocktune_advise_raw_peak_bytes_per_second"_qs + adv), 1200e6);
        QCOMPARE(sampleValue(m.out, u"blocktune_advise_timestamp_seconds"_qs + adv), 1700000500.0);
        if (!promtool().isEmpty()) { // promtoolAcceptsEveryMachine fails without it
            const ProcessResult checked = run(promtool(), {u"check"_qs, u"metrics"_qs}, 60000, m.out);
            QVERIFY2(checked.exitCode == 0, QByteArray(checked.out + checked.err).constData());
        }
        // A recorded tree is another machine: this machine's history is not its.
        qputenv("BLOCKTUNE_HISTORY_DB", db.toLocal8Bit());
        const ProcessResult tree = cli({u"--sysroot"_qs, recordedTree("md-raid10-f2"), u"metrics"_qs});
        qunsetenv("BLOCKTUNE_HISTORY_DB");
        QVERIFY(!tree.out.contains("blocktune_read_test_bytes_per_second"));
    }

    void whatCannotBeReadIsCountedAndItsReasonSaid()
    {
        // A history that is not a database: the metrics still come, the
        // count says one more thing could not be read, stderr says what.
        QTemporaryDir dir;
        const QString db = dir.filePath(u"history.sqlite"_qs);
        QFile f(db);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(8192, 'x'));
        f.close();
        const ProcessResult clean = cli({u"metrics"_qs});
        qputenv("BLOCKTUNE_HISTORY_DB", db.toLocal8Bit());
        const ProcessResult m = cli({u"metrics"_qs});
        qunsetenv("BLOCKTUNE_HISTORY_DB");
        QCOMPARE(m.exitCode, 0);
        QVERIFY(m.out.contains("# TYPE blocktune_read_ahead_bytes gauge"));
        const auto errors = sampleValue(m.out, u"blocktune_metrics_errors"_qs);
        QVERIFY(errors.has_value());
        // One reason a line on stderr for each error counted.
        const qsizetype reasons = m.err.count("blocktune-cli: metrics: ");
        QCOMPARE(*errors, double(reasons));
        QVERIFY2(*errors > sampleValue(clean.out, u"blocktune_metrics_errors"_qs).value_or(-1), m.err.constData());
        QVERIFY2(m.err.contains(db.toUtf8()) || m.err.contains("history"), m.err.constData());
    }

    void theTimersServiceReadsRootsHistory()
    {
        // systemd gives a system service without User= no HOME: the unit
        // must say where root's history is, or the timer exports no read
        // test, sweep or advice. Run as the unit runs it (its Environment=
        // only), the CLI names root's history file.
        QFile unit(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/systemd/blocktune-metrics.service"));
        QVERIFY(unit.open(QIODevice::ReadOnly));
        QStringList env{u"PATH=/usr/sbin:/usr/bin:/sbin:/bin"_qs};
        QStringList writable;
        bool protectHome = false;
        for (const QByteArray &raw : unit.readAll().split('\n')) {
            const QString line = QString::fromUtf8(raw).trimmed();
            if (line.startsWith(u"Environment="_qs))
                env += line.mid(12).split(u' ', Qt::SkipEmptyParts);
            else if (line.startsWith(u"ReadWritePaths="_qs) || line.startsWith(u"BindPaths="_qs))
                for (const QString &p : line.section(u'=', 1).split(u' ', Qt::SkipEmptyParts))
                    writable << (p.startsWith(u'-') ? p.mid(1) : p);
            else if (line.startsWith(u"ProtectHome="_qs))
                protectHome = line.mid(12) != u"no"_qs && line.mid(12) != u"false"_qs;
        }
        const struct passwd *root = ::getpwuid(0);
        QVERIFY(root);
        const QString rootsHistory = QString::fromLocal8Bit(root->pw_dir) + u"/.local/share/blocktune/history.sqlite"_qs;
        const ProcessResult r = run(u"env"_qs, QStringList{u"-i"_qs} + env
                                                   + QStringList{binary("blocktune-cli"), u"history"_qs, u"--help"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(u"(%1;"_qs.arg(rootsHistory).toUtf8()), r.out.constData());
        // Reading takes SQLite's write lock: under ProtectHome its folder stays
        // writable (tst_metrics_unit reads it under the unit's restrictions).
        if (protectHome)
            QVERIFY2(writable.contains(QFileInfo(rootsHistory).path()), qPrintable(writable.join(u' ')));
    }

    void badInputIsRefusedAndNothingWritten()
    {
        QTemporaryDir dir;
        ProcessResult r = cli({u"metrics"_qs, u"--profile"_qs, u"no-such-profile"_qs, u"--textfile-dir"_qs, dir.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no-such-profile"), r.err.constData());
        QVERIFY(!QFile::exists(dir.filePath(u"blocktune.prom"_qs)));
        r = cli({u"metrics"_qs, u"--textfile-dir"_qs, dir.filePath(u"missing"_qs)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("not a directory"), r.err.constData());
        r = cli({u"metrics"_qs, u"--textfil"_qs, dir.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("did you mean --textfile-dir"), r.err.constData());
        r = cli({u"metrics"_qs, u"--textfile-dir"_qs, dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile::exists(dir.filePath(u"blocktune.prom"_qs)));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary left
    }

    void aFolderTheUserCannotWriteIsRefused()
    {
        // Root writes anywhere: the folder is refused to the user the
        // metrics run as, here nobody (setpriv), in a folder of root's.
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                                      | QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther
                                                      | QFile::ExeOther));
        const ProcessResult r = run(u"setpriv"_qs, {u"--reuid=65534"_qs, u"--regid=65534"_qs, u"--clear-groups"_qs,
                                                    u"env"_qs, u"HOME=/nonexistent"_qs, binary("blocktune-cli"),
                                                    u"metrics"_qs, u"--textfile-dir"_qs, dir.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QByteArray("--textfile-dir " + dir.path().toUtf8() + ": not writable by this user")),
                 r.err.constData());
        QVERIFY(r.out.isEmpty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
    }

    void theDocumentedPromqlAnswersAsTheDocsSay()
    {
        if (promtool().isEmpty())
            QFAIL("promtool is missing (apt-get install prometheus; scripts/bootstrap.sh)");
        const QStringList readme = promqlBlocks(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/README.md"), u"## Fleets"_qs);
        const QStringList fleets = promqlBlocks(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/docs/fleets.md"));
        // README: drifted readahead, md below its floor, setting against advice.
        QCOMPARE(readme.size(), 3);
        for (const QString &q : readme)
            QVERIFY2(fleets.contains(q), qPrintable(u"docs/fleets.md lacks README's query: "_qs + q));
        // Two hosts: a drifted and below its floor, advice twice its
        // readahead (the larger of two workloads counts); b as its profile
        // says, readahead twice the advice.
        const QString series = uR"(      - series: 'blocktune_profile_drift{instance="a",profile="p",device="md0",setting="read_ahead_kb"}'
        values: '1'
      - series: 'blocktune_profile_drift{instance="a",profile="p",device="md0",setting="scheduler"}'
        values: '1'
      - series: 'blocktune_profile_drift{instance="b",profile="p",device="md0",setting="read_ahead_kb"}'
        values: '0'
      - series: 'blocktune_read_ahead_bytes{instance="a",device="md0"}'
        values: '4194304'
      - series: 'blocktune_read_ahead_bytes{instance="b",device="md0"}'
        values: '8388608'
      - series: 'blocktune_read_ahead_floor_bytes{instance="a",device="md0"}'
        values: '8388608'
      - series: 'blocktune_read_ahead_floor_bytes{instance="b",device="md0"}'
        values: '8388608'
      - series: 'blocktune_advise_recommended_read_ahead_bytes{instance="a",device="md0",workload="seq"}'
        values: '8388608'
      - series: 'blocktune_advise_recommended_read_ahead_bytes{instance="a",device="md0",workload="concurrent:4"}'
        values: '2097152'
      - series: 'blocktune_advise_recommended_read_ahead_bytes{instance="b",device="md0",workload="seq"}'
        values: '4194304'
)"_qs;
        const QStringList expected{
            uR"(          - labels: '{instance="a"}'
            value: 1
)"_qs,
            uR"(          - labels: '{instance="a",device="md0"}'
            value: 4194304
)"_qs,
            uR"(          - labels: '{instance="a",device="md0"}'
            value: 0.5
          - labels: '{instance="b",device="md0"}'
            value: 2
)"_qs};
        QString tests = u"evaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n"_qs + series
                        + u"    promql_expr_test:\n"_qs;
        for (qsizetype i = 0; i < readme.size(); ++i)
            tests += u"      - expr: |\n"_qs + indented(readme.at(i), 10) + u"\n        eval_time: 0\n        exp_samples:\n"_qs
                     + expected.at(i);
        QTemporaryDir dir;
        QFile file(dir.filePath(u"docs_test.yml"_qs));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(tests.toUtf8());
        file.close();
        const ProcessResult evaluated = run(promtool(), {u"test"_qs, u"rules"_qs, file.fileName()});
        QVERIFY2(evaluated.exitCode == 0, QByteArray(evaluated.out + evaluated.err + tests.toUtf8()).constData());

        // Every query of docs/fleets.md parses (as a recording rule).
        QString rules = u"groups:\n  - name: docs\n    rules:\n"_qs;
        for (qsizetype i = 0; i < fleets.size(); ++i)
            rules += u"      - record: docs:query%1\n        expr: |\n"_qs.arg(i) + indented(fleets.at(i), 10) + u'\n';
        QFile rulesFile(dir.filePath(u"docs_rules.yml"_qs));
        QVERIFY(rulesFile.open(QIODevice::WriteOnly));
        rulesFile.write(rules.toUtf8());
        rulesFile.close();
        const ProcessResult checked = run(promtool(), {u"check"_qs, u"rules"_qs, rulesFile.fileName()});
        QVERIFY2(checked.exitCode == 0, QByteArray(checked.out + checked.err).constData());
    }

    void exportsKernelSettingsOfThisTree()
    {
        const ProcessResult r = cli({u"--sysroot"_qs, recordedTree("md-raid10-f2"), u"profile"_qs, u"export"_qs,
                                     u"backup-target"_qs, u"--format"_qs, u"kernel-settings"_qs});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("kernel names below are this host's"));
        QVERIFY(r.out.contains("kernel_settings_sysfs:\n"));
        // sdb's scheduler comes before its readahead (write order), paths as on the host.
        const qsizetype sched = r.out.indexOf("  - name: /sys/block/sdb/queue/scheduler\n");
        const qsizetype ra = r.out.indexOf("  - name: /sys/block/sdb/queue/read_ahead_kb\n    value: \"4096\"");
        QVERIFY2(sched >= 0 && ra > sched, r.out.constData());
        const ProcessResult bad = cli({u"profile"_qs, u"export"_qs, u"backup-target"_qs, u"--format"_qs, u"kernel"_qs});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("formats: udev, tuned, kernel-settings"));
    }
};

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
