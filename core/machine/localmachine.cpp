#include "machine.h"

#include "devices/devicejson.h"
#include "devices/devicemodel.h"
#include "devices/devicewatcher.h"
#include "history/history.h"
#include "readahead/helperreadahead.h"

#include <QSysInfo>
#include <QTimer>

#include <unistd.h>

namespace blocktune {

namespace {

/// Hotplug on this machine: udev's (or the kernel's) uevents, a burst of
/// them one devicesChanged() after 200 ms of quiet.
class LocalDeviceEvents final : public DeviceEvents
{
public:
    explicit LocalDeviceEvents(QObject *parent) : DeviceEvents(parent), m_watcher(new DeviceWatcher(this))
    {
        m_debounce.setSingleShot(true);
        m_debounce.setInterval(200);
        connect(&m_debounce, &QTimer::timeout, this, &DeviceEvents::devicesChanged);
        auto kick = [this](const QString &) { m_debounce.start(); };
        connect(m_watcher, &DeviceWatcher::deviceAdded, this, kick);
        connect(m_watcher, &DeviceWatcher::deviceRemoved, this, kick);
        connect(m_watcher, &DeviceWatcher::deviceChanged, this, kick);
    }
    bool start() override { return m_watcher->start(); }
    bool isRunning() const override { return m_watcher->isRunning(); }
    QString source() const override { return m_watcher->source(); }
    int pollIntervalMs() const override { return 0; }

private:
    DeviceWatcher *m_watcher;
    QTimer m_debounce;
};

/// This machine as it runs, or a recorded tree (whose counters are its
/// files and which nothing measures).
class LocalMachine final : public Machine
{
public:
    LocalMachine(SysRoot root, SessionOptions options)
        : m_root(std::move(root)), m_options(std::move(options)), m_measurer(makeLocalMeasurer(m_root)),
          m_profileStore(ProfileStore::standard(m_root)), m_profiles(makeLocalProfileLibrary(m_profileStore)),
          m_historyPath(HistoryStore::defaultPath())
    {
    }

    QString displayName() const override { return m_root.root(); }
    const SysRoot &root() const override { return m_root; }
    SessionOptions sessionOptions() const override { return m_options; }
    MachineCapabilities capabilities() const override
    {
        MachineCapabilities c;
        c.write = m_options.readOnlyReason.isEmpty();
        c.measure = m_root.isLive();
        c.latencyProbe = m_root.isLive();
        c.readaheadProbe = m_root.isLive();
        if (!c.readaheadProbe)
            c.noReadaheadProbe = QStringLiteral("a recorded tree (--sysroot) has no running kernel or workload to watch");
        c.frozenCounters = !m_root.isLive();
        return c;
    }
    std::shared_ptr<Measurer> measurer() const override { return m_measurer; }
    QString historyPath() const override { return m_historyPath; }
    bool refreshHistory(QObject *, std::function<void(const QString &)>) override { return false; }
    std::shared_ptr<ProfileLibrary> profiles() const override { return m_profiles; }
    QString profileUserDir() const override { return m_profileStore.userDir(); }
    DeviceEvents *watchDevices(QObject *parent) override
    {
        // A recorded tree does not change under us.
        return m_root.isLive() ? new LocalDeviceEvents(parent) : nullptr;
    }

private:
    SysRoot m_root;
    SessionOptions m_options;
    std::shared_ptr<Measurer> m_measurer;
    ProfileStore m_profileStore;
    std::shared_ptr<ProfileLibrary> m_profiles;
    QString m_historyPath;
};

} // namespace

Result<DeviceListing> Machine::listDevices(bool probe) const
{
    ScanOptions options;
    options.probeFilesystems = probe;
    auto model = DeviceModel::scan(root(), options);
    if (!model)
        return model.error();
    return DeviceListing{modelToJson(*model), model->warnings()};
}

Result<std::unique_ptr<ReadaheadSource>> Machine::openReadaheadSource() const
{
    if (const MachineCapabilities can = capabilities(); !can.readaheadProbe)
        return makeError(NotSupported, can.noReadaheadProbe);
    // Root loads the program itself; a user reads it through blocktune-helper
    // (pkexec), as the monitor's latency histograms. The test switch
    // BLOCKTUNE_BPF_REFUSE=1 (which pkexec would not pass on) refuses here.
    if (::geteuid() != 0 && qEnvironmentVariableIntValue("BLOCKTUNE_BPF_REFUSE") != 1)
        return startHelperReadaheadSource();
    auto probe = ReadaheadProbe::load();
    if (!probe)
        return probe.error();
    return std::unique_ptr<ReadaheadSource>(std::move(*probe));
}

Result<JournalFolder> Machine::journals() const
{
    auto dir = journalDirectory();
    if (!dir)
        return dir.error();
    return JournalFolder{*dir, findJournals(root())};
}

QString Machine::hostName() const
{
    return root().isLive() ? QSysInfo::machineHostName() : QString();
}

QString Machine::placeName() const
{
    return root().isLive() ? QStringLiteral("host %1").arg(QSysInfo::machineHostName())
                           : QStringLiteral("the recorded tree %1").arg(root().root());
}

Result<UdevRulesPreview> Machine::previewUdevRules(RulesChange change, const QString &fileName,
                                                   const QByteArray &content) const
{
    return blocktune::previewUdevRules(root(), change, fileName, content);
}

Result<InstalledUdevRules> Machine::installedUdevRules(const QString &profileName) const
{
    return InstalledUdevRules{root().root() + QStringLiteral("/etc/udev/rules.d"),
                              blocktune::installedUdevRules(root(), profileName)};
}

std::shared_ptr<Machine> openMachine(const SysRoot &root, SessionOptions options)
{
    return std::make_shared<LocalMachine>(root, std::move(options));
}

} // namespace blocktune
