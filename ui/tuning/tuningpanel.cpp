#include "tuningpanel.h"

#include "common/sysroot.h"
#include "devices/devices.h"
#include "tuning/tuning.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace blocktune {

struct TuningPanelState
{
    explicit TuningPanelState(const QString &sysroot) : root(sysroot) {}

    SysRoot root;
    QString device;
    std::optional<DeviceSettings> settings;
    std::unique_ptr<AttributeWriter> writer; // made on the first write (may start pkexec)
    /// device -> key -> value before this console first changed it.
    QMap<QString, QMap<QString, QString>> originals;
    QString lastMessage;
    bool loading = false;
};

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
    return value ? QString::number(*value) : QString();
}

} // namespace

TuningPanel::TuningPanel(const QString &sysroot, QWidget *parent)
    : QWidget(parent), m_state(std::make_unique<TuningPanelState>(sysroot))
{
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    layout->addWidget(m_title);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    layout->addWidget(m_note);

    auto *raBox = new QGroupBox(tr("Readahead"), this);
    auto *raLayout = new QVBoxLayout(raBox);
    auto *raRow = new QHBoxLayout;
    m_raSlider = new QSlider(Qt::Horizontal, raBox);
    m_raSlider->setRange(0, kSliderSteps);
    m_raSlider->setPageStep(1);
    m_raSlider->setTickPosition(QSlider::TicksBelow);
    m_raSlider->setAccessibleName(tr("Readahead"));
    m_raSpin = new QSpinBox(raBox);
    m_raSpin->setRange(0, 1 << 22);
    m_raSpin->setSuffix(tr(" KiB"));
    m_raSpin->setAccessibleName(tr("Readahead in KiB"));
    raRow->addWidget(m_raSlider, 1);
    raRow->addWidget(m_raSpin);
    raLayout->addLayout(raRow);
    m_raHint = new QLabel(raBox);
    m_raHint->setWordWrap(true);
    raLayout->addWidget(m_raHint);
    m_members = new QCheckBox(tr("Also set it on the member disks"), raBox);
    raLayout->addWidget(m_members);
    layout->addWidget(raBox);

    auto *queueBox = new QGroupBox(tr("Queue"), this);
    auto *form = new QFormLayout(queueBox);
    m_scheduler = new QComboBox(queueBox);
    form->addRow(tr("I/O scheduler"), m_scheduler);
    m_nrRequests = new QSpinBox(queueBox);
    m_nrRequests->setRange(0, 1 << 20);
    form->addRow(tr("nr_requests"), m_nrRequests);
    m_maxSectors = new QSpinBox(queueBox);
    m_maxSectors->setRange(0, 1 << 24);
    m_maxSectors->setSuffix(tr(" KiB"));
    form->addRow(tr("max_sectors_kb"), m_maxSectors);
    m_context = new QLabel(queueBox);
    m_context->setWordWrap(true);
    form->addRow(tr("Context readahead"), m_context);
    layout->addWidget(queueBox);

    auto *ioBox = new QGroupBox(tr("Scheduler tunables"), this);
    auto *ioLayout = new QVBoxLayout(ioBox);
    m_iosched = new QTableWidget(0, 2, ioBox);
    m_iosched->setHorizontalHeaderLabels({tr("Tunable"), tr("Value")});
    m_iosched->horizontalHeader()->setStretchLastSection(true);
    m_iosched->verticalHeader()->hide();
    ioLayout->addWidget(m_iosched);
    layout->addWidget(ioBox, 1);

    auto *buttons = new QHBoxLayout;
    m_apply = new QPushButton(tr("Apply…"), this);
    m_reset = new QPushButton(tr("Reset form"), this);
    m_revert = new QPushButton(tr("Revert session"), this);
    m_revert->setToolTip(tr("Restore every value this console changed since it started"));
    buttons->addWidget(m_apply);
    buttons->addWidget(m_reset);
    buttons->addStretch(1);
    buttons->addWidget(m_revert);
    layout->addLayout(buttons);
    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_result);

    connect(m_raSlider, &QSlider::valueChanged, this, &TuningPanel::readaheadSliderMoved);
    connect(m_raSpin, &QSpinBox::valueChanged, this, &TuningPanel::readaheadSpinChanged);
    connect(m_scheduler, &QComboBox::currentIndexChanged, this, &TuningPanel::updateDirty);
    connect(m_nrRequests, &QSpinBox::valueChanged, this, &TuningPanel::updateDirty);
    connect(m_maxSectors, &QSpinBox::valueChanged, this, &TuningPanel::updateDirty);
    connect(m_iosched, &QTableWidget::itemChanged, this, &TuningPanel::updateDirty);
    connect(m_members, &QCheckBox::toggled, this, &TuningPanel::updateDirty);
    connect(m_apply, &QPushButton::clicked, this, [this] { applyChanges(true); });
    connect(m_reset, &QPushButton::clicked, this, &TuningPanel::reload);
    connect(m_revert, &QPushButton::clicked, this, &TuningPanel::revertSession);
    setDevice(QString());
}

