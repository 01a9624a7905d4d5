#include "monitor.h"

#include "common/tr.h"

#include "devices/devicemodel.h"

#include <QThread>
#include <QTimer>

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
    : QObject(parent), m_root(sysroot), m_sampler(std::move(source), std::move(clock))
{
    registerTypes();
}

MonitorWorker::~MonitorWorker() = default;

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
        connect(m_timer, &QTimer::timeout, this, &MonitorWorker::tick);
    }
    m_timer->stop();
    m_sampler.reset();
    refreshTopology();
    tick(); // the baseline, so the first figures come one interval from now
    m_timer->start(intervalMs);
}

void MonitorWorker::stop()
{
    if (m_timer)
        m_timer->stop();
}

bool MonitorWorker::isSampling() const
{
    return m_timer && m_timer->isActive();
}

void MonitorWorker::setWatched(const QStringList &devices)
{
    m_sampler.setWatched(devices);
}

void MonitorWorker::setUserGroups(const QList<GroupSpec> &groups)
{
    m_sampler.setUserGroups(groups);
}

void MonitorWorker::refreshTopology()
{
    ScanOptions options;
    options.probeFilesystems = false;
    auto model = DeviceModel::scan(m_root, options);
    if (!model) {
        Q_EMIT failed(model.error().message);
        return;
    }
    m_sampler.setTopology(buildTopology(m_root, *model));
}

void MonitorWorker::tick()
{
    auto sample = m_sampler.sample();
    if (!sample) {
        // Once per distinct failure, not ten times a second while it lasts.
        if (sample.error().message != m_lastError) {
            m_lastError = sample.error().message;
            Q_EMIT failed(m_lastError);
        }
        return;
    }
    m_lastError.clear();
    if (!sample->appeared.isEmpty() || !sample->vanished.isEmpty())
        refreshTopology();
    Q_EMIT sampled(*sample);
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
