// The Monitor page's Readahead view, as a user sees it (offscreen): turned
// on, it says the probe is loading, then shows the workload's figures (the
// recorded live-loop tree: loop0 at read_ahead_kb 2560; a fake source the
// test grows); where the machine cannot be watched it says why instead of
// plotting and loads nothing; a refused probe's reason is shown; a setting
// change is marked; turned off, the source is gone.
#include "monitor/monitorview.h"
#include "monitor/readaheadview.h"
#include "monitortestsupport.h"

#include <QCheckBox>
#include <QLabel>
#include <QTest>

#include <cmath>

#include <qcustomplot.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

const quint64 kLoop0 = deviceNumber(7, 0);

/// The monitor view on loop0 of the recorded live-loop tree with a fake
/// counter source and clock: the test makes every sample itself.
struct Rig
{
    Rig() : Rig(std::make_unique<FakeSource>(), std::make_unique<FakeClock>()) {}

    FakeSource *source = nullptr;
    FakeClock *clock = nullptr;
    MonitorView view;
    std::shared_ptr<std::atomic_bool> alive = std::make_shared<std::atomic_bool>(false);
    std::shared_ptr<std::atomic_int> loads = std::make_shared<std::atomic_int>(0);
    FakeReadahead *readahead = nullptr; ///< lives on the worker's thread once loaded

    ReadaheadView *readaheadView() { return view.readaheadView(); }

    /// The loader the window would hand in: a fake source, or an error.
    void giveLoader(const QString &error = {})
    {
        view.setReadaheadLoader([this, error]() -> Result<std::unique_ptr<ReadaheadSource>> {
            ++*loads;
            if (!error.isEmpty())
                return makeError(EPERM, error);
            auto fake = std::make_unique<FakeReadahead>(alive);
            readahead = fake.get();
            return std::unique_ptr<ReadaheadSource>(std::move(fake));
        });
    }

    /// Runs `f` on the worker's thread and waits for it.
    template<typename F>
    void onWorker(F f)
    {
        QMetaObject::invokeMethod(view.worker(), f, Qt::BlockingQueuedConnection);
    }

    bool loading()
    {
        bool on = false;
        MonitorWorker *worker = view.worker();
        onWorker([&on, worker] { on = worker->isLoadingReadahead(); });
        return on;
    }

    /// One sample a second after the last, after `windows` more async
    /// windows of 1024 KiB on loop0 (all of its pages used).
    void step(quint64 windows = 0)
    {
        MonitorWorker *worker = view.worker();
        FakeClock *clk = clock;
        FakeReadahead *fake = readahead;
        onWorker([=] {
            if (fake) {
                fake->streamed(kLoop0, windows, 256, windows * 256, 0);
                fake->takenMs += 1000;
            }
            clk->advanceMs(1000);
            worker->tick();
        });
        QCoreApplication::processEvents(); // the sample reaches the view
    }

private:
    Rig(std::unique_ptr<FakeSource> s, std::unique_ptr<FakeClock> c)
        : source(s.get()), clock(c.get()), view(recordedTree("live-loop"), std::move(s), std::move(c))
    {
        source->setDevices({{u"loop0"_qs, Counters{}}});
        view.resize(900, 1400);
        view.show();
        view.setIntervalMs(60'000); // the timer stays quiet: the test ticks
        view.setDevices({u"loop0"_qs});
    }
};

QLabel *label(QWidget *in, const char *name)
{
    return in->findChild<QLabel *>(QLatin1StringView(name));
}

} // namespace

