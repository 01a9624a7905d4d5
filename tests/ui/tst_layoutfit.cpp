// Every page of the console fits the first window on a 1280x720 screen at
// 1x (English and German) and on a 1600x1000 screen at QT_SCALE_FACTOR 1.5
// (1066x666 logical pixels; English only so far): the window lies on the screen, every
// control of every page lies inside the window and is not cut (its
// minimum size; a line edit's placeholder; a label's text), the plots'
// axis labels fit beside their plots, the Read test's Results show rows
// with the stream cards out, and the Latency heatmap has real height.
//
// Each screen is its own process: the offscreen platform takes its screen
// from a config file and QT_SCALE_FACTOR is read at start. The test
// starts itself again per row with BLOCKTUNE_FIT_CHILD set.
#include "mainwindow.h"
#include "i18n.h"
#include "monitor/latencyheatmap.h"
#include "monitor/monitorview.h"
#include "readtest/readtestview.h"
#include "testsupport.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProcess>
#include <QScreen>
#include <QScrollArea>
#include <QSlider>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <qcustomplot.h>

#include <cstdio>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QString describe(const QWidget *w)
{
    QString text;
    if (auto *b = qobject_cast<const QAbstractButton *>(w))
        text = b->text();
    else if (auto *l = qobject_cast<const QLabel *>(w))
        text = l->text().left(40);
    else if (auto *e = qobject_cast<const QLineEdit *>(w))
        text = e->placeholderText();
    const QString name = !w->accessibleName().isEmpty() ? w->accessibleName() : w->objectName();
    return QStringLiteral("%1 '%2'%3").arg(QString::fromLatin1(w->metaObject()->className()), text,
                                          name.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(name));
}

/// Inside a scroll area's viewport a control may lie out of sight: a
/// scroll brings it. Anything else that cuts it hides it for good.
bool clippedForGood(const QWidget *w, const QWidget *window)
{
    QRect r(w->mapTo(window, QPoint(0, 0)), w->size());
    for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
        if (auto *area = qobject_cast<const QAbstractScrollArea *>(p->parentWidget()); area && area->viewport() == p) {
            // Unless the area never scrolls that way: then what lies past
            // the viewport's edge is out of reach for good.
            const QRect view(p->mapTo(window, QPoint(0, 0)), p->size());
            const bool noSideways = area->horizontalScrollBarPolicy() == Qt::ScrollBarAlwaysOff;
            const bool noDownwards = area->verticalScrollBarPolicy() == Qt::ScrollBarAlwaysOff;
            return (noSideways && (r.left() < view.left() || r.right() > view.right()))
                   || (noDownwards && (r.top() < view.top() || r.bottom() > view.bottom()));
        }
        const QRect pr(p->mapTo(window, QPoint(0, 0)), p->size());
        if (!pr.contains(r))
            return true;
        if (p == window)
            break;
    }
    return false;
}

bool isControl(const QWidget *w)
{
    return qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QComboBox *>(w)
           || qobject_cast<const QLineEdit *>(w) || qobject_cast<const QAbstractSpinBox *>(w)
           || qobject_cast<const QSlider *>(w) || qobject_cast<const QAbstractItemView *>(w)
           || qobject_cast<const QTabBar *>(w);
}

bool insideScrollViewport(const QWidget *w)
{
    for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget())
        if (auto *area = qobject_cast<const QAbstractScrollArea *>(p->parentWidget()); area && area->viewport() == p)
            return !qobject_cast<const QAbstractItemView *>(area); // a control in a page that scrolls
    return false;
}

