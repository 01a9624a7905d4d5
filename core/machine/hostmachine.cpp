#include "machine.h"

#include "remote/hostwatcher.h"

#include <QCoreApplication>
#include <cerrno>
#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QPointer>
#include <QTemporaryDir>
#include <QThread>

namespace blocktune {

namespace {

/// How often a host is asked whether its block devices changed.
constexpr int kHostWatchIntervalMs = 5000;

/// A host's hotplug: its uevents do not come here, so its agent is asked
/// for a digest of its block devices every few seconds (HostDeviceWatcher).
class HostDeviceEvents final : public DeviceEvents
{
public:
    HostDeviceEvents(std::shared_ptr<RemoteLink> link, QObject *parent)
        : DeviceEvents(parent), m_watcher(new HostDeviceWatcher(std::move(link), kHostWatchIntervalMs, this))
    {
        // From the watcher's thread; queued to this one.
        connect(m_watcher, &HostDeviceWatcher::devicesChanged, this, [this](int) { Q_EMIT devicesChanged(); });
        connect(m_watcher, &HostDeviceWatcher::stopped, this, &DeviceEvents::stopped);
    }
    bool start() override
    {
        m_watcher->start();
        return true;
    }
    bool isRunning() const override { return m_watcher->isRunning(); }
    QString source() const override { return {}; }
    int pollIntervalMs() const override { return kHostWatchIntervalMs; }

private:
    HostDeviceWatcher *m_watcher;
};

/// A host over ssh: changes, read tests, counters, history and profiles go
/// to its agent; the session scans the mirror of its devices kept here.
class HostMachine final : public Machine
{
public:
    HostMachine(RemoteTarget target, RemoteConnection connection, std::unique_ptr<QTemporaryDir> mirror,
                bool recordedWhole)
        : m_target(std::move(target)), m_connection(std::move(connection)), m_mirrorDir(std::move(mirror)),
          m_root(m_connection.mirror), m_options(hostSessionOptions(m_connection)), m_recordedWhole(recordedWhole)
    {
        // From the link's thread; queued to the machine's.
        connect(m_connection.link.get(), &RemoteLink::connectionLost, this, [this](const QString &why) {
            if (m_lost)
                return;
            m_lost = true;
            Q_EMIT connectionLost(why);
        });
    }

    QString displayName() const override { return m_target.host; }
    QString hostName() const override;
    QString placeName() const override;
    const SysRoot &root() const override { return m_root; }
    SessionOptions sessionOptions() const override { return m_options; }
    MachineCapabilities capabilities() const override
    {
        MachineCapabilities c;
        c.write = m_options.readOnlyReason.isEmpty();
        // An agent serving a recorded tree (`--sysroot DIR agent`) has no
        // device to read there either.
        const bool recorded = m_connection.link->hello().raw.value(u"sysroot").toBool();
        c.measure = !recorded;
        c.latencyProbe = !recorded;
        c.noReadaheadProbe = noReadaheadProbe(recorded);
        c.readaheadProbe = c.noReadaheadProbe.isEmpty();
        c.keepsItsOwnHistory = true;
        c.changesHeldThere = true;
        return c;
    }
    Result<DeviceListing> listDevices(bool probe) const override;
    Result<std::unique_ptr<ReadaheadSource>> openReadaheadSource() const override;
    Status recordDevices(const QStringList &devices) override;
    Result<JournalFolder> journals() const override;
    Result<UdevRulesPreview> previewUdevRules(RulesChange change, const QString &fileName,
                                              const QByteArray &content) const override;
    Result<InstalledUdevRules> installedUdevRules(const QString &profileName) const override;
    std::shared_ptr<Measurer> measurer() const override { return m_connection.measurer; }
    QString historyPath() const override { return m_connection.mirror + QStringLiteral("/history.sqlite"); }
    bool refreshHistory(QObject *context, std::function<void(const QString &)> done) override;
    Status keepAdvice(const HistoryRecord &record) override;
    std::shared_ptr<ProfileLibrary> profiles() const override { return m_connection.profiles; }
    QString profileUserDir() const override { return ProfileStore::standard(m_root).userDir(); }
    DeviceEvents *watchDevices(QObject *parent) override { return new HostDeviceEvents(m_connection.link, parent); }

