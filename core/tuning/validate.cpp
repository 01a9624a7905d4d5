// Validating a change set as a whole against the live values, and turning it
// into ordered attribute writes plus the originals a rollback needs.
#include "tuning.h"
#include "tuning_p.h"

#include "common/tr.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <map>

namespace blocktune {

namespace detail {

QStringList knownTunables(const QString &scheduler)
{
    // block/mq-deadline.c, block/kyber-iosched.c, block/bfq-iosched.c (6.x);
    // block/deadline-iosched.c and block/cfq-iosched.c (up to 4.20).
    if (scheduler == u"mq-deadline")
        return {QStringLiteral("async_depth"), QStringLiteral("fifo_batch"), QStringLiteral("front_merges"),
                QStringLiteral("prio_aging_expire"), QStringLiteral("read_expire"),
                QStringLiteral("write_expire"), QStringLiteral("writes_starved")};
    if (scheduler == u"kyber")
        return {QStringLiteral("read_lat_nsec"), QStringLiteral("write_lat_nsec")};
    if (scheduler == u"bfq")
        return {QStringLiteral("back_seek_max"), QStringLiteral("back_seek_penalty"),
                QStringLiteral("fifo_expire_async"), QStringLiteral("fifo_expire_sync"),
                QStringLiteral("low_latency"), QStringLiteral("max_budget"), QStringLiteral("slice_idle"),
                QStringLiteral("slice_idle_us"), QStringLiteral("strict_guarantees"),
                QStringLiteral("timeout_sync")};
    if (scheduler == u"deadline")
        return {QStringLiteral("fifo_batch"), QStringLiteral("front_merges"), QStringLiteral("read_expire"),
                QStringLiteral("write_expire"), QStringLiteral("writes_starved")};
    if (scheduler == u"cfq")
        return {QStringLiteral("back_seek_max"), QStringLiteral("back_seek_penalty"),
                QStringLiteral("fifo_expire_async"), QStringLiteral("fifo_expire_sync"),
                QStringLiteral("group_idle"), QStringLiteral("group_idle_us"), QStringLiteral("low_latency"),
                QStringLiteral("quantum"), QStringLiteral("slice_async"), QStringLiteral("slice_async_rq"),
                QStringLiteral("slice_async_us"), QStringLiteral("slice_idle"), QStringLiteral("slice_idle_us"),
                QStringLiteral("slice_sync"), QStringLiteral("slice_sync_us"),
                QStringLiteral("target_latency"), QStringLiteral("target_latency_us")};
    return {};
}

} // namespace detail

namespace {

const QString kIosched = QStringLiteral("iosched.");

// Apply order within the set; see planChanges() in tuning.h for why.
int phaseOf(const QString &attribute)
{
    if (attribute == attribute::Scheduler)
        return 0;
    if (attribute.startsWith(attribute::IoschedPrefix))
        return 1;
    if (attribute == attribute::NrRequests)
        return 2;
    if (attribute == attribute::MaxSectorsKb)
        return 3;
    if (attribute == attribute::ReadAheadKb)
        return 4;
    return 5;
}

struct QueueState
{
    const BlockDevice *device = nullptr;
    SysDir dir;
    QString diskseq;
    QList<IoschedTunable> iosched; // the active scheduler's, now
    QString schedulerAfter;        // active once this set's scheduler change is made
    QString schedulerRequestedBy;  // the change that set schedulerAfter
};

struct Item
{
    SettingChange request;
    const BlockDevice *device = nullptr;
    const BlockDevice *queue = nullptr;
    bool invalid = false;
};

QString kib(quint64 v)
{
    return QString::number(v);
}

class Planner
{
public:
    Planner(const SysRoot &root, const DeviceModel &model, const PlanOptions &options)
        : m_root(root), m_model(model), m_options(options), m_page(pageKiB(root))
    {
    }

    ChangePlan run(const QList<SettingChange> &changes);

private:
    QueueState &queue(const BlockDevice *q);
    void error(const QString &message, int code = InvalidArgument) { m_plan.errors << makeError(code, message); }
    void note(const QString &text)
    {
        if (!m_plan.notes.contains(text))
            m_plan.notes << text;
    }
    void warn(const QString &text)
    {
        if (!m_plan.warnings.contains(text))
            m_plan.warnings << text;
    }
    void add(const Item &item, const QString &device, const QString &attribute, const QString &value,
             const QString &current, bool forMembers = false);
    void planReadAhead(const Item &item);
    void planNumber(const Item &item);
    void planContext(const Item &item);
    void planIosched(const Item &item);
    void addMembers();
    void collectOriginals();
    JournalEntry identity(const QString &device) const;

