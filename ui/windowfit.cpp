#include "windowfit.h"

#include <algorithm>
#include <cmath>

namespace blocktune {

QRect fitWindowGeometry(const QRect &available, const QSize &wanted, const QRect &saved)
{
    if (!available.isValid())
        return saved.isValid() ? saved : QRect(QPoint(0, 0), wanted);
    // A geometry saved on a larger screen, or on one that is gone, would
    // open the window with its bottom (the monitor's balance chart, the
    // buttons) off this one.
    if (saved.isValid() && available.contains(saved))
        return saved;
    const QSize most(int(std::floor(available.width() * kFirstWindowShare)),
                     int(std::floor(available.height() * kFirstWindowShare)));
    // A screen too small for the window it wants (1280x720 logical pixels
    // and less: a laptop at 150%) gets all of it each way it lacks: the
    // tenth left around the window would be the Results' rows or the
    // Monitor's buttons.
    QSize size = wanted.boundedTo(most);
    if (wanted.width() > most.width())
        size.setWidth(std::min(wanted.width(), available.width()));
    if (wanted.height() > most.height())
        size.setHeight(std::min(wanted.height(), available.height()));
    size = size.expandedTo(QSize(1, 1));
    QRect r(QPoint(0, 0), size);
    r.moveCenter(available.center());
    return r;
}

} // namespace blocktune
