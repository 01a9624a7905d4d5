// The console's Advise view on the test's own direct-I/O loop device (as
// root): a small budget draws the curve point by point, ends with a
// recommendation on the curve and the original readahead back; a cancel in
// the middle stops it and restores too.
#include "adviseview.h"
#include "previewsupport.h"
#include "mainwindow.h"
#include "testsupport.h"

#include "advisor/advisor.h"
#include "common/sysroot.h"
#include "console/consolesession.h"
#include "history/history.h"
#include "machine/machine.h"
#include "session/session.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <qcustomplot.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QString queueAttr(const QString &device, const char *attr)
{
    QFile f(QStringLiteral("/sys/block/%1/queue/%2").arg(device, QString::fromLatin1(attr)));
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

bool setQueueAttr(const QString &device, const char *attr, const QByteArray &value)
{
    QFile f(QStringLiteral("/sys/block/%1/queue/%2").arg(device, QString::fromLatin1(attr)));
    return f.open(QIODevice::WriteOnly) && f.write(value) == value.size();
}

/// The loop's readahead as it was (a loop device's queue settings outlive
/// its detach), put back before the loop goes.
class SavedReadahead final
{
public:
    explicit SavedReadahead(const QString &device) : m_device(device), m_value(queueAttr(device, "read_ahead_kb")) {}
    ~SavedReadahead() { setQueueAttr(m_device, "read_ahead_kb", m_value.toLatin1()); }
    Q_DISABLE_COPY_MOVE(SavedReadahead)

private:
    QString m_device;
    QString m_value;
};

} // namespace