    const SysRoot &m_root;
    const DeviceModel &m_model;
    PlanOptions m_options;
    quint64 m_page;
    ChangePlan m_plan;
    std::map<QString, QueueState> m_queues; // SysDir is move-only: no QHash
    QHash<QString, qsizetype> m_byTarget; // "device\nattribute" -> index in m_plan.writes
};

QueueState &Planner::queue(const BlockDevice *q)
{
    auto it = m_queues.find(q->name);
    if (it == m_queues.end()) {
        QueueState s;
        s.device = q;
        s.dir = SysDir::open(q->sysfsDir.toLocal8Bit());
        s.diskseq = s.dir.readString("diskseq").value_or(QString()).trimmed();
        s.iosched = detail::readIosched(s.dir);
        s.schedulerAfter = q->scheduler;
        it = m_queues.emplace(q->name, std::move(s)).first;
    }
    return it->second;
}

JournalEntry Planner::identity(const QString &device) const
{
    JournalEntry e;
    e.device = device;
    if (device.isEmpty())
        return e;
    if (const BlockDevice *d = m_model.find(device)) {
        e.major = d->major;
        e.minor = d->minor;
    }
    if (auto it = m_queues.find(device); it != m_queues.end())
        e.diskseq = it->second.diskseq;
    return e;
}

void Planner::add(const Item &item, const QString &device, const QString &attribute, const QString &value,
                  const QString &current, bool forMembers)
{
    const QString target = device + u'\n' + attribute;
    if (auto it = m_byTarget.constFind(target); it != m_byTarget.constEnd()) {
        const PlannedWrite &earlier = m_plan.writes[*it];
        if (earlier.value == value)
            return; // said twice, same value (read_ahead_kb=4096 ra_sectors=8192)
        if (forMembers || earlier.forMembers) {
            // An explicit value for a member wins over --members.
            if (earlier.forMembers && !forMembers)
                m_plan.writes[*it] = PlannedWrite{item.request, device, attribute, value, current, false};
            return;
        }
        error(TuningText::tr("%1 of %2 is set twice in one change set (%3 and %4)")
                  .arg(attribute, device.isEmpty() ? TuningText::tr("this machine") : device, earlier.value, value));
        return;
    }
    m_byTarget.insert(target, m_plan.writes.size());
    m_plan.writes.append(PlannedWrite{item.request, device, attribute, value, current, forMembers});
}

void Planner::planReadAhead(const Item &item)
{
    const SettingChange &c = item.request;
    const bool sectors = c.key == u"ra_sectors";
    const quint64 max = sectors ? 2 * kMaxReadAheadKiB + 1 : kMaxReadAheadKiB;
    const std::optional<quint64> &n = c.value.number();
    if (!n || *n > max) {
        error(TuningText::tr("%1 '%2' on %3 is not valid: a whole number of %4 is needed (allowed: 0 to %5)")
                  .arg(c.key, c.value.text(), item.device->name,
                       sectors ? TuningText::tr("512-byte sectors") : QStringLiteral("KiB"))
                  .arg(max));
        return;
    }
    const quint64 value = sectors ? *n / 2 : *n;
    if (sectors)
        note(TuningText::tr("ra_sectors %1 = read_ahead_kb %2 (512-byte sectors, as blockdev --setra counts)%3")
                 .arg(*n).arg(value)
                 .arg(*n % 2 ? TuningText::tr("; an odd count keeps what blockdev --setra %1 keeps: the kernel "
                                              "stores whole pages").arg(*n)
                             : QString()));
    if (value % m_page)
        note(TuningText::tr("the kernel keeps readahead in whole %1 KiB pages: read_ahead_kb %2 will read back as %3")
                 .arg(m_page).arg(value).arg(value / m_page * m_page));
    const BlockDevice *q = item.queue;
    const detail::StripeFloor floor = detail::stripeFloor(*q);
    if (floor.floorKiB && value < *floor.floorKiB)
        warn(TuningText::tr("read_ahead_kb %1 on %2 is below the kernel's readahead floor of %3 KiB (2 x stripe "
                            "of %4 KiB): re-assembly or a reshape raises it again")
                 .arg(value).arg(q->name).arg(*floor.floorKiB).arg(*floor.stripeKiB));
    if (q->dm && q->dm->kind == u"lvm")
        note(TuningText::tr("LVM sets readahead again on every activation of %1: make it stick with lvchange -r %2")
                 .arg(q->name).arg(value * 2));
    queue(q);
    add(item, q->name, attribute::ReadAheadKb, kib(value),
        q->readAheadKiB ? kib(*q->readAheadKiB) : QString());
}

void Planner::planNumber(const Item &item)
{
    const SettingChange &c = item.request;
    const BlockDevice *q = item.queue;
    QueueState &qs = queue(q);
    std::optional<NumberRange> range;
    QString why;
    QString current;
    if (c.key == u"nr_requests") {
        range = nrRequestsRange(qs.dir, qs.schedulerAfter);
        if (!range) {
            error(TuningText::tr("nr_requests does not apply to %1: it is bio-based (no request queue to size)")
                      .arg(q->name), NotSupported);
            return;
        }
        why = qs.schedulerAfter.isEmpty() || qs.schedulerAfter == u"none"
                  ? TuningText::tr("without a scheduler, at most the hardware queue depth")
                  : TuningText::tr("with scheduler %1").arg(qs.schedulerAfter);
        current = q->nrRequests ? kib(*q->nrRequests) : QString();
    } else {
        range = maxSectorsRange(m_root, qs.dir);
        why = TuningText::tr("one page up to max_hw_sectors_kb");
        current = q->maxSectorsKiB ? kib(*q->maxSectorsKiB) : QString();
    }
    const QString allowed = TuningText::tr("allowed: %1 to %2, %3").arg(range->min).arg(range->max).arg(why);
    const std::optional<quint64> &n = c.value.number();
    if (!n) {
        error(TuningText::tr("%1 '%2' on %3 is not a whole number (%4)").arg(c.key, c.value.text(), q->name, allowed));
        return;
    }
    if (c.key == u"max_sectors_kb" && *n > range->max && q->maxHwSectorsKiB) {
        error(TuningText::tr("max_sectors_kb %1 is above max_hw_sectors_kb %2 on %3 (allowed: %4 to %2)")
                  .arg(c.value.text()).arg(*q->maxHwSectorsKiB).arg(q->name).arg(range->min));
        return;
    }
    if (!range->contains(*n)) {
        error(TuningText::tr("%1 %2 is out of range on %3 (%4)").arg(c.key, c.value.text(), q->name, allowed));
        return;
    }
    if (c.key == u"nr_requests" && *n < kMinKernelRequests)
        note(TuningText::tr("the kernel raises nr_requests below %1 to %1").arg(kMinKernelRequests));
    add(item, q->name, c.key, kib(*n), current);
}

void Planner::planContext(const Item &item)
{
    const SettingChange &c = item.request;
    const BlockDevice *q = item.queue;
    const QString path = q->contextReadahead ? q->contextReadaheadPath : item.device->contextReadaheadPath;
    const std::optional<bool> now = q->contextReadahead ? q->contextReadahead : item.device->contextReadahead;
    if (path.isEmpty()) {
        error(detail::contextBuiltInText(q->name), NotSupported);
        return;
    }
    if (c.value.number() != 0u && c.value.number() != 1u) {
        error(TuningText::tr("context_readahead '%1' on %2 is not valid (allowed: 0, 1)").arg(c.value.text(), q->name));
        return;
    }
    const QString current = now ? QString::number(int(*now)) : QString();
    if (path.startsWith(u'/')) {
        note(TuningText::tr("%1 is machine-wide: context_readahead=%2 applies to every device").arg(path, c.value.text()));
        add(item, QString(), attribute::VmContextReadahead, kib(*c.value.number()), current);
    } else {
        queue(q);
        add(item, q->name, attribute::ContextReadahead, kib(*c.value.number()), current);
    }
}

void Planner::planIosched(const Item &item)
{
    const SettingChange &c = item.request;
    const BlockDevice *q = item.queue;
    QueueState &qs = queue(q);
    const QString name = c.key.mid(kIosched.size());
    const bool switching = qs.schedulerAfter != q->scheduler;
    QStringList names;
    QString current;
    if (switching) {
        names = detail::knownTunables(qs.schedulerAfter);
        if (names.isEmpty()) {
            error(TuningText::tr("cannot check %1 before %2 switches to %3, whose tunables blocktune does not know: "
                                 "switch first, then set it in a second command")
                      .arg(c.key, q->name, qs.schedulerAfter));
            return;
        }
    } else {
        for (const IoschedTunable &t : std::as_const(qs.iosched))
            names << t.name;
        const auto it = std::find_if(qs.iosched.cbegin(), qs.iosched.cend(),
                                     [&](const IoschedTunable &t) { return t.name == name; });
        if (it != qs.iosched.cend())
            current = it->value;
    }
    if (!names.contains(name)) {
        QString hint;
        for (const QString &other : q->schedulers)
            if (other != qs.schedulerAfter && detail::knownTunables(other).contains(name)) {
                hint = TuningText::tr("; it belongs to %1: switch in the same command, e.g. scheduler=%1 %2=%3")
                           .arg(other, c.key, c.value.text());
                break;
            }
        error(TuningText::tr("%1 is not a tunable of %2, %3 scheduler on %4 (tunables: %5)%6")
                  .arg(c.key, qs.schedulerAfter, switching ? TuningText::tr("the new") : TuningText::tr("the active"),
                       q->name, names.isEmpty() ? QStringLiteral("none") : names.join(u", "), hint));
        return;
    }
    if (!c.value.number()) {
        error(TuningText::tr("%1 '%2' on %3 is not a whole number (allowed: 0 to 18446744073709551615, digits only)")
                  .arg(c.key, c.value.text(), q->name));
        return;
    }
    add(item, q->name, attribute::IoschedPrefix + name, kib(*c.value.number()), current);
}

void Planner::addMembers()
{
    bool any = false;
    const QList<PlannedWrite> explicitWrites = m_plan.writes;
    for (const PlannedWrite &w : explicitWrites) {
        if (w.attribute != attribute::ReadAheadKb)
            continue;
        const BlockDevice *q = m_model.find(w.device);
        if (!q || (q->type != DeviceType::Md && q->type != DeviceType::Dm) || q->leafDisks.isEmpty())
            continue;
        any = true;
        QStringList described;
        for (const QString &member : q->leafDisks) {
            const BlockDevice *m = m_model.find(member);
            if (!m)
                continue;
            described << QStringLiteral("%1 %2 KiB").arg(member,
                                                       m->readAheadKiB ? kib(*m->readAheadKiB) : QStringLiteral("?"));
            if (m_options.applyToMembers) {
                queue(m);
                add(Item{w.request, m, m, false}, member, attribute::ReadAheadKb, w.value,
                    m->readAheadKiB ? kib(*m->readAheadKiB) : QString(), true);
            }
        }
        if (m_options.applyToMembers)
            note(TuningText::tr("%4: read_ahead_kb %1 also on %2 (the disks under %3)")
                     .arg(w.value, q->leafDisks.join(u", "), q->name, m_options.membersOption));
        else
            note(TuningText::tr("the disks under %1 keep their own readahead (%2); %4 sets them to %3 KiB too")
                     .arg(q->name, described.join(u", "), w.value, m_options.membersOption));
    }
    if (m_options.applyToMembers && !any)
        warn(TuningText::tr("%1 has no effect: this change set sets no md or dm readahead").arg(m_options.membersOption));
}

void Planner::collectOriginals()
{
    QList<JournalEntry> out;
    auto addEntry = [&](const QString &device, const QString &attr, const QString &original,
                        const QString &scheduler = QString()) {
        JournalEntry e = identity(device);
        e.attribute = attr;
        e.original = original;
        e.scheduler = scheduler;
        detail::mergeOriginals(out, {e});
    };
    for (const PlannedWrite &w : std::as_const(m_plan.writes)) {
        const BlockDevice *q = w.device.isEmpty() ? nullptr : m_model.find(w.device);
        if (w.attribute == attribute::Scheduler) {
            addEntry(w.device, w.attribute, w.current);
            if (q && w.value != w.current) {
                // A switch resets nr_requests to the new scheduler's default
                // and throws away the old scheduler's tunables: both come
                // back only if we wrote them down.
                if (q->nrRequests)
                    addEntry(w.device, attribute::NrRequests, kib(*q->nrRequests));
                for (const IoschedTunable &t : std::as_const(queue(q).iosched))
                    addEntry(w.device, attribute::IoschedPrefix + t.name, t.value, w.current);
            }
            continue;
        }
        if (w.attribute.startsWith(attribute::IoschedPrefix)) {
            if (!w.current.isEmpty() && q) // empty: it appears with the switch and goes with it
                addEntry(w.device, w.attribute, w.current, q->scheduler);
            continue;
        }
        if (w.attribute == attribute::MaxSectorsKb && q && q->readAheadKiB)
            // Before 6.15 a queue-limits update could reset readahead.
            addEntry(w.device, attribute::ReadAheadKb, kib(*q->readAheadKiB));
        addEntry(w.device, w.attribute, w.current);
    }
    m_plan.originals = out;
}

ChangePlan Planner::run(const QList<SettingChange> &changes)
{
    QList<Item> items;
    const QStringList plainKeys = settingKeys().mid(0, settingKeys().size() - 1);
    for (const SettingChange &c : changes) {
        const BlockDevice *d = m_model.findByUserName(c.device);
        if (!d) {
            error(TuningText::tr("no block device named '%1' (see blocktune-cli list)").arg(c.device), NotFound);
            continue;
        }
        const bool known = plainKeys.contains(c.key) || (c.key.startsWith(kIosched) && c.key.size() > kIosched.size());
        if (!known) {
            error(TuningText::tr("unknown setting '%1' on %2 (settings: %3)")
                      .arg(c.key, d->name, settingKeys().join(u", ")));
            continue;
        }
        if (c.value.isEmpty()) {
            error(TuningText::tr("%1 on %2 needs a value").arg(c.key, d->name));
            continue;
        }
        const BlockDevice *q = m_model.find(d->queueDevice);
        if (!q)
            q = d;
        if (d->type == DeviceType::Partition)
            note(TuningText::tr("%1 is a partition: readahead and queue settings belong to the whole disk %2; "
                                "changing %2")
                     .arg(d->name, q->name));
        items.append(Item{c, d, q, false});
    }
    // Scheduler changes first: the tunables and nr_requests limits that
    // follow depend on the scheduler the set leaves active.
    for (Item &item : items) {
        if (item.request.key != u"scheduler")
            continue;
        const SettingChange &c = item.request;
        const BlockDevice *q = item.queue;
        if (!q->schedulers.contains(c.value.text())) {
            error(q->schedulers.isEmpty()
                      ? TuningText::tr("%1 has no I/O scheduler to choose").arg(q->name)
                      : TuningText::tr("scheduler '%1' is not available on %2 (available: %3)")
                            .arg(c.value.text(), q->name, q->schedulers.join(u", ")));
            item.invalid = true;
            continue;
        }
        QueueState &qs = queue(q);
        if (!qs.schedulerRequestedBy.isEmpty() && qs.schedulerAfter != c.value.text()) {
            error(TuningText::tr("scheduler of %1 is set twice in one change set (%2 and %3)")
                      .arg(q->name, qs.schedulerAfter, c.value.text()));
            item.invalid = true;
            continue;
        }
        qs.schedulerAfter = c.value.text();
        qs.schedulerRequestedBy = c.key;
    }
    for (const Item &item : std::as_const(items)) {
        if (item.invalid)
            continue;
        const QString &key = item.request.key;
        if (key == u"read_ahead_kb" || key == u"ra_sectors")
            planReadAhead(item);
        else if (key == u"scheduler")
            add(item, item.queue->name, attribute::Scheduler, item.request.value.text(), item.queue->scheduler);
        else if (key == u"nr_requests" || key == u"max_sectors_kb")
            planNumber(item);
        else if (key == u"context_readahead")
            planContext(item);
        else
            planIosched(item);
    }
    addMembers();
    std::stable_sort(m_plan.writes.begin(), m_plan.writes.end(), [](const PlannedWrite &a, const PlannedWrite &b) {
        return phaseOf(a.attribute) < phaseOf(b.attribute);
    });
    collectOriginals();
    return m_plan;
}

} // namespace

ChangePlan planChanges(const SysRoot &root, const DeviceModel &model, const QList<SettingChange> &changes,
                       const PlanOptions &options)
{
    Planner planner(root, model, options);
    return planner.run(changes);
}

} // namespace blocktune
