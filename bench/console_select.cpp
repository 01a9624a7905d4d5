// The console on a big recorded tree: how long does selecting a device block
// the event loop? A 2 ms timer measures its own lateness (the stall) while
// the device tree's selection moves to 20 devices, one every 250 ms, as a
// user clicking would. Prints the longest stall and each selection's.
// Usage: bench-console-select SYSROOT [SELECTIONS]
#include "devicetree.h"
#include "mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <QTreeWidgetItemIterator>

#include <cstdio>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench-console-select SYSROOT [SELECTIONS]\n");
        return 2;
    }
    const int selections = args.size() > 2 ? args.at(2).toInt() : 20;
    blocktune::MainWindow window(args.at(1));
    window.show();

    QElapsedTimer clock;
    clock.start();
    qint64 last = -1, worst = 0, worstThisSelection = 0;
    QList<qint64> perSelection;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(2);
    QObject::connect(&probe, &QTimer::timeout, &app, [&] {
        const qint64 now = clock.nsecsElapsed() / 1000;
        if (last >= 0) {
            const qint64 late = now - last - 2000;
            worstThisSelection = std::max(worstThisSelection, late);
        }
        last = now;
    });

    QList<QTreeWidgetItem *> items;
    QTimer clicker;
    clicker.setInterval(250);
    int done = -1;
    QObject::connect(&clicker, &QTimer::timeout, &app, [&] {
        if (done >= 0) {
            perSelection << worstThisSelection;
            worst = std::max(worst, worstThisSelection);
        }
        worstThisSelection = 0;
        if (++done >= selections) {
            clicker.stop();
            probe.stop();
            QStringList each;
            for (qint64 us : perSelection)
                each << QString::number(double(us) / 1000.0, 'f', 1);
            std::printf("devices: %lld\nselections: %d\nstall per selection (ms): %s\n"
                        "longest event-loop stall: %.1f ms (target <= 50 ms)\n",
                        static_cast<long long>(items.size()), selections, qPrintable(each.join(u' ')),
                        double(worst) / 1000.0);
            app.exit(worst <= 50'000 ? 0 : 1);
            return;
        }
        // Spread over the tree: disks, partitions, far apart.
        QTreeWidgetItem *item = items.at((qsizetype(done) * 997 + 13) % items.size());
        window.deviceTree()->setCurrentItem(item);
    });

    QObject::connect(&window, &blocktune::MainWindow::ready, &app, [&] {
        for (QTreeWidgetItemIterator it(window.deviceTree()); *it; ++it)
            items << *it;
        // Let the first layout and paint settle before measuring.
        QTimer::singleShot(1000, &app, [&] {
            probe.start();
            clicker.start();
        });
    });
    return app.exec();
}
