#include "hostwatcher.h"

namespace blocktune {

HostDeviceWatcher::HostDeviceWatcher(std::shared_ptr<RemoteLink> link, int intervalMs, QObject *parent)
    : QObject(parent), m_link(std::move(link)), m_intervalMs(intervalMs)
{
}

HostDeviceWatcher::~HostDeviceWatcher()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void HostDeviceWatcher::start()
{
    if (m_thread.joinable())
        return;
    m_running = true;
    m_thread = std::thread([this] { run(); });
}

void HostDeviceWatcher::run()
{
    const QJsonObject request{{QStringLiteral("op"), QStringLiteral("block_devices")}};
    QString last;
    QString why;
    for (;;) {
        auto answer = m_link->call(request);
        if (!answer || !answer->value(u"ok").toBool(true) || !answer->contains(u"digest")) {
            why = answer ? answer->value(u"error").toString() : answer.error().message;
            break;
        }
        const QString digest = answer->value(u"digest").toString();
        if (!last.isEmpty() && digest != last)
            Q_EMIT devicesChanged(answer->value(u"count").toInt());
        last = digest;
        m_baseline = true;
        std::unique_lock lock(m_mutex);
        if (m_wake.wait_for(lock, std::chrono::milliseconds(m_intervalMs), [this] { return m_stop; })) {
            m_running = false;
            return; // the window closes: no word needed
        }
    }
    m_running = false;
    Q_EMIT stopped(why);
}

} // namespace blocktune
