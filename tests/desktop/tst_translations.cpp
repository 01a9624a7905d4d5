// The German translation: complete, current with the sources, and what a
// user of the console sees under LANG=de_DE.UTF-8 (menus, panel labels,
// numbers with a decimal comma, core's messages).
#include "appicon.h"
#include "devicetree.h"
#include "format.h"
#include "i18n.h"
#include "mainwindow.h"
#include "testsupport.h"

#include "common/units.h"
#include "readtest/readtest.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QTabWidget>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace blocktune;
using namespace blocktune::test;

namespace {

struct TsMessage
{
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    QString type; ///< the translation's type: "", "unfinished", "vanished", "obsolete"
    QStringList translations; ///< one, or the numerus forms
    QString key() const { return context + u'\x1f' + source + u'\x1f' + comment + (numerus ? u"\x1fN" : u""); }
};

QList<TsMessage> readTs(const QString &path)
{
    QList<TsMessage> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return messages;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) {
            if (xml.isEndElement() && xml.name() == u"message")
                messages.append(current);
            continue;
        }
        if (xml.name() == u"name") {
            context = xml.readElementText();
        } else if (xml.name() == u"message") {
            current = TsMessage{context, {}, {}, xml.attributes().value(QStringLiteral("numerus")) == u"yes", {}, {}};
        } else if (xml.name() == u"source") {
            current.source = xml.readElementText();
        } else if (xml.name() == u"comment") {
            current.comment = xml.readElementText();
        } else if (xml.name() == u"translation") {
            current.type = xml.attributes().value(QStringLiteral("type")).toString();
            if (!current.numerus)
                current.translations << xml.readElementText();
        } else if (xml.name() == u"numerusform") {
            current.translations << xml.readElementText();
        }
    }
    return messages;
}

