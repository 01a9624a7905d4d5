#pragma once
// The console's session in tests: a ConsoleSession whose first device list
// has arrived, as the main window waits for it.

#include "console/consolesession.h"

#include <QTest>

namespace blocktune::test {

/// Asks the session thread for a scan and waits until its model is there.
inline bool waitForModel(ConsoleSession &session, int timeoutMs = 10000)
{
    session.rescan();
    return QTest::qWaitFor([&session] { return session.model() != nullptr; }, timeoutMs);
}

} // namespace blocktune::test
