// Importing a tuned profile the way tuned reads it (tuned/profiles/loader.py,
// merger.py, plugins/plugin_disk.py): an INI file read by Python's
// configparser with '=' as the only delimiter and '#' inline comments,
// include= resolved before the including profile, units of the same name
// merged, and only the disk plugin's options turned into rules. Whatever
// blocktune does not apply is listed, never dropped silently.
#include "profiles.h"
#include "profiles_p.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>

#include "common/safeopen.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blocktune {

namespace {

constexpr qint64 kMaxTunedBytes = 1 << 20;
// tuned names no limit of its own: its loader (tuned/profiles/loader.py,
// _load_profile) recurses once per include=, so only Python's recursion
// limit (1000 frames) ends a long chain, with a RecursionError. The
// deepest chain tuned ships is 4 profiles (realtime-virtual-host ->
// realtime -> network-latency -> latency-performance); twice that leaves
// room for a site's own layers and none for a file built to exhaust us.
constexpr qsizetype kMaxTunedIncludeDepth = 8;
static_assert(kMaxTunedIncludeDepth >= 2, "the message names the first two profiles of the chain");
// Breadth: one file may list many names; no real profile set comes near.
constexpr qsizetype kMaxTunedIncludedFiles = 64;

struct IniOption
{
    QString key;
    QString value;
    QString file;
    int line = 0;
};

struct IniSection
{
    QString name;
    QString file;
    int line = 0;
    QList<IniOption> options;
};

void setOption(QList<IniOption> &options, const IniOption &o)
{
    for (IniOption &x : options)
        if (x.key == o.key) {
            x = o; // configparser with strict=False: the later value wins
            return;
        }
    options << o;
}

std::optional<IniOption> takeOption(QList<IniOption> &options, const QString &key)
{
    for (qsizetype i = 0; i < options.size(); ++i)
        if (options.at(i).key == key)
            return options.takeAt(i);
    return std::nullopt;
}

QString at(const QString &file, int line)
{
    return QStringLiteral("%1:%2").arg(file).arg(line);
}

// Python's configparser as tuned configures it: delimiters ('='),
// inline_comment_prefixes ('#') (after whitespace), full-line comments '#'
// and ';', indented lines continue the previous value, strict=False.
Result<QList<IniSection>> parseIni(const QByteArray &data, const QString &source)
{
    const QString text = QString::fromUtf8(data);
    if (text.toUtf8() != data || data.contains('\0'))
        return makeError(InvalidArgument, QStringLiteral("%1: not UTF-8 text, which tuned cannot read either").arg(source));
    QList<IniSection> sections;
    QHash<QString, qsizetype> index;
    qsizetype current = -1;
    QString continuing; // the option an indented line continues
    const QStringList lines = text.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const int lineNo = int(i + 1);
        QString line = lines.at(i);
        if (line.endsWith(u'\r'))
            line.chop(1);
        // A control character would end up in the profile's description or
        // a rule's comment, which blocktune refuses: say so here, with the line.
        if (const qsizetype c = detail::firstControlCharacter(line); c >= 0)
            return makeError(InvalidArgument, QStringLiteral("%1: a control character (U+%2) at column %3: a "
                                                             "tuned.conf is text")
                                                  .arg(at(source, lineNo))
                                                  .arg(uint(line.at(c).unicode()), 4, 16, QLatin1Char('0'))
                                                  .arg(c + 1));
        const QString stripped = line.trimmed();
        if (stripped.isEmpty()) {
            continuing.clear();
            continue;
        }
        if (stripped.startsWith(u'#') || stripped.startsWith(u';'))
            continue;
        // An inline comment starts at a '#' that follows whitespace.
        static const QRegularExpression inlineComment(QStringLiteral("\\s#"));
        const QRegularExpressionMatch cm = inlineComment.match(line);
        const QString content = (cm.hasMatch() ? line.left(cm.capturedStart()) : line).trimmed();
        const bool indented = line.at(0) == u' ' || line.at(0) == u'\t';
        if (indented && current >= 0 && !continuing.isEmpty()) {
            for (IniOption &o : sections[current].options)
                if (o.key == continuing)
                    o.value += u'\n' + content;
            continue;
        }
        if (content.startsWith(u'[')) {
            const qsizetype close = content.indexOf(u']');
            // Parse errors never quote the line: `profile import /etc/shadow`
            // must not print a password hash (nor any file's first line).
            if (close <= 1 || close != content.size() - 1)
                return makeError(InvalidArgument,
                                 QStringLiteral("%1: a broken section header (write [NAME] alone on its line)")
                                     .arg(at(source, lineNo)));
            const QString name = content.mid(1, close - 1);
            auto it = index.constFind(name);
            if (it == index.constEnd()) {
                index.insert(name, sections.size());
                sections << IniSection{name, source, lineNo, {}};
                current = sections.size() - 1;
            } else {
                current = *it;
            }
            continuing.clear();
            continue;
        }
        const qsizetype eq = content.indexOf(u'=');
        if (current < 0)
            return makeError(InvalidArgument, QStringLiteral("%1: a line before any [section] (a tuned.conf starts "
                                                             "with [main] or a plugin's section)")
                                                  .arg(at(source, lineNo)));
        if (eq <= 0 || content.left(eq).trimmed().isEmpty())
            return makeError(InvalidArgument, QStringLiteral("%1: a line that is neither a [section], KEY=VALUE nor a "
                                                             "# comment")
                                                  .arg(at(source, lineNo)));
        const IniOption o{content.left(eq).trimmed(), content.mid(eq + 1).trimmed(), source, lineNo};
        setOption(sections[current].options, o);
        continuing = o.key;
    }
    return sections;
}