TuningPanel::~TuningPanel() = default;

QString TuningPanel::lastMessage() const
{
    return m_state->lastMessage;
}

void TuningPanel::setMessage(const QString &text)
{
    m_state->lastMessage = text;
    m_result->setText(text);
    Q_EMIT message(text);
}

void TuningPanel::setDevice(const QString &name)
{
    m_state->device = name;
    reload();
}

void TuningPanel::reload()
{
    m_state->loading = true;
    m_state->settings.reset();
    const QString name = m_state->device;
    std::optional<DeviceSettings> s;
    QString error;
    if (!name.isEmpty()) {
        auto model = DeviceModel::scan(m_state->root, ScanOptions{ScanOptions::Enumerate::Auto, false});
        if (!model) {
            error = model.error().message;
        } else {
            auto read = readDeviceSettings(m_state->root, *model, name);
            if (read)
                s = *read;
            else
                error = read.error().message;
        }
    }
    const bool usable = s.has_value() && s->readAheadKiB.has_value();
    for (QWidget *w : std::initializer_list<QWidget *>{m_raSlider, m_raSpin, m_scheduler, m_nrRequests,
                                                       m_maxSectors, m_iosched, m_members})
        w->setEnabled(usable);
    m_apply->setEnabled(false);
    m_reset->setEnabled(usable);
    m_revert->setEnabled(!m_state->originals.isEmpty());
    m_iosched->setRowCount(0);
    m_scheduler->clear();
    if (!s) {
        m_title->setText(name.isEmpty() ? tr("Select a device to tune") : tr("%1: cannot read settings").arg(name));
        m_note->setText(error);
        m_raHint->clear();
        m_context->clear();
        m_state->loading = false;
        return;
    }
    m_state->settings = s;
    m_title->setText(s->isPartition ? tr("%1 (settings of its disk %2)").arg(s->name, s->queueDevice)
                                    : tr("%1").arg(s->name));
    m_note->setText(s->notes.join(u'\n'));
    m_note->setVisible(!s->notes.isEmpty());
    const quint64 ra = s->readAheadKiB.value_or(0);
    m_raSpin->setValue(int(std::min<quint64>(ra, quint64(m_raSpin->maximum()))));
    m_raSlider->setValue(sliderPositionFor(ra));
    m_members->setVisible(!s->memberDisks.isEmpty());
    m_members->setChecked(false);
    m_members->setText(tr("Also set it on the member disks (%1)").arg(s->memberDisks.join(u", ")));

    m_scheduler->addItems(s->schedulers);
    m_scheduler->setCurrentText(s->scheduler);
    m_scheduler->setEnabled(s->schedulers.size() > 1);
    m_nrRequests->setEnabled(s->nrRequestsRange.has_value());
    if (s->nrRequestsRange) {
        m_nrRequests->setRange(int(s->nrRequestsRange->min), int(std::min<quint64>(s->nrRequestsRange->max, 1 << 20)));
    }
    m_nrRequests->setValue(int(s->nrRequests.value_or(0)));
    m_maxSectors->setRange(int(s->maxSectorsRange.min), int(std::min<quint64>(s->maxSectorsRange.max, 1 << 24)));
    m_maxSectors->setValue(int(s->maxSectorsKiB.value_or(0)));
    m_maxSectors->setToolTip(tr("At most max_hw_sectors_kb = %1 KiB").arg(fmtOptional(s->maxHwSectorsKiB)));
    if (s->contextReadaheadSwitch.isEmpty())
        m_context->setText(tr("built in and always on since Linux 2.6.31 (this kernel has no switch)"));
    else
        m_context->setText(tr("%1 (switch: %2)").arg(s->contextReadahead.value_or(false) ? tr("on") : tr("off"),
                                                    s->contextReadaheadSwitch));
    m_iosched->setRowCount(int(s->iosched.size()));
    for (int i = 0; i < s->iosched.size(); ++i) {
        auto *nameItem = new QTableWidgetItem(s->iosched[i].name);
        nameItem->setFlags(nameItem->flags() & ~Qt::ItemIsEditable);
        m_iosched->setItem(i, 0, nameItem);
        m_iosched->setItem(i, 1, new QTableWidgetItem(s->iosched[i].value));
    }
    m_state->loading = false;
    updateReadaheadHint();
    updateDirty();
}

