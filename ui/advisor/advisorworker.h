#pragma once
// Inside ui/advisor: runs core's advise() and diagnose() on a thread of the
// view's own, as jobs of the console's one session (ConsoleSession::runJob
// hands it the session's port and its measurer for the call): the readahead
// it sets goes through the same writer (one helper per console), each set
// and restore carried out on the session thread, while the measuring runs
// here.

#include "advisor/advisor.h"
#include "tuning/tuning.h"

#include <QJsonObject>
#include <QMetaType>
#include <QObject>

#include <atomic>
#include <optional>

namespace blocktune {

struct SessionJobContext; // core/console/consolesession.h
class Machine;            // core/machine/machine.h

struct AdviseReply
{
    std::optional<Advice> advice; ///< nullopt: see error
    QString error;
};

struct DiagnoseReply
{
    std::optional<Diagnosis> diagnosis; ///< nullopt: see error
    QString error;
};

struct SaveReply
{
    QString name;
    QString path;
    QString error; ///< empty: saved
};

class AdvisorWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdvisorWorker)

public:
    /// `cancel` is the view's flag, read after every block.
    explicit AdvisorWorker(const std::atomic_bool *cancel) : m_cancel(cancel) {}
    ~AdvisorWorker() override = default;

    void advise(const blocktune::SessionJobContext &job, const blocktune::AdviseSpec &spec);
    /// Static checks only when !spec.measure (any tree); else measured too.
    void diagnose(const blocktune::SessionJobContext &job, const blocktune::DiagnoseSpec &spec);
    /// diagnose --live: the static checks, then the machine's readahead
    /// source (opened here: loading the probe blocks a second or two)
    /// watched for `ms`, or until the view's flag is set. Reads nothing,
    /// writes nothing; the source is unloaded before diagnosed() is sent.
    void diagnoseLive(const blocktune::SessionJobContext &job, const blocktune::Machine &machine, const QString &device,
                      qint64 ms);
    /// Writes the advice's profile (issue 10's JSON) to `path`, named `name`.
    void saveProfile(const QJsonObject &profile, const QString &name, const QString &path);

Q_SIGNALS:
    void pointDone(const blocktune::CurvePoint &point);
    void advised(const blocktune::AdviseReply &reply);
    void diagnosed(const blocktune::DiagnoseReply &reply);
    /// The readahead source is open: watching for `ms` starts now.
    void watching(qint64 ms);
    void saved(const blocktune::SaveReply &reply);

private:
    const std::atomic_bool *m_cancel;
};

/// A fix (`{"read_ahead_kb": 8192}`) as the session's change list for `device`.
QList<SettingChange> fixChanges(const QString &device, const QJsonObject &fix);
/// "read_ahead_kb = 8192, scheduler = none"
QString fixText(const QJsonObject &fix);
/// A refused plan's errors, one a line.
QString planErrors(const ChangePlan &plan);

} // namespace blocktune

Q_DECLARE_METATYPE(blocktune::CurvePoint)
Q_DECLARE_METATYPE(blocktune::AdviseReply)
Q_DECLARE_METATYPE(blocktune::DiagnoseReply)
Q_DECLARE_METATYPE(blocktune::SaveReply)
Q_DECLARE_METATYPE(blocktune::AdviseSpec)
Q_DECLARE_METATYPE(blocktune::DiagnoseSpec)
