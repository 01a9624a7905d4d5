#include "appicon.h"

namespace blocktune {

QIcon applicationIcon()
{
    QIcon embedded;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256})
        embedded.addFile(QStringLiteral(":/icons/%1x%1/org.blocktune.Blocktune.png").arg(size), QSize(size, size));
    return QIcon::fromTheme(QStringLiteral("org.blocktune.Blocktune"), embedded);
}

} // namespace blocktune