void TuningPanel::readaheadSliderMoved(int position)
{
    if (m_state->loading)
        return;
    const quint64 kib = kibForSliderPosition(position);
    if (sliderPositionFor(quint64(m_raSpin->value())) != position)
        m_raSpin->setValue(int(kib));
}

void TuningPanel::readaheadSpinChanged(int kib)
{
    if (!m_state->loading) {
        const QSignalBlocker block(m_raSlider);
        m_raSlider->setValue(sliderPositionFor(quint64(kib)));
    }
    updateReadaheadHint();
    updateDirty();
}

void TuningPanel::updateReadaheadHint()
{
    const quint64 kib = quint64(m_raSpin->value());
    QString hint = tr("%1 KiB = %2 sectors (blockdev --setra %2)").arg(kib).arg(kib * 2);
    if (m_state->settings && m_state->settings->readaheadFloorKiB) {
        const quint64 floor = *m_state->settings->readaheadFloorKiB;
        if (kib < floor)
            hint += u'\n' + tr("Below the kernel's floor of %1 KiB (2 x stripe): re-assembly or a reshape raises it again.").arg(floor);
        else
            hint += u'\n' + tr("Kernel floor for this array: %1 KiB (2 x stripe).").arg(floor);
    }
    m_raHint->setText(hint);
}

static QList<SettingChange> collectChanges(const DeviceSettings &s, quint64 ra, const QString &scheduler,
                                           int nrRequests, int maxSectors, const QTableWidget *iosched)
{
    QList<SettingChange> changes;
    const QString dev = s.name;
    if (s.readAheadKiB && ra != *s.readAheadKiB)
        changes.append({dev, QStringLiteral("read_ahead_kb"), QString::number(ra)});
    if (!scheduler.isEmpty() && scheduler != s.scheduler)
        changes.append({dev, QStringLiteral("scheduler"), scheduler});
    if (s.nrRequestsRange && s.nrRequests && quint64(nrRequests) != *s.nrRequests && scheduler == s.scheduler)
        changes.append({dev, QStringLiteral("nr_requests"), QString::number(nrRequests)});
    if (s.maxSectorsKiB && quint64(maxSectors) != *s.maxSectorsKiB)
        changes.append({dev, QStringLiteral("max_sectors_kb"), QString::number(maxSectors)});
    // Tunables belong to the active scheduler; a switch brings its own.
    if (scheduler == s.scheduler) {
        for (int row = 0; row < iosched->rowCount() && row < s.iosched.size(); ++row) {
            const QString value = iosched->item(row, 1) ? iosched->item(row, 1)->text().trimmed() : QString();
            if (value != s.iosched[row].value)
                changes.append({dev, u"iosched." + s.iosched[row].name, value});
        }
    }
    return changes;
}

void TuningPanel::updateDirty()
{
    if (m_state->loading || !m_state->settings)
        return;
    const auto changes = collectChanges(*m_state->settings, quint64(m_raSpin->value()), m_scheduler->currentText(),
                                        m_nrRequests->value(), m_maxSectors->value(), m_iosched);
    m_apply->setEnabled(!changes.isEmpty());
}

