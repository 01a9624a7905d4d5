#pragma once
// How the console looks as a whole: light or dark (following the desktop,
// or the user's View -> Theme choice, kept in QSettings), and a focus ring
// a keyboard user can see on every control. The colours inside the views
// come from the palette this sets (theme.h, plottheme.h).

#include <QPalette>
#include <QString>

class QWidget;

namespace blocktune {

/// View -> Theme.
enum class ThemeChoice { System, Light, Dark };

/// What the desktop asks for.
enum class ColorScheme { Unknown, Light, Dark };

/// "system", "light", "dark" (the QSettings value), and back (System for
/// anything else).
QString themeChoiceName(ThemeChoice choice);
ThemeChoice themeChoiceFromName(const QString &name);

/// Light or dark by the brightness of `palette`'s window.
ColorScheme colorSchemeOf(const QPalette &palette);

/// The desktop's colour scheme. Qt 6.5 and later: QStyleHints::colorScheme()
/// where the platform reports it. Qt 6.4 (Debian 12) has no such call, so:
/// the XDG desktop portal's org.freedesktop.appearance color-scheme (GNOME
/// 42 and later, KDE Plasma 5.24 and later, over the session bus, 300 ms at
/// most), else the brightness of the platform theme's own palette (a KDE
/// colour scheme gives Qt a dark palette). Unknown when nothing tells.
ColorScheme desktopColorScheme();

/// The palettes a chosen theme uses where the platform's own does not fit:
/// Fusion's light palette, and a dark one (window #353535, text #f0f0f0).
QPalette lightThemePalette();
QPalette darkThemePalette();

/// Applies `choice` to the application. System: the platform's own style
/// and palette, or a dark (light) Fusion where the desktop asks for dark
/// (light) and the platform's palette is not. Light, Dark: the platform's
/// own where it already is that, else Fusion with lightThemePalette() or
/// darkThemePalette(). Every style gets the console's focus ring. The
/// first call records the platform's style and palette (call it before
/// anything changes them).
void applyTheme(ThemeChoice choice);
/// The choice applied last (System before any).
ThemeChoice currentTheme();

/// The choice kept in QSettings ("console/theme"), and keeping one.
ThemeChoice savedTheme();
void saveTheme(ThemeChoice choice);

/// Follows the desktop while the choice is System: Qt's colorSchemeChanged
/// (6.5+), the portal's SettingChanged signal (6.4). Call once, after the
/// first applyTheme().
void followDesktopColorScheme();

/// The focus ring's colour on `palette`: its Highlight, moved toward the
/// window text until it stands out 3:1 against the window (WCAG 2.4.7 and
/// 1.4.11).
QColor focusRingColor(const QPalette &palette);

} // namespace blocktune
