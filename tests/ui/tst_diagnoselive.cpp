// The console's Diagnose view watching the running workload (issue 40's
// findings from the live workload, in the console), as a user sees it: on a
// writable copy of the nvme-parts recording, with a machine whose readahead
// source is made up (the bursts of short reads that waste readahead, counted
// on nvme0n1p2 and so for nvme0n1). The findings come with their evidence
// and the read_ahead_kb they name; where the machine cannot be watched the
// choice stays on screen, disabled, saying why; Cancel stops the watch and
// writes nothing; Apply shows the change first and writes only once it is
// accepted.
#include "diagnoseview.h"
#include "previewsupport.h"
#include "sessionsupport.h"
#include "testsupport.h"

#include "advisor/advisor.h"
#include "console/consolesession.h"
#include "machine/machine.h"

#include <QCheckBox>
#include <QFile>
#include <QFrame>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QString readAttr(const QString &root, const QString &rel)
{
    QFile f(root + QStringLiteral("/sys/class/block/") + rel);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

/// What the fake sources did, seen from the test's thread.
struct SourceLog
{
    std::atomic_int opened{0};
    std::atomic_int snapshots{0};
    std::atomic_int alive{0};
};

/// Short bursts on nvme0n1p2 (whose disk's read_ahead_kb, 128, governs
/// them): 500 sync windows of 4 pages, 500 async of 32, 24,008 pages read
/// ahead of which 8,000 were used and 16,008 evicted unused. Used per stream:
/// 8,000 x 4 KiB / 500 = 64 KiB, so readahead_wasted names 64.
DeviceReadaheadCounters wastefulBursts()
{
    DeviceReadaheadCounters c;
    ReadaheadKindCounters &s = c.of(ReadaheadKind::Sync);
    s.windows = s.missWindows = 500;
    s.sizes[4] = 500;
    ReadaheadKindCounters &a = c.of(ReadaheadKind::Async);
    a.windows = 500;
    a.sizes[32] = 500;
    a.pagesReadAhead = 24008;
    a.pagesUsed = 8000;
    a.pagesWasted = 16008;
    a.wait.counts[8] = 8000;
    return c;
}

class FakeSource final : public ReadaheadSource
{
public:
    explicit FakeSource(SourceLog *log) : m_log(log) { ++m_log->alive; }
    ~FakeSource() override { --m_log->alive; }
    Q_DISABLE_COPY_MOVE(FakeSource)

    Result<ReadaheadSnapshot> snapshot() override
    {
        ReadaheadSnapshot s;
        s.takenMs = 1000 + 1000 * m_log->snapshots;
        if (m_log->snapshots++ > 0)
            s.devices.insert(deviceNumber(259, 2), wastefulBursts());
        return s;
    }
    ReadaheadCoverage coverage() const override { return {}; }

private:
    SourceLog *m_log;
};

/// The recorded tree's machine, but its readahead can be watched (a fake
/// source), or not (`why`).
class WatchedMachine final : public Machine
{
public:
    WatchedMachine(SysRoot root, SourceLog *log, QString why = {})
        : m_root(std::move(root)), m_log(log), m_why(std::move(why))
    {
    }
    QString displayName() const override { return m_root.root(); }
    const SysRoot &root() const override { return m_root; }
    SessionOptions sessionOptions() const override { return {}; }
    MachineCapabilities capabilities() const override
    {
        MachineCapabilities c;
        c.write = true;
        c.readaheadProbe = m_why.isEmpty();
        c.noReadaheadProbe = m_why;
        return c;
    }
    std::shared_ptr<Measurer> measurer() const override { return makeLocalMeasurer(m_root); }
    QString historyPath() const override { return QStringLiteral("/nonexistent/history.sqlite"); }
    bool refreshHistory(QObject *, std::function<void(const QString &)>) override { return false; }
    std::shared_ptr<ProfileLibrary> profiles() const override { return {}; }
    QString profileUserDir() const override { return {}; }
    DeviceEvents *watchDevices(QObject *) override { return nullptr; }
    Result<std::unique_ptr<ReadaheadSource>> openReadaheadSource() const override
    {
        if (!m_why.isEmpty())
            return makeError(NotSupported, m_why);
        ++m_log->opened;
        return std::unique_ptr<ReadaheadSource>(std::make_unique<FakeSource>(m_log));
    }

private:
    SysRoot m_root;
    SourceLog *m_log;
    QString m_why;
};

QString statusText(const DiagnoseView &view)
{
    QStringList texts;
    for (const QLabel *l : view.findChildren<QLabel *>())
        if (!l->isHidden())
            texts << l->text();
    return texts.join(u'\n');
}

/// The evidence table's value of the row labelled `label`, or empty.
QString evidenceValue(const QFrame *card, const QString &label)
{
    const auto *table = card->findChild<QTableWidget *>(u"evidence"_qs);
    for (int r = 0; table && r < table->rowCount(); ++r)
        if (table->item(r, 0)->text() == label)
            return table->item(r, 1)->text();
    return {};
}

} // namespace

