#include "history.h"

#include "advisor/advisor.h"
#include "common/safeopen.h"
#include "readtest/readtest.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QSysInfo>
#include <QThread>
#include <QVariant>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace blocktune {

namespace {

// SQLite's primary result codes, as QSqlError::nativeErrorCode() gives them.
constexpr int kSqliteBusy = 5;
constexpr int kSqliteLocked = 6;
constexpr int kSqliteCorrupt = 11;
constexpr int kSqliteNotADatabase = 26;

// One step per schema version: the statements that bring version N-1 to N.
// Never edit a released step; add the next one.
struct Migration
{
    int to;
    QList<const char *> statements;
};
const QList<Migration> &migrations()
{
    static const QList<Migration> steps = {
        {1,
         {"CREATE TABLE records ("
          " id INTEGER PRIMARY KEY AUTOINCREMENT,"
          " recorded_at TEXT NOT NULL,"
          " source TEXT NOT NULL,"
          " kind TEXT NOT NULL,"
          " test TEXT NOT NULL,"
          " device TEXT NOT NULL,"
          " kernel TEXT NOT NULL,"
          " description TEXT NOT NULL,"
          " mb_per_s REAL NOT NULL,"
          " ok INTEGER NOT NULL,"
          " settings TEXT NOT NULL,"
          " metrics TEXT NOT NULL,"
          " result TEXT NOT NULL)",
          "CREATE INDEX records_by_device ON records(device, recorded_at)"}},
        // Named figures (historyFigures); '' in the records kept before.
        {2, {"ALTER TABLE records ADD COLUMN figures TEXT NOT NULL DEFAULT ''"}},
    };
    return steps;
}

enum class Failure { None, Corrupt, Locked, Other };

Failure classify(const QSqlError &e)
{
    if (!e.isValid())
        return Failure::None;
    // Extended codes keep the primary code in the low byte.
    const int code = e.nativeErrorCode().toInt() & 0xff;
    if (code == kSqliteCorrupt || code == kSqliteNotADatabase)
        return Failure::Corrupt;
    if (code == kSqliteBusy || code == kSqliteLocked)
        return Failure::Locked;
    return Failure::Other;
}

struct DbError
{
    Failure failure = Failure::None;
    QString text;
};

/// A connection of its own for one call, removed when the call ends.
class Connection final
{
public:
    explicit Connection(const QString &path)
    {
        static std::atomic<quint64> counter{0};
        m_name = QStringLiteral("blocktune-history-%1").arg(++counter);
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(path);
        // Another blocktune writing a record holds the lock for milliseconds.
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=2000"));
    }
    ~Connection()
    {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    Q_DISABLE_COPY_MOVE(Connection)
    QSqlDatabase db() const { return QSqlDatabase::database(m_name, false); }

private:
    QString m_name;
};

DbError fromQuery(const QSqlError &e)
{
    return DbError{classify(e), e.text()};
}

/// Opens and brings the schema up to date. A file of a newer schema is
/// refused (Other), never rewritten.
DbError openAndMigrate(QSqlDatabase &db)
{
    if (!db.isOpen() && !db.open())
        return fromQuery(db.lastError());
    QSqlQuery q(db);
    // Reading the header is where a file that is not SQLite shows itself.
    if (!q.exec(QStringLiteral("PRAGMA schema_version")))
        return fromQuery(q.lastError());
    // A file already at this schema is only read: no write lock, no write
    // (metrics' timer reads root's history every minute; a read must not
    // rewrite it, nor need a writable folder).
    if (q.exec(QStringLiteral("SELECT version FROM schema_version")) && q.next()
        && q.value(0).toInt() == kHistorySchemaVersion) {
        q.finish();
        return {};
    }
    q.finish();
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return fromQuery(q.lastError());
    auto rollback = [&](const QSqlError &e) {
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        return fromQuery(e);
    };
    if (!q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")))
        return rollback(q.lastError());
    if (!q.exec(QStringLiteral("SELECT version FROM schema_version")))
        return rollback(q.lastError());
    int version = 0;
    bool hasRow = false;
    if (q.next()) {
        version = q.value(0).toInt();
        hasRow = true;
    }
    if (version > kHistorySchemaVersion) {
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        return DbError{Failure::Other,
                       QStringLiteral("it has schema version %1 and this blocktune knows up to %2 (a newer "
                                      "blocktune made it; it is left as it is)")
                           .arg(version)
                           .arg(kHistorySchemaVersion)};
    }
    for (const Migration &m : migrations()) {
        if (m.to <= version)
            continue;
        for (const char *sql : m.statements)
            if (!q.exec(QString::fromLatin1(sql)))
                return rollback(q.lastError());
        version = m.to;
    }
    if (!q.exec(hasRow ? QStringLiteral("UPDATE schema_version SET version = %1").arg(version)
                       : QStringLiteral("INSERT INTO schema_version (version) VALUES (%1)").arg(version)))
        return rollback(q.lastError());
    if (!q.exec(QStringLiteral("COMMIT")))
        return rollback(q.lastError());
    return {};
}

/// Renames a corrupt file (and its journal) aside; returns the new name.
QString setAside(const QString &path)
{
    const QString aside = path + QStringLiteral(".corrupt-")
        + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddTHHmmss"));
    QFile::remove(aside);
    if (!QFile::rename(path, aside))
        return {};
    for (const char *suffix : {"-journal", "-wal", "-shm"})
        QFile::rename(path + QLatin1StringView(suffix), aside + QLatin1StringView(suffix));
    return aside;
}

Error historyError(const QString &path, const DbError &e)
{
    if (e.failure == Failure::Locked)
        return makeError(Refused, QStringLiteral("history database %1 is locked by another program (%2): this "
                                                 "result was not kept (close the other program using it)")
                                      .arg(path, e.text));
    return makeError(InvalidArgument, QStringLiteral("history database %1: %2").arg(path, e.text));
}

/// An empty QString binds as NULL; the columns are NOT NULL.
QString notNull(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

QString toJsonText(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject fromJsonText(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

// An advice kept before an unresolved one recommended nothing: it stored
// the mixed curve's pick as its recommendation. Read back as it is now:
// no steady answer, the pick under its own name.
void settleUnresolvedAdvice(HistoryRecord &r)
{
    QJsonObject summary = r.figures.value(u"summary").toObject();
    if (summary.value(u"resolved").toBool(true))
        return;
    const QJsonValue pick = summary.take(u"recommended_read_ahead_kb");
    summary.remove(u"knee_kb");
    summary.remove(u"memory_kb");
    if (pick.isDouble() && !summary.contains(u"unresolved_pick_read_ahead_kb"))
        summary.insert(QStringLiteral("unresolved_pick_read_ahead_kb"), pick);
    r.figures.insert(QStringLiteral("summary"), summary);
    r.metrics.remove(QStringLiteral("recommended read_ahead_kb"));
    static const QRegularExpression recommended(QStringLiteral("^\\d+ KiB recommended"));
    r.description.replace(recommended, QStringLiteral("no steady answer"));
}

HistoryRecord fromRow(const QSqlQuery &q, bool withResult)
{
    HistoryRecord r;
    r.id = q.value(0).toLongLong();
    r.recordedAt = QDateTime::fromString(q.value(1).toString(), Qt::ISODateWithMs);
    r.source = q.value(2).toString();
    r.kind = q.value(3).toString();
    r.test = q.value(4).toString();
    r.device = q.value(5).toString();
    r.kernel = q.value(6).toString();
    r.description = q.value(7).toString();
    r.mbPerSec = q.value(8).toDouble();
    r.ok = q.value(9).toBool();
    r.settings = fromJsonText(q.value(10).toString());
    r.metrics = fromJsonText(q.value(11).toString());
    r.figures = fromJsonText(q.value(12).toString());
    // A record kept before schema 2: its figures from its whole result;
    // a test kept before its figure was the median: that from its runs.
    const bool noMedian = r.kind == u"test"
        && !r.figures.value(u"summary").toObject().contains(u"median_mb_per_s");
    if (r.figures.isEmpty() || noMedian)
        r.figures = historyFigures(r.kind, fromJsonText(q.value(13).toString()));
    if (r.kind == u"advice")
        settleUnresolvedAdvice(r);
    if (noMedian) {
        const QJsonValue median = r.figures.value(u"summary").toObject().value(u"median_mb_per_s");
        if (median.isDouble()) {
            r.mbPerSec = median.toDouble();
            r.metrics.insert(QStringLiteral("median MB/s"), median);
        }
    }
    if (withResult)
        r.result = fromJsonText(q.value(14).toString());
    return r;
}

const QString kColumns = QStringLiteral(
    "id, recorded_at, source, kind, test, device, kernel, description, mb_per_s, ok, settings, metrics, figures, "
    "CASE WHEN figures = '' OR (kind = 'test' AND instr(figures, '\"median_mb_per_s\"') = 0) THEN result END");

void addSettings(QJsonObject &out, const RecordedSettings &s, bool withReadahead)
{
    const QString p = s.device + u' ';
    if (withReadahead && s.readAheadKiB)
        out.insert(p + QStringLiteral("read_ahead_kb"), double(*s.readAheadKiB));
    if (!s.scheduler.isEmpty())
        out.insert(p + QStringLiteral("scheduler"), s.scheduler);
    if (s.nrRequests)
        out.insert(p + QStringLiteral("nr_requests"), double(*s.nrRequests));
    if (s.maxSectorsKiB)
        out.insert(p + QStringLiteral("max_sectors_kb"), double(*s.maxSectorsKiB));
}

void addSpec(QJsonObject &out, const ReadTestSpec &spec)
{
    out.insert(QStringLiteral("test"), readTestKindName(spec.kind));
    out.insert(QStringLiteral("block size"), double(spec.blockSize));
    out.insert(QStringLiteral("direct"), spec.direct);
    out.insert(QStringLiteral("runs"), spec.repeat);
    if (spec.sizeBytes)
        out.insert(QStringLiteral("size bytes"), double(*spec.sizeBytes));
    if (spec.kind == ReadTestKind::Server)
        out.insert(QStringLiteral("threads"), spec.threads);
    QStringList streams;
    for (const StreamTarget &t : spec.measure)
        streams << QStringLiteral("%1@%2").arg(t.device).arg(t.offset);
    for (const StreamTarget &t : spec.background)
        streams << QStringLiteral("%1@%2 (background)").arg(t.device).arg(t.offset);
    if (spec.kind == ReadTestKind::Concurrent)
        out.insert(QStringLiteral("streams"), streams.join(QStringLiteral(", ")));
}

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

QString kernelOf(const QList<RunResult> &runs)
{
    for (const RunResult &r : runs)
        if (!r.settings.isEmpty())
            return r.settings.constFirst().kernel;
    return {};
}

QString valueText(const QJsonValue &v)
{
    if (v.isUndefined() || v.isNull())
        return QStringLiteral("-");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 10);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    return v.toString();
}

QList<HistoryDiff> diff(const QJsonObject &a, const QJsonObject &b, bool percent)
{
    QStringList keys = a.keys();
    for (const QString &k : b.keys())
        if (!a.contains(k))
            keys << k;
    QList<HistoryDiff> out;
    for (const QString &k : keys) {
        HistoryDiff d;
        d.key = k;
        d.a = valueText(a.value(k));
        d.b = valueText(b.value(k));
        d.differs = a.value(k) != b.value(k);
        if (percent && a.value(k).isDouble() && b.value(k).isDouble() && a.value(k).toDouble() != 0)
            d.percent = (b.value(k).toDouble() - a.value(k).toDouble()) / std::abs(a.value(k).toDouble()) * 100.0;
        out << d;
    }
    return out;
}

} // namespace

HistoryRecord historyRecord(const ReadTestResult &result, const QString &source, const QString &description)
{
    HistoryRecord r;
    r.recordedAt = QDateTime::currentDateTimeUtc();
    r.source = source;
    r.kind = QStringLiteral("test");
    r.test = readTestKindName(result.kind);
    r.device = result.device;
    r.kernel = kernelOf(result.runs);
    r.description = description;
    r.mbPerSec = round3(result.mbPerSec.median); // the test's figure: one slow run does not move it
    r.ok = !result.failed && !result.cancelled;
    addSpec(r.settings, result.spec);
    if (!result.runs.isEmpty())
        for (const RecordedSettings &s : result.runs.constFirst().settings)
            addSettings(r.settings, s, true);

    r.metrics.insert(QStringLiteral("median MB/s"), round3(result.mbPerSec.median));
    r.metrics.insert(QStringLiteral("mean MB/s"), round3(result.mbPerSec.mean));
    r.metrics.insert(QStringLiteral("min MB/s"), round3(result.mbPerSec.min));
    r.metrics.insert(QStringLiteral("max MB/s"), round3(result.mbPerSec.max));
    r.metrics.insert(QStringLiteral("stdev MB/s"), round3(result.mbPerSec.stdev));
    r.metrics.insert(QStringLiteral("runs"), result.mbPerSec.count);
    // Per stream (several streams only): its mean over the runs, and Jain's
    // index over those means for the sequential ones.
    if (!result.runs.isEmpty() && result.runs.constFirst().streams.size() > 1) {
        const qsizetype n = result.runs.constFirst().streams.size();
        QList<double> seqMeans;
        for (qsizetype i = 0; i < n; ++i) {
            QList<double> values;
            for (const RunResult &run : result.runs)
                if (!run.cancelled && i < run.streams.size())
                    values << run.streams.at(i).mbPerSec;
            const double mean = summarize(values).mean;
            const StreamResult &s = result.runs.constFirst().streams.at(i);
            r.metrics.insert(s.name + QStringLiteral(" MB/s"), round3(mean));
            if (s.pattern == AccessPattern::Sequential)
                seqMeans << mean;
        }
        r.metrics.insert(QStringLiteral("fairness (Jain)"), std::round(jainFairness(seqMeans) * 1e4) / 1e4);
    }
    // Latency of the measured stream(s) over the runs: p50, p99, p99.9, so
    // Compare shows how the wait changed with a setting.
    if (!result.runs.isEmpty()) {
        const qsizetype n = result.runs.constFirst().streams.size();
        for (qsizetype i = 0; i < n; ++i) {
            QList<LatencyDistribution> parts;
            for (const RunResult &run : result.runs)
                if (i < run.streams.size())
                    parts << run.streams.at(i).latencyUs;
            const LatencyDistribution all = mergeLatency(parts);
            if (all.count == 0)
                continue;
            const QString who = n > 1 ? result.runs.constFirst().streams.at(i).name + u' ' : QString();
            for (const double p : {50.0, 99.0, 99.9})
                r.metrics.insert(who + QStringLiteral("p%1 latency us").arg(p), round3(all.percentileUs(p)));
        }
    }
    for (const DeviceCounterDelta &d : sumDeviceStats(result.runs)) {
        if (!d.available)
            continue;
        r.metrics.insert(d.device + QStringLiteral(" avg request KiB"), std::round(d.avgRequestKiB * 10) / 10);
        r.metrics.insert(d.device + QStringLiteral(" overshoot bytes"), double(d.overshootBytes));
    }
    r.result = readTestToJson(result);
    r.figures = historyFigures(r.kind, r.result);
    return r;
}

HistoryRecord historyRecord(const SweepResult &result, const QString &source, const QString &description)
{
    HistoryRecord r;
    r.recordedAt = QDateTime::currentDateTimeUtc();
    r.source = source;
    r.kind = QStringLiteral("sweep");
    r.test = readTestKindName(result.test);
    r.device = result.device;
    r.description = description;
    r.ok = !result.failed && !result.cancelled && result.restored;
    QStringList values;
    double best = 0;
    quint64 bestKiB = 0;
    for (const SweepPoint &p : result.points) {
        values << QString::number(p.readAheadKiB);
        r.metrics.insert(QStringLiteral("read_ahead_kb %1 MB/s").arg(p.readAheadKiB), round3(p.mbPerSec));
        if (p.mbPerSec > best) {
            best = p.mbPerSec;
            bestKiB = p.readAheadKiB;
        }
    }
    r.mbPerSec = round3(best);
    r.metrics.insert(QStringLiteral("best MB/s"), round3(best));
    r.metrics.insert(QStringLiteral("best read_ahead_kb"), double(bestKiB));
    if (!result.points.isEmpty()) {
        const ReadTestResult &first = result.points.constFirst().result;
        r.kernel = kernelOf(first.runs);
        addSpec(r.settings, first.spec);
        if (!first.runs.isEmpty())
            for (const RecordedSettings &s : first.runs.constFirst().settings)
                addSettings(r.settings, s, false); // readahead is what was swept
    }
    if (result.originalKiB)
        r.settings.insert(result.queueDevice + QStringLiteral(" read_ahead_kb (before)"), double(*result.originalKiB));
    r.settings.insert(QStringLiteral("swept read_ahead_kb"), values.join(u','));
    r.result = sweepToJson(result);
    r.figures = historyFigures(r.kind, r.result);
    return r;
}

HistoryRecord historyRecord(const Advice &advice, const QString &source)
{
    HistoryRecord r;
    r.recordedAt = QDateTime::currentDateTimeUtc();
    r.source = source;
    r.kind = QStringLiteral("advice");
    r.test = workloadName(advice.workload);
    r.device = advice.device;
    r.kernel = QSysInfo::kernelVersion(); // advice runs where it reads
    r.description = QStringLiteral("%1, %2 runs in %3 s")
                        .arg(advice.recommends() ? QStringLiteral("%1 KiB recommended").arg(advice.recommendedKiB)
                                                 : QStringLiteral("no steady answer"))
                        .arg(advice.runs).arg(double(advice.elapsedMs) / 1000.0, 0, 'f', 1);
    r.mbPerSec = round3(advice.analysis.plateauMbPerSec);
    // Finished and restored: an advice with no steady answer is a result
    // too (it says so), not an incomplete one.
    r.ok = !advice.cancelled && advice.restored;
    if (advice.originalKiB)
        r.settings.insert(advice.queueDevice + QStringLiteral(" read_ahead_kb (before)"), double(*advice.originalKiB));
    if (advice.floorKiB)
        r.settings.insert(advice.queueDevice + QStringLiteral(" readahead floor KiB"), double(*advice.floorKiB));
    r.settings.insert(QStringLiteral("workload"), r.test);
    r.settings.insert(QStringLiteral("tolerance %"), round3(advice.analysis.tolerancePct));
    if (advice.recommends())
        r.metrics.insert(QStringLiteral("recommended read_ahead_kb"), double(advice.recommendedKiB));
    r.metrics.insert(QStringLiteral("plateau MB/s"), round3(advice.analysis.plateauMbPerSec));
    r.metrics.insert(QStringLiteral("raw peak MB/s"), round3(advice.rawMbPerSec));
    r.metrics.insert(QStringLiteral("noise %"), round3(advice.analysis.noisePct));
    r.metrics.insert(QStringLiteral("runs"), advice.runs);
    for (const CurvePoint &p : advice.curve)
        r.metrics.insert(QStringLiteral("read_ahead_kb %1 MB/s").arg(p.readAheadKiB), round3(p.mbPerSec));
    r.result = adviceToJson(advice);
    r.figures = historyFigures(r.kind, r.result);
    return r;
}

HistoryComparison compareHistory(const HistoryRecord &a, const HistoryRecord &b)
{
    HistoryComparison c;
    QJsonObject sa = a.settings, sb = b.settings;
    sa.insert(QStringLiteral("device"), a.device);
    sb.insert(QStringLiteral("device"), b.device);
    sa.insert(QStringLiteral("kernel"), a.kernel);
    sb.insert(QStringLiteral("kernel"), b.kernel);
    c.settings = diff(sa, sb, false);
    c.results = diff(a.metrics, b.metrics, true);
    return c;
}

namespace {

// Root opens the database by path, and SQLite makes its -journal and -wal
// files beside it: the file must not be a link (root would add its tables
// to whatever it leads to) and nobody but root may change the folder or
// any folder above it (or one could put such a link there later). Only
// for root: a user's history can lead nowhere the user could not write.
Status checkRootHistoryPath(const QString &path)
{
    if (::geteuid() != 0)
        return {};
    const QFileInfo info(path);
    auto folder = safeopen::openFolder(QFile::encodeName(info.absolutePath()), safeopen::Trust::WholePath);
    if (!folder && folder.error().code == ENOENT)
        return {}; // nothing there yet: add() makes the folder, then asks again
    const QString refused = QStringLiteral("the history %1 is refused while running as root: %2 (set "
                                           "BLOCKTUNE_HISTORY_DB to a file in a folder only root can write)");
    if (!folder)
        return makeError(Refused, refused.arg(path, folder.error().message));
    if (Status st = safeopen::checkFolderOwner(folder->get(), {0}, info.absolutePath(), QStringLiteral("its folder"));
        !st)
        return makeError(Refused, refused.arg(path, st.error().message));
    struct stat st {};
    if (::fstatat(folder->get(), QFile::encodeName(info.fileName()).constData(), &st, AT_SYMLINK_NOFOLLOW) == 0
        && !S_ISREG(st.st_mode))
        return makeError(Refused, refused.arg(path, S_ISLNK(st.st_mode)
                                                        ? QStringLiteral("it is a symbolic link")
                                                        : QStringLiteral("it is not a regular file")));
    return {};
}

} // namespace

QString HistoryStore::standardPath()
{
    // GenericDataLocation: the console and the CLI share one file whatever
    // their application names.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/blocktune/history.sqlite");
}

QString HistoryStore::defaultPath()
{
    const QString env = qEnvironmentVariable("BLOCKTUNE_HISTORY_DB");
    return env.isEmpty() ? standardPath() : env;
}

HistoryStore::HistoryStore(QString path) : m_path(std::move(path)) {}

Status HistoryStore::copyTo(const QString &file) const
{
    if (Status ok = usable(); !ok)
        return ok;
    if (!QFileInfo(m_path).isFile())
        return makeError(NotFound, QStringLiteral("no history yet (%1)").arg(m_path));
    QFile::remove(file); // VACUUM INTO refuses an existing file
    const Connection connection(m_path);
    QSqlDatabase db = connection.db();
    if (!db.open())
        return makeError(EIO, QStringLiteral("%1: %2").arg(m_path, db.lastError().text()));
    QSqlQuery q(db);
    q.prepare(QStringLiteral("VACUUM INTO ?"));
    q.addBindValue(file);
    if (!q.exec())
        return makeError(EIO, QStringLiteral("copying %1 to %2: %3").arg(m_path, file, q.lastError().text()));
    return {};
}

Status HistoryStore::usable() const
{
    const QString configured = qEnvironmentVariable("BLOCKTUNE_HISTORY_DB");
    const QString dir = QFileInfo(m_path).absolutePath();
    if (configured.isEmpty() || configured != m_path || QFileInfo(dir).isDir())
        return checkRootHistoryPath(m_path);
    return makeError(NotFound, QStringLiteral("the history %1 that BLOCKTUNE_HISTORY_DB names cannot be used: its "
                                              "folder %2 does not exist (make the folder, or unset "
                                              "BLOCKTUNE_HISTORY_DB to use %3)")
                                   .arg(m_path, dir, standardPath()));
}

Result<qint64> HistoryStore::add(const HistoryRecord &record, HistoryNotice *notice) const
{
    if (Status ok = usable(); !ok)
        return ok.error();
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!QDir().mkpath(dir))
        return makeError(NotFound, QStringLiteral("cannot make the history directory %1").arg(dir));
    if (Status ok = checkRootHistoryPath(m_path); !ok) // the folder exists now
        return ok.error();

    for (int attempt = 0; attempt < 2; ++attempt) {
        DbError failed;
        qint64 id = 0;
        {
            Connection conn(m_path);
            QSqlDatabase db = conn.db();
            failed = openAndMigrate(db);
            if (failed.failure == Failure::None) {
                QSqlQuery q(db);
                q.prepare(QStringLiteral("INSERT INTO records (recorded_at, source, kind, test, device, kernel, "
                                         "description, mb_per_s, ok, settings, metrics, result, figures) "
                                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
                q.addBindValue(record.recordedAt.toUTC().toString(Qt::ISODateWithMs));
                q.addBindValue(notNull(record.source));
                q.addBindValue(notNull(record.kind));
                q.addBindValue(notNull(record.test));
                q.addBindValue(notNull(record.device));
                q.addBindValue(notNull(record.kernel));
                q.addBindValue(notNull(record.description));
                q.addBindValue(record.mbPerSec);
                q.addBindValue(record.ok ? 1 : 0);
                q.addBindValue(toJsonText(record.settings));
                q.addBindValue(toJsonText(record.metrics));
                q.addBindValue(toJsonText(record.result));
                q.addBindValue(toJsonText(record.figures.isEmpty() ? historyFigures(record.kind, record.result)
                                                                   : record.figures));
                if (q.exec())
                    id = q.lastInsertId().toLongLong();
                else
                    failed = fromQuery(q.lastError());
            }
        }
        if (failed.failure == Failure::None)
            return id;
        if (failed.failure != Failure::Corrupt || attempt > 0)
            return historyError(m_path, failed);
        const QString aside = setAside(m_path);
        if (aside.isEmpty())
            return makeError(InvalidArgument,
                             QStringLiteral("history database %1 is damaged (%2) and could not be renamed aside")
                                 .arg(m_path, failed.text));
        if (notice)
            notice->text = QStringLiteral("history database %1 was damaged (%2): set aside as %3, a new one started")
                               .arg(m_path, failed.text, aside);
    }
    return makeError(InvalidArgument, QStringLiteral("history database %1: not written").arg(m_path));
}

Result<QList<HistoryRecord>> HistoryStore::list(const QString &device, int limit, HistoryNotice *notice) const
{
    if (Status ok = usable(); !ok)
        return ok.error();
    if (!QFileInfo::exists(m_path))
        return QList<HistoryRecord>{};
    DbError failed;
    QList<HistoryRecord> out;
    {
        Connection conn(m_path);
        QSqlDatabase db = conn.db();
        failed = openAndMigrate(db);
        if (failed.failure == Failure::None) {
            QSqlQuery q(db);
            QString sql = QStringLiteral("SELECT %1 FROM records").arg(kColumns);
            if (!device.isEmpty())
                sql += QStringLiteral(" WHERE device = ?");
            sql += QStringLiteral(" ORDER BY recorded_at DESC, id DESC");
            if (limit > 0)
                sql += QStringLiteral(" LIMIT %1").arg(limit);
            q.prepare(sql);
            if (!device.isEmpty())
                q.addBindValue(device);
            if (q.exec()) {
                while (q.next())
                    out << fromRow(q, false);
            } else {
                failed = fromQuery(q.lastError());
            }
        }
    }
    if (failed.failure == Failure::Corrupt) {
        const QString aside = setAside(m_path);
        if (notice && !aside.isEmpty())
            notice->text = QStringLiteral("history database %1 was damaged (%2): set aside as %3")
                               .arg(m_path, failed.text, aside);
        return QList<HistoryRecord>{};
    }
    if (failed.failure != Failure::None)
        return historyError(m_path, failed);
    return out;
}

Result<HistoryRecord> HistoryStore::get(qint64 id) const
{
    if (Status ok = usable(); !ok)
        return ok.error();
    if (!QFileInfo::exists(m_path))
        return makeError(NotFound, QStringLiteral("no history record %1 (no database at %2)").arg(id).arg(m_path));
    DbError failed;
    std::optional<HistoryRecord> found;
    {
        Connection conn(m_path);
        QSqlDatabase db = conn.db();
        failed = openAndMigrate(db);
        if (failed.failure == Failure::None) {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT %1, result FROM records WHERE id = ?").arg(kColumns));
            q.addBindValue(id);
            if (!q.exec())
                failed = fromQuery(q.lastError());
            else if (q.next())
                found = fromRow(q, true);
        }
    }
    if (failed.failure != Failure::None)
        return historyError(m_path, failed);
    if (!found)
        return makeError(NotFound, QStringLiteral("no history record %1 in %2").arg(id).arg(m_path));
    return *found;
}

QJsonObject historyToJson(const QList<HistoryRecord> &records, bool withResults)
{
    QJsonArray list;
    for (const HistoryRecord &r : records) {
        QJsonObject o{
            {QStringLiteral("id"), double(r.id)},
            {QStringLiteral("recorded_at"), r.recordedAt.toUTC().toString(Qt::ISODateWithMs)},
            {QStringLiteral("source"), r.source},
            {QStringLiteral("kind"), r.kind},
            {QStringLiteral("test"), r.test},
            {QStringLiteral("device"), r.device},
            {QStringLiteral("kernel"), r.kernel},
            {QStringLiteral("description"), r.description},
            {QStringLiteral("mb_per_s"), r.mbPerSec},
            {QStringLiteral("ok"), r.ok},
        };
        const QJsonObject figures = r.figures.isEmpty() ? historyFigures(r.kind, r.result) : r.figures;
        for (auto it = figures.constBegin(); it != figures.constEnd(); ++it)
            o.insert(it.key(), it.value());
        if (withResults)
            o.insert(QStringLiteral("result"), r.result);
        list.append(o);
    }
    return QJsonObject{{QStringLiteral("schema"), kHistoryJsonSchema}, {QStringLiteral("records"), list}};
}

} // namespace blocktune
