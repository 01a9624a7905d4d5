// blocktune-helper's "latency" op and its reader: the helper loads the one
// BPF program built into it (BlockLatencyProbe) for the devices a request
// names and streams their cumulative histograms as JSON lines; the console,
// not root, reads them as a LatencySource (startHelperLatencySource).
#include "helperlatency.h"

#include "common/tr.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace blocktune {

namespace {

// ---- The helper's side ------------------------------------------------------------

struct AskedDevice
{
    QString name;
    quint64 number = 0;
};

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

class Stream final : public HelperStream
{
public:
    Stream(QJsonValue id, QList<AskedDevice> devices, int intervalMs, std::unique_ptr<LatencySource> source)
        : m_id(std::move(id)), m_devices(std::move(devices)), m_intervalMs(intervalMs), m_source(std::move(source))
    {
        m_since.start();
    }
    int intervalMs() const override { return m_intervalMs; }
    QByteArray tick() override;
    QByteArray end() override
    {
        QJsonObject o = head(true);
        o.insert(u"end", true);
        o.insert(u"ticks", double(m_ticks));
        return compact(o);
    }

private:
    QJsonObject head(bool ok) const
    {
        QJsonObject o{{QStringLiteral("ok"), ok}, {QStringLiteral("op"), QStringLiteral("latency")}};
        if (!m_id.isUndefined())
            o.insert(u"id", m_id);
        return o;
    }

    QJsonValue m_id;
    QList<AskedDevice> m_devices;
    int m_intervalMs;
    std::unique_ptr<LatencySource> m_source;
    QElapsedTimer m_since;
    qint64 m_ticks = 0;
};

QByteArray Stream::tick()
{
    const qint64 tickNumber = m_ticks++;
    auto totals = m_source->totals();
    if (!totals) {
        QJsonObject o = head(false);
        o.insert(u"tick", double(tickNumber));
        o.insert(u"error", totals.error().message);
        o.insert(u"code", errorCodeName(totals.error().code));
        return compact(o);
    }
    QJsonObject devices;
    for (const AskedDevice &d : m_devices) {
        const auto it = totals->constFind(d.number);
        if (it == totals->constEnd())
            continue; // no request completed yet
        devices.insert(d.name, latencyTotalsToJson(d.number, *it));
    }
    QJsonObject o = head(true);
    o.insert(u"tick", double(tickNumber));
    o.insert(u"elapsed_ms", double(m_since.elapsed()));
    o.insert(u"interval_ms", m_intervalMs);
    o.insert(u"devices", devices);
    return compact(o);
}

Result<AskedDevice> checkDevice(const SysRoot &root, const QString &name)
{
    auto dir = openBlockDevice(root, name);
    if (!dir)
        return dir.error();
    const QString dev = dir->readString("dev").value_or(QString());
    const auto number = parseDeviceNumber(dev);
    if (!number)
        return makeError(NotFound, QStringLiteral("'%1' has no readable device number (dev)").arg(name));
    return AskedDevice{name, *number};
}

Result<QList<AskedDevice>> checkDevices(const SysRoot &root, const QJsonValue &v)
{
    const QString rule = QStringLiteral("1 to %1 block device kernel names, e.g. [\"sda\",\"nvme0n1\"]")
                             .arg(kHelperMaxLatencyDevices);
    if (!v.isArray())
        return makeError(InvalidArgument, QStringLiteral("'latency' needs 'devices', a list of %1").arg(rule));
    const QJsonArray list = v.toArray();
    if (list.isEmpty())
        return makeError(InvalidArgument, QStringLiteral("'devices' is empty: name %1").arg(rule));
    if (list.size() > kHelperMaxLatencyDevices)
        return makeError(InvalidArgument, QStringLiteral("'devices' lists %1 devices: at most %2 are allowed")
                                              .arg(list.size())
                                              .arg(kHelperMaxLatencyDevices));
    QList<AskedDevice> devices;
    QSet<QString> seen;
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!list[i].isString())
            return makeError(InvalidArgument, QStringLiteral("'devices' entry %1 is not a string (allowed: %2)")
                                                  .arg(i + 1)
                                                  .arg(rule));
        const QString name = list[i].toString();
        if (name.isEmpty())
            return makeError(InvalidArgument,
                             QStringLiteral("'devices' entry %1 is empty (allowed: %2)").arg(i + 1).arg(rule));
        if (seen.contains(name))
            return makeError(InvalidArgument,
                             QStringLiteral("device '%1' is listed twice in 'devices' (name each device once)")
                                 .arg(name.left(64)));
        seen.insert(name);
        auto device = checkDevice(root, name);
        if (!device)
            return device.error();
        devices.append(*device);
    }
    return devices;
}

Result<std::unique_ptr<LatencySource>> loadBuiltIn()
{
    auto probe = BlockLatencyProbe::load();
    if (!probe)
        return probe.error();
    return std::unique_ptr<LatencySource>(std::move(*probe));
}

