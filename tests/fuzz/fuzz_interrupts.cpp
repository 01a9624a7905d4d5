// /proc/interrupts and /proc/stat's intr line: the monitor's interrupt
// rates. The same input goes to both parsers (a /proc/stat holds more
// than the intr line, so any text is a fair input for either).
#include "fuzzcheck.h"

#include "monitor/monitor.h"

#include <QSet>

#include <cstdint>

using namespace blocktune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));

    const auto total = parseInterruptTotal(text);
    const auto stat = parseStatInterrupts(text);
    // The full line parses only where its total does, and agrees with it.
    if (stat) {
        FUZZ_CHECK(total.has_value());
        FUZZ_CHECK(stat->total == *total);
    }

    const QList<IrqRow> rows = parseInterrupts(text);
    const QHash<int, quint64> counts = parseInterruptCounts(text);
    // The per-tick parser (no strings) and the full one see the same rows.
    QSet<int> irqs;
    for (const IrqRow &row : rows) {
        FUZZ_CHECK(row.irq >= 0);
        irqs.insert(row.irq);
    }
    FUZZ_CHECK(qsizetype(irqs.size()) == counts.size());
    for (qsizetype i = rows.size() - 1; i >= 0; --i) {
        const IrqRow &row = rows.at(i);
        if (irqs.remove(row.irq)) // the last row of a number wins in the hash
            FUZZ_CHECK(counts.value(row.irq) == row.count);
        for (const QString &action : row.actions)
            FUZZ_CHECK(!action.isEmpty() && !action.contains(u','));
    }
    return 0;
}
