#include "clicontext.h"

#include "common/units.h"
#include "devices/devices.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QSet>


namespace blocktune::cli {

namespace {

QString detailOf(const BlockDevice &d)
{
    if (d.md) {
        const MdInfo &md = *d.md;
        QStringList parts{md.level};
        if (!md.layoutName.isEmpty())
            parts << md.layoutName;
        if (md.chunkBytes && md.level != u"raid1")
            parts << QStringLiteral("chunk %1").arg(formatBytes(*md.chunkBytes));
        if (md.raidDisks)
            parts << QStringLiteral("%1 disks").arg(*md.raidDisks);
        if (md.readaheadFloorKiB)
            parts << QStringLiteral("ra floor %1K").arg(*md.readaheadFloorKiB);
        if (md.degraded.value_or(0) > 0)
            parts << QStringLiteral("DEGRADED");
        return parts.join(u' ');
    }
    if (d.dm)
        return QStringLiteral("%1 %2").arg(d.dm->kind, d.dm->name);
    if (d.type == DeviceType::Partition)
        return {}; // the disk's row above already names the model
    if (d.loop)
        return QStringLiteral("%1%2").arg(d.loop->backingFile,
                                          d.loop->directIo.value_or(false) ? QStringLiteral(" (dio)") : QString());
    return d.model;
}

struct Row
{
    QString name, majMin, type, size, ra, sched, rota, detail;
};

void collect(const DeviceModel &model, const QString &name, const QString &prefix, bool last,
             bool top, QList<Row> &rows, QSet<QString> &path)
{
    const BlockDevice *d = model.find(name);
    if (!d || path.contains(name))
        return;
    Row row;
    row.name = top ? name : prefix + (last ? u"└─" : u"├─") + name;
    row.majMin = d->hasDeviceNumber() ? QStringLiteral("%1:%2").arg(d->major).arg(d->minor) : QStringLiteral("-");
    row.type = deviceTypeName(d->type);
    row.size = d->sizeBytes ? formatBytes(*d->sizeBytes) : QStringLiteral("-");
    row.ra = d->readAheadKiB ? QString::number(*d->readAheadKiB) : QStringLiteral("-");
    row.sched = d->scheduler.isEmpty() ? QStringLiteral("-") : d->scheduler;
    row.rota = d->rotational ? QString::number(int(*d->rotational)) : QStringLiteral("-");
    row.detail = detailOf(*d);
    rows.append(row);

    path.insert(name);
    const QStringList kids = model.children(name);
    const QString childPrefix = top ? QString() : prefix + (last ? u"  " : u"│ ");
    for (qsizetype i = 0; i < kids.size(); ++i)
        collect(model, kids[i], childPrefix, i == kids.size() - 1, false, rows, path);
    path.remove(name);
}

void printTree(const DeviceModel &model, QTextStream &out)
{
    QList<Row> rows;
    rows.append(Row{QStringLiteral("NAME"), QStringLiteral("MAJ:MIN"), QStringLiteral("TYPE"),
                    QStringLiteral("SIZE"), QStringLiteral("RA-KB"), QStringLiteral("SCHED"),
                    QStringLiteral("ROTA"), QStringLiteral("DETAIL")});
    QSet<QString> path;
    for (const QString &root : model.roots())
        collect(model, root, QString(), true, true, rows, path);
    qsizetype w[7] = {};
    for (const Row &r : rows) {
        const QString cols[7] = {r.name, r.majMin, r.type, r.size, r.ra, r.sched, r.rota};
        for (int i = 0; i < 7; ++i)
            w[i] = std::max(w[i], cols[i].size());
    }
    for (const Row &r : rows) {
        out << r.name.leftJustified(w[0] + 1) << r.majMin.rightJustified(w[1]) << ' '
            << r.type.leftJustified(w[2] + 1) << r.size.rightJustified(w[3]) << ' '
            << r.ra.rightJustified(w[4]) << ' ' << r.sched.leftJustified(w[5] + 1)
            << r.rota.rightJustified(w[6]) << ' ' << r.detail << '\n';
    }
    out.flush();
}

void printWarnings(CliContext &ctx, const QStringList &warnings)
{
    // A recorded tree may hold garbage: say what was shown as unknown, on
    // stderr, so the JSON on stdout stays what the schema says.
    for (const QString &warning : warnings)
        ctx.err << "warning: " << warning << '\n';
    ctx.err.flush();
}

/// `list --json`: the machine's devices as it scans them (a host's agent
/// scans and probes there).
int printListing(CliContext &ctx, bool probe)
{
    auto listing = ctx.machine->listDevices(probe);
    if (!listing)
        return fail(ctx, listing.error().message);
    printWarnings(ctx, listing->warnings);
    // Straight to stdout: through QTextStream, 5 MB of UTF-8 would be
    // decoded to QString and encoded back.
    writeRawOut(ctx, QJsonDocument(listing->json).toJson(QJsonDocument::Indented));
    return ExitOk;
}

} // namespace

int runList(CliContext &ctx, const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Shows every block device and how they stack: partitions under their disk, md arrays "
        "and dm/LVM volumes under their members, with readahead (KiB), scheduler and "
        "rotational flag.\nThe JSON form ({\"schema\": 1, \"devices\": [...]}) is documented in "
        "docs/json.md."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print JSON instead of a tree"));
    const QCommandLineOption noProbe(QStringLiteral("no-probe"),
                                     QStringLiteral("do not open devices to read filesystem labels"));
    parser.addOption(json);
    parser.addOption(noProbe);
    parser.addHelpOption();
    if (!parser.parse(QStringList{QStringLiteral("blocktune-cli list")} + args))
        return failUsage(ctx, parser, QStringLiteral("list"));
    if (parser.isSet(QStringLiteral("help"))) {
        printCommandHelp(ctx, parser, QStringLiteral("list"));
        return ExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(ctx, QStringLiteral("list takes no device names (got '%1')")
                             .arg(parser.positionalArguments().join(u' ')), ExitUsage);

    ScanOptions options;
    options.probeFilesystems = !parser.isSet(noProbe);
    if (parser.isSet(json))
        return printListing(ctx, options.probeFilesystems);
    auto model = DeviceModel::scan(ctx.root, options);
    if (!model)
        return fail(ctx, model.error().message);
    printWarnings(ctx, model->warnings());
    printTree(*model, ctx.out);
    return ExitOk;
}

} // namespace blocktune::cli