struct LoadedProfile
{
    QString name;
    QString path;
    QList<IniSection> sections;
};

QString profileNameOf(const QString &tunedConf)
{
    return QFileInfo(tunedConf).absoluteDir().dirName();
}

// A tuned.conf is a regular file: a named pipe would hang the read (no
// writer ever comes), a device could be endless or act on being opened.
// Refused by stat before any open; opened O_NONBLOCK and checked again, so
// a file swapped for a pipe in between cannot hang us either.
Result<QByteArray> readTunedFile(const QString &path)
{
    const QByteArray p = QFile::encodeName(path);
    const QString notFile = QStringLiteral("%1 is not a regular file (a named pipe, a device or a folder): a "
                                           "tuned.conf is a file");
    struct stat st {};
    if (::stat(p.constData(), &st) != 0)
        return makeError(NotFound, QStringLiteral("cannot read %1: %2").arg(path, errnoText(errno)));
    if (!S_ISREG(st.st_mode))
        return makeError(InvalidArgument, notFile.arg(path));
    const UniqueFd fd(::open(p.constData(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd.isValid())
        return makeError(NotFound, QStringLiteral("cannot read %1: %2").arg(path, errnoText(errno)));
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        return makeError(InvalidArgument, notFile.arg(path));
    QByteArray data;
    char buffer[65536];
    while (data.size() <= kMaxTunedBytes) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return makeError(EIO, QStringLiteral("cannot read %1: %2").arg(path, errnoText(errno)));
        if (n == 0)
            break;
        data.append(buffer, n);
    }
    if (data.size() > kMaxTunedBytes)
        return makeError(InvalidArgument, QStringLiteral("%1 is larger than %2 bytes: not a tuned.conf").arg(path).arg(kMaxTunedBytes));
    return data;
}

struct IncludeContext
{
    explicit IncludeContext(const SysRoot &m) : machine(m) {}
    const SysRoot &machine; ///< the machine the profile is imported for
    QStringList done;  ///< files read already (tuned reads each once)
    QStringList notes; ///< how an include= function was decided
    // Not a std::optional: GCC 12 under the sanitizers takes its QString
    // for maybe-uninitialized (-Werror).
    bool virtualisationKnown = false; ///< asked once, when an include needs it
    Virtualisation virtualisation;
};

// tuned's `${f:virt_check:VIRTUAL:BARE}` in include= (openshift and others
// ship it): the name it picks on the machine and the one it would pick on
// the other kind; nullopt for any other form.
std::optional<std::pair<QString, QString>> virtCheckChoice(const QString &name, IncludeContext &context)
{
    static const QRegularExpression virt(QStringLiteral("^\\$\\{f:virt_check:([^:}]*):([^:}]*)\\}$"));
    const QRegularExpressionMatch m = virt.match(name);
    if (!m.hasMatch())
        return std::nullopt;
    if (!context.virtualisationKnown) {
        context.virtualisation = detectVirtualisation(context.machine);
        context.virtualisationKnown = true;
    }
    if (context.virtualisation.virtualMachine)
        return std::pair{m.captured(1), m.captured(2)};
    return std::pair{m.captured(2), m.captured(1)};
}

// An include= name, a virt_check decided (and noted), as the path of the
// tuned.conf it names beside `including`.
Result<QString> includedConf(QString name, const IniOption &o, const QString &including, IncludeContext &context)
{
    if (const auto choice = virtCheckChoice(name, context)) {
        const bool vm = context.virtualisation.virtualMachine;
        context.notes << QStringLiteral("%1: include %2 took '%3': this machine is %4 (%7; tuned decides this "
                                        "where it runs; on %5 it would include '%6')")
                             .arg(at(o.file, o.line), name, choice->first,
                                  vm ? QStringLiteral("a virtual machine or container") : QStringLiteral("bare metal"),
                                  vm ? QStringLiteral("bare metal") : QStringLiteral("a virtual machine"),
                                  choice->second, context.virtualisation.evidence);
        name = choice->first;
    }
    if (name.contains(QStringLiteral("${")))
        return makeError(InvalidArgument, QStringLiteral("%1: include '%2' uses a tuned variable or "
                                                         "function, which blocktune does not evaluate")
                                              .arg(at(o.file, o.line), name));
    if (!isValidProfileName(name))
        return makeError(InvalidArgument, QStringLiteral("%1: include '%2' is not a profile name "
                                                         "(letters, digits, _ . -)")
                                              .arg(at(o.file, o.line), name.left(80)));
    QDir profiles = QFileInfo(including).absoluteDir();
    profiles.cdUp();
    const QString included = profiles.filePath(name + QStringLiteral("/tuned.conf"));
    if (!QFileInfo::exists(included)) // a pipe or a folder there is refused by readTunedFile(), named
        return makeError(NotFound, QStringLiteral("%1: include '%2': there is no %3 (included profiles are "
                                                  "looked up beside this one, PROFILES/NAME/tuned.conf, as "
                                                  "tuned does in /usr/lib/tuned/profiles/)")
                                       .arg(at(o.file, o.line), name, included));
    return included;
}

// One tuned.conf read and parsed, its include= names still to follow.
struct PendingProfile
{
    QString path; ///< canonical
    QList<IniSection> sections;
    QList<QPair<QString, IniOption>> includes; ///< each name with the option that named it
    qsizetype next = 0;
};

QList<QPair<QString, IniOption>> includesOf(const QList<IniSection> &sections)
{
    static const QRegularExpression split(QStringLiteral("\\s*[,;]\\s*"));
    QList<QPair<QString, IniOption>> out;
    for (const IniSection &s : sections)
        if (s.name == u"main")
            for (const IniOption &o : s.options)
                if (o.key == u"include")
                    for (const QString &name : o.value.split(split, Qt::SkipEmptyParts))
                        out.append({name, o});
    return out;
}

QString chainText(const QList<PendingProfile> &stack, const QString &last)
{
    QStringList chain;
    for (const PendingProfile &p : stack)
        chain << profileNameOf(p.path);
    return (chain << profileNameOf(last)).join(QStringLiteral(" -> "));
}

// The profile at `path` read for the chain `stack` leads to it; nullopt
// when it was read already (tuned loads each file once).
Result<std::optional<PendingProfile>> readIncluded(const QString &path, const QList<PendingProfile> &stack,
                                                   const IncludeContext &context)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (canonical.isEmpty())
        return makeError(NotFound, QStringLiteral("cannot read %1: no such file").arg(path));
    if (std::any_of(stack.cbegin(), stack.cend(), [&](const PendingProfile &p) { return p.path == canonical; }))
        return makeError(InvalidArgument, QStringLiteral("include cycle: %1 (%2)").arg(chainText(stack, canonical), canonical));
    if (context.done.contains(canonical))
        return std::optional<PendingProfile>();
    if (stack.size() >= kMaxTunedIncludeDepth)
        return makeError(InvalidArgument, QStringLiteral("include chain longer than %1 profiles: %2 -> ... -> %3 "
                                                         "(%4); tuned's own profiles chain at most 4")
                                              .arg(kMaxTunedIncludeDepth)
                                              .arg(chainText(stack.mid(0, 1), stack.at(1).path),
                                                   chainText(stack.mid(stack.size() - 1), canonical), canonical));
    if (context.done.size() + stack.size() >= kMaxTunedIncludedFiles)
        return makeError(InvalidArgument, QStringLiteral("more than %1 profiles included: %2 not read")
                                              .arg(kMaxTunedIncludedFiles).arg(canonical));
    auto data = readTunedFile(canonical);
    if (!data)
        return data.error();
    auto sections = parseIni(*data, canonical);
    if (!sections)
        return sections.error();
    const QList<QPair<QString, IniOption>> includes = includesOf(*sections);
    return std::optional<PendingProfile>(PendingProfile{canonical, std::move(*sections), includes, 0});
}

