// The console's read test view: refusals without root on a recorded tree;
// a test, a sweep and a stop on the test's own loop device with root.
#include "readtest/readtestview.h"
#include "common/sysroot.h"
#include "sessionsupport.h"
#include "testsupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QDir>
#include <QTest>

#include <memory>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QString queueAttr(const QString &dev, const char *attr)
{
    const SysRoot root;
    auto v = root.readString(root.sysPath(QByteArray("block/" + dev.toLatin1() + "/queue/" + attr)));
    return v ? *v : QString();
}

bool setQueueAttr(const QString &dev, const char *attr, const QString &value)
{
    const SysRoot root;
    return root.writeAttribute(root.sysPath(QByteArray("block/" + dev.toLatin1() + "/queue/" + attr)), value).ok();
}

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

/// A 64 MiB direct-I/O loop device of known contents, with sane queue
/// settings (a previous user's may linger on a loop device) put back
/// before it is detached.
class ViewLoop final
{
public:
    ViewLoop() : m_loop(64 << 20, true, QByteArray(1 << 20, '\x5a'))
    {
        if (!m_loop.isValid())
            return;
        for (const char *attr : {"read_ahead_kb", "max_sectors_kb"})
            m_saved.append({attr, queueAttr(m_loop.name(), attr)});
        m_ok = setQueueAttr(m_loop.name(), "max_sectors_kb", queueAttr(m_loop.name(), "max_hw_sectors_kb"))
            && setQueueAttr(m_loop.name(), "read_ahead_kb", QStringLiteral("128"));
    }
    ~ViewLoop()
    {
        for (const auto &[attr, value] : m_saved)
            setQueueAttr(m_loop.name(), attr, value);
    }
    Q_DISABLE_COPY_MOVE(ViewLoop)
    bool isValid() const { return m_ok; }
    QString name() const { return m_loop.name(); }

private:
    LoopDevice m_loop;
    QList<std::pair<const char *, QString>> m_saved;
    bool m_ok = false;
};

} // namespace

class TestReadTestView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_journals;

private Q_SLOTS:
    void initTestCase()
    {
        // Sweeps journal here, never beside another session's journals.
        QVERIFY(m_journals.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
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
        SessionThread session{SysRoot(recordedTree("nvme-parts"))};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session);
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

    void noDeviceNoStart()
    {
        SessionThread session{SysRoot(recordedTree("nvme-parts"))};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session);
        QVERIFY(!view.start());
    }

    // A recorded tree has no /dev: the run fails cleanly and says why.
    void recordedTreeRunFailsCleanly()
    {
        SessionThread session{SysRoot(recordedTree("nvme-parts"))};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session);
        view.setDevice(QStringLiteral("nvme0n1"));
        configure(view, QStringLiteral("seq"), QStringLiteral("64K"), QStringLiteral("1M"), 3);
        QSignalSpy finished(&view, &ReadTestView::finished);
        QVERIFY(view.start());
        QVERIFY(view.isRunning());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(view.reportText().contains(QStringLiteral("cannot open")), qPrintable(view.reportText()));
    }

    void runsTestAndShowsRuns()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        ViewLoop loop;
        QVERIFY(loop.isValid());
        SessionThread session{SysRoot()};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session);
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
    }

    void sweepDrawsTheCurveAndRestores()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        ViewLoop loop;
        QVERIFY(loop.isValid());
        SessionThread session{SysRoot()};
        QVERIFY(waitForModel(session));
        ReadTestView view(&session);
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
        ViewLoop loop;
        QVERIFY(loop.isValid());
        SessionThread session{SysRoot()};
        QVERIFY(waitForModel(session));
        auto view = std::make_unique<ReadTestView>(&session);
        view->setDevice(loop.name());
        // Readahead 4 KiB over 64 MiB of 4 KiB reads: seconds of work.
        configure(*view, QStringLiteral("seq"), QStringLiteral("4K"), QString(), 1, QStringLiteral("4,8"));
        QSignalSpy finished(view.get(), &ReadTestView::finished);
        QSignalSpy progressed(view.get(), &ReadTestView::progressed);
        QVERIFY(view->start());
        QVERIFY(progressed.wait(10000));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QStringLiteral("4"));
        QElapsedTimer t;
        t.start();
        view->stop();
        QVERIFY(finished.wait(5000));
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(view->reportText().contains(QStringLiteral("(interrupted)")), qPrintable(view->reportText()));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QStringLiteral("128"));

        QVERIFY(view->start());
        QVERIFY(progressed.wait(10000));
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QStringLiteral("4"));
        view.reset(); // closing the console mid-sweep
        QCOMPARE(queueAttr(loop.name(), "read_ahead_kb"), QStringLiteral("128"));
        QVERIFY(QDir(m_journals.path()).entryList(QDir::Files).isEmpty());
    }
};

QTEST_MAIN(TestReadTestView)
#include "tst_readtestview.moc"
