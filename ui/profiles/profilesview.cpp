// The Profiles page: a view over core/profiles, with its blocking work on a
// worker thread that drives the console's session.
#include "profilesview.h"

#include "theme.h"

#include "console/consolesession.h"
#include "privilege/privilege.h"
#include "profiles/profiles.h"
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
#include <QPointer>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace blocktune {

namespace {

/// On each cell: whether its row drifted (the tint is redone from it when the theme changes).
constexpr int kDriftRole = Qt::UserRole + 1;
/// On each cell: Apply's preview does not tick its device at first (the row is greyed).
constexpr int kUntickedRole = Qt::UserRole + 2;
/// On the list's items: the profile's origin ("preset", "user", "system").
constexpr int kOriginRole = Qt::UserRole + 3;
/// The table's column that says whether Apply ticks the row's device at first.
constexpr int kTickColumn = 6;

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

// What a device in the preview's list is: the system disk said in words.
QString deviceNote(const BlockDevice &d, const QString &selected)
{
    QStringList parts;
    if (d.name == selected)
        parts << ProfilesView::tr("selected");
    if (!d.systemMounts.isEmpty())
        parts << ProfilesView::tr("holds %1: the system disk").arg(d.systemMounts.join(QStringLiteral(" and ")));
    return parts.join(QStringLiteral("; "));
}

// Where a profile comes from, in the reader's language ("preset", "user",
// "system", "file" are the CLI's and the JSON's names).
QString originText(const QString &origin)
{
    if (origin == u"preset")
        return ProfilesView::tr("preset");
    if (origin == u"user")
        return ProfilesView::tr("user");
    if (origin == u"system")
        return ProfilesView::tr("system");
    if (origin == u"file")
        return ProfilesView::tr("file");
    return origin;
}

// A partition's settings are its disk's: the whole device a name stands for.
QString wholeName(const DeviceModel &model, const QString &name)
{
    const BlockDevice *d = model.find(name);
    return d && !d->isWhole() && !d->queueDevice.isEmpty() ? d->queueDevice : name;
}

// The same writes, to the same values, from the same values.
bool samePlan(const ChangePlan &a, const ChangePlan &b)
{
    if (a.writes.size() != b.writes.size())
        return false;
    for (qsizetype i = 0; i < a.writes.size(); ++i) {
        const PlannedWrite &x = a.writes.at(i);
        const PlannedWrite &y = b.writes.at(i);
        if (x.device != y.device || x.attribute != y.attribute || x.value != y.value || x.current != y.current)
            return false;
    }
    return true;
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
    explicit ProfileWorker(std::shared_ptr<ProfileLibrary> library) : m_library(std::move(library)) {}
    ~ProfileWorker() override = default;

    /// A job of the console's session (ConsoleSession::runJob), whose port
    /// carries each call to the session thread; kept for this call only.
    void run(SessionPort &session, const ProfileRequest &request)
    {
        m_session = &session;
        ProfileResult r;
        r.kind = request.kind;
        r.profile = request.profile;
        r.ticket = request.ticket;
        r.quiet = request.quiet;
        switch (request.kind) {
        case ProfileResult::List: list(r); break;
        case ProfileResult::PlanSave: planSave(r, request); break;
        case ProfileResult::Save: save(r, request); break;
        case ProfileResult::Revert: revert(r); break;
        default: withProfile(r, request); break;
        }
        m_session = nullptr;
        Q_EMIT done(r);
    }

Q_SIGNALS:
    void done(const blocktune::ProfileResult &result);

private:
    void list(ProfileResult &r)
    {
        auto entries = m_library->list();
        if (!entries) {
            r.message = entries.error().message;
            return;
        }
        for (const ProfileEntry &e : *entries) {
            r.names << e.name;
            r.origins << profileOriginName(e.origin);
            r.descriptions << (e.error.isEmpty() ? e.description : e.error);
        }
        r.ok = true;
    }

    // The devices "Save current…" can save (every whole device with a
    // readahead and a medium), the page's device ticked at first and only
    // it: never another user's loop or the system disk unless ticked.
    QList<PreviewDevice> saveCandidates(const DeviceModel &model, const ProfileRequest &req)
    {
        QList<PreviewDevice> out;
        const QString selected = wholeName(model, req.selected);
        for (const BlockDevice &d : model.devices()) {
            if (!d.isWhole() || !d.readAheadKiB || d.sizeBytes.value_or(0) == 0)
                continue;
            const bool chosen = req.only ? req.only->contains(d.name) : d.name == selected;
            out << PreviewDevice{d.name, deviceNote(d, selected), chosen, !d.systemMounts.isEmpty()};
        }
        return out;
    }

    // "Save current…" before it writes: what the file would hold for the
    // devices ticked.
    void planSave(ProfileResult &r, const ProfileRequest &req)
    {
        auto model = m_session->model();
        if (!model) {
            r.message = model.error().message;
            return;
        }
        r.devices = saveCandidates(**model, req);
        auto path = m_library->userPath(r.profile);
        if (!path) {
            r.message = path.error().message;
            return;
        }
        r.path = *path;
        QStringList chosen;
        for (const PreviewDevice &d : std::as_const(r.devices))
            if (d.chosen)
                chosen << d.name;
        r.ok = true;
        if (chosen.isEmpty()) {
            r.message = tr("Tick the devices whose settings %1 keeps").arg(r.profile);
            return;
        }
        SaveOptions options;
        options.name = r.profile;
        options.devices = chosen;
        options.changedOnly = req.changedOnly;
        auto saved = saveProfile(m_session->root(), **model, options);
        if (!saved) {
            r.ok = false;
            r.message = saved.error().message;
            return;
        }
        for (const ProfileRule &rule : std::as_const(saved->profile.rules))
            for (const ProfileSetting &setting : rule.settings)
                r.saveRows << PreviewRow{rule.match.describe(), setting.key, {}, setting.text()};
        r.notes = saved->notes;
        r.message = tr("%1 would keep %n rule(s) in %2", nullptr, int(saved->profile.rules.size()))
                        .arg(r.profile, r.path);
    }

    void save(ProfileResult &r, const ProfileRequest &req)
    {
        auto model = m_session->model();
        if (!model) {
            r.message = model.error().message;
            return;
        }
        // Only the devices chosen in the preview: an empty list would mean
        // every device to saveProfile().
        if (!req.only || req.only->isEmpty()) {
            r.message = tr("Nothing saved: no device was chosen");
            return;
        }
        SaveOptions options;
        options.name = r.profile;
        options.devices = *req.only;
        options.changedOnly = req.changedOnly;
        auto saved = saveProfile(m_session->root(), **model, options);
        if (!saved) {
            r.message = saved.error().message;
            return;
        }
        auto path = m_library->save(saved->profile, false);
        if (!path) {
            r.message = path.error().message;
            return;
        }
        r.ok = true;
        r.notes = saved->notes;
        r.message = tr("Saved %n rule(s) as %1", nullptr, int(saved->profile.rules.size())).arg(*path);
    }

    void revert(ProfileResult &r)
    {
        const ProfileRevertReport back = revertProfile(*m_session);
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

    bool isPreset(const QString &name)
    {
        auto entries = m_library->list();
        if (!entries)
            return false;
        for (const ProfileEntry &e : std::as_const(*entries))
            if (e.name == name)
                return e.origin == ProfileOrigin::Preset;
        return false;
    }

    // Apply's preview: the devices the profile changes, and the plan of the
    // ones ticked. At first a preset ticks only the page's device (a preset
    // is written for a kind of device, not for this machine's disks); a
    // profile of this machine ticks every device it changes but the system
    // disk, which only a person ticks.
    void planApply(ProfileResult &r, const Profile &p, const ProfileRequest &req)
    {
        const ProfilePreview all = previewProfile(p, *m_session);
        auto model = m_session->model();
        if (!all.ok() || !model) {
            for (const Error &e : all.errors)
                r.notes << e.message;
            if (!model)
                r.notes << model.error().message;
            r.message = tr("%1 is refused here: nothing would change").arg(p.name);
            return;
        }
        r.preset = isPreset(p.name);
        const QString selected = wholeName(**model, req.selected);
        QStringList changing;
        for (const PlannedWrite &w : all.plan.writes)
            if (!changing.contains(w.device))
                changing << w.device;
        QStringList chosen;
        for (const QString &name : std::as_const(changing)) {
            const BlockDevice *d = (*model)->find(name);
            const bool system = d && !d->systemMounts.isEmpty();
            const bool tick = req.only ? req.only->contains(name)
                                       : (name == selected || (!r.preset && !system));
            if (tick)
                chosen << name;
            r.devices << PreviewDevice{name, d ? deviceNote(*d, selected) : QString(), tick, system};
        }
        const ProfilePreview preview = previewProfile(p, *m_session, chosen);
        r.plan = preview.plan;
        r.notes = resolutionNotes(p, preview.resolution);
        for (const Error &e : preview.errors)
            r.notes << e.message;
        r.ok = preview.ok();
        r.message = tr("%1 would change %n setting(s) on the devices ticked", nullptr, int(preview.plan.writes.size()))
                        .arg(p.name);
    }

    // Apply once the preview was accepted: exactly the plan it showed, or
    // nothing when the machine changed since (planned again, it differs).
    ProfileApplyReport applyShown(const Profile &p, const ProfileRequest &req)
    {
        if (!req.only)
            return applyProfile(p, *m_session); // refused as a whole (a read-only session)
        ProfilePreview now = previewProfile(p, *m_session, *req.only);
        if (now.ok() && !samePlan(now.plan, req.plan)) {
            ProfileApplyReport out;
            out.preview = now;
            out.report.error = makeError(Refused, tr("The devices changed since the preview: nothing was written; "
                                                     "look at the new preview"));
            return out;
        }
        return applyPreviewedProfile(p, now, *m_session);
    }

    // Apply: the preview's plan written, and what happened, per row.
    void applied(ProfileResult &r, const Profile &p, const ProfileRequest &req)
    {
        const ProfileApplyReport done = applyShown(p, req);
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
    }

    void withProfile(ProfileResult &r, const ProfileRequest &req)
    {
        auto profile = m_library->load(r.profile);
        if (!profile) {
            r.message = profile.error().message;
            return;
        }
        const Profile &p = *profile;
        const QString &a = req.a;
        const QString &b = req.b;
        switch (r.kind) {
        case ProfileResult::PlanApply: planApply(r, p, req); break;
        case ProfileResult::Preview: {
            const ProfilePreview preview = previewProfile(p, *m_session);
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
        case ProfileResult::Apply: applied(r, p, req); break;
        case ProfileResult::Verify: {
            // Verify looks at the machine as it is now, changes made elsewhere included.
            auto model = m_session->rescan();
            if (!model) {
                r.message = model.error().message;
                return;
            }
            const VerifyReport v = verifyProfile(p, m_session->root(), **model);
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
            auto done = m_session->changeUdevRules(RulesChange::Install, udevRulesFileName(p.name), text->text);
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

    SessionPort *m_session = nullptr; ///< during run() only
    std::shared_ptr<ProfileLibrary> m_library;
};

struct ProfilesView::Private
{
    ConsoleSession *session = nullptr;
    QThread thread;
    ProfileWorker *worker = nullptr;
    std::shared_ptr<ProfileLibrary> library;
    ProfileWatch *watch = nullptr;
    ProfileResult last;
    bool busy = false;
    int quietPending = 0;       ///< refreshes of its own on their way
    bool relistPending = false; ///< the folders changed while the page was busy
    bool tablePending = false;  ///< a write or hotplug came while it was busy
    /// What the table shows: a preview (also after Apply: the values as they
    /// are now) or a verify, and of which profile; what refreshTable() redoes.
    ProfileResult::Kind tableKind = ProfileResult::Preview;
    QString tableProfile;
    QStringList deviceIdentity; ///< the devices of the model last seen (hotplug)
    QString pendingSelect;
    QStringList listDescriptions;
    QString device;
    QString treeDevice; ///< the tree's selection (setSelectedDevice())
    QList<ProfileRow> rows;     ///< the table's rows as the worker gave them
    bool rowsArePreview = false; ///< they preview Apply (its ticks are shown)

    /// The device a preview ticks at first: the page's, else the tree's.
    QString target() const { return device.isEmpty() ? treeDevice : device; }

    QListWidget *list = nullptr;
    QLabel *description = nullptr;
    QTableWidget *table = nullptr;
    QLabel *notes = nullptr;
    QLabel *status = nullptr;
    QLabel *deviceLabel = nullptr;
    QCheckBox *onlyDevice = nullptr;
    QLabel *readOnly = nullptr; ///< why nothing can be written, when so
    QPushButton *previewButton = nullptr;
    QPushButton *applyButton = nullptr;
    QPushButton *verifyButton = nullptr;
    QPushButton *revertButton = nullptr;
    QPushButton *saveButton = nullptr;
    QPushButton *exportButton = nullptr;
    QPushButton *installButton = nullptr;
    QList<QPushButton *> buttons; ///< the ones setBusy() turns off and on
    QPointer<ChangePreviewDialog> preview; ///< Apply's or Save's, before it writes
    ProfileRequest previewRequest;         ///< what the preview on screen plans
    quint64 ticket = 0;                    ///< the last plan asked for
};

ProfilesView::ProfilesView(ConsoleSession *session, const ProfileStore &store, QWidget *parent)
    : ProfilesView(session, makeLocalProfileLibrary(store), parent)
{
}

ProfilesView::ProfilesView(ConsoleSession *session, std::shared_ptr<ProfileLibrary> library, QWidget *parent)
    : QWidget(parent), d(std::make_unique<Private>())
{
    d->session = session;
    d->library = library;
    qRegisterMetaType<blocktune::ProfileResult>();
    d->worker = new ProfileWorker(std::move(library));
    d->worker->moveToThread(&d->thread);
    connect(&d->thread, &QThread::finished, d->worker, &QObject::deleteLater);
    connect(d->worker, &ProfileWorker::done, this, &ProfilesView::showResult, Qt::QueuedConnection);
    d->thread.setObjectName(QStringLiteral("profiles"));
    d->thread.start();

    buildWidgets();
    buildButtons();
    layOutWidgets();
    wireSignals();
    watchTruth();
    refresh();
}

void ProfilesView::buildWidgets()
{
    d->list = new QListWidget;
    d->description = new QLabel;
    d->description->setWordWrap(true);
    d->description->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    d->description->setTextInteractionFlags(Qt::TextSelectableByMouse);

    d->table = new QTableWidget(0, 7);
    d->table->setHorizontalHeaderLabels(
        {tr("Device"), tr("Setting"), tr("Current"), tr("New / expected"), tr("Rule"), tr(""), tr("Apply")});
    // Shown beside the device it is about (the columns' numbers stay).
    d->table->horizontalHeader()->moveSection(kTickColumn, 1);
    d->table->horizontalHeaderItem(kTickColumn)
        ->setToolTip(tr("Whether Apply's preview ticks the device at first: the device selected in the tree "
                        "(a preset), or every device but the system disk (a profile of this machine)"));
    // Whole values on one line: the columns take what the rows on screen
    // need (filterRows()), the state takes the rest.
    d->table->setWordWrap(false);
    d->table->horizontalHeader()->setStretchLastSection(true);
    d->table->verticalHeader()->hide();
    d->table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    d->table->setSelectionBehavior(QAbstractItemView::SelectRows);
    d->notes = new QLabel;
    d->notes->setWordWrap(true);
    d->notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->status = new QLabel;
    d->status->setWordWrap(true);

    d->deviceLabel = new QLabel(tr("All devices"));
    d->deviceLabel->setObjectName(QStringLiteral("deviceLabel"));
    d->deviceLabel->setWordWrap(true); // what Apply ticks: a sentence, in German a long one
    d->onlyDevice = new QCheckBox(tr("Only this device"));
    d->onlyDevice->setObjectName(QStringLiteral("onlyDevice"));
    d->onlyDevice->setEnabled(false);

    if (!d->session->readOnlyReason().isEmpty()) {
        d->readOnly = new QLabel(tr("Read-only: %1").arg(d->session->readOnlyReason()));
        d->readOnly->setObjectName(QStringLiteral("readOnlyReason"));
        d->readOnly->setWordWrap(true);
        // The why-not line's colour from the page's palette (readable on a
        // dark theme too), again when the theme changes.
        followPalette(this, [this] {
            // From the page's palette: the label's own keeps the colour set last.
            QPalette own = d->readOnly->palette();
            own.setColor(QPalette::WindowText, warningTextColor(palette()));
            d->readOnly->setPalette(own);
        });
    }
    followPalette(d->table, [this] { tintDriftRows(); });
}

void ProfilesView::buildButtons()
{
    auto button = [this](const QString &text) {
        auto *b = new QPushButton(text);
        d->buttons << b;
        return b;
    };
    d->previewButton = button(tr("Preview"));
    d->applyButton = button(tr("Apply"));
    d->verifyButton = button(tr("Verify"));
    d->revertButton = button(tr("Revert"));
    d->saveButton = button(tr("Save current…"));
    d->exportButton = button(tr("Export…"));
    d->installButton = button(tr("Install at boot"));
    if (!d->session->readOnlyReason().isEmpty())
        for (QPushButton *b : {d->applyButton, d->revertButton, d->installButton}) {
            b->setEnabled(false);
            b->setToolTip(d->session->readOnlyReason());
            d->buttons.removeAll(b); // stays disabled
        }
}

void ProfilesView::layOutWidgets()
{
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(d->list, 2);
    leftLayout->addWidget(d->description, 1);

    // Two rows: what acts on the machine, then what writes files; one row
    // of seven is wider than a German window can be.
    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {d->previewButton, d->applyButton, d->verifyButton, d->revertButton})
        buttons->addWidget(b);
    buttons->addStretch();
    auto *fileButtons = new QHBoxLayout;
    for (QPushButton *b : {d->saveButton, d->exportButton, d->installButton})
        fileButtons->addWidget(b);
    fileButtons->addStretch();

    auto *deviceRow = new QHBoxLayout;
    deviceRow->addWidget(d->deviceLabel, 1);
    deviceRow->addWidget(d->onlyDevice);

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    if (d->readOnly)
        rightLayout->addWidget(d->readOnly);
    rightLayout->addLayout(deviceRow);
    rightLayout->addWidget(d->table, 1);
    rightLayout->addWidget(d->notes);
    rightLayout->addLayout(buttons);
    rightLayout->addLayout(fileButtons);
    rightLayout->addWidget(d->status);

    left->setMinimumWidth(240);
    auto *split = new QSplitter;
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);
    // Tab as the page reads: the list, "Only this device" above the table,
    // the table, then the buttons (the check box was made after the table).
    setTabOrder(d->list, d->onlyDevice);
    setTabOrder(d->onlyDevice, d->table);
    setTabOrder(d->table, d->previewButton);
}

void ProfilesView::wireSignals()
{
    connect(d->previewButton, &QPushButton::clicked, this, &ProfilesView::preview);
    connect(d->applyButton, &QPushButton::clicked, this, &ProfilesView::apply);
    connect(d->verifyButton, &QPushButton::clicked, this, &ProfilesView::verify);
    connect(d->revertButton, &QPushButton::clicked, this, &ProfilesView::revert);
    connect(d->saveButton, &QPushButton::clicked, this, &ProfilesView::askSave);
    connect(d->exportButton, &QPushButton::clicked, this, &ProfilesView::askExport);
    connect(d->installButton, &QPushButton::clicked, this, &ProfilesView::installAtBoot);
    connect(d->onlyDevice, &QCheckBox::toggled, this, &ProfilesView::filterRows);
    connect(d->list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0 || row >= d->listDescriptions.size())
            return;
        d->description->setText(d->listDescriptions.value(row));
        preview();
    });
}

ProfilesView::~ProfilesView()
{
    d->thread.quit();
    d->thread.wait();
}

const ProfileResult &ProfilesView::lastResult() const
{
    return d->last;
}

bool ProfilesView::isBusy() const
{
    return d->busy;
}

QString ProfilesView::device() const
{
    return d->device;
}

QStringList ProfilesView::profileNames() const
{
    QStringList names;
    for (int i = 0; i < d->list->count(); ++i)
        names << d->list->item(i)->data(Qt::UserRole).toString();
    return names;
}

QString ProfilesView::statusText() const
{
    return d->status->text();
}

QString ProfilesView::selectedProfile() const
{
    const QListWidgetItem *item = d->list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void ProfilesView::post(ProfileResult::Kind kind, const QString &profile, const QString &a, const QString &b, bool quiet)
{
    ProfileRequest request;
    request.kind = kind;
    request.profile = profile;
    request.a = a;
    request.b = b;
    request.quiet = quiet;
    post(std::move(request));
}

void ProfilesView::post(ProfileRequest request)
{
    if (request.quiet)
        ++d->quietPending;
    else
        setBusy(true);
    if (request.kind == ProfileResult::Preview || request.kind == ProfileResult::Verify) {
        d->tableKind = request.kind;
        d->tableProfile = request.profile;
    }
    ProfileWorker *worker = d->worker;
    d->session->runJob(worker, [worker, request](const SessionJobContext &job) { worker->run(job.session, request); });
}

ChangePreviewDialog *ProfilesView::changePreview() const
{
    return d->preview;
}

void ProfilesView::watchTruth()
{
    d->watch = d->library->watch(this);
    connect(d->watch, &ProfileWatch::changed, this, &ProfilesView::relist);
    connect(d->watch, &ProfileWatch::stopped, this, [this](const QString &why) { d->status->setText(why); });
    // Whoever wrote (Settings, Advise, a job of this page), the table's
    // "current" and "state" columns are worked out again.
    connect(d->session, &ConsoleSession::happened, this, [this](const SessionEvent &event) {
        d->status->setText(event.text);
        refreshTable();
    });
    // Devices that come or go change what the profile's rules match. The
    // model is published after every job too (a Verify rescans): only a
    // different set of devices counts.
    connect(d->session, &ConsoleSession::modelChanged, this, [this](const ModelSnapshot &model) {
        if (!model)
            return;
        QStringList identity;
        for (const BlockDevice &dev : model->devices())
            identity << QStringLiteral("%1 %2:%3 %4").arg(dev.name).arg(dev.major).arg(dev.minor)
                            .arg(dev.loop ? dev.loop->backingFile : QString());
        if (identity == d->deviceIdentity)
            return;
        const bool first = d->deviceIdentity.isEmpty();
        d->deviceIdentity = identity;
        if (!first)
            refreshTable();
    });
}

void ProfilesView::relist()
{
    if (d->busy || d->quietPending > 0) {
        d->relistPending = true;
        return;
    }
    post(ProfileResult::List, {}, {}, {}, true);
}

void ProfilesView::refreshTable()
{
    if (d->tableProfile.isEmpty())
        return;
    if (d->busy || d->quietPending > 0) {
        d->tablePending = true;
        return;
    }
    post(d->tableKind, d->tableProfile, {}, {}, true);
}

void ProfilesView::refresh()
{
    post(ProfileResult::List, {});
}

void ProfilesView::select(const QString &name)
{
    for (int i = 0; i < d->list->count(); ++i)
        if (d->list->item(i)->data(Qt::UserRole).toString() == name) {
            d->list->setCurrentRow(i);
            return;
        }
    d->pendingSelect = name; // the list is still on its way
}

void ProfilesView::setDevice(const QString &name)
{
    d->device = name;
    d->onlyDevice->setEnabled(!d->target().isEmpty());
    {
        const QSignalBlocker block(d->onlyDevice);
        d->onlyDevice->setChecked(!name.isEmpty());
    }
    layOutRows();
    if (!d->busy)
        preview(); // the device's current values, read now
}

void ProfilesView::setSelectedDevice(const QString &name)
{
    if (d->treeDevice == name)
        return;
    d->treeDevice = name;
    d->onlyDevice->setEnabled(!d->target().isEmpty());
    if (d->device.isEmpty()) {
        const QSignalBlocker block(d->onlyDevice);
        d->onlyDevice->setChecked(d->onlyDevice->isChecked() && !name.isEmpty());
    }
    layOutRows(); // what Apply ticks follows the tree
}

// The device a row's settings belong to, as Apply's preview names it: a
// partition's settings are its disk's.
QString ProfilesView::targetDisk() const
{
    const ModelSnapshot model = d->session->model();
    const QString target = d->target();
    const BlockDevice *dev = model && !target.isEmpty() ? model->find(target) : nullptr;
    return dev && !dev->isWhole() && !dev->queueDevice.isEmpty() ? dev->queueDevice : target;
}

// What the page is for, and what Apply ticks at first, above the table.
void ProfilesView::sayTarget()
{
    const QListWidgetItem *item = d->list->currentItem();
    const bool preset = item && item->data(kOriginRole).toString() == u"preset";
    const QString disk = targetDisk();
    QString text;
    if (!d->device.isEmpty())
        text = tr("Device: %1").arg(d->device);
    else if (!d->rowsArePreview)
        text = tr("All devices");
    else if (preset)
        text = disk.isEmpty() ? tr("All devices; a preset ticks none by itself: select a device in the tree")
                              : tr("All devices; Apply ticks %1 (selected in the tree), others only when you do")
                                    .arg(disk);
    else
        text = tr("All devices; Apply ticks each one but the system disk");
    d->deviceLabel->setText(text);
}

// The rows Apply's preview ticks at first come first, the others are
// greyed and say so, the system disk is named as the preview names it.
void ProfilesView::layOutRows()
{
    sayTarget();
    const ModelSnapshot model = d->session->model();
    const QListWidgetItem *current = d->list->currentItem();
    const bool preset = current && current->data(kOriginRole).toString() == u"preset";
    const QString disk = targetDisk();
    struct Laid
    {
        ProfileRow row;
        QStringList system;
        bool ticked = true;
    };
    QList<Laid> laid;
    for (const ProfileRow &row : std::as_const(d->rows)) {
        const BlockDevice *dev = model ? model->find(row.device) : nullptr;
        const QStringList system = dev ? dev->systemMounts : QStringList();
        laid << Laid{row, system, row.device == disk || (!preset && system.isEmpty())};
    }
    if (d->rowsArePreview)
        std::stable_partition(laid.begin(), laid.end(), [](const Laid &l) { return l.ticked; });
    d->table->setColumnHidden(kTickColumn, !d->rowsArePreview);
    d->table->setRowCount(int(laid.size()));
    for (int i = 0; i < laid.size(); ++i) {
        const Laid &l = laid.at(i);
        const QString systemText = l.system.isEmpty()
                                       ? QString()
                                       : tr("holds %1: the system disk").arg(l.system.join(QStringLiteral(" and ")));
        const QString tick = l.ticked ? tr("ticked")
                             : l.system.isEmpty() ? tr("not ticked by default")
                                                  : tr("not ticked by default; %1").arg(systemText);
        const QStringList cells{l.row.device, l.row.key,  l.row.current, l.row.target,
                                l.row.rule,   l.row.state, d->rowsArePreview ? tick : QString()};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells.at(c));
            item->setData(kDriftRole, l.row.drift);
            item->setData(kUntickedRole, d->rowsArePreview && !l.ticked);
            // Not by colour alone: the state says "drift", the device has the warning icon.
            if (c == 0 && (l.row.drift || !l.system.isEmpty()))
                item->setIcon(semanticIcon(l.row.drift ? Semantic::Drift : Semantic::Warning, d->table));
            if (c == 0 && !l.system.isEmpty())
                item->setToolTip(systemText);
            d->table->setItem(i, c, item);
        }
    }
    tintDriftRows();
    filterRows();
}

void ProfilesView::filterRows()
{
    const QString target = targetDisk();
    const bool only = d->onlyDevice->isChecked() && !target.isEmpty();
    d->table->clearSelection();
    int first = -1;
    for (int r = 0; r < d->table->rowCount(); ++r) {
        const QTableWidgetItem *item = d->table->item(r, 0);
        const bool mine = item && !target.isEmpty() && item->text() == target;
        d->table->setRowHidden(r, only && !mine);
        if (mine) {
            d->table->selectionModel()->select(d->table->model()->index(r, 0),
                                               QItemSelectionModel::Select | QItemSelectionModel::Rows);
            if (first < 0)
                first = r;
        }
    }
    // Sized for the rows now shown (hidden rows do not count).
    d->table->resizeColumnsToContents();
    d->table->resizeRowsToContents();
    if (first >= 0)
        d->table->scrollToItem(d->table->item(first, 0));
}

void ProfilesView::preview()
{
    if (!selectedProfile().isEmpty())
        post(ProfileResult::Preview, selectedProfile());
}

void ProfilesView::apply()
{
    if (selectedProfile().isEmpty() || d->preview)
        return;
    ProfileRequest request;
    request.profile = selectedProfile();
    if (!d->session->readOnlyReason().isEmpty()) {
        // Nothing can be written: the session refuses it, said so at once.
        request.kind = ProfileResult::Apply;
        post(std::move(request));
        return;
    }
    request.kind = ProfileResult::PlanApply;
    request.selected = d->target();
    request.ticket = ++d->ticket;
    d->previewRequest = request;
    post(std::move(request));
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
    if (d->preview)
        return;
    ProfileRequest request;
    request.kind = ProfileResult::PlanSave;
    request.profile = name;
    request.selected = d->target();
    request.changedOnly = changedOnly;
    request.ticket = ++d->ticket;
    d->previewRequest = request;
    post(std::move(request));
}

// A plan for the preview: opens it on the first, fills it in after a
// person ticked other devices (only the answer to the last request).
void ProfilesView::showPlan(const ProfileResult &result)
{
    if (result.ticket != d->ticket)
        return;
    if (!d->preview) {
        if (result.ticket != d->previewRequest.ticket || d->previewRequest.only)
            return; // the preview was closed while this was planned
        openPreview(result);
    }
    if (result.kind == ProfileResult::PlanSave) {
        QStringList notes = result.notes;
        if (!result.ok || result.saveRows.isEmpty())
            d->preview->setRefusal(QStringList{result.message} + notes);
        else
            d->preview->setRows(result.saveRows, notes << tr("Saved as %1; no device setting is changed.").arg(result.path));
        return;
    }
    if (!result.ok) {
        d->preview->setRefusal(QStringList{result.message} + result.notes);
        return;
    }
    ChangePlan plan = result.plan;
    plan.notes << result.notes;
    d->preview->setPlan(plan);
}

void ProfilesView::openPreview(const ProfileResult &result)
{
    const bool save = result.kind == ProfileResult::PlanSave;
    d->preview = new ChangePreviewDialog(save ? tr("Save the current settings as %1?").arg(result.profile)
                                              : result.preset ? tr("Apply the preset %1?").arg(result.profile)
                                                              : tr("Apply the profile %1?").arg(result.profile),
                                         save ? tr("Save") : tr("Apply"), this);
    d->preview->setAttribute(Qt::WA_DeleteOnClose);
    d->preview->setScope(save ? tr("Scope: only the devices ticked are saved, each matched by its most stable "
                                   "identity; nothing on the machine changes.")
                              : ChangePreviewDialog::lastingScope()
                                    + u' ' + tr("Revert (Profiles) brings back what this profile changed."));
    d->preview->setDevices(result.devices);
    connect(d->preview, &ChangePreviewDialog::devicesChanged, this, [this](const QStringList &chosen) {
        d->preview->setPending();
        ProfileRequest request = d->previewRequest;
        request.only = chosen;
        request.ticket = ++d->ticket;
        d->previewRequest = request;
        post(std::move(request));
    });
    connect(d->preview, &QDialog::finished, this, [this](int answer) {
        ProfileRequest request = d->previewRequest;
        const ChangePreviewDialog *shown = d->preview;
        d->preview = nullptr;
        ++d->ticket; // a plan still on its way has no preview to go to
        if (answer != QDialog::Accepted || !shown) {
            d->status->setText(tr("Nothing was changed."));
            return;
        }
        request.kind = request.kind == ProfileResult::PlanSave ? ProfileResult::Save : ProfileResult::Apply;
        request.only = shown->chosenDevices();
        request.plan = shown->plan();
        post(std::move(request));
    });
    d->preview->open();
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
    d->busy = busy;
    for (QPushButton *b : std::as_const(d->buttons))
        b->setEnabled(!busy);
    if (busy)
        d->status->setText(tr("Working…"));
}

void ProfilesView::tintDriftRows()
{
    const QPalette &palette = d->table->palette();
    const QColor background = semanticBackground(Semantic::Drift, palette, QPalette::Base);
    // Greyed, yet readable: a third of the way from the text to the base.
    const QColor greyed = mixColors(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.4);
    for (int r = 0; r < d->table->rowCount(); ++r)
        for (int c = 0; c < d->table->columnCount(); ++c) {
            QTableWidgetItem *item = d->table->item(r, c);
            if (item && item->data(kDriftRole).toBool())
                item->setBackground(background); // the text stays the palette's
            if (item && item->data(kUntickedRole).toBool())
                item->setForeground(greyed);
        }
}

void ProfilesView::showResult(const ProfileResult &result)
{
    if (result.quiet)
        --d->quietPending;
    else
        setBusy(false);
    if (result.kind == ProfileResult::PlanApply || result.kind == ProfileResult::PlanSave) {
        showPlan(result);
    } else {
        if (result.kind == ProfileResult::List)
            showList(result);
        else
            showTable(result);
        if (result.quiet)
            Q_EMIT refreshed(result);
        else
            Q_EMIT finished(d->last);
    }
    // What came while the page was busy, now that it is not.
    if (d->busy || d->quietPending > 0)
        return;
    if (std::exchange(d->relistPending, false)) {
        relist();
        return;
    }
    if (std::exchange(d->tablePending, false))
        refreshTable();
}

void ProfilesView::showList(const ProfileResult &result)
{
    const QString wanted = d->pendingSelect.isEmpty() ? selectedProfile() : d->pendingSelect;
    d->pendingSelect.clear();
    if (!result.ok && result.names.isEmpty()) {
        // The host could not be asked: the list stays, the reason is shown.
        if (!result.quiet)
            d->last = result;
        d->status->setText(result.message);
        return;
    }
    d->listDescriptions = result.descriptions;
    {
        const QSignalBlocker block(d->list);
        d->list->clear();
        for (qsizetype i = 0; i < result.names.size(); ++i) {
            auto *item = new QListWidgetItem(QStringLiteral("%1  (%2)").arg(result.names.at(i), originText(result.origins.at(i))));
            item->setData(Qt::UserRole, result.names.at(i));
            item->setData(kOriginRole, result.origins.at(i));
            item->setToolTip(result.descriptions.at(i));
            d->list->addItem(item);
        }
        d->list->setCurrentRow(-1);
    }
    const QStringList names = result.names;
    if (!result.quiet) {
        d->last = result;
        d->last.message = tr("%n profile(s)", nullptr, int(result.names.size()));
        d->status->setText(d->last.message);
    } else {
        d->last.names = names;
    }
    // Something is always selected, so the page shows a preview at once;
    // the profile shown before stays when it is still there.
    int row = wanted.isEmpty() ? 0 : int(names.indexOf(wanted));
    if (row < 0) {
        row = 0;
        if (result.quiet && !wanted.isEmpty())
            d->status->setText(tr("%1 is gone from the profile folders").arg(wanted));
    }
    if (row >= d->list->count()) {
        d->table->setRowCount(0);
        d->notes->clear();
        d->description->clear();
        d->tableProfile.clear();
        return;
    }
    if (!result.quiet) {
        d->list->setCurrentRow(row); // previews it
        return;
    }
    {
        const QSignalBlocker block(d->list);
        d->list->setCurrentRow(row);
    }
    d->description->setText(d->listDescriptions.value(row));
    // The file may have been rewritten: its table is worked out again.
    const bool verified = d->tableKind == ProfileResult::Verify && names.at(row) == d->tableProfile;
    post(verified ? ProfileResult::Verify : ProfileResult::Preview, names.at(row), {}, {}, true);
}

void ProfilesView::fillTable(const QList<ProfileRow> &rows, bool preview)
{
    d->rows = rows;
    d->rowsArePreview = preview;
    layOutRows();
}

void ProfilesView::showTable(const ProfileResult &result)
{
    if (!result.quiet) {
        d->last = ProfileResult(result);
        d->last.names = profileNames(); // the list stays what was listed
        d->status->setText(result.message);
    } else if (result.profile != selectedProfile()) {
        return; // another profile was chosen meanwhile; its own table comes
    }
    if (!result.quiet || result.ok || !result.rows.isEmpty())
        d->notes->setText(result.notes.join(u'\n'));
    if (result.kind == ProfileResult::Preview || result.kind == ProfileResult::Apply
        || result.kind == ProfileResult::Verify) {
        fillTable(result.rows, result.kind == ProfileResult::Preview);
    }
    if (result.kind == ProfileResult::Save && result.ok)
        refresh();
    if ((result.kind == ProfileResult::Apply || result.kind == ProfileResult::Revert) && result.ok)
        Q_EMIT settingsChanged(); // the panel reads again; the job publishes the model after it
}

} // namespace blocktune

#include "profilesview.moc"
