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
    install(QStringLiteral("blocktune"), QStringLiteral(":/i18n"));
    install(QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    return loaded;
}

} // namespace blocktune