class TestAdviseView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_journals;

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
        qputenv("BLOCKTUNE_HISTORY_DB", m_journals.filePath(QStringLiteral("history.sqlite")).toLocal8Bit());
    }

    void smallBudgetDrawsAndRecommends()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true, QByteArray(4096, 'b'));
        QVERIFY(loop.isValid());
        const SavedReadahead saved(loop.name());
        QVERIFY(setQueueAttr(loop.name(), "read_ahead_kb", "4")); // the loop is ours
        ConsoleSession session{SysRoot()};
        QTemporaryDir profiles;
        AdviseView view(&session, *openMachine(session.root()), profiles.path());
        view.resize(1100, 700);
        view.show();
        view.setDevice(loop.name());
        view.findChild<QComboBox *>(u"bs"_qs)->setCurrentText(u"4K"_qs);
        view.findChild<QSpinBox *>(u"budget"_qs)->setValue(8);
        QSignalSpy finished(&view, &AdviseView::finished);
        QList<int> pointsSeen; // the curve as each point arrived
        connect(&view, &AdviseView::message, this, [&] { pointsSeen << int(view.curve().size()); });
        QSignalSpy jobs(&session, &ConsoleSession::jobFinished);
        QSignalSpy history(&view, &AdviseView::historyRecorded);
        QVERIFY(view.start());
        QVERIFY(view.isRunning());
        QVERIFY(finished.wait(30000));
        QVERIFY2(finished.takeFirst().at(0).toBool(), qPrintable(view.findChild<QLabel *>(u"status"_qs)->text()));
        // Drawn as the points arrived, not at the end only.
        QVERIFY(std::adjacent_find(pointsSeen.cbegin(), pointsSeen.cend(),
                                   [](int a, int b) { return b == a + 1 && a >= 1; }) != pointsSeen.cend());
        const QList<QPointF> curve = view.curve();
        QVERIFY(curve.size() >= 8);
        auto *plot = view.findChild<QCustomPlot *>(u"adviseCurve"_qs);
        QCOMPARE(plot->graph(0)->dataCount(), int(curve.size()));
        QVERIFY(view.advice());
        if (!view.advice()->recommends()) {
            // This VM reads at two speeds at times: then there is no answer,
            // and nothing looks like one (twoSpeedsAreNoRecommendation
            // checks that on a recorded curve every time).
            QCOMPARE(plot->graph(3)->dataCount(), 0);
            QVERIFY(!view.recommendedKiB());
            QVERIFY(view.resultText().contains(u"No steady answer for %1"_qs.arg(loop.name())));
            QVERIFY(!view.applyDisabledReason().isEmpty());
            QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), u"4"_qs);
            return;
        }
        QCOMPARE(plot->graph(3)->dataCount(), 1); // the recommendation, marked

        // The recommendation: no smaller point whose fitted value (the
        // monotone fit of the medians the plateau is read from) is within
        // the band of the plateau, but those at or below a pick the paired
        // confirmation rejected; and the drawn curve is the advice's.
        QVERIFY(view.recommendedKiB());
        const quint64 rec = *view.recommendedKiB();
        QVERIFY(view.advice());
        const Advice &advice = *view.advice();
        QCOMPARE(advice.recommendedKiB, rec);
        QCOMPARE(advice.analysis.fittedMbPerSec.size(), advice.curve.size());
        QCOMPARE(qsizetype(curve.size()), advice.curve.size());
        const double floorRate = advice.analysis.plateauMbPerSec * (1 - advice.analysis.bandPct / 100);
        quint64 rejected = 0;
        for (const quint64 r : advice.confirmation.rejected)
            rejected = std::max(rejected, r);
        for (qsizetype i = 0; i < advice.curve.size(); ++i) {
            QCOMPARE(curve.at(i).x(), double(advice.curve.at(i).readAheadKiB));
            if (advice.curve.at(i).readAheadKiB < rec && advice.curve.at(i).readAheadKiB > rejected)
                QVERIFY2(advice.analysis.fittedMbPerSec.at(i) < floorRate,
                         qPrintable(QStringLiteral("%1 KiB: fitted %2, band from %3")
                                        .arg(curve.at(i).x()).arg(advice.analysis.fittedMbPerSec.at(i)).arg(floorRate)));
        }
        // Kept in the history, where metrics and History find it.
        QTRY_VERIFY(history.count() == 1);
        QVERIFY2(history.at(0).at(0).toLongLong() > 0, qPrintable(history.at(0).at(1).toString()));
        auto kept = HistoryStore().get(history.at(0).at(0).toLongLong());
        QVERIFY(kept);
        QCOMPARE(kept->kind, u"advice"_qs);
        QCOMPARE(kept->device, loop.name());
        QCOMPARE(kept->source, u"console"_qs);
        QCOMPARE(kept->figures.value(u"summary").toObject().value(u"recommended_read_ahead_kb").toInteger(), qint64(rec));
        // A VM whose host is busy at times reads at two speeds: then the
        // view says it has no steady answer instead of recommending.
        const QString said = u"Recommended for %1: "_qs.arg(loop.name());
        QVERIFY2(view.resultText().contains(said), qPrintable(view.resultText()));
        QVERIFY(view.resultText().contains(u"Raw peak"_qs));
        QVERIFY(view.resultText().contains(u"Memory: "_qs));
        QCOMPARE(view.findChild<QProgressBar *>()->value(), 100);
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), u"4"_qs);
        // The session as the advice's job left it, published when it ended.
        QTRY_COMPARE(jobs.count(), 1);
        QCOMPARE(session.state().temporary, 0);

        // Try for 60 s: the recommendation now; Restore now brings 4 back.
        QSignalSpy changed(&view, &AdviseView::settingsChanged);
        view.tryRecommendation();
        // Shown first, as every write: the device, 4 -> the recommendation.
        ChangePreviewDialog *preview = readyPreview();
        QVERIFY(preview);
        QCOMPARE(preview->rows().size(), 1);
        QCOMPARE(preview->rows().at(0).device, loop.name());
        QCOMPARE(preview->rows().at(0).current, u"4"_qs);
        QCOMPARE(preview->rows().at(0).next, QString::number(rec));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), u"4"_qs); // not before it is accepted
        preview->accept();
        QVERIFY(changed.wait(30000));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QString::number(rec));
        view.endTrial();
        QVERIFY(changed.wait(30000));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), u"4"_qs);

        // Save as profile: the advice's rule in the profile folder.
        QSignalSpy profileSaved(&view, &AdviseView::profileSaved);
        view.saveAsProfile(u"loop-advice"_qs);
        QVERIFY(profileSaved.wait(30000));
        QFile file(profiles.filePath(u"loop-advice.json"_qs));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject profile = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(profile.value(u"name").toString(), u"loop-advice"_qs);
        const QJsonObject rule = profile.value(u"rules").toArray().at(0).toObject();
        QCOMPARE(rule.value(u"match").toObject().value(u"name").toString(), loop.name());
        QCOMPARE(rule.value(u"set").toObject().value(u"read_ahead_kb").toInteger(), qint64(rec));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), u"4"_qs);
    }

    // A recorded advice whose runs fell in two speeds (on this VM about 1250
    // and 1950 MB/s at one readahead) is shown as no steady answer, not as a
    // recommendation; the same curve at one speed recommends.
    void twoSpeedsAreNoRecommendation()
    {
        QJsonArray twoSpeeds, oneSpeed;
        for (int ra = 128; ra <= 65536; ra *= 2) {
            const double rate = ra >= 1024 ? 1950 : 1950.0 * ra / 1024;
            const bool mixed = ra == 2048 || ra == 8192;
            const QJsonArray steady{rate, rate * 1.01, rate * 0.99};
            twoSpeeds << QJsonObject{{u"read_ahead_kb"_qs, ra},
                                     {u"mb_per_s"_qs, mixed ? 1260 : rate},
                                     {u"runs"_qs, mixed ? QJsonArray{1252, 1948, 1260, 1255, 1960} : steady}};
            oneSpeed << QJsonObject{{u"read_ahead_kb"_qs, ra}, {u"mb_per_s"_qs, rate}, {u"runs"_qs, steady}};
        }
        ConsoleSession session{SysRoot()};
        QTemporaryDir profiles;
        AdviseView view(&session, *openMachine(session.root()), profiles.path());
        for (const auto &[curve, twoSpeedsSeen] : {std::pair{twoSpeeds, true}, std::pair{oneSpeed, false}}) {
            const QByteArray file = QJsonDocument(QJsonObject{{u"curve"_qs, curve}}).toJson();
            const auto recorded = parseRecordedCurve(file, u"test"_qs);
            QVERIFY2(recorded, recorded ? "" : qPrintable(recorded.error().message));
            const Advice advice = adviseFromCurve(*recorded, AdviseSpec{}, u"file:test"_qs);
            view.showRecordedAdvice(advice);
            QCOMPARE(view.resultText().contains(u"No steady answer: nothing is recommended"_qs), twoSpeedsSeen);
            QCOMPARE(view.resultText().contains(u"Recommended: "_qs), !twoSpeedsSeen);
            // No steady answer recommends nothing: no knee, no star, no
            // memory line, Apply, Try and Save off with the reason, and the
            // history row says so.
            auto *plot = view.findChild<QCustomPlot *>(u"adviseCurve"_qs);
            QVERIFY(plot->isVisibleTo(&view)); // the recorded curve is drawn, not the intro
            QCOMPARE(plot->graph(2)->dataCount(), twoSpeedsSeen ? 0 : 1);
            QCOMPARE(plot->graph(3)->dataCount(), twoSpeedsSeen ? 0 : 1);
            QCOMPARE(view.recommendedKiB().has_value(), !twoSpeedsSeen);
            QCOMPARE(view.resultText().contains(u"Memory: "_qs), !twoSpeedsSeen);
            if (twoSpeedsSeen) {
                QVERIFY2(view.applyDisabledReason().contains(u"two speeds"_qs), qPrintable(view.applyDisabledReason()));
                for (auto *b : view.findChildren<QPushButton *>())
                    if (b->text().startsWith(u"Apply"_qs) || b->text().startsWith(u"Try"_qs))
                        QVERIFY(!b->isEnabled());
                QVERIFY(view.resultText().contains(u"The curve alone would pick"_qs));
                QVERIFY(!view.resultText().contains(u"+-"_qs));
                const HistoryRecord row = historyRecord(advice, u"console"_qs);
                QVERIFY2(row.description.startsWith(u"no steady answer"_qs), qPrintable(row.description));
                QVERIFY(!row.metrics.contains(u"recommended read_ahead_kb"_qs));
                QVERIFY(adviceToJson(advice).value(u"recommended_read_ahead_kb"_qs).isNull());
                QVERIFY(adviceToJson(advice).value(u"unresolved_pick_read_ahead_kb"_qs).toInteger() > 0);
            }
        }
        QVERIFY2(view.resultText().contains(u"1 MiB"_qs) || view.resultText().contains(u"1024 KiB"_qs),
                 qPrintable(view.resultText()));
    }

    // A recorded curve without request sizes (MB/s only) draws no line of
    // zeros for them: no average-request line, axis or table column; a
    // curve with sizes draws them.
    void recordedCurveWithoutRequestSizes()
    {
        ConsoleSession session{SysRoot()};
        QTemporaryDir profiles;
        AdviseView view(&session, *openMachine(session.root()), profiles.path());
        auto *plot = view.findChild<QCustomPlot *>(u"adviseCurve"_qs);
        QVERIFY(plot);
        for (const bool sizes : {false, true, false}) {
            QJsonArray curve;
            for (int ra = 128; ra <= 8192; ra *= 2) {
                const double rate = ra >= 1024 ? 1950 : 1950.0 * ra / 1024;
                QJsonObject point{{u"read_ahead_kb"_qs, ra}, {u"mb_per_s"_qs, rate},
                                  {u"runs"_qs, QJsonArray{rate, rate * 1.01, rate * 0.99}}};
                if (sizes)
                    point.insert(u"avg_request_kb"_qs, std::min(ra, 512));
                curve << point;
            }
            const auto recorded = parseRecordedCurve(QJsonDocument(QJsonObject{{u"curve"_qs, curve}}).toJson(), u"test"_qs);
            QVERIFY2(recorded, recorded ? "" : qPrintable(recorded.error().message));
            view.showRecordedAdvice(adviseFromCurve(*recorded, AdviseSpec{}, u"file:test"_qs));
            QCOMPARE(plot->graph(1)->dataCount(), sizes ? int(curve.size()) : 0);
            QCOMPARE(plot->graph(1)->visible(), sizes);
            QCOMPARE(plot->yAxis2->visible(), sizes);
        }
    }

    void cancelMidRunRestores()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true, QByteArray(4096, 'c'));
        QVERIFY(loop.isValid());
        const SavedReadahead saved(loop.name());
        QVERIFY(setQueueAttr(loop.name(), "read_ahead_kb", "4"));
        ConsoleSession session{SysRoot()};
        QTemporaryDir profiles;
        AdviseView view(&session, *openMachine(session.root()), profiles.path());
        view.setDevice(loop.name());
        view.findChild<QComboBox *>(u"bs"_qs)->setCurrentText(u"4K"_qs);
        view.findChild<QSpinBox *>(u"budget"_qs)->setValue(60);
        QSignalSpy finished(&view, &AdviseView::finished);
        QSignalSpy jobs(&session, &ConsoleSession::jobFinished);
        QVERIFY(view.start());
        QVERIFY(QTest::qWaitFor([&] { return view.curve().size() >= 2; }, 30000));
        QVERIFY(view.isRunning());
        QElapsedTimer clock;
        clock.start();
        view.cancel();
        QVERIFY(finished.wait(30000));
        QVERIFY(clock.elapsed() < 5000);
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        QVERIFY(!view.recommendedKiB());
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), u"4"_qs);
        // The session as the advice's job left it, published when it ended.
        QTRY_COMPARE(jobs.count(), 1);
        QCOMPARE(session.state().temporary, 0);
    }

    // The console closed in the middle of an advice: the views go first,
    // the sweep stops and its readahead comes back before the session ends.
    void closingTheConsoleMidRunRestores()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true, QByteArray(4096, 'd'));
        QVERIFY(loop.isValid());
        const SavedReadahead saved(loop.name());
        QVERIFY(setQueueAttr(loop.name(), "read_ahead_kb", "4"));
        QTemporaryDir config;
        qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit());
        auto window = std::make_unique<MainWindow>(QString(), loop.name(), SessionOptions{});
        QVERIFY(QTest::qWaitFor([&] { return window->isReady(); }, 30000));
        AdviseView *view = window->adviseView();
        QCOMPARE(view->device(), loop.name());
        view->findChild<QSpinBox *>(u"budget"_qs)->setValue(60);
        QVERIFY(view->start());
        QVERIFY(QTest::qWaitFor([&] { return view->curve().size() >= 2; }, 30000));
        QElapsedTimer clock;
        clock.start();
        window.reset();
        QVERIFY(clock.elapsed() < 5000);
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), u"4"_qs);
    }
};

QTEST_MAIN(TestAdviseView)
#include "tst_adviseview.moc"
