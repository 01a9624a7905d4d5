#pragma once

#include <QObject>

class QCustomPlot;

namespace blocktune {

/// Draws a plot only while it is on screen. QCustomPlot renders a replot
/// into its buffers whether or not the widget is visible, so a plot on a
/// hidden tab fed several times a second costs the GUI thread as much as a
/// visible one. request() queues a replot when the plot is visible and
/// otherwise remembers it; the plot is drawn once when it shows again.
class PlotRefresh final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlotRefresh)

public:
    /// Owned by \a plot.
    explicit PlotRefresh(QCustomPlot *plot);
    ~PlotRefresh() override;

    void request();
    bool isPending() const { return m_pending; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QCustomPlot *m_plot;
    bool m_pending = false;
};

} // namespace blocktune
