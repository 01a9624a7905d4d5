#include "devicewatcher.h"

#include "common/tr.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSocketNotifier>

#include <libudev.h>

#include <cstring>

#include <sys/stat.h>

namespace blocktune {

DeviceWatcher::DeviceWatcher(QObject *parent) : QObject(parent) {}

DeviceWatcher::~DeviceWatcher()
{
    if (m_monitor)
        udev_monitor_unref(m_monitor);
    if (m_udev)
        udev_unref(m_udev);
}

bool DeviceWatcher::start()
{
    if (m_monitor)
        return true;
    m_udev = udev_new();
    if (!m_udev) {
        m_error = DevicesText::tr("libudev could not be initialised");
        return false;
    }
    // Without udevd nobody re-broadcasts on the "udev" group: listen to the
    // kernel directly then. /run/udev/control exists while udevd runs.
    const bool udevdRunning = QFileInfo::exists(QStringLiteral("/run/udev/control"));
    m_source = udevdRunning ? QStringLiteral("udev") : QStringLiteral("kernel");
    m_monitor = udev_monitor_new_from_netlink(m_udev, udevdRunning ? "udev" : "kernel");
    if (!m_monitor) {
        m_error = DevicesText::tr("cannot open the %1 uevent socket (netlink)").arg(m_source);
        return false;
    }
    udev_monitor_filter_add_match_subsystem_devtype(m_monitor, "block", nullptr);
    if (udev_monitor_enable_receiving(m_monitor) < 0) {
        m_error = DevicesText::tr("cannot receive %1 uevents").arg(m_source);
        udev_monitor_unref(m_monitor);
        m_monitor = nullptr;
        return false;
    }
    m_notifier = new QSocketNotifier(udev_monitor_get_fd(m_monitor), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &DeviceWatcher::readEvents);
    return true;
}

void DeviceWatcher::readEvents()
{
    while (udev_device *device = udev_monitor_receive_device(m_monitor)) {
        const char *action = udev_device_get_action(device);
        const QString name = QString::fromUtf8(udev_device_get_sysname(device));
        if (action && std::strcmp(action, "add") == 0)
            Q_EMIT deviceAdded(name);
        else if (action && std::strcmp(action, "remove") == 0)
            Q_EMIT deviceRemoved(name);
        else
            Q_EMIT deviceChanged(name);
        udev_device_unref(device);
    }
}

BlockDeviceDigest blockDeviceDigest(const SysRoot &root)
{
    // class/block holds every disk and partition; a recorded tree may have
    // only block/ (disks, their partitions inside), as the scan reads it.
    QByteArray dir = root.sysPath("class/block");
    if (!QFileInfo(QString::fromLocal8Bit(dir)).isDir())
        dir = root.sysPath("block");
    const QStringList names = QDir(QString::fromLocal8Bit(dir)).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System,
                                                                          QDir::Name);
    QCryptographicHash hash(QCryptographicHash::Sha1);
    for (const QString &name : names) {
        const QByteArray path = dir + '/' + name.toLocal8Bit();
        struct stat st {};
        const quint64 node = ::lstat(path.constData(), &st) == 0 ? quint64(st.st_ino) : 0;
        // A loop device keeps its node when it is attached or detached;
        // its size says which (a medium changed, a disk resized, too).
        QFile size(QString::fromLocal8Bit(path + "/size"));
        const QByteArray sectors = size.open(QIODevice::ReadOnly) ? size.read(32).trimmed() : QByteArray();
        // ... but not when it is detached and attached again to another
        // file of the same size between two looks (a name is free for
        // anyone once detached; losetup --find takes the lowest): its
        // backing file and offset do.
        QByteArray backing;
        for (const char *attr : {"/loop/backing_file", "/loop/offset"}) {
            QFile f(QString::fromLocal8Bit(path + attr));
            if (f.open(QIODevice::ReadOnly))
                backing += ':' + f.read(4096).trimmed();
        }
        hash.addData(QByteArray(name.toLocal8Bit() + ':' + QByteArray::number(node) + ':' + sectors + backing + '\n'));
    }
    return {int(names.size()), hash.result().toHex()};
}

} // namespace blocktune
