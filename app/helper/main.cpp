// blocktune-helper: the privileged writer. Started by pkexec (polkit action
// org.blocktune.helper.write), it reads one JSON request per line on stdin
// and answers one JSON object per line on stdout until EOF. It writes only
// allowlisted queue attributes of real block devices, validating every value
// itself, and udev rules files blocktune generated, in /etc/udev/rules.d
// only (core/privilege/helperservice.cpp, rulesfile.cpp). The only program
// it runs is udevadm (absolute path, fixed arguments) after such a file
// changed.
#include "common/jsonlines.h"
#include "privilege/privilege.h"

#include <QByteArray>
#include <QString>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

void usage(FILE *to)
{
    std::fprintf(to,
                 "Usage: blocktune-helper [--sysroot DIR]\n\n"
                 "Privileged writer for blocktune, normally started by pkexec.\n"
                 "Reads JSON requests, one per line, on stdin; answers one JSON line each on stdout;\n"
                 "exits at end of input. Ops: hello, get, set, install_rules, remove_rules.\n"
                 "See docs/json.md (blocktune-helper).\n\n"
                 "  --sysroot DIR  work on the recorded tree DIR/sys, DIR/proc (tests); refused when\n"
                 "                 started through pkexec or setuid\n");
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
    // if that caller could write there anyway. Under pkexec or setuid the
    // caller could point DIR at a tree of hard links to files it cannot
    // write (O_NOFOLLOW stops symlinks, not hard links), so elevated runs
    // only ever see the live /sys and /proc.
    if (!sysroot.isEmpty() && (std::getenv("PKEXEC_UID") || ::getuid() != ::geteuid())) {
        std::fprintf(stderr, "blocktune-helper: --sysroot is refused when started through pkexec or setuid\n");
        return 2;
    }
    auto tree = SysRoot::openTree(sysroot);
    if (!tree) {
        std::fprintf(stderr, "blocktune-helper: --sysroot %s\n", tree.error().message.toLocal8Bit().constData());
        return 2;
    }

    const HelperService service{std::move(*tree)};
    // An install_rules request is the longest there is; the service refuses
    // every other request above kHelperMaxLine itself.
    JsonLineReader reader(kHelperMaxRulesLine);
    auto answer = [&](const JsonLineReader::Line &line) {
        return writeAll((line.overlong ? HelperService::overlongLine() : service.handleLine(line.text)) + '\n');
    };
    char chunk[4096];
    for (;;) {
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
    return 0;
}
