// ansible-playbook against the private sshd on loopback (tests/support/
// privatesshd.h), the blocktune.tuning collection from the source tree, on
// this test's own loop device: apply is changed and lands in sysfs, a second
// run is ok, check mode reports a change and writes nothing, diff shows the
// values, reverted brings back the values from before, an unknown profile
// or a malformed src fails with blocktune's words and changes nothing, the
// devices guard refuses another device before writing, installed in check
// mode shows the rules and writes none, facts show the device.
// Ansible and the modules write only into the test's folder (root: sshd,
// loop devices).
#include "ansibleenv.h"
#include "privatesshd.h"
#include "testloop.h"

#include <QFile>
#include <QJsonArray>
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
QJsonObject taskResult(const QString &tree)
{
    QFile f(tree + QStringLiteral("/testhost"));
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
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
                                 "\"read_ahead_kb\": 4096}}]}\n")
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
        ProcessResult r = play(profileTask(src));
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

        r = play(QStringLiteral("blocktune.tuning.facts: {cli: %1}").arg(binary("blocktune-cli")));
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QJsonObject facts = result().value(u"ansible_facts").toObject().value(u"blocktune").toObject();
        QCOMPARE(facts.value(u"by_name").toObject().value(dev).toObject().value(u"read_ahead_kb").toInteger(), 4096);
        QCOMPARE(facts.value(u"applied_profile").toString(), QStringLiteral("fleet-test"));
        QVERIFY(facts.value(u"drift").toArray().isEmpty());

        // Someone changes the readahead. A profile from src is not on the
        // host: its drift cannot be checked, and the facts say so.
        QVERIFY(setQueueAttr(dev, "read_ahead_kb", QStringLiteral("256")));
        const QString factsTask = QStringLiteral("blocktune.tuning.facts: {cli: %1}").arg(binary("blocktune-cli"));
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
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(result().value(u"changed").toBool(), true);
        QVERIFY2(r.out.contains(QByteArray("+++ after: " + rules.toUtf8())), r.out.constData());
        QVERIFY2(r.out.contains("read_ahead_kb") && r.out.contains(m_loop->name().toUtf8()), r.out.constData());
        QVERIFY(!QFile::exists(rules));
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
