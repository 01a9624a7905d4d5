// `blocktune --demo` as a user starts it: the console makes a 1 GiB
// direct-I/O loop device over an unlinked file, selects it, and the device
// is gone once the console ends: closed by SIGTERM, or killed with -9.
#include "testsupport.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTest>

#include <csignal>

using namespace blocktune::test;

namespace {

QString sysfs(const QString &device, const char *relative)
{
    QFile f(QStringLiteral("/sys/block/%1/%2").arg(device, QString::fromLatin1(relative)));
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

bool attached(const QString &device)
{
    return QFile::exists(QStringLiteral("/sys/block/%1/loop/backing_file").arg(device));
}

/// Starts the console with --demo and waits until it names its device.
QString startDemo(QProcess &console, const QTemporaryDir &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
    env.insert(QStringLiteral("BLOCKTUNE_JOURNAL_DIR"), home.path());
    console.setProcessEnvironment(env);
    console.start(binary("blocktune"), {QStringLiteral("--demo"), QStringLiteral("--tab"), QStringLiteral("details")});
    static const QRegularExpression named(QStringLiteral("demo device (loop\\d+)"));
    QByteArray out;
    QString device;
    (void)QTest::qWaitFor([&] {
        out += console.readAllStandardOutput();
        const auto m = named.match(QString::fromLocal8Bit(out));
        if (m.hasMatch())
            device = m.captured(1);
        return !device.isEmpty() || console.state() == QProcess::NotRunning;
    }, 120000);
    return device;
}

} // namespace

class TestConsoleDemo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void demoDeviceGoesWithTheConsole_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("kill -9") << int(SIGKILL);
    }
    void demoDeviceGoesWithTheConsole()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        QFETCH(int, signal);
        QTemporaryDir home;
        QProcess console;
        const QString device = startDemo(console, home);
        QVERIFY2(!device.isEmpty(), console.readAllStandardError().constData());
        QVERIFY(attached(device));
        QCOMPARE(sysfs(device, "loop/dio"), QStringLiteral("1"));
        QCOMPARE(sysfs(device, "size"), QString::number((quint64(1) << 30) / 512));
        // No file is left to clean up: the loop holds an unlinked one.
        const QString backing = sysfs(device, "loop/backing_file");
        QVERIFY2(backing.endsWith(QStringLiteral("(deleted)")), qPrintable(backing));

        QVERIFY2(signalProcess(console, signal), "it had ended before the signal");
        QVERIFY(console.waitForFinished(30000));
        if (signal == SIGTERM) {
            QCOMPARE(console.exitStatus(), QProcess::NormalExit); // closed as the window's button would
        }
        // Gone: the device no longer holds the demo's file. (Its name is
        // free for anyone then: others attach loops on this machine.)
        QVERIFY2(QTest::qWaitFor([&] { return sysfs(device, "loop/backing_file") != backing; }, 30000),
                 qPrintable(device + u" still holds "_qs + backing));
    }
};

QTEST_MAIN(TestConsoleDemo)
#include "tst_consoledemo.moc"
