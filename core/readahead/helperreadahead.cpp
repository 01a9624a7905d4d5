// blocktune-helper's "readahead" op and its reader: the helper loads the one
// BPF program built into it (ReadaheadProbe) and streams its snapshots as
// JSON lines; a process that is not root reads them as a ReadaheadSource
// (startHelperReadaheadSource).
#include "helperreadahead.h"

#include "common/tr.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QThread>

#include <chrono>

namespace blocktune {

namespace {

// ---- The helper's side ------------------------------------------------------------

QByteArray readaheadLine(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

class ReadaheadStream final : public HelperStream
{
public:
    ReadaheadStream(QJsonValue id, int intervalMs, std::unique_ptr<ReadaheadSource> source)
        : m_id(std::move(id)), m_intervalMs(intervalMs), m_source(std::move(source))
    {
        m_since.start();
    }
    int intervalMs() const override { return m_intervalMs; }
    QByteArray tick() override;
    QByteArray end() override
    {
        QJsonObject o = head(true);
        o.insert(u"end", true);
        o.insert(u"ticks", double(m_ticks));
        return readaheadLine(o);
    }

private:
    QJsonObject head(bool ok) const
    {
        QJsonObject o{{QStringLiteral("ok"), ok}, {QStringLiteral("op"), QStringLiteral("readahead")}};
        if (!m_id.isUndefined())
            o.insert(u"id", m_id);
        return o;
    }

    QJsonValue m_id;
    int m_intervalMs;
    std::unique_ptr<ReadaheadSource> m_source;
    QElapsedTimer m_since;
    qint64 m_ticks = 0;
};

QByteArray ReadaheadStream::tick()
{
    const qint64 tickNumber = m_ticks++;
    auto snapshot = m_source->snapshot();
    if (!snapshot) {
        QJsonObject o = head(false);
        o.insert(u"tick", double(tickNumber));
        o.insert(u"error", snapshot.error().message);
        o.insert(u"code", errorCodeName(snapshot.error().code));
        return readaheadLine(o);
    }
    QJsonObject o = head(true);
    o.insert(u"tick", double(tickNumber));
    o.insert(u"elapsed_ms", double(m_since.elapsed()));
    o.insert(u"interval_ms", m_intervalMs);
    o.insert(u"coverage", readaheadCoverageToJson(m_source->coverage()));
    o.insert(u"snapshot", readaheadSnapshotToJson(*snapshot));
    return readaheadLine(o);
}

Result<std::unique_ptr<ReadaheadSource>> loadBuiltInReadahead()
{
    auto probe = ReadaheadProbe::load();
    if (!probe)
        return probe.error();
    return std::unique_ptr<ReadaheadSource>(std::move(*probe));
}

Result<QByteArray> startReadahead(const SysRoot &root, const HelperReadaheadLoader &loader,
                                  const QJsonObject &request, std::unique_ptr<HelperStream> *stream)
{
    // No program, path, map or device: the one program built in, counting
    // every device (the reader names them).
    for (auto it = request.begin(); it != request.end(); ++it)
        if (it.key() != u"op" && it.key() != u"id" && it.key() != u"interval_ms")
            return makeError(InvalidArgument,
                             QStringLiteral("'readahead' takes 'interval_ms', nothing else (got '%1')").arg(it.key().left(64)));
    auto interval = checkHelperIntervalMs(QStringLiteral("readahead"), request.value(u"interval_ms"),
                                          kHelperMinReadaheadIntervalMs, kHelperMaxReadaheadIntervalMs);
    if (!interval)
        return interval.error();
    // Only the program built in, only on the machine it watches.
    if (!loader && !root.isLive())
        return makeError(Refused, QStringLiteral("readahead is watched on the live machine, not a recorded tree "
                                                 "(--sysroot): nothing was loaded"));
    if (!stream)
        return makeError(Refused, QStringLiteral("'readahead' streams only in blocktune-helper's own loop"));
    auto source = loader ? loader() : loadBuiltInReadahead();
    if (!source)
        return source.error();
    *stream = std::make_unique<ReadaheadStream>(request.value(u"id"), *interval, std::move(*source));
    return (*stream)->tick();
}

} // namespace

HelperStreamOp helperReadaheadOp(SysRoot root, HelperReadaheadLoader loader)
{
    return [root = std::move(root), loader = std::move(loader)](const QJsonObject &request,
                                                                 std::unique_ptr<HelperStream> *stream) {
        return startReadahead(root, loader, request, stream);
    };
}

// ---- The reader's side ------------------------------------------------------------

namespace {

QString withoutReadaheadPrefix(QString message)
{
    // The helper's (untranslated) ReadaheadProbe messages carry it already.
    const QLatin1StringView prefix("readahead cannot be observed: ");
    return message.startsWith(prefix) ? message.mid(prefix.size()) : message;
}

// The steady clock the probe stamps its snapshots with (CLOCK_MONOTONIC:
// the helper's and this process's are the same clock).
qint64 steadyNowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

class HelperReadaheadSource final : public ReadaheadSource
{
public:
    HelperReadaheadSource(std::unique_ptr<HelperClient> client, ReadaheadCoverage coverage, int intervalMs)
        : m_client(std::move(client)), m_coverage(std::move(coverage)), m_intervalMs(intervalMs)
    {
    }
    Result<ReadaheadSnapshot> snapshot() override;
    ReadaheadCoverage coverage() const override { return m_coverage; }
    // The client's process tells its lines by signals, to the client's
    // thread: read from another thread, they would wait for a thread that
    // is gone.
    void handTo(QThread *thread) override { m_client->moveToThread(thread); }

private:
    std::unique_ptr<HelperClient> m_client;
    ReadaheadCoverage m_coverage;
    int m_intervalMs;
};

// A tick's snapshot, or why there is none.
Result<ReadaheadSnapshot> snapshotOfTick(const QJsonObject &line)
{
    if (!line.value(u"ok").toBool())
        return makeError(errorCodeFromName(line.value(u"code").toString()),
                         ReadaheadText::tr("readahead cannot be observed through blocktune-helper: %1")
                             .arg(withoutReadaheadPrefix(line.value(u"error").toString())));
    auto snapshot = readaheadSnapshotFromJson(line.value(u"snapshot").toObject());
    if (!snapshot)
        return makeError(InvalidArgument, ReadaheadText::tr("blocktune-helper sent readahead counters that do not "
                                                            "parse: %1")
                                              .arg(snapshot.error().message));
    return snapshot;
}

Result<ReadaheadSnapshot> HelperReadaheadSource::snapshot()
{
    // The newest line read may be old: a reader that did not ask for a
    // while left the pipe full, and the helper waited to write. A tick
    // taken within the last interval is what a caller means by "now"; one
    // comes within an interval once the pipe is read (else, after a second
    // more, the newest there is).
    const qint64 fresh = steadyNowMs() - m_intervalMs;
    const qint64 giveUp = steadyNowMs() + m_intervalMs + 1000;
    for (;;) {
        QString error;
        const QJsonObject line = m_client->streamLine(&error);
        if (!error.isEmpty())
            return makeError(Refused, ReadaheadText::tr("readahead counters stopped: %1").arg(error));
        auto snapshot = snapshotOfTick(line);
        if (!snapshot || snapshot->takenMs >= fresh || steadyNowMs() >= giveUp)
            return snapshot;
        QThread::msleep(10);
    }
}

} // namespace

Result<std::unique_ptr<ReadaheadSource>> startHelperReadaheadSource(QStringList command, int intervalMs)
{
    auto client = std::make_unique<HelperClient>(std::move(command));
    const QJsonObject request{{QStringLiteral("op"), QStringLiteral("readahead")},
                              {QStringLiteral("interval_ms"), intervalMs}};
    // A password prompt may take minutes; a helper run directly answers at
    // once or is stuck (loading the program), and says so in 30 s.
    const bool prompts = client->command().value(0) == u"pkexec";
    const HelperReply reply = client->startStream(request, 15000, prompts ? 300000 : 30000);
    if (!reply.ok) {
        // An answer from the helper: it ran, the program did not load (or it
        // refused the request). No answer: the helper never ran.
        const bool answered = reply.body.value(u"op").toString() == u"readahead";
        const QString why = answered ? ReadaheadText::tr("blocktune-helper could not load its BPF program: %1")
                                           .arg(withoutReadaheadPrefix(reply.error))
                                     : ReadaheadText::tr("blocktune-helper could not be started: %1").arg(reply.error);
        return makeError(answered ? errorCodeFromName(reply.body.value(u"code").toString()) : int(Refused),
                         ReadaheadText::tr("readahead cannot be observed: %1").arg(why));
    }
    const auto coverage = readaheadCoverageFromJson(reply.body.value(u"coverage").toObject());
    auto first = snapshotOfTick(reply.body);
    if (!coverage || !first)
        return makeError(InvalidArgument, ReadaheadText::tr("readahead cannot be observed: blocktune-helper's "
                                                            "first answer does not parse (%1)")
                                              .arg(first ? QStringLiteral("coverage") : first.error().message));
    return std::unique_ptr<ReadaheadSource>(
        std::make_unique<HelperReadaheadSource>(std::move(client), *coverage, intervalMs));
}

} // namespace blocktune
