// The Profiles page: a view over core/profiles, with its blocking work on a
// worker thread that drives the console's session.
#include "profilesview.h"

#include "privilege/privilege.h"
#include "profiles/profiles.h"
#include "session/sessionthread.h"
#include "format.h"

#include <QCoreApplication>
#include <QCheckBox>

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace blocktune {

namespace {

QString ruleText(const Profile &p, int rule)
{
    return QStringLiteral("%1 (%2)").arg(ruleLabel(rule), p.rules.at(rule).match.describe());
}

ProfileRow previewRow(const Profile &p, const ResolvedSetting &r)
{
    ProfileRow row;
    row.device = r.device;
    row.key = r.setting.key;
    row.current = r.current;
    row.rule = ruleText(p, r.rule);
    switch (r.state) {
    case ResolvedState::Change:
        row.target = r.target;
        row.state = r.reason.isEmpty() ? ProfilesView::tr("change") : ProfilesView::tr("change: %1").arg(r.reason);
        break;
    case ResolvedState::Unchanged: row.state = ProfilesView::tr("unchanged"); break;
    case ResolvedState::Kept: row.state = ProfilesView::tr("kept: %1").arg(r.reason); break;
    case ResolvedState::Skipped: row.state = ProfilesView::tr("skipped: %1").arg(r.reason); break;
    }
    return row;
}

QStringList resolutionNotes(const Profile &p, const ProfileResolution &res)
{
    QStringList notes;
    if (!res.unmatchedDevices.isEmpty())
        notes << ProfilesView::tr("Devices no rule matched: %1").arg(res.unmatchedDevices.join(QStringLiteral(", ")));
    for (int r : res.unmatchedRules)
        notes << ProfilesView::tr("Rule that matched nothing: %1").arg(ruleText(p, r));
    for (const FloorOverride &f : res.floorOverrides)
        notes << ProfilesView::tr("%1: read_ahead_kb %2 is below the kernel's floor of %3 KiB (2 x stripe): re-assembly or "
                    "a reshape raises it again")
                     .arg(f.device, format::count(f.valueKiB), format::count(f.floorKiB));
    return notes;
}

Status writeText(const QString &path, const QByteArray &data)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit())
        return makeError(Refused, ProfilesView::tr("cannot write %1: %2").arg(path, f.errorString()));
    return {};
}

} // namespace

/// Runs the page's operations on its own thread, one at a time.
class ProfileWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProfileWorker)

public:
    ProfileWorker(TuningSession &session, ProfileStore store) : m_session(session), m_store(std::move(store)) {}
    ~ProfileWorker() override = default;

    void run(ProfileResult::Kind kind, const QString &name, const QString &a, const QString &b)
    {
        ProfileResult r;
        r.kind = kind;
        r.profile = name;
        switch (kind) {
        case ProfileResult::List: list(r); break;
        case ProfileResult::Save: save(r, b == u"changed"); break;
        case ProfileResult::Revert: revert(r); break;
        default: withProfile(r, a, b); break;
        }
        Q_EMIT done(r);
    }

Q_SIGNALS:
    void done(const blocktune::ProfileResult &result);

