// The console's read test view: refusals without root on a recorded tree;
// a test, a sweep, a stop, two streams side by side and the history on
// the test's own loop devices with root.
#include "readtest/streamcard.h"
#include "readtest/readtestview.h"
#include "common/sysroot.h"
#include "history/history.h"
#include "machine/machine.h"
#include "sessionsupport.h"
#include "testloop.h"
#include "testsupport.h"
#include "readtest/resultsmodel.h"

#include <QCheckBox>
#include <QFile>
#include <QFrame>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QDir>
#include <QTest>
#include <qcustomplot.h>

#include <cmath>

#include <memory>

using namespace blocktune;
using namespace blocktune::test;

namespace {

void configure(ReadTestView &view, const QString &kind, const QString &bs, const QString &size, int repeat,
               const QString &sweep = {})
{
    auto *kindBox = view.findChild<QComboBox *>(QStringLiteral("kind"));
    kindBox->setCurrentIndex(kindBox->findData(kind));
    view.findChild<QComboBox *>(QStringLiteral("bs"))->setCurrentText(bs);
    view.findChild<QLineEdit *>(QStringLiteral("size"))->setText(size);
    view.findChild<QCheckBox *>(QStringLiteral("sweep"))->setChecked(!sweep.isEmpty());
    if (!sweep.isEmpty())
        view.findChild<QLineEdit *>(QStringLiteral("ra"))->setText(sweep);
    view.findChild<QSpinBox *>(QStringLiteral("repeat"))->setValue(repeat);
}

/// The tests' loop devices: 64 MiB, direct I/O, known contents, queue
/// settings sane and put back before detaching (tests/support/testloop.h).
constexpr qint64 kLoopBytes = 64 << 20;

} // namespace

class TestReadTestView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_journals;
    QByteArray m_historyDb; ///< the history every test function writes to, unless it names its own
    /// Points the history at `db` until the scope ends, then back at
    /// m_historyDb (never unset: the history would fall back to the user's).
    auto historyAt(const QString &db)
    {
        qputenv("BLOCKTUNE_HISTORY_DB", db.toLocal8Bit());
        return qScopeGuard([this] { qputenv("BLOCKTUNE_HISTORY_DB", m_historyDb); });
    }

