// ansible-doc renders each module of the blocktune.tuning collection: its
// DOCUMENTATION, EXAMPLES and RETURN parse as Ansible reads them.
#include "ansibleenv.h"

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
        QTest::newRow("profile") << QStringLiteral("blocktune.tuning.profile") << QStringLiteral("state");
        QTest::newRow("facts") << QStringLiteral("blocktune.tuning.facts") << QStringLiteral("ansible_facts");
    }
    void everyModuleRenders()
    {
        QFETCH(QString, module);
        QFETCH(QString, mustSay);
        const QString doc = QStandardPaths::findExecutable(QStringLiteral("ansible-doc"));
        if (doc.isEmpty())
            QFAIL("ansible-doc is missing (apt-get install ansible-core; scripts/bootstrap.sh)");
        QTemporaryDir work;
        const auto env = ansibleEnvironment(work);
        const ProcessResult text = runWith(env, doc, {module});
        QVERIFY2(text.exitCode == 0 && !text.err.contains("ERROR"), text.err.constData());
        QVERIFY(text.out.contains(module.toUpper().toUtf8()));
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
};

QTEST_GUILESS_MAIN(TestAnsibleDoc)
#include "tst_ansible_doc.moc"
