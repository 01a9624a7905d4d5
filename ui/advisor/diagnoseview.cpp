#include "diagnoseview.h"

#include "advisorworker.h"
#include "format.h"
#include "pageheader.h"
#include "theme.h"
#include "session/consolesession.h"

#include <QCheckBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QScrollArea>
#include <QStyle>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <atomic>
#include <cmath>

namespace blocktune {

namespace {

Semantic severitySemantic(Severity s)
{
    switch (s) {
    case Severity::Problem: return Semantic::Error;
    case Severity::Warning: return Semantic::Warning;
    case Severity::Note: break;
    }
    return Semantic::Note;
}

/// A finding's card in its severity's hue, from the view's palette: a
/// tinted window under the palette's own text, the border and the code
/// line in the hue (the icon and the word say the severity too).
void styleCard(QFrame *card, const QPalette &palette)
{
    const Semantic s = severitySemantic(Severity(card->property("severity").toInt()));
    const QColor background = semanticBackground(s, palette, QPalette::Window);
    QPalette onCard = palette;
    onCard.setColor(QPalette::Window, background);
    card->setStyleSheet(QStringLiteral("QFrame#%1 { border: 1px solid %2; border-left: 5px solid %2; "
                                       "border-radius: 3px; background: %3; }")
                            .arg(card->objectName(), semanticMarkColor(s, onCard).name(), background.name()));
    if (auto *code = card->findChild<QLabel *>(QStringLiteral("severity")))
        code->setStyleSheet(QStringLiteral("color: %1").arg(semanticTextColor(s, onCard).name()));
}

QStyle::StandardPixmap severityIcon(Severity s)
{
    switch (s) {
    case Severity::Problem: return QStyle::SP_MessageBoxCritical;
    case Severity::Warning: return QStyle::SP_MessageBoxWarning;
    case Severity::Note: break;
    }
    return QStyle::SP_MessageBoxInformation;
}

QString severityText(Severity s)
{
    switch (s) {
    case Severity::Problem: return DiagnoseView::tr("problem");
    case Severity::Warning: return DiagnoseView::tr("warning");
    case Severity::Note: break;
    }
    return DiagnoseView::tr("note");
}

// Evidence values in the user's locale: whole numbers as they are, rates and
// ratios with the decimals they carry.
QString evidenceText(const QJsonValue &v)
{
    if (v.isNull() || v.isUndefined())
        return DiagnoseView::tr("unknown");
    if (v.isBool())
        return v.toBool() ? DiagnoseView::tr("yes") : DiagnoseView::tr("no");
    if (v.isDouble()) {
        const double x = v.toDouble();
        if (std::abs(x - std::round(x)) < 1e-9 && std::abs(x) < 1e15)
            return x < 0 ? format::number(x, 0) : format::count(quint64(std::llround(x)));
        // Core rounds its figures to one decimal; a share under 1 keeps three.
        return format::number(x, std::abs(x) < 1 ? 3 : 1);
    }
    if (v.isArray()) {
        QStringList parts;
        for (const QJsonValue &e : v.toArray())
            parts << evidenceText(e);
        return parts.join(QStringLiteral(", "));
    }
    if (v.isObject()) {
        QStringList parts;
        const QJsonObject o = v.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            parts << QStringLiteral("%1: %2").arg(it.key(), evidenceText(it.value()));
        return parts.join(QStringLiteral(", "));
    }
    return v.toString();
}

// A finding's evidence as a two-column table exactly as tall as its rows.
QTableWidget *evidenceTable(const QJsonObject &evidence, QWidget *parent)
{
    auto *table = new QTableWidget(int(evidence.size()), 2, parent);
    table->setObjectName(QStringLiteral("evidence"));
    table->setHorizontalHeaderLabels({DiagnoseView::tr("Evidence"), DiagnoseView::tr("Value")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setFocusPolicy(Qt::NoFocus);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    int row = 0;
    for (auto it = evidence.constBegin(); it != evidence.constEnd(); ++it, ++row) {
        table->setItem(row, 0, new QTableWidgetItem(it.key()));
        auto *value = new QTableWidgetItem(evidenceText(it.value()));
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, 1, value);
    }
    table->resizeColumnToContents(0);
    table->resizeRowsToContents();
    int h = table->horizontalHeader()->height() + 2 * table->frameWidth();
    for (int r = 0; r < table->rowCount(); ++r)
        h += table->rowHeight(r);
    table->setFixedHeight(h);
    table->setMaximumWidth(520);
    return table;
}

} // namespace

struct DiagnoseView::Private
{
    ConsoleSession *session = nullptr;
    QString device;
    QThread thread;
    AdvisorWorker *worker = nullptr;
    std::atomic_bool cancel{false};
    bool running = false;
    bool lastMeasured = false;
    QList<Finding> findings;
    QString fixing;          ///< the code whose fix is on its way
    quint64 planTicket = 0;
    quint64 applyTicket = 0;
    /// Its own fixes and measurements, whose outcome it describes itself:
    /// the session's event for them does not replace that (tickets).
    QSet<quint64> ownTickets;

