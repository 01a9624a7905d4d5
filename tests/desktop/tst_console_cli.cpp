// The console's command line on a terminal without a display: --help and
// --version answer (translated) instead of aborting for want of an X
// server; the CLI's text stays English under any LANG.
#include "testsupport.h"

#include <QProcessEnvironment>
#include <QTest>

using namespace blocktune::test;

namespace {

/// Runs `program` with no display at all: no DISPLAY, WAYLAND_DISPLAY or
/// QT_QPA_PLATFORM (ctest sets offscreen for the other tests), LANG as given.
ProcessResult runWithoutDisplay(const QString &program, const QStringList &args, const QString &lang)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "LANGUAGE", "LC_ALL", "LC_MESSAGES"})
        env.remove(QString::fromLatin1(name));
    env.insert(QStringLiteral("LANG"), lang);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.err = "did not run or finish";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace

class TestConsoleCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void helpWithoutDisplay()
    {
        const ProcessResult r = runWithoutDisplay(binary("blocktune"), {QStringLiteral("--help")}, QStringLiteral("C.UTF-8"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(u"Linux block-device tuning console"), qPrintable(out));
        QVERIFY2(out.contains(u"--sysroot <DIR>") && out.contains(u"--tab <TAB>"), qPrintable(out));
    }

    void helpInGerman()
    {
        const ProcessResult r = runWithoutDisplay(binary("blocktune"), {QStringLiteral("--help")},
                                                  QStringLiteral("de_DE.UTF-8"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(u"Tuning-Konsole für Linux-Blockgeräte"), qPrintable(out));
        QVERIFY2(out.contains(u"--sysroot <VERZ>"), qPrintable(out));
        // QCommandLineParser's own words come from Qt's qtbase_de.qm.
        QVERIFY2(out.contains(u"Optionen:"), qPrintable(out));
    }

    void versionWithoutDisplay()
    {
        const ProcessResult r = runWithoutDisplay(binary("blocktune"), {QStringLiteral("--version")},
                                                  QStringLiteral("de_DE.UTF-8"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QString::fromUtf8(r.out).trimmed(), QStringLiteral("blocktune " BLOCKTUNE_VERSION));
    }

    // A mistake is reported on the terminal too, not as a display failure.
    void unknownOptionWithoutDisplay()
    {
        const ProcessResult r = runWithoutDisplay(binary("blocktune"), {QStringLiteral("--bogus")},
                                                  QStringLiteral("C.UTF-8"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("bogus") && !r.err.contains("display"), r.err.constData());
    }

    // Mistakes QCommandLineParser cannot see (an unknown tab, a tree that is
    // none) are checked before any window is thought of: they once aborted
    // in Qt's xcb plugin (rc 134) without a display.
    void badArgumentsWithoutDisplay_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("says");
        QTest::newRow("--tab foo") << QStringList{QStringLiteral("--tab"), QStringLiteral("foo")}
                                   << QStringLiteral("C.UTF-8") << QStringLiteral("--tab foo: unknown tab (use settings");
        QTest::newRow("--tab foo, German") << QStringList{QStringLiteral("--tab"), QStringLiteral("foo")}
                                           << QStringLiteral("de_DE.UTF-8") << QStringLiteral("--tab foo: unbekannter");
        QTest::newRow("--sysroot /nonexistent")
            << QStringList{QStringLiteral("--sysroot"), QStringLiteral("/nonexistent")} << QStringLiteral("C.UTF-8")
            << QStringLiteral("--sysroot /nonexistent");
        QTest::newRow("--ssh-option without --host")
            << QStringList{QStringLiteral("--ssh-option"), QStringLiteral("Port=22")} << QStringLiteral("C.UTF-8")
            << QStringLiteral("go with --host HOST");
    }

    void badArgumentsWithoutDisplay()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, lang);
        QFETCH(QString, says);
        const ProcessResult r = runWithoutDisplay(binary("blocktune"), args, lang);
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("rc %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith(u"blocktune: ") && err.contains(says), qPrintable(err));
        QVERIFY2(!err.contains(u"xcb") && !err.contains(u"platform plugin"), qPrintable(err));
    }

    // Good arguments and no display: a sentence, not an abort in the xcb plugin.
    void noDisplayIsSaid()
    {
        const ProcessResult r = runWithoutDisplay(binary("blocktune"),
                                                  {QStringLiteral("--sysroot"), recordedTree("md-raid10-f2")},
                                                  QStringLiteral("C.UTF-8"));
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("rc %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        QVERIFY2(r.err.contains("no display") && r.err.contains("blocktune-cli"), r.err.constData());
        QVERIFY2(!r.err.contains("xcb"), r.err.constData());
    }

    // Decided and documented (docs/cli.md, and docs/guide.md "Languages"): blocktune-cli prints
    // English with C numbers whatever LANG says, like its --json.
    void cliTextIgnoresLang()
    {
        const QStringList args{QStringLiteral("--sysroot"), recordedTree("md-raid10-f2"), QStringLiteral("get"),
                               QStringLiteral("md0")};
        const ProcessResult c = runWithoutDisplay(binary("blocktune-cli"), args, QStringLiteral("C.UTF-8"));
        const ProcessResult de = runWithoutDisplay(binary("blocktune-cli"), args, QStringLiteral("de_DE.UTF-8"));
        QVERIFY2(c.exitCode == 0, c.err.constData());
        QCOMPARE(de.exitCode, c.exitCode);
        QCOMPARE(de.out, c.out);
        const ProcessResult bad = runWithoutDisplay(binary("blocktune-cli"),
                                                    {QStringLiteral("--sysroot"), recordedTree("md-raid10-f2"),
                                                     QStringLiteral("get"), QStringLiteral("nosuchdisk")},
                                                    QStringLiteral("de_DE.UTF-8"));
        QVERIFY(bad.exitCode != 0);
        QVERIFY2(bad.err.contains("no block device named"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestConsoleCli)
#include "tst_console_cli.moc"
