#pragma once
// The console's one change preview (ChangePreviewDialog), answered as a
// person would: waited for until its plan is on screen, then accepted,
// cancelled or looked at.
#include "changepreviewdialog.h"

#include <QApplication>
#include <QListWidget>
#include <QTest>

namespace blocktune::test {

/// The change preview on screen, or nullptr.
inline ChangePreviewDialog *openPreview()
{
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *p = qobject_cast<ChangePreviewDialog *>(w); p && p->isVisible())
            return p;
    return nullptr;
}

/// Waits (up to `ms`) for a preview whose Apply can be pressed.
inline ChangePreviewDialog *readyPreview(int ms = 20000)
{
    ChangePreviewDialog *found = nullptr;
    const bool ready = QTest::qWaitFor([&] {
        found = openPreview();
        return found && found->canAccept();
    }, ms);
    return ready ? found : nullptr;
}

/// Presses the preview's Apply (Try, Save) once it can be; false when no
/// such preview came.
inline bool acceptPreview(int ms = 20000)
{
    ChangePreviewDialog *p = readyPreview(ms);
    if (!p)
        return false;
    p->accept();
    return true;
}

/// Ticks or unticks `device` in the preview's list of devices.
inline bool tickDevice(ChangePreviewDialog *p, const QString &device, bool on)
{
    auto *list = p->findChild<QListWidget *>(QStringLiteral("previewDevices"));
    for (int i = 0; list && i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString() == device) {
            list->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
            return true;
        }
    return false;
}

} // namespace blocktune::test
