#pragma once
// Details shared by core/profiles' sources (and its tests); not an interface.

#include "profiles.h"

namespace blocktune::detail {

/// Profile keys of scheduler tunables: "iosched.read_expire".
inline constexpr QLatin1StringView kIoschedPrefix{"iosched."};

/// What a `set` key accepts, independent of any device.
struct ProfileKeyInfo
{
    bool numeric = false;
    quint64 min = 0;
    quint64 max = 0;
    QString unit;        ///< for messages: "KiB", "512-byte sectors"
    bool bounds = false; ///< `>N` / `<N` allowed
};
/// nullopt: not a key of `set`.
std::optional<ProfileKeyInfo> profileKeyInfo(const QString &key);
/// settingKeys() order, iosched.* last by name: the order rules and
/// previews list settings in.
int profileKeyRank(const QString &key);
void sortSettings(QList<ProfileSetting> &settings);

/// The match keys, as the JSON names them.
QStringList matchKeys();
/// "disk", "part", "md", "dm", "loop" -> type; nullopt for anything else.
std::optional<DeviceType> profileDeviceType(const QString &name);

/// A kernel-name glob blocktune, udev (KERNEL==) and tuned (devices=)
/// read alike: letters, digits, _ . : - and * ? [ ] !.
bool isNameGlob(const QString &glob);
/// fnmatch(3), as tuned and udev match names.
bool globMatches(const QString &glob, const QString &name);
/// A literal identity (model, serial, wwn, dm name): printable, no quotes,
/// backslashes, $ or %, and none of udev's pattern characters * ? [ ] |.
bool isLiteralIdentity(const QString &text);
bool isSchedulerName(const QString &name);
bool isTunableName(const QString &name);

/// 1-based line and column of a byte offset in `data` (columns in characters).
struct TextPosition
{
    int line = 1;
    int column = 1;
};
TextPosition positionOf(const QByteArray &data, qsizetype offset);

/// The value in the form the kernel keeps it, for comparing: readahead in
/// whole pages, nr_requests at least 4. `key` is a profile key; the result is
/// in that key's unit.
quint64 keptNumber(const QString &key, quint64 value, quint64 pageKiB);

/// A scheduler to choose: bio-based md/dm list only "none" (or nothing).
inline bool hasSchedulerChoice(const DeviceSettings &s)
{
    return !s.schedulers.isEmpty() && !(s.schedulers.size() == 1 && s.schedulers.constFirst() == u"none");
}

/// The canonical text of a rule's match as JSON (for exports' comments).
QJsonObject matchToJson(const ProfileMatch &match);
QJsonObject settingsToJson(const QList<ProfileSetting> &settings);

/// Backslash before each regex metacharacter (what tuned's Python re reads).
QString regexEscape(const QString &literal);
/// A kernel-name glob as a regex over one udev property value (no '/').
QString globToRegex(const QString &glob);

/// Writes `data` to `path` through a temp file and rename (0644, or 0600 if
/// `privateFile`); refuses to replace it unless `overwrite`.
Status writeFileAtomically(const QString &path, const QByteArray &data, bool overwrite, bool privateFile = false);

/// The index of the first control character in `text` other than a line
/// break or a tab (NUL, CR, ESC, DEL...), or -1. Profile text (descriptions,
/// comments) and tuned.conf lines refuse them: exports write that text into
/// comment lines and values, where such a character cuts or garbles them.
qsizetype firstControlCharacter(QStringView text);

} // namespace blocktune::detail
