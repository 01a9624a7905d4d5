#pragma once

#include "devicemodel.h"

#include <QJsonObject>

namespace blocktune {

/// Version of the `list --json` document; bump on any incompatible change.
/// The keys are documented in docs/json.md ("list --json").
inline constexpr int kDeviceJsonSchema = 1;

QJsonObject deviceToJson(const BlockDevice &device);
/// {"schema": 1, "devices": [...]}
QJsonObject modelToJson(const DeviceModel &model);

} // namespace blocktune
