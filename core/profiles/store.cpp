// Where profiles live: the user's folder, the machine's, and the presets.
#include "profiles.h"
#include "profiles_p.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace blocktune {

namespace {

constexpr qint64 kMaxProfileBytes = 1 << 20;

Result<QByteArray> readSmallFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(NotFound, QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    const QByteArray data = f.read(kMaxProfileBytes + 1);
    if (data.size() > kMaxProfileBytes)
        return makeError(InvalidArgument, QStringLiteral("%1 is larger than %2 bytes: not a profile")
                                              .arg(path).arg(kMaxProfileBytes));
    return data;
}

} // namespace

QString profileOriginName(ProfileOrigin origin)
{
    switch (origin) {
    case ProfileOrigin::User: return QStringLiteral("user");
    case ProfileOrigin::System: return QStringLiteral("system");
    case ProfileOrigin::Preset: return QStringLiteral("preset");
    case ProfileOrigin::File: return QStringLiteral("file");
    }
    return {};
}

ProfileStore::ProfileStore(QString userDir, QString systemDir, QString presetDir)
    : m_userDir(std::move(userDir)), m_systemDir(std::move(systemDir)), m_presetDir(std::move(presetDir))
{
}

ProfileStore ProfileStore::standard(const SysRoot &root)
{
    // $XDG_CONFIG_HOME (default ~/.config), as QStandardPaths finds it.
    const QString config = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    return ProfileStore(config + QStringLiteral("/blocktune/profiles"),
                        root.root() + QStringLiteral("/etc/blocktune/profiles"),
                        QStringLiteral(":/profiles"));
}

QString ProfileStore::userPath(const QString &name) const
{
    return m_userDir + u'/' + name + QStringLiteral(".json");
}

QList<ProfileEntry> ProfileStore::list() const
{
    QList<ProfileEntry> out;
    QHash<QString, qsizetype> byName;
    const QList<std::pair<ProfileOrigin, QString>> dirs{
        {ProfileOrigin::User, m_userDir}, {ProfileOrigin::System, m_systemDir}, {ProfileOrigin::Preset, m_presetDir}};
    for (const auto &[origin, dirPath] : dirs) {
        const QDir dir(dirPath);
        for (const QString &file : dir.entryList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable, QDir::Name)) {
            const QString name = file.chopped(5);
            if (!isValidProfileName(name))
                continue;
            const QString path = dir.filePath(file);
            if (auto it = byName.constFind(name); it != byName.constEnd()) {
                out[*it].shadows << path;
                continue;
            }
            ProfileEntry e;
            e.name = name;
            e.origin = origin;
            e.path = path;
            auto data = readSmallFile(path);
            auto profile = data ? parseProfile(*data, path) : Result<Profile>(data.error());
            if (profile)
                e.description = profile->description;
            else
                e.error = profile.error().message;
            byName.insert(name, out.size());
            out << e;
        }
    }
    std::sort(out.begin(), out.end(), [](const ProfileEntry &a, const ProfileEntry &b) { return a.name < b.name; });
    return out;
}

Result<Profile> ProfileStore::load(const QString &nameOrFile) const
{
    if (nameOrFile.contains(u'/') || nameOrFile.endsWith(QStringLiteral(".json"))) {
        auto data = readSmallFile(nameOrFile);
        if (!data)
            return data.error();
        return parseProfile(*data, nameOrFile);
    }
    if (!isValidProfileName(nameOrFile))
        return makeError(InvalidArgument, QStringLiteral("'%1' is neither a profile name (letters, digits, _ . -) nor "
                                                         "a file (a path with '/', or NAME.json)")
                                              .arg(nameOrFile.left(64)));
    for (const QString &dir : {m_userDir, m_systemDir, m_presetDir}) {
        const QString path = dir + u'/' + nameOrFile + QStringLiteral(".json");
        if (!QFileInfo::exists(path))
            continue;
        auto data = readSmallFile(path);
        if (!data)
            return data.error();
        auto profile = parseProfile(*data, path);
        if (profile && dir == m_presetDir)
            profile->source = QStringLiteral("preset %1").arg(nameOrFile);
        return profile;
    }
    QStringList names;
    for (const ProfileEntry &e : list())
        names << e.name;
    return makeError(NotFound, QStringLiteral("no profile named '%1' in %2, %3 or the presets (profiles: %4)")
                                   .arg(nameOrFile, m_userDir, m_systemDir,
                                        names.isEmpty() ? QStringLiteral("none") : names.join(u", ")));
}

Status writeProfileFile(const Profile &profile, const QString &path, bool overwrite)
{
    return detail::writeFileAtomically(path, profileToJson(profile), overwrite);
}

namespace detail {

Status writeFileAtomically(const QString &path, const QByteArray &data, bool overwrite, bool privateFile)
{
    const QFileInfo info(path);
    if (info.exists() && !overwrite)
        return makeError(Refused, QStringLiteral("%1 exists already: choose another name or file, or replace it "
                                                 "with --force").arg(path));
    if (!QDir().mkpath(info.absolutePath()))
        return makeError(NotFound, QStringLiteral("cannot create the folder %1").arg(info.absolutePath()));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(Refused, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    if (privateFile)
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (f.write(data) != data.size() || !f.commit())
        return makeError(Refused, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    return {};
}

} // namespace detail

} // namespace blocktune
