#include "theme.h"

#include <QEvent>
#include <QPointer>
#include <QStyle>
#include <QTimer>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace blocktune {

namespace {

constexpr double kTextContrast = 4.5;    // WCAG AA, body text
constexpr double kGraphicContrast = 3.0; // WCAG 1.4.11, lines and marks

QColor hue(Semantic s)
{
    switch (s) {
    case Semantic::Warning: return {212, 138, 0};
    case Semantic::Error: return {200, 40, 40};
    case Semantic::Drift: return {214, 40, 110};
    case Semantic::Ok: return {40, 150, 60};
    case Semantic::Note: break;
    }
    return {40, 110, 190};
}

// The category10 hues plots have used since matplotlib 2.
const QColor kSeries[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},
                          {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {23, 190, 207}};

/// `c` moved toward `toward` until it stands out `ratio`:1 against `background`.
QColor reachContrast(const QColor &c, const QColor &toward, const QColor &background, double ratio,
                     std::initializer_list<double> shares)
{
    for (double share : shares) {
        const QColor m = mixColors(c, toward, share);
        if (contrastRatio(m, background) >= ratio)
            return m;
    }
    return toward; // a palette whose own text is that faint: no worse than the text
}

class PaletteWatcher final : public QObject
{
public:
    PaletteWatcher(QWidget *widget, std::function<void()> apply) : QObject(widget), m_apply(std::move(apply))
    {
        widget->installEventFilter(this);
        m_apply();
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == parent()) {
            if (event->type() == QEvent::PaletteChange) {
                m_apply();
            } else if (event->type() == QEvent::ApplicationPaletteChange) {
                // Delivered before the widget resolves its new palette: apply
                // once it has.
                QPointer<PaletteWatcher> self(this);
                QTimer::singleShot(0, this, [self] {
                    if (self)
                        self->m_apply();
                });
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_apply;
};

} // namespace

double relativeLuminance(const QColor &c)
{
    auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = relativeLuminance(a);
    const double lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor mixColors(const QColor &a, const QColor &b, double shareOfB)
{
    auto channel = [shareOfB](double x, double y) { return x * (1 - shareOfB) + y * shareOfB; };
    return QColor::fromRgbF(float(channel(a.redF(), b.redF())), float(channel(a.greenF(), b.greenF())),
                            float(channel(a.blueF(), b.blueF())));
}

QPalette::ColorRole textRoleFor(QPalette::ColorRole background)
{
    switch (background) {
    case QPalette::Base:
    case QPalette::AlternateBase: return QPalette::Text;
    case QPalette::Button: return QPalette::ButtonText;
    case QPalette::ToolTipBase: return QPalette::ToolTipText;
    case QPalette::Highlight: return QPalette::HighlightedText;
    default: break;
    }
    return QPalette::WindowText;
}

QColor semanticTextColor(Semantic s, const QPalette &palette, QPalette::ColorRole background)
{
    // 35% of black on the warning amber is the #8a5a00 the pages used on a
    // light window; on a dark one the same share of white gives a light amber.
    const QColor text = palette.color(QPalette::Active, textRoleFor(background));
    const QColor bg = palette.color(QPalette::Active, background);
    return reachContrast(hue(s), text, bg, kTextContrast, {0.35, 0.5, 0.65, 0.8});
}

QColor semanticBackground(Semantic s, const QPalette &palette, QPalette::ColorRole base)
{
    const QColor bg = palette.color(QPalette::Active, base);
    const QColor text = palette.color(QPalette::Active, textRoleFor(base));
    // As much of the hue as the text allows: a visible tint, never a box
    // of another brightness than the rows around it.
    for (double share : {0.22, 0.16, 0.1}) {
        const QColor tint = mixColors(bg, hue(s), share);
        if (contrastRatio(text, tint) >= kTextContrast)
            return tint;
    }
    return bg;
}

QColor semanticMarkColor(Semantic s, const QPalette &palette, QPalette::ColorRole background)
{
    const QColor text = palette.color(QPalette::Active, textRoleFor(background));
    const QColor bg = palette.color(QPalette::Active, background);
    return reachContrast(hue(s), text, bg, kGraphicContrast, {0.0, 0.15, 0.3, 0.45, 0.6});
}

QIcon semanticIcon(Semantic s, const QWidget *widget)
{
    QStyle *style = widget->style();
    switch (s) {
    case Semantic::Error: return style->standardIcon(QStyle::SP_MessageBoxCritical, nullptr, widget);
    case Semantic::Warning:
    case Semantic::Drift: return style->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, widget);
    case Semantic::Ok: return style->standardIcon(QStyle::SP_DialogApplyButton, nullptr, widget);
    case Semantic::Note: break;
    }
    return style->standardIcon(QStyle::SP_MessageBoxInformation, nullptr, widget);
}

QColor warningTextColor(const QPalette &palette)
{
    return semanticTextColor(Semantic::Warning, palette, QPalette::Window);
}

QColor seriesColor(int index, const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Active, QPalette::Base);
    const QColor text = palette.color(QPalette::Active, QPalette::Text);
    if (index == kSeriesText)
        return text;
    if (index == kSeriesNeutral)
        return reachContrast(mixColors(base, text, 0.5), text, base, kGraphicContrast, {0.0, 0.2, 0.4, 0.6});
    const QColor c = kSeries[size_t(std::max(0, index)) % std::size(kSeries)];
    return reachContrast(c, text, base, kGraphicContrast, {0.0, 0.15, 0.3, 0.45, 0.6});
}

QColor seriesTextColor(int index, const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Active, QPalette::Base);
    const QColor text = palette.color(QPalette::Active, QPalette::Text);
    return reachContrast(seriesColor(index, palette), text, base, kTextContrast, {0.0, 0.2, 0.35, 0.5, 0.65, 0.8});
}

void followPalette(QWidget *widget, std::function<void()> apply)
{
    new PaletteWatcher(widget, std::move(apply));
}

} // namespace blocktune
