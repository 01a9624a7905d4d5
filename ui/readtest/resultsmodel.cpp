#include "resultsmodel.h"

#include "format.h"
#include "readtest/readtest.h"

#include <QFont>
#include <QLocale>

#include <cmath>
#include <optional>

namespace blocktune {

struct ReadTestResultsModel::Row
{
    int group = 0;
    QString run, stream, role;
    QString label; ///< a run's row: its label
    std::optional<double> values[ColumnCount];
};

ReadTestResultsModel::ReadTestResultsModel(QObject *parent) : QAbstractTableModel(parent) {}
ReadTestResultsModel::~ReadTestResultsModel() = default;

namespace {

QString roleText(const StreamResult &s)
{
    if (s.pattern == AccessPattern::Random)
        return ReadTestResultsModel::tr("random");
    return s.role == StreamRole::Measure ? ReadTestResultsModel::tr("measured")
                                         : ReadTestResultsModel::tr("background");
}

const DeviceCounterDelta *statsOf(const RunResult &run, const QString &device)
{
    for (const DeviceCounterDelta &d : run.deviceStats)
        if (d.device == device && d.available)
            return &d;
    return nullptr;
}

} // namespace

void ReadTestResultsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void ReadTestResultsModel::setResult(const ReadTestResult &result)
{
    beginResetModel();
    m_rows.clear();
    qsizetype streams = 0;
    for (const RunResult &run : result.runs)
        streams = std::max(streams, run.streams.size());
    QList<QList<double>> perStream(streams);
    for (const RunResult &run : result.runs) {
        for (qsizetype i = 0; i < run.streams.size(); ++i) {
            const StreamResult &s = run.streams.at(i);
            Row row;
            row.run = run.cancelled ? tr("%1 (stopped)").arg(run.label) : run.label;
            row.label = run.label;
            row.stream = s.name;
            row.role = roleText(s);
            row.values[MBps] = s.mbPerSec;
            if (s.latencyUs.count > 0) {
                row.values[P50] = s.latencyUs.percentileUs(50);
                row.values[P99] = s.latencyUs.percentileUs(99);
                row.values[P999] = s.latencyUs.percentileUs(99.9);
            }
            row.values[Seconds] = s.seconds;
            row.values[Bytes] = double(s.bytes);
            if (const DeviceCounterDelta *d = statsOf(run, s.device)) {
                row.values[RequestKiB] = d->avgRequestKiB;
                row.values[Overshoot] = double(d->overshootBytes);
            }
            if (run.streams.size() > 1)
                row.values[Fairness] = run.fairnessJain;
            m_rows.push_back(row);
            if (!run.cancelled && s.error.isEmpty())
                perStream[i] << s.mbPerSec;
        }
    }
    // Per stream: median (the figure), mean, min, max, spread (max - min)
    // of its complete runs.
    QList<double> means;
    QList<double> seqMeans;
    for (qsizetype i = 0; i < streams; ++i) {
        const Summary sum = summarize(perStream.at(i));
        QString name, role;
        bool sequential = true;
        for (const RunResult &run : result.runs) {
            if (i < run.streams.size()) {
                name = run.streams.at(i).name;
                role = roleText(run.streams.at(i));
                sequential = run.streams.at(i).pattern == AccessPattern::Sequential;
                break;
            }
        }
        const std::pair<QString, double> lines[] = {
            {tr("median"), sum.median}, {tr("mean"), sum.mean},          {tr("min"), sum.min},
            {tr("max"), sum.max},       {tr("spread"), sum.max - sum.min}};
        for (const auto &[label, value] : lines) {
            Row row;
            row.group = 1;
            row.run = label;
            row.stream = name;
            row.role = role;
            if (sum.count > 0)
                row.values[MBps] = value;
            m_rows.push_back(row);
        }
        means << sum.mean;
        if (sequential)
            seqMeans << sum.mean;
    }
    if (streams > 1) {
        Row row;
        row.group = 2;
        row.run = tr("all runs");
        row.stream = tr("fairness over the streams' means");
        row.values[Fairness] = jainFairness(seqMeans);
        m_rows.push_back(row);
    }
    endResetModel();
}

int ReadTestResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ReadTestResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReadTestResultsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row &row = m_rows.at(size_t(index.row()));
    const int col = index.column();
    if (role == GroupRole)
        return row.group;
    if (role == LabelRole)
        return row.label;
    if (role == Qt::TextAlignmentRole)
        return col >= MBps ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::FontRole && row.group > 0) {
        QFont f;
        f.setItalic(row.group == 1);
        f.setBold(row.group == 2);
        return f;
    }
    if (role == ValueRole) {
        switch (col) {
        case Run: return row.run;
        case Stream: return row.stream;
        case Role: return row.role;
        default: return row.values[col] ? QVariant(*row.values[col]) : QVariant();
        }
    }
    if (role == Qt::ToolTipRole && col == Stream)
        return row.stream; // the view may elide a long summary label
    if (role != Qt::DisplayRole)
        return {};
    switch (col) {
    case Run: return row.run;
    case Stream: return row.stream;
    case Role: return row.role;
    default: break;
    }
    if (!row.values[col])
        return {};
    const double v = *row.values[col];
    switch (col) {
    case MBps: return format::rate(v);
    case P50:
    case P99:
    case P999: return format::latencyUs(v);
    case Seconds: return QString(format::number(v, 3) + QStringLiteral(" s"));
    case Bytes: return format::size(quint64(v));
    case RequestKiB: return format::kib(v, 1);
    case Overshoot: return QString((v < 0 ? QStringLiteral("−") : QString()) + format::size(quint64(std::abs(v))));
    case Fairness: return format::number(v, 3);
    default: return {};
    }
}

