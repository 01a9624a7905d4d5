// docs/cli.md is kept true by blocktune-cli's own --help: every command the
// top-level --help lists has a section "## blocktune-cli CMD" (a command
// with subcommands, such as test and profile, one "### blocktune-cli CMD SUB"
// per subcommand), and each section's option list (lines "- `--name ...`:")
// names exactly the options that command's --help shows. A new option, a
// removed one or a new command fails here, so the page cannot drift.
#include "testsupport.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

using blocktune::test::binary;
using blocktune::test::run;

const QString kDocPath = QStringLiteral("docs/cli.md");

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString helpOf(const QStringList &words)
{
    const auto r = run(binary("blocktune-cli"), words + QStringList{QStringLiteral("--help")}, 30000);
    return r.exitCode == 0 ? QString::fromUtf8(r.out) : QString();
}

/// The lines of `help` between the line `start` and the next line that does
/// not begin with a space (Qt's "Options:" block, or "Global options:").
QStringList block(const QString &help, const QString &start)
{
    QStringList out;
    bool in = false;
    for (const QString &line : help.split(u'\n')) {
        if (line == start) {
            in = true;
            continue;
        }
        if (in && !line.startsWith(u' '))
            break;
        if (in)
            out << line;
    }
    return out;
}

/// The long options a help shows, --help and --help-all left out (every
/// command has them; cli.md says so once).
QStringList optionsShown(const QString &help, const QString &blockStart)
{
    static const QRegularExpression optionLine(QStringLiteral(R"(^  (?:-\w, )?(--[a-z][a-z0-9-]*))"));
    QStringList out;
    for (const QString &line : block(help, blockStart)) {
        const auto m = optionLine.match(line);
        if (m.hasMatch() && m.captured(1) != u"--help" && m.captured(1) != u"--help-all")
            out << m.captured(1);
    }
    return out;
}

/// The commands of the top-level --help ("Commands:" block).
QStringList commandsShown(const QString &help)
{
    static const QRegularExpression commandLine(QStringLiteral(R"(^  ([a-z]+)\s)"));
    QStringList out;
    for (const QString &line : block(help, QStringLiteral("Commands:")))
        if (const auto m = commandLine.match(line); m.hasMatch())
            out << m.captured(1);
    return out;
}

/// A command whose --help has no "Options:" block lists subcommands
/// instead: `test` as usage lines "blocktune-cli test seq ...", `profile` as
/// an indented table "  list   ...".
QStringList subcommandsShown(const QString &command, const QString &help)
{
    const QRegularExpression usage(QStringLiteral(R"(blocktune-cli (?:\[--sysroot DIR\] )?%1 ([a-z]+)\b)").arg(command));
    static const QRegularExpression table(QStringLiteral(R"(^  ([a-z]+)(?:\s|$))"), QRegularExpression::MultilineOption);
    QStringList out;
    for (auto m = usage.globalMatch(help); m.hasNext();)
        out << m.next().captured(1);
    for (auto m = table.globalMatch(help); m.hasNext();)
        out << m.next().captured(1);
    out.removeDuplicates();
    return out;
}

/// The section of `doc` under `heading` (a whole line), to the next heading
/// of the same level or above (`ownTextOnly`: to the next heading of any
/// level, so a command group's text without its subcommands' sections);
/// null when there is none.
QString section(const QString &doc, const QString &heading, bool ownTextOnly = false)
{
    const QStringList lines = doc.split(u'\n');
    const qsizetype level = heading.indexOf(u' ');
    QString out;
    bool in = false;
    for (const QString &line : lines) {
        if (!in) {
            in = line.trimmed() == heading;
            if (in)
                out = line + u'\n';
            continue;
        }
        const qsizetype hashes = line.startsWith(u'#') ? line.indexOf(u' ') : -1;
        if (hashes > 0 && (ownTextOnly || hashes <= level) && line.left(hashes) == QString(hashes, u'#'))
            break;
        out += line + u'\n';
    }
    return in ? out : QString();
}

/// The options a section documents: its lines "- `--name ...`".
QStringList optionsDocumented(const QString &text)
{
    static const QRegularExpression item(QStringLiteral(R"(^- `(--[a-z][a-z0-9-]*))"), QRegularExpression::MultilineOption);
    QStringList out;
    for (auto m = item.globalMatch(text); m.hasNext();)
        out << m.next().captured(1);
    return out;
}

/// What is wrong with `doc` for one command (`what`: "set", "test seq", or
/// "" for the global options), one line each, saying how to fix it.
QStringList problems(const QString &doc, const QString &what, const QString &heading, const QStringList &shown,
                     bool ownTextOnly = false)
{
    const QString call = what.isEmpty() ? QStringLiteral("blocktune-cli --help")
                                        : QStringLiteral("blocktune-cli %1 --help").arg(what);
    const QString text = section(doc, heading, ownTextOnly);
    if (text.isNull())
        return {QStringLiteral("%1 has no section '%2' for `%3`: add it, with one line \"- `--option VALUE`: what it does\" "
                               "per option that `%4` shows")
                    .arg(kDocPath, heading, what.isEmpty() ? QStringLiteral("global options") : what, call)};
    QStringList out;
    const QStringList documented = optionsDocumented(text);
    for (const QString &o : shown)
        if (!documented.contains(o))
            out << QStringLiteral("%1, section '%2': `%3` shows %4, which the section does not list: add a line "
                                  "\"- `%4 ...`: what it does\"")
                       .arg(kDocPath, heading, call, o);
    for (const QString &o : documented)
        if (!shown.contains(o))
            out << QStringLiteral("%1, section '%2' lists %3, which `%4` does not show: remove the line, or "
                                  "make the command offer %3")
                       .arg(kDocPath, heading, o, call);
    QSet<QString> said;
    for (const QString &o : documented)
        if (documented.count(o) > 1 && !said.contains(o)) {
            said.insert(o);
            out << QStringLiteral("%1, section '%2' lists %3 %4 times: keep one").arg(kDocPath, heading, o).arg(documented.count(o));
        }
    return out;
}

