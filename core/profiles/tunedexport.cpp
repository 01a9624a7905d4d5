// A profile as a tuned.conf, for machines where tuned manages tuning
// (RHEL, Fedora, SUSE). tuned's disk plugin sets the elevator and the
// readahead; what it has no option for is left as a comment.
#include "profiles.h"
#include "profiles_p.h"

namespace blocktune {

namespace detail {

QString regexEscape(const QString &literal)
{
    QString out;
    for (QChar c : literal) {
        if (QStringLiteral(".^$*+?{}[]\\|()").contains(c))
            out += u'\\';
        out += c;
    }
    return out;
}

// A kernel-name glob as a regex over one udev property line (DEVNAME=/dev/NAME).
QString globToRegex(const QString &glob)
{
    QString out;
    for (qsizetype i = 0; i < glob.size(); ++i) {
        const QChar c = glob.at(i);
        if (c == u'*') {
            out += QStringLiteral("[^/\\n]*");
        } else if (c == u'?') {
            out += QStringLiteral("[^/\\n]");
        } else if (c == u'[') {
            const qsizetype close = glob.indexOf(u']', i + 1);
            if (close < 0) {
                out += QStringLiteral("\\[");
                continue;
            }
            QString set = glob.mid(i + 1, close - i - 1);
            if (set.startsWith(u'!'))
                set[0] = u'^';
            out += u'[' + set + u']';
            i = close;
        } else {
            out += regexEscape(QString(c));
        }
    }
    return out;
}

} // namespace detail

namespace {

QString sectionSlug(const ProfileMatch &m)
{
    QString s;
    if (!m.mdUuid.isEmpty())
        s = QStringLiteral("md-") + m.mdUuid.left(8);
    else if (!m.dmName.isEmpty())
        s = m.dmName;
    else if (!m.wwn.isEmpty())
        s = m.wwn;
    else if (!m.serial.isEmpty())
        s = m.serial;
    else if (!m.name.isEmpty())
        s = m.name;
    else if (m.type)
        s = deviceTypeName(*m.type);
    else if (!m.transport.isEmpty())
        s = m.transport;
    else if (!m.model.isEmpty())
        s = m.model;
    else
        s = QStringLiteral("all");
    QString out;
    for (QChar c : s)
        out += (c.isLetterOrNumber() && c.unicode() < 0x80) || c == u'_' || c == u'.' || c == u'-' ? c : QChar(u'_');
    return out.left(40);
}

struct Selection
{
    QString devices;   ///< for devices=
    QString udevRegex; ///< for devices_udev_regex=, when devices= cannot say it
    QStringList warnings;
};

Selection selectionOf(const ProfileMatch &m, const QString &rule)
{
    Selection sel;
    QStringList positive; // globs, AND-ed in blocktune
    QStringList negative = m.notName;
    QStringList conditions; // udev property lines (regex), AND-ed
    if (!m.name.isEmpty())
        positive << m.name;
    if (m.type) {
        switch (*m.type) {
        case DeviceType::Md: positive << QStringLiteral("md*"); break;
        case DeviceType::Dm: positive << QStringLiteral("dm-*"); break;
        case DeviceType::Loop: positive << QStringLiteral("loop*"); break;
        case DeviceType::Partition:
            sel.warnings << QStringLiteral("%1 matches partitions: tuned's disk plugin tunes whole disks only").arg(rule);
            break;
        default:
            negative << QStringLiteral("md*") << QStringLiteral("dm-*") << QStringLiteral("loop*") << QStringLiteral("sr*");
            break;
        }
    }
    if (m.rotational)
        sel.warnings << QStringLiteral("%1 matches %2 devices: tuned cannot tell rotational devices apart, so its "
                                       "section takes every device its devices= selects")
                            .arg(rule, *m.rotational ? QStringLiteral("rotational") : QStringLiteral("non-rotational"));
    if (!m.transport.isEmpty()) {
        if (m.transport == u"nvme")
            positive << QStringLiteral("nvme*");
        else if (m.transport == u"virtio")
            positive << QStringLiteral("vd*");
        else if (m.transport == u"mmc")
            positive << QStringLiteral("mmcblk*");
        else if (m.transport == u"sata")
            conditions << QStringLiteral("ID_BUS=ata");
        else if (m.transport == u"usb" || m.transport == u"scsi")
            conditions << u"ID_BUS=" + m.transport;
        else if (m.transport == u"iscsi" || m.transport == u"fc" || m.transport == u"sas")
            conditions << QStringLiteral("ID_PATH=.*-%1-.*").arg(m.transport);
        else
            sel.warnings << QStringLiteral("%1: transport '%2' has no udev property blocktune knows; left out of the "
                                           "selection").arg(rule, m.transport);
    }
    if (!m.model.isEmpty())
        conditions << u"ID_MODEL=" + detail::regexEscape(QString(m.model).replace(u' ', u'_'));
    if (!m.serial.isEmpty())
        conditions << u"(ID_SERIAL|ID_SERIAL_SHORT)=" + detail::regexEscape(m.serial);
    if (!m.wwn.isEmpty()) {
        const bool extended = m.wwn.startsWith(QStringLiteral("0x")) && m.wwn.size() == 34;
        conditions << (extended ? QStringLiteral("ID_WWN_WITH_EXTENSION=") : QStringLiteral("ID_WWN=")) + detail::regexEscape(m.wwn);
    }
    if (!m.mdUuid.isEmpty())
        conditions << u"MD_UUID=" + detail::regexEscape(m.mdUuid);
    if (!m.dmName.isEmpty())
        conditions << u"DM_NAME=" + detail::regexEscape(m.dmName);

    if (conditions.isEmpty() && positive.size() <= 1) {
        QStringList items = positive;
        for (const QString &n : std::as_const(negative))
            items << u'!' + n;
        sel.devices = items.isEmpty() ? QStringLiteral("*") : items.join(QStringLiteral(", "));
        return sel;
    }
    // tuned matches devices_udev_regex against the device's udev properties,
    // one KEY=value per line, with re.MULTILINE: lookaheads AND conditions.
    for (const QString &g : std::as_const(positive))
        conditions << QStringLiteral("DEVNAME=/dev/") + detail::globToRegex(g);
    QStringList negatives;
    for (const QString &g : std::as_const(negative))
        negatives << QStringLiteral("DEVNAME=/dev/") + detail::globToRegex(g);
    if (conditions.size() == 1 && negatives.isEmpty()) {
        sel.udevRegex = u'^' + conditions.constFirst() + u'$';
        return sel;
    }
    sel.udevRegex = QStringLiteral("\\A");
    for (const QString &c : std::as_const(conditions))
        sel.udevRegex += QStringLiteral("(?=[\\s\\S]*^") + c + QStringLiteral("$)");
    for (const QString &c : std::as_const(negatives))
        sel.udevRegex += QStringLiteral("(?![\\s\\S]*^") + c + QStringLiteral("$)");
    return sel;
}

QString commentLines(const QString &text)
{
    QString out;
    for (const QString &line : text.split(u'\n')) {
        QString clean;
        for (QChar c : line)
            if (c.unicode() >= 0x20)
                clean += c;
        out += clean.isEmpty() ? QStringLiteral("#\n") : QStringLiteral("# ") + clean + u'\n';
    }
    return out;
}

} // namespace

Result<ExportedText> exportTuned(const Profile &profile)
{
    ExportedText out;
    QString text;
    text += QStringLiteral("# tuned.conf generated by blocktune from profile '%1' (schema %2).\n")
                .arg(profile.name).arg(kProfileSchema);
    text += QStringLiteral("# Install: save it as /etc/tuned/%1/tuned.conf, then run: tuned-adm profile %1\n").arg(profile.name);
    if (profile.rules.size() > 1)
        text += QStringLiteral("# tuned gives each device to one [disk] section, the one with the lowest priority\n"
                               "# number; blocktune applies every rule that matches, later ones winning per setting.\n"
                               "# The priorities below let the later rule take a device both match.\n");
    if (!profile.description.isEmpty())
        text += commentLines(profile.description);
    QString summary = profile.description.section(u'\n', 0, 0).trimmed();
    if (summary.isEmpty())
        summary = QStringLiteral("blocktune profile %1").arg(profile.name);
    text += QStringLiteral("\n[main]\nsummary=%1\n").arg(summary.left(200));

    QStringList used;
    for (int r = 0; r < profile.rules.size(); ++r) {
        const ProfileRule &rule = profile.rules.at(r);
        const QString label = ruleLabel(r);
        QString section = QStringLiteral("disk");
        if (profile.rules.size() > 1) {
            section = QStringLiteral("disk-") + sectionSlug(rule.match);
            for (int n = 2; used.contains(section); ++n)
                section = QStringLiteral("disk-%1-%2").arg(sectionSlug(rule.match)).arg(n);
        }
        used << section;
        const Selection sel = selectionOf(rule.match, label);
        text += u'\n' + commentLines(QStringLiteral("%1: %2%3").arg(label, rule.match.describe(),
                                                                    rule.comment.isEmpty() ? QString() : u" - " + rule.comment));
        for (const QString &w : sel.warnings) {
            out.warnings << w;
            text += commentLines(w);
        }
        text += u'[' + section + QStringLiteral("]\n");
        if (section != u"disk")
            text += QStringLiteral("type=disk\n");
        if (profile.rules.size() > 1)
            text += QStringLiteral("priority=%1\n").arg(profile.rules.size() - r);
        if (!sel.udevRegex.isEmpty())
            text += QStringLiteral("devices_udev_regex=") + sel.udevRegex + u'\n';
        else
            text += QStringLiteral("devices=") + sel.devices + u'\n';
        for (const ProfileSetting &s : rule.settings) {
            if (s.key == u"scheduler") {
                text += QStringLiteral("elevator=") + s.value + u'\n';
            } else if (s.key == u"read_ahead_kb") {
                text += QStringLiteral("readahead=") + s.text() + u'\n';
            } else if (s.key == u"ra_sectors") {
                // tuned reads "N s" as sectors, but compares > and < in KiB only.
                if (s.bound == ValueBound::Exact)
                    text += QStringLiteral("readahead=%1 s\n").arg(s.value);
                else
                    text += QStringLiteral("readahead=%1%2\n")
                                .arg(s.bound == ValueBound::AtLeast ? u'>' : u'<')
                                .arg(s.value.toULongLong() / 2);
            } else {
                const QString w = QStringLiteral("%1: %2=%3 has no option in tuned's disk plugin: left as a comment")
                                      .arg(label, s.key, s.text());
                out.warnings << w;
                text += QStringLiteral("# %1=%2 (not a tuned disk option; blocktune applies it)\n").arg(s.key, s.text());
            }
        }
    }
    out.text = text.toUtf8();
    return out;
}

} // namespace blocktune