private Q_SLOTS:
    void initTestCase()
    {
        // Sweeps journal here, never beside another session's journals.
        QVERIFY(m_journals.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
        // ctest names the build's history; run by hand, one of this test's.
        m_historyDb = qgetenv("BLOCKTUNE_HISTORY_DB");
        if (m_historyDb.isEmpty())
            m_historyDb = (m_journals.path() + QStringLiteral("/history.sqlite")).toLocal8Bit();
        qputenv("BLOCKTUNE_HISTORY_DB", m_historyDb);
    }

    void refusesBadOptionsWithoutRunning_data()
    {
        QTest::addColumn<QString>("size");
        QTest::addColumn<QString>("bs");
        QTest::addColumn<QString>("sweep");
        QTest::addColumn<QString>("complaint");
        QTest::newRow("past the end") << "1G" << "64K" << "" << "goes past the end of nvme0n1p1";
        QTest::newRow("bad size") << "lots" << "64K" << "" << "is not a size";
        QTest::newRow("zero block") << "" << "0" << "" << "at least 1 byte";
        QTest::newRow("bad readahead list") << "" << "64K" << "128,x" << "not a readahead size";
    }
    void refusesBadOptionsWithoutRunning()
    {
        QFETCH(QString, size);
        QFETCH(QString, bs);
        QFETCH(QString, sweep);
        QFETCH(QString, complaint);
        ConsoleSession session{SysRoot(recordedTree("nvme-parts"))};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session, *openMachine(session.root()));
        view.setDevice(QStringLiteral("nvme0n1p1"));
        configure(view, QStringLiteral("seq"), bs, size, 1, sweep);
        QSignalSpy messages(&view, &ReadTestView::message);
        QSignalSpy started(&view, &ReadTestView::started);
        QVERIFY(!view.start());
        QVERIFY(!view.isRunning());
        QCOMPARE(started.size(), 0);
        QCOMPARE(messages.size(), 1);
        QVERIFY2(messages.at(0).at(0).toString().contains(complaint), qPrintable(messages.at(0).at(0).toString()));
    }

    // The card's figure is the median of the runs, each run and the range
    // beside it, and a warning when they disagree (issue 35: a card read
    // 1492 MB/s, the last run, where a/b/c were 304/476/1492).
    void cardShowsTheMedianAndSaysWhenRunsDisagree()
    {
        StreamCard card(u"s1"_qs, u"loop5"_qs, 0, u"measured"_qs, 0);
        card.show();
        card.finishRun(u"a"_qs, 304, std::nullopt);
        auto *warning = card.findChild<QLabel *>(u"disagree"_qs);
        QVERIFY(warning);
        QVERIFY(warning->isHidden());
        card.finishRun(u"b"_qs, 476, std::nullopt);
        card.finishRun(u"c"_qs, 1492, std::nullopt);
        QCOMPARE(card.rateText(), u"476 MB/s"_qs);
        QCOMPARE(card.runsText(), u"a 304 · b 476 · c 1492 MB/s, 304–1492"_qs);
        QVERIFY(!warning->isHidden());
        QCOMPARE(warning->text(), u"⚠ Runs disagree: the first was 3.2× slower"_qs);
        QVERIFY2(card.disagreementText().startsWith(u"The first run was 3.2× slower than the others"_qs),
                 qPrintable(card.disagreementText()));
        QCOMPARE(warning->toolTip(), card.disagreementText());

        StreamCard steady(u"s2"_qs, u"loop5"_qs, 0, u"measured"_qs, 1);
        for (const auto &[label, rate] : {std::pair{u"a"_qs, 1000.0}, {u"b"_qs, 1100.0}, {u"c"_qs, 1050.0}})
            steady.finishRun(label, rate, std::nullopt);
        QCOMPARE(steady.rateText(), u"1050 MB/s"_qs);
        QVERIFY(steady.disagreementText().isEmpty());
        QVERIFY(steady.findChild<QLabel *>(u"disagree"_qs)->isHidden());
    }

    void noDeviceNoStart()
    {
        ConsoleSession session{SysRoot(recordedTree("nvme-parts"))};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session, *openMachine(session.root()));
        QVERIFY(!view.start());
    }

    // A recorded tree has no devices to read: Start is disabled with the
    // reason, and start() refuses with it (nothing runs, no "mean 0.00").
    void recordedTreeRefusesTests()
    {
        ConsoleSession session{SysRoot(recordedTree("nvme-parts"))};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session, *openMachine(session.root()));
        view.setDevice(QStringLiteral("nvme0n1"));
        configure(view, QStringLiteral("seq"), QStringLiteral("64K"), QStringLiteral("1M"), 3);
        QPushButton *startButton = nullptr;
        for (QPushButton *b : view.findChildren<QPushButton *>())
            if (b->text() == u"Start")
                startButton = b;
        QVERIFY(startButton);
        QVERIFY(!startButton->isEnabled());
        QVERIFY2(startButton->toolTip().contains(QStringLiteral("recorded tree")), qPrintable(startButton->toolTip()));
        QSignalSpy messages(&view, &ReadTestView::message);
        QSignalSpy started(&view, &ReadTestView::started);
        QVERIFY(!view.start());
        QVERIFY(!view.isRunning());
        QCOMPARE(started.size(), 0);
        QCOMPARE(messages.size(), 1);
        QVERIFY2(messages.at(0).at(0).toString().contains(QStringLiteral("need the live machine")),
                 qPrintable(messages.at(0).at(0).toString()));
        QVERIFY(!view.reportText().contains(QStringLiteral("MB/s")));
    }

    // Two measured streams side by side: two cards, a results table with
    // runs a, b, c per stream and the summary rows, CSV and JSON exports,
    // and the run kept in the history.
    void twoStreamsMakeCardsAndResults()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        TestLoop first(kLoopBytes, knownContents()), second(kLoopBytes, knownContents());
        QVERIFY(first.isValid() && second.isValid());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto history = historyAt(dir.path() + QStringLiteral("/history.sqlite"));
        ConsoleSession session{SysRoot()};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session, *openMachine(session.root()));
        view.setDevice(first.name());
        configure(view, QStringLiteral("concurrent"), QStringLiteral("64K"), QStringLiteral("8M"), 3);
        view.findChild<QLineEdit *>(QStringLiteral("measure"))->setText(second.name());
        QSignalSpy finished(&view, &ReadTestView::finished);
        QSignalSpy kept(&view, &ReadTestView::historyRecorded);
        QVERIFY(view.start());
        const QList<QFrame *> cards = view.findChildren<QFrame *>(QStringLiteral("streamCard"));
        QCOMPARE(cards.size(), 2);
        // A screen reader names each card's stream and says where it reads.
        QCOMPARE(cards.at(0)->accessibleName(), u"stream "_qs + first.name());
        QVERIFY2(cards.at(1)->accessibleDescription().startsWith(second.name() + u" from "_qs),
                 qPrintable(cards.at(1)->accessibleDescription()));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        // Each card ends showing its stream's MB/s.
        for (QFrame *card : cards)
            QVERIFY(card->findChild<QLabel *>(QStringLiteral("rate"))->text().endsWith(QStringLiteral("MB/s")));

        auto *table = view.findChild<QTableView *>(QStringLiteral("results"));
        QVERIFY(table);
        QAbstractItemModel *model = table->model();
        QStringList runs;
        QStringList summaries;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString run = model->index(row, 0).data().toString();
            const QString stream = model->index(row, 1).data().toString();
            if (run.size() == 1)
                runs << run + u' ' + stream;
            else
                summaries << run;
        }
        QCOMPARE(runs, (QStringList{QStringLiteral("a ") + first.name(), QStringLiteral("a ") + second.name(),
                                    QStringLiteral("b ") + first.name(), QStringLiteral("b ") + second.name(),
                                    QStringLiteral("c ") + first.name(), QStringLiteral("c ") + second.name()}));
        QCOMPARE(summaries.count(QStringLiteral("mean")), 2);
        QCOMPARE(summaries.count(QStringLiteral("spread")), 2);
        QVERIFY(summaries.contains(QStringLiteral("all runs")));
        // Each run's row carries 8 MiB and a MB/s figure.
        const int bytes = ReadTestResultsModel::Bytes, rate = ReadTestResultsModel::MBps;
        QCOMPARE(model->index(0, bytes).data(Qt::UserRole).toDouble(), double(8 << 20));
        QVERIFY(model->index(0, rate).data().toString().endsWith(QStringLiteral("MB/s")));
        // ... and its reads' latency.
        QVERIFY(model->index(0, ReadTestResultsModel::P50).data(Qt::UserRole).toDouble() > 0);
        QVERIFY(model->index(0, ReadTestResultsModel::P999).data(Qt::UserRole).toDouble()
                >= model->index(0, ReadTestResultsModel::P50).data(Qt::UserRole).toDouble());
        // Sorting by MB/s descending keeps the summary rows at the bottom.
        table->sortByColumn(rate, Qt::DescendingOrder);
        for (int row = 0; row < 6; ++row)
            QCOMPARE(model->index(row, 0).data().toString().size(), 1);
        QVERIFY(model->index(0, rate).data(Qt::UserRole).toDouble() >= model->index(5, rate).data(Qt::UserRole).toDouble());

        QVERIFY(view.resultText().contains(QStringLiteral("\ta) ")));
        QTemporaryDir out;
        QVERIFY(view.exportCsv(out.filePath(QStringLiteral("r.csv"))));
        QFile csv(out.filePath(QStringLiteral("r.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList csvLines = QString::fromUtf8(csv.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(csvLines.at(0).startsWith(QStringLiteral("run,stream,role,mb_per_s")));
        QVERIFY2(csvLines.at(1).startsWith(QStringLiteral("a,") + first.name() + QStringLiteral(",measured,")),
                 qPrintable(csvLines.at(1)));
        QVERIFY(view.exportJson(out.filePath(QStringLiteral("r.json"))));
        QFile json(out.filePath(QStringLiteral("r.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(json.readAll()).object();
        QCOMPARE(o.value(QStringLiteral("runs")).toArray().size(), 3);

        QVERIFY(kept.wait(30000));
        QVERIFY(kept.at(0).at(0).toLongLong() > 0);
        const auto records = HistoryStore().list();
        QVERIFY(records);
        QCOMPARE(records->size(), 1);
        QCOMPARE(records->constFirst().device, first.name());
        QCOMPARE(records->constFirst().test, QStringLiteral("concurrent"));
        QVERIFY(records->constFirst().metrics.contains(QStringLiteral("fairness (Jain)")));
    }

    // A damaged history database does not stop a test: the result is shown,
    // the file is set aside and the user told.
    void corruptHistoryDoesNotStopATest()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        TestLoop loop(kLoopBytes, knownContents());
        QVERIFY(loop.isValid());
        QTemporaryDir dir;
        const QString db = dir.path() + QStringLiteral("/history.sqlite");
        {
            QFile f(db);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(8192, 'x'));
        }
        const auto history = historyAt(db);
        ConsoleSession session{SysRoot()};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session, *openMachine(session.root()));
        view.setDevice(loop.name());
        configure(view, QStringLiteral("seq"), QStringLiteral("64K"), QStringLiteral("4M"), 1);
        QSignalSpy finished(&view, &ReadTestView::finished);
        QSignalSpy kept(&view, &ReadTestView::historyRecorded);
        QSignalSpy messages(&view, &ReadTestView::message);
        QVERIFY(view.start());
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY2(view.reportText().contains(QStringLiteral("4194304 bytes (4.2 MB, 4.0 MiB) copied, ")), qPrintable(view.reportText()));
        QVERIFY(kept.wait(30000));
        QVERIFY2(kept.at(0).at(1).toString().contains(QStringLiteral("set aside")), qPrintable(kept.at(0).at(1).toString()));
        QVERIFY(kept.at(0).at(0).toLongLong() > 0); // kept in a new database
        QVERIFY(!messages.isEmpty());
        QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("history.sqlite.corrupt-*")}, QDir::Files).size(), 1);
    }

    void runsTestAndShowsRuns()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        TestLoop loop(kLoopBytes, knownContents());
        QVERIFY(loop.isValid());
        ConsoleSession session{SysRoot()};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session, *openMachine(session.root()));
        view.setDevice(loop.name());
        configure(view, QStringLiteral("server"), QStringLiteral("64K"), QStringLiteral("16M"), 2);
        QSignalSpy finished(&view, &ReadTestView::finished);
        QSignalSpy progressed(&view, &ReadTestView::progressed);
        QVERIFY(view.start());
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY(!progressed.isEmpty()); // the live plot got the intervals
        const QString report = view.reportText();
        QCOMPARE(report.count(QStringLiteral(" 16777216 bytes (17 MB, 16 MiB) copied, ")), 2);
        QVERIFY2(report.contains(QStringLiteral("\ta) ")) && report.contains(QStringLiteral("\tb) ")), qPrintable(report));
        QVERIFY(report.contains(QStringLiteral("4 threads: ")));
        QVERIFY(report.contains(QStringLiteral("read requests, avg")));
        QVERIFY(report.contains(QStringLiteral("read_ahead_kb 128")));
        QVERIFY2(report.contains(QStringLiteral("; latency p50 ")), qPrintable(report));

        // The Latency tab: the last run's reads, every one of them in a bin.
        auto *latency = view.findChild<QCustomPlot *>(QStringLiteral("latencyPlot"));
        QVERIFY(latency);
        QCOMPARE(latency->graphCount(), 1);
        auto shares = [&] {
            double sum = 0;
            for (auto it = latency->graph(0)->data()->constBegin(); it != latency->graph(0)->data()->constEnd(); ++it)
                sum += it->value;
            return sum;
        };
        QVERIFY2(std::abs(shares() - 100.0) < 0.01, qPrintable(QString::number(shares())));
        QVERIFY2(latency->graph(0)->name().contains(QStringLiteral("run b: p50 ")), qPrintable(latency->graph(0)->name()));
        // Selecting run a's row draws run a's.
        auto *table = view.findChild<QTableView *>(QStringLiteral("results"));
        QVERIFY(table);
        bool selected = false;
        for (int row = 0; row < table->model()->rowCount() && !selected; ++row)
            if (table->model()->index(row, 0).data().toString() == QStringLiteral("a")) {
                table->setCurrentIndex(table->model()->index(row, 0));
                selected = true;
            }
        QVERIFY(selected);
        QVERIFY2(latency->graph(0)->name().contains(QStringLiteral("run a: p50 ")), qPrintable(latency->graph(0)->name()));
        QVERIFY(std::abs(shares() - 100.0) < 0.01);
        // The table's latency columns are the run's percentiles.
        const QString header = table->model()->headerData(ReadTestResultsModel::P99, Qt::Horizontal).toString();
        QCOMPARE(header, QStringLiteral("p99"));
        QVERIFY(!table->model()->index(0, ReadTestResultsModel::P99).data().toString().isEmpty());
    }

    void sweepDrawsTheCurveAndRestores()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        TestLoop loop(kLoopBytes, knownContents());
        QVERIFY(loop.isValid());
        ConsoleSession session{SysRoot()};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session, *openMachine(session.root()));
        view.setDevice(loop.name());
        configure(view, QStringLiteral("seq"), QStringLiteral("4K"), QStringLiteral("16M"), 1, QStringLiteral("4,1024"));
        QSignalSpy finished(&view, &ReadTestView::finished);
        QVERIFY(view.start());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        const QList<QPointF> curve = view.sweepCurve();
        QCOMPARE(curve.size(), 2);
        QCOMPARE(curve.at(0).x(), 4.0);
        QCOMPARE(curve.at(1).x(), 1024.0);
        QVERIFY2(curve.at(1).y() >= 3 * curve.at(0).y(),
                 qPrintable(QStringLiteral("%1 vs %2").arg(curve.at(0).y()).arg(curve.at(1).y())));
        QVERIFY(view.reportText().contains(QStringLiteral("restored read_ahead_kb 128")));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QStringLiteral("128"));
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }

    // Stop during a sweep, and closing the view during another: both end
    // quickly and put the readahead back.
    void stopAndCloseRestore()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        TestLoop loop(kLoopBytes, knownContents());
        QVERIFY(loop.isValid());
        ConsoleSession session{SysRoot()};
        QVERIFY(waitForModel(session));
        auto view = std::make_unique<ReadTestView>(&session, *openMachine(session.root()));
        view->setDevice(loop.name());
        // Readahead 4 KiB, 100 runs of 64 MiB in 4 KiB reads at the first
        // point: busy far longer than this waits, however fast the disk (at
        // 1 GB/s a point would still take 7 s; here one run takes 1.6 s).
        configure(*view, QStringLiteral("seq"), QStringLiteral("4K"), QString(), 100, QStringLiteral("4,8"));
        QSignalSpy finished(view.get(), &ReadTestView::finished);
        QSignalSpy progressed(view.get(), &ReadTestView::progressed);
        QVERIFY(view->start());
        QVERIFY(progressed.wait(30000));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QStringLiteral("4"));
        QElapsedTimer t;
        t.start();
        view->stop();
        QVERIFY(finished.wait(30000));
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(view->reportText().contains(QStringLiteral("(interrupted)")), qPrintable(view->reportText()));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QStringLiteral("128"));

        QVERIFY(view->start());
        QVERIFY(progressed.wait(30000));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QStringLiteral("4"));
        view.reset(); // closing the console mid-sweep
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QStringLiteral("128"));
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }
};

QTEST_MAIN(TestReadTestView)
#include "tst_readtestview.moc"
