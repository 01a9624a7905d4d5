#pragma once
// Where the console's first window opens, as a pure function of the screen
// it opens on (tested without a screen of that size).

#include <QRect>
#include <QSize>

namespace blocktune {

/// The share of the screen's available area the first window takes at most.
constexpr double kFirstWindowShare = 0.9;

/// The window's geometry on a screen whose available area (QScreen::
/// availableGeometry: without panels and docks) is `available`: `saved`
/// (the geometry it had when it last closed) where it still lies wholly
/// inside `available`; else `wanted` where it fits in kFirstWindowShare of
/// `available`, and all of `available` each way it does not, centred in it.
/// With QT_SCALE_FACTOR=1.5 on a 1920x1080 laptop `available` is about
/// 1280x690 logical pixels.
QRect fitWindowGeometry(const QRect &available, const QSize &wanted, const QRect &saved = {});

} // namespace blocktune
