#pragma once

#include "common/sysroot.h"

#include <QByteArray>
#include <QObject>
#include <QString>

struct udev;
struct udev_monitor;
class QSocketNotifier;

namespace blocktune {

/// Follows block-device hotplug: udev's events when udevd runs, the
/// kernel's own uevents when it does not (as on a minimal VM).
class DeviceWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DeviceWatcher)

public:
    explicit DeviceWatcher(QObject *parent = nullptr);
    ~DeviceWatcher() override;

    /// Starts listening; false (with errorString()) when netlink is refused.
    bool start();
    bool isRunning() const { return m_monitor != nullptr; }
    QString errorString() const { return m_error; }
    /// "udev" or "kernel": which event source is in use.
    QString source() const { return m_source; }

Q_SIGNALS:
    void deviceAdded(const QString &name);
    void deviceRemoved(const QString &name);
    void deviceChanged(const QString &name);

private:
    void readEvents();

    udev *m_udev = nullptr;
    udev_monitor *m_monitor = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    QString m_error;
    QString m_source;
};

/// What hotplug changes on a machine, in a few bytes: its block devices'
/// names, sysfs nodes (a device removed and added again under its name
/// gets a new node), sizes (a loop device attached or detached, a medium
/// changed) and loop devices' backing files and offsets (a loop detached
/// and attached again to another file of the same size). A host's console
/// polls it (the agent's op "block_devices", core/remote's
/// HostDeviceWatcher), since the host's uevents do not reach it.
struct BlockDeviceDigest
{
    int count = 0;     ///< block devices (disks and partitions)
    QByteArray digest; ///< hex; the same while nothing was added or removed
};
BlockDeviceDigest blockDeviceDigest(const SysRoot &root);

} // namespace blocktune
