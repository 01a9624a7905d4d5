// The history store: records kept across store instances (a restart),
// newest first, filtered; the schema versioned; a damaged file set aside;
// a newer schema left alone; comparisons of settings and results.
#include "history/history.h"
#include "advisor/advisor.h"
#include "historyfixture.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

} // namespace

class TestHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keepsRecordsAcrossARestart()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/history.sqlite"));
        {
            const HistoryStore store(path);
            auto a = store.add(historyRecord(seqResult(128, {300, 330, 360}), QStringLiteral("cli"),
                                             QStringLiteral("test seq: bs 64K, 16M from offset 0, buffered")));
            QVERIFY2(a, a ? "" : qPrintable(a.error().message));
            HistoryRecord other = historyRecord(seqResult(4096, {900}), QStringLiteral("console"), {});
            other.device = QStringLiteral("sdb");
            QVERIFY(store.add(other));
        }
        const HistoryStore again(path);
        auto all = again.list();
        QVERIFY(all);
        QCOMPARE(all->size(), 2);
        QCOMPARE(all->at(0).device, QStringLiteral("sdb")); // newest first
        const HistoryRecord &first = all->at(1);
        QCOMPARE(first.source, QStringLiteral("cli"));
        QCOMPARE(first.kernel, QStringLiteral("6.1.0-test"));
        QCOMPARE(first.mbPerSec, 330.0);
        QCOMPARE(first.settings.value(QStringLiteral("loop0 read_ahead_kb")).toDouble(), 128.0);
        QCOMPARE(first.settings.value(QStringLiteral("loop0 scheduler")).toString(), QStringLiteral("none"));
        QCOMPARE(first.metrics.value(QStringLiteral("min MB/s")).toDouble(), 300.0);
        auto loop0 = again.list(QStringLiteral("loop0"));
        QVERIFY(loop0);
        QCOMPARE(loop0->size(), 1);
        QCOMPARE(again.list({}, 1)->size(), 1);
        auto full = again.get(first.id);
        QVERIFY(full);
        QCOMPARE(full->result.value(QStringLiteral("runs")).toArray().size(), 3);
        QVERIFY(!again.get(999));
    }

    // Reading a history of this schema writes nothing: the file's bytes and
    // time stay, and no journal is left beside it (metrics reads root's
    // history every minute from its timer).
    void readingWritesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("history.sqlite"));
        QVERIFY(HistoryStore(path).add(historyRecord(seqResult(128, {100}), QStringLiteral("cli"), {})));
        QFile before(path);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray bytes = before.readAll();
        before.close();
        const QDateTime modified = QFileInfo(path).lastModified();
        QTest::qSleep(1100);
        const HistoryStore store(path);
        QVERIFY(store.list());
        QVERIFY(store.get(1));
        QFile after(path);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), bytes);
        QCOMPARE(QFileInfo(path).lastModified(), modified);
        QVERIFY(!QFile::exists(path + QStringLiteral("-journal")));
    }

    void schemaIsVersioned()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h.sqlite"));
        QVERIFY(HistoryStore(path).add(historyRecord(seqResult(128, {100}), QStringLiteral("cli"), {})));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT version FROM schema_version")));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), kHistorySchemaVersion);
            QVERIFY(!q.next()); // one row
            // A newer blocktune's file: refused, left as it is.
            QVERIFY(q.exec(QStringLiteral("UPDATE schema_version SET version = 99")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("check"));
        auto refused = HistoryStore(path).add(historyRecord(seqResult(128, {100}), QStringLiteral("cli"), {}));
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("schema version 99")),
                 qPrintable(refused.error().message));
        QVERIFY(QFile::exists(path));
    }

    void damagedFileIsSetAside()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h.sqlite"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("this is not a database, it is a text file that got here somehow\n");
        }
        HistoryNotice notice;
        auto id = HistoryStore(path).add(historyRecord(seqResult(128, {100}), QStringLiteral("cli"), {}), &notice);
        QVERIFY2(id, id ? "" : qPrintable(id.error().message));
        QVERIFY2(notice.text.contains(QStringLiteral("set aside as")), qPrintable(notice.text));
        const QStringList aside = QDir(dir.path()).entryList({QStringLiteral("h.sqlite.corrupt-*")}, QDir::Files);
        QCOMPARE(aside.size(), 1);
        QFile kept(dir.filePath(aside.constFirst()));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QVERIFY(kept.readAll().startsWith("this is not a database"));
        QCOMPARE(HistoryStore(path).list()->size(), 1);
    }

    void comparesSettingsAndResults()
    {
        const HistoryRecord a = historyRecord(seqResult(128, {200, 200}), QStringLiteral("cli"), {});
        const HistoryRecord b = historyRecord(seqResult(4096, {300, 300}), QStringLiteral("cli"), {});
        const HistoryComparison c = compareHistory(a, b);
        auto find = [](const QList<HistoryDiff> &list, const QString &key) {
            for (const HistoryDiff &d : list)
                if (d.key == key)
                    return d;
            return HistoryDiff{};
        };
        const HistoryDiff ra = find(c.settings, QStringLiteral("loop0 read_ahead_kb"));
        QVERIFY(ra.differs);
        QCOMPARE(ra.a, QStringLiteral("128"));
        QCOMPARE(ra.b, QStringLiteral("4096"));
        QVERIFY(!find(c.settings, QStringLiteral("loop0 scheduler")).differs);
        const HistoryDiff mean = find(c.results, QStringLiteral("mean MB/s"));
        QVERIFY(mean.percent);
        QCOMPARE(*mean.percent, 50.0);
    }

    void jsonListsRecords()
    {
        HistoryRecord r = historyRecord(seqResult(128, {250}), QStringLiteral("cli"), QStringLiteral("x"));
        r.id = 7;
        const QJsonObject o = historyToJson({r});
        QCOMPARE(o.value(QStringLiteral("schema")).toInt(), kHistorySchemaVersion);
        const QJsonObject rec = o.value(QStringLiteral("records")).toArray().at(0).toObject();
        QCOMPARE(rec.value(QStringLiteral("id")).toInt(), 7);
        QCOMPARE(rec.value(QStringLiteral("device")).toString(), QStringLiteral("loop0"));
        QCOMPARE(rec.value(QStringLiteral("mb_per_s")).toDouble(), 250.0);
        QVERIFY(!rec.contains(QStringLiteral("result")));
    }

    // Schema 2: a script finds a stream or a figure by name, never by
    // parsing a key ("loop0 MB/s", "fairness (Jain)" were schema 1's).
    void jsonNamesEveryFigure()
    {
        ReadTestResult two = seqResult(512, {200, 220});
        two.kind = ReadTestKind::Concurrent;
        for (RunResult &run : two.runs) {
            StreamResult second = run.streams.constFirst();
            second.name = QStringLiteral("loop0@1G");
            second.offset = 1ull << 30;
            second.mbPerSec = run.streams.constFirst().mbPerSec / 2;
            run.streams << second;
            run.fairnessJain = 0.9;
        }
        const QJsonObject o = historyToJson({historyRecord(two, QStringLiteral("cli"), {})});
        QCOMPARE(o.value(u"schema").toInt(), 2);
        const QJsonObject rec = o.value(u"records").toArray().at(0).toObject();
        QVERIFY(!rec.contains(u"metrics"));
        QVERIFY(!rec.contains(u"settings"));
        const QJsonArray streams = rec.value(u"streams").toArray();
        QCOMPARE(streams.size(), 2);
        const QJsonObject second = streams.at(1).toObject();
        QCOMPARE(second.value(u"device").toString(), u"loop0"_qs);
        QCOMPARE(second.value(u"offset").toDouble(), double(1ull << 30));
        QCOMPARE(second.value(u"role").toString(), u"measure"_qs);
        QCOMPARE(second.value(u"mb_per_s").toDouble(), 105.0); // the mean of 100 and 110
        const QJsonObject summary = rec.value(u"summary").toObject();
        QCOMPARE(summary.value(u"mean_mb_per_s").toDouble(), 210.0);
        QCOMPARE(summary.value(u"fairness_jain").toDouble(), 0.9);
        QCOMPARE(summary.value(u"runs").toInt(), 2);
        const QJsonObject device = rec.value(u"devices").toArray().at(0).toObject();
        QCOMPARE(device.value(u"device").toString(), u"loop0"_qs);
        QCOMPARE(device.value(u"read_ahead_kb").toDouble(), 512.0);
        QCOMPARE(rec.value(u"spec").toObject().value(u"repeat").toInt(), 2);
        const std::function<void(const QJsonValue &, const QString &)> namesOnly = [&](const QJsonValue &v,
                                                                                      const QString &at) {
            const QJsonObject obj = v.toObject();
            for (auto it = obj.constBegin(); it != obj.constEnd(); ++it) {
                QVERIFY2(QRegularExpression(u"^[a-z0-9_]+$"_qs).match(it.key()).hasMatch(),
                         qPrintable(at + u'.' + it.key()));
                namesOnly(it.value(), at + u'.' + it.key());
            }
            for (const QJsonValue &item : v.toArray())
                namesOnly(item, at + u"[]"_qs);
        };
        namesOnly(rec, u"record"_qs);
    }

    // A database kept before schema 2 (no figures column) still reads: its
    // records get their figures from their whole results.
    void readsASchemaOneDatabase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.sqlite"));
        const HistoryRecord r = historyRecord(seqResult(256, {300, 340}), QStringLiteral("cli"), {});
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(u"CREATE TABLE records (id INTEGER PRIMARY KEY AUTOINCREMENT, recorded_at TEXT NOT NULL, "
                           "source TEXT NOT NULL, kind TEXT NOT NULL, test TEXT NOT NULL, device TEXT NOT NULL, "
                           "kernel TEXT NOT NULL, description TEXT NOT NULL, mb_per_s REAL NOT NULL, ok INTEGER "
                           "NOT NULL, settings TEXT NOT NULL, metrics TEXT NOT NULL, result TEXT NOT NULL)"_qs));
            QVERIFY(q.exec(u"CREATE TABLE schema_version (version INTEGER NOT NULL)"_qs));
            QVERIFY(q.exec(u"INSERT INTO schema_version (version) VALUES (1)"_qs));
            QVERIFY(q.prepare(u"INSERT INTO records (recorded_at, source, kind, test, device, kernel, description, "
                              "mb_per_s, ok, settings, metrics, result) VALUES ('2026-01-01T00:00:00.000Z', 'cli', "
                              "'test', 'seq', 'loop0', '6.1', '', 320, 1, '{}', '{\"mean MB/s\":320}', ?)"_qs));
            q.addBindValue(QString::fromUtf8(QJsonDocument(r.result).toJson(QJsonDocument::Compact)));
            QVERIFY(q.exec());
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("old"));
        auto records = HistoryStore(path).list();
        QVERIFY2(records, records ? "" : qPrintable(records.error().message));
        QCOMPARE(records->size(), 1);
        const QJsonObject rec = historyToJson(*records).value(u"records").toArray().at(0).toObject();
        QCOMPARE(rec.value(u"summary").toObject().value(u"mean_mb_per_s").toDouble(), 320.0);
        QCOMPARE(rec.value(u"streams").toArray().size(), 1);
        QCOMPARE(rec.value(u"devices").toArray().at(0).toObject().value(u"read_ahead_kb").toDouble(), 256.0);
        // and it takes new records after the migration
        QVERIFY(HistoryStore(path).add(historyRecord(seqResult(128, {100}), QStringLiteral("cli"), {})));
        QCOMPARE(HistoryStore(path).list()->size(), 2);
    }

    // Rows as the version before one vocabulary kept them (its writer's
    // bytes, put into the database as they were stored): every figure reads
    // back, in the record, its figures, its metrics and its whole result.
    void rowsKeptByTheVersionBeforeRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("history.sqlite"));
        QVERIFY(HistoryStore(path).add(historyRecord(seqResult(128, {100}), QStringLiteral("cli"), {})));
        struct Row
        {
            const char *kind, *description;
            double mbPerSec;
            QString settings, metrics, figures, result;
        };
        const QList<Row> rows{
            {"test", "seq on loop0", 320,
             QString::fromUtf8(R"j({"block size":65536,"direct":false,"loop0 max_sectors_kb":1280,"loop0 nr_requests":128,"loop0 read_ahead_kb":256,"loop0 scheduler":"none","runs":2,"size bytes":16777216,"test":"seq"})j"),
             QString::fromUtf8(R"j({"loop0 avg request KiB":129,"loop0 overshoot bytes":131072,"max MB/s":340,"mean MB/s":320,"median MB/s":320,"min MB/s":300,"p50 latency us":20,"p99 latency us":79.8,"p99.9 latency us":79.8,"runs":2,"stdev MB/s":28.284})j"),
             QString::fromUtf8(R"j({"devices":[{"avg_request_kb":129,"consumed_bytes":16777216,"device":"loop0","device_bytes":16908288,"max_sectors_kb":1280,"merges":3,"nr_requests":128,"overshoot_bytes":131072,"queue_device":"loop0","read_ahead_kb":256,"requests":128,"scheduler":"none"}],"spec":{"block_size":65536,"direct":false,"fadvise_sequential":false,"repeat":2,"size":16777216},"streams":[{"bytes":33554432,"device":"loop0","latency_ms":{"max":0,"mean":0},"latency_us":{"count":2,"max":80,"mean":50,"min":20,"percentiles":[{"percentile":1,"us":20},{"percentile":5,"us":20},{"percentile":10,"us":20},{"percentile":20,"us":20},{"percentile":30,"us":20},{"percentile":40,"us":20},{"percentile":50,"us":20},{"percentile":60,"us":79.8},{"percentile":70,"us":79.8},{"percentile":80,"us":79.8},{"percentile":90,"us":79.8},{"percentile":95,"us":79.8},{"percentile":99,"us":79.8},{"percentile":99.5,"us":79.8},{"percentile":99.9,"us":79.8},{"percentile":99.95,"us":79.8},{"percentile":99.99,"us":79.8}],"stdev":0},"mb_per_s":320,"name":"loop0","offset":0,"pattern":"sequential","role":"measure"}],"summary":{"aggregate_mb_per_s":0,"fairness_jain":1,"max_mb_per_s":340,"mean_mb_per_s":320,"median_mb_per_s":320,"min_mb_per_s":300,"runs":2,"stdev_mb_per_s":28.284}})j"),
             QString::fromUtf8(R"j({"aggregate_mb_per_s":0,"block_size":65536,"cancelled":false,"count":null,"device":"loop0","device_stats":{"available":true,"avg_request_kb":129,"consumed_bytes":16777216,"device":"loop0","device_bytes":16908288,"merges":3,"overshoot_bytes":131072,"requests":128},"device_stats_by_device":{"loop0":{"available":true,"avg_request_kb":129,"consumed_bytes":16777216,"device":"loop0","device_bytes":16908288,"merges":3,"overshoot_bytes":131072,"requests":128}},"direct":false,"errors":[],"fadvise_sequential":false,"failed":false,"fairness_jain":1,"interval_ms":100,"max_mb_per_s":340,"mean_mb_per_s":320,"median_mb_per_s":320,"min_mb_per_s":300,"repeat":2,"runs":[{"aggregate_mb_per_s":0,"bytes":16777216,"cache_drop":"","cancelled":false,"complete":true,"device_stats":{"available":true,"avg_request_kb":129,"consumed_bytes":16777216,"device":"loop0","device_bytes":16908288,"merges":3,"overshoot_bytes":131072,"requests":128},"errors":[],"fairness_jain":1,"label":"a","mb_per_s":300,"seconds":0.055924,"settings":{"device":"loop0","kernel":"6.1.0-test","logical_block_size":null,"max_sectors_kb":1280,"nr_requests":128,"queue_device":"loop0","read_ahead_kb":256,"scheduler":"none"},"streams":[{"bytes":16777216,"device":"loop0","error":null,"latency_ms":{"max":0,"mean":0},"latency_us":{"count":2,"histogram":[[20.1,1],[80.1,1]],"max":80,"mean":50,"min":20,"percentiles":{"1.000000":20,"10.000000":20,"20.000000":20,"30.000000":20,"40.000000":20,"5.000000":20,"50.000000":20,"60.000000":79.8,"70.000000":79.8,"80.000000":79.8,"90.000000":79.8,"95.000000":79.8,"99.000000":79.8,"99.500000":79.8,"99.900000":79.8,"99.950000":79.8,"99.990000":79.8},"stdev":0},"mb_per_s":300,"name":"loop0","offset":0,"pattern":"sequential","planned_bytes":0,"reads":0,"role":"measure","seconds":0.055924}]},{"aggregate_mb_per_s":0,"bytes":16777216,"cache_drop":"","cancelled":false,"complete":true,"errors":[],"fairness_jain":1,"label":"b","mb_per_s":340,"seconds":0.049345,"settings":{"device":"loop0","kernel":"6.1.0-test","logical_block_size":null,"max_sectors_kb":1280,"nr_requests":128,"queue_device":"loop0","read_ahead_kb":256,"scheduler":"none"},"streams":[{"bytes":16777216,"device":"loop0","error":null,"latency_ms":{"max":0,"mean":0},"latency_us":{"count":0,"histogram":[],"max":0,"mean":0,"min":0,"percentiles":{"1.000000":0,"10.000000":0,"20.000000":0,"30.000000":0,"40.000000":0,"5.000000":0,"50.000000":0,"60.000000":0,"70.000000":0,"80.000000":0,"90.000000":0,"95.000000":0,"99.000000":0,"99.500000":0,"99.900000":0,"99.950000":0,"99.990000":0},"stdev":0},"mb_per_s":340,"name":"loop0","offset":0,"pattern":"sequential","planned_bytes":0,"reads":0,"role":"measure","seconds":0.049345}]}],"runs_disagree":null,"schema":1,"settings":{"device":"loop0","kernel":"6.1.0-test","logical_block_size":null,"max_sectors_kb":1280,"nr_requests":128,"queue_device":"loop0","read_ahead_kb":256,"scheduler":"none"},"settings_by_device":{"loop0":{"device":"loop0","kernel":"6.1.0-test","logical_block_size":null,"max_sectors_kb":1280,"nr_requests":128,"queue_device":"loop0","read_ahead_kb":256,"scheduler":"none"}},"size":16777216,"stdev_mb_per_s":28.284,"streams":[{"bytes":33554432,"device":"loop0","error":null,"latency_ms":{"max":0,"mean":0},"latency_us":{"count":2,"max":80,"mean":50,"min":20,"percentiles":{"1.000000":20,"10.000000":20,"20.000000":20,"30.000000":20,"40.000000":20,"5.000000":20,"50.000000":20,"60.000000":79.8,"70.000000":79.8,"80.000000":79.8,"90.000000":79.8,"95.000000":79.8,"99.000000":79.8,"99.500000":79.8,"99.900000":79.8,"99.950000":79.8,"99.990000":79.8},"stdev":0},"mb_per_s":320,"name":"loop0","offset":0,"pattern":"sequential","role":"measure"}],"test":"seq","time_ms":null})j")},
            {"sweep", "sweep", 340,
             QString::fromUtf8(R"j({"block size":65536,"direct":false,"loop0 max_sectors_kb":1280,"loop0 nr_requests":128,"loop0 read_ahead_kb (before)":128,"loop0 scheduler":"none","runs":1,"size bytes":16777216,"swept read_ahead_kb":"128,4096","test":"seq"})j"),
             QString::fromUtf8(R"j({"best MB/s":340,"best read_ahead_kb":4096,"read_ahead_kb 128 MB/s":300,"read_ahead_kb 4096 MB/s":340})j"),
             QString::fromUtf8(R"j({"devices":[{"device":"loop0","max_sectors_kb":1280,"nr_requests":128,"queue_device":"loop0","read_ahead_kb":128,"scheduler":"none"}],"points":[{"avg_request_kb":128,"complete":true,"max_mb_per_s":300,"mb_per_s":300,"min_mb_per_s":300,"read_ahead_kb":128,"requested_read_ahead_kb":128},{"avg_request_kb":511.5,"complete":true,"max_mb_per_s":340,"mb_per_s":340,"min_mb_per_s":340,"read_ahead_kb":4096,"requested_read_ahead_kb":4000}],"spec":{"block_size":65536},"summary":{"best_mb_per_s":340,"best_read_ahead_kb":4096,"original_read_ahead_kb":128,"queue_device":"loop0","restored":true}})j"),
             QString::fromUtf8(R"j({"block_size":65536,"cancelled":false,"device":"loop0","errors":[],"failed":false,"journal":"","original_read_ahead_kb":128,"points":[{"avg_request_kb":128,"complete":true,"max_mb_per_s":300,"mb_per_s":300,"min_mb_per_s":300,"read_ahead_kb":128,"requested_read_ahead_kb":128},{"avg_request_kb":511.5,"complete":true,"max_mb_per_s":340,"mb_per_s":340,"min_mb_per_s":340,"read_ahead_kb":4096,"requested_read_ahead_kb":4000}],"queue_device":"loop0","restore_message":"","restored":true,"schema":1,"settings":{"device":"loop0","kernel":"6.1.0-test","logical_block_size":null,"max_sectors_kb":1280,"nr_requests":128,"queue_device":"loop0","read_ahead_kb":128,"scheduler":"none"},"sweep":"read_ahead_kb","test":"seq"})j")}};
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("before"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            for (const Row &row : rows) {
                QSqlQuery q(db);
                QVERIFY(q.prepare(u"INSERT INTO records (recorded_at, source, kind, test, device, kernel, description, "
                                  "mb_per_s, ok, settings, metrics, result, figures) VALUES "
                                  "('2026-12-01T10:00:00.000Z', 'console', ?, 'seq', 'loop0', '6.1.0-test', ?, ?, 1, "
                                  "?, ?, ?, ?)"_qs));
                for (const QVariant &v : {QVariant(QString::fromLatin1(row.kind)), QVariant(QString::fromLatin1(row.description)),
                                          QVariant(row.mbPerSec), QVariant(row.settings), QVariant(row.metrics),
                                          QVariant(row.result), QVariant(row.figures)})
                    q.addBindValue(v);
                QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("before"));
        const auto list = HistoryStore(path).list(u"loop0"_qs);
        QVERIFY2(list, list ? "" : qPrintable(list.error().message));
        QCOMPARE(list->size(), 3);
        const QJsonObject json = historyToJson(*list, false);
        for (int i = 0; i < 2; ++i) {
            const Row &row = rows.at(i);
            const auto it = std::find_if(list->cbegin(), list->cend(),
                                         [&](const HistoryRecord &r) { return r.description == QLatin1String(row.description); });
            QVERIFY(it != list->cend());
            auto got = HistoryStore(path).get(it->id);
            QVERIFY2(got, got ? "" : qPrintable(got.error().message));
            QCOMPARE(got->mbPerSec, row.mbPerSec);
            QVERIFY(got->ok);
            QCOMPARE(got->kernel, u"6.1.0-test"_qs);
            QCOMPARE(got->description, QString::fromLatin1(row.description));
            QCOMPARE(got->settings, QJsonDocument::fromJson(row.settings.toUtf8()).object());
            QCOMPARE(got->metrics, QJsonDocument::fromJson(row.metrics.toUtf8()).object());
            QCOMPARE(got->figures, QJsonDocument::fromJson(row.figures.toUtf8()).object());
            QCOMPARE(got->result, QJsonDocument::fromJson(row.result.toUtf8()).object());
            // and as the version before worked them out from its result
            QCOMPARE(got->figures, historyFigures(got->kind, got->result));
        }
        // The figures a person reads, one by one.
        QJsonObject test, sweep;
        for (const QJsonValue &v : json.value(u"records").toArray()) {
            if (v[u"kind"].toString() == u"test" && v[u"description"].toString() == u"seq on loop0")
                test = v.toObject();
            if (v[u"kind"].toString() == u"sweep")
                sweep = v.toObject();
        }
        const QJsonObject summary = test.value(u"summary").toObject();
        QCOMPARE(summary.value(u"median_mb_per_s").toDouble(), 320.0);
        QCOMPARE(summary.value(u"min_mb_per_s").toDouble(), 300.0);
        QCOMPARE(summary.value(u"max_mb_per_s").toDouble(), 340.0);
        QCOMPARE(summary.value(u"stdev_mb_per_s").toDouble(), 28.284);
        QCOMPARE(summary.value(u"runs").toInt(), 2);
        const QJsonObject device = test.value(u"devices").toArray().at(0).toObject();
        QCOMPARE(device.value(u"read_ahead_kb").toDouble(), 256.0);
        QCOMPARE(device.value(u"avg_request_kb").toDouble(), 129.0);
        QCOMPARE(device.value(u"overshoot_bytes").toDouble(), 131072.0);
        QCOMPARE(device.value(u"scheduler").toString(), u"none"_qs);
        const QJsonObject stream = test.value(u"streams").toArray().at(0).toObject();
        QCOMPARE(stream.value(u"latency_us").toObject().value(u"count").toDouble(), 2.0);
        QCOMPARE(test.value(u"spec").toObject().value(u"block_size").toDouble(), 65536.0);
        const QJsonObject sweepSummary = sweep.value(u"summary").toObject();
        QCOMPARE(sweepSummary.value(u"best_read_ahead_kb").toDouble(), 4096.0);
        QCOMPARE(sweepSummary.value(u"best_mb_per_s").toDouble(), 340.0);
        QCOMPARE(sweepSummary.value(u"original_read_ahead_kb").toDouble(), 128.0);
        const QJsonArray points = sweep.value(u"points").toArray();
        QCOMPARE(points.size(), 2);
        QCOMPARE(points.at(1).toObject().value(u"requested_read_ahead_kb").toDouble(), 4000.0);
        QCOMPARE(points.at(1).toObject().value(u"avg_request_kb").toDouble(), 511.5);
        // Compare reads them as it did: the row beside a new record.
        const auto fresh = std::find_if(list->cbegin(), list->cend(), [](const HistoryRecord &r) { return r.mbPerSec == 100; });
        const auto old = std::find_if(list->cbegin(), list->cend(), [](const HistoryRecord &r) { return r.mbPerSec == 320; });
        QVERIFY(fresh != list->cend() && old != list->cend());
        const HistoryComparison cmp = compareHistory(*HistoryStore(path).get(old->id), *HistoryStore(path).get(fresh->id));
        const auto median = std::find_if(cmp.results.cbegin(), cmp.results.cend(),
                                         [](const HistoryDiff &d) { return d.key == u"median MB/s"; });
        QVERIFY(median != cmp.results.cend());
        QCOMPARE(median->a, u"320"_qs);
        QCOMPARE(median->b, u"100"_qs);
    }

    // A test's figure in the history is the median of its runs, as on its
    // card: a cold first run at 304 MB/s beside 476 and 1492 is 476, not
    // the last run and not the mean.
    void keepsTheMedian()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("history.sqlite"));
        const HistoryRecord r = historyRecord(seqResult(256, {304, 476, 1492}), QStringLiteral("cli"), {});
        QCOMPARE(r.mbPerSec, 476.0);
        QCOMPARE(r.metrics.value(u"median MB/s").toDouble(), 476.0);
        QVERIFY(HistoryStore(path).add(r));
        auto records = HistoryStore(path).list();
        QVERIFY(records);
        QCOMPARE(records->constFirst().mbPerSec, 476.0);
        const QJsonObject rec = historyToJson(*records).value(u"records").toArray().at(0).toObject();
        QCOMPARE(rec.value(u"summary").toObject().value(u"median_mb_per_s").toDouble(), 476.0);
    }

    // A test kept when the figure was the mean reads back with the median
    // of its runs.
    void olderTestRecordGetsItsMedian()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("history.sqlite"));
        HistoryRecord r = historyRecord(seqResult(256, {304, 476, 1492}), QStringLiteral("cli"), {});
        r.mbPerSec = 757.333; // as it was kept: the mean
        r.metrics.remove(QStringLiteral("median MB/s"));
        QJsonObject summary = r.figures.value(u"summary").toObject();
        summary.remove(QStringLiteral("median_mb_per_s"));
        r.figures.insert(QStringLiteral("summary"), summary);
        r.result.remove(QStringLiteral("median_mb_per_s"));
        QVERIFY(HistoryStore(path).add(r));
        auto records = HistoryStore(path).list();
        QVERIFY(records);
        QCOMPARE(records->constFirst().mbPerSec, 476.0);
        QCOMPARE(records->constFirst().figures.value(u"summary").toObject().value(u"median_mb_per_s").toDouble(), 476.0);
    }

    // An advice with no steady answer is kept as that: no "recommended",
    // finished (ok), the curve's pick under its own name; one kept before
    // (as "768 KiB recommended") reads back the same way.
    void unresolvedAdviceRecommendsNothing()
    {
        Advice a;
        a.device = a.queueDevice = QStringLiteral("loop5");
        a.source = QStringLiteral("measured");
        a.analysis.resolved = false;
        a.unresolvedPickKiB = 768;
        a.restored = true;
        a.runs = 40;
        a.elapsedMs = 60000;
        const HistoryRecord r = historyRecord(a, QStringLiteral("console"));
        QCOMPARE(r.description, u"no steady answer, 40 runs in 60.0 s"_qs);
        QVERIFY(r.ok);
        QVERIFY(!r.metrics.contains(u"recommended read_ahead_kb"));
        QVERIFY(!r.figures.value(u"summary").toObject().contains(u"recommended_read_ahead_kb"));
        QCOMPARE(r.figures.value(u"summary").toObject().value(u"unresolved_pick_read_ahead_kb").toInteger(), 768);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("history.sqlite"));
        HistoryRecord old = r; // as an older console kept it
        old.description = u"768 KiB recommended, 40 runs in 60.0 s"_qs;
        old.metrics.insert(QStringLiteral("recommended read_ahead_kb"), 768.0);
        QJsonObject summary = old.figures.value(u"summary").toObject();
        summary.remove(QStringLiteral("unresolved_pick_read_ahead_kb"));
        summary.insert(QStringLiteral("recommended_read_ahead_kb"), 768);
        old.figures.insert(QStringLiteral("summary"), summary);
        QVERIFY(HistoryStore(path).add(old));
        auto records = HistoryStore(path).list();
        QVERIFY(records);
        const HistoryRecord &back = records->constFirst();
        QCOMPARE(back.description, u"no steady answer, 40 runs in 60.0 s"_qs);
        QVERIFY(!back.metrics.contains(u"recommended read_ahead_kb"));
        QVERIFY(!back.figures.value(u"summary").toObject().contains(u"recommended_read_ahead_kb"));
        QCOMPARE(back.figures.value(u"summary").toObject().value(u"unresolved_pick_read_ahead_kb").toInteger(), 768);
    }

    // BLOCKTUNE_HISTORY_DB names a file whose folder is gone: an error that
    // names it, and no record anywhere else (the user's own history).
    void configuredPathThatCannotBeUsedIsAnError()
    {
        QTemporaryDir dir;
        const QString gone = dir.filePath(QStringLiteral("gone/history.sqlite"));
        const QByteArray saved = qgetenv("BLOCKTUNE_HISTORY_DB");
        qputenv("BLOCKTUNE_HISTORY_DB", gone.toLocal8Bit());
        const auto restore = qScopeGuard([&] { qputenv("BLOCKTUNE_HISTORY_DB", saved); });
        const QFileInfo standard(HistoryStore::standardPath());
        const bool hadStandard = standard.exists();
        const qint64 standardSize = standard.size();
        const HistoryStore store;
        QCOMPARE(store.path(), gone);
        auto id = store.add(historyRecord(seqResult(128, {100}), QStringLiteral("cli"), {}));
        QVERIFY(!id);
        QVERIFY2(id.error().message.contains(gone) && id.error().message.contains(u"BLOCKTUNE_HISTORY_DB"_qs),
                 qPrintable(id.error().message));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("gone"))));
        QFileInfo after(HistoryStore::standardPath());
        QCOMPARE(after.exists(), hadStandard); // the user's own history untouched
        QCOMPARE(after.size(), standardSize);
        QVERIFY(!store.list());
    }

    // Attack 5 of issue 36: as root, BLOCKTUNE_HISTORY_DB a link to another
    // root-owned SQLite file; `test seq` added blocktune's tables to it. The
    // path is refused now, the file it leads to untouched; and so is a
    // history in a folder another user can write (where such a link could
    // appear later), or below one another user could swap.
    void rootRefusesALinkedHistoryOrAFolderOthersCanWrite()
    {
        if (::geteuid() != 0) {
            if (rootRequired())
                QFAIL("this test needs root and BLOCKTUNE_REQUIRE_ROOT=1 forbids skipping");
            QSKIP("needs root: the rule is root's");
        }
        QTemporaryDir dir;
        const QString victim = dir.filePath(u"victim.sqlite"_qs);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_qs, u"victim"_qs);
            db.setDatabaseName(victim);
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec(u"CREATE TABLE secrets (x TEXT)"_qs));
            db.close();
        }
        QSqlDatabase::removeDatabase(u"victim"_qs);
        const QByteArray before = fileBytes(victim);
        const QString link = dir.filePath(u"history.sqlite"_qs);
        QVERIFY(QFile::link(victim, link));
        const QString othersCanWrite = dir.filePath(u"shared"_qs);
        QVERIFY(QDir().mkpath(othersCanWrite));
        QVERIFY(QFile::setPermissions(othersCanWrite, QFile::Permissions(0x7777))); // 0777
        const QString below = dir.filePath(u"user"_qs);
        QVERIFY(QDir().mkpath(below + u"/blocktune"_qs));
        QCOMPARE(::chown(QFile::encodeName(below).constData(), 65534, 65534), 0); // nobody owns the folder above

        const HistoryRecord record = historyRecord(seqResult(128, {100}), u"cli"_qs, {});
        const struct {
            QString path;
            QString why;
        } rows[] = {
            {link, u"it is a symbolic link"_qs},
            {othersCanWrite + u"/history.sqlite"_qs, u"is not a private directory"_qs},
            {below + u"/blocktune/history.sqlite"_qs, u"which users other than root can change"_qs},
        };
        for (const auto &row : rows) {
            const HistoryStore store(row.path);
            auto id = store.add(record);
            QVERIFY2(!id, qPrintable(row.path));
            QVERIFY2(id.error().message.contains(u"is refused while running as root"_qs) && id.error().message.contains(row.why),
                     qPrintable(id.error().message));
            QVERIFY(!store.list());
        }
        QCOMPARE(fileBytes(victim), before);
        QVERIFY(!QFileInfo::exists(othersCanWrite + u"/history.sqlite"_qs));
        QVERIFY(!QFileInfo::exists(below + u"/blocktune/history.sqlite"_qs));
        // The CLI says so and exits non-zero.
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(u"BLOCKTUNE_HISTORY_DB"_qs, link);
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(BLOCKTUNE_BIN_DIR "/blocktune-cli"), {u"history"_qs});
        QVERIFY(p.waitForFinished(30000));
        QVERIFY(p.exitCode() != 0);
        QVERIFY2(p.readAllStandardError().contains("it is a symbolic link"), "history through a link");
        QCOMPARE(fileBytes(victim), before);
        // A private folder of root's still works.
        QVERIFY(HistoryStore(dir.filePath(u"private/history.sqlite"_qs)).add(record));
    }
};

QTEST_MAIN(TestHistory)
#include "tst_history.moc"
