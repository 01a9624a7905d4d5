// The profile parser: what `profile apply|verify|export|install` reads from a
// file anyone may hand over. A profile it accepts reads back from its own
// file form unchanged, and its udev export is one the helper installs.
// Needs fuzzcheck.h and blocktune_add_fuzzer() from the hardening branch;
// seeds in corpus/fuzz_profile/.
#include "fuzzcheck.h"

#include "privilege/privilege.h"
#include "profiles/profiles.h"

#include <algorithm>
#include <cstdint>

using namespace blocktune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const Result<Profile> profile = parseProfile(text, QStringLiteral("fuzz.json"));
    if (!profile) {
        FUZZ_CHECK(profile.error().message.startsWith(QStringLiteral("fuzz.json")));
        return 0;
    }
    FUZZ_CHECK(!profile->rules.isEmpty());
    for (const ProfileRule &r : profile->rules)
        FUZZ_CHECK(!r.settings.isEmpty());
    const QByteArray file = profileToJson(*profile);
    const Result<Profile> again = parseProfile(file, QStringLiteral("again.json"));
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(profileToJson(*again) == file);
    // Whatever blocktune exports, its own helper must accept.
    if (const auto rules = exportUdevRules(*profile))
        FUZZ_CHECK(checkUdevRulesContent(rules->text).ok() || rules->text.size() > kMaxUdevRulesBytes);
    // tuned's disk plugin takes the scheduler and the readahead: a rule with
    // either comes back, one without is only a comment there.
    qsizetype tunable = 0;
    for (const ProfileRule &r : profile->rules)
        tunable += std::any_of(r.settings.cbegin(), r.settings.cend(), [](const ProfileSetting &s) {
            return s.key == u"scheduler" || s.key == u"read_ahead_kb" || s.key == u"ra_sectors";
        });
    if (const auto conf = exportTuned(*profile)) {
        const auto back = importTunedText(conf->text, QStringLiteral("exported.conf"), profile->name);
        FUZZ_CHECK(back.ok() == (tunable > 0));
        if (back)
            FUZZ_CHECK(back->profile.rules.size() >= tunable);
    }
    return 0;
}