class TestReadaheadView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void loadsThenShowsTheWorkloadsFigures()
    {
        Rig rig;
        rig.giveLoader();
        QVERIFY(!rig.readaheadView()->isVisible());
        QCheckBox *box = rig.view.findChild<QCheckBox *>();
        QVERIFY(box);
        rig.view.setReadaheadShown(true);
        QVERIFY(rig.view.isReadaheadShown());
        QVERIFY(rig.readaheadView()->isVisible());
        // Said at once, before the program is in: loading takes a second or two.
        QLabel *message = label(rig.readaheadView(), "readaheadMessage");
        QVERIFY(message && message->isVisible());
        QVERIFY2(message->text().startsWith(u"Loading the readahead probe"_qs), qPrintable(message->text()));
        QTRY_VERIFY(!rig.loading());
        QCOMPARE(rig.loads->load(), 1);
        QVERIFY(*rig.alive);

        rig.step();   // the source's first snapshot
        rig.step(40); // 40 windows of 1024 KiB in a second
        rig.step(40);
        QTRY_VERIFY(rig.readaheadView()->message().isEmpty());
        QVERIFY(!message->isVisible());
        QVERIFY(rig.readaheadView()->plot()->isVisible());
        const QString figures = label(rig.readaheadView(), "readaheadFigures")->text();
        QVERIFY2(figures.startsWith(u"loop0: 40.0 async, 0.0 sync, 0.0 mmap, 0.0 forced windows/s"_qs),
                 qPrintable(figures));
        QVERIFY2(figures.contains(u"window 1024 KiB of 2560 KiB (100 % at the cap)"_qs), qPrintable(figures));
        QVERIFY2(figures.contains(u"10240 used, 0 wasted pages/s"_qs), qPrintable(figures));
        QVERIFY2(figures.contains(u"wait 2.05 ms"_qs), qPrintable(figures));
        // Plotted as one point a second: t 2 s to 3 s is the second sample's.
        ReadaheadView *v = rig.readaheadView();
        QCOMPARE(v->valueAt(u"loop0"_qs, u"async"_qs, 2.5), 40.0);
        QCOMPARE(v->valueAt(u"loop0"_qs, u"sync"_qs, 2.5), 0.0);
        QCOMPARE(v->valueAt(u"loop0"_qs, u"size"_qs, 2.5), 1024.0);
        QCOMPARE(v->valueAt(u"loop0"_qs, u"cap"_qs, 2.5), 2560.0);
        QCOMPARE(v->valueAt(u"loop0"_qs, u"used"_qs, 2.5), 10240.0);
        QCOMPARE(v->valueAt(u"loop0"_qs, u"wasted"_qs, 2.5), 0.0);
        QVERIFY(std::isnan(v->valueAt(u"loop0"_qs, u"async"_qs, 0.5))); // before the source
        v->refresh();
        QVERIFY(v->plot()->graphCount() >= 4 + 9); // the legend's line styles, and loop0's nine series

        // Turned off: the program goes (nothing loaded while nobody watches).
        rig.view.setReadaheadShown(false);
        rig.onWorker([] {});
        QVERIFY(!*rig.alive);
        QVERIFY(!rig.readaheadView()->isVisible());
    }

    void aMachineThatCannotBeWatchedSaysWhyInsteadOfPlots()
    {
        Rig rig;
        rig.giveLoader();
        rig.view.setReadaheadUnavailable(u"a recorded tree (--sysroot) has no running kernel or workload to watch"_qs);
        rig.view.setReadaheadShown(true);
        QLabel *message = label(rig.readaheadView(), "readaheadMessage");
        QCOMPARE(message->text(), u"Readahead cannot be watched here: a recorded tree (--sysroot) has no running "
                                  "kernel or workload to watch"_qs);
        QVERIFY(message->isVisible());
        QVERIFY(!rig.readaheadView()->plot()->isVisible());
        rig.step();
        rig.step();
        QCOMPARE(message->text().left(34), u"Readahead cannot be watched here: "_qs); // samples do not replace it
        QCOMPARE(rig.loads->load(), 0); // nothing was loaded
    }

    void aRefusedProbeSaysWhy()
    {
        Rig rig;
        rig.giveLoader(u"loading the readahead probe needs root (CAP_BPF and CAP_PERFMON)"_qs);
        rig.view.setReadaheadShown(true);
        QTRY_VERIFY(!rig.loading());
        rig.step();
        QTRY_COMPARE(label(rig.readaheadView(), "readaheadMessage")->text(),
                     u"Loading the readahead probe needs root (CAP_BPF and CAP_PERFMON)."_qs);
        QVERIFY(!rig.readaheadView()->plot()->isVisible());
    }

    void aSettingChangeIsMarked()
    {
        Rig rig;
        rig.giveLoader();
        rig.view.setReadaheadShown(true);
        QTRY_VERIFY(!rig.loading());
        rig.step();
        rig.step(10);
        rig.view.markSettingChange(u"loop0 read_ahead_kb 2560 → 1024"_qs);
        rig.step(10);
        QCOMPARE(rig.readaheadView()->markerCount(), 1);
        rig.readaheadView()->refresh();
        QCustomPlot *plot = rig.readaheadView()->plot();
        QStringList texts;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                texts << text->text();
        QCOMPARE(texts, QStringList{u"loop0 read_ahead_kb 2560 → 1024"_qs});
    }

    void howToReadThisExplainsEachPlot()
    {
        const QString help = ReadaheadView::helpText();
        for (const QString &word : {u"Windows/s"_qs, u"Window size"_qs, u"Pages/s"_qs, u"Wait"_qs, u"setting"_qs})
            QVERIFY2(help.contains(word), qPrintable(word));
        Rig rig;
        QVERIFY(rig.readaheadView()->findChild<QPushButton *>(u"readaheadHelp"_qs));
    }
};

QTEST_MAIN(TestReadaheadView)
#include "tst_readaheadview.moc"
