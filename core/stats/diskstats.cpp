#include "diskstats.h"

#include <limits>

namespace blocktune {

quint64 counterDelta(quint64 before, quint64 after)
{
    if (after >= before)
        return after - before;
    // Went backwards: a 32-bit counter wrapped if that explains it with a
    // small step, otherwise the device was reset (re-created); count from 0.
    if (before <= 0xffffffffULL && after <= 0xffffffffULL)
        return (0x100000000ULL - before) + after;
    return after;
}

namespace {

// Hand-rolled: at 10 Hz on 5,000 devices this runs 50,000 lines a second.
inline const char *skipSpaces(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        ++p;
    return p;
}

// A counter is a u64: more digits than that would wrap and come out as a
// small, plausible-looking number, so such a field (and with it the line)
// does not parse, and the device's counters are unknown this reading.
inline const char *parseNumber(const char *p, const char *end, quint64 &out, bool &ok)
{
    // Up to 19 digits cannot overflow (10^19 - 1 < 2^64); only a 20th digit
    // is checked, so the common short counter costs no division or test.
    constexpr int kSafeDigits = 19;
    quint64 v = 0;
    const char *start = p;
    const char *safeEnd = end - p > kSafeDigits ? p + kSafeDigits : end;
    while (p < safeEnd && unsigned(*p - '0') < 10u)
        v = v * 10 + quint64(*p++ - '0');
    bool overflow = false;
    while (p < end && unsigned(*p - '0') < 10u) {
        overflow = overflow || __builtin_mul_overflow(v, quint64(10), &v)
                   || __builtin_add_overflow(v, quint64(*p - '0'), &v);
        ++p;
    }
    // "2985xyz" is no counter either: a number ends at a blank or the line's end.
    ok = p != start && !overflow && (p == end || *p == ' ' || *p == '\t');
    out = v;
    return p;
}

} // namespace

bool parseDiskStatsLine(QByteArrayView line, QByteArrayView &name, DiskCounters &c)
{
    const char *q = line.data();
    const char *lineEnd = q + line.size();
    c = DiskCounters();
    bool ok = false;
    quint64 num = 0;
    q = skipSpaces(q, lineEnd);
    q = parseNumber(q, lineEnd, num, ok);
    if (!ok)
        return false;
    if (!ok || num > quint64(std::numeric_limits<int>::max()))
        return false;
    c.major = int(num);
    q = parseNumber(skipSpaces(q, lineEnd), lineEnd, num, ok);
    if (!ok || num > quint64(std::numeric_limits<int>::max()))
        return false;
    c.minor = int(num);
    q = skipSpaces(q, lineEnd);
    const char *nameStart = q;
    while (q < lineEnd && *q != ' ' && *q != '\t')
        ++q;
    name = QByteArrayView(nameStart, q - nameStart);
    if (name.isEmpty())
        return false;
    int field = 0;
    while (field < DiskCounters::FieldCount) {
        q = skipSpaces(q, lineEnd);
        if (q >= lineEnd)
            break;
        q = parseNumber(q, lineEnd, num, ok);
        if (!ok)
            return false;
        c.value[size_t(field++)] = num;
    }
    c.fieldsPresent = field;
    // 11 fields since 2.6, 15 since 4.18, 17 since 5.5.
    return field >= 11;
}

DiskStatsTable parseDiskStats(QByteArrayView text)
{
    DiskStatsTable table;
    const char *p = text.data();
    const char *end = p + text.size();
    while (p < end) {
        const char *lineEnd = static_cast<const char *>(memchr(p, '\n', size_t(end - p)));
        if (!lineEnd)
            lineEnd = end;
        QByteArrayView name;
        DiskCounters c;
        if (parseDiskStatsLine(QByteArrayView(p, lineEnd - p), name, c))
            table.insert(QString::fromLatin1(name), c);
        p = lineEnd + 1;
    }
    return table;
}

Result<DiskStatsTable> readDiskStats(const SysRoot &root)
{
    auto data = root.readFile(root.procPath("diskstats"));
    if (!data)
        return data.error();
    return parseDiskStats(*data);
}

} // namespace blocktune
