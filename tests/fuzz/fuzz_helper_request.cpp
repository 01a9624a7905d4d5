// blocktune-helper's request parser: one input is one request line,
// answered by HelperService::handleLine on a copy of a recorded tree (the
// helper's only real input). Every answer is one JSON object with "ok";
// refusals carry a reason and a code.
#include "fuzzcheck.h"
#include "fuzztree.h"

#include "privilege/privilege.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>

using namespace blocktune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const HelperService service{SysRoot(fuzz::treeCopy("md-raid10-f2"))};
    const QByteArray line(reinterpret_cast<const char *>(data), qsizetype(size));
    const QByteArray answer = service.handleLine(line);

    FUZZ_CHECK(!answer.contains('\n')); // one line per request keeps the stream in step
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(answer, &error);
    FUZZ_CHECK(error.error == QJsonParseError::NoError && doc.isObject());
    const QJsonObject o = doc.object();
    FUZZ_CHECK(o.value(u"ok").isBool());
    if (!o.value(u"ok").toBool()) {
        FUZZ_CHECK(!o.value(u"error").toString().isEmpty());
        FUZZ_CHECK(!o.value(u"code").toString().isEmpty());
    } else {
        // Only the three ops ever succeed, and only on a single line (the
        // rules ops find no etc/udev/rules.d in a recorded tree).
        const QString op = o.value(u"op").toString();
        FUZZ_CHECK(op == u"hello" || op == u"get" || op == u"set");
        FUZZ_CHECK(line.size() <= kHelperMaxLine && !line.contains('\0'));
    }
    return 0;
}
