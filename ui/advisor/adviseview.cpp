#include "adviseview.h"

#include "advisorworker.h"
#include "changepreviewdialog.h"
#include "format.h"
#include "pageheader.h"
#include "plotrefresh.h"
#include "plottableswitch.h"
#include "plottheme.h"
#include "theme.h"
#include "common/units.h"
#include "console/consolesession.h"
#include "history/history.h"
#include "history/keephistory.h"
#include "machine/machine.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <atomic>
#include <cmath>

namespace blocktune {

namespace {

// Series colours (theme.h: from the palette, the same hues in every plot).
constexpr int kRate = 0;        // blue
constexpr int kRequest = 1;     // orange
constexpr int kKnee = 3;        // red
constexpr int kRecommended = 2; // green
constexpr int kFloor = 4;       // purple
constexpr int kRaw = kSeriesNeutral;

} // namespace

struct AdviseView::Private
{
    ConsoleSession *session = nullptr;
    MachineCapabilities can; ///< of the machine the session works on
    QString profileDir;
    QString device;
    QThread thread;
    AdvisorWorker *worker = nullptr;
    std::atomic_bool cancel{false};
    bool running = false;
    std::optional<Advice> advice;
    QList<QPointF> points;
    QElapsedTimer clock;
    qint64 budgetMs = 0;
    QTimer progressTimer;
    // Writes through the session thread, matched by ticket.
    quint64 planTicket = 0;
    quint64 applyTicket = 0;
    quint64 restoreTicket = 0;
    /// Its own writes and measurements, whose outcome it describes itself:
    /// the session's event for them does not replace that (tickets).
    QSet<quint64> ownTickets;
    bool trying = false;     ///< the plan on its way is a "Try for 60 s"
    bool trialActive = false;
    int tryLeft = 0;
    QTimer tryTimer;
    QPointer<ChangePreviewDialog> preview; ///< the plan on screen, before it is written

    PageHeader *header = nullptr; ///< the title and why Advise is not offered
    QComboBox *kind = nullptr;
    QSpinBox *streams = nullptr;
    QSpinBox *random = nullptr;
    QLabel *randomLabel = nullptr;
    QComboBox *blockSize = nullptr;
    QSpinBox *budget = nullptr;
    QPushButton *startButton = nullptr;
    QPushButton *cancelButton = nullptr;
    QProgressBar *progress = nullptr;
    QCustomPlot *plot = nullptr;
    PlotRefresh *refresh = nullptr; ///< drawn while on screen
    QCPItemStraightLine *floorLine = nullptr;
    QCPItemText *floorLabel = nullptr;
    QCPItemStraightLine *rawLine = nullptr;
    QCPItemText *rawLabel = nullptr;
    QCPItemText *kneeLabel = nullptr;
    QLabel *intro = nullptr;      ///< what Advise will do, until the first run
    QWidget *plotArea = nullptr;  ///< the curve (or its table), from the first run on
    QLabel *recommendation = nullptr;
    QLabel *raw = nullptr;
    QLabel *memory = nullptr;
    QLabel *verdict = nullptr;
    QLabel *status = nullptr;
    QPushButton *applyButton = nullptr;
    QPushButton *tryButton = nullptr;
    QPushButton *keepButton = nullptr;
    QPushButton *restoreButton = nullptr;
    QPushButton *saveButton = nullptr;
};

AdviseView::AdviseView(ConsoleSession *session, const Machine &machine, const QString &profileDir, QWidget *parent)
    : QWidget(parent), d(std::make_unique<Private>())
{
    qRegisterMetaType<blocktune::CurvePoint>();
    qRegisterMetaType<blocktune::AdviseReply>();
    qRegisterMetaType<blocktune::SaveReply>();
    d->session = session;
    d->can = machine.capabilities();
    d->profileDir = profileDir;
    buildWidgets();
    layOut();
    connectSignals(session);

    // A host's mirror is measured on the host (its agent reads there).
    if (!d->can.measure || !d->can.write)
        d->header->setDisabledReason(d->can.write
                                         ? tr("A recorded tree has nothing to read: Advise measures only the live machine")
                                         : machine.readOnlyReason());
    updateButtons();
}

void AdviseView::buildWidgets()
{
    buildForm();
    buildPlot();
    buildPlotMarks();
    buildResults();
}

void AdviseView::buildForm()
{
    d->header = new PageHeader(this);
    d->header->setTitle(tr("Select a device"));
    d->kind = new QComboBox(this);
    d->kind->setObjectName(QStringLiteral("workload"));
    d->kind->addItem(tr("Sequential: one stream"), QStringLiteral("seq"));
    d->kind->addItem(tr("Concurrent: N streams"), QStringLiteral("concurrent"));
    d->kind->addItem(tr("Server: N threads, one file"), QStringLiteral("server"));
    d->kind->addItem(tr("Mixed: K streams + R random readers"), QStringLiteral("mixed"));
    d->streams = new QSpinBox(this);
    d->streams->setObjectName(QStringLiteral("streams"));
    d->streams->setRange(1, 64);
    d->streams->setValue(4);
    d->streams->setPrefix(tr("N = "));
    d->random = new QSpinBox(this);
    d->random->setObjectName(QStringLiteral("random"));
    d->random->setRange(0, 64);
    d->random->setValue(1);
    d->random->setPrefix(tr("R = "));
    d->blockSize = new QComboBox(this);
    d->blockSize->setObjectName(QStringLiteral("bs"));
    d->blockSize->setEditable(true);
    d->blockSize->addItems({QStringLiteral("4K"), QStringLiteral("16K"), QStringLiteral("64K"), QStringLiteral("256K"),
                            QStringLiteral("1M")});
    d->blockSize->setCurrentText(QStringLiteral("64K"));
    d->blockSize->setToolTip(tr("Size of each read the streams issue (K/M are binary)"));
    d->budget = new QSpinBox(this);
    d->budget->setObjectName(QStringLiteral("budget"));
    d->budget->setRange(2, 3600);
    d->budget->setValue(60);
    d->budget->setSuffix(tr(" s"));
    d->budget->setToolTip(tr("The whole run, raw measurement included, keeps within this time (±10%)"));
    d->startButton = new QPushButton(tr("Advise"), this);
    d->cancelButton = new QPushButton(tr("Cancel"), this);
    d->cancelButton->setEnabled(false);
    d->progress = new QProgressBar(this);
    d->progress->setRange(0, 100);
    d->progress->setValue(0);
    d->progress->setFormat(tr("%p% of the budget"));
}

// The curve (MB/s), the average request size on the right axis, the knee
// and the recommendation as marks on the curve.
void AdviseView::buildPlot()
{
    d->plot = new QCustomPlot(this);
    d->plot->setObjectName(QStringLiteral("adviseCurve"));
    d->plot->setAccessibleName(tr("Readahead curve plot"));
    d->plot->setLocale(format::ungrouped());
    d->plot->setMinimumHeight(220);
    d->plot->xAxis->setLabel(tr("read_ahead_kb"));
    d->plot->yAxis->setLabel(tr("MB/s"));
    d->plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(4);
    d->plot->xAxis->setTicker(ticker);
    d->plot->xAxis->setNumberFormat(QStringLiteral("f"));
    d->plot->xAxis->setNumberPrecision(0);
    d->plot->yAxis2->setVisible(true);
    d->plot->yAxis2->setLabel(tr("average request KiB"));
    d->plot->addGraph(d->plot->xAxis, d->plot->yAxis);
    d->plot->graph(0)->setName(tr("MB/s"));
    d->plot->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    d->plot->graph(0)->setPen(seriesPen(2));
    setSeries(d->plot->graph(0), kRate);
    d->plot->addGraph(d->plot->xAxis, d->plot->yAxis2);
    d->plot->graph(1)->setName(tr("avg request KiB"));
    d->plot->graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    d->plot->graph(1)->setPen(seriesPen(1, Qt::DashLine));
    setSeries(d->plot->graph(1), kRequest);
    d->plot->addGraph(d->plot->xAxis, d->plot->yAxis);
    d->plot->graph(2)->setName(tr("knee: smallest within 5% of the best"));
    d->plot->graph(2)->setLineStyle(QCPGraph::lsNone);
    d->plot->graph(2)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, seriesPen(2), Qt::NoBrush, 15));
    setSeries(d->plot->graph(2), kKnee);
    d->plot->addGraph(d->plot->xAxis, d->plot->yAxis);
    d->plot->graph(3)->setName(tr("recommended"));
    d->plot->graph(3)->setLineStyle(QCPGraph::lsNone);
    d->plot->graph(3)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, seriesPen(2), Qt::NoBrush, 18));
    setSeries(d->plot->graph(3), kRecommended);
}

