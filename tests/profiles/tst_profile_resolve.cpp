// Profiles against recorded machines: which rule wins each setting and
// whether the preview says so, what no rule matched, where the md floor
// wins, what is refused before anything changes, drift, save (identities
// and the kernel's defaults), apply with rollback and revert.
#include "../tuning/tuningtestutil.h"

#include "profiles/profiles.h"
#include "session/session.h"

#include <QJsonArray>
#include <QTest>

using namespace blocktune;
using namespace blocktune::test;

namespace {

DeviceModel scanTree(const QString &path)
{
    ScanOptions options;
    options.probeFilesystems = false;
    auto model = DeviceModel::scan(SysRoot(path), options);
    if (!model)
        qFatal("cannot scan %s: %s", qPrintable(path), qPrintable(model.error().message));
    return std::move(*model);
}

Profile profileOf(const QByteArray &rules)
{
    auto p = parseProfile("{\"schema\": 1, \"name\": \"t\", \"rules\": [" + rules + "]}", u"t.json"_qs);
    if (!p)
        qFatal("bad test profile: %s", qPrintable(p.error().message));
    return *p;
}

// "md0 read_ahead_kb 8192->65536 change rule2 over1" per setting.
QStringList rowsOf(const ProfileResolution &r)
{
    QStringList out;
    for (const ResolvedSetting &s : r.settings) {
        QString row = QStringLiteral("%1 %2 %3->%4 %5 rule%6")
                          .arg(s.device, s.setting.key, s.current, s.target, resolvedStateName(s.state))
                          .arg(s.rule + 1);
        for (int o : s.overridden)
            row += QStringLiteral(" over%1").arg(o + 1);
        if (!s.via.isEmpty())
            row += QStringLiteral(" via:") + s.via.join(u',');
        out << row;
    }
    return out;
}

QString errorsOf(const QList<Error> &errors)
{
    QStringList out;
    for (const Error &e : errors)
        out << e.message;
    return out.join(u" | ");
}

// A writer that fails the Nth write and passes the others to the tree.
class FailingWriter final : public AttributeWriter
{
public:
    FailingWriter(SysRoot root, int failAt) : m_direct(std::move(root)), m_failAt(failAt) {}
    Result<WrittenValue> write(const AttributeWrite &request) override
    {
        if (++m_count == m_failAt)
            return makeError(EIO, QStringLiteral("injected failure writing %1 of %2").arg(request.attribute, request.device));
        return m_direct.write(request);
    }
    QString describe() const override { return QStringLiteral("failing"); }
    int count() const { return m_count; }

private:
    DirectWriter m_direct;
    int m_failAt;
    int m_count = 0;
};

} // namespace

class TestProfileResolve : public QObject
{
    Q_OBJECT

