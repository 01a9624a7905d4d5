// The Prometheus text exposition format (version 0.0.4): escaping, values,
// families, and the textfile written whole or not at all.
#include "metrics.h"

#include "common/safeopen.h"

#include <QDir>
#include <QFile>
#include <QLocale>
#include <QRandomGenerator>

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>

#include <cmath>
#include <limits>

namespace blocktune {

QString escapeLabelValue(const QString &value)
{
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        if (c == u'\\')
            out += QStringLiteral("\\\\");
        else if (c == u'"')
            out += QStringLiteral("\\\"");
        else if (c == u'\n')
            out += QStringLiteral("\\n");
        else
            out += c;
    }
    return out;
}

QString escapeHelp(const QString &text)
{
    QString out = text;
    out.replace(u'\\', QStringLiteral("\\\\"));
    out.replace(u'\n', QStringLiteral("\\n"));
    return out;
}

QString formatSampleValue(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    // Byte counts up to 2^53 are exact in a double; print them as integers,
    // not 4.294967296e+09.
    if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
        return QString::number(qint64(value));
    // The shortest decimal that reads back as the same double, as Go's
    // strconv 'g' -1 in Prometheus's own client: 1796530829.716, where 17
    // digits (max_digits10) printed 1796530829.7160001.
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

void Exposition::family(const QString &name, const QString &help, Type type)
{
    for (const Family &f : std::as_const(m_families))
        if (f.name == name)
            return;
    m_families.append(Family{name, help, type, {}});
}

void Exposition::sample(const QString &name, const Labels &labels, double value)
{
    QString line = name;
    if (!labels.isEmpty()) {
        QStringList parts;
        for (const auto &[key, v] : labels)
            parts << key + QStringLiteral("=\"") + escapeLabelValue(v) + u'"';
        line += u'{' + parts.join(u',') + u'}';
    }
    line += u' ' + formatSampleValue(value);
    for (Family &f : m_families) {
        if (f.name == name) {
            f.lines << line;
            return;
        }
    }
    // A sample of an undeclared family is a bug here; keep it visible, typed untyped.
    m_families.append(Family{name, QStringLiteral("(undeclared)"), Type::Gauge, {line}});
}

QByteArray Exposition::text() const
{
    QString out;
    for (const Family &f : m_families) {
        if (f.lines.isEmpty())
            continue;
        out += QStringLiteral("# HELP %1 %2\n").arg(f.name, escapeHelp(f.help));
        out += QStringLiteral("# TYPE %1 %2\n").arg(f.name, f.type == Type::Counter ? QStringLiteral("counter")
                                                                                      : QStringLiteral("gauge"));
        for (const QString &l : f.lines)
            out += l + u'\n';
    }
    return out.toUtf8();
}

namespace {

// Who may own the textfile folder: root, this user, and node_exporter's
// own user (Debian's prometheus-node-exporter runs as prometheus, and
// /var/lib/prometheus/node-exporter is its).
QList<uid_t> textfileFolderOwners()
{
    QList<uid_t> owners{0, ::geteuid()};
    if (const passwd *pw = ::getpwnam("prometheus"))
        owners << pw->pw_uid;
    return owners;
}

} // namespace

Status writeTextfile(const QString &dir, const QByteArray &text)
{
    return writeTextfile(dir, text, kTextfileName);
}

Status writeTextfile(const QString &dir, const QByteArray &text, QLatin1StringView fileName)
{
    // Opened once, no link at the folder (and none on the way that someone
    // other than root could have made): on Debian the prometheus user owns
    // /var/lib/prometheus and could put a link where node-exporter/ was.
    auto folder = safeopen::openFolder(QFile::encodeName(QDir(dir).absolutePath()));
    if (!folder) {
        const int code = folder.error().code;
        if (code == ENOENT || code == ENOTDIR)
            return makeError(InvalidArgument, QStringLiteral("--textfile-dir %1: not a directory (node_exporter's "
                                                             "textfile folder; Debian's is %2)")
                                                  .arg(dir, kDebianTextfileDir));
        return makeError(Refused, QStringLiteral("--textfile-dir %1: %2").arg(dir, folder.error().message));
    }
    if (Status st = safeopen::checkFolderOwner(folder->get(), textfileFolderOwners(), dir,
                                               QStringLiteral("the textfile folder"));
        !st)
        return makeError(Refused, QStringLiteral("--textfile-dir: %1").arg(st.error().message));
    // Said before anything is made: a folder root owns is no place for
    // another user's metrics (AT_EACCESS: the ids the write would use).
    if (::faccessat(folder->get(), ".", W_OK | X_OK, AT_EACCESS) != 0)
        return makeError(Refused, QStringLiteral("--textfile-dir %1: not writable by this user").arg(dir));
    // The temporary name does not end in .prom: the collector never reads
    // it half-written. Random, so nobody can make it first.
    const QByteArray name(fileName.data(), fileName.size());
    const QByteArray temp = '.' + name + '.' + QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    return safeopen::replaceFile(folder->get(), name, temp, text, 0644, QDir(dir).filePath(fileName));
}

Status removeTextfile(const QString &dir, QLatin1StringView fileName)
{
    auto folder = safeopen::openFolder(QFile::encodeName(QDir(dir).absolutePath()));
    if (!folder)
        return makeError(Refused, QStringLiteral("--textfile-dir %1: %2").arg(dir, folder.error().message));
    const QByteArray name(fileName.data(), fileName.size());
    if (::unlinkat(folder->get(), name.constData(), 0) != 0 && errno != ENOENT) {
        const int err = errno;
        return makeError(err, QStringLiteral("cannot remove %1: %2").arg(QDir(dir).filePath(fileName), errnoText(err)));
    }
    return {};
}

} // namespace blocktune
