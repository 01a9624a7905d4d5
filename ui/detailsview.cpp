#include "detailsview.h"

#include "format.h"

#include "devices/devices.h"

#include <QApplication>
#include <QClipboard>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace blocktune {

namespace {

using Rows = QList<std::pair<QString, QString>>;

QString yesNo(const std::optional<bool> &v, const QString &yes, const QString &no)
{
    return v ? (*v ? yes : no) : QString();
}

QString kibOf(const std::optional<quint64> &kib)
{
    return kib ? format::kib(double(*kib)) : QString();
}

/// Bytes the kernel reports in bytes (io_opt, io_min, the block size):
/// whole KiB as KiB, else bytes; 0 is "not reported", as the kernel means it.
QString ioBytes(const std::optional<quint64> &bytes)
{
    if (!bytes)
        return {};
    if (*bytes == 0)
        return DetailsView::tr("not reported (0)");
    if (*bytes % 1024 == 0)
        return format::kib(double(*bytes / 1024));
    return DetailsView::tr("%1 bytes").arg(format::count(*bytes));
}

QString typeText(const BlockDevice &d)
{
    switch (d.type) {
    case DeviceType::Disk: return DetailsView::tr("disk");
    case DeviceType::Partition:
        return d.partitionNumber ? DetailsView::tr("partition %1 of %2").arg(*d.partitionNumber).arg(d.parent)
                                 : DetailsView::tr("partition of %1").arg(d.parent);
    case DeviceType::Md: return DetailsView::tr("md array");
    case DeviceType::Dm: return DetailsView::tr("device-mapper volume");
    case DeviceType::Loop: return DetailsView::tr("loop device");
    case DeviceType::Rom: return DetailsView::tr("optical drive");
    case DeviceType::Other: break;
    }
    return DetailsView::tr("other block device");
}

QString listOrNone(const QStringList &names)
{
    return names.isEmpty() ? DetailsView::tr("none") : names.join(QStringLiteral(", "));
}

} // namespace

DetailsView::DetailsView(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_copy = new QPushButton(tr("Copy as &JSON"), this);
    m_copy->setObjectName(QStringLiteral("copyJson"));
    m_copy->setToolTip(tr("Copy this device as blocktune-cli list --json describes it"));
    m_copy->setEnabled(false);
    auto *page = new QWidget;
    m_groups = new QVBoxLayout(page);
    m_groups->addStretch(1);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("detailsScroll"));
    m_scroll->setWidget(page);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_copy);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_scroll, 1);
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_json); });
    showDevice(nullptr);
}

void DetailsView::clearGroups()
{
    while (m_groups->count() > 1) {
        QLayoutItem *item = m_groups->takeAt(0);
        delete item->widget();
        delete item;
    }
}

QWidget *DetailsView::addGroup(const QString &title, const Rows &rows)
{
    auto *box = new QGroupBox(title);
    auto *form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (const auto &[label, value] : rows) {
        if (value.isEmpty())
            continue; // what the device does not have (a model for an array)
        auto *field = new QLabel(value, box);
        field->setWordWrap(true);
        field->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        form->addRow(tr("%1:").arg(label), field);
        field->setAccessibleName(label);
    }
    if (form->rowCount() == 0) {
        delete box;
        return nullptr;
    }
    m_groups->insertWidget(m_groups->count() - 1, box);
    return box;
}

void DetailsView::addIdentity(const BlockDevice &d)
{
    QString size;
    if (d.sizeBytes)
        size = tr("%1 (%2 bytes)").arg(format::size(*d.sizeBytes), format::count(*d.sizeBytes));
    addGroup(tr("Device"), {{tr("Path"), d.path},
                            {tr("Type"), typeText(d)},
                            {tr("Device number"), d.hasDeviceNumber() ? QStringLiteral("%1:%2").arg(d.major).arg(d.minor)
                                                                      : QString()},
                            {tr("Size"), size},
                            {tr("Model"), d.model},
                            {tr("Serial"), d.serial},
                            {tr("WWN"), d.wwn},
                            {tr("Transport"), d.transport},
                            {tr("Rotational"), yesNo(d.rotational, tr("yes (a spinning disk)"), tr("no"))},
                            {tr("Read-only"), yesNo(d.readOnly, tr("yes"), tr("no"))},
                            {tr("Removable"), yesNo(d.removable, tr("yes"), tr("no"))}});
}

void DetailsView::addStacking(const BlockDevice &d)
{
    addGroup(tr("Stacking"), {{tr("Whole disk"), d.parent},
                              {tr("Built on"), listOrNone(d.slaves)},
                              {tr("Used by"), listOrNone(d.holders)},
                              {tr("Physical disks underneath"), d.leafDisks.join(QStringLiteral(", "))}});
}

