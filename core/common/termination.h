#pragma once
// SIGINT, SIGTERM and SIGHUP as a flag and a self-pipe (termination.cpp),
// for every floor that runs long work: the tuner's transactions, read tests,
// sweeps, the monitor loop, the agent, the CLI and the console. Qt Core and
// the C library only.

#include <QString>
#include <QtGlobal>

#include <atomic>
#include <thread>

namespace blocktune {

/// SIGINT, SIGTERM and SIGHUP turned into a flag and a readable pipe, so
/// temporary settings are restored on the normal path instead of dying with
/// them. The handler only stores the signal number and writes one byte
/// (async-signal-safe); everything else happens in normal code.
class TerminationSignals final
{
public:
    /// Installs the handlers (once per process). False if the pipe fails.
    static bool install();
    static bool installed();
    /// The signal received (SIGINT, SIGTERM, SIGHUP), or 0.
    static int pending();
    /// Readable once a signal arrived: for a QSocketNotifier in an event loop.
    static int fd();
    /// Blocks up to `ms` (poll, no event loop); returns pending().
    static int waitMs(qint64 ms);
    /// For tests: forget a received signal.
    static void clear();
    /// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
    static QString name(int signal);
};

/// Turns a termination signal into a cancel flag that long work checks after
/// every block (a read test, a sweep): installs the handlers and watches
/// their pipe on a small thread while it exists.
class SignalCancel final
{
public:
    SignalCancel();
    ~SignalCancel();
    Q_DISABLE_COPY_MOVE(SignalCancel)

    /// The signal that arrived, or 0.
    int signal() const { return TerminationSignals::pending(); }
    std::atomic_bool cancel{false};

private:
    std::atomic_bool m_done{false};
    std::thread m_thread;
};

} // namespace blocktune