private:
    void list(ProfileResult &r)
    {
        for (const ProfileEntry &e : m_store.list()) {
            r.names << e.name;
            r.origins << profileOriginName(e.origin);
            r.descriptions << (e.error.isEmpty() ? e.description : e.error);
        }
        r.ok = true;
    }

    void save(ProfileResult &r, bool changedOnly)
    {
        auto model = m_session.model();
        if (!model) {
            r.message = model.error().message;
            return;
        }
        SaveOptions options;
        options.name = r.profile;
        options.changedOnly = changedOnly;
        auto saved = saveProfile(m_session.root(), **model, options);
        if (!saved) {
            r.message = saved.error().message;
            return;
        }
        const QString path = m_store.userPath(r.profile);
        if (Status st = writeProfileFile(saved->profile, path, false); !st) {
            r.message = st.error().message;
            return;
        }
        r.ok = true;
        r.notes = saved->notes;
        r.message = tr("Saved %n rule(s) as %1", nullptr, int(saved->profile.rules.size())).arg(path);
    }

    void revert(ProfileResult &r)
    {
        const ProfileRevertReport back = revertProfile(m_session);
        r.ok = back.ok();
        int restored = 0;
        for (const RestoreItem &i : back.restore.items) {
            restored += i.status == RestoreStatus::Restored;
            if (i.status == RestoreStatus::Failed || i.status == RestoreStatus::DeviceChanged)
                r.notes << QStringLiteral("%1 %2: %3").arg(i.entry.device, i.entry.attribute, i.message);
        }
        r.notes << back.restore.messages;
        r.message = back.state ? tr("Reverted %1: %n value(s) restored", nullptr, restored)
                                     .arg(back.state->profiles.join(QStringLiteral(", ")))
                               : tr("Nothing to revert: no profile was applied since the last revert");
    }

    void withProfile(ProfileResult &r, const QString &a, const QString &b)
    {
        auto profile = m_store.load(r.profile);
        if (!profile) {
            r.message = profile.error().message;
            return;
        }
        const Profile &p = *profile;
        switch (r.kind) {
        case ProfileResult::Preview: {
            const ProfilePreview preview = previewProfile(p, m_session);
            for (const ResolvedSetting &s : preview.resolution.settings)
                r.rows << previewRow(p, s);
            r.notes = resolutionNotes(p, preview.resolution);
            for (const Error &e : preview.errors)
                r.notes << e.message;
            r.ok = preview.ok();
            r.message = preview.ok() ? tr("%1 would change %n setting(s)", nullptr, int(preview.plan.writes.size())).arg(p.name)
                                     : tr("%1 is refused here: nothing would change").arg(p.name);
            break;
        }
        case ProfileResult::Apply: {
            const ProfileApplyReport done = applyProfile(p, m_session);
            for (const ResolvedSetting &s : done.preview.resolution.settings)
                r.rows << previewRow(p, s);
            r.notes = resolutionNotes(p, done.preview.resolution);
            for (const Error &e : done.preview.errors)
                r.notes << e.message;
            r.notes << done.messages;
            r.ok = done.ok();
            if (done.nothingToDo())
                r.message = tr("Nothing to change: every device already is as %1 says").arg(p.name);
            else if (done.ok())
                r.message = tr("Applied %1: %n write(s); Revert brings the values before back", nullptr,
                               int(done.report.outcomes.size())).arg(p.name);
            else
                r.message = done.report.error ? done.report.error->message : tr("refused");
            break;
        }
        case ProfileResult::Verify: {
            // Verify looks at the machine as it is now, changes made elsewhere included.
            auto model = m_session.rescan();
            if (!model) {
                r.message = model.error().message;
                return;
            }
            const VerifyReport v = verifyProfile(p, m_session.root(), **model);
            for (const ResolvedSetting &s : v.resolution.settings) {
                if (s.state == ResolvedState::Skipped)
                    continue;
                ProfileRow row{s.device, s.setting.key, s.current, s.setting.text(), ruleText(p, s.rule),
                               s.satisfied ? tr("matches") : tr("drift"), !s.satisfied};
                r.rows << row;
            }
            for (const Error &e : v.resolution.errors)
                r.notes << e.message;
            r.ok = v.ok();
            r.message = v.resolution.ok() ? (v.drifts.isEmpty() ? tr("No drift: %n setting(s) as %1 says", nullptr,
                                                                         int(v.matching)).arg(p.name)
                                                                : tr("%n drift(s) from %1", nullptr,
                                                                     int(v.drifts.size())).arg(p.name))
                                          : tr("%1 does not resolve here").arg(p.name);
            break;
        }
        case ProfileResult::Export: {
            auto text = a == u"tuned" ? exportTuned(p) : exportUdevRules(p);
            if (!text) {
                r.message = text.error().message;
                return;
            }
            if (Status st = writeText(b, text->text); !st) {
                r.message = st.error().message;
                return;
            }
            r.notes = text->warnings;
            r.ok = true;
            r.message = tr("Exported %1 as %2 to %3").arg(p.name, a, b);
            break;
        }
        case ProfileResult::Install: {
            auto text = exportUdevRules(p);
            if (!text) {
                r.message = text.error().message;
                return;
            }
            // Through the session's writer: as a user, the helper it started already.
            auto done = m_session.changeUdevRules(RulesChange::Install, udevRulesFileName(p.name), text->text);
            if (!done) {
                r.message = done.error().message;
                return;
            }
            r.ok = true;
            r.notes = text->warnings;
            r.notes << done->commands << done->message;
            r.message = tr("Installed %1").arg(done->path);
            break;
        }
        default: break;
        }
    }

    TuningSession &m_session;
    ProfileStore m_store;
};

