#include "devicetree.h"

#include "format.h"

#include "devices/devices.h"

#include <QHeaderView>
#include <QSet>

namespace blocktune {

namespace {

QString detailOf(const BlockDevice &d)
{
    if (d.md) {
        QString text = d.md->level;
        if (!d.md->layoutName.isEmpty())
            text += u' ' + d.md->layoutName;
        if (d.md->readaheadFloorKiB)
            text += DeviceTree::tr(", readahead floor %1").arg(format::kib(double(*d.md->readaheadFloorKiB)));
        if (d.md->degraded.value_or(0) > 0)
            text += DeviceTree::tr(", degraded");
        return text;
    }
    if (d.dm)
        return d.dm->kind + u' ' + d.dm->name;
    if (d.loop)
        return d.loop->backingFile + (d.loop->directIo.value_or(false) ? DeviceTree::tr(" (direct I/O)") : QString());
    return d.model;
}

void addItem(const DeviceModel &model, const QString &name, QTreeWidgetItem *parentItem,
             QTreeWidget *tree, QSet<QString> &path)
{
    const BlockDevice *d = model.find(name);
    if (!d || path.contains(name))
        return;
    auto *item = parentItem ? new QTreeWidgetItem(parentItem) : new QTreeWidgetItem(tree);
    item->setText(DeviceTree::Name, d->name);
    item->setData(DeviceTree::Name, Qt::UserRole, d->name);
    item->setText(DeviceTree::Type, deviceTypeName(d->type));
    item->setText(DeviceTree::Size, d->sizeBytes ? format::size(*d->sizeBytes) : QString());
    item->setText(DeviceTree::Readahead, d->readAheadKiB ? format::count(*d->readAheadKiB) : QString());
    item->setTextAlignment(DeviceTree::Readahead, Qt::AlignRight | Qt::AlignVCenter);
    item->setTextAlignment(DeviceTree::Size, Qt::AlignRight | Qt::AlignVCenter);
    item->setText(DeviceTree::Scheduler, d->scheduler);
    item->setText(DeviceTree::Rotational, d->rotational ? (*d->rotational ? DeviceTree::tr("HDD") : DeviceTree::tr("SSD")) : QString());
    item->setText(DeviceTree::Detail, detailOf(*d));
    if (d->type == DeviceType::Partition)
        item->setToolTip(DeviceTree::Readahead,
                         DeviceTree::tr("Partitions share the readahead of their disk %1").arg(d->parent));
    path.insert(name);
    for (const QString &child : model.children(name))
        addItem(model, child, item, tree, path);
    path.remove(name);
}

} // namespace

DeviceTree::DeviceTree(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(ColumnCount);
    setHeaderLabels({tr("Device"), tr("Type"), tr("Size"), tr("Readahead KiB"), tr("Scheduler"),
                     tr("Media"), tr("Detail")});
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    header()->setStretchLastSection(true);
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *current) {
        if (current)
            Q_EMIT deviceSelected(current->data(Name, Qt::UserRole).toString());
    });
}

void DeviceTree::setModel(const DeviceModel &model)
{
    const QString selected = selectedDevice();
    clear();
    QSet<QString> path;
    for (const QString &root : model.roots())
        addItem(model, root, nullptr, this, path);
    expandAll();
    for (int c = 0; c < Detail; ++c)
        resizeColumnToContents(c);
    if (!selected.isEmpty()) {
        const auto found = findItems(selected, Qt::MatchExactly | Qt::MatchRecursive, Name);
        if (!found.isEmpty())
            setCurrentItem(found.constFirst());
    }
}

QString DeviceTree::selectedDevice() const
{
    const QTreeWidgetItem *item = currentItem();
    return item ? item->data(Name, Qt::UserRole).toString() : QString();
}

} // namespace blocktune
