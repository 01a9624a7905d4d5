#include "tuningpanel.h"

#include "changepreviewdialog.h"
#include "format.h"
#include "theme.h"

#include "console/consolesession.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPointer>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTimer>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace blocktune {

namespace {

// Slider positions: 0 (off), then 4 KiB .. 64 MiB in powers of two.
constexpr int kSliderSteps = 15;

int sliderPositionFor(quint64 kib)
{
    if (kib == 0)
        return 0;
    const int log = int(std::lround(std::log2(double(kib))));
    return std::clamp(log - 1, 1, kSliderSteps);
}

quint64 kibForSliderPosition(int position)
{
    return position <= 0 ? 0 : quint64(1) << (position + 1);
}

QString fmtOptional(const std::optional<quint64> &value)
{
    return value ? format::count(*value) : QString();
}

/// The readahead slider's scale: labelled ticks (4K, 64K, 1M, 16M, 64M)
/// under the slider's own tick marks, and the md/dm floor as a red mark.
class SliderScale final : public QWidget
{
public:
    explicit SliderScale(QSlider *slider, QWidget *parent) : QWidget(parent), m_slider(slider)
    {
        setMinimumHeight(fontMetrics().height() + 8);
        setAccessibleName(TuningPanel::tr("Readahead scale"));
    }
    void setFloor(std::optional<quint64> kib)
    {
        m_floor = kib;
        setToolTip(kib ? TuningPanel::tr("Red mark: the kernel's readahead floor for this array, %1 KiB").arg(*kib)
                       : QString());
        update();
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        QStyleOptionSlider opt;
        opt.initFrom(m_slider);
        opt.orientation = Qt::Horizontal;
        opt.minimum = m_slider->minimum();
        opt.maximum = m_slider->maximum();
        const QRect groove = m_slider->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, m_slider);
        const QRect handle = m_slider->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, m_slider);
        const int span = groove.width() - handle.width();
        const int left = groove.x() + handle.width() / 2 + m_slider->x() - x();
        auto xOf = [&](int position) {
            return left + QStyle::sliderPositionFromValue(opt.minimum, opt.maximum, position, span);
        };
        if (m_floor) {
            const int fx = xOf(sliderPositionFor(*m_floor));
            p.setPen(Qt::NoPen);
            p.setBrush(semanticMarkColor(Semantic::Error, palette()));
            const QPolygon mark({QPoint(fx - 5, 0), QPoint(fx + 5, 0), QPoint(fx, 6)});
            p.drawPolygon(mark);
        }
        p.setPen(palette().color(QPalette::WindowText));
        const QFontMetrics fm = fontMetrics();
        static const std::pair<int, const char *> labels[] = {{1, "4K"}, {5, "64K"}, {9, "1M"}, {13, "16M"}, {15, "64M"}};
        for (const auto &[position, text] : labels) {
            const QString label = QString::fromLatin1(text);
            const int w = fm.horizontalAdvance(label);
            p.drawText(std::clamp(xOf(position) - w / 2, 0, width() - w), fm.ascent() + 6, label);
        }
    }

private:
    QSlider *m_slider;
    std::optional<quint64> m_floor;
};

} // namespace

struct TuningPanel::Private
{
    ConsoleSession *session = nullptr;
    QString device;
    std::optional<DeviceSettings> settings; ///< as last read by the session
    quint64 readTicket = 0;  ///< the settings read we wait for
    quint64 refreshTicket = 0; ///< a read whose answer is merged into the form
    quint64 planTicket = 0;  ///< the plan we wait for
    quint64 applyTicket = 0; ///< the write we wait for
    quint64 revertTicket = 0;
    QPointer<ChangePreviewDialog> confirm;
    bool trying = false;      ///< the applied plan is a "Try for 60 s"
    int tryLeft = 0;          ///< seconds until it is restored
    QTimer tryTimer;
    quint64 tryRestoreTicket = 0;
    QString lastMessage;
    bool loading = false;
    bool confirmPlan = true;