// Included profiles first, the including one last (it wins), each file
// once. A loop with its own stack, not recursion: a file cannot deepen the
// C++ stack, and the chain is cut at kMaxTunedIncludeDepth.
Status loadWithIncludes(const QString &path, IncludeContext &context, QList<LoadedProfile> &out)
{
    QList<PendingProfile> stack;
    auto first = readIncluded(path, stack, context);
    if (!first)
        return first.error();
    if (*first)
        stack << std::move(**first);
    while (!stack.isEmpty()) {
        PendingProfile &top = stack.last();
        if (top.next == top.includes.size()) {
            context.done << top.path;
            out << LoadedProfile{profileNameOf(top.path), top.path, top.sections};
            stack.removeLast();
            continue;
        }
        const auto [name, option] = top.includes.at(top.next++);
        const auto included = includedConf(name, option, top.path, context);
        if (!included)
            return included.error();
        auto next = readIncluded(*included, stack, context);
        if (!next)
            return next.error();
        if (*next)
            stack << std::move(**next);
    }
    return {};
}

// A tuned unit (one section) after the merger: tuned/profiles/unit.py pops
// these keys; the rest are the plugin's options.
struct Unit
{
    QString name;
    QString type;
    bool enabled = true;
    QString devices = QStringLiteral("*");
    std::optional<IniOption> udevRegex;
    int priority = 0;
    QList<IniOption> options;
    QString file;
    int line = 0;
};

Unit unitOf(const IniSection &s)
{
    Unit u;
    u.name = s.name;
    u.file = s.file;
    u.line = s.line;
    QList<IniOption> options = s.options;
    const auto type = takeOption(options, QStringLiteral("type"));
    u.type = type ? type->value : s.name;
    // tuned compares with True, "true" and 1: the string "1" disables.
    if (const auto enabled = takeOption(options, QStringLiteral("enabled")))
        u.enabled = enabled->value == u"true";
    takeOption(options, QStringLiteral("replace"));
    if (const auto devices = takeOption(options, QStringLiteral("devices")))
        u.devices = devices->value;
    u.udevRegex = takeOption(options, QStringLiteral("devices_udev_regex"));
    if (const auto priority = takeOption(options, QStringLiteral("priority")))
        u.priority = priority->value.toInt();
    u.options = options;
    return u;
}

struct Merged
{
    QList<Unit> units;
    QList<IniOption> main;
    QHash<QString, QString> variables;
};

// tuned/profiles/merger.py: same-named units are updated by the newer
// profile (type, enabled and devices always, devices_udev_regex when given,
// options key by key); replace=true starts the unit afresh.
void mergeProfile(Merged &m, const LoadedProfile &p)
{
    for (const IniSection &s : p.sections) {
        if (s.name == u"main") {
            for (const IniOption &o : s.options)
                setOption(m.main, o);
            continue;
        }
        if (s.name == u"variables") {
            for (const IniOption &o : s.options)
                m.variables.insert(o.key, o.value);
            continue;
        }
        const bool replace = std::any_of(s.options.cbegin(), s.options.cend(), [](const IniOption &o) {
            return o.key == u"replace" && o.value == u"true";
        });
        Unit u = unitOf(s);
        const auto it = std::find_if(m.units.begin(), m.units.end(), [&](const Unit &x) { return x.name == u.name; });
        if (it == m.units.end()) {
            m.units << u;
        } else if (replace) {
            *it = u;
        } else {
            it->type = u.type;
            it->enabled = u.enabled;
            it->devices = u.devices;
            if (u.udevRegex)
                it->udevRegex = u.udevRegex;
            it->priority = u.priority;
            for (const IniOption &o : std::as_const(u.options))
                setOption(it->options, o);
        }
    }
}