ProfilesView::ProfilesView(SessionThread *session, const ProfileStore &store, QWidget *parent)
    : QWidget(parent), m_session(session)
{
    qRegisterMetaType<blocktune::ProfileResult>();
    m_worker = new ProfileWorker(session->session(), store);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &ProfileWorker::done, this, &ProfilesView::showResult, Qt::QueuedConnection);
    m_thread.setObjectName(QStringLiteral("profiles"));
    m_thread.start();

    m_list = new QListWidget;
    m_description = new QLabel;
    m_description->setWordWrap(true);
    m_description->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list, 2);
    leftLayout->addWidget(m_description, 1);

    m_table = new QTableWidget(0, 6);
    m_table->setHorizontalHeaderLabels({tr("Device"), tr("Setting"), tr("Current"), tr("New / expected"), tr("Rule"), tr("")});
    // Whole values on one line: the columns take what the rows on screen
    // need (filterRows()), the state takes the rest.
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_notes = new QLabel;
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status = new QLabel;
    m_status->setWordWrap(true);

    // Two rows: what acts on the machine, then what writes files; one row
    // of seven is wider than a German window can be.
    auto *buttons = new QHBoxLayout;
    auto *fileButtons = new QHBoxLayout;
    QHBoxLayout *buttonRow = buttons;
    auto button = [&](const QString &text, void (ProfilesView::*slot)()) {
        auto *b = new QPushButton(text);
        connect(b, &QPushButton::clicked, this, slot);
        buttonRow->addWidget(b);
        m_buttons << b;
        return b;
    };
    button(tr("Preview"), &ProfilesView::preview);
    QPushButton *applyButton = button(tr("Apply"), &ProfilesView::apply);
    button(tr("Verify"), &ProfilesView::verify);
    QPushButton *revertButton = button(tr("Revert"), &ProfilesView::revert);
    buttons->addStretch();
    buttonRow = fileButtons;
    button(tr("Save current…"), &ProfilesView::askSave);
    button(tr("Export…"), &ProfilesView::askExport);
    QPushButton *installButton = button(tr("Install at boot"), &ProfilesView::installAtBoot);
    fileButtons->addStretch();
    if (!m_session->readOnlyReason().isEmpty())
        for (QPushButton *b : {applyButton, revertButton, installButton}) {
            b->setEnabled(false);
            b->setToolTip(m_session->readOnlyReason());
            m_buttons.removeAll(b); // stays disabled
        }

    m_deviceLabel = new QLabel(tr("All devices"));
    m_onlyDevice = new QCheckBox(tr("Only this device"));
    m_onlyDevice->setObjectName(QStringLiteral("onlyDevice"));
    m_onlyDevice->setEnabled(false);
    connect(m_onlyDevice, &QCheckBox::toggled, this, &ProfilesView::filterRows);
    auto *deviceRow = new QHBoxLayout;
    deviceRow->addWidget(m_deviceLabel);
    deviceRow->addWidget(m_onlyDevice);
    deviceRow->addStretch();

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    if (!m_session->readOnlyReason().isEmpty()) {
        auto *readOnly = new QLabel(tr("Read-only: %1").arg(m_session->readOnlyReason()));
        readOnly->setObjectName(QStringLiteral("readOnlyReason"));
        readOnly->setWordWrap(true);
        readOnly->setStyleSheet(QStringLiteral("color: #8a5a00"));
        rightLayout->addWidget(readOnly);
    }
    rightLayout->addLayout(deviceRow);
    rightLayout->addWidget(m_table, 1);
    rightLayout->addWidget(m_notes);
    rightLayout->addLayout(buttons);
    rightLayout->addLayout(fileButtons);
    rightLayout->addWidget(m_status);

    left->setMinimumWidth(240);
    auto *split = new QSplitter;
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0 || row >= m_listDescriptions.size())
            return;
        m_description->setText(m_listDescriptions.value(row));
        preview();
    });
    refresh();
}

