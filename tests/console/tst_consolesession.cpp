// The console's session thread and its jobs (core/console): a job runs on
// its view's thread, but every call it makes on the session is carried out
// on the session's own thread, and the panels' requests are answered
// between the job's calls. A backend that records the thread of each call
// it gets is the referee; the session is a copy of a recorded tree.
#include "sessionsupport.h"
#include "testsupport.h"

#include "console/consolesession.h"
#include "session/sessionbackend.h"

#include <QElapsedTimer>
#include <QFile>
#include <QMutex>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace blocktune;
using namespace blocktune::test;

namespace {

/// This machine's backend on the tree, noting the thread of every call it
/// gets. With holdWrites(), apply() waits until cancelPendingWrite() (as a
/// write waits for a pkexec prompt), then fails Interrupted.
class RecordingBackend final : public SessionBackend
{
public:
    explicit RecordingBackend(const SysRoot &root) : m_inner(makeLocalBackend(root)) {}

    QList<QThread *> threads() const
    {
        const QMutexLocker locker(&m_mutex);
        return m_threads;
    }
    void holdWrites() { m_hold = true; }
    bool waitingForWrite() const { return m_waiting.load(); }

    bool canMeasure() const override { return m_inner->canMeasure(); }
    QString writerDescription() const override { return m_inner->writerDescription(); }
    bool writerStarted() const override { return m_inner->writerStarted(); }
    void cancelPendingWrite() override
    {
        const std::lock_guard lock(m_cancelMutex);
        m_cancelled = true;
        m_cancel.notify_all();
    }
    Status reload() override { return note(), m_inner->reload(); }
    ChangeReport apply(const ChangePlan &plan, JournalMode mode) override
    {
        note();
        if (m_hold.load())
            return heldWrite(plan);
        return m_inner->apply(plan, mode);
    }
    RestoreReport restoreTemporary() override { return note(), m_inner->restoreTemporary(); }
    void keepTemporary() override { note(), m_inner->keepTemporary(); }
    RestoreReport revertAll() override { return note(), m_inner->revertAll(); }
    int temporaryCount() const override { return note(), m_inner->temporaryCount(); }
    int persistentCount() const override { return note(), m_inner->persistentCount(); }
    QString journalPath() const override { return note(), m_inner->journalPath(); }
    RememberedApply applyRemembered(const ChangePlan &plan, const QString &profile) override
    {
        return note(), m_inner->applyRemembered(plan, profile);
    }
    RememberedRevert revertRemembered() override { return note(), m_inner->revertRemembered(); }
    Result<std::optional<AppliedState>> appliedState() override { return note(), m_inner->appliedState(); }
    QString appliedStatePlace() override { return note(), m_inner->appliedStatePlace(); }
    QList<PendingJournal> deadJournals() override { return note(), m_inner->deadJournals(); }
    RestoreReport restoreJournal(const Journal &journal) override { return note(), m_inner->restoreJournal(journal); }
    Result<UdevRulesResult> changeUdevRules(RulesChange change, const QString &fileName,
                                            const QByteArray &content) override
    {
        return note(), m_inner->changeUdevRules(change, fileName, content);
    }

private:
    void note() const
    {
        const QMutexLocker locker(&m_mutex);
        m_threads << QThread::currentThread();
    }
    ChangeReport heldWrite(const ChangePlan &plan)
    {
        std::unique_lock lock(m_cancelMutex);
        m_waiting = true;
        const bool cancelled = m_cancel.wait_for(lock, std::chrono::seconds(20), [this] { return m_cancelled; });
        m_waiting = false;
        ChangeReport report = plannedReport(plan);
        report.error = makeError(Interrupted, cancelled ? QStringLiteral("cancelled") : QStringLiteral("never cancelled"));
        return report;
    }