// ${name} from [variables]; tuned's ${f:...} functions and ${i:...} are
// not evaluated (nullopt).
std::optional<QString> expand(const QString &value, const QHash<QString, QString> &variables)
{
    static const QRegularExpression var(QStringLiteral("\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\}"));
    QString out = value;
    for (int round = 0; round < 8 && out.contains(QStringLiteral("${")); ++round) {
        QRegularExpressionMatch m = var.match(out);
        if (!m.hasMatch() || !variables.contains(m.captured(1)))
            return std::nullopt;
        out.replace(m.capturedStart(), m.capturedLength(), variables.value(m.captured(1)));
    }
    if (out.contains(QStringLiteral("${")))
        return std::nullopt;
    return out;
}

// ---- devices_udev_regex -------------------------------------------------------------

// An unescaped regex literal: "0x5000c500\.x" -> "0x5000c500.x"; nullopt
// when it has any regex operator (then it is not one value).
std::optional<QString> unescapeLiteral(QStringView text)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'\\') {
            if (i + 1 >= text.size() || text[i + 1].isLetterOrNumber())
                return std::nullopt; // \d, \s ...: a class, not a character
            out += text[++i];
            continue;
        }
        if (QStringView(u".^$*+?{}[]|()").contains(c))
            return std::nullopt;
        out += c;
    }
    return out;
}

// The inverse of globToRegex for DEVNAME=/dev/... conditions.
std::optional<QString> regexToGlob(QString text)
{
    text.replace(QStringLiteral("[^/\\n]*"), QStringLiteral("*"));
    text.replace(QStringLiteral("[^/\\n]"), QStringLiteral("?"));
    text.replace(QStringLiteral("[^"), QStringLiteral("[!"));
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == u'\\' && i + 1 < text.size()) {
            out += text.at(++i);
            continue;
        }
        out += text.at(i);
    }
    if (!detail::isNameGlob(out))
        return std::nullopt;
    return out;
}

// One top-level alternation split, parentheses respected.
QStringList splitTopLevel(const QString &text, QChar sep)
{
    QStringList out;
    QString cur;
    int depth = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'\\' && i + 1 < text.size()) {
            cur += c;
            cur += text.at(++i);
            continue;
        }
        if (c == u'(')
            ++depth;
        if (c == u')')
            --depth;
        if (c == sep && depth == 0) {
            out << cur;
            cur.clear();
            continue;
        }
        cur += c;
    }
    out << cur;
    return out;
}

struct Condition
{
    QStringList keys; ///< udev property names (ID_SERIAL|ID_SERIAL_SHORT)
    QString value;    ///< literal, or the glob for DEVNAME, or the transport for ID_PATH
};

// KEY=VALUE, (K1|K2)=VALUE, KEY=(V1|V2): the alternatives it stands for.
std::optional<QList<Condition>> parseCondition(const QString &text)
{
    const qsizetype eq = text.indexOf(u'=');
    if (eq <= 0)
        return std::nullopt;
    QString keyPart = text.left(eq);
    const QString valuePart = text.mid(eq + 1);
    QStringList keys;
    if (keyPart.startsWith(u'(') && keyPart.endsWith(u')'))
        keys = keyPart.mid(1, keyPart.size() - 2).split(u'|');
    else
        keys << keyPart;
    static const QRegularExpression keyRe(QStringLiteral("^[A-Z][A-Z0-9_]*$"));
    for (const QString &k : std::as_const(keys))
        if (!keyRe.match(k).hasMatch())
            return std::nullopt;
    QList<Condition> out;
    if (keys == QStringList{QStringLiteral("ID_PATH")}) {
        static const QRegularExpression path(QStringLiteral("^\\.\\*-(iscsi|fc|sas)-\\.\\*$"));
        const QRegularExpressionMatch m = path.match(valuePart);
        if (!m.hasMatch())
            return std::nullopt;
        return QList<Condition>{Condition{keys, m.captured(1)}};
    }
    if (keys == QStringList{QStringLiteral("DEVNAME")}) {
        if (!valuePart.startsWith(QStringLiteral("/dev/")))
            return std::nullopt;
        auto glob = regexToGlob(valuePart.mid(5));
        if (!glob)
            return std::nullopt;
        return QList<Condition>{Condition{keys, *glob}};
    }
    QStringList values;
    if (valuePart.startsWith(u'(') && valuePart.endsWith(u')'))
        values = splitTopLevel(valuePart.mid(1, valuePart.size() - 2), u'|');
    else
        values << valuePart;
    for (const QString &v : std::as_const(values)) {
        auto literal = unescapeLiteral(v);
        if (!literal || literal->isEmpty())
            return std::nullopt;
        out << Condition{keys, *literal};
    }
    return out;
}