// The md/dm floor and the raw peak as lines, the knee's label, and the
// legend under the plot; hidden until a result places them.
void AdviseView::buildPlotMarks()
{
    d->floorLine = new QCPItemStraightLine(d->plot);
    d->floorLine->setPen(seriesPen(1.5, Qt::DashDotLine));
    setSeries(d->floorLine, kFloor);
    d->floorLine->setVisible(false);
    d->floorLabel = new QCPItemText(d->plot);
    setSeries(d->floorLabel, kFloor);
    d->floorLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    d->floorLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    d->floorLabel->setVisible(false);
    d->rawLine = new QCPItemStraightLine(d->plot);
    d->rawLine->setPen(seriesPen(1.5, Qt::DashLine));
    setSeries(d->rawLine, kRaw);
    d->rawLine->setVisible(false);
    d->rawLabel = new QCPItemText(d->plot);
    setSeries(d->rawLabel, kRaw);
    d->rawLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    d->rawLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    d->rawLabel->setVisible(false);
    d->kneeLabel = new QCPItemText(d->plot);
    setSeries(d->kneeLabel, kKnee);
    // Left of and below the point: the curve's plateau lies to its right.
    d->kneeLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    d->kneeLabel->setPadding(QMargins(0, 8, 12, 0));
    d->kneeLabel->setVisible(false);
    d->plot->legend->setVisible(true);
    d->plot->legend->setFont(QFont(d->plot->font().family(), 8));
    // The legend in a row under the plot: inside, the newest point (the
    // highest so far, anywhere left or right while the sweep runs) could
    // land under it.
    d->plot->axisRect()->insetLayout()->take(d->plot->legend);
    d->plot->plotLayout()->addElement(1, 0, d->plot->legend);
    d->plot->plotLayout()->setRowStretchFactor(1, 0.001);
    d->plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    d->plot->legend->setBorderPen(Qt::NoPen);
    d->plot->xAxis->setRange(4, 65536);
    d->plot->yAxis->setRange(0, 100);
    d->refresh = new PlotRefresh(d->plot);
    themePlot(d->plot);
}

