#pragma once
// Fakes for the monitor's seams: a clock the test advances and a counter
// source whose /proc/diskstats the test writes. No test sleeps to wait for
// real time.

#include "monitor/monitor.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QThread>

#include <array>
#include <atomic>
#include <memory>

namespace blocktune::test {

class FakeClock final : public Clock
{
public:
    qint64 monotonicNs() const override { return m_ns; }
    qint64 wallMs() const override { return 1'700'000'000'000 + m_ns / 1'000'000; }
    void advanceMs(double ms) { m_ns += qint64(ms * 1e6); }

private:
    qint64 m_ns = 1'000'000'000;
};

/// One device's 17 counters, named as in iostats.rst.
using Counters = std::array<quint64, 17>;

/// Writes diskstats lines in the kernel's layout ("%4d %7d %s %lu ...").
inline QByteArray diskstatsText(const QList<std::pair<QString, Counters>> &devices)
{
    QByteArray text;
    int minor = 0;
    for (const auto &[name, c] : devices) {
        text += QByteArray::number(8).rightJustified(4) + ' ' + QByteArray::number(minor++).rightJustified(7)
                + ' ' + name.toLatin1();
        for (quint64 v : c)
            text += ' ' + QByteArray::number(v);
        text += '\n';
    }
    return text;
}

class FakeSource final : public CounterSource
{
public:
    Result<QByteArray> diskStats() override
    {
        ++diskstatsReads;
        if (failing)
            return makeError(ENOENT, QStringLiteral("cannot open /proc/diskstats: No such file or directory"));
        return diskstats;
    }
    std::optional<InFlight> inFlight(const QString &device) override
    {
        ++inFlightReads;
        if (auto it = inflight.constFind(device); it != inflight.cend())
            return *it;
        return std::nullopt;
    }
    InterruptCounts interrupts(const QList<int> &lines) override
    {
        linesAsked = lines;
        InterruptCounts counts;
        counts.total = intrTotal;
        for (int line : lines)
            if (irqs.contains(line))
                counts.lines.insert(line, irqs.value(line));
        return counts;
    }

    void setDevices(const QList<std::pair<QString, Counters>> &devices) { diskstats = diskstatsText(devices); }

    QByteArray diskstats;
    bool failing = false;
    QHash<QString, InFlight> inflight;
    std::optional<quint64> intrTotal;
    QHash<int, quint64> irqs;
    QList<int> linesAsked;
    int diskstatsReads = 0;
    int inFlightReads = 0;
};

/// Readahead counters the test grows by hand (the probe's seam): cumulative,
/// as ReadaheadProbe's; `alive` (when given) says whether it exists, so a
/// test sees that nothing stays loaded.
class FakeReadahead final : public ReadaheadSource
{
public:
    /// Where handTo() was called, and the thread it was handed to.
    QThread *handedFrom = nullptr;
    QThread *handedTo = nullptr;

    explicit FakeReadahead(std::shared_ptr<std::atomic_bool> alive = {}) : m_alive(std::move(alive))
    {
        if (m_alive)
            *m_alive = true;
    }
    ~FakeReadahead() override
    {
        if (m_alive)
            *m_alive = false;
    }
    Q_DISABLE_COPY_MOVE(FakeReadahead)

    Result<ReadaheadSnapshot> snapshot() override
    {
        ++snapshots;
        if (failing)
            return makeError(EIO, QStringLiteral("reading the readahead probe's map failed: Input/output error"));
        ReadaheadSnapshot s = current;
        s.takenMs = takenMs;
        return s;
    }
    ReadaheadCoverage coverage() const override { return {}; }
    void handTo(QThread *thread) override
    {
        handedFrom = QThread::currentThread();
        handedTo = thread;
    }

    /// `windows` more async windows of `pages` pages on `device`, all at
    /// the cap and read ahead whole; of those pages `used` were read (each
    /// after waiting 1-2 ms) and `wasted` evicted unread.
    void streamed(quint64 device, quint64 windows, quint32 pages, quint64 used, quint64 wasted)
    {
        ReadaheadKindCounters &c = current.devices[device].of(ReadaheadKind::Async);
        c.windows += windows;
        c.atCap += windows;
        c.sizes[pages] += windows;
        c.asyncSizes[pages] += windows;
        c.pagesReadAhead += windows * pages;
        c.pagesUsed += used;
        c.pagesWasted += wasted;
        c.wait.counts[10] += used; // [1, 2) ms
    }

    ReadaheadSnapshot current;
    qint64 takenMs = 1000;
    bool failing = false;
    int snapshots = 0;

private:
    std::shared_ptr<std::atomic_bool> m_alive;
};

/// Rewrites ROOT/proc/diskstats, adding `sectors` (and sectors/128 reads,
/// 64 KiB each) to the named devices; `drop` lines are left out. Renamed
/// into place, as a reader must never see half a file.
inline bool advanceDiskstats(const QString &root, const QMap<QString, quint64> &sectors,
                             const QStringList &drop = {})
{
    const QString path = root + QStringLiteral("/proc/diskstats");
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QByteArray out;
    for (const QByteArray &line : in.readAll().split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 14)
            continue;
        const QString name = QString::fromLatin1(f[2]);
        if (drop.contains(name))
            continue;
        QList<QByteArray> fields = f;
        if (sectors.contains(name)) {
            const quint64 add = sectors.value(name);
            fields[3] = QByteArray::number(fields[3].toULongLong() + add / 128); // reads
            fields[5] = QByteArray::number(fields[5].toULongLong() + add);       // sectors
        }
        out += fields.join(' ') + '\n';
    }
    in.close();
    QFile tmp(path + QStringLiteral(".new"));
    if (!tmp.open(QIODevice::WriteOnly) || tmp.write(out) != out.size())
        return false;
    tmp.close();
    return ::rename(QFile::encodeName(tmp.fileName()).constData(), QFile::encodeName(path).constData()) == 0;
}

} // namespace blocktune::test
