// blocktune-metrics.service (resources/systemd/) against two referees.
// 1. systemd-analyze security --offline=true (systemd 252 reads the unit file;
//    no systemd as PID 1 needed) scores it below 5, with the settings a
//    read-only collector allows in force.
// 2. The unit's ExecStart, run under the restrictions of the unit that can be
//    imposed without systemd (this VM and CI have no systemd as PID 1, so the
//    unit itself cannot be started), still writes the textfile node_exporter
//    reads, with the history's figures. tests/metrics/unit-sandbox.py reads
//    the unit and imposes, as the unit says: a read-only root with only the
//    unit's ReadWritePaths/BindPaths writable (bound from this test's
//    folders, never the real ones), empty /home and /root, private /tmp and
//    /dev, a network namespace, every capability and the bounding set
//    dropped, no_new_privs, the Environment=, UMask=, MemoryDenyWriteExecute=
//    (PR_SET_MDWE), SystemCallFilter= (expanded by systemd-analyze
//    syscall-filter, loaded with libseccomp) and RestrictAddressFamilies=.
//    NOT exercised (systemd alone does them): ProtectKernelTunables/Modules/
//    Logs, ProtectControlGroups, ProtectClock, ProtectHostname, ProtectProc,
//    RestrictNamespaces, RestrictRealtime, RestrictSUIDSGID, LockPersonality,
//    IPAddressDeny, DevicePolicy, PrivateMounts, Nice, IOSchedulingClass,
//    ConditionPathIsDirectory, the timer. A probe run in the same sandbox
//    shows each imposed restriction really is in force (root: namespaces).
#include "history/history.h"
#include "readahead/readahead.h"
#include "testsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

const QString kUnit = QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/systemd/blocktune-metrics.service");
const QString kSandbox = QStringLiteral(BLOCKTUNE_SOURCE_DIR "/tests/metrics/unit-sandbox.py");
const QString kTextfileDir = QStringLiteral("/var/lib/prometheus/node-exporter");
const QString kReadaheadUnit = QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/systemd/blocktune-readahead.service");