void AdviseView::buildResults()
{
    auto label = [this](const QString &name) {
        auto *l = new QLabel(this);
        l->setObjectName(name);
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return l;
    };
    d->recommendation = label(QStringLiteral("recommendation"));
    QFont big = d->recommendation->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    d->recommendation->setFont(big);
    d->raw = label(QStringLiteral("raw"));
    d->memory = label(QStringLiteral("memory"));
    d->verdict = label(QStringLiteral("verdict"));
    d->status = label(QStringLiteral("status"));

    d->applyButton = new QPushButton(tr("Apply"), this);
    d->applyButton->setToolTip(tr("Set the recommended read_ahead_kb for good (Revert session still undoes it)"));
    d->tryButton = new QPushButton(tr("Try for %n s", nullptr, format::kTrySeconds), this);
    d->tryButton->setToolTip(tr("Apply as a temporary change, restored after %n seconds unless you keep it", nullptr,
                                format::kTrySeconds));
    d->keepButton = new QPushButton(tr("Keep"), this);
    d->restoreButton = new QPushButton(tr("Restore now"), this);
    d->saveButton = new QPushButton(tr("Save as profile…"), this);
}

void AdviseView::layOut()
{
    auto *form = new QFormLayout;
    auto *workload = new QHBoxLayout;
    workload->addWidget(d->kind);
    workload->addWidget(d->streams);
    workload->addWidget(d->random);
    workload->addStretch();
    form->addRow(tr("Workload"), workload);
    auto *sizes = new QHBoxLayout;
    sizes->addWidget(d->blockSize);
    sizes->addWidget(new QLabel(tr("budget"), this));
    sizes->addWidget(d->budget);
    sizes->addStretch();
    sizes->addWidget(d->startButton);
    sizes->addWidget(d->cancelButton);
    form->addRow(tr("Block size"), sizes);

    auto *actions = new QHBoxLayout;
    for (QPushButton *b : {d->applyButton, d->tryButton, d->keepButton, d->restoreButton, d->saveButton})
        actions->addWidget(b);
    actions->addStretch();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(d->header);
    layout->addLayout(form);
    layout->addWidget(d->progress);
    // Before the first run: what it will do and how long it takes, in the
    // space the curve takes when it comes.
    d->intro = new QLabel(this);
    d->intro->setObjectName(QStringLiteral("adviseIntro"));
    d->intro->setWordWrap(true);
    d->intro->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    d->intro->setMargin(8);
    layout->addWidget(d->intro, 1);
    d->plotArea = new PlotTableSwitch(d->plot, nullptr, this);
    d->plotArea->hide();
    d->progress->hide();
    layout->addWidget(d->plotArea, 1);
    layout->addWidget(d->recommendation);
    layout->addWidget(d->raw);
    layout->addWidget(d->memory);
    layout->addWidget(d->verdict);
    layout->addLayout(actions);
    layout->addWidget(d->status);
}

void AdviseView::connectSignals(ConsoleSession *session)
{
    connectForm();
    startWorker();
    connectSession(session);
}

void AdviseView::connectForm()
{
    connect(d->kind, &QComboBox::currentIndexChanged, this, &AdviseView::updateWorkload);
    connect(d->budget, &QSpinBox::valueChanged, this, &AdviseView::updateIntro);
    updateWorkload();
    connect(d->startButton, &QPushButton::clicked, this, &AdviseView::start);
    connect(d->cancelButton, &QPushButton::clicked, this, &AdviseView::cancel);
    connect(d->applyButton, &QPushButton::clicked, this, &AdviseView::applyRecommendation);
    connect(d->tryButton, &QPushButton::clicked, this, &AdviseView::tryRecommendation);
    connect(d->keepButton, &QPushButton::clicked, this, &AdviseView::keepTrial);
    connect(d->restoreButton, &QPushButton::clicked, this, &AdviseView::endTrial);
    connect(d->saveButton, &QPushButton::clicked, this, &AdviseView::askSaveProfile);

    d->progressTimer.setInterval(100); // about ten redraws a second
    connect(&d->progressTimer, &QTimer::timeout, this, [this] {
        if (d->budgetMs > 0)
            d->progress->setValue(int(std::min<qint64>(99, d->clock.elapsed() * 100 / d->budgetMs)));
    });
    d->tryTimer.setInterval(1000);
    connect(&d->tryTimer, &QTimer::timeout, this, [this] {
        if (--d->tryLeft <= 0)
            endTrial();
        else
            setMessage(tr("Trying %1: restored in %n s unless kept", nullptr, d->tryLeft)
                           .arg(format::kib(double(d->advice ? d->advice->recommendedKiB : 0))));
    });
}

void AdviseView::updateWorkload()
{
    const QString kind = d->kind->currentData().toString();
    d->streams->setVisible(kind != u"seq");
    d->random->setVisible(kind == u"mixed");
    updateIntro();
}

void AdviseView::updateIntro()
{
    if (!d->intro)
        return;
    const QString what = tr("Advise reads with the workload above at a series of readahead values, each from a "
                            "cold cache, draws the curve here as it goes, and recommends the smallest readahead "
                            "that reaches the plateau. It takes about %n s (the budget) and puts the readahead "
                            "back when it ends; nothing changes until you apply or try the answer.",
                            nullptr, d->budget->value());
    d->intro->setText(d->device.isEmpty() ? QString(tr("Select a device in the tree.") + u' ' + what)
                                          : QString(tr("Advise for %1: ").arg(d->device) + what));
}

