// The allowlist and value rules every write passes, in-process or in the
// helper. The helper runs as root on behalf of a user, so each check assumes
// the request was written by someone hostile.
#include "privilege.h"

#include <QSet>

#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blocktune {

namespace {

constexpr qsizetype kMaxValueLength = 64;
constexpr qsizetype kMaxTunableName = 64;

const QStringList &queueAttributes()
{
    static const QStringList names{QString(attribute::ReadAheadKb), QString(attribute::Scheduler),
                                   QString(attribute::NrRequests), QString(attribute::MaxSectorsKb),
                                   QString(attribute::ContextReadahead)};
    return names;
}

QString allowedAttributesText()
{
    return queueAttributes().join(u", ") + u", iosched/NAME, " + attribute::VmContextReadahead;
}

bool isTunableName(QStringView name)
{
    if (name.isEmpty() || name.size() > kMaxTunableName)
        return false;
    for (QChar c : name) {
        const char16_t u = c.unicode();
        if (!((u >= u'a' && u <= u'z') || (u >= u'0' && u <= u'9') || u == u'_'))
            return false;
    }
    return true;
}

bool isSchedulerName(QStringView name)
{
    if (name.isEmpty() || name.size() > 32)
        return false;
    for (QChar c : name) {
        const char16_t u = c.unicode();
        if (!((u >= u'a' && u <= u'z') || (u >= u'0' && u <= u'9') || u == u'_' || u == u'-'))
            return false;
    }
    return true;
}

// `what` below the disk directory must be of `mode` and not a symlink.
// sysfs never has symlinks at these places; a recorded tree might, and the
// directory follows none (SysRoot::openDevice).
bool isPlain(const SysDir &dir, const QByteArray &relative, mode_t mode)
{
    return dir.fileType(relative.constData()) == mode;
}

} // namespace

Result<SysDir> openBlockDevice(const SysRoot &root, const QString &device)
{
    if (device.isEmpty())
        return makeError(InvalidArgument, QStringLiteral("no device named in the request"));
    if (!SysRoot::isPlausibleKernelName(device))
        return makeError(InvalidArgument,
                         QStringLiteral("'%1' is not a block device kernel name (no '/', no '..', "
                                        "no spaces or control characters, at most 64 characters)")
                             .arg(device));
    auto dir = root.openDevice(device);
    if (!dir)
        return dir.error();
    if (!dir->exists("dev"))
        return makeError(NotFound, QStringLiteral("'%1' is not a block device (no dev attribute)").arg(device));
    return dir;
}

