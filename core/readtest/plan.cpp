// Validation of a read test: everything that can be refused is refused here,
// before a device is opened or a setting changed.
#include "readtest.h"

#include "common/tr.h"

#include "common/units.h"
#include "devices/devicemodel.h"

#include <QHash>

#include <climits>

namespace blocktune {

namespace {

// Reads are issued in slices of at most this size, so a cancelled test
// waits for one slice at most; blocks are allowed to be bigger.
constexpr quint64 kMaxBlockSize = 64ULL << 20;
constexpr quint64 kDefaultSize = 256ULL << 20;
constexpr int kMaxRepeat = 1000;
constexpr int kMaxThreads = 256;
constexpr int kMaxStreams = 64;
constexpr qsizetype kMaxPercentiles = 64;

Error invalid(const QString &message)
{
    return makeError(InvalidArgument, message);
}

// "16M (16777216 bytes)" for sizes in messages.
QString bytesText(quint64 bytes)
{
    if (bytes < 1024)
        return ReadTestText::tr("%1 bytes").arg(bytes);
    return ReadTestText::tr("%1 (%2 bytes)").arg(formatBytes(bytes)).arg(bytes);
}

} // namespace

QString readTestKindName(ReadTestKind kind)
{
    switch (kind) {
    case ReadTestKind::Sequential: return QStringLiteral("seq");
    case ReadTestKind::Concurrent: return QStringLiteral("concurrent");
    case ReadTestKind::Server: return QStringLiteral("server");
    case ReadTestKind::Mixed: return QStringLiteral("mixed");
    }
    return {};
}

std::optional<ReadTestKind> parseReadTestKind(const QString &name)
{
    for (ReadTestKind k : {ReadTestKind::Sequential, ReadTestKind::Concurrent, ReadTestKind::Server,
                           ReadTestKind::Mixed}) {
        if (name == readTestKindName(k))
            return k;
    }
    return std::nullopt;
}

QString streamRoleName(StreamRole role)
{
    return role == StreamRole::Measure ? QStringLiteral("measure") : QStringLiteral("background");
}

Result<StreamTarget> parseStreamTarget(const QString &text)
{
    const qsizetype at = text.lastIndexOf(u'@');
    StreamTarget target;
    target.device = (at < 0 ? text : text.left(at)).trimmed();
    if (target.device.isEmpty())
        return invalid(ReadTestText::tr("'%1' names no device (use DEV or DEV@OFFSET, e.g. sdb or "
                                      "/dev/sdb@1G)").arg(text));
    if (at >= 0) {
        auto offset = parseSize(text.mid(at + 1), ReadTestText::tr("offset in '%1'").arg(text));
        if (!offset)
            return offset.error();
        target.offset = *offset;
    }
    return target;
}

Result<QList<quint64>> parseReadaheadList(const QString &text)
{
    QList<quint64> values;
    const QStringList items = text.split(u',');
    for (const QString &raw : items) {
        const QString item = raw.trimmed();
        if (item.isEmpty())
            return invalid(ReadTestText::tr("--ra '%1': empty value in the list (use KiB values "
                                          "separated by commas, e.g. 128,512,4096)").arg(text));
        quint64 kib = 0;
        bool plain = false;
        const quint64 number = item.toULongLong(&plain);
        if (plain) {
            kib = number;
        } else {
            auto bytes = parseSize(item, ReadTestText::tr("--ra value '%1'").arg(item));
            if (!bytes)
                return invalid(ReadTestText::tr("--ra: '%1' is not a readahead size (use KiB "
                                              "numbers such as 128, or 512K, 4M)").arg(item));
            if (*bytes % 1024 != 0)
                return invalid(ReadTestText::tr("--ra: '%1' is not a whole number of KiB").arg(item));
            kib = *bytes / 1024;
        }
        // sysfs read_ahead_kb takes an unsigned int of KiB (block/blk-sysfs.c).
        if (kib > UINT_MAX)
            return invalid(ReadTestText::tr("--ra: %1 KiB is above the kernel's limit of %2 KiB")
                               .arg(kib).arg(UINT_MAX));
        if (values.contains(kib))
            return invalid(ReadTestText::tr("--ra: %1 KiB is listed twice").arg(kib));
        values.append(kib);
    }
    return values;
}

Result<ReadTest> ReadTest::prepare(const SysRoot &root, const ReadTestSpec &spec)
{
    ScanOptions scanOptions;
    scanOptions.probeFilesystems = false;
    auto model = DeviceModel::scan(root, scanOptions);
    if (!model)
        return model.error();
    return prepare(root, *model, spec);
}

namespace {

// ---- options that need no device ----
Status validateOptions(const ReadTestSpec &spec)
{
    if (spec.blockSize == 0)
        return invalid(ReadTestText::tr("--bs must be at least 1 byte (e.g. 4K, 64K, 1M)"));
    if (spec.blockSize > kMaxBlockSize)
        return invalid(ReadTestText::tr("--bs %1 is too large (at most %2)")
                           .arg(formatBytes(spec.blockSize), formatBytes(kMaxBlockSize)));
    const int limits = int(spec.sizeBytes.has_value()) + int(spec.count.has_value())
        + int(spec.durationMs.has_value());
    if (limits > 1)
        return invalid(ReadTestText::tr("give at most one of --size, --count and --time"));
    if (spec.sizeBytes && *spec.sizeBytes == 0)
        return invalid(ReadTestText::tr("--size must be more than 0 bytes"));
    if (spec.count && *spec.count == 0)
        return invalid(ReadTestText::tr("--count must be at least 1 block"));
    if (spec.count && *spec.count > UINT64_MAX / spec.blockSize)
        return invalid(ReadTestText::tr("--count %1 blocks of %2 is more than any device holds")
                           .arg(*spec.count).arg(formatBytes(spec.blockSize)));
    if (spec.durationMs && *spec.durationMs <= 0)
        return invalid(ReadTestText::tr("--time must be more than 0"));
    if (spec.repeat < 1 || spec.repeat > kMaxRepeat)
        return invalid(ReadTestText::tr("--repeat %1 is out of range (1 to %2)").arg(spec.repeat).arg(kMaxRepeat));
    if (spec.intervalMs < 10 || spec.intervalMs > 60000)
        return invalid(ReadTestText::tr("--interval %1 ms is out of range (10 ms to 60 s)").arg(spec.intervalMs));
    if (spec.threads < 1 || spec.threads > kMaxThreads)
        return invalid(ReadTestText::tr("--threads %1 is out of range (1 to %2)").arg(spec.threads).arg(kMaxThreads));
    if (spec.seqStreams < 1 || spec.seqStreams > kMaxStreams)
        return invalid(ReadTestText::tr("--seq %1 is out of range (1 to %2)").arg(spec.seqStreams).arg(kMaxStreams));
    if (spec.randomReaders < 0 || spec.randomReaders > kMaxStreams)
        return invalid(ReadTestText::tr("--random %1 is out of range (0 to %2)").arg(spec.randomReaders).arg(kMaxStreams));
    if (spec.randomBlockSize == 0 || spec.randomBlockSize > kMaxBlockSize)
        return invalid(ReadTestText::tr("--random-bs must be between 1 byte and %1").arg(formatBytes(kMaxBlockSize)));
    if (spec.percentiles.isEmpty() || spec.percentiles.size() > kMaxPercentiles)
        return invalid(ReadTestText::tr("--percentiles takes 1 to %1 values").arg(kMaxPercentiles));
    for (const double p : spec.percentiles)
        if (!(p > 0 && p <= 100))
            return invalid(ReadTestText::tr("--percentiles: %1 is not a percentile (more than 0, at most 100)")
                               .arg(p));
    return {};
}

// How many targets the kind takes, before any of them is looked up.
Status validateTargetCount(const ReadTestSpec &spec)
{
    const QString kind = readTestKindName(spec.kind);
    if (spec.measure.isEmpty())
        return invalid(spec.kind == ReadTestKind::Concurrent
                           ? ReadTestText::tr("test concurrent needs at least one --measure DEV[@OFFSET]")
                           : ReadTestText::tr("test %1 needs a device").arg(kind));
    if (spec.kind != ReadTestKind::Concurrent && spec.measure.size() != 1)
        return invalid(ReadTestText::tr("test %1 reads one device (got %2)").arg(kind).arg(spec.measure.size()));
    if (spec.kind != ReadTestKind::Concurrent && !spec.background.isEmpty())
        return invalid(ReadTestText::tr("--background streams belong to test concurrent"));
    if (spec.measure.size() + spec.background.size() > kMaxStreams)
        return invalid(ReadTestText::tr("at most %1 streams").arg(kMaxStreams));
    return {};
}

// Resolves the spec's targets to devices and lays out their streams,
// checking every range against the device's size and alignment.
class StreamLayout final
{
public:
    StreamLayout(const SysRoot &root, const DeviceModel &model, const ReadTestSpec &spec)
        : m_root(root), m_model(model), m_spec(spec)
    {
    }