/// What is wrong with the controls and labels shown in `root`.
QStringList cutControls(QWidget *root, QWidget *window)
{
    QStringList problems;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisible() || w->width() <= 0 || qobject_cast<QScrollBar *>(w))
            continue;
        const QRect onWindow(w->mapTo(window, QPoint(0, 0)), w->size());
        const bool control = isControl(w);
        auto *label = qobject_cast<QLabel *>(w);
        if (!control && !label)
            continue;
        // A spin box's or a combo box's own line edit: its box is checked.
        if (qobject_cast<QLineEdit *>(w)
            && (qobject_cast<QAbstractSpinBox *>(w->parentWidget()) || qobject_cast<QComboBox *>(w->parentWidget())))
            continue;
        if (insideScrollViewport(w) && !window->rect().intersects(onWindow))
            continue; // scrolled out of sight: reachable
        if (control && !window->rect().contains(onWindow) && !insideScrollViewport(w))
            problems << QStringLiteral("%1 at %2,%3 %4x%5 lies outside the window").arg(describe(w))
                            .arg(onWindow.x()).arg(onWindow.y()).arg(onWindow.width()).arg(onWindow.height());
        else if (control && clippedForGood(w, window))
            problems << QStringLiteral("%1 is cut by its parent").arg(describe(w));
        const QSize least = w->minimumSizeHint();
        const bool ignoredWidth = w->sizePolicy().horizontalPolicy() == QSizePolicy::Ignored;
        if (control && !qobject_cast<QAbstractItemView *>(w) && !ignoredWidth
            && (w->width() < least.width() - 1 || w->height() < least.height() - 1))
            problems << QStringLiteral("%1 is %2x%3, needs %4x%5").arg(describe(w)).arg(w->width()).arg(w->height())
                            .arg(least.width()).arg(least.height());
        if (auto *edit = qobject_cast<QLineEdit *>(w); edit && !edit->placeholderText().isEmpty()) {
            const int text = edit->fontMetrics().horizontalAdvance(edit->placeholderText());
            if (edit->width() < text + 12)
                problems << QStringLiteral("%1 shows its placeholder cut (%2 px for %3)").arg(describe(w))
                                .arg(edit->width()).arg(text);
        }
        if (label && !label->wordWrap() && !ignoredWidth && !label->text().contains(u'<')
            && label->width() < label->sizeHint().width() - 1)
            problems << QStringLiteral("%1 is cut: %2 px of %3").arg(describe(w)).arg(label->width())
                            .arg(label->sizeHint().width());
    }
    return problems;
}

/// A plot whose axis labels do not fit beside its axis rects, or whose
/// rects are squashed flat.
QStringList unreadablePlots(QWidget *root)
{
    QStringList problems;
    for (QCustomPlot *plot : root->findChildren<QCustomPlot *>()) {
        if (!plot->isVisible())
            continue;
        plot->replot(QCustomPlot::rpImmediateRefresh);
        for (QCPAxisRect *rect : plot->axisRects()) {
            if (!rect->visible() || !rect->layout())
                continue;
            QCPAxis *left = rect->axis(QCPAxis::atLeft);
            const QString name = plot->objectName().isEmpty() ? plot->accessibleName() : plot->objectName();
            if (rect->height() < 40)
                problems << QStringLiteral("%1: a plot %2 px high ('%3')").arg(name).arg(rect->height())
                                .arg(left->label().section(u'\n', 0, 0));
            const QFontMetrics fm(left->labelFont());
            for (const QString &line : left->label().split(u'\n'))
                if (fm.horizontalAdvance(line) > rect->height() + left->padding())
                    problems << QStringLiteral("%1: axis label '%2' needs %3 px beside a plot %4 px high").arg(name, line)
                                    .arg(fm.horizontalAdvance(line)).arg(rect->height());
        }
    }
    return problems;
}

} // namespace

/// One screen, one language: run in a process of its own.
class FitChild : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    std::unique_ptr<MainWindow> m_window;

