#include "appearance.h"

#include "theme.h"

#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVariant>
#include <QFocusFrame>
#include <QLineEdit>
#include <QPainter>
#include <QPointer>
#include <QProxyStyle>
#include <QSettings>
#include <QStyleFactory>
#include <QStyleHints>
#include <QStyleOption>

namespace blocktune {

namespace {

/// The platform's own look, as it was before the first applyTheme().
struct Origin
{
    bool recorded = false;
    QString styleName;
    QPalette palette;
};

Origin &origin()
{
    static Origin o;
    return o;
}

ThemeChoice g_current = ThemeChoice::System;

constexpr double kRingContrast = 3.0; // WCAG 1.4.11: a focus indicator is a graphic

/// Any style, with a focus ring the style's own faint marks do not give:
/// QFocusFrame asks for CE_FocusFrame, which only the macOS style draws.
class FocusRingStyle final : public QProxyStyle
{
public:
    explicit FocusRingStyle(QStyle *base) : QProxyStyle(base) {}

    void drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                     const QWidget *widget) const override
    {
        if (element == CE_ShapedFrame && widget && widget->hasFocus()
            && qobject_cast<const QAbstractScrollArea *>(widget)) {
            // A tree or a table fills its pane: a ring outside it would be
            // cut off, so its own frame becomes the ring.
            QProxyStyle::drawControl(element, option, painter, widget);
            painter->save();
            painter->setPen(QPen(focusRingColor(option->palette), 2.0));
            painter->setBrush(Qt::NoBrush);
            painter->drawRect(QRectF(option->rect).adjusted(1, 1, -1, -1));
            painter->restore();
            return;
        }
        if (element != CE_FocusFrame) {
            QProxyStyle::drawControl(element, option, painter, widget);
            return;
        }
        const qreal width = ringWidth(widget);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(QPen(focusRingColor(option->palette), width));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(QRectF(option->rect).adjusted(width / 2, width / 2, -width / 2, -width / 2), 3, 3);
        painter->restore();
    }

    int pixelMetric(PixelMetric metric, const QStyleOption *option, const QWidget *widget) const override
    {
        if (metric == PM_FocusFrameHMargin || metric == PM_FocusFrameVMargin)
            return int(ringWidth(widget)) + 1;
        // A tree's or a table's frame is as wide as the ring it becomes.
        if (metric == PM_DefaultFrameWidth && qobject_cast<const QAbstractItemView *>(widget))
            return std::max(int(ringWidth(widget)), QProxyStyle::pixelMetric(metric, option, widget));
        return QProxyStyle::pixelMetric(metric, option, widget);
    }

