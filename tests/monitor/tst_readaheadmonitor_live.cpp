// blocktune-cli monitor --readahead on the live kernel (root), on a buffered
// loop device of its own at read_ahead_kb 1024: a dd of its 64 MiB while the
// monitor ticks shows in the ticks' "readahead" objects (the async windows
// added up over the ticks are about 64 MiB / 1 MiB, nearly all at the cap,
// and a busy tick's window p50 is the cap), every tick names the device's
// cap, and the table adds a readahead row for the device.
#include "readahead/readahead.h"
#include "readaheadloop.h"
#include "testloop.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

constexpr quint64 kReadAheadKiB = ReadaheadLoop::kReadAheadKiB;

} // namespace

class TestReadaheadMonitorLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ddShowsInTheTicksReadahead()
    {
        REQUIRE_ROOT_AND_BPF();
        ReadaheadLoop loop;
        QVERIFY(loop.isValid());
        QVERIFY(dropCache(loop.path()));
        const QString name = loop.name();
        // Until Ctrl-C: the ticks are waited for, however long loading the
        // probe and dd take on a busy machine (a fixed --duration raced them).
        QProcess cli;
        cli.start(binary("blocktune-cli"), {u"monitor"_qs, name, u"--readahead"_qs, u"--json"_qs, u"--interval"_qs,
                                            u"250ms"_qs});
        QVERIFY(cli.waitForStarted());
        auto stop = qScopeGuard([&cli] {
            cli.kill();
            cli.waitForFinished();
        });
        QByteArray out;
        const auto linesAtLeast = [&cli, &out](qsizetype n) {
            return QTest::qWaitFor(
                [&] {
                    cli.waitForReadyRead(100);
                    out += cli.readAllStandardOutput();
                    return out.count('\n') >= n || cli.state() != QProcess::Running;
                },
                180000) && out.count('\n') >= n;
        };
        // Two ticks: the probe is loaded and has its first snapshot.
        QVERIFY2(linesAtLeast(2), cli.readAllStandardError().constData());
        const ProcessResult dd = run(QStringLiteral("dd"), {u"if="_qs + loop.path(), u"of=/dev/null"_qs,
                                                             u"bs=64K"_qs, u"status=none"_qs});
        QCOMPARE(dd.exitCode, 0);
        // Two more: the second's snapshot was taken after dd ended.
        QVERIFY2(linesAtLeast(out.count('\n') + 2), cli.readAllStandardError().constData());
        QVERIFY2(signalProcess(cli, SIGINT), "it had ended before the signal");
        QVERIFY2(cli.waitForFinished(180000), "monitor did not end in 3 minutes after Ctrl-C");
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 0);
        out += cli.readAllStandardOutput();

        qint64 async = 0, atCap = 0, ticks = 0;
        for (const QByteArray &line : out.trimmed().split('\n')) {
            const QJsonObject device = QJsonDocument::fromJson(line).object()[u"devices"_qs].toObject()[name].toObject();
            QVERIFY2(device.contains(u"read_bytes"_qs), line.constData());
            if (++ticks == 1)
                continue; // the probe's first snapshot: nothing to count yet
            const QJsonObject ra = device[u"readahead"_qs].toObject();
            QVERIFY2(!ra.isEmpty(), line.constData()); // named: every tick has it
            QCOMPARE(ra[u"read_ahead_kb"_qs].toInteger(), qint64(kReadAheadKiB));
            const qint64 windows = ra[u"windows"_qs].toObject()[u"async"_qs].toInteger();
            async += windows;
            atCap += ra[u"at_cap"_qs].toInteger();
            // A tick of many windows is past the window's growth (a slow
            // machine may have none: dd spread over more ticks).
            if (windows >= 8)
                QCOMPARE(ra[u"window_kib"_qs].toObject()[u"p50"_qs].toInteger(), qint64(kReadAheadKiB));
        }
        // 64 MiB in 1 MiB windows once the window has grown (tst_readahead_live: 48 to 80).
        QVERIFY2(async >= 48 && async <= 80, qPrintable(QString::number(async)));
        // Nearly all of them at the cap (the windows grow to it in the first few).
        QVERIFY2(atCap >= 40, qPrintable(QString::number(atCap)));
        QVERIFY2(ticks >= 4, qPrintable(QString::number(ticks)));
    }

    void theTableAddsAReadaheadRow()
    {
        REQUIRE_ROOT_AND_BPF();
        ReadaheadLoop loop;
        QVERIFY(loop.isValid());
        const ProcessResult r = run(binary("blocktune-cli"), {u"monitor"_qs, loop.name(), u"--readahead"_qs,
                                                              u"--interval"_qs, u"200ms"_qs, u"--count"_qs, u"2"_qs},
                                    60000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(u"Readahead (windows/s by kind; KiB; pages this tick; wait p50 in ms)"_qs), r.out.constData());
        QVERIFY2(out.contains(u"sync/s   async/s    mmap/s  forced/s  size-p50     ra-kb"_qs), r.out.constData());
        // The second tick: loop idle, its cap 1024.
        const QStringList rows = out.split(u'\n');
        bool found = false;
        for (qsizetype i = 0; i + 1 < rows.size(); ++i)
            if (rows[i].contains(u"forced/s"_qs) && rows[i + 1].startsWith(loop.name())) {
                const QStringList cells = rows[i + 1].simplified().split(u' ');
                found = cells.size() == 12 && cells[5] == u"-" && cells[6] == u"1024";
            }
        QVERIFY2(found, r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestReadaheadMonitorLive)
#include "tst_readaheadmonitor_live.moc"
