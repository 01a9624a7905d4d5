// `monitor --json`: one line per tick, written by hand into one buffer.
// At 10 Hz on 5,000 devices this is ~10 MB a second of text: too much for
// QJsonDocument's tree, or for a QByteArray::append per token, to build and
// throw away every tick.
#include "monitor.h"

#include <QDateTime>
#include <QJsonDocument>

#include <charconv>
#include <cmath>
#include <cstring>

namespace blocktune {

namespace {

/// Writes through a raw pointer into space reserved in a QByteArray; each
/// caller reserves the most it can write before writing.
class JsonWriter final
{
public:
    explicit JsonWriter(QByteArray &out) : m_out(out), m_used(out.size()), m_data(out.data()) {}
    ~JsonWriter() { m_out.resize(m_used); }
    Q_DISABLE_COPY_MOVE(JsonWriter)

    /// The only place the buffer may move: m_data is refreshed here, so
    /// each put() is a store, not QByteArray::data()'s detach check.
    void reserve(qsizetype bytes)
    {
        if (m_out.size() - m_used < bytes) {
            m_out.resize(std::max(m_used + bytes, m_out.size() * 2));
            m_data = m_out.data();
        }
    }
    template<size_t N>
    void literal(const char (&text)[N])
    {
        std::memcpy(m_data + m_used, text, N - 1);
        m_used += qsizetype(N - 1);
    }
    void put(char c) { m_data[m_used++] = c; }
    void integer(quint64 value)
    {
        char *p = m_data + m_used;
        m_used += std::to_chars(p, p + 24, value).ptr - p;
    }
    /// Fixed point, trailing zeros dropped: 41.943000 -> 41.943, 12.000 -> 12.
    /// Scaled integers rather than to_chars(double, fixed): a tick of 5,000
    /// devices formats 40,000 numbers, and this is several times faster.
    void number(double value, int decimals)
    {
        static constexpr double kScale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
        if (!std::isfinite(value) || std::fabs(value) >= 1e12 || decimals < 0 || decimals > 6) {
            literal("null");
            return;
        }
        const qint64 scaled = roundHalfAway(value * kScale[decimals]);
        if (scaled == 0) {
            put('0');
            return;
        }
        if (scaled < 0)
            put('-');
        quint64 magnitude = quint64(scaled < 0 ? -scaled : scaled);
        quint64 divisor = 1;
        for (int i = 0; i < decimals; ++i)
            divisor *= 10;
        integer(magnitude / divisor);
        quint64 fraction = magnitude % divisor;
        if (fraction == 0)
            return;
        int digits = decimals;
        while (fraction % 10 == 0) {
            fraction /= 10;
            --digits;
        }
        put('.');
        char *p = m_data + m_used;
        for (int i = digits - 1; i >= 0; --i) {
            p[i] = char('0' + fraction % 10);
            fraction /= 10;
        }
        m_used += digits;
    }
    void number(const std::optional<double> &value, int decimals)
    {
        if (value)
            number(*value, decimals);
        else
            literal("null");
    }
    /// A JSON string; kernel names are plain ASCII, anything else is escaped.
    /// Reserve 6 bytes per character plus 2 for it.
    void string(QStringView text)
    {
        put('"');
        for (const QChar ch : text) {
            const char16_t c = ch.unicode();
            if (c >= 0x20 && c < 0x7f && c != u'"' && c != u'\\') {
                put(char(c));
            } else if (c == u'"' || c == u'\\') {
                put('\\');
                put(char(c));
            } else {
                static const char hex[] = "0123456789abcdef";
                literal("\\u");
                put(hex[(c >> 12) & 0xf]);
                put(hex[(c >> 8) & 0xf]);
                put(hex[(c >> 4) & 0xf]);
                put(hex[c & 0xf]);
            }
        }
        put('"');
    }
    void string(QStringView text, qsizetype extra)
    {
        reserve(text.size() * 6 + 2 + extra);
        string(text);
    }
    /// Text that is JSON already, reserved here.
    void raw(QByteArrayView json)
    {
        reserve(json.size());
        std::memcpy(m_data + m_used, json.data(), size_t(json.size()));
        m_used += json.size();
    }

private:
    /// std::llround for |x| < 1e18 without the libm call: the truncation and
    /// the remainder x - trunc(x) are exact, so ties go away from zero alike.
    static qint64 roundHalfAway(double x)
    {
        qint64 t = qint64(x);
        const double rest = x - double(t);
        if (rest >= 0.5)
            ++t;
        else if (rest <= -0.5)
            --t;
        return t;
    }

