// docs/RELIABILITY.md is kept true by the tests it names: every row names at
// least one, and every name is a test (a ctest entry), a test function in
// that test's source, or a fuzz target. A renamed or removed test fails here,
// so the table cannot go on promising what nothing checks any more.
#include "testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// What the test tree offers: each ctest name with its sources, the fuzz targets.
struct TestTree
{
    QHash<QString, QString> sourceOf; ///< tst_NAME -> the text of its sources ("" for a script)
    QSet<QString> fuzzers;

    static TestTree scan(const QString &testsDir)
    {
        TestTree t;
        static const QRegularExpression qtTest(QStringLiteral(R"(blocktune_add_test\((tst_\w+)\s+SOURCES\s+([^)]*)\))"));
        static const QRegularExpression plainTest(QStringLiteral(R"(add_test\(NAME\s+(tst_\w+))"));
        static const QRegularExpression fuzzer(QStringLiteral(R"(blocktune_add_fuzzer\((fuzz_\w+))"));
        QDirIterator it(testsDir, {QStringLiteral("CMakeLists.txt")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString cmake = it.next();
            const QString dir = QFileInfo(cmake).absolutePath();
            const QString text = readText(cmake);
            for (auto m = qtTest.globalMatch(text); m.hasNext();) {
                const auto match = m.next();
                QString sources;
                for (const QString &word : match.captured(2).split(QRegularExpression(QStringLiteral("\\s+")),
                                                                   Qt::SkipEmptyParts))
                    if (word.endsWith(u".cpp") || word.endsWith(u".h"))
                        sources += readText(dir + u'/' + word);
                t.sourceOf.insert(match.captured(1), sources);
            }
            for (auto m = plainTest.globalMatch(text); m.hasNext();) { // a script: no functions to check
                const QString name = m.next().captured(1);
                if (!t.sourceOf.contains(name))
                    t.sourceOf.insert(name, QString());
            }
            for (auto m = fuzzer.globalMatch(text); m.hasNext();)
                t.fuzzers.insert(m.next().captured(1));
        }
        return t;
    }
};

/// The problems of a RELIABILITY.md text against `tree`, one line each.
QStringList problems(const QString &doc, const TestTree &tree)
{
    QStringList out;
    static const QRegularExpression backticked(QStringLiteral("`([^`]+)`"));
    static const QRegularExpression qualified(QStringLiteral(R"(^(tst_\w+)::(\w+)$)"));
    static const QRegularExpression testName(QStringLiteral(R"(^tst_\w+$)"));
    static const QRegularExpression fuzzName(QStringLiteral(R"(^fuzz_\w+$)"));
    static const QRegularExpression functionName(QStringLiteral(R"(^[a-z]\w*$)"));
    int testedByColumn = -1;
    int lineNumber = 0;
    for (const QString &line : doc.split(u'\n')) {
        ++lineNumber;
        if (!line.startsWith(u'|')) {
            testedByColumn = -1; // a table ends at the first line that is not a row
            continue;
        }
        const QStringList cells = line.split(u'|');
        if (testedByColumn < 0) { // the header row
            testedByColumn = int(cells.indexOf(QStringLiteral(" tested by ")));
            if (testedByColumn < 0)
                out << QStringLiteral("line %1: a table without a 'tested by' column").arg(lineNumber);
            continue;
        }
        if (line.startsWith(u"|---") || testedByColumn >= cells.size())
            continue;
        const QString where = QStringLiteral("line %1").arg(lineNumber);
        QString current; // the test a bare function name belongs to
        int named = 0;
        for (auto m = backticked.globalMatch(cells.at(testedByColumn)); m.hasNext();) {
            const QString name = m.next().captured(1);
            QString function;
            if (const auto q = qualified.match(name); q.hasMatch()) {
                current = q.captured(1);
                function = q.captured(2);
            } else if (testName.match(name).hasMatch()) {
                current = name;
            } else if (fuzzName.match(name).hasMatch()) {
                if (!tree.fuzzers.contains(name))
                    out << where + QStringLiteral(": %1 is no fuzz target in tests/fuzz/CMakeLists.txt").arg(name);
                ++named;
                continue;
            } else if (functionName.match(name).hasMatch() && !current.isEmpty()) {
                function = name;
            } else {
                out << where + QStringLiteral(": `%1` names no test (write tst_NAME::function or fuzz_NAME)").arg(name);
                continue;
            }
            ++named;
            if (!tree.sourceOf.contains(current)) {
                out << where + QStringLiteral(": %1 is no ctest entry under tests/").arg(current);
                continue;
            }
            const QRegularExpression defined(QStringLiteral(R"(\bvoid\s+%1\s*\(\s*\))").arg(function));
            if (!function.isEmpty() && !defined.match(tree.sourceOf.value(current)).hasMatch())
                out << where + QStringLiteral(": %1 has no test function %2").arg(current, function);
        }
        if (named == 0)
            out << where + QStringLiteral(": the row names no test");
    }
    return out;
}

} // namespace

class TestReliabilityDoc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_tree = TestTree::scan(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/tests"));
        QVERIFY(m_tree.sourceOf.size() > 30);
        QVERIFY(m_tree.fuzzers.size() >= 5);
    }

    void everyNamedTestExists()
    {
        const QString doc = readText(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/docs/RELIABILITY.md"));
        QVERIFY(doc.count(u'\n') > 50);
        const QStringList found = problems(doc, m_tree);
        QVERIFY2(found.isEmpty(), qPrintable(u"docs/RELIABILITY.md:\n"_qs + found.join(u'\n')));
    }

    // The check itself: each kind of stale name is caught.
    void staleNamesAreCaught_data()
    {
        QTest::addColumn<QString>("testedBy");
        QTest::addColumn<QString>("problem");
        QTest::newRow("renamed function") << "`tst_tuning_plan::noSuchFunction`" << "has no test function noSuchFunction";
        QTest::newRow("bare function of the test before")
            << "`tst_monitorparsers::diskStatsLine`, `vanishedFunction`" << "has no test function vanishedFunction";
        QTest::newRow("removed test") << "`tst_gone::everything`" << "tst_gone is no ctest entry";
        QTest::newRow("fuzzer") << "`fuzz_nothing`" << "fuzz_nothing is no fuzz target";
        QTest::newRow("no test") << "by hand" << "the row names no test";
        QTest::newRow("not a name") << "`tst_monitorparsers::diskStatsLine` through `blocktune-cli list`" << "names no test";
    }
    void staleNamesAreCaught()
    {
        QFETCH(QString, testedBy);
        QFETCH(QString, problem);
        const QString doc = u"| fault or input | tested by | what happens |\n|---|---|---|\n| x | "_qs + testedBy
                            + u" | y |\n"_qs;
        const QStringList found = problems(doc, m_tree);
        QCOMPARE(found.size(), 1);
        QVERIFY2(found.constFirst().contains(problem), qPrintable(found.constFirst()));
        // and a good row passes
        QVERIFY(problems(u"| a | tested by | c |\n|---|---|---|\n| x | `tst_monitorparsers::diskStatsLine`, `fuzz_diskstats` | y |\n"_qs,
                         m_tree).isEmpty());
    }

private:
    TestTree m_tree;
};

QTEST_GUILESS_MAIN(TestReliabilityDoc)
#include "tst_reliability_doc.moc"