    QLabel *title = nullptr;
    QLabel *note = nullptr;
    QGroupBox *raBox = nullptr;
    QGroupBox *queueBox = nullptr;
    QGroupBox *ioBox = nullptr;
    QSlider *raSlider = nullptr;
    QSpinBox *raSpin = nullptr;
    QLabel *raHint = nullptr;
    SliderScale *raScale = nullptr;
    QCheckBox *members = nullptr;
    QComboBox *scheduler = nullptr;
    QSpinBox *nrRequests = nullptr;
    QSpinBox *maxSectors = nullptr;
    QLabel *context = nullptr;
    QTableWidget *iosched = nullptr;
    QPushButton *apply = nullptr;
    QPushButton *reset = nullptr;
    QPushButton *cancel = nullptr;
    QPushButton *revert = nullptr;
    QPushButton *tryIt = nullptr;
    QPushButton *keep = nullptr;
    QPushButton *restoreNow = nullptr;
    QLabel *result = nullptr;

    bool busy() const { return planTicket || applyTicket || revertTicket || tryRestoreTicket || confirm; }
};


TuningPanel::TuningPanel(ConsoleSession *session, QWidget *parent) : QWidget(parent), d(std::make_unique<Private>())
{
    d->session = session;
    buildWidgets();
    layOutWidgets();
    wireForm();
    wireSession();
    setDevice(QString());
}

