// Drives the console as a user would for tst_privilege_path: opens the main
// window on the live machine, selects DEVICE and applies readahead KIB1,
// then KIB2, through the settings panel (each an Apply of its own). Run as
// a user who is not root, so the writes go through pkexec and
// blocktune-helper. Prints the panel's last message; exit 0 when both
// changes were applied.
// Usage: blocktune-test-console-apply DEVICE KIB1 KIB2
#include "mainwindow.h"
#include "tuningpanel.h"

#include <QApplication>
#include <QSpinBox>

#include <cstdio>

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
    panel->setDevice(device);
    QSpinBox *spin = nullptr;
    for (QSpinBox *box : panel->findChildren<QSpinBox *>())
        if (box->accessibleName() == u"Readahead in KiB")
            spin = box;
    if (!spin) {
        std::fprintf(stderr, "no readahead spin box in the settings panel\n");
        return 2;
    }
    for (int i = 2; i <= 3; ++i) {
        spin->setValue(args.at(i).toInt());
        const bool applied = panel->applyChanges(false);
        std::printf("apply %s: %s\n", qPrintable(args.at(i)), qPrintable(panel->lastMessage()));
        if (!applied)
            return 1;
    }
    return 0;
}
