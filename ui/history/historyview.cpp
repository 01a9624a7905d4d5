#include "historyview.h"

#include "advisor/advisor.h"

#include "format.h"
#include "theme.h"
#include "history/history.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QThreadPool>
#include <QVBoxLayout>

namespace blocktune {

namespace {
/// On each cell of a setting that differs between A and B.
constexpr int kDiffersRole = Qt::UserRole + 1;
/// On a record's first cell: its kind ("test", "sweep", "advice").
constexpr int kKindRole = Qt::UserRole + 2;
}

struct HistoryView::Private
{
    QString path;
    QStandardItemModel *records = nullptr;
    QStandardItemModel *comparison = nullptr;
    QTableView *list = nullptr;
    QTableView *compare = nullptr;
    QPushButton *reload = nullptr;
    QPushButton *compareButton = nullptr;
    QPushButton *adviseButton = nullptr;
    QLabel *status = nullptr;
};

namespace {

QStandardItem *cell(const QString &text, const QVariant &sort = {})
{
    auto *item = new QStandardItem(text);
    item->setEditable(false);
    if (sort.isValid())
        item->setData(sort, Qt::UserRole);
    return item;
}

/// Runs `work` on a pool thread and `then` with its answer on the GUI
/// thread, if `owner` still exists.
template<typename Work, typename Then>
void offThread(QObject *owner, Work work, Then then)
{
    QPointer<QObject> guard(owner);
    QThreadPool::globalInstance()->start([guard, work, then] {
        auto answer = work();
        QMetaObject::invokeMethod(QCoreApplication::instance(), [guard, then, answer] {
            if (guard)
                then(answer);
        }, Qt::QueuedConnection);
    });
}

} // namespace

HistoryView::HistoryView(const QString &path, QWidget *parent) : QWidget(parent), d(std::make_unique<Private>())
{
    d->path = path.isEmpty() ? HistoryStore::defaultPath() : path;
    d->records = new QStandardItemModel(0, 8, this);
    d->records->setHorizontalHeaderLabels({tr("#"), tr("Time"), tr("Device"), tr("Test"), tr("MB/s"),
                                           tr("Kernel"), tr("From"), tr("What ran")});
    d->records->setSortRole(Qt::UserRole);
    d->list = new QTableView(this);
    d->list->setObjectName(QStringLiteral("historyList"));
    d->list->setModel(d->records);
    d->list->setSelectionBehavior(QAbstractItemView::SelectRows);
    d->list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    d->list->setSortingEnabled(true);
    d->list->verticalHeader()->hide();
    d->list->setAlternatingRowColors(true);
    d->list->horizontalHeader()->setStretchLastSection(true);

    d->comparison = new QStandardItemModel(0, 4, this);
    d->comparison->setHorizontalHeaderLabels({tr("Setting / result"), tr("A"), tr("B"), tr("Change")});
    d->compare = new QTableView(this);
    d->compare->setObjectName(QStringLiteral("historyCompare"));
    d->compare->setModel(d->comparison);
    d->compare->verticalHeader()->hide();
    d->compare->horizontalHeader()->setStretchLastSection(true);

    d->reload = new QPushButton(tr("Reload"), this);
    d->compareButton = new QPushButton(tr("Compare the two selected"), this);
    d->compareButton->setEnabled(false);
    d->adviseButton = new QPushButton(tr("Advise from this sweep"), this);
    d->adviseButton->setObjectName(QStringLiteral("historyAdvise"));
    d->adviseButton->setToolTip(tr("The advice the selected sweep's curve gives, as Advise computes it, without "
                                   "reading the device again"));
    d->adviseButton->setEnabled(false);
    d->status = new QLabel(this);
    d->status->setWordWrap(true);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(d->reload);
    buttons->addWidget(d->compareButton);
    buttons->addWidget(d->adviseButton);
    buttons->addWidget(d->status, 1);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(d->list);
    splitter->addWidget(d->compare);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(splitter, 1);
    // Tab as the page reads: the buttons above, then the list, then the comparison.
    setTabOrder(d->reload, d->compareButton);
    setTabOrder(d->compareButton, d->adviseButton);
    setTabOrder(d->adviseButton, d->list);
    setTabOrder(d->list, d->compare);

    // A setting that differs: a tint of the table's base (the "differs" in
    // the Change column says it without colour), redone for a new theme.
    followPalette(d->compare, [this] { tintDifferences(); });

    connect(d->reload, &QPushButton::clicked, this, &HistoryView::reload);
    connect(d->list->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] {
                const QModelIndexList rows = d->list->selectionModel()->selectedRows();
                d->compareButton->setEnabled(rows.size() == 2);
                d->adviseButton->setEnabled(rows.size() == 1
                                            && d->records->item(rows.constFirst().row(), 0)->data(kKindRole).toString() != u"test");
            });
    connect(d->adviseButton, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = d->list->selectionModel()->selectedRows();
        if (rows.size() == 1)
            adviseFrom(d->records->item(rows.constFirst().row(), 0)->data(Qt::UserRole).toLongLong());
    });
    connect(d->compareButton, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = d->list->selectionModel()->selectedRows();
        if (rows.size() != 2)
            return;
        qint64 a = d->records->item(rows.at(0).row(), 0)->data(Qt::UserRole).toLongLong();
        qint64 b = d->records->item(rows.at(1).row(), 0)->data(Qt::UserRole).toLongLong();
        if (a > b)
            std::swap(a, b); // A is the older one: the change reads "from A to B"
        compare(a, b);
    });
    reload();
}