    bool isConnectionLost() const override { return m_lost || m_connection.link->isLost(); }
    std::optional<PreviousEnd> previousEnd() const override;
    void reconnect() override;

private:
    QString noReadaheadProbe(bool recorded) const;

    RemoteTarget m_target;
    RemoteConnection m_connection;
    std::unique_ptr<QTemporaryDir> m_mirrorDir; ///< the mirror's folder, removed with the machine
    SysRoot m_root;
    SessionOptions m_options;
    bool m_recordedWhole = false;  ///< the mirror holds every device of the host
    QStringList m_recordedDevices; ///< the names recordDevices() brought so far
    bool m_lost = false;
};

Status HostMachine::recordDevices(const QStringList &devices)
{
    if (m_recordedWhole)
        return {};
    QStringList fresh;
    for (const QString &name : devices)
        if (!m_recordedDevices.contains(name) && !fresh.contains(name))
            fresh << name;
    if (!devices.isEmpty() && fresh.isEmpty())
        return {};
    if (Status recorded = m_connection.recordMirror(fresh); !recorded)
        return recorded;
    m_recordedWhole = devices.isEmpty();
    m_recordedDevices << fresh;
    return {};
}

// Why the host's readahead cannot be watched through its agent, from its
// hello; empty when it can (op "readahead", an agent as root, a live host).
QString HostMachine::noReadaheadProbe(bool recorded) const
{
    const QJsonObject hello = m_connection.link->hello().raw;
    const QString host = displayName();
    if (recorded)
        return QStringLiteral("%1's agent serves a recorded tree (--sysroot): it has no running kernel or workload "
                              "to watch")
            .arg(host);
    if (!hello.value(u"ops").toArray().contains(QJsonValue(QStringLiteral("readahead"))))
        return QStringLiteral("%1's agent does not serve the readahead probe (its blocktune is older: upgrade it, or "
                              "run it on the host: ssh %1 blocktune-cli readahead)")
            .arg(host);
    if (hello.value(u"euid").toInteger(-1) != 0)
        return QStringLiteral("the agent on %1 runs as %2, not root, and the readahead probe's BPF program needs "
                              "root (connect as root)")
            .arg(host, m_connection.link->hello().user);
    return {};
}

/// The host's readahead probe through its agent (op "readahead"): started
/// when made (the agent loads the probe, or counts one more reader of it),
/// one round trip per snapshot, stopped when destroyed (the agent unloads
/// it when its last reader stops, or when the connection ends).
class AgentReadaheadSource final : public ReadaheadSource
{
public:
    static Result<std::unique_ptr<ReadaheadSource>> start(std::shared_ptr<RemoteLink> link)
    {
        std::unique_ptr<AgentReadaheadSource> source(new AgentReadaheadSource(std::move(link)));
        auto first = source->ask(QStringLiteral("start"));
        if (!first)
            return first.error();
        source->m_started = true; // from here on it stops what it started, even when refused below
        const auto coverage = readaheadCoverageFromJson(first->value(u"coverage").toObject());
        if (!coverage)
            return makeError(InvalidArgument, QStringLiteral("%1: the agent's readahead coverage does not parse")
                                                  .arg(source->m_link->target().host));
        source->m_coverage = *coverage;
        return std::unique_ptr<ReadaheadSource>(std::move(source));
    }
    ~AgentReadaheadSource() override
    {
        if (m_started && !m_link->isLost())
            (void)ask(QStringLiteral("stop"));
    }
    Q_DISABLE_COPY_MOVE(AgentReadaheadSource)

    Result<ReadaheadSnapshot> snapshot() override
    {
        auto answer = ask(QStringLiteral("snapshot"));
        if (!answer)
            return answer.error();
        auto snapshot = readaheadSnapshotFromJson(answer->value(u"snapshot").toObject());
        if (!snapshot)
            return makeError(InvalidArgument, QStringLiteral("%1: the agent's readahead counters do not parse: %2")
                                                  .arg(m_link->target().host, snapshot.error().message));
        return snapshot;
    }
    ReadaheadCoverage coverage() const override { return m_coverage; }

private:
    explicit AgentReadaheadSource(std::shared_ptr<RemoteLink> link) : m_link(std::move(link)) {}

