#include "readtestview.h"
#include "plotrefresh.h"
#include "plottableswitch.h"
#include "plottheme.h"
#include "theme.h"

#include "format.h"
#include "common/sysroot.h"
#include "common/units.h"
#include "console/consolesession.h"
#include "readtest/readtest.h"
#include "readtest/readtestworker.h"
#include "history/history.h"
#include "history/keephistory.h"
#include "machine/machine.h"
#include "resultsmodel.h"
#include "streamcard.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QJsonDocument>
#include <QScrollArea>
#include <QTableView>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedLayout>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

#include <atomic>
#include <iterator>

namespace blocktune {

struct ReadTestView::Private
{
    ConsoleSession *session = nullptr;
    MachineCapabilities can; ///< of the machine the session works on
    QString device;
    QThread thread;
    ReadTestWorker *worker = nullptr;
    std::atomic_bool cancel{false};
    bool running = false;
    bool sweeping = false;
    ReadTestKind kind = ReadTestKind::Sequential;
    QString currentRun;
    QString report;

    QLabel *title = nullptr;
    QComboBox *kindBox = nullptr;
    QComboBox *blockSize = nullptr;
    QLineEdit *size = nullptr;
    QSpinBox *repeat = nullptr;
    QCheckBox *direct = nullptr;
    QSpinBox *threads = nullptr;
    QCheckBox *sharedFd = nullptr;
    QSpinBox *seqStreams = nullptr;
    QSpinBox *randomReaders = nullptr;
    QLineEdit *background = nullptr;
    QLineEdit *alsoMeasure = nullptr;
    QCheckBox *sweep = nullptr;
    QLineEdit *sweepValues = nullptr;
    QPushButton *startButton = nullptr;
    QPushButton *stopButton = nullptr;
    QLabel *status = nullptr;
    QTabWidget *plots = nullptr;
    QCustomPlot *live = nullptr;
    QCustomPlot *curve = nullptr;
    QCustomPlot *latency = nullptr; // the selected run's latency distribution
    PlotTableSwitch *latencyTab = nullptr;
    PlotRefresh *liveRefresh = nullptr; // the plots are drawn while on screen
    PlotRefresh *curveRefresh = nullptr;
    PlotTableSwitch *liveTab = nullptr; // each plot with its "Show as table"
    PlotTableSwitch *curveTab = nullptr;
    QPlainTextEdit *text = nullptr;
    QList<QPointF> curvePoints;
    qsizetype sweepPoints = 0;
    std::optional<quint64> kneeKiB;
    QString runningPoint;      ///< "read_ahead_kb 512 KiB" while a sweep point runs

    // One card per stream, side by side.
    QScrollArea *cardsArea = nullptr;
    QHBoxLayout *cardsLayout = nullptr;
    QList<StreamCard *> cards;
    QStringList graphNames;    ///< "loop0 (measured)": the graphs name their roles
    // The live plot keeps every run: x runs on across runs, boundaries marked.
    double runOffset = 0;
    double lastX = 0;
    double lastEndInRun = 0;
    bool boundaryPending = false;

