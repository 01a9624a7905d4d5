#include "hostwatcher.h"

#include "common/jsonlines.h"
#include "common/tr.h"

namespace blocktune {

HostDigestPoller::HostDigestPoller(std::shared_ptr<RemoteLink> link, QJsonObject request, int intervalMs)
    : m_link(std::move(link)), m_request(std::move(request)), m_intervalMs(intervalMs)
{
}

void HostDigestPoller::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void HostDigestPoller::start(std::function<void(const QJsonObject &)> changed, std::function<void(const QString &)> stopped)
{
    if (m_thread.joinable())
        return;
    m_running = true;
    m_thread = std::thread([this, changed = std::move(changed), stopped = std::move(stopped)] { run(changed, stopped); });
}

void HostDigestPoller::run(const std::function<void(const QJsonObject &)> &changed,
                           const std::function<void(const QString &)> &stopped)
{
    QString last;
    QString why;
    for (;;) {
        auto answer = m_link->call(m_request);
        if (!answer) {
            why = answer.error().message; // the link went
            break;
        }
        ++m_answers;
        const bool ok = answer->value(u"ok").toBool(true);
        const int code = errorCodeFromName(answer->value(u"code").toString());
        if ((ok && !answer->contains(u"digest")) || (!ok && (code == InvalidArgument || code == NotSupported))) {
            // An older agent: it does not know the op, and never will.
            why = ok ? QStringLiteral("the agent's answer carries no digest") : answer->value(u"error").toString();
            break;
        }
        // Any other refusal is this time's (a busy host): asked again at
        // the next interval, the last digest kept.
        if (ok) {
            const QString digest = answer->value(u"digest").toString();
            if (!last.isEmpty() && digest != last) {
                ++m_changes;
                changed(*answer);
            }
            last = digest;
            m_baseline = true;
        }
        std::unique_lock lock(m_mutex);
        if (m_wake.wait_for(lock, std::chrono::milliseconds(m_intervalMs), [this] { return m_stop; })) {
            m_running = false;
            return; // the window closes: no word needed
        }
    }
    m_running = false;
    stopped(why);
}

HostDeviceWatcher::HostDeviceWatcher(std::shared_ptr<RemoteLink> link, int intervalMs, QObject *parent)
    : QObject(parent), m_poller(std::move(link), {{QStringLiteral("op"), QStringLiteral("block_devices")}}, intervalMs)
{
}

HostDeviceWatcher::~HostDeviceWatcher()
{
    m_poller.stop(); // before the signals it emits go
}

void HostDeviceWatcher::start()
{
    m_poller.start([this](const QJsonObject &answer) { Q_EMIT devicesChanged(answer.value(u"count").toInt()); },
                   [this](const QString &why) { Q_EMIT stopped(why); });
}

HostProfileWatch::HostProfileWatch(std::shared_ptr<RemoteLink> link, int intervalMs, QObject *parent)
    : ProfileWatch(parent), m_host(link->target().host),
      m_poller(std::move(link), {{QStringLiteral("op"), QStringLiteral("profiles")}, {QStringLiteral("digest_only"), true}},
               intervalMs)
{
    m_poller.start([this](const QJsonObject &) { Q_EMIT changed(); },
                   [this](const QString &why) {
                       Q_EMIT stopped(RemoteText::tr("%1's profiles are no longer followed: %2").arg(m_host, why));
                   });
}

HostProfileWatch::~HostProfileWatch()
{
    m_poller.stop();
}

QString HostProfileWatch::describe() const
{
    return RemoteText::tr("%1's profile folders, asked every %n s", nullptr, m_poller.intervalMs() / 1000).arg(m_host);
}

} // namespace blocktune
