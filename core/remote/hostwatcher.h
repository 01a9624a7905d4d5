#pragma once
// Following a host's changes from its console window: the host's uevents
// and inotify events do not reach this machine, so the window asks the
// agent every few seconds for a digest (a few bytes whatever the host's
// size) and acts when it changed:
//   HostDeviceWatcher   op "block_devices": its block devices; the window
//                       then records the host again (File -> Rescan's road).
//   HostProfileWatch    op "profiles" (digest only): its profile folders;
//                       the Profiles page then lists them again.
// Between changes nothing but the digest crosses the link.

#include "remote.h"

#include <QJsonObject>
#include <QObject>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace blocktune {

/// Asks the agent `request` every interval on a thread of its own; calls
/// `changed(answer)` when the answer's "digest" differs from the one before,
/// and `stopped(why)` when the agent cannot say (an older one, the link
/// gone), after which it asks no more. Both are called from its thread.
class HostDigestPoller final
{
public:
    HostDigestPoller(std::shared_ptr<RemoteLink> link, QJsonObject request, int intervalMs);
    /// Stops asking (within one answer) and waits for the asking thread.
    ~HostDigestPoller() { stop(); }
    Q_DISABLE_COPY_MOVE(HostDigestPoller)

    /// Takes the digest as it is now, then asks every interval.
    void start(std::function<void(const QJsonObject &)> changed, std::function<void(const QString &)> stopped);
    void stop();
    bool isRunning() const { return m_running.load(); }
    /// The first answer came: changes from then on are seen.
    bool hasBaseline() const { return m_baseline.load(); }
    int intervalMs() const { return m_intervalMs; }
    /// Answers had, and changes told so far.
    int answers() const { return m_answers.load(); }
    int changes() const { return m_changes.load(); }

private:
    void run(const std::function<void(const QJsonObject &)> &changed, const std::function<void(const QString &)> &stopped);

    std::shared_ptr<RemoteLink> m_link;
    QJsonObject m_request;
    int m_intervalMs;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false; ///< under m_mutex
    std::atomic_bool m_running{false};
    std::atomic_bool m_baseline{false};
    std::atomic_int m_answers{0};
    std::atomic_int m_changes{0};
};

class HostDeviceWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostDeviceWatcher)

public:
    explicit HostDeviceWatcher(std::shared_ptr<RemoteLink> link, int intervalMs = 5000, QObject *parent = nullptr);
    ~HostDeviceWatcher() override;

    /// Takes the host's digest as it is now, then asks every interval.
    void start();
    bool isRunning() const { return m_poller.isRunning(); }
    /// The first answer came: changes from then on are seen. (A device
    /// added between the connect's record and that answer is not: the
    /// snapshot does not carry the digest yet.)
    bool hasBaseline() const { return m_poller.hasBaseline(); }
    /// "answers N, changes told M": for a report of a list that did not follow.
    QString pollReport() const
    {
        return QStringLiteral("answers %1, changes told %2, %3").arg(m_poller.answers()).arg(m_poller.changes())
            .arg(m_poller.isRunning() ? QStringLiteral("asking") : QStringLiteral("stopped"));
    }

Q_SIGNALS:
    /// From the watcher's thread: the host's block devices are not those
    /// of the last answer (`count` of them now).
    void devicesChanged(int count);
    /// The agent cannot say (an older one, or the link went): no more asking.
    void stopped(const QString &why);

private:
    HostDigestPoller m_poller;
};

/// A host's profile folders, asked about every `intervalMs` (op "profiles"
/// with "digest_only"): changed() when a profile was saved, replaced or
/// removed there, stopped() when an older agent cannot say.
class HostProfileWatch final : public ProfileWatch
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostProfileWatch)

public:
    HostProfileWatch(std::shared_ptr<RemoteLink> link, int intervalMs, QObject *parent = nullptr);
    ~HostProfileWatch() override;
    QString describe() const override;
    bool hasBaseline() const { return m_poller.hasBaseline(); }

private:
    QString m_host;
    HostDigestPoller m_poller;
};

} // namespace blocktune