    QTabWidget *bottom = nullptr;
    QSplitter *splitter = nullptr; // the plots above, the results below
    ReadTestResultsModel *results = nullptr;
    ResultsSortProxy *proxy = nullptr;
    QTableView *table = nullptr;
    QPushButton *copyButton = nullptr;
    QPushButton *csvButton = nullptr;
    QPushButton *jsonButton = nullptr;
    std::optional<ReadTestResult> lastResult;
    QString description;       ///< the test's one-line description, kept with its history record
};

namespace {

QCustomPlot *makePlot(QWidget *parent, const QString &xLabel, const QString &yLabel)
{
    auto *plot = new QCustomPlot(parent);
    plot->setLocale(format::ungrouped()); // tick labels with the user's decimal sign
    plot->setMinimumHeight(120);
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    return plot;
}

} // namespace

ReadTestView::ReadTestView(ConsoleSession *session, const Machine &machine, QWidget *parent)
    : QWidget(parent), d(std::make_unique<Private>())
{
    d->session = session;
    d->can = machine.capabilities();
    buildWidgets();
    layOut();
    connectSignals();

    if (!d->can.measure) {
        // A recorded tree has sysfs but no devices to read.
        const QString why = tr("Read tests need the live machine: %1 is a recorded tree (read-only)")
                                .arg(machine.displayName());
        d->startButton->setEnabled(false);
        d->startButton->setToolTip(why);
        d->status->setText(why);
    } else if (d->can.keepsItsOwnHistory) {
        d->status->setText(tr("Tests run on %1 and are kept in its history (blocktune-cli --host %1 history)")
                               .arg(machine.displayName()));
    }

    startWorker();
}

void ReadTestView::buildWidgets()
{
    buildForm();
    buildPlots();
    buildCards();
    buildResults();
}

void ReadTestView::buildForm()
{
    d->title = new QLabel(tr("Select a device"), this);
    d->kindBox = new QComboBox(this);
    d->kindBox->setObjectName(QStringLiteral("kind"));
    d->kindBox->addItem(tr("Sequential (dd)"), QStringLiteral("seq"));
    d->kindBox->addItem(tr("Server: N threads, one stream"), QStringLiteral("server"));
    d->kindBox->addItem(tr("Mixed: sequential + random noise"), QStringLiteral("mixed"));
    d->kindBox->addItem(tr("Concurrent: with background streams"), QStringLiteral("concurrent"));
    d->blockSize = new QComboBox(this);
    d->blockSize->setObjectName(QStringLiteral("bs"));
    d->blockSize->setEditable(true);
    d->blockSize->addItems({QStringLiteral("4K"), QStringLiteral("16K"), QStringLiteral("64K"), QStringLiteral("256K"),
                            QStringLiteral("1M")});
    d->blockSize->setCurrentText(QStringLiteral("64K"));
    d->size = new QLineEdit(this);
    d->size->setObjectName(QStringLiteral("size"));
    // Placeholders are short examples (they must fit a narrow window in
    // German too); what the field means is in its tooltip.
    d->size->setPlaceholderText(QStringLiteral("256M"));
    // Room for its example, and a little more, in any language and scale.
    d->size->setMinimumWidth(d->size->fontMetrics().horizontalAdvance(QStringLiteral("1024M")) + 20);
    d->size->setToolTip(tr("Bytes each measured stream reads (K/M/G are binary); empty: 256M or the device, "
                           "whichever is less"));
    d->repeat = new QSpinBox(this);
    d->repeat->setObjectName(QStringLiteral("repeat"));
    d->repeat->setRange(1, 100);
    d->repeat->setValue(3);
    d->repeat->setSuffix(tr(" ×"));
    d->repeat->setToolTip(tr("How many runs, each from a cold cache, labelled a, b, c… (blocktune-cli --repeat)"));
    d->direct = new QCheckBox(tr("O_DIRECT (bypasses readahead)"), this);
    d->direct->setObjectName(QStringLiteral("direct"));
    d->threads = new QSpinBox(this);
    d->threads->setObjectName(QStringLiteral("threads"));
    d->threads->setRange(1, 256);
    d->threads->setValue(4);
    d->sharedFd = new QCheckBox(tr("one shared descriptor"), this);
    d->sharedFd->setObjectName(QStringLiteral("sharedFd"));
    d->seqStreams = new QSpinBox(this);
    d->seqStreams->setObjectName(QStringLiteral("seq"));
    d->seqStreams->setRange(1, 64);
    d->randomReaders = new QSpinBox(this);
    d->randomReaders->setObjectName(QStringLiteral("random"));
    d->randomReaders->setRange(0, 64);
    d->randomReaders->setValue(1);
    d->background = new QLineEdit(this);
    d->background->setObjectName(QStringLiteral("background"));
    d->background->setPlaceholderText(QStringLiteral("sdc sdd@1G"));
    d->background->setToolTip(tr("Devices read in a loop until the measured stream ends (NAME or NAME@OFFSET)"));
    d->alsoMeasure = new QLineEdit(this);
    d->alsoMeasure->setObjectName(QStringLiteral("measure"));
    d->alsoMeasure->setPlaceholderText(QStringLiteral("sdc sdd@1G"));
    d->alsoMeasure->setToolTip(tr("Devices measured beside the selected one, side by side (NAME or NAME@OFFSET)"));
    d->sweep = new QCheckBox(tr("sweep read_ahead_kb:"), this);
    d->sweep->setObjectName(QStringLiteral("sweep"));
    d->sweepValues = new QLineEdit(QStringLiteral("128,512,1024,4096"), this);
    d->sweepValues->setObjectName(QStringLiteral("ra"));
    d->sweepValues->setToolTip(tr("KiB values, set one after the other as a temporary change and restored at the end"));
    d->startButton = new QPushButton(tr("Start"), this);
    d->stopButton = new QPushButton(tr("Stop"), this);
    d->stopButton->setEnabled(false);
    d->status = new QLabel(this);
    d->status->setWordWrap(true);
}

void ReadTestView::buildPlots()
{
    d->plots = new QTabWidget(this);
    d->live = makePlot(d->plots, tr("seconds into the run"), tr("MB/s"));
    d->curve = makePlot(d->plots, tr("read_ahead_kb"), tr("MB/s"));
    d->live->setObjectName(QStringLiteral("livePlot"));
    d->curve->setObjectName(QStringLiteral("sweepCurve"));
    d->live->setAccessibleName(tr("Live throughput plot"));
    d->curve->setAccessibleName(tr("Sweep curve plot"));
    d->latency = makePlot(d->plots, tr("latency of a read (µs)"), tr("% of reads"));
    d->latency->setObjectName(QStringLiteral("latencyPlot"));
    d->latency->setAccessibleName(tr("Latency distribution plot"));
    // Latency spans decades: a log axis, each decade labelled.
    d->latency->xAxis->setScaleType(QCPAxis::stLogarithmic);
    d->latency->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    d->liveRefresh = new PlotRefresh(d->live);
    d->curveRefresh = new PlotRefresh(d->curve);
    // Readahead values grow in powers of two: a log axis spaces them evenly;
    // its ticks are exactly the values swept ("4K", "128K", "1M"), so one
    // point or twenty read the same way.
    d->curve->xAxis->setScaleType(QCPAxis::stLogarithmic);
    d->curve->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    d->curve->yAxis2->setVisible(true);
    d->curve->yAxis2->setLabel(tr("average request KiB"));
    d->curve->addGraph(d->curve->xAxis, d->curve->yAxis);
    d->curve->graph(0)->setName(tr("MB/s"));
    d->curve->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    d->curve->graph(0)->setPen(seriesPen(2));
    setSeries(d->curve->graph(0), 0);
    d->curve->addGraph(d->curve->xAxis, d->curve->yAxis2);
    d->curve->graph(1)->setName(tr("avg request KiB"));
    d->curve->graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    d->curve->graph(1)->setPen(seriesPen(1, Qt::DashLine));
    setSeries(d->curve->graph(1), 1);
    d->curve->addGraph(d->curve->xAxis, d->curve->yAxis);
    d->curve->graph(2)->setName(tr("knee: smallest readahead within 5% of the best"));
    d->curve->graph(2)->setLineStyle(QCPGraph::lsNone);
    d->curve->graph(2)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, seriesPen(2), Qt::NoBrush, 14));
    setSeries(d->curve->graph(2), 3);
    // The live plot's legend is the row of cards above it: each card's
    // colour bar is its line's colour and it names the stream and its role,
    // so nothing is drawn over the lines.
    d->live->legend->setVisible(false);
    // The sweep's legend in a row under the plot, as Advise has it: inside,
    // on a plot as low as the splitter leaves it, it covered the first points.
    d->curve->axisRect()->insetLayout()->take(d->curve->legend);
    d->curve->plotLayout()->addElement(1, 0, d->curve->legend);
    d->curve->plotLayout()->setRowStretchFactor(1, 0.001);
    d->curve->legend->setFillOrder(QCPLegend::foColumnsFirst);
    d->curve->legend->setBorderPen(Qt::NoPen);
    d->curve->legend->setBrush(Qt::NoBrush);
    themePlot(d->live);
    // The latency legend under the plot too: inside it covered the tail.
    d->latency->axisRect()->insetLayout()->take(d->latency->legend);
    d->latency->plotLayout()->addElement(1, 0, d->latency->legend);
    d->latency->plotLayout()->setRowStretchFactor(1, 0.001);
    d->latency->legend->setFillOrder(QCPLegend::foColumnsFirst);
    d->latency->legend->setBorderPen(Qt::NoPen);
    d->latency->legend->setBrush(Qt::NoBrush);
    themePlot(d->curve);
    themePlot(d->latency);
    d->liveTab = new PlotTableSwitch(d->live, nullptr, d->plots);
    d->curveTab = new PlotTableSwitch(d->curve, nullptr, d->plots);
    d->latencyTab = new PlotTableSwitch(d->latency, nullptr, d->plots);
    d->plots->addTab(d->liveTab, tr("Live"));
    d->plots->addTab(d->curveTab, tr("Sweep curve"));
    d->plots->addTab(d->latencyTab, tr("Latency"));
    // The shown plot's "Show as table" in the tabs' corner: a row of its
    // own above the plot would take height the plot is short of.
    auto *corner = new QWidget(d->plots);
    auto *toggles = new QStackedLayout(corner);
    toggles->setContentsMargins(0, 0, 0, 0);
    toggles->addWidget(d->liveTab->detachToggle());
    toggles->addWidget(d->curveTab->detachToggle());
    toggles->addWidget(d->latencyTab->detachToggle());
    d->plots->setCornerWidget(corner, Qt::TopRightCorner);
    connect(d->plots, &QTabWidget::currentChanged, toggles, &QStackedLayout::setCurrentIndex);

    d->text = new QPlainTextEdit(this);
    d->text->setReadOnly(true);
    d->text->setFont(QFont(QStringLiteral("monospace")));
    d->text->setLineWrapMode(QPlainTextEdit::NoWrap);
}

