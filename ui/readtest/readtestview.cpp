#include "readtestview.h"

#include "common/sysroot.h"
#include "common/units.h"
#include "readtest/readtest.h"
#include "readtest/readtestworker.h"
#include "session/sessionthread.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <atomic>
#include <iterator>

namespace blocktune {

struct ReadTestView::Private
{
    SessionThread *session = nullptr;
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
    QCheckBox *sweep = nullptr;
    QLineEdit *sweepValues = nullptr;
    QPushButton *startButton = nullptr;
    QPushButton *stopButton = nullptr;
    QLabel *status = nullptr;
    QTabWidget *plots = nullptr;
    QCustomPlot *live = nullptr;
    QCustomPlot *curve = nullptr;
    QPlainTextEdit *text = nullptr;
    QList<QPointF> curvePoints;
    qsizetype sweepPoints = 0;
};

namespace {

QCustomPlot *makePlot(QWidget *parent, const QString &xLabel, const QString &yLabel)
{
    auto *plot = new QCustomPlot(parent);
    plot->setMinimumHeight(180);
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    return plot;
}

const QColor kColors[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44), QColor(214, 39, 40),
                          QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(127, 127, 127)};

} // namespace

ReadTestView::ReadTestView(SessionThread *session, QWidget *parent) : QWidget(parent), d(std::make_unique<Private>())
{
    d->session = session;

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
    d->size->setPlaceholderText(tr("256M or the device, whichever is less"));
    d->size->setToolTip(tr("Bytes each measured stream reads (K/M/G are binary)"));
    d->repeat = new QSpinBox(this);
    d->repeat->setObjectName(QStringLiteral("repeat"));
    d->repeat->setRange(1, 100);
    d->repeat->setValue(3);
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
    d->background->setPlaceholderText(tr("sdc sdd@1G  (loop until the measured stream ends)"));
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

    auto *form = new QFormLayout;
    form->addRow(tr("Test"), d->kindBox);
    auto *sizes = new QHBoxLayout;
    sizes->addWidget(d->blockSize);
    sizes->addWidget(new QLabel(tr("size"), this));
    sizes->addWidget(d->size, 1);
    sizes->addWidget(new QLabel(tr("runs"), this));
    sizes->addWidget(d->repeat);
    sizes->addWidget(d->direct);
    form->addRow(tr("Block size"), sizes);
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
    form->addRow(tr("Background"), d->background);
    auto *sweepRow = new QHBoxLayout;
    sweepRow->addWidget(d->sweep);
    sweepRow->addWidget(d->sweepValues, 1);
    form->addRow(tr("Sweep"), sweepRow);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(d->startButton);
    buttons->addWidget(d->stopButton);
    buttons->addWidget(d->status, 1);

    d->plots = new QTabWidget(this);
    d->live = makePlot(d->plots, tr("seconds into the run"), tr("MB/s"));
    d->curve = makePlot(d->plots, tr("read_ahead_kb"), tr("MB/s"));
    // Readahead values grow in powers of two: a log2 axis spaces them evenly.
    d->curve->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(2);
    d->curve->xAxis->setTicker(ticker);
    d->curve->yAxis2->setVisible(true);
    d->curve->yAxis2->setLabel(tr("average request KiB"));
    d->curve->addGraph(d->curve->xAxis, d->curve->yAxis);
    d->curve->graph(0)->setName(tr("MB/s"));
    d->curve->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    d->curve->graph(0)->setPen(QPen(kColors[0], 2));
    d->curve->addGraph(d->curve->xAxis, d->curve->yAxis2);
    d->curve->graph(1)->setName(tr("avg request KiB"));
    d->curve->graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    d->curve->graph(1)->setPen(QPen(kColors[1], 1, Qt::DashLine));
    d->plots->addTab(d->live, tr("Live"));
    d->plots->addTab(d->curve, tr("Sweep curve"));

    d->text = new QPlainTextEdit(this);
    d->text->setReadOnly(true);
    d->text->setFont(QFont(QStringLiteral("monospace")));
    d->text->setLineWrapMode(QPlainTextEdit::NoWrap);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(d->plots);
    splitter->addWidget(d->text);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(d->title);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(splitter, 1);

    auto updateEnabled = [this] {
        const QString kind = d->kindBox->currentData().toString();
        d->threads->setEnabled(kind == u"server");
        d->sharedFd->setEnabled(kind == u"server");
        d->seqStreams->setEnabled(kind == u"mixed");
        d->randomReaders->setEnabled(kind == u"mixed");
        d->background->setEnabled(kind == u"concurrent");
        d->sweepValues->setEnabled(d->sweep->isChecked());
    };
    connect(d->kindBox, &QComboBox::currentIndexChanged, this, updateEnabled);
    connect(d->sweep, &QCheckBox::toggled, this, updateEnabled);
    // A sweep runs the test once per value unless asked for more, as the CLI does.
    connect(d->sweep, &QCheckBox::toggled, this, [this](bool on) { d->repeat->setValue(on ? 1 : 3); });
    updateEnabled();
    connect(d->startButton, &QPushButton::clicked, this, &ReadTestView::start);
    connect(d->stopButton, &QPushButton::clicked, this, &ReadTestView::stop);

    d->worker = new ReadTestWorker(session->session(), &d->cancel);
    d->worker->moveToThread(&d->thread);
    connect(&d->thread, &QThread::finished, d->worker, &QObject::deleteLater);

    connect(d->worker, &ReadTestWorker::progressed, this, [this](const ReadTestProgress &p) {
        QCustomPlot *plot = d->live;
        if (p.label != d->currentRun) {
            d->currentRun = p.label;
            plot->clearGraphs();
            for (qsizetype i = 0; i < p.names.size(); ++i) {
                QCPGraph *g = plot->addGraph();
                g->setName(p.names.at(i));
                g->setPen(QPen(kColors[size_t(i) % std::size(kColors)], 1.5));
            }
            plot->xAxis->setLabel(tr("seconds into run %1").arg(p.label));
        }
        double t = 0;
        for (const IntervalSample &s : p.samples) {
            for (qsizetype i = 0; i < s.streams.size() && i < plot->graphCount(); ++i)
                plot->graph(int(i))->addData(s.endSeconds,
                                             s.seconds > 0 ? double(s.streams.at(i).bytes) / s.seconds / 1e6 : 0.0);
            t = s.endSeconds;
        }
        plot->rescaleAxes();
        plot->yAxis->setRangeLower(0);
        plot->replot(QCustomPlot::rpQueuedReplot);
        Q_EMIT progressed(t);
    });
    connect(d->worker, &ReadTestWorker::runFinished, this, [this](const RunResult &run) {
        if (!d->sweeping)
            d->text->appendPlainText(formatRun(d->kind, run).chopped(1));
    });
    connect(d->worker, &ReadTestWorker::pointStarted, this, [this](int index, quint64 kib) {
        d->status->setText(tr("sweep: read_ahead_kb %1 KiB running (point %2 of %3)")
                               .arg(kib).arg(index + 1).arg(d->sweepPoints));
    });
    connect(d->worker, &ReadTestWorker::pointFinished, this, [this](const SweepPoint &point) {
        d->text->appendPlainText(formatSweepPoint(point).chopped(1));
        d->curvePoints << QPointF(double(point.readAheadKiB), point.mbPerSec);
        // A log axis cannot show 0 KiB: such a point stays in the table only.
        if (point.readAheadKiB > 0) {
            d->curve->graph(0)->addData(double(point.readAheadKiB), point.mbPerSec);
            d->curve->graph(1)->addData(double(point.readAheadKiB), point.avgRequestKiB);
        }
        d->curve->rescaleAxes();
        d->curve->yAxis->setRangeLower(0);
        d->curve->yAxis2->setRangeLower(0);
        d->curve->xAxis->scaleRange(1.3, d->curve->xAxis->range().center());
        d->curve->replot(QCustomPlot::rpQueuedReplot);
    });
    auto done = [this](bool ok, const QString &text, const QStringList &errors) {
        d->running = false;
        d->report += text;
        if (!errors.isEmpty())
            d->report += errors.join(u'\n') + u'\n';
        d->text->setPlainText(d->report);
        d->startButton->setEnabled(true);
        d->stopButton->setEnabled(false);
        d->status->setText(ok ? tr("done") : (errors.isEmpty() ? tr("stopped") : errors.constFirst()));
        Q_EMIT finished(ok);
    };
    connect(d->worker, &ReadTestWorker::testFinished, this, [done](const ReadTestResult &r) {
        done(!r.failed && !r.cancelled, formatReadTestResult(r), r.errors);
    });
    connect(d->worker, &ReadTestWorker::sweepFinished, this, [this, done](const SweepResult &r) {
        QStringList errors = r.errors;
        if (!r.restored && !r.restoreMessage.isEmpty())
            errors.prepend(r.restoreMessage);
        d->plots->setCurrentWidget(d->curve);
        done(!r.failed && !r.cancelled && r.restored, formatSweepHeader() + formatSweepResult(r), errors);
    });
    d->thread.start();
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
    auto refuse = [this](const QString &why) {
        d->status->setText(why);
        Q_EMIT message(why);
        return false;
    };
    if (d->device.isEmpty())
        return refuse(tr("select a device first"));

    // The session's model: no scan here (a scan blocks; the session thread
    // does them).
    const ModelSnapshot model = d->session->model();
    if (!model)
        return refuse(tr("the device list is not read yet"));
    const SysRoot &root = d->session->root();

    ReadTestSpec spec;
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
        for (const QString &item : d->background->text().split(u' ', Qt::SkipEmptyParts)) {
            auto target = parseStreamTarget(item);
            if (!target)
                return refuse(target.error().message);
            spec.background << *target;
        }
    }

    d->cancel = false;
    d->kind = spec.kind;
    d->currentRun.clear();
    d->live->clearGraphs();
    d->live->replot();
    if (d->sweep->isChecked()) {
        auto values = parseReadaheadList(d->sweepValues->text());
        if (!values)
            return refuse(values.error().message);
        SweepSpec sweepSpec{d->device, *values, spec};
        auto sweep = ReadaheadSweep::prepare(root, *model, sweepSpec);
        if (!sweep)
            return refuse(sweep.error().message);
        d->sweeping = true;
        d->sweepPoints = values->size();
        d->curvePoints.clear();
        d->curve->graph(0)->data()->clear();
        d->curve->graph(1)->data()->clear();
        d->report = describeReadTest(sweep->test(), tr("sweep read_ahead_kb of %1, test %2")
                                                        .arg(sweep->queueDevice(), readTestKindName(spec.kind)));
        d->text->setPlainText(d->report + formatSweepHeader().chopped(1));
        QMetaObject::invokeMethod(d->worker, [worker = d->worker, s = *sweep] { worker->runSweep(s); },
                                  Qt::QueuedConnection);
    } else {
        auto test = ReadTest::prepare(root, *model, spec);
        if (!test)
            return refuse(test.error().message);
        d->sweeping = false;
        d->report = describeReadTest(*test, tr("test %1 %2").arg(readTestKindName(spec.kind), d->device));
        d->text->setPlainText(d->report.chopped(1));
        d->plots->setCurrentWidget(d->live);
        QMetaObject::invokeMethod(d->worker, [worker = d->worker, t = *test] { worker->runTest(t); },
                                  Qt::QueuedConnection);
    }
    d->running = true;
    d->startButton->setEnabled(false);
    d->stopButton->setEnabled(true);
    d->status->setText(tr("running..."));
    Q_EMIT started();
    return true;
}

void ReadTestView::stop()
{
    if (d->running) {
        d->cancel = true;
        d->status->setText(tr("stopping..."));
    }
}

} // namespace blocktune

