// The console's remote session: a RemoteLink (the agent over ssh, on a
// thread of its own), the TuningSession backend that sends every change
// there and keeps a local mirror of the host, and the monitor's counters.
#include "remote.h"

#include "common/tr.h"
#include "monitor/monitor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>
#include <QTemporaryDir>

#include <atomic>

namespace blocktune {

// ---- RemoteLink --------------------------------------------------------------------

RemoteLink::RemoteLink(RemoteTarget target) : m_target(std::move(target)) {}

template<typename F>
auto RemoteLink::onLinkThread(F &&work)
{
    if (QThread::currentThread() == m_thread) {
        work();
        return;
    }
    QMetaObject::invokeMethod(m_session, std::forward<F>(work), Qt::BlockingQueuedConnection);
}

Result<std::shared_ptr<RemoteLink>> RemoteLink::connect(const RemoteTarget &target)
{
    if (auto line = sshCommandLine(target); !line)
        return line.error();
    std::shared_ptr<RemoteLink> link(new RemoteLink(target));
    link->m_thread = new QThread;
    link->m_thread->setObjectName(QStringLiteral("remote-link"));
    link->m_session = new RemoteSession(target);
    link->m_session->moveToThread(link->m_thread);
    QObject::connect(link->m_session, &RemoteSession::connectionLost, link->m_session,
                     [raw = link.get()](const QString &why) {
                         if (!raw->m_lost.exchange(true))
                             Q_EMIT raw->connectionLost(why);
                     },
                     Qt::DirectConnection);
    link->m_thread->start();
    Status opened;
    link->onLinkThread([&] {
        opened = link->m_session->open();
        link->m_hello = link->m_session->hello();
    });
    if (!opened)
        return opened.error();
    // Its signals are for the GUI; the thread that connected may end.
    if (QCoreApplication::instance())
        link->moveToThread(QCoreApplication::instance()->thread());
    return link;
}

RemoteLink::~RemoteLink()
{
    if (!m_thread)
        return;
    if (m_session) {
        m_lost.store(true); // close() is ours: nothing to report
        QThread *here = QThread::currentThread();
        onLinkThread([this, here] {
            m_session->close(5000);
            m_session->moveToThread(here); // deleted below, not inside its own event
        });
        delete m_session;
        m_session = nullptr;
    }
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

Result<QJsonObject> RemoteLink::call(const QJsonObject &request, const std::function<void(const QJsonObject &)> &onEvent,
                                     const std::atomic_bool *cancel)
{
    Result<QJsonObject> answer = makeError(EPIPE, RemoteText::tr("connection to %1 lost").arg(m_target.host));
    if (!m_session)
        return answer;
    onLinkThread([&] { answer = m_session->call(request, onEvent, cancel); });
    if (!answer && answer.error().code == EPIPE)
        m_lost.store(true);
    return answer;
}

Result<QJsonObject> RemoteLink::fetchFile(const QJsonObject &request, const QString &into)
{
    Result<QJsonObject> answer = makeError(EPIPE, RemoteText::tr("connection to %1 lost").arg(m_target.host));
    if (!m_session)
        return answer;
    onLinkThread([&] { answer = m_session->fetchFile(request, into); });
    return answer;
}

Result<SnapshotReport> RemoteLink::fetchSnapshot(const QString &tarball)
{
    Result<SnapshotReport> report = makeError(EPIPE, RemoteText::tr("connection to %1 lost").arg(m_target.host));
    if (!m_session)
        return report;
    onLinkThread([&] { report = m_session->fetchSnapshot(tarball); });
    return report;
}

// ---- Reports from the agent's JSON ---------------------------------------------------

namespace {

/// The agent's answer to apply/apply_temporary as the ChangeReport its
/// session made there (the inverse of changeReportToJson()); `plan` is the
/// one made here on the mirror, for what the answer does not carry.
ChangeReport changeReportFrom(const QJsonObject &answer, const ChangePlan &plan, const QString &host)
{
    ChangeReport report;
    report.plan = plan;
    const QJsonObject o = answer.value(u"report").toObject();
    if (o.isEmpty()) {
        // Refused before planning there (a busy device, a read-only host).
        for (const PlannedWrite &w : plan.writes)
            report.outcomes.append(SettingOutcome{w, SettingStatus::Skipped, {}, {}});
    } else {
        const ChangeReport there = changeReportFromJson(o);
        report.plan.writes = there.plan.writes;
        report.plan.errors = there.plan.errors;
        report.plan.warnings = there.plan.warnings;
        report.plan.notes = there.plan.notes;
        report.outcomes = there.outcomes;
        report.rollback = there.rollback;
        if (!there.journalPath.isEmpty())
            report.journalPath = host + u':' + there.journalPath;
    }
    if (!answer.value(u"ok").toBool())
        report.error = makeError(errorCodeFromName(answer.value(u"code").toString()),
                                 answer.value(u"error").toString());
    return report;
}

// ---- The monitor's counters ------------------------------------------------------------

/// CounterSource through op "counters": one round trip per reading. The
/// watched devices and IRQ lines asked in one tick go with the next
/// tick's request; new ones are fetched at once.
class AgentCounterSource final : public CounterSource
{
public:
    explicit AgentCounterSource(std::shared_ptr<RemoteLink> link) : m_link(std::move(link)) {}

    Result<QByteArray> diskStats() override
    {
        auto answer = fetch();
        if (!answer)
            return answer.error();
        return m_diskstats;
    }
    std::optional<InFlight> inFlight(const QString &device) override
    {
        if (!m_devices.contains(device)) {
            m_devices << device;
            if (!fetch())
                return std::nullopt;
        }
        return m_inflight.contains(device) ? std::optional<InFlight>(m_inflight.value(device)) : std::nullopt;
    }
    InterruptCounts interrupts(const QList<int> &lines) override
    {
        bool asked = true;
        for (int line : lines)
            asked = asked && m_lines.contains(line);
        if (!asked) {
            for (int line : lines)
                if (!m_lines.contains(line))
                    m_lines << line;
            if (!fetch())
                return {};
        }
        InterruptCounts out;
        out.total = m_interrupts.total;
        for (int line : lines)
            if (m_interrupts.lines.contains(line))
                out.lines.insert(line, m_interrupts.lines.value(line));
        return out;
    }

private:
    Status fetch()
    {
        QJsonArray devices;
        for (const QString &d : std::as_const(m_devices))
            devices.append(d);
        QJsonArray lines;
        for (int l : std::as_const(m_lines))
            lines.append(l);
        auto answer = m_link->call(QJsonObject{{QStringLiteral("op"), QStringLiteral("counters")},
                                               {QStringLiteral("devices"), devices},
                                               {QStringLiteral("irqs"), lines}});
        if (!answer)
            return answer.error();
        if (!answer->value(u"ok").toBool())
            return makeError(errorCodeFromName(answer->value(u"code").toString()),
                             QStringLiteral("%1: %2").arg(m_link->target().host, answer->value(u"error").toString()));
        m_diskstats = answer->value(u"diskstats").toString().toLatin1();
        m_inflight.clear();
        const QJsonObject inflight = answer->value(u"inflight").toObject();
        for (auto it = inflight.begin(); it != inflight.end(); ++it) {
            const QJsonArray pair = it.value().toArray();
            m_inflight.insert(it.key(), InFlight{quint64(pair.at(0).toDouble()), quint64(pair.at(1).toDouble())});
        }
        m_interrupts = {};
        if (answer->value(u"irq_total").isDouble())
            m_interrupts.total = quint64(answer->value(u"irq_total").toDouble());
        const QJsonObject counts = answer->value(u"irq_lines").toObject();
        for (auto it = counts.begin(); it != counts.end(); ++it)
            m_interrupts.lines.insert(it.key().toInt(), quint64(it.value().toDouble()));
        return {};
    }

    std::shared_ptr<RemoteLink> m_link;
    QStringList m_devices;
    QList<int> m_lines;
    QByteArray m_diskstats;
    QHash<QString, InFlight> m_inflight;
    InterruptCounts m_interrupts;
};

/// LatencySource through op "latency": the host's cumulative histograms,
/// one round trip per reading (the agent loads its BPF program on the first).
class AgentLatencySource final : public LatencySource
{
public:
    explicit AgentLatencySource(std::shared_ptr<RemoteLink> link) : m_link(std::move(link)) {}

    Result<LatencyTotalsMap> totals() override
    {
        auto answer = m_link->call(QJsonObject{{QStringLiteral("op"), QStringLiteral("latency")}});
        if (!answer)
            return answer.error();
        if (!answer->value(u"ok").toBool())
            return makeError(errorCodeFromName(answer->value(u"code").toString()),
                             QStringLiteral("%1: %2").arg(m_link->target().host, answer->value(u"error").toString()));
        LatencyTotalsMap out;
        for (const QJsonValue &v : answer->value(u"totals").toArray()) {
            quint64 number = 0;
            const auto totals = latencyTotalsFromJson(v.toObject(), &number);
            if (!totals)
                return makeError(InvalidArgument, QStringLiteral("%1: the agent's latency figures do not parse")
                                                      .arg(m_link->target().host));
            out.insert(number, *totals);
        }
        return out;
    }

private:
    std::shared_ptr<RemoteLink> m_link;
};

// ---- The session backend -----------------------------------------------------------------

QJsonObject requestOf(const QString &op)
{
    return QJsonObject{{QStringLiteral("op"), op}};
}

/// The agent's session: every change goes there as the typed plan made
/// here on the mirror; the answer carries the touched queues' files, which
/// are written into the mirror (the session then refreshes those queues
/// only). The whole host is recorded again at connect and on rescan().
class AgentBackend final : public SessionBackend, public Measurer
{
public:
    AgentBackend(std::shared_ptr<RemoteLink> link, QString mirror) : m_link(std::move(link)), m_mirror(std::move(mirror)) {}

    /// The host as the user named it: what the paths there are prefixed with.
    QString host() const { return m_link->target().host; }
    bool canMeasure() const override { return true; }
    QString writerDescription() const override
    {
        const AgentHello &h = m_link->hello();
        return QStringLiteral("%1@%2: %3").arg(h.user, h.host, h.writer);
    }
    bool writerStarted() const override { return m_link->hello().readOnlyReason.isEmpty(); }
    void cancelPendingWrite() override {} // the host's writer never waits for a person
    Status reload() override;

    ChangeReport apply(const ChangePlan &plan, JournalMode mode) override;
    RestoreReport restoreTemporary() override { return restore(requestOf(QStringLiteral("restore_temporary"))); }
    void keepTemporary() override
    {
        if (auto answer = m_link->call(requestOf(QStringLiteral("keep_temporary"))))
            takeCounts(*answer);
    }
    RestoreReport revertAll() override { return restore(requestOf(QStringLiteral("revert_all"))); }
    int temporaryCount() const override { return m_temporary.load(); }
    int persistentCount() const override { return m_persistent.load(); }
    QString journalPath() const override { return m_journal; }

    RememberedApply applyRemembered(const ChangePlan &plan, const QString &profile) override;
    RememberedRevert revertRemembered() override;
    Result<std::optional<AppliedState>> appliedState() override;
    QString appliedStatePlace() override { return host(); }

    QList<PendingJournal> deadJournals() override;
    RestoreReport restoreJournal(const Journal &journal) override;
    Result<UdevRulesResult> changeUdevRules(RulesChange change, const QString &fileName,
                                            const QByteArray &content) override;

    std::unique_ptr<CounterSource> counterSource() override { return std::make_unique<AgentCounterSource>(m_link); }
    // The host's program, through its agent: a first reading says whether it loads.
    LatencyLoader latencyLoader() override
    {
        return [link = m_link]() -> Result<std::unique_ptr<LatencySource>> {
            auto source = std::make_unique<AgentLatencySource>(link);
            if (auto first = source->totals(); !first)
                return first.error();
            return std::unique_ptr<LatencySource>(std::move(source));
        };
    }
    // The host's agent runs them in its session (the mirror has no devices).
    ReadTestResult runReadTest(const ReadTest &test, const ReadTestObserver &observer,
                               const std::atomic_bool *cancel) override
    {
        return runReadTest(test.spec(), observer, cancel);
    }
    SweepResult runSweep(SessionPort &, const ReadaheadSweep &sweep, const SweepObserver &observer,
                         const std::atomic_bool *cancel) override
    {
        return runSweep(sweep.spec(), observer, cancel);
    }
    Status recordMirror(const QStringList &devices);
    Status fetchHistory(const QString &file)
    {
        auto answer = m_link->fetchFile(requestOf(QStringLiteral("history_db")), file);
        if (!answer)
            return answer.error();
        return {};
    }

private:
    ReadTestResult runReadTest(const ReadTestSpec &spec, const ReadTestObserver &observer,
                               const std::atomic_bool *cancel);
    SweepResult runSweep(const SweepSpec &spec, const SweepObserver &observer, const std::atomic_bool *cancel);
    static void feed(const QJsonObject &event, const ReadTestObserver &observer);
    /// Sends a change request; on a lost link, every write skipped and why.
    Result<QJsonObject> sendChange(const QJsonObject &request, const ChangePlan &plan, ChangeReport &failed);
    RestoreReport restore(const QJsonObject &request);
    /// The answer's "queues" written into the mirror (a whole snapshot
    /// when they cannot be).
    void followChange(const QJsonObject &answer);
    void takeCounts(const QJsonObject &answer)
    {
        if (answer.contains(u"temporary_count"))
            m_temporary.store(answer.value(u"temporary_count").toInt());
        if (answer.contains(u"persistent_count"))
            m_persistent.store(answer.value(u"persistent_count").toInt());
        if (answer.contains(u"journal")) {
            const QString there = answer.value(u"journal").toString();
            m_journal = there.isEmpty() ? QString() : host() + u':' + there;
        }
    }

    std::shared_ptr<RemoteLink> m_link;
    const QString m_mirror;
    std::atomic_int m_temporary{0};
    std::atomic_int m_persistent{0};
    QString m_journal; ///< HOST:PATH of the temporary journal there, as last said
};

Status AgentBackend::reload()
{
    // Unpacked beside the mirror (one file system), then swapped in.
    const QString parent = QFileInfo(m_mirror).absolutePath();
    QTemporaryDir fresh(parent + QStringLiteral("/blocktune-refresh-XXXXXX"));
    if (!fresh.isValid())
        return makeError(EIO, RemoteText::tr("cannot make a folder in %1: %2").arg(parent, fresh.errorString()));
    const QString tarball = fresh.filePath(QStringLiteral("host.tar.gz"));
    auto fetched = m_link->fetchSnapshot(tarball);
    if (!fetched)
        return fetched.error();
    const QString tree = fresh.filePath(QStringLiteral("tree"));
    QDir().mkpath(tree);
    if (Status unpacked = unpackSnapshot(tarball, tree); !unpacked)
        return unpacked;
    for (const char *top : {"sys", "proc", "dev"}) {
        const QString into = m_mirror + u'/' + QLatin1StringView(top);
        const QString from = tree + u'/' + QLatin1StringView(top);
        QDir(into).removeRecursively();
        if (QFileInfo::exists(from) && !QDir().rename(from, into))
            return makeError(EIO, RemoteText::tr("cannot move the snapshot of %1 into %2").arg(host(), into));
    }
    return {};
}

Status AgentBackend::recordMirror(const QStringList &devices)
{
    if (devices.isEmpty())
        return reload();
    QJsonObject request = requestOf(QStringLiteral("mirror"));
    request.insert(u"devices", QJsonArray::fromStringList(devices));
    auto answer = m_link->call(request);
    if (!answer)
        return answer.error();
    if (!answer->value(u"ok").toBool())
        return makeError(EIO, answer->value(u"error").toString());
    return writeSnapshotJson(m_mirror, *answer);
}

void AgentBackend::followChange(const QJsonObject &answer)
{
    if (!answer.value(u"queues").isObject())
        return;
    if (Status patched = patchQueueFiles(SysRoot(m_mirror), answer.value(u"queues").toObject()); !patched)
        (void)reload(); // the mirror lost step: record it whole (a failure shows at the next rescan)
}

Result<QJsonObject> AgentBackend::sendChange(const QJsonObject &request, const ChangePlan &plan, ChangeReport &failed)
{
    auto answer = m_link->call(request);
    if (answer)
        return answer;
    failed.plan = plan;
    failed.outcomes.clear();
    for (const PlannedWrite &w : plan.writes)
        failed.outcomes.append(SettingOutcome{w, SettingStatus::Skipped, {}, {}});
    failed.error = makeError(answer.error().code,
                             RemoteText::tr("%1; whatever was written there as temporary is restored "
                                            "by the agent").arg(answer.error().message));
    return answer.error();
}

ChangeReport AgentBackend::apply(const ChangePlan &plan, JournalMode mode)
{
    ChangeReport report = plannedReport(plan);
    if (!plan.ok() || plan.writes.isEmpty())
        return report;
    // The plan itself, typed: the agent checks it against the host and
    // writes it; a value that moved there since is refused by name.
    QJsonObject request = requestOf(mode == JournalMode::Temporary ? QStringLiteral("apply_temporary")
                                                                   : QStringLiteral("apply"));
    request.insert(u"plan", planToJson(plan));
    auto answer = sendChange(request, plan, report);
    if (!answer)
        return report;
    takeCounts(*answer);
    followChange(*answer);
    return changeReportFrom(*answer, plan, host());
}

RememberedApply AgentBackend::applyRemembered(const ChangePlan &plan, const QString &profile)
{
    RememberedApply out;
    QJsonObject request = requestOf(QStringLiteral("apply"));
    request.insert(u"plan", planToJson(plan));
    request.insert(u"remember", profile);
    auto answer = sendChange(request, plan, out.report);
    if (!answer)
        return out;
    takeCounts(*answer);
    followChange(*answer);
    out.report = changeReportFrom(*answer, plan, host());
    if (const QString path = answer->value(u"state_path").toString(); !path.isEmpty())
        out.statePath = host() + u':' + path;
    for (const QJsonValue &v : answer->value(u"messages").toArray())
        out.messages << v.toString();
    return out;
}

RememberedRevert AgentBackend::revertRemembered()
{
    RememberedRevert out;
    auto answer = m_link->call(requestOf(QStringLiteral("revert_profile")));
    if (!answer) {
        out.restore.messages << answer.error().message;
        out.restore.items << RestoreItem{{}, RestoreStatus::Failed, {}, {}, answer.error().message};
        return out;
    }
    takeCounts(*answer);
    followChange(*answer);
    out.restore = restoreReportFromJson(answer->value(u"report").toObject());
    if (answer->value(u"state").isObject())
        if (auto state = appliedStateFromJson(answer->value(u"state")))
            out.state = *state;
    if (!answer->value(u"ok").toBool() && out.restore.items.isEmpty() && answer->contains(u"error")) {
        out.restore.messages << answer->value(u"error").toString();
        out.restore.items << RestoreItem{{}, RestoreStatus::Failed, {}, {}, answer->value(u"error").toString()};
    }
    return out;
}

Result<std::optional<AppliedState>> AgentBackend::appliedState()
{
    auto answer = m_link->call(requestOf(QStringLiteral("applied_state")));
    if (!answer)
        return answer.error();
    if (!answer->value(u"ok").toBool())
        return makeError(errorCodeFromName(answer->value(u"code").toString()), answer->value(u"error").toString());
    if (!answer->value(u"state").isObject())
        return std::optional<AppliedState>();
    auto state = appliedStateFromJson(answer->value(u"state"));
    if (!state)
        return state.error();
    state->path = host() + u':' + state->path;
    return std::optional<AppliedState>(*state);
}

RestoreReport AgentBackend::restore(const QJsonObject &request)
{
    auto answer = m_link->call(request);
    if (!answer) {
        RestoreReport lost;
        lost.messages << answer.error().message;
        return lost;
    }
    takeCounts(*answer);
    followChange(*answer);
    RestoreReport report = restoreReportFromJson(answer->value(u"report").toObject());
    if (!answer->value(u"ok").toBool() && report.messages.isEmpty() && answer->contains(u"error"))
        report.messages << answer->value(u"error").toString();
    return report;
}

/// The host's dead journals, their paths as HOST:PATH. An agent that
/// cannot be asked (the link is gone) has none to offer.
QList<PendingJournal> AgentBackend::deadJournals()
{
    QList<PendingJournal> out;
    auto answer = m_link->call(requestOf(QStringLiteral("dead_journals")));
    if (!answer || !answer->value(u"ok").toBool())
        return out;
    const QString prefix = host() + u':';
    for (const QJsonValue &v : answer->value(u"journals").toArray()) {
        auto found = pendingJournalFromJson(v);
        PendingJournal p;
        if (found) {
            p = *found;
        } else {
            p.path = v.toObject().value(u"path").toString();
            p.error = found.error().message;
        }
        p.path.prepend(prefix);
        if (p.journal)
            p.journal->path = p.path;
        if (!p.setAsideTo.isEmpty())
            p.setAsideTo.prepend(prefix);
        out << p;
    }
    return out;
}

/// The agent restores the journal by its path there, from its own file:
/// what `journal` holds here is not sent.
RestoreReport AgentBackend::restoreJournal(const Journal &journal)
{
    const QString prefix = host() + u':';
    QJsonObject request = requestOf(QStringLiteral("restore_journal"));
    request.insert(u"path", journal.path.startsWith(prefix) ? journal.path.mid(prefix.size()) : journal.path);
    auto answer = m_link->call(request);
    RestoreReport report;
    if (answer) {
        takeCounts(*answer);
        followChange(*answer);
        report = restoreReportFromJson(answer->value(u"report").toObject());
        if (answer->value(u"ok").toBool() || !report.items.isEmpty())
            return report;
    }
    // Refused there, or the link is gone: nothing was restored.
    const QString why = answer ? answer->value(u"error").toString() : answer.error().message;
    report.messages << why;
    for (const JournalEntry &e : journal.entries)
        report.items.append(RestoreItem{e, RestoreStatus::Failed, {}, {}, why});
    if (journal.entries.isEmpty())
        report.items.append(RestoreItem{{}, RestoreStatus::Failed, {}, {}, why});
    return report;
}

Result<UdevRulesResult> AgentBackend::changeUdevRules(RulesChange change, const QString &fileName,
                                                      const QByteArray &content)
{
    auto answer = m_link->call(QJsonObject{
        {QStringLiteral("op"), QStringLiteral("udev_rules")},
        {QStringLiteral("change"), change == RulesChange::Install ? QStringLiteral("install") : QStringLiteral("remove")},
        {QStringLiteral("file"), fileName},
        {QStringLiteral("content"), QString::fromUtf8(content)}});
    if (!answer)
        return answer.error();
    if (!answer->value(u"ok").toBool())
        return makeError(errorCodeFromName(answer->value(u"code").toString()), answer->value(u"error").toString());
    UdevRulesResult r;
    r.path = host() + u':' + answer->value(u"path").toString();
    r.replaced = answer->value(u"replaced").toBool();
    r.udevdRunning = answer->value(u"udevd_running").toBool();
    for (const QJsonValue &v : answer->value(u"commands").toArray())
        r.commands << v.toString();
    r.message = answer->value(u"message").toString();
    return r;
}

ReadTestResult AgentBackend::runReadTest(const ReadTestSpec &spec, const ReadTestObserver &observer,
                                         const std::atomic_bool *cancel)
{
    auto answer = m_link->call(QJsonObject{{QStringLiteral("op"), QStringLiteral("readtest")},
                                           {QStringLiteral("spec"), readTestSpecToJson(spec)},
                                           {QStringLiteral("source"), m_link->target().historySource}},
                               [&](const QJsonObject &event) { feed(event, observer); }, cancel);
    if (answer && answer->value(u"result").isObject())
        return readTestFromJson(answer->value(u"result"));
    ReadTestResult failed;
    failed.kind = spec.kind;
    failed.spec = spec;
    failed.failed = true;
    failed.errors << (answer ? answer->value(u"error").toString() : answer.error().message);
    return failed;
}

SweepResult AgentBackend::runSweep(const SweepSpec &spec, const SweepObserver &observer, const std::atomic_bool *cancel)
{
    QJsonArray values;
    for (quint64 kib : spec.readAheadKiB)
        values.append(double(kib));
    auto answer = m_link->call(QJsonObject{{QStringLiteral("op"), QStringLiteral("sweep")},
                                           {QStringLiteral("device"), spec.device},
                                           {QStringLiteral("read_ahead_kb"), values},
                                           {QStringLiteral("spec"), readTestSpecToJson(spec.test)},
                                           {QStringLiteral("source"), m_link->target().historySource}},
                               [&](const QJsonObject &event) {
                                   const QString name = event.value(u"event").toString();
                                   if (name == u"point_started" && observer.pointStarted)
                                       observer.pointStarted(event.value(u"index").toInt(),
                                                             quint64(event.value(u"read_ahead_kb").toDouble()));
                                   else if (name == u"point" && observer.pointFinished)
                                       observer.pointFinished(sweepPointFromJson(event.value(u"point")));
                                   else
                                       feed(event, observer.test);
                               },
                               cancel);
    if (answer && answer->value(u"sweep").isObject()) {
        takeCounts(*answer);
        return sweepFromJson(answer->value(u"sweep"));
    }
    SweepResult failed;
    failed.test = spec.test.kind;
    failed.device = spec.device;
    failed.failed = true;
    failed.errors << (answer ? answer->value(u"error").toString() : answer.error().message);
    if (!answer)
        failed.restoreMessage = RemoteText::tr("the connection to %1 ended: the agent there restores what the sweep changed")
                                    .arg(host());
    return failed;
}

void AgentBackend::feed(const QJsonObject &event, const ReadTestObserver &observer)
{
    const QString name = event.value(u"event").toString();
    if (name == u"progress" && observer.progress) {
        QList<IntervalSample> fresh;
        for (const QJsonValue &v : event.value(u"samples").toArray())
            fresh << intervalFromJson(v);
        QStringList names;
        for (const QJsonValue &v : event.value(u"names").toArray())
            names << v.toString();
        observer.progress(event.value(u"run").toInt(), event.value(u"label").toString(), fresh, names);
    } else if (name == u"run" && observer.runFinished) {
        observer.runFinished(runFromJson(event.value(u"run")));
    }
}

} // namespace

QJsonObject appliedStateToJson(const AppliedState &state)
{
    QJsonArray entries;
    for (const JournalEntry &e : state.journal.entries)
        entries.append(QJsonObject{{QStringLiteral("device"), e.device},
                                   {QStringLiteral("attribute"), e.attribute},
                                   {QStringLiteral("original"), e.original},
                                   {QStringLiteral("scheduler"), e.scheduler}});
    return {{QStringLiteral("path"), state.path},
            {QStringLiteral("profiles"), QJsonArray::fromStringList(state.profiles)},
            {QStringLiteral("created"), state.created},
            {QStringLiteral("entries"), entries}};
}

Result<AppliedState> appliedStateFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return makeError(InvalidArgument, QStringLiteral("'state' is not an object"));
    const QJsonObject o = v.toObject();
    AppliedState state;
    state.path = o.value(u"path").toString();
    state.created = o.value(u"created").toString();
    for (const QJsonValue &p : o.value(u"profiles").toArray())
        state.profiles << p.toString();
    for (const QJsonValue &item : o.value(u"entries").toArray()) {
        const QJsonObject e = item.toObject();
        state.journal.entries << JournalEntry{e.value(u"device").toString(), 0, 0, {}, e.value(u"attribute").toString(),
                                              e.value(u"original").toString(), e.value(u"scheduler").toString()};
    }
    state.journal.path = state.path;
    state.journal.mode = JournalMode::Persistent;
    state.journal.created = state.created;
    return state;
}

Result<RemoteConnection> connectToHost(const RemoteTarget &target, const QString &mirrorDir, MirrorAtConnect record)
{
    auto link = RemoteLink::connect(target);
    if (!link)
        return link.error();
    auto backend = std::make_shared<AgentBackend>(*link, mirrorDir);
    if (record == MirrorAtConnect::Whole) {
        if (Status recorded = backend->reload(); !recorded)
            return recorded.error();
    }
    return RemoteConnection{*link,
                            backend,
                            backend,
                            [backend](const QString &file) { return backend->fetchHistory(file); },
                            mirrorDir,
                            [backend](const QStringList &devices) { return backend->recordMirror(devices); },
                            makeHostProfileLibrary(*link)};
}

SessionOptions hostSessionOptions(const RemoteConnection &connection)
{
    SessionOptions options;
    options.backend = connection.backend;
    options.readOnlyReason = connection.link->hello().readOnlyReason;
    return options;
}

QStringList sshConfigHosts(const QString &configFile)
{
    QStringList hosts;
    QFile file(configFile);
    if (!file.open(QIODevice::ReadOnly))
        return hosts;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        // "Host a b", "Host=a", keywords are case-insensitive (ssh_config(5)).
        qsizetype cut = 0;
        while (cut < line.size() && !line.at(cut).isSpace() && line.at(cut) != u'=')
            ++cut;
        if (line.left(cut).compare(u"host", Qt::CaseInsensitive) != 0)
            continue;
        QString rest = line.mid(cut).trimmed();
        if (rest.startsWith(u'='))
            rest = rest.mid(1);
        for (const QString &name : rest.split(u' ', Qt::SkipEmptyParts)) {
            const QString host = name.trimmed().remove(u'"');
            if (host.isEmpty() || host.contains(u'*') || host.contains(u'?') || host.startsWith(u'!')
                || hosts.contains(host))
                continue;
            hosts << host;
        }
    }
    return hosts;
}

} // namespace blocktune
