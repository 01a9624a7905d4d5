// queue/scheduler lines ("none [mq-deadline] kyber bfq") and the plain
// numbers every sysfs attribute holds.
#include "fuzzcheck.h"

#include "common/sysroot.h"

#include <QByteArray>

#include <cstdint>

using namespace blocktune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));

    if (const auto choice = sysfs::parseBracketChoice(text)) {
        // What the settings panel offers and validate.cpp checks against:
        // the active scheduler is one of the list, no name is empty or
        // carries a bracket or a space.
        FUZZ_CHECK(!choice->choices.isEmpty());
        FUZZ_CHECK(choice->choices.contains(choice->active));
        for (const QString &name : choice->choices) {
            FUZZ_CHECK(!name.isEmpty());
            FUZZ_CHECK(!name.contains(u'[') && !name.contains(u']') && !name.contains(u' '));
        }
    }

    // A number parses only if it is plain digits (surrounding whitespace
    // aside) and then prints back as those digits.
    if (const auto n = sysfs::parseU64(text)) {
        QByteArray digits = text.trimmed().toByteArray();
        while (digits.size() > 1 && digits.startsWith('0'))
            digits.remove(0, 1);
        FUZZ_CHECK(QByteArray::number(*n) == digits);
    }
    if (const auto n = sysfs::parseI64(text)) {
        if (*n < 0)
            FUZZ_CHECK(text.trimmed().startsWith('-'));
        if (!text.trimmed().startsWith('-'))
            FUZZ_CHECK(sysfs::parseU64(text) == std::optional<quint64>(quint64(*n)));
    }
    return 0;
}
