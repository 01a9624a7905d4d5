#pragma once

#include <QList>
#include <QWidget>

#include <memory>

namespace blocktune {

class ConsoleSession;
struct SettingsReply;
struct SettingChange;
struct ChangePlan;
struct ChangeReport;
struct RestoreReport;
struct SessionEvent;

/// The "change" half of the console: readahead slider, scheduler and its
/// tunables, queue limits. Everything goes through the console's one
/// session (core/session): the settings are read on its thread, Apply plans
/// the change set once, shows that plan, and hands the same plan to the
/// session, which journals, writes (through the one helper when not root)
/// and reads back. While a write waits for authorization the window
/// repaints and Cancel gives it up. Revert session undoes what the session
/// changed.
class TuningPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TuningPanel)

public:
    explicit TuningPanel(ConsoleSession *session, QWidget *parent = nullptr);
    ~TuningPanel() override;

    /// Text of the last outcome (for tests and the status bar).
    QString lastMessage() const;
    /// The device shown, once its settings have been read.
    QString loadedDevice() const;
    /// A plan or a write is on its way.
    bool isBusy() const;

public Q_SLOTS:
    void setDevice(const QString &name);
    /// Re-reads the device's settings and starts the form over from them
    /// (Reset form; after this panel's own write).
    void reload();
    /// Re-reads them and takes in what changed, keeping what the user edited
    /// and has not applied, and the keyboard focus: after a hotplug or a
    /// write made elsewhere. Nothing on screen moves when nothing changed.
    void refresh();
    /// The device shown went away (`why` in words): the form says so
    /// plainly and is off; its unapplied edits were never written.
    void deviceGone(const QString &name, const QString &why);
    /// Plans the form's changes and, once confirmed (at once when `confirm`
    /// is false), applies that plan. False when there is nothing to apply
    /// or something is already on its way; the outcome comes as applied().
    bool applyChanges(bool confirm = true);
    /// Restores every value this console's session changed.
    void revertSession();
    /// "Try for 60 s": once confirmed in the same preview as Apply (at once
    /// when `confirm` is false), applies the form as a temporary change,
    /// restored after the countdown unless keepTrial() is called.
    bool tryChanges(bool confirm = true);
    void keepTrial();
    /// Restores what is being tried now.
    void endTrial();

public:
    /// Seconds until a trial is restored, 0 when none runs.
    int trialSecondsLeft() const;

Q_SIGNALS:
    /// The settings of `device` are on screen.
    void settingsLoaded(const QString &device);
    /// A change set ended: written (`ok`), refused, failed or cancelled.
    void applied(bool ok);
    /// Something was written: other views should read again.
    void settingsChanged(const QString &device);
    void message(const QString &text);

private:
    // The constructor's steps: make the widgets, put them in layouts,
    // connect the form and the session.
    void buildWidgets();
    void buildReadaheadBox();
    void buildQueueBoxes();
    void buildButtons();
    void layOutWidgets();
    void wireForm();
    void wireSession();

    void setMessage(const QString &text);
    void setEditable(bool usable);
    void setBusy(bool busy);
    void showSettings(const blocktune::SettingsReply &reply);
    void mergeSettings(const blocktune::SettingsReply &reply);
    /// The session's last event on the status line (every view shows the same).
    void showSessionEvent(const blocktune::SessionEvent &event);
    void updateReadaheadHint();
    void updateDirty();
    QList<blocktune::SettingChange> formChanges() const;
    void planArrived(const blocktune::ChangePlan &plan);
    void startApply(const blocktune::ChangePlan &plan);
    void applyArrived(const blocktune::ChangeReport &report);
    void revertArrived(const blocktune::RestoreReport &report);
    void showTrial();

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace blocktune
