// blocktune-helper's request parser: one input is one request line,
// answered by HelperService::handleLine on a copy of a recorded tree (the
// helper's only real input). Every answer is one JSON object with "ok";
// refusals carry a reason and a code. A "latency" or "readahead" request
// that passes its checks streams from a fake source here (the tree is not
// this machine): its ticks and its end are single JSON lines too.
#include "fuzzcheck.h"
#include "fuzztree.h"

#include "monitor/helperlatency.h"
#include "privilege/privilege.h"
#include "readahead/helperreadahead.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>

using namespace blocktune;

namespace {

class FakeLatency final : public LatencySource
{
public:
    Result<LatencyTotalsMap> totals() override
    {
        DeviceLatencyTotals t;
        t.read.requests = ++m_reads;
        t.read.queue.counts[m_reads % 32] = m_reads;
        t.read.device.counts[(m_reads * 7) % 32] = m_reads;
        return LatencyTotalsMap{{deviceNumber(8, 16), t}};
    }

private:
    quint64 m_reads = 0;
};

class FakeReadahead final : public ReadaheadSource
{
public:
    Result<ReadaheadSnapshot> snapshot() override
    {
        ReadaheadSnapshot s;
        ReadaheadKindCounters &sync = s.devices[deviceNumber(8, 16)].of(ReadaheadKind::Sync);
        sync.windows = ++m_windows;
        sync.sizes.insert(quint32(m_windows % 512), m_windows);
        s.takenMs = qint64(m_windows);
        return s;
    }
    ReadaheadCoverage coverage() const override { return {}; }

private:
    quint64 m_windows = 0;
};

QJsonObject oneObject(const QByteArray &line)
{
    FUZZ_CHECK(!line.contains('\n')); // one line per answer keeps the stream in step
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    FUZZ_CHECK(error.error == QJsonParseError::NoError && doc.isObject());
    const QJsonObject o = doc.object();
    FUZZ_CHECK(o.value(u"ok").isBool());
    return o;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int loads = 0;
    static const SysRoot tree(fuzz::treeCopy("md-raid10-f2"));
    static const HelperService service{tree,
                                       helperLatencyOp(tree, []() -> Result<std::unique_ptr<LatencySource>> {
                                           ++loads;
                                           return std::unique_ptr<LatencySource>(std::make_unique<FakeLatency>());
                                       }),
                                       helperReadaheadOp(tree, []() -> Result<std::unique_ptr<ReadaheadSource>> {
                                           ++loads;
                                           return std::unique_ptr<ReadaheadSource>(std::make_unique<FakeReadahead>());
                                       })};
    const QByteArray line(reinterpret_cast<const char *>(data), qsizetype(size));
    const int loadsBefore = loads;
    std::unique_ptr<HelperStream> stream;
    const QJsonObject o = oneObject(service.handleLine(line, &stream));
    if (!o.value(u"ok").toBool()) {
        FUZZ_CHECK(!o.value(u"error").toString().isEmpty());
        FUZZ_CHECK(!o.value(u"code").toString().isEmpty());
        FUZZ_CHECK(!stream && loads == loadsBefore); // a refusal loads nothing
        return 0;
    }
    // Only these ops ever succeed, and only on a single line (the rules ops
    // find no etc/udev/rules.d in a recorded tree).
    const QString op = o.value(u"op").toString();
    FUZZ_CHECK(op == u"hello" || op == u"get" || op == u"set" || op == u"latency" || op == u"readahead");
    FUZZ_CHECK(line.size() <= kHelperMaxLine && !line.contains('\0'));
    FUZZ_CHECK((op == u"latency" || op == u"readahead") == bool(stream));
    if (stream) {
        FUZZ_CHECK(loads == loadsBefore + 1);
        FUZZ_CHECK(stream->intervalMs() >= kHelperMinLatencyIntervalMs
                   && stream->intervalMs() <= kHelperMaxLatencyIntervalMs);
        if (op == u"readahead")
            FUZZ_CHECK(readaheadSnapshotFromJson(o.value(u"snapshot").toObject()).ok());
        FUZZ_CHECK(oneObject(stream->tick()).value(u"tick").toInt() == 1);
        FUZZ_CHECK(oneObject(stream->end()).value(u"end").toBool());
    }
    return 0;
}
