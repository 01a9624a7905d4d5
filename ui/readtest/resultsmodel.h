#pragma once
// A finished read test as a table: one row per run and stream (a, b, c...)
// with its MB/s and read latency (p50, p99, p99.9), then per stream its
// mean, min, max and spread, and Jain's fairness over the streams. Sorting (ResultsSortProxy) keeps the summary rows below the
// runs in either order.

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>
#include <vector>

namespace blocktune {

struct ReadTestResult;

class ReadTestResultsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReadTestResultsModel)

public:
    enum Column {
        Run, Stream, Role, MBps, P50, P99, P999, Seconds, Bytes, RequestKiB, Overshoot, Fairness, ColumnCount
    };
    /// Raw number behind a cell (sorting, CSV); invalid where the cell is empty.
    static constexpr int ValueRole = Qt::UserRole;
    /// 0 = a run's row, 1 = a stream's summary, 2 = fairness over all runs.
    static constexpr int GroupRole = Qt::UserRole + 1;
    /// The run's label ("a") on a run's row, whatever the cell says.
    static constexpr int LabelRole = Qt::UserRole + 2;

    explicit ReadTestResultsModel(QObject *parent = nullptr);
    ~ReadTestResultsModel() override;

    void setResult(const ReadTestResult &result);
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The table as CSV: a header line, numbers without units in the C
    /// locale (bytes, seconds, MB/s = 10^6 bytes/s, KiB).
    QString toCsv() const;

private:
    struct Row;
    std::vector<Row> m_rows;
};

class ResultsSortProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResultsSortProxy)

public:
    explicit ResultsSortProxy(QObject *parent = nullptr) : QSortFilterProxyModel(parent) {}
    ~ResultsSortProxy() override = default;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

} // namespace blocktune
