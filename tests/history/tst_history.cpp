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
