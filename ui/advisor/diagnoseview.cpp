#include "diagnoseview.h"

#include "advisorworker.h"
#include "changepreviewdialog.h"
#include "format.h"
#include "pageheader.h"
#include "theme.h"

#include "console/consolesession.h"

#include <QCheckBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QRegularExpression>
#include <QPushButton>
#include <QSet>
#include <QScrollArea>
#include <QStyle>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <atomic>
#include <functional>
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

// The units a finding's evidence comes in (core/advisor/diagnose.cpp
// names them in the key: _mb_per_s, _kb, _pct, _us).
enum class Unit { None, Rate, KiB, Percent, Spread, Latency, Ratio, PerMb, Count };

struct EvidenceLabel
{
    const char *key;
    const char *label; ///< translated in DiagnoseView's context
    Unit unit;
};

// Every key diagnose writes, as a person reads it; a key not listed here
// (a finding added later) is shown by its words and its unit suffix.
const EvidenceLabel kEvidenceLabels[] = {
    {"read_ahead_kb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Readahead"), Unit::KiB},
    {"floor_kb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "The array's floor (2 × stripe)"), Unit::KiB},
    {"stripe_kb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Stripe"), Unit::KiB},
    {"queue_device", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Whose readahead it is"), Unit::None},
    {"dm_name", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "LVM volume"), Unit::None},
    {"finding", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Finding not stated"), Unit::None},
    {"effect_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Effect measured"), Unit::Percent},
    {"threshold_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Threshold"), Unit::Percent},
    {"noise_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Noise of the comparison"), Unit::Spread},
    {"runs", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Runs of each reading"), Unit::Count},
    {"avg_request_kb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Average request"), Unit::KiB},
    {"mb_per_s", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Throughput"), Unit::Rate},
    {"spread_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Spread of its runs"), Unit::Spread},
    {"interrupts_per_mb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Interrupts per MB"), Unit::PerMb},
    {"larger_read_ahead_kb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Larger readahead tried"), Unit::KiB},
    {"larger_avg_request_kb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Average request there"), Unit::KiB},
    {"larger_mb_per_s", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Throughput there"), Unit::Rate},
    {"larger_spread_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Spread of its runs there"), Unit::Spread},
    {"larger_interrupts_per_mb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Interrupts per MB there"), Unit::PerMb},
    {"larger_reached_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Share of raw reached there"), Unit::Percent},
    {"gain_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Gain"), Unit::Percent},
    {"buffered_mb_per_s", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Buffered reads"), Unit::Rate},
    {"buffered_spread_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Spread of the buffered runs"), Unit::Spread},
    {"raw_mb_per_s", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Raw reads (O_DIRECT)"), Unit::Rate},
    {"raw_spread_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Spread of the raw runs"), Unit::Spread},
    {"reached_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Share of raw reached"), Unit::Percent},
    {"shares_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Members' shares of the bytes"), Unit::Percent},
    {"jain", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Jain's fairness index (1 = even)"), Unit::Ratio},
    {"alone_mb_per_s", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "The stream alone"), Unit::Rate},
    {"alone_spread_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Spread of its runs alone"), Unit::Spread},
    {"with_second_mb_per_s", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "The stream beside a second"), Unit::Rate},
    {"with_second_spread_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Spread of its runs beside it"), Unit::Spread},
    {"second_mb_per_s", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "The second stream"), Unit::Rate},
    {"second_spread_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Spread of the second's runs"), Unit::Spread},
    {"share_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Share of its rate alone"), Unit::Percent},
    {"scheduler", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Scheduler"), Unit::None},
    {"workload", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Workload"), Unit::None},
    {"streams", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Sequential streams"), Unit::Count},
    {"random_readers", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Random readers"), Unit::Count},
    {"device_read_ratio", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Device read per byte used"), Unit::Ratio},
    {"device_read_ratio_spread_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Spread of that ratio"), Unit::Spread},
    {"threshold_ratio", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Waste threshold"), Unit::Ratio},
    {"stop_read_ahead_kb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Readahead that stops the waste"), Unit::KiB},
    {"stop_measured", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Measured there"), Unit::None},
    {"stop_device_read_ratio", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Device read per byte used there"), Unit::Ratio},
    {"stop_mb_per_s", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Throughput there"), Unit::Rate},
    {"device_read_ratio_at_kb", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Device read per byte used, by readahead"), Unit::Ratio},
    {"read_queue_p99_us", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Time queued, p99"), Unit::Latency},
    {"read_device_p99_us", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Time on the device, p99"), Unit::Latency},
    {"read_queue_p50_us", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Time queued, p50"), Unit::Latency},
    {"read_device_p50_us", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Time on the device, p50"), Unit::Latency},
    {"requests", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Requests counted"), Unit::Count},
    {"nr_requests", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Queue depth (nr_requests)"), Unit::Count},
    {"member", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Slow member"), Unit::None},
    {"factor", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Times the others' median"), Unit::Ratio},
    {"members", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Members"), Unit::None},
    {"bytes_share_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Share of the bytes"), Unit::Percent},
};

// What a key is and its unit: from the table, else its unit from its
// suffix and its words from the rest (a finding added later).
std::pair<QString, Unit> labelFor(const QString &key)
{
    for (const EvidenceLabel &known : kEvidenceLabels)
        if (key == QLatin1StringView(known.key))
            return {DiagnoseView::tr(known.label), known.unit};
    static const std::pair<const char *, Unit> suffixes[] = {
        {"_mb_per_s", Unit::Rate}, {"_spread_pct", Unit::Spread}, {"_pct", Unit::Percent},
        {"_kb", Unit::KiB},        {"_us", Unit::Latency},        {"_per_mb", Unit::PerMb}};
    QString words = key;
    Unit unit = Unit::None;
    for (const auto &[suffix, u] : suffixes)
        if (words.endsWith(QLatin1StringView(suffix))) {
            words.chop(qsizetype(qstrlen(suffix)));
            unit = u;
            break;
        }
    words.replace(u'_', u' ');
    if (!words.isEmpty())
        words[0] = words.at(0).toUpper();
    return {words, unit};
}

QString withUnit(double x, Unit unit)
{
    switch (unit) {
    case Unit::Rate: return format::rate(x);
    case Unit::KiB: return format::kib(x, std::abs(x - std::round(x)) < 1e-9 ? 0 : 1);
    case Unit::Percent: return DiagnoseView::tr("%1 %").arg(format::number(x, std::abs(x) < 10 ? 1 : 0));
    case Unit::Spread: return DiagnoseView::tr("± %1 %").arg(format::number(x, 1));
    case Unit::Latency:
        return x < 1000 ? DiagnoseView::tr("%1 µs").arg(format::number(x, x < 10 ? 1 : 0))
                        : DiagnoseView::tr("%1 ms").arg(format::number(x / 1000.0, x < 10000 ? 2 : 1));
    case Unit::Ratio: return DiagnoseView::tr("%1 ×").arg(format::number(x, 2));
    case Unit::PerMb: return DiagnoseView::tr("%1 per MB").arg(format::number(x, 1));
    case Unit::Count:
    case Unit::None: break;
    }
    if (std::abs(x - std::round(x)) < 1e-9 && std::abs(x) < 1e15)
        return x < 0 ? format::number(x, 0) : format::count(quint64(std::llround(x)));
    return format::number(x, std::abs(x) < 1 ? 3 : 1);
}

// Evidence values in the user's locale, with their units.
QString evidenceText(const QJsonValue &v, Unit unit)
{
    if (v.isNull() || v.isUndefined())
        return DiagnoseView::tr("unknown");
    if (v.isBool())
        return v.toBool() ? DiagnoseView::tr("yes") : DiagnoseView::tr("no");
    if (v.isDouble())
        return withUnit(v.toDouble(), unit);
    if (v.isArray()) {
        QStringList parts;
        for (const QJsonValue &e : v.toArray())
            parts << evidenceText(e, unit);
        return parts.join(QStringLiteral(", "));
    }
    if (v.isObject()) {
        // Per member ("sdb: 38 %") or per readahead ("1024 KiB: 1,20 ×");
        // a member's own figures by their labels ("sdb: time on the
        // device, p99 1,21 ms, requests counted 5120").
        QStringList parts;
        const QJsonObject o = v.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            bool number = false;
            const double kib = it.key().toDouble(&number);
            QString value = evidenceText(it.value(), unit);
            if (it.value().isObject()) {
                QStringList own;
                const QJsonObject inner = it.value().toObject();
                for (auto f = inner.constBegin(); f != inner.constEnd(); ++f) {
                    const auto [text, innerUnit] = labelFor(f.key());
                    own << QStringLiteral("%1 %2").arg(text.toLower(), evidenceText(f.value(), innerUnit));
                }
                value = own.join(QStringLiteral(", "));
            }
            parts << QStringLiteral("%1: %2").arg(number ? format::kib(kib) : it.key(), value);
        }
        return parts.join(QStringLiteral("; "));
    }
    return v.toString();
}

// A finding's evidence as a two-column table exactly as tall as its rows:
// what each figure is, and the figure with its unit (the JSON key, as
// `diagnose --json` writes it, in the label's tooltip).
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
        const auto [text, unit] = labelFor(it.key());
        auto *name = new QTableWidgetItem(text);
        name->setToolTip(it.key());
        table->setItem(row, 0, name);
        auto *value = new QTableWidgetItem(evidenceText(it.value(), unit));
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, 1, value);
    }
    table->resizeColumnToContents(0);
    table->resizeRowsToContents();
    int h = table->horizontalHeader()->height() + 2 * table->frameWidth();
    for (int r = 0; r < table->rowCount(); ++r)
        h += table->rowHeight(r);
    table->setFixedHeight(h);
    table->setMaximumWidth(620);
    return table;
}

// Core's one-sentence cause (in the console's language; the CLI's stays
// English) as a sentence on a card: a capital first letter, ± for "+-", a
// full stop. A sentence that starts with a name (a device, a finding's
// code) keeps it as it is written: "md0's read_ahead_kb", not "Md0's".
QString asSentence(QString text, const std::function<bool(const QString &)> &isName)
{
    text.replace(QStringLiteral("+-"), QStringLiteral("±"));
    static const QRegularExpression times(QStringLiteral("(\\d) x "));
    text.replace(times, QStringLiteral("\\1 × ")); // "2 x stripe": a multiplication sign
    static const QRegularExpression firstWord(QStringLiteral("^[^\\s']+"));
    const QString first = firstWord.match(text).captured(0);
    const bool name = first.contains(QRegularExpression(QStringLiteral("[0-9_/-]"))) || isName(first);
    if (!text.isEmpty() && !name)
        text[0] = text.at(0).toUpper();
    if (!text.isEmpty() && !text.endsWith(u'.'))
        text += u'.';
    return text;
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
    QPointer<ChangePreviewDialog> preview; ///< the fix's plan on screen, before it is written
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
        showPreview(plan);
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

// A fix is written as every change from the console is: the session's plan
// in the one preview, and only what it showed.
void DiagnoseView::showPreview(const ChangePlan &plan)
{
    QString fix;
    for (const Finding &f : std::as_const(d->findings))
        if (f.code == d->fixing)
            fix = fixText(f.fix);
    d->preview = new ChangePreviewDialog(tr("Apply the fix for %1 (%2)?").arg(d->fixing, fix), tr("Apply"), this);
    d->preview->setAttribute(Qt::WA_DeleteOnClose);
    d->preview->setScope(ChangePreviewDialog::lastingScope());
    d->preview->setPlan(plan);
    connect(d->preview, &QDialog::finished, this, [this, plan](int result) {
        d->preview = nullptr;
        if (result != QDialog::Accepted) {
            setMessage(tr("Nothing was changed."));
            d->fixing.clear();
            setRunning(false);
            return;
        }
        d->applyTicket = d->session->apply(plan, false);
        d->ownTickets.insert(d->applyTicket);
        setMessage(tr("Applying the fix for %1…").arg(d->fixing));
    });
    d->preview->open();
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
    const ModelSnapshot model = d->session->model();
    auto *summary = new QLabel(asSentence(f.summary, [&](const QString &word) { return model && model->find(word); }),
                               card);
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
    if (d->planTicket || d->applyTicket || d->preview || d->running || !d->session->readOnlyReason().isEmpty())
        return false;
    for (const Finding &f : std::as_const(d->findings)) {
        if (f.code != code || f.fix.isEmpty())
            continue;
        d->fixing = code;
        d->planTicket = d->session->plan(fixChanges(d->device, f.fix));
        setMessage(tr("Planning %1…").arg(fixText(f.fix)));
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
