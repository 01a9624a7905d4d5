// Resolving a profile against the devices present: which rule decides each
// setting, what it changes, and what it cannot do here.
#include "profiles.h"
#include "profiles_p.h"

#include <QJsonArray>
#include <QSet>

#include <map>

namespace blocktune {

namespace {

struct Slot
{
    ProfileSetting setting;
    int rule = -1;
    QList<int> overridden;
};

// What matched one whole device: the rules in order, and the partitions a
// rule matched through when it did not match the disk itself.
struct Target
{
    const BlockDevice *device = nullptr;
    QList<int> rules;
    QHash<int, QStringList> via;
};

QString ioschedValue(const DeviceSettings &s, const QString &name)
{
    for (const IoschedTunable &t : s.iosched)
        if (t.name == name)
            return t.value;
    return {};
}

QStringList ioschedNames(const DeviceSettings &s)
{
    QStringList names;
    for (const IoschedTunable &t : s.iosched)
        names << t.name;
    return names;
}

// Per rule and setting: did any device it matched have the setting at all?
struct Applicability
{
    bool seen = false;
    bool applicable = false;
    QStringList why; // "sdb: none, mq-deadline" for the message
};

class Resolver
{
public:
    Resolver(const Profile &profile, const SysRoot &root, const DeviceModel &model)
        : m_profile(profile), m_root(root), m_model(model), m_page(pageKiB(root))
    {
    }
    ProfileResolution run();

private:
    void collectTargets();
    void resolveTarget(const Target &target);
    ResolvedSetting decide(const BlockDevice &queue, const DeviceSettings &now, const Slot &slot,
                           const QString &schedulerAfter);
    void noteApplicable(int rule, const QString &key, bool applicable, const QString &why);
    void checkApplicability();