    Result<QJsonObject> ask(const QString &action) const
    {
        auto answer = m_link->call({{QStringLiteral("op"), QStringLiteral("readahead")},
                                    {QStringLiteral("action"), action}});
        if (!answer)
            return answer.error();
        if (!answer->value(u"ok").toBool())
            return makeError(errorCodeFromName(answer->value(u"code").toString()),
                             QStringLiteral("%1: %2").arg(m_link->target().host, answer->value(u"error").toString()));
        return answer;
    }

    std::shared_ptr<RemoteLink> m_link;
    ReadaheadCoverage m_coverage;
    bool m_started = false;
};

Result<std::unique_ptr<ReadaheadSource>> HostMachine::openReadaheadSource() const
{
    if (const MachineCapabilities can = capabilities(); !can.readaheadProbe)
        return makeError(NotSupported, can.noReadaheadProbe);
    return AgentReadaheadSource::start(m_connection.link);
}

Result<DeviceListing> HostMachine::listDevices(bool probe) const
{
    // Op "list": a scan there, filesystems probed there (typed: one flag).
    auto answer = m_connection.link->call({{QStringLiteral("op"), QStringLiteral("list")}, {QStringLiteral("probe"), probe}});
    if (!answer)
        return answer.error();
    if (!answer->value(u"ok").toBool())
        return makeError(EIO, answer->value(u"error").toString());
    QStringList warnings;
    for (const QJsonValue &w : answer->value(u"warnings").toArray())
        warnings << w.toString();
    return DeviceListing{answer->value(u"model").toObject(), warnings};
}

Result<JournalFolder> HostMachine::journals() const
{
    auto answer = m_connection.link->call({{QStringLiteral("op"), QStringLiteral("journals")}});
    if (!answer)
        return answer.error();
    if (!answer->value(u"ok").toBool())
        return makeError(EIO, answer->value(u"error").toString());
    // Named as the host names them, as `restore` there would print them;
    // restore_journal takes that path back.
    JournalFolder folder{answer->value(u"journal_dir").toString(), {}};
    for (const QJsonValue &v : answer->value(u"journals").toArray()) {
        auto found = pendingJournalFromJson(v);
        if (found) {
            folder.journals << *found;
            continue;
        }
        PendingJournal p;
        p.path = v.toObject().value(u"path").toString();
        p.error = found.error().message;
        folder.journals << p;
    }
    return folder;
}

QString HostMachine::hostName() const
{
    const QJsonObject hello = m_connection.link->hello().raw;
    return hello.value(u"sysroot").toBool() ? QString() : hello.value(u"host").toString(m_target.host);
}

QString HostMachine::placeName() const
{
    // As the host names itself (its agent's hello), which is what a file
    // made there by blocktune-cli said.
    const QJsonObject hello = m_connection.link->hello().raw;
    const QString name = hello.value(u"host").toString(m_target.host);
    return hello.value(u"sysroot").toBool() ? QStringLiteral("a recorded tree on host %1").arg(name)
                                            : QStringLiteral("host %1").arg(name);
}

/// An agent's answer, or its refusal with the agent's code and words.
static Result<QJsonObject> askAgent(const RemoteConnection &connection, const QJsonObject &request)
{
    auto answer = connection.link->call(request);
    if (!answer)
        return answer.error();
    if (!answer->value(u"ok").toBool())
        return makeError(errorCodeFromName(answer->value(u"code").toString()), answer->value(u"error").toString());
    return answer;
}

Result<UdevRulesPreview> HostMachine::previewUdevRules(RulesChange change, const QString &fileName,
                                                       const QByteArray &content) const
{
    auto answer = askAgent(m_connection, {{QStringLiteral("op"), QStringLiteral("preview_rules")},
                                          {QStringLiteral("change"), change == RulesChange::Install ? QStringLiteral("install")
                                                                                                     : QStringLiteral("remove")},
                                          {QStringLiteral("file"), fileName},
                                          {QStringLiteral("content"), QString::fromUtf8(content)}});
    if (!answer)
        return answer.error();
    UdevRulesPreview preview;
    preview.path = m_target.host + u':' + answer->value(u"path").toString();
    if (const QJsonValue current = answer->value(u"current"); current.isString())
        preview.current = current.toString().toUtf8();
    return preview;
}

Result<InstalledUdevRules> HostMachine::installedUdevRules(const QString &profileName) const
{
    auto answer = askAgent(m_connection, {{QStringLiteral("op"), QStringLiteral("installed_rules")},
                                          {QStringLiteral("profile"), profileName}});
    if (!answer)
        return answer.error();
    InstalledUdevRules rules{m_target.host + u':' + answer->value(u"dir").toString(), {}};
    for (const QJsonValue &f : answer->value(u"files").toArray())
        rules.files << f.toString();
    return rules;
}

Status HostMachine::keepAdvice(const HistoryRecord &record)
{
    // The fields an advice record has (historyRecord(Advice)); the agent
    // adds the kind, its kernel, the time and the named figures.
    const QJsonObject fields{{QStringLiteral("test"), record.test},
                             {QStringLiteral("device"), record.device},
                             {QStringLiteral("description"), record.description},
                             {QStringLiteral("mb_per_s"), record.mbPerSec},
                             {QStringLiteral("ok"), record.ok},
                             {QStringLiteral("settings"), record.settings},
                             {QStringLiteral("metrics"), record.metrics},
                             {QStringLiteral("result"), record.result}};
    auto answer = m_connection.link->call({{QStringLiteral("op"), QStringLiteral("keep_advice")},
                                           {QStringLiteral("source"), record.source},
                                           {QStringLiteral("record"), fields}});
    if (!answer)
        return answer.error();
    if (!answer->value(u"ok").toBool())
        return makeError(EIO, answer->value(u"error").toString());
    if (answer->contains(u"history_error"))
        return makeError(EIO, answer->value(u"history_error").toString());
    return {};
}

bool HostMachine::refreshHistory(QObject *context, std::function<void(const QString &)> done)
{
    if (isConnectionLost())
        return false;
    const std::function<Status(const QString &)> fetch = m_connection.fetchHistory;
    const QString file = historyPath();
    QPointer<QObject> guard(context);
    QThread *worker = QThread::create([guard, fetch, file, done = std::move(done)] {
        const Status fetched = fetch(file);
        const QString error = fetched ? QString() : fetched.error().message;
        if (guard)
            QMetaObject::invokeMethod(guard.data(), [guard, error, done] {
                if (guard)
                    done(error);
            }, Qt::QueuedConnection);
    });
    QObject::connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
    return true;
}

std::optional<PreviousEnd> HostMachine::previousEnd() const
{
    const QJsonObject previous = m_connection.link->hello().raw.value(u"previous_end").toObject();
    if (previous.isEmpty())
        return std::nullopt;
    return PreviousEnd{previous.value(u"why").toString(), previous.value(u"restored").toInt(),
                       previous.value(u"failed").toInt()};
}

void HostMachine::reconnect()
{
    // ssh's own words when it fails; nothing is retried on its own.
    openMachineInBackground(this, m_target, [this](Result<std::shared_ptr<Machine>> fresh) {
        if (fresh)
            Q_EMIT reconnected(*fresh);
        else
            Q_EMIT reconnectFailed(fresh.error().message);
    });
}

} // namespace

Result<std::shared_ptr<Machine>> openMachine(const RemoteTarget &target, MirrorAtConnect record)
{
    auto mirror = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/blocktune-host-XXXXXX"));
    if (!mirror->isValid())
        return makeError(EIO, QStringLiteral("cannot make a folder for the mirror of %1: %2")
                                  .arg(target.host, mirror->errorString()));
    auto connection = connectToHost(target, mirror->path(), record);
    if (!connection)
        return connection.error();
    return std::shared_ptr<Machine>(std::make_shared<HostMachine>(target, std::move(*connection), std::move(mirror),
                                                                  record == MirrorAtConnect::Whole));
}

void openMachineInBackground(QObject *context, const RemoteTarget &target,
                             std::function<void(Result<std::shared_ptr<Machine>>)> done)
{
    QPointer<QObject> guard(context);
    QThread *caller = context->thread();
    QThread *worker = QThread::create([guard, caller, target, done = std::move(done)] {
        auto result = std::make_shared<Result<std::shared_ptr<Machine>>>(openMachine(target));
        // Back on the context's thread, where the machine is to live (this
        // thread ends now). If the context is gone, the machine is dropped
        // here, on the thread that made it, and ssh is closed.
        if (!guard)
            return;
        if (*result)
            (**result)->moveToThread(caller);
        QMetaObject::invokeMethod(guard.data(), [guard, result, done] {
            if (guard)
                done(std::move(*result));
        }, Qt::QueuedConnection);
    });
    QObject::connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

} // namespace blocktune
