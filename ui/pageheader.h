#pragma once

#include <QString>
#include <QWidget>

class QLabel;

namespace blocktune {

/// The head of a device page: the page's title in bold and, under it, why
/// the page's main action is not offered (a recorded tree, a read-only
/// host). The reason line is hidden while there is no reason. Its colour is
/// a warning amber derived from the palette, re-derived when the palette
/// changes, so it reads on light and dark themes alike; the colour is never
/// the only signal, the line says why in words.
class PageHeader final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PageHeader)

public:
    explicit PageHeader(QWidget *parent = nullptr);
    ~PageHeader() override;

    void setTitle(const QString &title);
    QString title() const;
    /// Shows the reason line with `reason`; an empty reason hides it.
    void setDisabledReason(const QString &reason);
    QString disabledReason() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyReasonColor();

    QLabel *m_title = nullptr;
    QLabel *m_reason = nullptr; ///< objectName "disabledReason"
};

} // namespace blocktune
