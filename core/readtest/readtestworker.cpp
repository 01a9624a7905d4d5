#include "readtestworker.h"

#include "session/session.h"

namespace blocktune {

ReadTestWorker::ReadTestWorker(TuningSession &session, const std::atomic_bool *cancel, QObject *parent)
    : QObject(parent), m_session(session), m_cancel(cancel)
{
    qRegisterMetaType<ReadTestProgress>();
    qRegisterMetaType<RunResult>();
    qRegisterMetaType<ReadTestResult>();
    qRegisterMetaType<SweepPoint>();
    qRegisterMetaType<SweepResult>();
}

ReadTestWorker::~ReadTestWorker() = default;

ReadTestObserver ReadTestWorker::observer()
{
    ReadTestObserver o;
    o.progress = [this](int run, const QString &label, const QList<IntervalSample> &fresh, const QStringList &names) {
        Q_EMIT progressed(ReadTestProgress{run, label, names, fresh});
    };
    o.runFinished = [this](const RunResult &run) { Q_EMIT runFinished(run); };
    return o;
}

void ReadTestWorker::runTest(const ReadTest &test)
{
    // A remote session's test runs on its host (the same engine there).
    HostMeasurements *host = m_session.hostMeasurements();
    const ReadTestResult result = host ? host->runReadTest(test.spec(), observer(), m_cancel)
                                       : test.run(observer(), m_cancel);
    Q_EMIT testFinished(result);
}

void ReadTestWorker::runSweep(const ReadaheadSweep &sweep)
{
    SweepObserver obs;
    obs.test = observer();
    obs.pointStarted = [this](int index, quint64 kib) { Q_EMIT pointStarted(index, kib); };
    obs.pointFinished = [this](const SweepPoint &point) { Q_EMIT pointFinished(point); };
    HostMeasurements *host = m_session.hostMeasurements();
    const SweepResult result = host ? host->runSweep(sweep.spec(), obs, m_cancel) : sweep.run(m_session, obs, m_cancel);
    Q_EMIT sweepFinished(result);
}

} // namespace blocktune
