// The journal reader: what `blocktune-cli restore` and the console's start
// read back from /run/blocktune. A journal it accepts names a mode and
// entries that each name an attribute, and survives a round trip.
#include "fuzzcheck.h"

#include "tuning/tuning_p.h"

#include <QJsonDocument>

#include <cstdint>

using namespace blocktune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto journal = detail::journalFromJson(text);
    if (!journal) {
        FUZZ_CHECK(!journal.error().message.isEmpty());
        return 0;
    }
    for (const JournalEntry &e : journal->entries)
        FUZZ_CHECK(!e.attribute.isEmpty());
    // What we would write back is read again as the same journal.
    const QByteArray again = QJsonDocument(detail::journalToJson(*journal)).toJson(QJsonDocument::Compact);
    const auto reread = detail::journalFromJson(again);
    FUZZ_CHECK(reread.ok());
    FUZZ_CHECK(reread->entries.size() == journal->entries.size());
    FUZZ_CHECK(reread->mode == journal->mode && reread->pid == journal->pid);
    for (qsizetype i = 0; i < journal->entries.size(); ++i) {
        const JournalEntry &a = journal->entries.at(i), &b = reread->entries.at(i);
        FUZZ_CHECK(a.device == b.device && a.attribute == b.attribute && a.original == b.original);
    }
    return 0;
}
