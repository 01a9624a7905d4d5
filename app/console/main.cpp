// blocktune: the tuning console.
#include "appearance.h"
#include "appicon.h"
#include "i18n.h"
#include "mainwindow.h"
#include "common/termination.h"
#include "remote/connectdialog.h"

#include "common/sysroot.h"
#include "devices/snapshot.h"
#include "devices/demodevice.h"
#include "tuning/tuning.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QProgressDialog>
#include <QStatusBar>
#include <QTabWidget>

#include <cstdio>
#include <memory>

namespace {

struct ConsoleOptions
{
    QCommandLineOption sysroot{QStringLiteral("sysroot"),
                               QCoreApplication::translate("blocktune::Console", "Read DIR/sys and DIR/proc (a recorded tree, or a snapshot FILE.tar.gz that blocktune-cli record wrote) instead of the live machine."),
                               QCoreApplication::translate("blocktune::Console", "DIR")};
    QCommandLineOption device{QStringLiteral("device"),
                              QCoreApplication::translate("blocktune::Console", "Select DEVICE (a kernel name such as loop0) at start."),
                              QCoreApplication::translate("blocktune::Console", "DEVICE")};
    QCommandLineOption demo{QStringLiteral("demo"),
                            QCoreApplication::translate("blocktune::Console", "Make a scratch 1 GiB direct-I/O loop device over a file, select it, "
                                                                          "and detach it when the console ends (root).")};
    QCommandLineOption host{QStringLiteral("host"),
                            QCoreApplication::translate("blocktune::Console", "Work on HOST (anything ssh takes: user@server, an ~/.ssh/config alias) through ssh HOST blocktune-cli agent."),
                            QCoreApplication::translate("blocktune::Console", "HOST")};
    QCommandLineOption sshConfig{QStringLiteral("ssh-config"),
                                 QCoreApplication::translate("blocktune::Console", "With --host: passed to ssh as -F FILE."),
                                 QCoreApplication::translate("blocktune::Console", "FILE")};
    QCommandLineOption sshOption{QStringLiteral("ssh-option"),
                                 QCoreApplication::translate("blocktune::Console", "With --host: passed to ssh as -o OPT (repeatable)."),
                                 QCoreApplication::translate("blocktune::Console", "OPT")};
    QCommandLineOption remoteCommand{QStringLiteral("remote-command"),
                                     QCoreApplication::translate("blocktune::Console", "With --host: the agent command on HOST (default: blocktune-cli agent)."),
                                     QCoreApplication::translate("blocktune::Console", "CMD")};
    QCommandLineOption tab{QStringLiteral("tab"),
                           QCoreApplication::translate("blocktune::Console", "Open on TAB: settings, test, monitor, details, history, profiles, advise or diagnose."),
                           QCoreApplication::translate("blocktune::Console", "TAB")};

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(QCoreApplication::translate("blocktune::Console", "Linux block-device tuning console"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOption(sysroot);
        parser.addOption(device);
        parser.addOption(tab);
        parser.addOption(demo);
        parser.addOption(host);
        parser.addOption(sshConfig);
        parser.addOption(sshOption);
        parser.addOption(remoteCommand);
    }
};

/// What the command line asks for, once its options are checked.
struct Launch
{
    QString root;          ///< --sysroot: a tree, a snapshot, or empty (this machine)
    bool snapshot = false; ///< `root` is a FILE.tar.gz
    int tabIndex = 0;
    bool viaHost = false;
    blocktune::RemoteTarget target; ///< with --host
    QString selected;               ///< --device, or the demo device
};

/// The --host options (and what they exclude) into `launch`; the reason
/// when they do not fit together, else empty.
QString readHostOptions(const QCommandLineParser &parser, const ConsoleOptions &options, Launch &launch)
{
    launch.viaHost = parser.isSet(options.host);
    if (!launch.viaHost && (parser.isSet(options.sshConfig) || parser.isSet(options.sshOption) || parser.isSet(options.remoteCommand)))
        return QCoreApplication::translate("blocktune::Console",
                                           "--ssh-config, --ssh-option and --remote-command go with --host HOST");
    if (!launch.viaHost)
        return {};
    blocktune::RemoteTarget &target = launch.target;
    target.host = parser.value(options.host);
    target.sshConfig = parser.value(options.sshConfig);
    target.sshOptions = parser.values(options.sshOption);
    target.remoteCommand = parser.value(options.remoteCommand);
    QString conflict;
    if (!launch.root.isEmpty())
        conflict = QStringLiteral("--sysroot");
    else if (parser.isSet(options.demo))
        conflict = QStringLiteral("--demo");
    if (!conflict.isEmpty())
        return QCoreApplication::translate("blocktune::Console", "--host and %1 exclude each other").arg(conflict);
    if (auto line = blocktune::sshCommandLine(target); !line)
        return line.error().message;
    return {};
}

/// The checked command line; the reason, on a mistake QCommandLineParser
/// cannot see (a tree that is none, an unknown tab), else empty.
QString readLaunch(const QCommandLineParser &parser, const ConsoleOptions &options, Launch &launch)
{
    launch.root = parser.value(options.sysroot);
    launch.snapshot = blocktune::isSnapshotTarball(launch.root);
    if (auto tree = blocktune::SysRoot::openTree(launch.snapshot ? QString() : launch.root); !tree)
        return QStringLiteral("--sysroot %1").arg(tree.error().message);
    const QStringList tabs{QStringLiteral("settings"), QStringLiteral("test"), QStringLiteral("monitor"),
                           QStringLiteral("details"), QStringLiteral("history"), QStringLiteral("profiles"),
                           QStringLiteral("advise"), QStringLiteral("diagnose")};
    launch.tabIndex = parser.isSet(options.tab) ? int(tabs.indexOf(parser.value(options.tab))) : 0;
    if (launch.tabIndex < 0)
        return QCoreApplication::translate("blocktune::Console",
                                           "--tab %1: unknown tab (use settings, test, monitor, details, history, "
                                           "profiles, advise or diagnose)")
            .arg(parser.value(options.tab));
    launch.selected = parser.value(options.device);
    return readHostOptions(parser, options, launch);
}

/// Whether a window could open: a platform named, or a display to show it
/// on. Without one QApplication aborts in Qt's xcb plugin (rc 134).
bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY")
           || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

/// True when the command line ends before a window would open: --help,
/// --version, a mistake (an unknown option, a tree that is none, an
/// unknown tab), or no display. Those answer on the terminal, so they are
/// decided before any QApplication exists: the arguments are parsed and
/// checked here once, untranslated and silently; main() parses them again
/// under a QCoreApplication to print the translated answer.
bool answersOnTerminal(int argc, char **argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    QCommandLineParser probe;
    const ConsoleOptions options;
    options.addTo(probe);
    if (!probe.parse(args)) {
        // QApplication takes its own options (-platform offscreen, -style ...)
        // out of argv before our parser sees them: those are no mistake.
        static const QStringList guiOptions{QStringLiteral("platform"), QStringLiteral("platformpluginpath"),
                                            QStringLiteral("platformtheme"), QStringLiteral("plugin"),
                                            QStringLiteral("style"), QStringLiteral("stylesheet"),
                                            QStringLiteral("display"), QStringLiteral("geometry"),
                                            QStringLiteral("qwindowgeometry"), QStringLiteral("qwindowtitle"),
                                            QStringLiteral("qwindowicon"), QStringLiteral("reverse"),
                                            QStringLiteral("session"), QStringLiteral("widgetcount")};
        for (const QString &name : probe.unknownOptionNames())
            if (guiOptions.contains(name))
                return false;
        return true;
    }
    if (probe.isSet(QStringLiteral("help")) || probe.isSet(QStringLiteral("help-all"))
        || probe.isSet(QStringLiteral("version")))
        return true;
    Launch launch;
    return !readLaunch(probe, options, launch).isEmpty() || !hasDisplay();
}

/// --demo: makes the scratch loop device into `device` and selects it. The
/// problem when there is none, printed here; the window shows it too.
QString makeDemoDevice(Launch &launch, std::unique_ptr<blocktune::DemoDevice> &device)
{
    QString problem;
    if (!launch.root.isEmpty()) {
        problem = QCoreApplication::translate("blocktune::Console",
                                              "--demo makes a device on this machine; it does not go with --sysroot");
    } else {
        std::printf("blocktune: %s\n",
                    qPrintable(QCoreApplication::translate("blocktune::Console", "preparing a 1 GiB demo device...")));
        std::fflush(stdout);
        auto made = blocktune::DemoDevice::create(quint64(1) << 30);
        if (made) {
            device = std::move(*made);
            launch.selected = device->name();
            std::printf("blocktune: %s\n",
                        qPrintable(QCoreApplication::translate(
                                       "blocktune::Console",
                                       "demo device %1 (1 GiB, direct I/O), detached when the console ends")
                                       .arg(launch.selected)));
            std::fflush(stdout);
        } else {
            problem = made.error().message;
        }
    }
    if (!problem.isEmpty())
        std::fprintf(stderr, "blocktune: %s\n", qPrintable(problem));
    return problem;
}

/// blocktune --host HOST: connected off the GUI thread, then the host's own
/// window. ssh's refusal is printed as ssh wrote it.
int runOnHost(QCoreApplication &app, const Launch &launch)
{
    const blocktune::RemoteTarget &target = launch.target;
    auto *progress = new QProgressDialog(
        QCoreApplication::translate("blocktune::Console", "Connecting to %1…").arg(target.host),
        QCoreApplication::translate("blocktune::Console", "Cancel"), 0, 0);
    progress->setWindowTitle(QStringLiteral("blocktune"));
    progress->setMinimumDuration(300);
    QObject::connect(progress, &QProgressDialog::canceled, &app, [] { QCoreApplication::exit(1); });
    int status = 0;
    using MachineResult = blocktune::Result<std::shared_ptr<blocktune::Machine>>;
    blocktune::openMachineInBackground(progress, target, [&, progress](MachineResult machine) {
        progress->hide();
        progress->deleteLater();
        if (!machine) {
            std::fprintf(stderr, "blocktune: %s\n", qPrintable(machine.error().message));
            status = 1;
            QCoreApplication::exit(1);
            return;
        }
        blocktune::rememberHost(target.host);
        blocktune::MainWindow *window = blocktune::MainWindow::openWindow(*machine, launch.selected);
        window->tabs()->setCurrentIndex(launch.tabIndex);
        window->show();
    });
    const int code = app.exec();
    return status ? status : code;
}

/// blocktune --sysroot FILE.tar.gz: the snapshot's own window.
int runOnSnapshot(QCoreApplication &app, const Launch &launch)
{
    QString error;
    blocktune::MainWindow *opened = blocktune::MainWindow::openSnapshot(launch.root, &error);
    if (!opened) {
        std::fprintf(stderr, "blocktune: --sysroot %s\n", qPrintable(error));
        return 2;
    }
    opened->tabs()->setCurrentIndex(launch.tabIndex);
    opened->show();
    return app.exec();
}

/// This machine, or a recorded tree: the window, then the offer to restore
/// what a dead session left.
int runHere(QCoreApplication &app, const Launch &launch, const QString &demoProblem)
{
    blocktune::MainWindow window(launch.root, launch.selected);
    window.tabs()->setCurrentIndex(launch.tabIndex);
    window.show();
    QMetaObject::invokeMethod(&window, &blocktune::MainWindow::offerJournalRestore, Qt::QueuedConnection);
    if (!demoProblem.isEmpty())
        QMetaObject::invokeMethod(&window, [&window, demoProblem] { window.statusBar()->showMessage(demoProblem); },
                                  Qt::QueuedConnection);
    return app.exec();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("blocktune"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BLOCKTUNE_VERSION));
    QCoreApplication::setOrganizationDomain(QStringLiteral("blocktune.org"));
    // The Qt-documented way for a program that may not need a GUI: choose
    // the application class from the arguments before creating it.
    const bool terminalOnly = answersOnTerminal(argc, argv);
    std::unique_ptr<QCoreApplication> app = terminalOnly ? std::make_unique<QCoreApplication>(argc, argv)
                                                         : std::make_unique<QApplication>(argc, argv);
    blocktune::installTranslations();