    PageHeader *header = nullptr; ///< the title and why measuring is not offered
    QCheckBox *staticOnly = nullptr;
    QPushButton *runButton = nullptr;
    QPushButton *cancelButton = nullptr;
    QProgressBar *progress = nullptr;
    QLabel *intro = nullptr; ///< what Diagnose will do, until it ran for this device
    bool ran = false;
    QWidget *cards = nullptr;
    QVBoxLayout *cardsLayout = nullptr;
    QList<QPushButton *> fixButtons;
    QLabel *status = nullptr;
};

DiagnoseView::DiagnoseView(ConsoleSession *session, QWidget *parent) : QWidget(parent), d(std::make_unique<Private>())
{
    qRegisterMetaType<blocktune::DiagnoseReply>();
    d->session = session;
    buildWidgets();
    layOut();
    if (!session->capabilities().canMeasure) {
        d->header->setDisabledReason(tr("A recorded tree has nothing to read: only the static checks run here"));
        d->staticOnly->setChecked(true);
        d->staticOnly->setEnabled(false);
        d->staticOnly->setToolTip(d->header->disabledReason());
    }
    connectSignals(session);
    setRunning(false);
}

void DiagnoseView::buildWidgets()
{
    d->header = new PageHeader(this);
    d->header->setTitle(tr("Select a device"));
    d->staticOnly = new QCheckBox(tr("Static checks only (no reads)"), this);
    d->staticOnly->setObjectName(QStringLiteral("staticOnly"));
    d->runButton = new QPushButton(tr("Diagnose"), this);
    d->cancelButton = new QPushButton(tr("Cancel"), this);
    d->cancelButton->setEnabled(false);
    d->progress = new QProgressBar(this);
    d->progress->setRange(0, 1);
    d->progress->setValue(0);
    d->progress->setTextVisible(false);
    d->progress->setMaximumHeight(12);
    d->status = new QLabel(this);
    d->status->setWordWrap(true);
    d->intro = new QLabel(this);
    d->intro->setObjectName(QStringLiteral("diagnoseIntro"));
    d->intro->setWordWrap(true);
    d->intro->setMargin(8);
    d->cards = new QWidget;
    d->cardsLayout = new QVBoxLayout(d->cards);
    d->cardsLayout->addStretch();
    followPalette(this, [this] {
        for (QFrame *card : d->cards->findChildren<QFrame *>(Qt::FindDirectChildrenOnly))
            if (card->property("severity").isValid())
                styleCard(card, palette());
    });
}

void DiagnoseView::layOut()
{
    auto *controls = new QHBoxLayout;
    controls->addWidget(d->staticOnly);
    controls->addStretch();
    controls->addWidget(d->runButton);
    controls->addWidget(d->cancelButton);

    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(d->cards);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(d->header);
    layout->addLayout(controls);
    layout->addWidget(d->progress);
    layout->addWidget(d->intro);
    layout->addWidget(scroll, 1);
    layout->addWidget(d->status);
}

QString DiagnoseView::introText() const
{
    const QString what = d->session->capabilities().canMeasure
        ? tr("Diagnose checks the device's settings against its stack (readahead against md's and dm's floor, "
             "the scheduler, request sizes, the members of an array) and names what holds streaming reads "
             "back, with the fix for each finding. The static checks read nothing and take under a second; "
             "unless \"Static checks only\" is ticked, it then reads for about %n s (the stream at its "
             "readahead and at a larger one, raw O_DIRECT reads, two streams side by side, each three times "
             "in turn, so a finding is stated only when it is larger than the noise) and puts every setting "
             "back.",
             nullptr, int((diagnoseReads(DiagnoseSpec().workload) * DiagnoseSpec().pointMs + 999) / 1000))
        : tr("Diagnose checks the device's settings against its stack (readahead against md's and dm's floor, "
             "the scheduler, request sizes, the members of an array) and names what holds streaming reads "
             "back, with the fix for each finding. The checks read nothing and take under a second.");
    return d->device.isEmpty() ? QString(tr("Select a device in the tree.") + u' ' + what)
                               : QString(tr("Diagnose %1: ").arg(d->device) + what);
}

void DiagnoseView::connectSignals(ConsoleSession *session)
{
    // The status line says the last thing the session did, whoever asked.
    connect(session, &ConsoleSession::happened, this, [this](const SessionEvent &event) {
        if (!d->ownTickets.remove(event.ticket))
            d->status->setText(event.text);
    });
    connect(d->runButton, &QPushButton::clicked, this, [this] { run(!d->staticOnly->isChecked()); });
    connect(d->cancelButton, &QPushButton::clicked, this, &DiagnoseView::cancel);

    d->worker = new AdvisorWorker(&d->cancel);
    d->worker->moveToThread(&d->thread);
    connect(&d->thread, &QThread::finished, d->worker, &QObject::deleteLater);
    connect(d->worker, &AdvisorWorker::diagnosed, this, &DiagnoseView::showDiagnosis);
    d->thread.setObjectName(QStringLiteral("diagnose"));
    d->thread.start();

    SessionWorker *sw = session->worker();
    connect(sw, &SessionWorker::planned, this, [this](quint64 ticket, const ChangePlan &plan) {
        if (ticket != d->planTicket)
            return;
        d->planTicket = 0;
        if (!plan.ok()) {
            setMessage(planErrors(plan));
            return;
        }
        d->applyTicket = d->session->apply(plan, false);
        d->ownTickets.insert(d->applyTicket);
    });
    connect(sw, &SessionWorker::applied, this, [this](quint64 ticket, const ChangeReport &report) {
        if (ticket != d->applyTicket)
            return;
        d->applyTicket = 0;
        Q_EMIT settingsChanged();
        if (!report.ok()) {
            setMessage(report.error ? report.error->message : tr("refused"));
            return;
        }
        setMessage(tr("Applied the fix for %1; checking again").arg(d->fixing));
        run(false); // the static checks say whether it holds
    });
}

void DiagnoseView::showDiagnosis(const DiagnoseReply &reply)
{
    // It scanned again; the job publishes that model for the tree and the panel.
    if (d->lastMeasured)
        Q_EMIT settingsChanged();
    setRunning(false);
    clearCards();
    if (!reply.diagnosis) {
        setMessage(reply.error);
        Q_EMIT finished(false);
        return;
    }
    const Diagnosis &dx = *reply.diagnosis;
    d->findings = dx.findings;
    const bool writable = d->session->readOnlyReason().isEmpty();
    int at = 0;
    for (const Finding &f : dx.findings)
        d->cardsLayout->insertWidget(at++, makeCard(f, dx.device, writable));
    QString text = dx.findings.isEmpty() ? tr("No findings for %1").arg(dx.device)
                                         : tr("%n finding(s) for %1", nullptr, int(dx.findings.size())).arg(dx.device);
    text += dx.measured ? tr(" (static checks and measured reads)") : tr(" (static checks)");
    if (!dx.restored)
        text += u'\n' + tr("read_ahead_kb NOT restored: %1").arg(dx.restoreMessage);
    setMessage(text);
    Q_EMIT finished(true);
}

QFrame *DiagnoseView::makeCard(const Finding &f, const QString &device, bool writable)
{
    auto *card = new QFrame(d->cards);
    card->setObjectName(f.code);
    card->setFrameShape(QFrame::StyledPanel);
    card->setProperty("severity", int(f.severity));
    // As tall as its contents, never stretched: the space below the
    // last card stays empty instead of opening gaps inside the cards.
    card->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    auto *cardLayout = new QVBoxLayout(card);
    auto *head = new QHBoxLayout;
    auto *icon = new QLabel(card);
    icon->setPixmap(style()->standardIcon(severityIcon(f.severity)).pixmap(24, 24));
    head->addWidget(icon);
    auto *code = new QLabel(QStringLiteral("<b>%1</b> · %2").arg(f.code, severityText(f.severity)), card);
    code->setObjectName(QStringLiteral("severity"));
    head->addWidget(code);
    head->addStretch();
    cardLayout->addLayout(head);
    auto *summary = new QLabel(f.summary, card);
    summary->setObjectName(QStringLiteral("summary"));
    summary->setWordWrap(true);
    summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    cardLayout->addWidget(summary);
    if (!f.evidence.isEmpty())
        cardLayout->addWidget(evidenceTable(f.evidence, card));
    if (!f.fix.isEmpty()) {
        auto *fix = new QHBoxLayout;
        fix->addWidget(new QLabel(tr("Fix: %1").arg(fixText(f.fix)), card));
        auto *apply = new QPushButton(tr("Apply"), card);
        apply->setObjectName(QStringLiteral("applyFix"));
        apply->setEnabled(writable);
        apply->setToolTip(writable ? tr("Set %1 on %2").arg(fixText(f.fix), device) : d->session->readOnlyReason());
        const QString c = f.code;
        connect(apply, &QPushButton::clicked, this, [this, c] { applyFix(c); });
        d->fixButtons << apply;
        fix->addWidget(apply);
        fix->addStretch();
        cardLayout->addLayout(fix);
    }
    styleCard(card, palette());
    return card;
}

DiagnoseView::~DiagnoseView()
{
    d->cancel = true;
    d->thread.quit();
    d->thread.wait();
}

QString DiagnoseView::device() const
{
    return d->device;
}

bool DiagnoseView::isRunning() const
{
    return d->running;
}

QStringList DiagnoseView::findingCodes() const
{
    QStringList codes;
    for (const Finding &f : d->findings)
        codes << f.code;
    return codes;
}

QString DiagnoseView::measureDisabledReason() const
{
    return d->header->disabledReason();
}

void DiagnoseView::setDevice(const QString &name)
{
    // The tree selects the same device again after every rescan (ours
    // included): the cards stay.
    if (d->running || name == d->device)
        return;
    d->device = name;
    d->ran = false;
    d->header->setTitle(name.isEmpty() ? tr("Select a device") : tr("Diagnose %1").arg(name));
    clearCards();
    d->findings.clear();
    d->status->clear();
    setRunning(false);
}

bool DiagnoseView::run(bool measure)
{
    if (d->running || d->device.isEmpty())
        return false;
    if (measure && !d->session->capabilities().canMeasure) {
        setMessage(d->header->disabledReason());
        return false;
    }
    DiagnoseSpec spec;
    spec.device = d->device;
    spec.measure = measure;
    d->cancel = false;
    d->lastMeasured = measure;
    setRunning(true);
    setMessage(measure ? tr("Checking %1, then a few seconds of reads…").arg(d->device)
                       : tr("Checking %1…").arg(d->device));
    AdvisorWorker *worker = d->worker;
    d->ownTickets.insert(
        d->session->runJob(worker, [worker, spec](const SessionJobContext &job) { worker->diagnose(job, spec); }));
    return true;
}

void DiagnoseView::cancel()
{
    if (d->running)
        d->cancel = true;
}

bool DiagnoseView::applyFix(const QString &code)
{
    if (d->planTicket || d->applyTicket || d->running || !d->session->readOnlyReason().isEmpty())
        return false;
    for (const Finding &f : std::as_const(d->findings)) {
        if (f.code != code || f.fix.isEmpty())
            continue;
        d->fixing = code;
        d->planTicket = d->session->plan(fixChanges(d->device, f.fix));
        setMessage(tr("Applying %1…").arg(fixText(f.fix)));
        return true;
    }
    return false;
}

void DiagnoseView::setRunning(bool running)
{
    d->running = running;
    // Busy without a fraction: the measured part is short reads (diagnoseReads()) whose
    // length the core decides. Shown only while it runs; before the first
    // run for this device, the line of what it will do.
    d->progress->setRange(0, running ? 0 : 1);
    d->progress->setValue(running ? 0 : 1);
    d->progress->setVisible(running);
    d->ran = d->ran || running;
    d->intro->setText(introText());
    d->intro->setVisible(!d->ran);
    d->runButton->setEnabled(!running && !d->device.isEmpty());
    d->cancelButton->setEnabled(running);
    for (QPushButton *b : std::as_const(d->fixButtons))
        b->setEnabled(!running && d->session->readOnlyReason().isEmpty());
}

void DiagnoseView::setMessage(const QString &text)
{
    d->status->setText(text);
    Q_EMIT message(text);
}

void DiagnoseView::clearCards()
{
    d->fixButtons.clear();
    while (d->cardsLayout->count() > 1) {
        QLayoutItem *item = d->cardsLayout->takeAt(0);
        delete item->widget();
        delete item;
    }
}

} // namespace blocktune
