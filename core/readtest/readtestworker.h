#pragma once
// The read tests' worker (beside the monitor's in core/monitor): runs a test
// or a sweep on the thread it was moved to, as a job of the console's
// session (ConsoleSession::runJob hands it the session's port, whose calls
// run on the session thread, and its measurer for the run), and reports by
// queued signals carrying value structs. The reads themselves run here, on
// this thread; only a sweep's set and restore of read_ahead_kb go to the
// session. The I/O loop itself is plain C++ (engine.cpp).

#include "readtest.h"

#include <QObject>

#include <atomic>

namespace blocktune {

class Measurer;
class SessionPort;

/// Live intervals of one run, as the engine delivers them (~10 per second).
struct ReadTestProgress
{
    int run = 0;
    QString label;
    QStringList names;
    QList<IntervalSample> samples;
};

class ReadTestWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReadTestWorker)

public:
    /// `cancel` is checked after every block.
    explicit ReadTestWorker(const std::atomic_bool *cancel, QObject *parent = nullptr);
    ~ReadTestWorker() override;

    /// Here or on the host, as `measurer` measures.
    void runTest(blocktune::Measurer &measurer, const blocktune::ReadTest &test);
    /// Each point set through `session` (the console's one session, so the
    /// helper is started and authorized once) and restored on every path.
    void runSweep(blocktune::SessionPort &session, blocktune::Measurer &measurer,
                  const blocktune::ReadaheadSweep &sweep);

Q_SIGNALS:
    void progressed(const blocktune::ReadTestProgress &progress);
    void runFinished(const blocktune::RunResult &run);
    void pointStarted(int index, quint64 readAheadKiB);
    void testFinished(const blocktune::ReadTestResult &result);
    void pointFinished(const blocktune::SweepPoint &point);
    void sweepFinished(const blocktune::SweepResult &result);

private:
    ReadTestObserver observer();

    const std::atomic_bool *m_cancel;
};

} // namespace blocktune

Q_DECLARE_METATYPE(blocktune::ReadTestProgress)
Q_DECLARE_METATYPE(blocktune::RunResult)
Q_DECLARE_METATYPE(blocktune::ReadTestResult)
Q_DECLARE_METATYPE(blocktune::SweepPoint)
Q_DECLARE_METATYPE(blocktune::SweepResult)