ProfilesView::~ProfilesView()
{
    m_thread.quit();
    m_thread.wait();
}

QString ProfilesView::selectedProfile() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void ProfilesView::post(ProfileResult::Kind kind, const QString &profile, const QString &a, const QString &b)
{
    setBusy(true);
    ProfileWorker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker, kind, profile, a, b] { worker->run(kind, profile, a, b); },
                              Qt::QueuedConnection);
}

void ProfilesView::refresh()
{
    post(ProfileResult::List, {});
}

void ProfilesView::select(const QString &name)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString() == name) {
            m_list->setCurrentRow(i);
            return;
        }
    m_pendingSelect = name; // the list is still on its way
}

void ProfilesView::setDevice(const QString &name)
{
    m_device = name;
    m_deviceLabel->setText(name.isEmpty() ? tr("All devices") : tr("Device: %1").arg(name));
    m_onlyDevice->setEnabled(!name.isEmpty());
    {
        const QSignalBlocker block(m_onlyDevice);
        m_onlyDevice->setChecked(!name.isEmpty());
    }
    filterRows();
    if (!m_busy)
        preview(); // the device's current values, read now
}

void ProfilesView::filterRows()
{
    const bool only = m_onlyDevice->isChecked() && !m_device.isEmpty();
    m_table->clearSelection();
    int first = -1;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QTableWidgetItem *item = m_table->item(r, 0);
        const bool mine = item && item->text() == m_device;
        m_table->setRowHidden(r, only && !mine);
        if (mine) {
            m_table->selectionModel()->select(m_table->model()->index(r, 0),
                                              QItemSelectionModel::Select | QItemSelectionModel::Rows);
            if (first < 0)
                first = r;
        }
    }
    // Sized for the rows now shown (hidden rows do not count).
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    if (first >= 0)
        m_table->scrollToItem(m_table->item(first, 0));
}

void ProfilesView::preview()
{
    if (!selectedProfile().isEmpty())
        post(ProfileResult::Preview, selectedProfile());
}

void ProfilesView::apply()
{
    if (!selectedProfile().isEmpty())
        post(ProfileResult::Apply, selectedProfile());
}

void ProfilesView::verify()
{
    if (!selectedProfile().isEmpty())
        post(ProfileResult::Verify, selectedProfile());
}

void ProfilesView::revert()
{
    post(ProfileResult::Revert, {});
}

void ProfilesView::saveCurrent(const QString &name, bool changedOnly)
{
    post(ProfileResult::Save, name, {}, changedOnly ? QStringLiteral("changed") : QString());
}

void ProfilesView::exportTo(const QString &format, const QString &path)
{
    if (!selectedProfile().isEmpty())
        post(ProfileResult::Export, selectedProfile(), format, path);
}

