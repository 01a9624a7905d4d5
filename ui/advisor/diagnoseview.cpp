#include "diagnoseview.h"

#include "advisorworker.h"
#include "changepreviewdialog.h"
#include "format.h"
#include "pageheader.h"
#include "theme.h"

#include "console/consolesession.h"
#include "machine/machine.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QRegularExpression>
#include <QPushButton>
#include <QSet>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>
#include <functional>
#include <iterator>
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
enum class Unit { None, Rate, KiB, Percent, Spread, Latency, Millis, Ratio, PerMb, Count };

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
    // The findings from the live workload (core/advisor/live.cpp).
    {"windows", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Readahead windows"), Unit::Count},
    {"sync_windows", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Sync windows (a miss)"), Unit::Count},
    {"async_windows", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Async windows (a stream)"), Unit::Count},
    {"at_cap", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Async windows at the cap"), Unit::Count},
    {"at_cap_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Share at the cap"), Unit::Percent},
    {"pages_read_ahead", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Pages read ahead"), Unit::Count},
    {"pages_used", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Pages used"), Unit::Count},
    {"pages_wasted", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Pages evicted unused"), Unit::Count},
    {"pages_unused_cached", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Pages still cached, unused"), Unit::Count},
    {"used_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Share used"), Unit::Percent},
    {"wasted_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Share wasted"), Unit::Percent},
    {"wait_p50_ms", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Wait of used pages, p50"), Unit::Millis},
    {"used_kib_per_stream", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Used per stream"), Unit::KiB},
    {"window_p50_kib", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Window size, p50"), Unit::KiB},
    {"sync_window_p50_kib", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Sync window size, p50"), Unit::KiB},
    {"sync_window_p90_kib", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Sync window size, p90"), Unit::KiB},
    {"interleaved_restarts", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Interleaved restarts"), Unit::Count},
    {"interleaved_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Share of the sync windows"), Unit::Percent},
    {"threshold_at_cap_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Threshold at the cap"), Unit::Percent},
    {"threshold_used_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Threshold used"), Unit::Percent},
    {"threshold_wait_ms", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Threshold wait"), Unit::Millis},
    {"threshold_wasted_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Threshold wasted"), Unit::Percent},
    {"threshold_restarts", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Threshold restarts"), Unit::Count},
    {"threshold_window_kib", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Threshold window size"), Unit::KiB},
    {"threshold_async_pct", QT_TRANSLATE_NOOP("blocktune::DiagnoseView", "Threshold async"), Unit::Percent},
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
        {"_kb", Unit::KiB},        {"_kib", Unit::KiB},           {"_us", Unit::Latency},
        {"_ms", Unit::Millis},     {"_per_mb", Unit::PerMb}};
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
    case Unit::Millis: return DiagnoseView::tr("%1 ms").arg(format::number(x, x < 10 ? 3 : 1));
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
// `inTableOrder`: rows in kEvidenceLabels' order (the figures, then the
// thresholds: the findings from the live workload), else by key.
QTableWidget *evidenceTable(const QJsonObject &evidence, QWidget *parent, bool inTableOrder)
{
    QStringList keys = evidence.keys();
    if (inTableOrder) {
        const auto rank = [](const QString &key) {
            for (size_t i = 0; i < std::size(kEvidenceLabels); ++i)
                if (key == QLatin1StringView(kEvidenceLabels[i].key))
                    return i;
            return std::size(kEvidenceLabels);
        };
        std::stable_sort(keys.begin(), keys.end(), [&](const QString &a, const QString &b) { return rank(a) < rank(b); });
    }
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
    for (const QString &key : std::as_const(keys)) {
        const auto [text, unit] = labelFor(key);
        auto *name = new QTableWidgetItem(text);
        name->setToolTip(key);
        table->setItem(row, 0, name);
        auto *value = new QTableWidgetItem(evidenceText(evidence.value(key), unit));
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row++, 1, value);
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
    const Machine *machine = nullptr;
    QString noWatch; ///< the machine's noReadaheadProbe, where it cannot be watched
    QString device;
    QThread thread;
    AdvisorWorker *worker = nullptr;
    std::atomic_bool cancel{false};
    bool running = false;
    bool lastMeasured = false;
    bool lastLive = false;
    bool watching = false;  ///< the source is open and counting
    qint64 watchMs = 0;
    QElapsedTimer watched;
    QTimer countdown;
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
    QCheckBox *watchLive = nullptr;  ///< watch the running workload instead of measuring
    QSpinBox *watchSeconds = nullptr;
    QPushButton *howToRead = nullptr;
    QLabel *liveSummary = nullptr;   ///< what the kernel's readahead did while watched
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

DiagnoseView::DiagnoseView(ConsoleSession *session, const Machine &machine, QWidget *parent)
    : QWidget(parent), d(std::make_unique<Private>())
{
    qRegisterMetaType<blocktune::DiagnoseReply>();
    d->session = session;
    d->machine = &machine;
    if (const MachineCapabilities can = machine.capabilities(); !can.readaheadProbe)
        d->noWatch = can.noReadaheadProbe.isEmpty() ? tr("this machine's readahead cannot be watched")
                                                    : can.noReadaheadProbe;
    buildWidgets();
    layOut();
    if (!session->capabilities().canMeasure) {
        d->header->setDisabledReason(tr("A recorded tree has nothing to read: only the static checks run here"));
        d->staticOnly->setChecked(true);
        d->staticOnly->setEnabled(false);
        d->staticOnly->setToolTip(d->header->disabledReason());
    }
    // Offered where it cannot run too, disabled, saying why.
    if (!d->noWatch.isEmpty()) {
        const QString why = tr("Watching is not possible here: %1").arg(d->noWatch);
        d->watchLive->setToolTip(why);
        d->watchSeconds->setToolTip(why);
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
    d->watchLive = new QCheckBox(tr("Watch the running workload for"), this);
    d->watchLive->setObjectName(QStringLiteral("watchLive"));
    d->watchLive->setToolTip(tr("Counts what the kernel's readahead does for the reads that run now, instead of "
                                "measuring: Diagnose reads nothing itself"));
    d->watchSeconds = new QSpinBox(this);
    d->watchSeconds->setObjectName(QStringLiteral("watchSeconds"));
    d->watchSeconds->setRange(5, 3600);
    d->watchSeconds->setValue(60);
    d->watchSeconds->setSuffix(tr(" s"));
    d->watchSeconds->setAccessibleName(tr("Seconds to watch"));
    d->howToRead = new QPushButton(tr("How to read this"), this);
    d->howToRead->setObjectName(QStringLiteral("howToRead"));
    d->liveSummary = new QLabel(this);
    d->liveSummary->setObjectName(QStringLiteral("liveSummary"));
    d->liveSummary->setWordWrap(true);
    d->liveSummary->setMargin(8);
    d->liveSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->liveSummary->hide();
    d->countdown.setInterval(250);
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
    // The choice in a column (static checks only, or watch for N s), so
    // the row fits 1280x720 at 1.5x in German too; the buttons beside it.
    auto *watch = new QHBoxLayout;
    watch->setContentsMargins(0, 0, 0, 0);
    watch->addWidget(d->watchLive);
    watch->addWidget(d->watchSeconds);
    watch->addStretch();
    auto *choice = new QVBoxLayout;
    choice->setSpacing(2);
    choice->addWidget(d->staticOnly);
    choice->addLayout(watch);
    auto *controls = new QHBoxLayout;
    controls->addLayout(choice);
    controls->addStretch();
    controls->addWidget(d->howToRead);
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
    layout->addWidget(d->liveSummary);
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
    QString live = tr("Or tick \"Watch the running workload\": Diagnose then loads the kernel's readahead probe (a "
                      "second or two), counts for the time chosen what readahead does for the reads that run now, "
                      "and states the findings from that workload (readahead capped, wasted, streams interleaved, "
                      "random reads) with the readahead to set. It makes no read of its own then.");
    if (!d->noWatch.isEmpty())
        live = tr("Watching the running workload is not possible here: %1.").arg(d->noWatch);
    return d->device.isEmpty() ? QString(tr("Select a device in the tree.") + u' ' + what + u' ' + live)
                               : QString(tr("Diagnose %1: ").arg(d->device) + what + u' ' + live);
}

void DiagnoseView::connectSignals(ConsoleSession *session)
{
    // The status line says the last thing the session did, whoever asked.
    connect(session, &ConsoleSession::happened, this, [this](const SessionEvent &event) {
        if (!d->ownTickets.remove(event.ticket))
            d->status->setText(event.text);
    });
    connect(d->runButton, &QPushButton::clicked, this, [this] {
        if (d->watchLive->isChecked())
            runLive(d->watchSeconds->value());
        else
            run(!d->staticOnly->isChecked());
    });
    // One choice: watching reads nothing, so "static checks only" is off
    // while it is ticked (and ticking that ends watching).
    connect(d->watchLive, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            d->staticOnly->setChecked(false);
        else if (!d->session->capabilities().canMeasure)
            d->staticOnly->setChecked(true); // all a recorded tree offers
        setRunning(d->running);
    });
    connect(d->staticOnly, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            d->watchLive->setChecked(false);
    });
    connect(d->howToRead, &QPushButton::clicked, this, &DiagnoseView::showHelp);
    connect(&d->countdown, &QTimer::timeout, this, &DiagnoseView::tick);
    connect(d->cancelButton, &QPushButton::clicked, this, &DiagnoseView::cancel);

    d->worker = new AdvisorWorker(&d->cancel);
    d->worker->moveToThread(&d->thread);
    connect(&d->thread, &QThread::finished, d->worker, &QObject::deleteLater);
    connect(d->worker, &AdvisorWorker::diagnosed, this, &DiagnoseView::showDiagnosis);
    connect(d->worker, &AdvisorWorker::watching, this, &DiagnoseView::startCountdown);
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
            fix = fixText(f.fix) + u' ' + tr("on %1").arg(f.device.isEmpty() ? d->device : f.device);
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
    if (d->lastMeasured || d->lastLive)
        Q_EMIT settingsChanged();
    const bool stopped = d->lastLive && d->cancel;
    const qint64 watchedMs = d->watching ? d->watched.elapsed() : 0;
    d->countdown.stop();
    d->watching = false;
    setRunning(false);
    clearCards();
    d->liveSummary->hide();
    if (stopped) {
        // A shortened watch says less than the user asked for: no findings from it.
        d->findings.clear();
        setMessage(tr("Stopped watching %1 after %2 s: no findings stated; nothing was read or changed.")
                       .arg(d->device).arg(watchedMs / 1000));
        Q_EMIT finished(false);
        return;
    }
    if (!reply.diagnosis) {
        setMessage(reply.error);
        Q_EMIT finished(false);
        return;
    }
    const Diagnosis &dx = *reply.diagnosis;
    if (dx.live) {
        d->liveSummary->setText(liveSummary(dx));
        d->liveSummary->show();
    }
    d->findings = dx.findings;
    const bool writable = d->session->readOnlyReason().isEmpty();
    int at = 0;
    for (const Finding &f : dx.findings)
        d->cardsLayout->insertWidget(at++, makeCard(f, dx.device, writable));
    QString text = dx.findings.isEmpty() ? tr("No findings for %1").arg(dx.device)
                                         : tr("%n finding(s) for %1", nullptr, int(dx.findings.size())).arg(dx.device);
    text += dx.live       ? tr(" (static checks and the running workload, watched; no reads of ours)")
            : dx.measured ? tr(" (static checks and measured reads)")
                          : tr(" (static checks)");
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
        cardLayout->addWidget(evidenceTable(f.evidence, card, d->lastLive));
    if (!f.fix.isEmpty()) {
        auto *fix = new QHBoxLayout;
        fix->addWidget(new QLabel(tr("Fix: %1").arg(fixText(f.fix)), card));
        auto *apply = new QPushButton(tr("Apply"), card);
        apply->setObjectName(QStringLiteral("applyFix"));
        apply->setEnabled(writable);
        apply->setToolTip(writable ? tr("Set %1 on %2").arg(fixText(f.fix), f.device.isEmpty() ? device : f.device)
                                   : d->session->readOnlyReason());
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

QString DiagnoseView::liveDisabledReason() const
{
    return d->noWatch;
}

bool DiagnoseView::isWatching() const
{
    return d->watching;
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
    d->liveSummary->hide();
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
    d->lastLive = false;
    setRunning(true);
    setMessage(measure ? tr("Checking %1, then a few seconds of reads…").arg(d->device)
                       : tr("Checking %1…").arg(d->device));
    AdvisorWorker *worker = d->worker;
    d->ownTickets.insert(
        d->session->runJob(worker, [worker, spec](const SessionJobContext &job) { worker->diagnose(job, spec); }));
    return true;
}

bool DiagnoseView::runLive(int seconds)
{
    if (d->running || d->device.isEmpty() || seconds <= 0)
        return false;
    if (!d->noWatch.isEmpty()) {
        setMessage(tr("Watching is not possible here: %1").arg(d->noWatch));
        return false;
    }
    d->cancel = false;
    d->lastMeasured = false;
    d->lastLive = true;
    d->watchMs = qint64(seconds) * 1000;
    setRunning(true);
    setMessage(tr("Loading the readahead probe to watch %1 (a second or two)…").arg(d->device));
    AdvisorWorker *worker = d->worker;
    const Machine *machine = d->machine;
    const QString device = d->device;
    const qint64 ms = d->watchMs;
    d->ownTickets.insert(d->session->runJob(worker, [worker, machine, device, ms](const SessionJobContext &job) {
        worker->diagnoseLive(job, *machine, device, ms);
    }));
    return true;
}

// The probe is loaded: the countdown of the watch, on the progress bar and the status line.
void DiagnoseView::startCountdown(qint64 ms)
{
    if (!d->running || !d->lastLive)
        return;
    d->watching = true;
    d->watchMs = ms;
    d->watched.start();
    d->progress->setRange(0, int(std::max<qint64>(1, ms / 100)));
    d->progress->setValue(0);
    d->countdown.start();
    tick();
}

void DiagnoseView::tick()
{
    if (!d->watching)
        return;
    const qint64 elapsed = std::min(d->watched.elapsed(), d->watchMs);
    d->progress->setValue(int(elapsed / 100));
    const qint64 left = (d->watchMs - elapsed + 999) / 1000;
    if (d->cancel)
        setMessage(tr("Stopping…"));
    else
        setMessage(tr("Watching the workload on %1: %n s left (blocktune reads nothing; start or keep the "
                      "workload running)", nullptr, int(left)).arg(d->device));
}

QString DiagnoseView::liveSummary(const Diagnosis &dx) const
{
    const double s = dx.live->durationS;
    const QString secs = format::number(s, s < 10 ? 1 : 0);
    const DeviceReadahead *r = dx.live->find(dx.device);
    if (!r || (r->all.windows == 0 && r->all.pagesReadAhead == 0))
        return tr("Watched %1 for %2 s: the kernel read nothing ahead for it (no buffered reads of it ran). "
                  "Diagnose read nothing itself.").arg(dx.device, secs);
    const ReadaheadFigures &all = r->all;
    QString text = tr("Watched %1 for %2 s (Diagnose read nothing itself). Readahead windows: %3 sync (a miss "
                      "starts one), %4 async (a stream recognised), %5 mmap, %6 forced; window size %7 (p50), "
                      "%8 windows at the cap; read_ahead_kb %9.")
                       .arg(dx.device, secs, format::count(r->of(ReadaheadKind::Sync).windows),
                            format::count(r->of(ReadaheadKind::Async).windows),
                            format::count(r->of(ReadaheadKind::Mmap).windows),
                            format::count(r->of(ReadaheadKind::Forced).windows),
                            all.sizeP50KiB ? format::kib(double(*all.sizeP50KiB)) : tr("unknown"),
                            format::count(all.atCap),
                            r->readAheadKiB ? format::kib(double(*r->readAheadKiB)) : tr("unknown"));
    // The windows on one line, the pages on the next.
    if (dx.live->coverage.pages)
        text += u'\n'
            + tr("Pages read ahead: %1; used %2, evicted unused %3, still cached unused %4; used pages waited %5 "
                 "(p50).")
                  .arg(format::count(all.pagesReadAhead), format::count(all.pagesUsed), format::count(all.pagesWasted),
                       format::count(all.pagesUnusedCached),
                       all.waitP50Ms ? tr("%1 ms").arg(format::number(*all.waitP50Ms, 3)) : tr("unknown"));
    else
        text += u'\n' + tr("Pages are not counted on this kernel: %1").arg(dx.live->coverage.pagesUnavailable);
    if (all.interleavedRestarts > 0)
        text += u' ' + tr("%1 sync windows restarted a stream another task read nearby.")
                           .arg(format::count(all.interleavedRestarts));
    return text;
}

void DiagnoseView::showHelp()
{
    auto *box = new QMessageBox(QMessageBox::Information, tr("How to read this"),
        tr("<p><b>Measure</b> (the default) reads the device itself for a few seconds: the stream at its "
           "readahead and at a larger one, raw reads, two streams side by side. Every setting it changes is "
           "put back.</p>"
           "<p><b>Watch the running workload</b> reads nothing: it counts, for the time chosen, what the "
           "kernel's readahead does for the reads that run now (the kernel's readahead tracepoints). Start the "
           "workload first, or keep it running: an idle device gives no findings.</p>"
           "<p>A <b>sync window</b> starts when a read misses the page cache; an <b>async window</b> when a "
           "reader reaches the marker of the last one, so the kernel has recognised a stream. A window <b>at "
           "the cap</b> is as large as read_ahead_kb allows. Pages read ahead are <b>used</b> when someone "
           "read them, <b>evicted unused</b> when they left the cache unread (wasted reads), and the "
           "<b>wait</b> is how long used pages lay in the cache before they were read.</p>"
           "<p>The findings: <b>readahead_capped</b> (most async windows at the cap, nearly all used, read "
           "soon: a larger readahead serves larger requests), <b>readahead_wasted</b> (most pages read ahead "
           "evicted unused: the smaller value named reads less for nobody), <b>streams_interleaved</b> "
           "(several tasks read one stream through separate descriptors and keep restarting its window), "
           "<b>random_reads</b> (only small sync windows: readahead does nothing here). A finding is stated "
           "only with enough events to tell (at least %1 windows and %2 pages read ahead).</p>"
           "<p>Each card shows its evidence and, where a value helps, the read_ahead_kb to set; "
           "<b>Apply</b> shows the change first and writes only what the preview showed. Programs keep "
           "the readahead of the descriptors they opened before: reopen them to see the new value.</p>")
            .arg(format::count(kLiveMinWindows), format::count(kLiveMinPages)),
        QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("diagnoseHelp"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void DiagnoseView::cancel()
{
    if (!d->running)
        return;
    d->cancel = true;
    if (d->lastLive)
        setMessage(tr("Stopping…"));
}

bool DiagnoseView::applyFix(const QString &code)
{
    if (d->planTicket || d->applyTicket || d->preview || d->running || !d->session->readOnlyReason().isEmpty())
        return false;
    for (const Finding &f : std::as_const(d->findings)) {
        if (f.code != code || f.fix.isEmpty())
            continue;
        d->fixing = code;
        // A finding from the live workload names the device whose read_ahead_kb governs the reads.
        d->planTicket = d->session->plan(fixChanges(f.device.isEmpty() ? d->device : f.device, f.fix));
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
    const bool canWatch = d->noWatch.isEmpty();
    d->watchLive->setEnabled(!running && canWatch);
    d->watchSeconds->setEnabled(!running && canWatch);
    if (!canWatch)
        d->watchLive->setChecked(false);
    // Watching makes no reads: "static checks only" says nothing then.
    d->staticOnly->setEnabled(!running && d->session->capabilities().canMeasure && !d->watchLive->isChecked());
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
