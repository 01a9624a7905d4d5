// Readahead sweeps: the tuning layer makes (and journals, and undoes) the
// changes; this file decides the order and measures in between.
#include "readtest.h"

#include "common/termination.h"
#include "common/tr.h"
#include "devices/devicemodel.h"
#include "session/session.h"
#include "tuning/tuning.h"

namespace blocktune {

namespace {

std::optional<quint64> readAheadNow(const SysRoot &root, const QString &queueDevice)
{
    auto dir = root.deviceDirectory(queueDevice);
    if (!dir)
        return std::nullopt;
    return SysDir::open(*dir).readU64("queue/read_ahead_kb");
}

SettingChange readAheadChange(const QString &queueDevice, quint64 kib)
{
    return SettingChange{queueDevice, QStringLiteral("read_ahead_kb"), SettingValue(kib)};
}

} // namespace

Result<ReadaheadSweep> ReadaheadSweep::prepare(const SysRoot &root, const DeviceModel &model, const SweepSpec &spec)
{
    if (spec.readAheadKiB.isEmpty())
        return makeError(InvalidArgument, ReadTestText::tr("a sweep needs at least one readahead value (--ra)"));

    auto test = ReadTest::prepare(root, model, spec.test);
    if (!test)
        return test.error();
    const BlockDevice *swept = model.findByUserName(spec.device);
    if (!swept)
        return makeError(NotFound, ReadTestText::tr("no block device named '%1' (see blocktune-cli list)")
                                       .arg(spec.device));
    const QString queue = swept->queueDevice.isEmpty() ? swept->name : swept->queueDevice;

    // Sweeping a readahead the test never uses would measure nothing.
    bool used = false;
    for (const TestDevice &d : test->testDevices())
        used = used || d.queueDevice == queue;
    if (!used)
        return makeError(InvalidArgument, ReadTestText::tr("the sweep changes %1's readahead but the test does not "
                                                         "read %1 (or a partition of it)").arg(queue));

    // Every value is validated by the same planner that will apply it, now,
    // so a bad value in the list changes nothing at all.
    for (quint64 kib : spec.readAheadKiB) {
        const ChangePlan plan = planChanges(root, model, {readAheadChange(queue, kib)});
        if (!plan.ok()) {
            Error e = plan.errors.constFirst();
            if (e.code < InvalidArgument) // an errno from reading sysfs: still nothing changed
                e.code = InvalidArgument;
            return e;
        }
    }

    ReadaheadSweep sweep;
    sweep.m_root = root;
    sweep.m_spec = spec;
    sweep.m_queueDevice = queue;
    sweep.m_test = std::move(*test);
    return sweep;
}

SweepResult ReadaheadSweep::run(SessionPort &session, const SweepObserver &observer, const std::atomic_bool *cancel) const
{
    SweepResult result;
    result.test = m_spec.test.kind;
    result.device = m_test->primaryDevice();
    result.queueDevice = m_queueDevice;
    result.originalKiB = readAheadNow(m_root, m_queueDevice);
    // Nothing to measure on a recorded tree, so nothing to change there either.
    if (Status live = m_test->checkLiveMachine(); !live) {
        result.errors << live.error().message;
        result.failed = true;
        result.restored = true;
        return result;
    }

    for (qsizetype i = 0; i < m_spec.readAheadKiB.size(); ++i) {
        if (cancel && cancel->load()) {
            result.cancelled = true;
            break;
        }
        const quint64 kib = m_spec.readAheadKiB.at(i);
        // Temporary: the session journals the original before its first
        // write and brings back the value from before the FIRST step.
        const ChangeReport report = session.applyTemporary({readAheadChange(m_queueDevice, kib)});
        if (result.journalPath.isEmpty())
            result.journalPath = session.journalPath();
        if (!report.ok()) {
            result.errors << (report.error ? report.error->message
                                           : ReadTestText::tr("setting read_ahead_kb %1 on %2 failed").arg(kib).arg(m_queueDevice));
            if (TerminationSignals::pending() || (cancel && cancel->load()))
                result.cancelled = true;
            else
                result.failed = true;
            break;
        }
        SweepPoint point;
        point.requestedKiB = kib;
        bool parsed = false;
        if (!report.outcomes.isEmpty())
            point.readAheadKiB = report.outcomes.constFirst().kept.toULongLong(&parsed);
        if (!parsed)
            point.readAheadKiB = readAheadNow(m_root, m_queueDevice).value_or(kib);
        if (observer.pointStarted)
            observer.pointStarted(int(i), point.readAheadKiB);

        // The test opens its descriptors now, after the change: a
        // descriptor keeps the readahead it was opened with.
        point.result = m_test->run(observer.test, cancel);
        point.mbPerSec = point.result.mbPerSec.mean;
        quint64 bytes = 0, requests = 0;
        for (const RunResult &r : std::as_const(point.result.runs)) {
            if (!r.deviceStats.isEmpty() && r.deviceStats.constFirst().available) {
                bytes += r.deviceStats.constFirst().deviceBytes;
                requests += r.deviceStats.constFirst().requests;
            }
        }
        point.avgRequestKiB = requests ? double(bytes) / double(requests) / 1024.0 : 0.0;
        const bool stop = point.result.cancelled || point.result.failed;
        result.cancelled = point.result.cancelled;
        result.failed = point.result.failed;
        result.errors += point.result.errors;
        result.points.append(point);
        if (observer.pointFinished)
            observer.pointFinished(result.points.constLast());
        if (stop)
            break;
    }

    // Restore on every path that got here: done, failed, cancelled. (An
    // exception or a return before this leaves it to ~TuningSession; a
    // kill -9 to the journal.)
    const RestoreReport back = session.restoreTemporary();
    QStringList said = back.messages;
    for (const RestoreItem &item : back.items)
        if (!item.message.isEmpty())
            said << item.message;
    result.restoreMessage = said.join(QStringLiteral("; "));
    const auto now = readAheadNow(m_root, m_queueDevice);
    result.restored = back.ok() && now == result.originalKiB;
    if (!result.restored && result.restoreMessage.isEmpty())
        result.restoreMessage = ReadTestText::tr("read_ahead_kb of %1 is %2, not the original %3")
                                    .arg(m_queueDevice, now ? QString::number(*now) : ReadTestText::tr("unreadable"),
                                         result.originalKiB ? QString::number(*result.originalKiB) : QStringLiteral("?"));
    return result;
}

} // namespace blocktune
