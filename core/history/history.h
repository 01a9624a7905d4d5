#pragma once
// The read tests' history: every finished test and sweep, from the console
// or the CLI, with its device, the settings in force, the kernel and the
// time, in a local SQLite database ($XDG_DATA_HOME/blocktune/history.sqlite,
// or $BLOCKTUNE_HISTORY_DB). Any two records can be compared.
//
// Each call opens its own connection and closes it before returning, so a
// HistoryStore may be used from any thread (Qt SQL connections belong to
// the thread that made them). A corrupt database file is renamed aside
// (history.sqlite.corrupt-YYYYMMDDTHHMMSS) and a new one started; a locked
// one is reported and left alone. Either way the caller still has its result.

#include "common/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace blocktune {

struct ReadTestResult; // core/readtest
struct SweepResult;
struct Advice;         // core/advisor

/// Schema of the database; migrations bring older files up to it.
inline constexpr int kHistorySchemaVersion = 2;
/// Schema of `history --json` (historyToJson): 2 since records carry named
/// figures and streams as an array (docs/json.md); 1 had flat key maps.
inline constexpr int kHistoryJsonSchema = 2;

struct HistoryRecord
{
    qint64 id = 0;             ///< 0 until stored
    QDateTime recordedAt;      ///< UTC
    QString source;            ///< "console", "cli"
    QString kind;              ///< "test", "sweep" or "advice"
    QString test;              ///< seq, concurrent, server, mixed (advice: its workload, "concurrent:2")
    QString device;            ///< kernel name of the first measured device
    QString kernel;            ///< release the test ran on
    QString description;       ///< "bs 64K, 256M from offset 0, buffered" (readahead list for a sweep)
    double mbPerSec = 0;       ///< test: median over runs (older records: from their runs); sweep: best point
    bool ok = true;            ///< no I/O error, not stopped
    /// Flat "device setting" -> value: {"loop0 read_ahead_kb": 128, ...}.
    QJsonObject settings;
    /// Flat figures compared between records: {"mean MB/s": 330, ...}.
    QJsonObject metrics;
    /// The whole result (readTestToJson / sweepToJson).
    QJsonObject result;
    /// The same figures by name, for scripts (historyFigures): "spec",
    /// "summary", "devices", and "streams" (a test) or "points" (a sweep).
    QJsonObject figures;
};

/// The named figures of a record from its whole `result` (kind "test" or
/// "sweep"): what schema 2 of `history --json` shows in place of the flat
/// settings and metrics. Also how a record kept before schema 2 is read.
QJsonObject historyFigures(const QString &kind, const QJsonObject &result);

/// What a finished test or sweep becomes in the history.
HistoryRecord historyRecord(const ReadTestResult &result, const QString &source, const QString &description);
HistoryRecord historyRecord(const SweepResult &result, const QString &source, const QString &description);
/// A measured advice (kind "advice"): its curve, the recommendation, the
/// plateau and the raw peak; ok when it finished and was restored. Advice
/// computed from a recorded curve (advise --from) measured nothing and is
/// not kept.
HistoryRecord historyRecord(const Advice &advice, const QString &source);

/// One line of a comparison: the same key in two records.
struct HistoryDiff
{
    QString key;
    QString a;              ///< as text ("128", "mq-deadline", "-" when absent)
    QString b;
    bool differs = false;
    std::optional<double> percent; ///< numbers only: (b - a) / a * 100
};

struct HistoryComparison
{
    QList<HistoryDiff> settings; ///< every key either record has
    QList<HistoryDiff> results;  ///< metrics, with the change in %
};
HistoryComparison compareHistory(const HistoryRecord &a, const HistoryRecord &b);

/// What a store call did besides its answer: a corrupt file set aside.
struct HistoryNotice
{
    QString text; ///< empty when nothing happened worth saying
};

class HistoryStore final
{
public:
    /// $BLOCKTUNE_HISTORY_DB, else standardPath().
    static QString defaultPath();
    /// GenericDataLocation/blocktune/history.sqlite ($XDG_DATA_HOME/blocktune/...,
    /// ~/.local/share/blocktune/... by default).
    static QString standardPath();

    explicit HistoryStore(QString path = defaultPath());

    /// The path is usable: one that $BLOCKTUNE_HISTORY_DB names must be in a
    /// folder that exists (no other history is used in its place); the
    /// default one's folder is made when a record is added.
    Status usable() const;

    const QString &path() const { return m_path; }

    /// Stores `record`; returns its id. `notice` (optional) says whether a
    /// corrupt file was set aside first.
    Result<qint64> add(const HistoryRecord &record, HistoryNotice *notice = nullptr) const;
    /// Newest first; `device` empty = all; `limit` <= 0 = all.
    Result<QList<HistoryRecord>> list(const QString &device = {}, int limit = 0,
                                      HistoryNotice *notice = nullptr) const;
    Result<HistoryRecord> get(qint64 id) const;
    /// A consistent copy of the database in `file` (SQLite's VACUUM INTO,
    /// so a record being written is in it whole or not at all). No
    /// database yet: NotFound, nothing written.
    Status copyTo(const QString &file) const;

private:
    QString m_path;
};

/// `{"schema":2,"records":[{"id","recorded_at","source","kind","test",
///   "device","kernel","description","mb_per_s","ok","spec","summary",
///   "devices","streams"|"points"}]}` (docs/json.md; "result" with withResults)
QJsonObject historyToJson(const QList<HistoryRecord> &records, bool withResults = false);

} // namespace blocktune
