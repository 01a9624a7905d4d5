// Applying a profile as one change set, and remembering what it replaced so
// `profile revert` can bring it back from another process: the session's
// applyRemembered(), which keeps the applied state through the journal
// module (core/tuning/journal.cpp) where the session works.
#include "profiles.h"
#include "profiles_p.h"

#include "session/session.h"

namespace blocktune {

ProfileApplyReport applyProfile(const Profile &profile, SessionPort &session)
{
    return applyPreviewedProfile(profile, previewProfile(profile, session), session);
}

ProfileApplyReport applyPreviewedProfile(const Profile &profile, const ProfilePreview &preview, SessionPort &session)
{
    ProfileApplyReport out;
    out.preview = preview;
    out.report.plan = out.preview.plan;
    if (!out.preview.ok()) {
        out.report.error = out.preview.errors.constFirst();
        return out;
    }
    if (!session.readOnlyReason().isEmpty()) {
        out.report.error = makeError(Refused, session.readOnlyReason());
        return out;
    }
    if (out.preview.plan.writes.isEmpty()) {
        out.messages << QStringLiteral("nothing to change: every device already is as %1 says").arg(profile.name);
        return out;
    }
    // The plan the preview showed is the plan written (the session's one
    // road), its originals remembered first where the session works.
    RememberedApply done = session.applyRemembered(out.preview.plan, profile.name);
    out.report = std::move(done.report);
    out.statePath = done.statePath;
    out.messages += done.messages;
    return out;
}

ProfileRevertReport revertProfile(SessionPort &session)
{
    RememberedRevert back = session.revertRemembered();
    ProfileRevertReport out;
    out.state = std::move(back.state);
    out.restore = std::move(back.restore);
    return out;
}

namespace {

/// `attribute` of a journal entry as the device's settings show it now;
/// nullopt when the settings do not carry it.
std::optional<QString> currentValue(const DeviceSettings &s, const QString &attr)
{
    auto number = [](const std::optional<quint64> &v) { return v ? std::optional(QString::number(*v)) : std::nullopt; };
    if (attr == attribute::ReadAheadKb)
        return number(s.readAheadKiB);
    if (attr == attribute::Scheduler)
        return s.scheduler;
    if (attr == attribute::NrRequests)
        return number(s.nrRequests);
    if (attr == attribute::MaxSectorsKb)
        return number(s.maxSectorsKiB);
    if (attr == attribute::ContextReadahead || attr == attribute::VmContextReadahead)
        return s.contextReadahead ? std::optional(QString::number(int(*s.contextReadahead))) : std::nullopt;
    if (attr.startsWith(attribute::IoschedPrefix)) {
        const QString name = attr.mid(attribute::IoschedPrefix.size());
        for (const IoschedTunable &t : s.iosched)
            if (t.name == name)
                return t.value;
    }
    return std::nullopt;
}

} // namespace

ProfileRevertReport previewRevert(SessionPort &session)
{
    ProfileRevertReport out;
    auto state = session.appliedState();
    if (!state) {
        out.restore.messages << state.error().message;
        out.restore.items.append(RestoreItem{{}, RestoreStatus::Failed, {}, {}, state.error().message});
        return out;
    }
    out.state = *state;
    if (!out.state)
        return out;
    auto model = session.model();
    for (const JournalEntry &e : std::as_const(out.state->journal.entries)) {
        RestoreItem item{e, RestoreStatus::Restored, {}, e.original, {}};
        const BlockDevice *d = model ? (*model)->find(e.device) : nullptr;
        auto now = d ? readDeviceSettings(session.root(), **model, e.device)
                     : Result<DeviceSettings>(makeError(NotFound, QStringLiteral("%1 is not here").arg(e.device)));
        const std::optional<QString> value = now ? currentValue(*now, e.attribute) : std::nullopt;
        if (!now || (d->major != e.major || d->minor != e.minor)) {
            item.status = RestoreStatus::DeviceChanged;
            item.message = now ? QStringLiteral("%1 is now %2:%3, not %4:%5: it would be left alone")
                                     .arg(e.device).arg(d->major).arg(d->minor).arg(e.major).arg(e.minor)
                               : now.error().message;
        } else if (value) {
            item.found = *value;
            if (*value == e.original)
                item.status = RestoreStatus::AlreadyOriginal;
        }
        out.restore.items.append(item);
    }
    return out;
}

} // namespace blocktune