namespace {

// The disk's real sysfs directory, after every check on the name.
Result<SysDir> openDisk(const SysRoot &root, const QString &device)
{
    auto opened = openBlockDevice(root, device);
    if (!opened)
        return opened.error();
    SysDir dir = std::move(*opened);
    const QString real = QString::fromLocal8Bit(dir.path());
    if (!isPlain(dir, "queue", S_IFDIR)) {
        if (dir.exists("partition")) {
            const QString disk = real.section(u'/', -2, -2);
            return makeError(Refused, QStringLiteral("%1 is a partition: its queue settings belong to "
                                                     "the whole disk %2; name %2")
                                          .arg(device, disk));
        }
        return makeError(NotSupported, QStringLiteral("%1 has no queue/ directory").arg(device));
    }
    return dir;
}

QString activeScheduler(const SysDir &disk)
{
    if (auto choice = disk.readBracketChoice("queue/scheduler"))
        return choice->active;
    return {};
}

Error badValue(const AttributeWrite &r, const QString &why)
{
    return makeError(InvalidArgument, QStringLiteral("%1 '%2' on %3: %4")
                                          .arg(r.attribute, r.value,
                                               r.device.isEmpty() ? QStringLiteral("this machine") : r.device,
                                               why));
}

Status checkNumber(const AttributeWrite &r, const std::optional<NumberRange> &range, const QString &unit)
{
    if (!range)
        return badValue(r, QStringLiteral("not settable here"));
    const QString allowed = QStringLiteral("allowed: %1 to %2%3").arg(range->min).arg(range->max).arg(unit);
    if (!isPlainDecimal(r.value))
        return badValue(r, QStringLiteral("not a whole decimal number (%1)").arg(allowed));
    const auto v = sysfs::parseU64(r.value.toLatin1());
    if (!v || !range->contains(*v))
        return badValue(r, QStringLiteral("out of range (%1)").arg(allowed));
    return {};
}

Status checkValue(const SysRoot &root, const SysDir &disk, const AttributeWrite &r)
{
    if (r.value.size() > kMaxValueLength)
        return badValue(r, QStringLiteral("longer than %1 characters").arg(kMaxValueLength));
    for (QChar c : r.value)
        if (c.unicode() < 0x20 || c.unicode() > 0x7e)
            return makeError(InvalidArgument,
                             QStringLiteral("%1 on %2: the value must be one line of printable ASCII")
                                 .arg(r.attribute, r.device));

    if (r.attribute == attribute::ReadAheadKb)
        return checkNumber(r, NumberRange{0, kMaxReadAheadKiB}, QStringLiteral(" KiB"));
    if (r.attribute == attribute::NrRequests)
        return checkNumber(r, nrRequestsRange(disk, activeScheduler(disk)), QString());
    if (r.attribute == attribute::MaxSectorsKb)
        return checkNumber(r, maxSectorsRange(root, disk), QStringLiteral(" KiB"));
    if (r.attribute == attribute::ContextReadahead || r.attribute == attribute::VmContextReadahead) {
        if (r.value != u"0" && r.value != u"1")
            return badValue(r, QStringLiteral("a switch (allowed: 0, 1)"));
        return {};
    }
    if (r.attribute == attribute::Scheduler) {
        const auto choice = disk.readBracketChoice("queue/scheduler");
        if (!choice)
            return makeError(NotSupported, QStringLiteral("%1 has no readable scheduler list").arg(r.device));
        if (!isSchedulerName(r.value) || !choice->choices.contains(r.value))
            return makeError(InvalidArgument,
                             QStringLiteral("scheduler '%1' is not available on %2 (available: %3)")
                                 .arg(r.value, r.device, choice->choices.join(u", ")));
        return {};
    }
    if (r.attribute.startsWith(attribute::IoschedPrefix)) {
        // Every mainline scheduler tunable is a non-negative integer.
        if (!isPlainDecimal(r.value) || !sysfs::parseU64(r.value.toLatin1()))
            return badValue(r, QStringLiteral("not a whole decimal number"));
        return {};
    }
    return makeError(Refused, QStringLiteral("attribute '%1' is not one blocktune changes (allowed: %2)")
                                  .arg(r.attribute, allowedAttributesText()));
}

// Scheduler answers are the whole list; callers want the active name.
QString normalise(const QString &attributeName, const QString &text)
{
    if (attributeName == attribute::Scheduler)
        if (auto choice = sysfs::parseBracketChoice(text.toLatin1()))
            return choice->active;
    return text;
}

// An allowlisted attribute: the folder it is read and written through
// (the disk's directory, or proc/sys/vm; no link followed below it) and its
// name there.
struct Resolved
{
    SysDir dir;
    QByteArray relative;
    bool machineWide = false;
    QByteArray path() const { return dir.path() + '/' + relative; }
};

Result<Resolved> resolve(const SysRoot &root, const QString &device, const QString &attr)
{
    if (attr == attribute::VmContextReadahead) {
        if (!device.isEmpty())
            return makeError(InvalidArgument,
                             QStringLiteral("%1 is machine-wide: send it without a device").arg(attr));
        auto vm = root.openFolderOf(root.procPath("sys/vm/enable_context_readahead"), {"proc/sys"});
        if (!vm || !isPlain(*vm, "enable_context_readahead", S_IFREG))
            return makeError(NotFound, QStringLiteral("this kernel has no /proc/sys/vm/enable_context_readahead"));
        return Resolved{std::move(*vm), "enable_context_readahead", true};
    }
    QByteArray relative;
    if (queueAttributes().contains(attr)) {
        relative = "queue/" + attr.toLatin1();
    } else if (attr.startsWith(attribute::IoschedPrefix)) {
        const QString name = attr.mid(attribute::IoschedPrefix.size());
        if (!isTunableName(name))
            return makeError(InvalidArgument,
                             QStringLiteral("'%1' is not a scheduler tunable name (lower-case letters, "
                                            "digits and '_', at most %2)").arg(name).arg(kMaxTunableName));
        relative = "queue/iosched/" + name.toLatin1();
    } else {
        return makeError(Refused, QStringLiteral("attribute '%1' is not one blocktune changes (allowed: %2)")
                                      .arg(attr, allowedAttributesText()));
    }

    auto disk = openDisk(root, device);
    if (!disk)
        return disk.error();
    if (relative.startsWith("queue/iosched/") && !isPlain(*disk, "queue/iosched", S_IFDIR)) {
        return makeError(NotFound, QStringLiteral("%1 has no scheduler tunables (scheduler: %2)")
                                       .arg(device, activeScheduler(*disk)));
    }
    if (!isPlain(*disk, relative, S_IFREG)) {
        if (disk->exists(relative.constData()))
            return makeError(Refused, QStringLiteral("%1 of %2 is not a regular file").arg(attr, device));
        if (attr == attribute::ContextReadahead)
            return makeError(NotFound, QStringLiteral("%1 has no queue/context_readahead switch").arg(device));
        if (relative.startsWith("queue/iosched/")) {
            return makeError(NotFound, QStringLiteral("%1 is not a tunable of %2, the active scheduler on %3 "
                                                      "(tunables: %4)")
                                           .arg(attr.mid(attribute::IoschedPrefix.size()), activeScheduler(*disk),
                                                device, disk->list("queue/iosched").join(u", ")));
        }
        return makeError(NotFound, QStringLiteral("%1 has no queue/%2").arg(device, attr));
    }
    return Resolved{std::move(*disk), relative, false};
}

} // namespace

