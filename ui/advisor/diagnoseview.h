#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>

class QFrame;

namespace blocktune {

class ConsoleSession;
class Machine;
struct ChangePlan;
struct DiagnoseReply;
struct Diagnosis;
struct Finding;

/// The console's Diagnose view (core/advisor's diagnose()): the selected
/// device's findings as cards, each with its severity (icon and colour),
/// the cause in one sentence, the evidence as a small key/value table and,
/// where a setting fixes it, the fix with an Apply button (through the
/// console's one session). Static checks look at the device model only and
/// work on recorded trees too; the measured part (a few seconds of reads,
/// readahead restored) runs on the view's own thread, live machine only.
/// Or, instead of measuring, it watches the workload that runs for a while
/// (the machine's readahead source, core/readahead) and states the findings
/// from the live workload (readahead_capped, readahead_wasted,
/// streams_interleaved, random_reads), without a read of its own.
class DiagnoseView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DiagnoseView)

public:
    /// `machine` (the session's, outliving the view) opens the readahead
    /// source for watching the running workload.
    DiagnoseView(ConsoleSession *session, const Machine &machine, QWidget *parent = nullptr);
    /// Cancels a running diagnosis and waits for it (and its restore).
    ~DiagnoseView() override;

    QString device() const;
    bool isRunning() const;
    /// The codes of the cards on screen, in order.
    QStringList findingCodes() const;
    /// Why measuring is not offered (a recorded tree), or empty.
    QString measureDisabledReason() const;
    /// Why watching the running workload is not offered (the machine's
    /// capabilities().noReadaheadProbe), or empty.
    QString liveDisabledReason() const;
    /// Watching the workload now (the probe loaded, the countdown running).
    bool isWatching() const;

public Q_SLOTS:
    void setDevice(const QString &name);
    /// `measure` false: static checks only.
    bool run(bool measure);
    /// Watches the running workload of the device for `seconds`, then
    /// states the findings from it; false when it cannot start.
    bool runLive(int seconds);
    void cancel();
    /// Plans the fix of the card with this code and shows it in the change
    /// preview; once accepted, writes that plan and checks again.
    bool applyFix(const QString &code);

Q_SIGNALS:
    void finished(bool ok);
    void message(const QString &text);
    void settingsChanged();

private:
    // The constructor's steps.
    void buildWidgets();
    void layOut();
    void connectSignals(ConsoleSession *session);

    void showDiagnosis(const DiagnoseReply &reply);
    /// What the kernel's readahead did for the device while watched.
    QString liveSummary(const Diagnosis &dx) const;
    void startCountdown(qint64 ms);
    void tick();
    void showHelp();
    void showPreview(const blocktune::ChangePlan &plan);
    /// A finding's card: severity, cause, evidence, and the fix with Apply.
    QFrame *makeCard(const Finding &f, const QString &device, bool writable);
    void setRunning(bool running);
    /// What Diagnose will do and how long it takes, for the device shown.
    QString introText() const;
    void setMessage(const QString &text);
    void clearCards();

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace blocktune
