// ansible-doc renders each module of the blocktune.tuning collection: its
// DOCUMENTATION, EXAMPLES and RETURN parse as Ansible reads them; the
// EXAMPLES and the playbooks of README.md and docs/fleets.md pass
// ansible-playbook --syntax-check; `ansible-test sanity` passes every test,
// offline (tests/ansible/ansible-sanity.sh).
#include "ansibleenv.h"

#include <QRegularExpression>

#include <QTest>

using namespace blocktune::test;

class TestAnsibleDoc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyModuleRenders_data()
    {
        QTest::addColumn<QString>("module");
        QTest::addColumn<QString>("mustSay");
        QTest::addColumn<QString>("shownAs"); // the module whose page ansible-doc shows
        QTest::newRow("profile") << QStringLiteral("blocktune.tuning.profile") << QStringLiteral("state")
                                 << QStringLiteral("blocktune.tuning.profile");
        QTest::newRow("blocktune_facts") << QStringLiteral("blocktune.tuning.blocktune_facts")
                                         << QStringLiteral("drift_summary") << QStringLiteral("blocktune.tuning.blocktune_facts");
        // The old name, routed to the new one (meta/runtime.yml), with a
        // deprecation warning naming the new one.
        QTest::newRow("facts (deprecated)") << QStringLiteral("blocktune.tuning.facts") << QStringLiteral("drift_summary")
                                            << QStringLiteral("blocktune.tuning.blocktune_facts");
    }
    void everyModuleRenders()
    {
        QFETCH(QString, module);
        QFETCH(QString, mustSay);
        QFETCH(QString, shownAs);
        const QString doc = QStandardPaths::findExecutable(QStringLiteral("ansible-doc"));
        if (doc.isEmpty())
            QFAIL("ansible-doc is missing (apt-get install ansible-core; scripts/bootstrap.sh)");
        QTemporaryDir work;
        const auto env = ansibleEnvironment(work);
        const ProcessResult text = runWith(env, doc, {module});
        QVERIFY2(text.exitCode == 0 && !text.err.contains("ERROR"), text.err.constData());
        QVERIFY2(text.out.contains(QByteArray("> " + shownAs.toUpper().toUtf8() + ' ')), text.out.left(300).constData());
        const bool deprecated = module != shownAs;
        QVERIFY2(text.err.simplified().contains(QByteArray(module.toUtf8() + " has been deprecated. use " + shownAs.toUtf8()))
                     == deprecated,
                 text.err.constData());
        QVERIFY(text.out.contains("EXAMPLES"));
        QVERIFY(text.out.contains("RETURN VALUES"));
        QVERIFY(text.out.contains(mustSay.toUtf8()));
        // The machine-readable form too: every part present.
        const ProcessResult json = runWith(env, doc, {QStringLiteral("--json"), module});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object().value(module).toObject();
        QVERIFY(!o.value(u"doc").toObject().value(u"options").toObject().isEmpty());
        QVERIFY(!o.value(u"examples").toString().isEmpty());
        QVERIFY(!o.value(u"return").toObject().isEmpty());
    }

    void examplesAndDocumentedPlaybooksPassTheSyntaxCheck_data()
    {
        QTest::addColumn<QString>("playbook"); // a whole play
        for (const char *module : {"blocktune.tuning.profile", "blocktune.tuning.blocktune_facts"})
            QTest::newRow(module) << examplesAsPlay(QString::fromLatin1(module));
        for (const char *doc : {"README.md", "docs/fleets.md"}) {
            QFile f(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/") + QString::fromLatin1(doc));
            QVERIFY(f.open(QIODevice::ReadOnly));
            static const QRegularExpression fence(QStringLiteral("\n```yaml\n(.*?)```"),
                                                  QRegularExpression::DotMatchesEverythingOption);
            int n = 0;
            for (auto it = fence.globalMatch(QString::fromUtf8(f.readAll())); it.hasNext(); ++n)
                QTest::addRow("%s playbook %d", doc, n) << it.next().captured(1);
            QVERIFY2(n > 0, doc); // each shows the playbook that fails on drift
        }
    }
    void examplesAndDocumentedPlaybooksPassTheSyntaxCheck()
    {
        QFETCH(QString, playbook);
        QVERIFY(!playbook.isEmpty());
        QTemporaryDir work;
        const auto env = ansibleEnvironment(work);
        QFile f(work.filePath(QStringLiteral("play.yml")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(playbook.toUtf8());
        f.close();
        // Module names resolve, arguments and keywords parse; nothing runs.
        const ProcessResult r = runWith(env, QStringLiteral("ansible-playbook"),
                                        {QStringLiteral("--syntax-check"), QStringLiteral("-i"),
                                         QStringLiteral("localhost,"), f.fileName()});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err + playbook.toUtf8()).constData());
    }

    void ansibleTestSanityPassesOffline()
    {
        // All of ansible-test sanity's tests (32 with ansible-core 2.14),
        // those needing Python packages with Debian's instead of PyPI's.
        if (QStandardPaths::findExecutable(QStringLiteral("ansible-test")).isEmpty())
            QFAIL("ansible-test is missing (apt-get install ansible-core; scripts/bootstrap.sh)");
        QTemporaryDir work;
        const ProcessResult r = run(QStringLiteral("bash"),
                                    {QStringLiteral(BLOCKTUNE_SOURCE_DIR "/tests/ansible/ansible-sanity.sh"), work.path()},
                                    600000);
        const QByteArray all = r.out + r.err;
        QVERIFY2(r.exitCode == 0, all.constData());
        QVERIFY2(all.count("Running sanity test ") >= 32, all.constData());
        for (const char *test : {"validate-modules", "import", "pylint", "pep8", "yamllint", "runtime-metadata",
                                 "ansible-doc"})
            QVERIFY2(all.contains(QByteArray(QByteArray("Running sanity test \"") + test + "\"")), test);
        QVERIFY2(!all.contains("does not have pip available"), all.constData());
    }

private:
    /// A module's EXAMPLES (as ansible-doc reads them) as the tasks of one play.
    static QString examplesAsPlay(const QString &module)
    {
        QTemporaryDir work;
        const ProcessResult json = runWith(ansibleEnvironment(work), QStringLiteral("ansible-doc"),
                                           {QStringLiteral("--json"), module});
        const QString examples =
            QJsonDocument::fromJson(json.out).object().value(module).toObject().value(u"examples").toString().trimmed();
        if (examples.isEmpty())
            return {};
        return QStringLiteral("- hosts: all\n  gather_facts: false\n  tasks:\n    ")
               + QString(examples).replace(u'\n', QStringLiteral("\n    ")) + u'\n';
    }
};

QTEST_GUILESS_MAIN(TestAnsibleDoc)
#include "tst_ansible_doc.moc"
