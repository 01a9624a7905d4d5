// Saving the current settings as a profile, and knowing which of them the
// kernel chose by itself (for --changed).
#include "profiles.h"
#include "profiles_p.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QSysInfo>

namespace blocktune {

namespace {

struct KernelVersion
{
    int major = 0;
    int minor = 0;
    bool known() const { return major > 0; }
    /// True also when unknown: a default that might apply is counted.
    bool atLeast(int a, int b) const { return !known() || major > a || (major == a && minor >= b); }
    bool before(int a, int b) const { return known() && (major < a || (major == a && minor < b)); }
};

KernelVersion kernelVersion(const SysRoot &root)
{
    KernelVersion v;
    const auto text = root.readString(root.procPath("version"));
    if (!text)
        return v;
    static const QRegularExpression re(QStringLiteral("^Linux version (\\d+)\\.(\\d+)"));
    const QRegularExpressionMatch m = re.match(*text);
    if (m.hasMatch()) {
        v.major = m.captured(1).toInt();
        v.minor = m.captured(2).toInt();
    }
    return v;
}

bool isLegacySchedulerList(const QStringList &schedulers)
{
    return !schedulers.contains(QStringLiteral("none")) && !schedulers.contains(QStringLiteral("mq-deadline"))
           && (schedulers.contains(QStringLiteral("cfq")) || schedulers.contains(QStringLiteral("deadline"))
               || schedulers.contains(QStringLiteral("noop")));
}

std::optional<int> hardwareQueues(const SysDir &queueOwner)
{
    if (!queueOwner.isDirectory("mq"))
        return std::nullopt;
    int n = 0;
    for (const QString &e : queueOwner.list("mq"))
        n += std::all_of(e.cbegin(), e.cend(), [](QChar c) { return c.isDigit(); }) ? 1 : 0;
    return n > 0 ? std::optional(n) : std::nullopt;
}

// Scheduler tunables as the schedulers set them up (block/mq-deadline.c,
// bfq-iosched.c, kyber-iosched.c; deadline-iosched.c and cfq-iosched.c up
// to 4.20). A tunable not listed has no known default: it is kept.
QStringList tunableDefaults(const QString &scheduler, const QString &tunable, const DeviceSettings &s)
{
    struct Row
    {
        const char16_t *scheduler;
        const char16_t *tunable;
        QStringList values;
    };
    static const QList<Row> rows{
        {u"mq-deadline", u"read_expire", {QStringLiteral("500")}},
        {u"mq-deadline", u"write_expire", {QStringLiteral("5000")}},
        {u"mq-deadline", u"writes_starved", {QStringLiteral("2")}},
        {u"mq-deadline", u"front_merges", {QStringLiteral("1")}},
        {u"mq-deadline", u"fifo_batch", {QStringLiteral("16")}},
        {u"mq-deadline", u"prio_aging_expire", {QStringLiteral("10000")}},
        {u"deadline", u"read_expire", {QStringLiteral("500")}},
        {u"deadline", u"write_expire", {QStringLiteral("5000")}},
        {u"deadline", u"writes_starved", {QStringLiteral("2")}},
        {u"deadline", u"front_merges", {QStringLiteral("1")}},
        {u"deadline", u"fifo_batch", {QStringLiteral("16")}},
        {u"kyber", u"read_lat_nsec", {QStringLiteral("2000000")}},
        {u"kyber", u"write_lat_nsec", {QStringLiteral("10000000")}},
        {u"bfq", u"back_seek_max", {QStringLiteral("16384")}},
        {u"bfq", u"back_seek_penalty", {QStringLiteral("2")}},
        {u"bfq", u"fifo_expire_async", {QStringLiteral("250")}},
        {u"bfq", u"fifo_expire_sync", {QStringLiteral("125")}},
        {u"bfq", u"low_latency", {QStringLiteral("1")}},
        {u"bfq", u"max_budget", {QStringLiteral("0")}},
        {u"bfq", u"slice_idle", {QStringLiteral("8")}},
        {u"bfq", u"slice_idle_us", {QStringLiteral("8000")}},
        {u"bfq", u"strict_guarantees", {QStringLiteral("0")}},
        {u"bfq", u"timeout_sync", {QStringLiteral("125")}},
        {u"cfq", u"back_seek_max", {QStringLiteral("16384")}},
        {u"cfq", u"back_seek_penalty", {QStringLiteral("2")}},
        {u"cfq", u"fifo_expire_async", {QStringLiteral("250")}},
        {u"cfq", u"fifo_expire_sync", {QStringLiteral("125")}},
        {u"cfq", u"quantum", {QStringLiteral("4"), QStringLiteral("8")}}, // 8 since 2.6.33
        {u"cfq", u"slice_async", {QStringLiteral("40")}},
        {u"cfq", u"slice_async_rq", {QStringLiteral("2")}},
        {u"cfq", u"slice_idle", {QStringLiteral("8")}},
        {u"cfq", u"slice_sync", {QStringLiteral("100")}},
        {u"cfq", u"low_latency", {QStringLiteral("1")}},
        {u"cfq", u"group_idle", {QStringLiteral("8")}},
        {u"cfq", u"target_latency", {QStringLiteral("300")}},
    };
    if (scheduler == u"mq-deadline" && tunable == u"async_depth" && s.nrRequests) {
        // 3/4 of nr_requests for years; the whole of it on recent kernels.
        return {QString::number(*s.nrRequests * 3 / 4), QString::number(*s.nrRequests)};
    }
    for (const Row &r : rows)
        if (scheduler == QStringView(r.scheduler) && tunable == QStringView(r.tunable))
            return r.values;
    return {};
}

KernelDefault defaultFor(const KernelVersion &v, const SysRoot &root, const BlockDevice &q, const DeviceSettings &s,
                         const QString &key)
{
    Q_UNUSED(root);
    KernelDefault d;
    auto add = [&d](quint64 value) {
        const QString text = QString::number(value);
        if (!d.values.contains(text))
            d.values << text;
    };
    const SysDir dir = SysDir::open(q.sysfsDir.toLocal8Bit());
    if (key == u"read_ahead_kb") {
        add(128);
        QStringList why{QStringLiteral("128 KiB (VM_READAHEAD_PAGES) classically")};
        if (s.readaheadFloorKiB) {
            add(*s.readaheadFloorKiB);
            why << QStringLiteral("the md/dm floor of 2 x stripe (%1 KiB) that assembly sets").arg(*s.readaheadFloorKiB);
        }
        const quint64 ioOpt = q.optimalIoBytes.value_or(0) / 1024;
        if (ioOpt && v.atLeast(5, 10)) {
            add(std::max<quint64>(2 * ioOpt, 128));
            why << QStringLiteral("max(2 x io_opt, 128 KiB) since 5.10");
        }
        if (!ioOpt && q.rotational.value_or(false) && q.maxSectorsKiB && v.atLeast(6, 12)) {
            add(2 * *q.maxSectorsKiB);
            why << QStringLiteral("2 x max_sectors_kb for a rotational device without io_opt on recent kernels "
                                  "(6.18 here; not on 6.1)");
        }
        d.reason = why.join(QStringLiteral(", "));
    } else if (key == u"scheduler") {
        if (isLegacySchedulerList(s.schedulers)) {
            d.values << (s.schedulers.contains(QStringLiteral("cfq")) ? QStringLiteral("cfq") : QStringLiteral("deadline"));
            d.reason = QStringLiteral("up to 4.20 the kernel's CONFIG_DEFAULT_IOSCHED, cfq on most distributions");
        } else if (q.type == DeviceType::Loop) {
            d.values << QStringLiteral("none");
            d.reason = QStringLiteral("loop devices start without a scheduler (BLK_MQ_F_NO_SCHED_BY_DEFAULT)");
        } else {
            const auto queues = hardwareQueues(dir);
            const bool deadline = s.schedulers.contains(QStringLiteral("mq-deadline"));
            if (!queues || (*queues == 1 && deadline))
                d.values << (deadline ? QStringLiteral("mq-deadline") : QStringLiteral("none"));
            if (!queues || *queues > 1 || !deadline)
                d.values << QStringLiteral("none");
            d.values.removeDuplicates();
            d.reason = QStringLiteral("blk-mq picks mq-deadline for a device with one hardware queue and none for "
                                      "several (block/elevator.c)");
        }
    } else if (key.startsWith(u"iosched.")) {
        d.values = tunableDefaults(s.scheduler, key.mid(8), s);
        d.reason = QStringLiteral("the defaults %1 sets up").arg(s.scheduler);
    } else if (key == u"nr_requests") {
        if (isLegacySchedulerList(s.schedulers)) {
            add(128);
            d.reason = QStringLiteral("BLKDEV_MAX_RQ, 128, on the legacy block layer");
        } else if (auto tags = dir.readU64("mq/0/nr_tags")) {
            const bool scheduler = !s.scheduler.isEmpty() && s.scheduler != u"none";
            add(scheduler ? 2 * std::min<quint64>(*tags, 128) : *tags);
            d.reason = scheduler ? QStringLiteral("2 x min(hardware tags, 128) with a scheduler (blk_mq_init_sched)")
                                 : QStringLiteral("the hardware tag depth without a scheduler");
        }
    } else if (key == u"max_sectors_kb" && q.maxHwSectorsKiB) {
        const quint64 hw = *q.maxHwSectorsKiB;
        if (v.before(4, 3) || !v.known())
            add(std::min<quint64>(hw, 512));
        if (!v.known() || (v.atLeast(4, 3) && v.before(6, 10)))
            add(std::min<quint64>(hw, 1280));
        if (v.atLeast(6, 0))
            add(std::min<quint64>(hw, 4096));
        d.reason = QStringLiteral("min(max_hw_sectors_kb, the block layer's default cap: 512 KiB before 4.3, "
                                  "1280 KiB (BLK_DEF_MAX_SECTORS) until 6.x, 4 MiB on recent kernels)");
    }
    return d;
}

struct Identity
{
    ProfileMatch match;
    QString comment;
    bool stable = false;
};

Identity identityOf(const BlockDevice &d)
{
    Identity id;
    const QString what = d.model.isEmpty() ? d.name : QStringLiteral("%1 (%2)").arg(d.name, d.model.trimmed());
    auto byName = [&](const QString &why) {
        id.match.name = d.name;
        id.comment = QStringLiteral("saved from %1: %2, so this rule follows the kernel name").arg(what, why);
    };
    if (d.type == DeviceType::Md) {
        const QString uuid = d.md ? normalizeMdUuid(d.md->uuid) : QString();
        if (!uuid.isEmpty()) {
            id.match.mdUuid = uuid;
            id.stable = true;
        } else {
            byName(QStringLiteral("this kernel shows no md/uuid"));
        }
    } else if (d.type == DeviceType::Dm) {
        if (d.dm && detail::isLiteralIdentity(d.dm->name)) {
            id.match.dmName = d.dm->name;
            id.stable = true;
        } else {
            byName(QStringLiteral("it has no dm name"));
        }
    } else if (d.type == DeviceType::Disk && detail::isLiteralIdentity(d.wwn)) {
        id.match.wwn = d.wwn;
        id.stable = true;
    } else if (d.type == DeviceType::Disk && detail::isLiteralIdentity(d.serial)) {
        id.match.serial = d.serial;
        id.stable = true;
    } else if (d.type == DeviceType::Loop) {
        byName(QStringLiteral("a loop device has no stable identity"));
    } else {
        byName(QStringLiteral("it has no WWN or serial"));
    }
    if (id.stable)
        id.comment = QStringLiteral("saved from %1").arg(what);
    return id;
}

} // namespace

KernelDefault kernelDefault(const SysRoot &root, const BlockDevice &queue, const DeviceSettings &settings,
                            const QString &key)
{
    return defaultFor(kernelVersion(root), root, queue, settings, key);
}

namespace {

// The whole devices a profile is saved from, in kernel-name order: those
// asked for (a partition stands for its disk), or every whole device with a
// readahead and a medium.
Result<QList<const BlockDevice *>> devicesToSave(const DeviceModel &model, const SaveOptions &options, QStringList &notes)
{
    QList<const BlockDevice *> chosen;
    if (options.devices.isEmpty()) {
        QStringList empty;
        for (const BlockDevice &d : model.devices()) {
            if (!d.isWhole() || !d.readAheadKiB)
                continue;
            if (d.sizeBytes.value_or(0) == 0) {
                empty << d.name;
                continue;
            }
            chosen << &d;
        }
        if (!empty.isEmpty())
            notes << QStringLiteral("left out (no medium, size 0): %1").arg(empty.join(u", "));
    } else {
        QStringList unknown;
        for (const QString &name : options.devices) {
            const BlockDevice *d = model.findByUserName(name);
            if (!d) {
                unknown << name;
                continue;
            }
            if (!d->isWhole()) {
                notes << QStringLiteral("%1 is a partition: its settings are those of %2, saved as %2")
                             .arg(d->name, d->queueDevice);
                d = model.find(d->queueDevice);
            }
            if (d && !chosen.contains(d))
                chosen << d;
        }
        if (!unknown.isEmpty())
            return makeError(NotFound, QStringLiteral("no block device named %1 (see blocktune-cli list)")
                                           .arg(unknown.join(QStringLiteral(", "))));
    }
    std::sort(chosen.begin(), chosen.end(),
              [](const BlockDevice *a, const BlockDevice *b) { return kernelNameLess(a->name, b->name); });
    return chosen;
}

// What a profile can set again on this device, as it is now.
QList<ProfileSetting> settingsToSave(const BlockDevice &d, const DeviceSettings &s)
{
    QList<ProfileSetting> settings;
    auto put = [&settings](const QString &key, const QString &value) {
        settings << ProfileSetting{key, value, ValueBound::Exact};
    };
    if (s.readAheadKiB)
        put(QStringLiteral("read_ahead_kb"), QString::number(*s.readAheadKiB));
    if (detail::hasSchedulerChoice(s)) {
        put(QStringLiteral("scheduler"), s.scheduler);
        for (const IoschedTunable &t : std::as_const(s.iosched))
            if (isPlainDecimal(t.value) && detail::isTunableName(t.name))
                put(u"iosched." + t.name, t.value);
    }
    const bool stacked = d.type == DeviceType::Md || d.type == DeviceType::Dm;
    if (s.nrRequestsRange && s.nrRequests && !stacked)
        put(QStringLiteral("nr_requests"), QString::number(*s.nrRequests));
    if (s.maxSectorsKiB && !stacked)
        put(QStringLiteral("max_sectors_kb"), QString::number(*s.maxSectorsKiB));
    if (s.contextReadahead && s.contextReadaheadSwitch == u"queue/context_readahead")
        put(QStringLiteral("context_readahead"), QString::number(int(*s.contextReadahead)));
    return settings;
}

// --changed: the settings the kernel did not choose by itself.
QList<ProfileSetting> withoutKernelDefaults(const QList<ProfileSetting> &settings, const KernelVersion &version,
                                            const SysRoot &root, const BlockDevice &d, const DeviceSettings &s,
                                            QStringList &notes)
{
    QStringList dropped;
    QList<ProfileSetting> kept;
    for (const ProfileSetting &p : settings) {
        const KernelDefault def = defaultFor(version, root, d, s, p.key);
        if (def.values.contains(p.value))
            dropped << QStringLiteral("%1 %2").arg(p.key, p.value);
        else
            kept << p;
    }
    if (!dropped.isEmpty())
        notes << QStringLiteral("%1: left out as the kernel's own defaults: %2")
                     .arg(d.name, dropped.join(QStringLiteral(", ")));
    return kept;
}

QString savedDescription(const SysRoot &root, const SaveOptions &options)
{
    const QString where = !options.machine.isEmpty() ? options.machine
                          : root.isLive()            ? QSysInfo::machineHostName()
                                                     : QStringLiteral("the recorded tree %1").arg(root.root());
    return QStringLiteral("The %1settings of %2 on %3, saved by blocktune.")
        .arg(options.changedOnly ? QStringLiteral("changed ") : QString(), where,
             QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd")));
}

} // namespace

Result<SavedProfile> saveProfile(const SysRoot &root, const DeviceModel &model, const SaveOptions &options)
{
    if (!isValidProfileName(options.name))
        return makeError(InvalidArgument, QStringLiteral("'%1' is not a profile name (letters, digits, _ . -, starting "
                                                         "with a letter or digit, at most 64)")
                                              .arg(options.name.left(64)));
    SavedProfile out;
    const auto chosen = devicesToSave(model, options, out.notes);
    if (!chosen)
        return chosen.error();

    const KernelVersion version = kernelVersion(root);
    QStringList byName;
    for (const BlockDevice *d : std::as_const(*chosen)) {
        auto s = readDeviceSettings(root, model, d->name);
        if (!s)
            return s.error();
        QList<ProfileSetting> settings = settingsToSave(*d, *s);
        if (options.changedOnly)
            settings = withoutKernelDefaults(settings, version, root, *d, *s, out.notes);
        if (settings.isEmpty())
            continue;
        const Identity id = identityOf(*d);
        if (!id.stable)
            byName << d->name;
        detail::sortSettings(settings);
        out.profile.rules << ProfileRule{id.match, settings, id.comment};
    }
    if (!byName.isEmpty())
        out.notes << QStringLiteral("only a kernel name is known for %1: those rules follow the name, so they "
                                    "apply to whatever device takes it")
                         .arg(byName.join(QStringLiteral(", ")));
    if (out.profile.rules.isEmpty())
        return makeError(NotFound, options.changedOnly
                                       ? QStringLiteral("every setting of the chosen devices is the kernel's own "
                                                        "default: nothing to save")
                                       : QStringLiteral("no tunable device to save"));
    out.profile.name = options.name;
    out.profile.description = options.description;
    if (out.profile.description.isEmpty())
        out.profile.description = savedDescription(root, options);
    out.profile.source = QStringLiteral("saved profile %1").arg(options.name);
    return out;
}

} // namespace blocktune
