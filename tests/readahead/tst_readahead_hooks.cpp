// Which hooks the readahead probe takes on kernels this machine is not: the
// tracepoints where all four are there, fentry of the functions where they
// are not, and where neither is there a message naming the tracepoints the
// kernel lacks (everything else keeps working: only `readahead` fails).
#include "readahead/readahead_p.h"

#include <QTest>

using namespace blocktune;
using namespace blocktune::readahead_detail;

namespace {

KernelHooks kernel(const QStringList &missingTracepoints, bool functions)
{
    KernelHooks k;
    k.tracepoints = missingTracepoints.isEmpty();
    k.missingTracepoints = missingTracepoints;
    k.functions = functions;
    return k;
}

} // namespace

class TestReadaheadHooks : public QObject
{
    Q_OBJECT

private slots:
    void choosesWhatTheKernelHasOrNamesWhatItLacks_data()
    {
        QTest::addColumn<int>("hooks");
        QTest::addColumn<QStringList>("missing");
        QTest::addColumn<bool>("functions");
        QTest::addColumn<QByteArray>("forced");
        QTest::addColumn<int>("fentry"); // 0 tracepoints, 1 fentry, -1 refused
        QTest::addColumn<QString>("says");
        const auto automatic = int(ReadaheadProbe::Hooks::Automatic);
        const QStringList none;
        const QStringList before616{u"readahead:page_cache_sync_ra"_qs, u"readahead:page_cache_async_ra"_qs,
                                    u"readahead:page_cache_ra_order"_qs, u"readahead:page_cache_ra_unbounded"_qs};
        QTest::newRow("6.18: tracepoints") << automatic << none << true << QByteArray() << 0 << QString();
        QTest::newRow("no tracepoints: fentry") << automatic << before616 << true << QByteArray() << 1 << QString();
        QTest::newRow("one tracepoint missing: fentry")
            << automatic << QStringList{u"readahead:page_cache_ra_order"_qs} << true << QByteArray() << 1 << QString();
        QTest::newRow("neither: named")
            << automatic << before616 << false << QByteArray() << -1
            << u"neither the readahead tracepoints (missing: readahead:page_cache_sync_ra, "
               "readahead:page_cache_async_ra, readahead:page_cache_ra_order, readahead:page_cache_ra_unbounded)"_qs;
        QTest::newRow("forced fentry on 6.18") << automatic << none << true << QByteArray("fentry") << 1 << QString();
        QTest::newRow("forced tracepoints, one missing")
            << automatic << QStringList{u"readahead:page_cache_ra_unbounded"_qs} << true << QByteArray("tracepoints")
            << -1 << u"no tracepoint readahead:page_cache_ra_unbounded"_qs;
        QTest::newRow("fentry asked, no functions")
            << int(ReadaheadProbe::Hooks::Fentry) << none << false << QByteArray() << -1
            << u"no function page_cache_sync_ra and page_cache_async_ra"_qs;
        QTest::newRow("garbage in the variable: automatic")
            << automatic << none << true << QByteArray("kprobes") << 0 << QString();
    }

    void choosesWhatTheKernelHasOrNamesWhatItLacks()
    {
        QFETCH(int, hooks);
        QFETCH(QStringList, missing);
        QFETCH(bool, functions);
        QFETCH(QByteArray, forced);
        QFETCH(int, fentry);
        QFETCH(QString, says);
        const auto chosen = chooseFentry(ReadaheadProbe::Hooks(hooks), kernel(missing, functions), forced);
        if (fentry < 0) {
            QVERIFY(!chosen);
            QVERIFY2(chosen.error().message.contains(says), qPrintable(chosen.error().message));
            QVERIFY(chosen.error().message.startsWith(u"readahead cannot be observed: "_qs));
            return;
        }
        QVERIFY2(chosen, chosen ? "" : qPrintable(chosen.error().message));
        QCOMPARE(*chosen, fentry == 1);
    }
};

QTEST_GUILESS_MAIN(TestReadaheadHooks)
#include "tst_readahead_hooks.moc"
