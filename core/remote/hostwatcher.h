#pragma once
// A host's hotplug, for its console window: the host's uevents do not reach
// this machine, so the watcher asks the agent every few seconds for its
// block devices' digest (op "block_devices": a count and a hash, a few
// bytes whatever the host's size) and says when it changed; the window then
// records the host again (File -> Rescan's road). Between changes nothing
// but the digest crosses the link.

#include "remote.h"

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace blocktune {

class HostDeviceWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostDeviceWatcher)

public:
    explicit HostDeviceWatcher(std::shared_ptr<RemoteLink> link, int intervalMs = 5000, QObject *parent = nullptr);
    /// Stops asking (within one answer) and waits for the asking thread.
    ~HostDeviceWatcher() override;

    /// Takes the host's digest as it is now, then asks every interval.
    void start();
    bool isRunning() const { return m_running.load(); }
    /// The first answer came: changes from then on are seen. (A device
    /// added between the connect's record and that answer is not: the
    /// snapshot does not carry the digest yet.)
    bool hasBaseline() const { return m_baseline.load(); }

Q_SIGNALS:
    /// From the watcher's thread: the host's block devices are not those
    /// of the last answer (`count` of them now).
    void devicesChanged(int count);
    /// The agent cannot say (an older one, or the link went): no more asking.
    void stopped(const QString &why);

private:
    void run();

    std::shared_ptr<RemoteLink> m_link;
    int m_intervalMs;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false; ///< under m_mutex
    std::atomic_bool m_running{false};
    std::atomic_bool m_baseline{false};
};

} // namespace blocktune
