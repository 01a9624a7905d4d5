// What the metrics say and where each figure comes from: the session's
// model (settings and stacking), readDeviceSettings() for the md/dm floor,
// verifyProfile() for drift, the history's newest records.
#include "metrics.h"

#include "devices/devicemodel.h"
#include "history/history.h"
#include "profiles/profiles.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QHash>
#include <QSet>

namespace blocktune {

namespace {

using Labels = Exposition::Labels;

constexpr double kKiB = 1024.0;
/// blocktune's MB/s are decimal megabytes (core/readtest/engine.cpp).
constexpr double kMB = 1e6;

void declareFamilies(Exposition &e)
{
    // One spelling of readahead in every name: `read_ahead`, as sysfs's
    // queue/read_ahead_kb and the JSON's read_ahead_kb spell it (0.1.1
    // renamed blocktune_readahead_floor_bytes; resources/debian/changelog.in).
    e.family(QStringLiteral("blocktune_build_info"),
             QStringLiteral("The blocktune-cli that wrote these metrics: its version and the Qt it was built with "
                            "(value 1)."));
    e.family(QStringLiteral("blocktune_read_ahead_bytes"),
             QStringLiteral("Readahead of the device's queue (queue/read_ahead_kb x 1024)."));
    e.family(QStringLiteral("blocktune_read_ahead_floor_bytes"),
             QStringLiteral("md/dm: the readahead the kernel raises the device to again on re-assembly, reshape or "
                            "table reload (2 x stripe)."));
    e.family(QStringLiteral("blocktune_nr_requests"), QStringLiteral("queue/nr_requests of the device."));
    e.family(QStringLiteral("blocktune_max_sectors_bytes"),
             QStringLiteral("Largest request the block layer builds (queue/max_sectors_kb x 1024)."));
    e.family(QStringLiteral("blocktune_scheduler_info"), QStringLiteral("The device's active I/O scheduler (value 1)."));
    e.family(QStringLiteral("blocktune_rotational"), QStringLiteral("1 when the device says it is rotational."));
    e.family(QStringLiteral("blocktune_md_member_info"), QStringLiteral("A member device of an md array (value 1)."));
    e.family(QStringLiteral("blocktune_dm_slave_info"),
             QStringLiteral("A device a device-mapper device is built on, with the dm name (value 1)."));
    e.family(QStringLiteral("blocktune_partition_info"), QStringLiteral("A partition and its whole disk (value 1)."));
    e.family(QStringLiteral("blocktune_profile_applied_info"),
             QStringLiteral("The profile applied last since the last revert or reboot (value 1)."));
    e.family(QStringLiteral("blocktune_profile_drift"),
             QStringLiteral("A setting the profile decides: 1 when it is not as the profile says, 0 when it is."));
    e.family(QStringLiteral("blocktune_read_test_bytes_per_second"),
             QStringLiteral("The newest complete read test of the device and kind from the history: its mean over "
                            "the runs."));
    e.family(QStringLiteral("blocktune_read_test_timestamp_seconds"),
             QStringLiteral("When that read test was recorded (Unix time in seconds, to the millisecond)."));
    e.family(QStringLiteral("blocktune_sweep_best_read_ahead_bytes"),
             QStringLiteral("The newest complete readahead sweep of the device and kind from the history: the "
                            "readahead of its fastest point."));
    e.family(QStringLiteral("blocktune_sweep_best_bytes_per_second"),
             QStringLiteral("That sweep's fastest point."));
    e.family(QStringLiteral("blocktune_sweep_timestamp_seconds"),
             QStringLiteral("When that sweep was recorded (Unix time in seconds, to the millisecond)."));
    e.family(QStringLiteral("blocktune_advise_recommended_read_ahead_bytes"),
             QStringLiteral("The newest complete advice for the device and workload from the history: the "
                            "readahead it recommends."));
    e.family(QStringLiteral("blocktune_advise_plateau_bytes_per_second"),
             QStringLiteral("That advice's plateau: what buffered reads of the workload reach."));
    e.family(QStringLiteral("blocktune_advise_raw_peak_bytes_per_second"),
             QStringLiteral("That advice's raw peak: what the device delivers to O_DIRECT 1 MiB reads, 16 in "
                            "flight."));
    e.family(QStringLiteral("blocktune_advise_timestamp_seconds"),
             QStringLiteral("When that advice was recorded (Unix time in seconds, to the millisecond)."));
    e.family(QStringLiteral("blocktune_metrics_errors"),
             QStringLiteral("What blocktune-cli metrics could not read this time (the reasons are on its stderr)."));
}

void addSettings(Exposition &e, const SysRoot &root, const DeviceModel &model, QStringList &errors)
{
    for (const BlockDevice &d : model.devices()) {
        if (!d.isWhole())
            continue;
        const Labels dev{{QStringLiteral("device"), d.name}};
        if (d.readAheadKiB)
            e.sample(QStringLiteral("blocktune_read_ahead_bytes"), dev, double(*d.readAheadKiB) * kKiB);
        if (d.nrRequests)
            e.sample(QStringLiteral("blocktune_nr_requests"), dev, double(*d.nrRequests));
        if (d.maxSectorsKiB)
            e.sample(QStringLiteral("blocktune_max_sectors_bytes"), dev, double(*d.maxSectorsKiB) * kKiB);
        if (!d.scheduler.isEmpty())
            e.sample(QStringLiteral("blocktune_scheduler_info"), {dev.first(), {QStringLiteral("scheduler"), d.scheduler}}, 1);
        if (d.rotational)
            e.sample(QStringLiteral("blocktune_rotational"), dev, *d.rotational ? 1 : 0);
        if (d.type != DeviceType::Md && d.type != DeviceType::Dm)
            continue;
        // The floor is the tuning layer's own (md geometry, else 2 x io_opt),
        // the one `get` warns about; read only for the few stacked devices.
        auto settings = readDeviceSettings(root, model, d.name);
        if (!settings)
            errors << settings.error().message;
        else if (settings->readaheadFloorKiB)
            e.sample(QStringLiteral("blocktune_read_ahead_floor_bytes"), dev, double(*settings->readaheadFloorKiB) * kKiB);
    }
}

void addStructure(Exposition &e, const DeviceModel &model)
{
    for (const BlockDevice &d : model.devices()) {
        if (d.md)
            for (const MdMember &m : d.md->members)
                e.sample(QStringLiteral("blocktune_md_member_info"),
                         {{QStringLiteral("device"), d.name}, {QStringLiteral("member"), m.name}}, 1);
        if (d.type == DeviceType::Dm)
            for (const QString &s : d.slaves)
                e.sample(QStringLiteral("blocktune_dm_slave_info"),
                         {{QStringLiteral("device"), d.name}, {QStringLiteral("slave"), s},
                          {QStringLiteral("name"), d.dm ? d.dm->name : QString()}}, 1);
        if (d.type == DeviceType::Partition && !d.parent.isEmpty())
            e.sample(QStringLiteral("blocktune_partition_info"),
                     {{QStringLiteral("device"), d.name}, {QStringLiteral("disk"), d.parent}}, 1);
    }
}

/// The applied profile's name (the newest of the applied state), empty when none.
QString appliedProfile(TuningSession &session, QStringList &errors)
{
    auto state = session.appliedState();
    if (!state) {
        errors << QStringLiteral("the applied profile's state: %1").arg(state.error().message);
        return {};
    }
    if (!*state || (*state)->profiles.isEmpty())
        return {};
    return (*state)->profiles.constLast();
}

void addDrift(Exposition &e, TuningSession &session, const DeviceModel &model, ProfileLibrary &profiles,
              const MetricsOptions &options, QStringList &errors)
{
    const QString applied = appliedProfile(session, errors);
    if (!applied.isEmpty())
        e.sample(QStringLiteral("blocktune_profile_applied_info"), {{QStringLiteral("profile"), applied}}, 1);
    const QString which = options.profile.isEmpty() ? applied : options.profile;
    if (which.isEmpty())
        return;
    auto profile = profiles.load(which);
    if (!profile) {
        errors << QStringLiteral("profile %1 for drift: %2").arg(which, profile.error().message);
        return;
    }
    const VerifyReport report = verifyProfile(*profile, session.root(), model);
    for (const Error &err : report.resolution.errors)
        errors << QStringLiteral("profile %1: %2").arg(profile->name, err.message);
    for (const ResolvedSetting &r : report.resolution.settings) {
        if (r.state == ResolvedState::Skipped)
            continue;
        e.sample(QStringLiteral("blocktune_profile_drift"),
                 {{QStringLiteral("profile"), profile->name}, {QStringLiteral("device"), r.device},
                  {QStringLiteral("setting"), r.setting.key}}, r.satisfied ? 0 : 1);
    }
}

/// From the history, newest first: per device and kind ("test", "sweep",
/// "advice") and test or workload, its newest complete record.
void addHistory(Exposition &e, const QString &path, QStringList &errors)
{
    const HistoryStore store(path);
    HistoryNotice notice;
    auto records = store.list({}, 0, &notice);
    if (!notice.text.isEmpty())
        errors << notice.text;
    if (!records) {
        errors << QStringLiteral("history %1: %2").arg(path, records.error().message);
        return;
    }
    QSet<QString> seen;
    // Newest first: the first complete record of a device, kind and test wins.
    for (const HistoryRecord &r : std::as_const(*records)) {
        if (!r.ok || r.device.isEmpty() || r.test.isEmpty())
            continue;
        const QString key = r.kind + u'\n' + r.device + u'\n' + r.test;
        if (seen.contains(key))
            continue;
        seen.insert(key);
        const Labels labels{{QStringLiteral("device"), r.device}, {QStringLiteral("test"), r.test}};
        // Seconds, Prometheus's base unit (time() - x is an age in seconds),
        // from the record's whole milliseconds: 13 significant digits, which
        // a double carries exactly enough that formatSampleValue's shortest
        // form prints them back as they were (1796530829.716).
        const double when = double(r.recordedAt.toMSecsSinceEpoch()) / 1000.0;
        if (r.kind == u"test") {
            e.sample(QStringLiteral("blocktune_read_test_bytes_per_second"), labels, r.mbPerSec * kMB);
            e.sample(QStringLiteral("blocktune_read_test_timestamp_seconds"), labels, when);
        } else if (r.kind == u"sweep") {
            const QJsonObject summary = r.figures.value(u"summary").toObject();
            if (!summary.contains(u"best_read_ahead_kb"))
                continue;
            e.sample(QStringLiteral("blocktune_sweep_best_read_ahead_bytes"), labels,
                     summary.value(u"best_read_ahead_kb").toDouble() * kKiB);
            e.sample(QStringLiteral("blocktune_sweep_best_bytes_per_second"), labels,
                     summary.value(u"best_mb_per_s").toDouble() * kMB);
            e.sample(QStringLiteral("blocktune_sweep_timestamp_seconds"), labels, when);
        } else if (r.kind == u"advice") {
            const QJsonObject summary = r.figures.value(u"summary").toObject();
            if (!summary.contains(u"recommended_read_ahead_kb"))
                continue;
            const Labels advice{{QStringLiteral("device"), r.device}, {QStringLiteral("workload"), r.test}};
            e.sample(QStringLiteral("blocktune_advise_recommended_read_ahead_bytes"), advice,
                     summary.value(u"recommended_read_ahead_kb").toDouble() * kKiB);
            e.sample(QStringLiteral("blocktune_advise_plateau_bytes_per_second"), advice,
                     summary.value(u"plateau_mb_per_s").toDouble() * kMB);
            e.sample(QStringLiteral("blocktune_advise_raw_peak_bytes_per_second"), advice,
                     summary.value(u"raw_peak_mb_per_s").toDouble() * kMB);
            e.sample(QStringLiteral("blocktune_advise_timestamp_seconds"), advice, when);
        }
    }
}

} // namespace

MetricsReport collectMetrics(TuningSession &session, ProfileLibrary &profiles, const MetricsOptions &options)
{
    MetricsReport out;
    Exposition e;
    declareFamilies(e);
    // As node_exporter's own *_build_info: which program wrote the file.
    e.sample(QStringLiteral("blocktune_build_info"),
             {{QStringLiteral("version"), QStringLiteral(BLOCKTUNE_VERSION)},
              {QStringLiteral("qt_version"), QStringLiteral(QT_VERSION_STR)}},
             1);
    auto model = session.model();
    if (!model) {
        out.errors << model.error().message;
    } else {
        out.errors += (*model)->warnings();
        addSettings(e, session.root(), **model, out.errors);
        addStructure(e, **model);
        addDrift(e, session, **model, profiles, options, out.errors);
    }
    if (options.historyPath)
        addHistory(e, *options.historyPath, out.errors);
    e.sample(QStringLiteral("blocktune_metrics_errors"), {}, double(out.errors.size()));
    out.text = e.text();
    return out;
}

} // namespace blocktune
