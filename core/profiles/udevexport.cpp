// A profile as a udev rules file: udev applies it at every add and change
// event, so the settings come back at boot and on hotplug.
#include "profiles.h"
#include "profiles_p.h"

#include <QJsonDocument>

namespace blocktune {

namespace {

QString quoted(const QString &s)
{
    return u'"' + s + u'"';
}

QString comment(const QString &text)
{
    // One comment line per line of text; control characters dropped.
    QStringList out;
    for (const QString &line : text.split(u'\n')) {
        QString clean;
        for (QChar c : line)
            if (c.unicode() >= 0x20 && c.unicode() != 0x7f)
                clean += c;
        out << (clean.isEmpty() ? QStringLiteral("#") : QStringLiteral("# ") + clean);
    }
    return out.join(u'\n') + u'\n';
}

Result<QStringList> matchTokens(const ProfileMatch &m, int rule)
{
    QStringList t{QStringLiteral("ACTION==\"add|change\""), QStringLiteral("SUBSYSTEM==\"block\""),
                  QStringLiteral("ENV{DEVTYPE}==\"disk\"")};
    if (m.type == DeviceType::Partition)
        return makeError(InvalidArgument, QStringLiteral("%1 matches partitions (type part): udev sets queue settings on "
                                                         "whole disks, and a partition's are its disk's; match the "
                                                         "disk instead").arg(ruleLabel(rule)));
    if (!m.name.isEmpty())
        t << QStringLiteral("KERNEL==") + quoted(m.name);
    if (!m.notName.isEmpty())
        t << QStringLiteral("KERNEL!=") + quoted(m.notName.join(u'|'));
    if (m.type) {
        switch (*m.type) {
        case DeviceType::Md: t << QStringLiteral("KERNEL==\"md*\""); break;
        case DeviceType::Dm: t << QStringLiteral("KERNEL==\"dm-*\""); break;
        case DeviceType::Loop: t << QStringLiteral("KERNEL==\"loop*\""); break;
        default: t << QStringLiteral("KERNEL!=\"md*|dm-*|loop*|sr*\""); break; // disk
        }
    }
    if (m.rotational)
        t << QStringLiteral("ATTR{queue/rotational}==") + quoted(*m.rotational ? QStringLiteral("1") : QStringLiteral("0"));
    if (!m.transport.isEmpty()) {
        // `list` derives sata/virtio/nvme/... from the device path; udev's
        // ID_BUS says ata/scsi/usb, its ID_PATH names iSCSI, FC and SAS.
        static const QList<std::pair<QString, QString>> buses{
            {QStringLiteral("sata"), QStringLiteral("ENV{ID_BUS}==\"ata\"")},
            {QStringLiteral("usb"), QStringLiteral("ENV{ID_BUS}==\"usb\"")},
            {QStringLiteral("scsi"), QStringLiteral("ENV{ID_BUS}==\"scsi\"")},
            {QStringLiteral("nvme"), QStringLiteral("KERNEL==\"nvme*\"")},
            {QStringLiteral("virtio"), QStringLiteral("KERNEL==\"vd*\"")},
            {QStringLiteral("mmc"), QStringLiteral("KERNEL==\"mmcblk*\"")},
            {QStringLiteral("iscsi"), QStringLiteral("ENV{ID_PATH}==\"*-iscsi-*\"")},
            {QStringLiteral("fc"), QStringLiteral("ENV{ID_PATH}==\"*-fc-*\"")},
            {QStringLiteral("sas"), QStringLiteral("ENV{ID_PATH}==\"*-sas-*\"")},
        };
        const auto it = std::find_if(buses.cbegin(), buses.cend(), [&](const auto &b) { return b.first == m.transport; });
        if (it == buses.cend())
            return makeError(InvalidArgument, QStringLiteral("%1: transport '%2' has no udev match blocktune knows "
                                                             "(sata, usb, scsi, nvme, virtio, mmc, iscsi, fc, sas)")
                                                  .arg(ruleLabel(rule), m.transport));
        t << it->second;
    }
    if (!m.model.isEmpty()) // udev's ID_MODEL writes spaces as '_'
        t << QStringLiteral("ENV{ID_MODEL}==") + quoted(QString(m.model).replace(u' ', u'_'));
    if (!m.serial.isEmpty())
        // ID_SERIAL is the serial on virtio, MODEL_SERIAL on ATA/NVMe/SCSI and
        // VENDOR_MODEL_SERIAL-0:0 on USB; `list` shows the bare serial.
        t << QStringLiteral("ENV{ID_SERIAL}==") + quoted(QStringLiteral("%1|*_%1|*_%1-*").arg(m.serial));
    if (!m.wwn.isEmpty()) {
        // 0x + 32 hex digits is udev's ID_WWN_WITH_EXTENSION, which list prefers.
        const bool extended = m.wwn.startsWith(QStringLiteral("0x")) && m.wwn.size() == 34;
        t << (extended ? QStringLiteral("ENV{ID_WWN_WITH_EXTENSION}==") : QStringLiteral("ENV{ID_WWN}==")) + quoted(m.wwn);
    }
    if (!m.mdUuid.isEmpty()) // set by mdadm --detail --export in 63-md-raid-arrays.rules
        t << QStringLiteral("ENV{MD_UUID}==") + quoted(m.mdUuid);
    if (!m.dmName.isEmpty()) // set by 10-dm.rules
        t << QStringLiteral("ENV{DM_NAME}==") + quoted(m.dmName);
    return t;
}

} // namespace

QString udevRulesFileName(const QString &profileName, int priority)
{
    return QStringLiteral("%1-blocktune-%2.rules").arg(priority, 2, 10, QChar(u'0')).arg(profileName);
}

Result<ExportedText> exportUdevRules(const Profile &profile)
{
    ExportedText out;
    QString text;
    const QString file = udevRulesFileName(profile.name);
    text += QStringLiteral("%1 from profile '%2' (schema %3). Do not edit: regenerate with\n")
                .arg(QString(kUdevRulesMarker), profile.name).arg(kProfileSchema);
    text += QStringLiteral("#   blocktune-cli profile export %1 --format udev\n").arg(profile.name);
    text += QStringLiteral("# Install: blocktune-cli profile install %1 (writes /etc/udev/rules.d/%2, then runs\n"
                           "#   udevadm control --reload && udevadm trigger --action=change --subsystem-match=block)\n")
                .arg(profile.name, file);
    text += QStringLiteral("# Numbered above 63 so mdadm's 63-md-raid-arrays.rules has set MD_UUID.\n");
    if (!profile.description.isEmpty())
        text += comment(profile.description);

    QStringList problems;
    for (int r = 0; r < profile.rules.size(); ++r) {
        const ProfileRule &rule = profile.rules.at(r);
        auto tokens = matchTokens(rule.match, r);
        if (!tokens) {
            problems << tokens.error().message;
            continue;
        }
        const QString head = tokens->join(QStringLiteral(", "));
        text += u'\n' + comment(QStringLiteral("%1: %2%3").arg(ruleLabel(r), rule.match.describe(),
                                                              rule.comment.isEmpty() ? QString() : u" - " + rule.comment));
        QStringList main; // nr_requests, max_sectors_kb, then read_ahead_kb last
        QStringList guarded;
        QString readahead;
        for (const ProfileSetting &s : rule.settings) {
            QString value = s.value;
            if (s.bound != ValueBound::Exact) {
                const QString w = QStringLiteral("%1: %2 %3 written as %4: udev cannot compare with the current value "
                                                 "(it %5)")
                                      .arg(ruleLabel(r), s.key, s.text(), s.key == u"ra_sectors" ? QString::number(s.value.toULongLong() / 2) : value,
                                           s.bound == ValueBound::AtLeast ? QStringLiteral("also lowers a larger one")
                                                                          : QStringLiteral("also raises a smaller one"));
                out.warnings << w;
                text += comment(w);
            }
            if (s.key == u"read_ahead_kb" || s.key == u"ra_sectors") {
                if (s.key == u"ra_sectors")
                    value = QString::number(s.value.toULongLong() / 2);
                readahead = QStringLiteral("ATTR{queue/read_ahead_kb}=") + quoted(value);
            } else if (s.key == u"scheduler") {
                // A scheduler switch first: it resets nr_requests and brings its tunables.
                guarded.prepend(head + QStringLiteral(", TEST==\"queue/scheduler\", ATTR{queue/scheduler}=") + quoted(value));
            } else if (s.key.startsWith(u"iosched.")) {
                const QString attr = QStringLiteral("queue/iosched/") + s.key.mid(8);
                guarded << head + QStringLiteral(", TEST==") + quoted(attr) + QStringLiteral(", ATTR{") + attr + QStringLiteral("}=")
                               + quoted(value);
            } else if (s.key == u"context_readahead") {
                guarded << head + QStringLiteral(", TEST==\"queue/context_readahead\", ATTR{queue/context_readahead}=")
                               + quoted(value);
            } else {
                main << QStringLiteral("ATTR{queue/%1}=").arg(s.key) + quoted(value);
            }
        }
        // Before 6.15 a queue-limits update (max_sectors_kb) could reset
        // readahead, so readahead is written last, as `set` does.
        if (!readahead.isEmpty())
            main << readahead;
        for (const QString &line : std::as_const(guarded))
            text += line + u'\n';
        if (!main.isEmpty())
            text += head + QStringLiteral(", ") + main.join(QStringLiteral(", ")) + u'\n';
    }
    if (!problems.isEmpty())
        return makeError(InvalidArgument, QStringLiteral("%1: cannot be written as udev rules:\n%2")
                                              .arg(profile.source, problems.join(u'\n')));
    out.text = text.toUtf8();
    return out;
}

} // namespace blocktune
