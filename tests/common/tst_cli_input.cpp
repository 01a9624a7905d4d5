// Malformed numbers, sizes, durations and units given to blocktune-cli, run
// as a program on a copied recorded tree: each is refused with exit 2 and a
// message that names the value and says what is allowed, and nothing in the
// tree (or the journal directory) changes.
#include "testsupport.h"

#include "../tuning/tuningtestutil.h"

#include <QDir>
#include <QTemporaryDir>

using namespace blocktune::test;

class TestCliInput : public QObject
{
    Q_OBJECT

    QTemporaryDir m_journals;
    std::unique_ptr<TreeCopy> m_tree;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_journals.isValid());
        qputenv("BLOCKTUNE_JOURNAL_DIR", m_journals.path().toLocal8Bit());
        m_tree = std::make_unique<TreeCopy>(u"md-raid10-f2"_qs);
        QVERIFY(m_tree->isValid());
    }

    void refused_data()
    {
        QTest::addColumn<QStringList>("args");    // after --sysroot TREE
        QTest::addColumn<QStringList>("message"); // every part must be in the error
        auto row = [](const char *name, const QStringList &args, const QStringList &message) {
            QTest::newRow(name) << args << message;
        };
        const QString kib = u"allowed: 0 to 4294967295"_qs;
        const QString size = u"use a number of bytes, or with K, M, G, T as binary multiples"_qs;
        const QString duration = u"use 100ms, 10s, 2m or 1h"_qs;

        // set KEY=VALUE: values are whole decimal numbers, one word.
        row("readahead with a unit", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=4k"_qs}, {u"read_ahead_kb '4k' on sdb"_qs, kib});
        row("readahead negative", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=-1"_qs}, {u"'-1'"_qs, kib});
        row("readahead exponent", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=1e3"_qs}, {u"'1e3'"_qs, kib});
        row("readahead hex", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=0x100"_qs}, {u"'0x100'"_qs, kib});
        row("readahead fraction", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=4096.5"_qs}, {u"'4096.5'"_qs, kib});
        row("readahead plus sign", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=+4096"_qs}, {u"'+4096'"_qs, kib});
        row("readahead above UINT_MAX", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=4294967296"_qs}, {u"'4294967296'"_qs, kib});
        row("readahead overflow", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=99999999999999999999999"_qs},
            {u"'99999999999999999999999'"_qs, kib});
        row("space after =", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb= 12"_qs},
            {u"'read_ahead_kb= 12' has a space in it"_qs, u"e.g. read_ahead_kb=12"_qs});
        row("space before =", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb =12"_qs}, {u"has a space in it"_qs});
        row("trailing tab", {u"set"_qs, u"sdb"_qs, u"max_sectors_kb=12\t"_qs}, {u"has a space in it"_qs});
        row("spaced scheduler", {u"set"_qs, u"sdb"_qs, u"scheduler= bfq"_qs}, {u"e.g. scheduler=bfq"_qs});
        row("no value", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb="_qs}, {u"'read_ahead_kb=' has no value after '='"_qs});
        row("value split off by the shell", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb="_qs, u"12"_qs}, {u"has no value after '='"_qs});
        row("no key", {u"set"_qs, u"sdb"_qs, u"=5"_qs}, {u"'=5' is not KEY=VALUE"_qs, u"keys: read_ahead_kb"_qs});
        row("double =", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb==5"_qs}, {u"'=5'"_qs, kib});
        row("sectors fraction", {u"set"_qs, u"sdb"_qs, u"ra_sectors=1.5"_qs}, {u"ra_sectors '1.5' on sdb"_qs, u"allowed: 0 to 8589934591"_qs});
        row("sectors above the range", {u"set"_qs, u"sdb"_qs, u"ra_sectors=8589934592"_qs}, {u"'8589934592'"_qs, u"allowed: 0 to 8589934591"_qs});
        row("nr_requests signed", {u"set"_qs, u"sdb"_qs, u"nr_requests=+5"_qs}, {u"nr_requests '+5' on sdb"_qs, u"allowed: 1 to 2048"_qs});
        row("nr_requests zero", {u"set"_qs, u"sdb"_qs, u"nr_requests=0"_qs}, {u"nr_requests 0 is out of range on sdb"_qs, u"allowed: 1 to 2048"_qs});
        row("nr_requests overflow", {u"set"_qs, u"sdb"_qs, u"nr_requests=18446744073709551616"_qs},
            {u"'18446744073709551616'"_qs, u"allowed: 1 to 2048"_qs});
        row("max_sectors_kb unit", {u"set"_qs, u"sdb"_qs, u"max_sectors_kb=1M"_qs}, {u"max_sectors_kb '1M' on sdb"_qs, u"allowed: 4 to"_qs});
        row("max_sectors_kb below a page", {u"set"_qs, u"sdb"_qs, u"max_sectors_kb=2"_qs}, {u"max_sectors_kb 2 is out of range"_qs, u"allowed: 4 to"_qs});
        row("tunable exponent", {u"set"_qs, u"sdb"_qs, u"iosched.read_expire=1e3"_qs},
            {u"iosched.read_expire '1e3' on sdb is not a whole number"_qs, u"allowed: 0 to"_qs});
        row("tunable negative", {u"set"_qs, u"sdb"_qs, u"iosched.read_expire=-1"_qs}, {u"'-1'"_qs, u"digits only"_qs});

        // --hold DURATION
        for (const char *bad : {"-1", "1e3", "5s5", "1.5.5s", "10d", "5S", "nan", "inf", "0x10", "soon"})
            QTest::addRow("hold %s", bad) << QStringList{u"set"_qs, u"sdb"_qs, u"read_ahead_kb=256"_qs, u"--hold"_qs,
                                                         QString::fromLatin1(bad)}
                                          << QStringList{u"--hold: '%1' is not a duration"_qs.arg(QLatin1StringView(bad)), duration};
        row("hold too long", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=256"_qs, u"--hold"_qs, u"99999999999999999999999h"_qs},
            {u"'99999999999999999999999h' is too long"_qs, u"at most 277777777h"_qs});
        row("hold zero", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=256"_qs, u"--hold"_qs, u"0"_qs}, {u"--hold needs a duration above zero"_qs});
        row("hold rounds to zero", {u"set"_qs, u"sdb"_qs, u"read_ahead_kb=256"_qs, u"--hold"_qs, u"0.0001ms"_qs},
            {u"--hold needs a duration above zero"_qs});

        // test / sweep: sizes, counts, durations (refused before any device is opened)
        row("bs unit", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--bs"_qs, u"4x"_qs}, {u"--bs: '4x' is not a size"_qs, size});
        row("bs negative", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--bs"_qs, u"-1"_qs}, {u"--bs: '-1' is not a size"_qs, size});
        row("bs exponent", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--bs"_qs, u"1e3"_qs}, {u"--bs: '1e3' is not a size"_qs, size});
        row("bs fraction", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--bs"_qs, u"1.5M"_qs}, {u"--bs: '1.5M' is not a size"_qs, size});
        row("bs zero", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--bs"_qs, u"0"_qs}, {u"--bs must be at least 1 byte"_qs});
        row("bs overflow", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--bs"_qs, u"99999999999999999999999"_qs},
            {u"--bs: '99999999999999999999999' is too large"_qs, u"at most 16E - 1 bytes"_qs});
        row("bs overflow by unit", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--bs"_qs, u"16384P"_qs},
            {u"--bs: '16384P' is too large"_qs, u"16383P"_qs});
        row("size unit", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--size"_qs, u"12Q"_qs}, {u"--size: '12Q' is not a size"_qs, size});
        row("size overflow", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--size"_qs, u"20000000T"_qs}, {u"--size: '20000000T' is too large"_qs});
        row("offset unit", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--offset"_qs, u"1x"_qs}, {u"--offset: '1x' is not a size"_qs, size});
        row("count negative", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--count"_qs, u"-3"_qs}, {u"--count '-3' is not a whole number from 1 to"_qs});
        row("count exponent", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--count"_qs, u"1e3"_qs}, {u"--count '1e3' is not a whole number"_qs});
        row("count overflow", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--count"_qs, u"99999999999999999999"_qs},
            {u"'99999999999999999999' is not a whole number from 1 to 18446744073709551615"_qs});
        row("repeat zero", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--repeat"_qs, u"0"_qs}, {u"--repeat '0' is not a whole number from 1 to 1000"_qs});
        row("time exponent", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--time"_qs, u"1e3"_qs}, {u"--time: '1e3' is not a duration"_qs, duration});
        row("time negative", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--time"_qs, u"-5s"_qs}, {u"--time: '-5s' is not a duration"_qs});
        row("interval zero", {u"test"_qs, u"seq"_qs, u"sdb"_qs, u"--interval"_qs, u"0"_qs}, {u"--interval 0 is out of range (10ms to 60s)"_qs});
        row("threads zero", {u"test"_qs, u"server"_qs, u"sdb"_qs, u"--threads"_qs, u"0"_qs}, {u"--threads '0' is not a whole number from 1 to"_qs});
        row("sweep readahead unit", {u"sweep"_qs, u"sdb"_qs, u"--ra"_qs, u"128,4x"_qs}, {u"'4x'"_qs});
        row("sweep readahead negative", {u"sweep"_qs, u"sdb"_qs, u"--ra"_qs, u"-128"_qs}, {u"'-128'"_qs});
    }
    void refused()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, message);
        const QByteArray before = m_tree->hash();
        const ProcessResult r = run(binary("blocktune-cli"), QStringList{u"--sysroot"_qs, m_tree->path()} + args, 60000);
        const QString err = QString::fromLocal8Bit(r.err);
        QCOMPARE(r.exitCode, 2);
        for (const QString &part : std::as_const(message))
            QVERIFY2(err.contains(part), qPrintable(u"missing '%1' in: %2"_qs.arg(part, err)));
        QCOMPARE(m_tree->hash(), before);
        QVERIFY(QDir(m_journals.path()).entryList({u"*.json*"_qs}, QDir::Files).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliInput)
#include "tst_cli_input.moc"
