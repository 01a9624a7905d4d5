#include "devicepane.h"

#include "devicetree.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace blocktune {

DevicePane::DevicePane(const QString &sysroot, QWidget *parent) : QWidget(parent)
{
    m_tree = new DeviceTree(this);
    m_tree->setSysroot(sysroot);

    m_arrangement = new QComboBox(this);
    m_arrangement->setObjectName(QStringLiteral("treeArrangement"));
    m_arrangement->addItem(tr("Arrays and volumes"), int(DeviceTree::Arrangement::Arrays));
    m_arrangement->addItem(tr("By disk (like lsblk)"), int(DeviceTree::Arrangement::Disks));
    m_arrangement->setAccessibleName(tr("Tree arrangement"));
    m_arrangement->setToolTip(tr("Arrays and volumes: what you tune at the top, members under their array.\n"
                                 "By disk: disks at the top, what is built on them underneath."));
    m_hideEmpty = new QCheckBox(tr("Hide &empty"), this);
    m_hideEmpty->setObjectName(QStringLiteral("hideEmpty"));
    m_hideEmpty->setChecked(m_tree->hidesEmpty());
    m_hideEmpty->setToolTip(tr("Hide devices of size 0 (detached loop devices, card readers without a card)"));
    m_hideVirtual = new QCheckBox(tr("Hide loop/&zram/ram"), this);
    m_hideVirtual->setObjectName(QStringLiteral("hideVirtual"));
    m_hideVirtual->setChecked(m_tree->hidesVirtual());
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("treeSearch"));
    m_search->setPlaceholderText(tr("Name, model, serial or WWN"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search devices"));
    auto *searchLabel = new QLabel(tr("&Search:"), this);
    searchLabel->setBuddy(m_search);

    // The arrangement above the two filters: side by side the three made
    // the pane 522 px wide in German at 1.5x, too wide beside the pages on a
    // 1600x1000 screen.
    auto *arrangement = new QHBoxLayout;
    arrangement->addWidget(m_arrangement);
    arrangement->addStretch(1);
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_hideEmpty);
    filters->addWidget(m_hideVirtual);
    filters->addStretch(1);
    auto *search = new QHBoxLayout;
    search->addWidget(searchLabel);
    search->addWidget(m_search, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(arrangement);
    layout->addLayout(filters);
    layout->addLayout(search);
    layout->addWidget(m_tree, 1);
    setTabOrder(m_arrangement, m_hideEmpty);
    setTabOrder(m_hideEmpty, m_hideVirtual);
    setTabOrder(m_hideVirtual, m_search);
    setTabOrder(m_search, m_tree);

    connect(m_arrangement, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_tree->setArrangement(DeviceTree::Arrangement(m_arrangement->itemData(index).toInt()));
    });
    connect(m_hideEmpty, &QCheckBox::toggled, m_tree, &DeviceTree::setHideEmpty);
    connect(m_hideVirtual, &QCheckBox::toggled, m_tree, &DeviceTree::setHideVirtual);
    connect(m_search, &QLineEdit::textChanged, m_tree, &DeviceTree::setSearchText);
}

} // namespace blocktune
