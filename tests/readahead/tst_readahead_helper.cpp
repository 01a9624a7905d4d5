// The readahead probe through blocktune-helper's "readahead" op, the helper
// run directly (as pkexec starts it for a user who is not root): the
// stream's snapshots count a dd of the test's own loop device as the probe
// loaded in-process does, and the helper, with the probe, goes with the
// source. Root (the helper loads a BPF program).
#include "readaheadloop.h"

#include "readahead/helperreadahead.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStandardPaths>
#include <QTest>
#include <QThread>

using namespace blocktune;
using namespace blocktune::test;

namespace {

// The helpers started by this process that still run (their /proc/PID/stat
// names this process as the parent).
int helperChildren()
{
    int count = 0;
    const QString self = QString::number(::getpid());
    for (const QString &pid : QDir(u"/proc"_qs).entryList(QDir::Dirs)) {
        QFile stat(u"/proc/"_qs + pid + u"/stat"_qs);
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        // pid (comm) state ppid ...: comm may hold spaces, so after the last ')'.
        const QList<QByteArray> rest = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (text.contains("(blocktune-helpe") && rest.value(1) == self.toLatin1())
            ++count;
    }
    return count;
}

} // namespace

class TestReadaheadHelper : public QObject
{
    Q_OBJECT

private slots:
    void helperStreamCountsTheLoopsWindows()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (!ReadaheadProbe::builtIn()) {
            if (rootRequired())
                QFAIL("built without BPF support, and BLOCKTUNE_REQUIRE_ROOT=1 asks for every root test");
            QSKIP("built without BPF support (BLOCKTUNE_BPF off)");
        }
        ReadaheadLoop loop;
        QVERIFY(loop.isValid());
        const quint64 number = loop.number();
        QVERIFY(number != 0);
        constexpr int kIntervalMs = 100;
        auto source = startHelperReadaheadSource({binary("blocktune-helper")}, kIntervalMs);
        QVERIFY2(source, source ? "" : qPrintable(source.error().message));
        QCOMPARE(helperChildren(), 1);
        QCOMPARE((*source)->coverage().windows, u"tracepoints"_qs);
        QVERIFY(loop.dropCache());
        auto before = (*source)->snapshot();
        QVERIFY2(before, before ? "" : qPrintable(before.error().message));
        QVERIFY(loop.dd());
        // The helper's next tick is taken after the dd: wait for a snapshot
        // taken then (the source hands over the newest line).
        const qint64 doneMs = before->takenMs;
        QThread::msleep(3 * kIntervalMs);
        auto after = (*source)->snapshot();
        QVERIFY2(after, after ? "" : qPrintable(after.error().message));
        QVERIFY(after->takenMs > doneMs);
        const DeviceReadaheadCounters c = readaheadDelta(before->devices, after->devices).value(number);
        const ReadaheadKindCounters &async = c.of(ReadaheadKind::Async);
        qInfo("through blocktune-helper: %llu async windows, %llu sync", async.windows,
              c.of(ReadaheadKind::Sync).windows);
        QVERIFY2(async.windows >= 48 && async.windows <= 80, qPrintable(QString::number(async.windows)));
        const ReadaheadFigures all = readaheadFigures(c);
        QVERIFY(all.sizeP50KiB && all.sizeMaxKiB);
        QCOMPARE(*all.sizeP50KiB, ReadaheadLoop::kReadAheadKiB);
        QVERIFY(*all.sizeMaxKiB <= ReadaheadLoop::kReadAheadKiB);

        // Nothing stays loaded after: the helper ends with the source.
        source->reset();
        QElapsedTimer t;
        t.start();
        while (helperChildren() > 0 && t.elapsed() < 10000)
            QThread::msleep(50);
        QCOMPARE(helperChildren(), 0);
    }

    // blocktune-cli readahead run by a user (nobody, through setpriv) asks
    // blocktune-helper through pkexec (Machine::openReadaheadSource()), as
    // the console's latency histograms do, instead of loading the program
    // itself: without an authorization (no polkit agent here) it fails
    // naming the helper and pkexec's answer, exit 1.
    void aUserAsksTheHelper()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (QStandardPaths::findExecutable(u"setpriv"_qs).isEmpty())
            QSKIP("no setpriv (util-linux)");
        const ProcessResult r = run(u"setpriv"_qs, {u"--reuid=65534"_qs, u"--regid=65534"_qs, u"--clear-groups"_qs,
                                                   binary("blocktune-cli"), u"readahead"_qs, u"--duration"_qs, u"1s"_qs});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith("blocktune-cli: readahead cannot be observed: blocktune-helper could not be started: "),
                 r.err.constData());
        QVERIFY2(r.err.contains("pkexec"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // A helper that cannot be started says so, and so does a helper whose
    // program is refused (the test switch, passed on when run directly).
    void unavailableHelperSaysWhy()
    {
        auto missing = startHelperReadaheadSource({u"/nonexistent/blocktune-helper"_qs});
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.startsWith(u"readahead cannot be observed: blocktune-helper could not be started"_qs),
                 qPrintable(missing.error().message));
        qputenv("BLOCKTUNE_BPF_REFUSE", "1");
        auto refused = startHelperReadaheadSource({binary("blocktune-helper")});
        qunsetenv("BLOCKTUNE_BPF_REFUSE");
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.startsWith(u"readahead cannot be observed: blocktune-helper could not load its BPF program: "_qs),
                 qPrintable(refused.error().message));
        QCOMPARE(helperChildren(), 0);
    }
};

QTEST_GUILESS_MAIN(TestReadaheadHelper)
#include "tst_readahead_helper.moc"
