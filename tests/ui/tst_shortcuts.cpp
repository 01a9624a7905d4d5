// The console's keyboard shortcuts with real key events (QTest::keyClick on
// the window goes through Qt's shortcut map as a key press from the X
// server does), on a real X server without a window manager: Xvfb, as a
// kiosk, a bare X session or a CI runner has it. There nobody gives a new
// window the keyboard, X keeps its PointerRoot focus, Qt's xcb plugin does
// not count that as focus, the window never became active, and Alt+1..8,
// Alt+D and Ctrl+L did nothing. Run by ctest under offscreen, the test
// starts itself again under xvfb-run with the xcb platform.
#include "mainwindow.h"
#include "devicetree.h"
#include "testsupport.h"

#include <QApplication>
#include <QProcess>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

#include <cstdio>

using namespace blocktune;
using namespace blocktune::test;

class TestShortcuts : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

private Q_SLOTS:
    void initTestCase()
    {
        keepConsoleStateIn(m_home);
        qInfo("platform %s", qPrintable(QGuiApplication::platformName()));
    }

    // Without a window manager the first window asks for the keyboard itself.
    void firstWindowBecomesActive()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(QTest::qWaitForWindowActive(&window, 5000),
                 "the console's window never became active: no shortcut can work");
    }

    void altNumberSwitchesTabs()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window, 5000));
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        for (int i = 8; i >= 1; --i) {
            QTest::keyClick(&window, Qt::Key(Qt::Key_0 + i), Qt::AltModifier);
            QTRY_COMPARE_WITH_TIMEOUT(window.tabs()->currentIndex(), i - 1, 30000);
        }
        // Ctrl+Tab and Ctrl+Shift+Tab from anywhere.
        QTest::keyClick(&window, Qt::Key_Tab, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(window.tabs()->currentIndex(), 1, 30000);
        QTest::keyClick(&window, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE_WITH_TIMEOUT(window.tabs()->currentIndex(), 0, 30000);
    }

    void altDAndCtrlLGoToTheDeviceList()
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window, 5000));
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        for (const QKeyCombination &keys : {QKeyCombination(Qt::AltModifier, Qt::Key_D),
                                            QKeyCombination(Qt::ControlModifier, Qt::Key_L)}) {
            window.tabs()->setFocus();
            QTRY_VERIFY_WITH_TIMEOUT(window.tabs()->hasFocus() || window.tabs()->isAncestorOf(QApplication::focusWidget()),
                                     2000);
            QTest::keyClick(&window, keys.key(), keys.keyboardModifiers());
            QTRY_VERIFY2_WITH_TIMEOUT(QApplication::focusWidget() == window.deviceTree()
                                          || window.deviceTree()->isAncestorOf(QApplication::focusWidget()),
                                      qPrintable(QKeySequence(keys).toString()), 30000);
        }
    }
};

int main(int argc, char **argv)
{
    // Under ctest (offscreen): again, on a real X server with no window
    // manager, unless that is where we are.
    if (qEnvironmentVariable("QT_QPA_PLATFORM") != u"xcb"_qs) {
        const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("xvfb-run"));
        if (xvfb.isEmpty()) {
            std::fprintf(stderr, "tst_shortcuts: needs xvfb-run (apt-get install xvfb)\n");
            return 1;
        }
        QStringList args{QStringLiteral("-a"), QStringLiteral("-s"), QStringLiteral("-screen 0 1600x1000x24"),
                         QString::fromLocal8Bit(argv[0])};
        for (int i = 1; i < argc; ++i)
            args << QString::fromLocal8Bit(argv[i]);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::ForwardedChannels);
        p.start(xvfb, args);
        if (!p.waitForStarted(10000) || !p.waitForFinished(300000))
            return 1;
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : 1;
    }
    QApplication app(argc, argv);
    TestShortcuts test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_shortcuts.moc"