private Q_SLOTS:
    void initTestCase()
    {
        keepConsoleStateIn(m_home);
        installTranslations();
        m_window = std::make_unique<MainWindow>(recordedTree("md-raid10-f2"), u"md0"_qs);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(QTest::qWaitFor([&] { return m_window->isReady(); }, 30000));
        QTest::qWait(100);
    }

    void windowLiesOnTheScreen()
    {
        const QRect available = m_window->screen()->availableGeometry();
        // The window itself (a window manager's frame around it is not
        // counted: the offscreen platform has none to speak of).
        const QRect frame = m_window->geometry();
        QVERIFY2(frame.width() <= available.width() && frame.height() <= available.height(), qPrintable(QStringLiteral("the window %1,%2 %3x%4 on a screen of %5x%6")
                                                           .arg(frame.x()).arg(frame.y()).arg(frame.width())
                                                           .arg(frame.height()).arg(available.width())
                                                           .arg(available.height())));
        const QSize least = m_window->minimumSizeHint();
        QVERIFY2(least.width() <= available.width() && least.height() <= available.height(),
                 qPrintable(QStringLiteral("the window needs at least %1x%2").arg(least.width()).arg(least.height())));
    }

    void everyPageFits_data()
    {
        QTest::addColumn<int>("tab");
        for (int i = 0; i < 8; ++i)
            QTest::newRow(qPrintable(QStringLiteral("tab %1").arg(i + 1))) << i;
    }

    void everyPageFits()
    {
        QFETCH(int, tab);
        m_window->tabs()->setCurrentIndex(tab);
        QTest::qWait(50);
        QStringList problems = cutControls(m_window.get(), m_window.get());
        problems << unreadablePlots(m_window->tabs()->currentWidget());
        QVERIFY2(problems.isEmpty(), qPrintable(m_window->tabs()->tabText(tab) + u":\n  "_qs + problems.join(u"\n  "_qs)));
    }

    // After a test the stream cards come out above the plots; the Results
    // still show several rows and their export buttons.
    void readTestResultsShowRows()
    {
        ReadTestView *view = m_window->readTestView();
        m_window->tabs()->setCurrentWidget(view);
        view->findChild<QScrollArea *>(u"streamCards"_qs)->show();
        auto *table = view->findChild<QTableView *>(u"results"_qs);
        for (QTabWidget *tabs : view->findChildren<QTabWidget *>())
            if (tabs->indexOf(table->parentWidget()) >= 0)
                tabs->setCurrentIndex(tabs->indexOf(table->parentWidget()));
        QTest::qWait(50);
        const int rows = (table->viewport()->height()) / table->verticalHeader()->defaultSectionSize();
        QVERIFY2(rows >= 5, qPrintable(QStringLiteral("the Results table shows %1 rows").arg(rows)));
        const QStringList problems = cutControls(view, m_window.get());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"\n"_qs)));
    }

    void latencyHeatmapHasHeight()
    {
        MonitorView *monitor = m_window->monitorView();
        m_window->tabs()->setCurrentWidget(monitor);
        monitor->setLatencyShown(true);
        QTest::qWait(100);
        LatencyHeatmap *heatmap = monitor->latencyHeatmap();
        QVERIFY2(heatmap->height() >= 240, qPrintable(QStringLiteral("the heatmap is %1 px high").arg(heatmap->height())));
        QStringList problems = unreadablePlots(monitor);
        problems << cutControls(monitor, m_window.get());
        monitor->setLatencyShown(false);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"\n"_qs)));
    }

    void cleanupTestCase() { m_window.reset(); }
};

/// The rows: a screen and a language each, run in a child.
class TestLayoutFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pagesFit_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<QString>("scale");
        QTest::addColumn<QString>("lang");
        for (const QString &lang : {u"C.UTF-8"_qs, u"de_DE.UTF-8"_qs}) {
            const QString tag = lang.startsWith(u'C') ? u"English"_qs : u"German"_qs;
            QTest::newRow(qPrintable(u"1280x720 at 1x, "_qs + tag)) << QSize(1280, 720) << u"1"_qs << lang;
            QTest::newRow(qPrintable(u"1600x1000 at 1.5x, "_qs + tag)) << QSize(1600, 1000) << u"1.5"_qs << lang;
        }
    }

    void pagesFit()
    {
        QFETCH(QSize, screen);
        QFETCH(QString, scale);
        QFETCH(QString, lang);
        QTemporaryDir dir;
        QFile config(dir.filePath(u"screen.json"_qs));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("{\"screens\": [{\"name\": \"fit\", \"x\": 0, \"y\": 0, \"width\": %1, "
                                    "\"height\": %2, \"logicalDpi\": 96, \"dpr\": 1}]}")
                         .arg(screen.width()).arg(screen.height()).toUtf8());
        config.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"BLOCKTUNE_FIT_CHILD"_qs, u"1"_qs);
        env.insert(u"QT_QPA_PLATFORM"_qs, u"offscreen:configfile="_qs + config.fileName());
        env.insert(u"QT_SCALE_FACTOR"_qs, scale);
        env.insert(u"LANG"_qs, lang);
        for (const char *name : {"LANGUAGE", "LC_ALL", "LC_MESSAGES"})
            env.remove(QString::fromLatin1(name));
        QProcess child;
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForStarted(30000));
        QVERIFY(child.waitForFinished(180000));
        const QByteArray out = child.readAll();
        QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, out.constData());
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    if (qEnvironmentVariableIsSet("BLOCKTUNE_FIT_CHILD")) {
        FitChild child;
        return QTest::qExec(&child, argc, argv);
    }
    TestLayoutFit test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_layoutfit.moc"