QVariant ReadTestResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case MBps: return tr("10^6 bytes per second, from the stream's first read to its last, as dd prints");
        case P50:
        case P99:
        case P999: return tr("How long a read waited: half (p50), 99% (p99), 99.9% (p99.9) of the run's reads "
                             "took at most this (one pread; buffered, page-cache hits included)");
        case RequestKiB: return tr("The device's average read request during the run (/proc/diskstats)");
        case Overshoot: return tr("Bytes the device read beyond what the test consumed: readahead not used "
                                  "(negative: pages came from the cache)");
        case Fairness: return tr("Jain's index over the streams' MB/s: 1 = equal shares, 1/n = one stream got all");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Run: return tr("Run");
    case Stream: return tr("Stream");
    case Role: return tr("Role");
    case MBps: return tr("MB/s");
    case P50: return tr("p50");
    case P99: return tr("p99");
    case P999: return tr("p99.9");
    case Seconds: return tr("Seconds");
    case Bytes: return tr("Bytes");
    case RequestKiB: return tr("Request");
    case Overshoot: return tr("Overshoot");
    case Fairness: return tr("Fairness (Jain)");
    default: return {};
    }
}

QString ReadTestResultsModel::toCsv() const
{
    auto quote = [](QString s) {
        if (s.contains(u',') || s.contains(u'"'))
            s = u'"' + s.replace(u'"', QStringLiteral("\"\"")) + u'"';
        return s;
    };
    QString out = QStringLiteral("run,stream,role,mb_per_s,p50_us,p99_us,p99.9_us,seconds,bytes,avg_request_kib,"
                                 "overshoot_bytes,fairness_jain\n");
    const QLocale c = QLocale::c();
    for (const Row &row : m_rows) {
        QStringList cells{quote(row.run), quote(row.stream), quote(row.role)};
        for (int col = MBps; col < ColumnCount; ++col)
            cells << (row.values[col] ? c.toString(*row.values[col], 'g', 12) : QString());
        out += cells.join(u',') + u'\n';
    }
    return out;
}

bool ResultsSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const int gl = left.data(ReadTestResultsModel::GroupRole).toInt();
    const int gr = right.data(ReadTestResultsModel::GroupRole).toInt();
    if (gl != gr) // summaries stay below the runs whichever way the user sorts
        return sortOrder() == Qt::AscendingOrder ? gl < gr : gl > gr;
    const QVariant l = left.data(ReadTestResultsModel::ValueRole);
    const QVariant r = right.data(ReadTestResultsModel::ValueRole);
    if (l.typeId() == QMetaType::Double || r.typeId() == QMetaType::Double)
        return l.toDouble() < r.toDouble();
    return l.toString() < r.toString();
}

} // namespace blocktune