    int styleHint(StyleHint hint, const QStyleOption *option, const QWidget *widget,
                  QStyleHintReturn *returnData) const override
    {
        if (hint == SH_FocusFrame_Mask) {
            // Only the ring takes clicks; the control inside stays usable.
            if (auto *mask = qstyleoption_cast<QStyleHintReturnMask *>(returnData)) {
                const int margin = pixelMetric(PM_FocusFrameHMargin, option, widget);
                mask->region = QRegion(option->rect) - QRegion(option->rect.adjusted(margin, margin, -margin, -margin));
            }
            return 1;
        }
        return QProxyStyle::styleHint(hint, option, widget, returnData);
    }

private:
    static qreal ringWidth(const QWidget *) { return 2.0; }
};

/// Controls that show their focus well enough themselves (a highlighted
/// frame around the text) get no second ring.
bool wantsRing(const QWidget *w)
{
    if (!w || !(w->focusPolicy() & Qt::TabFocus) || w->isWindow())
        return false;
    if (qobject_cast<const QLineEdit *>(w) || qobject_cast<const QAbstractSpinBox *>(w))
        return false;
    if (qobject_cast<const QAbstractScrollArea *>(w))
        return false; // its frame is the ring (FocusRingStyle)
    if (auto *combo = qobject_cast<const QComboBox *>(w); combo && combo->isEditable())
        return false;
    return w->parentWidget() != nullptr;
}

/// One ring that follows the keyboard focus through every window.
void followFocus()
{
    static bool following = false;
    if (following)
        return;
    following = true;
    static QPointer<QFocusFrame> ring;
    QObject::connect(qApp, &QApplication::focusChanged, qApp, [](QWidget *old, QWidget *now) {
        for (QWidget *w : {old, now})
            if (qobject_cast<QAbstractScrollArea *>(w))
                w->update(); // its frame shows the focus, or stops to
        if (!wantsRing(now)) {
            if (ring)
                ring->setWidget(nullptr);
            return;
        }
        // The ring lives in the focused widget's parent: made again when a
        // parent it lived in went away.
        if (!ring)
            ring = new QFocusFrame(now);
        ring->setObjectName(QStringLiteral("focusRing"));
        ring->setWidget(now);
        ring->show();
    });
}

void setLook(const QString &styleName, const QPalette &palette)
{
    QStyle *base = QStyleFactory::create(styleName);
    if (!base)
        base = QStyleFactory::create(QStringLiteral("Fusion"));
    QApplication::setStyle(new FocusRingStyle(base));
    QApplication::setPalette(palette);
}

#if QT_VERSION < QT_VERSION_CHECK(6, 5, 0)
/// The portal's SettingChanged signal (QDBusConnection::connect wants a
/// slot by name): calls back when the colour scheme changes.
class PortalWatcher final : public QObject
{
    Q_OBJECT

public:
    explicit PortalWatcher(std::function<void()> changed) : QObject(qApp), m_changed(std::move(changed)) {}

public Q_SLOTS:
    void settingChanged(const QString &group, const QString &key, const QDBusVariant &)
    {
        if (group == u"org.freedesktop.appearance" && key == u"color-scheme")
            m_changed();
    }

private:
    std::function<void()> m_changed;
};

/// org.freedesktop.appearance color-scheme: 1 prefers dark, 2 prefers
/// light, 0 no preference.
ColorScheme portalColorScheme()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return ColorScheme::Unknown;
    QDBusMessage call = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.portal.Desktop"), QStringLiteral("/org/freedesktop/portal/desktop"),
        QStringLiteral("org.freedesktop.portal.Settings"), QStringLiteral("Read"));
    call << QStringLiteral("org.freedesktop.appearance") << QStringLiteral("color-scheme");
    const QDBusMessage reply = bus.call(call, QDBus::Block, 300);
    if (reply.type() != QDBusMessage::ReplyMessage || reply.arguments().isEmpty())
        return ColorScheme::Unknown;
    // Read answers a variant holding the variant that holds the value.
    QVariant value = reply.arguments().constFirst();
    while (value.canConvert<QDBusVariant>())
        value = value.value<QDBusVariant>().variant();
    switch (value.toUInt()) {
    case 1: return ColorScheme::Dark;
    case 2: return ColorScheme::Light;
    default: return ColorScheme::Unknown;
    }
}
#endif

} // namespace

QString themeChoiceName(ThemeChoice choice)
{
    switch (choice) {
    case ThemeChoice::Light: return QStringLiteral("light");
    case ThemeChoice::Dark: return QStringLiteral("dark");
    case ThemeChoice::System: break;
    }
    return QStringLiteral("system");
}

ThemeChoice themeChoiceFromName(const QString &name)
{
    if (name == u"light")
        return ThemeChoice::Light;
    if (name == u"dark")
        return ThemeChoice::Dark;
    return ThemeChoice::System;
}

ColorScheme colorSchemeOf(const QPalette &palette)
{
    const QColor window = palette.color(QPalette::Active, QPalette::Window);
    const QColor text = palette.color(QPalette::Active, QPalette::WindowText);
    return relativeLuminance(window) < relativeLuminance(text) ? ColorScheme::Dark : ColorScheme::Light;
}

ColorScheme desktopColorScheme()
{
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    switch (QGuiApplication::styleHints()->colorScheme()) {
    case Qt::ColorScheme::Dark: return ColorScheme::Dark;
    case Qt::ColorScheme::Light: return ColorScheme::Light;
    case Qt::ColorScheme::Unknown: break;
    }
#else
    if (const ColorScheme portal = portalColorScheme(); portal != ColorScheme::Unknown)
        return portal;
#endif
    const Origin &o = origin();
    return o.recorded ? colorSchemeOf(o.palette) : colorSchemeOf(QGuiApplication::palette());
}

