#pragma once
// The "latency" op of blocktune-helper, apart from the other ops because it
// is the one that streams (helperlatency.cpp). Detail of core/privilege:
// privilege.h says what the folder offers.
#include "privilege.h"

#include <QJsonObject>

namespace blocktune::helperdetail {

/// Checks a "latency" request field by field (devices, interval_ms; no other
/// field), then loads the source and makes the stream. Returns the answer
/// line (the stream's first tick) or why the request is refused; nothing is
/// loaded unless every check passed.
Result<QByteArray> startLatency(const SysRoot &root, const HelperLatencyLoader &loader, const QJsonObject &request,
                                std::unique_ptr<HelperLatencyStream> *stream);

} // namespace blocktune::helperdetail
