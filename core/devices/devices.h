#pragma once
// What core/devices offers: the device model (every block device, how they
// stack, their queue settings), its JSON form, and hotplug events.
#include "blockdevice.h"   // IWYU pragma: export
#include "devicejson.h"    // IWYU pragma: export
#include "devicemodel.h"   // IWYU pragma: export
#include "devicewatcher.h" // IWYU pragma: export
#include "mdgeometry.h"    // IWYU pragma: export
#include "snapshot.h"      // IWYU pragma: export
