#pragma once
// A finished seq test as the engine reports it, stated as literals: a
// machine with loop0 at the given readahead delivering `mbps` in each run.
#include "readtest/readtest.h"

namespace blocktune::test {

inline ReadTestResult seqResult(quint64 readAheadKiB, QList<double> mbps)
{
    ReadTestResult r;
    r.kind = ReadTestKind::Sequential;
    r.device = QStringLiteral("loop0");
    r.spec.measure = {StreamTarget{QStringLiteral("loop0"), 0}};
    r.spec.sizeBytes = 16 << 20;
    r.spec.repeat = int(mbps.size());
    const char labels[] = "abcdefgh";
    for (qsizetype i = 0; i < mbps.size(); ++i) {
        RunResult run;
        run.label = QString(QLatin1Char(labels[i]));
        run.mbPerSec = mbps.at(i);
        run.seconds = 16.777216 / mbps.at(i);
        run.measuredBytes = 16 << 20;
        StreamResult s;
        s.name = s.device = QStringLiteral("loop0");
        s.bytes = 16 << 20;
        s.seconds = run.seconds;
        s.mbPerSec = mbps.at(i);
        run.streams = {s};
        RecordedSettings set;
        set.device = set.queueDevice = QStringLiteral("loop0");
        set.readAheadKiB = readAheadKiB;
        set.scheduler = QStringLiteral("none");
        set.nrRequests = 128;
        set.maxSectorsKiB = 1280;
        set.kernel = QStringLiteral("6.1.0-test");
        run.settings = {set};
        r.runs << run;
    }
    r.mbPerSec = summarize(mbps);
    return r;
}

} // namespace blocktune::test