// Puts one condition into a match; false when blocktune cannot match on it.
bool applyCondition(ProfileMatch &m, const Condition &c, QString *why)
{
    const QSet<QString> keys(c.keys.cbegin(), c.keys.cend());
    auto only = [&](std::initializer_list<const char16_t *> allowed) {
        for (const QString &k : keys)
            if (std::none_of(allowed.begin(), allowed.end(), [&](const char16_t *a) { return k == QStringView(a); }))
                return false;
        return true;
    };
    auto literal = [&](QString &into, const QString &value) {
        if (!detail::isLiteralIdentity(value) || (!into.isEmpty() && into != value)) {
            *why = QStringLiteral("'%1' is not one literal value").arg(value.left(80));
            return false;
        }
        into = value;
        return true;
    };
    if (only({u"ID_WWN", u"ID_WWN_WITH_EXTENSION"}))
        return literal(m.wwn, c.value);
    if (only({u"ID_SERIAL", u"ID_SERIAL_SHORT"}))
        return literal(m.serial, c.value);
    if (only({u"DM_NAME"}))
        return literal(m.dmName, c.value);
    if (only({u"ID_MODEL"}))
        return literal(m.model, QString(c.value).replace(u'_', u' '));
    if (only({u"MD_UUID"})) {
        m.mdUuid = normalizeMdUuid(c.value);
        if (m.mdUuid.isEmpty())
            *why = QStringLiteral("MD_UUID '%1' is not an md UUID").arg(c.value.left(80));
        return !m.mdUuid.isEmpty();
    }
    if (only({u"ID_BUS"}))
        return literal(m.transport, c.value == u"ata" ? QStringLiteral("sata") : c.value);
    if (only({u"ID_PATH"}))
        return literal(m.transport, c.value);
    if (only({u"DEVNAME"})) {
        if (!m.name.isEmpty()) {
            *why = QStringLiteral("two device-name patterns in one selection");
            return false;
        }
        m.name = c.value;
        return true;
    }
    *why = QStringLiteral("blocktune matches on ID_WWN, ID_WWN_WITH_EXTENSION, ID_SERIAL(_SHORT), ID_MODEL, ID_BUS, "
                          "ID_PATH, MD_UUID, DM_NAME and DEVNAME, not on %1")
               .arg(c.keys.join(u'|'));
    return false;
}

// devices_udev_regex as blocktune can match it: alternatives of KEY=VALUE
// lines, or the lookahead form exportTuned() writes for several conditions.
Result<QList<ProfileMatch>> matchesOfRegex(const QString &regex, QStringList &notes)
{
    auto refuse = [&](const QString &why) {
        return makeError(NotSupported, QStringLiteral("devices_udev_regex '%1' is not something blocktune can match "
                                                      "on: %2").arg(regex.left(120), why));
    };
    QString why;
    if (regex.startsWith(QStringLiteral("\\A"))) {
        static const QRegularExpression part(QStringLiteral("^\\(\\?([=!])\\[\\\\s\\\\S\\]\\*\\^(.*?)\\$\\)"));
        ProfileMatch m;
        QString rest = regex.mid(2);
        while (!rest.isEmpty()) {
            const QRegularExpressionMatch pm = part.match(rest);
            if (!pm.hasMatch())
                return refuse(QStringLiteral("expected (?=[\\s\\S]*^KEY=VALUE$) parts after \\A"));
            const auto conditions = parseCondition(pm.captured(2));
            if (!conditions || conditions->size() != 1)
                return refuse(QStringLiteral("'%1' is not one KEY=VALUE").arg(pm.captured(2).left(80)));
            if (pm.captured(1) == u"!") {
                if (conditions->constFirst().keys != QStringList{QStringLiteral("DEVNAME")})
                    return refuse(QStringLiteral("only a device name can be left out"));
                m.notName << conditions->constFirst().value;
            } else if (!applyCondition(m, conditions->constFirst(), &why)) {
                return refuse(why);
            }
            rest = rest.mid(pm.capturedLength());
        }
        return QList<ProfileMatch>{m};
    }
    QList<ProfileMatch> out;
    bool unanchored = false;
    for (QString alternative : splitTopLevel(regex, u'|')) {
        const bool start = alternative.startsWith(u'^');
        const bool end = alternative.endsWith(u'$') && !alternative.endsWith(QStringLiteral("\\$"));
        if (start)
            alternative.remove(0, 1);
        if (end)
            alternative.chop(1);
        unanchored = unanchored || !start || !end;
        const auto conditions = parseCondition(alternative);
        if (!conditions)
            return refuse(QStringLiteral("'%1' is not KEY=VALUE with a literal value").arg(alternative.left(80)));
        for (const Condition &c : *conditions) {
            ProfileMatch m;
            if (!applyCondition(m, c, &why))
                return refuse(why);
            out << m;
        }
    }
    if (unanchored)
        notes << QStringLiteral("devices_udev_regex '%1' is not anchored with ^...$: tuned also takes longer values "
                                "that contain it, blocktune matches the value exactly")
                     .arg(regex.left(120));
    return out;
}

// exportTuned() writes a device type as globs (md*, dm-*, loop*; a disk as
// every name but those and sr*): read them back as the type.
void typeFromGlobs(ProfileMatch &m)
{
    static const QStringList notDisk{QStringLiteral("md*"), QStringLiteral("dm-*"), QStringLiteral("loop*"), QStringLiteral("sr*")};
    if (!m.type && std::all_of(notDisk.cbegin(), notDisk.cend(), [&](const QString &g) { return m.notName.contains(g); })) {
        for (const QString &g : notDisk)
            m.notName.removeAll(g);
        m.type = DeviceType::Disk;
    }
    if (m.type)
        return;
    if (m.name == u"md*")
        m.type = DeviceType::Md;
    else if (m.name == u"dm-*")
        m.type = DeviceType::Dm;
    else if (m.name == u"loop*")
        m.type = DeviceType::Loop;
    if (m.type)
        m.name.clear();
}

