// Parsers for /proc/stat's "intr" line and /proc/interrupts. Hand-rolled:
// they run every tick, and /proc/interrupts on a large machine is hundreds
// of CPUs wide.
#include "monitor.h"

#include <climits>
#include <cstring>

namespace blocktune {

namespace {

inline bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

inline const char *skipSpaces(const char *p, const char *end)
{
    while (p < end && isSpace(*p))
        ++p;
    return p;
}

// A whole token of decimal digits ending at a space or the end; false for
// anything else (and for numbers longer than 20 digits).
inline bool parseNumberToken(const char *&p, const char *end, quint64 &out)
{
    const char *q = p;
    quint64 v = 0;
    while (q < end && *q >= '0' && *q <= '9') {
        const quint64 digit = quint64(*q - '0');
        if (v > (UINT64_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
        ++q;
    }
    if (q == p || (q < end && !isSpace(*q)))
        return false;
    out = v;
    p = q;
    return true;
}

// How many CPU columns the header line announces; -1 when it is not a
// header ("CPU0 CPU1 ..." as show_interrupts() prints it).
int cpuColumns(const char *p, const char *end)
{
    int n = 0;
    while (true) {
        p = skipSpaces(p, end);
        if (p >= end)
            break;
        if (end - p < 4 || std::memcmp(p, "CPU", 3) != 0)
            return -1;
        while (p < end && !isSpace(*p))
            ++p;
        ++n;
    }
    return n > 0 ? n : -1;
}

// Tokens after the counts that still describe the line rather than name
// its handlers: a hwirq number, "5-edge", "Edge"/"Level", "-fasteoi"
// (kernel/irq/proc.c show_interrupts()).
bool isDescriptionToken(QByteArrayView token)
{
    if (token.isEmpty())
        return false;
    if (token == "Edge" || token == "Level" || token.startsWith('-'))
        return true;
    qsizetype i = 0;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9')
        ++i;
    return i > 0 && (i == token.size() || token[i] == '-');
}

void splitDescription(QByteArrayView rest, IrqRow &row)
{
    QByteArrayList chipParts;
    qsizetype pos = 0;
    bool first = true;
    while (pos < rest.size()) {
        while (pos < rest.size() && isSpace(rest[pos]))
            ++pos;
        if (pos >= rest.size())
            break;
        qsizetype end = pos;
        while (end < rest.size() && !isSpace(rest[end]))
            ++end;
        const QByteArrayView token = rest.sliced(pos, end - pos);
        if (!first && !isDescriptionToken(token))
            break;
        chipParts.append(token.toByteArray());
        first = false;
        pos = end;
    }
    row.chip = QString::fromLatin1(chipParts.join(' '));
    // Several handlers on one line are printed "a, b" (action names may
    // hold spaces, never commas).
    for (const QByteArray &action : rest.sliced(pos).toByteArray().split(',')) {
        const QByteArray trimmed = action.trimmed();
        if (!trimmed.isEmpty())
            row.actions.append(QString::fromLatin1(trimmed));
    }
}

// Walks the numbered rows; `onRow(irq, sum, rest)` gets each one.
template<typename OnRow>
void forEachIrqRow(QByteArrayView text, OnRow onRow)
{
    const char *p = text.data();
    const char *end = p + text.size();
    int cpus = -1;
    bool firstLine = true;
    while (p < end) {
        const char *lineEnd = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        if (!lineEnd)
            lineEnd = end;
        if (firstLine) {
            firstLine = false;
            cpus = cpuColumns(p, lineEnd);
            if (cpus > 0) {
                p = lineEnd + 1;
                continue;
            }
        }
        const char *q = skipSpaces(p, lineEnd);
        quint64 irq = 0;
        const char *digits = q;
        while (q < lineEnd && *q >= '0' && *q <= '9' && q - digits < 10)
            irq = irq * 10 + quint64(*q++ - '0');
        if (q > digits && q < lineEnd && *q == ':' && irq <= quint64(INT_MAX)) {
            ++q;
            quint64 sum = 0;
            int columns = 0;
            bool bad = false;
            while (cpus < 0 || columns < cpus) {
                const char *token = skipSpaces(q, lineEnd);
                if (token >= lineEnd)
                    break;
                quint64 count = 0;
                const char *after = token;
                if (!parseNumberToken(after, lineEnd, count))
                    break;
                if (sum > UINT64_MAX - count) {
                    bad = true;
                    break;
                }
                sum += count;
                ++columns;
                q = after;
            }
            if (!bad && columns > 0)
                onRow(int(irq), sum, QByteArrayView(q, lineEnd - q));
        }
        p = lineEnd + 1;
    }
}

} // namespace

namespace {

// The numbers after "intr " on /proc/stat's intr line; empty when there is none.
QByteArrayView intrLine(QByteArrayView procStat)
{
    const char *p = procStat.data();
    const char *end = p + procStat.size();
    while (p < end) {
        const char *lineEnd = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        if (!lineEnd)
            lineEnd = end;
        if (lineEnd - p > 5 && std::memcmp(p, "intr ", 5) == 0)
            return QByteArrayView(p + 5, lineEnd - (p + 5));
        p = lineEnd + 1;
    }
    return {};
}

} // namespace

std::optional<quint64> parseInterruptTotal(QByteArrayView procStat)
{
    const QByteArrayView line = intrLine(procStat);
    const char *lineEnd = line.data() + line.size();
    const char *q = skipSpaces(line.data(), lineEnd);
    quint64 total = 0;
    if (line.isEmpty() || !parseNumberToken(q, lineEnd, total))
        return std::nullopt;
    return total;
}

std::optional<StatInterrupts> parseStatInterrupts(QByteArrayView procStat)
{
    const QByteArrayView line = intrLine(procStat);
    if (line.isEmpty())
        return std::nullopt;
    const char *lineEnd = line.data() + line.size();
    StatInterrupts out;
    const char *q = skipSpaces(line.data(), lineEnd);
    if (!parseNumberToken(q, lineEnd, out.total))
        return std::nullopt;
    for (;;) {
        q = skipSpaces(q, lineEnd);
        if (q >= lineEnd)
            break;
        quint64 count = 0;
        if (!parseNumberToken(q, lineEnd, count))
            return std::nullopt;
        out.perIrq.push_back(count);
    }
    return out;
}

QList<IrqRow> parseInterrupts(QByteArrayView text)
{
    QList<IrqRow> rows;
    forEachIrqRow(text, [&rows](int irq, quint64 sum, QByteArrayView rest) {
        IrqRow row;
        row.irq = irq;
        row.count = sum;
        splitDescription(rest, row);
        rows.append(std::move(row));
    });
    return rows;
}

QHash<int, quint64> parseInterruptCounts(QByteArrayView text)
{
    QHash<int, quint64> counts;
    forEachIrqRow(text, [&counts](int irq, quint64 sum, QByteArrayView) { counts.insert(irq, sum); });
    return counts;
}

} // namespace blocktune