class TestDiagnoseLive : public QObject
{
    Q_OBJECT

    QTemporaryDir m_journals;
    QTemporaryDir m_tree;

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
        QVERIFY(copyTree(recordedTree("nvme-parts"), m_tree.path()));
    }

    void init() { QCOMPARE(readAttr(m_tree.path(), u"nvme0n1/queue/read_ahead_kb"_qs), u"128"_qs); }

    // Watched for a second: the countdown runs, then the card of
    // readahead_wasted with its evidence and the value it names (64 of 128),
    // the summary of what was counted, and the probe is gone. Then Apply:
    // the preview comes first, and nothing is written until it is accepted.
    void findingsWithTheirValueAndApplyPreviewsFirst()
    {
        SourceLog log;
        WatchedMachine machine{SysRoot(m_tree.path()), &log};
        ConsoleSession session{SysRoot(m_tree.path()), SessionOptions{}};
        QVERIFY(waitForModel(session));
        DiagnoseView view(&session, machine);
        view.resize(1100, 800);
        view.show();
        view.setDevice(u"nvme0n1"_qs);
        auto *watch = view.findChild<QCheckBox *>(u"watchLive"_qs);
        QVERIFY(watch && watch->isEnabled());
        QVERIFY(view.liveDisabledReason().isEmpty());
        QVERIFY(view.findChild<QLabel *>(u"diagnoseIntro"_qs)->text().contains(u"no read of its own"_qs));
        // One choice: static checks only (all a recording measures) goes off.
        auto *staticOnly = view.findChild<QCheckBox *>(u"staticOnly"_qs);
        QVERIFY(staticOnly->isChecked());
        watch->setChecked(true);
        QVERIFY(!staticOnly->isChecked() && !staticOnly->isEnabled());
        watch->setChecked(false);
        QVERIFY(staticOnly->isChecked());
        watch->setChecked(true);
        view.findChild<QSpinBox *>(u"watchSeconds"_qs)->setValue(5);
        QSignalSpy done(&view, &DiagnoseView::finished);
        QVERIFY(view.runLive(1));
        QVERIFY(view.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(view.isWatching(), 30000);
        QVERIFY2(statusText(view).contains(u" left (blocktune reads nothing"_qs), qPrintable(statusText(view)));
        QVERIFY(view.findChild<QProgressBar *>()->isVisible());
        QVERIFY(done.wait(20000));
        QVERIFY2(done.takeFirst().at(0).toBool(), qPrintable(statusText(view)));
        QCOMPARE(log.opened.load(), 1);
        QCOMPARE(log.snapshots.load(), 2);
        QCOMPARE(log.alive.load(), 0); // unloaded before the answer came

        QVERIFY2(view.findingCodes().contains(u"readahead_wasted"_qs), qPrintable(view.findingCodes().join(u' ')));
        auto *card = view.findChild<QFrame *>(u"readahead_wasted"_qs);
        QVERIFY(card);
        QTRY_VERIFY(card->isVisible());
        QStringList cardTexts;
        for (const QLabel *l : card->findChildren<QLabel *>())
            cardTexts << l->text();
        QVERIFY2(cardTexts.contains(u"Fix: read_ahead_kb = 64"_qs), qPrintable(cardTexts.join(u'\n')));
        QCOMPARE(evidenceValue(card, u"Readahead"_qs), u"128 KiB"_qs);
        QCOMPARE(evidenceValue(card, u"Used per stream"_qs), u"64 KiB"_qs);
        QVERIFY(!evidenceValue(card, u"Pages evicted unused"_qs).isEmpty());
        // The readahead first, the figures, then the thresholds.
        const auto *table = card->findChild<QTableWidget *>(u"evidence"_qs);
        QCOMPARE(table->item(0, 0)->toolTip(), u"read_ahead_kb"_qs);
        QCOMPARE(table->item(table->rowCount() - 1, 0)->toolTip(), u"threshold_wasted_pct"_qs);
        auto *summary = view.findChild<QLabel *>(u"liveSummary"_qs);
        QVERIFY(summary && !summary->isHidden());
        QVERIFY2(summary->text().contains(u"Diagnose read nothing itself"_qs), qPrintable(summary->text()));
        QVERIFY2(summary->text().contains(u"500 async"_qs), qPrintable(summary->text()));
        QVERIFY2(statusText(view).contains(u"no reads of ours"_qs), qPrintable(statusText(view)));

        // Apply: the preview first; declined, nothing is written.
        auto *apply = card->findChild<QPushButton *>(u"applyFix"_qs);
        QVERIFY(apply && apply->isEnabled());
        apply->click();
        ChangePreviewDialog *preview = readyPreview();
        QVERIFY(preview);
        QCOMPARE(preview->plan().writes.size(), 1);
        QCOMPARE(preview->plan().writes.first().device, u"nvme0n1"_qs);
        QCOMPARE(preview->plan().writes.first().value, u"64"_qs);
        QCOMPARE(preview->plan().writes.first().current, u"128"_qs);
        QCOMPARE(readAttr(m_tree.path(), u"nvme0n1/queue/read_ahead_kb"_qs), u"128"_qs);
        preview->reject();
        QTRY_VERIFY(statusText(view).contains(u"Nothing was changed."_qs));
        QCOMPARE(readAttr(m_tree.path(), u"nvme0n1/queue/read_ahead_kb"_qs), u"128"_qs);

        // Accepted, the value the card named is written, to the disk.
        apply->click();
        QVERIFY(acceptPreview());
        QVERIFY(done.wait(20000)); // checked again after the write
        QCOMPARE(readAttr(m_tree.path(), u"nvme0n1/queue/read_ahead_kb"_qs), u"64"_qs);
        // Put back for the next test.
        QFile f(m_tree.path() + u"/sys/class/block/nvme0n1/queue/read_ahead_kb"_qs);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("128");
    }

    // Cancel while watching: it stops at once, states no findings from the
    // shortened watch, unloads the source and writes nothing.
    void cancelStopsAndWritesNothing()
    {
        SourceLog log;
        WatchedMachine machine{SysRoot(m_tree.path()), &log};
        ConsoleSession session{SysRoot(m_tree.path()), SessionOptions{}};
        QVERIFY(waitForModel(session));
        QSignalSpy events(&session, &ConsoleSession::happened);
        DiagnoseView view(&session, machine);
        view.show();
        view.setDevice(u"nvme0n1"_qs);
        QSignalSpy done(&view, &DiagnoseView::finished);
        QVERIFY(view.runLive(600));
        QTRY_VERIFY_WITH_TIMEOUT(view.isWatching(), 30000);
        auto *cancel = [&] {
            for (QPushButton *b : view.findChildren<QPushButton *>())
                if (b->text() == u"Cancel"_qs)
                    return b;
            return static_cast<QPushButton *>(nullptr);
        }();
        QVERIFY(cancel && cancel->isEnabled());
        cancel->click();
        QVERIFY(done.wait(5000)); // not the 600 s asked for
        QVERIFY(!done.takeFirst().at(0).toBool());
        QVERIFY(!view.isRunning());
        QVERIFY(view.findingCodes().isEmpty());
        QVERIFY(!view.findChild<QFrame *>(u"readahead_wasted"_qs));
        QVERIFY2(statusText(view).contains(u"Stopped watching nvme0n1"_qs), qPrintable(statusText(view)));
        QVERIFY(statusText(view).contains(u"nothing was read or changed"_qs));
        QCOMPARE(log.alive.load(), 0);
        QCOMPARE(readAttr(m_tree.path(), u"nvme0n1/queue/read_ahead_kb"_qs), u"128"_qs);
        QCOMPARE(session.state().persistent, 0);
        QCOMPARE(session.state().temporary, 0);
        QVERIFY(events.isEmpty());
    }

    // Where the machine cannot be watched, the choice is on screen, disabled,
    // and says why (its tooltip and the line of what Diagnose does); asked
    // anyway, it refuses with the same words and opens nothing.
    void refusedWhereTheMachineCannotBeWatched()
    {
        SourceLog log;
        const QString why = u"a recorded tree (--sysroot) has no running kernel or workload to watch"_qs;
        WatchedMachine machine{SysRoot(m_tree.path()), &log, why};
        ConsoleSession session{SysRoot(m_tree.path()), SessionOptions{}};
        QVERIFY(waitForModel(session));
        DiagnoseView view(&session, machine);
        view.show();
        view.setDevice(u"nvme0n1"_qs);
        QCOMPARE(view.liveDisabledReason(), why);
        auto *watch = view.findChild<QCheckBox *>(u"watchLive"_qs);
        QVERIFY(watch);
        QVERIFY(watch->isVisible());
        QVERIFY(!watch->isEnabled());
        QVERIFY2(watch->toolTip().contains(why), qPrintable(watch->toolTip()));
        QVERIFY(!view.findChild<QSpinBox *>(u"watchSeconds"_qs)->isEnabled());
        const QString intro = view.findChild<QLabel *>(u"diagnoseIntro"_qs)->text();
        QVERIFY2(intro.contains(u"Watching the running workload is not possible here: "_qs + why), qPrintable(intro));
        QVERIFY(!view.runLive(5));
        QVERIFY(!view.isRunning());
        QVERIFY2(statusText(view).contains(why), qPrintable(statusText(view)));
        QCOMPARE(log.opened.load(), 0);
    }
};

QTEST_MAIN(TestDiagnoseLive)
#include "tst_diagnoselive.moc"
