#include "devicetree.h"

#include "format.h"

#include "common/sysroot.h"
#include "devices/devices.h"

#include <QAction>
#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>
#include <QSet>
#include <QTimer>
#include <QTreeWidgetItemIterator>

#include <functional>

namespace blocktune {

namespace {

enum Role {
    NameRole = Qt::UserRole,   ///< the kernel name
    QueueRole,                 ///< whose queue/ the row's readahead and scheduler are
    SearchRole,                ///< lower-case name, dm name, model, serial, WWN
    IdentityRole,              ///< identityOf(): the same name on another device differs
};

/// What tells one device from another that took its name after it went
/// (a loop detached and another attached): the device number and, for a
/// loop, its backing file.
QString identityOf(const BlockDevice &d)
{
    return QStringLiteral("%1:%2 %3").arg(d.major).arg(d.minor).arg(d.loop ? d.loop->backingFile : QString());
}

constexpr int kRefreshMs = 2000;

/// LVM names its dm devices VG-LV with every '-' inside a name doubled
/// (lib/misc/lvm-string.c, dm_split_lvm_name): "vg_scst-lun0" is VG
/// vg_scst, LV lun0; "my--vg-root" is VG my-vg, LV root.
QString lvmName(const QString &dmName)
{
    for (qsizetype i = 0; i < dmName.size(); ++i) {
        if (dmName[i] != u'-')
            continue;
        if (i + 1 < dmName.size() && dmName[i + 1] == u'-') {
            ++i;
            continue;
        }
        QString vg = dmName.left(i);
        QString lv = dmName.mid(i + 1);
        return vg.replace(QStringLiteral("--"), QStringLiteral("-")) + u'/'
               + lv.replace(QStringLiteral("--"), QStringLiteral("-"));
    }
    return dmName;
}

QString shownName(const BlockDevice &d)
{
    if (!d.dm || d.dm->name.isEmpty())
        return d.name;
    const QString name = d.dm->kind == u"lvm" ? lvmName(d.dm->name) : d.dm->name;
    return DeviceTree::tr("%1 (%2)").arg(name, d.name);
}

bool isVirtual(const BlockDevice &d)
{
    if (d.type == DeviceType::Loop || d.name.startsWith(u"zram"))
        return true;
    // ram0..ramN (brd); not "ramdisk-like" names of real drivers.
    if (!d.name.startsWith(u"ram") || d.name.size() == 3)
        return false;
    for (qsizetype i = 3; i < d.name.size(); ++i)
        if (!d.name[i].isDigit())
            return false;
    return true;
}

bool isEmpty(const BlockDevice &d)
{
    return d.sizeBytes && *d.sizeBytes == 0;
}

QString detailOf(const BlockDevice &d, const DeviceModel &model)
{
    if (isEmpty(d))
        return d.type == DeviceType::Loop ? DeviceTree::tr("detached") : DeviceTree::tr("empty (no medium)");
    // What a stacked device sits on, when that is itself an array or volume
    // (LVM on md): the row does not repeat the array beneath it.
    QStringList on;
    for (const QString &slave : d.slaves)
        if (const BlockDevice *s = model.find(slave); s && (s->type == DeviceType::Md || s->type == DeviceType::Dm))
            on << shownName(*s);
    const QString onText = on.isEmpty() ? QString() : DeviceTree::tr(", on %1").arg(on.join(QStringLiteral(", ")));
    if (d.md) {
        QString text = d.md->level;
        if (!d.md->layoutName.isEmpty())
            text += u' ' + d.md->layoutName;
        if (d.md->readaheadFloorKiB)
            text += DeviceTree::tr(", readahead floor %1").arg(format::kib(double(*d.md->readaheadFloorKiB)));
        if (d.md->degraded.value_or(0) > 0)
            text += DeviceTree::tr(", degraded");
        return text + onText;
    }
    if (d.dm)
        return d.dm->kind + onText;
    if (d.loop)
        return d.loop->backingFile + (d.loop->directIo.value_or(false) ? DeviceTree::tr(" (direct I/O)") : QString());
    return d.model;
}

QString toolTipOf(const BlockDevice &d)
{
    QStringList lines{d.path.isEmpty() ? d.name : d.path};
    auto add = [&lines](const QString &label, const QString &value) {
        if (!value.isEmpty())
            lines << DeviceTree::tr("%1: %2").arg(label, value);
    };
    add(DeviceTree::tr("Model"), d.model);
    add(DeviceTree::tr("Serial"), d.serial);
    add(DeviceTree::tr("WWN"), d.wwn);
    add(DeviceTree::tr("Transport"), d.transport);
    if (d.sizeBytes)
        add(DeviceTree::tr("Size"), DeviceTree::tr("%1 (%2 bytes)").arg(format::size(*d.sizeBytes), format::count(*d.sizeBytes)));
    if (d.queueDevice != d.name && !d.queueDevice.isEmpty())
        lines << DeviceTree::tr("Readahead and scheduler are those of %1 (a partition has no queue of its own)")
                     .arg(d.queueDevice);
    if (d.md) {
        QStringList members;
        for (const MdMember &m : d.md->members)
            members << (m.state.isEmpty() ? m.name : QStringLiteral("%1 (%2)").arg(m.name, m.state));
        add(DeviceTree::tr("Members"), members.join(QStringLiteral(", ")));
        if (d.md->chunkBytes)
            add(DeviceTree::tr("Chunk"), format::size(*d.md->chunkBytes));
        if (d.md->stripeKiB)
            add(DeviceTree::tr("Stripe"), format::kib(double(*d.md->stripeKiB)));
        add(DeviceTree::tr("State"), d.md->arrayState);
    }
    if (d.dm) {
        add(DeviceTree::tr("dm name"), d.dm->name);
        add(DeviceTree::tr("dm uuid"), d.dm->uuid);
    }
    if (d.loop)
        add(DeviceTree::tr("Backing file"), d.loop->backingFile);
    add(DeviceTree::tr("Built on"), d.slaves.join(QStringLiteral(", ")));
    add(DeviceTree::tr("Used by"), d.holders.join(QStringLiteral(", ")));
    add(DeviceTree::tr("Filesystem"), QStringList{d.fstype, d.label}.join(u' ').trimmed());
    return lines.join(u'\n');
}

/// Builds the rows of one model in one arrangement, with the filters.
class Builder
{
public:
    Builder(const DeviceModel &model, QTreeWidget *tree, bool hideEmpty, bool hideVirtual)
        : m_model(model), m_tree(tree), m_hideEmpty(hideEmpty), m_hideVirtual(hideVirtual)
    {
    }

