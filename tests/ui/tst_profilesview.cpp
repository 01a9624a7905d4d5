// The console's Profiles page, driven as a user would (offscreen) on a copy
// of a recorded tree: the list with descriptions, the preview table, apply,
// verify with drift highlighted, revert, save current, export; and the
// window keeps repainting while a write is slow.
#include "profilesview.h"
#include "previewsupport.h"
#include "theme.h"
#include "testsupport.h"

#include "console/consolesession.h"
#include "privilege/privilege.h"
#include "profiles/profiles.h"

#include <QCheckBox>
#include <QDir>
#include <QHeaderView>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <cstdio>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QString readAttr(const QString &root, const QString &rel)
{
    QFile f(root + QStringLiteral("/sys/class/block/") + rel);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

bool writeAttr(const QString &root, const QString &rel, const QByteArray &value)
{
    QFile f(root + QStringLiteral("/sys/class/block/") + rel);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(value) == value.size();
}

// Writes through to the tree, each write taking `ms` (an authorization
// prompt, a slow helper).
class SlowWriter final : public AttributeWriter
{
public:
    SlowWriter(SysRoot root, int ms) : m_direct(std::move(root)), m_ms(ms) {}
    Result<WrittenValue> write(const AttributeWrite &request) override
    {
        QThread::msleep(m_ms);
        return m_direct.write(request);
    }
    QString describe() const override { return QStringLiteral("slow"); }

private:
    DirectWriter m_direct;
    int m_ms;
};

// Waits for the next finished() and returns what it carried.
ProfileResult next(QSignalSpy &spy)
{
    if (spy.isEmpty() && !spy.wait(30000))
        return ProfileResult{};
    return spy.takeFirst().at(0).value<ProfileResult>();
}

// Waits for the result of `kind` on `profile`, passing over the others (the
// page previews what the list selects on its own).
ProfileResult nextOf(QSignalSpy &spy, ProfileResult::Kind kind, const QString &profile)
{
    for (int i = 0; i < 10; ++i) {
        const ProfileResult r = next(spy);
        if (r.kind == kind && r.profile == profile)
            return r;
    }
    return ProfileResult{};
}

int rowOf(const QTableWidget *table, const QString &device, const QString &key)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text() == device && table->item(r, 1)->text() == key)
            return r;
    return -1;
}

/// The table's cell of `device`'s `key` row in `column`, empty when there is none.
QString cell(const QTableWidget *table, const QString &device, const QString &key, int column)
{
    const int r = rowOf(table, device, key);
    return r < 0 ? QString() : table->item(r, column)->text();
}

/// The list's tooltip (the profile's description) of `name`.
QString descriptionOf(QListWidget *list, const QString &name)
{
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString() == name)
            return list->item(i)->toolTip();
    return {};
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

} // namespace

