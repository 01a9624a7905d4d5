// udev rules files blocktune installs: the one place the helper writes
// outside sysfs, so what it writes is checked to be exactly what
// blocktune's exporter makes, in exactly one folder, under names of one form.
#include "privilege.h"

#include <QProcess>
#include <QProcessEnvironment>

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blocktune {

namespace {

bool isDigits(QStringView s, qsizetype maxLen = 20)
{
    return !s.isEmpty() && s.size() <= maxLen
           && std::all_of(s.cbegin(), s.cend(), [](QChar c) { return c >= u'0' && c <= u'9'; });
}

bool onlyChars(QStringView s, QStringView allowed)
{
    return std::all_of(s.cbegin(), s.cend(), [&](QChar c) {
        const char16_t u = c.unicode();
        return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || allowed.contains(c);
    });
}

// A value matched literally or as a udev pattern: printable ASCII, and none
// of what udev would substitute ($, %) or what would end the value.
bool isPlainMatchValue(QStringView s)
{
    return !s.isEmpty() && s.size() <= 256 && std::all_of(s.cbegin(), s.cend(), [](QChar c) {
        const char16_t u = c.unicode();
        return u >= 0x20 && u < 0x7f && u != u'"' && u != u'\\' && u != u'$' && u != u'%';
    });
}

struct Token
{
    QString key;  ///< ACTION, ENV{ID_WWN}, ATTR{queue/read_ahead_kb}
    QString op;   ///< ==, !=, =
    QString value;
};

// KEY[{ATTR}]OP"VALUE" separated by ", ": the only shape the exporter writes.
std::optional<QList<Token>> tokenize(QStringView line)
{
    QList<Token> out;
    qsizetype i = 0;
    while (i < line.size()) {
        Token t;
        const qsizetype start = i;
        while (i < line.size() && ((line[i] >= u'A' && line[i] <= u'Z') || line[i] == u'_'))
            ++i;
        if (i == start)
            return std::nullopt;
        if (i < line.size() && line[i] == u'{') {
            const qsizetype close = line.indexOf(u'}', i);
            if (close < 0 || !onlyChars(line.mid(i + 1, close - i - 1), u"_/"))
                return std::nullopt;
            i = close + 1;
        }
        t.key = line.mid(start, i - start).toString();
        if (line.mid(i, 2) == u"==" || line.mid(i, 2) == u"!=") {
            t.op = line.mid(i, 2).toString();
            i += 2;
        } else if (line.mid(i, 1) == u"=") {
            t.op = QStringLiteral("=");
            i += 1;
        } else {
            return std::nullopt;
        }
        if (i >= line.size() || line[i] != u'"')
            return std::nullopt;
        const qsizetype close = line.indexOf(u'"', i + 1);
        if (close < 0)
            return std::nullopt;
        t.value = line.mid(i + 1, close - i - 1).toString();
        i = close + 1;
        out << t;
        if (i == line.size())
            break;
        // A separator is always followed by another KEY: a line never ends ", ".
        if (line.mid(i, 2) != u", " || i + 2 == line.size())
            return std::nullopt;
        i += 2;
    }
    return out;
}

QString checkMatch(const Token &t)
{
    static const QStringList literalEnv{QStringLiteral("ENV{ID_MODEL}"), QStringLiteral("ENV{ID_SERIAL}"),
                                        QStringLiteral("ENV{ID_WWN}"), QStringLiteral("ENV{ID_WWN_WITH_EXTENSION}"),
                                        QStringLiteral("ENV{MD_UUID}"), QStringLiteral("ENV{DM_NAME}"),
                                        QStringLiteral("ENV{ID_BUS}"), QStringLiteral("ENV{ID_PATH}")};
    if (t.key == u"KERNEL")
        return onlyChars(t.value, u"_.:-*?[]!|") && !t.value.isEmpty() ? QString() : QStringLiteral("KERNEL pattern");
    if (t.op != u"==")
        return QStringLiteral("only KERNEL may be matched with !=");
    if (t.key == u"ATTR{queue/rotational}")
        return t.value == u"0" || t.value == u"1" ? QString() : QStringLiteral("rotational must be 0 or 1");
    if (t.key == u"TEST") {
        const bool ok = t.value == u"queue/scheduler" || t.value == u"queue/context_readahead"
                        || (t.value.startsWith(u"queue/iosched/") && t.value.size() > 14
                            && onlyChars(QStringView(t.value).mid(14), u"_"));
        return ok ? QString() : QStringLiteral("TEST of '%1'").arg(t.value.left(64));
    }
    if (literalEnv.contains(t.key))
        return isPlainMatchValue(t.value) ? QString() : QStringLiteral("value of %1").arg(t.key);
    return QStringLiteral("the match %1").arg(t.key.left(64));
}

QString checkAssignment(const Token &t)
{
    if (t.key == u"ATTR{queue/read_ahead_kb}" || t.key == u"ATTR{queue/nr_requests}"
        || t.key == u"ATTR{queue/max_sectors_kb}")
        return isDigits(t.value) ? QString() : QStringLiteral("%1 must be a number").arg(t.key);
    if (t.key == u"ATTR{queue/context_readahead}")
        return t.value == u"0" || t.value == u"1" ? QString() : QStringLiteral("context_readahead must be 0 or 1");
    if (t.key == u"ATTR{queue/scheduler}")
        return !t.value.isEmpty() && t.value.size() <= 32 && onlyChars(t.value, u"_-") ? QString()
                                                                                       : QStringLiteral("scheduler name");
    if (t.key.startsWith(u"ATTR{queue/iosched/") && onlyChars(QStringView(t.key).mid(19).chopped(1), u"_")
        && t.key.size() > 20)
        return isDigits(t.value) ? QString() : QStringLiteral("%1 must be a number").arg(t.key);
    return QStringLiteral("the assignment %1").arg(t.key.left(64));
}

QString checkRuleLine(QStringView line)
{
    const auto tokens = tokenize(line);
    if (!tokens)
        return QStringLiteral("not a list of KEY==\"VALUE\" / KEY=\"VALUE\" separated by \", \"");
    if (tokens->size() < 4 || tokens->at(0).key != u"ACTION" || tokens->at(0).op != u"=="
        || tokens->at(0).value != u"add|change" || tokens->at(1).key != u"SUBSYSTEM" || tokens->at(1).op != u"=="
        || tokens->at(1).value != u"block" || tokens->at(2).key != u"ENV{DEVTYPE}" || tokens->at(2).op != u"=="
        || tokens->at(2).value != u"disk")
        return QStringLiteral("every rule starts ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\"");
    bool assigning = false;
    for (qsizetype i = 3; i < tokens->size(); ++i) {
        const Token &t = tokens->at(i);
        if (t.op == u"=") {
            assigning = true;
            if (const QString why = checkAssignment(t); !why.isEmpty())
                return QStringLiteral("%1 is not one blocktune writes").arg(why);
        } else {
            if (assigning)
                return QStringLiteral("a match after an assignment");
            if (const QString why = checkMatch(t); !why.isEmpty())
                return QStringLiteral("%1 is not one blocktune writes").arg(why);
        }
    }
    return assigning ? QString() : QStringLiteral("a rule that sets nothing");
}

QByteArray rulesDirectory(const SysRoot &root)
{
    return root.root().toLocal8Bit() + "/etc/udev/rules.d";
}

// rules.d below the root folder, no component a link: with a tree's
// etc/udev swapped for a link to the real /etc/udev, root would otherwise
// write into the machine's rules while its answer named the tree.
Result<int> openRulesDirectory(const SysRoot &root, UniqueFd &dir)
{
    const QByteArray path = rulesDirectory(root);
    auto top = root.openRootFolder();
    if (!top)
        return top.error();
    auto opened = safeopen::openBeneath(top->get(), "etc/udev/rules.d", O_RDONLY | O_DIRECTORY);
    if (!opened) {
        const int e = opened.error().code;
        if (e == ENOENT)
            return makeError(NotFound, QStringLiteral("%1 does not exist: udev is not installed here (install it, or "
                                                      "copy the output of `profile export --format udev` to a machine "
                                                      "that runs udev)")
                                           .arg(QString::fromLocal8Bit(path)));
        return makeError(e == ELOOP ? int(Refused) : e, QStringLiteral("cannot open %1: %2")
                                                            .arg(QString::fromLocal8Bit(path), opened.error().message));
    }
    dir = std::move(*opened);
    return dir.get();
}

// An existing file of that name: a regular file blocktune generated, or
// nothing we touch.
Result<bool> existingIsOurs(int dirFd, const QByteArray &name, const QString &shown)
{
    struct stat st {};
    if (::fstatat(dirFd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT)
            return false;
        return makeError(errno, QStringLiteral("cannot look at %1: %2").arg(shown, errnoText(errno)));
    }
    if (!S_ISREG(st.st_mode))
        return makeError(Refused, QStringLiteral("%1 is not a regular file (a link or something else): left alone").arg(shown));
    const int fd = ::openat(dirFd, name.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return makeError(errno, QStringLiteral("cannot read %1: %2").arg(shown, errnoText(errno)));
    char head[64] = {};
    const ssize_t n = ::read(fd, head, sizeof head);
    ::close(fd);
    if (n < qsizetype(kUdevRulesMarker.size()) || QByteArrayView(head, kUdevRulesMarker.size()) != QByteArrayView(kUdevRulesMarker.data(), kUdevRulesMarker.size()))
        return makeError(Refused, QStringLiteral("%1 was not written by blocktune (its first line is not \"%2 ...\"): "
                                                 "left alone").arg(shown, QString(kUdevRulesMarker)));
    return true;
}

// The file a request names, checked: its folder open (not through a link),
// and whether a file of that name is there (and blocktune's).
struct RulesTarget
{
    UniqueFd dir;
    QByteArray name;
    UdevRulesResult result;
};

Status openTarget(const SysRoot &root, const QString &fileName, RulesTarget &t)
{
    if (Status st = checkUdevRulesName(fileName); !st)
        return st;
    if (auto fd = openRulesDirectory(root, t.dir); !fd)
        return fd.error();
    t.name = fileName.toLocal8Bit();
    t.result.path = QString::fromLocal8Bit(rulesDirectory(root)) + u'/' + fileName;
    auto ours = existingIsOurs(t.dir.get(), t.name, t.result.path);
    if (!ours)
        return ours.error();
    t.result.replaced = *ours;
    return {};
}

// udevadm by absolute path only, with a clean environment: the helper runs
// as root on behalf of a user.
QString findUdevadm()
{
    for (const char *path : {"/usr/bin/udevadm", "/bin/udevadm", "/usr/sbin/udevadm", "/sbin/udevadm"}) {
        struct stat st {};
        if (::stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == 0 && !(st.st_mode & 0022)
            && (st.st_mode & 0100))
            return QString::fromLatin1(path);
    }
    return {};
}

void reloadUdev(const SysRoot &root, UdevRulesResult &result)
{
    if (!root.isLive()) {
        result.message = QStringLiteral("a recorded tree: udevadm was not run");
        return;
    }
    struct stat st {};
    // systemd-udevd listens on this socket while it runs (udevadm control uses it).
    result.udevdRunning = ::stat("/run/udev/control", &st) == 0;
    if (!result.udevdRunning) {
        result.message = QStringLiteral("udevd does not run here: the rules take effect when it starts (the next boot); "
                                        "apply the profile now with blocktune-cli profile apply");
        return;
    }
    const QString udevadm = findUdevadm();
    if (udevadm.isEmpty()) {
        result.message = QStringLiteral("udevd runs, but no root-owned udevadm was found in /usr/bin, /bin, /usr/sbin or "
                                        "/sbin: run udevadm control --reload && udevadm trigger --action=change "
                                        "--subsystem-match=block yourself");
        return;
    }
    QProcessEnvironment env;
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/sbin:/usr/bin:/sbin:/bin"));
    for (const QStringList &args : {QStringList{QStringLiteral("control"), QStringLiteral("--reload")},
                                    QStringList{QStringLiteral("trigger"), QStringLiteral("--action=change"),
                                                QStringLiteral("--subsystem-match=block")}}) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(udevadm, args);
        const bool done = p.waitForStarted(5000) && p.waitForFinished(30000);
        if (!done)
            p.kill();
        const QString shown = udevadm + u' ' + args.join(u' ');
        const bool ok = done && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        result.commands << (ok ? shown + QStringLiteral(": ok")
                               : QStringLiteral("%1: failed (%2)").arg(shown, done ? QString::fromLocal8Bit(p.readAll()).trimmed().left(200)
                                                                                     : QStringLiteral("did not finish")));
        if (!ok) {
            result.message = QStringLiteral("the rules file is in place, but %1 failed: run it again by hand").arg(shown);
            return;
        }
    }
    result.message = QStringLiteral("udev reloaded its rules and replayed change events for block devices");
}

} // namespace

Status checkUdevRulesName(const QString &fileName)
{
    // NN-blocktune-NAME.rules, NAME a profile name: no '/', no "..".
    const QString allowed = QStringLiteral("NN-blocktune-NAME.rules (two digits, a profile name of letters, digits, "
                                           "_ . -)");
    if (fileName.size() < 20 || fileName.size() > 100 || !isDigits(QStringView(fileName).left(2), 2)
        || QStringView(fileName).mid(2, 11) != u"-blocktune-" || !fileName.endsWith(u".rules"))
        return makeError(Refused, QStringLiteral("'%1' is not a blocktune rules file name (%2)").arg(fileName.left(100), allowed));
    const QStringView name = QStringView(fileName).mid(13).chopped(6);
    if (name.isEmpty() || name.contains(u"..") || !onlyChars(name, u"_.-") || name.front() == u'.' || name.front() == u'-')
        return makeError(Refused, QStringLiteral("'%1' is not a blocktune rules file name (%2)").arg(fileName.left(100), allowed));
    return {};
}

Status checkUdevRulesContent(const QByteArray &content)
{
    if (content.size() > kMaxUdevRulesBytes)
        return makeError(Refused, QStringLiteral("rules content of %1 bytes refused (at most %2)")
                                      .arg(content.size()).arg(kMaxUdevRulesBytes));
    if (!content.startsWith(QByteArray(kUdevRulesMarker.data(), kUdevRulesMarker.size())))
        return makeError(Refused, QStringLiteral("rules content must start with the line \"%1 ...\" (blocktune writes only "
                                                 "what its exporter generated)").arg(QString(kUdevRulesMarker)));
    if (!content.endsWith('\n'))
        return makeError(Refused, QStringLiteral("rules content must end with a newline"));
    const QString text = QString::fromUtf8(content);
    if (text.toUtf8() != content || text.contains(QChar(0xfffd)))
        return makeError(Refused, QStringLiteral("rules content is not UTF-8 text"));
    const QStringList lines = text.split(u'\n');
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        const QString &line = lines.at(i);
        const bool control = std::any_of(line.cbegin(), line.cend(),
                                         [](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
        if (control)
            return makeError(Refused, QStringLiteral("rules line %1 has a control character").arg(i + 1));
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        if (line.size() > 4096)
            return makeError(Refused, QStringLiteral("rules line %1 is longer than 4096 characters").arg(i + 1));
        if (const QString why = checkRuleLine(line); !why.isEmpty())
            return makeError(Refused, QStringLiteral("rules line %1 refused: %2").arg(i + 1).arg(why));
    }
    return {};
}

Result<UdevRulesResult> installUdevRules(const SysRoot &root, const QString &fileName, const QByteArray &content)
{
    if (Status st = checkUdevRulesContent(content); !st)
        return st.error();
    RulesTarget t;
    if (Status st = openTarget(root, fileName, t); !st)
        return st.error();
    // Temp file, fsync, rename over: udev never reads half a file, and a
    // link planted under the final name is refused, never followed.
    const QByteArray temp = "." + t.name + ".tmp";
    ::unlinkat(t.dir.get(), temp.constData(), 0);
    if (Status st = safeopen::replaceFile(t.dir.get(), t.name, temp, content, 0644, t.result.path); !st)
        return st.error();
    reloadUdev(root, t.result);
    return t.result;
}

Result<UdevRulesResult> removeUdevRules(const SysRoot &root, const QString &fileName)
{
    RulesTarget t;
    if (Status st = openTarget(root, fileName, t); !st)
        return st.error();
    if (!t.result.replaced)
        return makeError(NotFound, QStringLiteral("%1 is not installed: nothing to remove").arg(t.result.path));
    if (::unlinkat(t.dir.get(), t.name.constData(), 0) != 0)
        return makeError(errno, QStringLiteral("cannot remove %1: %2").arg(t.result.path, errnoText(errno)));
    ::fsync(t.dir.get());
    reloadUdev(root, t.result);
    return t.result;
}

QStringList installedUdevRules(const SysRoot &root, const QString &profileName)
{
    QStringList out;
    UniqueFd dir;
    if (!openRulesDirectory(root, dir))
        return out;
    const QString suffix = QStringLiteral("-blocktune-") + profileName + QStringLiteral(".rules");
    // The folder just opened, listed through its descriptor; the names are
    // checked again by the op.
    SysDir listing = SysDir::open("/proc/self/fd/" + QByteArray::number(dir.get()));
    for (const QString &entry : listing.list())
        if (entry.size() == suffix.size() + 2 && entry.endsWith(suffix) && checkUdevRulesName(entry).ok())
            out << entry;
    std::sort(out.begin(), out.end());
    return out;
}

Result<UdevRulesPreview> previewUdevRules(const SysRoot &root, RulesChange change, const QString &fileName,
                                          const QByteArray &content)
{
    if (change == RulesChange::Install)
        if (Status st = checkUdevRulesContent(content); !st)
            return st.error();
    RulesTarget t;
    if (Status st = openTarget(root, fileName, t); !st)
        return st.error();
    UdevRulesPreview preview{t.result.path, std::nullopt};
    if (!t.result.replaced)
        return preview;
    auto file = safeopen::openBeneath(t.dir.get(), t.name, O_RDONLY);
    if (!file)
        return makeError(file.error().code, QStringLiteral("cannot read %1: %2").arg(preview.path, file.error().message));
    QByteArray text;
    char buf[8192];
    ssize_t n = 0;
    // Ours are at most kMaxUdevRulesBytes; one more tells a foreign giant.
    while (text.size() <= kMaxUdevRulesBytes && (n = ::read(file->get(), buf, sizeof buf)) > 0)
        text.append(buf, n);
    const int err = n < 0 ? errno : 0;
    if (err)
        return makeError(err, QStringLiteral("cannot read %1: %2").arg(preview.path, errnoText(err)));
    preview.current = text;
    return preview;
}

} // namespace blocktune
