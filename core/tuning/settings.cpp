// Reading a device's tunable settings and what each accepts (`get`).
#include "tuning.h"
#include "tuning_p.h"

#include "common/tr.h"

#include <QJsonArray>

#include <algorithm>

namespace blocktune {

QStringList settingKeys()
{
    return {QStringLiteral("read_ahead_kb"), QStringLiteral("ra_sectors"), QStringLiteral("scheduler"),
            QStringLiteral("nr_requests"), QStringLiteral("max_sectors_kb"),
            QStringLiteral("context_readahead"), QStringLiteral("iosched.NAME")};
}

SettingValue::SettingValue(const QString &text) : m_text(text)
{
    if (isPlainDecimal(text))
        m_number = sysfs::parseU64(text.toLatin1());
}

Result<SettingChange> parseSettingChange(const QString &device, const QString &assignment)
{
    const qsizetype eq = assignment.indexOf(u'=');
    if (eq <= 0)
        return makeError(InvalidArgument,
                         TuningText::tr("'%1' is not KEY=VALUE (keys: %2)")
                             .arg(assignment, settingKeys().join(u", ")));
    const QString key = assignment.left(eq), value = assignment.mid(eq + 1);
    if (value.isEmpty())
        return makeError(InvalidArgument, TuningText::tr("'%1' has no value after '=' (write %2VALUE as one word)")
                                              .arg(assignment, assignment));
    // "read_ahead_kb= 12" quoted, or a tab pasted in: a value is one word,
    // and a space there is more likely a mistake than meant.
    if (std::any_of(assignment.cbegin(), assignment.cend(), [](QChar c) { return c.isSpace(); }))
        return makeError(InvalidArgument,
                         TuningText::tr("'%1' has a space in it: write KEY=VALUE as one word, e.g. %2=%3")
                             .arg(assignment, key.trimmed(), value.trimmed()));
    return SettingChange{device, key, SettingValue(value)};
}

QString contextReadaheadBuiltInNote(const QString &device)
{
    return detail::contextBuiltInText(device);
}

namespace detail {

StripeFloor stripeFloor(const BlockDevice &queue)
{
    StripeFloor f;
    if (queue.md && queue.md->stripeKiB) {
        f.stripeKiB = queue.md->stripeKiB;
        f.floorKiB = queue.md->readaheadFloorKiB ? queue.md->readaheadFloorKiB : std::optional(2 * *f.stripeKiB);
    } else if ((queue.type == DeviceType::Md || queue.type == DeviceType::Dm)
               && queue.optimalIoBytes.value_or(0) >= 1024) {
        // dm-stripe (and md without a readable geometry) publish the stripe
        // as io_opt; the block layer sets readahead to at least 2 x io_opt
        // whenever the limits are applied again (table reload, activation).
        f.stripeKiB = *queue.optimalIoBytes / 1024;
        f.floorKiB = 2 * *f.stripeKiB;
    }
    return f;
}

QString contextBuiltInText(const QString &device)
{
    return TuningText::tr("context readahead on %1 is built into the kernel and always on since 2.6.31; "
                          "this kernel has no switch for it (no queue/context_readahead, no "
                          "/proc/sys/vm/enable_context_readahead), so it is not tunable")
        .arg(device);
}

QList<IoschedTunable> readIosched(const SysDir &queueOwner)
{
    QList<IoschedTunable> out;
    for (const QString &name : queueOwner.list("queue/iosched")) {
        const QByteArray rel = "queue/iosched/" + name.toLocal8Bit();
        if (auto value = queueOwner.readString(rel.constData()))
            out.append(IoschedTunable{name, value->trimmed()});
    }
    return out;
}

} // namespace detail

Result<DeviceSettings> readDeviceSettings(const SysRoot &root, const DeviceModel &model, const QString &device)
{
    const BlockDevice *d = model.findByUserName(device);
    if (!d)
        return makeError(NotFound, TuningText::tr("no block device named '%1' (see blocktune-cli list)").arg(device));
    const BlockDevice *q = model.find(d->queueDevice);
    if (!q)
        q = d;
    const SysDir queueDir = SysDir::open(q->sysfsDir.toLocal8Bit());

    DeviceSettings s;
    s.name = d->name;
    s.type = d->type;
    s.major = d->major;
    s.minor = d->minor;
    s.queueDevice = q->name;
    s.isPartition = d->type == DeviceType::Partition;
    s.readAheadKiB = q->readAheadKiB;
    s.pageKiB = pageKiB(root);
    s.scheduler = q->scheduler;
    s.schedulers = q->schedulers;
    s.iosched = detail::readIosched(queueDir);
    s.nrRequests = q->nrRequests;
    s.nrRequestsRange = nrRequestsRange(queueDir, q->scheduler);
    s.maxSectorsKiB = q->maxSectorsKiB;
    s.maxHwSectorsKiB = q->maxHwSectorsKiB;
    s.maxSectorsRange = maxSectorsRange(root, queueDir);
    s.contextReadahead = q->contextReadahead ? q->contextReadahead : d->contextReadahead;
    s.contextReadaheadSwitch = q->contextReadahead ? q->contextReadaheadPath : d->contextReadaheadPath;
    const detail::StripeFloor floor = detail::stripeFloor(*q);
    s.stripeKiB = floor.stripeKiB;
    s.readaheadFloorKiB = floor.floorKiB;
    if (q->type == DeviceType::Md || q->type == DeviceType::Dm)
        s.memberDisks = q->leafDisks;

    if (s.isPartition)
        s.notes << TuningText::tr("%1 is a partition: readahead and the queue settings are those of the whole "
                                  "disk %2 (changing them changes %2)")
                       .arg(s.name, s.queueDevice);
    if (s.contextReadaheadSwitch.isEmpty())
        s.notes << detail::contextBuiltInText(s.queueDevice);
    else if (s.contextReadaheadSwitch.startsWith(u'/'))
        s.notes << TuningText::tr("the context readahead switch %1 is machine-wide: it applies to every device")
                       .arg(s.contextReadaheadSwitch);
    if (s.readaheadFloorKiB && s.readAheadKiB && *s.readAheadKiB < *s.readaheadFloorKiB)
        s.notes << TuningText::tr("read_ahead_kb %1 on %2 is below the kernel's readahead floor of %3 KiB "
                                  "(2 x stripe of %4 KiB): re-assembly or a reshape raises it again")
                       .arg(*s.readAheadKiB).arg(s.queueDevice).arg(*s.readaheadFloorKiB).arg(*s.stripeKiB);
    if (q->dm && q->dm->kind == u"lvm")
        s.notes << TuningText::tr("LVM sets readahead again on every activation: make a value stick with "
                                  "lvchange -r (in sectors)");
    if (!s.nrRequestsRange)
        s.notes << TuningText::tr("%1 is bio-based (no request queue): nr_requests does not apply")
                       .arg(s.queueDevice);
    return s;
}

namespace {

QJsonValue number(const std::optional<quint64> &v)
{
    return v ? QJsonValue(double(*v)) : QJsonValue(QJsonValue::Null);
}

QJsonObject range(quint64 min, quint64 max)
{
    return QJsonObject{{QStringLiteral("min"), double(min)}, {QStringLiteral("max"), double(max)}};
}

} // namespace

QJsonObject deviceSettingsToJson(const DeviceSettings &s)
{
    QJsonObject o;
    o.insert(u"schema", detail::kSettingsJsonSchema);
    o.insert(u"name", s.name);
    o.insert(u"type", deviceTypeName(s.type));
    o.insert(u"major", s.major);
    o.insert(u"minor", s.minor);
    o.insert(u"queue_device", s.queueDevice);
    o.insert(u"read_ahead_kb", number(s.readAheadKiB));
    o.insert(u"ra_sectors", s.readAheadKiB ? QJsonValue(double(*s.readAheadKiB * 2)) : QJsonValue());
    o.insert(u"page_kb", double(s.pageKiB));
    o.insert(u"scheduler", s.scheduler.isEmpty() ? QJsonValue() : QJsonValue(s.scheduler));
    o.insert(u"schedulers", s.schedulers.isEmpty() ? QJsonValue() : QJsonValue(QJsonArray::fromStringList(s.schedulers)));
    QJsonObject iosched;
    for (const IoschedTunable &t : s.iosched) {
        const auto n = sysfs::parseU64(t.value.toLatin1());
        iosched.insert(t.name, n && isPlainDecimal(t.value) ? QJsonValue(double(*n)) : QJsonValue(t.value));
    }
    o.insert(u"iosched", iosched);
    o.insert(u"nr_requests", number(s.nrRequests));
    o.insert(u"max_sectors_kb", number(s.maxSectorsKiB));
    o.insert(u"max_hw_sectors_kb", number(s.maxHwSectorsKiB));
    o.insert(u"context_readahead", s.contextReadahead ? QJsonValue(*s.contextReadahead) : QJsonValue());
    o.insert(u"context_readahead_switch",
             s.contextReadaheadSwitch.isEmpty() ? QJsonValue() : QJsonValue(s.contextReadaheadSwitch));
    o.insert(u"stripe_kb", number(s.stripeKiB));
    o.insert(u"readahead_floor_kb", number(s.readaheadFloorKiB));
    o.insert(u"members", QJsonArray::fromStringList(s.memberDisks));

    QJsonObject allowed;
    QJsonObject ra = range(0, kMaxReadAheadKiB);
    ra.insert(u"kept_in_multiples_of", double(s.pageKiB));
    allowed.insert(u"read_ahead_kb", ra);
    allowed.insert(u"ra_sectors", range(0, 2 * kMaxReadAheadKiB + 1));
    allowed.insert(u"scheduler", QJsonArray::fromStringList(s.schedulers));
    allowed.insert(u"nr_requests", s.nrRequestsRange ? QJsonValue(range(s.nrRequestsRange->min, s.nrRequestsRange->max))
                                                     : QJsonValue());
    allowed.insert(u"max_sectors_kb", range(s.maxSectorsRange.min, s.maxSectorsRange.max));
    allowed.insert(u"context_readahead",
                   s.contextReadaheadSwitch.isEmpty() ? QJsonValue() : QJsonValue(QJsonArray{0, 1}));
    QStringList tunables;
    for (const IoschedTunable &t : s.iosched)
        tunables << t.name;
    allowed.insert(u"iosched", QJsonArray::fromStringList(tunables));
    o.insert(u"allowed", allowed);
    o.insert(u"notes", QJsonArray::fromStringList(s.notes));
    return o;
}

} // namespace blocktune