void TuningPanel::buildWidgets()
{
    d->title = new QLabel(this);
    QFont titleFont = d->title->font();
    titleFont.setBold(true);
    d->title->setFont(titleFont);
    d->note = new QLabel(this);
    d->note->setObjectName(QStringLiteral("note"));
    d->note->setWordWrap(true);
    // Why the form cannot be used, and the kernel's notes: in the warning
    // colour the page header uses, derived from the palette.
    followPalette(this, [this] {
        // From the page's palette: the label's own keeps the colour set last.
        QPalette own = d->note->palette();
        own.setColor(QPalette::WindowText, warningTextColor(palette()));
        d->note->setPalette(own);
    });
    buildReadaheadBox();
    buildQueueBoxes();
    buildButtons();
    d->result = new QLabel(this);
    d->result->setObjectName(QStringLiteral("status"));
    d->result->setWordWrap(true);
    d->result->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void TuningPanel::buildReadaheadBox()
{
    d->raBox = new QGroupBox(tr("Readahead"), this);
    d->raSlider = new QSlider(Qt::Horizontal, d->raBox);
    d->raSlider->setRange(0, kSliderSteps);
    d->raSlider->setPageStep(1);
    d->raSlider->setTickPosition(QSlider::TicksBelow);
    d->raSlider->setAccessibleName(tr("Readahead"));
    d->raSpin = new QSpinBox(d->raBox);
    d->raSpin->setRange(0, 1 << 22);
    d->raSpin->setSuffix(tr(" KiB"));
    d->raSpin->setAccessibleName(tr("Readahead in KiB"));
    d->raScale = new SliderScale(d->raSlider, d->raBox);
    d->raHint = new QLabel(d->raBox);
    d->raHint->setWordWrap(true);
    d->members = new QCheckBox(tr("Also set it on the member disks"), d->raBox);
}

void TuningPanel::buildQueueBoxes()
{
    d->queueBox = new QGroupBox(tr("Queue"), this);
    d->scheduler = new QComboBox(d->queueBox);
    d->scheduler->setAccessibleName(tr("I/O scheduler"));
    d->nrRequests = new QSpinBox(d->queueBox);
    d->nrRequests->setRange(0, 1 << 20);
    d->nrRequests->setAccessibleName(tr("nr_requests"));
    d->maxSectors = new QSpinBox(d->queueBox);
    d->maxSectors->setRange(0, 1 << 24);
    d->maxSectors->setSuffix(tr(" KiB"));
    d->maxSectors->setAccessibleName(tr("max_sectors_kb"));
    d->context = new QLabel(d->queueBox);
    d->context->setWordWrap(true);

    d->ioBox = new QGroupBox(tr("Scheduler tunables"), this);
    d->iosched = new QTableWidget(0, 2, d->ioBox);
    d->iosched->setHorizontalHeaderLabels({tr("Tunable"), tr("Value")});
    d->iosched->horizontalHeader()->setStretchLastSection(true);
    d->iosched->verticalHeader()->hide();
    d->iosched->setAccessibleName(tr("Scheduler tunables"));
}

void TuningPanel::buildButtons()
{
    d->apply = new QPushButton(tr("Apply…"), this);
    d->reset = new QPushButton(tr("Reset form"), this);
    d->cancel = new QPushButton(tr("Cancel"), this);
    d->cancel->setToolTip(tr("Give up the change that waits for authorization; nothing of it stays"));
    d->cancel->hide();
    d->revert = new QPushButton(tr("Revert session"), this);
    d->revert->setToolTip(tr("Restore every value this console changed since it started"));
    d->revert->setEnabled(false);
    d->tryIt = new QPushButton(tr("Try for %n s", nullptr, format::kTrySeconds), this);
    d->tryIt->setToolTip(tr("Apply as a temporary change, restored after %n seconds unless you keep it", nullptr,
                            format::kTrySeconds));
    d->keep = new QPushButton(tr("Keep"), this);
    d->keep->setToolTip(tr("Keep the values being tried (Revert session still undoes them)"));
    d->keep->hide();
    d->restoreNow = new QPushButton(tr("Restore now"), this);
    d->restoreNow->hide();
}

void TuningPanel::layOutWidgets()
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(d->title);
    layout->addWidget(d->note);

    auto *raLayout = new QVBoxLayout(d->raBox);
    auto *raRow = new QHBoxLayout;
    auto *sliderColumn = new QVBoxLayout;
    sliderColumn->setSpacing(0);
    sliderColumn->addWidget(d->raSlider);
    sliderColumn->addWidget(d->raScale);
    raRow->addLayout(sliderColumn, 1);
    raRow->addWidget(d->raSpin, 0, Qt::AlignTop);
    raLayout->addLayout(raRow);
    raLayout->addWidget(d->raHint);
    raLayout->addWidget(d->members);
    layout->addWidget(d->raBox);

    auto *form = new QFormLayout(d->queueBox);
    form->addRow(tr("I/O scheduler"), d->scheduler);
    form->addRow(tr("nr_requests"), d->nrRequests);
    form->addRow(tr("max_sectors_kb"), d->maxSectors);
    form->addRow(tr("Context readahead"), d->context);
    layout->addWidget(d->queueBox);

    auto *ioLayout = new QVBoxLayout(d->ioBox);
    ioLayout->addWidget(d->iosched);
    layout->addWidget(d->ioBox, 1);
    layout->addStretch(); // the buttons stay at the bottom while the tunables are hidden

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(d->apply);
    buttons->addWidget(d->tryIt);
    buttons->addWidget(d->keep);
    buttons->addWidget(d->restoreNow);
    buttons->addWidget(d->reset);
    buttons->addWidget(d->cancel);
    buttons->addStretch(1);
    buttons->addWidget(d->revert);
    layout->addLayout(buttons);
    layout->addWidget(d->result);
    // Tab through the buttons as they stand (they were made in another order).
    QWidget *previous = d->iosched;
    for (QWidget *w : std::initializer_list<QWidget *>{d->apply, d->tryIt, d->keep, d->restoreNow, d->reset,
                                                       d->cancel, d->revert}) {
        setTabOrder(previous, w);
        previous = w;
    }
}

