#pragma once

#include <QTreeWidget>

namespace blocktune {

class DeviceModel;

/// The stack of block devices as a tree: disks at the top, partitions,
/// md arrays and dm volumes under what they are built on.
class DeviceTree final : public QTreeWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DeviceTree)

public:
    enum Column { Name, Type, Size, Readahead, Scheduler, Rotational, Detail, ColumnCount };

    explicit DeviceTree(QWidget *parent = nullptr);

    /// Rebuilds the tree, keeping the selected device selected.
    void setModel(const DeviceModel &model);
    QString selectedDevice() const;

Q_SIGNALS:
    void deviceSelected(const QString &name);
};

} // namespace blocktune