    Status layOut();

    QList<TestDevice> devices;
    QList<PlannedStream> streams;

private:
    Result<int> resolve(const StreamTarget &t);
    Status checkAligned(const TestDevice &dev, quint64 value, const QString &what) const;
    Status checkOffset(const TestDevice &dev, quint64 offset) const;
    Result<quint64> measuredLength(const TestDevice &dev, quint64 offset, quint64 room,
                                   const QString &roomNote) const;
    QString uniqueName(const QString &name);
    Status addTarget(const StreamTarget &t, StreamRole role);
    Status addMixed(const StreamTarget &t);

    const SysRoot &m_root;
    const DeviceModel &m_model;
    const ReadTestSpec &m_spec;
    QHash<QString, int> m_indexOf;
    QHash<QString, int> m_nameUse;
};

Result<int> StreamLayout::resolve(const StreamTarget &t)
{
    const BlockDevice *bd = m_model.findByUserName(t.device);
    if (!bd)
        return makeError(NotFound, ReadTestText::tr("no block device named '%1' (see blocktune-cli "
                                                  "list; give a kernel name such as sdb or a "
                                                  "/dev path)").arg(t.device));
    if (auto it = m_indexOf.constFind(bd->name); it != m_indexOf.constEnd())
        return *it;
    if (!bd->sizeBytes || *bd->sizeBytes == 0)
        return invalid(ReadTestText::tr("%1 is empty (size 0): nothing to read").arg(bd->name));
    TestDevice dev;
    dev.name = bd->name;
    dev.devPath = m_root.devPath(bd->name.toLocal8Bit());
    dev.queueDevice = bd->queueDevice.isEmpty() ? bd->name : bd->queueDevice;
    dev.sizeBytes = *bd->sizeBytes;
    dev.logicalBlockBytes = qMax<quint64>(bd->logicalBlockBytes.value_or(512), 1);
    devices.append(dev);
    m_indexOf.insert(bd->name, int(devices.size() - 1));
    return int(devices.size() - 1);
}

// Direct I/O needs offsets and lengths in whole logical blocks (the
// kernel returns EINVAL otherwise); say so before reading anything.
Status StreamLayout::checkAligned(const TestDevice &dev, quint64 value, const QString &what) const
{
    if (m_spec.direct && value % dev.logicalBlockBytes != 0)
        return invalid(ReadTestText::tr("%1 %2 is not a multiple of %3's logical block size (%4 bytes), "
                                      "which --direct requires")
                           .arg(what).arg(value).arg(dev.name).arg(dev.logicalBlockBytes));
    return {};
}

Status StreamLayout::checkOffset(const TestDevice &dev, quint64 offset) const
{
    if (offset >= dev.sizeBytes)
        return invalid(ReadTestText::tr("offset %1 is past the end of %2 (%3)")
                           .arg(bytesText(offset), dev.name, bytesText(dev.sizeBytes)));
    return checkAligned(dev, offset, ReadTestText::tr("offset"));
}

// The measured length of one stream starting at `offset` on `dev`,
// within `room` bytes; refuses what does not fit.
Result<quint64> StreamLayout::measuredLength(const TestDevice &dev, quint64 offset, quint64 room,
                                             const QString &roomNote) const
{
    const ReadTestSpec &spec = m_spec;
    if (spec.durationMs)
        return room;
    quint64 length = 0;
    QString asked;
    if (spec.sizeBytes) {
        length = *spec.sizeBytes;
        asked = QStringLiteral("--size %1").arg(formatBytes(length));
    } else if (spec.count) {
        length = *spec.count * spec.blockSize;
        asked = QStringLiteral("--count %1 (x %2 = %3)").arg(*spec.count)
                    .arg(formatBytes(spec.blockSize), formatBytes(length));
    } else {
        length = qMin(kDefaultSize, room);
        if (spec.direct)
            length -= length % dev.logicalBlockBytes;
        if (length == 0)
            return invalid(ReadTestText::tr("less than one logical block of %1 is left past offset %2")
                               .arg(dev.name).arg(offset));
        return length;
    }
    if (length > room)
        return invalid(ReadTestText::tr("%1 from offset %2 goes past the end of %3 (%4 bytes): at most %5 fits%6")
                           .arg(asked, offset ? bytesText(offset) : QStringLiteral("0"), dev.name)
                           .arg(dev.sizeBytes)
                           .arg(bytesText(room), roomNote));
    if (auto st = checkAligned(dev, length, ReadTestText::tr("the length")); !st)
        return st.error();
    return length;
}

QString StreamLayout::uniqueName(const QString &name)
{
    const int n = ++m_nameUse[name];
    return n == 1 ? name : QStringLiteral("%1#%2").arg(name).arg(n);
}

Status StreamLayout::addTarget(const StreamTarget &t, StreamRole role)
{
    auto idx = resolve(t);
    if (!idx)
        return idx.error();
    const TestDevice &dev = devices.at(*idx);
    if (auto st = checkOffset(dev, t.offset); !st)
        return st;
    if (auto st = checkAligned(dev, m_spec.blockSize, QStringLiteral("--bs")); !st)
        return st;
    PlannedStream s;
    s.device = *idx;
    s.start = t.offset;
    s.role = role;
    s.blockSize = m_spec.blockSize;
    const quint64 room = dev.sizeBytes - t.offset;
    if (role == StreamRole::Background) {
        // Like `while true; do dd if=DEV ...; done`: to the device's end, again and again.
        s.length = room;
    } else {
        auto len = measuredLength(dev, t.offset, room, QString());
        if (!len)
            return len.error();
        s.length = *len;
        s.untilDeadline = m_spec.durationMs.has_value();
    }
    s.name = uniqueName(t.offset ? QStringLiteral("%1@%2").arg(dev.name, formatBytes(t.offset))
                                 : dev.name);
    if (m_spec.kind == ReadTestKind::Server) {
        s.threads = m_spec.threads;
        s.sharedFd = m_spec.sharedFd;
    }
    streams.append(s);
    return {};
}

Status StreamLayout::addMixed(const StreamTarget &t)
{
    const ReadTestSpec &spec = m_spec;
    auto idx = resolve(t);
    if (!idx)
        return idx.error();
    const TestDevice dev = devices.at(*idx);
    if (auto st = checkOffset(dev, t.offset); !st)
        return st;
    if (auto st = checkAligned(dev, spec.blockSize, QStringLiteral("--bs")); !st)
        return st;
    if (auto st = checkAligned(dev, spec.randomBlockSize, QStringLiteral("--random-bs")); !st)
        return st;
    // K sequential streams spread evenly over the device past the
    // offset, so they do not feed each other's page cache.
    const quint64 span = dev.sizeBytes - t.offset;
    quint64 spacing = span / quint64(spec.seqStreams);
    spacing -= spacing % dev.logicalBlockBytes;
    if (spacing == 0)
        return invalid(ReadTestText::tr("%1 is too small for %2 sequential streams past offset %3")
                           .arg(dev.name).arg(spec.seqStreams).arg(t.offset));
    const QString note = spec.seqStreams > 1
        ? ReadTestText::tr(" (each of the %1 sequential streams gets 1/%1 of the device past the offset)")
              .arg(spec.seqStreams)
        : QString();
    auto len = measuredLength(dev, t.offset, spacing, note);
    if (!len)
        return len.error();
    for (int i = 0; i < spec.seqStreams; ++i) {
        PlannedStream s;
        s.name = QStringLiteral("seq%1").arg(i + 1);
        s.device = *idx;
        s.start = t.offset + quint64(i) * spacing;
        s.length = *len;
        s.untilDeadline = spec.durationMs.has_value();
        s.blockSize = spec.blockSize;
        streams.append(s);
    }
    if (spec.randomReaders > 0 && span < spec.randomBlockSize)
        return invalid(ReadTestText::tr("%1 holds less than one --random-bs block past offset %2")
                           .arg(dev.name).arg(t.offset));
    for (int i = 0; i < spec.randomReaders; ++i) {
        PlannedStream s;
        s.name = QStringLiteral("random%1").arg(i + 1);
        s.device = *idx;
        s.start = t.offset;
        s.length = span;
        s.role = StreamRole::Background;
        s.pattern = AccessPattern::Random;
        s.blockSize = spec.randomBlockSize;
        streams.append(s);
    }
    return {};
}

Status StreamLayout::layOut()
{
    switch (m_spec.kind) {
    case ReadTestKind::Sequential:
    case ReadTestKind::Server:
        return addTarget(m_spec.measure.constFirst(), StreamRole::Measure);
    case ReadTestKind::Concurrent:
        for (const StreamTarget &t : std::as_const(m_spec.measure))
            if (auto st = addTarget(t, StreamRole::Measure); !st)
                return st;
        for (const StreamTarget &t : std::as_const(m_spec.background))
            if (auto st = addTarget(t, StreamRole::Background); !st)
                return st;
        return {};
    case ReadTestKind::Mixed:
        return addMixed(m_spec.measure.constFirst());
    }
    return {};
}

} // namespace

Result<ReadTest> ReadTest::prepare(const SysRoot &root, const DeviceModel &model, const ReadTestSpec &spec)
{
    if (auto st = validateOptions(spec); !st)
        return st.error();
    if (auto st = validateTargetCount(spec); !st)
        return st.error();
    StreamLayout layout(root, model, spec);
    if (auto st = layout.layOut(); !st)
        return st.error();

    ReadTest test;
    test.m_root = root;
    test.m_devices = std::move(layout.devices);
    test.m_streams = std::move(layout.streams);
    test.m_spec = spec;
    return test;
}

} // namespace blocktune
