#include "readtestworker.h"

#include "measurer.h"

namespace blocktune {

ReadTestWorker::ReadTestWorker(const std::atomic_bool *cancel, QObject *parent) : QObject(parent), m_cancel(cancel)
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

void ReadTestWorker::runTest(Measurer &measurer, const ReadTest &test)
{
    Q_EMIT testFinished(measurer.runReadTest(test, observer(), m_cancel));
}

void ReadTestWorker::runSweep(SessionPort &session, Measurer &measurer, const ReadaheadSweep &sweep)
{
    SweepObserver obs;
    obs.test = observer();
    obs.pointStarted = [this](int index, quint64 kib) { Q_EMIT pointStarted(index, kib); };
    obs.pointFinished = [this](const SweepPoint &point) { Q_EMIT pointFinished(point); };
    Q_EMIT sweepFinished(measurer.runSweep(session, sweep, obs, m_cancel));
}

} // namespace blocktune