void DetailsView::addQueue(const BlockDevice &d)
{
    const QString title = d.queueDevice.isEmpty() || d.queueDevice == d.name
                              ? tr("Queue")
                              : tr("Queue (of its disk %1: a partition has none of its own)").arg(d.queueDevice);
    QString readahead;
    if (d.readAheadKiB)
        readahead = tr("%1 (%2 sectors of 512 bytes, as blockdev --getra counts)")
                        .arg(format::kib(double(*d.readAheadKiB)), format::count(*d.readAheadKiB * 2));
    QString scheduler = d.scheduler;
    if (d.schedulers.size() > 1)
        scheduler = tr("%1 (available: %2)").arg(d.scheduler, d.schedulers.join(QStringLiteral(", ")));
    QString context = tr("built in, always on (no switch on this kernel)");
    if (d.contextReadahead)
        context = tr("%1 (switch: %2)").arg(*d.contextReadahead ? tr("on") : tr("off"), d.contextReadaheadPath);
    addGroup(title, {{tr("Readahead"), readahead},
                     {tr("I/O scheduler"), scheduler},
                     {tr("Requests queued (nr_requests)"), d.nrRequests ? format::count(*d.nrRequests) : QString()},
                     {tr("Largest request (max_sectors_kb)"), kibOf(d.maxSectorsKiB)},
                     {tr("Hardware limit (max_hw_sectors_kb)"), kibOf(d.maxHwSectorsKiB)},
                     {tr("Optimal I/O size"), ioBytes(d.optimalIoBytes)},
                     {tr("Minimum I/O size"), ioBytes(d.minimumIoBytes)},
                     {tr("Logical block size"), ioBytes(d.logicalBlockBytes)},
                     {tr("Context readahead"), context}});
}

void DetailsView::addFilesystem(const BlockDevice &d)
{
    addGroup(tr("Contents"), {{tr("Filesystem or signature"), d.fstype}, {tr("Label"), d.label}, {tr("UUID"), d.uuid}});
}

void DetailsView::addMd(const BlockDevice &d)
{
    if (!d.md)
        return;
    const MdInfo &md = *d.md;
    QStringList members;
    for (const MdMember &m : md.members)
        members << (m.slot ? tr("%1 (slot %2, %3)").arg(m.name).arg(*m.slot).arg(m.state)
                           : tr("%1 (%2)").arg(m.name, m.state.isEmpty() ? tr("no slot") : m.state));
    addGroup(tr("md array"),
             {{tr("Level"), md.level},
              {tr("Layout"), md.layoutName},
              {tr("Member disks"), md.raidDisks ? format::count(quint64(*md.raidDisks)) : QString()},
              {tr("Chunk"), md.chunkBytes ? format::kib(double(*md.chunkBytes / 1024)) : QString()},
              {tr("Stripe (data per row)"), kibOf(md.stripeKiB)},
              {tr("Readahead floor"), md.readaheadFloorKiB
                                          ? tr("%1 (two stripes: the kernel raises a smaller readahead to it)")
                                                .arg(format::kib(double(*md.readaheadFloorKiB)))
                                          : QString()},
              {tr("State"), md.arrayState},
              {tr("Missing members"), md.degraded ? format::count(quint64(*md.degraded)) : QString()},
              {tr("Members"), members.join(u'\n')},
              {tr("UUID"), md.uuid}});
}

void DetailsView::addDmAndLoop(const BlockDevice &d)
{
    if (d.dm)
        addGroup(tr("Device-mapper volume"), {{tr("Name"), d.dm->name}, {tr("Kind"), d.dm->kind}, {tr("UUID"), d.dm->uuid}});
    if (d.loop)
        addGroup(tr("Loop device"), {{tr("Backing file"), d.loop->backingFile},
                                     {tr("Direct I/O"), yesNo(d.loop->directIo, tr("on"), tr("off"))}});
}

void DetailsView::showGone(const QString &why)
{
    showDevice(nullptr);
    m_title->setText(why);
}

void DetailsView::showDevice(const BlockDevice *device, const QString &name)
{
    clearGroups();
    m_copy->setEnabled(device != nullptr);
    if (!device) {
        m_json.clear();
        m_title->setText(name.isEmpty() ? tr("Select a device to see its details.") : tr("%1 is gone").arg(name));
        return;
    }
    const BlockDevice &d = *device;
    m_json = QString::fromUtf8(QJsonDocument(deviceToJson(d)).toJson(QJsonDocument::Indented));
    m_title->setText(d.model.isEmpty() ? d.name : tr("%1 — %2").arg(d.name, d.model));
    addIdentity(d);
    addQueue(d);
    addStacking(d);
    addMd(d);
    addDmAndLoop(d);
    addFilesystem(d);
}

QString DetailsView::value(const QString &label) const
{
    for (QLabel *field : findChildren<QLabel *>())
        if (field->accessibleName() == label)
            return field->text();
    return {};
}

} // namespace blocktune