void ReadTestView::buildCards()
{
    // Cards, one per stream, side by side (a scroll bar past what fits).
    auto *cardsHost = new QWidget;
    d->cardsLayout = new QHBoxLayout(cardsHost);
    d->cardsLayout->setContentsMargins(0, 0, 0, 0);
    d->cardsLayout->addStretch();
    d->cardsArea = new QScrollArea(this);
    d->cardsArea->setObjectName(QStringLiteral("streamCards"));
    d->cardsArea->setWidget(cardsHost);
    d->cardsArea->setWidgetResizable(true);
    d->cardsArea->setFrameShape(QFrame::NoFrame);
    d->cardsArea->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    d->cardsArea->setFixedHeight(190);
    d->cardsArea->hide();
}

void ReadTestView::buildResults()
{
    // The results: a sortable table, copied as dd's text or exported.
    d->results = new ReadTestResultsModel(this);
    d->proxy = new ResultsSortProxy(this);
    d->proxy->setSourceModel(d->results);
    d->table = new QTableView(this);
    d->table->setObjectName(QStringLiteral("results"));
    d->table->setModel(d->proxy);
    d->table->setSortingEnabled(true);
    d->table->sortByColumn(-1, Qt::AscendingOrder); // runs in order until the user sorts
    d->table->verticalHeader()->hide();
    d->table->setAlternatingRowColors(true);
    d->table->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(d->table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                const QModelIndex source = d->proxy->mapToSource(current);
                if (source.isValid() && source.data(ReadTestResultsModel::GroupRole).toInt() == 0)
                    showLatency(d->results->index(source.row(), ReadTestResultsModel::Run)
                                    .data(ReadTestResultsModel::LabelRole).toString());
            });
    d->table->horizontalHeader()->setStretchLastSection(true);
    // Compact rows: a result is a line of figures, and a run of three
    // streams with its summaries is a dozen of them.
    d->table->verticalHeader()->setDefaultSectionSize(d->table->fontMetrics().height() + 6);
    d->copyButton = new QPushButton(tr("Copy as text"), this);
    d->copyButton->setToolTip(tr("The report as dd prints it, to paste into a ticket or a mail"));
    d->csvButton = new QPushButton(tr("Export CSV..."), this);
    d->jsonButton = new QPushButton(tr("Export JSON..."), this);
    for (QPushButton *b : {d->copyButton, d->csvButton, d->jsonButton})
        b->setEnabled(false);
}

