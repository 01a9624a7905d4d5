#include "pageheader.h"

#include <QEvent>
#include <QLabel>
#include <QPalette>
#include <QVBoxLayout>

#include <cmath>

namespace blocktune {

namespace {

// WCAG 2.x relative luminance of an sRGB colour.
double luminance(const QColor &c)
{
    auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor mix(const QColor &a, const QColor &b, double shareOfB)
{
    auto channel = [shareOfB](double x, double y) { return x * (1 - shareOfB) + y * shareOfB; };
    return QColor::fromRgbF(float(channel(a.redF(), b.redF())), float(channel(a.greenF(), b.greenF())),
                            float(channel(a.blueF(), b.blueF())));
}

} // namespace

QColor warningTextColor(const QPalette &palette)
{
    // 35% of black on this amber is the #8a5a00 the pages used before on a
    // light window; on a dark one the same share of white gives a light amber.
    const QColor amber(212, 138, 0);
    const QColor text = palette.color(QPalette::Active, QPalette::WindowText);
    const QColor window = palette.color(QPalette::Active, QPalette::Window);
    for (double share : {0.35, 0.5, 0.65, 0.8}) {
        const QColor c = mix(amber, text, share);
        if (contrast(c, window) >= 4.5)
            return c;
    }
    return text; // a palette whose own text is that faint: no worse than the text
}

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
