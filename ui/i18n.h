#pragma once
// The console's translations: blocktune's own (embedded, :/i18n) and Qt's
// qtbase catalogue (dialog buttons, shortcuts, QCommandLineParser's texts)
// from Qt's translations directory.

#include <QLocale>
#include <QStringList>

namespace blocktune {

/// Loads and installs on the running QCoreApplication the translations for
/// `locale`'s UI languages: :/i18n/blocktune_LANG.qm and, where Qt's
/// translations are installed (qt6-translations-l10n), qtbase_LANG.qm.
/// Returns the files loaded (none for English or the C locale).
QStringList installTranslations(const QLocale &locale = QLocale());

} // namespace blocktune
