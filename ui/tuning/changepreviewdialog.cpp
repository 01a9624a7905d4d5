#include "changepreviewdialog.h"

#include "theme.h"
#include "tuning/tuning.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace blocktune {

QList<PreviewRow> previewRows(const ChangePlan &plan)
{
    QList<PreviewRow> rows;
    for (const PlannedWrite &w : plan.writes)
        rows << PreviewRow{w.device.isEmpty() ? ChangePreviewDialog::tr("this machine") : w.device, w.attribute,
                           w.current, w.value};
    return rows;
}

struct ChangePreviewDialog::Private
{
    ChangePlan plan;
    QList<PreviewRow> rows;
    bool ready = false;   ///< rows to write are shown, none refused, no plan on its way
    QLabel *heading = nullptr;
    QLabel *devicesLabel = nullptr;
    QListWidget *devices = nullptr;
    QTableWidget *table = nullptr;
    QLabel *notes = nullptr;
    QLabel *scope = nullptr;
    QPushButton *accept = nullptr;
};

ChangePreviewDialog::ChangePreviewDialog(const QString &title, const QString &acceptText, QWidget *parent)
    : QDialog(parent), d(std::make_unique<Private>())
{
    setObjectName(QStringLiteral("changePreview"));
    setWindowTitle(title);
    // Window-modal and opened with open(): no nested event loop.
    setWindowModality(Qt::WindowModal);

    d->heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), this);
    d->heading->setWordWrap(true);
    d->devicesLabel = new QLabel(tr("Devices it changes (tick the ones you mean):"), this);
    d->devices = new QListWidget(this);
    d->devices->setObjectName(QStringLiteral("previewDevices"));
    d->devices->setMaximumHeight(130);
    d->devicesLabel->setBuddy(d->devices);
    d->devicesLabel->hide();
    d->devices->hide();

    d->table = new QTableWidget(0, 3, this);
    d->table->setObjectName(QStringLiteral("previewRows"));
    d->table->setHorizontalHeaderLabels({tr("Device"), tr("Setting"), tr("Current → new")});
    d->table->verticalHeader()->hide();
    d->table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    d->table->setSelectionBehavior(QAbstractItemView::SelectRows);
    d->table->horizontalHeader()->setStretchLastSection(true);
    d->table->setWordWrap(false);
    d->table->setAccessibleName(tr("What will be written"));

    d->notes = new QLabel(this);
    d->notes->setObjectName(QStringLiteral("previewNotes"));
    d->notes->setWordWrap(true);
    d->notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->scope = new QLabel(this);
    d->scope->setObjectName(QStringLiteral("previewScope"));
    d->scope->setWordWrap(true);
    d->scope->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    d->accept = buttons->addButton(acceptText, QDialogButtonBox::AcceptRole);
    d->accept->setObjectName(QStringLiteral("previewAccept"));
    d->accept->setEnabled(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(d->devices, &QListWidget::itemChanged, this, [this] { Q_EMIT devicesChanged(chosenDevices()); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(d->heading);
    layout->addWidget(d->devicesLabel);
    layout->addWidget(d->devices);
    layout->addWidget(d->table, 1);
    layout->addWidget(d->notes);
    layout->addWidget(d->scope);
    layout->addWidget(buttons);
    resize(620, 380);
}

ChangePreviewDialog::~ChangePreviewDialog() = default;

void ChangePreviewDialog::setScope(const QString &text)
{
    d->scope->setText(text);
}

void ChangePreviewDialog::setDevices(const QList<PreviewDevice> &devices)
{
    const QSignalBlocker block(d->devices);
    d->devices->clear();
    for (const PreviewDevice &dev : devices) {
        auto *item = new QListWidgetItem(dev.note.isEmpty() ? dev.name : tr("%1 — %2").arg(dev.name, dev.note));
        item->setData(Qt::UserRole, dev.name);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(dev.chosen ? Qt::Checked : Qt::Unchecked);
        // Not by colour alone: the note says it, the icon marks it.
        if (dev.system)
            item->setIcon(semanticIcon(Semantic::Warning, d->devices));
        d->devices->addItem(item);
    }
    d->devicesLabel->setVisible(!devices.isEmpty());
    d->devices->setVisible(!devices.isEmpty());
}

QStringList ChangePreviewDialog::chosenDevices() const
{
    QStringList chosen;
    for (int i = 0; i < d->devices->count(); ++i)
        if (d->devices->item(i)->checkState() == Qt::Checked)
            chosen << d->devices->item(i)->data(Qt::UserRole).toString();
    return chosen;
}

void ChangePreviewDialog::showRows(const QList<PreviewRow> &rows)
{
    d->rows = rows;
    d->table->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        const PreviewRow &r = rows.at(i);
        const QString change = tr("%1 → %2").arg(r.current.isEmpty() ? tr("(new)") : r.current, r.next);
        const QStringList cells{r.device, r.setting, change};
        for (int c = 0; c < cells.size(); ++c)
            d->table->setItem(i, c, new QTableWidgetItem(cells.at(c)));
    }
    d->table->resizeColumnsToContents();
}

void ChangePreviewDialog::setPlan(const ChangePlan &plan)
{
    d->plan = plan;
    showRows(previewRows(plan));
    QStringList lines;
    for (const Error &e : plan.errors)
        lines << e.message;
    if (!plan.warnings.isEmpty())
        lines << tr("Warnings:") << plan.warnings;
    lines << plan.notes;
    if (plan.ok() && plan.writes.isEmpty())
        lines.prepend(tr("Nothing to write: every chosen device already has these values."));
    d->notes->setText(lines.join(u'\n'));
    d->ready = plan.ok() && !plan.writes.isEmpty();
    updateAccept();
}

void ChangePreviewDialog::setRows(const QList<PreviewRow> &rows, const QStringList &notes)
{
    d->plan = ChangePlan{};
    showRows(rows);
    d->notes->setText(notes.join(u'\n'));
    d->ready = !rows.isEmpty();
    updateAccept();
}

void ChangePreviewDialog::setPending()
{
    d->ready = false;
    d->notes->setText(tr("Planning for the devices ticked…"));
    updateAccept();
}

void ChangePreviewDialog::setRefusal(const QStringList &reasons)
{
    d->plan = ChangePlan{};
    showRows({});
    d->notes->setText(reasons.join(u'\n'));
    d->ready = false;
    updateAccept();
}

void ChangePreviewDialog::updateAccept()
{
    d->accept->setEnabled(d->ready);
}

const ChangePlan &ChangePreviewDialog::plan() const
{
    return d->plan;
}

QList<PreviewRow> ChangePreviewDialog::rows() const
{
    return d->rows;
}

QString ChangePreviewDialog::scopeText() const
{
    return d->scope->text();
}

QString ChangePreviewDialog::notesText() const
{
    return d->notes->text();
}

QString ChangePreviewDialog::lastingScope()
{
    return tr("Scope: only the devices listed. It lasts until it is changed again or the machine restarts; Revert "
              "session (Settings) brings the values from before back.");
}

QString ChangePreviewDialog::trialScope(int seconds)
{
    return tr("Scope: only the devices listed, for %n s; then the values from before come back unless you keep "
              "it. The values from before are journaled, so a crash does not leave the trial behind.",
              nullptr, seconds);
}

bool ChangePreviewDialog::canAccept() const
{
    return d->ready;
}

} // namespace blocktune
