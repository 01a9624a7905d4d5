// The History tab: what was kept is listed after a restart (a new view on
// the same database), and two records compare side by side.
#include "history/historyview.h"
#include "history/history.h"
#include "historyfixture.h"

#include <QAbstractItemModel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace blocktune;
using namespace blocktune::test;

class TestHistoryView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsAcrossARestartAndCompares()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("history.sqlite"));
        auto view = std::make_unique<HistoryView>(path);
        QSignalSpy loaded(view.get(), &HistoryView::loaded);
        QVERIFY(loaded.wait(30000));
        QCOMPARE(view->recordCount(), 0);
        QVERIFY(HistoryStore(path).add(historyRecord(seqResult(128, {200}), QStringLiteral("console"), {})));
        QVERIFY(HistoryStore(path).add(historyRecord(seqResult(1024, {260}), QStringLiteral("cli"), {})));
        view->reload();
        QVERIFY(loaded.wait(30000));
        QCOMPARE(view->recordCount(), 2);

        view = std::make_unique<HistoryView>(path); // the console started again
        QSignalSpy again(view.get(), &HistoryView::loaded);
        QVERIFY(again.wait(30000));
        QCOMPARE(view->recordCount(), 2);

        QSignalSpy compared(view.get(), &HistoryView::compared);
        view->compare(view->recordId(1), view->recordId(0)); // older as A
        QVERIFY(compared.wait(30000));
        QAbstractItemModel *m = view->findChild<QTableView *>(QStringLiteral("historyCompare"))->model();
        QString readahead, mean;
        for (int row = 0; row < m->rowCount(); ++row) {
            const QString key = m->index(row, 0).data().toString();
            const QString line = QStringList{m->index(row, 1).data().toString(), m->index(row, 2).data().toString(),
                                             m->index(row, 3).data().toString()}.join(u'|');
            if (key == u"loop0 read_ahead_kb")
                readahead = line;
            if (key == u"mean MB/s")
                mean = line;
        }
        QCOMPARE(readahead, QStringLiteral("128|1024|differs"));
        QCOMPARE(mean, QStringLiteral("200|260|+30.0 %"));
    }
};

QTEST_MAIN(TestHistoryView)
#include "tst_historyview.moc"