HistoryView::~HistoryView() = default;

int HistoryView::recordCount() const
{
    return d->records->rowCount();
}

qint64 HistoryView::recordId(int row) const
{
    const QStandardItem *item = d->records->item(row, 0);
    return item ? item->data(Qt::UserRole).toLongLong() : 0;
}

void HistoryView::tintDifferences()
{
    const QColor tint = semanticBackground(Semantic::Warning, d->compare->palette(), QPalette::Base);
    for (int r = 0; r < d->comparison->rowCount(); ++r)
        for (int c = 0; c < d->comparison->columnCount(); ++c)
            if (QStandardItem *item = d->comparison->item(r, c); item && item->data(kDiffersRole).toBool())
                item->setBackground(tint);
}

void HistoryView::reload()
{
    const QString path = d->path;
    offThread(
        this,
        [path] {
            HistoryNotice notice;
            auto list = HistoryStore(path).list({}, 0, &notice);
            return std::make_pair(list.toOptional(), QString(notice.text + (list ? QString() : list.error().message)));
        },
        [this](const std::pair<std::optional<QList<HistoryRecord>>, QString> &answer) {
            d->records->removeRows(0, d->records->rowCount());
            if (!answer.second.isEmpty()) {
                d->status->setText(answer.second);
                Q_EMIT message(answer.second);
            }
            const QList<HistoryRecord> records = answer.first.value_or(QList<HistoryRecord>{});
            for (const HistoryRecord &r : records) {
                const QDateTime local = r.recordedAt.toLocalTime();
                d->records->appendRow(QList<QStandardItem *>{
                    cell(QString::number(r.id), r.id),
                    cell(QLocale().toString(local, QLocale::ShortFormat), local),
                    cell(r.device, r.device),
                    cell(r.kind == u"sweep"    ? tr("sweep (%1)").arg(r.test)
                         : r.kind == u"advice" ? tr("advice (%1)").arg(r.test)
                                               : r.test,
                         QString(r.kind + r.test)),
                    cell(QString(format::rate(r.mbPerSec) + (r.ok ? QString() : tr(" (incomplete)"))), r.mbPerSec),
                    cell(r.kernel, r.kernel),
                    cell(r.source, r.source),
                    cell(r.description, r.description),
                });
                d->records->item(d->records->rowCount() - 1, 4)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                d->records->item(d->records->rowCount() - 1, 0)->setData(r.kind, kKindRole);
            }
            d->list->resizeColumnsToContents();
            if (answer.second.isEmpty())
                d->status->setText(records.isEmpty() ? tr("No tests kept yet: a finished read test or sweep "
                                                          "appears here (%1)").arg(d->path)
                                                     : tr("%n record(s); select two to compare", nullptr,
                                                          int(records.size())));
            Q_EMIT loaded(int(records.size()));
        });
}

