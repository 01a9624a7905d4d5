#include "common/units.h"

#include <QTest>

using namespace blocktune;

class TestUnits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sizes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<quint64>("bytes");
        QTest::newRow("bytes") << u"4096"_qs << true << quint64(4096);
        QTest::newRow("64K") << u"64K"_qs << true << quint64(65536);
        QTest::newRow("lower k") << u"64k"_qs << true << quint64(65536);
        QTest::newRow("256M") << u"256M"_qs << true << quint64(256) * 1024 * 1024;
        QTest::newRow("1G") << u"1G"_qs << true << (quint64(1) << 30);
        QTest::newRow("MiB") << u"4MiB"_qs << true << quint64(4) * 1024 * 1024;
        QTest::newRow("zero") << u"0"_qs << true << quint64(0);
        QTest::newRow("negative") << u"-4K"_qs << false << quint64(0);
        QTest::newRow("fraction") << u"1.5M"_qs << false << quint64(0);
        QTest::newRow("unknown unit") << u"4X"_qs << false << quint64(0);
        QTest::newRow("empty") << QString() << false << quint64(0);
        QTest::newRow("overflow") << u"99999999999P"_qs << false << quint64(0);
    }
    void sizes()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(quint64, bytes);
        const auto parsed = parseSize(text, u"--bs"_qs);
        QCOMPARE(parsed.ok(), ok);
        if (ok)
            QCOMPARE(*parsed, bytes);
        else
            QVERIFY2(parsed.error().message.contains(u"--bs"_qs), qPrintable(parsed.error().message));
    }

    void durations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("ms") << u"100ms"_qs << true << qint64(100);
        QTest::newRow("s") << u"10s"_qs << true << qint64(10000);
        QTest::newRow("bare seconds") << u"3"_qs << true << qint64(3000);
        QTest::newRow("fraction") << u"1.5s"_qs << true << qint64(1500);
        QTest::newRow("minutes") << u"2m"_qs << true << qint64(120000);
        QTest::newRow("garbage") << u"soon"_qs << false << qint64(0);
        QTest::newRow("negative") << u"-1s"_qs << false << qint64(0);
    }
    void durations()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qint64, ms);
        const auto parsed = parseDurationMs(text, u"--time"_qs);
        QCOMPARE(parsed.ok(), ok);
        if (ok)
            QCOMPARE(*parsed, ms);
    }

    void formatting_data()
    {
        QTest::addColumn<quint64>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("bytes") << quint64(512) << u"512B"_qs;
        QTest::newRow("K") << quint64(1536) << u"1.5K"_qs;
        QTest::newRow("64M") << quint64(64) * 1024 * 1024 << u"64M"_qs;
        QTest::newRow("disk") << quint64(1000204886016) << u"931.5G"_qs;
    }
    void formatting()
    {
        QFETCH(quint64, bytes);
        QFETCH(QString, text);
        QCOMPARE(formatBytes(bytes), text);
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