QStringList tsFiles()
{
    const QDir dir(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/translations"));
    QStringList files;
    for (const QString &name : dir.entryList({QStringLiteral("blocktune_*.ts")}, QDir::Files))
        files << dir.filePath(name);
    return files;
}

/// translations/blocktune_en.ts: only the English plural forms.
bool isPluralOnly(const QString &ts)
{
    return QFileInfo(ts).fileName() == u"blocktune_en.ts";
}

QSet<QString> placeholders(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("%(?:n|L?\\d+)"));
    QSet<QString> found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found.insert(it.next().captured());
    return found;
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!tsFiles().isEmpty(), "translations/blocktune_*.ts");
        // The console under LANG=de_DE.UTF-8, without depending on which
        // glibc locales this machine has generated.
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        m_loaded = installTranslations(QLocale(QLocale::German, QLocale::Germany));
        QVERIFY2(m_loaded.contains(QStringLiteral(":/i18n/blocktune_de.qm")), qPrintable(m_loaded.join(u' ')));
    }

    // lupdate over the sources into a copy must find exactly the messages
    // the committed file has: a new tr() string without its entry fails.
    void tsFileIsCurrent_data()
    {
        QTest::addColumn<QString>("ts");
        for (const QString &file : tsFiles())
            QTest::newRow(qPrintable(QFileInfo(file).fileName())) << file;
    }
    void tsFileIsCurrent()
    {
        QFETCH(QString, ts);
        QTemporaryDir dir;
        const QString copy = dir.filePath(QFileInfo(ts).fileName());
        QVERIFY(QFile::copy(ts, copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        const QString src = QStringLiteral(BLOCKTUNE_SOURCE_DIR);
        QStringList args{QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-no-obsolete"),
                         QStringLiteral("-extensions"), QStringLiteral("cpp,h"), src + u"/app", src + u"/ui",
                         src + u"/core", QStringLiteral("-ts"), copy};
        if (isPluralOnly(ts))
            args.prepend(QStringLiteral("-pluralonly"));
        const ProcessResult r = run(QStringLiteral(BLOCKTUNE_LUPDATE), args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QSet<QString> committed, fresh;
        for (const TsMessage &m : readTs(ts))
            committed.insert(m.key());
        for (const TsMessage &m : readTs(copy))
            if (m.type != u"vanished" && m.type != u"obsolete")
                fresh.insert(m.key());
        QStringList added, gone;
        for (const QString &k : fresh - committed)
            added << QString(k).replace(QChar(0x1f), QStringLiteral(" | "));
        for (const QString &k : committed - fresh)
            gone << QString(k).replace(QChar(0x1f), QStringLiteral(" | "));
        QVERIFY2(added.isEmpty() && gone.isEmpty(),
                 qPrintable(QStringLiteral("%1 is stale: run scripts/update-translations.sh and translate.\n"
                                           "new in the sources:\n  %2\nno longer in the sources:\n  %3")
                                .arg(ts, added.join(u"\n  "), gone.join(u"\n  "))));
    }

    // Every entry translated, none vanished; placeholders and accelerators
    // kept, so no argument is lost in German.
    void tsFileIsComplete_data() { tsFileIsCurrent_data(); }
    void tsFileIsComplete()
    {
        QFETCH(QString, ts);
        const QList<TsMessage> messages = readTs(ts);
        QVERIFY(messages.size() > (isPluralOnly(ts) ? 5 : 100));
        QStringList problems;
        for (const TsMessage &m : messages) {
            const QString where = m.context + u": " + m.source;
            if (!m.type.isEmpty())
                problems << m.type + u": " + where;
            if (m.translations.isEmpty() || m.translations.contains(QString()))
                problems << u"empty: " + where;
            if (m.numerus && m.translations.size() != 2)
                problems << u"German and English have two plural forms: " + where;
            if (isPluralOnly(ts) && !m.numerus)
                problems << u"a plural-only file with a message without %n: " + where;
            for (const QString &t : m.translations) {
                QSet<QString> expected = placeholders(m.source);
                if (m.numerus)
                    expected.insert(QStringLiteral("%n"));
                if (placeholders(t) != expected)
                    problems << u"placeholders differ: " + where + u" -> " + t;
                if (m.source.contains(u'&') != t.contains(u'&'))
                    problems << u"accelerator: " + where + u" -> " + t;
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    }

    void mainWindowSpeaksGerman()
    {
        MainWindow window(recordedTree("md-raid10-f2"));
        QVERIFY(QTest::qWaitFor([&] { return window.isReady(); }, 30000));
        QStringList menus;
        for (QAction *a : window.menuBar()->actions())
            menus << a->text();
        QVERIFY2(menus.contains(QStringLiteral("&Datei")), qPrintable(menus.join(u' ')));
        QCOMPARE(window.tabs()->tabText(0), QStringLiteral("Einstellungen"));
        QCOMPARE(window.tabs()->tabText(1), QStringLiteral("Lesetest"));
        QStringList boxes;
        for (const QGroupBox *box : window.findChildren<QGroupBox *>())
            boxes << box->title();
        QVERIFY2(boxes.contains(QStringLiteral("Vorauslesen (Readahead)")), qPrintable(boxes.join(u", ")));
        QCOMPARE(window.deviceTree()->headerItem()->text(DeviceTree::Size), QStringLiteral("Größe"));
        // Sizes in the tree: binary units with a decimal comma.
        const auto items = window.deviceTree()->findItems(QStringLiteral("md0"), Qt::MatchExactly | Qt::MatchRecursive);
        QVERIFY(!items.isEmpty());
        QVERIFY2(items.constFirst()->text(DeviceTree::Size).contains(QRegularExpression(QStringLiteral("^\\d+(,\\d)? [KMGT]iB$"))),
                 qPrintable(items.constFirst()->text(DeviceTree::Size)));
    }

    void ratesAndSizesUseTheDecimalComma()
    {
        QCOMPARE(format::rate(74.3), QStringLiteral("74,3 MB/s"));
        QCOMPARE(format::rate(812.4), QStringLiteral("812 MB/s"));
        QCOMPARE(format::rate(3.254), QStringLiteral("3,25 MB/s"));
        QCOMPARE(format::kib(4096), QStringLiteral("4096 KiB")); // no digit grouping, as the spin boxes
        QCOMPARE(format::rate(1520.4), QStringLiteral("1520 MB/s"));
        QCOMPARE(format::size(quint64(1536) << 20), QStringLiteral("1,5 GiB"));
        // The same functions in the C locale, as the CLI and JSON print.
        QCOMPARE(format::rate(74.3, QLocale::c()), QStringLiteral("74.3 MB/s"));
    }

    // A results table of the read test view: a sweep row and a dd line.
    void readTestReportInGerman()
    {
        SweepPoint point;
        point.readAheadKiB = 512;
        point.mbPerSec = 74.34;
        point.avgRequestKiB = 127.9;
        const QString row = formatSweepPoint(point, QLocale());
        QVERIFY2(row.contains(u"74,3") && row.contains(u"127,9"), qPrintable(row));
        QCOMPARE(formatDdBytes(268435456, QLocale()), QStringLiteral("268435456 Bytes (268 MB, 256 MiB)"));
        QCOMPARE(formatMbPerSec(74.34, QLocale()), QStringLiteral("74,3 MB/s"));
        // The CLI's call: C numbers whatever the default locale is.
        QCOMPARE(formatMbPerSec(74.34), QStringLiteral("74.3 MB/s"));
    }

    void coreMessagesInGerman()
    {
        const auto size = parseSize(QStringLiteral("viel"), QStringLiteral("Blockgröße"));
        QVERIFY(!size);
        QVERIFY2(size.error().message.startsWith(QStringLiteral("Blockgröße: „viel“ ist keine Größe")),
                 qPrintable(size.error().message));
    }

    // What the settings panel shows when Apply is refused: the session's
    // plan, validated in core, in German; the words of the report too. The
    // CLI's words and the JSON stay English (settingStatusName).
    void coreValidationInGerman()
    {
        TuningSession session(SysRoot(recordedTree("md-raid10-f2")));
        const ChangePlan plan = session.plan({SettingChange{QStringLiteral("sdh"), QStringLiteral("scheduler"),
                                                            SettingValue(QStringLiteral("cfq"))},
                                              SettingChange{QStringLiteral("sdh"), QStringLiteral("read_ahead_kb"),
                                                            SettingValue(QStringLiteral("viel"))}});
        QCOMPARE(plan.errors.size(), 2);
        QCOMPARE(plan.errors.at(0).message,
                 QStringLiteral("Scheduler „cfq“ ist auf sdh nicht verfügbar (verfügbar: none, mq-deadline, kyber, bfq)"));
        QVERIFY2(plan.errors.at(1).message.startsWith(QStringLiteral("read_ahead_kb „viel“ auf sdh ist ungültig: nötig ist "
                                                                     "eine ganze Zahl in KiB")),
                 qPrintable(plan.errors.at(1).message));
        QCOMPARE(restoreStatusText(RestoreStatus::AlreadyOriginal), QStringLiteral("bereits ursprünglich"));
        QCOMPARE(settingStatusText(SettingStatus::RolledBack), QStringLiteral("zurückgenommen"));
        QCOMPARE(settingStatusName(SettingStatus::RolledBack), QStringLiteral("rolled back"));
    }

    // Qt's own strings (dialog buttons) come from qtbase_de.qm beside ours.
    void qtbaseTranslationBeside()
    {
        const QString qtbase = QLibraryInfo::path(QLibraryInfo::TranslationsPath) + u"/qtbase_de.qm";
        QVERIFY2(QFile::exists(qtbase), "qt6-translations-l10n is not installed (scripts/bootstrap.sh installs it)");
        QVERIFY2(m_loaded.contains(qtbase), qPrintable(m_loaded.join(u' ')));
        QDialogButtonBox buttons(QDialogButtonBox::Cancel);
        QCOMPARE(buttons.button(QDialogButtonBox::Cancel)->text().remove(u'&'), QStringLiteral("Abbrechen"));
    }

    // The window icon draws at the sizes a panel and a task switcher ask
    // for, without Qt's SVG plugin (not installed here).
    // "%n block device(s)" reads "1 block device" and "3 block devices" in
    // English too: the plural forms are installed beneath every language.
    void englishPluralForms()
    {
        QVERIFY2(m_loaded.contains(QStringLiteral(":/i18n/blocktune_en.qm")), qPrintable(m_loaded.join(u' ')));
        QTranslator english;
        QVERIFY(english.load(QStringLiteral(":/i18n/blocktune_en.qm")));
        QCOMPARE(english.translate("blocktune::MainWindow", "%n block device(s)", nullptr, 1), u"%n block device"_qs);
        QCOMPARE(english.translate("blocktune::MainWindow", "%n block device(s)", nullptr, 3), u"%n block devices"_qs);
        // German, installed above it, still wins.
        QCOMPARE(QCoreApplication::translate("blocktune::MainWindow", "%n block device(s)", nullptr, 1),
                 u"1 Blockgerät"_qs);
    }

    void applicationIconDraws()
    {
        const QIcon icon = applicationIcon();
        for (const int size : {16, 48, 256}) {
            const QImage image = icon.pixmap(QSize(size, size)).toImage();
            QCOMPARE(image.size(), QSize(size, size));
            // Opaque in the middle: drawn, not an empty pixmap.
            const QColor centre = image.pixelColor(size / 2, size / 2);
            QVERIFY2(centre.alpha() == 255, qPrintable(QString::number(size)));
        }
    }

private:
    QStringList m_loaded;
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
