// ansible-playbook against the private sshd on loopback (tests/support/
// privatesshd.h), the blocktune.tuning collection from the source tree, on
// this test's own loop device: apply is changed and lands in sysfs, a second
// run is ok, check mode reports a change and writes nothing, diff shows the
// values, reverted brings back the values from before, an unknown profile
// or a malformed src fails with blocktune's words and changes nothing, the
// devices guard refuses another device before writing, installed in check
// mode shows the rules and writes none (fails as the install would where
// udev is not installed), facts show the device.
// Beside testhost, "fleet hosts": aliases of the same sshd whose
// blocktune-cli is the build's on a copy of the recorded md-raid10-f2 tree
// (an interpreter wrapper puts it on PATH), so every state can run for real,
// installed and absent included, without touching this machine's
// /etc/udev: each state in check mode then for real from several starting
// states (the two compared), and docs/fleets.md's and README's playbooks as
// written, drift included.
// Ansible and the modules write only into the test's folder (root: sshd,
// loop devices).
#include "ansibleenv.h"
#include "privatesshd.h"
#include "testloop.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

void writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

/// The play's one task result on testhost, as ansible-core's own tree
/// callback wrote it (TREE/testhost, JSON).
QJsonObject taskResult(const QString &tree, const QString &host = QStringLiteral("testhost"))
{
    QFile f(tree + u'/' + host);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

/// Every file under `dir` with its contents' hash: what a run changed.
QMap<QString, QByteArray> snapshot(const QString &dir)
{
    QMap<QString, QByteArray> out;
    for (QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories); it.hasNext();) {
        QFile f(it.next());
        out.insert(f.fileName(), f.open(QIODevice::ReadOnly)
                                     ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1)
                                     : QByteArray("unreadable"));
    }
    return out;
}

