// blocktune-helper: the privileged writer. Started by pkexec (polkit action
// org.blocktune.helper.write), it reads one JSON request per line on stdin
// and answers one JSON object per line on stdout until EOF. It writes only
// allowlisted queue attributes of real block devices, validating every value
// itself, and udev rules files blocktune generated, in /etc/udev/rules.d
// only (core/privilege/helperservice.cpp, rulesfile.cpp). The only program
// it runs is udevadm (absolute path, fixed arguments) after such a file
// changed. The ops that stream are "latency" and "readahead": each loads a
// BPF program built into this binary (nothing else) and writes its counters
// every interval until the next request line or the end of input.
#include "common/jsonlines.h"
#include "monitor/helperlatency.h"
#include "privilege/privilege.h"
#include "readahead/helperreadahead.h"

#include <QByteArray>
#include <QString>

#include <algorithm>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <poll.h>
#include <unistd.h>

using namespace blocktune;

namespace {

bool writeAll(const QByteArray &data)
{
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}

qint64 monotonicMs()
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

// Writes the stream's ticks on its schedule until stdin has something
// (a request line, or the end of input) for the main loop to read. False
// when stdout is gone.
bool streamUntilInput(HelperStream &stream)
{
    const qint64 interval = stream.intervalMs();
    qint64 next = monotonicMs() + interval;
    for (;;) {
        pollfd in {STDIN_FILENO, POLLIN, 0};
        const int rc = ::poll(&in, 1, int(std::max<qint64>(0, next - monotonicMs())));
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc != 0)
            return true; // input, EOF or an error: the read tells which
        if (!writeAll(stream.tick() + '\n'))
            return false;
        // Late ticks are not made up for: the totals are cumulative.
        next = std::max(next + interval, monotonicMs() + 1);
    }
}

void usage(FILE *to)
{
    std::fprintf(to,
                 "Usage: blocktune-helper [--sysroot DIR]\n\n"
                 "Privileged writer for blocktune, normally started by pkexec.\n"
                 "Reads JSON requests, one per line, on stdin; answers one JSON line each on stdout;\n"
                 "exits at end of input. Ops: hello, get, set, install_rules, remove_rules, latency,\n"
                 "readahead (these two stream the counters of a BPF program built in until the next\n"
                 "request).\n"
                 "See docs/json.md (blocktune-helper).\n\n"
                 "  --sysroot DIR  work on the recorded tree DIR/sys, DIR/proc (tests); refused when\n"
                 "                 started through sudo, pkexec, doas, setuid or setgid for a user\n"
                 "                 other than root\n");
}

} // namespace

int main(int argc, char **argv)
{
    QString sysroot;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--help" || arg == "-h") {
            usage(stdout);
            return 0;
        }
        if (arg == "--version") {
            std::printf("blocktune-helper %s (protocol %d)\n", BLOCKTUNE_VERSION, kHelperProtocolVersion);
            return 0;
        }
        if (arg == "--sysroot" && i + 1 < argc) {
            sysroot = QString::fromLocal8Bit(argv[++i]);
            continue;
        }
        if (arg.startsWith("--sysroot=")) {
            sysroot = QString::fromLocal8Bit(arg.mid(10));
            continue;
        }
        std::fprintf(stderr, "blocktune-helper: unknown argument '%s'\n", argv[i]);
        usage(stderr);
        return 2;
    }
    // A root process writing under a directory its caller chose is safe only
    // if that caller could write there anyway. Under sudo, pkexec, doas or
    // setuid the caller could point DIR at a tree of hard links to files it
    // cannot write (O_NOFOLLOW stops symlinks, not hard links) or swap its
    // folders for links while the helper works, so elevated runs only ever
    // see the live /sys and /proc.
    if (!sysroot.isEmpty()) {
        if (const QString refused = sysrootRefusal(currentIdentity()); !refused.isEmpty()) {
            std::fprintf(stderr, "blocktune-helper: %s\n", refused.toLocal8Bit().constData());
            return 2;
        }
    }
    auto tree = SysRoot::openTree(sysroot);
    if (!tree) {
        std::fprintf(stderr, "blocktune-helper: --sysroot %s\n", tree.error().message.toLocal8Bit().constData());
        return 2;
    }

    const HelperService service{*tree, helperLatencyOp(*tree), helperReadaheadOp(*tree)};
    // An install_rules request is the longest there is; the service refuses
    // every other request above kHelperMaxLine itself.
    JsonLineReader reader(kHelperMaxRulesLine);
    std::unique_ptr<HelperStream> stream;
    // Any request line ends a stream (its last line says so) before
    // it is answered; the unloaded program is gone before the next op runs.
    auto endStream = [&] {
        const bool written = !stream || writeAll(stream->end() + '\n');
        stream.reset();
        return written;
    };
    auto answer = [&](const JsonLineReader::Line &line) {
        return endStream()
               && writeAll((line.overlong ? HelperService::overlongLine() : service.handleLine(line.text, &stream))
                           + '\n');
    };
    char chunk[4096];
    for (;;) {
        if (stream && !streamUntilInput(*stream))
            return 1;
        const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // EOF (or a broken pipe): the session is over
        reader.append(QByteArrayView(chunk, n));
        while (auto line = reader.next())
            if (!answer(*line))
                return 1;
    }
    if (auto last = reader.finish())
        answer(*last);
    endStream();
    return 0;
}
