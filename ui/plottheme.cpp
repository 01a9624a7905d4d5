#include "plottheme.h"

#include "theme.h"

#include <qcustomplot.h>

namespace blocktune {

namespace {

constexpr char kSeriesProperty[] = "blocktuneSeries";

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

void colourPlottable(QCPAbstractPlottable *p, const QPalette &palette)
{
    const QVariant tag = p->property(kSeriesProperty);
    if (!tag.isValid())
        return;
    const QColor c = seriesColor(tag.toInt(), palette);
    QPen pen = p->pen();
    pen.setColor(withAlpha(c, pen.color().alpha()));
    p->setPen(pen);
    QBrush brush = p->brush();
    if (brush.style() != Qt::NoBrush) {
        brush.setColor(withAlpha(c, brush.color().alpha()));
        p->setBrush(brush);
    }
    if (auto *graph = qobject_cast<QCPGraph *>(p)) {
        QCPScatterStyle scatter = graph->scatterStyle();
        if (scatter.isPenDefined()) {
            QPen sp = scatter.pen();
            sp.setColor(withAlpha(c, sp.color().alpha()));
            scatter.setPen(sp);
            graph->setScatterStyle(scatter);
        }
    }
}

void colourItem(QCPAbstractItem *item, const QPalette &palette)
{
    const QVariant tag = item->property(kSeriesProperty);
    if (auto *text = qobject_cast<QCPItemText *>(item)) {
        // Untagged text is plain text.
        text->setColor(tag.isValid() ? seriesTextColor(tag.toInt(), palette) : palette.color(QPalette::Text));
        return;
    }
    if (!tag.isValid())
        return;
    if (auto *line = qobject_cast<QCPItemStraightLine *>(item)) {
        QPen pen = line->pen();
        pen.setColor(withAlpha(seriesColor(tag.toInt(), palette), pen.color().alpha()));
        line->setPen(pen);
    }
}

void colourAxis(QCPAxis *axis, const QColor &text, const QColor &line, const QColor &grid)
{
    axis->setBasePen(QPen(line, 1));
    axis->setTickPen(QPen(line, 1));
    axis->setSubTickPen(QPen(line, 1));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setSubGridPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

void colourLegend(QCPLegend *legend, const QColor &text, const QColor &base, const QColor &line)
{
    legend->setTextColor(text);
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i))
            item->setTextColor(text);
    // A legend that has a box keeps it, in the palette's colours.
    if (legend->brush().style() != Qt::NoBrush)
        legend->setBrush(withAlpha(base, 220));
    if (legend->borderPen().style() != Qt::NoPen)
        legend->setBorderPen(QPen(line, 1));
}

} // namespace

void applyPlotPalette(QCustomPlot *plot)
{
    const QPalette &palette = plot->palette();
    // Base, not Window: the plot is a surface that shows data, as a table is.
    const QColor base = palette.color(QPalette::Active, QPalette::Base);
    const QColor text = palette.color(QPalette::Active, QPalette::Text);
    const QColor line = mixColors(base, text, 0.6);
    const QColor grid = mixColors(base, text, 0.25);
    plot->setBackground(base);
    for (QCPAxisRect *rect : plot->axisRects()) {
        rect->setBackground(Qt::NoBrush);
        for (QCPAxis *axis : rect->axes())
            colourAxis(axis, text, line, grid);
    }
    QList<QCPLayoutElement *> elements = plot->plotLayout()->elements(true);
    for (QCPAxisRect *rect : plot->axisRects())
        elements << rect->insetLayout()->elements(true);
    if (plot->legend)
        elements << plot->legend;
    for (QCPLayoutElement *e : std::as_const(elements)) {
        if (auto *legend = qobject_cast<QCPLegend *>(e))
            colourLegend(legend, text, base, line);
        else if (auto *title = qobject_cast<QCPTextElement *>(e))
            title->setTextColor(text);
    }
    for (int i = 0; i < plot->plottableCount(); ++i)
        colourPlottable(plot->plottable(i), palette);
    for (int i = 0; i < plot->itemCount(); ++i)
        colourItem(plot->item(i), palette);
}

void themePlot(QCustomPlot *plot)
{
    followPalette(plot, [plot] {
        applyPlotPalette(plot);
        plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

QPen seriesPen(qreal width, Qt::PenStyle style, int alpha)
{
    return QPen(QColor(0, 0, 0, alpha), width, style); // the colour comes with setSeries()
}

QBrush seriesBrush(int alpha)
{
    return QBrush(QColor(0, 0, 0, alpha));
}

void setSeries(QCPAbstractPlottable *plottable, int series)
{
    plottable->setProperty(kSeriesProperty, series);
    colourPlottable(plottable, plottable->parentPlot()->palette());
}

void setSeries(QCPAbstractItem *item, int series)
{
    item->setProperty(kSeriesProperty, series);
    colourItem(item, item->parentPlot()->palette());
}

} // namespace blocktune