    void byDisk()
    {
        QSet<QString> path;
        for (const QString &root : m_model.roots())
            addStack(root, nullptr, path);
    }

    void byArray()
    {
        QStringList md, dm, plain;
        for (const BlockDevice &d : m_model.devices()) {
            if (d.type == DeviceType::Md)
                md << d.name;
            else if (d.type == DeviceType::Dm)
                dm << d.name;
            else if (d.isWhole() && !isBuiltOn(d))
                plain << d.name;
        }
        for (const QStringList *group : {&md, &dm}) {
            for (const QString &name : *group) {
                QTreeWidgetItem *item = add(name, nullptr);
                if (!item)
                    continue;
                // Members nest once, each whole disk with its partitions; a
                // member that is itself an array or volume is a top-level
                // row of its own, named in the detail column instead.
                QStringList disks;
                for (const QString &slave : m_model.find(name)->slaves) {
                    const BlockDevice *s = m_model.find(slave);
                    if (!s || s->type == DeviceType::Md || s->type == DeviceType::Dm)
                        continue;
                    const QString disk = s->type == DeviceType::Partition ? s->parent : s->name;
                    if (!disks.contains(disk))
                        disks << disk;
                }
                for (const QString &disk : std::as_const(disks))
                    addDiskWithPartitions(disk, item);
            }
        }
        for (const QString &name : std::as_const(plain))
            addDiskWithPartitions(name, nullptr);
    }

private:
    bool isBuiltOn(const BlockDevice &d) const
    {
        if (!d.holders.isEmpty())
            return true;
        for (const QString &part : m_model.children(d.name))
            if (const BlockDevice *p = m_model.find(part); p && p->type == DeviceType::Partition && !p->holders.isEmpty())
                return true;
        return false;
    }

