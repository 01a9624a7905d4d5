// This machine's profile library: the folders of a ProfileStore, and a
// watch on them that sees a profile saved by another process (the CLI, an
// editor) without a restart.
#include "profiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

namespace blocktune {

std::optional<ProfileOrigin> parseProfileOrigin(const QString &name)
{
    for (ProfileOrigin o : {ProfileOrigin::User, ProfileOrigin::System, ProfileOrigin::Preset, ProfileOrigin::File})
        if (profileOriginName(o) == name)
            return o;
    return std::nullopt;
}

QByteArray profileFolderDigest(const ProfileStore &store)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &dirPath : {store.userDir(), store.systemDir()}) {
        hash.addData(dirPath.toUtf8());
        const QDir dir(dirPath);
        for (const QFileInfo &f : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
            // Milliseconds, and the inode's change time beside the content's:
            // a save within the same second, or a rename over it, still counts.
            hash.addData(QStringLiteral("\n%1 %2 %3 %4")
                             .arg(f.fileName())
                             .arg(f.size())
                             .arg(f.lastModified().toMSecsSinceEpoch())
                             .arg(f.metadataChangeTime().toMSecsSinceEpoch())
                             .toUtf8());
        }
    }
    return hash.result().toHex().left(32);
}

namespace {

/// The folders and their profile files, through QFileSystemWatcher. A
/// folder's own events say a file came, went or was renamed over (what an
/// editor's save does); a file's say it was written in place. A folder
/// that does not exist yet is watched through its nearest existing parent
/// until it is made. Bursts (write a temporary file, rename it) are
/// coalesced into one changed().
class LocalProfileWatch final : public ProfileWatch
{
public:
    LocalProfileWatch(QStringList dirs, QObject *parent) : ProfileWatch(parent), m_dirs(std::move(dirs))
    {
        m_settle.setSingleShot(true);
        m_settle.setInterval(kSettleMs);
        connect(&m_settle, &QTimer::timeout, this, [this] {
            rearm();
            Q_EMIT changed();
        });
        connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] { m_settle.start(); });
        connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this] { m_settle.start(); });
        rearm();
    }

    QString describe() const override { return m_dirs.join(QStringLiteral(", ")); }

private:
    static constexpr int kSettleMs = 150;

    /// What to watch now: each folder and its files, or the nearest parent
    /// of a folder not made yet.
    QStringList wanted() const
    {
        QStringList paths;
        for (const QString &dir : m_dirs) {
            QFileInfo info(dir);
            if (info.isDir()) {
                paths << info.absoluteFilePath();
                for (const QFileInfo &f : QDir(dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files))
                    paths << f.absoluteFilePath();
                continue;
            }
            QString up = info.absolutePath();
            while (!QFileInfo(up).isDir() && up != QDir::rootPath())
                up = QFileInfo(up).absolutePath();
            paths << up;
        }
        paths.removeDuplicates();
        return paths;
    }

    void rearm()
    {
        const QStringList want = wanted();
        const QStringList have = m_watcher.files() + m_watcher.directories();
        QStringList gone;
        for (const QString &p : have)
            if (!want.contains(p))
                gone << p;
        if (!gone.isEmpty())
            m_watcher.removePaths(gone);
        QStringList added;
        for (const QString &p : want)
            if (!have.contains(p))
                added << p;
        if (!added.isEmpty())
            m_watcher.addPaths(added); // a file replaced by rename is a new inode: added again here
    }

    QStringList m_dirs;
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
};

class LocalProfileLibrary final : public ProfileLibrary
{
public:
    explicit LocalProfileLibrary(ProfileStore store) : m_store(std::move(store)) {}

    QString host() const override { return {}; }
    Result<QList<ProfileEntry>> list() override { return m_store.list(); }
    Result<Profile> load(const QString &name) override { return m_store.load(name); }
    Result<QString> save(const Profile &profile, bool overwrite) override
    {
        const QString path = m_store.userPath(profile.name);
        if (Status st = writeProfileFile(profile, path, overwrite); !st)
            return st.error();
        return path;
    }
    Result<QString> userPath(const QString &name) override { return m_store.userPath(name); }
    Result<ProfileFolders> folders() override { return ProfileFolders{m_store.userDir(), m_store.systemDir()}; }
    ProfileWatch *watch(QObject *parent) override
    {
        return new LocalProfileWatch({m_store.userDir(), m_store.systemDir()}, parent);
    }

private:
    ProfileStore m_store;
};

} // namespace

std::shared_ptr<ProfileLibrary> makeLocalProfileLibrary(ProfileStore store)
{
    return std::make_shared<LocalProfileLibrary>(std::move(store));
}

} // namespace blocktune
