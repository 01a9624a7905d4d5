// The readahead curve: medians and spreads of repeated runs, the robust
// plateau, the band of points that are the same within noise, the pick;
// and the curve read back from a file or the history.
#include "advisor.h"

#include "common/tr.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <cmath>

namespace blocktune {

double CurvePoint::minMbPerSec() const
{
    return runs.isEmpty() ? mbPerSec : *std::min_element(runs.cbegin(), runs.cend());
}

double CurvePoint::maxMbPerSec() const
{
    return runs.isEmpty() ? mbPerSec : *std::max_element(runs.cbegin(), runs.cend());
}

namespace {

// The MAD of `values` as a standard deviation, % of their median.
double madPct(const QList<double> &values)
{
    const double median = medianOf(values);
    if (values.size() < 2 || median <= 0)
        return 0;
    QList<double> deviations;
    for (const double v : values)
        deviations << std::abs(v - median);
    return 1.4826 * medianOf(deviations) / median * 100.0;
}

// Runs below this are stalls: kStallFraction under the second-best run,
// when the runs above that line agree with each other (their noise a third
// of the gap or less). Where the runs are simply noisy, none is a stall.
double stallBelow(const QList<double> &runs)
{
    if (runs.size() < 3)
        return 0; // two runs cannot say which one stalled
    QList<double> sorted = runs;
    std::sort(sorted.begin(), sorted.end(), std::greater<double>());
    const double below = sorted.at(1) * (1.0 - kStallFraction);
    QList<double> upper;
    for (const double r : std::as_const(sorted))
        if (r >= below)
            upper << r;
    // Stalls are the exception: when half the runs or more fall below the
    // line, the machine ran in two modes, and the slow one is as much the
    // truth as the fast (a VM whose host is busy for a while).
    if (2 * (sorted.size() - upper.size()) >= sorted.size())
        return 0;
    return madPct(upper) * 3.0 <= kStallFraction * 100.0 ? below : 0;
}

} // namespace

QList<double> CurvePoint::keptRuns() const
{
    const double below = stallBelow(runs);
    QList<double> kept;
    for (const double r : runs)
        if (r >= below)
            kept << r;
    return kept;
}

QList<double> CurvePoint::stalledRuns() const
{
    const double below = stallBelow(runs);
    QList<double> stalled;
    for (const double r : runs)
        if (r < below)
            stalled << r;
    return stalled;
}

double CurvePoint::spreadPct() const
{
    // The median absolute deviation, scaled to a standard deviation (x
    // 1.4826 for normal noise): one slow draw in three does not make a
    // point look noisy, as it would the range.
    return mbPerSec > 0 ? madPct(keptRuns()) : 0;
}

std::optional<TwoSpeeds> CurvePoint::twoSpeeds() const
{
    QList<double> sorted = runs;
    std::sort(sorted.begin(), sorted.end());
    const qsizetype n = sorted.size();
    if (n < 3 || sorted.constFirst() <= 0)
        return std::nullopt;
    // A group is tight when its own spread (slowest to fastest, in log) is
    // at most half the gap's: two clusters, not one wide spread.
    const auto spread = [&](qsizetype from, qsizetype to) { return std::log(sorted.at(to - 1) / sorted.at(from)); };
    std::optional<TwoSpeeds> found;
    double widest = 0;
    for (qsizetype k = 1; k < n; ++k) {
        const double gap = std::log(sorted.at(k) / sorted.at(k - 1));
        const qsizetype slow = k, fast = n - k;
        const bool groups = slow >= 2 && fast >= 2 && 2 * slow > n && gap >= std::log(kTwoSpeedGap)
            && spread(0, k) <= gap / 2 && spread(k, n) <= gap / 2;
        const bool fastRun = fast == 1 && slow >= 3 && gap >= std::log(kFastRunGap) && spread(0, k) <= gap / 2;
        const bool three = n == 3 && slow == 2 && gap >= std::log(kTwoSpeedGap) && spread(0, k) <= gap / 2;
        if ((groups || fastRun || three) && gap > widest) {
            widest = gap;
            found = TwoSpeeds{medianOf(sorted.mid(0, k)), medianOf(sorted.mid(k)), fastRun, three};
        }
    }
    return found;
}

void addRun(CurvePoint &p, double mbPerSec, double avgRequestKiB, double deviceReadRatio)
{
    p.runs << mbPerSec;
    p.requestKiB << avgRequestKiB;
    if (deviceReadRatio > 0)
        p.readRatios << deviceReadRatio;
    p.mbPerSec = medianOf(p.keptRuns());
    p.avgRequestKiB = medianOf(p.requestKiB);
    p.deviceReadRatio = medianOf(p.readRatios);
}

namespace {

// The curve as a non-decreasing fit of the medians (pool adjacent
// violators, each point weighted by its runs): a low draw inside the
// plateau is pooled with its neighbours, a lucky one below the knee with
// the slower points after it. Readahead helps a stream or does nothing;
// where a curve really falls at its end the fit levels it.
QList<double> monotoneFit(const QList<CurvePoint> &curve)
{
    struct Block
    {
        double sum = 0;
        double weight = 0;
        qsizetype count = 0;
        double mean() const { return sum / weight; }
    };
    QList<Block> blocks;
    for (const CurvePoint &p : curve) {
        const double w = double(std::max<qsizetype>(1, p.keptRuns().size()));
        blocks << Block{p.mbPerSec * w, w, 1};
        while (blocks.size() > 1 && blocks.at(blocks.size() - 2).mean() > blocks.constLast().mean()) {
            const Block last = blocks.takeLast();
            Block &prev = blocks.last();
            prev.sum += last.sum;
            prev.weight += last.weight;
            prev.count += last.count;
        }
    }
    QList<double> fit;
    for (const Block &b : std::as_const(blocks))
        for (qsizetype i = 0; i < b.count; ++i)
            fit << b.mean();
    return fit;
}

// The curve as a stream's mechanics draw it: each readahead window of S KiB
// costs a fixed wait (the request's round trip) plus its transfer at the
// device's rate B, so a stream reads T(S) = S / (wait + S / B) =
// B x S / (S + R0), R0 = B x wait: half the rate at R0, creeping towards B
// beyond the knee. Readahead smaller than what the reader asks for per call
// changes nothing: S = max(readahead, F). Fitted to every point's median at
// once (log space, each point weighted by its runs), the curve's figures
// rest on all the runs, not on the three or four at each point: the pick
// moves with R0, which the rising half of the curve pins down, instead of
// with each draw of the noise at the points near the plateau. Used where it
// fits the medians within their noise; a curve that has another shape (a
// step, a fall at its end, a second rise) keeps the monotone fit.
struct SaturationFit
{
    bool fits = false;
    double rate = 0;     // B, MB/s
    double halfKiB = 0;  // R0
    double floorKiB = 0; // F
    double chi = 0;      // mean squared residual, in units of a median's noise
    int runs = 0;        // kept runs the fit rests on
    int outliers = 0;    // points left out of it
    QList<double> values;
};

// At least this many points above the floor, or three parameters fit anything.
constexpr int kSaturationMinPoints = 5;
// A point this many of its median's standard errors off the fit is either
// a draw the stall rule could not catch (two slow runs of three) or a sign
// the curve has another shape: a few such points are left out and the rest
// refitted (fitSaturation says how many); more mean the shape is wrong.
constexpr double kSaturationOutlierZ = 3.5;
// The median of three runs errs by about 1.35 x what their mean would
// (sqrt(pi / 2) for many): a median's variance, in units of noise^2 / runs.
constexpr double kMedianVariance = 1.4;

// The run-to-run noise of one run, % (in log space, so relative): each
// point's kept runs' deviations from their own mean, pooled over the
// points (runs - 1 degrees of freedom each). The MAD of three runs (a
// point's spreadPct) reads about half the true noise, as one of its three
// deviations is always 0; a band or a fit weighed against that is too
// sure of itself. A point whose own deviation is more than three times the
// points' median (two stalls of three runs) is left out of the pool.
double pooledNoisePct(const QList<CurvePoint> &curve)
{
    struct Own
    {
        double squares = 0;
        int freedom = 0;
    };
    QList<Own> points;
    QList<double> deviations;
    for (const CurvePoint &p : curve) {
        const QList<double> kept = p.keptRuns();
        if (kept.size() < 2)
            continue;
        Own own;
        double mean = 0;
        for (const double r : kept)
            mean += std::log(std::max(r, 1e-9));
        mean /= double(kept.size());
        for (const double r : kept) {
            const double d = std::log(std::max(r, 1e-9)) - mean;
            own.squares += d * d;
        }
        own.freedom = int(kept.size()) - 1;
        points << own;
        deviations << std::sqrt(own.squares / own.freedom);
    }
    const double limit = 3.0 * medianOf(deviations);
    double squares = 0;
    int freedom = 0;
    for (qsizetype i = 0; i < points.size(); ++i) {
        if (deviations.at(i) > limit)
            continue;
        squares += points.at(i).squares;
        freedom += points.at(i).freedom;
    }
    // Repeats of one figure: their logs' mean may differ from it in the
    // last bit, which is no noise.
    const double pct = freedom > 0 ? 100.0 * std::sqrt(squares / freedom) : 0;
    return pct < 1e-6 ? 0 : pct;
}

// For the points' logs y at readaheads x with weights w (0: left out): the
// floor, R0 and ln B of the least squared error.
struct SaturationParams
{
    double floor = 0, half = 0, lnRate = 0;
};

SaturationParams leastSquares(const QList<double> &x, const QList<double> &y, const QList<double> &w)
{
    const qsizetype n = x.size();
    double weights = 0;
    for (const double v : w)
        weights += v;
    // For a floor F and a half-rate point R0, ln B is the weighted mean of
    // ln T - ln(S / (S + R0)); what is left over is the squared error.
    const auto error = [&](double floor, double half, double *lnRate) {
        double sum = 0;
        for (qsizetype i = 0; i < n; ++i) {
            const double s = std::max(x.at(i), floor);
            sum += w.at(i) * (y.at(i) - std::log(s / (s + half)));
        }
        const double lnB = sum / weights;
        double sse = 0;
        for (qsizetype i = 0; i < n; ++i) {
            const double s = std::max(x.at(i), floor);
            const double r = y.at(i) - lnB - std::log(s / (s + half));
            sse += w.at(i) * r * r;
        }
        if (lnRate)
            *lnRate = lnB;
        return sse;
    };
    SaturationParams best;
    double bestError = -1;
    const double lo = std::log(x.constFirst() / 64.0), hi = std::log(x.constLast() * 4.0);
    constexpr int steps = 160;
    int above = 0; // points with weight above the floor
    for (qsizetype f = n - 1; f >= 0; --f) {
        if (w.at(f) > 0)
            ++above;
        if (above <= kSaturationMinPoints)
            continue;
        const double floor = x.at(f);
        // A coarse scan over R0 in log steps, then golden-section between
        // the best step's neighbours.
        int at = 0;
        double atError = -1;
        for (int k = 0; k <= steps; ++k) {
            const double e = error(floor, std::exp(lo + (hi - lo) * k / steps), nullptr);
            if (atError < 0 || e < atError)
                atError = e, at = k;
        }
        double a = lo + (hi - lo) * std::max(0, at - 1) / steps, b = lo + (hi - lo) * std::min(steps, at + 1) / steps;
        const double g = (std::sqrt(5.0) - 1) / 2;
        for (int it = 0; it < 40; ++it) {
            const double c = b - g * (b - a), d = a + g * (b - a);
            if (error(floor, std::exp(c), nullptr) < error(floor, std::exp(d), nullptr))
                b = d;
            else
                a = c;
        }
        const double half = std::exp((a + b) / 2);
        const double e = error(floor, half, nullptr);
        if (bestError < 0 || e < bestError) {
            bestError = e;
            best.floor = floor;
            best.half = half;
        }
    }
    error(best.floor, best.half, &best.lnRate);
    return best;
}

SaturationFit fitSaturation(const QList<CurvePoint> &curve, double noisePct)
{
    SaturationFit fit;
    const qsizetype n = curve.size();
    if (n < kSaturationMinPoints + 2 || noisePct <= 0)
        return fit;
    QList<double> x, y, w;
    for (const CurvePoint &p : curve) {
        if (p.mbPerSec <= 0 || p.readAheadKiB == 0)
            return fit;
        x << double(p.readAheadKiB);
        y << std::log(p.mbPerSec);
        w << double(std::max<qsizetype>(1, p.keptRuns().size()));
    }
    const double sigma = std::max(noisePct, kSaturationNoiseFloorPct) / 100.0;
    // Each point's residual in units of its median's standard error.
    const auto scores = [&](const SaturationParams &m) {
        QList<double> z;
        for (qsizetype i = 0; i < n; ++i) {
            const double s = std::max(x.at(i), m.floor);
            const double r = y.at(i) - m.lnRate - std::log(s / (s + m.half));
            z << r / (sigma * std::sqrt(kMedianVariance / std::max(w.at(i), 1.0)));
        }
        return z;
    };
    // Left out one at a time, the worst first: points far below the fit (a
    // stall only ever slows a run; two of three stalled make the median a
    // stall's), up to one in six; as many far above it (a VM that ran in
    // its fast mode through a point's runs, or a rise steeper than the
    // curve's at one or two points).
    QList<double> kept = w;
    int below = 0, above = 0;
    SaturationParams m;
    QList<double> z;
    for (;;) {
        m = leastSquares(x, y, kept);
        z = scores(m);
        qsizetype worst = -1;
        for (qsizetype i = 0; i < n; ++i)
            if (kept.at(i) > 0 && (worst < 0 || std::abs(z.at(i)) > std::abs(z.at(worst))))
                worst = i;
        if (worst < 0 || std::abs(z.at(worst)) <= kSaturationOutlierZ)
            break;
        if (z.at(worst) < 0 ? below >= std::max<qsizetype>(1, n / 6) : above >= std::max<qsizetype>(1, n / 6))
            break;
        (z.at(worst) < 0 ? below : above) += 1;
        kept[worst] = 0;
    }
    double squares = 0;
    int counted = 0, far = 0;
    for (qsizetype i = 0; i < n; ++i) {
        if (kept.at(i) <= 0)
            continue;
        squares += z.at(i) * z.at(i);
        ++counted;
        if (std::abs(z.at(i)) > kSaturationOutlierZ)
            ++far;
    }
    fit.rate = std::exp(m.lnRate);
    fit.halfKiB = m.half;
    fit.floorKiB = m.floor;
    fit.chi = counted > 0 ? squares / counted : 0;
    fit.outliers = below + above;
    for (qsizetype i = 0; i < n; ++i) {
        const double s = std::max(x.at(i), m.floor);
        fit.values << fit.rate * s / (s + m.half);
        fit.runs += int(kept.at(i));
    }
    fit.fits = far == 0 && fit.chi <= kSaturationMaxChi;
    return fit;
}

// The typical noise of one run: pooledNoisePct (points measured once tell
// nothing about it).
void findNoise(const QList<CurvePoint> &curve, CurveAnalysis &a)
{
    int fewest = -1;
    for (const CurvePoint &p : curve) {
        const int n = int(std::max<qsizetype>(1, p.keptRuns().size()));
        fewest = fewest < 0 ? n : std::min(fewest, n);
    }
    a.fewestRuns = std::max(fewest, 1);
    a.noisePct = pooledNoisePct(curve);
    a.resolved = a.noisePct <= a.tolerancePct;
    if (!a.resolved) {
        const double ratio = a.noisePct / a.tolerancePct;
        a.neededRuns = int(std::ceil(double(a.fewestRuns) * ratio * ratio));
    }
    // A machine that reads at two speeds (a VM whose host is sometimes
    // busy, on this one about 1250 and 1950 MB/s) draws a curve of each
    // point's share of slow runs: its knee is neither speed's, and the
    // pooled noise, which leaves such points out, does not show it.
    // One fast run above three slow ones is the fast mode only when it is
    // above the neighbouring points too: a point of three stalls and one
    // ordinary run has its "fast" run at the neighbours' level.
    TwoSpeeds top; // at the largest readahead that showed them (the curve is sorted)
    bool oneFastRun = false;
    int wider = 0; // points of four runs or more
    for (qsizetype i = 0; i < curve.size(); ++i) {
        const CurvePoint &p = curve.at(i);
        const auto speeds = p.twoSpeeds();
        if (!speeds)
            continue;
        if (speeds->oneFastRun) {
            double neighbours = 0;
            if (i > 0)
                neighbours = std::max(neighbours, curve.at(i - 1).mbPerSec);
            if (i + 1 < curve.size())
                neighbours = std::max(neighbours, curve.at(i + 1).mbPerSec);
            if (speeds->fastMbPerSec < kNeighbourGap * neighbours)
                continue;
            oneFastRun = true;
        }
        wider += speeds->threeRuns ? 0 : 1;
        a.twoSpeedKiB << p.readAheadKiB;
        top = *speeds;
    }
    if (!oneFastRun && !(a.twoSpeedKiB.size() >= 2 && wider >= 1) && a.twoSpeedKiB.size() < 3)
        a.twoSpeedKiB.clear();
    if (!a.twoSpeedKiB.isEmpty()) {
        // The speeds where the curve is flattest (below the knee both
        // scale with readahead).
        a.resolved = false;
        a.slowSpeedMbPerSec = top.slowMbPerSec;
        a.fastSpeedMbPerSec = top.fastMbPerSec;
    }
}

} // namespace

CurveAnalysis analyzeCurve(const QList<CurvePoint> &curve, double tolerance, quint64 above)
{
    CurveAnalysis a;
    a.tolerancePct = tolerance * 100.0;
    a.bandPct = a.tolerancePct;
    if (curve.isEmpty())
        return a;
    findNoise(curve, a);
    const SaturationFit model = fitSaturation(curve, a.noisePct);
    const QList<double> fit = model.fits ? model.values : monotoneFit(curve);
    a.fittedMbPerSec = fit;
    a.saturation = model.fits;
    a.fitRateMbPerSec = model.rate;
    a.fitHalfKiB = model.halfKiB;
    a.fitFloorKiB = model.floorKiB;
    a.fitChi = model.chi;

    // The best measured point, as measured.
    for (const CurvePoint &p : curve)
        if (p.mbPerSec > a.bestMbPerSec) {
            a.bestMbPerSec = p.mbPerSec;
            a.bestKiB = p.readAheadKiB;
        }
    // The plateau: the median of the top kPlateauPoints fitted values, so
    // one lucky draw at the largest readahead (which has no later point to
    // pool with) does not raise it; its point is the smallest whose fitted
    // value reaches that figure. On a curve still rising at its end this is
    // below the last point, and the verdict says the curve was still rising.
    QList<double> best;
    for (qsizetype i = fit.size() - 1; i >= 0 && best.size() < kPlateauPoints; --i)
        best << fit.at(i);
    a.plateauMbPerSec = medianOf(best);
    qsizetype ref = fit.size() - 1;
    for (qsizetype i = fit.size() - 1; i >= 0 && fit.at(i) >= a.plateauMbPerSec; --i)
        ref = i;
    a.plateauKiB = curve.at(ref).readAheadKiB;

    // The pick: the smallest point whose fitted value is not separable from
    // the tolerance line: it misses plateau x (1 - tolerance) by less than
    // two standard errors of a gap between two points of kMinRunsPerPoint
    // runs each (the noise taken as one run's error). One line for the whole
    // curve, so of two points with the same fitted value the smaller is
    // picked, however often each was measured.
    // With the saturation fit, the gap is the fit's: its three figures rest
    // on all the runs, so a fitted value errs by about the noise x
    // sqrt(3 / runs), and a gap between two by sqrt(2) times that.
    const double gapError = model.fits
        ? a.noisePct / 100.0 * std::sqrt(2.0 * 3.0 / double(std::max(model.runs, 1)))
        : a.noisePct / 100.0 * std::sqrt(2.0 / double(kMinRunsPerPoint));
    a.bandPct = a.tolerancePct + 200.0 * gapError;
    const double floorRate = a.plateauMbPerSec * (1.0 - a.bandPct / 100.0);
    qsizetype pick = -1;
    for (qsizetype i = 0; i < curve.size() && pick < 0; ++i)
        if (fit.at(i) >= floorRate && curve.at(i).readAheadKiB > above)
            pick = i;
    if (pick < 0) {
        pick = curve.size() - 1;
        while (pick > 0 && curve.at(pick).readAheadKiB <= above)
            --pick;
    }
    a.pickKiB = curve.at(pick).readAheadKiB;

    // The same within noise: the pick and every point above it (the fit
    // does not fall, and a point above the pick is as close or closer).
    a.sameMinMbPerSec = a.sameMaxMbPerSec = curve.at(pick).mbPerSec;
    for (qsizetype i = pick; i < curve.size(); ++i) {
        const CurvePoint &p = curve.at(i);
        a.sameKiB << p.readAheadKiB;
        a.sameMinMbPerSec = std::min(a.sameMinMbPerSec, p.mbPerSec);
        a.sameMaxMbPerSec = std::max(a.sameMaxMbPerSec, p.mbPerSec);
    }
    if (pick + 1 < curve.size()) {
        const CurvePoint &up = curve.at(pick + 1);
        a.stepUpKiB = up.readAheadKiB;
        const double here = curve.at(pick).mbPerSec;
        a.stepUpGainPct = here > 0 ? (up.mbPerSec - here) / here * 100.0 : 0;
    }
    return a;
}

// ---- a recorded curve ----------------------------------------------------------------

namespace {

constexpr double kMaxReadaheadKiBInFile = 4.0 * 1024 * 1024; // 4 GiB
constexpr double kMaxMbPerSecInFile = 1e7;                      // 10 TB/s: no device is faster

Error curveError(const QString &source, const QString &what)
{
    return makeError(InvalidArgument, AdvisorText::tr("%1: %2").arg(source, what));
}

// A number that must be there, finite and >= 0.
Result<double> requiredNumber(const QJsonObject &o, QStringView key, const QString &where, const QString &source)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return curveError(source, AdvisorText::tr("%1 has no \"%2\" (each point needs \"read_ahead_kb\" and "
                                                  "\"mb_per_s\")").arg(where, key.toString()));
    if (!v.isDouble())
        return curveError(source, AdvisorText::tr("%1: \"%2\" is not a number").arg(where, key.toString()));
    const double d = v.toDouble();
    if (!std::isfinite(d) || d < 0 || d > kMaxMbPerSecInFile * 1000)
        return curveError(source, AdvisorText::tr("%1: \"%2\" is %3; it must be 0 or more")
                                      .arg(where, key.toString(), QString::number(d)));
    return d;
}

Result<CurvePoint> pointFrom(const QJsonValue &value, qsizetype index, const QString &source)
{
    const QString where = AdvisorText::tr("point %1").arg(index + 1);
    if (!value.isObject())
        return curveError(source, AdvisorText::tr("%1 is not an object ({\"read_ahead_kb\": N, \"mb_per_s\": X})")
                                      .arg(where));
    const QJsonObject o = value.toObject();
    auto ra = requiredNumber(o, u"read_ahead_kb", where, source);
    if (!ra)
        return ra.error();
    if (*ra < 1 || *ra > kMaxReadaheadKiBInFile || std::floor(*ra) != *ra)
        return curveError(source, AdvisorText::tr("%1: read_ahead_kb %2 is not a whole number from 1 to 4194304 "
                                                  "(4 GiB)").arg(where, QString::number(*ra)));
    auto rate = requiredNumber(o, u"mb_per_s", where, source);
    if (!rate)
        return rate.error();
    if (*rate > kMaxMbPerSecInFile)
        return curveError(source, AdvisorText::tr("%1: mb_per_s %2 is more than any device reads (10000000 at most)")
                                      .arg(where, QString::number(*rate)));
    CurvePoint p;
    p.readAheadKiB = quint64(*ra);
    p.refinement = o.value(u"refinement").toBool();
    double request = o.value(u"avg_request_kb").toDouble();
    if (!std::isfinite(request) || request < 0 || request > kMaxReadaheadKiBInFile)
        request = 0; // a figure beside the curve, not part of it
    const QJsonValue runs = o.value(u"runs");
    if (runs.isArray() && !runs.toArray().isEmpty()) {
        for (const QJsonValue &r : runs.toArray()) {
            if (!r.isDouble() || !std::isfinite(r.toDouble()) || r.toDouble() < 0 || r.toDouble() > kMaxMbPerSecInFile)
                return curveError(source, AdvisorText::tr("%1: \"runs\" holds something that is not an MB/s of 0 "
                                                          "or more").arg(where));
            addRun(p, r.toDouble(), request);
        }
    } else if (const QJsonValue inner = o.value(u"result"); inner.isObject()) {
        // sweep --json --with-runs: the point's own runs.
        for (const QJsonValue &r : inner.toObject().value(u"runs").toArray()) {
            const double v = r.toObject().value(u"mb_per_s").toDouble(-1);
            if (std::isfinite(v) && v >= 0 && v <= kMaxMbPerSecInFile)
                addRun(p, v, request);
        }
    }
    if (p.runs.isEmpty())
        addRun(p, *rate, request);
    // advise --json's overshoot: what waste weighs for server and mixed.
    const double ratio = o.value(u"device_read_ratio").toDouble();
    if (std::isfinite(ratio) && ratio > 0 && ratio <= 1e6) {
        p.readRatios = {ratio};
        p.deviceReadRatio = ratio;
    }
    return p;
}

} // namespace

