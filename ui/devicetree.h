#pragma once

#include <QTreeWidget>

#include <memory>

class QAction;
class QTimer;

namespace blocktune {

class DeviceModel;

/// The block devices as a tree, in one of two arrangements:
///   Arrays: what an admin tunes at the top (md arrays, dm/LVM volumes by
///   VG/LV name with dm-N beside it, then whole disks nothing is built on);
///   an array's members, with their partitions, nest under it once.
///   Disks: like lsblk, disks at the top, partitions and what is built on
///   them underneath (an array then shows under each of its members).
/// Filters hide empty devices (size 0: detached loops, empty card readers)
/// and loop/zram/ram devices; a search keeps the rows whose name, model,
/// serial or WWN contains the text (with their context). The readahead and
/// scheduler of the rows on screen are read again every two seconds, so a
/// change made outside the console shows without a rescan.
class DeviceTree final : public QTreeWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DeviceTree)

public:
    enum Column { Name, Type, Size, Readahead, Scheduler, Rotational, Detail, ColumnCount };
    enum class Arrangement { Arrays, Disks };

    explicit DeviceTree(QWidget *parent = nullptr);
    ~DeviceTree() override;

    /// Where refreshVisibleValues() reads (empty = the live machine).
    void setSysroot(const QString &sysroot);
    /// Rebuilds the tree from a published model (a hotplug, a rescan),
    /// disturbing nothing the user is doing: the selected device stays
    /// selected without a new deviceSelected() (it is the same device: same
    /// name and device number, a loop's same backing file), collapsed rows
    /// stay collapsed, the scroll position and the focus stay. When the
    /// selected device itself went away, selectedDeviceGone() says so. The
    /// tree keeps the snapshot, not a copy.
    void setModel(std::shared_ptr<const DeviceModel> model);
    /// The same from a model of one's own (tests, tools): shared as a copy.
    void setModel(const DeviceModel &model);

    QString selectedDevice() const;
    /// Selects the first row showing this kernel name; false if none does.
    bool selectDevice(const QString &name);
    /// Every row showing this kernel name (hidden ones included).
    QList<QTreeWidgetItem *> itemsFor(const QString &name) const;

    Arrangement arrangement() const { return m_arrangement; }
    bool hidesEmpty() const { return m_hideEmpty; }
    bool hidesVirtual() const { return m_hideVirtual; }
    QString searchText() const { return m_search; }
    /// "Apply profile…" of the context menu (acts on the selected device).
    QAction *applyProfileAction() const { return m_applyProfile; }

public Q_SLOTS:
    void setArrangement(blocktune::DeviceTree::Arrangement arrangement);
    void setHideEmpty(bool hide);
    /// loop, zram and ram devices.
    void setHideVirtual(bool hide);
    void setSearchText(const QString &text);
    /// Reads read_ahead_kb and the scheduler of the rows on screen again
    /// (core's readQueueValues: a few small reads, no scan). The timer calls
    /// it every two seconds while the tree is visible.
    void refreshVisibleValues();

Q_SIGNALS:
    void deviceSelected(const QString &name);
    /// The selected device is not in the new model any more, or is another
    /// one now: `why` says which, in words for the user.
    void selectedDeviceGone(const QString &name, const QString &why);
    /// The context menu's "Apply profile…" on this device.
    void applyProfileRequested(const QString &name);

private:
    void rebuild();
    void applySearch();
    /// Why `name` (which was `identity`) cannot be selected in the new model.
    QString goneReason(const QString &name, const QString &identity) const;

    std::shared_ptr<const DeviceModel> m_model;
    QString m_sysroot;
    QTimer *m_refresh = nullptr;
    QAction *m_applyProfile = nullptr;
    Arrangement m_arrangement = Arrangement::Arrays;
    bool m_hideEmpty = true;
    bool m_hideVirtual = false;
    QString m_search;
    bool m_rebuilding = false; ///< rows made again: the selection is not the user's
};

} // namespace blocktune
