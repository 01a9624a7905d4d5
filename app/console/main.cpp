// blocktune: the tuning console.
#include "mainwindow.h"

#include "common/sysroot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTabWidget>

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
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QStringLiteral("Open on TAB: settings, test, monitor or details."),
                                 QStringLiteral("TAB"));
    parser.addOption(sysroot);
    parser.addOption(device);
    parser.addOption(tab);
    parser.process(app);

    const QString root = parser.value(sysroot);
    if (auto tree = blocktune::SysRoot::openTree(root); !tree) {
        qCritical("blocktune: --sysroot %s", qPrintable(tree.error().message));
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
    blocktune::MainWindow window(root, parser.value(device));
    window.tabs()->setCurrentIndex(tabIndex);
    window.show();
    QMetaObject::invokeMethod(&window, &blocktune::MainWindow::offerJournalRestore, Qt::QueuedConnection);
    return app.exec();
}
