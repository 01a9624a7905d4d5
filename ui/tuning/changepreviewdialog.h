#pragma once
// The one preview every write from the console goes through: Settings'
// Apply and Try, a profile's or a preset's Apply, "Save current…", Advise's
// Apply and Try, Diagnose's fixes. It lists each device, the setting, its
// current value and the new one, and says the scope: which devices (a
// choice where there are several, the system disk named as such), how long
// the change lasts and how it is undone. What it lists is the session's
// plan (TuningSession::plan), and Apply hands back that same plan to write.

#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace blocktune {

struct ChangePlan;

/// One line of the preview: a device's setting, now and after.
struct PreviewRow
{
    QString device;
    QString setting;
    QString current; ///< empty: the setting appears with a scheduler switch
    QString next;
};

/// A device the change may go to, when the caller offers a choice.
struct PreviewDevice
{
    QString name;
    QString note;        ///< "holds / (the system disk)", "selected", ...
    bool chosen = false; ///< ticked at first
    bool system = false; ///< holds / or /usr: said in the row, never hidden
};

class ChangePreviewDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChangePreviewDialog)

public:
    /// `title` is the question ("Apply profile streaming-md?"), `acceptText`
    /// the button that writes ("Apply", "Try for 60 s", "Save").
    ChangePreviewDialog(const QString &title, const QString &acceptText, QWidget *parent = nullptr);
    ~ChangePreviewDialog() override;

    /// How long the change lasts and how it is undone (one or two sentences).
    void setScope(const QString &text);
    /// The devices to choose from (none: the change is for the devices its
    /// rows name, and no choice is shown). Ticking one emits devicesChanged().
    void setDevices(const QList<PreviewDevice> &devices);
    QStringList chosenDevices() const;

    /// The plan to show and, on Apply, to write: its writes as rows, its
    /// warnings and notes below; a refused plan shows its errors and Apply
    /// stays off.
    void setPlan(const ChangePlan &plan);
    /// Rows that are no plan ("Save current…": what goes into the file).
    void setRows(const QList<PreviewRow> &rows, const QStringList &notes = {});
    /// A new plan is on its way (the choice changed): Apply waits for it.
    void setPending();
    /// Why nothing can be written as chosen: Apply stays off.
    void setRefusal(const QStringList &reasons);

    /// The plan shown (what Apply writes).
    const ChangePlan &plan() const;
    QList<PreviewRow> rows() const;
    QString scopeText() const;
    /// Warnings, notes and refusals as shown under the rows.
    QString notesText() const;
    bool canAccept() const;

    /// The scope of a change that stays: until changed again or the
    /// machine restarts, and Revert session brings the values back.
    static QString lastingScope();
    /// The scope of a trial: `seconds`, then the values from before come
    /// back unless kept; journaled, so a crash does not leave it behind.
    static QString trialScope(int seconds);

Q_SIGNALS:
    /// The person ticked or unticked a device: plan again for these.
    void devicesChanged(const QStringList &chosen);

private:
    void showRows(const QList<PreviewRow> &rows);
    void updateAccept();

    struct Private;
    std::unique_ptr<Private> d;
};

/// The rows of a plan (device, attribute, current -> new).
QList<PreviewRow> previewRows(const ChangePlan &plan);

} // namespace blocktune