void AdviseView::startWorker()
{
    d->worker = new AdvisorWorker(&d->cancel);
    d->worker->moveToThread(&d->thread);
    connect(&d->thread, &QThread::finished, d->worker, &QObject::deleteLater);
    connect(d->worker, &AdvisorWorker::pointDone, this, [this](const CurvePoint &p) {
        addPoint(p);
    });
    connect(d->worker, &AdvisorWorker::advised, this, [this](const AdviseReply &reply) {
        Q_EMIT settingsChanged(); // its temporary changes went and came back
        d->advice = reply.advice;
        setRunning(false);
        if (!reply.advice) {
            setMessage(reply.error);
            Q_EMIT finished(false);
            return;
        }
        showAdvice();
        // An advice with no steady answer finished too: kept, and said so.
        const bool complete = !reply.advice->cancelled && reply.advice->restored;
        if (complete)
            keepAdvice(*reply.advice);
        updateButtons();
        Q_EMIT finished(complete);
    });
    connect(d->worker, &AdvisorWorker::saved, this, [this](const SaveReply &reply) {
        if (!reply.error.isEmpty()) {
            setMessage(reply.error);
            return;
        }
        setMessage(tr("Saved profile %1 as %2").arg(reply.name, reply.path));
        Q_EMIT profileSaved(reply.name);
    });
    d->thread.setObjectName(QStringLiteral("advise"));
    d->thread.start();
}

// Apply and Try go through the session thread: a plan, then its apply, then
// (after a trial) the restore, each matched by its ticket.
void AdviseView::connectSession(ConsoleSession *session)
{
    SessionWorker *sw = session->worker();
    // The status line says the last thing the session did, whoever asked.
    connect(session, &ConsoleSession::happened, this, [this](const SessionEvent &event) {
        if (!d->ownTickets.remove(event.ticket))
            d->status->setText(event.text);
    });
    connect(sw, &SessionWorker::planned, this, [this](quint64 ticket, const ChangePlan &plan) {
        if (ticket != d->planTicket)
            return;
        d->planTicket = 0;
        if (!plan.ok()) {
            d->trying = false;
            setMessage(planErrors(plan));
            updateButtons();
            return;
        }
        showPreview(plan);
    });
    connect(sw, &SessionWorker::applied, this, [this](quint64 ticket, const ChangeReport &report) {
        if (ticket != d->applyTicket)
            return;
        d->applyTicket = 0;
        const quint64 kib = d->advice ? d->advice->recommendedKiB : 0;
        if (!report.ok()) {
            d->trying = false;
            setMessage(report.error ? report.error->message : tr("refused"));
        } else if (d->trying) {
            d->trying = false;
            d->trialActive = true;
            d->tryLeft = format::kTrySeconds;
            d->tryTimer.start();
            setMessage(tr("Trying %1: restored in %n s unless kept", nullptr, d->tryLeft).arg(format::kib(double(kib))));
        } else {
            setMessage(tr("read_ahead_kb of %1 is now %2").arg(d->advice ? d->advice->queueDevice : d->device,
                                                               format::kib(double(kib))));
        }
        updateButtons();
        Q_EMIT settingsChanged();
    });
    connect(sw, &SessionWorker::restored, this, [this](quint64 ticket, const RestoreReport &report) {
        if (ticket != d->restoreTicket)
            return;
        d->restoreTicket = 0;
        setMessage(report.ok() ? tr("Trial over: the previous read_ahead_kb is back")
                               : report.messages.join(u'\n'));
        updateButtons();
        Q_EMIT settingsChanged();
    });
}

AdviseView::~AdviseView()
{
    d->cancel = true;
    d->thread.quit();
    d->thread.wait();
    if (d->trialActive)
        d->session->restoreTemporary(); // the session's thread restores it
}

QString AdviseView::device() const
{
    return d->device;
}

bool AdviseView::isRunning() const
{
    return d->running;
}

QList<QPointF> AdviseView::curve() const
{
    return d->points;
}

const std::optional<Advice> &AdviseView::advice() const
{
    return d->advice;
}

std::optional<quint64> AdviseView::recommendedKiB() const
{
    if (d->advice && d->advice->recommends())
        return d->advice->recommendedKiB;
    return std::nullopt;
}

QString AdviseView::applyDisabledReason() const
{
    return d->applyButton->isEnabled() ? QString() : d->applyButton->toolTip();
}

QString AdviseView::resultText() const
{
    QStringList lines;
    for (const QLabel *l : {d->recommendation, d->raw, d->memory, d->verdict})
        if (!l->text().isEmpty())
            lines << l->text();
    return lines.join(u'\n');
}

QString AdviseView::disabledReason() const
{
    return d->header->disabledReason();
}

QString AdviseView::workload() const
{
    const QString kind = d->kind->currentData().toString();
    if (kind == u"seq")
        return kind;
    if (kind == u"mixed")
        return QStringLiteral("mixed:%1+%2").arg(d->streams->value()).arg(d->random->value());
    return QStringLiteral("%1:%2").arg(kind).arg(d->streams->value());
}

void AdviseView::setDevice(const QString &name)
{
    if (d->running)
        return;
    d->device = name;
    d->header->setTitle(name.isEmpty() ? tr("Select a device") : tr("Advise readahead for %1").arg(name));
    updateIntro();
    updateButtons();
}