Result<RecordedCurve> recordedCurveFromJson(const QJsonObject &object, const QString &source)
{
    // A history record's result, an advise --json output and a hand-written
    // file keep the curve under "curve"; a sweep --json output under "points".
    QJsonValue list = object.value(u"curve");
    if (list.isUndefined())
        list = object.value(u"points");
    if (list.isUndefined() && object.value(u"result").isObject())
        return recordedCurveFromJson(object.value(u"result").toObject(), source);
    if (!list.isArray())
        return curveError(source, AdvisorText::tr("no curve: expected {\"curve\": [{\"read_ahead_kb\": N, "
                                                  "\"mb_per_s\": X}, ...]} or the output of sweep --json or "
                                                  "advise --json"));
    const QJsonArray points = list.toArray();
    RecordedCurve out;
    for (qsizetype i = 0; i < points.size(); ++i) {
        auto p = pointFrom(points.at(i), i, source);
        if (!p)
            return p.error();
        for (const CurvePoint &q : std::as_const(out.curve))
            if (q.readAheadKiB == p->readAheadKiB)
                return curveError(source, AdvisorText::tr("read_ahead_kb %1 is given twice (points are one per "
                                                          "readahead; put repeated runs in \"runs\")")
                                              .arg(p->readAheadKiB));
        out.curve << *p;
    }
    if (out.curve.size() < 2)
        return curveError(source, AdvisorText::tr("the curve has %n point(s); a knee needs at least 2", nullptr,
                                                  int(out.curve.size())));
    std::sort(out.curve.begin(), out.curve.end(),
              [](const CurvePoint &x, const CurvePoint &y) { return x.readAheadKiB < y.readAheadKiB; });
    out.device = object.value(u"device").toString();
    out.workload = object.value(u"workload").toString();
    if (out.workload.isEmpty() && object.value(u"sweep").isString())
        out.workload = object.value(u"test").toString(); // a sweep of seq; other kinds need --workload
    const QJsonValue floor = object.value(u"floor_kb");
    if (floor.isDouble() && floor.toDouble() >= 1 && floor.toDouble() <= kMaxReadaheadKiBInFile)
        out.floorKiB = quint64(floor.toDouble());
    const double raw = object.value(u"raw_peak_mb_per_s").toDouble();
    if (std::isfinite(raw) && raw > 0 && raw <= kMaxMbPerSecInFile)
        out.rawMbPerSec = raw;
    return out;
}

Result<RecordedCurve> parseRecordedCurve(const QByteArray &json, const QString &source)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return curveError(source, AdvisorText::tr("not JSON (%1 at byte %2)").arg(error.errorString()).arg(error.offset));
    if (!doc.isObject())
        return curveError(source, AdvisorText::tr("not a JSON object: expected {\"curve\": [...]}"));
    return recordedCurveFromJson(doc.object(), source);
}

} // namespace blocktune
