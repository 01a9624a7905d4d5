#include "devicejson.h"

#include <QJsonArray>

namespace blocktune {

namespace {

template<typename T>
QJsonValue orNull(const std::optional<T> &value)
{
    if (!value)
        return QJsonValue::Null;
    if constexpr (std::is_same_v<T, bool>)
        return *value;
    else
        return double(*value); // sizes stay exact up to 2^53 bytes (8 PiB)
}

QJsonValue orNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

QJsonArray stringArray(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

} // namespace

QJsonObject deviceToJson(const BlockDevice &d)
{
    QJsonObject o;
    o.insert(u"name", d.name);
    o.insert(u"path", orNull(d.path));
    o.insert(u"type", deviceTypeName(d.type));
    o.insert(u"major", d.hasDeviceNumber() ? QJsonValue(d.major) : QJsonValue(QJsonValue::Null));
    o.insert(u"minor", d.hasDeviceNumber() ? QJsonValue(d.minor) : QJsonValue(QJsonValue::Null));
    o.insert(u"size_bytes", orNull(d.sizeBytes));
    o.insert(u"parent", orNull(d.parent));
    o.insert(u"slaves", stringArray(d.slaves));
    o.insert(u"holders", stringArray(d.holders));
    o.insert(u"leaf_disks", stringArray(d.leafDisks));
    o.insert(u"rotational", orNull(d.rotational));
    o.insert(u"read_only", orNull(d.readOnly));
    o.insert(u"removable", orNull(d.removable));
    o.insert(u"model", orNull(d.model));
    o.insert(u"serial", orNull(d.serial));
    o.insert(u"wwn", orNull(d.wwn));
    o.insert(u"transport", orNull(d.transport));
    o.insert(u"read_ahead_kb", orNull(d.readAheadKiB));
    o.insert(u"scheduler", orNull(d.scheduler));
    o.insert(u"schedulers", d.schedulers.isEmpty() ? QJsonValue(QJsonValue::Null)
                                                   : QJsonValue(stringArray(d.schedulers)));
    o.insert(u"nr_requests", orNull(d.nrRequests));
    o.insert(u"max_sectors_kb", orNull(d.maxSectorsKiB));
    o.insert(u"max_hw_sectors_kb", orNull(d.maxHwSectorsKiB));
    o.insert(u"context_readahead", orNull(d.contextReadahead));
    o.insert(u"fstype", orNull(d.fstype));
    o.insert(u"label", orNull(d.label));
    o.insert(u"uuid", orNull(d.uuid));
    if (d.md) {
        const MdInfo &md = *d.md;
        QJsonObject m;
        m.insert(u"level", orNull(md.level));
        m.insert(u"raid_disks", orNull(md.raidDisks));
        m.insert(u"chunk_kb", md.chunkBytes ? QJsonValue(double(*md.chunkBytes / 1024)) : QJsonValue());
        m.insert(u"layout", orNull(md.layoutName));
        m.insert(u"array_state", orNull(md.arrayState));
        m.insert(u"degraded", orNull(md.degraded));
        m.insert(u"stripe_kb", orNull(md.stripeKiB));
        m.insert(u"readahead_floor_kb", orNull(md.readaheadFloorKiB));
        QJsonArray members;
        for (const MdMember &member : md.members) {
            QJsonObject mo;
            mo.insert(u"name", member.name);
            mo.insert(u"slot", orNull(member.slot));
            mo.insert(u"state", orNull(member.state));
            members.append(mo);
        }
        m.insert(u"members", members);
        o.insert(u"md", m);
    }
    if (d.dm) {
        QJsonObject m;
        m.insert(u"name", orNull(d.dm->name));
        m.insert(u"uuid", orNull(d.dm->uuid));
        m.insert(u"kind", orNull(d.dm->kind));
        o.insert(u"dm", m);
    }
    if (d.loop) {
        QJsonObject m;
        m.insert(u"backing_file", orNull(d.loop->backingFile));
        m.insert(u"direct_io", orNull(d.loop->directIo));
        o.insert(u"loop", m);
    }
    return o;
}

QJsonObject modelToJson(const DeviceModel &model)
{
    QJsonArray devices;
    for (const BlockDevice &d : model.devices())
        devices.append(deviceToJson(d));
    QJsonObject root;
    root.insert(u"schema", kDeviceJsonSchema);
    root.insert(u"devices", devices);
    return root;
}

} // namespace blocktune