    const Profile &m_profile;
    const SysRoot &m_root;
    const DeviceModel &m_model;
    quint64 m_page;
    ProfileResolution m_out;
    QList<Target> m_targets;
    QList<bool> m_ruleMatched;
    std::map<std::pair<int, QString>, Applicability> m_applicable;
};

void Resolver::collectTargets()
{
    QHash<QString, qsizetype> index;
    m_ruleMatched = QList<bool>(m_profile.rules.size(), false);
    for (const BlockDevice &d : m_model.devices()) {
        // No medium (an empty loop, a card reader): nothing to tune there.
        if (d.sizeBytes.value_or(0) == 0)
            continue;
        const BlockDevice *queue = d.type == DeviceType::Partition ? m_model.find(d.queueDevice) : &d;
        if (!queue || !queue->readAheadKiB)
            continue; // no queue/ of its own (and no disk that has one)
        for (int r = 0; r < m_profile.rules.size(); ++r) {
            const ProfileMatch &match = m_profile.rules.at(r).match;
            // Partitions share their disk's queue; as with udev's and tuned's
            // disk rules, only a rule that asks for partitions (type part)
            // looks at them, so sd* does not pull sda in through sda1.
            if ((&d != queue) != (match.type == DeviceType::Partition) || !match.matches(d))
                continue;
            m_ruleMatched[r] = true;
            qsizetype &i = index[queue->name];
            if (i == 0) {
                m_targets.append(Target{queue, {}, {}});
                i = m_targets.size();
            }
            Target &t = m_targets[i - 1];
            if (!t.rules.contains(r))
                t.rules.append(r);
            if (&d != queue)
                t.via[r].append(d.name);
            else
                t.via[r].prepend(QString()); // matched the device itself
        }
    }
    for (Target &t : m_targets)
        std::sort(t.rules.begin(), t.rules.end());
    // Targets in the model's order, whichever device led to them first.
    std::sort(m_targets.begin(), m_targets.end(), [&](const Target &a, const Target &b) {
        return kernelNameLess(a.device->name, b.device->name);
    });
}

void Resolver::noteApplicable(int rule, const QString &key, bool applicable, const QString &why)
{
    Applicability &a = m_applicable[{rule, key}];
    a.seen = true;
    a.applicable = a.applicable || applicable;
    if (!applicable && a.why.size() < 4 && !why.isEmpty())
        a.why << why;
}

ResolvedSetting Resolver::decide(const BlockDevice &queue, const DeviceSettings &now, const Slot &slot,
                                 const QString &schedulerAfter)
{
    ResolvedSetting r;
    r.device = queue.name;
    r.setting = slot.setting;
    r.rule = slot.rule;
    r.overridden = slot.overridden;
    const QString &key = slot.setting.key;
    const QString &value = slot.setting.value;
    auto skip = [&](const QString &why) {
        r.state = ResolvedState::Skipped;
        r.reason = why;
        return r;
    };

    if (key == u"scheduler") {
        r.current = now.scheduler;
        if (!detail::hasSchedulerChoice(now))
            return skip(QStringLiteral("%1 has no I/O scheduler to choose (bio-based: it shows '%2')")
                            .arg(queue.name, now.scheduler.isEmpty() ? QStringLiteral("nothing") : now.scheduler));
        if (!now.schedulers.contains(value))
            return skip(QStringLiteral("%1 does not offer %2 (available: %3)")
                            .arg(queue.name, value, now.schedulers.join(u", ")));
        r.target = value;
        r.satisfied = now.scheduler == value;
        r.state = r.satisfied ? ResolvedState::Unchanged : ResolvedState::Change;
        return r;
    }
    if (key.startsWith(detail::kIoschedPrefix)) {
        const QString name = key.mid(detail::kIoschedPrefix.size());
        if (!detail::hasSchedulerChoice(now))
            return skip(QStringLiteral("%1 has no I/O scheduler, so no %2").arg(queue.name, key));
        if (schedulerAfter != now.scheduler) {
            // The switch brings the tunable (or refuses it): the plan checks.
            r.current = QString();
            r.target = value;
            r.state = ResolvedState::Change;
            r.reason = QStringLiteral("set after switching %1 to %2").arg(queue.name, schedulerAfter);
            return r;
        }
        if (!ioschedNames(now).contains(name))
            return skip(QStringLiteral("%1 is not a tunable of %2 on %3 (tunables: %4)")
                            .arg(key, now.scheduler, queue.name,
                                 now.iosched.isEmpty() ? QStringLiteral("none") : ioschedNames(now).join(u", ")));
        r.current = ioschedValue(now, name);
    } else if (key == u"nr_requests") {
        if (!now.nrRequestsRange)
            return skip(QStringLiteral("%1 is bio-based: nr_requests does not apply").arg(queue.name));
        r.current = now.nrRequests ? QString::number(*now.nrRequests) : QString();
    } else if (key == u"context_readahead") {
        if (now.contextReadaheadSwitch.isEmpty())
            return skip(QStringLiteral("context readahead is built into this kernel (always on since 2.6.31); "
                                       "%1 has no switch for it").arg(queue.name));
        r.current = now.contextReadahead ? QString::number(int(*now.contextReadahead)) : QString();
    } else if (key == u"read_ahead_kb") {
        r.current = now.readAheadKiB ? QString::number(*now.readAheadKiB) : QString();
    } else if (key == u"ra_sectors") {
        r.current = now.readAheadKiB ? QString::number(*now.readAheadKiB * 2) : QString();
    } else if (key == u"max_sectors_kb") {
        r.current = now.maxSectorsKiB ? QString::number(*now.maxSectorsKiB) : QString();
    }

    // Numbers: compare with what the kernel would keep (whole pages, at
    // least 4 requests), so a profile asking for 5 KiB is met by 4.
    const quint64 want = value.toULongLong();
    const bool known = !r.current.isEmpty();
    const quint64 cur = r.current.toULongLong();
    const quint64 kept = detail::keptNumber(key, want, m_page);
    switch (slot.setting.bound) {
    case ValueBound::Exact:
        r.target = value;
        r.satisfied = known && cur == kept;
        r.state = r.satisfied ? ResolvedState::Unchanged : ResolvedState::Change;
        break;
    case ValueBound::AtLeast:
        r.satisfied = known && cur >= kept;
        r.target = r.satisfied ? r.current : value;
        r.state = r.satisfied ? ResolvedState::Kept : ResolvedState::Change;
        if (r.satisfied)
            r.reason = QStringLiteral("%1 is already at least %2").arg(r.current, value);
        break;
    case ValueBound::AtMost:
        r.satisfied = known && cur <= kept;
        r.target = r.satisfied ? r.current : value;
        r.state = r.satisfied ? ResolvedState::Kept : ResolvedState::Change;
        if (r.satisfied)
            r.reason = QStringLiteral("%1 is already at most %2").arg(r.current, value);
        break;
    }
    return r;
}

void Resolver::resolveTarget(const Target &target)
{
    const BlockDevice &queue = *target.device;
    auto now = readDeviceSettings(m_root, m_model, queue.name);
    if (!now) {
        m_out.errors << now.error();
        return;
    }
    // Later rules win per setting.
    QList<QString> order;
    QHash<QString, Slot> winners;
    for (int r : target.rules) {
        for (const ProfileSetting &s : m_profile.rules.at(r).settings) {
            const QString name = s.settingName();
            auto it = winners.find(name);
            if (it == winners.end()) {
                order << name;
                winners.insert(name, Slot{s, r, {}});
            } else {
                it->overridden << it->rule;
                it->setting = s;
                it->rule = r;
            }
        }
    }
    QString schedulerAfter = now->scheduler;
    if (auto it = winners.constFind(QStringLiteral("scheduler")); it != winners.constEnd()
        && detail::hasSchedulerChoice(*now) && now->schedulers.contains(it->setting.value))
        schedulerAfter = it->setting.value;

    QList<ResolvedSetting> decided;
    for (const QString &name : std::as_const(order)) {
        const Slot &slot = winners[name];
        ResolvedSetting r = decide(queue, *now, slot, schedulerAfter);
        const QStringList via = target.via.value(slot.rule);
        if (!via.isEmpty() && !via.constFirst().isEmpty())
            r.via = via;
        // Every rule that matched the device and set this: did any device have it?
        for (int rule : target.rules)
            for (const ProfileSetting &s : m_profile.rules.at(rule).settings)
                if (s.settingName() == name) {
                    const ResolvedSetting probe = rule == slot.rule ? r : decide(queue, *now, Slot{s, rule, {}}, schedulerAfter);
                    noteApplicable(rule, s.key, probe.state != ResolvedState::Skipped, probe.reason);
                }
        decided << r;
    }
    // A scheduler switch resets nr_requests; a max_sectors_kb change could
    // reset readahead before 6.15: write those again even when they match now.
    auto changes = [&](const char16_t *key) {
        return std::any_of(decided.cbegin(), decided.cend(), [&](const ResolvedSetting &r) {
            return r.setting.settingName() == QStringView(key) && r.state == ResolvedState::Change;
        });
    };
    const bool switching = changes(u"scheduler");
    const bool limits = changes(u"max_sectors_kb");
    for (ResolvedSetting &r : decided) {
        const QString name = r.setting.settingName();
        const bool again = (switching && name == u"nr_requests") || (limits && name == u"read_ahead_kb");
        if (!again || r.state == ResolvedState::Change || r.state == ResolvedState::Skipped)
            continue;
        r.state = ResolvedState::Change;
        r.reason = switching && name == u"nr_requests"
                       ? QStringLiteral("written again: the scheduler switch resets nr_requests")
                       : QStringLiteral("written again: before 6.15 a max_sectors_kb change could reset readahead");
    }
    std::stable_sort(decided.begin(), decided.end(), [](const ResolvedSetting &a, const ResolvedSetting &b) {
        const int ra = detail::profileKeyRank(a.setting.key), rb = detail::profileKeyRank(b.setting.key);
        return ra != rb ? ra < rb : a.setting.key < b.setting.key;
    });
    for (const ResolvedSetting &r : std::as_const(decided)) {
        if (r.setting.settingName() == u"read_ahead_kb" && r.state != ResolvedState::Skipped && now->readaheadFloorKiB) {
            quint64 kib = r.target.toULongLong();
            if (r.setting.key == u"ra_sectors")
                kib /= 2;
            if (kib < *now->readaheadFloorKiB)
                m_out.floorOverrides << FloorOverride{queue.name, kib, *now->readaheadFloorKiB,
                                                      now->stripeKiB.value_or(0), r.rule};
        }
        m_out.settings << r;
    }
}

void Resolver::checkApplicability()
{
    for (const auto &[key, a] : m_applicable) {
        if (!a.seen || a.applicable)
            continue;
        const ProfileRule &rule = m_profile.rules.at(key.first);
        // A copy: clang before 16 cannot capture a structured binding.
        const QString settingKey = key.second;
        const auto it = std::find_if(rule.settings.cbegin(), rule.settings.cend(),
                                     [&](const ProfileSetting &s) { return s.key == settingKey; });
        const QString what = it == rule.settings.cend() ? key.second : QStringLiteral("%1 %2").arg(key.second, it->text());
        m_out.errors << makeError(InvalidArgument, QStringLiteral("%1 (%2): %3 applies to none of the devices it "
                                                                  "matches: %4")
                                                       .arg(ruleLabel(key.first), rule.match.describe(), what,
                                                            a.why.join(QStringLiteral("; "))));
    }
}

ProfileResolution Resolver::run()
{
    collectTargets();
    QSet<QString> targeted;
    for (const Target &t : std::as_const(m_targets)) {
        targeted.insert(t.device->name);
        resolveTarget(t);
    }
    for (int r = 0; r < m_ruleMatched.size(); ++r)
        if (!m_ruleMatched.at(r))
            m_out.unmatchedRules << r;
    for (const BlockDevice &d : m_model.devices())
        if (d.isWhole() && d.readAheadKiB && d.sizeBytes.value_or(0) > 0 && !targeted.contains(d.name))
            m_out.unmatchedDevices << d.name;
    checkApplicability();
    return m_out;
}

// The rule that asked for `change` on its device.
int ruleOf(const ProfileResolution &resolution, const QString &device, const QString &message)
{
    int best = -1;
    qsizetype at = -1;
    for (const ResolvedSetting &r : resolution.settings) {
        if (r.device != device || r.state != ResolvedState::Change)
            continue;
        const qsizetype i = message.indexOf(r.setting.key == u"ra_sectors" ? QStringLiteral("ra_sectors")
                                                                          : r.setting.key.section(u'.', -1));
        if (i >= 0 && (at < 0 || i < at)) {
            at = i;
            best = r.rule;
        }
    }
    return best;
}

QJsonArray intList(const QList<int> &rules)
{
    QJsonArray a;
    for (int r : rules)
        a.append(r + 1);
    return a;
}

} // namespace

QString resolvedStateName(ResolvedState state)
{
    switch (state) {
    case ResolvedState::Change: return QStringLiteral("change");
    case ResolvedState::Unchanged: return QStringLiteral("unchanged");
    case ResolvedState::Kept: return QStringLiteral("kept");
    case ResolvedState::Skipped: return QStringLiteral("skipped");
    }
    return {};
}

QList<SettingChange> ProfileResolution::changes() const
{
    QList<SettingChange> out;
    for (const ResolvedSetting &r : settings) {
        if (r.state != ResolvedState::Change)
            continue;
        // Values were checked when the profile was parsed; the tuning layer
        // parses them once more, its own way, at its edge.
        if (auto c = parseSettingChange(r.device, r.setting.key + u'=' + r.target))
            out << *c;
    }
    return out;
}

int ProfileResolution::changeCount() const
{
    return int(std::count_if(settings.cbegin(), settings.cend(),
                             [](const ResolvedSetting &r) { return r.state == ResolvedState::Change; }));
}

ProfileResolution resolveProfile(const Profile &profile, const SysRoot &root, const DeviceModel &model)
{
    Resolver resolver(profile, root, model);
    return resolver.run();
}

ProfilePreview previewProfile(const Profile &profile, SessionPort &session,
                              const std::optional<QStringList> &onlyDevices)
{
    ProfilePreview preview;
    auto model = session.model();
    if (!model) {
        preview.errors << model.error();
        return preview;
    }
    preview.resolution = resolveProfile(profile, session.root(), **model);
    preview.errors = preview.resolution.errors;
    if (!preview.resolution.ok())
        return preview;
    QList<SettingChange> changes = preview.resolution.changes();
    if (changes.size() != preview.resolution.changeCount()) {
        preview.errors << makeError(InvalidArgument, QStringLiteral("%1: a value the tuning layer does not take as "
                                                                    "KEY=VALUE (a bug: please report it)")
                                                         .arg(profile.source));
        return preview;
    }
    if (onlyDevices) {
        // The devices a person chose: the others' changes are not planned.
        for (const ResolvedSetting &r : std::as_const(preview.resolution.settings))
            if (r.state == ResolvedState::Change && !onlyDevices->contains(r.device)
                && !preview.leftOut.contains(r.device))
                preview.leftOut << r.device;
        changes.removeIf([&](const SettingChange &c) { return !onlyDevices->contains(c.device); });
    }
    preview.plan = session.plan(changes);
    if (preview.plan.ok())
        return preview;
    // Say which rule asked for what the plan refused: plan each device alone
    // (a scheduler switch and its tunables belong together) and name the rule.
    QStringList devices;
    for (const SettingChange &c : changes)
        if (!devices.contains(c.device))
            devices << c.device;
    for (const QString &device : std::as_const(devices)) {
        QList<SettingChange> own;
        for (const SettingChange &c : changes)
            if (c.device == device)
                own << c;
        const ChangePlan alone = session.plan(own);
        for (const Error &e : alone.errors) {
            const int rule = ruleOf(preview.resolution, device, e.message);
            preview.errors << makeError(e.code, rule < 0 ? e.message
                                                         : QStringLiteral("%1 (%2): %3")
                                                               .arg(ruleLabel(rule),
                                                                    profile.rules.at(rule).match.describe(), e.message));
        }
    }
    if (preview.errors.isEmpty())
        preview.errors = preview.plan.errors; // only the set as a whole is refused
    return preview;
}

QJsonObject resolutionToJson(const Profile &profile, const ProfileResolution &resolution)
{
    QJsonArray settings;
    for (const ResolvedSetting &r : resolution.settings) {
        QJsonObject o;
        o.insert(u"device", r.device);
        o.insert(u"key", r.setting.key);
        o.insert(u"profile_value", r.setting.text());
        o.insert(u"current", r.current.isEmpty() ? QJsonValue() : QJsonValue(r.current));
        o.insert(u"new", r.state == ResolvedState::Change ? QJsonValue(r.target) : QJsonValue());
        o.insert(u"state", resolvedStateName(r.state));
        o.insert(u"rule", r.rule + 1);
        o.insert(u"rule_match", profile.rules.at(r.rule).match.describe());
        o.insert(u"overridden", intList(r.overridden));
        o.insert(u"via", QJsonArray::fromStringList(r.via));
        o.insert(u"reason", r.reason.isEmpty() ? QJsonValue() : QJsonValue(r.reason));
        settings.append(o);
    }
    QJsonArray unmatched;
    for (int r : resolution.unmatchedRules)
        unmatched.append(QJsonObject{{QStringLiteral("rule"), r + 1},
                                     {QStringLiteral("match"), profile.rules.at(r).match.describe()}});
    QJsonArray floors;
    for (const FloorOverride &f : resolution.floorOverrides)
        floors.append(QJsonObject{{QStringLiteral("device"), f.device},
                                  {QStringLiteral("read_ahead_kb"), double(f.valueKiB)},
                                  {QStringLiteral("floor_kb"), double(f.floorKiB)},
                                  {QStringLiteral("stripe_kb"), double(f.stripeKiB)},
                                  {QStringLiteral("rule"), f.rule + 1}});
    QJsonArray errors;
    for (const Error &e : resolution.errors)
        errors.append(e.message);
    QJsonObject o;
    o.insert(u"profile", profile.name);
    o.insert(u"source", profile.source);
    o.insert(u"settings", settings);
    o.insert(u"unmatched_devices", QJsonArray::fromStringList(resolution.unmatchedDevices));
    o.insert(u"unmatched_rules", unmatched);
    o.insert(u"floor_overrides", floors);
    o.insert(u"errors", errors);
    return o;
}

VerifyReport verifyProfile(const Profile &profile, const SysRoot &root, const DeviceModel &model)
{
    VerifyReport report;
    report.resolution = resolveProfile(profile, root, model);
    for (const ResolvedSetting &r : std::as_const(report.resolution.settings)) {
        if (r.state == ResolvedState::Skipped)
            continue;
        if (r.satisfied) {
            ++report.matching;
            continue;
        }
        report.drifts << Drift{r.device, r.setting.key, r.setting.text(),
                               r.current.isEmpty() ? QStringLiteral("(none)") : r.current, r.rule};
    }
    return report;
}

QJsonObject verifyReportToJson(const Profile &profile, const VerifyReport &report)
{
    QJsonObject o = resolutionToJson(profile, report.resolution);
    QJsonArray drifts;
    for (const Drift &d : report.drifts)
        drifts.append(QJsonObject{{QStringLiteral("device"), d.device},
                                  {QStringLiteral("key"), d.key},
                                  {QStringLiteral("expected"), d.expected},
                                  {QStringLiteral("actual"), d.actual},
                                  {QStringLiteral("rule"), d.rule + 1}});
    o.insert(u"ok", report.ok());
    o.insert(u"drift", drifts);
    o.insert(u"matching", report.matching);
    return o;
}

} // namespace blocktune
