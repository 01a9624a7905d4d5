// The words of `set` (parseChangeWords): which device each KEY=VALUE is
// for, and the message a user reads when the words do not fit that shape.
// Devices, keys and values are the plan's to judge (tst_tuning_plan).
#include "tuning/tuning.h"

#include <QTest>

using namespace blocktune;

namespace {

const QString kKeys =
    u"read_ahead_kb, ra_sectors, scheduler, nr_requests, max_sectors_kb, context_readahead, iosched.NAME"_qs;

} // namespace

class TestChangeWords : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesTheWordsOfSet_data()
    {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QStringList>("changes"); // DEVICE KEY VALUE, as parsed
        QTest::addColumn<QString>("error");
        QTest::newRow("one setting") << QStringList{u"sdb"_qs, u"read_ahead_kb=4096"_qs}
                                     << QStringList{u"sdb read_ahead_kb 4096"_qs} << QString();
        QTest::newRow("two devices")
            << QStringList{u"sdb"_qs, u"read_ahead_kb=4096"_qs, u"sdc"_qs, u"read_ahead_kb=4096"_qs,
                           u"scheduler=mq-deadline"_qs}
            << QStringList{u"sdb read_ahead_kb 4096"_qs, u"sdc read_ahead_kb 4096"_qs,
                           u"sdc scheduler mq-deadline"_qs}
            << QString();
        QTest::newRow("path kept as written") << QStringList{u"/dev/disk/by-id/ata-X"_qs, u"ra_sectors=256"_qs}
                                              << QStringList{u"/dev/disk/by-id/ata-X ra_sectors 256"_qs}
                                              << QString();
        QTest::newRow("'=' inside the value") << QStringList{u"sdb"_qs, u"iosched.x=a=b"_qs}
                                              << QStringList{u"sdb iosched.x a=b"_qs} << QString();
        // The plan names the device that does not exist and the value it refuses.
        QTest::newRow("unknown device is the plan's")
            << QStringList{u"nosuch"_qs, u"read_ahead_kb=1"_qs} << QStringList{u"nosuch read_ahead_kb 1"_qs}
            << QString();
        QTest::newRow("unknown key is the plan's") << QStringList{u"sdb"_qs, u"speed=fast"_qs}
                                                   << QStringList{u"sdb speed fast"_qs} << QString();
        QTest::newRow("duplicate is the plan's")
            << QStringList{u"sdb"_qs, u"read_ahead_kb=1"_qs, u"read_ahead_kb=2"_qs}
            << QStringList{u"sdb read_ahead_kb 1"_qs, u"sdb read_ahead_kb 2"_qs} << QString();
        const QString longValue(5000, u'9');
        QTest::newRow("over-long value is the plan's")
            << QStringList{u"sdb"_qs, u"read_ahead_kb="_qs + longValue}
            << QStringList{u"sdb read_ahead_kb "_qs + longValue} << QString();

        QTest::newRow("empty") << QStringList{} << QStringList{}
                               << u"set needs a device and KEY=VALUE settings (keys: "_qs + kKeys + u')';
        QTest::newRow("empty word") << QStringList{QString()} << QStringList{}
                                    << u"set needs a device and KEY=VALUE settings (keys: "_qs + kKeys + u')';
        QTest::newRow("device alone") << QStringList{u"sdb"_qs} << QStringList{}
                                      << u"no settings given for sdb (keys: "_qs + kKeys + u')';
        QTest::newRow("missing '='") << QStringList{u"sdb"_qs, u"read_ahead_kb"_qs, u"4096"_qs} << QStringList{}
                                     << u"no settings given for sdb (write KEY=VALUE after the device, keys: "_qs
                                            + kKeys + u')';
        QTest::newRow("setting before any device")
            << QStringList{u"read_ahead_kb=4096"_qs, u"sdb"_qs} << QStringList{}
            << u"'read_ahead_kb=4096' comes before any device: write set DEVICE KEY=VALUE..."_qs;
        QTest::newRow("no value") << QStringList{u"sdb"_qs, u"read_ahead_kb="_qs} << QStringList{}
                                  << u"'read_ahead_kb=' has no value after '=' (write read_ahead_kb=VALUE as one "
                                     "word)"_qs;
        QTest::newRow("no key") << QStringList{u"sdb"_qs, u"=4096"_qs} << QStringList{}
                                << u"'=4096' is not KEY=VALUE (keys: "_qs + kKeys + u')';
        QTest::newRow("bad value with a space")
            << QStringList{u"sdb"_qs, u"read_ahead_kb= 12"_qs} << QStringList{}
            << u"'read_ahead_kb= 12' has a space in it: write KEY=VALUE as one word, e.g. read_ahead_kb=12"_qs;
        QTest::newRow("second device without settings")
            << QStringList{u"sdb"_qs, u"read_ahead_kb=1"_qs, u"sdc"_qs} << QStringList{}
            << u"no settings given for sdc (keys: "_qs + kKeys + u')';
    }
    void parsesTheWordsOfSet()
    {
        QFETCH(QStringList, words);
        QFETCH(QStringList, changes);
        QFETCH(QString, error);
        auto parsed = parseChangeWords(words);
        if (!error.isEmpty()) {
            QVERIFY(!parsed);
            QCOMPARE(parsed.error().code, int(InvalidArgument));
            QCOMPARE(parsed.error().message, error);
            return;
        }
        QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
        QStringList got;
        for (const SettingChange &c : *parsed)
            got << c.device + u' ' + c.key + u' ' + c.value.text();
        QCOMPARE(got, changes);
    }

    void aNumberIsReadAsOne()
    {
        auto parsed = parseChangeWords({u"sdb"_qs, u"read_ahead_kb=4096"_qs, u"scheduler=bfq"_qs});
        QVERIFY(parsed);
        QCOMPARE(parsed->at(0).value.number(), std::optional<quint64>(4096));
        QCOMPARE(parsed->at(1).value.number(), std::nullopt);
        // Past 2^64: not a number, so the plan refuses it rather than wrapping.
        auto huge = parseChangeWords({u"sdb"_qs, u"read_ahead_kb=99999999999999999999999"_qs});
        QVERIFY(huge);
        QCOMPARE(huge->at(0).value.number(), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestChangeWords)
#include "tst_changewords.moc"
