// The recorded-curve reader: what `advise --from FILE.json` reads from a
// file anyone may hand over (a sweep or advise output, or one written by
// hand). A curve it accepts has two or more points, one per readahead,
// sorted, every MB/s finite and not negative; the advice computed from it
// picks one of its points and its "same within noise" set holds the pick;
// the advice's own JSON reads back as the same curve. Seeds in
// corpus/fuzz_curve/.
#include "fuzzcheck.h"

#include "advisor/advisor.h"

#include <QJsonDocument>

#include <cmath>
#include <cstdint>

using namespace blocktune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const Result<RecordedCurve> curve = parseRecordedCurve(text, QStringLiteral("fuzz.json"));
    if (!curve) {
        FUZZ_CHECK(curve.error().code == InvalidArgument);
        FUZZ_CHECK(curve.error().message.startsWith(QStringLiteral("fuzz.json: ")));
        return 0;
    }
    FUZZ_CHECK(curve->curve.size() >= 2);
    for (qsizetype i = 0; i < curve->curve.size(); ++i) {
        const CurvePoint &p = curve->curve.at(i);
        FUZZ_CHECK(std::isfinite(p.mbPerSec) && p.mbPerSec >= 0);
        FUZZ_CHECK(!p.runs.isEmpty());
        if (i > 0)
            FUZZ_CHECK(curve->curve.at(i - 1).readAheadKiB < p.readAheadKiB);
    }
    const Advice advice = adviseFromCurve(*curve, AdviseSpec{}, QStringLiteral("file:fuzz.json"));
    // Unresolved (two speeds, or noise wider than the tolerance): nothing
    // recommended, the curve's pick kept as unresolvedPickKiB.
    const bool resolved = advice.analysis.resolved;
    const quint64 pick = resolved ? advice.kneeKiB : advice.unresolvedPickKiB;
    bool picked = false;
    for (const CurvePoint &p : curve->curve)
        picked = picked || p.readAheadKiB == pick;
    FUZZ_CHECK(picked);
    if (resolved) {
        FUZZ_CHECK(advice.analysis.sameKiB.contains(advice.kneeKiB));
        FUZZ_CHECK(advice.recommendedKiB >= advice.kneeKiB);
    } else {
        FUZZ_CHECK(!advice.recommends() && advice.recommendedKiB == 0 && advice.kneeKiB == 0);
    }
    const QByteArray again = QJsonDocument(adviceToJson(advice)).toJson();
    const Result<RecordedCurve> back = parseRecordedCurve(again, QStringLiteral("again.json"));
    FUZZ_CHECK(back.ok());
    FUZZ_CHECK(back->curve.size() == curve->curve.size());
    return 0;
}