void ReadTestView::layOut()
{
    // The page scrolls on a short screen (1280x720, 1.5x) rather than
    // squeeze the Results to a row: they keep room for several rows.
    auto *page = new QWidget(this);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("readTestScroll"));
    scroll->setFocusPolicy(Qt::NoFocus); // Tab goes through the page, not to its frame
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(d->title);
    layout->addLayout(formLayout());
    // "Also measured" stands above "Background" (made the other way round).
    setTabOrder(d->randomReaders, d->alsoMeasure);
    setTabOrder(d->alsoMeasure, d->background);
    setTabOrder(d->background, d->sweep);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(d->startButton);
    buttons->addWidget(d->stopButton);
    buttons->addWidget(d->status, 1);
    layout->addLayout(buttons);
    layout->addWidget(d->cardsArea);

    auto *resultsPage = new QWidget(this);
    auto *resultsLayout = new QVBoxLayout(resultsPage);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addWidget(d->table, 1);
    auto *exportRow = new QHBoxLayout;
    exportRow->addWidget(d->copyButton);
    exportRow->addWidget(d->csvButton);
    exportRow->addWidget(d->jsonButton);
    exportRow->addStretch();
    resultsLayout->addLayout(exportRow);
    d->bottom = new QTabWidget(this);
    d->bottom->addTab(resultsPage, tr("Results"));
    d->bottom->addTab(d->text, tr("Report"));

    auto *splitter = d->splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(d->plots);
    splitter->addWidget(d->bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    // Six rows of results, their header, the tab bar and the export buttons.
    const int row = d->table->verticalHeader()->defaultSectionSize();
    d->bottom->setMinimumHeight(row * 7 + d->copyButton->sizeHint().height() + 3 * fontMetrics().height());
    layout->addWidget(splitter, 1);
}

QFormLayout *ReadTestView::formLayout()
{
    auto *form = new QFormLayout;
    form->addRow(tr("Test"), d->kindBox);
    auto *sizes = new QHBoxLayout;
    sizes->addWidget(d->blockSize);
    sizes->addWidget(new QLabel(tr("size"), this));
    sizes->addWidget(d->size, 1);
    sizes->addWidget(new QLabel(tr("repeat"), this)); // blocktune-cli --repeat, "repeat" in the JSON
    sizes->addWidget(d->repeat);
    form->addRow(tr("Block size"), sizes);
    // O_DIRECT under the sizes, not beside them: there it ran off a German
    // page at 1.5x (the page does not scroll sideways).
    form->addRow(QString(), d->direct);
    auto *server = new QHBoxLayout;
    server->addWidget(d->threads);
    server->addWidget(d->sharedFd);
    server->addStretch();
    form->addRow(tr("Threads"), server);
    auto *mixed = new QHBoxLayout;
    mixed->addWidget(d->seqStreams);
    mixed->addWidget(new QLabel(tr("random readers"), this));
    mixed->addWidget(d->randomReaders);
    mixed->addStretch();
    form->addRow(tr("Sequential streams"), mixed);
    form->addRow(tr("Also measured"), d->alsoMeasure);
    form->addRow(tr("Background"), d->background);
    auto *sweepRow = new QHBoxLayout;
    sweepRow->addWidget(d->sweep);
    sweepRow->addWidget(d->sweepValues, 1);
    form->addRow(tr("Sweep"), sweepRow);
    return form;
}

void ReadTestView::connectSignals()
{
    connect(d->kindBox, &QComboBox::currentIndexChanged, this, &ReadTestView::updateEnabled);
    connect(d->sweep, &QCheckBox::toggled, this, &ReadTestView::updateEnabled);
    // A sweep runs the test once per value unless asked for more, as the CLI does.
    connect(d->sweep, &QCheckBox::toggled, this, [this](bool on) { d->repeat->setValue(on ? 1 : 3); });
    updateEnabled();
    connect(d->startButton, &QPushButton::clicked, this, &ReadTestView::start);
    connect(d->stopButton, &QPushButton::clicked, this, &ReadTestView::stop);
    connect(d->copyButton, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(resultText());
        d->status->setText(tr("report copied"));
    });
    connect(d->csvButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export CSV"), d->device + QStringLiteral(".csv"),
                                                          tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    connect(d->jsonButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export JSON"),
                                                          d->device + QStringLiteral(".json"), tr("JSON (*.json)"));
        if (!path.isEmpty())
            exportJson(path);
    });
}