    QByteArray &m_out;
    qsizetype m_used;
    char *m_data;
};

// The most one device's object can take besides its name: 13 keys
// (~210 bytes) and 13 numbers of at most 40 characters.
constexpr qsizetype kDeviceBytes = 760;
// A device's "latency": 4 histograms of at most 32 [upper_us, count] pairs
// (~35 bytes each) and their percentiles.
constexpr qsizetype kLatencyBytes = 5000;

// {"histogram":[[upper_us,count],...],"p50_us":..,"p99_us":..}: non-empty
// buckets only, in ascending order.
void writeHistogram(JsonWriter &w, const Log2Histogram &h)
{
    w.literal("{\"histogram\":[");
    bool first = true;
    for (size_t i = 0; i < h.counts.size(); ++i) {
        if (h.counts[i] == 0)
            continue;
        if (!first)
            w.put(',');
        first = false;
        w.put('[');
        w.integer(quint64(1) << (i + 1));
        w.put(',');
        w.integer(h.counts[i]);
        w.put(']');
    }
    w.literal("],\"p50_us\":");
    w.number(h.percentileUs(50), 0);
    w.literal(",\"p99_us\":");
    w.number(h.percentileUs(99), 0);
    w.put('}');
}

void writeLatency(JsonWriter &w, const DeviceLatency &l)
{
    w.reserve(kLatencyBytes);
    w.literal(",\"latency\":{\"read_queue\":");
    writeHistogram(w, l.readQueue);
    w.literal(",\"read_device\":");
    writeHistogram(w, l.readDevice);
    w.literal(",\"write_queue\":");
    writeHistogram(w, l.writeQueue);
    w.literal(",\"write_device\":");
    writeHistogram(w, l.writeDevice);
    w.put('}');
}

// One device's object: its name and the figures iostat -x prints, then
// its latency histograms where the probe ran.
void writeDevice(JsonWriter &w, const DeviceRates &d)
{
    w.string(d.name);
    w.literal(":{\"read_bytes\":");
    w.integer(d.readBytes);
    w.literal(",\"read_mb_per_s\":");
    w.number(d.readMBps, 3);
    w.literal(",\"reads_per_s\":");
    w.number(d.readsPerSec, 3);
    w.literal(",\"avg_read_request_kb\":");
    w.number(d.avgReadRequestKiB, 3);
    w.literal(",\"read_await_ms\":");
    w.number(d.readAwaitMs, 3);
    w.literal(",\"queue_depth\":");
    w.number(d.queueDepth, 3);
    w.literal(",\"util_pct\":");
    w.number(d.utilPct, 3);
    w.literal(",\"inflight\":");
    w.integer(d.inFlight);
    w.literal(",\"write_bytes\":");
    w.integer(d.writeBytes);
    w.literal(",\"write_mb_per_s\":");
    w.number(d.writeMBps, 3);
    w.literal(",\"writes_per_s\":");
    w.number(d.writesPerSec, 3);
    w.literal(",\"write_await_ms\":");
    w.number(d.writeAwaitMs, 3);
    w.literal(",\"irq_per_s\":");
    w.number(d.irqPerSec, 3);
    if (d.latency)
        writeLatency(w, *d.latency);
    if (d.readahead) {
        // The object `readahead --json` has per device (a few per tick, not
        // thousands: the devices that read ahead, or the named ones).
        w.reserve(16);
        w.literal(",\"readahead\":");
        w.raw(QJsonDocument(readaheadDeviceToJson(*d.readahead)).toJson(QJsonDocument::Compact));
    }
}

} // namespace

void appendSampleJson(const Sample &s, QByteArray &out)
{
    JsonWriter w(out);
    w.reserve(256);
    w.literal("{\"t\":");
    w.number(s.t, 3);
    w.literal(",\"time\":");
    const QString time = QDateTime::fromMSecsSinceEpoch(s.wallMs, Qt::UTC).toString(Qt::ISODateWithMs);
    w.string(time, 0);
    w.reserve(128);
    w.literal(",\"interval_s\":");
    w.number(s.intervalS, 6);
    w.literal(",\"interrupts_per_s\":");
    w.number(s.interruptsPerSec, 3);
    w.literal(",\"devices\":{");
    bool first = true;
    for (const DeviceRates &d : s.devices) {
        w.reserve(d.name.size() * 6 + 2 + kDeviceBytes);
        if (!first)
            w.put(',');
        first = false;
        writeDevice(w, d);
        w.reserve(1);
        w.put('}');
    }
    w.reserve(64);
    w.literal("},\"groups\":{");
    first = true;
    for (const GroupBalance &g : s.groups) {
        w.reserve(g.name.size() * 6 + g.kind.size() * 6 + 200);
        if (!first)
            w.put(',');
        first = false;
        w.string(g.name);
        w.literal(":{\"kind\":");
        w.string(g.kind);
        w.literal(",\"members\":{");
        bool firstMember = true;
        for (const MemberShare &m : g.members) {
            w.reserve(m.name.size() * 6 + 200);
            if (!firstMember)
                w.put(',');
            firstMember = false;
            w.string(m.name);
            w.literal(":{\"read_bytes\":");
            w.integer(m.readBytes);
            w.literal(",\"share\":");
            w.number(m.share, 6);
            if (m.present)
                w.literal(",\"present\":true}");
            else
                w.literal(",\"present\":false}");
        }
        w.reserve(200);
        w.literal("},\"cv\":");
        w.number(g.bytes.cv, 6);
        w.literal(",\"jain\":");
        w.number(g.bytes.jain, 6);
        w.put('}');
    }
    w.reserve(64);
    w.literal("},\"missing\":[");
    first = true;
    for (const QString &name : s.missing) {
        w.reserve(name.size() * 6 + 4);
        if (!first)
            w.put(',');
        first = false;
        w.string(name);
    }
    w.reserve(4);
    w.literal("]}\n");
}

} // namespace blocktune
