// `blocktune-cli --host HOST COMMAND ...`: the command runs in the agent's
// session on HOST (core/remote), and what it prints there is printed here,
// byte for byte. `record` is the exception: HOST is recorded there and the
// tarball written here.
#include "clicontext.h"

#include "common/termination.h"
#include "remote/remote.h"
#include "tuning/tuning.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QSocketNotifier>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <optional>

namespace blocktune::cli {

namespace {

/// How long the agent gets, after the stop a signal sent, to end the
/// command and send what it printed (a read test stops at its next block).
constexpr int kStopGraceMs = 5000;

void writeRaw(FILE *to, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), to);
    std::fflush(to);
}

/// `--host HOST record FILE.tar.gz`: op "snapshot" into the local file.
int recordRemote(CliContext &ctx, RemoteSession &session, const QString &tarball)
{
    auto report = session.fetchSnapshot(tarball);
    session.close();
    if (!report)
        return fail(ctx, report.error().message);
    printRecordSummary(ctx, tarball, *report);
    return ExitOk;
}

/// How a command run on HOST ended: its answer, or the connection lost, and
/// the signal that stopped it here, if one did.
struct RemoteOutcome
{
    std::optional<QJsonObject> answer;
    QString lost;
    int stopSignal = 0;
};

/// Opens the session; -1 to go on, else the exit code (ssh failed, or a
/// signal came before the command ran).
int openSession(CliContext &ctx, RemoteSession &session, const RemoteTarget &target, const QString &command)
{
    // ssh's own words (host key mismatch, authentication) reach the user as
    // ssh printed them; nothing is retried.
    session.setForwardSshErrors(true);
    if (Status opened = session.open(); !opened)
        return fail(ctx, opened.error().message, ExitFailed);
    if (const int sig = TerminationSignals::pending()) {
        session.close();
        return fail(ctx, QStringLiteral("interrupted by %1 before %2 ran on %3")
                             .arg(TerminationSignals::name(sig), command, target.host),
                    128 + sig);
    }
    return -1;
}

/// What the command prints on HOST is printed here, byte for byte.
void forwardOutput(RemoteSession &session, QEventLoop &loop, quint64 id)
{
    QObject::connect(&session, &RemoteSession::eventReceived, &loop, [id](quint64 eventId, const QJsonObject &event) {
        if (eventId != id)
            return;
        const QString name = event.value(u"event").toString();
        if (name == u"out")
            writeRaw(stdout, event.value(u"text").toString());
        else if (name == u"err")
            writeRaw(stderr, event.value(u"text").toString());
    });
}

/// Runs a request on HOST and waits for its answer, in the one event loop
/// of this process (not nested: nothing runs one around it): the command's
/// events, its answer, a lost connection, and the signal pipe. Lives until
/// the session is closed, so what comes while it closes is still printed.
class RemoteRun final
{
public:
    RemoteRun() { m_grace.setSingleShot(true); }
    Q_DISABLE_COPY_MOVE(RemoteRun)

    const RemoteOutcome &run(RemoteSession &session, const RemoteTarget &target, const QJsonObject &request)
    {
        const quint64 id = session.submit(request);
        forwardOutput(session, m_loop, id);
        QObject::connect(&session, &RemoteSession::answerReceived, &m_loop,
                         [this, id](quint64 answerId, const QJsonObject &a) {
                             if (answerId != id)
                                 return; // the stop's own answer
                             m_outcome.answer = a;
                             m_loop.quit();
                         });
        QObject::connect(&session, &RemoteSession::connectionLost, &m_loop, [this](const QString &why) {
            m_outcome.lost = why;
            m_loop.quit();
        });
        watchSignals(session, id);
        if (session.isOpen())
            m_loop.exec();
        else
            m_outcome.lost = QStringLiteral("connection to %1 lost").arg(target.host);
        return m_outcome;
    }

private:
    void watchSignals(RemoteSession &session, quint64 id)
    {
        // No pipe (install() failed): signals then go unheard here, and ssh
        // still ends with a terminal's Ctrl-C.
        if (TerminationSignals::fd() >= 0)
            m_signalPipe.emplace(TerminationSignals::fd(), QSocketNotifier::Read);
        QObject::connect(&m_grace, &QTimer::timeout, &m_loop, &QEventLoop::quit);
        if (!m_signalPipe)
            return;
        QObject::connect(&*m_signalPipe, &QSocketNotifier::activated, &m_loop, [this, &session, id] {
            const int sig = TerminationSignals::pending();
            TerminationSignals::clear();
            if (m_outcome.stopSignal) {
                m_loop.quit(); // a second one: do not wait for the agent
                return;
            }
            m_outcome.stopSignal = sig ? sig : SIGINT;
            // The agent stops the command at its next block; it prints what a
            // local Ctrl-C prints (partial results), and restores what it changed.
            session.submit({{QStringLiteral("op"), QStringLiteral("stop")}, {QStringLiteral("target"), double(id)}});
            m_grace.start(kStopGraceMs);
        });
    }

    QEventLoop m_loop;
    RemoteOutcome m_outcome;
    std::optional<QSocketNotifier> m_signalPipe;
    QTimer m_grace;
};

/// The exit status here of the command run there.
int remoteExit(CliContext &ctx, RemoteSession &session, RemoteOutcome outcome, const RemoteTarget &target,
               const QString &command)
{
    if (outcome.answer) {
        session.close();
        if (outcome.answer->contains(u"exit"))
            return outcome.answer->value(u"exit").toInt(ExitFailed);
        // Refused by the agent before the command ran (not offered remotely).
        return fail(ctx, outcome.answer->value(u"error").toString(), ExitUsage);
    }
    if (!outcome.stopSignal && (outcome.stopSignal = TerminationSignals::pending()) == 0)
        return fail(ctx, outcome.lost, ExitFailed);
    // Interrupted, and the agent did not answer in time, or ssh took the
    // terminal's Ctrl-C itself and ended: closing ssh's input ends the
    // agent, which restores every temporary change it holds.
    session.close();
    // monitor ends cleanly on Ctrl-C, as it does here.
    if (command == u"monitor")
        return ExitOk;
    return fail(ctx, QStringLiteral("interrupted by %1: %2 on %3 stopped (the agent restores what it changed when "
                                    "the connection ends)")
                         .arg(TerminationSignals::name(outcome.stopSignal), command, target.host),
                128 + outcome.stopSignal);
}

} // namespace

int runRemote(CliContext &ctx, const RemoteTarget &target, const QString &command, const QStringList &args)
{
    if (auto line = sshCommandLine(target); !line)
        return fail(ctx, line.error().message, ExitUsage);
    QString tarball;
    if (command == u"record") {
        // The file is checked here, before ssh starts.
        if (const int r = recordArgument(ctx, args, &tarball); r >= 0)
            return r;
    }

    // SIGINT/SIGTERM/SIGHUP stop the command on HOST (RemoteRun) instead of
    // killing us while ssh lives on.
    TerminationSignals::install();
    RemoteSession session(target);
    if (const int r = openSession(ctx, session, target, command); r >= 0)
        return r;
    if (command == u"record")
        return recordRemote(ctx, session, tarball);

    const QJsonObject request{{QStringLiteral("op"), QStringLiteral("run")},
                              {QStringLiteral("command"), command},
                              {QStringLiteral("args"), QJsonArray::fromStringList(args)}};
    ctx.out.flush();
    ctx.err.flush();
    RemoteRun run;
    return remoteExit(ctx, session, run.run(session, target, request), target, command);
}

} // namespace blocktune::cli