bool AdviseView::start()
{
    if (d->running || d->device.isEmpty() || !d->header->disabledReason().isEmpty())
        return false;
    auto parsed = parseWorkload(workload());
    if (!parsed) {
        setMessage(parsed.error().message);
        return false;
    }
    auto bs = parseSize(d->blockSize->currentText(), tr("block size"));
    if (!bs) {
        setMessage(bs.error().message);
        return false;
    }
    if (*bs == 0 || *bs % 512 != 0) {
        setMessage(tr("block size '%1' is not a multiple of 512 bytes such as 4K, 64K or 1M")
                       .arg(d->blockSize->currentText()));
        return false;
    }
    AdviseSpec spec;
    spec.device = d->device;
    spec.workload = *parsed;
    spec.blockSize = *bs;
    spec.budgetMs = qint64(d->budget->value()) * 1000;

    d->cancel = false;
    d->advice.reset();
    d->points.clear();
    for (int g = 0; g < d->plot->graphCount(); ++g)
        d->plot->graph(g)->data()->clear();
    d->floorLine->setVisible(false);
    d->floorLabel->setVisible(false);
    d->rawLine->setVisible(false);
    d->rawLabel->setVisible(false);
    d->kneeLabel->setVisible(false);
    d->plot->xAxis->setRange(4, 65536);
    d->plot->yAxis->setRange(0, 100);
    d->refresh->request();
    for (QLabel *l : {d->recommendation, d->raw, d->memory, d->verdict})
        l->clear();
    d->budgetMs = spec.budgetMs;
    d->clock.start();
    d->progress->setValue(0);
    d->progressTimer.start();
    setRunning(true);
    setMessage(tr("Measuring raw reads, then the readahead curve (%1 at most)…")
                   .arg(tr("%n s", nullptr, d->budget->value())));
    AdvisorWorker *worker = d->worker;
    d->ownTickets.insert(
        d->session->runJob(worker, [worker, spec](const SessionJobContext &job) { worker->advise(job, spec); }));
    Q_EMIT started();
    return true;
}

void AdviseView::cancel()
{
    if (!d->running)
        return;
    d->cancel = true;
    setMessage(tr("Cancelling: the original readahead comes back…"));
}

void AdviseView::addPoint(const CurvePoint &p)
{
    // A point measured again moves to its new median.
    const double kib = double(p.readAheadKiB);
    const double mbPerSec = p.mbPerSec;
    d->points.removeIf([&](const QPointF &q) { return q.x() == kib; });
    d->points << QPointF(kib, mbPerSec);
    d->plot->graph(0)->data()->remove(kib);
    d->plot->graph(1)->data()->remove(kib);
    d->plot->graph(0)->addData(kib, mbPerSec);
    d->plot->graph(1)->addData(kib, p.avgRequestKiB);
    showRequestSizes(true);
    double top = 0;
    double topRequest = 0;
    for (auto it = d->plot->graph(0)->data()->constBegin(); it != d->plot->graph(0)->data()->constEnd(); ++it)
        top = std::max(top, it->value);
    for (auto it = d->plot->graph(1)->data()->constBegin(); it != d->plot->graph(1)->data()->constEnd(); ++it)
        topRequest = std::max(topRequest, it->value);
    if (d->rawLine->visible())
        top = std::max(top, d->rawLine->point1->value());
    d->plot->yAxis->setRange(0, std::max(1.0, top * 1.15));
    d->plot->yAxis2->setRange(0, std::max(1.0, topRequest * 1.15));
    d->refresh->request();
    setMessage(tr("%1: %2 (%n point(s) so far)", nullptr, int(d->points.size()))
                   .arg(format::kib(kib), format::rate(mbPerSec)));
}

void AdviseView::showRecordedAdvice(const Advice &advice)
{
    if (d->running) {
        setMessage(tr("A measurement is running: cancel it first"));
        return;
    }
    d->advice = advice;
    // The curve takes the intro's place, as after a measured run.
    d->intro->hide();
    d->plotArea->show();
    showAdvice();
    setMessage(tr("Advice from %1, computed from its recorded curve: nothing was read").arg(advice.source));
    updateButtons();
}

void AdviseView::showAdvice()
{
    const Advice &a = *d->advice;
    d->progress->setValue(100);
    plotAdvice(a);
    describeAdvice(a);
}

void AdviseView::plotAdvice(const Advice &a)
{
    // The curve as core sorted it (refinement points are in place).
    d->plot->graph(0)->data()->clear();
    d->plot->graph(1)->data()->clear();
    d->points.clear();
    double top = 0;
    double topRequest = 0;
    for (const CurvePoint &p : a.curve) {
        d->points << QPointF(double(p.readAheadKiB), p.mbPerSec);
        d->plot->graph(0)->addData(double(p.readAheadKiB), p.mbPerSec);
        d->plot->graph(1)->addData(double(p.readAheadKiB), p.avgRequestKiB);
        top = std::max(top, p.mbPerSec);
        topRequest = std::max(topRequest, p.avgRequestKiB);
    }
    showRequestSizes(topRequest > 0);
    markRawAndFloor(a);
    if (a.rawMbPerSec > 0)
        top = std::max(top, a.rawMbPerSec);
    // An advice with no steady answer marks no knee and no star: the curve's
    // pick is no answer, so the plot must not look like one.
    d->kneeLabel->setVisible(false);
    const bool answer = a.recommends();
    for (QCPGraph *mark : {d->plot->graph(2), d->plot->graph(3)}) {
        mark->data()->clear();
        if (answer)
            mark->addToLegend();
        else
            mark->removeFromLegend();
    }
    for (const CurvePoint &p : a.curve) {
        if (answer && p.readAheadKiB == a.kneeKiB) {
            d->plot->graph(2)->addData(double(p.readAheadKiB), p.mbPerSec);
            d->kneeLabel->position->setCoords(double(p.readAheadKiB), p.mbPerSec);
            d->kneeLabel->setText(tr("knee %1").arg(format::kib(double(p.readAheadKiB))));
            d->kneeLabel->setVisible(true);
        }
    }
    if (answer) {
        // On the curve when measured there; at the floor the curve's value
        // nearest below stands in (the floor decides, not the measurement).
        double y = 0;
        for (const CurvePoint &p : a.curve)
            if (p.readAheadKiB <= a.recommendedKiB)
                y = p.mbPerSec;
        d->plot->graph(3)->addData(double(a.recommendedKiB), y);
    }
    if (!a.curve.isEmpty()) {
        const double lo = double(a.curve.constFirst().readAheadKiB);
        const double hi = std::max(double(a.curve.constLast().readAheadKiB), a.floorKiB ? double(*a.floorKiB) : 0.0);
        d->plot->xAxis->setRange(lo / 1.6, hi * 1.6);
    }
    d->plot->yAxis->setRange(0, std::max(1.0, top * 1.18));
    d->plot->yAxis2->setRange(0, std::max(1.0, topRequest * 1.18));
    d->refresh->request();
}

