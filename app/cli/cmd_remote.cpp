// `blocktune-cli --host HOST COMMAND ...`: the command runs in the agent's
// session on HOST (core/remote), and what it prints there is printed here,
// byte for byte.
#include "clicontext.h"

#include "remote/remote.h"

#include <QJsonArray>

#include <cstdio>

namespace blocktune::cli {

namespace {

void writeRaw(FILE *to, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), to);
    std::fflush(to);
}

} // namespace

int runRemote(CliContext &ctx, const RemoteTarget &target, const QString &command, const QStringList &args)
{
    if (auto line = sshCommandLine(target); !line)
        return fail(ctx, line.error().message, ExitUsage);
    RemoteSession session(target);
    // ssh's own words (host key mismatch, authentication) reach the user as
    // ssh printed them; nothing is retried.
    session.setForwardSshErrors(true);
    if (Status opened = session.open(); !opened)
        return fail(ctx, opened.error().message, ExitFailed);

    const QJsonObject request{{QStringLiteral("op"), QStringLiteral("run")},
                              {QStringLiteral("command"), command},
                              {QStringLiteral("args"), QJsonArray::fromStringList(args)}};
    ctx.out.flush();
    ctx.err.flush();
    auto answer = session.call(request, [](const QJsonObject &event) {
        const QString name = event.value(u"event").toString();
        if (name == u"out")
            writeRaw(stdout, event.value(u"text").toString());
        else if (name == u"err")
            writeRaw(stderr, event.value(u"text").toString());
    });
    if (!answer)
        return fail(ctx, answer.error().message, ExitFailed);
    session.close();
    if (answer->contains(u"exit"))
        return answer->value(u"exit").toInt(ExitFailed);
    // Refused by the agent before the command ran (not offered remotely).
    return fail(ctx, answer->value(u"error").toString(), ExitUsage);
}

} // namespace blocktune::cli