    QTemporaryDir m_journals;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_journals.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
    }

    void laterRulesWinAndThePreviewSaysWhich()
    {
        const QString tree = recordedTree("md-raid10-f2");
        const Profile p = profileOf("{\"match\": {}, \"set\": {\"read_ahead_kb\": 1024}},"
                                    "{\"match\": {\"type\": \"md\"}, \"set\": {\"read_ahead_kb\": 65536}},"
                                    "{\"match\": {\"name\": \"sd[bc]\"}, \"set\": {\"ra_sectors\": 2048, \"scheduler\": \"bfq\"}},"
                                    "{\"match\": {\"type\": \"dm\"}, \"set\": {\"read_ahead_kb\": 4}}");
        const ProfileResolution r = resolveProfile(p, SysRoot(tree), scanTree(tree));
        QVERIFY2(r.ok(), qPrintable(errorsOf(r.errors)));
        const QStringList rows = rowsOf(r);
        QCOMPARE(rows.size(), 1 + 9 + 2); // md0, sda..sdi readahead; sdb, sdc scheduler
        QCOMPARE(rows[0], u"md0 read_ahead_kb 8192->65536 change rule2 over1"_qs);
        QCOMPARE(rows[1], u"sda read_ahead_kb 128->1024 change rule1"_qs);
        // ra_sectors and read_ahead_kb are one setting: rule 3's wins on sdb.
        QCOMPARE(rows[2], u"sdb ra_sectors 256->2048 change rule3 over1"_qs);
        QCOMPARE(rows[3], u"sdb scheduler mq-deadline->bfq change rule3"_qs);
        QCOMPARE(rows[4], u"sdc ra_sectors 256->2048 change rule3 over1"_qs);
        QCOMPARE(rows[6], u"sdd read_ahead_kb 128->1024 change rule1"_qs);
        QCOMPARE(r.unmatchedRules, QList<int>{3});
        QVERIFY(r.unmatchedDevices.isEmpty());
        QVERIFY(r.floorOverrides.isEmpty()); // md0 gets 65536, above its 8192 floor

        const QList<SettingChange> changes = r.changes();
        QCOMPARE(changes.size(), 12);
        QCOMPARE(changes[2].device, u"sdb"_qs);
        QCOMPARE(changes[2].key, u"ra_sectors"_qs);
        const QJsonObject json = resolutionToJson(p, r);
        const QJsonObject first = json.value(u"settings").toArray().at(0).toObject();
        QCOMPARE(first.value(u"rule").toInt(), 2);
        QCOMPARE(first.value(u"rule_match").toString(), u"type md"_qs);
        QCOMPARE(first.value(u"overridden").toArray(), QJsonArray{1});
        QCOMPARE(json.value(u"unmatched_rules").toArray().at(0).toObject().value(u"match").toString(), u"type dm"_qs);
    }

    void aPartitionSetsItsDisk()
    {
        const QString tree = recordedTree("raid5-degraded");
        const Profile p = profileOf("{\"match\": {\"name\": \"sd[bc]1\", \"type\": \"part\"}, \"set\": {\"read_ahead_kb\": 4096}},"
                                    "{\"match\": {\"name\": \"sdc\"}, \"set\": {\"read_ahead_kb\": 2048}},"
                                    "{\"match\": {\"name\": \"sdd*\"}, \"set\": {\"read_ahead_kb\": 1024}}");
        const ProfileResolution r = resolveProfile(p, SysRoot(tree), scanTree(tree));
        QVERIFY2(r.ok(), qPrintable(errorsOf(r.errors)));
        // sdd* matches the disk sdd, not its partition sdd1 (type part would).
        QCOMPARE(rowsOf(r), (QStringList{u"sdb read_ahead_kb 128->4096 change rule1 via:sdb1"_qs,
                                         u"sdc read_ahead_kb 128->2048 change rule2 over1"_qs,
                                         u"sdd read_ahead_kb 128->1024 change rule3"_qs}));
        QCOMPARE(r.unmatchedDevices, (QStringList{u"md0"_qs, u"sda"_qs, u"sde"_qs}));
    }

    void theFloorWinsOnArrays()
    {
        const QString tree = recordedTree("md-raid10-f2");
        const ProfileResolution r = resolveProfile(profileOf("{\"match\": {\"type\": \"md\"}, \"set\": {\"read_ahead_kb\": 1024}}"),
                                                   SysRoot(tree), scanTree(tree));
        QCOMPARE(r.floorOverrides.size(), 1);
        QCOMPARE(r.floorOverrides[0].device, u"md0"_qs);
        QCOMPARE(r.floorOverrides[0].valueKiB, 1024u);
        QCOMPARE(r.floorOverrides[0].floorKiB, 8192u); // 2 x 4 MiB stripe (8 disks, 512K, far-2)
        QCOMPARE(r.floorOverrides[0].stripeKiB, 4096u);
        QCOMPARE(r.floorOverrides[0].rule, 0);
        // LVM volumes on the raid0 of the SCST machine have a dm floor too.
        const QString scst = recordedTree("scst-raid0-lvm");
        const ProfileResolution lv = resolveProfile(profileOf("{\"match\": {\"dm_name\": \"vg_scst-lun1\"}, "
                                                              "\"set\": {\"ra_sectors\": 128}}"),
                                                    SysRoot(scst), scanTree(scst));
        QCOMPARE(rowsOf(lv), QStringList{u"dm-1 ra_sectors 512->128 change rule1"_qs});
        // dm-linear over the raid0 stacks its io_opt (128 KiB): the floor is 2 x that.
        QCOMPARE(lv.floorOverrides.size(), 1);
        QCOMPARE(lv.floorOverrides[0].valueKiB, 64u);
        QCOMPARE(lv.floorOverrides[0].floorKiB, 256u);
    }

    void boundsOnlyRaiseOrOnlyLower_data()
    {
        QTest::addColumn<QByteArray>("set");
        QTest::addColumn<QString>("row");
        // md0 has 8192 KiB.
        QTest::newRow("raise, already above") << QByteArray("{\"read_ahead_kb\": \">4096\"}") << u"md0 read_ahead_kb 8192->8192 kept rule1"_qs;
        QTest::newRow("raise") << QByteArray("{\"read_ahead_kb\": \">16384\"}") << u"md0 read_ahead_kb 8192->16384 change rule1"_qs;
        QTest::newRow("lower") << QByteArray("{\"read_ahead_kb\": \"<4096\"}") << u"md0 read_ahead_kb 8192->4096 change rule1"_qs;
        QTest::newRow("lower, already below") << QByteArray("{\"read_ahead_kb\": \"<65536\"}") << u"md0 read_ahead_kb 8192->8192 kept rule1"_qs;
        QTest::newRow("sectors, equal") << QByteArray("{\"ra_sectors\": \">16384\"}") << u"md0 ra_sectors 16384->16384 kept rule1"_qs;
        QTest::newRow("exact, equal") << QByteArray("{\"read_ahead_kb\": 8192}") << u"md0 read_ahead_kb 8192->8192 unchanged rule1"_qs;
        // The kernel keeps whole 4 KiB pages: 8195 KiB is already met by 8192.
        QTest::newRow("page rounding") << QByteArray("{\"read_ahead_kb\": 8195}") << u"md0 read_ahead_kb 8192->8195 unchanged rule1"_qs;
    }

    void boundsOnlyRaiseOrOnlyLower()
    {
        QFETCH(QByteArray, set);
        QFETCH(QString, row);
        const QString tree = recordedTree("md-raid10-f2");
        const ProfileResolution r = resolveProfile(profileOf("{\"match\": {\"type\": \"md\"}, \"set\": " + set + "}"),
                                                   SysRoot(tree), scanTree(tree));
        QVERIFY2(r.ok(), qPrintable(errorsOf(r.errors)));
        QCOMPARE(rowsOf(r), QStringList{row});
    }

    void whatADeviceLacksIsSkippedThere()
    {
        const QString tree = recordedTree("md-raid10-f2");
        const ProfileResolution r = resolveProfile(
            profileOf("{\"match\": {\"name\": \"[ms]d[0a]\"}, \"set\": {\"scheduler\": \"mq-deadline\", \"nr_requests\": 32}},"
                      "{\"match\": {\"name\": \"sd[ab]\"}, \"set\": {\"scheduler\": \"mq-deadline\", \"nr_requests\": 32,"
                      " \"iosched.fifo_batch\": 8}}"),
            SysRoot(tree), scanTree(tree));
        QVERIFY2(r.ok(), qPrintable(errorsOf(r.errors)));
        const QStringList rows = rowsOf(r);
        QCOMPARE(rows.mid(0, 2), (QStringList{u"md0 scheduler none-> skipped rule1"_qs, u"md0 nr_requests -> skipped rule1"_qs}));
        QCOMPARE(r.settings[0].reason, u"md0 has no I/O scheduler to choose (bio-based: it shows 'none')"_qs);
        QCOMPARE(r.settings[1].reason, u"md0 is bio-based: nr_requests does not apply"_qs);
        QCOMPARE(rows.mid(2), (QStringList{u"sda scheduler mq-deadline->mq-deadline unchanged rule2 over1"_qs,
                                           u"sda nr_requests 64->32 change rule2 over1"_qs,
                                           u"sda iosched.fifo_batch 16->8 change rule2"_qs,
                                           u"sdb scheduler mq-deadline->mq-deadline unchanged rule2"_qs,
                                           u"sdb nr_requests 64->32 change rule2"_qs,
                                           u"sdb iosched.fifo_batch 16->8 change rule2"_qs}));
    }

    void refusedWhenNoMatchedDeviceHasIt_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<QByteArray>("rules");
        QTest::addColumn<QString>("error");
        QTest::newRow("scheduler nobody offers") << u"md-raid10-f2"_qs
                                                 << QByteArray("{\"match\": {\"name\": \"sd[ab]\"}, \"set\": {\"scheduler\": \"cfq\"}}")
                                                 << u"rule 1 (name sd[ab]): scheduler cfq applies to none of the devices it matches: "
                                                    "sda does not offer cfq (available: none, mq-deadline, kyber, bfq); sdb does "
                                                    "not offer cfq (available: none, mq-deadline, kyber, bfq)"_qs;
        QTest::newRow("blk-mq name on a 2.6 kernel") << u"scst-raid0-lvm"_qs
                                                     << QByteArray("{\"match\": {\"type\": \"disk\"}, \"set\": {\"scheduler\": \"mq-deadline\"}}")
                                                     << u"rule 1 (type disk): scheduler mq-deadline applies to none of the devices it "
                                                        "matches: sda does not offer mq-deadline (available: noop, anticipatory, "
                                                        "deadline, cfq); sdb does not offer mq-deadline (available: noop, "
                                                        "anticipatory, deadline, cfq); sdc does not offer mq-deadline (available: "
                                                        "noop, anticipatory, deadline, cfq)"_qs;
        QTest::newRow("context readahead on mainline") << u"raid5-degraded"_qs
                                                       << QByteArray("{\"match\": {\"name\": \"sda\"}, \"set\": {\"context_readahead\": 1}}")
                                                       << u"rule 1 (name sda): context_readahead 1 applies to none of the devices it "
                                                          "matches: context readahead is built into this kernel (always on since "
                                                          "2.6.31); sda has no switch for it"_qs;
        QTest::newRow("tunable of another scheduler") << u"raid5-degraded"_qs
                                                      << QByteArray("{\"match\": {\"name\": \"sdb\"}, \"set\": {\"iosched.fifo_batch\": 8}}")
                                                      << u"rule 1 (name sdb): iosched.fifo_batch 8 applies to none of the devices it "
                                                         "matches: iosched.fifo_batch is not a tunable of bfq on sdb (tunables: "
                                                         "back_seek_max, back_seek_penalty, fifo_expire_async, fifo_expire_sync, "
                                                         "low_latency, max_budget, slice_idle, slice_idle_us, strict_guarantees, "
                                                         "timeout_sync)"_qs;
    }

    void refusedWhenNoMatchedDeviceHasIt()
    {
        QFETCH(QString, tree);
        QFETCH(QByteArray, rules);
        QFETCH(QString, error);
        TuningSession session(SysRoot(recordedTree(tree)));
        const ProfilePreview p = previewProfile(profileOf(rules), session);
        QVERIFY(!p.ok());
        QCOMPARE(errorsOf(p.errors), error);
        QVERIFY(p.plan.writes.isEmpty());
    }

    void planErrorsNameTheRule()
    {
        TuningSession session(SysRoot(recordedTree("md-raid10-f2")));
        const ProfilePreview p = previewProfile(
            profileOf("{\"match\": {\"name\": \"sda\"}, \"set\": {\"read_ahead_kb\": 256}},"
                      "{\"match\": {\"wwn\": \"0x5000c50063a1b2c0\"}, \"set\": {\"nr_requests\": 100000, \"max_sectors_kb\": 99999}}"),
            session);
        QVERIFY(!p.ok());
        QCOMPARE(errorsOf(p.errors),
                 u"rule 2 (wwn 0x5000c50063a1b2c0): nr_requests 100000 is out of range on sdb (allowed: 1 to 2048, with "
                 "scheduler mq-deadline) | rule 2 (wwn 0x5000c50063a1b2c0): max_sectors_kb 99999 is above max_hw_sectors_kb "
                 "32767 on sdb (allowed: 4 to 32767)"_qs);
    }

    void verifyListsEveryDrift()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const Profile p = profileOf("{\"match\": {\"type\": \"md\"}, \"set\": {\"read_ahead_kb\": \">16384\"}},"
                                    "{\"match\": {\"name\": \"sd[bc]\"}, \"set\": {\"scheduler\": \"mq-deadline\", \"read_ahead_kb\": 5}}");
        VerifyReport before = verifyProfile(p, SysRoot(tree.path()), scanTree(tree.path()));
        QVERIFY(before.resolution.ok());
        QStringList drifts;
        for (const Drift &d : before.drifts)
            drifts << QStringLiteral("%1 %2 %3 %4 rule%5").arg(d.device, d.key, d.expected, d.actual).arg(d.rule + 1);
        QCOMPARE(drifts, (QStringList{u"md0 read_ahead_kb >16384 8192 rule1"_qs, u"sdb read_ahead_kb 5 128 rule2"_qs,
                                      u"sdc read_ahead_kb 5 128 rule2"_qs}));
        QCOMPARE(before.matching, 2); // the schedulers
        QVERIFY(!before.ok());
        // What the kernel would keep: 32768 on md0, 4 (a whole page) for 5.
        QVERIFY(tree.write(u"md0"_qs, u"queue/read_ahead_kb"_qs, "32768"));
        QVERIFY(tree.write(u"sdb"_qs, u"queue/read_ahead_kb"_qs, "4"));
        QVERIFY(tree.write(u"sdc"_qs, u"queue/read_ahead_kb"_qs, "4"));
        const VerifyReport after = verifyProfile(p, SysRoot(tree.path()), scanTree(tree.path()));
        QVERIFY(after.ok());
        QCOMPARE(after.matching, 5);
        const QJsonObject json = verifyReportToJson(p, before);
        QCOMPARE(json.value(u"drift").toArray().size(), 3);
        QCOMPARE(json.value(u"drift").toArray().at(0).toObject().value(u"expected").toString(), u">16384"_qs);
    }

    void saveUsesStableIdentities_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<QStringList>("matches"); // "describe | comment"
        QTest::newRow("md by UUID, disks by WWN")
            << u"md-raid10-f2"_qs
            << QStringList{u"md_uuid fbf1c0e0:c67c6a70:263679f8:426416e5 | saved from md0"_qs,
                           u"wwn 0x5002538f41234567 | saved from sda (Samsung SSD 870)"_qs,
                           u"wwn 0x5000c50063a1b2c0 | saved from sdb (ST2000NM0033-9ZM)"_qs};
        // 2.6.27 has no md/uuid: only the kernel name, and the rule says so.
        QTest::newRow("old md by name, LVs by dm name")
            << u"scst-raid0-lvm"_qs
            << QStringList{u"dm_name vg_scst-lun0 | saved from dm-0"_qs, u"dm_name vg_scst-lun1 | saved from dm-1"_qs,
                           u"dm_name vg_scst-lun2 | saved from dm-2"_qs,
                           u"name md0 | saved from md0: this kernel shows no md/uuid, so this rule follows the kernel name"_qs};
        QTest::newRow("loops by name, empty ones left out")
            << u"live-loop"_qs
            << QStringList{u"name loop0 | saved from loop0: a loop device has no stable identity, so this rule follows the kernel name"_qs,
                           u"name loop1 | saved from loop1: a loop device has no stable identity, so this rule follows the kernel name"_qs};
    }

    void saveUsesStableIdentities()
    {
        QFETCH(QString, tree);
        QFETCH(QStringList, matches);
        const QString path = recordedTree(tree);
        const DeviceModel model = scanTree(path);
        SaveOptions options;
        options.name = u"saved"_qs;
        const Result<SavedProfile> saved = saveProfile(SysRoot(path), model, options);
        QVERIFY2(saved.ok(), saved.ok() ? "" : qPrintable(saved.error().message));
        QStringList got;
        for (const ProfileRule &r : saved->profile.rules)
            got << r.match.describe() + u" | " + r.comment;
        QCOMPARE(got.mid(0, matches.size()), matches);
        // Saved now, verified now: no drift, on every device it names.
        const VerifyReport v = verifyProfile(saved->profile, SysRoot(path), model);
        QVERIFY2(v.ok(), v.drifts.isEmpty() ? qPrintable(errorsOf(v.resolution.errors)) : qPrintable(v.drifts[0].key));
        QVERIFY(v.matching > 0);
        QVERIFY(v.resolution.unmatchedRules.isEmpty());
        // And the file form reads back to the same profile.
        const Result<Profile> back = parseProfile(profileToJson(saved->profile), u"saved.json"_qs);
        QVERIFY(back.ok());
        QCOMPARE(profileToJson(*back), profileToJson(saved->profile));
    }

    void saveNamesOnlyNamedDevices()
    {
        const QString path = recordedTree("live-loop");
        const DeviceModel model = scanTree(path);
        SaveOptions options;
        options.name = u"two"_qs;
        options.devices = {u"vda"_qs, u"loop0"_qs};
        const Result<SavedProfile> saved = saveProfile(SysRoot(path), model, options);
        QVERIFY(saved.ok());
        QCOMPARE(saved->profile.rules.size(), 2);
        QCOMPARE(saved->profile.rules[0].match.describe(), u"name loop0"_qs);
        QCOMPARE(saved->profile.rules[1].match.describe(), u"serial overlayblk"_qs); // virtio: no WWN, a serial
        QStringList keys;
        for (const ProfileSetting &s : saved->profile.rules[1].settings)
            keys << s.key + u'=' + s.value;
        QCOMPARE(keys.mid(0, 5), (QStringList{u"read_ahead_kb=8192"_qs, u"scheduler=mq-deadline"_qs, u"nr_requests=256"_qs,
                                              u"max_sectors_kb=4096"_qs, u"iosched.async_depth=256"_qs}));
        options.devices = {u"loop0"_qs, u"nosuch"_qs};
        const Result<SavedProfile> bad = saveProfile(SysRoot(path), model, options);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().message, u"no block device named nosuch (see blocktune-cli list)"_qs);
    }

    void changedKeepsOnlyWhatTheKernelDidNotChoose_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<QStringList>("kept"); // device: key=value...
        // kyber and bfq were chosen by the admin; mq-deadline on one queue
        // is the kernel's; md0 sits at its floor (2 x 1.5 MiB stripe).
        // The tree records 64 hardware tags (mq/0/nr_tags): with a scheduler
        // the kernel sets 2 x min(tags, 128) = 128, so nr_requests 64 was chosen.
        QTest::newRow("raid5") << u"raid5-degraded"_qs
                               << QStringList{u"sda: scheduler=kyber nr_requests=64"_qs, u"sdb: scheduler=bfq nr_requests=64"_qs,
                                              u"sdc: scheduler=bfq nr_requests=64"_qs, u"sdd: scheduler=bfq nr_requests=64"_qs,
                                              u"sde: scheduler=bfq nr_requests=64"_qs};
        // 2.6.27: the admin's --setra 1024 on the members (512 KiB), cfq the
        // default; md0 and the LVs at the raid0 floor, 256 KiB; the patch's
        // context readahead switch has no known default, so it is kept.
        QTest::newRow("scst") << u"scst-raid0-lvm"_qs
                              << QStringList{u"sda: context_readahead=0"_qs, u"sdb: read_ahead_kb=512 context_readahead=1"_qs,
                                             u"sdc: read_ahead_kb=512 context_readahead=1"_qs};
        // 6.18: rotational loops get 2 x max_sectors_kb, vda too.
        QTest::newRow("live") << u"live-loop"_qs << QStringList{};
    }

    void changedKeepsOnlyWhatTheKernelDidNotChoose()
    {
        QFETCH(QString, tree);
        QFETCH(QStringList, kept);
        const QString path = recordedTree(tree);
        SaveOptions options;
        options.name = u"changed"_qs;
        options.changedOnly = true;
        const Result<SavedProfile> saved = saveProfile(SysRoot(path), scanTree(path), options);
        if (kept.isEmpty()) {
            QVERIFY(!saved.ok());
            QCOMPARE(saved.error().message, u"every setting of the chosen devices is the kernel's own default: nothing to save"_qs);
            return;
        }
        QVERIFY2(saved.ok(), saved.ok() ? "" : qPrintable(saved.error().message));
        QStringList got;
        for (const ProfileRule &r : saved->profile.rules) {
            QStringList set;
            for (const ProfileSetting &s : r.settings)
                set << s.key + u'=' + s.value;
            got << r.comment.section(u' ', 2, 2).section(u':', 0, 0) + u": " + set.join(u' ');
        }
        QCOMPARE(got, kept);
    }

    void kernelDefaults_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QStringList>("values");
        QTest::newRow("md floor") << u"md-raid10-f2"_qs << u"md0"_qs << u"read_ahead_kb"_qs << QStringList{u"128"_qs, u"8192"_qs};
        QTest::newRow("one hw queue") << u"md-raid10-f2"_qs << u"sda"_qs << u"scheduler"_qs << QStringList{u"mq-deadline"_qs};
        QTest::newRow("nvme queues") << u"nvme-parts"_qs << u"nvme0n1"_qs << u"scheduler"_qs << QStringList{u"none"_qs};
        QTest::newRow("nvme tags") << u"nvme-parts"_qs << u"nvme0n1"_qs << u"nr_requests"_qs << QStringList{u"1023"_qs};
        QTest::newRow("6.18 rotational") << u"live-loop"_qs << u"vda"_qs << u"read_ahead_kb"_qs << QStringList{u"128"_qs, u"8192"_qs};
        QTest::newRow("6.18 cap") << u"live-loop"_qs << u"vda"_qs << u"max_sectors_kb"_qs << QStringList{u"4096"_qs};
        QTest::newRow("6.18 cap, small hw") << u"live-loop"_qs << u"loop0"_qs << u"max_sectors_kb"_qs << QStringList{u"1280"_qs};
        QTest::newRow("6.1 rotational") << u"md-raid10-f2"_qs << u"sdb"_qs << u"read_ahead_kb"_qs << QStringList{u"128"_qs};
        QTest::newRow("2.6 cap") << u"scst-raid0-lvm"_qs << u"sdb"_qs << u"max_sectors_kb"_qs << QStringList{u"512"_qs};
        QTest::newRow("2.6 scheduler") << u"scst-raid0-lvm"_qs << u"sdb"_qs << u"scheduler"_qs << QStringList{u"cfq"_qs};
        QTest::newRow("cfq quantum") << u"scst-raid0-lvm"_qs << u"sdb"_qs << u"iosched.quantum"_qs << QStringList{u"4"_qs, u"8"_qs};
        QTest::newRow("no known default") << u"scst-raid0-lvm"_qs << u"sdb"_qs << u"context_readahead"_qs << QStringList{};
    }

    void kernelDefaults()
    {
        QFETCH(QString, tree);
        QFETCH(QString, device);
        QFETCH(QString, key);
        QFETCH(QStringList, values);
        const QString path = recordedTree(tree);
        const DeviceModel model = scanTree(path);
        const auto settings = readDeviceSettings(SysRoot(path), model, device);
        QVERIFY(settings.ok());
        const KernelDefault d = kernelDefault(SysRoot(path), *model.find(device), *settings, key);
        QCOMPARE(d.values, values);
        QCOMPARE(d.reason.isEmpty(), values.isEmpty());
    }

    void applyRollsBackAndForgetsWhenAWriteFails()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const auto before = tree.snapshot();
        const SysRoot root(tree.path());
        const Profile p = profileOf("{\"match\": {\"name\": \"sd[b-d]\"}, \"set\": {\"read_ahead_kb\": 4096, \"nr_requests\": 128}}");
        FailingWriter *failing = nullptr;
        SessionOptions options;
        options.writerFactory = [&failing](const SysRoot &r) {
            auto w = std::make_unique<FailingWriter>(r, 5);
            failing = w.get();
            return std::unique_ptr<AttributeWriter>(std::move(w));
        };
        TuningSession session(root, options);
        const ProfileApplyReport r = applyProfile(p, session);
        QVERIFY(r.preview.ok());
        QVERIFY(!r.ok());
        QVERIFY(r.report.rollback.has_value());
        QVERIFY(r.report.rollback->ok());
        QVERIFY(failing);
        QCOMPARE(failing->count(), 5 + 4); // four written, the fifth failed, four rolled back
        QCOMPARE(tree.snapshot(), before);
        // Nothing is remembered for revert: nothing changed.
        const auto state = readAppliedState(root);
        QVERIFY(state.ok());
        QVERIFY(!state->has_value());
    }

    void revertBringsBackTheFirstOriginals()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const auto before = tree.snapshot();
        const SysRoot root(tree.path());
        TuningSession session(root);
        const ProfileApplyReport a = applyProfile(profileOf("{\"match\": {\"type\": \"md\"}, \"set\": {\"read_ahead_kb\": 16384}}"),
                                                  session);
        QVERIFY2(a.ok(), a.report.error ? qPrintable(a.report.error->message) : "");
        QCOMPARE(tree.read(u"md0"_qs, u"queue/read_ahead_kb"_qs), u"16384"_qs);
        Profile second = profileOf("{\"match\": {\"type\": \"md\"}, \"set\": {\"read_ahead_kb\": 65536}},"
                                   "{\"match\": {\"name\": \"sdb\"}, \"set\": {\"scheduler\": \"bfq\"}}");
        second.name = u"second"_qs;
        const ProfileApplyReport b = applyProfile(second, session);
        QVERIFY(b.ok());
        QCOMPARE(b.statePath, a.statePath);
        const auto state = readAppliedState(root);
        QVERIFY(state.ok() && state->has_value());
        QCOMPARE((*state)->profiles, (QStringList{u"t"_qs, u"second"_qs}));
        // A profile that changes nothing does not touch what is remembered.
        const ProfileApplyReport again = applyProfile(second, session);
        QVERIFY(again.ok());
        QVERIFY(again.nothingToDo());

        // Revert in another session, as another process would.
        TuningSession later(root);
        const ProfileRevertReport back = revertProfile(later);
        QVERIFY(back.ok());
        // md0 goes back to 8192 (from before the FIRST apply), not 16384; the
        // scheduler switch took sdb's tunables and nr_requests, they come back.
        QCOMPARE(tree.read(u"md0"_qs, u"queue/read_ahead_kb"_qs), u"8192"_qs);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/nr_requests"_qs), u"64"_qs);
        QCOMPARE(tree.snapshot(), before);
        const auto gone = readAppliedState(root);
        QVERIFY(gone.ok());
        QVERIFY(!gone->has_value());
        const ProfileRevertReport nothing = revertProfile(later);
        QVERIFY(nothing.ok());
        QVERIFY(nothing.restore.messages.value(0).startsWith(u"no profile was applied here"_qs));
    }
};

QTEST_GUILESS_MAIN(TestProfileResolve)
#include "tst_profile_resolve.moc"