// A recorded curve may hold no request sizes (a file with MB/s only): no
// line of zeros, no axis and no table column for them then.
void AdviseView::showRequestSizes(bool shown)
{
    QCPGraph *requests = d->plot->graph(1);
    if (!shown)
        requests->data()->clear();
    requests->setVisible(shown);
    if (shown)
        requests->addToLegend();
    else
        requests->removeFromLegend();
    d->plot->yAxis2->setVisible(shown);
}

void AdviseView::markRawAndFloor(const Advice &a)
{
    if (a.rawMbPerSec > 0) {
        d->rawLine->point1->setCoords(1, a.rawMbPerSec);
        d->rawLine->point2->setCoords(2, a.rawMbPerSec);
        d->rawLine->setVisible(true);
        d->rawLabel->position->setCoords(0.99, a.rawMbPerSec);
        d->rawLabel->setText(tr("raw (O_DIRECT) %1").arg(format::rate(a.rawMbPerSec)));
        d->rawLabel->setVisible(true);
    }
    if (a.floorKiB && *a.floorKiB > 0) {
        d->floorLine->point1->setCoords(double(*a.floorKiB), 0);
        d->floorLine->point2->setCoords(double(*a.floorKiB), 1);
        d->floorLine->setVisible(true);
        d->floorLabel->position->setCoords(double(*a.floorKiB), 0.98);
        d->floorLabel->setPadding(QMargins(4, 0, 0, 0));
        d->floorLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        d->floorLabel->setText(tr("md floor %1").arg(format::kib(double(*a.floorKiB))));
        d->floorLabel->setVisible(true);
    }
}

// The headline: what to set, or that there is no answer.
QString AdviseView::headline(const Advice &a) const
{
    if (a.cancelled)
        return tr("Cancelled after %n point(s): no recommendation", nullptr, int(a.curve.size()));
    const QString device = a.queueDevice.isEmpty() ? a.device : a.queueDevice;
    if (!a.recommends())
        return device.isEmpty() ? tr("No steady answer: nothing is recommended")
                                : tr("No steady answer for %1: nothing is recommended").arg(device);
    if (a.floorDecides)
        return tr("Recommended for %1: %2 (the md/dm floor)").arg(device, format::kib(double(a.recommendedKiB)));
    return device.isEmpty() ? tr("Recommended: %1").arg(format::kib(double(a.recommendedKiB)))
                            : tr("Recommended for %1: %2").arg(device, format::kib(double(a.recommendedKiB)));
}

// Why there is no answer, and what would give one, in sentences.
QStringList AdviseView::unresolvedSentences(const Advice &a) const
{
    const CurveAnalysis &an = a.analysis;
    QStringList out;
    if (!an.twoSpeedKiB.isEmpty()) {
        out << tr("The machine read at two speeds while Advise measured (about %1 and %2 at %3), so the curve mixes "
                  "the two and its knee is neither's.")
                   .arg(format::rate(an.slowSpeedMbPerSec), format::rate(an.fastSpeedMbPerSec),
                        format::kib(double(an.twoSpeedKiB.constLast())));
        out << tr("A longer budget would mix them again: advise again when the machine reads at one speed (on a "
                  "virtual machine, the host's load does this).");
    }
    if (an.neededRuns > 0) {
        out << tr("The run-to-run noise (± %1 %) is wider than the tolerance (%2 %), so a readahead within the "
                  "tolerance cannot be told from one outside it.")
                   .arg(format::number(an.noisePct, 1), format::number(an.tolerancePct, 1));
        if (an.twoSpeedKiB.isEmpty())
            out << (a.neededBudgetMs ? tr("About %n runs a point would tell them apart (a budget of about %1 s).",
                                          nullptr, an.neededRuns)
                                           .arg(format::count(quint64(*a.neededBudgetMs / 1000)))
                                     : tr("About %n runs a point would tell them apart.", nullptr, an.neededRuns));
    }
    out << tr("The curve alone would pick %1; that is no answer, so Apply, Try and Save stay off.")
               .arg(format::kib(double(a.unresolvedPickKiB)));
    return out;
}

// The sentences under the headline: why this value, what else is the same,
// how close buffered reads came to raw and what limits them.
QStringList AdviseView::answerSentences(const Advice &a) const
{
    const CurveAnalysis &an = a.analysis;
    QStringList out;
    if (a.floorDecides)
        out << tr("The curve's knee is %1, below the array's floor of %2 (2 × stripe), which the kernel sets again "
                  "on re-assembly or a reshape.")
                   .arg(format::kib(double(a.kneeKiB)), format::kib(double(*a.floorKiB)));
    else
        out << tr("It is the smallest readahead within %1 % of the plateau (%2, the median of the best three "
                  "points).")
                   .arg(format::number(an.bandPct, 1), format::rate(an.plateauMbPerSec));
    if (an.sameKiB.size() > 1)
        out << tr("From %1 to %2 the curve gives %3 to %4: the same within the tolerance and the noise.")
                   .arg(format::kib(double(an.sameKiB.constFirst())), format::kib(double(an.sameKiB.constLast())),
                        format::rate(an.sameMinMbPerSec), format::rate(an.sameMaxMbPerSec));
    if (an.stepUpKiB)
        out << tr("One step up (%1) gains %2 % for %3 more memory.")
                   .arg(format::kib(double(an.stepUpKiB)), format::number(an.stepUpGainPct, 1),
                        format::kib(double((an.stepUpKiB - a.kneeKiB) * quint64(a.windows) * quint64(a.devices))));
    if (std::none_of(a.curve.cbegin(), a.curve.cend(), [](const CurvePoint &p) { return p.runs.size() >= 2; }))
        out << tr("Each point was measured once, so the run-to-run noise is unknown: the band is the tolerance "
                  "alone.");
    return out;
}

