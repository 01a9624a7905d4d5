#pragma once
// The application icon: the icon theme's org.blocktune.Blocktune where the
// package installed it, else the PNG sizes embedded in :/icons.

#include <QIcon>

namespace blocktune {

QIcon applicationIcon();

} // namespace blocktune