Result<QByteArray> startLatency(const SysRoot &root, const HelperLatencyLoader &loader, const QJsonObject &request,
                                std::unique_ptr<HelperStream> *stream)
{
    for (auto it = request.begin(); it != request.end(); ++it)
        if (it.key() != u"op" && it.key() != u"id" && it.key() != u"devices" && it.key() != u"interval_ms")
            return makeError(InvalidArgument, QStringLiteral("'latency' takes 'devices' and 'interval_ms', nothing "
                                                             "else (got '%1')")
                                                  .arg(it.key().left(64)));
    auto interval = checkHelperIntervalMs(QStringLiteral("latency"), request.value(u"interval_ms"),
                                          kHelperMinLatencyIntervalMs, kHelperMaxLatencyIntervalMs);
    if (!interval)
        return interval.error();
    auto devices = checkDevices(root, request.value(u"devices"));
    if (!devices)
        return devices.error();
    // Only the program built in, only on the machine it times.
    if (!loader && !root.isLive())
        return makeError(Refused, QStringLiteral("latency histograms measure the live machine, not a recorded tree "
                                                 "(--sysroot): nothing was loaded"));
    if (!stream)
        return makeError(Refused, QStringLiteral("'latency' streams only in blocktune-helper's own loop"));
    auto source = loader ? loader() : loadBuiltIn();
    if (!source)
        return source.error();
    *stream = std::make_unique<Stream>(request.value(u"id"), std::move(*devices), *interval, std::move(*source));
    return (*stream)->tick();
}

} // namespace

HelperStreamOp helperLatencyOp(SysRoot root, HelperLatencyLoader loader)
{
    return [root = std::move(root), loader = std::move(loader)](const QJsonObject &request,
                                                                 std::unique_ptr<HelperStream> *stream) {
        return startLatency(root, loader, request, stream);
    };
}

// ---- The reader's side ------------------------------------------------------------

namespace {

QString withoutProbePrefix(QString message)
{
    // The helper's (untranslated) BlockLatencyProbe messages carry it already.
    const QLatin1StringView prefix("latency histograms unavailable: ");
    return message.startsWith(prefix) ? message.mid(prefix.size()) : message;
}

class HelperLatencySource final : public LatencySource
{
public:
    explicit HelperLatencySource(std::unique_ptr<HelperClient> client) : m_client(std::move(client)) {}
    Result<LatencyTotalsMap> totals() override;

private:
    std::unique_ptr<HelperClient> m_client;
};

Result<LatencyTotalsMap> HelperLatencySource::totals()
{
    QString error;
    const QJsonObject line = m_client->streamLine(&error);
    if (!error.isEmpty())
        return makeError(Refused, PrivilegeText::tr("latency histograms stopped: %1").arg(error));
    if (line.isEmpty())
        return LatencyTotalsMap{}; // no tick read yet
    if (!line.value(u"ok").toBool())
        return makeError(errorCodeFromName(line.value(u"code").toString()),
                         PrivilegeText::tr("latency histograms unavailable through blocktune-helper: %1")
                             .arg(withoutProbePrefix(line.value(u"error").toString())));
    LatencyTotalsMap out;
    const QJsonObject devices = line.value(u"devices").toObject();
    for (auto it = devices.begin(); it != devices.end(); ++it) {
        quint64 number = 0;
        const auto totals = latencyTotalsFromJson(it->toObject(), &number);
        if (!totals)
            return makeError(InvalidArgument,
                             PrivilegeText::tr("blocktune-helper sent latency figures for %1 that do not parse")
                                 .arg(it.key().left(64)));
        out.insert(number, *totals);
    }
    return out;
}

// The block devices of `root` by name (whole disks and partitions: the
// program counts both), at most as many as the op takes.
QStringList latencyDevices(const SysRoot &root)
{
    QStringList names = SysDir::open(root.sysPath("class/block")).list();
    names.removeIf([](const QString &n) { return !SysRoot::isPlausibleKernelName(n); });
    std::sort(names.begin(), names.end());
    return names.mid(0, kHelperMaxLatencyDevices);
}

} // namespace

Result<std::unique_ptr<LatencySource>> startHelperLatencySource(const SysRoot &root, QStringList command,
                                                                int intervalMs)
{
    const QStringList names = latencyDevices(root);
    if (names.isEmpty())
        return makeError(NotFound, PrivilegeText::tr("latency histograms unavailable: no block devices found"));
    auto client = std::make_unique<HelperClient>(std::move(command));
    const QJsonObject request{{QStringLiteral("op"), QStringLiteral("latency")},
                              {QStringLiteral("devices"), QJsonArray::fromStringList(names)},
                              {QStringLiteral("interval_ms"), intervalMs}};
    // A password prompt may take minutes; a helper run directly answers at
    // once or is stuck (loading the program), and says so in 30 s.
    const bool prompts = client->command().value(0) == u"pkexec";
    const HelperReply reply = client->startStream(request, 15000, prompts ? 300000 : 30000);
    if (!reply.ok) {
        // An answer from the helper: it ran, the program did not load (or it
        // refused the request). No answer: the helper never ran.
        const bool answered = reply.body.value(u"op").toString() == u"latency";
        const QString why = answered ? PrivilegeText::tr("blocktune-helper could not load its BPF program: %1")
                                           .arg(withoutProbePrefix(reply.error))
                                     : PrivilegeText::tr("blocktune-helper could not be started: %1").arg(reply.error);
        return makeError(answered ? errorCodeFromName(reply.body.value(u"code").toString()) : int(Refused),
                         PrivilegeText::tr("latency histograms unavailable: %1").arg(why));
    }
    return std::unique_ptr<LatencySource>(std::make_unique<HelperLatencySource>(std::move(client)));
}

} // namespace blocktune
