// The textfile road with the real reader: a prometheus-node-exporter started
// here on 127.0.0.1 at a free port, reading only the textfile collector from
// this test's folder, serves blocktune_read_ahead_bytes of this test's loop
// device with the value sysfs holds, and follows a `set` once `metrics
// --textfile-dir` runs again. A reader looping on the file while it is
// rewritten 100 times never sees a partial file (root: loop devices).
#include "common/sysroot.h"
#include "testloop.h"
#include "privatesshd.h"
#include "testsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

/// node_exporter on 127.0.0.1, stopped in the destructor on every path.
class NodeExporter final
{
public:
    NodeExporter() = default;
    ~NodeExporter()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(5000))
            m_process.kill();
        m_process.waitForFinished();
    }
    Q_DISABLE_COPY_MOVE(NodeExporter)

    QString start(const QString &textfileDir)
    {
        const QString program = QStandardPaths::findExecutable(QStringLiteral("prometheus-node-exporter"));
        if (program.isEmpty())
            return QStringLiteral("prometheus-node-exporter is missing (scripts/bootstrap.sh installs it)");
        m_port = freeLoopbackPort();
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(program, {QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_port),
                                  QStringLiteral("--collector.disable-defaults"), QStringLiteral("--collector.textfile"),
                                  QStringLiteral("--collector.textfile.directory=") + textfileDir,
                                  QStringLiteral("--log.level=warn")});
        if (!m_process.waitForStarted(10000))
            return QStringLiteral("node_exporter did not start");
        for (int i = 0; i < 100; ++i) {
            if (scrape().contains("node_textfile_scrape_error"))
                return {};
            QThread::msleep(100);
        }
        return QStringLiteral("node_exporter never answered on port %1").arg(m_port);
    }

    QByteArray scrape() const
    {
        const ProcessResult r = run(QFileInfo::exists(QStringLiteral("/usr/bin/python3")) ? QStringLiteral("/usr/bin/python3") : QStringLiteral("python3"),
                                    {QStringLiteral("-c"),
                                     QStringLiteral("import sys,urllib.request;"
                                                    "sys.stdout.write(urllib.request.urlopen("
                                                    "'http://127.0.0.1:%1/metrics', timeout=5).read().decode())")
                                         .arg(m_port)},
                                    20000);
        return r.exitCode == 0 ? r.out : QByteArray();
    }

private:
    QProcess m_process;
    int m_port = -1;
};

std::optional<double> sampleValue(const QByteArray &text, const QByteArray &nameAndLabels)
{
    const QByteArray prefix = QByteArray(nameAndLabels + ' ');
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).toDouble();
    return std::nullopt;
}

ProcessResult cli(const QStringList &args)
{
    return run(binary("blocktune-cli"), args);
}

} // namespace

class TestMetricsTextfile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nodeExporterServesTheSysfsValueAndFollowsASet()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        TestLoop loop(16 << 20, knownContents());
        QVERIFY(loop.isValid());
        QTemporaryDir dir;
        ProcessResult m = cli({QStringLiteral("metrics"), QStringLiteral("--textfile-dir"), dir.path()});
        QVERIFY2(m.exitCode == 0, m.err.constData());
        NodeExporter exporter;
        const QString started = exporter.start(dir.path());
        QVERIFY2(started.isEmpty(), qPrintable(started));

        const QByteArray series = "blocktune_read_ahead_bytes{device=\"" + loop.name().toLatin1() + "\"}";
        QByteArray served = exporter.scrape();
        QCOMPARE(sampleValue(served, "node_textfile_scrape_error"), 0.0);
        QCOMPARE(sampleValue(served, series), double(readAhead(loop.name()) * 1024));
        QCOMPARE(readAhead(loop.name()), quint64(128));

        m = cli({QStringLiteral("set"), loop.name(), QStringLiteral("read_ahead_kb=4096")});
        QVERIFY2(m.exitCode == 0, m.err.constData());
        QCOMPARE(readAhead(loop.name()), quint64(4096));
        QCOMPARE(sampleValue(exporter.scrape(), series), 128.0 * 1024); // the old file until metrics runs
        m = cli({QStringLiteral("metrics"), QStringLiteral("--textfile-dir"), dir.path()});
        QCOMPARE(m.exitCode, 0);
        served = exporter.scrape();
        QCOMPARE(sampleValue(served, series), 4096.0 * 1024);
        QCOMPARE(sampleValue(served, "node_textfile_scrape_error"), 0.0);
    }

    void aReaderNeverSeesAPartialFile()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("blocktune.prom"));
        QVERIFY(cli({QStringLiteral("metrics"), QStringLiteral("--textfile-dir"), dir.path()}).exitCode == 0);
        std::atomic_bool stop{false};
        std::atomic_int reads{0};
        std::atomic_int partial{0};
        QByteArray firstBad;
        std::thread reader([&] {
            while (!stop.load()) {
                QFile f(file);
                if (!f.open(QIODevice::ReadOnly)) {
                    partial.fetch_add(1); // the name must always lead to a whole file
                    continue;
                }
                const QByteArray text = f.readAll();
                reads.fetch_add(1);
                // Whole: starts with the first HELP and ends with the last family's sample.
                const qsizetype last = text.lastIndexOf("\nblocktune_metrics_errors ");
                if (!text.startsWith("# HELP ") || last < 0 || !text.endsWith('\n')
                    || text.indexOf('\n', last + 1) != text.size() - 1) {
                    if (partial.fetch_add(1) == 0)
                        firstBad = text;
                }
            }
        });
        for (int i = 0; i < 100; ++i)
            QVERIFY(cli({QStringLiteral("metrics"), QStringLiteral("--textfile-dir"), dir.path()}).exitCode == 0);
        stop = true;
        reader.join();
        QVERIFY2(reads.load() > 100, qPrintable(QString::number(reads.load())));
        QVERIFY2(partial.load() == 0, firstBad.right(200).constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestMetricsTextfile)
#include "tst_metrics_textfile.moc"
