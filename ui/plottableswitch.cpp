#include "plottableswitch.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

namespace blocktune {

namespace {

struct Column
{
    QString header;
    QList<QVariant> cells;
};

QString oneLine(QString text)
{
    return text.replace(u'\n', u' ');
}

QVariant number(double v)
{
    return std::isnan(v) ? QVariant() : QVariant(v);
}

/// The x and y columns of one plottable; x as its axis's text where the
/// axis names its ticks (the balance chart's members).
template<typename Container>
void addColumns(QList<Column> &columns, const QCPAbstractPlottable *p, const Container &data)
{
    const auto text = qSharedPointerDynamicCast<QCPAxisTickerText>(p->keyAxis()->ticker());
    const QString name = p->name().isEmpty() ? PlotTableSwitch::tr("series %1").arg(columns.size() / 2 + 1) : p->name();
    Column x{QStringLiteral("%1: %2").arg(name, oneLine(p->keyAxis()->label())), {}};
    Column y{QStringLiteral("%1: %2").arg(name, oneLine(p->valueAxis()->label())), {}};
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
        x.cells << (text && text->ticks().contains(it->key) ? QVariant(oneLine(text->ticks().value(it->key)))
                                                            : number(it->key));
        y.cells << number(it->value);
    }
    columns << x << y;
}

/// A colour map's non-empty cells: the key, the value (as the map's
/// "valueLabels" property names each whole value, else the number) and the
/// cell's count, a row per cell. A map that holds several blocks side by
/// side (the latency heatmap's devices) names each key cell's block in its
/// "keyBlocks" property (a QStringList, the column headed by its
/// "keyBlocksLabel") and gives each key cell's own key in "keyValues" (a
/// QVariantList of doubles), which the key column shows.
void addColorMapColumns(QList<Column> &columns, QCPColorMap *map)
{
    QCPColorMapData *data = map->data(); // cell() is not const
    const QStringList labels = map->property("valueLabels").toStringList();
    const QStringList blocks = map->property("keyBlocks").toStringList();
    const QVariantList keyValues = map->property("keyValues").toList();
    const QString name = map->name().isEmpty() ? PlotTableSwitch::tr("map %1").arg(columns.size() / 3 + 1) : map->name();
    auto label = [](const QCPAxis *axis, const QString &otherwise) {
        return axis->label().isEmpty() ? otherwise : oneLine(axis->label());
    };
    Column block{QStringLiteral("%1: %2").arg(name, map->property("keyBlocksLabel").toString()), {}};
    Column x{QStringLiteral("%1: %2").arg(name, label(map->keyAxis(), PlotTableSwitch::tr("x"))), {}};
    Column y{QStringLiteral("%1: %2").arg(name, label(map->valueAxis(), PlotTableSwitch::tr("y"))), {}};
    Column z{QStringLiteral("%1: %2").arg(name, PlotTableSwitch::tr("count")), {}};
    for (int kx = 0; kx < data->keySize(); ++kx) {
        for (int vy = 0; vy < data->valueSize(); ++vy) {
            const double count = data->cell(kx, vy);
            if (std::isnan(count) || count == 0)
                continue;
            double key = 0, value = 0;
            data->cellToCoord(kx, vy, &key, &value);
            const int whole = int(std::lround(value));
            if (!blocks.isEmpty())
                block.cells << blocks.value(kx);
            x.cells << (kx < keyValues.size() ? keyValues.at(kx) : number(key));
            y.cells << (whole >= 0 && whole < labels.size() ? QVariant(labels.at(whole)) : number(value));
            z.cells << number(count);
        }
    }
    if (z.cells.isEmpty())
        return;
    if (!blocks.isEmpty())
        columns << block;
    columns << x << y << z;
}

} // namespace

PlotTableSwitch::PlotTableSwitch(QCustomPlot *plot, QWidget *page, QWidget *parent) : QWidget(parent), m_plot(plot)
{
    const QString name = plot->accessibleName().isEmpty() ? tr("plot") : plot->accessibleName();
    m_toggle = new QPushButton(tr("Show as &table"), this);
    m_toggle->setObjectName(QStringLiteral("showAsTable"));
    m_toggle->setCheckable(true);
    m_toggle->setAccessibleName(tr("Show %1 as a table").arg(name));
    m_toggle->setToolTip(tr("The plot's numbers as a table: x and y per line"));
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("plotTable"));
    m_table->setAccessibleName(tr("%1 as a table").arg(name));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(page ? page : plot);
    m_stack->addWidget(m_table);
    m_refresh = new QTimer(this);
    m_refresh->setInterval(1000);

    auto *row = new QHBoxLayout;
    m_row = row;
    row->setContentsMargins(0, 0, 0, 0);
    row->addStretch();
    row->addWidget(m_toggle);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(row);
    layout->addWidget(m_stack, 1);

    connect(m_toggle, &QPushButton::toggled, this, &PlotTableSwitch::setTableShown);
    connect(m_refresh, &QTimer::timeout, this, &PlotTableSwitch::refreshTable);
}

PlotTableSwitch::~PlotTableSwitch() = default;

QPushButton *PlotTableSwitch::detachToggle()
{
    if (!m_row)
        return m_toggle; // detached already
    m_row->removeWidget(m_toggle);
    layout()->removeItem(m_row);
    // Out of the layout, the row (its stretch) has no owner any more.
    delete m_row;
    m_row = nullptr;
    return m_toggle;
}

bool PlotTableSwitch::isTableShown() const
{
    return m_stack->currentWidget() == m_table;
}

void PlotTableSwitch::setTableShown(bool shown)
{
    if (m_toggle->isChecked() != shown)
        m_toggle->setChecked(shown); // comes back here through toggled()
    if (shown == isTableShown())
        return;
    if (shown) {
        refreshTable();
        m_refresh->start();
    } else {
        m_refresh->stop();
    }
    m_stack->setCurrentIndex(shown ? 1 : 0);
}

void PlotTableSwitch::refreshTable()
{
    QList<Column> columns;
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = m_plot->plottable(i);
        if (auto *graph = qobject_cast<QCPGraph *>(p); graph && !graph->data()->isEmpty())
            addColumns(columns, graph, graph->data());
        else if (auto *bars = qobject_cast<QCPBars *>(p); bars && !bars->data()->isEmpty())
            addColumns(columns, bars, bars->data());
        else if (auto *map = qobject_cast<QCPColorMap *>(p))
            addColorMapColumns(columns, map);
    }
    qsizetype rows = 0;
    QStringList headers;
    for (const Column &c : std::as_const(columns)) {
        rows = std::max(rows, c.cells.size());
        headers << c.header;
    }
    m_table->setColumnCount(int(columns.size()));
    m_table->setRowCount(int(rows));
    m_table->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < columns.size(); ++c) {
        for (int r = 0; r < rows; ++r) {
            const QVariant v = columns.at(c).cells.value(r);
            QTableWidgetItem *item = m_table->item(r, c);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(r, c, item);
            }
            item->setData(Qt::DisplayRole, v);
            item->setTextAlignment(v.typeId() == QMetaType::Double ? Qt::AlignRight | Qt::AlignVCenter
                                                                   : Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
}

} // namespace blocktune