    bool filtered(const BlockDevice &d) const
    {
        return (m_hideEmpty && isEmpty(d)) || (m_hideVirtual && isVirtual(d));
    }

    void addDiskWithPartitions(const QString &disk, QTreeWidgetItem *parent)
    {
        QTreeWidgetItem *item = add(disk, parent);
        if (!item)
            return;
        for (const QString &child : m_model.children(disk))
            if (const BlockDevice *c = m_model.find(child); c && c->type == DeviceType::Partition)
                add(child, item);
    }

    void addStack(const QString &name, QTreeWidgetItem *parent, QSet<QString> &path)
    {
        if (path.contains(name))
            return;
        QTreeWidgetItem *item = add(name, parent);
        if (!item)
            return;
        path.insert(name);
        for (const QString &child : m_model.children(name))
            addStack(child, item, path);
        path.remove(name);
    }

    QTreeWidgetItem *add(const QString &name, QTreeWidgetItem *parent)
    {
        const BlockDevice *d = m_model.find(name);
        if (!d || filtered(*d))
            return nullptr;
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
        const bool empty = isEmpty(*d);
        item->setText(DeviceTree::Name, shownName(*d));
        item->setData(DeviceTree::Name, NameRole, d->name);
        item->setData(DeviceTree::Name, QueueRole, d->queueDevice.isEmpty() ? d->name : d->queueDevice);
        item->setData(DeviceTree::Name, IdentityRole, identityOf(*d));
        item->setData(DeviceTree::Name, SearchRole,
                      QStringList{d->name, d->dm ? d->dm->name : QString(), d->dm ? shownName(*d) : QString(),
                                  d->model, d->serial, d->wwn}
                          .join(u'\n')
                          .toLower());
        item->setText(DeviceTree::Type, deviceTypeName(d->type));
        item->setText(DeviceTree::Size, d->sizeBytes ? format::size(*d->sizeBytes) : QString());
        item->setTextAlignment(DeviceTree::Readahead, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(DeviceTree::Size, Qt::AlignRight | Qt::AlignVCenter);
        // An empty device has no medium to read ahead on: its queue values
        // and media type say nothing ("0 B HDD 2560" helped no one).
        if (!empty) {
            item->setText(DeviceTree::Readahead, d->readAheadKiB ? format::count(*d->readAheadKiB) : QString());
            item->setText(DeviceTree::Scheduler, d->scheduler);
            item->setText(DeviceTree::Rotational,
                          d->rotational ? (*d->rotational ? DeviceTree::tr("HDD") : DeviceTree::tr("SSD")) : QString());
        }
        item->setText(DeviceTree::Detail, detailOf(*d, m_model));
        const QString tip = toolTipOf(*d);
        for (int c = 0; c < DeviceTree::ColumnCount; ++c)
            item->setToolTip(c, tip);
        return item;
    }

    const DeviceModel &m_model;
    QTreeWidget *m_tree;
    bool m_hideEmpty;
    bool m_hideVirtual;
};

} // namespace

DeviceTree::DeviceTree(QWidget *parent) : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("deviceTree"));
    setAccessibleName(tr("Block devices"));
    setColumnCount(ColumnCount);
    setHeaderLabels({tr("Device"), tr("Type"), tr("Size"), tr("Readahead KiB"), tr("Scheduler"),
                     tr("Media"), tr("Detail")});
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    header()->setStretchLastSection(true);
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *current) {
        if (current && !m_rebuilding)
            Q_EMIT deviceSelected(current->data(Name, NameRole).toString());
    });
    // The context menu acts on the row under the mouse: a right click
    // selects it first, so the action can follow the selection.
    m_applyProfile = new QAction(tr("Apply profile…"), this);
    m_applyProfile->setObjectName(QStringLiteral("applyProfile"));
    m_applyProfile->setToolTip(tr("Open the Profiles page with this device's settings in the preview"));
    connect(m_applyProfile, &QAction::triggered, this, [this] {
        const QString name = selectedDevice();
        if (!name.isEmpty())
            Q_EMIT applyProfileRequested(name);
    });
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QTreeWidgetItem *item = itemAt(pos);
        if (!item)
            return;
        setCurrentItem(item);
        auto *menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(m_applyProfile);
        menu->popup(viewport()->mapToGlobal(pos));
    });
    m_refresh = new QTimer(this);
    m_refresh->setInterval(kRefreshMs);
    connect(m_refresh, &QTimer::timeout, this, [this] {
        if (isVisible())
            refreshVisibleValues();
    });
    m_refresh->start();
}