void ReadTestView::updateEnabled()
{
    const QString kind = d->kindBox->currentData().toString();
    d->threads->setEnabled(kind == u"server");
    d->sharedFd->setEnabled(kind == u"server");
    d->seqStreams->setEnabled(kind == u"mixed");
    d->randomReaders->setEnabled(kind == u"mixed");
    d->background->setEnabled(kind == u"concurrent");
    d->alsoMeasure->setEnabled(kind == u"concurrent");
    d->sweepValues->setEnabled(d->sweep->isChecked());
}

void ReadTestView::startWorker()
{
    d->worker = new ReadTestWorker(&d->cancel);
    d->worker->moveToThread(&d->thread);
    connect(&d->thread, &QThread::finished, d->worker, &QObject::deleteLater);

    connect(d->worker, &ReadTestWorker::progressed, this, &ReadTestView::showProgress);
    connect(d->worker, &ReadTestWorker::runFinished, this, [this](const RunResult &run) {
        if (!d->sweeping)
            d->text->appendPlainText(formatRun(d->kind, run, {50, 99, 99.9}, QLocale()).chopped(1));
        for (qsizetype i = 0; i < run.streams.size() && i < d->cards.size(); ++i) {
            const StreamResult &s = run.streams.at(i);
            std::optional<double> request;
            for (const DeviceCounterDelta &dev : run.deviceStats)
                if (dev.device == s.device && dev.available)
                    request = dev.avgRequestKiB;
            d->cards.at(i)->finishRun(run.label, s.mbPerSec, request);
        }
    });
    connect(d->worker, &ReadTestWorker::pointStarted, this, [this](int index, quint64 kib) {
        d->runningPoint = tr("read_ahead_kb %1").arg(format::kib(double(kib)));
        d->boundaryPending = true;
        d->status->setText(tr("sweep: read_ahead_kb %1 running (point %2 of %3)")
                               .arg(format::kib(double(kib)))
                               .arg(index + 1)
                               .arg(d->sweepPoints));
        d->live->xAxis->setLabel(tr("seconds; now read_ahead_kb %1").arg(format::kib(double(kib))));
    });
    connect(d->worker, &ReadTestWorker::pointFinished, this, [this](const SweepPoint &point) {
        d->text->appendPlainText(formatSweepPoint(point, QLocale()).chopped(1));
        d->curvePoints << QPointF(double(point.readAheadKiB), point.mbPerSec);
        // A log axis cannot show 0 KiB: such a point stays in the table only.
        if (point.readAheadKiB > 0) {
            d->curve->graph(0)->addData(double(point.readAheadKiB), point.mbPerSec);
            d->curve->graph(1)->addData(double(point.readAheadKiB), point.avgRequestKiB);
        }
        updateCurve();
    });
    connect(d->worker, &ReadTestWorker::testFinished, this, &ReadTestView::showTestResult);
    connect(d->worker, &ReadTestWorker::sweepFinished, this, &ReadTestView::showSweepResult);
    d->thread.start();
}

void ReadTestView::showProgress(const ReadTestProgress &p)
{
    QCustomPlot *plot = d->live;
    if (plot->graphCount() == 0) {
        for (qsizetype i = 0; i < p.names.size(); ++i) {
            QCPGraph *g = plot->addGraph();
            g->setName(d->graphNames.value(i, p.names.at(i)));
            g->setPen(seriesPen(1.5));
            setSeries(g, int(i)); // the stream card's colour bar
        }
    }
    const bool newRun = p.label != d->currentRun || d->boundaryPending
        || (!p.samples.isEmpty() && p.samples.constFirst().endSeconds < d->lastEndInRun);
    if (newRun)
        markRunStart(p.label);
    double t = 0;
    for (const IntervalSample &s : p.samples) {
        const double x = d->runOffset + s.endSeconds;
        for (qsizetype i = 0; i < s.streams.size(); ++i) {
            const IntervalSample::Stream &st = s.streams.at(i);
            if (i < plot->graphCount())
                plot->graph(int(i))->addData(x, s.seconds > 0 ? double(st.bytes) / s.seconds / 1e6 : 0.0);
            if (i < d->cards.size())
                d->cards.at(i)->addInterval(st.bytes, st.reads, s.seconds, st.meanLatencyMs);
        }
        t = s.endSeconds;
        d->lastEndInRun = s.endSeconds;
        d->lastX = x;
    }
    plot->rescaleAxes();
    plot->xAxis->setRangeLower(0);
    plot->yAxis->setRangeLower(0);
    plot->yAxis->setRangeUpper(plot->yAxis->range().upper * 1.1);
    d->liveRefresh->request();
    Q_EMIT progressed(t);
}

void ReadTestView::markRunStart(const QString &label)
{
    QCustomPlot *plot = d->live;
    d->currentRun = label;
    d->runOffset = d->lastX;
    d->lastEndInRun = 0;
    d->boundaryPending = false;
    const QString mark = d->runningPoint.isEmpty() ? tr("run %1").arg(label) : d->runningPoint;
    if (d->runOffset > 0) {
        auto *line = new QCPItemStraightLine(plot);
        line->point1->setCoords(d->runOffset, 0);
        line->point2->setCoords(d->runOffset, 1);
        line->setPen(seriesPen(1, Qt::DashLine));
        setSeries(line, kSeriesNeutral);
    }
    auto *text = new QCPItemText(plot);
    text->setClipToAxisRect(true);
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(d->runOffset, 0.0);
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    text->setPadding(QMargins(4, 2, 4, 2));
    setSeries(text, kSeriesNeutral);
    text->setText(mark);
    for (StreamCard *card : std::as_const(d->cards))
        card->startRun(label);
}