bool TuningPanel::applyChanges(bool confirm)
{
    if (!m_state->settings)
        return false;
    const DeviceSettings &s = *m_state->settings;
    const QList<SettingChange> changes = collectChanges(s, quint64(m_raSpin->value()), m_scheduler->currentText(),
                                                        m_nrRequests->value(), m_maxSectors->value(), m_iosched);
    if (changes.isEmpty())
        return false;
    PlanOptions options;
    options.applyToMembers = !m_members->isHidden() && m_members->isChecked();

    auto model = DeviceModel::scan(m_state->root, ScanOptions{ScanOptions::Enumerate::Auto, false});
    if (!model) {
        setMessage(model.error().message);
        return false;
    }
    const ChangePlan plan = planChanges(m_state->root, *model, changes, options);
    if (!plan.ok()) {
        QStringList lines;
        for (const Error &e : plan.errors)
            lines << e.message;
        setMessage(tr("Nothing was changed:\n%1").arg(lines.join(u'\n')));
        return false;
    }
    if (confirm) {
        QStringList lines;
        for (const PlannedWrite &w : plan.writes)
            lines << tr("%1 %2: %3 → %4").arg(w.device, w.attribute, w.current.isEmpty() ? tr("(new)") : w.current, w.value);
        QString text = lines.join(u'\n');
        if (!plan.warnings.isEmpty())
            text += u"\n\n" + tr("Warnings:") + u'\n' + plan.warnings.join(u'\n');
        if (!plan.notes.isEmpty())
            text += u"\n\n" + plan.notes.join(u'\n');
        if (QMessageBox::question(this, tr("Apply these changes?"), text) != QMessageBox::Yes)
            return false;
    }

    if (!m_state->writer)
        m_state->writer = makeAttributeWriter(m_state->root);
    Tuner tuner(m_state->root, *m_state->writer);
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const ChangeReport report = tuner.apply(changes, options);
    QApplication::restoreOverrideCursor();

    QStringList lines;
    for (const SettingOutcome &o : report.outcomes) {
        QString line = tr("%1 %2: %3").arg(o.write.device, o.write.attribute, settingStatusName(o.status));
        if (o.status == SettingStatus::Applied) {
            line += u' ' + o.kept;
            auto &orig = m_state->originals[o.write.device];
            if (!orig.contains(o.write.attribute))
                orig.insert(o.write.attribute, o.write.current);
        }
        if (!o.message.isEmpty())
            line += u" (" + o.message + u')';
        lines << line;
    }
    if (report.error)
        lines.prepend(report.error->message);
    setMessage(lines.join(u'\n'));
    Q_EMIT settingsChanged(s.name);
    reload();
    return report.ok();
}

void TuningPanel::revertSession()
{
    if (m_state->originals.isEmpty())
        return;
    QList<SettingChange> changes;
    for (auto dev = m_state->originals.cbegin(); dev != m_state->originals.cend(); ++dev) {
        // Scheduler first: switching back resets its tunables and nr_requests.
        const QString scheduler(attribute::Scheduler);
        if (dev->contains(scheduler))
            changes.append({dev.key(), QStringLiteral("scheduler"), dev->value(scheduler)});
        for (auto it = dev->cbegin(); it != dev->cend(); ++it) {
            if (it.key() == scheduler || it.value().isEmpty())
                continue;
            QString key = it.key();
            if (key.startsWith(attribute::IoschedPrefix))
                key = u"iosched." + key.mid(attribute::IoschedPrefix.size());
            else if (key == attribute::VmContextReadahead)
                key = QStringLiteral("context_readahead");
            changes.append({dev.key(), key, it.value()});
        }
    }
    if (!m_state->writer)
        m_state->writer = makeAttributeWriter(m_state->root);
    Tuner tuner(m_state->root, *m_state->writer);
    const ChangeReport report = tuner.apply(changes);
    if (report.ok()) {
        m_state->originals.clear();
        setMessage(tr("Restored %n setting(s) to their values from before this session.", nullptr,
                      int(report.outcomes.size())));
    } else {
        setMessage(tr("Revert failed: %1").arg(report.error ? report.error->message : QString()));
    }
    Q_EMIT settingsChanged(m_state->device);
    reload();
}

} // namespace blocktune
