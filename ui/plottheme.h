#pragma once
// QCustomPlot draws black on white whatever the theme. These put every part
// of a plot (background, axes, ticks, grid, labels, legends, text elements,
// and the lines and items given a series) in the widget's palette, and do
// it again when the palette changes.

#include <QBrush>
#include <QPen>

class QCPAbstractItem;
class QCPAbstractPlottable;
class QCustomPlot;

namespace blocktune {

/// Draws `plot` from its palette now and after every palette change, and
/// replots. Call once, after the plot's layout is built; graphs and items
/// added later are coloured by the next applyPlotPalette().
void themePlot(QCustomPlot *plot);
/// Colours `plot` from its palette (themePlot() calls it).
void applyPlotPalette(QCustomPlot *plot);

/// Gives `plottable` series colour `series` (theme.h's seriesColor, or
/// kSeriesText, kSeriesNeutral): its pen, brush and scatter pen take that
/// colour now and after a palette change, keeping their width, style and
/// alpha.
void setSeries(QCPAbstractPlottable *plottable, int series);
/// The same for a line or a text item (text in seriesTextColor()).
void setSeries(QCPAbstractItem *item, int series);

/// The shape of a series' pen (width, style, alpha) before setSeries()
/// gives it its colour; and of its brush.
QPen seriesPen(qreal width, Qt::PenStyle style = Qt::SolidLine, int alpha = 255);
QBrush seriesBrush(int alpha);

} // namespace blocktune
