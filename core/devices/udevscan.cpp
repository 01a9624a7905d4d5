// libudev's view of the live machine: the block devices it lists and the
// properties its database holds for them (model, serial, filesystem).
#include "devicescan_p.h"

#include <libudev.h>

#include <cctype>
#include <memory>

namespace blocktune::detail {

namespace {

struct UdevDeleter
{
    void operator()(udev *u) const { udev_unref(u); }
    void operator()(udev_enumerate *e) const { udev_enumerate_unref(e); }
    void operator()(udev_device *d) const { udev_device_unref(d); }
};

// ID_MODEL_ENC escapes spaces as \x20; decode \xHH only.
QString decodeUdevEncoded(const char *text)
{
    QByteArray out;
    for (const char *p = text; *p; ++p) {
        if (p[0] == '\\' && p[1] == 'x' && std::isxdigit(uchar(p[2])) && std::isxdigit(uchar(p[3]))) {
            out.append(char(QByteArray(p + 2, 2).toInt(nullptr, 16)));
            p += 3;
        } else {
            out.append(*p);
        }
    }
    return QString::fromUtf8(out).trimmed();
}

QString property(udev_device *device, const char *key)
{
    const char *value = udev_device_get_property_value(device, key);
    return value ? QString::fromUtf8(value).trimmed() : QString();
}

UdevFacts udevFacts(udev_device *device)
{
    UdevFacts facts;
    facts.devName = property(device, "DEVNAME");
    if (const char *enc = udev_device_get_property_value(device, "ID_MODEL_ENC"))
        facts.model = decodeUdevEncoded(enc);
    if (facts.model.isEmpty())
        facts.model = property(device, "ID_MODEL").replace(u'_', u' ');
    facts.serial = property(device, "ID_SERIAL_SHORT");
    if (facts.serial.isEmpty())
        facts.serial = property(device, "ID_SERIAL");
    facts.wwn = property(device, "ID_WWN_WITH_EXTENSION");
    if (facts.wwn.isEmpty())
        facts.wwn = property(device, "ID_WWN");
    facts.bus = property(device, "ID_BUS");
    facts.fsType = property(device, "ID_FS_TYPE");
    facts.fsLabel = property(device, "ID_FS_LABEL");
    facts.fsUuid = property(device, "ID_FS_UUID");
    return facts;
}

} // namespace

QList<Candidate> enumerateUdev()
{
    QList<Candidate> out;
    std::unique_ptr<udev, UdevDeleter> ctx(udev_new());
    if (!ctx)
        return out;
    std::unique_ptr<udev_enumerate, UdevDeleter> en(udev_enumerate_new(ctx.get()));
    udev_enumerate_add_match_subsystem(en.get(), "block");
    udev_enumerate_scan_devices(en.get());
    for (udev_list_entry *entry = udev_enumerate_get_list_entry(en.get()); entry;
         entry = udev_list_entry_get_next(entry)) {
        const char *syspath = udev_list_entry_get_name(entry);
        std::unique_ptr<udev_device, UdevDeleter> dev(
            udev_device_new_from_syspath(ctx.get(), syspath));
        if (!dev)
            continue;
        const QByteArray dir = realPath(syspath);
        if (dir.isEmpty())
            continue;
        out.append(Candidate{QString::fromUtf8(udev_device_get_sysname(dev.get())), dir,
                             udevFacts(dev.get())});
    }
    return out;
}

} // namespace blocktune::detail
