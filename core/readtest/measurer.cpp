#include "measurer.h"

#include "monitor/monitor.h"

namespace blocktune {

namespace {

class LocalMeasurer final : public Measurer
{
public:
    explicit LocalMeasurer(SysRoot root) : m_root(std::move(root)) {}

    std::unique_ptr<CounterSource> counterSource() override { return std::make_unique<ProcSource>(m_root); }
    ReadTestResult runReadTest(const ReadTest &test, const ReadTestObserver &observer,
                               const std::atomic_bool *cancel) override
    {
        return test.run(observer, cancel);
    }
    SweepResult runSweep(SessionPort &session, const ReadaheadSweep &sweep, const SweepObserver &observer,
                         const std::atomic_bool *cancel) override
    {
        return sweep.run(session, observer, cancel);
    }

private:
    SysRoot m_root;
};

} // namespace

std::shared_ptr<Measurer> makeLocalMeasurer(const SysRoot &root)
{
    return std::make_shared<LocalMeasurer>(root);
}

} // namespace blocktune