/// The ```yaml blocks of a Markdown file in the source tree.
QStringList yamlBlocks(const char *doc)
{
    QFile f(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/") + QString::fromLatin1(doc));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression fence(QStringLiteral("\n```yaml\n(.*?)```"),
                                          QRegularExpression::DotMatchesEverythingOption);
    QStringList out;
    for (auto it = fence.globalMatch(QString::fromUtf8(f.readAll())); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

} // namespace

class TestAnsible : public QObject
{
    Q_OBJECT

    PrivateSshd m_sshd;
    QTemporaryDir m_work;
    QProcessEnvironment m_env;
    std::optional<TestLoop> m_loop;

    /// Runs a play of one task on testhost; extra: ansible-playbook options.
    ProcessResult play(const QString &task, const QStringList &extra = {})
    {
        const QString state = m_work.filePath(QStringLiteral("blocktune"));
        const QString playbook = m_work.filePath(QStringLiteral("play.yml"));
        QFile f(playbook);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        // The modules run blocktune-cli as root on the host: its profiles,
        // journals and history go into the test's folder too.
        f.write(QStringLiteral("- hosts: testhost\n  gather_facts: false\n  environment:\n"
                               "    HOME: %1/home\n    XDG_CONFIG_HOME: %1/config\n    XDG_DATA_HOME: %1/data\n"
                               "    XDG_CACHE_HOME: %1/cache\n    XDG_RUNTIME_DIR: %1/runtime\n"
                               "    BLOCKTUNE_JOURNAL_DIR: %1/journals\n    BLOCKTUNE_HISTORY_DB: %1/history.sqlite\n"
                               "  tasks:\n    - %2\n")
                    .arg(state, task)
                    .toUtf8());
        f.close();
        QDir(tree()).removeRecursively();
        return runWith(m_env, QStringLiteral("ansible-playbook"),
                       QStringList{QStringLiteral("-i"), m_work.filePath(QStringLiteral("inventory.ini")), playbook}
                           + extra);
    }

    QString tree() const { return m_work.filePath(QStringLiteral("tree")); }
    QJsonObject result() const { return taskResult(tree()); }

    QString profileTask(const QString &args) const
    {
        return QStringLiteral("blocktune.tuning.profile: {cli: %1, %2}").arg(binary("blocktune-cli"), args);
    }

    /// A fleet host: ALIAS of the same sshd whose modules run a Python that
    /// puts a blocktune-cli on PATH working on its own copy of md-raid10-f2
    /// (journals, profiles and history in its folder). Returns its inventory line.
    QString fleetHost(const QString &alias, bool withUdev = true, bool withCli = true)
    {
        const QString dir = m_work.filePath(QStringLiteral("hosts/") + alias);
        QDir(dir).removeRecursively();
        for (const char *d : {"bin", "home", "config", "data", "cache", "runtime", "journals"})
            if (!QDir().mkpath(dir + u'/' + QString::fromLatin1(d)))
                return {};
        QFile::setPermissions(dir + QStringLiteral("/journals"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QFile::setPermissions(dir + QStringLiteral("/runtime"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (!copyTree(recordedTree("md-raid10-f2"), treeOf(alias)))
            return {};
        if (withUdev)
            QDir().mkpath(treeOf(alias) + QStringLiteral("/etc/udev/rules.d"));
        if (withCli)
            writeScript(dir + QStringLiteral("/bin/blocktune-cli"),
                        QStringLiteral("#!/bin/sh\nexec %1 --sysroot %2 \"$@\"\n").arg(binary("blocktune-cli"), treeOf(alias)));
        writeScript(dir + QStringLiteral("/python"),
                    QStringLiteral("#!/bin/sh\nexport PATH=%1/bin:/usr/sbin:/usr/bin:/sbin:/bin %2\n"
                                   "exec /usr/bin/python3 \"$@\"\n")
                        .arg(dir, hostEnvironment(alias).join(u' ')));
        return QStringLiteral("%1 ansible_host=testhost ansible_ssh_common_args='-F %2' ansible_python_interpreter=%3/python")
            .arg(alias, m_sshd.sshConfig(), dir);
    }
    QString treeOf(const QString &alias) const { return m_work.filePath(QStringLiteral("hosts/%1/tree").arg(alias)); }
    static void writeScript(const QString &path, const QString &text)
    {
        writeFile(path, text.toUtf8());
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    /// A fleet host's own places for blocktune's journals, profiles and
    /// history (VAR=VALUE each, no quoting needed: the test's folder).
    QStringList hostEnvironment(const QString &alias) const
    {
        const QString d = m_work.filePath(QStringLiteral("hosts/") + alias);
        return {u"HOME="_qs + d + u"/home"_qs, u"XDG_CONFIG_HOME="_qs + d + u"/config"_qs,
                u"XDG_DATA_HOME="_qs + d + u"/data"_qs, u"XDG_CACHE_HOME="_qs + d + u"/cache"_qs,
                u"XDG_RUNTIME_DIR="_qs + d + u"/runtime"_qs, u"BLOCKTUNE_JOURNAL_DIR="_qs + d + u"/journals"_qs,
                u"BLOCKTUNE_HISTORY_DB="_qs + d + u"/history.sqlite"_qs};
    }
    /// blocktune-cli as a fleet host's wrapper runs it (to set up its state).
    ProcessResult fleetCli(const QString &alias, const QStringList &args)
    {
        return run(QStringLiteral("env"), hostEnvironment(alias)
                                              + QStringList{binary("blocktune-cli"), QStringLiteral("--sysroot"), treeOf(alias)}
                                              + args);
    }
    /// ansible-playbook PLAYBOOK (text) on INVENTORY (text); the tree callback's results in tree().
    /// Eight hosts at a time: every alias shares one ssh master, and the
    /// private sshd opens at most 10 sessions on one connection (MaxSessions).
    ProcessResult playbook(const QString &inventory, const QString &text, const QStringList &extra = {})
    {
        const QString inv = m_work.filePath(QStringLiteral("fleet.ini"));
        writeFile(inv, inventory.toUtf8());
        const QString book = m_work.filePath(QStringLiteral("fleet.yml"));
        writeFile(book, text.toUtf8());
        QDir(tree()).removeRecursively();
        // Pipelining: each module one ssh command, its code on stdin (no
        // temporary files to copy), which roughly halves these playbooks' time.
        QProcessEnvironment env = m_env;
        env.insert(QStringLiteral("ANSIBLE_PIPELINING"), QStringLiteral("True"));
        return runWith(env, QStringLiteral("ansible-playbook"),
                       QStringList{QStringLiteral("-i"), inv, QStringLiteral("-f"), QStringLiteral("8"), book} + extra);
    }

private Q_SLOTS:
    void initTestCase()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (const QString why = PrivateSshd::unavailable(); !why.isEmpty())
            QFAIL(qPrintable(why));
        if (QStandardPaths::findExecutable(QStringLiteral("ansible-playbook")).isEmpty())
            QFAIL("ansible-playbook is missing (apt-get install ansible-core; scripts/bootstrap.sh)");
        const QString started = m_sshd.start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
        m_loop.emplace(16 << 20, knownContents());
        QVERIFY(m_loop->isValid());
        m_env = ansibleEnvironment(m_work);
        // ansible-core's own tree callback keeps each host's last result as JSON.
        m_env.insert(QStringLiteral("ANSIBLE_CALLBACKS_ENABLED"), QStringLiteral("ansible.builtin.tree"));
        m_env.insert(QStringLiteral("ANSIBLE_CALLBACK_TREE_DIR"), tree());
        m_env.insert(QStringLiteral("ANSIBLE_LOAD_CALLBACK_PLUGINS"), QStringLiteral("1"));
        const QString state = m_work.filePath(QStringLiteral("blocktune"));
        for (const char *d : {"home", "config", "data", "cache", "runtime", "journals"})
            QVERIFY(QDir().mkpath(state + u'/' + QString::fromLatin1(d)));
        QFile::setPermissions(state + QStringLiteral("/journals"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QFile::setPermissions(state + QStringLiteral("/runtime"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        writeFile(m_work.filePath(QStringLiteral("inventory.ini")),
                  QStringLiteral("testhost ansible_ssh_common_args='-F %1' ansible_python_interpreter=/usr/bin/python3\n")
                      .arg(m_sshd.sshConfig())
                      .toUtf8());
        writeFile(m_work.filePath(QStringLiteral("loop.json")),
                  QStringLiteral("{\"schema\": 1, \"name\": \"fleet-test\", \"description\": \"the test's loop device\",\n"
                                 " \"rules\": [{\"match\": {\"name\": \"%1\"}, \"set\": {\"scheduler\": \"mq-deadline\", "
                                 "\"read_ahead_kb\": 4096, \"iosched.fifo_batch\": 8}}]}\n")
                      .arg(m_loop->name())
                      .toUtf8());
    }

    void cleanupTestCase()
    {
        m_loop.reset(); // its settings put back, then detached
        m_sshd.stop();
    }

    void applyIsChangedThenOkThenChecksWithoutWriting()
    {
        const QString dev = m_loop->name();
        const QString src = QStringLiteral("src: %1").arg(m_work.filePath(QStringLiteral("loop.json")));
        QCOMPARE(readAhead(dev), quint64(128));
        // Under scheduler none there is no iosched/fifo_batch yet: the diff
        // says so instead of printing None.
        ProcessResult r = play(profileTask(src), {QStringLiteral("--check"), QStringLiteral("--diff")});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.out.contains(QByteArray("-" + dev.toLatin1() + " iosched/fifo_batch = (does not exist yet)")),
                 r.out.constData());
        QVERIFY2(r.out.contains(QByteArray("+" + dev.toLatin1() + " iosched/fifo_batch = 8")), r.out.constData());
        QVERIFY2(!r.out.contains("None"), r.out.constData());
        QCOMPARE(readAhead(dev), quint64(128));
        r = play(profileTask(src));
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QJsonObject t = result();
        QCOMPARE(t.value(u"changed").toBool(), true);
        QCOMPARE(readAhead(dev), quint64(4096));
        QCOMPARE(queueAttr(dev, "scheduler").contains(QStringLiteral("[mq-deadline]")), true);

        r = play(profileTask(src));
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        t = result();
        QCOMPARE(t.value(u"changed").toBool(), false);
        QVERIFY(!t.value(u"failed").toBool());

        // Someone puts readahead back: check mode says it would change, writes nothing.
        QVERIFY(setQueueAttr(dev, "read_ahead_kb", QStringLiteral("128")));
        r = play(profileTask(src), {QStringLiteral("--check"), QStringLiteral("--diff")});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        t = result();
        QCOMPARE(t.value(u"changed").toBool(), true);
        QCOMPARE(readAhead(dev), quint64(128));
        // --diff: what the user sees, each setting before and after.
        const QByteArray line = dev.toLatin1() + " read_ahead_kb = ";
        QVERIFY2(r.out.contains(QByteArray("-" + line + "128")), r.out.constData());
        QVERIFY2(r.out.contains(QByteArray("+" + line + "4096")), r.out.constData());
        QVERIFY(!t.value(u"changes").toArray().isEmpty());
    }

    void factsShowTheDeviceThenRevertBringsTheValuesBack()
    {
        const QString dev = m_loop->name();
        const QString src = QStringLiteral("src: %1").arg(m_work.filePath(QStringLiteral("loop.json")));
        ProcessResult r = play(profileTask(src));
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(readAhead(dev), quint64(4096));

        r = play(QStringLiteral("blocktune.tuning.blocktune_facts: {cli: %1}").arg(binary("blocktune-cli")));
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QJsonObject facts = result().value(u"ansible_facts").toObject().value(u"blocktune").toObject();
        QCOMPARE(facts.value(u"by_name").toObject().value(dev).toObject().value(u"read_ahead_kb").toInteger(), 4096);
        QCOMPARE(facts.value(u"applied_profile").toString(), QStringLiteral("fleet-test"));
        QVERIFY(facts.value(u"drift").toArray().isEmpty());

        // Someone changes the readahead. A profile from src is not on the
        // host: its drift cannot be checked, and the facts say so.
        QVERIFY(setQueueAttr(dev, "read_ahead_kb", QStringLiteral("256")));
        const QString factsTask = QStringLiteral("blocktune.tuning.blocktune_facts: {cli: %1}").arg(binary("blocktune-cli"));
        r = play(factsTask);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QJsonObject bt = result().value(u"ansible_facts").toObject().value(u"blocktune").toObject();
        QVERIFY2(bt.value(u"drift_error").toString().contains(QStringLiteral("fleet-test")),
                 QJsonDocument(bt).toJson().constData());
        // Kept on the host under its name, the facts carry the drift.
        const QString store = m_work.filePath(QStringLiteral("blocktune/config/blocktune/profiles"));
        QVERIFY(QDir().mkpath(store));
        QVERIFY(QFile::copy(m_work.filePath(QStringLiteral("loop.json")), store + QStringLiteral("/fleet-test.json")));
        r = play(factsTask);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        bt = result().value(u"ansible_facts").toObject().value(u"blocktune").toObject();
        const QJsonArray drift = bt.value(u"drift").toArray();
        QVERIFY2(drift.size() == 1 && bt.value(u"drift_error").isNull(), QJsonDocument(bt).toJson().constData());
        QCOMPARE(drift.first().toObject().value(u"device").toString(), dev);
        QCOMPARE(drift.first().toObject().value(u"actual").toVariant().toString(), QStringLiteral("256"));
        QVERIFY(QFile::remove(store + QStringLiteral("/fleet-test.json")));

        // The values from before the first apply: 128 and none.
        r = play(profileTask(QStringLiteral("state: reverted")), {QStringLiteral("--diff")});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(result().value(u"changed").toBool(), true);
        QCOMPARE(readAhead(dev), quint64(128));
        QVERIFY(queueAttr(dev, "scheduler").contains(QStringLiteral("[none]")));
        r = play(profileTask(QStringLiteral("state: reverted")));
        QCOMPARE(result().value(u"changed").toBool(), false);
    }

    void anUnknownProfileFailsWithBlocktunesWordsAndChangesNothing()
    {
        const QString dev = m_loop->name();
        QVERIFY(setQueueAttr(dev, "read_ahead_kb", QStringLiteral("256")));
        const ProcessResult r = play(profileTask(QStringLiteral("name: no-such-profile")));
        QCOMPARE(r.exitCode, 2); // ansible-playbook: a task failed
        QVERIFY2(r.out.contains("FAILED!"), r.out.constData());
        const QJsonObject t = result();
        // (the tree callback keeps the module's answer without its "failed" key)
        QVERIFY2(t.value(u"msg").toString().contains(QStringLiteral("no profile named 'no-such-profile'")),
                 qPrintable(t.value(u"msg").toString()));
        QCOMPARE(readAhead(dev), quint64(256));
        QVERIFY(setQueueAttr(dev, "read_ahead_kb", QStringLiteral("128")));
    }

    void aMalformedSrcFailsWithBlocktunesWordsAndChangesNothing()
    {
        const QString dev = m_loop->name();
        QVERIFY(setQueueAttr(dev, "read_ahead_kb", QStringLiteral("256")));
        // A readahead that is not a number, and a file cut off half way.
        writeFile(m_work.filePath(QStringLiteral("bad-value.json")),
                  QStringLiteral("{\"schema\": 1, \"name\": \"fleet-bad\", \"rules\": [{\"match\": {\"name\": \"%1\"}, "
                                 "\"set\": {\"read_ahead_kb\": \"lots\"}}]}\n")
                      .arg(dev)
                      .toUtf8());
        writeFile(m_work.filePath(QStringLiteral("cut.json")), "{\"schema\": 1, \"name\": \"fleet-cut\", \"rules\": [");
        // blocktune's words, naming the src the playbook gave (not the
        // module's temporary copy of it on the host).
        const QList<std::pair<QString, QString>> cases{
            {m_work.filePath(QStringLiteral("bad-value.json")),
             QStringLiteral(": rule 1, set.read_ahead_kb: 'lots' is not a whole number (allowed: 0 to")},
            {m_work.filePath(QStringLiteral("cut.json")), QStringLiteral(":1:46: not valid JSON")}};
        for (const auto &[file, words] : cases) {
            const ProcessResult r = play(profileTask(QStringLiteral("src: %1").arg(file)));
            QCOMPARE(r.exitCode, 2);
            const QString msg = result().value(u"msg").toString();
            QVERIFY2(msg.contains(file + words), qPrintable(msg));
            QCOMPARE(readAhead(dev), quint64(256));
        }
        QVERIFY(setQueueAttr(dev, "read_ahead_kb", QStringLiteral("128")));
    }

    void theDeviceFilterRefusesOtherDevicesBeforeWriting()
    {
        const QString dev = m_loop->name();
        const QString src = QStringLiteral("src: %1").arg(m_work.filePath(QStringLiteral("loop.json")));
        ProcessResult r = play(profileTask(src + QStringLiteral(", devices: [md127]")));
        QCOMPARE(r.exitCode, 2);
        const QString msg = result().value(u"msg").toString();
        QVERIFY2(msg.contains(dev) && msg.contains(QStringLiteral("outside devices md127")), qPrintable(msg));
        QCOMPARE(readAhead(dev), quint64(128));
        QVERIFY(queueAttr(dev, "scheduler").contains(QStringLiteral("[none]")));
        // Named, the same device is allowed.
        r = play(profileTask(src + QStringLiteral(", devices: [%1]").arg(dev)), {QStringLiteral("--check")});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(result().value(u"changed").toBool(), true);
        QCOMPARE(readAhead(dev), quint64(128));
    }

    void installedInCheckModeShowsTheRulesAndWritesNone()
    {
        // Only check mode here: a real install writes /etc/udev/rules.d and
        // reloads udev (tst_profile_cli installs into a recorded tree).
        const QString rules = QStringLiteral("/etc/udev/rules.d/70-blocktune-fleet-test.rules");
        if (QFile::exists(rules))
            QSKIP("a fleet-test profile is installed on this machine; not touching it");
        const QString src = QStringLiteral("src: %1").arg(m_work.filePath(QStringLiteral("loop.json")));
        ProcessResult r = play(profileTask(src + QStringLiteral(", state: installed")),
                               {QStringLiteral("--check"), QStringLiteral("--diff")});
        if (!QFileInfo(QStringLiteral("/etc/udev/rules.d")).isDir()) {
            // No udev on this machine: check mode fails as the install would
            // (the fleet hosts of everyStateInCheckMode... install for real).
            QVERIFY2(r.exitCode == 2, QByteArray(r.out + r.err).constData());
            QVERIFY2(result().value(u"msg").toString().contains(u"udev is not installed here"_qs), r.out.constData());
            QVERIFY(!QFileInfo::exists(QStringLiteral("/etc/udev/rules.d")));
        } else {
            QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
            QCOMPARE(result().value(u"changed").toBool(), true);
            QVERIFY2(r.out.contains(QByteArray("+++ after: " + rules.toUtf8())), r.out.constData());
            QVERIFY2(r.out.contains("read_ahead_kb") && r.out.contains(m_loop->name().toUtf8()), r.out.constData());
            QVERIFY(!QFile::exists(rules));
        }
        r = play(profileTask(src + QStringLiteral(", state: absent")), {QStringLiteral("--check")});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(result().value(u"changed").toBool(), false);
    }

    void metricsThroughHostAreTheHostsOwn()
    {
        // The same sshd carries `blocktune-cli --host`: metrics run by the
        // agent there show the host's loop device with its sysfs value.
        const QString dev = m_loop->name();
        QVERIFY(setQueueAttr(dev, "read_ahead_kb", QStringLiteral("512")));
        const ProcessResult r = run(binary("blocktune-cli"),
                                    {QStringLiteral("--host"), PrivateSshd::host(), QStringLiteral("--ssh-config"),
                                     m_sshd.sshConfig(), QStringLiteral("--remote-command"), PrivateSshd::agentCommand(),
                                     QStringLiteral("metrics")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains(QByteArray("blocktune_read_ahead_bytes{device=\"" + dev.toLatin1() + "\"} 524288\n")),
                 r.out.left(600).constData());
        QVERIFY(setQueueAttr(dev, "read_ahead_kb", QStringLiteral("128")));
    }

    void everyStateInCheckModeSaysWhatTheRealRunDoes()
    {
        // name: [state, profile, setup, expected changed, expected failure words]
        struct Case
        {
            QString alias, state, name, setup;
            bool changed;
            QString failure;
        };
        const QString dflt = QStringLiteral("streaming-md");
        const QList<Case> cases{
            {u"applied_fresh"_qs, u"applied"_qs, dflt, {}, true, {}},
            {u"applied_already"_qs, u"applied"_qs, dflt, u"apply"_qs, false, {}},
            {u"applied_drifted"_qs, u"applied"_qs, dflt, u"apply drift"_qs, true, {}},
            {u"reverted_none"_qs, u"reverted"_qs, {}, {}, false, {}},
            {u"reverted_applied"_qs, u"reverted"_qs, {}, u"apply"_qs, true, {}},
            // The values are already the originals, but a state file exists:
            // the revert forgets it, so both runs say changed.
            {u"reverted_originals"_qs, u"reverted"_qs, {}, u"apply originals"_qs, true, {}},
            {u"installed_fresh"_qs, u"installed"_qs, dflt, {}, true, {}},
            {u"installed_already"_qs, u"installed"_qs, dflt, u"install"_qs, false, {}},
            // No /etc/udev/rules.d: check mode fails as the real run does.
            {u"installed_no_udev"_qs, u"installed"_qs, dflt, u"no-udev"_qs, false, u"udev is not installed here"_qs},
            {u"absent_installed"_qs, u"absent"_qs, dflt, u"install"_qs, true, {}},
            {u"absent_none"_qs, u"absent"_qs, dflt, {}, false, {}},
            // Installed from a file; no profile of that name on the host.
            {u"absent_gone"_qs, u"absent"_qs, u"gone"_qs, u"install-gone"_qs, true, {}},
            {u"absent_no_udev"_qs, u"absent"_qs, u"gone"_qs, u"no-udev"_qs, false, {}},
            {u"no_cli"_qs, u"applied"_qs, dflt, u"no-cli"_qs, false, u"blocktune-cli was not found on this host"_qs},
        };
        QString inventory = QStringLiteral("[cases]\n");
        writeFile(m_work.filePath(QStringLiteral("gone.json")),
                  "{\"schema\": 1, \"name\": \"gone\", \"rules\": [{\"match\": {\"type\": \"md\"}, "
                  "\"set\": {\"read_ahead_kb\": 16384}}]}\n");
        for (const Case &c : cases) {
            const QString line = fleetHost(c.alias, !c.setup.contains(u"no-udev"_qs), !c.setup.contains(u"no-cli"_qs));
            QVERIFY2(!line.isEmpty(), qPrintable(c.alias));
            inventory += line + QStringLiteral(" case_state=%1").arg(c.state)
                         + (c.name.isEmpty() ? QString() : QStringLiteral(" case_name=%1").arg(c.name)) + u'\n';
            const QString before = treeOf(c.alias) + QStringLiteral(".before");
            if (c.setup.contains(u"originals"_qs))
                QVERIFY(copyTree(treeOf(c.alias), before));
            const auto cli = [&](const QStringList &args) {
                const ProcessResult r = fleetCli(c.alias, args);
                QVERIFY2(r.exitCode == 0, QByteArray(c.alias.toUtf8() + ": " + r.err).constData());
            };
            if (c.setup.contains(u"apply"_qs))
                cli({u"profile"_qs, u"apply"_qs, dflt});
            if (c.setup.contains(u"drift"_qs))
                writeFile(treeOf(c.alias) + QStringLiteral("/sys/block/md0/queue/read_ahead_kb"), "8192\n");
            if (c.setup.contains(u"originals"_qs)) { // every value back by hand, the state file kept
                QVERIFY(QDir(treeOf(c.alias) + QStringLiteral("/sys")).removeRecursively());
                QVERIFY(copyTree(before + QStringLiteral("/sys"), treeOf(c.alias) + QStringLiteral("/sys")));
            }
            if (c.setup == u"install"_qs || c.setup.contains(u"apply install"_qs))
                cli({u"profile"_qs, u"install"_qs, dflt});
            if (c.setup == u"install-gone"_qs)
                cli({u"profile"_qs, u"install"_qs, m_work.filePath(QStringLiteral("gone.json"))});
        }
        const QString task = QStringLiteral(
            "- hosts: cases\n  gather_facts: false\n  tasks:\n    - blocktune.tuning.profile:\n"
            "        name: \"{{ case_name | default(omit) }}\"\n        state: \"{{ case_state }}\"\n");
        const QMap<QString, QByteArray> untouched = snapshot(m_work.filePath(QStringLiteral("hosts")));

        const ProcessResult check = playbook(inventory, task, {u"--check"_qs, u"--diff"_qs});
        QMap<QString, QJsonObject> predicted;
        for (const Case &c : cases)
            predicted.insert(c.alias, taskResult(tree(), c.alias));
        QVERIFY2(snapshot(m_work.filePath(QStringLiteral("hosts"))) == untouched, "check mode changed a host");

        const ProcessResult real = playbook(inventory, task, {u"--diff"_qs});
        for (const Case &c : cases) {
            const QJsonObject p = predicted.value(c.alias);
            const QJsonObject r = taskResult(tree(), c.alias);
            const QByteArray shown = c.alias.toUtf8() + "\ncheck: " + QJsonDocument(p).toJson() + "\nreal: "
                                     + QJsonDocument(r).toJson();
            const QByteArray fatal = "fatal: [" + c.alias.toUtf8() + "]";
            QCOMPARE(check.out.contains(fatal), !c.failure.isEmpty());
            QCOMPARE(real.out.contains(fatal), !c.failure.isEmpty());
            if (!c.failure.isEmpty()) {
                QVERIFY2(p.value(u"msg").toString().contains(c.failure), shown.constData());
                QVERIFY2(r.value(u"msg").toString().contains(c.failure), shown.constData());
                continue;
            }
            QVERIFY2(p.value(u"changed").toBool() == c.changed, shown.constData());
            QVERIFY2(r.value(u"changed").toBool() == c.changed, shown.constData());
            QVERIFY2(p.value(u"diff") == r.value(u"diff"), shown.constData());
            QVERIFY2(!QJsonDocument(r).toJson().contains("None"), shown.constData());
        }
        QVERIFY2(predicted.value(u"no_cli"_qs).value(u"msg").toString().contains(u"install the blocktune package"_qs),
                 qPrintable(predicted.value(u"no_cli"_qs).value(u"msg").toString()));
        // The real runs did what they said.
        const QString rules = QStringLiteral("/etc/udev/rules.d/70-blocktune-%1.rules");
        QVERIFY(QFile::exists(treeOf(u"installed_fresh"_qs) + rules.arg(dflt)));
        QVERIFY(!QFile::exists(treeOf(u"absent_installed"_qs) + rules.arg(dflt)));
        QVERIFY(!QFile::exists(treeOf(u"absent_gone"_qs) + rules.arg(u"gone"_qs)));
        QVERIFY(!QDir(treeOf(u"installed_no_udev"_qs) + QStringLiteral("/etc/udev")).exists());
        // blocktune's warnings are the task's: what the udev export cannot
        // carry, and that udevadm did not run (a recorded tree).
        const QString warnings = QString::fromUtf8(QJsonDocument(taskResult(tree(), u"installed_fresh"_qs)
                                                                     .value(u"warnings").toArray()).toJson());
        QVERIFY2(warnings.contains(u"udev cannot compare with the current value"_qs), qPrintable(warnings));
        QVERIFY2(warnings.contains(u"udevadm was not run"_qs), qPrintable(warnings));

        // From wherever the real run left each host, a second run changes nothing.
        const ProcessResult again = playbook(inventory, task);
        for (const Case &c : cases)
            if (c.failure.isEmpty())
                QVERIFY2(!taskResult(tree(), c.alias).value(u"changed").toBool(), qPrintable(c.alias + u"\n"_qs + QString::fromUtf8(again.out)));
    }

    void theDocumentedPlaybooksRunAndNameTheDrift()
    {
        const QStringList fleets = yamlBlocks("docs/fleets.md");
        const QStringList readme = yamlBlocks("README.md");
        QString rollout;
        QStringList checks;
        for (const QString &b : fleets + readme)
            if (b.contains(u"fail_msg"_qs))
                checks << b;
        for (const QString &b : fleets)
            if (b.contains(u"state:"_qs))
                rollout = b;
        QVERIFY2(!rollout.isEmpty() && checks.size() == 2, "docs/fleets.md: a roll-out and a drift check; README: the drift check");
        checks.removeDuplicates(); // README's is fleets.md's, word for word: run once
        const QString inventory = QStringLiteral("[streaming]\n") + fleetHost(u"streaming1"_qs) + u'\n';

        ProcessResult r = playbook(inventory, rollout);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.out.contains("changed: [streaming1] => (item=applied)")
                     && r.out.contains("changed: [streaming1] => (item=installed)") && r.out.contains("changed=1 "),
                 r.out.constData());
        QVERIFY(QFile::exists(treeOf(u"streaming1"_qs) + QStringLiteral("/etc/udev/rules.d/70-blocktune-streaming-md.rules")));
        r = playbook(inventory, rollout);
        QVERIFY2(r.exitCode == 0 && r.out.contains("ok: [streaming1] => (item=applied)")
                     && r.out.contains("ok: [streaming1] => (item=installed)") && r.out.contains("changed=0 "),
                 r.out.constData());
        for (const QString &check : checks) {
            r = playbook(inventory, check);
            QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err + check.toUtf8()).constData());
        }
        // Someone sets md0 back to the kernel's 8 MiB floor: the drift check
        // fails, naming the device, the setting and both values.
        writeFile(treeOf(u"streaming1"_qs) + QStringLiteral("/sys/block/md0/queue/read_ahead_kb"), "8192\n");
        for (const QString &check : checks) {
            r = playbook(inventory, check);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(!r.out.contains("not string type"), r.out.constData());
            QVERIFY2(r.out.contains("md0 read_ahead_kb is 8192, streaming-md says"), r.out.constData());
        }
        // The module's old name still works, and says it is deprecated.
        r = playbook(inventory, QStringLiteral("- hosts: streaming\n  gather_facts: false\n  tasks:\n"
                                               "    - blocktune.tuning.facts:\n"));
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(QByteArray(r.out + r.err).simplified().contains("blocktune.tuning.facts has been deprecated. use "
                                                                 "blocktune.tuning.blocktune_facts instead"),
                 QByteArray(r.out + r.err).constData());
        QCOMPARE(taskResult(tree(), u"streaming1"_qs).value(u"ansible_facts").toObject().value(u"blocktune").toObject()
                     .value(u"applied_profile").toString(), u"streaming-md"_qs);
    }

    void nothingOutsideTheTestsFolder()
    {
        // The remote temporaries went where ANSIBLE_REMOTE_TEMP says, and
        // nothing was made under root's real ~/.ansible by these runs.
        QVERIFY(QDir(m_work.filePath(QStringLiteral("remote-tmp"))).exists());
        QVERIFY(QDir(m_work.filePath(QStringLiteral("ansible-home"))).exists());
    }
};

QTEST_GUILESS_MAIN(TestAnsible)
#include "tst_ansible.moc"