// ---- the disk plugin's options ------------------------------------------------------

// readahead = N (KiB), N s (sectors), >N / <N (KiB only: tuned compares the
// number after the sign with the current KiB).
std::optional<ProfileSetting> readaheadSetting(const QString &value, QString *why)
{
    static const QRegularExpression re(QStringLiteral("^([<>]?)\\s*(\\d{1,20})(?:\\s+(s\\S*))?$"));
    const QRegularExpressionMatch m = re.match(value);
    if (!m.hasMatch()) {
        *why = QStringLiteral("'%1' is not a readahead (N in KiB, 'N s' in 512-byte sectors, >N or <N)").arg(value.left(80));
        return std::nullopt;
    }
    quint64 n = m.captured(2).toULongLong();
    const bool sectors = !m.captured(3).isEmpty();
    if (sectors && !m.captured(1).isEmpty()) {
        *why = QStringLiteral("'%1': tuned compares > and < in KiB only (it cannot read '%2' as a number)")
                   .arg(value, value.mid(1).trimmed());
        return std::nullopt;
    }
    if (sectors)
        n /= 2; // tuned: v /= 2, written with %d
    if (n > kMaxReadAheadKiB) {
        *why = QStringLiteral("%1 KiB is more than the kernel takes (%2)").arg(n).arg(kMaxReadAheadKiB);
        return std::nullopt;
    }
    ProfileSetting s{QStringLiteral("read_ahead_kb"), QString::number(n), ValueBound::Exact};
    if (m.captured(1) == u">")
        s.bound = ValueBound::AtLeast;
    else if (m.captured(1) == u"<")
        s.bound = ValueBound::AtMost;
    return s;
}

QString skipReason(const QString &key)
{
    if (key == u"readahead_multiply")
        return QStringLiteral("it multiplies whatever readahead a device has; blocktune sets values");
    if (key == u"apm" || key == u"spindown")
        return QStringLiteral("hdparm power management, not a queue setting");
    if (key == u"scheduler_quantum")
        return QStringLiteral("CFQ's quantum, gone with CFQ in 5.0 (on a legacy kernel: iosched.quantum)");
    if (key == u"dynamic")
        return QStringLiteral("tuned's load-driven apm/spindown tuning");
    if (key == u"script_pre" || key == u"script_post")
        return QStringLiteral("blocktune runs no scripts");
    return QStringLiteral("not an option of tuned's disk plugin");
}

class Importer
{
public:
    explicit Importer(QString name) : m_name(std::move(name)) {}
    Result<TunedImport> run(const QList<LoadedProfile> &profiles, const QString &source);

private:
    void importUnit(const Unit &u, const QHash<QString, QString> &variables, QList<ProfileRule> &rules);
    void error(const QString &message) { m_errors << message; }

    QString m_name;
    TunedImport m_out;
    QStringList m_errors;
};

void Importer::importUnit(const Unit &u, const QHash<QString, QString> &variables, QList<ProfileRule> &rules)
{
    const QString section = QStringLiteral("[%1]").arg(u.name);
    QList<ProfileSetting> settings;
    for (const IniOption &o : u.options) {
        const QString where = at(o.file, o.line);
        const auto value = expand(o.value, variables);
        if (!value) {
            m_out.skipped << QStringLiteral("%1 %2=%3 (%4): uses a tuned variable or function blocktune does not evaluate")
                                 .arg(section, o.key, o.value, where);
            continue;
        }
        QString why;
        if (o.key == u"elevator") {
            if (!detail::isSchedulerName(*value)) {
                error(QStringLiteral("%1: elevator '%2' is not a scheduler name (such as mq-deadline, bfq, none)")
                          .arg(where, value->left(80)));
                continue;
            }
            settings << ProfileSetting{QStringLiteral("scheduler"), *value, ValueBound::Exact};
        } else if (o.key == u"readahead") {
            if (auto s = readaheadSetting(*value, &why))
                settings << *s;
            else
                error(QStringLiteral("%1: %2").arg(where, why));
        } else {
            m_out.skipped << QStringLiteral("%1 %2=%3 (%4): %5").arg(section, o.key, o.value, where, skipReason(o.key));
        }
    }
    if (settings.isEmpty()) {
        m_out.skipped << QStringLiteral("%1 (%2): nothing blocktune applies").arg(section, at(u.file, u.line));
        return;
    }
    detail::sortSettings(settings);

    QList<ProfileMatch> matches;
    if (u.udevRegex) {
        if (u.devices != u"*")
            m_out.notes << QStringLiteral("%1: tuned ignores devices=%2 when devices_udev_regex is given, so does "
                                          "blocktune").arg(section, u.devices);
        const auto expanded = expand(u.udevRegex->value, variables);
        auto parsed = expanded ? matchesOfRegex(*expanded, m_out.notes)
                               : Result<QList<ProfileMatch>>(makeError(NotSupported, QStringLiteral("it uses a tuned "
                                                                                                      "variable or function")));
        if (!parsed) {
            m_out.skipped << QStringLiteral("%1 (%2) with its %3 setting(s): %4")
                                 .arg(section, at(u.udevRegex->file, u.udevRegex->line))
                                 .arg(settings.size())
                                 .arg(parsed.error().message);
            return;
        }
        matches = *parsed;
    } else {
        static const QRegularExpression split(QStringLiteral("[,\\s]+"));
        QStringList positive, negative;
        const auto devices = expand(u.devices, variables);
        for (const QString &item : (devices ? *devices : u.devices).split(split, Qt::SkipEmptyParts)) {
            const bool exclude = item.startsWith(u'!');
            const QString glob = exclude ? item.mid(1) : item;
            if (!devices || !detail::isNameGlob(glob)) {
                m_out.skipped << QStringLiteral("%1 (%2): devices=%3 is not a list of kernel-name globs blocktune reads")
                                     .arg(section, at(u.file, u.line), u.devices.left(80));
                return;
            }
            (exclude ? negative : positive) << glob;
        }
        if (positive.isEmpty() || positive.contains(QStringLiteral("*")))
            positive = QStringList{QString()};
        for (const QString &glob : std::as_const(positive)) {
            ProfileMatch m;
            m.name = glob;
            m.notName = negative;
            matches << m;
        }
        if (positive == QStringList{QString()})
            m_out.notes << QStringLiteral("%1 takes every disk: tuned leaves out removable ones, blocktune's rule takes "
                                          "every device with a queue").arg(section);
    }
    for (ProfileMatch m : std::as_const(matches)) {
        typeFromGlobs(m);
        rules << ProfileRule{m, settings, QStringLiteral("from %1 of %2").arg(section, at(u.file, u.line))};
    }
}