QString headingFor(const QString &what)
{
    return (what.contains(u' ') ? QStringLiteral("### blocktune-cli ") : QStringLiteral("## blocktune-cli ")) + what;
}

} // namespace

class TestCliDoc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_doc = readText(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/") + kDocPath);
        QVERIFY2(!m_doc.isEmpty(), "docs/cli.md is missing or empty");
        m_topHelp = helpOf({});
        QVERIFY2(m_topHelp.contains(u"Commands:"), qPrintable(u"blocktune-cli --help printed no command list:\n"_qs + m_topHelp));
        QVERIFY(commandsShown(m_topHelp).size() >= 10);
    }

    // One row per command (and per subcommand of test and profile), as
    // the CLI lists them now: a new command is a new row by itself.
    void sectionMatchesHelp_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("heading");
        QTest::addColumn<QStringList>("shown");
        QTest::addColumn<bool>("group");
        QTest::newRow("global options") << QString() << QStringLiteral("## Global options")
                                        << optionsShown(m_topHelp, QStringLiteral("Global options:")) << false;
        for (const QString &command : commandsShown(m_topHelp)) {
            const QString help = helpOf({command});
            QVERIFY2(!help.isEmpty(), qPrintable(u"blocktune-cli "_qs + command + u" --help failed"_qs));
            if (help.contains(u"\nOptions:\n")) {
                QTest::newRow(qPrintable(command)) << command << headingFor(command)
                                                   << optionsShown(help, QStringLiteral("Options:")) << false;
                continue;
            }
            const QStringList subs = subcommandsShown(command, help);
            QVERIFY2(!subs.isEmpty(), qPrintable(u"blocktune-cli "_qs + command
                                                 + u" --help shows neither options nor subcommands:\n"_qs + help));
            // The group itself has a section too, where its subcommands are
            // introduced; its own text (up to the first subheading) lists no option.
            QTest::newRow(qPrintable(command)) << command << headingFor(command) << QStringList() << true;
            for (const QString &sub : subs) {
                const QString what = command + u' ' + sub;
                const QString subHelp = helpOf({command, sub});
                QVERIFY2(subHelp.contains(u"\nOptions:\n"),
                         qPrintable(u"blocktune-cli "_qs + what + u" --help shows no options:\n"_qs + subHelp));
                QTest::newRow(qPrintable(what)) << what << headingFor(what) << optionsShown(subHelp, QStringLiteral("Options:")) << false;
            }
        }
    }
    void sectionMatchesHelp()
    {
        QFETCH(QString, what);
        QFETCH(QString, heading);
        QFETCH(QStringList, shown);
        QFETCH(bool, group);
        const QStringList found = problems(m_doc, what, heading, shown, group);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(u'\n')));
    }

    // The check itself: each kind of drift is caught, and named.
    void driftIsCaught_data()
    {
        QTest::addColumn<QString>("doc");
        QTest::addColumn<QString>("problem");
        const QString good = u"## blocktune-cli set\n\nText with `--dry-run` in prose.\n\n- `--dry-run`: preview\n"
                             "- `--hold SECONDS`: hold\n\n### Settings\n\n- `--json`: JSON\n\n## blocktune-cli get\n\n"
                             "- `--members`: of get, not set\n"_qs;
        QTest::newRow("good") << good << QString();
        QTest::newRow("option line deleted")
            << QString(good).remove(u"- `--hold SECONDS`: hold\n"_qs) << "shows --hold, which the section does not list";
        QTest::newRow("option the command lacks")
            << QString(good).replace(u"- `--json`"_qs, u"- `--bogus`"_qs) << "lists --bogus, which `blocktune-cli set --help` does not show";
        QTest::newRow("section missing")
            << QString(good).replace(u"## blocktune-cli set\n"_qs, u"## set\n"_qs) << "has no section '## blocktune-cli set'";
        QTest::newRow("listed twice")
            << QString(good).replace(u"- `--json`: JSON\n"_qs, u"- `--json`: JSON\n- `--json`: again\n"_qs) << "lists --json 2 times";
    }
    void driftIsCaught()
    {
        QFETCH(QString, doc);
        QFETCH(QString, problem);
        const QStringList shown{QStringLiteral("--dry-run"), QStringLiteral("--hold"), QStringLiteral("--json")};
        const QStringList found = problems(doc, QStringLiteral("set"), QStringLiteral("## blocktune-cli set"), shown);
        if (problem.isEmpty()) {
            QVERIFY2(found.isEmpty(), qPrintable(found.join(u'\n')));
            return;
        }
        QVERIFY2(found.join(u'\n').contains(problem), qPrintable(found.join(u'\n')));
    }

private:
    QString m_doc;
    QString m_topHelp;
};

QTEST_GUILESS_MAIN(TestCliDoc)
#include "tst_cli_doc.moc"