    QCommandLineParser parser;
    const ConsoleOptions options;
    options.addTo(parser);
    parser.process(*app); // --help, --version and mistakes print and exit here
    Launch launch;
    if (const QString problem = readLaunch(parser, options, launch); !problem.isEmpty()) {
        std::fprintf(stderr, "blocktune: %s\n", qPrintable(problem));
        return 2;
    }
    if (terminalOnly) {
        std::fprintf(stderr, "blocktune: %s\n",
                     qPrintable(QCoreApplication::translate(
                         "blocktune::Console", "no display to open the console on (DISPLAY and WAYLAND_DISPLAY are "
                                               "unset); blocktune-cli works on a terminal")));
        return 1;
    }

    // From here on SIGINT/SIGTERM/SIGHUP close the window as its button
    // would (the main window watches the flag's pipe), also one that
    // arrives while the demo device is being made.
    blocktune::TerminationSignals::install();
    // The demo device lives as long as this process: the kernel detaches it
    // when its last descriptor closes, also after a crash or a kill -9.
    std::unique_ptr<blocktune::DemoDevice> demoDevice;
    QString demoProblem;
    if (parser.isSet(options.demo))
        demoProblem = makeDemoDevice(launch, demoDevice);
    // Light or dark as the desktop (or View -> Theme) says, before any window.
    blocktune::applyTheme(blocktune::savedTheme());
    blocktune::followDesktopColorScheme();
    QApplication::setWindowIcon(blocktune::applicationIcon());
    QGuiApplication::setDesktopFileName(QStringLiteral("org.blocktune.Blocktune"));
    if (launch.viaHost)
        return runOnHost(*app, launch);
    if (launch.snapshot)
        return runOnSnapshot(*app, launch);
    return runHere(*app, launch, demoProblem);
}
