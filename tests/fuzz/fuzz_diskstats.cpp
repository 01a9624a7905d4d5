// /proc/diskstats (and a device's stat line), as the monitor and the read
// tests read it every tick.
#include "fuzzcheck.h"

#include "stats/diskstats.h"

#include <QByteArray>
#include <QList>

#include <cstdint>

using namespace blocktune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));
    const DiskStatsTable table = parseDiskStats(text);

    // Line by line the same verdicts: every parsed line is in the table
    // (the last line of a name wins), with 11 to 17 counters and a name
    // without blanks.
    qsizetype parsedLines = 0;
    for (QByteArrayView rest = text; !rest.isEmpty();) {
        const qsizetype nl = rest.indexOf('\n');
        const QByteArrayView line = nl < 0 ? rest : rest.first(nl);
        rest = nl < 0 ? QByteArrayView() : rest.sliced(nl + 1);
        QByteArrayView name;
        DiskCounters c;
        if (!parseDiskStatsLine(line, name, c))
            continue;
        ++parsedLines;
        FUZZ_CHECK(c.fieldsPresent >= 11 && c.fieldsPresent <= DiskCounters::FieldCount);
        FUZZ_CHECK(!name.isEmpty() && !name.contains(' ') && !name.contains('\t') && !name.contains('\n'));
        FUZZ_CHECK(name.data() >= line.data() && name.data() + name.size() <= line.data() + line.size());
        FUZZ_CHECK(table.contains(QString::fromLatin1(name)));
        // Every counter is the decimal number written there, never a
        // wrapped one (a field past u64 makes the line not parse).
        QList<QByteArray> words;
        for (const QByteArray &w : line.toByteArray().replace('\t', ' ').split(' '))
            if (!w.isEmpty())
                words << w;
        FUZZ_CHECK(words.size() >= 3 + c.fieldsPresent);
        for (int i = 0; i < c.fieldsPresent; ++i) {
            bool ok = false;
            const quint64 written = words.at(3 + i).toULongLong(&ok);
            FUZZ_CHECK(ok && written == c.value[size_t(i)]);
        }
    }
    FUZZ_CHECK(table.size() <= parsedLines);
    for (auto it = table.cbegin(); it != table.cend(); ++it)
        counterDelta(it->value[DiskCounters::SectorsRead], it->value[DiskCounters::ReadsCompleted]);
    return 0;
}