void TuningPanel::wireForm()
{
    connect(d->raSlider, &QSlider::valueChanged, this, [this](int position) {
        if (d->loading)
            return;
        const quint64 kib = kibForSliderPosition(position);
        if (sliderPositionFor(quint64(d->raSpin->value())) != position)
            d->raSpin->setValue(int(kib));
    });
    connect(d->raSpin, &QSpinBox::valueChanged, this, [this](int kib) {
        if (!d->loading) {
            const QSignalBlocker block(d->raSlider);
            d->raSlider->setValue(sliderPositionFor(quint64(kib)));
        }
        updateReadaheadHint();
        updateDirty();
    });
    connect(d->scheduler, &QComboBox::currentIndexChanged, this, [this] { updateDirty(); });
    connect(d->nrRequests, &QSpinBox::valueChanged, this, [this] { updateDirty(); });
    connect(d->maxSectors, &QSpinBox::valueChanged, this, [this] { updateDirty(); });
    connect(d->iosched, &QTableWidget::itemChanged, this, [this] { updateDirty(); });
    connect(d->members, &QCheckBox::toggled, this, [this] { updateDirty(); });
    connect(d->apply, &QPushButton::clicked, this, [this] { applyChanges(true); });
    connect(d->tryIt, &QPushButton::clicked, this, [this] { tryChanges(); });
    connect(d->keep, &QPushButton::clicked, this, &TuningPanel::keepTrial);
    connect(d->restoreNow, &QPushButton::clicked, this, &TuningPanel::endTrial);
    d->tryTimer.setInterval(1000);
    connect(&d->tryTimer, &QTimer::timeout, this, [this] {
        if (--d->tryLeft <= 0) {
            endTrial();
            return;
        }
        showTrial();
    });
    connect(d->reset, &QPushButton::clicked, this, &TuningPanel::reload);
    connect(d->cancel, &QPushButton::clicked, this, [this] {
        d->session->cancelPendingWrite();
        setMessage(tr("Cancelling…"));
    });
    connect(d->revert, &QPushButton::clicked, this, &TuningPanel::revertSession);
}

void TuningPanel::wireSession()
{
    SessionWorker *worker = d->session->worker();
    connect(worker, &SessionWorker::settingsRead, this, [this](quint64 ticket, const SettingsReply &reply) {
        if (ticket == d->readTicket)
            showSettings(reply);
        else if (ticket == d->refreshTicket)
            mergeSettings(reply);
    });
    connect(d->session, &ConsoleSession::happened, this, &TuningPanel::showSessionEvent);
    connect(worker, &SessionWorker::planned, this, [this](quint64 ticket, const ChangePlan &plan) {
        if (ticket == d->planTicket)
            planArrived(plan);
    });
    connect(worker, &SessionWorker::applied, this, [this](quint64 ticket, const ChangeReport &report) {
        if (ticket == d->applyTicket)
            applyArrived(report);
    });
    connect(worker, &SessionWorker::restored, this, [this](quint64 ticket, const RestoreReport &report) {
        if (ticket == d->revertTicket || ticket == d->tryRestoreTicket)
            revertArrived(report);
    });
    connect(d->session, &ConsoleSession::stateChanged, this, [this](const SessionState &state) {
        d->revert->setEnabled(state.temporary + state.persistent > 0 && !d->busy());
    });
}

TuningPanel::~TuningPanel()
{
    if (d->confirm)
        d->confirm->deleteLater();
}

QString TuningPanel::lastMessage() const
{
    return d->lastMessage;
}

QString TuningPanel::loadedDevice() const
{
    return d->settings ? d->device : QString();
}

bool TuningPanel::isBusy() const
{
    return d->busy();
}

void TuningPanel::setMessage(const QString &text)
{
    d->lastMessage = text;
    d->result->setText(text);
    Q_EMIT message(text);
}

void TuningPanel::setDevice(const QString &name)
{
    d->device = name;
    reload();
}

void TuningPanel::reload()
{
    d->refreshTicket = 0;
    d->settings.reset();
    setEditable(false);
    if (d->device.isEmpty()) {
        d->readTicket = 0;
        showSettings(SettingsReply{});
        return;
    }
    d->title->setText(tr("%1: reading settings…").arg(d->device));
    d->readTicket = d->session->readSettings(d->device);
}

void TuningPanel::refresh()
{
    // A read on its way (its answer is current), a write (it reads again
    // when it ends), or a preview the user is looking at: nothing to add.
    if (d->device.isEmpty() || !d->settings || d->busy())
        return;
    d->refreshTicket = d->session->readSettings(d->device);
}

namespace {

/// What the form shows of a device, compared: equal means nothing to redraw.
bool sameSettings(const DeviceSettings &a, const DeviceSettings &b)
{
    return a.major == b.major && a.minor == b.minor && a.notes == b.notes
           && deviceSettingsToJson(a) == deviceSettingsToJson(b);
}

} // namespace

