#include "monitor.h"

#include "helperlatency.h"

#include "common/tr.h"

#include <QThread>
#include <QTimer>

#include <algorithm>

#include <unistd.h>

namespace blocktune {

namespace {

void registerTypes()
{
    qRegisterMetaType<blocktune::Sample>();
    qRegisterMetaType<blocktune::GroupSpec>();
    qRegisterMetaType<QList<blocktune::GroupSpec>>();
}

} // namespace

MonitorWorker::MonitorWorker(const QString &sysroot, QObject *parent)
    : MonitorWorker(sysroot, std::make_unique<ProcSource>(SysRoot(sysroot)),
                    std::make_unique<SteadyClock>(), parent)
{
}

MonitorWorker::MonitorWorker(const QString &sysroot, std::unique_ptr<CounterSource> source,
                             std::unique_ptr<Clock> clock, QObject *parent)
    : QObject(parent), m_loop(SysRoot(sysroot), std::move(source), std::move(clock))
{
    registerTypes();
}

/// What the readahead loader's thread hands back.
struct MonitorWorker::ReadaheadLoad
{
    std::optional<Result<std::unique_ptr<ReadaheadSource>>> result;
};

MonitorWorker::~MonitorWorker()
{
    // A loader still running holds the machine's call: wait for it (its
    // source, if any, is then destroyed with m_readaheadLoad: unloaded).
    if (m_readaheadLoading) {
        m_readaheadLoading->wait();
        delete m_readaheadLoading;
    }
}

void MonitorWorker::start(int intervalMs)
{
    if (intervalMs < 10 || intervalMs > 3'600'000) {
        Q_EMIT failed(MonitorText::tr("monitor interval %1 ms is out of range (10 ms to 1 h)").arg(intervalMs));
        return;
    }
    if (!m_timer) {
        // Created here, on the worker's thread, so it fires there.
        m_timer = new QTimer(this);
        m_timer->setTimerType(Qt::PreciseTimer);
        m_timer->setSingleShot(true);
        connect(m_timer, &QTimer::timeout, this, &MonitorWorker::onTimer);
    }
    m_timer->stop();
    m_loop.sampler().reset();
    refreshTopology();
    tick(); // the baseline, so the first figures come one interval from now
    m_sampling = true;
    m_schedule.start(SteadyClock().monotonicNs(), qint64(intervalMs) * 1'000'000);
    armTimer();
}

void MonitorWorker::stop()
{
    m_sampling = false;
    if (m_timer)
        m_timer->stop();
}

bool MonitorWorker::isSampling() const
{
    return m_sampling;
}

void MonitorWorker::setWatched(const QStringList &devices)
{
    m_loop.sampler().setWatched(devices);
}

void MonitorWorker::setUserGroups(const QList<GroupSpec> &groups)
{
    m_loop.sampler().setUserGroups(groups);
}

void MonitorWorker::setLatencyLoader(LatencyLoader loader)
{
    m_latencyLoader = std::move(loader);
}

void MonitorWorker::setLatency(bool on)
{
    if (!on) {
        m_loop.disableLatency();
        return;
    }
    // Root loads the program itself; a recorded tree and the test switch
    // (BLOCKTUNE_BPF_REFUSE=1, which pkexec would not pass on) refuse here.
    if (!m_latencyLoader && (::geteuid() == 0 || !m_loop.root().isLive()
                             || qEnvironmentVariableIntValue("BLOCKTUNE_BPF_REFUSE") == 1)) {
        (void)m_loop.enableLatency(); // a failure is no error of the monitor: each sample says why
        return;
    }
    if (!m_latencyLoader) // a user: the helper loads the program and streams its counts
        m_latencyLoader = [root = m_loop.root()] { return startHelperLatencySource(root); };
    auto source = m_latencyLoader();
    if (source)
        m_loop.sampler().setLatencySource(std::move(*source));
    else
        m_loop.sampler().setLatencyUnavailable(source.error().message);
}

void MonitorWorker::setReadaheadLoader(ReadaheadLoader loader)
{
    m_readaheadLoader = std::move(loader);
}

void MonitorWorker::setReadahead(bool on)
{
    m_readaheadWanted = on;
    if (!on) {
        m_loop.setReadaheadUnavailable(MonitorText::tr("readahead figures are off"));
        return;
    }
    if (m_loop.hasReadaheadSource())
        return; // on already
    if (!m_readaheadLoader) {
        m_loop.setReadaheadUnavailable(MonitorText::tr("no readahead source was given to this monitor"));
        return;
    }
    m_loop.setReadaheadUnavailable(
        MonitorText::tr("loading the readahead probe (a BPF program; this takes a second or two)…"));
    if (m_readaheadLoading)
        return; // on its way (turned off and on again while it loads)
    // Off the worker's thread too: the ticks go on while the program loads.
    m_readaheadLoad = std::make_shared<ReadaheadLoad>();
    // The source is read on this thread: handed over before the loading
    // thread ends.
    m_readaheadLoading = QThread::create([load = m_readaheadLoad, loader = m_readaheadLoader, reader = thread()] {
        auto source = loader();
        if (source && *source)
            (*source)->handTo(reader);
        load->result.emplace(std::move(source));
    });
    m_readaheadLoading->setObjectName(QStringLiteral("blocktune-readahead-load"));
    // finished() comes from the loading thread: queued to this one.
    connect(m_readaheadLoading, &QThread::finished, this, &MonitorWorker::readaheadLoaded, Qt::QueuedConnection);
    m_readaheadLoading->start();
}

void MonitorWorker::readaheadLoaded()
{
    m_readaheadLoading->wait();
    delete m_readaheadLoading;
    m_readaheadLoading = nullptr;
    const std::shared_ptr<ReadaheadLoad> load = std::move(m_readaheadLoad);
    if (!m_readaheadWanted)
        return; // turned off meanwhile: the source goes with `load`
    if (!load->result) {
        m_loop.setReadaheadUnavailable(MonitorText::tr("the readahead source did not open"));
    } else if (!*load->result) {
        m_loop.setReadaheadUnavailable(load->result->error().message);
    } else {
        m_loop.setReadaheadSource(std::move(**load->result));
    }
}

void MonitorWorker::refreshTopology()
{
    if (Status refreshed = m_loop.refreshTopology(); !refreshed)
        Q_EMIT failed(refreshed.error().message);
}

void MonitorWorker::tick()
{
    Status rescan;
    auto sample = m_loop.tick(&rescan);
    if (!sample) {
        // Once per distinct failure, not ten times a second while it lasts.
        if (sample.error().message != m_lastError) {
            m_lastError = sample.error().message;
            Q_EMIT failed(m_lastError);
        }
        return;
    }
    m_lastError.clear();
    if (!rescan)
        Q_EMIT failed(rescan.error().message);
    Q_EMIT sampled(*sample);
}

void MonitorWorker::onTimer()
{
    tick();
    m_schedule.tickDone(SteadyClock().monotonicNs());
    armTimer();
}

// The loop's schedule on an event loop: one single-shot timer to each
// absolute deadline (the CLI, without one, sleeps to the same deadlines in
// MonitorLoop::run()). Real time: the timer's, whatever clock the sampler has.
void MonitorWorker::armTimer()
{
    if (!m_sampling)
        return; // stopped from a slot connected to sampled
    const qint64 leftNs = m_schedule.deadlineNs() - SteadyClock().monotonicNs();
    m_timer->start(int(std::max<qint64>(0, (leftNs + 999'999) / 1'000'000)));
}

MonitorThread::MonitorThread(const QString &sysroot, QObject *parent)
    : MonitorThread(sysroot, std::make_unique<ProcSource>(SysRoot(sysroot)), std::make_unique<SteadyClock>(), parent)
{
}

MonitorThread::MonitorThread(const QString &sysroot, std::unique_ptr<CounterSource> source,
                             std::unique_ptr<Clock> clock, QObject *parent)
    : QObject(parent), m_thread(new QThread(this)),
      m_worker(new MonitorWorker(sysroot, std::move(source), std::move(clock)))
{
    m_thread->setObjectName(QStringLiteral("blocktune-monitor"));
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

MonitorThread::~MonitorThread()
{
    QMetaObject::invokeMethod(m_worker, &MonitorWorker::stop, Qt::QueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

} // namespace blocktune
