// Drives the console as a user would for tst_privilege_path: opens the main
// window on the live machine, selects DEVICE and applies readahead KIB1,
// then KIB2, through the settings panel (each an Apply of its own). Run as
// a user who is not root, so the writes go through pkexec and
// blocktune-helper. Prints the panel's messages; exit 0 when both changes
// were applied.
// Usage: blocktune-test-console-apply DEVICE KIB1 KIB2
#include "mainwindow.h"
#include "tuningpanel.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QSpinBox>

#include <cstdio>

namespace {

/// Runs the event loop until `done` or 60 s passed (the first write may
/// wait for polkit).
template<typename Predicate>
bool waitFor(Predicate done)
{
    const QDeadlineTimer deadline(60000);
    while (!done() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return done();
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() != 4) {
        std::fprintf(stderr, "usage: blocktune-test-console-apply DEVICE KIB1 KIB2\n");
        return 2;
    }
    const QString device = args.at(1);
    blocktune::MainWindow window(QString(), device);
    blocktune::TuningPanel *panel = window.tuningPanel();
    if (!waitFor([&] { return window.isReady(); }))
        return std::fprintf(stderr, "the device list was not read\n"), 2;
    panel->setDevice(device);
    QSpinBox *spin = nullptr;
    for (QSpinBox *box : panel->findChildren<QSpinBox *>())
        if (box->accessibleName() == u"Readahead in KiB")
            spin = box;
    if (!spin)
        return std::fprintf(stderr, "no readahead spin box in the settings panel\n"), 2;
    int outcomes = 0;
    int loads = 0;
    bool allApplied = true;
    QObject::connect(panel, &blocktune::TuningPanel::applied, &app, [&](bool ok) {
        ++outcomes;
        allApplied = allApplied && ok;
    });
    QObject::connect(panel, &blocktune::TuningPanel::settingsLoaded, &app, [&](const QString &name) {
        loads += name == device;
    });
    for (int i = 2; i <= 3; ++i) {
        // The panel reads the settings again after every Apply: the next
        // value goes into the form once they are on screen.
        const int wanted = i - 1;
        if (!waitFor([&] { return loads >= wanted && panel->loadedDevice() == device && !panel->isBusy(); }))
            return std::fprintf(stderr, "the settings of %s were not shown\n", qPrintable(device)), 2;
        spin->setValue(args.at(i).toInt());
        const int before = outcomes;
        if (!panel->applyChanges(false) || !waitFor([&] { return outcomes > before; })) {
            std::printf("apply %s: %s\n", qPrintable(args.at(i)), qPrintable(panel->lastMessage()));
            return 1;
        }
        std::printf("apply %s: %s\n", qPrintable(args.at(i)), qPrintable(panel->lastMessage()));
        if (!allApplied)
            return 1;
    }
    return 0;
}
