// `record FILE.tar.gz`: a snapshot of what blocktune reads (core/devices/snapshot.h).
#include "clicontext.h"

#include "devices/snapshot.h"

#include <QCommandLineParser>

namespace blocktune::cli {

int recordArgument(CliContext &ctx, const QStringList &args, QString *tarball)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Records the part of /sys, /proc and /dev that blocktune reads (every block device's attributes, md and "
        "dm details, loop backing, holders and slaves, the device chain's identity and IRQ vectors, diskstats, "
        "interrupts, mountinfo, udev's /dev/disk and /dev/mapper links) into FILE.tar.gz; diskstats is read twice, a "
        "second apart, so the console's Monitor can replay that interval. Nothing is read from a "
        "device and no other file is copied. Open it anywhere with blocktune-cli --sysroot FILE.tar.gz (or "
        "unpack it and use --sysroot DIR). With --host HOST, HOST is recorded and FILE.tar.gz is written here."));
    parser.addPositionalArgument(QStringLiteral("FILE.tar.gz"), QStringLiteral("the snapshot to write"));
    if (const int r = parseCommandArgs(ctx, parser, QStringLiteral("record"), args); r >= 0)
        return r;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return fail(ctx, QStringLiteral("record takes one file name ending in .tar.gz (got %1 arguments)").arg(pos.size()),
                    ExitUsage);
    if (!isSnapshotTarball(pos.constFirst()))
        return fail(ctx, QStringLiteral("'%1' does not end in .tar.gz or .tgz").arg(pos.constFirst()), ExitUsage);
    *tarball = pos.constFirst();
    return -1;
}

void printRecordSummary(CliContext &ctx, const QString &tarball, const SnapshotReport &report)
{
    ctx.out << tarball << ": " << report.devices << " block devices, " << report.files << " files, "
            << report.links << " links\n";
    for (const QString &s : std::as_const(report.skipped))
        ctx.err << "note: not recorded: " << s << '\n';
    ctx.out.flush();
    ctx.err.flush();
}

int runRecord(CliContext &ctx, const QStringList &args)
{
    QString tarball;
    if (const int r = recordArgument(ctx, args, &tarball); r >= 0)
        return r;
    // The counters twice, a second apart: the console replays that interval.
    auto report = recordSnapshotTarball(ctx.root, tarball, SnapshotOptions{1000, {}});
    if (!report)
        return fail(ctx, report.error().message);
    printRecordSummary(ctx, tarball, *report);
    return ExitOk;
}

} // namespace blocktune::cli
