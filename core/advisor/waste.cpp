// Readahead the readers never used: advise for server:N and mixed:K+R
// leaves out the values whose device read far more than the readers
// consumed, before the curve is analysed.
#include "advisor.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace blocktune {

QList<quint64> wastefulReadaheads(const Workload &workload, const QList<CurvePoint> &curve)
{
    if (workload.kind != ReadTestKind::Server && workload.kind != ReadTestKind::Mixed)
        return {};
    QList<quint64> wasted;
    for (const CurvePoint &p : curve)
        if (p.deviceReadRatio >= kWastedRatio)
            wasted << p.readAheadKiB;
    if (wasted.size() == curve.size())
        return {}; // every value wastes: readahead is not what decides, so none is left out
    std::sort(wasted.begin(), wasted.end());
    return wasted;
}

CurveAnalysis analyzeWithoutWaste(const QList<CurvePoint> &curve, const QList<quint64> &excluded, double tolerance,
                                  quint64 above)
{
    if (excluded.isEmpty())
        return analyzeCurve(curve, tolerance, above);
    QList<CurvePoint> kept;
    for (const CurvePoint &p : curve)
        if (!excluded.contains(p.readAheadKiB))
            kept << p;
    CurveAnalysis a = analyzeCurve(kept, tolerance, above);
    // One fitted value per point of the whole curve, as callers index it.
    QList<double> fit;
    qsizetype k = 0;
    for (const CurvePoint &p : curve)
        fit << (excluded.contains(p.readAheadKiB) || k >= a.fittedMbPerSec.size()
                    ? std::numeric_limits<double>::quiet_NaN()
                    : a.fittedMbPerSec.at(k++));
    a.fittedMbPerSec = fit;
    return a;
}

} // namespace blocktune