Result<TunedImport> Importer::run(const QList<LoadedProfile> &profiles, const QString &source)
{
    Merged merged;
    for (const LoadedProfile &p : profiles) {
        mergeProfile(merged, p);
        m_out.files << p.path;
    }
    for (const IniOption &o : std::as_const(merged.main)) {
        if (o.key == u"summary")
            m_out.profile.description = o.value;
        else if (o.key != u"include")
            m_out.skipped << QStringLiteral("[main] %1=%2 (%3): not a block-device setting")
                                 .arg(o.key, o.value.left(80), at(o.file, o.line));
    }
    // tuned hands each device to one disk unit, lowest priority number first
    // (ties in profile order); blocktune's later rules win, so those units go last.
    QList<Unit> disks;
    for (const Unit &u : std::as_const(merged.units)) {
        if (u.type != u"disk") {
            m_out.skipped << QStringLiteral("[%1] (%2, %3): the %4 plugin's %5 option(s) are not block-device settings")
                                 .arg(u.name, u.enabled ? QStringLiteral("enabled") : QStringLiteral("disabled"),
                                      at(u.file, u.line), u.type)
                                 .arg(u.options.size());
            continue;
        }
        if (!u.enabled) {
            m_out.skipped << QStringLiteral("[%1] (%2): disabled (enabled is not true)").arg(u.name, at(u.file, u.line));
            continue;
        }
        disks << u;
    }
    std::stable_sort(disks.begin(), disks.end(), [](const Unit &a, const Unit &b) { return a.priority < b.priority; });
    std::reverse(disks.begin(), disks.end());
    for (const Unit &u : std::as_const(disks))
        importUnit(u, merged.variables, m_out.profile.rules);
    if (disks.size() > 1)
        m_out.notes << QStringLiteral("tuned gives each device to one [disk] section; blocktune applies every rule that "
                                      "matches. The rules are ordered so the section tuned would choose wins where "
                                      "both match; a setting only the other section has applies too in blocktune");
    if (!m_errors.isEmpty())
        return makeError(InvalidArgument, m_errors.join(u'\n'));
    if (m_out.profile.rules.isEmpty())
        return makeError(NotFound, QStringLiteral("%1: nothing to import: no disk section with elevator= or readahead= "
                                                  "blocktune applies%2")
                                       .arg(source, m_out.skipped.isEmpty() ? QString()
                                                                            : QStringLiteral(" (skipped:\n  %1)")
                                                                                  .arg(m_out.skipped.join(QStringLiteral("\n  ")))));
    m_out.profile.name = m_name;
    if (m_out.profile.description.isEmpty())
        m_out.profile.description = QStringLiteral("Imported from the tuned profile %1.").arg(source);
    m_out.profile.source = source;
    return m_out;
}

QString chooseName(const QString &requested, const QString &fromPath)
{
    if (!requested.isEmpty())
        return requested;
    return isValidProfileName(fromPath) ? fromPath : QStringLiteral("imported");
}

} // namespace

