// blocktune: the tuning console.
#include "mainwindow.h"

#include "devices/demodevice.h"
#include "tuning/tuning.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>

#include <cstdio>
#include <memory>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("blocktune"));
    QApplication::setApplicationVersion(QStringLiteral(BLOCKTUNE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Linux block-device tuning console"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption sysroot(QStringLiteral("sysroot"),
                                     QStringLiteral("Read DIR/sys and DIR/proc (a recorded tree) instead of the live machine."),
                                     QStringLiteral("DIR"));
    const QCommandLineOption device(QStringLiteral("device"),
                                    QStringLiteral("Select DEVICE (a kernel name such as loop0) at start."),
                                    QStringLiteral("DEVICE"));
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QStringLiteral("Make a scratch 1 GiB direct-I/O loop device over a file, select it, "
                                                 "and detach it when the console ends (root)."));
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QStringLiteral("Open on TAB: settings, test, monitor or details."),
                                 QStringLiteral("TAB"));
    parser.addOption(sysroot);
    parser.addOption(device);
    parser.addOption(tab);
    parser.addOption(demo);
    parser.process(app);

    const QString root = parser.value(sysroot);
    if (!root.isEmpty() && !QFileInfo(root + QStringLiteral("/sys")).isDir()) {
        qCritical("blocktune: --sysroot %s: no sys/ directory there", qPrintable(root));
        return 2;
    }
    const QStringList tabs{QStringLiteral("settings"), QStringLiteral("test"), QStringLiteral("monitor"),
                           QStringLiteral("details")};
    const int tabIndex = parser.isSet(tab) ? int(tabs.indexOf(parser.value(tab))) : 0;
    if (tabIndex < 0) {
        qCritical("blocktune: --tab %s: unknown tab (use settings, test, monitor or details)",
                  qPrintable(parser.value(tab)));
        return 2;
    }
    // From here on SIGINT/SIGTERM/SIGHUP close the window as its button
    // would (the main window watches the flag's pipe), also one that
    // arrives while the demo device is being made.
    blocktune::TerminationSignals::install();
    // The demo device lives as long as this process: the kernel detaches it
    // when its last descriptor closes, also after a crash or a kill -9.
    std::unique_ptr<blocktune::DemoDevice> demoDevice;
    QString selected = parser.value(device);
    QString demoProblem;
    if (parser.isSet(demo)) {
        if (!root.isEmpty()) {
            demoProblem = QStringLiteral("--demo makes a device on this machine; it does not go with --sysroot");
        } else {
            std::printf("blocktune: preparing a 1 GiB demo device...\n");
            std::fflush(stdout);
            auto made = blocktune::DemoDevice::create(quint64(1) << 30);
            if (made) {
                demoDevice = std::move(*made);
                selected = demoDevice->name();
                std::printf("blocktune: demo device %s (1 GiB, direct I/O), detached when the console ends\n",
                            qPrintable(selected));
                std::fflush(stdout);
            } else {
                demoProblem = made.error().message;
            }
        }
        if (!demoProblem.isEmpty())
            std::fprintf(stderr, "blocktune: %s\n", qPrintable(demoProblem));
    }
    blocktune::MainWindow window(root, selected);
    window.tabs()->setCurrentIndex(tabIndex);
    window.show();
    QMetaObject::invokeMethod(&window, &blocktune::MainWindow::offerJournalRestore, Qt::QueuedConnection);
    if (!demoProblem.isEmpty())
        QMetaObject::invokeMethod(&window, [&window, demoProblem] { window.statusBar()->showMessage(demoProblem); },
                                  Qt::QueuedConnection);
    return app.exec();
}