void ReadTestView::showTestResult(const ReadTestResult &r)
{
    d->lastResult = r;
    d->results->setResult(r);
    showLatency(r.runs.isEmpty() ? QString() : r.runs.constLast().label);
    d->table->resizeColumnsToContents();
    // A summary row's label ("fairness over the streams' means") would
    // widen the stream column past the figures: elided, whole in its tooltip.
    QHeaderView *header = d->table->horizontalHeader();
    const int streamColumn = ReadTestResultsModel::Stream;
    header->resizeSection(streamColumn,
                          std::min(header->sectionSize(streamColumn), d->table->fontMetrics().horizontalAdvance(u'M') * 9));
    for (QPushButton *b : {d->copyButton, d->csvButton, d->jsonButton})
        b->setEnabled(true);
    d->bottom->setCurrentIndex(0);
    // Done: the results get the room, the plot keeps its smallest size
    // (the splitter gives it back on a drag).
    if (const int total = d->splitter->height(); total > 0) {
        const int plotHeight = std::max(d->plots->minimumSizeHint().height(), total * 2 / 5);
        d->splitter->setSizes({plotHeight, total - plotHeight});
    }
    finish(!r.failed && !r.cancelled, formatReadTestResult(r, QLocale()), r.errors);
    if (!r.runs.isEmpty())
        keep(historyRecord(r, QStringLiteral("console"), d->description));
}

void ReadTestView::showSweepResult(const SweepResult &r)
{
    QStringList errors = r.errors;
    if (!r.restored && !r.restoreMessage.isEmpty())
        errors.prepend(r.restoreMessage);
    d->plots->setCurrentWidget(d->curveTab);
    d->bottom->setCurrentWidget(d->text);
    // A sweep's result is its curve: the plot gets the room back from the
    // results a test before it took.
    if (const int total = d->splitter->height(); total > 0)
        d->splitter->setSizes({total * 3 / 5, total - total * 3 / 5});
    // formatSweepResult() heads its table itself.
    finish(!r.failed && !r.cancelled && r.restored, formatSweepResult(r, true, QLocale()), errors);
    if (!r.points.isEmpty())
        keep(historyRecord(r, QStringLiteral("console"), d->description));
}

void ReadTestView::finish(bool ok, const QString &text, const QStringList &errors)
{
    d->running = false;
    d->runningPoint.clear();
    d->report += text;
    if (!errors.isEmpty())
        d->report += errors.join(u'\n') + u'\n';
    d->text->setPlainText(d->report);
    d->startButton->setEnabled(true);
    d->stopButton->setEnabled(false);
    d->status->setText(ok ? tr("done") : (errors.isEmpty() ? tr("stopped") : errors.constFirst()));
    Q_EMIT finished(ok);
}

void ReadTestView::updateCurve()
{
    QCustomPlot *plot = d->curve;
    double lo = 0, hi = 0, best = 0, topReq = 0;
    QList<QPointF> shown;
    for (const QPointF &p : std::as_const(d->curvePoints))
        if (p.x() > 0)
            shown << p;
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot->xAxis->ticker());
    ticker->clear();
    for (const QPointF &p : std::as_const(shown)) {
        lo = lo == 0 ? p.x() : std::min(lo, p.x());
        hi = std::max(hi, p.x());
        best = std::max(best, p.y());
        ticker->addTick(p.x(), formatBytes(quint64(p.x()) * 1024));
    }
    for (auto it = plot->graph(1)->data()->constBegin(); it != plot->graph(1)->data()->constEnd(); ++it)
        topReq = std::max(topReq, it->value);
    // The knee: the smallest readahead within 5% of the best point.
    d->kneeKiB.reset();
    plot->graph(2)->data()->clear();
    plot->clearItems();
    if (!shown.isEmpty() && best > 0) {
        QPointF knee = shown.constFirst();
        bool found = false;
        for (const QPointF &p : std::as_const(shown)) {
            if (p.y() >= 0.95 * best && (!found || p.x() < knee.x())) {
                knee = p;
                found = true;
            }
        }
        d->kneeKiB = quint64(knee.x());
        plot->graph(2)->addData(knee.x(), knee.y());
        auto *label = new QCPItemText(plot);
        label->position->setCoords(knee.x(), knee.y());
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setPadding(QMargins(0, 0, 0, 12));
        setSeries(label, 3); // the knee circle's red
        label->setText(tr("knee %1").arg(format::kib(knee.x())));
    }
    if (hi > 0) {
        // Half an octave of room on both sides: one point sits in the middle.
        plot->xAxis->setRange(lo / 1.6, hi * 1.6);
        plot->yAxis->setRange(0, std::max(1.0, best * 1.2));
        plot->yAxis2->setRange(0, std::max(1.0, topReq * 1.2));
    }
    d->curveRefresh->request();
}

void ReadTestView::keep(const HistoryRecord &record)
{
    // A host keeps its own (the agent wrote it there); a recorded tree has none.
    if (!d->can.measure || d->can.keepsItsOwnHistory)
        return;
    keepInHistory(this, record, [this](const KeptRecord &kept) {
        for (const QString &text : kept.said)
            Q_EMIT message(text);
        if (!kept.said.isEmpty())
            d->status->setText(d->status->text() + QStringLiteral(" · ") + kept.said.join(u' '));
        else
            d->status->setText(d->status->text() + tr(" · kept in the history (#%1)").arg(kept.id));
        Q_EMIT historyRecorded(kept.id, kept.said.join(u'\n'));
    });
}

