#pragma once
// The console's colours, all derived from the widget's palette in this one
// place, so a dark theme (Breeze Dark, a dark Fusion) reads as well as a
// light one: a few semantic colours for states (checked for WCAG contrast
// against the background they are drawn on), the plots' series colours,
// and followPalette() to redo a view's colours when the theme changes.
// A state is never shown by colour alone: the callers put a word or an
// icon beside it (semanticIcon()).

#include <QColor>
#include <QIcon>
#include <QPalette>

#include <functional>

class QWidget;

namespace blocktune {

/// The states the console shows in colour.
enum class Semantic {
    Warning, ///< why something is not offered; a warning finding
    Error,   ///< a problem finding, a floor that must not be crossed
    Drift,   ///< a value changed behind the console's back
    Ok,      ///< a recommendation, a value that matches
    Note,    ///< an informational finding
};

/// WCAG 2.x relative luminance of an sRGB colour (0 black .. 1 white).
double relativeLuminance(const QColor &c);
/// WCAG 2.x contrast ratio, 1 .. 21 (4.5 is the minimum for body text).
double contrastRatio(const QColor &a, const QColor &b);
/// `a` moved toward `b` by `shareOfB` (0 .. 1), per sRGB channel, opaque.
QColor mixColors(const QColor &a, const QColor &b, double shareOfB);

/// The text colour that goes with `background` (WindowText on Window, Text
/// on Base and AlternateBase, ButtonText on Button).
QPalette::ColorRole textRoleFor(QPalette::ColorRole background);

/// Text in the hue of `s` on `background` of `palette`: the hue mixed toward
/// the palette's text colour until it has a contrast of at least 4.5:1 (a
/// dark amber on a light window, a light amber on a dark one).
QColor semanticTextColor(Semantic s, const QPalette &palette, QPalette::ColorRole background = QPalette::Window);
/// A background tinted with the hue of `s`, for a row or a card: `base`
/// mixed toward the hue as far as the palette's text stays at 4.5:1 on it.
QColor semanticBackground(Semantic s, const QPalette &palette, QPalette::ColorRole base = QPalette::Base);
/// The hue of `s` for a border or a mark that is not text (3:1 against
/// `background`, WCAG's minimum for graphics).
QColor semanticMarkColor(Semantic s, const QPalette &palette, QPalette::ColorRole background = QPalette::Window);
/// The icon that says `s` without colour (the style's warning, critical,
/// information icons; a tick for Ok).
QIcon semanticIcon(Semantic s, const QWidget *widget);

/// Why-not lines ("Read-only: ..."): semanticTextColor(Warning) on Window.
QColor warningTextColor(const QPalette &palette);

/// Series colours for plots and the cards that stand for them; kSeriesText
/// is the palette's text colour (a total drawn over coloured lines),
/// kSeriesNeutral a grey for reference lines and marks.
constexpr int kSeriesText = -1;
constexpr int kSeriesNeutral = -2;
/// Series `index` (0 blue, 1 orange, 2 green, 3 red, 4 purple, 5 brown, 6
/// pink, 7 cyan, then again) against `palette`'s Base, at least 3:1.
QColor seriesColor(int index, const QPalette &palette);
/// The same hue as text on Base (at least 4.5:1), for labels beside lines.
QColor seriesTextColor(int index, const QPalette &palette);

/// Calls `apply` now and whenever `widget`'s palette changes (a theme
/// switch: QEvent::PaletteChange, ApplicationPaletteChange). The watcher is
/// a child of `widget` and goes with it.
void followPalette(QWidget *widget, std::function<void()> apply);

} // namespace blocktune
