#pragma once
// Keeps a finished read test, sweep or advice in the history from the
// console: off the GUI thread (SQLite waits up to 2 s for a lock), with
// the outcome handed back on the GUI thread.

#include <QObject>
#include <QStringList>

#include <functional>

namespace blocktune {

struct HistoryRecord;

/// What keeping a record came to: its id (0 when it was not kept), and what
/// the store said (a corrupt file set aside, a lock, an error), if anything.
struct KeptRecord
{
    qint64 id = 0;
    QStringList said;
};

/// Adds `record` to the user's history on the thread pool; `done` runs on
/// the GUI thread afterwards unless `owner` is gone by then.
void keepInHistory(QObject *owner, const HistoryRecord &record, std::function<void(const KeptRecord &)> done);

} // namespace blocktune
