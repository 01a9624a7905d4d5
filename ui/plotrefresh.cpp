#include "plotrefresh.h"

#include <QEvent>
#include <qcustomplot.h>

namespace blocktune {

PlotRefresh::PlotRefresh(QCustomPlot *plot) : QObject(plot), m_plot(plot)
{
    plot->installEventFilter(this);
}

PlotRefresh::~PlotRefresh() = default;

void PlotRefresh::request()
{
    if (m_plot->isVisible()) {
        m_pending = false;
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    } else {
        m_pending = true;
    }
}

bool PlotRefresh::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Show && m_pending) {
        m_pending = false;
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    return QObject::eventFilter(watched, event);
}

} // namespace blocktune
