#pragma once
// A plot, or the same numbers as a table: for a screen reader, for the
// keyboard, for copying figures into a ticket.

#include <QWidget>

class QCustomPlot;
class QPushButton;
class QStackedWidget;
class QTableWidget;
class QTimer;

namespace blocktune {

/// Shows `plot` (or `page`, the widget that holds it, such as a scroll
/// area) with a checkable "Show as table" button above it that swaps it for
/// a table of the plot's numbers: an x and a y column per graph and bar
/// chart (headed "NAME: AXIS LABEL"), a row per point, the values as the
/// plot has them; a colour map gives key, value and count per non-empty
/// cell (its "valueLabels" property, a QStringList, names whole values;
/// "keyBlocks" and "keyValues" name the block and the key of each key cell
/// of a map holding several side by side). While the table is shown it is refilled every second, so
/// a running test or the live monitor go on in it.
class PlotTableSwitch final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlotTableSwitch)

public:
    explicit PlotTableSwitch(QCustomPlot *plot, QWidget *page = nullptr, QWidget *parent = nullptr);
    ~PlotTableSwitch() override;

    QPushButton *toggle() const { return m_toggle; }
    /// Takes the toggle out of the row above the plot, for the caller to
    /// place (a tab widget's corner): the plot gets that row's height.
    QPushButton *detachToggle();
    QTableWidget *table() const { return m_table; }
    QCustomPlot *plot() const { return m_plot; }
    bool isTableShown() const;

public Q_SLOTS:
    void setTableShown(bool shown);
    /// Fills the table from the plot now.
    void refreshTable();

private:
    QCustomPlot *m_plot;
    QPushButton *m_toggle = nullptr;
    QLayout *m_row = nullptr;
    QStackedWidget *m_stack = nullptr;
    QTableWidget *m_table = nullptr;
    QTimer *m_refresh = nullptr;
};

} // namespace blocktune
