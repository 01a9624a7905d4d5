#include "advisorworker.h"

#include "console/consolesession.h"
#include "machine/machine.h"
#include "profiles/profiles.h"

#include <QJsonDocument>

namespace blocktune {

void AdvisorWorker::advise(const SessionJobContext &job, const AdviseSpec &spec)
{
    AdviseReply reply;
    {
        // The engine's temporary readahead is restored inside advise() on
        // every path; the engine goes before the answer leaves.
        ReadTestEngine engine(job.session, job.measurer, spec.device);
        auto done = blocktune::advise(job.session, engine, spec,
                                      [this](const CurvePoint &p) { Q_EMIT pointDone(p); }, m_cancel);
        if (done)
            reply.advice = std::move(*done);
        else
            reply.error = done.error().message;
    }
    Q_EMIT advised(reply);
}

void AdvisorWorker::diagnose(const SessionJobContext &job, const DiagnoseSpec &spec)
{
    DiagnoseReply reply;
    // The machine as it is now: a value set outside the console (blockdev
    // --setra, udev) counts, as in the Profiles page's verify.
    if (auto model = job.session.rescan(); !model) {
        reply.error = model.error().message;
        Q_EMIT diagnosed(reply);
        return;
    }
    {
        std::optional<ReadTestEngine> engine;
        if (spec.measure)
            engine.emplace(job.session, job.measurer, spec.device);
        auto done = blocktune::diagnose(job.session, engine ? &*engine : nullptr, spec, m_cancel);
        if (done)
            reply.diagnosis = std::move(*done);
        else
            reply.error = done.error().message;
    }
    Q_EMIT diagnosed(reply);
}

void AdvisorWorker::diagnoseLive(const SessionJobContext &job, const Machine &machine, const QString &device, qint64 ms)
{
    DiagnoseReply reply;
    if (auto model = job.session.rescan(); !model) {
        reply.error = model.error().message;
        Q_EMIT diagnosed(reply);
        return;
    }
    {
        auto source = machine.openReadaheadSource();
        if (!source) {
            reply.error = source.error().message;
            Q_EMIT diagnosed(reply);
            return;
        }
        Q_EMIT watching(ms);
        auto done = blocktune::diagnoseLive(job.session, **source, device, ms, m_cancel);
        if (done)
            reply.diagnosis = std::move(*done);
        else
            reply.error = done.error().message;
    } // the probe unloads here, before the answer leaves
    Q_EMIT diagnosed(reply);
}

void AdvisorWorker::saveProfile(const QJsonObject &profile, const QString &name, const QString &path)
{
    SaveReply reply{name, path, {}};
    QJsonObject named = profile;
    named.insert(QStringLiteral("name"), name);
    auto parsed = parseProfile(QJsonDocument(named).toJson(), path);
    if (!parsed)
        reply.error = parsed.error().message;
    else if (Status st = writeProfileFile(*parsed, path, false); !st)
        reply.error = st.error().message;
    Q_EMIT saved(reply);
}

QList<SettingChange> fixChanges(const QString &device, const QJsonObject &fix)
{
    QList<SettingChange> changes;
    for (auto it = fix.constBegin(); it != fix.constEnd(); ++it) {
        const QJsonValue v = it.value();
        const SettingValue value = v.isDouble() ? SettingValue(quint64(v.toInteger())) : SettingValue(v.toString());
        changes.append({device, it.key(), value});
    }
    return changes;
}

QString fixText(const QJsonObject &fix)
{
    QStringList parts;
    for (auto it = fix.constBegin(); it != fix.constEnd(); ++it)
        parts << QStringLiteral("%1 = %2").arg(it.key(), it.value().isDouble() ? QString::number(it.value().toInteger())
                                                                                : it.value().toString());
    return parts.join(QStringLiteral(", "));
}

QString planErrors(const ChangePlan &plan)
{
    QStringList errors;
    for (const Error &e : plan.errors)
        errors << e.message;
    return errors.join(u'\n');
}

} // namespace blocktune
