#include "i18n.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace blocktune {

QStringList installTranslations(const QLocale &locale)
{
    QStringList loaded;
    auto install = [&](const QString &name, const QString &dir) {
        auto *translator = new QTranslator(QCoreApplication::instance());
        // load(QLocale) walks the UI languages and their fallbacks
        // (de-DE, then de), as users set LANG or LANGUAGE.
        if (translator->load(locale, name, QStringLiteral("_"), dir) && QCoreApplication::installTranslator(translator)) {
            loaded << translator->filePath();
        } else {
            delete translator;
        }
    };
    // English plural forms first: Qt asks the translator installed last
    // first, so the user's language wins and English fills in "%n device(s)"
    // for a language blocktune has no translation for (or C/POSIX).
    auto *plurals = new QTranslator(QCoreApplication::instance());
    if (plurals->load(QStringLiteral(":/i18n/blocktune_en.qm")) && QCoreApplication::installTranslator(plurals))
        loaded << plurals->filePath();
    else
        delete plurals;
    install(QStringLiteral("blocktune"), QStringLiteral(":/i18n"));
    install(QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    return loaded;
}

} // namespace blocktune
