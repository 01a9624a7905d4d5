#pragma once

#include <QWidget>

#include <memory>

namespace blocktune {

struct Advice;

/// The History tab: every finished read test and sweep (console and CLI),
/// newest first, from the history database (core/history). Select two and
/// Compare shows them side by side: the settings that differ, and each
/// result with its change in %. The database is read on a pool thread.
class HistoryView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryView)

public:
    /// `path` empty = HistoryStore::defaultPath().
    explicit HistoryView(const QString &path = {}, QWidget *parent = nullptr);
    ~HistoryView() override;

    int recordCount() const;
    /// Row `row` of the list (0 = newest): its record id.
    qint64 recordId(int row) const;

public Q_SLOTS:
    /// Reads the list again; loaded() follows.
    void reload();
    /// Shows records `a` and `b` side by side; compared() follows.
    void compare(qint64 a, qint64 b);
    /// Computes the advice sweep `id`'s curve gives; advised() follows.
    void adviseFrom(qint64 id);

Q_SIGNALS:
    void loaded(int count);
    void compared();
    void message(const QString &text);
    /// "Advise from this sweep": the advice its recorded curve gives
    /// (core/advisor's adviseFromCurve), nothing read.
    void advised(const blocktune::Advice &advice);

private:
    void tintDifferences();

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace blocktune
