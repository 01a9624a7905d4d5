// libbpf's messages, kept for the BPF loaders' errors (bpfload.h).
#include "bpfload.h"

#include "sysroot.h"
#include "tr.h"

#include <unistd.h>

#include <cerrno>

#if BLOCKTUNE_HAVE_BPF
#include <bpf/libbpf.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#endif

namespace blocktune::bpfload {

#if BLOCKTUNE_HAVE_BPF

namespace {

QByteArray &lastLine()
{
    static QByteArray line;
    return line;
}

std::mutex &lineMutex()
{
    static std::mutex m;
    return m;
}

// The format is libbpf's own: say so, for -Wformat-nonliteral.
__attribute__((format(printf, 2, 0))) int keepLine(enum libbpf_print_level level, const char *format, va_list args)
{
    if (level == LIBBPF_DEBUG)
        return 0;
    char text[512];
    const int n = std::vsnprintf(text, sizeof text, format, args);
    const std::lock_guard lock(lineMutex());
    lastLine() = QByteArray(text, std::clamp(n, 0, int(sizeof text) - 1)).trimmed();
    return 0;
}

} // namespace

void captureLibbpfMessages()
{
    static std::once_flag once;
    std::call_once(once, [] { libbpf_set_print(keepLine); });
}

QByteArray lastLibbpfLine()
{
    const std::lock_guard lock(lineMutex());
    return lastLine();
}

#else

void captureLibbpfMessages() {}

QByteArray lastLibbpfLine()
{
    return {};
}

#endif

std::optional<Error> privilegeRefusal(int err, const QString &prefix)
{
    if (err != EPERM && err != EACCES)
        return std::nullopt;
    const SysRoot root;
    auto lockdown = root.readFile(root.sysPath("kernel/security/lockdown"), 256);
    if (lockdown && lockdown->contains("[confidentiality]"))
        return makeError(err, prefix + CommonText::tr(
            "kernel lockdown (confidentiality) forbids BPF programs that read kernel memory; "
            "boot with lockdown=integrity or none to use them"));
    if (::geteuid() != 0)
        return makeError(err, prefix + CommonText::tr(
            "loading the BPF program needs root (or CAP_BPF and CAP_PERFMON): run as root"));
    return std::nullopt;
}

Error stepFailure(int err, const char *step, const QString &prefix)
{
    const QByteArray detail = lastLibbpfLine();
    return makeError(err, prefix + CommonText::tr("the BPF program failed at libbpf's %1 step: %2%3")
                              .arg(QString::fromLatin1(step), errnoDetail(err),
                                   detail.isEmpty() ? QString() : QStringLiteral(" (libbpf: ") + QString::fromUtf8(detail) + u')'));
}

} // namespace blocktune::bpfload
