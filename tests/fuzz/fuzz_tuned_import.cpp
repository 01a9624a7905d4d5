// The tuned.conf reader of `profile import`: Python configparser's dialect as
// tuned sets it up, then the mapping of disk sections to rules. A profile it
// makes is a valid blocktune profile (its file form parses back).
// Also the include= resolution: the input cut at lines "%%" becomes the
// profiles p0, p1, ... (at most 12) of a profile folder, each
// PROFILES/pN/tuned.conf (one that is exactly "<fifo>" a named pipe, one
// that is "<none>" missing), and p0 is imported from there: chains, cycles,
// diamonds, chains past the depth limit, pipes and missing profiles.
// Seeds in corpus/fuzz_tuned_import/.
#include "fuzzcheck.h"

#include "profiles/profiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstdint>
#include <sys/stat.h>

using namespace blocktune;

namespace {

void checkImported(const Result<TunedImport> &imported)
{
    if (!imported) {
        FUZZ_CHECK(!imported.error().message.isEmpty());
        return;
    }
    FUZZ_CHECK(!imported->profile.rules.isEmpty());
    const Result<Profile> back = parseProfile(profileToJson(imported->profile), QStringLiteral("imported.json"));
    FUZZ_CHECK(back.ok());
    FUZZ_CHECK(back->rules.size() == imported->profile.rules.size());
}

// The profile folder, made once per fuzzing process and emptied per input.
const QString &profilesDir()
{
    static QTemporaryDir dir(QStringLiteral("/tmp/blocktune-fuzz-tuned-XXXXXX"));
    if (!dir.isValid())
        std::abort();
    static const QString path = dir.path();
    return path;
}

void writeProfiles(const QList<QByteArray> &files)
{
    QDir root(profilesDir());
    for (const QString &old : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        QDir(root.filePath(old)).removeRecursively();
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString folder = root.filePath(QStringLiteral("p%1").arg(i));
        const QString conf = folder + QStringLiteral("/tuned.conf");
        if (files[i] == "<none>" || !root.mkpath(folder))
            continue;
        if (files[i] == "<fifo>") {
            FUZZ_CHECK(::mkfifo(QFile::encodeName(conf).constData(), 0600) == 0);
            continue;
        }
        QFile f(conf);
        FUZZ_CHECK(f.open(QIODevice::WriteOnly));
        f.write(files[i]);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    checkImported(importTunedText(text, QStringLiteral("fuzz.conf"), QStringLiteral("fuzz")));

    QList<QByteArray> files = text.split('\n');
    // Lines back into files: a line "%%" starts the next one.
    QList<QByteArray> joined{QByteArray()};
    for (const QByteArray &line : std::as_const(files)) {
        if (line == "%%") {
            if (joined.size() == 12)
                break;
            joined << QByteArray();
            continue;
        }
        joined.last() += line + '\n';
    }
    for (QByteArray &f : joined)
        if (f == "<fifo>\n" || f == "<none>\n")
            f.chop(1);
    writeProfiles(joined);
    // Not a VM question for the machine: decided, so nothing is run.
    checkImported(importTunedProfile(profilesDir() + QStringLiteral("/p0/tuned.conf"), QStringLiteral("fuzz"), SysRoot(),
                                     false));
    return 0;
}
