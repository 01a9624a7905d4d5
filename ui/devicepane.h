#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace blocktune {

class DeviceTree;

/// The device tree with its filter bar above it: the arrangement (arrays
/// first, or by disk like lsblk), hide empty devices, hide loop/zram/ram,
/// and a search over name, model, serial and WWN.
class DevicePane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DevicePane)

public:
    /// `sysroot` empty = the live machine; the tree refreshes its rows there.
    explicit DevicePane(const QString &sysroot, QWidget *parent = nullptr);
    ~DevicePane() override = default;

    DeviceTree *tree() const { return m_tree; }
    QLineEdit *searchField() const { return m_search; }

private:
    DeviceTree *m_tree = nullptr;
    QComboBox *m_arrangement = nullptr;
    QCheckBox *m_hideEmpty = nullptr;
    QCheckBox *m_hideVirtual = nullptr;
    QLineEdit *m_search = nullptr;
};

} // namespace blocktune
