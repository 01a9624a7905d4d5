// The readahead report: counters between two snapshots read as figures,
// per device by name, as the CLI's table and as JSON (schema 1).
#include "readahead.h"

#include "devices/devicemodel.h"

#include <QJsonArray>
#include <QTextStream>

#include <algorithm>
#include <cmath>

namespace blocktune {

namespace {

quint64 sizesTotal(const WindowSizes &sizes)
{
    quint64 n = 0;
    for (const quint64 windows : sizes)
        n += windows;
    return n;
}

// The rank percentile of the sizes (the ceil(p*n/100)-th smallest), in KiB.
std::optional<quint64> sizePercentileKiB(const WindowSizes &sizes, double p)
{
    const quint64 n = sizesTotal(sizes);
    if (n == 0)
        return std::nullopt;
    const quint64 rank = std::max<quint64>(1, quint64(std::ceil(p * double(n) / 100.0)));
    quint64 seen = 0;
    for (auto it = sizes.constBegin(); it != sizes.constEnd(); ++it) {
        seen += it.value();
        if (seen >= rank)
            return quint64(it.key()) * readaheadPageKiB();
    }
    return quint64(sizes.lastKey()) * readaheadPageKiB();
}

std::optional<double> waitPercentileMs(const Log2Histogram &wait, double p)
{
    const auto us = wait.percentileUs(p);
    return us ? std::optional<double>(*us / 1000.0) : std::nullopt;
}

// The figures of counters already summed over the kinds wanted.
ReadaheadFigures kindFigures(const ReadaheadKindCounters &c)
{
    ReadaheadFigures f;
    f.windows = c.windows;
    f.missWindows = c.missWindows;
    f.atCap = c.atCap;
    f.sizedWindows = sizesTotal(c.sizes);
    f.sizeP50KiB = sizePercentileKiB(c.sizes, 50);
    f.sizeP90KiB = sizePercentileKiB(c.sizes, 90);
    f.sizeMaxKiB = c.sizes.isEmpty() ? std::nullopt : std::optional<quint64>(quint64(c.sizes.lastKey()) * readaheadPageKiB());
    f.asyncP50KiB = sizePercentileKiB(c.asyncSizes, 50);
    f.pagesReadAhead = c.pagesReadAhead;
    f.pagesUsed = c.pagesUsed;
    f.pagesWasted = c.pagesWasted;
    f.pagesUntracked = c.pagesUntracked;
    const quint64 settled = c.pagesUsed + c.pagesWasted + c.pagesUntracked;
    f.pagesUnusedCached = c.pagesReadAhead > settled ? c.pagesReadAhead - settled : 0;
    f.interleavedRestarts = c.interleavedRestarts;
    f.waitP50Ms = waitPercentileMs(c.wait, 50);
    f.waitP90Ms = waitPercentileMs(c.wait, 90);
    f.waitedPages = c.wait.total();
    return f;
}

} // namespace

ReadaheadFigures readaheadFigures(const ReadaheadKindCounters &counters)
{
    return kindFigures(counters);
}

ReadaheadFigures readaheadFigures(const DeviceReadaheadCounters &counters)
{
    ReadaheadKindCounters sum;
    for (const ReadaheadKindCounters &c : counters.kinds)
        addReadaheadCounters(sum, c);
    return kindFigures(sum);
}

const DeviceReadahead *ReadaheadReport::find(const QString &name) const
{
    for (const DeviceReadahead &d : devices)
        if (d.name == name)
            return &d;
    return nullptr;
}

// ---- Building the report -------------------------------------------------------------

namespace {

bool hasReadahead(const DeviceReadaheadCounters &c)
{
    for (const ReadaheadKindCounters &k : c.kinds)
        if (k.windows || k.pagesReadAhead || k.pagesUsed || k.pagesWasted)
            return true;
    return false;
}

const BlockDevice *deviceWithNumber(const DeviceModel &model, quint64 number)
{
    for (const BlockDevice &bd : model.devices())
        if (bd.hasDeviceNumber() && deviceNumber(quint32(bd.major), quint32(bd.minor)) == number)
            return &bd;
    return nullptr;
}

DeviceReadahead reportEntry(quint64 number, const DeviceReadaheadCounters &counters, const DeviceModel &model)
{
    DeviceReadahead d;
    d.number = number;
    if (const BlockDevice *bd = deviceWithNumber(model, number)) {
        d.name = bd->name;
        d.blockDevice = true;
        d.partition = bd->type == DeviceType::Partition;
        d.queueDevice = bd->queueDevice.isEmpty() ? bd->name : bd->queueDevice;
    } else {
        d.name = deviceNumberText(number);
    }
    for (const ReadaheadKind kind : kAllReadaheadKinds)
        d.kinds[size_t(kind)] = readaheadFigures(counters.of(kind));
    d.all = readaheadFigures(counters);
    return d;
}

bool reportOrder(const DeviceReadahead &a, const DeviceReadahead &b)
{
    if (a.blockDevice != b.blockDevice)
        return a.blockDevice; // devices without a block device last
    return a.blockDevice ? kernelNameLess(a.name, b.name) : a.number < b.number;
}

} // namespace

ReadaheadReport buildReadaheadReport(const ReadaheadSnapshot &start, const ReadaheadSnapshot &end,
                                     const DeviceModel &model, const SysRoot &root, const QStringList &only)
{
    ReadaheadReport r;
    r.durationS = std::max<qint64>(0, end.takenMs - start.takenMs) / 1000.0;
    r.dropped = end.dropped >= start.dropped ? end.dropped - start.dropped : 0;
    const ReadaheadCountersMap delta = readaheadDelta(start.devices, end.devices);
    if (only.isEmpty()) {
        for (auto it = delta.constBegin(); it != delta.constEnd(); ++it)
            if (hasReadahead(it.value()))
                r.devices << reportEntry(it.key(), it.value(), model);
        std::sort(r.devices.begin(), r.devices.end(), reportOrder);
    } else {
        for (const QString &name : only) {
            const BlockDevice *bd = model.find(name);
            if (!bd || !bd->hasDeviceNumber())
                continue;
            const quint64 number = deviceNumber(quint32(bd->major), quint32(bd->minor));
            r.devices << reportEntry(number, delta.value(number), model);
        }
    }
    QStringList queues;
    for (const DeviceReadahead &d : std::as_const(r.devices))
        if (d.blockDevice)
            queues << d.queueDevice;
    const QHash<QString, QueueValues> values = readQueueValues(root, queues);
    for (DeviceReadahead &d : r.devices)
        if (d.blockDevice)
            d.readAheadKiB = values.value(d.queueDevice).readAheadKiB;
    return r;
}

// ---- JSON (schema 1) -------------------------------------------------------------------

namespace {

QJsonValue jsonOptionalCount(const std::optional<quint64> &v)
{
    return v ? QJsonValue(double(*v)) : QJsonValue();
}

QJsonValue jsonOptionalMs(const std::optional<double> &v)
{
    return v ? QJsonValue(std::round(*v * 1000.0) / 1000.0) : QJsonValue();
}

} // namespace

QJsonObject readaheadDeviceToJson(const DeviceReadahead &d)
{
    QJsonObject windows;
    for (const ReadaheadKind kind : kAllReadaheadKinds)
        windows.insert(readaheadKindName(kind), double(d.of(kind).windows));
    const ReadaheadFigures &a = d.all;
    return QJsonObject{
        {QStringLiteral("read_ahead_kb"), jsonOptionalCount(d.readAheadKiB)},
        {QStringLiteral("windows"), windows},
        {QStringLiteral("window_kib"), QJsonObject{{QStringLiteral("p50"), jsonOptionalCount(a.sizeP50KiB)},
                                                   {QStringLiteral("p90"), jsonOptionalCount(a.sizeP90KiB)},
                                                   {QStringLiteral("max"), jsonOptionalCount(a.sizeMaxKiB)}}},
        {QStringLiteral("at_cap"), double(a.atCap)},
        {QStringLiteral("pages"), QJsonObject{{QStringLiteral("read_ahead"), double(a.pagesReadAhead)},
                                              {QStringLiteral("used"), double(a.pagesUsed)},
                                              {QStringLiteral("wasted"), double(a.pagesWasted)},
                                              {QStringLiteral("unused_cached"), double(a.pagesUnusedCached)}}},
        {QStringLiteral("wait_ms"), QJsonObject{{QStringLiteral("p50"), jsonOptionalMs(a.waitP50Ms)},
                                                {QStringLiteral("p90"), jsonOptionalMs(a.waitP90Ms)}}},
        {QStringLiteral("interleaved_restarts"), double(a.interleavedRestarts)}};
}

QJsonObject readaheadReportToJson(const ReadaheadReport &report)
{
    QJsonObject devices;
    for (const DeviceReadahead &d : report.devices)
        devices.insert(d.name, readaheadDeviceToJson(d));
    return QJsonObject{{QStringLiteral("schema"), 1},
                       {QStringLiteral("duration_s"), std::round(report.durationS * 10.0) / 10.0},
                       {QStringLiteral("devices"), devices}};
}

// ---- The table ----------------------------------------------------------------------------

namespace {

QString windowSizeCell(const ReadaheadFigures &f)
{
    if (!f.sizeP50KiB || !f.sizeP90KiB)
        return QStringLiteral("-");
    return QStringLiteral("%1/%2").arg(*f.sizeP50KiB).arg(*f.sizeP90KiB);
}

QString waitP50Cell(const ReadaheadFigures &f)
{
    if (!f.waitP50Ms)
        return QStringLiteral("-");
    const double ms = *f.waitP50Ms;
    return QString::number(ms, 'f', ms < 1 ? 3 : ms < 100 ? 1 : 0) + QStringLiteral(" ms");
}

QString tableRow(const QString &kind, const ReadaheadFigures &f)
{
    return QStringLiteral("  ") + kind.leftJustified(7) + QString::number(f.windows).rightJustified(9)
           + QString::number(f.missWindows).rightJustified(8) + windowSizeCell(f).rightJustified(17)
           + QString::number(f.atCap).rightJustified(8) + QString::number(f.pagesReadAhead).rightJustified(12)
           + QString::number(f.pagesUsed).rightJustified(10) + QString::number(f.pagesWasted).rightJustified(10)
           + waitP50Cell(f).rightJustified(11);
}

QString deviceHeading(const DeviceReadahead &d)
{
    if (!d.blockDevice)
        return QStringLiteral("%1 (no block device: a filesystem without one, such as tmpfs, NFS or btrfs)").arg(d.name);
    QString text = d.name + QStringLiteral("  read_ahead_kb ")
                   + (d.readAheadKiB ? QString::number(*d.readAheadKiB) : QStringLiteral("?"));
    if (d.partition)
        text += QStringLiteral(" (partition; read_ahead_kb is %1's)").arg(d.queueDevice);
    return text;
}

void appendDeviceTable(QTextStream &s, const DeviceReadahead &d)
{
    s << '\n' << deviceHeading(d) << '\n';
    s << "  kind     windows    sync  size p50/p90 KiB  at cap  read ahead      used    wasted   wait p50\n";
    for (const ReadaheadKind kind : kAllReadaheadKinds)
        s << tableRow(readaheadKindName(kind), d.of(kind)) << '\n';
    s << tableRow(QStringLiteral("all"), d.all) << '\n';
    s << "  pages read ahead and not used yet (still cached): " << d.all.pagesUnusedCached
      << "; interleaved restarts: " << d.all.interleavedRestarts;
    if (d.all.pagesUntracked)
        s << "; not followed (table full): " << d.all.pagesUntracked;
    s << '\n';
}

} // namespace

QString formatReadaheadReport(const ReadaheadReport &report)
{
    QString out;
    QTextStream s(&out);
    s << "readahead over " << QString::number(report.durationS, 'f', 1) << " s (windows from the kernel's "
      << report.coverage.windows << "; pages in " << readaheadPageKiB() << " KiB pages; sync = windows a miss "
      << "started; wait = how long used pages sat in the cache, log2 buckets)\n";
    if (!report.coverage.pages)
        s << report.coverage.pagesUnavailable << '\n';
    if (!report.coverage.faults)
        s << "mmap windows are counted as sync and async (this kernel has no tracepoint filemap:mm_filemap_fault)\n";
    if (report.dropped)
        s << report.dropped << " events not counted: the probe's tables were full\n";
    if (report.devices.isEmpty())
        s << "\nno readahead seen\n";
    for (const DeviceReadahead &d : report.devices)
        appendDeviceTable(s, d);
    return out;
}

} // namespace blocktune
