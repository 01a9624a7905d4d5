// blocktune-helper, run as a program with request lines on stdin: every
// hostile or malformed request is refused with a reason and changes
// nothing; good requests write and report what the kernel kept. Also the
// client side (HelperClient/HelperWriter) and the polkit action file.
#include "tuningtestutil.h"

#include "privilege/privilege.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QXmlStreamReader>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QList<QJsonObject> answers(const QByteArray &out)
{
    QList<QJsonObject> list;
    for (const QByteArray &line : out.split('\n'))
        if (!line.isEmpty())
            list.append(QJsonDocument::fromJson(line).object());
    return list;
}

ProcessResult helper(const QStringList &args, const QByteArray &input)
{
    return run(binary("blocktune-helper"), args, 30000, input);
}

} // namespace

class TestHelper : public QObject
{
    Q_OBJECT

    // One copy for the request table: refusals must leave it as it was, and
    // the few good writes touch values no other row looks at.
    std::unique_ptr<TreeCopy> m_tree;

private Q_SLOTS:
    void initTestCase()
    {
        m_tree = std::make_unique<TreeCopy>(u"md-raid10-f2"_qs);
        QVERIFY(m_tree->isValid());
    }

    void request_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("expect"); // the value when ok, else a substring of the error

        auto row = [](const char *name) -> QTestData & { return QTest::newRow(name); };
        row("hello") << QByteArray("{\"op\":\"hello\"}") << true << QString();
        row("get scheduler") << QByteArray("{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"scheduler\"}") << true << u"mq-deadline"_qs;
        row("get tunable") << QByteArray("{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"iosched/read_expire\"}") << true << u"500"_qs;
        row("set readahead") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"4096\"}") << true << u"4096"_qs;
        row("set tunable") << QByteArray("{\"op\":\"set\",\"device\":\"sdc\",\"attribute\":\"iosched/fifo_batch\",\"value\":\"8\"}") << true << u"8"_qs;
        row("set scheduler") << QByteArray("{\"op\":\"set\",\"device\":\"sdd\",\"attribute\":\"scheduler\",\"value\":\"bfq\"}") << true << u"bfq"_qs;

        row("traversal ../sda") << QByteArray("{\"op\":\"set\",\"device\":\"../sda\",\"attribute\":\"read_ahead_kb\",\"value\":\"1\"}")
                                << false << u"'../sda' is not a block device kernel name"_qs;
        row("traversal sda/..") << QByteArray("{\"op\":\"set\",\"device\":\"sda/..\",\"attribute\":\"read_ahead_kb\",\"value\":\"1\"}")
                                << false << u"is not a block device kernel name"_qs;
        row("dot-dot") << QByteArray("{\"op\":\"get\",\"device\":\"..\",\"attribute\":\"scheduler\"}") << false
                       << u"is not a block device kernel name"_qs;
        row("NUL in the name") << QByteArray("{\"op\":\"set\",\"device\":\"sd\\u0000b\",\"attribute\":\"read_ahead_kb\",\"value\":\"1\"}")
                               << false << u"is not a block device kernel name"_qs;
        row("raw NUL byte") << QByteArray("{\"op\":\"get\",\"device\":\"sd\0b\",\"attribute\":\"scheduler\"}", 50) << false
                            << u"NUL byte"_qs;
        row("space in the name") << QByteArray("{\"op\":\"get\",\"device\":\"sdb \",\"attribute\":\"scheduler\"}") << false
                                 << u"is not a block device kernel name"_qs;
        row("no such device") << QByteArray("{\"op\":\"set\",\"device\":\"sdz\",\"attribute\":\"read_ahead_kb\",\"value\":\"1\"}") << false
                              << u"no block device named 'sdz'"_qs;
        row("partition") << QByteArray("{\"op\":\"set\",\"device\":\"sda1\",\"attribute\":\"read_ahead_kb\",\"value\":\"128\"}") << false
                         << u"sda1 is a partition: its queue settings belong to the whole disk sda"_qs;
        row("no device") << QByteArray("{\"op\":\"set\",\"attribute\":\"read_ahead_kb\",\"value\":\"128\"}") << false
                         << u"no device named in the request"_qs;
        row("attribute not allowed") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"queue/rotational\",\"value\":\"0\"}")
                                     << false << u"attribute 'queue/rotational' is not one blocktune changes"_qs;
        row("rotational") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"rotational\",\"value\":\"0\"}") << false
                          << u"attribute 'rotational' is not one blocktune changes"_qs;
        row("attribute traversal") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"../../etc/passwd\",\"value\":\"x\"}")
                                   << false << u"attribute '../../etc/passwd' is not one blocktune changes"_qs;
        row("tunable traversal") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"iosched/../../../../x\",\"value\":\"1\"}")
                                 << false << u"is not a scheduler tunable name"_qs;
        row("tunable of another scheduler") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"iosched/slice_idle\",\"value\":\"0\"}")
                                            << false << u"slice_idle is not a tunable of mq-deadline, the active scheduler on sdb"_qs;
        row("scheduler not listed") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"scheduler\",\"value\":\"cfq\"}") << false
                                    << u"scheduler 'cfq' is not available on sdb (available: none, mq-deadline, kyber, bfq)"_qs;
        row("scheduler with a space") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"scheduler\",\"value\":\"none bfq\"}")
                                      << false << u"scheduler 'none bfq' is not available on sdb"_qs;
        row("two lines in a value") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"4096\\n1\"}")
                                    << false << u"the value must be one line of printable ASCII"_qs;
        row("long value") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"" + QByteArray(100, '9') + "\"}")
                          << false << u"longer than 64 characters"_qs;
        row("number instead of string") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":4096}")
                                        << false << u"field 'value' must be a string"_qs;
        row("negative") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"-1\"}") << false
                        << u"not a whole decimal number (allowed: 0 to 4294967295 KiB)"_qs;
        row("above UINT_MAX") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"4294967296\"}")
                              << false << u"out of range (allowed: 0 to 4294967295 KiB)"_qs;
        row("max_sectors_kb above hw") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"max_sectors_kb\",\"value\":\"999999\"}")
                                       << false << u"max_sectors_kb '999999' on sdb: out of range (allowed: 4 to"_qs;
        row("nr_requests above MAX_SCHED_RQ") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"nr_requests\",\"value\":\"4096\"}")
                                              << false << u"out of range (allowed: 1 to 2048)"_qs;
        row("nr_requests on md") << QByteArray("{\"op\":\"set\",\"device\":\"md0\",\"attribute\":\"nr_requests\",\"value\":\"64\"}")
                                 << false << u"not settable here"_qs;
        row("context switch missing") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"context_readahead\",\"value\":\"1\"}")
                                      << false << u"sdb has no queue/context_readahead switch"_qs;
        row("vm switch with a device") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"vm/enable_context_readahead\",\"value\":\"1\"}")
                                       << false << u"is machine-wide: send it without a device"_qs;
        row("vm switch missing") << QByteArray("{\"op\":\"set\",\"attribute\":\"vm/enable_context_readahead\",\"value\":\"1\"}")
                                 << false << u"this kernel has no /proc/sys/vm/enable_context_readahead"_qs;
        row("not JSON") << QByteArray("read_ahead_kb=4096") << false << u"request is not a JSON object"_qs;
        row("JSON array") << QByteArray("[\"set\"]") << false << u"request is not a JSON object"_qs;
        row("empty line") << QByteArray("") << false << u"request is not a JSON object"_qs;
        row("unknown op") << QByteArray("{\"op\":\"exec\",\"device\":\"sdb\"}") << false << u"unknown op 'exec' (ops: hello, get, set, install_rules, remove_rules)"_qs;
        row("no op") << QByteArray("{\"device\":\"sdb\"}") << false << u"unknown op ''"_qs;
        row("unknown field") << QByteArray("{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"scheduler\",\"command\":\"/bin/sh\"}")
                             << false << u"unknown field 'command'"_qs;
        row("get with a value") << QByteArray("{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"scheduler\",\"value\":\"x\"}") << false
                                << u"'get' takes no value"_qs;
        row("set without a value") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\"}") << false
                                   << u"'set' needs a string 'value'"_qs;
    }
    void request()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, ok);
        QFETCH(QString, expect);
        const TreeCopy &tree = *m_tree;
        const auto before = tree.snapshot();
        const ProcessResult r = helper({u"--sysroot"_qs, tree.path()}, line + '\n');
        QCOMPARE(r.exitCode, 0); // EOF ends the session normally
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 1);
        const QJsonObject &a = got.constFirst();
        QCOMPARE(a.value(u"ok").toBool(), ok);
        if (ok) {
            if (!expect.isEmpty())
                QCOMPARE(a.value(u"value").toString(), expect);
        } else {
            QVERIFY2(a.value(u"error").toString().contains(expect), qPrintable(a.value(u"error").toString()));
            QVERIFY(!a.value(u"code").toString().isEmpty());
            QCOMPARE(tree.snapshot(), before); // a refusal changes nothing
        }
    }

    void sessionOfManyRequests()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const QString previous = tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs);
        QByteArray input;
        input += "{\"op\":\"hello\",\"id\":\"a\"}" "\n";
        input += "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"../../x\"}" "\n";
        input += QByteArray(10000, 'x') + '\n'; // over-long: refused, the stream stays in step
        input += "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"2048\",\"id\":7}" "\n";
        input += "{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\"}"; // no newline before EOF
        const ProcessResult r = helper({u"--sysroot"_qs, tree.path()}, input);
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 5);
        QCOMPARE(got[0].value(u"id").toString(), u"a"_qs);
        QCOMPARE(got[0].value(u"program").toString(), u"blocktune-helper"_qs);
        QCOMPARE(got[0].value(u"version").toInt(), kHelperProtocolVersion);
        QVERIFY(!got[1].value(u"ok").toBool());
        QVERIFY(!got[2].value(u"ok").toBool());
        QVERIFY(got[2].value(u"error").toString().contains(u"longer than 4096 bytes"_qs));
        QVERIFY(got[3].value(u"ok").toBool());
        QCOMPARE(got[3].value(u"id").toInt(), 7);
        QCOMPARE(got[3].value(u"previous").toString(), previous);
        QCOMPARE(got[3].value(u"value").toString(), u"2048"_qs);
        QCOMPARE(got[4].value(u"value").toString(), u"2048"_qs);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"2048"_qs);
    }

    void overlongAtEndOfInput()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const ProcessResult r = helper({u"--sysroot"_qs, tree.path()}, QByteArray(100000, '{'));
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 1);
        QVERIFY(got[0].value(u"error").toString().contains(u"longer than 4096 bytes"_qs));
    }

    void symlinkedAttributeIsRefused()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const QString outside = tree.path() + u"/outside"_qs;
        QFile f(outside);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep\n");
        f.close();
        const QString attr = tree.attr(u"sdb"_qs, u"queue/read_ahead_kb"_qs);
        QVERIFY(QFile::remove(attr));
        QVERIFY(QFile::link(outside, attr));
        const ProcessResult r = helper({u"--sysroot"_qs, tree.path()},
                                       "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"4096\"}" "\n");
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 1);
        QVERIFY(!got[0].value(u"ok").toBool());
        QVERIFY2(got[0].value(u"error").toString().contains(u"is not a regular file"_qs),
                 qPrintable(got[0].value(u"error").toString()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep\n"));
    }

    void arguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("pkexecUid");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrText");
        const QString tree = recordedTree("md-raid10-f2");
        QTest::newRow("sysroot under pkexec") << QStringList{u"--sysroot"_qs, tree} << QByteArray("1000") << 2
                                              << u"--sysroot is refused when started through pkexec"_qs;
        QTest::newRow("sysroot without sys") << QStringList{u"--sysroot"_qs, u"/nonexistent"_qs} << QByteArray() << 2
                                             << u"no sys/ directory there"_qs;
        QTest::newRow("unknown argument") << QStringList{u"--exec"_qs} << QByteArray() << 2 << u"unknown argument '--exec'"_qs;
        QTest::newRow("version") << QStringList{u"--version"_qs} << QByteArray() << 0 << QString();
    }
    void arguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, pkexecUid);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrText);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!pkexecUid.isEmpty())
            env.insert(u"PKEXEC_UID"_qs, QString::fromLatin1(pkexecUid));
        p.setProcessEnvironment(env);
        p.start(binary("blocktune-helper"), args);
        QVERIFY(p.waitForStarted());
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), exitCode);
        const QString err = QString::fromLocal8Bit(p.readAllStandardError());
        QVERIFY2(err.contains(stderrText), qPrintable(err));
    }

    void liveLoopDevice()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        LiveSettingsGuard guard(dev); // a failing test must not leave its loop tuned
        QVERIFY(writeLive(dev, u"queue/scheduler"_qs, "none")); // the kernel keeps a reused loop's scheduler
        const auto original = liveSettings(dev);
        auto req = [&](const QByteArray &attr, const QByteArray &value) {
            return QByteArray("{\"op\":\"set\",\"device\":\"" + dev.toLatin1() + "\",\"attribute\":\"" + attr
                              + "\",\"value\":\"" + value + "\"}\n");
        };
        QByteArray input = req("read_ahead_kb", "5") + req("scheduler", "mq-deadline")
                           + req("iosched/read_expire", "250") + req("nr_requests", "99999")
                           + req("scheduler", "none") + req("nr_requests", "100000")
                           + req("read_ahead_kb", original.value(u"read_ahead_kb"_qs).toLatin1());
        const ProcessResult r = helper({}, input);
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 7);
        // Page rounding: the kernel keeps whole 4 KiB pages, the helper says so.
        QVERIFY(got[0].value(u"ok").toBool());
        QCOMPARE(got[0].value(u"value").toString(), u"4"_qs);
        QCOMPARE(got[0].value(u"previous").toString(), original.value(u"read_ahead_kb"_qs));
        QCOMPARE(got[1].value(u"value").toString(), u"mq-deadline"_qs);
        // read_expire is kept in jiffies: what comes back is what sysfs shows.
        QVERIFY(got[2].value(u"ok").toBool());
        QVERIFY(isPlainDecimal(got[2].value(u"value").toString()));
        QVERIFY(qAbs(got[2].value(u"value").toString().toInt() - 250) <= 10);
        QVERIFY(!got[3].value(u"ok").toBool()); // 99999 > 2048 with a scheduler
        QCOMPARE(got[4].value(u"value").toString(), u"none"_qs);
        QVERIFY(!got[5].value(u"ok").toBool()); // beyond the tag depth without one
        QVERIFY2(got[5].value(u"error").toString().contains(u"allowed: 1 to "_qs), qPrintable(got[5].value(u"error").toString()));
        QVERIFY(got[6].value(u"ok").toBool());
        QCOMPARE(liveSettings(dev).value(u"read_ahead_kb"_qs), original.value(u"read_ahead_kb"_qs));
        QCOMPARE(liveSettings(dev).value(u"scheduler"_qs), original.value(u"scheduler"_qs));
        // The switch back to none reset nr_requests to the tag depth; put
        // the device back exactly as it was found.
        writeLive(dev, u"queue/nr_requests"_qs, original.value(u"nr_requests"_qs).toLatin1());
        QCOMPARE(liveSettings(dev), original);
    }

    void clientAndWriter()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const QStringList command{binary("blocktune-helper"), u"--sysroot"_qs, tree.path()};
        HelperWriter writer(command);
        auto w = writer.write(AttributeWrite{u"sdb"_qs, u"read_ahead_kb"_qs, u"1024"_qs});
        QVERIFY2(w.ok(), w.ok() ? "" : qPrintable(w.error().message));
        QCOMPARE(w->kept, u"1024"_qs);
        QCOMPARE(w->previous, u"128"_qs);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"1024"_qs);

        auto bad = writer.write(AttributeWrite{u"sdb"_qs, u"scheduler"_qs, u"cfq"_qs});
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().code, int(InvalidArgument));
        QVERIFY(bad.error().message.contains(u"scheduler 'cfq' is not available on sdb"_qs));

        QCOMPARE(writer.starts(), 1); // one helper for the whole session

        // Asynchronous use: requests queue up, answers come in order.
        HelperClient client(command);
        QSignalSpy spy(&client, &HelperClient::replyReceived);
        const quint64 a = client.submit({{u"op"_qs, u"get"_qs}, {u"device"_qs, u"sdb"_qs}, {u"attribute"_qs, u"read_ahead_kb"_qs}});
        const quint64 b = client.submit({{u"op"_qs, u"get"_qs}, {u"device"_qs, u"nosuch"_qs}, {u"attribute"_qs, u"scheduler"_qs}});
        const quint64 c = client.submit({{u"op"_qs, u"set"_qs}, {u"device"_qs, u"sdc"_qs}, {u"attribute"_qs, u"read_ahead_kb"_qs},
                                         {u"value"_qs, u"512"_qs}});
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 3, 10000);
        const auto reply = [&](int i) { return spy.at(i).at(0).value<HelperReply>(); };
        QCOMPARE(reply(0).id, a);
        QVERIFY(reply(0).ok);
        QCOMPARE(reply(0).body.value(u"value").toString(), u"1024"_qs);
        QCOMPARE(reply(1).id, b);
        QVERIFY(!reply(1).ok);
        QVERIFY(reply(1).error.contains(u"no block device named 'nosuch'"_qs));
        QCOMPARE(reply(2).id, c);
        QVERIFY(reply(2).ok);
        QCOMPARE(tree.read(u"sdc"_qs, u"queue/read_ahead_kb"_qs), u"512"_qs);

        client.stop();
        QVERIFY(!client.isRunning());
        // A stopped helper is started again on the next request.
        QVERIFY(client.call({{u"op"_qs, u"set"_qs}, {u"device"_qs, u"sdb"_qs}, {u"attribute"_qs, u"read_ahead_kb"_qs},
                             {u"value"_qs, u"128"_qs}}).ok);
        QCOMPARE(client.starts(), 2);
        QVERIFY(writer.write(AttributeWrite{u"sdb"_qs, u"read_ahead_kb"_qs, u"256"_qs}).ok());
        QCOMPARE(writer.starts(), 1);
    }

    void clientRefusesWhatIsNotTheHelper_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("error");
        QTest::newRow("echoes") << QStringList{u"cat"_qs} << u"is not a blocktune-helper speaking protocol 1"_qs;
        QTest::newRow("exits") << QStringList{u"false"_qs} << u"exited with code 1"_qs;
        QTest::newRow("missing") << QStringList{u"/nonexistent/blocktune-helper"_qs} << u"not found or not executable"_qs;
    }
    void clientRefusesWhatIsNotTheHelper()
    {
        QFETCH(QStringList, command);
        QFETCH(QString, error);
        HelperWriter writer(command);
        auto w = writer.write(AttributeWrite{u"sdb"_qs, u"read_ahead_kb"_qs, u"1024"_qs});
        QVERIFY(!w.ok());
        QVERIFY2(w.error().message.contains(error), qPrintable(w.error().message));
    }

    void polkitAction()
    {
        QFile f(QStringLiteral(BLOCKTUNE_BIN_DIR "/../resources/org.blocktune.helper.policy"));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        QXmlStreamReader xml(&f);
        QString action, execPath, element;
        QMap<QString, QString> defaults;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement()) {
                element = xml.name().toString();
                if (element == u"action")
                    action = xml.attributes().value(QLatin1StringView("id")).toString();
                if (element == u"annotate" && xml.attributes().value(QLatin1StringView("key")) == u"org.freedesktop.policykit.exec.path")
                    execPath = xml.readElementText();
            } else if (xml.isCharacters() && !xml.isWhitespace()
                       && (element == u"allow_any" || element == u"allow_inactive" || element == u"allow_active")) {
                defaults.insert(element, xml.text().toString());
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(action, u"org.blocktune.helper.write"_qs);
        QCOMPARE(defaults.value(u"allow_active"_qs), u"auth_admin_keep"_qs);
        QCOMPARE(defaults.size(), 3);
        QVERIFY2(execPath.startsWith(u'/') && execPath.endsWith(u"/blocktune-helper"_qs), qPrintable(execPath));
    }
};

QTEST_GUILESS_MAIN(TestHelper)
#include "tst_helper.moc"
