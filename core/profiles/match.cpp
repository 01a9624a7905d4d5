// Which devices a rule applies to.
#include "profiles.h"
#include "profiles_p.h"

namespace blocktune {

bool ProfileMatch::isEmpty() const
{
    return name.isEmpty() && notName.isEmpty() && !type && !rotational && transport.isEmpty() && model.isEmpty()
           && serial.isEmpty() && wwn.isEmpty() && mdUuid.isEmpty() && dmName.isEmpty();
}

bool ProfileMatch::matches(const BlockDevice &d) const
{
    if (!name.isEmpty() && !detail::globMatches(name, d.name))
        return false;
    for (const QString &glob : notName)
        if (detail::globMatches(glob, d.name))
            return false;
    if (type && d.type != *type)
        return false;
    if (rotational && d.rotational != rotational)
        return false;
    if (!transport.isEmpty() && d.transport != transport)
        return false;
    if (!model.isEmpty() && d.model.trimmed() != model)
        return false;
    if (!serial.isEmpty() && d.serial != serial)
        return false;
    // udev and sysfs write WWNs in either case (0x5000C500..., eui.0025...).
    if (!wwn.isEmpty() && d.wwn.compare(wwn, Qt::CaseInsensitive) != 0)
        return false;
    if (!mdUuid.isEmpty() && (!d.md || normalizeMdUuid(d.md->uuid) != mdUuid))
        return false;
    if (!dmName.isEmpty() && (!d.dm || d.dm->name != dmName))
        return false;
    return true;
}

QString ProfileMatch::describe() const
{
    QStringList parts;
    if (!name.isEmpty())
        parts << QStringLiteral("name %1").arg(name);
    if (!notName.isEmpty())
        parts << QStringLiteral("not %1").arg(notName.join(u", "));
    if (type)
        parts << QStringLiteral("type %1").arg(deviceTypeName(*type));
    if (rotational)
        parts << (*rotational ? QStringLiteral("rotational") : QStringLiteral("non-rotational"));
    if (!transport.isEmpty())
        parts << QStringLiteral("transport %1").arg(transport);
    if (!model.isEmpty())
        parts << QStringLiteral("model '%1'").arg(model);
    if (!serial.isEmpty())
        parts << QStringLiteral("serial %1").arg(serial);
    if (!wwn.isEmpty())
        parts << QStringLiteral("wwn %1").arg(wwn);
    if (!mdUuid.isEmpty())
        parts << QStringLiteral("md_uuid %1").arg(mdUuid);
    if (!dmName.isEmpty())
        parts << QStringLiteral("dm_name %1").arg(dmName);
    return parts.isEmpty() ? QStringLiteral("every device") : parts.join(u", ");
}

} // namespace blocktune
