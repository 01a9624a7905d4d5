// The monitor's text parsers: /proc/stat's intr line, /proc/interrupts,
// and a /proc/diskstats line, each fed real layouts and garbage.
#include "monitor/monitor.h"

#include <QTest>

using namespace blocktune;

Q_DECLARE_METATYPE(std::optional<quint64>)

namespace {

// Captured on the development VM (kernel 6.18, 2 CPUs), trimmed.
const QByteArray kInterrupts6 =
    "           CPU0       CPU1       \n"
    " 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
    " 35:          0          1 PCI-MSIX-0000:00:02.0   0-edge      virtio1-config\n"
    " 36:          0      58633 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
    "NMI:          0          0   Non-maskable interrupts\n"
    "LOC:      24472      25869   Local timer interrupts\n"
    "ERR:          0\n"
    "MIS:          0\n";

} // namespace

class TestMonitorParsers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void interruptTotal_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<std::optional<quint64>>("total");
        const QByteArray cpu = "cpu  8463 0 2903 102853 355 0 69 19 0 0\ncpu0 3978 0 1154 52174 17 0 10 5 0 0\n";
        QTest::newRow("6.x") << QByteArray(cpu + "intr 190517 0 0 13 0\nctxt 4411\n")
                             << std::optional<quint64>(190517);
        QTest::newRow("first line") << QByteArray("intr 5 1 1 1 1 1\n") << std::optional<quint64>(5);
        QTest::newRow("no newline at end") << QByteArray(cpu + "intr 42") << std::optional<quint64>(42);
        QTest::newRow("only the total") << QByteArray("intr 7\n") << std::optional<quint64>(7);
        QTest::newRow("64-bit total") << QByteArray("intr 18446744073709551615 0\n")
                                      << std::optional<quint64>(UINT64_MAX);
        QTest::newRow("no intr line") << QByteArray(cpu + "ctxt 4411\n") << std::optional<quint64>();
        QTest::newRow("empty") << QByteArray() << std::optional<quint64>();
        QTest::newRow("intr without number") << QByteArray("intr \n") << std::optional<quint64>();
        QTest::newRow("intr word") << QByteArray("intr lots 1 2\n") << std::optional<quint64>();
        QTest::newRow("intr negative") << QByteArray("intr -5 1\n") << std::optional<quint64>();
        QTest::newRow("overflow") << QByteArray("intr 18446744073709551616 0\n") << std::optional<quint64>();
        QTest::newRow("intrx is another key") << QByteArray("intrx 9\n") << std::optional<quint64>();
        QTest::newRow("indented is not the line") << QByteArray(" intr 9\n") << std::optional<quint64>();
        QTest::newRow("digits glued to a word") << QByteArray("intr 12ab 3\n") << std::optional<quint64>();
    }
    void interruptTotal()
    {
        QFETCH(QByteArray, text);
        QFETCH(std::optional<quint64>, total);
        QCOMPARE(parseInterruptTotal(text), total);
    }

    void statInterrupts_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<quint64>("total");
        QTest::addColumn<QList<quint64>>("perIrq");
        QTest::newRow("columns") << QByteArray("cpu  1 2 3\nintr 190517 0 7 13\nctxt 9\n") << true
                                 << quint64(190517) << QList<quint64>{0, 7, 13};
        QTest::newRow("total only") << QByteArray("intr 5\n") << true << quint64(5) << QList<quint64>();
        QTest::newRow("trailing spaces") << QByteArray("intr 5 1 2   \n") << true << quint64(5)
                                         << QList<quint64>{1, 2};
        QTest::newRow("garbage column") << QByteArray("intr 5 1 x 2\n") << false << quint64(0) << QList<quint64>();
        QTest::newRow("overflowing column") << QByteArray("intr 5 99999999999999999999999\n") << false
                                            << quint64(0) << QList<quint64>();
        QTest::newRow("no intr line") << QByteArray("cpu 1 2\n") << false << quint64(0) << QList<quint64>();
        QTest::newRow("empty") << QByteArray() << false << quint64(0) << QList<quint64>();
    }
    void statInterrupts()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        QFETCH(quint64, total);
        QFETCH(QList<quint64>, perIrq);
        const auto parsed = parseStatInterrupts(text);
        QCOMPARE(parsed.has_value(), ok);
        if (ok) {
            QCOMPARE(parsed->total, total);
            QCOMPARE(QList<quint64>(parsed->perIrq.begin(), parsed->perIrq.end()), perIrq);
        }
    }

    void interruptRows_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QList<int>>("irqs");
        QTest::addColumn<QList<quint64>>("counts");
        QTest::addColumn<QStringList>("firstActions");
        QTest::addColumn<QString>("firstChip");

        QTest::newRow("6.x per-device MSI-X chip")
            << kInterrupts6 << QList<int>{24, 35, 36} << QList<quint64>{1, 1, 58633}
            << QStringList{u"ACPI:Ged"_qs} << u"IO-APIC 5-edge"_qs;
        QTest::newRow("6.1 PCI-MSI with hwirq")
            << QByteArray("           CPU0       CPU1       CPU2\n"
                          " 34:          0    4380323     279596   PCI-MSI 512000-edge      ahci[0000:00:1f.2]\n"
                          "131:    4234030          0          0   PCI-MSI 31981569-edge      nvme0q1\n")
            << QList<int>{34, 131} << QList<quint64>{4659919, 4234030}
            << QStringList{u"ahci[0000:00:1f.2]"_qs} << u"PCI-MSI 512000-edge"_qs;
        QTest::newRow("2.6 chip-type glued, shared line")
            << QByteArray("           CPU0       CPU1       \n"
                          " 16:          5          7   IO-APIC-fasteoi   uhci_hcd:usb3, ahci, eth1\n"
                          "218:     462111     198048   PCI-MSI-edge      ahci\n")
            << QList<int>{16, 218} << QList<quint64>{12, 660159}
            << QStringList{u"uhci_hcd:usb3"_qs, u"ahci"_qs, u"eth1"_qs} << u"IO-APIC-fasteoi"_qs;
        QTest::newRow("GENERIC_IRQ_SHOW_LEVEL Edge column")
            << QByteArray("           CPU0\n"
                          "  5:         10  GICv3  27 Level     arch_timer\n")
            << QList<int>{5} << QList<quint64>{10} << QStringList{u"arch_timer"_qs} << u"GICv3 27 Level"_qs;
        QTest::newRow("action with spaces")
            << QByteArray("           CPU0\n  9:   3   IO-APIC   9-fasteoi   acpi, my driver name\n")
            << QList<int>{9} << QList<quint64>{3} << QStringList{u"acpi"_qs, u"my driver name"_qs}
            << u"IO-APIC 9-fasteoi"_qs;
        QTest::newRow("no actions")
            << QByteArray("           CPU0       CPU1\n  7:   0   0   IO-APIC   7-edge\n")
            << QList<int>{7} << QList<quint64>{0} << QStringList() << u"IO-APIC 7-edge"_qs;
        QTest::newRow("no header: counts until the chip")
            << QByteArray(" 36:          0      58633 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n")
            << QList<int>{36} << QList<quint64>{58633} << QStringList{u"virtio1-req.0"_qs}
            << u"PCI-MSIX-0000:00:02.0 1-edge"_qs;
        QTest::newRow("garbage rows skipped")
            << QByteArray("           CPU0       CPU1\n"
                          "garbage\n"
                          "12 no colon 5 5\n"
                          "abc:   1   2   chip   x\n"
                          " 13:   lots   of   words\n"
                          " 14:\n"
                          "-15:   1   1   chip   neg\n"
                          " 16:   99999999999999999999999   1   chip   overflow\n"
                          "99999999999:   1   1   chip   irq number too large\n"
                          "\n"
                          " 17:   2   3   IO-APIC   17-fasteoi   good\n")
            << QList<int>{17} << QList<quint64>{5} << QStringList{u"good"_qs} << u"IO-APIC 17-fasteoi"_qs;
        QTest::newRow("empty") << QByteArray() << QList<int>() << QList<quint64>() << QStringList() << QString();
        QTest::newRow("only named rows")
            << QByteArray("           CPU0\nNMI:   0   Non-maskable interrupts\nERR:   0\n")
            << QList<int>() << QList<quint64>() << QStringList() << QString();
    }
    void interruptRows()
    {
        QFETCH(QByteArray, text);
        QFETCH(QList<int>, irqs);
        QFETCH(QList<quint64>, counts);
        QFETCH(QStringList, firstActions);
        QFETCH(QString, firstChip);

        const QList<IrqRow> rows = parseInterrupts(text);
        QList<int> gotIrqs;
        QList<quint64> gotCounts;
        for (const IrqRow &row : rows) {
            gotIrqs << row.irq;
            gotCounts << row.count;
        }
        QCOMPARE(gotIrqs, irqs);
        QCOMPARE(gotCounts, counts);
        if (!rows.isEmpty()) {
            QCOMPARE(rows.constFirst().actions, firstActions);
            QCOMPARE(rows.constFirst().chip, firstChip);
        }
        // The per-tick parser sees the same rows and sums.
        const QHash<int, quint64> fast = parseInterruptCounts(text);
        QCOMPARE(fast.size(), qsizetype(irqs.size()));
        for (qsizetype i = 0; i < irqs.size(); ++i)
            QCOMPARE(fast.value(irqs[i]), counts[i]);
    }

    void diskStatsLine_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<int>("fields");
        QTest::addColumn<quint64>("sectorsRead");
        QTest::newRow("5.5+ 17 fields")
            << QByteArray(" 254       0 vda 32974 7567 2705274 8094 28794 8526 2199704 12612 0 6236 21523 6459 43 422816 583 4092 232")
            << true << QByteArray("vda") << 17 << quint64(2705274);
        QTest::newRow("4.18 15 fields") << QByteArray("8 16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15")
                                        << true << QByteArray("sdb") << 15 << quint64(3);
        QTest::newRow("2.6 11 fields") << QByteArray("   9       0 md0 10 0 80 0 0 0 0 0 0 0 0")
                                       << true << QByteArray("md0") << 11 << quint64(80);
        QTest::newRow("tabs") << QByteArray("7\t0\tloop0\t1\t0\t8\t0\t0\t0\t0\t0\t0\t0\t0")
                              << true << QByteArray("loop0") << 11 << quint64(8);
        QTest::newRow("too few fields") << QByteArray("8 0 sda 1 2 3") << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("word in counters") << QByteArray("8 0 sda 1 2 x 4 5 6 7 8 9 10 11")
                                          << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("no name") << QByteArray("8 0") << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("garbage") << QByteArray("hello world") << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("empty") << QByteArray() << false << QByteArray() << 0 << quint64(0);
        // u64 at its limit still parses; one more, or more digits, would wrap
        // to a small number that looks real: the line is refused instead.
        QTest::newRow("u64 max") << QByteArray("8 0 sda 1 2 18446744073709551615 4 5 6 7 8 9 10 11")
                                 << true << QByteArray("sda") << 11 << quint64(18446744073709551615ULL);
        QTest::newRow("u64 max + 1") << QByteArray("8 0 sda 1 2 18446744073709551616 4 5 6 7 8 9 10 11")
                                     << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("21 digits") << QByteArray("8 0 sda 1 2 100000000000000000003 4 5 6 7 8 9 10 11")
                                   << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("40 digits") << QByteArray("8 0 sda 1 2 1844674407370955161618446744073709551616 4 5 6 7 8 9 10 11")
                                   << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("garbage glued to the last counter")
            << QByteArray("259 3 nvme0n1p3 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 2985\xff\xff")
            << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("garbage glued to a counter") << QByteArray("8 0 sda 1 2 3x 4 5 6 7 8 9 10 11")
                                                    << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("huge major") << QByteArray("4294967304 0 sda 1 2 3 4 5 6 7 8 9 10 11")
                                    << false << QByteArray() << 0 << quint64(0);
        QTest::newRow("huge minor") << QByteArray("8 99999999999999999999999 sda 1 2 3 4 5 6 7 8 9 10 11")
                                    << false << QByteArray() << 0 << quint64(0);
    }
    void diskStatsLine()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, ok);
        QFETCH(QByteArray, name);
        QFETCH(int, fields);
        QFETCH(quint64, sectorsRead);
        QByteArrayView parsedName;
        DiskCounters counters;
        QCOMPARE(parseDiskStatsLine(line, parsedName, counters), ok);
        if (ok) {
            QCOMPARE(parsedName.toByteArray(), name);
            QCOMPARE(counters.fieldsPresent, fields);
            QCOMPARE(counters[DiskCounters::SectorsRead], sectorsRead);
        }
        // The whole-file parser agrees line for line.
        const DiskStatsTable table = parseDiskStats(line);
        QCOMPARE(table.size(), ok ? 1 : 0);
    }
};

QTEST_GUILESS_MAIN(TestMonitorParsers)
#include "tst_monitorparsers.moc"