namespace {

// What a /proc and /sys tree shows of a hypervisor, strongest first; the
// live machine asks systemd-detect-virt before this.
std::optional<QString> hypervisorCpuFlag(const SysRoot &root, bool *cpuinfoRead)
{
    const QByteArray path = root.procPath("cpuinfo");
    const auto cpuinfo = root.readFile(path, 1 << 20);
    *cpuinfoRead = cpuinfo.ok();
    if (!cpuinfo)
        return std::nullopt;
    // The CPUID bit (leaf 1, ecx bit 31) that every x86 hypervisor sets for
    // its guests; the kernel lists it as "hypervisor" (arch/x86/kernel/cpu).
    static const QRegularExpression flag(QStringLiteral("^flags\\s*:.*\\bhypervisor\\b"),
                                         QRegularExpression::MultilineOption);
    if (!flag.match(QString::fromLatin1(*cpuinfo)).hasMatch())
        return std::nullopt;
    return QStringLiteral("the hypervisor flag in %1").arg(root.displayPath(path));
}

std::optional<QString> hypervisorType(const SysRoot &root)
{
    // Xen (and s390 under z/VM) fill /sys/hypervisor/type for their guests.
    const QByteArray path = root.sysPath("hypervisor/type");
    const auto type = root.readString(path);
    if (!type || type->trimmed().isEmpty())
        return std::nullopt;
    return QStringLiteral("%1 says %2").arg(root.displayPath(path), type->trimmed().left(40));
}

std::optional<QString> hypervisorDmi(const SysRoot &root, bool *dmiRead)
{
    // systemd's detect_vm_dmi_vendor(): the files in this order, a value
    // that starts with one of these names (product_name first, so KVM over
    // QEMU shows as KVM; product_version for Hyper-V).
    static const char *const files[] = {"class/dmi/id/product_name", "class/dmi/id/sys_vendor", "class/dmi/id/board_vendor",
                                        "class/dmi/id/bios_vendor", "class/dmi/id/product_version"};
    static const QStringList vendors{
        QStringLiteral("KVM"),        QStringLiteral("OpenStack"), QStringLiteral("KubeVirt"),
        QStringLiteral("Amazon EC2"), QStringLiteral("QEMU"),      QStringLiteral("VMware"),
        QStringLiteral("VMW"),        QStringLiteral("innotek GmbH"), QStringLiteral("VirtualBox"),
        QStringLiteral("Oracle Corporation"), QStringLiteral("Xen"), QStringLiteral("Bochs"),
        QStringLiteral("Parallels"),  QStringLiteral("BHYVE"),     QStringLiteral("Hyper-V"),
        QStringLiteral("Apple Virtualization"), QStringLiteral("Google Compute Engine")};
    *dmiRead = false;
    for (const char *file : files) {
        const QByteArray path = root.sysPath(file);
        const auto value = root.readString(path);
        if (!value)
            continue;
        *dmiRead = true;
        for (const QString &v : vendors) {
            if (!value->startsWith(v))
                continue;
            // An EC2 bare-metal instance says Amazon EC2 too; its product
            // name ends in ".metal" (systemd's detect_vm_dmi()).
            const auto product = root.readString(root.sysPath("class/dmi/id/product_name"));
            if (v == u"Amazon EC2" && product && QRegularExpression(QStringLiteral("\\.metal(-|$)")).match(*product).hasMatch())
                return std::nullopt;
            return QStringLiteral("%1 says '%2'").arg(root.displayPath(path), value->left(80));
        }
    }
    return std::nullopt;
}

// systemd-detect-virt on the live machine: its verdict, or nullopt when it
// is not there (or does not answer).
std::optional<Virtualisation> askSystemdDetectVirt()
{
    QProcess detect;
    detect.start(QStringLiteral("systemd-detect-virt"), {});
    if (!detect.waitForStarted(2000) || !detect.waitForFinished(2000) || detect.exitStatus() != QProcess::NormalExit)
        return std::nullopt;
    // Exit 0 when it finds a hypervisor or a container; it prints which.
    const QString said = QString::fromLocal8Bit(detect.readAllStandardOutput()).trimmed().left(40);
    return Virtualisation{detect.exitCode() == 0, QStringLiteral("systemd-detect-virt says %1").arg(said)};
}

} // namespace

Virtualisation detectVirtualisation(const SysRoot &root)
{
    if (root.isLive())
        if (auto asked = askSystemdDetectVirt())
            return *asked;
    bool cpuinfoRead = false, dmiRead = false;
    if (auto flag = hypervisorCpuFlag(root, &cpuinfoRead))
        return Virtualisation{true, *flag};
    if (auto type = hypervisorType(root))
        return Virtualisation{true, *type};
    if (auto dmi = hypervisorDmi(root, &dmiRead))
        return Virtualisation{true, *dmi};
    const QString where = root.isLive() ? QStringLiteral("this machine") : QStringLiteral("the tree %1").arg(root.root());
    if (!cpuinfoRead && !dmiRead)
        return Virtualisation{false, QStringLiteral("%1 has no proc/cpuinfo and no DMI strings "
                                                    "(sys/class/dmi/id) to tell: taken as bare metal").arg(where)};
    return Virtualisation{false, QStringLiteral("%1 shows no hypervisor: no hypervisor flag in proc/cpuinfo, no "
                                                "sys/hypervisor/type, no hypervisor's name in its DMI strings").arg(where)};
}

Result<TunedImport> importTunedProfile(const QString &tunedConfPath, const QString &name, const SysRoot &machine,
                                       std::optional<bool> virtualMachine)
{
    if (!name.isEmpty() && !isValidProfileName(name))
        return makeError(InvalidArgument, QStringLiteral("'%1' is not a profile name (letters, digits, _ . -)").arg(name.left(64)));
    IncludeContext context(machine);
    if (virtualMachine) {
        context.virtualisation = Virtualisation{*virtualMachine, QStringLiteral("as the import was told")};
        context.virtualisationKnown = true;
    }
    QList<LoadedProfile> loaded;
    if (Status st = loadWithIncludes(tunedConfPath, context, loaded); !st)
        return st.error();
    Importer importer(chooseName(name, profileNameOf(tunedConfPath)));
    auto out = importer.run(loaded, tunedConfPath);
    if (out)
        out->notes = context.notes + out->notes;
    return out;
}

Result<TunedImport> importTunedText(const QByteArray &text, const QString &source, const QString &name)
{
    auto sections = parseIni(text, source);
    if (!sections)
        return sections.error();
    Importer importer(chooseName(name, QStringLiteral("imported")));
    auto out = importer.run({LoadedProfile{QStringLiteral("imported"), source, *sections}}, source);
    if (out)
        for (const IniSection &s : std::as_const(*sections))
            for (const IniOption &o : s.options)
                if (s.name == u"main" && o.key == u"include")
                    out->skipped << QStringLiteral("[main] include=%1 (%2): not resolved for a text without its folder")
                                        .arg(o.value, at(o.file, o.line));
    return out;
}

} // namespace blocktune