// How close buffered reads came to raw, and what limits them.
QString AdviseView::reachSentence(const Advice &a) const
{
    const QString reached = tr("Buffered reads reach %1 % of what the device delivers raw (%2 on the plateau, %3 "
                               "raw).")
                                .arg(format::number(a.reachedPct, 0), format::rate(a.analysis.plateauMbPerSec),
                                     format::rate(a.rawMbPerSec));
    switch (a.reach) {
    case ReachCause::NoRaw: return tr("The raw ceiling could not be measured.");
    case ReachCause::NoRawRecorded: return tr("The recorded curve holds no raw (O_DIRECT) figure to compare with.");
    case ReachCause::Close: return reached;
    case ReachCause::AboveRaw:
        return reached + u' '
            + tr("Buffered reads passed the raw figure (1 MiB O_DIRECT reads, %1 in flight): the device serves more "
                 "than that keeps in flight, so the raw figure is a floor, not a ceiling.")
                  .arg(kRawInFlight);
    case ReachCause::CloseStillRising:
        return reached + u' '
            + tr("Throughput was still rising at the largest value tried (%1, the cap a quarter of the device sets).")
                  .arg(format::kib(double(a.reachLimitKiB)));
    case ReachCause::FarStillRising:
        return reached + u' '
            + tr("No readahead came close, and throughput was still rising at the largest value tried (%1, the cap "
                 "a quarter of the device sets).")
                  .arg(format::kib(double(a.reachLimitKiB)));
    case ReachCause::MaxSectors:
        return reached + u' '
            + tr("No readahead came close: requests stop at max_sectors_kb %1 (average %2 at the best point) while "
                 "the raw reads used 1 MiB requests.")
                  .arg(format::kib(double(a.reachLimitKiB)), format::kib(a.reachRequestKiB));
    case ReachCause::CopyOrCpu: break;
    }
    return reached + u' '
        + tr("No readahead came close, though requests reached %1: the page-cache copy or the CPU is the likelier "
             "limit, not readahead.")
              .arg(format::kib(a.reachRequestKiB));
}

void AdviseView::describeAdvice(const Advice &a)
{
    d->recommendation->setText(headline(a));
    d->raw->clear();
    d->memory->clear();
    d->verdict->clear();
    if (!a.cancelled) {
        d->raw->setText(a.rawMbPerSec > 0
                            ? tr("Raw peak (O_DIRECT, 1 MiB × %1 in flight): %2 · buffered reads reach %3 %")
                                  .arg(kRawInFlight)
                                  .arg(format::rate(a.rawMbPerSec), format::number(a.reachedPct, 0))
                            : tr("Raw peak: not measured"));
        if (a.recommends())
            d->memory->setText(tr("Memory: %1 × %n readahead window(s) × %2 device(s) = %3", nullptr, a.windows)
                                   .arg(format::kib(double(a.recommendedKiB)), format::count(quint64(a.devices)),
                                        format::kib(double(a.memoryKiB))));
        QStringList said = a.recommends() ? answerSentences(a) : unresolvedSentences(a);
        said << reachSentence(a);
        d->verdict->setText(said.join(u' '));
    }
    const QString took = tr("Took %1 s of a %2 s budget.")
                             .arg(format::number(double(a.elapsedMs) / 1000.0, 1),
                                  format::number(double(a.budgetMs) / 1000.0, 0));
    const QString restore = a.restored
        ? tr("read_ahead_kb is back at %1.").arg(format::kib(double(a.originalKiB.value_or(0))))
        : tr("read_ahead_kb NOT restored: %1").arg(a.restoreMessage);
    setMessage(took + u' ' + restore);
}

void AdviseView::applyRecommendation()
{
    planRecommendation(false);
}

void AdviseView::tryRecommendation()
{
    planRecommendation(true);
}

// Apply and Try: the session plans the recommendation, the preview shows
// that plan, and only what it showed is written.
void AdviseView::planRecommendation(bool trying)
{
    if (!recommendedKiB() || d->planTicket || d->applyTicket || d->trialActive || d->preview)
        return;
    d->trying = trying;
    d->planTicket = d->session->plan(
        {SettingChange{d->advice->queueDevice, QStringLiteral("read_ahead_kb"), SettingValue(*recommendedKiB())}});
    updateButtons();
}

void AdviseView::showPreview(const ChangePlan &plan)
{
    const QString kib = format::kib(double(*recommendedKiB()));
    d->preview = new ChangePreviewDialog(d->trying ? tr("Try the advice, %1, for %n s?", nullptr, format::kTrySeconds).arg(kib)
                                                   : tr("Apply the advice, %1?").arg(kib),
                                         d->trying ? tr("Try for %n s", nullptr, format::kTrySeconds) : tr("Apply"),
                                         this);
    d->preview->setAttribute(Qt::WA_DeleteOnClose);
    d->preview->setScope(d->trying ? ChangePreviewDialog::trialScope(format::kTrySeconds)
                                   : ChangePreviewDialog::lastingScope());
    d->preview->setPlan(plan);
    connect(d->preview, &QDialog::finished, this, [this, plan](int result) {
        d->preview = nullptr;
        if (result != QDialog::Accepted) {
            d->trying = false;
            setMessage(tr("Nothing was changed."));
            updateButtons();
            return;
        }
        d->applyTicket = d->session->apply(plan, d->trying);
        d->ownTickets.insert(d->applyTicket);
        setMessage(d->session->state().writerStarted ? tr("Writing…")
                                                     : tr("Writing… (the first change asks for authorization)"));
        updateButtons();
    });
    d->preview->open();
    updateButtons();
}

