// The profile file format: what is refused and how it is said (file, line
// and column for broken JSON; rule and key for the rest), what is read, and
// that the file form reads back as it was written. The presets are held to
// the same parser.
#include "testsupport.h"

#include "profiles/profiles.h"

#include <QDir>
#include <QTest>

using namespace blocktune;

namespace {

QByteArray wrap(const QByteArray &rules)
{
    return "{\"schema\": 1, \"name\": \"p\", \"description\": \"d\", \"rules\": [" + rules + "]}";
}

} // namespace

class TestProfileFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message"); // the whole message, source "f.json"

        auto row = [](const char *name) -> QTestData & { return QTest::newRow(name); };
        row("empty file") << QByteArray("  \n") << u"f.json:1:1: the file is empty (a profile is {\"schema\": 1, \"name\": \"...\", "
                                                    "\"description\": \"...\", \"rules\": [{\"match\": {...}, \"set\": {...}}]})"_qs;
        row("truncated") << QByteArray("{\"schema\": 1,\n \"name\": \"p\",\n \"rules\": [{\"match\": {}")
                         << u"f.json:3:24: not valid JSON: unterminated object"_qs;
        row("stray comma, second line") << QByteArray("{\"schema\": 1,\n  \"name\": \"p\",, \"rules\": []}")
                                        << u"f.json:2:16: not valid JSON: unterminated object"_qs;
        // Qt's offset is a byte offset just past the problem; the column is in
        // characters (the two 2-byte é would make it 25).
        row("column counts characters, not bytes") << QByteArray("{\"description\": \"\xc3\xa9\xc3\xa9\" x}")
                                                    << u"f.json:1:23: not valid JSON: unterminated object"_qs;
        row("not an object") << QByteArray("[1, 2]") << u"f.json: a profile is {\"schema\": 1, \"name\": \"...\", \"description\": "
                                                          "\"...\", \"rules\": [{\"match\": {...}, \"set\": {...}}]}"_qs;
        row("unknown key in set (a typo)") << wrap("{\"match\": {}, \"set\": {\"readahed_kb\": 4096}}")
                                           << u"f.json: rule 1, set.readahed_kb: unknown key 'readahed_kb' (keys: read_ahead_kb, "
                                              "ra_sectors, scheduler, nr_requests, max_sectors_kb, context_readahead, iosched.NAME)"_qs;
        row("unknown top-level key") << QByteArray("{\"schema\": 1, \"name\": \"p\", \"rule\": [], \"rules\": "
                                                   "[{\"match\": {}, \"set\": {\"read_ahead_kb\": 1}}]}")
                                     << u"f.json: rule: unknown key 'rule' (keys: schema, name, description, rules)"_qs;
        row("unknown match key") << wrap("{\"match\": {\"uuid\": \"x\"}, \"set\": {\"read_ahead_kb\": 1}}")
                                 << u"f.json: rule 1, match.uuid: unknown key 'uuid' (keys: name, not_name, type, rotational, "
                                    "transport, model, serial, wwn, md_uuid, dm_name)"_qs;
        row("unknown rule key") << wrap("{\"match\": {}, \"sets\": {}, \"set\": {\"read_ahead_kb\": 1}}")
                                << u"f.json: rule 1.sets: unknown key 'sets' (keys: match, set, comment)"_qs;
        row("second rule is the bad one") << wrap("{\"match\": {}, \"set\": {\"read_ahead_kb\": 1}}, "
                                                  "{\"match\": {}, \"set\": {\"read_ahead_kb\": 5000000000}}")
                                          << u"f.json: rule 2, set.read_ahead_kb: 5000000000 is out of range (allowed: 0 to "
                                             "4294967295 KiB, as a number or a string; \">N\" only raises, \"<N\" only lowers)"_qs;
        row("negative") << wrap("{\"match\": {}, \"set\": {\"nr_requests\": -4}}")
                        << u"f.json: rule 1, set.nr_requests: -4 is not a whole number from 1 (allowed: 1 to 2147483647 requests "
                           "(the device decides the upper limit), as a number or a string; \">N\" only raises, \"<N\" only lowers)"_qs;
        row("fraction") << wrap("{\"match\": {}, \"set\": {\"read_ahead_kb\": 4.5}}")
                        << u"f.json: rule 1, set.read_ahead_kb: 4.5 is not a whole number from 0 (allowed: 0 to 4294967295 KiB, "
                           "as a number or a string; \">N\" only raises, \"<N\" only lowers)"_qs;
        row("word instead of number") << wrap("{\"match\": {}, \"set\": {\"read_ahead_kb\": \"lots\"}}")
                                      << u"f.json: rule 1, set.read_ahead_kb: 'lots' is not a whole number (allowed: 0 to "
                                         "4294967295 KiB, as a number or a string; \">N\" only raises, \"<N\" only lowers)"_qs;
        row("bound on a switch") << wrap("{\"match\": {}, \"set\": {\"context_readahead\": \">0\"}}")
                                 << u"f.json: rule 1, set.context_readahead: '>0': context_readahead takes no '>' or '<' "
                                    "(allowed: 0 to 1)"_qs;
        row("bound on a scheduler") << wrap("{\"match\": {}, \"set\": {\"scheduler\": \">bfq\"}}")
                                    << u"f.json: rule 1, set.scheduler: a scheduler name is needed, such as \"mq-deadline\" "
                                       "(got '>bfq')"_qs;
        row("both readahead keys") << wrap("{\"match\": {}, \"set\": {\"read_ahead_kb\": 1, \"ra_sectors\": 2}}")
                                   << u"f.json: rule 1: read_ahead_kb and ra_sectors are the same setting (the readahead, in "
                                      "KiB or in 512-byte sectors): give one"_qs;
        row("bad tunable name") << wrap("{\"match\": {}, \"set\": {\"iosched.Slice-Idle\": 0}}")
                                << u"f.json: rule 1, set.iosched.Slice-Idle: 'iosched.Slice-Idle' is not a scheduler tunable "
                                   "name (iosched.NAME, NAME of letters, digits and _)"_qs;
        row("unknown type") << wrap("{\"match\": {\"type\": \"raid\"}, \"set\": {\"read_ahead_kb\": 1}}")
                            << u"f.json: rule 1, match.type: unknown device type 'raid' (types: disk, part, md, dm, loop)"_qs;
        row("rotational as a string") << wrap("{\"match\": {\"rotational\": \"yes\"}, \"set\": {\"read_ahead_kb\": 1}}")
                                      << u"f.json: rule 1, match.rotational: must be true or false (got a string)"_qs;
        row("md uuid too short") << wrap("{\"match\": {\"md_uuid\": \"fbf1c0e0:c67c6a70\"}, \"set\": {\"read_ahead_kb\": 1}}")
                                 << u"f.json: rule 1, match.md_uuid: 'fbf1c0e0:c67c6a70' is not an md UUID (32 hex digits, as "
                                    "mdadm --detail prints it: 3cd62a1f:c0c0d9b7:4b4c3bd7:6fb6b2a1)"_qs;
        row("name with a slash") << wrap("{\"match\": {\"name\": \"../sda\"}, \"set\": {\"read_ahead_kb\": 1}}")
                                 << u"f.json: rule 1, match.name: '../sda' is not a kernel-name glob (letters, digits, _ . : - "
                                    "and the glob characters * ? [ ] !)"_qs;
        row("quote in a serial") << wrap("{\"match\": {\"serial\": \"a\\\"b\"}, \"set\": {\"read_ahead_kb\": 1}}")
                                 << u"f.json: rule 1, match.serial: 'a\"b' has characters an identity cannot have (printable, "
                                    "at most 128, no quotes, backslashes, $ % * ? [ ] |)"_qs;
        row("no match") << wrap("{\"set\": {\"read_ahead_kb\": 1}}")
                        << u"f.json: rule 1: no 'match' (which devices; {} for every device)"_qs;
        row("empty set") << wrap("{\"match\": {}, \"set\": {}}")
                         << u"f.json: rule 1: 'set' must be an object with at least one setting (keys: read_ahead_kb, "
                            "ra_sectors, scheduler, nr_requests, max_sectors_kb, context_readahead, iosched.NAME)"_qs;
        row("no rules") << QByteArray("{\"schema\": 1, \"name\": \"p\", \"rules\": []}")
                        << u"f.json: rules: a profile needs at least one rule"_qs;
        row("newer schema") << QByteArray("{\"schema\": 2, \"name\": \"p\", \"rules\": [{\"match\": {}, \"set\": "
                                          "{\"read_ahead_kb\": 1}}]}")
                            << u"f.json: schema: schema 2 is newer than this blocktune reads (1)"_qs;
        row("no schema") << QByteArray("{\"name\": \"p\", \"rules\": [{\"match\": {}, \"set\": {\"read_ahead_kb\": 1}}]}")
                         << u"f.json: no \"schema\" (this blocktune reads schema 1)"_qs;
        row("bad name") << QByteArray("{\"schema\": 1, \"name\": \"my profile\", \"rules\": [{\"match\": {}, \"set\": "
                                      "{\"read_ahead_kb\": 1}}]}")
                        << u"f.json: name: 'my profile' is not a profile name (letters, digits, _ . -, starting with a "
                           "letter or digit, at most 64)"_qs;
        // Exports write the description as tuned's summary= and as comment
        // lines: a NUL or an escape would cut or garble them.
        row("NUL in the description") << QByteArray("{\"schema\": 1, \"name\": \"p\", \"description\": \"a\\u0000b\", "
                                                     "\"rules\": [{\"match\": {}, \"set\": {\"read_ahead_kb\": 1}}]}")
                                      << u"f.json: description: a control character (U+0000) at character 2; text, line "
                                         "breaks and tabs are allowed"_qs;
        row("escape in a rule's comment") << wrap("{\"comment\": \"one\\u001b[2Jtwo\", \"match\": {}, \"set\": {\"read_ahead_kb\": 1}}")
                                          << u"f.json: rule 1, comment: a control character (U+001b) at character 4; text, "
                                             "line breaks and tabs are allowed"_qs;
        row("two problems, both said") << wrap("{\"match\": {\"type\": \"ssd\"}, \"set\": {\"scheduler\": 3}}")
                                       << u"f.json: rule 1, match.type: unknown device type 'ssd' (types: disk, part, md, dm, loop)\n"
                                          "f.json: rule 1, set.scheduler: a scheduler name is needed, such as \"mq-deadline\" "
                                          "(got a number)"_qs;
    }

    void refused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const Result<Profile> p = parseProfile(json, u"f.json"_qs);
        QVERIFY(!p.ok());
        QCOMPARE(p.error().message, message);
        QCOMPARE(p.error().code, int(InvalidArgument));
    }

    void read_data()
    {
        QTest::addColumn<QByteArray>("set");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("bound");

        QTest::newRow("number") << QByteArray("{\"read_ahead_kb\": 4096}") << u"read_ahead_kb"_qs << u"4096"_qs << int(ValueBound::Exact);
        QTest::newRow("number as string") << QByteArray("{\"read_ahead_kb\": \"4096\"}") << u"read_ahead_kb"_qs << u"4096"_qs
                                          << int(ValueBound::Exact);
        QTest::newRow("only raise") << QByteArray("{\"read_ahead_kb\": \">4096\"}") << u"read_ahead_kb"_qs << u"4096"_qs
                                    << int(ValueBound::AtLeast);
        QTest::newRow("only lower") << QByteArray("{\"ra_sectors\": \"<64\"}") << u"ra_sectors"_qs << u"64"_qs << int(ValueBound::AtMost);
        QTest::newRow("tunable") << QByteArray("{\"iosched.slice_idle\": 0}") << u"iosched.slice_idle"_qs << u"0"_qs << int(ValueBound::Exact);
        QTest::newRow("switch as bool") << QByteArray("{\"context_readahead\": true}") << u"context_readahead"_qs << u"1"_qs
                                        << int(ValueBound::Exact);
        QTest::newRow("scheduler") << QByteArray("{\"scheduler\": \"mq-deadline\"}") << u"scheduler"_qs << u"mq-deadline"_qs
                                   << int(ValueBound::Exact);
        QTest::newRow("largest readahead") << QByteArray("{\"read_ahead_kb\": 4294967295}") << u"read_ahead_kb"_qs
                                           << u"4294967295"_qs << int(ValueBound::Exact);
    }

    void read()
    {
        QFETCH(QByteArray, set);
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(int, bound);
        const Result<Profile> p = parseProfile(wrap("{\"match\": {}, \"set\": " + set + "}"), u"f.json"_qs);
        QVERIFY2(p.ok(), p.ok() ? "" : qPrintable(p.error().message));
        QCOMPARE(p->rules.size(), 1);
        QCOMPARE(p->rules[0].settings.size(), 1);
        QCOMPARE(p->rules[0].settings[0].key, key);
        QCOMPARE(p->rules[0].settings[0].value, value);
        QCOMPARE(int(p->rules[0].settings[0].bound), bound);
    }

    void matchKeysAreRead()
    {
        const Result<Profile> p = parseProfile(
            wrap("{\"match\": {\"name\": \"sd[b-i]\", \"not_name\": [\"sdc\", \"sdd\"], \"type\": \"disk\", "
                 "\"rotational\": true, \"transport\": \"sata\", \"model\": \"ST2000NM0033-9ZM\", \"serial\": \"Z1X\", "
                 "\"wwn\": \"0x5000c50063a1b2c0\", \"md_uuid\": \"FBF1C0E0-C67C-6A70-2636-79F8426416E5\", "
                 "\"dm_name\": \"vg-lv\"}, \"set\": {\"read_ahead_kb\": 1}}"),
            u"f.json"_qs);
        QVERIFY2(p.ok(), p.ok() ? "" : qPrintable(p.error().message));
        const ProfileMatch &m = p->rules[0].match;
        QCOMPARE(m.name, u"sd[b-i]"_qs);
        QCOMPARE(m.notName, (QStringList{u"sdc"_qs, u"sdd"_qs}));
        QCOMPARE(m.type, std::optional(DeviceType::Disk));
        QCOMPARE(m.rotational, std::optional(true));
        // The kernel's md/uuid form becomes mdadm's, which udev's MD_UUID uses.
        QCOMPARE(m.mdUuid, u"fbf1c0e0:c67c6a70:263679f8:426416e5"_qs);
        QCOMPARE(m.describe(), u"name sd[b-i], not sdc, sdd, type disk, rotational, transport sata, model "
                               "'ST2000NM0033-9ZM', serial Z1X, wwn 0x5000c50063a1b2c0, md_uuid "
                               "fbf1c0e0:c67c6a70:263679f8:426416e5, dm_name vg-lv"_qs);
    }

    void fileFormReadsBack()
    {
        Profile p;
        p.name = u"round-trip"_qs;
        p.description = u"Quotes \" and\nnewlines survive."_qs;
        ProfileRule a;
        a.match.mdUuid = u"fbf1c0e0:c67c6a70:263679f8:426416e5"_qs;
        a.settings = {{u"read_ahead_kb"_qs, u"32768"_qs, ValueBound::AtLeast}, {u"scheduler"_qs, u"none"_qs, ValueBound::Exact}};
        a.comment = u"saved from md0"_qs;
        ProfileRule b;
        b.match.name = u"sd*"_qs;
        b.match.notName = {u"sda"_qs};
        b.match.rotational = false;
        b.settings = {{u"iosched.fifo_batch"_qs, u"9223372036854775807"_qs, ValueBound::Exact}};
        p.rules = {a, b};
        const QByteArray json = profileToJson(p);
        const Result<Profile> back = parseProfile(json, u"f.json"_qs);
        QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().message));
        QCOMPARE(back->name, p.name);
        QCOMPARE(back->description, p.description);
        QCOMPARE(back->rules.size(), 2);
        QCOMPARE(back->rules[0].comment, a.comment);
        QCOMPARE(back->rules[0].match.describe(), a.match.describe());
        QCOMPARE(back->rules[0].settings.size(), 2);
        QCOMPARE(back->rules[0].settings[0].text(), u">32768"_qs);
        QCOMPARE(back->rules[1].match.describe(), u"name sd*, not sda, non-rotational"_qs);
        // Above 2^53 a JSON number would lose digits: it is kept as a string.
        QVERIFY(json.contains("\"iosched.fifo_batch\":\"9223372036854775807\""));
        QCOMPARE(back->rules[1].settings[0].value, u"9223372036854775807"_qs);
        QCOMPARE(profileToJson(*back), json);
    }

    void presetsParseAndSayWhenTheyFit()
    {
        const QDir dir(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        const QStringList files = dir.entryList({u"*.json"_qs}, QDir::Files);
        QCOMPARE(files, (QStringList{u"backup-target.json"_qs, u"database.json"_qs, u"desktop-defaults.json"_qs,
                                     u"streaming-md.json"_qs}));
        const ProfileStore store(u"/nonexistent/user"_qs, u"/nonexistent/system"_qs, dir.path());
        for (const QString &f : files) {
            const Result<Profile> p = store.load(f.chopped(5));
            QVERIFY2(p.ok(), p.ok() ? "" : qPrintable(p.error().message));
            QCOMPARE(p->name, f.chopped(5));
            QCOMPARE(p->source, u"preset "_qs + p->name);
            QVERIFY2(p->description.contains(u"Why: "_qs), qPrintable(f));
            QVERIFY2(p->description.size() > 300, qPrintable(f));
        }
        // The built-in copy is the same as the source tree's.
        const ProfileStore builtIn = ProfileStore::standard(SysRoot(u"/nonexistent"_qs));
        const Result<Profile> a = builtIn.load(u"streaming-md"_qs);
        const Result<Profile> b = store.load(u"streaming-md"_qs);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(profileToJson(*a), profileToJson(*b));
    }

    void storeOrderAndShadowing()
    {
        QTemporaryDir user, system;
        const QByteArray one = wrap("{\"match\": {}, \"set\": {\"read_ahead_kb\": 1}}");
        auto write = [](const QString &path, const QByteArray &data) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
        };
        QVERIFY(write(user.filePath(u"database.json"_qs), QByteArray(one).replace("\"d\"", "\"mine\"")));
        QVERIFY(write(system.filePath(u"site.json"_qs), one));
        QVERIFY(write(system.filePath(u"broken.json"_qs), "{"));
        const ProfileStore store(user.path(), system.path(), QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        QStringList names, origins;
        for (const ProfileEntry &e : store.list()) {
            names << e.name;
            origins << profileOriginName(e.origin);
        }
        QCOMPARE(names, (QStringList{u"backup-target"_qs, u"broken"_qs, u"database"_qs, u"desktop-defaults"_qs, u"site"_qs,
                                     u"streaming-md"_qs}));
        QCOMPARE(origins, (QStringList{u"preset"_qs, u"system"_qs, u"user"_qs, u"preset"_qs, u"system"_qs, u"preset"_qs}));
        const Result<Profile> mine = store.load(u"database"_qs);
        QVERIFY(mine.ok());
        QCOMPARE(mine->description, u"mine"_qs); // the user's hides the preset
        QVERIFY(store.list()[1].error.contains(u"broken.json:1:2: not valid JSON"_qs));
        const Result<Profile> none = store.load(u"nosuch"_qs);
        QVERIFY(!none.ok());
        QVERIFY(none.error().message.contains(u"no profile named 'nosuch'"_qs));
        QVERIFY(none.error().message.contains(u"(profiles: backup-target, broken, database, desktop-defaults, site, streaming-md)"_qs));
        const Result<Profile> bad = store.load(u"a b"_qs);
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.startsWith(u"'a b' is neither a profile name"_qs));
    }
};

QTEST_GUILESS_MAIN(TestProfileFormat)
#include "tst_profile_format.moc"
