#pragma once
// A loop device of a test with known contents and known queue settings,
// shared by the read-test and advisor tests (root).
#include "common/sysroot.h"
#include "testsupport.h"

#include <QCryptographicHash>
#include <QFile>

#include <random>
#include <utility>

namespace blocktune::test {

inline QByteArray knownContents()
{
    // 1 MiB of deterministic noise, repeated: nothing a hole or a zero page
    // could stand in for.
    QByteArray block(1 << 20, Qt::Uninitialized);
    std::mt19937 rng(4242);
    for (char &c : block)
        c = char(rng() | 1);
    return block;
}

inline QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

inline QString queueAttr(const QString &dev, const char *attr)
{
    const SysRoot root;
    auto v = root.readString(root.sysPath(QByteArray("block/" + dev.toLatin1() + "/queue/" + attr)));
    return v ? *v : QString();
}

inline bool setQueueAttr(const QString &dev, const char *attr, const QString &value)
{
    const SysRoot root;
    return root.writeAttribute(root.sysPath(QByteArray("block/" + dev.toLatin1() + "/queue/" + attr)), value).ok();
}

inline quint64 readAhead(const QString &dev)
{
    return queueAttr(dev, "read_ahead_kb").toULongLong();
}


/// A loop device of this test with known queue settings: loop devices keep
/// their queue settings across detach and attach, so a previous user's
/// max_sectors_kb of 4 would make every request 4 KiB. Puts the settings it
/// found back before the device is detached.
class TestLoop final
{
public:
    TestLoop(qint64 bytes, const QByteArray &fill) : m_loop(bytes, true, fill)
    {
        if (!m_loop.isValid())
            return;
        m_hash = fileHash(m_loop.backingFile());
        const QString dev = m_loop.name();
        for (const char *attr : {"read_ahead_kb", "max_sectors_kb", "scheduler"}) {
            QString value = queueAttr(dev, attr);
            if (QLatin1StringView(attr) == QLatin1StringView("scheduler")) {
                const auto choice = sysfs::parseBracketChoice(value.toLatin1());
                value = choice ? choice->active : QString();
            }
            m_saved.append({attr, value});
        }
        m_ok = setQueueAttr(dev, "max_sectors_kb", queueAttr(dev, "max_hw_sectors_kb"))
            && setQueueAttr(dev, "scheduler", QStringLiteral("none"))
            && setQueueAttr(dev, "read_ahead_kb", QStringLiteral("128"));
    }
    ~TestLoop()
    {
        if (!m_loop.isValid())
            return;
        for (const auto &[attr, value] : m_saved)
            if (!value.isEmpty())
                setQueueAttr(m_loop.name(), attr, value);
    }
    Q_DISABLE_COPY_MOVE(TestLoop)

    bool isValid() const { return m_loop.isValid() && m_ok; }
    QString name() const { return m_loop.name(); }
    QString path() const { return m_loop.path(); }
    QString backingFile() const { return m_loop.backingFile(); }
    QByteArray initialHash() const { return m_hash; }

private:
    LoopDevice m_loop;
    QByteArray m_hash;
    QList<std::pair<const char *, QString>> m_saved;
    bool m_ok = false;
};

} // namespace blocktune::test