    std::unique_ptr<SessionBackend> m_inner;
    mutable QMutex m_mutex;
    mutable QList<QThread *> m_threads;
    std::atomic_bool m_hold{false};
    std::atomic_bool m_waiting{false};
    std::mutex m_cancelMutex;
    std::condition_variable m_cancel;
    bool m_cancelled = false;
};

QString readAttr(const QString &root, const QString &rel)
{
    QFile f(root + QStringLiteral("/sys/class/block/") + rel);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

SettingChange readAhead(quint64 kib)
{
    return SettingChange{QStringLiteral("sdb"), QStringLiteral("read_ahead_kb"), SettingValue(kib)};
}

/// A thread of a view's own, with an object on it to run jobs on.
struct JobThread
{
    JobThread()
    {
        thread.setObjectName(QStringLiteral("test job"));
        context.moveToThread(&thread);
        thread.start();
    }
    ~JobThread()
    {
        thread.quit();
        thread.wait();
    }
    QThread thread;
    QObject context;
};

/// Waits on a job's thread without running its events (qWaitFor would run
/// the thread's queued jobs inside this one).
template<typename P>
bool waitHere(P done, int timeoutMs)
{
    QElapsedTimer waited;
    waited.start();
    while (!done()) {
        if (waited.elapsed() > timeoutMs)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

bool finished(const QSignalSpy &spy, quint64 ticket)
{
    return std::any_of(spy.cbegin(), spy.cend(), [ticket](const QList<QVariant> &a) { return a.at(0).toULongLong() == ticket; });
}

} // namespace

class TestConsoleSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_journals.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
        QVERIFY(m_dir.isValid());
        m_root = m_dir.path() + QStringLiteral("/") + QString::fromLatin1(QTest::currentTestFunction());
        QVERIFY(QDir().mkpath(m_root));
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), m_root));
        QCOMPARE(readAttr(m_root, QStringLiteral("sdb/queue/read_ahead_kb")), QStringLiteral("128"));
    }

    // A job runs on its view's thread; what it asks of the session (a
    // temporary change, its journal, the restore) is done on the session's
    // thread, and the change it made is told once, folded, under its ticket.
    void everySessionCallOfAJobRunsOnTheSessionThread()
    {
        auto backend = std::make_shared<RecordingBackend>(SysRoot(m_root));
        SessionOptions options;
        options.backend = backend;
        ConsoleSession session{SysRoot(m_root), options};
        QVERIFY(waitForModel(session));
        QThread *const sessionThread = session.worker()->thread();
        const qsizetype before = backend->threads().size();

        JobThread view;
        QThread *ranOn = nullptr;
        QString seen, journal;
        bool held = false, restored = false;
        QSignalSpy finishedSpy(&session, &ConsoleSession::jobFinished);
        QSignalSpy happened(&session, &ConsoleSession::happened);
        const quint64 ticket = session.runJob(&view.context, [&](const SessionJobContext &job) {
            ranOn = QThread::currentThread();
            const ChangeReport report = job.session.applyTemporary({readAhead(512)});
            seen = report.ok() ? readAttr(m_root, QStringLiteral("sdb/queue/read_ahead_kb")) : report.error->message;
            journal = job.session.journalPath();
            held = job.session.holdsTemporary();
            restored = job.session.restoreTemporary().ok();
        });
        QVERIFY(QTest::qWaitFor([&] { return finished(finishedSpy, ticket); }, 30000));

        QCOMPARE(ranOn, &view.thread);
        QCOMPARE(seen, QStringLiteral("512"));
        QVERIFY(!journal.isEmpty());
        QVERIFY(held);
        QVERIFY(restored);
        QCOMPARE(readAttr(m_root, QStringLiteral("sdb/queue/read_ahead_kb")), QStringLiteral("128"));
        const QList<QThread *> threads = backend->threads().mid(before);
        QVERIFY2(threads.size() >= 4, qPrintable(QStringLiteral("%1 backend calls").arg(threads.size())));
        for (QThread *t : threads)
            QVERIFY2(t == sessionThread, qPrintable(QStringLiteral("a backend call on thread '%1', not the session's")
                                                        .arg(t ? t->objectName() : QStringLiteral("?"))));
        QCOMPARE(happened.size(), 1);
        const auto event = happened.at(0).at(0).value<SessionEvent>();
        QCOMPARE(event.kind, SessionEvent::Kind::Measured);
        QCOMPARE(event.ticket, ticket);
    }

    // While a job holds a temporary change and waits between its calls (a
    // sweep's point measuring), the settings panel's read is answered, and
    // it shows the job's value: the job did not hold the session thread.
    void settingsAreAnsweredBetweenAJobsCalls()
    {
        ConsoleSession session{SysRoot(m_root)};
        QVERIFY(waitForModel(session));
        JobThread view;
        std::atomic_bool changed{false}, answered{false};
        bool sawAnswer = false;
        QSignalSpy finishedSpy(&session, &ConsoleSession::jobFinished);
        const quint64 ticket = session.runJob(&view.context, [&](const SessionJobContext &job) {
            if (!job.session.applyTemporary({readAhead(1024)}).ok())
                return;
            changed = true;
            sawAnswer = waitHere([&] { return answered.load(); }, 10000);
            job.session.restoreTemporary();
        });
        QVERIFY(QTest::qWaitFor([&] { return changed.load(); }, 30000));

        QSignalSpy read(session.worker(), &SessionWorker::settingsRead);
        const quint64 asked = session.readSettings(QStringLiteral("sdb"));
        // (wait() would miss an answer that came before it: the session's
        // thread answers at once on a quiet machine)
        const bool readAnswered = QTest::qWaitFor([&] { return !read.isEmpty(); }, 5000);
        answered = true; // lets the job end on either path
        QVERIFY(readAnswered);
        QVERIFY2(!finished(finishedSpy, ticket), "the read was answered only after the job ended");
        QCOMPARE(read.at(0).at(0).toULongLong(), asked);
        const auto reply = read.at(0).at(1).value<SettingsReply>();
        QVERIFY2(reply.settings.has_value(), qPrintable(reply.error));
        QCOMPARE(reply.settings->readAheadKiB, std::optional<quint64>(1024));

        QVERIFY(QTest::qWaitFor([&] { return finished(finishedSpy, ticket); }, 30000));
        QVERIFY(sawAnswer);
        QCOMPARE(readAttr(m_root, QStringLiteral("sdb/queue/read_ahead_kb")), QStringLiteral("128"));
    }

    // A job's write that waits (a pkexec prompt) holds the session thread;
    // the GUI thread's cancelPendingWrite() still reaches it, and the job
    // gets the failure back.
    void cancelReachesAJobsWriteWaitingOnTheSessionThread()
    {
        auto backend = std::make_shared<RecordingBackend>(SysRoot(m_root));
        backend->holdWrites();
        SessionOptions options;
        options.backend = backend;
        ConsoleSession session{SysRoot(m_root), options};
        QVERIFY(waitForModel(session));
        JobThread view;
        std::optional<ChangeReport> report;
        QSignalSpy finishedSpy(&session, &ConsoleSession::jobFinished);
        const quint64 ticket = session.runJob(&view.context, [&](const SessionJobContext &job) {
            report = job.session.applyTemporary({readAhead(2048)});
        });
        QVERIFY(QTest::qWaitFor([&] { return backend->waitingForWrite(); }, 30000));
        QElapsedTimer cancelled;
        cancelled.start();
        session.cancelPendingWrite();
        QVERIFY(QTest::qWaitFor([&] { return finished(finishedSpy, ticket); }, 30000));
        QVERIFY2(cancelled.elapsed() < 5000, qPrintable(QStringLiteral("%1 ms").arg(cancelled.elapsed())));
        QVERIFY(report);
        QVERIFY(report->error);
        QCOMPARE(report->error->message, QStringLiteral("cancelled"));
    }

    // A job still running when the console goes (it should not, but a
    // window may close mid-job): its next call fails at once instead of
    // waiting for a thread that is gone.
    void aCallAfterTheSessionWentFailsInsteadOfWaiting()
    {
        auto session = std::make_unique<ConsoleSession>(SysRoot(m_root));
        QVERIFY(waitForModel(*session));
        JobThread view;
        std::atomic_bool started{false}, sessionGone{false}, done{false};
        std::optional<ChangeReport> report;
        session->runJob(&view.context, [&](const SessionJobContext &job) {
            started = true;
            waitHere([&] { return sessionGone.load(); }, 10000);
            report = job.session.applyTemporary({readAhead(4096)});
            done = true;
        });
        QVERIFY(QTest::qWaitFor([&] { return started.load(); }, 30000));
        session.reset();
        sessionGone = true;
        QVERIFY(QTest::qWaitFor([&] { return done.load(); }, 30000));
        QVERIFY(report);
        QVERIFY(!report->ok());
        QVERIFY2(report->error->message.contains(u"ended"), qPrintable(report->error->message));
        QCOMPARE(readAttr(m_root, QStringLiteral("sdb/queue/read_ahead_kb")), QStringLiteral("128"));
    }

    // A job given a context on the session thread itself runs there, its
    // calls at once: queued, each would wait for the thread it blocks.
    void aJobOnTheSessionThreadDoesNotWaitForItself()
    {
        ConsoleSession session{SysRoot(m_root)};
        QVERIFY(waitForModel(session));
        std::atomic_bool done{false};
        QString seen;
        QSignalSpy finishedSpy(&session, &ConsoleSession::jobFinished);
        const quint64 ticket = session.runJob(session.worker(), [&](const SessionJobContext &job) {
            const ChangeReport report = job.session.applyTemporary({readAhead(256)});
            seen = report.ok() ? readAttr(m_root, QStringLiteral("sdb/queue/read_ahead_kb")) : report.error->message;
            job.session.restoreTemporary();
            done = true;
        });
        QVERIFY2(QTest::qWaitFor([&] { return finished(finishedSpy, ticket); }, 10000), "the job waits for itself");
        QVERIFY(done);
        QCOMPARE(seen, QStringLiteral("256"));
        QCOMPARE(readAttr(m_root, QStringLiteral("sdb/queue/read_ahead_kb")), QStringLiteral("128"));
    }

private:
    QTemporaryDir m_journals;
    QTemporaryDir m_dir;
    QString m_root;
};

QTEST_GUILESS_MAIN(TestConsoleSession)
#include "tst_consolesession.moc"
