// How `metrics --textfile-dir DIR` writes as root where others may own
// things (issue 36, attacks 2 and 3): a link at DIR/blocktune.prom or at
// DIR itself is refused, never written through; a folder owned by another
// user or writable by others is refused as the journal's folder is; a full
// folder (a real 64 KiB tmpfs) makes the run fail with the reason and
// leaves the previous file byte for byte. Root: mounts, chown.
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

// A recorded tree: the metrics of a machine without a scan of this one.
ProcessResult metricsInto(const QString &dir)
{
    return run(binary("blocktune-cli"), {QStringLiteral("--sysroot"), recordedTree("md-raid10-f2"), QStringLiteral("metrics"),
                                         QStringLiteral("--textfile-dir"), dir});
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

void writeFile(const QString &path, const QByteArray &data, mode_t mode)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(data), data.size());
    f.close();
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode), 0);
}

mode_t modeOf(const QString &path)
{
    struct stat st {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode & 07777 : 0;
}

bool chownTo(const QString &path, uid_t uid)
{
    return ::lchown(QFile::encodeName(path).constData(), uid, uid) == 0;
}

} // namespace

class TestTextfileSafety : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
    }

    // Attack 3: the textfile folder full (ENOSPC on a 64 KiB tmpfs). Before,
    // write() failed and fdatasync, link and rename went on: the good file
    // became 0 bytes, no message, exit 0.
    void fullFolderFailsAndKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QByteArray mountPoint = QFile::encodeName(dir.path());
        QCOMPARE(run(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                               QStringLiteral("size=64k,mode=0755"), QStringLiteral("blocktune-test"),
                                               dir.path()})
                     .exitCode,
                 0);
        const auto unmount = qScopeGuard([&] { run(QStringLiteral("umount"), {dir.path()}); });
        ProcessResult m = metricsInto(dir.path());
        QVERIFY2(m.exitCode == 0, m.err.constData());
        const QString prom = dir.filePath(QStringLiteral("blocktune.prom"));
        const QByteArray good = fileBytes(prom);
        QVERIFY(good.size() > 1000);
        // Fill what is left.
        {
            QFile filler(dir.filePath(QStringLiteral("filler")));
            QVERIFY(filler.open(QIODevice::WriteOnly));
            const QByteArray block(4096, 'x');
            while (filler.write(block) == block.size() && filler.flush()) {
            }
        }
        m = metricsInto(dir.path());
        QVERIFY2(m.exitCode != 0, m.err.constData());
        QVERIFY2(m.err.contains(QByteArray("cannot write " + QFile::encodeName(prom)
                                           + ": No space left on device; the previous file is unchanged")),
                 m.err.constData());
        QCOMPARE(fileBytes(prom), good);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 (QStringList{QStringLiteral("blocktune.prom"), QStringLiteral("filler")})); // no temporary left
        // With room again, it writes.
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("filler"))));
        m = metricsInto(dir.path());
        QVERIFY2(m.exitCode == 0, m.err.constData());
        QVERIFY(fileBytes(prom).startsWith("# HELP "));
    }

    // Attack 2: DIR/blocktune.prom a link to a root-owned 0600 file. Before,
    // QSaveFile resolved the link: the file got the metrics text and 0644.
    void linkAtTheTargetIsRefusedNamingIt()
    {
        QTemporaryDir dir, elsewhere;
        const QString victim = elsewhere.filePath(QStringLiteral("secret"));
        writeFile(victim, "root only\n", 0600);
        const QString prom = dir.filePath(QStringLiteral("blocktune.prom"));
        QVERIFY(QFile::link(victim, prom));
        const ProcessResult m = metricsInto(dir.path());
        QVERIFY2(m.exitCode != 0, m.err.constData());
        QVERIFY2(m.err.contains(QByteArray(QFile::encodeName(prom) + " is a symbolic link: refusing to write through it or over it")),
                 m.err.constData());
        QCOMPARE(fileBytes(victim), QByteArray("root only\n"));
        QCOMPARE(modeOf(victim), mode_t(0600));
        QVERIFY(QFileInfo(prom).isSymLink());
    }

    // Attack 2, the folder: on Debian the prometheus user owns
    // /var/lib/prometheus and can put a link where node-exporter/ was. A
    // link at the folder is never followed; a link on the way only where
    // nobody but root could have made it.
    void folderThatIsALinkIsRefused()
    {
        QTemporaryDir base, target;
        const QString users = base.filePath(QStringLiteral("prometheus")); // stands for /var/lib/prometheus
        QVERIFY(QDir().mkpath(users + QStringLiteral("/real/sub")));
        QVERIFY(chownTo(users, 65534) && chownTo(users + QStringLiteral("/real"), 65534));
        QVERIFY(QFile::link(target.path(), users + QStringLiteral("/node-exporter")));
        ProcessResult m = metricsInto(users + QStringLiteral("/node-exporter"));
        QVERIFY2(m.exitCode != 0, m.err.constData());
        QVERIFY2(m.err.contains("node-exporter is a symbolic link: name the folder it leads to"), m.err.constData());
        QVERIFY(QFile::link(users + QStringLiteral("/real"), users + QStringLiteral("/via")));
        m = metricsInto(users + QStringLiteral("/via/sub"));
        QVERIFY2(m.exitCode != 0, m.err.constData());
        QVERIFY2(m.err.contains("via is a symbolic link in a folder that users other than root can write: not followed"),
                 m.err.constData());
        QCOMPARE(QDir(target.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
        // A link only root could have made (its folder is root's alone) is followed.
        QVERIFY(QDir().mkpath(base.filePath(QStringLiteral("real/sub"))));
        QVERIFY(QFile::link(base.filePath(QStringLiteral("real")), base.filePath(QStringLiteral("root-link"))));
        m = metricsInto(base.filePath(QStringLiteral("root-link/sub")));
        QVERIFY2(m.exitCode == 0, m.err.constData());
        QVERIFY(QFileInfo::exists(base.filePath(QStringLiteral("real/sub/blocktune.prom"))));
    }

    // Refused as the journal's folder is: owned by someone other than root,
    // this user or prometheus, or writable by group or others.
    void folderOfAnotherUserOrOpenToOthersIsRefused()
    {
        QTemporaryDir dir;
        const QString prom = dir.filePath(QStringLiteral("blocktune.prom"));
        QCOMPARE(::chmod(QFile::encodeName(dir.path()).constData(), 0777), 0);
        ProcessResult m = metricsInto(dir.path());
        QVERIFY2(m.exitCode != 0, m.err.constData());
        QVERIFY2(m.err.contains(QByteArray("the textfile folder " + QFile::encodeName(dir.path()) + " is not a private directory")),
                 m.err.constData());
        QVERIFY2(m.err.contains("mode 0777"), m.err.constData());
        QCOMPARE(::chmod(QFile::encodeName(dir.path()).constData(), 0775), 0);
        QVERIFY(metricsInto(dir.path()).exitCode != 0);
        QCOMPARE(::chmod(QFile::encodeName(dir.path()).constData(), 0755), 0);
        QVERIFY(chownTo(dir.path(), 65534));
        m = metricsInto(dir.path());
        QVERIFY2(m.exitCode != 0, m.err.constData());
        QVERIFY2(m.err.contains("(it is owned by nobody (uid 65534)"), m.err.constData());
        QVERIFY(!QFileInfo::exists(prom));
        // node_exporter's own user may own it (Debian's folder is prometheus's).
        const ProcessResult pw = run(QStringLiteral("id"), {QStringLiteral("-u"), QStringLiteral("prometheus")});
        if (pw.exitCode == 0) {
            QVERIFY(chownTo(dir.path(), uid_t(pw.out.trimmed().toUInt())));
            m = metricsInto(dir.path());
            QVERIFY2(m.exitCode == 0, m.err.constData());
            QVERIFY(QFileInfo::exists(prom));
        }
        QVERIFY(chownTo(dir.path(), 0));
    }
};

QTEST_GUILESS_MAIN(TestTextfileSafety)
#include "tst_textfile_safety.moc"
