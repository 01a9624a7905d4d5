#pragma once
// A writable copy of a recorded tree (tests/data/sysroot/NAME), made once
// per fuzzing process and removed at its exit.

#include <QTemporaryDir>
#include <QString>

#include <cstdlib>

namespace blocktune::fuzz {

inline const QString &treeCopy(const char *name)
{
    static QTemporaryDir dir(QStringLiteral("/tmp/blocktune-fuzz-XXXXXX"));
    static const QString path = [&] {
        const QByteArray cmd = "cp -a '" BLOCKTUNE_TEST_DATA "/sysroot/" + QByteArray(name) + "/.' '"
                               + dir.path().toLocal8Bit() + "'";
        if (!dir.isValid() || std::system(cmd.constData()) != 0)
            std::abort();
        return dir.path();
    }();
    return path;
}

} // namespace blocktune::fuzz
