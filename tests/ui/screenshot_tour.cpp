// Not a test: drives the console through each view and saves a PNG of the
// window for each (scripts/screenshots.sh runs it under xvfb-run, once in
// English and once with LANG=de_DE.UTF-8). Recorded trees for the stacks
// this kernel cannot make; as root, the tour's own direct-I/O loop devices
// for what must be measured (their readahead is put back before they go).
//
//     screenshot_tour [--dark] [--suffix S] [--size WxH] [--only A,B] [--no-live] OUTDIR
//     screenshot_tour --list        the shots it makes, one name a line
//     screenshot_tour --appstream   "NAME SHOT": resources/screenshots/NAME.png is SHOT.png
//
// --dark: a dark Fusion palette (the light run is Fusion's own). --suffix
// goes before ".png" ("-dark", "@2x"). --size: the windows' logical size
// instead of each shot's own. Under QT_SCALE_FACTOR the pictures have the
// device pixels (grab() renders at the device pixel ratio).
#include "mainwindow.h"
#include "devicetree.h"
#include "detailsview.h"
#include "i18n.h"
#include "profilesview.h"
#include "readtest/readtestview.h"
#include "history/historyview.h"
#include "monitor/monitorview.h"
#include "adviseview.h"
#include "diagnoseview.h"
#include "changepreviewdialog.h"
#include "advisor/advisor.h"
#include "palettes.h"
#include "testsupport.h"

#include "common/sysroot.h"
#include "monitor/monitor.h"
#include "session/session.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <iterator>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QString g_out;
QString g_suffix;
QStringList g_only; ///< empty: every shot
QSize g_size;       ///< invalid: each shot's own
int g_failures = 0;

/// Every shot the tour makes, in order (recorded trees, then the live
/// machine as root). Docs use these names (docs/images/NAME.png): keep them.
const char *const kShots[] = {"01-arrays-settings", "12-details", "07-profiles-preview", "10-diagnose-md-static",
                              "06-monitor-balance", "02-settings-live",    "03-test-running",
                              "04-test-results",    "04b-test-latency",    "05-sweep",
                              "08-history-compare",
                              "09a-advise-running", "09-advise-curve",     "11-diagnose-live",
                              "12-change-preview",  "13-advise-no-answer", "14-monitor-recording"};

/// The AppStream screenshots (resources/org.blocktune.Blocktune.metainfo.xml):
/// resources/screenshots/NAME.png is the English light SHOT.png.
const std::pair<const char *, const char *> kAppStream[] = {{"settings", "01-arrays-settings"},
                                                            {"readtest", "04-test-results"},
                                                            {"advise", "09-advise-curve"},
                                                            {"monitor", "06-monitor-balance"},
                                                            {"profiles", "07-profiles-preview"},
                                                            {"diagnose", "10-diagnose-md-static"}};

/// Sizes a window for a shot: its own size, or --size.
void size(QWidget *w, int width, int height)
{
    w->resize(g_size.isValid() ? g_size : QSize(width, height));
}

void shot(QWidget *w, const QString &name)
{
    Q_ASSERT(std::any_of(std::begin(kShots), std::end(kShots), [&](const char *s) { return name == QLatin1String(s); }));
    if (!g_only.isEmpty() && !g_only.contains(name))
        return;
    QTest::qWait(400); // the last replot and the layout settle
    const QString path = QDir(g_out).filePath(name + g_suffix + QStringLiteral(".png"));
    // grab() renders at the window's device pixel ratio: at QT_SCALE_FACTOR 2
    // the picture has twice the pixels each way, text and plots drawn for them.
    const bool ok = w->grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
    g_failures += !ok;
}

bool waitFor(const std::function<bool()> &done, int ms, const char *what)
{
    if (QTest::qWaitFor(done, ms))
        return true;
    std::fprintf(stderr, "screenshot_tour: timed out waiting for %s\n", what);
    ++g_failures;
    return false;
}

