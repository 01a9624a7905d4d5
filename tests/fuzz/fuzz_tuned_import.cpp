// The tuned.conf reader of `profile import`: Python configparser's dialect as
// tuned sets it up, then the mapping of disk sections to rules. A profile it
// makes is a valid blocktune profile (its file form parses back).
// Needs fuzzcheck.h and blocktune_add_fuzzer() from the hardening branch;
// seeds in corpus/fuzz_tuned_import/.
#include "fuzzcheck.h"

#include "profiles/profiles.h"

#include <cstdint>

using namespace blocktune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const Result<TunedImport> imported = importTunedText(text, QStringLiteral("fuzz.conf"), QStringLiteral("fuzz"));
    if (!imported) {
        FUZZ_CHECK(!imported.error().message.isEmpty());
        return 0;
    }
    FUZZ_CHECK(!imported->profile.rules.isEmpty());
    const Result<Profile> back = parseProfile(profileToJson(imported->profile), QStringLiteral("imported.json"));
    FUZZ_CHECK(back.ok());
    FUZZ_CHECK(back->rules.size() == imported->profile.rules.size());
    return 0;
}
