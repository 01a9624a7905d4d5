#pragma once
// Inside core/advisor: the device a measurement or a check is about, looked
// up once through the session.
#include "session/session.h"
#include "tuning/tuning.h"

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

} // namespace blocktune::advisor_detail
