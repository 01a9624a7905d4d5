#include "pageheader.h"

#include "theme.h"

#include <QEvent>
#include <QLabel>
#include <QPalette>
#include <QVBoxLayout>

namespace blocktune {

PageHeader::PageHeader(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_reason = new QLabel(this);
    m_reason->setObjectName(QStringLiteral("disabledReason"));
    m_reason->setWordWrap(true);
    m_reason->hide();
    applyReasonColor();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_reason);
}

PageHeader::~PageHeader() = default;

void PageHeader::setTitle(const QString &title)
{
    m_title->setText(title);
}

QString PageHeader::title() const
{
    return m_title->text();
}

void PageHeader::setDisabledReason(const QString &reason)
{
    m_reason->setText(reason);
    m_reason->setVisible(!reason.isEmpty());
}

QString PageHeader::disabledReason() const
{
    return m_reason->text();
}

void PageHeader::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyReasonColor();
}

void PageHeader::applyReasonColor()
{
    // The label's own palette: only its text colour differs from ours, so a
    // theme change reaches it through this header's PaletteChange.
    QPalette p = m_reason->palette();
    const QColor c = warningTextColor(palette());
    for (QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive})
        p.setColor(group, QPalette::WindowText, c);
    m_reason->setPalette(p);
}

} // namespace blocktune
