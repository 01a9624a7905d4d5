#pragma once
// Finding a view's controls the way a screen reader does: by accessible name.
#include <QString>
#include <QWidget>

namespace blocktune::test {

template<typename T>
T *child(QWidget *parent, const QString &accessibleName)
{
    for (T *w : parent->findChildren<T *>())
        if (w->accessibleName() == accessibleName)
            return w;
    return nullptr;
}

} // namespace blocktune::test