QPalette lightThemePalette()
{
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    return fusion->standardPalette();
}

QPalette darkThemePalette()
{
    QPalette p;
    const QColor window(53, 53, 53), base(42, 42, 42), text(240, 240, 240), disabled(127, 127, 127);
    for (auto [role, colour] : {std::pair{QPalette::Window, window}, {QPalette::WindowText, text},
                                {QPalette::Base, base}, {QPalette::AlternateBase, QColor(66, 66, 66)},
                                {QPalette::ToolTipBase, window}, {QPalette::ToolTipText, text},
                                {QPalette::PlaceholderText, QColor(160, 160, 160)}, {QPalette::Text, text},
                                {QPalette::Button, window}, {QPalette::ButtonText, text},
                                {QPalette::BrightText, QColor(255, 80, 80)}, {QPalette::Light, QColor(80, 80, 80)},
                                {QPalette::Midlight, QColor(66, 66, 66)}, {QPalette::Mid, QColor(40, 40, 40)},
                                {QPalette::Dark, QColor(25, 25, 25)}, {QPalette::Shadow, QColor(10, 10, 10)},
                                {QPalette::Link, QColor(90, 160, 240)}, {QPalette::Highlight, QColor(42, 130, 218)},
                                {QPalette::HighlightedText, QColor(255, 255, 255)}})
        p.setColor(role, colour);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    return p;
}

void applyTheme(ThemeChoice choice)
{
    Origin &o = origin();
    if (!o.recorded) {
        o.recorded = true;
        o.styleName = QApplication::style()->name();
        o.palette = QGuiApplication::palette();
    }
    g_current = choice;
    ColorScheme wanted = choice == ThemeChoice::Dark    ? ColorScheme::Dark
                         : choice == ThemeChoice::Light ? ColorScheme::Light
                                                        : desktopColorScheme();
    if (wanted == ColorScheme::Unknown || wanted == colorSchemeOf(o.palette))
        setLook(o.styleName, o.palette); // the platform's own already is that
    else
        setLook(QStringLiteral("Fusion"), wanted == ColorScheme::Dark ? darkThemePalette() : lightThemePalette());
    followFocus();
}

ThemeChoice currentTheme()
{
    return g_current;
}

ThemeChoice savedTheme()
{
    return themeChoiceFromName(QSettings().value(QStringLiteral("console/theme")).toString());
}

void saveTheme(ThemeChoice choice)
{
    QSettings().setValue(QStringLiteral("console/theme"), themeChoiceName(choice));
}

void followDesktopColorScheme()
{
    auto again = [] {
        if (g_current == ThemeChoice::System)
            applyTheme(ThemeChoice::System);
    };
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    QObject::connect(QGuiApplication::styleHints(), &QStyleHints::colorSchemeChanged, qApp, again);
#else
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return;
    auto *watcher = new PortalWatcher(std::move(again));
    bus.connect(QStringLiteral("org.freedesktop.portal.Desktop"), QStringLiteral("/org/freedesktop/portal/desktop"),
                QStringLiteral("org.freedesktop.portal.Settings"), QStringLiteral("SettingChanged"), watcher,
                SLOT(settingChanged(QString, QString, QDBusVariant)));
#endif
}

QColor focusRingColor(const QPalette &palette)
{
    const QColor window = palette.color(QPalette::Active, QPalette::Window);
    const QColor text = palette.color(QPalette::Active, QPalette::WindowText);
    const QColor highlight = palette.color(QPalette::Active, QPalette::Highlight);
    for (double share : {0.0, 0.2, 0.4, 0.6, 0.8}) {
        const QColor c = mixColors(highlight, text, share);
        if (contrastRatio(c, window) >= kRingContrast)
            return c;
    }
    return text;
}

} // namespace blocktune

#include "appearance.moc"