QString missingTool()
{
    for (const char *tool : {"bwrap", "systemd-analyze"})
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
            return QStringLiteral("%1 is missing (scripts/bootstrap.sh installs bubblewrap and systemd)").arg(QString::fromLatin1(tool));
    if (run(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import seccomp")}).exitCode != 0)
        return QStringLiteral("python3-seccomp is missing (scripts/bootstrap.sh)");
    return {};
}

} // namespace

class TestMetricsUnit : public QObject
{
    Q_OBJECT

    QTemporaryDir m_work;

    /// The sandboxed run: the textfile folder and root's history folder are
    /// this test's; extra: --probe.
    ProcessResult sandboxed(const QStringList &extra = {})
    {
        return run(QStringLiteral("/usr/bin/python3"),
                   QStringList{kSandbox, kUnit, QStringLiteral("--program"), binary("blocktune-cli"),
                               QStringLiteral("--bind"), textfileDir() + u':' + kTextfileDir, QStringLiteral("--bind"),
                               historyDir() + QStringLiteral(":/root/.local/share/blocktune")}
                       + extra,
                   120000);
    }
    QString textfileDir() const { return m_work.filePath(QStringLiteral("textfile")); }
    QString historyDir() const { return m_work.filePath(QStringLiteral("history")); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QDir().mkpath(textfileDir()));
        QVERIFY(QDir().mkpath(historyDir()));
    }

    void securityExposureIsBelowFive()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("systemd-analyze")).isEmpty())
            QFAIL("systemd-analyze is missing (apt-get install systemd)");
        const ProcessResult text = run(QStringLiteral("systemd-analyze"),
                                       {QStringLiteral("security"), QStringLiteral("--offline=true"), QStringLiteral("--no-pager"), kUnit});
        static const QRegularExpression overall(QStringLiteral("Overall exposure level for blocktune-metrics\\.service: ([0-9.]+) (\\w+)"));
        const auto m = overall.match(QString::fromUtf8(text.out + text.err));
        QVERIFY2(m.hasMatch(), QByteArray(text.out + text.err).constData());
        const double score = m.captured(1).toDouble();
        qInfo("systemd-analyze security --offline=true: %s %s", qPrintable(m.captured(1)), qPrintable(m.captured(2)));
        QVERIFY2(score < 5.0, qPrintable(m.captured(0)));
        // systemd-analyze's own gate agrees (its threshold is 10 x the level).
        QCOMPARE(run(QStringLiteral("systemd-analyze"), {QStringLiteral("security"), QStringLiteral("--offline=true"),
                                                         QStringLiteral("--threshold=49"), kUnit}).exitCode, 0);

        // What a read-only collector must not have, each named.
        const ProcessResult json = run(QStringLiteral("systemd-analyze"),
                                       {QStringLiteral("security"), QStringLiteral("--offline=true"),
                                        QStringLiteral("--json=short"), kUnit});
        QHash<QString, bool> set;
        for (const QJsonValue &v : QJsonDocument::fromJson(json.out).array())
            set.insert(v[u"name"].toString(), v[u"set"].toBool());
        for (const char *name : {"PrivateNetwork=", "RestrictAddressFamilies=~AF_(INET|INET6)",
                                 "RestrictAddressFamilies=~AF_PACKET", "RestrictAddressFamilies=~AF_NETLINK",
                                 "NoNewPrivileges=", "CapabilityBoundingSet=~CAP_SYS_ADMIN",
                                 "CapabilityBoundingSet=~CAP_(DAC_*|FOWNER|IPC_OWNER)", "PrivateTmp=", "ProtectSystem=",
                                 "SystemCallFilter=~@privileged", "MemoryDenyWriteExecute=", "ProtectKernelTunables="}) {
            QVERIFY2(set.contains(QString::fromLatin1(name)), name);
            QVERIFY2(set.value(QString::fromLatin1(name)), name);
        }
    }

    void theSandboxImposesWhatTheUnitSays()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (const QString why = missingTool(); !why.isEmpty())
            QFAIL(qPrintable(why));
        const ProcessResult r = sandboxed({QStringLiteral("--probe")});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QString out = QString::fromUtf8(r.out);
        for (const char *line : {"CapEff: 0000000000000000", "CapPrm: 0000000000000000", "CapBnd: 0000000000000000",
                                 "NoNewPrivs: 1", "umask: 077", "home entries: 0", "net interfaces: lo\n",
                                 "write /etc: refused (EROFS)", "write /var/lib/prometheus/node-exporter: allowed",
                                 "socket AF_INET: refused", "socket AF_NETLINK: refused", "socket AF_UNIX: allowed",
                                 "mmap write+exec: refused", "mount (@privileged): refused",
                                 "setpriority (@resources): refused"})
            QVERIFY2(out.contains(QString::fromLatin1(line)), qPrintable(QString::fromLatin1(line) + u"\n" + out));
        // The probe wrote into this test's folder, not the real one.
        QVERIFY(QDir(textfileDir()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    void theExecStartStillWritesTheTextfile()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (const QString why = missingTool(); !why.isEmpty())
            QFAIL(qPrintable(why));
        if (!QFileInfo(kTextfileDir).isDir())
            QFAIL("/var/lib/prometheus/node-exporter is missing: the unit's ReadWritePaths (apt-get install "
                  "prometheus-node-exporter; scripts/bootstrap.sh)");
        // Root's history, as the unit finds it through HOME=/root: one read test.
        HistoryRecord rec;
        rec.recordedAt = QDateTime::fromMSecsSinceEpoch(1796530829716, Qt::UTC);
        rec.source = QStringLiteral("cli");
        rec.kind = QStringLiteral("test");
        rec.test = QStringLiteral("seq");
        rec.device = QStringLiteral("unitdev0");
        rec.mbPerSec = 250.0;
        rec.ok = true;
        rec.result = QJsonObject{{QStringLiteral("mean_mb_per_s"), 250.0}};
        QVERIFY(HistoryStore(historyDir() + QStringLiteral("/history.sqlite")).add(rec));

        const ProcessResult r = sandboxed();
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QString prom = textfileDir() + QStringLiteral("/blocktune.prom");
        QFile f(prom);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(prom));
        const QByteArray text = f.readAll();
        QVERIFY2(text.contains("# TYPE blocktune_read_ahead_bytes gauge\nblocktune_read_ahead_bytes{device=\""),
                 text.left(600).constData());
        QVERIFY(text.contains("\nblocktune_build_info{version=\"" BLOCKTUNE_VERSION "\""));
        QVERIFY2(text.contains("\nblocktune_read_test_bytes_per_second{device=\"unitdev0\",test=\"seq\"} 250000000\n"),
                 text.constData());
        QVERIFY(text.contains("\nblocktune_read_test_timestamp_seconds{device=\"unitdev0\",test=\"seq\"} 1796530829.716\n"));
        // Nothing it reads was out of its reach: no error counted, none said.
        QVERIFY2(text.contains("\nblocktune_metrics_errors 0\n"), r.err.constData());
        // node_exporter's user reads it, whatever the unit's UMask=0077.
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(prom).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0644));
        QCOMPARE(QDir(textfileDir()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporary left
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        if (!promtool.isEmpty()) {
            const ProcessResult checked = run(promtool, {QStringLiteral("check"), QStringLiteral("metrics")}, 60000, text);
            QVERIFY2(checked.exitCode == 0, QByteArray(checked.out + checked.err).constData());
        }
    }

    // blocktune-readahead.service keeps the readahead probe loaded: its
    // exposure, and its ExecStart in its sandbox (root with CAP_BPF and
    // CAP_PERFMON only, @system-service and bpf, no W+X memory, a read-only
    // tree) loads the probe and writes its textfile.
    void readaheadUnitLoadsTheProbeInItsSandbox()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("systemd-analyze")).isEmpty())
            QFAIL("systemd-analyze is missing (apt-get install systemd)");
        const ProcessResult text = run(QStringLiteral("systemd-analyze"), {QStringLiteral("security"), QStringLiteral("--offline=true"),
                                                                          QStringLiteral("--no-pager"), kReadaheadUnit});
        static const QRegularExpression overall(QStringLiteral("Overall exposure level for blocktune-readahead\\.service: ([0-9.]+)"));
        const auto m = overall.match(QString::fromUtf8(text.out + text.err));
        QVERIFY2(m.hasMatch(), QByteArray(text.out + text.err).constData());
        qInfo("blocktune-readahead.service: systemd-analyze security --offline=true: %s", qPrintable(m.captured(1)));
        QVERIFY2(m.captured(1).toDouble() < 5.0, qPrintable(m.captured(0)));

        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (const QString why = missingTool(); !why.isEmpty())
            QFAIL(qPrintable(why));
        if (!ReadaheadProbe::builtIn())
            QSKIP("built without BPF support (BLOCKTUNE_BPF off)");
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        QProcess unit;
        unit.setProcessChannelMode(QProcess::MergedChannels);
        unit.start(QStringLiteral("/usr/bin/python3"),
                   {kSandbox, kReadaheadUnit, QStringLiteral("--program"), binary("blocktune-cli"), QStringLiteral("--bind"),
                    folder.path() + u':' + kTextfileDir});
        QVERIFY(unit.waitForStarted());
        const QString prom = folder.filePath(QStringLiteral("blocktune-readahead.prom"));
        // Written once the probe is loaded (the first of every 15 s).
        for (int i = 0; i < 600 && !QFileInfo::exists(prom); ++i)
            if (unit.waitForFinished(100)) // it stopped: the probe did not load
                break;
        const bool written = QFileInfo::exists(prom);
        // SIGKILL to the sandbox's python: bubblewrap and the CLI die with it (--die-with-parent).
        unit.kill();
        unit.waitForFinished();
        QVERIFY2(written, unit.readAll().constData());
        QFile f(prom);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray content = f.readAll();
        QVERIFY2(content.contains("# TYPE blocktune_readahead_dropped_events_total counter\n"), content.constData());
    }
};

QTEST_GUILESS_MAIN(TestMetricsUnit)
#include "tst_metrics_unit.moc"