void TuningPanel::mergeSettings(const SettingsReply &reply)
{
    d->refreshTicket = 0;
    if (!d->settings || d->busy() || reply.device != d->device || !reply.settings)
        return; // the device's own going away is told by deviceGone()
    if (sameSettings(*d->settings, *reply.settings)) {
        Q_EMIT settingsLoaded(d->device); // read again: still what is on screen
        return; // the common case on a busy host: nothing on screen moves
    }
    // The user's edits, against the values they were made on; then the new
    // values, with those edits laid over them again.
    const QList<SettingChange> edits = formChanges();
    const bool members = d->members->isChecked();
    QPointer<QWidget> focus = QApplication::focusWidget();
    showSettings(reply);
    for (const SettingChange &c : edits) {
        const quint64 number = c.value.number().value_or(0);
        if (c.key == u"read_ahead_kb")
            d->raSpin->setValue(int(std::min<quint64>(number, quint64(d->raSpin->maximum()))));
        else if (c.key == u"scheduler" && reply.settings->schedulers.contains(c.value.text()))
            d->scheduler->setCurrentText(c.value.text());
        else if (c.key == u"nr_requests")
            d->nrRequests->setValue(int(number));
        else if (c.key == u"max_sectors_kb")
            d->maxSectors->setValue(int(number));
        else if (c.key.startsWith(u"iosched."))
            for (int row = 0; row < d->iosched->rowCount(); ++row)
                if (d->iosched->item(row, 0)->text() == c.key.mid(8))
                    d->iosched->item(row, 1)->setText(c.value.text());
    }
    d->members->setChecked(members && !d->members->isHidden());
    if (focus && focus->isEnabled() && isAncestorOf(focus) && QApplication::focusWidget() != focus)
        focus->setFocus(Qt::OtherFocusReason);
    updateDirty();
}

void TuningPanel::deviceGone(const QString &name, const QString &why)
{
    if (name != d->device)
        return;
    const bool edited = d->settings && !formChanges().isEmpty();
    d->refreshTicket = 0;
    d->readTicket = 0;
    d->settings.reset();
    // A field being edited is about to be turned off: Qt would hand the
    // focus on to the next widget, the device tree, which then makes its
    // first device current and this message would be gone at once.
    if (QWidget *focus = QApplication::focusWidget(); focus && isAncestorOf(focus))
        focus->clearFocus();
    setEditable(false);
    d->title->setText(why);
    d->note->setText(edited ? tr("The changes in this form were not applied; nothing was written to %1.").arg(name)
                            : tr("Select another device to tune."));
    d->note->setVisible(true);
}

void TuningPanel::showSessionEvent(const SessionEvent &event)
{
    // What happened last, whoever did it: the same words in every view.
    d->result->setText(event.details.isEmpty() || event.details.size() == 1
                           ? event.text
                           : event.text + u'\n' + event.details.join(u'\n'));
    // Another view's write (Advise, Profiles, a sweep's restore) may have
    // changed what the form shows; this panel's own re-reads on its own.
    refresh();
}

void TuningPanel::setEditable(bool usable)
{
    // A recording (or a session without write access) shows its values but
    // does not offer to edit them: an editor that moves while Apply stays
    // greyed out says the opposite of what is true.
    const QString &readOnly = d->session->readOnlyReason();
    const bool editable = usable && readOnly.isEmpty();
    for (QWidget *w : std::initializer_list<QWidget *>{d->raSlider, d->raSpin, d->scheduler, d->nrRequests,
                                                       d->maxSectors, d->iosched, d->members}) {
        w->setEnabled(editable);
        if (!readOnly.isEmpty())
            w->setToolTip(readOnly);
    }
    d->apply->setEnabled(false);
    d->tryIt->setEnabled(false);
    d->reset->setEnabled(editable);
    d->reset->setToolTip(readOnly);
    d->apply->setToolTip(readOnly);
    d->tryIt->setVisible(readOnly.isEmpty());
}