class TestProfilesView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_journals;

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
    }

    void listPreviewApplyVerifyRevert()
    {
        QTemporaryDir tree, user;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        SessionOptions options;
        options.writerFactory = [](const SysRoot &root) { return std::make_unique<SlowWriter>(root, 150); };
        ConsoleSession session(SysRoot(tree.path()), options);
        const ProfileStore store(user.path(), tree.path() + u"/etc/blocktune/profiles"_qs,
                                 QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        ProfilesView view(&session, store);
        QSignalSpy done(&view, &ProfilesView::finished);
        QSignalSpy changed(&view, &ProfilesView::settingsChanged);
        view.resize(1000, 600);
        view.show();

        ProfileResult r = next(done);
        QCOMPARE(r.kind, ProfileResult::List);
        QCOMPARE(r.names, (QStringList{u"backup-target"_qs, u"database"_qs, u"desktop-defaults"_qs, u"streaming-md"_qs}));
        auto *list = view.findChild<QListWidget *>();
        QCOMPARE(list->count(), 4);
        QCOMPARE(list->item(3)->text(), u"streaming-md  (preset)"_qs);

        // Choosing a profile shows its description and its preview.
        // The first is previewed at once; choosing another shows its preview.
        r = next(done);
        QCOMPARE(r.kind, ProfileResult::Preview);
        QCOMPARE(r.profile, u"backup-target"_qs);
        view.select(u"streaming-md"_qs);
        r = nextOf(done, ProfileResult::Preview, u"streaming-md"_qs);
        QVERIFY(r.ok);
        const auto *table = view.findChild<QTableWidget *>();
        int md0 = rowOf(table, u"md0"_qs, u"read_ahead_kb"_qs);
        QVERIFY(md0 >= 0);
        QCOMPARE(table->item(md0, 2)->text(), u"8192"_qs);
        QCOMPARE(table->item(md0, 3)->text(), u"32768"_qs);
        QCOMPARE(table->item(md0, 4)->text(), u"rule 1 (type md)"_qs);
        bool described = false;
        for (QLabel *l : view.findChildren<QLabel *>())
            described = described || l->text().startsWith(u"Streaming server on md arrays"_qs);
        QVERIFY(described);
        QVERIFY(r.notes.contains(u"Devices no rule matched: sda"_qs));

        // Apply shows the change first. A preset ticks no device by itself
        // (none is selected here): nothing can be applied until one is.
        view.apply();
        QVERIFY(view.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(view.changePreview() && !view.isBusy(), 30000);
        ChangePreviewDialog *preview = view.changePreview();
        QVERIFY(preview->chosenDevices().isEmpty());
        QVERIFY(!preview->canAccept());
        QVERIFY(tickDevice(preview, u"md0"_qs, true));
        QVERIFY(readyPreview());
        QCOMPARE(preview->chosenDevices(), QStringList{u"md0"_qs});
        const QList<PreviewRow> rows = preview->rows();
        QVERIFY(!rows.isEmpty());
        QVERIFY(std::all_of(rows.cbegin(), rows.cend(), [](const PreviewRow &row) { return row.device == u"md0"_qs; }));
        QVERIFY(std::any_of(rows.cbegin(), rows.cend(), [](const PreviewRow &row) {
            return row.setting == u"read_ahead_kb"_qs && row.current == u"8192"_qs && row.next == u"32768"_qs;
        }));
        QCOMPARE(readAttr(tree.path(), u"md0/queue/read_ahead_kb"_qs), u"8192"_qs); // nothing written yet

        // Accepted: the window goes on repainting while the writes take their time.
        int ticks = 0;
        QTimer timer;
        connect(&timer, &QTimer::timeout, this, [&ticks] { ++ticks; });
        timer.start(20);
        QElapsedTimer clock;
        clock.start();
        preview->accept();
        QVERIFY(view.isBusy());
        r = next(done);
        timer.stop();
        QCOMPARE(r.kind, ProfileResult::Apply);
        QVERIFY2(r.ok, qPrintable(r.message));
        QVERIFY(clock.elapsed() >= 150);
        QVERIFY2(ticks >= 3, qPrintable(QString::number(ticks)));
        QCOMPARE(readAttr(tree.path(), u"md0/queue/read_ahead_kb"_qs), u"32768"_qs);
        QCOMPARE(changed.count(), 1);

        view.verify();
        r = next(done);
        QCOMPARE(r.kind, ProfileResult::Verify);
        QVERIFY(r.ok);
        QVERIFY(std::none_of(r.rows.cbegin(), r.rows.cend(), [](const ProfileRow &row) { return row.drift; }));

        // Changed behind the console's back: verify rescans and shows it, highlighted.
        QVERIFY(writeAttr(tree.path(), u"md0/queue/read_ahead_kb"_qs, "1024"));
        view.verify();
        r = next(done);
        QVERIFY(!r.ok);
        QCOMPARE(r.message, u"1 drift(s) from streaming-md"_qs);
        md0 = rowOf(table, u"md0"_qs, u"read_ahead_kb"_qs);
        QVERIFY(md0 >= 0);
        QCOMPARE(table->item(md0, 2)->text(), u"1024"_qs);
        QCOMPARE(table->item(md0, 3)->text(), u">32768"_qs);
        QCOMPARE(table->item(md0, 5)->text(), u"drift"_qs);
        QCOMPARE(table->item(md0, 0)->background().color(), semanticBackground(Semantic::Drift, table->palette()));
        QVERIFY(!table->item(md0, 0)->icon().isNull()); // not by colour alone
        const int sdb = rowOf(table, u"sdb"_qs, u"scheduler"_qs);
        QCOMPARE(table->item(sdb, 5)->text(), u"matches"_qs);
        QVERIFY(table->item(sdb, 0)->background().style() == Qt::NoBrush);

        view.revert();
        r = next(done);
        QCOMPARE(r.kind, ProfileResult::Revert);
        QVERIFY2(r.ok, qPrintable(r.notes.join(u'\n')));
        QCOMPARE(readAttr(tree.path(), u"md0/queue/read_ahead_kb"_qs), u"8192"_qs);
    }

    void saveAndExport()
    {
        QTemporaryDir tree, user, out;
        QVERIFY(copyTree(recordedTree("raid5-degraded"), tree.path()));
        ConsoleSession session(SysRoot(tree.path()));
        const ProfileStore store(user.path(), tree.path() + u"/etc/blocktune/profiles"_qs,
                                 QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        ProfilesView view(&session, store);
        QSignalSpy done(&view, &ProfilesView::finished);
        QCOMPARE(next(done).kind, ProfileResult::List);
        QCOMPARE(next(done).kind, ProfileResult::Preview);

        view.saveCurrent(u"nas"_qs, true);
        // No device is selected: the preview ticks none, so nothing can be
        // saved until a person ticks them (here: all of them).
        QTRY_VERIFY_WITH_TIMEOUT(view.changePreview() && !view.isBusy(), 30000);
        QVERIFY(!view.changePreview()->canAccept());
        auto *devices = view.changePreview()->findChild<QListWidget *>(u"previewDevices"_qs);
        QVERIFY(devices->count() >= 5); // md0, sda..sde
        for (int i = 0; i < devices->count(); ++i)
            devices->item(i)->setCheckState(Qt::Checked);
        QVERIFY(acceptPreview());
        ProfileResult r = next(done);
        QCOMPARE(r.kind, ProfileResult::Save);
        QVERIFY2(r.ok, qPrintable(r.message));
        QVERIFY(QFile::exists(user.filePath(u"nas.json"_qs)));
        r = next(done); // the list again, now with it
        QCOMPARE(r.kind, ProfileResult::List);
        QVERIFY(r.names.contains(u"nas"_qs));
        QCOMPARE(next(done).kind, ProfileResult::Preview); // of what stays selected
        view.saveCurrent(u"nas"_qs, true); // taken: refused, said so
        QTRY_VERIFY_WITH_TIMEOUT(view.changePreview() && !view.isBusy(), 30000);
        devices = view.changePreview()->findChild<QListWidget *>(u"previewDevices"_qs);
        for (int i = 0; i < devices->count(); ++i)
            devices->item(i)->setCheckState(Qt::Checked);
        QVERIFY(acceptPreview());
        r = next(done);
        QVERIFY(!r.ok);
        QVERIFY(r.message.contains(u"exists already"_qs));

        view.select(u"nas"_qs);
        QVERIFY(nextOf(done, ProfileResult::Preview, u"nas"_qs).ok);
        view.exportTo(u"udev"_qs, out.filePath(u"nas.rules"_qs));
        r = next(done);
        QVERIFY2(r.ok, qPrintable(r.message));
        QFile rules(out.filePath(u"nas.rules"_qs));
        QVERIFY(rules.open(QIODevice::ReadOnly));
        const QByteArray text = rules.readAll();
        QVERIFY(text.startsWith("# Generated by blocktune from profile 'nas'"));
        QVERIFY(checkUdevRulesContent(text).ok());
        view.exportTo(u"tuned"_qs, out.filePath(u"tuned.conf"_qs));
        r = next(done);
        QVERIFY(r.ok);
        QFile conf(out.filePath(u"tuned.conf"_qs));
        QVERIFY(conf.open(QIODevice::ReadOnly));
        QVERIFY(conf.readAll().contains("elevator=bfq\n"));
    }

    // A profile saved by `blocktune-cli profile save` appears without a
    // restart, into a folder that did not exist when the page opened; an
    // editor's save (a temporary file renamed over the profile) shows its
    // new description; a profile in the machine's folder, made later too,
    // appears; a removed one goes, and the page says the one it showed went.
    void profileFoldersAreFollowed()
    {
        QTemporaryDir tree, home;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        const QString config = home.filePath(u"config"_qs);
        const QString userDir = config + u"/blocktune/profiles"_qs;
        const QString systemDir = tree.path() + u"/etc/blocktune/profiles"_qs;
        QVERIFY(!QFileInfo::exists(config) && !QFileInfo::exists(systemDir));
        ConsoleSession session(SysRoot(tree.path()));
        const ProfileStore store(userDir, systemDir, QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        ProfilesView view(&session, store);
        QSignalSpy done(&view, &ProfilesView::finished);
        QCOMPARE(next(done).kind, ProfileResult::List);
        QCOMPARE(next(done).kind, ProfileResult::Preview);
        QVERIFY(!view.profileNames().contains(u"fleet-a"_qs));
        auto *list = view.findChild<QListWidget *>();

        // The CLI saves into the user's folder, made by it now.
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_CONFIG_HOME"_qs, config);
        cli.setProcessEnvironment(env);
        cli.start(binary("blocktune-cli"), {u"--sysroot"_qs, tree.path(), u"profile"_qs, u"save"_qs, u"--name"_qs,
                                            u"fleet-a"_qs, u"--description"_qs, u"Saved by the CLI."_qs});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QVERIFY(QFileInfo::exists(userDir + u"/fleet-a.json"_qs));
        QTRY_VERIFY_WITH_TIMEOUT(view.profileNames().contains(u"fleet-a"_qs), 30000);
        QCOMPARE(descriptionOf(list, u"fleet-a"_qs), u"Saved by the CLI."_qs);
        view.select(u"fleet-a"_qs);
        QVERIFY(nextOf(done, ProfileResult::Preview, u"fleet-a"_qs).ok);

        // An editor's save: the new text in a temporary file, renamed over it.
        QFile saved(userDir + u"/fleet-a.json"_qs);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QByteArray text = saved.readAll();
        saved.close();
        text.replace("Saved by the CLI.", "Edited by hand.");
        QVERIFY(writeFile(userDir + u"/.fleet-a.json.swp"_qs, text));
        QVERIFY(::rename(qPrintable(userDir + u"/.fleet-a.json.swp"_qs), qPrintable(userDir + u"/fleet-a.json"_qs)) == 0);
        QTRY_COMPARE_WITH_TIMEOUT(descriptionOf(list, u"fleet-a"_qs), u"Edited by hand."_qs, 30000);
        QCOMPARE(view.selectedProfile(), u"fleet-a"_qs); // what the user chose stays chosen

        // The machine's folder, made after the page opened.
        QVERIFY(QDir().mkpath(systemDir));
        QVERIFY(writeFile(systemDir + u"/machine-wide.json"_qs,
                          R"({"schema":1,"name":"machine-wide","rules":[{"match":{"type":"md"},"set":{"read_ahead_kb":4096}}]})"));
        QTRY_VERIFY_WITH_TIMEOUT(view.profileNames().contains(u"machine-wide"_qs), 30000);

        // Removed: it goes, and the page says the one on screen went.
        QVERIFY(QFile::remove(userDir + u"/fleet-a.json"_qs));
        QTRY_VERIFY_WITH_TIMEOUT(!view.profileNames().contains(u"fleet-a"_qs), 30000);
        QVERIFY2(view.statusText().contains(u"fleet-a is gone"_qs), qPrintable(view.statusText()));
        QVERIFY(view.selectedProfile() != u"fleet-a"_qs);
    }

    // The table is the truth after every write, whoever made it: after
    // Apply it shows the values now (not the "change" it previewed), after
    // Revert the verify table shows the drift again (not "matches"), and a
    // write by another view (the session's apply, as Settings or Advise
    // makes it) moves the current column; the status line says each.
    void tableFollowsEveryWrite()
    {
        QTemporaryDir tree, user;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        ConsoleSession session(SysRoot(tree.path()));
        const ProfileStore store(user.path(), tree.path() + u"/etc/blocktune/profiles"_qs,
                                 QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        ProfilesView view(&session, store);
        QSignalSpy done(&view, &ProfilesView::finished);
        QCOMPARE(next(done).kind, ProfileResult::List);
        QCOMPARE(next(done).kind, ProfileResult::Preview);
        view.select(u"streaming-md"_qs);
        QVERIFY(nextOf(done, ProfileResult::Preview, u"streaming-md"_qs).ok);
        const auto *table = view.findChild<QTableWidget *>();
        QCOMPARE(cell(table, u"md0"_qs, u"read_ahead_kb"_qs, 2), u"8192"_qs);
        QCOMPARE(cell(table, u"md0"_qs, u"read_ahead_kb"_qs, 5), u"change"_qs);

        view.apply(); // through the change preview: md0 ticked (a preset ticks none by itself)
        QTRY_VERIFY_WITH_TIMEOUT(view.changePreview() && !view.isBusy(), 30000);
        QVERIFY(tickDevice(view.changePreview(), u"md0"_qs, true));
        QVERIFY(acceptPreview());
        ProfileResult r = next(done);
        QCOMPARE(r.kind, ProfileResult::Apply);
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(readAttr(tree.path(), u"md0/queue/read_ahead_kb"_qs), u"32768"_qs);
        QTRY_COMPARE_WITH_TIMEOUT(cell(table, u"md0"_qs, u"read_ahead_kb"_qs, 2), u"32768"_qs, 30000);
        // The rule asks for at least 32768: nothing left to change (it said "change" before).
        QCOMPARE(cell(table, u"md0"_qs, u"read_ahead_kb"_qs, 5), u"kept: 32768 is already at least 32768"_qs);
        QVERIFY2(view.statusText().contains(u"Applied profile streaming-md"_qs), qPrintable(view.statusText()));

        view.verify();
        r = nextOf(done, ProfileResult::Verify, u"streaming-md"_qs);
        QCOMPARE(cell(table, u"md0"_qs, u"read_ahead_kb"_qs, 5), u"matches"_qs);
        view.revert();
        r = next(done);
        QCOMPARE(r.kind, ProfileResult::Revert);
        QVERIFY2(r.ok, qPrintable(r.notes.join(u'\n')));
        QCOMPARE(readAttr(tree.path(), u"md0/queue/read_ahead_kb"_qs), u"8192"_qs);
        QTRY_COMPARE_WITH_TIMEOUT(cell(table, u"md0"_qs, u"read_ahead_kb"_qs, 5), u"drift"_qs, 30000);
        QCOMPARE(cell(table, u"md0"_qs, u"read_ahead_kb"_qs, 2), u"8192"_qs);
        QVERIFY2(view.statusText().startsWith(u"Reverted streaming-md"_qs), qPrintable(view.statusText()));

        // Another view writes through the same session.
        QSignalSpy planned(session.worker(), &SessionWorker::planned);
        const quint64 ticket = session.plan({{u"md0"_qs, u"read_ahead_kb"_qs, SettingValue(quint64(1024))}});
        QTRY_VERIFY_WITH_TIMEOUT(!planned.isEmpty(), 30000); // (wait() would miss an answer that came first)
        QCOMPARE(planned.at(0).at(0).toULongLong(), ticket);
        session.apply(planned.at(0).at(1).value<ChangePlan>());
        QTRY_COMPARE_WITH_TIMEOUT(cell(table, u"md0"_qs, u"read_ahead_kb"_qs, 2), u"1024"_qs, 30000);
        QVERIFY2(view.statusText().contains(u"md0 read_ahead_kb: 8192 → 1024"_qs), qPrintable(view.statusText()));
    }

    // A preset applies to the selected device only, at first: the system
    // disk (it holds /) is listed, said so, and never ticked by itself.
    void presetPreviewTargetsTheSelectedDevice()
    {
        QTemporaryDir tree, user;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        QVERIFY(QDir().mkpath(tree.path() + u"/proc/self"_qs));
        QFile mounts(tree.path() + u"/proc/self/mountinfo"_qs);
        QVERIFY(mounts.open(QIODevice::WriteOnly));
        mounts.write("22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n");
        mounts.close();
        QVERIFY(writeAttr(tree.path(), u"sda/queue/read_ahead_kb"_qs, "4096"));
        QVERIFY(writeAttr(tree.path(), u"sdb/queue/read_ahead_kb"_qs, "4096"));
        QVERIFY(writeAttr(tree.path(), u"sdc/queue/read_ahead_kb"_qs, "4096"));
        ConsoleSession session(SysRoot(tree.path()));
        const ProfileStore store(user.path(), u"/nonexistent"_qs, QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        ProfilesView view(&session, store);
        QSignalSpy done(&view, &ProfilesView::finished);
        QCOMPARE(next(done).kind, ProfileResult::List);
        view.setDevice(u"sdb"_qs);
        view.select(u"desktop-defaults"_qs);
        QVERIFY(nextOf(done, ProfileResult::Preview, u"desktop-defaults"_qs).ok);

        view.apply();
        ChangePreviewDialog *preview = readyPreview();
        QVERIFY(preview);
        QCOMPARE(preview->chosenDevices(), QStringList{u"sdb"_qs});
        const QList<PreviewRow> rows = preview->rows();
        QVERIFY(std::all_of(rows.cbegin(), rows.cend(), [](const PreviewRow &row) { return row.device == u"sdb"_qs; }));
        QVERIFY(std::any_of(rows.cbegin(), rows.cend(), [](const PreviewRow &row) {
            return row.setting == u"read_ahead_kb"_qs && row.current == u"4096"_qs && row.next == u"128"_qs;
        }));
        // sda is offered, named as the system disk, and not ticked.
        auto *list = preview->findChild<QListWidget *>(u"previewDevices"_qs);
        QListWidgetItem *sda = nullptr;
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->data(Qt::UserRole).toString() == u"sda"_qs)
                sda = list->item(i);
        QVERIFY(sda);
        QVERIFY2(sda->text().contains(u"holds /: the system disk"_qs), qPrintable(sda->text()));
        QCOMPARE(sda->checkState(), Qt::Unchecked);
        QVERIFY(!sda->icon().isNull()); // not by words alone either

        preview->accept();
        const ProfileResult r = nextOf(done, ProfileResult::Apply, u"desktop-defaults"_qs);
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(readAttr(tree.path(), u"sdb/queue/read_ahead_kb"_qs), u"128"_qs);
        QCOMPARE(readAttr(tree.path(), u"sda/queue/read_ahead_kb"_qs), u"4096"_qs);
        QCOMPARE(readAttr(tree.path(), u"sdc/queue/read_ahead_kb"_qs), u"4096"_qs);
    }

    // Opened from the tab, not for a device: the table says which rows
    // Apply's preview ticks at first (the tree's device, first and
    // selected), greys the others with the words, and names the system disk
    // as the preview does; "Only this device" filters to the tree's device.
    void tableSaysWhatApplyTicks()
    {
        QTemporaryDir tree, user;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        QVERIFY(QDir().mkpath(tree.path() + u"/proc/self"_qs));
        QFile mounts(tree.path() + u"/proc/self/mountinfo"_qs);
        QVERIFY(mounts.open(QIODevice::WriteOnly));
        mounts.write("22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n");
        mounts.close();
        for (const char *disk : {"sda", "sdb", "sdc"})
            QVERIFY(writeAttr(tree.path(), QString::fromLatin1(disk) + u"/queue/read_ahead_kb"_qs, "4096"));
        ConsoleSession session(SysRoot(tree.path()));
        const ProfileStore store(user.path(), u"/nonexistent"_qs, QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        ProfilesView view(&session, store);
        QSignalSpy done(&view, &ProfilesView::finished);
        QCOMPARE(next(done).kind, ProfileResult::List);
        view.setSelectedDevice(u"sdc"_qs);
        view.select(u"desktop-defaults"_qs);
        QVERIFY(nextOf(done, ProfileResult::Preview, u"desktop-defaults"_qs).ok);
        auto *table = view.findChild<QTableWidget *>();
        QVERIFY(table && table->rowCount() > 3);
        const int tick = table->columnCount() - 1;
        QVERIFY2(!table->isColumnHidden(tick), "the preview says what Apply ticks");
        const QString tickHeader = table->horizontalHeaderItem(tick)->text();
        QCOMPARE(tickHeader, u"Apply"_qs);

        auto checkRows = [&](const QString &selected) {
            bool others = false;
            for (int r = 0; r < table->rowCount(); ++r) {
                const QString device = table->item(r, 0)->text();
                const QString words = table->item(r, tick)->text();
                const bool mine = device == selected;
                // The selected device's rows come first and are selected.
                if (mine && others)
                    return u"%1 comes after another device's row"_qs.arg(device);
                others = others || !mine;
                if (table->selectionModel()->isRowSelected(r, {}) != mine)
                    return u"row %1 (%2) selected: %3"_qs.arg(r).arg(device).arg(!mine);
                if (mine != (words == u"ticked"_qs))
                    return u"%1 says '%2'"_qs.arg(device, words);
                if (!mine && !words.startsWith(u"not ticked by default"_qs))
                    return u"%1 says '%2'"_qs.arg(device, words);
                // Greyed: not the palette's text colour.
                const QVariant fg = table->item(r, 1)->data(Qt::ForegroundRole);
                if (mine == (fg.isValid() && fg.value<QBrush>().color() != table->palette().color(QPalette::Text)))
                    return u"%1's row greyed: %2"_qs.arg(device).arg(!mine);
                if (device == u"sda"_qs
                    && (!words.contains(u"holds /: the system disk"_qs) || table->item(r, 0)->icon().isNull()))
                    return u"sda is not named as the system disk: '%1'"_qs.arg(words);
            }
            return QString();
        };
        QString problem = checkRows(u"sdc"_qs);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(rowOf(table, u"sda"_qs, u"read_ahead_kb"_qs) >= 0);

        // Another device selected in the tree: the table follows at once.
        view.setSelectedDevice(u"sdb"_qs);
        problem = checkRows(u"sdb"_qs);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // Only this device: only the tree's device's rows.
        auto *only = view.findChild<QCheckBox *>(u"onlyDevice"_qs);
        QVERIFY(only && only->isEnabled());
        only->setChecked(true);
        for (int r = 0; r < table->rowCount(); ++r)
            QCOMPARE(table->isRowHidden(r), table->item(r, 0)->text() != u"sdb"_qs);
        only->setChecked(false);

        // The preview ticks what the table said.
        view.apply();
        ChangePreviewDialog *preview = readyPreview();
        QVERIFY(preview);
        QCOMPARE(preview->chosenDevices(), QStringList{u"sdb"_qs});
        preview->reject();
    }

    // Cancel writes nothing; a preview the machine moved under is refused.
    void cancelledPreviewWritesNothing()
    {
        QTemporaryDir tree, user;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        ConsoleSession session(SysRoot(tree.path()));
        const ProfileStore store(user.path(), u"/nonexistent"_qs, QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        ProfilesView view(&session, store);
        QSignalSpy done(&view, &ProfilesView::finished);
        QCOMPARE(next(done).kind, ProfileResult::List);
        view.setDevice(u"md0"_qs);
        view.select(u"streaming-md"_qs);
        QVERIFY(nextOf(done, ProfileResult::Preview, u"streaming-md"_qs).ok);
        view.apply();
        ChangePreviewDialog *preview = readyPreview();
        QVERIFY(preview);
        preview->reject();
        QTest::qWait(300);
        QCOMPARE(readAttr(tree.path(), u"md0/queue/read_ahead_kb"_qs), u"8192"_qs);

        view.apply();
        preview = readyPreview();
        QVERIFY(preview);
        QVERIFY(writeAttr(tree.path(), u"md0/queue/read_ahead_kb"_qs, "2048")); // behind the preview's back
        preview->accept();
        const ProfileResult r = nextOf(done, ProfileResult::Apply, u"streaming-md"_qs);
        QVERIFY(!r.ok); // the plan it showed is stale: refused, and said so
        QVERIFY2(r.message.contains(u"2048 now"_qs) || r.message.contains(u"changed since the preview"_qs),
                 qPrintable(r.message));
        QCOMPARE(readAttr(tree.path(), u"md0/queue/read_ahead_kb"_qs), u"2048"_qs);
    }

    // "Save current…" keeps the selected device only unless others are
    // ticked: never every loop or disk on the machine.
    void saveCurrentKeepsOnlyTheChosenDevices()
    {
        QTemporaryDir tree, user;
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), tree.path()));
        ConsoleSession session(SysRoot(tree.path()));
        const ProfileStore store(user.path(), u"/nonexistent"_qs, QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        ProfilesView view(&session, store);
        QSignalSpy done(&view, &ProfilesView::finished);
        QCOMPARE(next(done).kind, ProfileResult::List);
        view.setDevice(u"sdc"_qs);
        view.saveCurrent(u"mine"_qs, false);
        ChangePreviewDialog *preview = readyPreview();
        QVERIFY(preview);
        QCOMPARE(preview->chosenDevices(), QStringList{u"sdc"_qs});
        QVERIFY(preview->findChild<QListWidget *>(u"previewDevices"_qs)->count() >= 4); // the others are offered
        QVERIFY(preview->notesText().contains(user.filePath(u"mine.json"_qs)));
        preview->accept();
        const ProfileResult r = nextOf(done, ProfileResult::Save, u"mine"_qs);
        QVERIFY2(r.ok, qPrintable(r.message));
        auto saved = store.load(u"mine"_qs);
        QVERIFY2(saved, saved ? "" : qPrintable(saved.error().message));
        QCOMPARE(saved->rules.size(), 1);
        auto model = DeviceModel::scan(SysRoot(tree.path()));
        QVERIFY(model);
        const ProfileResolution res = resolveProfile(*saved, SysRoot(tree.path()), *model);
        QStringList devices;
        for (const ResolvedSetting &s : res.settings)
            if (!devices.contains(s.device))
                devices << s.device;
        QCOMPARE(devices, QStringList{u"sdc"_qs});
    }

    void readOnlySessionCannotApply()
    {
        SessionOptions options;
        options.readOnlyReason = u"a recorded tree: the console does not write it"_qs;
        ConsoleSession session(SysRoot(recordedTree("md-raid10-f2")), options);
        QTemporaryDir user;
        const ProfileStore store(user.path(), u"/nonexistent"_qs, QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        ProfilesView view(&session, store);
        QSignalSpy done(&view, &ProfilesView::finished);
        QCOMPARE(next(done).kind, ProfileResult::List);
        QCOMPARE(next(done).kind, ProfileResult::Preview);
        for (auto *b : view.findChildren<QPushButton *>())
            if (b->text() == u"Apply"_qs || b->text() == u"Revert"_qs || b->text() == u"Install at boot"_qs) {
                QVERIFY(!b->isEnabled());
                QCOMPARE(b->toolTip(), options.readOnlyReason);
            }
        view.select(u"streaming-md"_qs);
        QVERIFY(nextOf(done, ProfileResult::Preview, u"streaming-md"_qs).ok);
        view.apply(); // even when called: refused by the session, nothing written
        const ProfileResult r = next(done);
        QVERIFY(!r.ok);
        QCOMPARE(r.message, options.readOnlyReason);
    }
};

QTEST_MAIN(TestProfilesView)
#include "tst_profilesview.moc"
