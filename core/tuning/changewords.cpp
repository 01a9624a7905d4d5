// The words of `set`: DEVICE KEY=VALUE... [DEVICE KEY=VALUE...]. Only the
// shape is checked here; devices, keys and values are the plan's to judge.
#include "tuning.h"

namespace blocktune {

Result<QList<SettingChange>> parseChangeWords(const QStringList &words)
{
    QList<SettingChange> changes;
    QString device;
    bool deviceHasSettings = true;
    for (const QString &word : words) {
        if (!word.contains(u'=')) {
            if (!deviceHasSettings)
                return makeError(InvalidArgument, QStringLiteral("no settings given for %1 (write KEY=VALUE after "
                                                                 "the device, keys: %2)")
                                                      .arg(device, settingKeys().join(u", ")));
            device = word;
            deviceHasSettings = false;
            continue;
        }
        if (device.isEmpty())
            return makeError(InvalidArgument, QStringLiteral("'%1' comes before any device: write set DEVICE "
                                                             "KEY=VALUE...").arg(word));
        auto change = parseSettingChange(device, word);
        if (!change)
            return change.error();
        changes.append(*change);
        deviceHasSettings = true;
    }
    if (device.isEmpty())
        return makeError(InvalidArgument, QStringLiteral("set needs a device and KEY=VALUE settings (keys: %1)")
                                              .arg(settingKeys().join(u", ")));
    if (!deviceHasSettings)
        return makeError(InvalidArgument, QStringLiteral("no settings given for %1 (keys: %2)")
                                              .arg(device, settingKeys().join(u", ")));
    return changes;
}

} // namespace blocktune