void TuningPanel::showSettings(const SettingsReply &reply)
{
    d->loading = true;
    d->settings = reply.settings;
    const bool usable = reply.settings.has_value() && reply.settings->readAheadKiB.has_value() && !d->busy();
    setEditable(usable);
    d->iosched->setRowCount(0);
    d->scheduler->clear();
    // No values to show: no form either (a disabled "0 KiB" reads as a
    // device whose readahead is off).
    for (QWidget *box : std::initializer_list<QWidget *>{d->raBox, d->queueBox})
        box->setVisible(reply.settings.has_value());
    // No scheduler (none, a bio-based md or dm device): no empty table.
    d->ioBox->setVisible(reply.settings.has_value() && !reply.settings->iosched.isEmpty());
    if (!reply.settings) {
        d->title->setText(d->device.isEmpty() ? tr("Select a device to tune")
                                              : tr("%1: cannot read settings").arg(d->device));
        d->note->setText(reply.error);
        d->note->setVisible(!reply.error.isEmpty());
        d->raHint->clear();
        d->context->clear();
        d->loading = false;
        return;
    }
    const DeviceSettings &s = *reply.settings;
    d->title->setText(s.isPartition ? tr("%1 (settings of its disk %2)").arg(s.name, s.queueDevice) : s.name);
    // The context readahead row says it; the note would say it twice.
    QStringList notes = s.notes;
    notes.removeAll(contextReadaheadBuiltInNote(s.queueDevice));
    if (!d->session->readOnlyReason().isEmpty())
        notes.prepend(d->session->readOnlyReason());
    d->note->setText(notes.join(u'\n'));
    d->note->setVisible(!notes.isEmpty());
    d->raScale->setFloor(s.readaheadFloorKiB);
    const quint64 ra = s.readAheadKiB.value_or(0);
    d->raSpin->setValue(int(std::min<quint64>(ra, quint64(d->raSpin->maximum()))));
    d->raSlider->setValue(sliderPositionFor(ra));
    d->members->setVisible(!s.memberDisks.isEmpty());
    d->members->setChecked(false);
    d->members->setText(tr("Also set it on the member disks (%1)").arg(s.memberDisks.join(u", ")));

    d->scheduler->addItems(s.schedulers);
    d->scheduler->setCurrentText(s.scheduler);
    const bool editable = usable && d->session->readOnlyReason().isEmpty();
    d->scheduler->setEnabled(editable && s.schedulers.size() > 1);
    d->nrRequests->setEnabled(editable && s.nrRequestsRange.has_value());
    if (s.nrRequestsRange)
        d->nrRequests->setRange(int(s.nrRequestsRange->min), int(std::min<quint64>(s.nrRequestsRange->max, 1 << 20)));
    d->nrRequests->setValue(int(s.nrRequests.value_or(0)));
    d->maxSectors->setRange(int(s.maxSectorsRange.min), int(std::min<quint64>(s.maxSectorsRange.max, 1 << 24)));
    d->maxSectors->setValue(int(s.maxSectorsKiB.value_or(0)));
    if (d->session->readOnlyReason().isEmpty())
        d->maxSectors->setToolTip(tr("At most max_hw_sectors_kb = %1 KiB").arg(fmtOptional(s.maxHwSectorsKiB)));
    if (s.contextReadaheadSwitch.isEmpty())
        d->context->setText(tr("built in and always on since Linux 2.6.31 (this kernel has no switch)"));
    else
        d->context->setText(tr("%1 (switch: %2)").arg(s.contextReadahead.value_or(false) ? tr("on") : tr("off"),
                                                     s.contextReadaheadSwitch));
    d->iosched->setRowCount(int(s.iosched.size()));
    for (int i = 0; i < s.iosched.size(); ++i) {
        auto *nameItem = new QTableWidgetItem(s.iosched[i].name);
        nameItem->setFlags(nameItem->flags() & ~Qt::ItemIsEditable);
        d->iosched->setItem(i, 0, nameItem);
        d->iosched->setItem(i, 1, new QTableWidgetItem(s.iosched[i].value));
    }
    d->loading = false;
    updateReadaheadHint();
    updateDirty();
    Q_EMIT settingsLoaded(d->device);
}