void ReadTestView::showLatency(const QString &label)
{
    QCustomPlot *plot = d->latency;
    plot->clearGraphs();
    const RunResult *run = nullptr;
    if (d->lastResult)
        for (const RunResult &r : d->lastResult->runs)
            if (r.label == label)
                run = &r;
    double top = 0, lo = 0, hi = 0;
    if (run) {
        // 128 buckets an octave are finer than a plot shows: eight an
        // octave, each the share of the run's reads that fell in it.
        constexpr double kBinsPerOctave = 8;
        for (qsizetype i = 0; i < run->streams.size(); ++i) {
            const StreamResult &s = run->streams.at(i);
            if (s.latencyUs.count == 0)
                continue;
            QMap<int, quint64> bins;
            for (const LatencyBucket &b : s.latencyUs.buckets)
                bins[int(std::floor(std::log2(std::max(b.upperUs, 1.0)) * kBinsPerOctave))] += b.count;
            QCPGraph *g = plot->addGraph();
            g->setName(tr("%1 run %2: p50 %3, p99 %4, p99.9 %5")
                           .arg(s.name, run->label, format::latencyUs(s.latencyUs.percentileUs(50)),
                                format::latencyUs(s.latencyUs.percentileUs(99)),
                                format::latencyUs(s.latencyUs.percentileUs(99.9))));
            g->setPen(seriesPen(2));
            g->setLineStyle(QCPGraph::lsStepCenter);
            setSeries(g, int(i));
            for (auto it = bins.cbegin(); it != bins.cend(); ++it) {
                const double x = std::exp2((double(it.key()) + 0.5) / kBinsPerOctave);
                const double y = double(it.value()) / double(s.latencyUs.count) * 100.0;
                g->addData(x, y);
                top = std::max(top, y);
                lo = lo == 0 ? x : std::min(lo, x);
                hi = std::max(hi, x);
            }
        }
    }
    if (hi > 0) {
        plot->xAxis->setRange(lo / 1.5, hi * 1.5);
        plot->yAxis->setRange(0, top * 1.15);
    }
    plot->replot();
    d->latencyTab->refreshTable();
}

void ReadTestView::setupStreams(const ReadTest &test)
{
    for (StreamCard *card : std::as_const(d->cards))
        delete card;
    d->cards.clear();
    d->graphNames.clear();
    for (qsizetype i = 0; i < test.streams().size(); ++i) {
        const PlannedStream &s = test.streams().at(i);
        const QString role = s.pattern == AccessPattern::Random ? tr("random")
            : s.role == StreamRole::Measure                     ? tr("measured")
                                                                : tr("background");
        const QString device = test.testDevices().value(s.device).name;
        auto *card = new StreamCard(s.name, device, s.start, role, int(i));
        d->cardsLayout->insertWidget(d->cardsLayout->count() - 1, card);
        d->cards << card;
        d->graphNames << QStringLiteral("%1 (%2)").arg(s.name, role);
    }
    d->cardsArea->setVisible(!d->cards.isEmpty());
}

QString ReadTestView::resultText() const
{
    return d->lastResult ? formatReadTestResult(*d->lastResult, QLocale()) : QString();
}

bool ReadTestView::exportCsv(const QString &path)
{
    QFile f(path);
    if (!d->lastResult || !f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        Q_EMIT message(tr("cannot write %1: %2").arg(path, f.errorString()));
        return false;
    }
    f.write(d->results->toCsv().toUtf8());
    d->status->setText(tr("saved %1").arg(path));
    return true;
}

bool ReadTestView::exportJson(const QString &path)
{
    QFile f(path);
    if (!d->lastResult || !f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        Q_EMIT message(tr("cannot write %1: %2").arg(path, f.errorString()));
        return false;
    }
    f.write(QJsonDocument(readTestToJson(*d->lastResult, true)).toJson(QJsonDocument::Indented));
    d->status->setText(tr("saved %1").arg(path));
    return true;
}

std::optional<quint64> ReadTestView::sweepKnee() const
{
    return d->kneeKiB;
}

ReadTestView::~ReadTestView()
{
    // A running test stops within 200 ms; a sweep then restores the
    // readahead before its slot returns, so wait() covers the restore.
    d->cancel = true;
    d->thread.quit();
    d->thread.wait();
}

QString ReadTestView::device() const
{
    return d->device;
}

bool ReadTestView::isRunning() const
{
    return d->running;
}

QString ReadTestView::reportText() const
{
    return d->text->toPlainText();
}

QList<QPointF> ReadTestView::sweepCurve() const
{
    return d->curvePoints;
}

void ReadTestView::setDevice(const QString &name)
{
    if (d->running)
        return; // the test in progress keeps its device
    d->device = name;
    d->title->setText(name.isEmpty() ? tr("Select a device") : tr("Read test on %1").arg(name));
}