void HistoryView::adviseFrom(qint64 id)
{
    const QString path = d->path;
    offThread(
        this,
        [path, id] {
            auto record = HistoryStore(path).get(id);
            if (!record)
                return std::make_pair(std::optional<Advice>(), record.error().message);
            const QString source = QStringLiteral("history:%1").arg(id);
            auto curve = recordedCurveFromJson(record->result, source);
            if (!curve)
                return std::make_pair(std::optional<Advice>(), curve.error().message);
            AdviseSpec spec;
            spec.device = record->device;
            if (auto w = parseWorkload(record->test))
                spec.workload = *w;
            return std::make_pair(std::optional<Advice>(adviseFromCurve(*curve, spec, source)), QString());
        },
        [this](const std::pair<std::optional<Advice>, QString> &answer) {
            if (!answer.first) {
                d->status->setText(answer.second);
                Q_EMIT message(answer.second);
                return;
            }
            Q_EMIT advised(*answer.first);
        });
}

void HistoryView::compare(qint64 a, qint64 b)
{
    const QString path = d->path;
    offThread(
        this,
        [path, a, b] {
            const HistoryStore store(path);
            auto ra = store.get(a);
            auto rb = store.get(b);
            QString error = !ra ? ra.error().message : (!rb ? rb.error().message : QString());
            return std::make_tuple(ra.toOptional(), rb.toOptional(), error);
        },
        [this](const std::tuple<std::optional<HistoryRecord>, std::optional<HistoryRecord>, QString> &answer) {
            const auto &[ra, rb, error] = answer;
            d->comparison->removeRows(0, d->comparison->rowCount());
            if (!ra || !rb) {
                d->status->setText(error);
                Q_EMIT message(error);
                return;
            }
            d->comparison->setHorizontalHeaderLabels(
                {tr("Setting / result"),
                 tr("A: #%1 %2").arg(ra->id).arg(QLocale().toString(ra->recordedAt.toLocalTime(), QLocale::ShortFormat)),
                 tr("B: #%1 %2").arg(rb->id).arg(QLocale().toString(rb->recordedAt.toLocalTime(), QLocale::ShortFormat)),
                 tr("Change")});
            const HistoryComparison c = compareHistory(*ra, *rb);
            auto section = [this](const QString &title) {
                QStandardItem *head = cell(title);
                QFont bold = head->font();
                bold.setBold(true);
                head->setFont(bold);
                d->comparison->appendRow(QList<QStandardItem *>{head, cell({}), cell({}), cell({})});
            };
            section(tr("Settings"));
            for (const HistoryDiff &diff : c.settings) {
                QList<QStandardItem *> row{cell(diff.key), cell(diff.a), cell(diff.b),
                                           cell(diff.differs ? tr("differs") : QString())};
                for (QStandardItem *item : row)
                    item->setData(diff.differs, kDiffersRole);
                d->comparison->appendRow(row);
            }
            tintDifferences();
            section(tr("Results"));
            for (const HistoryDiff &diff : c.results) {
                QString change;
                if (diff.percent)
                    change = (*diff.percent > 0 ? QStringLiteral("+") : QString())
                        + format::number(*diff.percent, 1) + QStringLiteral(" %");
                d->comparison->appendRow(QList<QStandardItem *>{cell(diff.key), cell(diff.a), cell(diff.b), cell(change)});
            }
            d->compare->resizeColumnsToContents();
            d->status->setText(tr("#%1 and #%2 side by side; changes read from A to B").arg(ra->id).arg(rb->id));
            Q_EMIT compared();
        });
}

} // namespace blocktune
