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

#include <qcustomplot.h>

#include <cstdio>
#include <ctime>

namespace {

qint64 threadCpuUs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

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
        // Named before delivery: a receiver may delete itself on its event.
        const char *className = receiver->metaObject()->className();
        const QString name = receiver->objectName();
        const int type = int(event->type());
        QElapsedTimer timer;
        timer.start();
        const qint64 cpuBefore = threadCpuUs();
        const bool handled = QApplication::notify(receiver, event);
        const qint64 us = timer.nsecsElapsed() / 1000;
        const qint64 cpu = threadCpuUs() - cpuBefore;
        --m_depth;
        if (measuring)
            worstCpuUs = std::max(worstCpuUs, cpu);
        if (measuring && us > worstUs) {
            worstUs = us;
            worstWhat = QStringLiteral("%1 (%2), event type %3")
                            .arg(QString::fromLatin1(className), name.isEmpty() ? QStringLiteral("unnamed") : name)
                            .arg(type);
        }
        return handled;
    }
    bool measuring = false;
    qint64 worstUs = 0;
    qint64 worstCpuUs = 0; ///< the GUI thread's CPU time in its costliest event
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

    // The CPU each plot's replot costs: which view draws, and how dearly.
    struct Replots {
        QHash<QString, std::pair<int, qint64>> byPlot; // count, worst CPU us
        QString report() const
        {
            QString out;
            for (auto it = byPlot.begin(); it != byPlot.end(); ++it)
                out += QStringLiteral("replots of %1: %2, costliest %3 ms of CPU\n")
                           .arg(it.key()).arg(it->first).arg(double(it->second) / 1000.0, 0, 'f', 1);
            return out;
        }
    } replots;
    qint64 replotStart = 0;
    bool counting = false;
    for (QCustomPlot *plot : window.findChildren<QCustomPlot *>()) {
        QString name = plot->objectName();
        for (QObject *o = plot->parent(); name.isEmpty() && o; o = o->parent())
            if (!o->objectName().isEmpty() || qobject_cast<QWidget *>(o)->isWindow())
                name = QString::fromLatin1(o->metaObject()->className()) + u' ' + o->objectName();
        QObject::connect(plot, &QCustomPlot::beforeReplot, &app, [&] { replotStart = threadCpuUs(); });
        QObject::connect(plot, &QCustomPlot::afterReplot, &app, [&, name] {
            if (!counting)
                return;
            auto &entry = replots.byPlot[name];
            entry.first += 1;
            entry.second = std::max(entry.second, threadCpuUs() - replotStart);
        });
    }

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
            counting = true;
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
            counting = false;
            std::printf("streams: 4 measured (%s each, 2 runs), monitor tab open\n"
                        "probe ticks: %lld over %.1f s\n"
                        "longest event-loop stall: %.1f ms (target < 50 ms)\n"
                        "longest single event: %.1f ms, %s\n"
                        "costliest single event: %.1f ms of CPU (a busy machine stretches the wall-clock figures)\n"
                        "%s",
                        qPrintable(size), static_cast<long long>(ticks), testSeconds, double(worst) / 1000.0,
                        double(app.worstUs) / 1000.0, qPrintable(app.worstWhat), double(app.worstCpuUs) / 1000.0,
                        qPrintable(replots.report()));
            app.exit(worst < 50'000 ? 0 : 1);
        });
    });
    return app.exec();
}