void AdviseView::keepTrial()
{
    if (!d->trialActive)
        return;
    d->tryTimer.stop();
    d->trialActive = false;
    d->session->keepTemporary();
    setMessage(tr("Kept. Revert session still takes it back."));
    updateButtons();
}

void AdviseView::endTrial()
{
    if (!d->trialActive)
        return;
    d->tryTimer.stop();
    d->trialActive = false;
    d->restoreTicket = d->session->restoreTemporary();
    d->ownTickets.insert(d->restoreTicket);
    updateButtons();
}

void AdviseView::saveAsProfile(const QString &name)
{
    if (!d->advice || d->advice->profile.isEmpty())
        return;
    const QString path = QDir(d->profileDir).filePath(name + QStringLiteral(".json"));
    AdvisorWorker *worker = d->worker;
    QMetaObject::invokeMethod(worker, [worker, p = d->advice->profile, name, path] { worker->saveProfile(p, name, path); },
                              Qt::QueuedConnection);
}

void AdviseView::askSaveProfile()
{
    if (!d->advice)
        return;
    auto *dialog = new QInputDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Save as profile"));
    dialog->setLabelText(tr("Profile name (letters, digits, _ . -):"));
    dialog->setTextValue(d->advice->profile.value(u"name").toString());
    connect(dialog, &QInputDialog::textValueSelected, this, [this](const QString &name) {
        if (!name.isEmpty())
            saveAsProfile(name);
    });
    dialog->open();
}

void AdviseView::setRunning(bool running)
{
    d->running = running;
    if (running) {
        // The curve takes the intro's place from the first run on.
        d->intro->hide();
        d->plotArea->show();
        d->progress->show();
    }
    if (!running)
        d->progressTimer.stop();
    updateButtons();
}

void AdviseView::keepAdvice(const Advice &advice)
{
    // As a read test: a host's agent keeps its own, a recorded tree none.
    if (!d->can.measure || d->can.keepsItsOwnHistory)
        return;
    keepInHistory(this, historyRecord(advice, QStringLiteral("console")), [this](const KeptRecord &kept) {
        for (const QString &text : kept.said)
            Q_EMIT message(text);
        d->status->setText(d->status->text()
                           + (kept.said.isEmpty() ? tr(" · kept in the history (#%1)").arg(kept.id)
                                                  : QStringLiteral(" · ") + kept.said.join(u' ')));
        Q_EMIT historyRecorded(kept.id, kept.said.join(u'\n'));
    });
}

void AdviseView::setMessage(const QString &text)
{
    d->status->setText(text);
    Q_EMIT message(text);
}

void AdviseView::updateButtons()
{
    const bool measurable = d->header->disabledReason().isEmpty();
    const bool writing = d->planTicket || d->applyTicket || d->restoreTicket;
    const bool writable = d->session->readOnlyReason().isEmpty();
    // Advice from a recorded curve is for the device it names: Apply and
    // Try act on the selected device only when it is that one.
    const bool forThisDevice = d->advice && (d->advice->source == u"measured" || d->advice->device == d->device);
    const bool ready = recommendedKiB().has_value() && !d->running && forThisDevice;
    // Why Apply, Try and Save are off, where the advice on screen is the
    // reason (the tooltip of a button that cannot be pressed).
    QString why;
    if (d->advice && !d->running && !d->advice->cancelled && !d->advice->recommends())
        why = tr("No steady answer: %1, so nothing is recommended to apply, try or save")
                  .arg(d->advice->analysis.twoSpeedKiB.isEmpty()
                           ? tr("the run-to-run noise is wider than the tolerance")
                           : tr("the machine read at two speeds while Advise measured"));
    else if (d->advice && !d->running && !forThisDevice)
        why = tr("This advice is for %1: select %1 in the tree to apply it").arg(d->advice->device);
    else if (!writable)
        why = d->session->readOnlyReason();
    d->startButton->setEnabled(measurable && !d->running && !d->device.isEmpty() && !d->trialActive);
    d->startButton->setToolTip(measurable ? QString() : d->header->disabledReason());
    d->cancelButton->setEnabled(d->running);
    for (QWidget *w : std::initializer_list<QWidget *>{d->kind, d->streams, d->random, d->blockSize, d->budget})
        w->setEnabled(!d->running && measurable);
    const bool previewing = !d->preview.isNull();
    d->applyButton->setEnabled(ready && writable && !writing && !d->trialActive && !previewing);
    d->tryButton->setEnabled(ready && writable && !writing && !d->trialActive && !previewing);
    d->tryButton->setVisible(!d->trialActive);
    d->keepButton->setVisible(d->trialActive);
    d->restoreButton->setVisible(d->trialActive);
    d->saveButton->setEnabled(ready && !d->advice->profile.isEmpty());
    for (QPushButton *b : {d->applyButton, d->tryButton, d->saveButton})
        b->setToolTip(b == d->saveButton && why == d->session->readOnlyReason() ? QString() : why);
}

} // namespace blocktune