QString queueAttr(const QString &device, const char *attr)
{
    QFile f(QStringLiteral("/sys/block/%1/queue/%2").arg(device, QString::fromLatin1(attr)));
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

void setQueueAttr(const QString &device, const char *attr, const QString &value)
{
    const SysRoot root;
    (void)root.writeAttribute(root.sysPath(QByteArray("block/" + device.toLatin1() + "/queue/" + attr)), value);
}

/// A tour loop device with sane queue settings, put back before it goes.
class TourLoop final
{
public:
    explicit TourLoop(qint64 bytes) : m_loop(bytes, true, QByteArray(1 << 20, '\x5a'))
    {
        if (!m_loop.isValid())
            return;
        for (const char *attr : {"read_ahead_kb", "max_sectors_kb"})
            m_saved.append({attr, queueAttr(m_loop.name(), attr)});
        setQueueAttr(m_loop.name(), "max_sectors_kb", queueAttr(m_loop.name(), "max_hw_sectors_kb"));
        setQueueAttr(m_loop.name(), "read_ahead_kb", QStringLiteral("128"));
    }
    ~TourLoop()
    {
        for (const auto &[attr, value] : m_saved)
            setQueueAttr(m_loop.name(), attr, value);
    }
    Q_DISABLE_COPY_MOVE(TourLoop)
    bool isValid() const { return m_loop.isValid(); }
    QString name() const { return m_loop.name(); }

private:
    LoopDevice m_loop;
    QList<std::pair<const char *, QString>> m_saved;
};

/// The recorded raid10 tree's counters, read on as if a stream read md0:
/// its members deliver unevenly (the far-2 layout's first half is read
/// more), so the balance chart has something to show.
class RecordedReads final : public CounterSource
{
public:
    explicit RecordedReads(const QString &tree)
    {
        QFile f(tree + QStringLiteral("/proc/diskstats"));
        if (f.open(QIODevice::ReadOnly))
            m_base = QString::fromLatin1(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
    }
    Result<QByteArray> diskStats() override
    {
        ++m_tick;
        static const QStringList members{u"sdb"_qs, u"sdc"_qs, u"sdd"_qs, u"sde"_qs,
                                         u"sdf"_qs, u"sdg"_qs, u"sdh"_qs, u"sdi"_qs};
        QByteArray out;
        quint64 mdSectors = 0;
        quint64 mdReads = 0;
        QStringList lines = m_base;
        for (QString &line : lines) {
            QStringList f = line.simplified().split(u' ');
            if (f.size() < 14)
                continue;
            const int i = int(members.indexOf(f.at(2)));
            if (i < 0)
                continue;
            // 12 MB/s a member at 100 ms ticks, the first four a third more.
            const quint64 sectors = quint64(m_tick) * (i < 4 ? 3200 : 2400);
            f[3] = QString::number(f.at(3).toULongLong() + sectors / 256);
            f[5] = QString::number(f.at(5).toULongLong() + sectors);
            mdSectors += sectors;
            mdReads += sectors / 256;
            line = f.join(u' ');
        }
        for (QString &line : lines) {
            QStringList f = line.simplified().split(u' ');
            if (f.size() >= 14 && f.at(2) == u"md0") {
                f[3] = QString::number(f.at(3).toULongLong() + mdReads);
                f[5] = QString::number(f.at(5).toULongLong() + mdSectors);
                line = f.join(u' ');
            }
            out += line.toLatin1() + '\n';
        }
        return out;
    }
    std::optional<InFlight> inFlight(const QString &) override { return InFlight{1, 0}; }
    InterruptCounts interrupts(const QList<int> &) override { return {quint64(m_tick) * 900, {}}; }

private:
    QStringList m_base;
    int m_tick = 0;
};

void configureTest(ReadTestView *view, const QString &kind, const QString &bs, const QString &size, int repeat,
                   const QString &measure, const QString &sweep = {})
{
    auto *kindBox = view->findChild<QComboBox *>(u"kind"_qs);
    kindBox->setCurrentIndex(kindBox->findData(kind));
    view->findChild<QComboBox *>(u"bs"_qs)->setCurrentText(bs);
    view->findChild<QLineEdit *>(u"size"_qs)->setText(size);
    view->findChild<QLineEdit *>(u"measure"_qs)->setText(measure);
    view->findChild<QCheckBox *>(u"sweep"_qs)->setChecked(!sweep.isEmpty());
    if (!sweep.isEmpty())
        view->findChild<QLineEdit *>(u"ra"_qs)->setText(sweep);
    view->findChild<QSpinBox *>(u"repeat"_qs)->setValue(repeat);
}

void recordedTrees(const QString &tmp)
{
    // The array tree and the settings of md0 on the recorded raid10 machine.
    {
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        size(&window, 1400, 860);
        window.show();
        waitFor([&] { return window.isReady(); }, 10000, "the raid10 tree");
        shot(&window, u"01-arrays-settings"_qs);
        window.tabs()->setCurrentWidget(window.detailsView());
        shot(&window, u"12-details"_qs);
        // The Monitor on a recording: its counters are frozen, and it says so.
        window.tabs()->setCurrentWidget(window.monitorView());
        auto *frozen = window.monitorView()->findChild<QLabel *>(u"recordingNote"_qs);
        waitFor([&] { return frozen && frozen->isVisible(); }, 10000, "the recording's note");
        QTest::qWait(1500);
        shot(&window, u"14-monitor-recording"_qs);
        window.tabs()->setCurrentIndex(0);

        // Profiles: streaming-md's preview, opened from md0's context menu.
        ProfilesView *page = window.profilesView();
        page->select(u"streaming-md"_qs);
        waitFor([&] { return page->selectedProfile() == u"streaming-md"_qs && !page->isBusy(); }, 10000, "a preview");
        window.deviceTree()->applyProfileAction()->trigger();
        waitFor([&] { return !page->isBusy() && page->lastResult().kind == ProfileResult::Preview; }, 10000,
                "md0's preview");
        page->findChild<QCheckBox *>(u"onlyDevice"_qs)->setChecked(false);
        shot(&window, u"07-profiles-preview"_qs);
    }
    // Diagnose on a copy whose md0 readahead sits under the floor.
    {
        const QString copy = tmp + u"/raid10"_qs;
        QDir().mkpath(copy);
        copyTree(recordedTree("md-raid10-f2"), copy);
        QFile ra(copy + u"/sys/class/block/md0/queue/read_ahead_kb"_qs);
        if (ra.open(QIODevice::WriteOnly | QIODevice::Truncate))
            ra.write("4096");
        ra.close();
        MainWindow window(copy, u"md0"_qs);
        size(&window, 1400, 860);
        window.show();
        waitFor([&] { return window.isReady(); }, 10000, "the raid10 copy");
        window.tabs()->setCurrentWidget(window.diagnoseView());
        bool done = false;
        QObject::connect(window.diagnoseView(), &DiagnoseView::finished, &window, [&] { done = true; });
        window.diagnoseView()->run(false);
        waitFor([&] { return done; }, 10000, "the static diagnosis");
        shot(&window, u"10-diagnose-md-static"_qs);
    }
    // The one change preview: the preset streaming-md applied from md0's
    // page (md0 ticked, the other arrays' disks offered, not ticked).
    {
        const QString copy = tmp + u"/raid10-preview"_qs;
        QDir().mkpath(copy);
        copyTree(recordedTree("md-raid10-f2"), copy);
        MainWindow window(copy, u"md0"_qs, SessionOptions{}); // writable, as a test's copy
        size(&window, 1400, 860);
        window.show();
        waitFor([&] { return window.isReady(); }, 10000, "the raid10 copy");
        window.tabs()->setCurrentWidget(window.profilesView());
        ProfilesView *page = window.profilesView();
        page->select(u"streaming-md"_qs);
        waitFor([&] { return page->selectedProfile() == u"streaming-md"_qs && !page->isBusy(); }, 10000, "a preview");
        page->setDevice(u"md0"_qs);
        page->apply();
        waitFor([&] { return page->changePreview() && page->changePreview()->canAccept(); }, 10000, "the change preview");
        if (ChangePreviewDialog *preview = page->changePreview()) {
            preview->resize(760, 460);
            shot(preview, u"12-change-preview"_qs);
            preview->reject();
        }
    }
    // An advice with no steady answer (a curve recorded on a VM whose host
    // was busy at times): no star, Apply and Try off, the reason in words.
    {
        QJsonArray curve;
        for (int ra = 128; ra <= 65536; ra *= 2) {
            const double rate = ra >= 1024 ? 1950 : 1950.0 * ra / 1024;
            const bool mixed = ra == 2048 || ra == 8192;
            curve << QJsonObject{{u"read_ahead_kb"_qs, ra}, {u"mb_per_s"_qs, mixed ? 1260 : rate},
                                 {u"runs"_qs, mixed ? QJsonArray{1252, 1948, 1260, 1255, 1960}
                                                    : QJsonArray{rate, rate * 1.01, rate * 0.99}}};
        }
        const auto recorded = parseRecordedCurve(QJsonDocument(QJsonObject{{u"curve"_qs, curve}}).toJson(), u"tour"_qs);
        MainWindow window(recordedTree("md-raid10-f2"), u"md0"_qs);
        size(&window, 1400, 860);
        window.show();
        waitFor([&] { return window.isReady(); }, 10000, "the raid10 tree");
        window.tabs()->setCurrentWidget(window.adviseView());
        if (recorded)
            window.adviseView()->showRecordedAdvice(adviseFromCurve(*recorded, AdviseSpec{}, u"file:recorded"_qs));
        shot(&window, u"13-advise-no-answer"_qs);
    }
    // The monitor on md0 with its members' balance.
    {
        const QString tree = recordedTree("md-raid10-f2");
        MonitorView monitor(tree, std::make_unique<RecordedReads>(tree), std::make_unique<SteadyClock>());
        size(&monitor, 1400, 860);
        monitor.show();
        monitor.setDevices({u"md0"_qs});
        QTest::qWait(3500);
        shot(&monitor, u"06-monitor-balance"_qs);
    }
}

void liveMachine()
{
    TourLoop a(256 << 20), b(256 << 20);
    if (!a.isValid() || !b.isValid()) {
        std::fprintf(stderr, "screenshot_tour: no loop devices (root?)\n");
        ++g_failures;
        return;
    }
    MainWindow window(QString(), a.name(), SessionOptions{});
    size(&window, 1400, 860);
    window.show();
    waitFor([&] { return window.isReady(); }, 10000, "the live machine");
    shot(&window, u"02-settings-live"_qs);

    // Two streams side by side: running, then the results.
    ReadTestView *test = window.readTestView();
    window.tabs()->setCurrentWidget(test);
    configureTest(test, u"concurrent"_qs, u"64K"_qs, u"256M"_qs, 3, b.name());
    bool finished = false;
    double seconds = 0;
    QObject::connect(test, &ReadTestView::finished, &window, [&] { finished = true; });
    QObject::connect(test, &ReadTestView::progressed, &window, [&](double s) { seconds = s; });
    if (test->start()) {
        waitFor([&] { return seconds >= 0.4 || finished; }, 30000, "the running test");
        shot(&window, u"03-test-running"_qs);
        waitFor([&] { return finished; }, 120000, "the two-stream test");
        shot(&window, u"04-test-results"_qs);
        // The same runs' read latencies: the plot's Latency tab.
        for (QTabWidget *tabs : test->findChildren<QTabWidget *>())
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->tabText(i) == ReadTestView::tr("Latency"))
                    tabs->setCurrentIndex(i);
        QTest::qWait(300);
        shot(&window, u"04b-test-latency"_qs);
        for (QTabWidget *tabs : test->findChildren<QTabWidget *>())
            if (tabs->count() > 0 && tabs->tabText(0) == ReadTestView::tr("Live"))
                tabs->setCurrentIndex(0);
    }
    // A sweep and its curve.
    finished = false;
    configureTest(test, u"seq"_qs, u"64K"_qs, u"96M"_qs, 1, {}, u"16,64,256,1024,4096"_qs);
    if (test->start()) {
        waitFor([&] { return finished; }, 120000, "the sweep");
        shot(&window, u"05-sweep"_qs);
    }
    // History: the two newest records compared.
    HistoryView *history = window.historyView();
    window.tabs()->setCurrentWidget(history);
    history->reload();
    waitFor([&] { return history->recordCount() >= 2; }, 10000, "the history");
    bool compared = false;
    QObject::connect(history, &HistoryView::compared, &window, [&] { compared = true; });
    history->compare(history->recordId(1), history->recordId(0));
    waitFor([&] { return compared; }, 10000, "the comparison");
    shot(&window, u"08-history-compare"_qs);

    // Advise from readahead 4 KiB with 4 KiB reads, a small budget.
    setQueueAttr(a.name(), "read_ahead_kb", u"4"_qs);
    window.rescan();
    AdviseView *advise = window.adviseView();
    window.tabs()->setCurrentWidget(advise);
    advise->setDevice(a.name());
    advise->findChild<QComboBox *>(u"bs"_qs)->setCurrentText(u"4K"_qs);
    advise->findChild<QSpinBox *>(u"budget"_qs)->setValue(10);
    finished = false;
    QObject::connect(advise, &AdviseView::finished, &window, [&] { finished = true; });
    if (advise->start()) {
        QTest::qWait(4000);
        shot(&window, u"09a-advise-running"_qs);
        waitFor([&] { return finished; }, 60000, "the advice");
        shot(&window, u"09-advise-curve"_qs);
    }
    // Diagnose measured, still at 4 KiB.
    DiagnoseView *diagnose = window.diagnoseView();
    window.tabs()->setCurrentWidget(diagnose);
    diagnose->setDevice(a.name());
    finished = false;
    QObject::connect(diagnose, &DiagnoseView::finished, &window, [&] { finished = true; });
    if (diagnose->run(true)) {
        waitFor([&] { return finished; }, 60000, "the measured diagnosis");
        shot(&window, u"11-diagnose-live"_qs);
    }
}

} // namespace

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (args == QStringList{u"--list"_qs}) {
        for (const char *name : kShots)
            std::printf("%s\n", name);
        return 0;
    }
    if (args == QStringList{u"--appstream"_qs}) {
        for (const auto &[name, shotName] : kAppStream)
            std::printf("%s %s\n", name, shotName);
        return 0;
    }
    bool dark = false;
    bool live = true;
    while (args.size() > 1 && args.constFirst().startsWith(u"--"_qs)) {
        const QString option = args.takeFirst();
        if (option == u"--dark"_qs) {
            dark = true;
        } else if (option == u"--no-live"_qs) {
            live = false;
        } else if (option == u"--suffix"_qs && args.size() > 1) {
            g_suffix = args.takeFirst();
        } else if (option == u"--only"_qs && args.size() > 1) {
            g_only = args.takeFirst().split(u',', Qt::SkipEmptyParts);
        } else if (option == u"--size"_qs && args.size() > 1) {
            const QStringList wh = args.takeFirst().split(u'x');
            g_size = wh.size() == 2 ? QSize(wh.at(0).toInt(), wh.at(1).toInt()) : QSize();
        } else {
            break;
        }
    }
    if (args.size() != 1 || args.constFirst().startsWith(u"--"_qs)) {
        std::fprintf(stderr, "usage: screenshot_tour [--dark] [--suffix S] [--size WxH] [--only A,B] [--no-live] OUTDIR\n"
                             "       screenshot_tour --list | --appstream\n");
        return 2;
    }
    // The tour's own settings, journals, profiles and history.
    QTemporaryDir tmp;
    qputenv("XDG_CONFIG_HOME", tmp.filePath(u"config"_qs).toLocal8Bit());
    qputenv("BLOCKTUNE_JOURNAL_DIR", tmp.filePath(u"journals"_qs).toLocal8Bit());
    qputenv("BLOCKTUNE_HISTORY_DB", tmp.filePath(u"history.sqlite"_qs).toLocal8Bit());
    QDir().mkpath(tmp.filePath(u"journals"_qs));
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"blocktune"_qs);
    // Fusion both ways, so light and dark differ only in the palette.
    QApplication::setStyle(u"Fusion"_qs);
    QApplication::setPalette(dark ? darkFusionPalette() : lightFusionPalette());
    installTranslations();
    g_out = args.constFirst();
    QDir().mkpath(g_out);
    recordedTrees(tmp.path());
    if (live && ::geteuid() == 0)
        liveMachine();
    else if (live)
        std::fprintf(stderr, "screenshot_tour: not root: no live views (tests, sweep, history, advise)\n");
    return g_failures == 0 ? 0 : 1;
}
