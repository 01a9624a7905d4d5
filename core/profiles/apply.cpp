// Applying a profile as one change set, and remembering what it replaced so
// `profile revert` can bring it back from another process: the session's
// applyRemembered(), which keeps the applied state through the journal
// module (core/tuning/journal.cpp) where the session works.
#include "profiles.h"
#include "profiles_p.h"

#include "session/session.h"

namespace blocktune {

ProfileApplyReport applyProfile(const Profile &profile, TuningSession &session)
{
    ProfileApplyReport out;
    out.preview = previewProfile(profile, session);
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

ProfileRevertReport revertProfile(TuningSession &session)
{
    RememberedRevert back = session.revertRemembered();
    ProfileRevertReport out;
    out.state = std::move(back.state);
    out.restore = std::move(back.restore);
    return out;
}

} // namespace blocktune
