// SIGINT/SIGTERM/SIGHUP as a flag plus a self-pipe. The handler does only
// what is async-signal-safe (a lock-free atomic store and write(2)); the
// restore that follows runs on the normal path.
#include "termination.h"

#include <QElapsedTimer>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace blocktune {

namespace {

std::atomic<int> g_signal{0};
std::atomic<int> g_writeFd{-1};
int g_readFd = -1;
std::atomic<bool> g_installed{false};
static_assert(std::atomic<int>::is_always_lock_free, "signal handler needs a lock-free flag");

extern "C" void onTerminationSignal(int sig)
{
    const int savedErrno = errno;
    g_signal.store(sig);
    const int fd = g_writeFd.load();
    if (fd >= 0) {
        const char byte = char(sig);
        [[maybe_unused]] const ssize_t n = ::write(fd, &byte, 1);
    }
    errno = savedErrno;
}

} // namespace

bool TerminationSignals::install()
{
    bool expected = false;
    if (!g_installed.compare_exchange_strong(expected, true))
        return true;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        g_installed = false;
        return false;
    }
    g_readFd = fds[0];
    g_writeFd = fds[1];
    struct sigaction sa {};
    sa.sa_handler = &onTerminationSignal;
    sigemptyset(&sa.sa_mask);
    // SA_RESTART: a signal must not make an unrelated read() or waitpid()
    // fail with EINTR somewhere deep in Qt; we look at the flag ourselves.
    sa.sa_flags = SA_RESTART;
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        ::sigaction(sig, &sa, nullptr);
    return true;
}

bool TerminationSignals::installed()
{
    return g_installed.load();
}

int TerminationSignals::pending()
{
    return g_signal.load();
}

int TerminationSignals::fd()
{
    return g_readFd;
}

int TerminationSignals::waitMs(qint64 ms)
{
    QElapsedTimer timer;
    timer.start();
    while (pending() == 0) {
        const qint64 left = ms - timer.elapsed();
        if (left <= 0)
            break;
        pollfd p{g_readFd, POLLIN, 0};
        // Not installed: no pipe to watch, just sleep.
        const int r = ::poll(&p, g_readFd >= 0 ? 1 : 0, int(std::min<qint64>(left, 60000)));
        if (r < 0 && errno != EINTR)
            break;
    }
    return pending();
}

void TerminationSignals::clear()
{
    g_signal.store(0);
    char buffer[64];
    if (g_readFd >= 0)
        while (::read(g_readFd, buffer, sizeof buffer) > 0) {
        }
}

QString TerminationSignals::name(int signal)
{
    switch (signal) {
    case SIGINT: return QStringLiteral("SIGINT");
    case SIGTERM: return QStringLiteral("SIGTERM");
    case SIGHUP: return QStringLiteral("SIGHUP");
    default: return QStringLiteral("signal %1").arg(signal);
    }
}

SignalCancel::SignalCancel()
{
    TerminationSignals::install();
    m_thread = std::thread([this] {
        while (!m_done.load()) {
            if (TerminationSignals::waitMs(50) != 0) {
                cancel = true;
                break;
            }
        }
    });
}

SignalCancel::~SignalCancel()
{
    m_done = true;
    m_thread.join();
}

} // namespace blocktune