DeviceTree::~DeviceTree() = default;

void DeviceTree::setSysroot(const QString &sysroot)
{
    m_sysroot = sysroot;
}

void DeviceTree::setModel(std::shared_ptr<const DeviceModel> model)
{
    const QTreeWidgetItem *current = currentItem();
    const QString name = current ? current->data(Name, NameRole).toString() : QString();
    const QString identity = current ? current->data(Name, IdentityRole).toString() : QString();
    m_model = std::move(model);
    rebuild();
    if (name.isEmpty())
        return;
    const QTreeWidgetItem *now = currentItem();
    if (now && now->data(Name, NameRole).toString() == name && now->data(Name, IdentityRole).toString() == identity)
        return;
    if (const QString why = goneReason(name, identity); !why.isEmpty()) {
        if (now && now->data(Name, NameRole).toString() == name)
            setCurrentItem(nullptr); // the name is another device's now: not what the user chose
        Q_EMIT selectedDeviceGone(name, why);
    }
}

QString DeviceTree::goneReason(const QString &name, const QString &identity) const
{
    const BlockDevice *d = m_model ? m_model->find(name) : nullptr;
    if (!d)
        return tr("%1 is gone: it was removed from the system").arg(name);
    // A detached loop stays in /sys/block, empty and without its backing
    // file: that is its going, not another device taking the name.
    if (isEmpty(*d))
        return d->type == DeviceType::Loop ? tr("%1 is gone: the loop device was detached").arg(name)
                                           : tr("%1 is gone: its medium was removed").arg(name);
    if (identityOf(*d) != identity)
        return tr("%1 is gone: the name now belongs to another device").arg(name);
    return {}; // still there, only hidden by a filter
}

void DeviceTree::setModel(const DeviceModel &model)
{
    setModel(std::make_shared<const DeviceModel>(model));
}

void DeviceTree::setArrangement(Arrangement arrangement)
{
    if (arrangement == m_arrangement)
        return;
    m_arrangement = arrangement;
    rebuild();
}

void DeviceTree::setHideEmpty(bool hide)
{
    if (hide == m_hideEmpty)
        return;
    m_hideEmpty = hide;
    rebuild();
}

void DeviceTree::setHideVirtual(bool hide)
{
    if (hide == m_hideVirtual)
        return;
    m_hideVirtual = hide;
    rebuild();
}

void DeviceTree::setSearchText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_search)
        return;
    m_search = trimmed;
    applySearch();
}

