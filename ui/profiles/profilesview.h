#pragma once

#include "tuning/changepreviewdialog.h"
#include "tuning/tuning.h"

#include <QList>
#include <QMetaType>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>

namespace blocktune {

class ProfileLibrary;
class ProfileStore;
class ConsoleSession;

/// One line of the Profiles page's table: a preview row, or a verify row.
struct ProfileRow
{
    QString device;
    QString key;
    QString current;
    QString target;  ///< new value (preview) or what the profile expects (verify)
    QString rule;    ///< "rule 2 (type md)"
    QString state;   ///< "change", "unchanged", "kept: ...", "skipped: ...", "drift", "matches"
    bool drift = false;
};

/// What one operation of the page produced, computed on the worker thread.
struct ProfileResult
{
    /// PlanApply and PlanSave are what the change preview shows before
    /// Apply and Save write.
    enum Kind { List, Preview, Apply, Verify, Revert, Save, Export, Install, PlanApply, PlanSave };
    Kind kind = List;
    QString profile;
    bool ok = false;
    QString message;        ///< one line for the status label
    QList<ProfileRow> rows; ///< Preview, Apply, Verify
    QStringList notes;      ///< unmatched devices and rules, floors, errors, skipped
    QStringList names;      ///< List: profile names
    QStringList origins;    ///< List: "preset", "user", "system"
    QStringList descriptions;
    ChangePlan plan;                ///< PlanApply: the plan of the devices chosen
    QList<PreviewDevice> devices;   ///< PlanApply, PlanSave: the devices to choose from
    QList<PreviewRow> saveRows;     ///< PlanSave: what goes into the file
    QString path;                   ///< PlanSave, Save: the profile file
    bool preset = false;            ///< PlanApply: the profile is a preset
    quint64 ticket = 0;             ///< PlanApply, PlanSave: the request it answers
    /// The page asked on its own (the folder changed, the devices or their
    /// values did): the list and table follow, the status line stays.
    bool quiet = false;
};

/// What the page asks its worker for.
struct ProfileRequest
{
    ProfileResult::Kind kind = ProfileResult::List;
    QString profile;
    QString a, b;
    QString selected;                ///< the device the page is for (the tree's)
    std::optional<QStringList> only; ///< the devices chosen in the preview; nullopt: its first look
    ChangePlan plan;                 ///< Apply: the plan the preview showed
    bool changedOnly = false;        ///< PlanSave, Save
    quint64 ticket = 0;              ///< PlanApply, PlanSave: handed back in the result
    bool quiet = false;              ///< as ProfileResult::quiet
};

/// The console's Profiles page: the profiles with their descriptions, the
/// selected one's preview as a table (device, setting, current -> new, the
/// rule that won), Apply / Revert / Verify (drift highlighted), Save current,
/// Export (udev or tuned, through a save dialog) and Install at boot.
/// Everything that reads or writes runs on the page's own worker thread and
/// drives the console's one session (thread-safe), so a pkexec prompt never
/// freezes the window; answers come back as queued signals. `session` must
/// outlive the view; `library` says where the profiles are (this machine's
/// folders, or a host's through its agent).
///
/// The page follows the truth on its own: the library's folders are
/// watched (a profile saved by the CLI or an editor appears, a removed one
/// goes), the table is worked out again after every write the session makes
/// (whoever made it) and when devices come or go, and the status line says
/// the last thing that happened (ConsoleSession::happened).
class ProfilesView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProfilesView)

public:
    ProfilesView(ConsoleSession *session, std::shared_ptr<ProfileLibrary> library, QWidget *parent = nullptr);
    /// This machine's profiles in `store`'s folders.
    ProfilesView(ConsoleSession *session, const ProfileStore &store, QWidget *parent = nullptr);
    ~ProfilesView() override;

    /// The profile selected in the list.
    QString selectedProfile() const;
    /// The last result shown (for tests and the status bar).
    const ProfileResult &lastResult() const;
    bool isBusy() const;
    /// The device the page was opened for ("Apply profile…" in the device
    /// tree), or empty: its rows are selected in the table.
    QString device() const;
    /// The change preview on screen (Apply, Save current…), or nullptr.
    ChangePreviewDialog *changePreview() const;
    /// The profile names listed now.
    QStringList profileNames() const;
    /// What the status line says.
    QString statusText() const;

public Q_SLOTS:
    void refresh();
    /// Lists the profiles and works out the table again, quietly (the
    /// status line keeps the last thing that happened): F5, and what the
    /// folder watch calls when a profile was saved or removed.
    void relist();
    void select(const QString &name);
    /// Shows the preview with `name`'s rows selected and, while "only this
    /// device" is ticked, only them. Apply still applies the whole profile.
    void setDevice(const QString &name);
    /// The device selected in the tree: what Apply's and Save current's
    /// previews tick at first when the page was not opened for a device
    /// (setDevice()). The table shows its rows first and selected, the rows
    /// Apply does not tick at first greyed and marked (the system disk by
    /// name); "Only this device" filters to it when ticked.
    void setSelectedDevice(const QString &name);
    void preview();
    /// Shows the selected profile's plan in the change preview (the page's
    /// device ticked; a preset never ticks the system disk by itself) and,
    /// once accepted, writes that plan.
    void apply();
    void verify();
    void revert();
    /// Shows what NAME would hold in the change preview (the page's device
    /// ticked; other devices only when a person ticks them) and, once
    /// accepted, saves the current settings of the devices ticked.
    void saveCurrent(const QString &name, bool changedOnly);
    /// Writes the selected profile as `format` ("udev" or "tuned") to `path`.
    void exportTo(const QString &format, const QString &path);
    void installAtBoot();

Q_SIGNALS:
    /// An operation ended; `result` is what the page shows.
    void finished(const blocktune::ProfileResult &result);
    /// The page listed or worked out its table again on its own (`quiet`).
    void refreshed(const blocktune::ProfileResult &result);
    /// Something was written: other views should read again.
    void settingsChanged();

private:
    // The constructor's steps (after it starts the worker thread).
    void buildWidgets();
    void buildButtons();
    void layOutWidgets();
    void wireSignals();

    void post(ProfileResult::Kind kind, const QString &profile, const QString &a = {}, const QString &b = {},
              bool quiet = false);
    /// A write or a hotplug: the table worked out again for the same profile.
    void refreshTable();
    void watchTruth();
    void showList(const blocktune::ProfileResult &result);
    void showTable(const blocktune::ProfileResult &result);
    /// `preview`: the rows preview Apply, and say which devices it ticks.
    void fillTable(const QList<blocktune::ProfileRow> &rows, bool preview);
    void layOutRows();
    void sayTarget();
    QString targetDisk() const;
    void post(ProfileRequest request);
    void showResult(const blocktune::ProfileResult &result);
    /// A PlanApply or PlanSave answer: into the preview (opened on the first).
    void showPlan(const blocktune::ProfileResult &result);
    void openPreview(const blocktune::ProfileResult &result);
    void setBusy(bool busy);
    void askSave();
    void askExport();
    void filterRows();
    /// Drift rows on a tint of the palette's base (again after a theme change).
    void tintDriftRows();

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace blocktune

Q_DECLARE_METATYPE(blocktune::ProfileResult)
