// One readahead change in a window on a 5,000-device host, through ssh (a
// private sshd on 127.0.0.1, tests/support/privatesshd.h; the agent serves
// a generated tree). Measures the road a click in the settings panel takes
// on the console's session thread: plan on the mirror, the typed plan to
// the agent, its write and read-back there, the touched queue's files back
// into the mirror, the model refreshed for that queue, and the device's
// settings read for the panel ("click to the value shown"). Beside it, the
// whole-host record and rescan that each change used to cost on top of
// that (the road before: the mirror recorded again after every change).
// Usage: bench-remote-change TREE CHANGES   (root: sshd logs users in only as root)
#include "privatesshd.h"

#include "remote/remote.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace blocktune;

namespace {

QString figures(QList<double> v)
{
    if (v.isEmpty())
        return QStringLiteral("none");
    std::sort(v.begin(), v.end());
    return QStringLiteral("median %1 ms, max %2 ms (%3 changes)")
        .arg(v.at(v.size() / 2), 0, 'f', 1)
        .arg(v.last(), 0, 'f', 1)
        .arg(v.size());
}

int fail(const QString &why)
{
    std::fprintf(stderr, "bench: %s\n", qPrintable(why));
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() != 3)
        return fail(QStringLiteral("usage: bench-remote-change TREE CHANGES"));
    const QString tree = QDir(args.at(1)).absolutePath();
    const int changes = std::max(1, args.at(2).toInt());
    if (const QString why = test::PrivateSshd::unavailable(); !why.isEmpty())
        return fail(why);
    test::PrivateSshd sshd;
    if (const QString failed = sshd.start(); !failed.isEmpty())
        return fail(failed);
    RemoteTarget target;
    target.host = test::PrivateSshd::host();
    target.sshConfig = sshd.sshConfig();
    target.remoteCommand = test::PrivateSshd::agentCommand(QStringLiteral("--sysroot '%1' agent").arg(tree));
    QTemporaryDir mirror;
    QElapsedTimer clock;
    clock.start();
    auto connection = connectToHost(target, mirror.path());
    if (!connection)
        return fail(connection.error().message);
    TuningSession session(SysRoot(mirror.path()), hostSessionOptions(*connection));
    auto model = session.model();
    if (!model)
        return fail(model.error().message);
    const double connectMs = double(clock.nsecsElapsed()) / 1e6;
    QString disk;
    for (const BlockDevice &d : (*model)->devices())
        if (d.type == DeviceType::Disk && disk.isEmpty())
            disk = d.name;

    QList<double> change;
    for (int i = 0; i < changes; ++i) {
        const quint64 kib = i % 2 ? 128 : 4096;
        clock.restart();
        const ChangePlan plan = session.plan({SettingChange{disk, QStringLiteral("read_ahead_kb"), SettingValue(kib)}});
        const ChangeReport done = session.apply(plan);
        auto shown = session.settings(disk);
        change << double(clock.nsecsElapsed()) / 1e6;
        if (!done.ok())
            return fail(done.error->message);
        if (!shown || shown->readAheadKiB != kib)
            return fail(QStringLiteral("the panel would show %1, not %2")
                            .arg(shown && shown->readAheadKiB ? QString::number(*shown->readAheadKiB) : u"nothing"_qs)
                            .arg(kib));
    }
    std::printf("devices: %lld on the host, through ssh to 127.0.0.1; connect and first snapshot: %.0f ms\n",
                qlonglong((*model)->devices().size()), connectMs);
    std::printf("one readahead change, click to value shown: %s (target < 300 ms)\n", qPrintable(figures(change)));
    std::fflush(stdout);
    // Once: on a big host it takes as long as the connect's snapshot did.
    clock.restart();
    if (auto again = session.rescan(); !again)
        return fail(again.error().message);
    std::printf("whole host recorded and rescanned (what every change added before): %.0f ms\n",
                double(clock.nsecsElapsed()) / 1e6);
    session.revertAll();
    return 0;
}