void TuningPanel::updateReadaheadHint()
{
    const quint64 kib = quint64(d->raSpin->value());
    QString hint = tr("%1 KiB = %2 sectors (blockdev --setra %2)").arg(kib).arg(kib * 2);
    if (d->settings && d->settings->readaheadFloorKiB) {
        const quint64 floor = *d->settings->readaheadFloorKiB;
        if (kib < floor)
            hint += u'\n' + tr("Below the kernel's floor of %1 KiB (2 x stripe): re-assembly or a reshape raises it again.").arg(floor);
        else
            hint += u'\n' + tr("Kernel floor for this array: %1 KiB (2 x stripe).").arg(floor);
    }
    d->raHint->setText(hint);
}

QList<SettingChange> TuningPanel::formChanges() const
{
    // Values are typed here, where they enter: the spin boxes' numbers go to
    // the planner as numbers, never through text.
    QList<SettingChange> changes;
    if (!d->settings)
        return changes;
    const DeviceSettings &s = *d->settings;
    const QString dev = s.name;
    const quint64 ra = quint64(d->raSpin->value());
    const QString scheduler = d->scheduler->currentText();
    if (s.readAheadKiB && ra != *s.readAheadKiB)
        changes.append({dev, QStringLiteral("read_ahead_kb"), SettingValue(ra)});
    if (!scheduler.isEmpty() && scheduler != s.scheduler)
        changes.append({dev, QStringLiteral("scheduler"), SettingValue(scheduler)});
    const quint64 nr = quint64(d->nrRequests->value());
    if (s.nrRequestsRange && s.nrRequests && nr != *s.nrRequests && scheduler == s.scheduler)
        changes.append({dev, QStringLiteral("nr_requests"), SettingValue(nr)});
    const quint64 maxSectors = quint64(d->maxSectors->value());
    if (s.maxSectorsKiB && maxSectors != *s.maxSectorsKiB)
        changes.append({dev, QStringLiteral("max_sectors_kb"), SettingValue(maxSectors)});
    // Tunables belong to the active scheduler; a switch brings its own.
    if (scheduler == s.scheduler) {
        for (int row = 0; row < d->iosched->rowCount() && row < s.iosched.size(); ++row) {
            const QTableWidgetItem *item = d->iosched->item(row, 1);
            const QString value = item ? item->text().trimmed() : QString();
            if (value != s.iosched[row].value)
                changes.append({dev, u"iosched." + s.iosched[row].name, SettingValue(value)});
        }
    }
    return changes;
}

void TuningPanel::updateDirty()
{
    if (d->loading || !d->settings)
        return;
    const bool can = !d->busy() && !d->trying && d->session->readOnlyReason().isEmpty() && !formChanges().isEmpty();
    d->apply->setEnabled(can);
    d->tryIt->setEnabled(can);
}

void TuningPanel::setBusy(bool busy)
{
    d->cancel->setVisible(busy && d->applyTicket);
    if (busy) {
        d->apply->setEnabled(false);
        d->revert->setEnabled(false);
    } else {
        d->revert->setEnabled(d->session->state().temporary + d->session->state().persistent > 0);
        updateDirty();
    }
}

bool TuningPanel::applyChanges(bool confirm)
{
    if (!d->settings || d->busy())
        return false;
    const QList<SettingChange> changes = formChanges();
    if (changes.isEmpty())
        return false;
    PlanOptions options;
    options.applyToMembers = !d->members->isHidden() && d->members->isChecked();
    options.membersOption = tr("“Also set it on the member disks”");
    d->confirmPlan = confirm;
    d->planTicket = d->session->plan(changes, options);
    setBusy(true);
    return true;
}