bool ReadTestView::start()
{
    if (d->running)
        return false;
    if (d->device.isEmpty())
        return refuse(tr("select a device first"));

    // The session's model: no scan here (a scan blocks; the session thread
    // does them).
    const ModelSnapshot model = d->session->model();
    if (!model)
        return refuse(tr("the device list is not read yet"));

    ReadTestSpec spec;
    if (!readForm(spec))
        return false;
    if (!(d->sweep->isChecked() ? startSweep(*model, spec) : startTest(*model, spec)))
        return false;
    d->running = true;
    d->startButton->setEnabled(false);
    d->stopButton->setEnabled(true);
    d->status->setText(tr("running..."));
    Q_EMIT started();
    return true;
}

bool ReadTestView::refuse(const QString &why)
{
    d->status->setText(why);
    Q_EMIT message(why);
    return false;
}

bool ReadTestView::refuseRecorded()
{
    return refuse(tr("Read tests need the live machine: %1 is a recorded tree (read-only)")
                      .arg(d->session->root().root()));
}

bool ReadTestView::readForm(ReadTestSpec &spec)
{
    spec.kind = parseReadTestKind(d->kindBox->currentData().toString()).value_or(ReadTestKind::Sequential);
    spec.measure = {StreamTarget{d->device, 0}};
    auto bs = parseSize(d->blockSize->currentText(), tr("block size"));
    if (!bs)
        return refuse(bs.error().message);
    spec.blockSize = *bs;
    if (!d->size->text().trimmed().isEmpty()) {
        auto size = parseSize(d->size->text(), tr("size"));
        if (!size)
            return refuse(size.error().message);
        spec.sizeBytes = *size;
    }
    spec.repeat = d->repeat->value();
    spec.direct = d->direct->isChecked();
    spec.threads = d->threads->value();
    spec.sharedFd = d->sharedFd->isChecked();
    spec.seqStreams = d->seqStreams->value();
    spec.randomReaders = d->randomReaders->value();
    if (spec.kind == ReadTestKind::Concurrent) {
        for (const QString &item : d->alsoMeasure->text().split(u' ', Qt::SkipEmptyParts)) {
            auto target = parseStreamTarget(item);
            if (!target)
                return refuse(target.error().message);
            spec.measure << *target;
        }
        for (const QString &item : d->background->text().split(u' ', Qt::SkipEmptyParts)) {
            auto target = parseStreamTarget(item);
            if (!target)
                return refuse(target.error().message);
            spec.background << *target;
        }
    }
    return true;
}

// The options are checked before the recorded tree is refused, even there,
// so a mistake is named; but a recorded tree has no devices to read.
bool ReadTestView::startSweep(const DeviceModel &model, const ReadTestSpec &spec)
{
    auto values = parseReadaheadList(d->sweepValues->text());
    if (!values)
        return refuse(values.error().message);
    SweepSpec sweepSpec{d->device, *values, spec};
    auto sweep = ReadaheadSweep::prepare(d->session->root(), model, sweepSpec);
    if (!sweep)
        return refuse(sweep.error().message);
    if (!d->can.measure)
        return refuseRecorded();
    resetForRun(sweep->test(), spec);
    d->sweeping = true;
    d->sweepPoints = values->size();
    d->curvePoints.clear();
    d->curve->graph(0)->data()->clear();
    d->curve->graph(1)->data()->clear();
    updateCurve();
    d->report = describeReadTest(sweep->test(), tr("sweep read_ahead_kb of %1, test %2")
                                                    .arg(sweep->queueDevice(), readTestKindName(spec.kind)),
                                 QLocale());
    d->description = d->report.trimmed();
    d->text->setPlainText(d->report + formatSweepHeader().chopped(1));
    d->bottom->setCurrentWidget(d->text);
    d->session->runJob(d->worker, [worker = d->worker, s = *sweep](const SessionJobContext &job) {
        worker->runSweep(job.session, job.measurer, s);
    });
    return true;
}

bool ReadTestView::startTest(const DeviceModel &model, const ReadTestSpec &spec)
{
    auto test = ReadTest::prepare(d->session->root(), model, spec);
    if (!test)
        return refuse(test.error().message);
    if (!d->can.measure)
        return refuseRecorded();
    resetForRun(*test, spec);
    d->sweeping = false;
    d->report = describeReadTest(*test, tr("test %1 %2").arg(readTestKindName(spec.kind), d->device),
                                 QLocale());
    d->description = d->report.trimmed();
    d->text->setPlainText(d->report.chopped(1));
    d->plots->setCurrentWidget(d->liveTab);
    d->session->runJob(d->worker, [worker = d->worker, t = *test](const SessionJobContext &job) {
        worker->runTest(job.measurer, t);
    });
    return true;
}

void ReadTestView::resetForRun(const ReadTest &test, const ReadTestSpec &spec)
{
    d->cancel = false;
    d->kind = spec.kind;
    d->currentRun.clear();
    d->runOffset = d->lastX = d->lastEndInRun = 0;
    d->boundaryPending = false;
    d->live->clearGraphs();
    d->live->clearItems();
    d->live->xAxis->setLabel(tr("seconds into the test (runs marked)"));
    d->liveRefresh->request();
    d->lastResult.reset();
    d->results->clear();
    for (QPushButton *b : {d->copyButton, d->csvButton, d->jsonButton})
        b->setEnabled(false);
    setupStreams(test);
}

void ReadTestView::stop()
{
    if (d->running) {
        d->cancel = true;
        d->status->setText(tr("stopping..."));
    }
}

} // namespace blocktune

