#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

namespace blocktune {

class ConsoleSession;
class Machine;
struct Advice;
struct ChangePlan;
struct CurvePoint;

/// The console's Advise view (core/advisor's advise()): for the selected
/// device and a workload (seq, concurrent:N, server:N, mixed:K+R), a block
/// size and a time budget, the readahead curve drawn as its points arrive,
/// the knee and the recommendation marked, the md/dm floor and the raw
/// (O_DIRECT) peak as lines; then how close buffered reads came to raw, the
/// memory the recommendation costs, and Apply / Try for 60 s / Save as
/// profile. The sweep runs on the view's own thread through the console's
/// one session; Cancel (or closing) stops it and the original readahead
/// comes back on every path. On a recorded tree nothing is measured: Start
/// is disabled and the reason shown.
class AdviseView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdviseView)

public:
    /// Measures `machine` (the one `session` works on), asked once what it
    /// can do. `profileDir`: where "Save as profile" writes NAME.json (the
    /// user's profile folder, Machine::profileUserDir()).
    AdviseView(ConsoleSession *session, const Machine &machine, const QString &profileDir, QWidget *parent = nullptr);
    /// Cancels a running sweep and waits for it (and its restore).
    ~AdviseView() override;

    QString device() const;
    bool isRunning() const;
    /// The points so far: x = read_ahead_kb, y = MB/s.
    QList<QPointF> curve() const;
    /// After a finished run: the recommended read_ahead_kb; nullopt when
    /// there is none (cancelled, or no steady answer).
    std::optional<quint64> recommendedKiB() const;
    /// Why Apply is off (its tooltip: no steady answer, another device's
    /// advice, a read-only session), or empty when it is on.
    QString applyDisabledReason() const;
    /// The advice on screen (measured or recorded), with its analysis.
    const std::optional<Advice> &advice() const;
    /// The result as the labels show it (recommendation, raw, memory, verdict).
    QString resultText() const;
    /// Why Start is disabled (a recorded tree), or empty.
    QString disabledReason() const;
    /// The workload as core parses it: "seq", "concurrent:4", ...
    QString workload() const;

public Q_SLOTS:
    void setDevice(const QString &name);
    /// false and a message() when the form is refused (nothing runs).
    bool start();
    /// The sweep stops after the block in flight; its readahead is restored.
    void cancel();
    /// The recommendation for good (Revert session still undoes it), once
    /// the change preview is accepted.
    void applyRecommendation();
    /// The recommendation as a temporary change, restored after 60 s unless
    /// kept, once the change preview is accepted.
    void tryRecommendation();
    void keepTrial();
    void endTrial();
    /// Writes the advice's profile as NAME.json in the profile folder.
    void saveAsProfile(const QString &name);
    /// Shows advice computed from a recorded curve (the History tab's
    /// "Advise from this sweep"); Apply and Try only when its device is the
    /// selected one.
    void showRecordedAdvice(const blocktune::Advice &advice);

Q_SIGNALS:
    void started();
    /// `ok`: the advice finished and is on screen, a recommendation or no
    /// steady answer (false after an error or a cancel).
    void finished(bool ok);
    void message(const QString &text);
    /// Readahead was written (apply, try, restore): other views read again.
    void settingsChanged();
    void profileSaved(const QString &name);
    /// A measured advice was kept in the history (`id` 0: it could not
    /// be; `note` says why).
    void historyRecorded(qint64 id, const QString &note);

private:
    // The constructor's steps: build the widgets, lay them out, wire them.
    void buildWidgets();
    void buildForm();
    void buildPlot();
    void buildPlotMarks();
    void buildResults();
    void layOut();
    void keepAdvice(const Advice &advice);
    void connectSignals(ConsoleSession *session);
    void connectForm();
    /// Makes the worker, wires its reports and starts its thread.
    void startWorker();
    void connectSession(ConsoleSession *session);
    void updateWorkload();
    /// The line the page starts with: what Advise will do and how long.
    void updateIntro();

    void addPoint(const blocktune::CurvePoint &point);
    void showAdvice();
    /// The finished curve, its knee, the recommendation, the floor and raw lines.
    void plotAdvice(const Advice &a);
    /// The average request size's line, axis and legend entry, or none (no sizes known).
    void showRequestSizes(bool shown);
    void markRawAndFloor(const Advice &a);
    /// The labels under the plot and the message: what it found and cost.
    void describeAdvice(const Advice &a);
    QString headline(const Advice &a) const;
    QStringList answerSentences(const Advice &a) const;
    QStringList unresolvedSentences(const Advice &a) const;
    QString reachSentence(const Advice &a) const;
    void planRecommendation(bool trying);
    void showPreview(const blocktune::ChangePlan &plan);
    void askSaveProfile();
    void setRunning(bool running);
    void setMessage(const QString &text);
    void updateButtons();

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace blocktune
