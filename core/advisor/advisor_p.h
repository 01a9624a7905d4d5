#pragma once
// Inside core/advisor: the device a measurement or a check is about, looked
// up once through the session.
#include "advisor.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QTextStream>

#include <memory>

namespace blocktune::advisor_detail {

struct SessionDevice
{
    DeviceSettings settings;
    std::shared_ptr<const DeviceModel> model; ///< keeps `device` alive
    const BlockDevice *device = nullptr;
    quint64 sizeBytes() const { return device->sizeBytes.value_or(0); }
    QString queue() const { return settings.queueDevice.isEmpty() ? settings.name : settings.queueDevice; }
};

inline Result<SessionDevice> lookUpDevice(SessionPort &session, const QString &name)
{
    auto settings = session.settings(name);
    if (!settings)
        return settings.error();
    auto model = session.model();
    if (!model)
        return model.error();
    const BlockDevice *bd = (*model)->findByUserName(name);
    if (!bd)
        return makeError(NotFound, QStringLiteral("no block device named '%1' (see blocktune-cli list)").arg(name));
    return SessionDevice{std::move(*settings), std::move(*model), bd};
}

/// diagnose's static checks (below_md_floor, partition_shares_readahead,
/// lvm_rewrites_readahead), for diagnose and diagnose --live.
void staticChecks(const DeviceSettings &settings, const BlockDevice &device, QList<Finding> &out);
/// One finding as diagnose prints it: the line, its evidence, its fix as a
/// `blocktune-cli set` command on `device` (the finding's own when it has one).
void appendFinding(QTextStream &s, const Finding &finding, const QString &device);

} // namespace blocktune::advisor_detail
