// The history store: records kept across store instances (a restart),
// newest first, filtered; the schema versioned; a damaged file set aside;
// a newer schema left alone; comparisons of settings and results.
#include "history/history.h"
#include "historyfixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

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
};

QTEST_MAIN(TestHistory)
#include "tst_history.moc"
