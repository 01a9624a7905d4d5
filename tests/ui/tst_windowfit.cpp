// The first window fits the screen it opens on: at most 90% of the
// available area, the saved geometry only where it still fits; and the
// console (the Monitor with its Pause button and balance chart included)
// works in 1280x720 logical pixels, a 1920x1080 laptop at 150%.
#include "mainwindow.h"
#include "monitor/monitorview.h"
#include "windowfit.h"
#include "testsupport.h"

#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QTabWidget>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

class TestWindowFit : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

private Q_SLOTS:
    void initTestCase()
    {
        keepConsoleStateIn(m_home);
    }

    void fitWindowGeometry_data()
    {
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QRect>("saved");
        QTest::addColumn<QRect>("expected");
        // The window asks for 1280x760.
        QTest::newRow("large screen: as asked, centred")
            << QRect(0, 0, 2560, 1400) << QRect() << QRect(640, 320, 1280, 760);
        // 1600x1000 at QT_SCALE_FACTOR 1.5 (the screen), a panel of 40 px.
        // Too small for 1280x760 either way: the whole of it.
        QTest::newRow("1600x1000 at 150%") << QRect(0, 0, 1066, 640) << QRect() << QRect(0, 0, 1066, 640);
        // 1920x1080 at 150%: 1280x720 logical, a 30 px panel on top; as
        // wide as asked (90% would cut it), all of the height.
        QTest::newRow("1920x1080 at 150%, panel on top")
            << QRect(0, 30, 1280, 690) << QRect() << QRect(0, 30, 1280, 690);
        QTest::newRow("1440x800: the width as asked, the height as far as it goes")
            << QRect(0, 0, 1440, 800) << QRect() << QRect(80, 20, 1280, 760);
        QTest::newRow("saved and fits: kept") << QRect(0, 0, 1920, 1050) << QRect(100, 80, 1700, 950)
                                              << QRect(100, 80, 1700, 950);
        QTest::newRow("saved filling the screen: kept") << QRect(0, 0, 1920, 1050) << QRect(0, 0, 1920, 1050)
                                                        << QRect(0, 0, 1920, 1050);
        QTest::newRow("saved on a larger screen: refitted")
            << QRect(0, 0, 1280, 690) << QRect(0, 0, 1920, 1050) << QRect(0, 0, 1280, 690);
        QTest::newRow("saved off this screen (a second monitor gone): refitted")
            << QRect(0, 0, 1920, 1050) << QRect(2000, 100, 1200, 700) << QRect(320, 145, 1280, 760);
        QTest::newRow("saved half off the bottom: refitted")
            << QRect(0, 0, 1920, 1050) << QRect(100, 600, 1280, 760) << QRect(320, 145, 1280, 760);
        QTest::newRow("second screen to the right") << QRect(1920, 0, 1600, 900) << QRect()
                                                    << QRect(2080, 70, 1280, 760);
        QTest::newRow("no screen: the saved one") << QRect() << QRect(10, 10, 800, 600) << QRect(10, 10, 800, 600);
        QTest::newRow("no screen, nothing saved") << QRect() << QRect() << QRect(0, 0, 1280, 760);
    }

    void fitWindowGeometry()
    {
        QFETCH(QRect, available);
        QFETCH(QRect, saved);
        QFETCH(QRect, expected);
        const QRect r = blocktune::fitWindowGeometry(available, QSize(1280, 760), saved);
        QCOMPARE(r, expected);
        if (available.isValid())
            QVERIFY(available.contains(r));
    }

    void firstWindowFitsTheScreenItOpensOn()
    {
        // The offscreen platform's screen is small (800x600): the window
        // once opened at 1280x760 whatever the screen.
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        const QRect available = window.screen()->availableGeometry();
        QVERIFY2(window.width() <= available.width() && window.height() <= available.height(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4").arg(window.width()).arg(window.height())
                                .arg(available.width()).arg(available.height())));
        QVERIFY(available.contains(window.geometry()));
    }

    void consoleWorksIn1280x720()
    {
        // 720 logical pixels less a title bar and a panel.
        const QSize screen(1280, 720 - 60);
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        const QSize least = window.minimumSizeHint();
        QVERIFY2(least.width() <= screen.width() && least.height() <= screen.height(),
                 qPrintable(QStringLiteral("the console needs at least %1x%2").arg(least.width()).arg(least.height())));
        window.resize(screen);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        window.tabs()->setCurrentWidget(window.monitorView());
        QTest::qWait(50);
        QCOMPARE(window.size(), screen);
        MonitorView *monitor = window.monitorView();
        QVERIFY(monitor->minimumSizeHint().height() <= monitor->height());
        QPushButton *pause = nullptr;
        for (QPushButton *b : monitor->findChildren<QPushButton *>())
            if (b->text() == u"&Pause"_qs)
                pause = b;
        QVERIFY(pause);
        const QRect onWindow(pause->mapTo(&window, QPoint(0, 0)), pause->size());
        QVERIFY2(window.rect().contains(onWindow), "the Pause button is on screen");
        // The plots (balance chart last) scroll inside the view.
        auto *scroll = monitor->findChild<QScrollArea *>(u"monitorScroll"_qs);
        QVERIFY(scroll);
        const QRect viewport(scroll->viewport()->mapTo(&window, QPoint(0, 0)), scroll->viewport()->size());
        QVERIFY(window.rect().contains(viewport));
    }
};

QTEST_MAIN(TestWindowFit)
#include "tst_windowfit.moc"
