// A profile resolved on this host as `kernel_settings_sysfs` for the
// linux-system-roles.kernel_settings Ansible role: one sysfs path and value
// per setting the profile decides here. The role matches nothing: the paths
// carry this host's kernel names, so the file is per host.
#include "profiles.h"

#include <QHash>

namespace blocktune {

namespace {

/// The queue attribute a `set` key writes; empty for context_readahead,
/// whose switch (where a vendor kernel has one) may be the machine-wide vm
/// sysctl rather than a queue file: left to the user, with a warning.
QString queueAttribute(const ResolvedSetting &r, quint64 *divideBy)
{
    *divideBy = 1;
    const QString &key = r.setting.key;
    if (key == u"ra_sectors") {
        *divideBy = 2; // 512-byte sectors -> KiB
        return QString(attribute::ReadAheadKb);
    }
    if (key.startsWith(QStringLiteral("iosched.")))
        return QString(attribute::IoschedPrefix) + key.mid(8);
    if (key == u"read_ahead_kb" || key == u"scheduler" || key == u"nr_requests" || key == u"max_sectors_kb")
        return key;
    return {};
}

/// The order the tuning layer writes a queue in (scheduler, its tunables,
/// limits, readahead last: a limits update before 6.15 could reset it).
int writeOrder(const QString &attr)
{
    if (attr == attribute::Scheduler)
        return 0;
    if (attr.startsWith(attribute::IoschedPrefix))
        return 1;
    if (attr == attribute::ReadAheadKb)
        return 4;
    return attr == attribute::NrRequests ? 2 : 3;
}

QString yamlQuoted(QString s)
{
    s.replace(u'\\', QStringLiteral("\\\\"));
    s.replace(u'"', QStringLiteral("\\\""));
    return u'"' + s + u'"';
}

} // namespace

Result<ExportedText> exportKernelSettings(const Profile &profile, const ProfileResolution &resolution,
                                          const QString &where)
{
    if (!resolution.ok()) {
        QStringList why;
        for (const Error &e : resolution.errors)
            why << e.message;
        return makeError(InvalidArgument, why.join(u'\n'));
    }
    struct Item
    {
        QString device;
        QString attr;
        QString value;
    };
    QList<Item> items;
    ExportedText out;
    for (const ResolvedSetting &r : resolution.settings) {
        if (r.state == ResolvedState::Skipped)
            continue;
        quint64 divideBy = 1;
        const QString attr = queueAttribute(r, &divideBy);
        if (attr.isEmpty()) {
            out.warnings << QStringLiteral("%1 %2: no sysfs path for kernel_settings_sysfs; left out")
                                .arg(r.device, r.setting.key);
            continue;
        }
        if (r.setting.bound != ValueBound::Exact)
            out.warnings << QStringLiteral("%1 %2 %3: kernel_settings sets exact values; exported as %4, what it is "
                                           "or becomes on this host")
                                .arg(r.device, r.setting.key, r.setting.text(), r.target);
        QString value = r.target;
        if (divideBy != 1)
            value = QString::number(value.toULongLong() / divideBy);
        items.append(Item{r.device, attr, value});
    }
    // Stable: devices in resolution order, each queue in write order.
    QHash<QString, int> deviceIndex;
    for (const Item &i : std::as_const(items))
        deviceIndex.insert(i.device, deviceIndex.value(i.device, int(deviceIndex.size())));
    std::stable_sort(items.begin(), items.end(), [&](const Item &a, const Item &b) {
        const int da = deviceIndex.value(a.device), db = deviceIndex.value(b.device);
        return da != db ? da < db : writeOrder(a.attr) < writeOrder(b.attr);
    });

    const SysRoot live; // the paths the role writes on the host, whatever tree this was resolved on
    QString text = QStringLiteral("# kernel_settings_sysfs for the linux-system-roles.kernel_settings role, from "
                                  "blocktune profile %1 (%2).\n"
                                  "# Resolved on %3: the kernel names below are this host's (sdb may be another "
                                  "disk, or none, elsewhere).\n"
                                  "# Export it on each host (host_vars/HOST.yml); blocktune-cli profile verify %1 "
                                  "checks the result.\n")
                       .arg(profile.name, profile.source, where);
    if (items.isEmpty()) {
        text += QStringLiteral("# No device here matches any rule.\nkernel_settings_sysfs: []\n");
    } else {
        text += QStringLiteral("kernel_settings_sysfs:\n");
        for (const Item &i : std::as_const(items)) {
            const QByteArray relative = QByteArray("block/") + i.device.toLocal8Bit() + "/queue/" + i.attr.toLocal8Bit();
            const QByteArray path = live.sysPath(relative);
            text += QStringLiteral("  - name: %1\n    value: %2\n").arg(QString::fromLocal8Bit(path), yamlQuoted(i.value));
        }
    }
    for (const QString &w : std::as_const(out.warnings))
        text += QStringLiteral("# warning: %1\n").arg(w);
    out.text = text.toUtf8();
    return out;
}

} // namespace blocktune
