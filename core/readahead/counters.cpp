// Readahead counters: their names, the difference of two readings, and
// their wire form (what a source on another machine or behind the helper
// sends).
#include "readahead.h"

#include "common/tr.h"

#include <QJsonArray>

#include <unistd.h>

namespace blocktune {

QString readaheadKindName(ReadaheadKind kind)
{
    switch (kind) {
    case ReadaheadKind::Sync: return QStringLiteral("sync");
    case ReadaheadKind::Async: return QStringLiteral("async");
    case ReadaheadKind::Mmap: return QStringLiteral("mmap");
    case ReadaheadKind::Forced: return QStringLiteral("forced");
    }
    return QString();
}

quint64 readaheadPageKiB()
{
    static const quint64 kib = [] {
        const long bytes = ::sysconf(_SC_PAGESIZE);
        return bytes >= 1024 ? quint64(bytes) / 1024 : 4;
    }();
    return kib;
}

void addReadaheadCounters(ReadaheadKindCounters &into, const ReadaheadKindCounters &from)
{
    into.windows += from.windows;
    into.missWindows += from.missWindows;
    into.atCap += from.atCap;
    for (auto it = from.sizes.constBegin(); it != from.sizes.constEnd(); ++it)
        into.sizes[it.key()] += it.value();
    for (auto it = from.asyncSizes.constBegin(); it != from.asyncSizes.constEnd(); ++it)
        into.asyncSizes[it.key()] += it.value();
    into.pagesReadAhead += from.pagesReadAhead;
    into.pagesUsed += from.pagesUsed;
    into.pagesWasted += from.pagesWasted;
    into.pagesUntracked += from.pagesUntracked;
    into.interleavedRestarts += from.interleavedRestarts;
    for (size_t b = 0; b < into.wait.counts.size(); ++b)
        into.wait.counts[b] += from.wait.counts[b];
}

void addReadaheadCounters(DeviceReadaheadCounters &into, const DeviceReadaheadCounters &from)
{
    for (size_t k = 0; k < into.kinds.size(); ++k)
        addReadaheadCounters(into.kinds[k], from.kinds[k]);
}

// ---- The difference of two readings ----------------------------------------------

namespace {

quint64 countMinus(quint64 after, quint64 before)
{
    return after >= before ? after - before : 0;
}

WindowSizes windowSizesDelta(const WindowSizes &before, const WindowSizes &after)
{
    WindowSizes d;
    for (auto it = after.constBegin(); it != after.constEnd(); ++it)
        if (const quint64 n = countMinus(it.value(), before.value(it.key())); n > 0)
            d.insert(it.key(), n);
    return d;
}

ReadaheadKindCounters kindCountersDelta(const ReadaheadKindCounters &b, const ReadaheadKindCounters &a)
{
    ReadaheadKindCounters d;
    d.windows = countMinus(a.windows, b.windows);
    d.missWindows = countMinus(a.missWindows, b.missWindows);
    d.atCap = countMinus(a.atCap, b.atCap);
    d.sizes = windowSizesDelta(b.sizes, a.sizes);
    d.asyncSizes = windowSizesDelta(b.asyncSizes, a.asyncSizes);
    d.pagesReadAhead = countMinus(a.pagesReadAhead, b.pagesReadAhead);
    d.pagesUsed = countMinus(a.pagesUsed, b.pagesUsed);
    d.pagesWasted = countMinus(a.pagesWasted, b.pagesWasted);
    d.pagesUntracked = countMinus(a.pagesUntracked, b.pagesUntracked);
    d.interleavedRestarts = countMinus(a.interleavedRestarts, b.interleavedRestarts);
    d.wait = histogramDelta(b.wait, a.wait);
    return d;
}

} // namespace

ReadaheadCountersMap readaheadDelta(const ReadaheadCountersMap &before, const ReadaheadCountersMap &after)
{
    ReadaheadCountersMap out;
    for (auto it = after.constBegin(); it != after.constEnd(); ++it) {
        const DeviceReadaheadCounters b = before.value(it.key());
        DeviceReadaheadCounters d;
        for (size_t k = 0; k < d.kinds.size(); ++k)
            d.kinds[k] = kindCountersDelta(b.kinds[k], it.value().kinds[k]);
        out.insert(it.key(), d);
    }
    return out;
}

// ---- The wire form --------------------------------------------------------------------

namespace {

QJsonArray windowSizesToJson(const WindowSizes &sizes)
{
    QJsonArray pairs;
    for (auto it = sizes.constBegin(); it != sizes.constEnd(); ++it)
        pairs.append(QJsonArray{double(it.key()), double(it.value())});
    return pairs;
}

std::optional<WindowSizes> windowSizesFromJson(const QJsonValue &v)
{
    if (!v.isArray())
        return std::nullopt;
    WindowSizes sizes;
    for (const QJsonValue &pair : v.toArray()) {
        const QJsonArray a = pair.toArray();
        const auto pages = jsonCount(a.at(0));
        const auto windows = jsonCount(a.at(1));
        if (a.size() != 2 || !pages || !windows || *pages > 0xffffffffu || sizes.contains(quint32(*pages)))
            return std::nullopt;
        sizes.insert(quint32(*pages), *windows);
    }
    return sizes;
}

QJsonObject kindCountersToJson(const ReadaheadKindCounters &c)
{
    return QJsonObject{{QStringLiteral("windows"), double(c.windows)},
                       {QStringLiteral("miss_windows"), double(c.missWindows)},
                       {QStringLiteral("at_cap"), double(c.atCap)},
                       {QStringLiteral("sizes"), windowSizesToJson(c.sizes)},
                       {QStringLiteral("async_sizes"), windowSizesToJson(c.asyncSizes)},
                       {QStringLiteral("pages_read_ahead"), double(c.pagesReadAhead)},
                       {QStringLiteral("pages_used"), double(c.pagesUsed)},
                       {QStringLiteral("pages_wasted"), double(c.pagesWasted)},
                       {QStringLiteral("pages_untracked"), double(c.pagesUntracked)},
                       {QStringLiteral("interleaved_restarts"), double(c.interleavedRestarts)},
                       {QStringLiteral("wait"), log2HistogramToJson(c.wait)}};
}

// The name of the first part of `o` that is missing or malformed; empty
// when it reads.
QString kindCountersFromJson(const QJsonObject &o, ReadaheadKindCounters *c)
{
    const std::pair<const char *, quint64 *> counts[] = {
        {"windows", &c->windows}, {"miss_windows", &c->missWindows}, {"at_cap", &c->atCap},
        {"pages_read_ahead", &c->pagesReadAhead}, {"pages_used", &c->pagesUsed},
        {"pages_wasted", &c->pagesWasted}, {"pages_untracked", &c->pagesUntracked},
        {"interleaved_restarts", &c->interleavedRestarts}};
    for (const auto &[key, field] : counts) {
        const auto n = jsonCount(o.value(QLatin1StringView(key)));
        if (!n)
            return QLatin1StringView(key);
        *field = *n;
    }
    const auto sizes = windowSizesFromJson(o.value(u"sizes"));
    const auto asyncSizes = windowSizesFromJson(o.value(u"async_sizes"));
    const auto wait = log2HistogramFromJson(o.value(u"wait"));
    if (!sizes)
        return QStringLiteral("sizes");
    if (!asyncSizes)
        return QStringLiteral("async_sizes");
    if (!wait)
        return QStringLiteral("wait");
    c->sizes = *sizes;
    c->asyncSizes = *asyncSizes;
    c->wait = *wait;
    return QString();
}

// `path` in the JSON's own terms: devices[2].sync.sizes.
Error readaheadWireError(const QString &path)
{
    return makeError(InvalidArgument,
                     ReadaheadText::tr("readahead counters: \"%1\" is missing or malformed").arg(path));
}

Result<std::pair<quint64, DeviceReadaheadCounters>> readaheadDeviceFromJson(const QJsonValue &v, qsizetype index)
{
    const QString at = QStringLiteral("devices[%1]").arg(index);
    const QJsonObject o = v.toObject();
    const auto number = parseDeviceNumber(o.value(u"dev").toString());
    if (!v.isObject() || !number)
        return readaheadWireError(at + QStringLiteral(".dev"));
    DeviceReadaheadCounters d;
    for (const ReadaheadKind kind : kAllReadaheadKinds) {
        const QString name = at + u'.' + readaheadKindName(kind);
        if (!o.value(readaheadKindName(kind)).isObject())
            return readaheadWireError(name);
        if (const QString bad = kindCountersFromJson(o.value(readaheadKindName(kind)).toObject(), &d.of(kind)); !bad.isEmpty())
            return readaheadWireError(name + u'.' + bad);
    }
    return std::pair{*number, d};
}

} // namespace

QJsonObject readaheadSnapshotToJson(const ReadaheadSnapshot &snapshot)
{
    QList<quint64> numbers = snapshot.devices.keys();
    std::sort(numbers.begin(), numbers.end());
    QJsonArray devices;
    for (const quint64 number : std::as_const(numbers)) {
        QJsonObject device{{QStringLiteral("dev"), deviceNumberText(number)}};
        for (const ReadaheadKind kind : kAllReadaheadKinds)
            device.insert(readaheadKindName(kind), kindCountersToJson(snapshot.devices.value(number).of(kind)));
        devices.append(device);
    }
    return QJsonObject{{QStringLiteral("taken_ms"), double(snapshot.takenMs)},
                       {QStringLiteral("dropped"), double(snapshot.dropped)},
                       {QStringLiteral("devices"), devices}};
}

Result<ReadaheadSnapshot> readaheadSnapshotFromJson(const QJsonObject &object)
{
    ReadaheadSnapshot s;
    const auto taken = jsonCount(object.value(u"taken_ms"));
    const auto dropped = jsonCount(object.value(u"dropped"));
    if (!taken)
        return readaheadWireError(QStringLiteral("taken_ms"));
    if (!dropped)
        return readaheadWireError(QStringLiteral("dropped"));
    if (!object.value(u"devices").isArray())
        return readaheadWireError(QStringLiteral("devices"));
    s.takenMs = qint64(*taken);
    s.dropped = *dropped;
    const QJsonArray devices = object.value(u"devices").toArray();
    for (qsizetype i = 0; i < devices.size(); ++i) {
        auto device = readaheadDeviceFromJson(devices.at(i), i);
        if (!device)
            return device.error();
        if (s.devices.contains(device->first))
            return makeError(InvalidArgument, ReadaheadText::tr("readahead counters: device %1 is given twice")
                                                  .arg(deviceNumberText(device->first)));
        s.devices.insert(device->first, device->second);
    }
    return s;
}

QJsonObject readaheadCoverageToJson(const ReadaheadCoverage &coverage)
{
    QJsonObject o{{QStringLiteral("windows"), coverage.windows},
                  {QStringLiteral("faults"), coverage.faults},
                  {QStringLiteral("pages"), coverage.pages}};
    if (!coverage.pagesUnavailable.isEmpty())
        o.insert(u"pages_unavailable", coverage.pagesUnavailable);
    return o;
}

std::optional<ReadaheadCoverage> readaheadCoverageFromJson(const QJsonObject &object)
{
    const QJsonValue windows = object.value(u"windows");
    const QJsonValue unavailable = object.value(u"pages_unavailable");
    if (!windows.isString() || !object.value(u"faults").isBool() || !object.value(u"pages").isBool()
        || !(unavailable.isUndefined() || unavailable.isString()))
        return std::nullopt;
    ReadaheadCoverage c;
    c.windows = windows.toString();
    c.faults = object.value(u"faults").toBool();
    c.pages = object.value(u"pages").toBool();
    c.pagesUnavailable = unavailable.toString();
    return c;
}

} // namespace blocktune