void DeviceTree::rebuild()
{
    const QTreeWidgetItem *current = currentItem();
    const QString selected = selectedDevice();
    const QString identity = current ? current->data(Name, IdentityRole).toString() : QString();
    // What the user arranged: rows they collapsed, where they scrolled to.
    QSet<QString> collapsed;
    for (QTreeWidgetItemIterator it(this); *it; ++it)
        if ((*it)->childCount() > 0 && !(*it)->isExpanded())
            collapsed.insert((*it)->data(Name, NameRole).toString());
    const int scrolledTo = verticalScrollBar()->value();
    const bool firstRows = topLevelItemCount() == 0;
    m_rebuilding = true;
    clear();
    if (m_model) {
        Builder builder(*m_model, this, m_hideEmpty, m_hideVirtual);
        if (m_arrangement == Arrangement::Arrays)
            builder.byArray();
        else
            builder.byDisk();
    }
    expandAll();
    for (QTreeWidgetItemIterator it(this); *it; ++it)
        if (collapsed.contains((*it)->data(Name, NameRole).toString()))
            (*it)->setExpanded(false);
    // Sized to the contents the first time; later only widened, so a
    // column the user narrowed does not jump back at every hotplug.
    for (int c = 0; c < Detail; ++c) {
        const int wanted = std::max(sizeHintForColumn(c), header()->sectionSizeHint(c));
        setColumnWidth(c, firstRows ? wanted : std::max(columnWidth(c), wanted));
    }
    applySearch();
    if (!selected.isEmpty()) {
        for (QTreeWidgetItem *item : itemsFor(selected))
            if (!item->isHidden() && item->data(Name, IdentityRole).toString() == identity) {
                setCurrentItem(item);
                break;
            }
    }
    verticalScrollBar()->setValue(scrolledTo);
    m_rebuilding = false;
}

void DeviceTree::applySearch()
{
    const QString needle = m_search.toLower();
    // A row stays when it matches, lies under a match (its partitions and
    // members), or holds a match (the path to it).
    std::function<bool(QTreeWidgetItem *, bool)> keep = [&](QTreeWidgetItem *item, bool underMatch) {
        const bool matches = needle.isEmpty() || underMatch
                             || item->data(Name, SearchRole).toString().contains(needle);
        bool childKept = false;
        for (int i = 0; i < item->childCount(); ++i)
            childKept = keep(item->child(i), matches) || childKept;
        const bool kept = matches || childKept;
        item->setHidden(!kept);
        return kept;
    };
    for (int i = 0; i < topLevelItemCount(); ++i)
        keep(topLevelItem(i), false);
}

QString DeviceTree::selectedDevice() const
{
    const QTreeWidgetItem *item = currentItem();
    return item ? item->data(Name, NameRole).toString() : QString();
}

QList<QTreeWidgetItem *> DeviceTree::itemsFor(const QString &name) const
{
    QList<QTreeWidgetItem *> out;
    for (QTreeWidgetItemIterator it(const_cast<DeviceTree *>(this)); *it; ++it)
        if ((*it)->data(Name, NameRole).toString() == name)
            out << *it;
    return out;
}

bool DeviceTree::selectDevice(const QString &name)
{
    const QList<QTreeWidgetItem *> items = itemsFor(name);
    for (QTreeWidgetItem *item : items) {
        if (item->isHidden())
            continue;
        setCurrentItem(item);
        return true;
    }
    return false;
}

void DeviceTree::refreshVisibleValues()
{
    // The rows on screen only: a tree of thousands costs what its viewport
    // shows, a few small sysfs reads every two seconds.
    const QRect shown = viewport()->rect();
    QList<QTreeWidgetItem *> rows;
    QStringList queues;
    for (QTreeWidgetItemIterator it(this, QTreeWidgetItemIterator::NotHidden); *it; ++it) {
        QTreeWidgetItem *item = *it;
        if (item->text(Readahead).isEmpty() && item->text(Scheduler).isEmpty())
            continue; // empty devices and those without a queue
        if (!visualItemRect(item).intersects(shown))
            continue;
        rows << item;
        const QString queue = item->data(Name, QueueRole).toString();
        if (!queues.contains(queue))
            queues << queue;
    }
    if (rows.isEmpty())
        return;
    const QHash<QString, QueueValues> values = readQueueValues(SysRoot(m_sysroot), queues);
    for (QTreeWidgetItem *item : std::as_const(rows)) {
        const auto it = values.constFind(item->data(Name, QueueRole).toString());
        if (it == values.constEnd())
            continue;
        if (it->readAheadKiB) {
            const QString text = format::count(*it->readAheadKiB);
            if (item->text(Readahead) != text)
                item->setText(Readahead, text);
        }
        if (!it->scheduler.isEmpty() && item->text(Scheduler) != it->scheduler)
            item->setText(Scheduler, it->scheduler);
    }
}

} // namespace blocktune
