// The console while a 4-stream read test runs with the Monitor tab open:
// the longest event-loop stall. A 2 ms timer measures its own lateness
// while the test's cards, live plot and the monitor's plots update; the
// history record at the end is included.
// Usage: bench-readtest-stall DEV1 DEV2 DEV3 DEV4 [SIZE]
#include "devicetree.h"
#include "mainwindow.h"
#include "monitor/monitorview.h"
#include "readtest/readtestview.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

namespace {

// Times every event the GUI thread delivers, so the bench can say which
// receiver caused the longest stall, not only how long it was.
class TimingApplication final : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override
    {
        if (++m_depth > 1) { // nested delivery: the outer one is timed
            const bool handled = QApplication::notify(receiver, event);
            --m_depth;
            return handled;
        }
        QElapsedTimer timer;
        timer.start();
        const bool handled = QApplication::notify(receiver, event);
        const qint64 us = timer.nsecsElapsed() / 1000;
        --m_depth;
        if (measuring && us > worstUs) {
            worstUs = us;
            worstWhat = QStringLiteral("%1 (%2), event type %3")
                            .arg(QString::fromLatin1(receiver->metaObject()->className()),
                                 receiver->objectName().isEmpty() ? QStringLiteral("unnamed") : receiver->objectName())
                            .arg(int(event->type()));
        }
        return handled;
    }
    bool measuring = false;
    qint64 worstUs = 0;
    QString worstWhat;

private:
    int m_depth = 0;
};

} // namespace

int main(int argc, char **argv)
{
    TimingApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 5) {
        std::fprintf(stderr, "usage: bench-readtest-stall DEV1 DEV2 DEV3 DEV4 [SIZE]\n");
        return 2;
    }
    const QString size = args.size() > 5 ? args.at(5) : QStringLiteral("256M");
    blocktune::MainWindow window(QString(), args.at(1));
    window.resize(1400, 860);
    window.show();

    QElapsedTimer clock;
    clock.start();
    qint64 last = -1, worst = 0, ticks = 0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(2);
    QObject::connect(&probe, &QTimer::timeout, &app, [&] {
        const qint64 now = clock.nsecsElapsed() / 1000;
        if (last >= 0)
            worst = std::max(worst, now - last - 2000);
        last = now;
        ++ticks;
    });

    blocktune::ReadTestView *view = window.readTestView();
    QObject::connect(&window, &blocktune::MainWindow::ready, &app, [&] {
        QTimer::singleShot(1000, &app, [&] {
            window.tabs()->setCurrentWidget(view);
            view->setDevice(args.at(1));
            auto *kind = view->findChild<QComboBox *>(QStringLiteral("kind"));
            kind->setCurrentIndex(kind->findData(QStringLiteral("concurrent")));
            view->findChild<QComboBox *>(QStringLiteral("bs"))->setCurrentText(QStringLiteral("64K"));
            view->findChild<QLineEdit *>(QStringLiteral("size"))->setText(size);
            view->findChild<QSpinBox *>(QStringLiteral("repeat"))->setValue(2);
            view->findChild<QLineEdit *>(QStringLiteral("measure"))->setText(args.mid(2, 3).join(u' '));
            if (!view->start()) {
                std::fprintf(stderr, "bench: the test did not start\n");
                app.exit(2);
                return;
            }
            // The monitor tab open while the test runs.
            window.tabs()->setCurrentWidget(window.monitorView());
            probe.start();
            app.measuring = true;
        });
    });
    double testSeconds = 0;
    QObject::connect(view, &blocktune::ReadTestView::finished, &app, [&](bool ok) {
        testSeconds = double(clock.elapsed()) / 1000.0;
        if (!ok)
            std::fprintf(stderr, "bench: the test failed or stopped:\n%s\n", qPrintable(view->reportText()));
    });
    QObject::connect(view, &blocktune::ReadTestView::historyRecorded, &app, [&] {
        QTimer::singleShot(300, &app, [&] {
            probe.stop();
            app.measuring = false;
            std::printf("streams: 4 measured (%s each, 2 runs), monitor tab open\n"
                        "probe ticks: %lld over %.1f s\n"
                        "longest event-loop stall: %.1f ms (target < 50 ms)\n"
                        "longest single event: %.1f ms, %s\n",
                        qPrintable(size), static_cast<long long>(ticks), testSeconds, double(worst) / 1000.0,
                        double(app.worstUs) / 1000.0, qPrintable(app.worstWhat));
            app.exit(worst < 50'000 ? 0 : 1);
        });
    });
    return app.exec();
}
