#pragma once
// Shared by the tuning tests: copies of recorded trees, snapshots of every
// setting, and a loop device's settings read straight from sysfs.

#include "testsupport.h"

#include "session/session.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

namespace blocktune::test {

/// Session options whose writer is `writer`, which the test keeps to look
/// at (what was written, when it fails).
inline SessionOptions writingThrough(AttributeWriter &writer)
{
    struct Forward final : AttributeWriter
    {
        explicit Forward(AttributeWriter &to) : target(to) {}
        Result<WrittenValue> write(const AttributeWrite &request) override { return target.write(request); }
        QString describe() const override { return target.describe(); }
        AttributeWriter &target;
    };
    SessionOptions options;
    options.writerFactory = [&writer](const SysRoot &) { return std::make_unique<Forward>(writer); };
    return options;
}

/// A recorded tree (tests/data/sysroot/NAME) copied into a temp dir, so
/// tests may write into it. cp -a keeps the sysfs symlinks as they are.
class TreeCopy final
{
public:
    explicit TreeCopy(const QString &name)
    {
        const QString source = recordedTree(name);
        if (!QFileInfo(source + QStringLiteral("/sys")).isDir() || !m_dir.isValid())
            return;
        m_ok = copyTree(source, m_dir.path());
    }
    Q_DISABLE_COPY_MOVE(TreeCopy)

    bool isValid() const { return m_ok; }
    QString path() const { return m_dir.path(); }
    /// ROOT/sys/block/DEVICE/REL
    QString attr(const QString &device, const QString &relative) const
    {
        return m_dir.path() + QStringLiteral("/sys/block/") + device + u'/' + relative;
    }
    QString read(const QString &device, const QString &relative) const
    {
        QFile f(attr(device, relative));
        if (!f.open(QIODevice::ReadOnly))
            return QStringLiteral("<missing>");
        return QString::fromUtf8(f.readAll()).trimmed();
    }
    bool write(const QString &device, const QString &relative, const QByteArray &data) const
    {
        QFile f(attr(device, relative));
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
    }

    /// Every regular file under sys/ and proc/ with its contents, trailing
    /// whitespace dropped (the kernel ends values with a newline, a value
    /// written to a plain file has none): equal snapshots mean no value
    /// changed.
    QMap<QString, QByteArray> snapshot() const
    {
        QMap<QString, QByteArray> files;
        QDirIterator it(m_dir.path(), QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            QFile f(file);
            if (f.open(QIODevice::ReadOnly))
                files.insert(file.mid(m_dir.path().size()), f.readAll().trimmed());
        }
        return files;
    }

    /// SHA-256 over every entry under the copy, byte for byte: paths,
    /// types, permission bits, file contents and symlink targets. Equal
    /// hashes mean nothing at all changed.
    QByteArray hash() const
    {
        QStringList entries;
        QDirIterator it(m_dir.path(), QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            entries << it.next();
        entries.sort();
        QCryptographicHash h(QCryptographicHash::Sha256);
        for (const QString &e : std::as_const(entries)) {
            const QFileInfo info(e);
            h.addData(QFile::encodeName(e.mid(m_dir.path().size())));
            h.addData(QByteArray::number(int(info.permissions())));
            if (info.isSymLink()) {
                h.addData(QByteArrayView("link:"));
                h.addData(QFile::encodeName(info.symLinkTarget()));
            } else if (info.isFile()) {
                QFile f(e);
                h.addData(QByteArrayView("file:"));
                if (f.open(QIODevice::ReadOnly))
                    h.addData(f.readAll());
            }
            h.addData(QByteArrayView("\0", 1));
        }
        return h.result().toHex();
    }

private:
    QTemporaryDir m_dir;
    bool m_ok = false;
};

/// The settings of a live device, read straight from sysfs (not through
/// the code under test): the queue attributes we touch plus iosched/*.
inline QMap<QString, QString> liveSettings(const QString &device)
{
    QMap<QString, QString> values;
    const QString base = QStringLiteral("/sys/block/") + device + QStringLiteral("/queue/");
    const QStringList names{QStringLiteral("read_ahead_kb"), QStringLiteral("scheduler"),
                            QStringLiteral("nr_requests"), QStringLiteral("max_sectors_kb")};
    QStringList files = names;
    for (const QString &t : QDir(base + QStringLiteral("iosched")).entryList(QDir::Files))
        files << QStringLiteral("iosched/") + t;
    for (const QString &name : files) {
        QFile f(base + name);
        values.insert(name, f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed()
                                                       : QStringLiteral("<missing>"));
    }
    return values;
}

inline bool writeLive(const QString &device, const QString &relative, const QByteArray &value);

/// Puts a live device's queue settings back as they were when the guard was
/// made, even when a test fails half-way (the kernel keeps a loop device's
/// queue settings across detach and re-attach, so the next user of that
/// loop would inherit them). Scheduler first: switching resets the rest.
class LiveSettingsGuard final
{
public:
    explicit LiveSettingsGuard(QString device) : m_device(std::move(device)), m_saved(liveSettings(m_device)) {}
    ~LiveSettingsGuard()
    {
        const QString sched = m_saved.value(QStringLiteral("scheduler"));
        const qsizetype open = sched.indexOf(u'['), close = sched.indexOf(u']');
        if (open >= 0 && close > open)
            writeLive(m_device, QStringLiteral("queue/scheduler"), sched.mid(open + 1, close - open - 1).toLatin1());
        for (auto it = m_saved.cbegin(); it != m_saved.cend(); ++it)
            if (it.key() != u"scheduler")
                writeLive(m_device, QStringLiteral("queue/") + it.key(), it.value().toLatin1());
    }
    Q_DISABLE_COPY_MOVE(LiveSettingsGuard)
    const QMap<QString, QString> &saved() const { return m_saved; }

private:
    QString m_device;
    QMap<QString, QString> m_saved;
};

inline QString liveValue(const QString &device, const QString &relative)
{
    QFile f(QStringLiteral("/sys/block/") + device + u'/' + relative);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QStringLiteral("<missing>");
}

inline bool writeLive(const QString &device, const QString &relative, const QByteArray &value)
{
    QFile f(QStringLiteral("/sys/block/") + device + u'/' + relative);
    return f.open(QIODevice::WriteOnly) && f.write(value) == value.size();
}

} // namespace blocktune::test