void ProfilesView::installAtBoot()
{
    if (!selectedProfile().isEmpty())
        post(ProfileResult::Install, selectedProfile());
}

void ProfilesView::askSave()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Save current settings"),
                                               tr("Profile name (letters, digits, _ . -):"), QLineEdit::Normal, {}, &ok);
    if (!ok || name.isEmpty())
        return;
    const bool changed = QMessageBox::question(this, tr("Save current settings"),
                                               tr("Keep only what differs from the kernel's own defaults?"))
                         == QMessageBox::Yes;
    saveCurrent(name, changed);
}

void ProfilesView::askExport()
{
    const QString name = selectedProfile();
    if (name.isEmpty())
        return;
    const QString udev = tr("udev rules (*.rules)");
    const QString tuned = tr("tuned profile (tuned.conf)");
    QString filter = udev;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export %1").arg(name), udevRulesFileName(name),
                                                      udev + QStringLiteral(";;") + tuned, &filter);
    if (!path.isEmpty())
        exportTo(filter == tuned ? QStringLiteral("tuned") : QStringLiteral("udev"), path);
}

void ProfilesView::setBusy(bool busy)
{
    m_busy = busy;
    for (QPushButton *b : std::as_const(m_buttons))
        b->setEnabled(!busy);
    if (busy)
        m_status->setText(tr("Working…"));
}

void ProfilesView::showResult(const ProfileResult &result)
{
    m_last.kind = result.kind;
    setBusy(false);
    if (result.kind == ProfileResult::List) {
        const QString keep = m_pendingSelect.isEmpty() ? selectedProfile() : m_pendingSelect;
        m_pendingSelect.clear();
        m_listDescriptions = result.descriptions;
        {
            const QSignalBlocker block(m_list);
            m_list->clear();
            for (qsizetype i = 0; i < result.names.size(); ++i) {
                auto *item = new QListWidgetItem(QStringLiteral("%1  (%2)").arg(result.names.at(i), result.origins.at(i)));
                item->setData(Qt::UserRole, result.names.at(i));
                item->setToolTip(result.descriptions.at(i));
                m_list->addItem(item);
            }
            m_list->setCurrentRow(-1);
        }
        m_last = result;
        m_last.message = tr("%n profile(s)", nullptr, int(result.names.size()));
        m_status->setText(m_last.message);
        Q_EMIT finished(m_last);
        // Something is always selected, so the page shows a preview at once.
        if (!keep.isEmpty())
            select(keep);
        else if (m_list->count() > 0)
            m_list->setCurrentRow(0);
        return;
    }
    const QStringList names = m_last.names;
    m_last = result;
    m_last.names = names; // the list stays what was listed
    m_status->setText(result.message);
    m_notes->setText(result.notes.join(u'\n'));
    if (result.kind == ProfileResult::Preview || result.kind == ProfileResult::Apply
        || result.kind == ProfileResult::Verify) {
        m_table->setRowCount(int(result.rows.size()));
        for (int i = 0; i < result.rows.size(); ++i) {
            const ProfileRow &row = result.rows.at(i);
            const QStringList cells{row.device, row.key, row.current, row.target, row.rule, row.state};
            for (int c = 0; c < cells.size(); ++c) {
                auto *item = new QTableWidgetItem(cells.at(c));
                if (row.drift) {
                    item->setBackground(QColor(255, 214, 214));
                    item->setForeground(QColor(140, 0, 0));
                }
                m_table->setItem(i, c, item);
            }
        }
        filterRows();
    }
    if (result.kind == ProfileResult::Save && result.ok)
        refresh();
    if ((result.kind == ProfileResult::Apply || result.kind == ProfileResult::Revert) && result.ok) {
        m_session->publish(); // the session changed from this page's thread
        Q_EMIT settingsChanged();
    }
    Q_EMIT finished(m_last);
}

} // namespace blocktune

#include "profilesview.moc"