bool isAllowedAttributeName(const QString &attr)
{
    if (attr == attribute::VmContextReadahead || queueAttributes().contains(attr))
        return true;
    return attr.startsWith(attribute::IoschedPrefix) && isTunableName(QStringView(attr).mid(attribute::IoschedPrefix.size()));
}

bool isPlainDecimal(QStringView text)
{
    if (text.isEmpty() || text.size() > 20)
        return false;
    for (QChar c : text)
        if (c < u'0' || c > u'9')
            return false;
    return true;
}

quint64 pageKiB(const SysRoot &root)
{
    if (!root.isLive())
        return 4;
    const long page = ::sysconf(_SC_PAGESIZE);
    return page > 0 ? quint64(page) / 1024 : 4;
}

std::optional<NumberRange> nrRequestsRange(const SysDir &disk, const QString &scheduler)
{
    const auto choice = disk.readBracketChoice("queue/scheduler");
    const bool blkMq = disk.isDirectory("mq");
    // bio-based queues (md, most dm) only offer "none" and have no request
    // pool: blk-sysfs.c answers EINVAL to nr_requests there.
    if (!blkMq && choice && choice->choices == QStringList{QStringLiteral("none")})
        return std::nullopt;
    if (!blkMq) // legacy request queues (up to 4.20) took any size
        return NumberRange{1, quint64(INT_MAX)};
    if (!scheduler.isEmpty() && scheduler != u"none")
        return NumberRange{1, kMaxSchedRequests};
    // Without a scheduler, requests are hardware tags: no more than the tag
    // set's depth (measured: nr_tags 128 on a loop device refuses 129).
    if (auto tags = disk.readU64("mq/0/nr_tags"); tags && *tags > 0)
        return NumberRange{1, *tags};
    return NumberRange{1, kMaxSchedRequests};
}

NumberRange maxSectorsRange(const SysRoot &root, const SysDir &disk)
{
    const quint64 hw = disk.readU64("queue/max_hw_sectors_kb").value_or(quint64(UINT_MAX));
    return NumberRange{pageKiB(root), hw};
}

Result<QString> readAllowedAttribute(const SysRoot &root, const QString &device, const QString &attr)
{
    auto resolved = resolve(root, device, attr);
    if (!resolved)
        return resolved.error();
    auto text = resolved->dir.read(resolved->relative.constData(), 64 * 1024);
    if (!text)
        return text.error();
    return QString::fromUtf8(sysfs::stripNewline(std::move(*text)));
}

Result<QByteArray> checkAttributeWrite(const SysRoot &root, const AttributeWrite &request)
{
    auto resolved = resolve(root, request.device, request.attribute);
    if (!resolved)
        return resolved.error();
    if (Status st = checkValue(root, resolved->dir, request); !st)
        return st.error();
    return resolved->path();
}

Result<WrittenValue> writeCheckedAttribute(const SysRoot &root, const AttributeWrite &request)
{
    auto resolved = resolve(root, request.device, request.attribute);
    if (!resolved)
        return resolved.error();
    if (Status st = checkValue(root, resolved->dir, request); !st)
        return st.error();
    // Read and written through the folder resolve() opened: nothing between
    // the checks and the write is looked up by path again.
    auto previousRaw = resolved->dir.read(resolved->relative.constData(), 64 * 1024);
    if (!previousRaw)
        return previousRaw.error();
    const QString previous = QString::fromUtf8(sysfs::stripNewline(std::move(*previousRaw)));
    QString payload = request.value;
    if (!root.isLive() && request.attribute == attribute::Scheduler) {
        // A recorded tree is plain files, not a kernel: writing "bfq" would
        // replace the list of choices and the tree would offer only bfq from
        // then on. Keep the kernel's format, the new choice in brackets.
        auto choice = sysfs::parseBracketChoice(previous.toLatin1());
        if (choice && choice->choices.size() > 1) {
            QStringList words;
            for (const QString &name : std::as_const(choice->choices))
                words << (name == request.value ? u'[' + name + u']' : name);
            payload = words.join(u' ');
        }
    }
    auto kept = resolved->dir.writeAttribute(resolved->relative.constData(), payload);
    if (!kept)
        return kept.error();
    return WrittenValue{normalise(request.attribute, previous), normalise(request.attribute, *kept)};
}

Result<WrittenValue> DirectWriter::write(const AttributeWrite &request)
{
    return writeCheckedAttribute(m_root, request);
}

} // namespace blocktune