void TuningPanel::planArrived(const ChangePlan &plan)
{
    d->planTicket = 0;
    if (!plan.ok()) {
        QStringList lines;
        for (const Error &e : plan.errors)
            lines << e.message;
        setMessage(tr("Nothing was changed:\n%1").arg(lines.join(u'\n')));
        d->trying = false;
        setBusy(false);
        Q_EMIT applied(false);
        return;
    }
    if (!d->confirmPlan) {
        startApply(plan);
        return;
    }
    // The preview is the plan itself: what it lists is what is written.
    d->confirm = new ChangePreviewDialog(d->trying ? tr("Try these changes for %n s?", nullptr, format::kTrySeconds)
                                                   : tr("Apply these changes?"),
                                         d->trying ? tr("Try for %n s", nullptr, format::kTrySeconds) : tr("Apply"),
                                         this);
    d->confirm->setAttribute(Qt::WA_DeleteOnClose);
    d->confirm->setScope(d->trying ? ChangePreviewDialog::trialScope(format::kTrySeconds)
                                   : ChangePreviewDialog::lastingScope());
    d->confirm->setPlan(plan);
    connect(d->confirm, &QDialog::finished, this, [this, plan](int result) {
        d->confirm = nullptr;
        if (result == QDialog::Accepted) {
            startApply(plan);
        } else {
            d->trying = false;
            setBusy(false);
            Q_EMIT applied(false);
        }
    });
    d->confirm->open();
}

void TuningPanel::startApply(const ChangePlan &plan)
{
    d->applyTicket = d->session->apply(plan, d->trying);
    setBusy(true);
    if (!d->session->state().writerStarted && !d->session->isRecorded())
        setMessage(tr("Writing… (the first change asks for authorization)"));
}

void TuningPanel::applyArrived(const ChangeReport &report)
{
    d->applyTicket = 0;
    QStringList lines = changeReportLines(report, {false, true, false});
    if (report.error)
        lines.prepend(report.error->message);
    setMessage(lines.join(u'\n'));
    if (d->trying) {
        if (report.ok()) {
            d->tryLeft = format::kTrySeconds;
            d->tryTimer.start();
            showTrial();
        } else {
            d->trying = false;
        }
    }
    setBusy(false);
    Q_EMIT settingsChanged(d->device);
    Q_EMIT applied(report.ok());
    reload();
}

bool TuningPanel::tryChanges(bool confirm)
{
    if (d->trying || d->busy())
        return false;
    d->trying = true;
    if (!applyChanges(confirm)) {
        d->trying = false;
        return false;
    }
    return true;
}

int TuningPanel::trialSecondsLeft() const
{
    return d->trying && d->tryTimer.isActive() ? d->tryLeft : 0;
}

void TuningPanel::showTrial()
{
    d->keep->setVisible(d->trying);
    d->restoreNow->setVisible(d->trying);
    d->tryIt->setVisible(!d->trying && d->session->readOnlyReason().isEmpty());
    if (d->trying)
        Q_EMIT message(tr("Trying: restored in %n s unless kept", nullptr, d->tryLeft));
}

void TuningPanel::keepTrial()
{
    if (!d->trying)
        return;
    d->tryTimer.stop();
    d->trying = false;
    d->session->keepTemporary();
    showTrial();
    setMessage(tr("Kept. Revert session still takes it back."));
    updateDirty();
}

void TuningPanel::endTrial()
{
    if (!d->trying)
        return;
    d->tryTimer.stop();
    d->trying = false;
    showTrial();
    d->tryRestoreTicket = d->session->restoreTemporary();
    setBusy(true);
}

void TuningPanel::revertSession()
{
    if (d->busy())
        return;
    d->revertTicket = d->session->revertAll();
    setBusy(true);
}

void TuningPanel::revertArrived(const RestoreReport &report)
{
    d->revertTicket = 0;
    d->tryRestoreTicket = 0;
    int restored = 0;
    for (const RestoreItem &item : report.items)
        restored += item.status == RestoreStatus::Restored ? 1 : 0;
    if (report.ok())
        setMessage(tr("Restored %n setting(s) to their values from before this session.", nullptr, restored));
    else
        setMessage(tr("Revert failed: %1").arg(report.messages.join(u"; ")));
    setBusy(false);
    Q_EMIT settingsChanged(d->device);
    reload();
}

} // namespace blocktune
