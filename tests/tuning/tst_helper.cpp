// blocktune-helper, run as a program with request lines on stdin: every
// hostile or malformed request is refused with a reason and changes
// nothing; good requests write and report what the kernel kept. Also the
// client side (HelperClient/HelperWriter) and the polkit action file.
#include "tuningtestutil.h"

#include "monitor/helperlatency.h"
#include "privilege/privilege.h"
#include "readahead/helperreadahead.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QXmlStreamReader>

#include <QStandardPaths>

#include <atomic>
#include <cstdio>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

void writeMode(const QString &path, const QByteArray &data, QFile::Permissions mode)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(data), data.size());
    f.close();
    QVERIFY(f.setPermissions(mode));
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

QList<QJsonObject> answers(const QByteArray &out)
{
    QList<QJsonObject> list;
    for (const QByteArray &line : out.split('\n'))
        if (!line.isEmpty())
            list.append(QJsonDocument::fromJson(line).object());
    return list;
}

ProcessResult helper(const QStringList &args, const QByteArray &input)
{
    return run(binary("blocktune-helper"), args, 30000, input);
}

struct HostileRequest
{
    const char *name;
    QByteArray line;
    QString error; ///< a substring of the reason
    QString code;
};

QByteArray setLine(const QByteArray &device, const QByteArray &attribute, const QByteArray &value)
{
    return "{\"op\":\"set\",\"device\":\"" + device + "\",\"attribute\":\"" + attribute + "\",\"value\":\"" + value + "\"}";
}

// Device names that are paths, traversals, control characters or too long,
// and names that exist but lead outside sys/devices (the table's tree has
// sys/class/block/evil -> /tmp and sys/class/block/escape -> ../../..).
void addDeviceNameRows(QList<HostileRequest> &rows)
{
    const QString notName = u"is not a block device kernel name"_qs;
    rows += {
        {"traversal ../sda", setLine("../sda", "read_ahead_kb", "1"), u"'../sda' is not a block device kernel name"_qs, u"invalid"_qs},
        {"traversal sda/..", setLine("sda/..", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"dot-dot", "{\"op\":\"get\",\"device\":\"..\",\"attribute\":\"scheduler\"}", notName, u"invalid"_qs},
        {"dot", setLine(".", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"dev path", setLine("/dev/sdb", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"sys path", setLine("/sys/block/sdb", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"name with a slash", setLine("sdb/queue", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"dots inside", setLine("sd..b", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"escaped NUL in the name", setLine("sd\\u0000b", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"raw NUL byte", QByteArray("{\"op\":\"get\",\"device\":\"sd\0b\",\"attribute\":\"scheduler\"}", 50), u"NUL byte"_qs, u"invalid"_qs},
        {"space in the name", "{\"op\":\"get\",\"device\":\"sdb \",\"attribute\":\"scheduler\"}", notName, u"invalid"_qs},
        {"tab in the name", setLine("sd\\tb", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"newline in the name", setLine("sdb\\n", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"non-ASCII name", setLine("sd\\u0431", "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"65-character name", setLine(QByteArray(65, 'a'), "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"4000-character name", setLine(QByteArray(4000, 'b'), "read_ahead_kb", "1"), notName, u"invalid"_qs},
        {"shell in the name", setLine("sdb;reboot", "read_ahead_kb", "1"), u"no block device named 'sdb;reboot'"_qs, u"not_found"_qs},
        {"glob", setLine("sd*", "read_ahead_kb", "1"), u"no block device named 'sd*'"_qs, u"not_found"_qs},
        {"no such device", setLine("sdz", "read_ahead_kb", "1"), u"no block device named 'sdz'"_qs, u"not_found"_qs},
        {"empty device", setLine("", "read_ahead_kb", "128"), u"no device named in the request"_qs, u"invalid"_qs},
        {"no device", "{\"op\":\"set\",\"attribute\":\"read_ahead_kb\",\"value\":\"128\"}", u"no device named in the request"_qs, u"invalid"_qs},
        {"partition", setLine("sda1", "read_ahead_kb", "128"), u"sda1 is a partition: its queue settings belong to the whole disk sda"_qs, u"refused"_qs},
        {"link out of sysfs", setLine("evil", "read_ahead_kb", "1"), u"'evil' does not lead to a device directory under sysfs"_qs, u"refused"_qs},
        {"link up the tree", setLine("escape", "read_ahead_kb", "1"), u"'escape' does not lead to a device directory under sysfs"_qs, u"refused"_qs},
    };
}

// Attributes outside the allowlist, spelled every way a path can be.
void addAttributeRows(QList<HostileRequest> &rows)
{
    const QString notOurs = u"is not one blocktune changes"_qs;
    rows += {
        {"attribute not allowed", setLine("sdb", "queue/rotational", "0"), u"attribute 'queue/rotational' is not one blocktune changes"_qs, u"refused"_qs},
        {"rotational", setLine("sdb", "rotational", "0"), notOurs, u"refused"_qs},
        {"prefixed queue/", setLine("sdb", "queue/read_ahead_kb", "1"), notOurs, u"refused"_qs},
        {"absolute path", setLine("sdb", "/sys/block/sdb/queue/read_ahead_kb", "1"), notOurs, u"refused"_qs},
        {"attribute traversal", setLine("sdb", "../../etc/passwd", "x"), u"attribute '../../etc/passwd' is not one blocktune changes"_qs, u"refused"_qs},
        {"trailing slash", setLine("sdb", "read_ahead_kb/", "1"), notOurs, u"refused"_qs},
        {"upper case", setLine("sdb", "READ_AHEAD_KB", "1"), notOurs, u"refused"_qs},
        {"trailing space", setLine("sdb", "read_ahead_kb ", "1"), notOurs, u"refused"_qs},
        {"read-only limit", setLine("sdb", "max_hw_sectors_kb", "1"), notOurs, u"refused"_qs},
        {"uevent", setLine("sdb", "uevent", "add"), notOurs, u"refused"_qs},
        {"vm/drop_caches", "{\"op\":\"set\",\"attribute\":\"vm/drop_caches\",\"value\":\"3\"}", notOurs, u"refused"_qs},
        {"vm traversal", "{\"op\":\"set\",\"attribute\":\"vm/../vm/enable_context_readahead\",\"value\":\"1\"}", notOurs, u"refused"_qs},
        {"empty attribute", setLine("sdb", "", "1"), notOurs, u"refused"_qs},
        {"tunable traversal", setLine("sdb", "iosched/../../../../x", "1"), u"is not a scheduler tunable name"_qs, u"invalid"_qs},
        {"tunable with a slash", setLine("sdb", "iosched/read_expire/x", "1"), u"is not a scheduler tunable name"_qs, u"invalid"_qs},
        {"empty tunable", setLine("sdb", "iosched/", "1"), u"is not a scheduler tunable name"_qs, u"invalid"_qs},
        {"upper-case tunable", setLine("sdb", "iosched/READ_EXPIRE", "1"), u"is not a scheduler tunable name"_qs, u"invalid"_qs},
        {"100-character tunable", setLine("sdb", QByteArray("iosched/" + QByteArray(100, 'a')), "1"), u"is not a scheduler tunable name"_qs, u"invalid"_qs},
        {"tunable of another scheduler", setLine("sdb", "iosched/slice_idle", "0"), u"slice_idle is not a tunable of mq-deadline, the active scheduler on sdb"_qs, u"not_found"_qs},
        {"context switch missing", setLine("sdb", "context_readahead", "1"), u"sdb has no queue/context_readahead switch"_qs, u"not_found"_qs},
        {"vm switch with a device", setLine("sdb", "vm/enable_context_readahead", "1"), u"is machine-wide: send it without a device"_qs, u"invalid"_qs},
        {"vm switch missing", "{\"op\":\"set\",\"attribute\":\"vm/enable_context_readahead\",\"value\":\"1\"}", u"this kernel has no /proc/sys/vm/enable_context_readahead"_qs, u"not_found"_qs},
        {"nr_requests on md", setLine("md0", "nr_requests", "64"), u"not settable here"_qs, u"invalid"_qs},
    };
}

// Values: several words or lines, signs, units, bases, exponents,
// overflow, and numbers outside what the kernel takes.
void addValueRows(QList<HostileRequest> &rows)
{
    const QString notDecimal = u"not a whole decimal number (allowed: 0 to 4294967295 KiB)"_qs;
    const QString notPrintable = u"the value must be one line of printable ASCII"_qs;
    rows += {
        {"two lines in a value", setLine("sdb", "read_ahead_kb", "4096\\n1"), notPrintable, u"invalid"_qs},
        {"carriage return", setLine("sdb", "read_ahead_kb", "4096\\r"), notPrintable, u"invalid"_qs},
        {"escaped NUL in a value", setLine("sdb", "read_ahead_kb", "4096\\u0000"), notPrintable, u"invalid"_qs},
        {"non-ASCII value", setLine("sdb", "scheduler", "bfq\\u00e9"), notPrintable, u"invalid"_qs},
        {"long value", setLine("sdb", "read_ahead_kb", QByteArray(100, '9')), u"longer than 64 characters"_qs, u"invalid"_qs},
        {"negative", setLine("sdb", "read_ahead_kb", "-1"), notDecimal, u"invalid"_qs},
        {"plus sign", setLine("sdb", "read_ahead_kb", "+4096"), notDecimal, u"invalid"_qs},
        {"leading space", setLine("sdb", "read_ahead_kb", " 4096"), notDecimal, u"invalid"_qs},
        {"two words", setLine("sdb", "read_ahead_kb", "4096 8192"), notDecimal, u"invalid"_qs},
        {"hex", setLine("sdb", "read_ahead_kb", "0x1000"), notDecimal, u"invalid"_qs},
        {"unit", setLine("sdb", "read_ahead_kb", "4k"), notDecimal, u"invalid"_qs},
        {"exponent", setLine("sdb", "read_ahead_kb", "1e3"), notDecimal, u"invalid"_qs},
        {"fraction", setLine("sdb", "read_ahead_kb", "4096.0"), notDecimal, u"invalid"_qs},
        {"empty value", setLine("sdb", "read_ahead_kb", ""), notDecimal, u"invalid"_qs},
        {"above UINT_MAX", setLine("sdb", "read_ahead_kb", "4294967296"), u"out of range (allowed: 0 to 4294967295 KiB)"_qs, u"invalid"_qs},
        {"2^64", setLine("sdb", "read_ahead_kb", "18446744073709551616"), u"out of range (allowed: 0 to 4294967295 KiB)"_qs, u"invalid"_qs},
        {"max_sectors_kb above hw", setLine("sdb", "max_sectors_kb", "999999"), u"max_sectors_kb '999999' on sdb: out of range (allowed: 4 to"_qs, u"invalid"_qs},
        {"max_sectors_kb below a page", setLine("sdb", "max_sectors_kb", "3"), u"out of range (allowed: 4 to"_qs, u"invalid"_qs},
        {"nr_requests zero", setLine("sdb", "nr_requests", "0"), u"out of range (allowed: 1 to 2048)"_qs, u"invalid"_qs},
        {"nr_requests above MAX_SCHED_RQ", setLine("sdb", "nr_requests", "4096"), u"out of range (allowed: 1 to 2048)"_qs, u"invalid"_qs},
        {"tunable negative", setLine("sdb", "iosched/read_expire", "-1"), u"not a whole decimal number"_qs, u"invalid"_qs},
        {"tunable words", setLine("sdb", "iosched/read_expire", "500 ms"), u"not a whole decimal number"_qs, u"invalid"_qs},
        {"scheduler not listed", setLine("sdb", "scheduler", "cfq"), u"scheduler 'cfq' is not available on sdb (available: none, mq-deadline, kyber, bfq)"_qs, u"invalid"_qs},
        {"scheduler with a space", setLine("sdb", "scheduler", "none bfq"), u"scheduler 'none bfq' is not available on sdb"_qs, u"invalid"_qs},
        {"scheduler in brackets", setLine("sdb", "scheduler", "[bfq]"), u"scheduler '[bfq]' is not available on sdb"_qs, u"invalid"_qs},
        {"scheduler path", setLine("sdb", "scheduler", "../none"), u"scheduler '../none' is not available on sdb"_qs, u"invalid"_qs},
        {"number instead of string", "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":4096}", u"field 'value' must be a string"_qs, u"invalid"_qs},
        {"null value", "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":null}", u"field 'value' must be a string"_qs, u"invalid"_qs},
        {"array value", "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":[\"1\"]}", u"field 'value' must be a string"_qs, u"invalid"_qs},
        {"object value", "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":{\"v\":\"1\"}}", u"field 'value' must be a string"_qs, u"invalid"_qs},
    };
}

// The protocol itself: not JSON, not an object, wrong types, unknown ops
// and fields, lines too long.
void addProtocolRows(QList<HostileRequest> &rows)
{
    const QString notObject = u"request is not a JSON object"_qs;
    QByteArray nested(3000, '[');
    rows += {
        {"not JSON", "read_ahead_kb=4096", notObject, u"invalid"_qs},
        {"JSON array", "[\"set\"]", notObject, u"invalid"_qs},
        {"JSON string", "\"hello\"", notObject, u"invalid"_qs},
        {"JSON number", "42", notObject, u"invalid"_qs},
        {"JSON null", "null", notObject, u"invalid"_qs},
        {"empty line", "", notObject, u"invalid"_qs},
        {"truncated object", "{\"op\":\"set\",\"device\":\"sdb\"", notObject, u"invalid"_qs},
        {"trailing garbage", "{\"op\":\"hello\"} x", notObject, u"invalid"_qs},
        {"two objects on a line", "{\"op\":\"hello\"}{\"op\":\"hello\"}", notObject, u"invalid"_qs},
        {"nested 3000 deep", nested, notObject, u"invalid"_qs},
        {"invalid UTF-8", "{\"op\":\"get\",\"device\":\"sd\xff\xfe\",\"attribute\":\"scheduler\"}", notObject, u"invalid"_qs},
        {"unknown op", "{\"op\":\"exec\",\"device\":\"sdb\"}", u"unknown op 'exec' (ops: hello, get, set, install_rules, remove_rules, latency, readahead)"_qs, u"invalid"_qs},
        {"upper-case op", setLine("sdb", "read_ahead_kb", "1").replace("\"set\"", "\"SET\""), u"unknown op 'SET'"_qs, u"invalid"_qs},
        {"op with a space", setLine("sdb", "read_ahead_kb", "1").replace("\"set\"", "\"set \""), u"unknown op 'set '"_qs, u"invalid"_qs},
        {"no op", "{\"device\":\"sdb\"}", u"unknown op ''"_qs, u"invalid"_qs},
        {"op a number", "{\"op\":1}", u"field 'op' must be a string"_qs, u"invalid"_qs},
        {"op null", "{\"op\":null,\"device\":\"sdb\"}", u"field 'op' must be a string"_qs, u"invalid"_qs},
        {"device a number", "{\"op\":\"get\",\"device\":5,\"attribute\":\"scheduler\"}", u"field 'device' must be a string"_qs, u"invalid"_qs},
        {"attribute a list", "{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":[\"scheduler\"]}", u"field 'attribute' must be a string"_qs, u"invalid"_qs},
        {"id an object", "{\"op\":\"hello\",\"id\":{\"a\":1}}", u"field 'id' must be a number or a short string"_qs, u"invalid"_qs},
        {"id a bool", "{\"op\":\"hello\",\"id\":true}", u"field 'id' must be a number or a short string"_qs, u"invalid"_qs},
        {"id too long", QByteArray("{\"op\":\"hello\",\"id\":\"" + QByteArray(100, 'i') + "\"}"), u"field 'id' must be a number or a short string"_qs, u"invalid"_qs},
        {"unknown field", "{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"scheduler\",\"command\":\"/bin/sh\"}", u"unknown field 'command'"_qs, u"invalid"_qs},
        {"path field", "{\"op\":\"set\",\"path\":\"/etc/passwd\",\"value\":\"x\"}", u"unknown field 'path'"_qs, u"invalid"_qs},
        {"get with a value", "{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"scheduler\",\"value\":\"x\"}", u"'get' takes no value"_qs, u"invalid"_qs},
        {"set without a value", "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\"}", u"'set' needs a string 'value'"_qs, u"invalid"_qs},
        {"4097-byte line", setLine("sdb", "read_ahead_kb", "1").replace("\"sdb\"", QByteArray("\"" + QByteArray(4097 - 62, 's') + "\"")), u"request longer than 4096 bytes refused"_qs, u"invalid"_qs},
        {"100 KB line", QByteArray("{\"op\":\"hello\",\"id\":\"" + QByteArray(100000, 'h') + "\"}"), u"request longer than 4096 bytes refused"_qs, u"invalid"_qs},
        // QJsonDocument keeps the last of two equal keys: this get was a set
        // of 4096 (issue 36).
        {"op twice, get then set", "{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"op\":\"set\",\"value\":\"4096\"}", u"field 'op' appears twice in the request (each field once)"_qs, u"invalid"_qs},
        {"op twice, the second escaped", "{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"o\\u0070\":\"set\",\"value\":\"4096\"}", u"field 'op' appears twice"_qs, u"invalid"_qs},
        {"value twice", "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"128\",\"value\":\"4096\"}", u"field 'value' appears twice"_qs, u"invalid"_qs},
        {"device twice", "{\"op\":\"set\",\"device\":\"sdc\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"4096\"}", u"field 'device' appears twice"_qs, u"invalid"_qs},
    };
}

// The udev rules ops of `profile install`: paths outside
// /etc/udev/rules.d/, names not NN-blocktune-*.rules, content blocktune did
// not generate, fields of other ops (tests/profiles/tst_profile_install has
// the files and links that are already there).
QByteArray rulesLine(const QByteArray &op, const QByteArray &name, const QByteArray &content)
{
    QJsonObject o{{QStringLiteral("op"), QString::fromLatin1(op)}, {QStringLiteral("name"), QString::fromLatin1(name)}};
    if (!content.isNull())
        o.insert(u"content", QString::fromUtf8(content));
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

void addRulesRows(QList<HostileRequest> &rows)
{
    const QByteArray head = "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", ";
    const QByteArray good = "# Generated by blocktune from profile 'x'\n" + head + "ATTR{queue/read_ahead_kb}=\"1\"\n";
    const QString badName = u"is not a blocktune rules file name"_qs;
    rows += {
        {"rules file outside the folder", rulesLine("install_rules", "../../../etc/cron.d/x", good), badName, u"refused"_qs},
        {"rules file by absolute path", rulesLine("install_rules", "/etc/udev/rules.d/70-blocktune-x.rules", good), badName, u"refused"_qs},
        {"rules name with traversal", rulesLine("install_rules", "70-blocktune-../../x.rules", good), badName, u"refused"_qs},
        {"another package's rules file", rulesLine("install_rules", "60-persistent-storage.rules", good), badName, u"refused"_qs},
        {"remove another package's rules", rulesLine("remove_rules", "60-persistent-storage.rules", QByteArray()), badName, u"refused"_qs},
        {"rules without the marker", rulesLine("install_rules", "70-blocktune-x.rules", "# mine\n" + head + "ATTR{queue/read_ahead_kb}=\"1\"\n"),
         u"must start with the line"_qs, u"refused"_qs},
        {"rules that run a program", rulesLine("install_rules", "70-blocktune-x.rules", good + head + "RUN=\"/bin/sh\"\n"),
         u"the assignment RUN is not one blocktune writes"_qs, u"refused"_qs},
        {"rules with a substitution", rulesLine("install_rules", "70-blocktune-x.rules",
                                                good + head + "ATTR{queue/read_ahead_kb}=\"$attr{size}\"\n"),
         u"must be a number"_qs, u"refused"_qs},
        {"rules writing another attribute", rulesLine("install_rules", "70-blocktune-x.rules", good + head + "ATTR{../../uevent}=\"add\"\n"),
         u"not a list of KEY"_qs, u"refused"_qs},
        {"rules op with a device", "{\"op\":\"install_rules\",\"device\":\"sdb\",\"name\":\"70-blocktune-x.rules\",\"content\":\"x\"}",
         u"'install_rules' takes 'name' and 'content', nothing else"_qs, u"invalid"_qs},
    };
}

// The "latency" op: only its fixed form (devices, interval_ms) is taken;
// nothing here may load a program (latencyRefusalsLoadNothing checks).
QByteArray latencyLine(const QByteArray &devices, const QByteArray &interval, const QByteArray &extra = {})
{
    return "{\"op\":\"latency\",\"devices\":" + devices + ",\"interval_ms\":" + interval + extra + "}";
}

QList<HostileRequest> latencyRows()
{
    const QString notName = u"is not a block device kernel name (no '/', no '..'"_qs;
    const QString needsDevices = u"'latency' needs 'devices', a list of 1 to 128 block device kernel names"_qs;
    const QString wholeMs = u"'interval_ms' must be a whole number of milliseconds from 100 to 60000"_qs;
    const QString onlyFields = u"'latency' takes 'devices' and 'interval_ms', nothing else"_qs;
    QByteArray many = "[";
    for (int i = 0; i < 129; ++i)
        many += (i ? ",\"" : "\"") + QByteArray("sdb") + "\"";
    many += ']';
    return {
        {"latency: empty device list", latencyLine("[]", "1000"), u"'devices' is empty: name 1 to 128 block device kernel names"_qs, u"invalid"_qs},
        {"latency: no device list", "{\"op\":\"latency\",\"interval_ms\":1000}", needsDevices, u"invalid"_qs},
        {"latency: devices a string", latencyLine("\"sdb\"", "1000"), needsDevices, u"invalid"_qs},
        {"latency: devices an object", latencyLine("{\"sdb\":1}", "1000"), needsDevices, u"invalid"_qs},
        {"latency: 129 devices", latencyLine(many, "1000"), u"'devices' lists 129 devices: at most 128 are allowed"_qs, u"invalid"_qs},
        {"latency: ../sda", latencyLine("[\"../sda\"]", "1000"), u"'../sda' "_qs + notName, u"invalid"_qs},
        {"latency: sda/..", latencyLine("[\"sdb\",\"sda/..\"]", "1000"), u"'sda/..' "_qs + notName, u"invalid"_qs},
        {"latency: /dev path", latencyLine("[\"/dev/sdb\"]", "1000"), notName, u"invalid"_qs},
        {"latency: no such device", latencyLine("[\"sdz\"]", "1000"), u"no block device named 'sdz'"_qs, u"not_found"_qs},
        {"latency: link out of sysfs", latencyLine("[\"evil\"]", "1000"), u"'evil' does not lead to a device directory under sysfs"_qs, u"refused"_qs},
        {"latency: duplicate device", latencyLine("[\"sdb\",\"sdc\",\"sdb\"]", "1000"), u"device 'sdb' is listed twice in 'devices' (name each device once)"_qs, u"invalid"_qs},
        {"latency: device a number", latencyLine("[\"sdb\",5]", "1000"), u"'devices' entry 2 is not a string (allowed: 1 to 128 block device kernel names"_qs, u"invalid"_qs},
        {"latency: empty name", latencyLine("[\"\"]", "1000"), u"'devices' entry 1 is empty (allowed: 1 to 128 block device kernel names"_qs, u"invalid"_qs},
        {"latency: interval 0", latencyLine("[\"sdb\"]", "0"), u"'interval_ms' 0 is out of range (allowed: 100 to 60000 ms)"_qs, u"invalid"_qs},
        {"latency: interval negative", latencyLine("[\"sdb\"]", "-100"), u"'interval_ms' -100 is out of range (allowed: 100 to 60000 ms)"_qs, u"invalid"_qs},
        {"latency: interval below 100", latencyLine("[\"sdb\"]", "99"), u"'interval_ms' 99 is out of range"_qs, u"invalid"_qs},
        {"latency: interval huge", latencyLine("[\"sdb\"]", "1e15"), u"'interval_ms' 1e+15 is out of range (allowed: 100 to 60000 ms)"_qs, u"invalid"_qs},
        {"latency: interval a string", latencyLine("[\"sdb\"]", "\"1000\""), wholeMs + u" (got \"1000\")"_qs, u"invalid"_qs},
        {"latency: interval a fraction", latencyLine("[\"sdb\"]", "250.5"), wholeMs + u" (got 250.5)"_qs, u"invalid"_qs},
        {"latency: interval null", latencyLine("[\"sdb\"]", "null"), wholeMs + u" (got null)"_qs, u"invalid"_qs},
        {"latency: interval a list", latencyLine("[\"sdb\"]", "[1000]"), wholeMs + u" (got a list)"_qs, u"invalid"_qs},
        {"latency: no interval", "{\"op\":\"latency\",\"devices\":[\"sdb\"]}", u"'latency' needs 'interval_ms', a whole number of milliseconds from 100 to 60000"_qs, u"invalid"_qs},
        {"latency: program path", latencyLine("[\"sdb\"]", "1000", ",\"program\":\"/tmp/evil.bpf.o\""), u"unknown field 'program'"_qs, u"invalid"_qs},
        {"latency: path", latencyLine("[\"sdb\"]", "1000", ",\"path\":\"/sys/fs/bpf/x\""), u"unknown field 'path'"_qs, u"invalid"_qs},
        {"latency: map", latencyLine("[\"sdb\"]", "1000", ",\"map\":\"latency\""), u"unknown field 'map'"_qs, u"invalid"_qs},
        {"latency: unknown field", latencyLine("[\"sdb\"]", "1000", ",\"count\":5"), u"unknown field 'count'"_qs, u"invalid"_qs},
        {"latency: a set's device", latencyLine("[\"sdb\"]", "1000", ",\"device\":\"sdb\""), onlyFields + u" (got 'device')"_qs, u"invalid"_qs},
        {"latency: a set's value", latencyLine("[\"sdb\"]", "1000", ",\"value\":\"1\""), onlyFields + u" (got 'value')"_qs, u"invalid"_qs},
        {"latency: op a list", "{\"op\":[\"latency\"],\"devices\":[\"sdb\"],\"interval_ms\":1000}", u"field 'op' must be a string"_qs, u"invalid"_qs},
        {"latency fields on get", "{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"scheduler\",\"interval_ms\":1000}", u"'devices' and 'interval_ms' belong to latency"_qs, u"invalid"_qs},
    };
}

QByteArray readaheadLine(const QByteArray &interval, const QByteArray &extra = {})
{
    return "{\"op\":\"readahead\",\"interval_ms\":" + interval + extra + "}";
}

// The "readahead" op takes one field: its checks, one by one.
QList<HostileRequest> readaheadRows()
{
    const QString wholeMs = u"'interval_ms' must be a whole number of milliseconds from 100 to 60000"_qs;
    const QString onlyInterval = u"'readahead' takes 'interval_ms', nothing else"_qs;
    return {
        {"readahead: no interval", "{\"op\":\"readahead\"}", u"'readahead' needs 'interval_ms', a whole number of milliseconds from 100 to 60000"_qs, u"invalid"_qs},
        {"readahead: interval 0", readaheadLine("0"), u"'interval_ms' 0 is out of range (allowed: 100 to 60000 ms)"_qs, u"invalid"_qs},
        {"readahead: interval negative", readaheadLine("-250"), u"'interval_ms' -250 is out of range (allowed: 100 to 60000 ms)"_qs, u"invalid"_qs},
        {"readahead: interval below 100", readaheadLine("99"), u"'interval_ms' 99 is out of range"_qs, u"invalid"_qs},
        {"readahead: interval above 60000", readaheadLine("60001"), u"'interval_ms' 60001 is out of range (allowed: 100 to 60000 ms)"_qs, u"invalid"_qs},
        {"readahead: interval huge", readaheadLine("1e300"), u"'interval_ms' 1e+300 is out of range"_qs, u"invalid"_qs},
        {"readahead: interval a string", readaheadLine("\"1000\""), wholeMs + u" (got \"1000\")"_qs, u"invalid"_qs},
        {"readahead: interval a fraction", readaheadLine("100.5"), wholeMs + u" (got 100.5)"_qs, u"invalid"_qs},
        {"readahead: interval true", readaheadLine("true"), wholeMs + u" (got true)"_qs, u"invalid"_qs},
        {"readahead: interval null", readaheadLine("null"), wholeMs + u" (got null)"_qs, u"invalid"_qs},
        {"readahead: interval an object", readaheadLine("{\"ms\":1000}"), wholeMs + u" (got an object)"_qs, u"invalid"_qs},
        {"readahead: program path", readaheadLine("1000", ",\"program\":\"/tmp/evil.bpf.o\""), u"unknown field 'program'"_qs, u"invalid"_qs},
        {"readahead: path", readaheadLine("1000", ",\"path\":\"/sys/fs/bpf/x\""), u"unknown field 'path'"_qs, u"invalid"_qs},
        {"readahead: map", readaheadLine("1000", ",\"map\":\"readahead_windows\""), u"unknown field 'map'"_qs, u"invalid"_qs},
        {"readahead: unknown field", readaheadLine("1000", ",\"count\":5"), u"unknown field 'count'"_qs, u"invalid"_qs},
        {"readahead: devices", readaheadLine("1000", ",\"devices\":[\"sdb\"]"), onlyInterval + u" (got 'devices')"_qs, u"invalid"_qs},
        {"readahead: a set's device", readaheadLine("1000", ",\"device\":\"sdb\""), onlyInterval + u" (got 'device')"_qs, u"invalid"_qs},
        {"readahead: a set's value", readaheadLine("1000", ",\"value\":\"1\""), onlyInterval + u" (got 'value')"_qs, u"invalid"_qs},
        {"readahead: a rules file", readaheadLine("1000", ",\"content\":\"RUN+=\\\"/bin/sh\\\"\""), onlyInterval + u" (got 'content')"_qs, u"invalid"_qs},
        {"readahead: interval twice", "{\"op\":\"readahead\",\"interval_ms\":1000,\"interval_ms\":50}", u"field 'interval_ms' appears twice"_qs, u"invalid"_qs},
        {"readahead: op a list", "{\"op\":[\"readahead\"],\"interval_ms\":1000}", u"field 'op' must be a string"_qs, u"invalid"_qs},
    };
}

QList<HostileRequest> hostileRequests()
{
    QList<HostileRequest> rows;
    addDeviceNameRows(rows);
    addAttributeRows(rows);
    addValueRows(rows);
    addProtocolRows(rows);
    addRulesRows(rows);
    rows += latencyRows();
    rows += readaheadRows();
    // A request good in every field: the helper on a recorded tree loads
    // nothing (its program would time this machine under the tree's names).
    rows += {"latency on a recorded tree", latencyLine("[\"sdb\",\"sda1\",\"md0\"]", "1000"),
             u"latency histograms measure the live machine, not a recorded tree (--sysroot): nothing was loaded"_qs,
             u"refused"_qs};
    rows += {"readahead on a recorded tree", readaheadLine("1000"),
             u"readahead is watched on the live machine, not a recorded tree (--sysroot): nothing was loaded"_qs,
             u"refused"_qs};
    return rows;
}

// A latency source that counts for the tree's sdb (8:16) what a test says.
class FakeLatency final : public LatencySource
{
public:
    explicit FakeLatency(quint64 *reads) : m_reads(reads) {}
    Result<LatencyTotalsMap> totals() override
    {
        DeviceLatencyTotals t;
        t.read.requests = *m_reads;
        t.read.queueNs = *m_reads * 3000;
        t.read.deviceNs = *m_reads * 100000;
        t.read.queue.counts[1] = *m_reads;  // 2-4 us
        t.read.device.counts[6] = *m_reads; // 64-128 us
        return LatencyTotalsMap{{deviceNumber(8, 16), t}};
    }

private:
    quint64 *m_reads;
};

// A readahead source whose counters a test sets: `async` windows of 256
// pages (all at the cap) for the tree's sdb (8:16).
class FakeReadahead final : public ReadaheadSource
{
public:
    explicit FakeReadahead(quint64 *async, bool *gone) : m_async(async), m_gone(gone) {}
    ~FakeReadahead() override { *m_gone = true; }
    Q_DISABLE_COPY_MOVE(FakeReadahead)
    Result<ReadaheadSnapshot> snapshot() override
    {
        ReadaheadSnapshot s;
        ReadaheadKindCounters &async = s.devices[deviceNumber(8, 16)].of(ReadaheadKind::Async);
        async.windows = *m_async;
        async.atCap = *m_async;
        async.sizes.insert(256, *m_async);
        async.pagesReadAhead = *m_async * 256;
        s.takenMs = qint64(1000 + *m_async);
        return s;
    }
    ReadaheadCoverage coverage() const override
    {
        ReadaheadCoverage c;
        c.pages = false;
        c.pagesUnavailable = u"pages not counted: a fake"_qs;
        return c;
    }

private:
    quint64 *m_async;
    bool *m_gone;
};

/// The helper's peak RSS bound under the flood: Qt Core and one line's
/// work fit in a few MiB (measured: 8.5 MiB); the flood itself is ~100 MB. Sanitizer builds
/// carry shadow memory and a quarantine of freed blocks (16 MB here; measured 74 MiB).
#ifdef BLOCKTUNE_SANITIZED
constexpr qint64 kHelperMaxHwmKiB = 160 * 1024;
#else
constexpr qint64 kHelperMaxHwmKiB = 24 * 1024;
#endif

} // namespace

class TestHelper : public QObject
{
    Q_OBJECT

    // One copy for the hostile tables: refusals must leave it as it was.
    std::unique_ptr<TreeCopy> m_tree;

private Q_SLOTS:
    void initTestCase()
    {
        m_tree = std::make_unique<TreeCopy>(u"md-raid10-f2"_qs);
        QVERIFY(m_tree->isValid());
        // Names that exist in class/block but lead out of sys/devices.
        const QString classBlock = m_tree->path() + u"/sys/class/block/"_qs;
        QCOMPARE(::symlink("/tmp", QFile::encodeName(classBlock + u"evil"_qs).constData()), 0);
        QCOMPARE(::symlink("../../..", QFile::encodeName(classBlock + u"escape"_qs).constData()), 0);
    }

    // Requests the helper must carry out: what the kernel (here the tree)
    // kept comes back.
    void request_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("value");
        QTest::newRow("hello") << QByteArray("{\"op\":\"hello\"}") << QString();
        QTest::newRow("get scheduler") << QByteArray("{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"scheduler\"}") << u"mq-deadline"_qs;
        QTest::newRow("get tunable") << QByteArray("{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"iosched/read_expire\"}") << u"500"_qs;
        QTest::newRow("set readahead") << QByteArray("{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"4096\"}") << u"4096"_qs;
        QTest::newRow("set tunable") << QByteArray("{\"op\":\"set\",\"device\":\"sdc\",\"attribute\":\"iosched/fifo_batch\",\"value\":\"8\"}") << u"8"_qs;
        QTest::newRow("set scheduler") << QByteArray("{\"op\":\"set\",\"device\":\"sdd\",\"attribute\":\"scheduler\",\"value\":\"bfq\"}") << u"bfq"_qs;
    }
    void request()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, value);
        TreeCopy tree(u"md-raid10-f2"_qs);
        const ProcessResult r = helper({u"--sysroot"_qs, tree.path()}, line + '\n');
        QCOMPARE(r.exitCode, 0); // EOF ends the session normally
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 1);
        QVERIFY2(got[0].value(u"ok").toBool(), r.out);
        if (!value.isEmpty())
            QCOMPARE(got[0].value(u"value").toString(), value);
    }

    // Every hostile request (hostileRequests() above): one answer,
    // {"ok":false} with the reason and its code, and not one byte of the
    // tree changed (hashed before and after, symlinks and modes included).
    void hostileRequest_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("code");
        const QList<HostileRequest> rows = hostileRequests();
        QVERIFY(rows.size() >= 60);
        for (const HostileRequest &h : rows)
            QTest::newRow(h.name) << h.line << h.error << h.code;
    }
    void hostileRequest()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, error);
        QFETCH(QString, code);
        const QByteArray before = m_tree->hash();
        const ProcessResult r = helper({u"--sysroot"_qs, m_tree->path()}, line + '\n');
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 1);
        const QJsonObject &a = got.constFirst();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QVERIFY2(a.value(u"error").toString().contains(error), qPrintable(a.value(u"error").toString()));
        QCOMPARE(a.value(u"code").toString(), code);
        QCOMPARE(m_tree->hash(), before);
    }

    // The latency rows in-process, with a loader that would serve even a
    // recorded tree: each is refused with its reason before anything loads.
    void latencyRefusalsLoadNothing_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("code");
        for (const HostileRequest &h : latencyRows())
            QTest::newRow(h.name) << h.line << h.error << h.code;
    }
    void latencyRefusalsLoadNothing()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, error);
        QFETCH(QString, code);
        int loads = 0;
        quint64 reads = 0;
        const HelperService service(SysRoot(m_tree->path()),
                                    helperLatencyOp(SysRoot(m_tree->path()), [&]() -> Result<std::unique_ptr<LatencySource>> {
                                        ++loads;
                                        return std::unique_ptr<LatencySource>(std::make_unique<FakeLatency>(&reads));
                                    }));
        std::unique_ptr<HelperStream> stream;
        const QJsonObject a = QJsonDocument::fromJson(service.handleLine(line, &stream)).object();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QVERIFY2(a.value(u"error").toString().contains(error), qPrintable(a.value(u"error").toString()));
        QCOMPARE(a.value(u"code").toString(), code);
        QCOMPARE(loads, 0);
        QVERIFY(!stream);
    }

    // The fixed form, in-process with a fake source: the answer is tick 0,
    // each tick carries the cumulative totals of the devices asked (those
    // with requests), the end line counts the ticks; a partition and an md
    // array are devices the program counts too. Without a stream to keep
    // (the fuzzer's call) the request is refused unloaded.
    void latencyStreamInProcess()
    {
        int loads = 0;
        quint64 reads = 0;
        const HelperService service(SysRoot(m_tree->path()),
                                    helperLatencyOp(SysRoot(m_tree->path()), [&]() -> Result<std::unique_ptr<LatencySource>> {
                                        ++loads;
                                        return std::unique_ptr<LatencySource>(std::make_unique<FakeLatency>(&reads));
                                    }));
        const QByteArray line = "{\"op\":\"latency\",\"id\":3,\"devices\":[\"sdb\",\"sda1\",\"md0\"],\"interval_ms\":250}";
        const QJsonObject refused = QJsonDocument::fromJson(service.handleLine(line)).object();
        QVERIFY(!refused.value(u"ok").toBool());
        QCOMPARE(loads, 0);

        std::unique_ptr<HelperStream> stream;
        const QJsonObject first = QJsonDocument::fromJson(service.handleLine(line, &stream)).object();
        QVERIFY2(first.value(u"ok").toBool(), qPrintable(first.value(u"error").toString()));
        QCOMPARE(loads, 1);
        QVERIFY(stream);
        QCOMPARE(stream->intervalMs(), 250);
        QCOMPARE(first.value(u"id").toInt(), 3);
        QCOMPARE(first.value(u"tick").toInt(), 0);
        QCOMPARE(first.value(u"interval_ms").toInt(), 250);
        reads = 40;
        const QJsonObject tick = QJsonDocument::fromJson(stream->tick()).object();
        QCOMPARE(tick.value(u"tick").toInt(), 1);
        const QJsonObject devices = tick.value(u"devices").toObject();
        QCOMPARE(devices.keys(), QStringList{u"sdb"_qs}); // sda1 and md0 completed nothing
        const QJsonObject sdb = devices.value(u"sdb").toObject();
        QCOMPARE(sdb.value(u"dev").toString(), u"8:16"_qs);
        const QJsonObject read = sdb.value(u"read").toObject();
        QCOMPARE(read.value(u"requests").toInt(), 40);
        QCOMPARE(read.value(u"queue_ns").toInt(), 120000);
        QCOMPARE(read.value(u"device_ns").toInt(), 4000000);
        QCOMPARE(read.value(u"queue").toArray(), (QJsonArray{QJsonArray{4, 40}}));
        QCOMPARE(read.value(u"device").toArray(), (QJsonArray{QJsonArray{128, 40}}));
        QCOMPARE(sdb.value(u"write").toObject().value(u"requests").toInt(), 0);
        const QJsonObject end = QJsonDocument::fromJson(stream->end()).object();
        QVERIFY(end.value(u"end").toBool());
        QCOMPARE(end.value(u"ticks").toInt(), 2);
        QCOMPARE(end.value(u"id").toInt(), 3);
    }

    // The readahead rows in-process, with a loader that would serve even a
    // recorded tree: each is refused with its reason before anything loads.
    void readaheadRefusalsLoadNothing_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("code");
        for (const HostileRequest &h : readaheadRows())
            QTest::newRow(h.name) << h.line << h.error << h.code;
    }
    void readaheadRefusalsLoadNothing()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, error);
        QFETCH(QString, code);
        int loads = 0;
        quint64 async = 0;
        bool gone = false;
        const HelperService service(SysRoot(m_tree->path()), {},
                                    helperReadaheadOp(SysRoot(m_tree->path()), [&]() -> Result<std::unique_ptr<ReadaheadSource>> {
                                        ++loads;
                                        return std::unique_ptr<ReadaheadSource>(std::make_unique<FakeReadahead>(&async, &gone));
                                    }));
        std::unique_ptr<HelperStream> stream;
        const QJsonObject a = QJsonDocument::fromJson(service.handleLine(line, &stream)).object();
        QCOMPARE(a.value(u"ok"), QJsonValue(false));
        QVERIFY2(a.value(u"error").toString().contains(error), qPrintable(a.value(u"error").toString()));
        QCOMPARE(a.value(u"code").toString(), code);
        QCOMPARE(loads, 0);
        QVERIFY(!stream);
    }

    // The fixed form, in-process with a fake source: the answer is tick 0
    // with the source's coverage and snapshot in the wire form, each tick
    // the cumulative counters of then, the end line counts the ticks, and
    // the source is gone with the stream. Without a stream to keep (the
    // fuzzer's call) the request is refused unloaded; a helper handed no
    // readahead op refuses it.
    void readaheadStreamInProcess()
    {
        int loads = 0;
        quint64 async = 3;
        bool gone = false;
        const HelperService service(SysRoot(m_tree->path()), {},
                                    helperReadaheadOp(SysRoot(m_tree->path()), [&]() -> Result<std::unique_ptr<ReadaheadSource>> {
                                        ++loads;
                                        return std::unique_ptr<ReadaheadSource>(std::make_unique<FakeReadahead>(&async, &gone));
                                    }));
        const QByteArray line = "{\"op\":\"readahead\",\"id\":7,\"interval_ms\":250}";
        const QJsonObject refused = QJsonDocument::fromJson(service.handleLine(line)).object();
        QVERIFY(!refused.value(u"ok").toBool());
        QCOMPARE(loads, 0);
        const QJsonObject none = QJsonDocument::fromJson(HelperService(SysRoot(m_tree->path())).handleLine(line)).object();
        QCOMPARE(none.value(u"error").toString(), u"this helper has no 'readahead' op"_qs);

        std::unique_ptr<HelperStream> stream;
        const QJsonObject first = QJsonDocument::fromJson(service.handleLine(line, &stream)).object();
        QVERIFY2(first.value(u"ok").toBool(), qPrintable(first.value(u"error").toString()));
        QCOMPARE(loads, 1);
        QVERIFY(stream);
        QCOMPARE(stream->intervalMs(), 250);
        QCOMPARE(first.value(u"op").toString(), u"readahead"_qs);
        QCOMPARE(first.value(u"id").toInt(), 7);
        QCOMPARE(first.value(u"tick").toInt(), 0);
        QCOMPARE(first.value(u"interval_ms").toInt(), 250);
        const auto coverage = readaheadCoverageFromJson(first.value(u"coverage").toObject());
        QVERIFY(coverage);
        QVERIFY(!coverage->pages);
        QCOMPARE(coverage->pagesUnavailable, u"pages not counted: a fake"_qs);
        auto at0 = readaheadSnapshotFromJson(first.value(u"snapshot").toObject());
        QVERIFY2(at0, at0 ? "" : qPrintable(at0.error().message));
        QCOMPARE(at0->devices.value(deviceNumber(8, 16)).of(ReadaheadKind::Async).windows, 3u);

        async = 40;
        const QJsonObject tick = QJsonDocument::fromJson(stream->tick()).object();
        QCOMPARE(tick.value(u"tick").toInt(), 1);
        auto at1 = readaheadSnapshotFromJson(tick.value(u"snapshot").toObject());
        QVERIFY(at1);
        QCOMPARE(at1->takenMs, 1040);
        const DeviceReadaheadCounters counted = at1->devices.value(deviceNumber(8, 16));
        const ReadaheadKindCounters &sdb = counted.of(ReadaheadKind::Async);
        QCOMPARE(sdb.windows, 40u);
        QCOMPARE(sdb.atCap, 40u);
        const WindowSizes sizes{{256, 40}};
        QCOMPARE(sdb.sizes, sizes);
        QCOMPARE(sdb.pagesReadAhead, 40u * 256);
        QCOMPARE(at1->devices.size(), 1);
        const QJsonObject end = QJsonDocument::fromJson(stream->end()).object();
        QVERIFY(end.value(u"end").toBool());
        QCOMPARE(end.value(u"ticks").toInt(), 2);
        QCOMPARE(end.value(u"id").toInt(), 7);
        QVERIFY(!gone);
        stream.reset();
        QVERIFY(gone); // nothing stays loaded after
    }

    // All of them in one session, in order: each gets its own answer, so a
    // hostile line never knocks the stream out of step.
    void hostileRequestsInOneSession()
    {
        const QList<HostileRequest> rows = hostileRequests();
        QByteArray input;
        for (const HostileRequest &h : rows)
            input += h.line + '\n';
        const QByteArray before = m_tree->hash();
        const ProcessResult r = helper({u"--sysroot"_qs, m_tree->path()}, input);
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), rows.size());
        for (qsizetype i = 0; i < rows.size(); ++i) {
            QVERIFY2(!got[i].value(u"ok").toBool(), rows[i].name);
            QVERIFY2(got[i].value(u"error").toString().contains(rows[i].error), rows[i].name);
        }
        QCOMPARE(m_tree->hash(), before);
    }

    // 100,000 refused requests into one helper process: every one answered
    // {"ok":false}, nothing changed, and the helper's peak memory (VmHWM)
    // stays under a fixed bound although the requests add up to ~100 MB:
    // it keeps nothing of a line once answered.
    void floodOfRefusals()
    {
        const QList<HostileRequest> rows = hostileRequests();
        constexpr int kRequests = 100000;
        QByteArray input;
        input.reserve(48 << 20);
        int lines = 0;
        for (int i = 0; lines < kRequests; ++i) {
            const HostileRequest &h = rows[i % rows.size()];
            input += h.line + '\n';
            ++lines;
            // Padding makes each request weigh: a leak per line would show.
            if (lines < kRequests) {
                input += "{\"op\":\"get\",\"device\":\"" + QByteArray(300 + i % 1000, 'x') + "\",\"attribute\":\"scheduler\"}\n";
                ++lines;
            }
        }
        const QByteArray before = m_tree->hash();
        QProcess p;
#ifdef BLOCKTUNE_SANITIZED
        // ASan keeps freed blocks in a quarantine (256 MB by default) to
        // catch a use after free; a small one keeps the figure the helper's.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"ASAN_OPTIONS"_qs, env.value(u"ASAN_OPTIONS"_qs) + u":quarantine_size_mb=16"_qs);
        p.setProcessEnvironment(env);
#endif
        p.start(binary("blocktune-helper"), {u"--sysroot"_qs, m_tree->path()});
        QVERIFY(p.waitForStarted(30000));
        const qint64 pid = p.processId();
        QElapsedTimer t;
        t.start();
        qsizetype written = 0;
        int answered = 0, refused = 0;
        QByteArray pending;
        while (answered < kRequests && t.elapsed() < 300000) {
            if (written < input.size() && p.bytesToWrite() < (1 << 20)) {
                const qsizetype n = qMin<qsizetype>(1 << 20, input.size() - written);
                p.write(input.constData() + written, n);
                written += n;
            }
            p.waitForReadyRead(100);
            pending += p.readAllStandardOutput();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QJsonObject a = QJsonDocument::fromJson(pending.left(nl)).object();
                pending.remove(0, nl + 1);
                ++answered;
                if (a.value(u"ok") == QJsonValue(false) && !a.value(u"error").toString().isEmpty())
                    ++refused;
            }
            if (p.state() == QProcess::NotRunning)
                break;
        }
        QCOMPARE(written, input.size());
        QCOMPARE(answered, kRequests);
        QCOMPARE(refused, kRequests);
        // Peak resident memory while still running, as the kernel counts it.
        QFile status(u"/proc/%1/status"_qs.arg(pid));
        QVERIFY(status.open(QIODevice::ReadOnly));
        qint64 hwmKiB = -1;
        for (const QByteArray &l : status.readAll().split('\n'))
            if (l.startsWith("VmHWM:"))
                hwmKiB = l.mid(6).trimmed().split(' ').constFirst().toLongLong();
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        qInfo("helper: %d requests (%lld MB) refused in %lld ms, VmHWM %lld KiB", kRequests,
              qint64(input.size() / 1000000), qint64(t.elapsed()), hwmKiB);
        QVERIFY(hwmKiB > 0);
        QVERIFY2(hwmKiB < kHelperMaxHwmKiB, qPrintable(u"VmHWM %1 KiB"_qs.arg(hwmKiB)));
        QCOMPARE(m_tree->hash(), before);
    }

    void sessionOfManyRequests()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const QString previous = tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs);
        QByteArray input;
        input += "{\"op\":\"hello\",\"id\":\"a\"}" "\n";
        input += "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"../../x\"}" "\n";
        input += QByteArray(10000, 'x') + '\n'; // over-long: refused, the stream stays in step
        input += "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"2048\",\"id\":7}" "\n";
        input += "{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\"}"; // no newline before EOF
        const ProcessResult r = helper({u"--sysroot"_qs, tree.path()}, input);
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 5);
        QCOMPARE(got[0].value(u"id").toString(), u"a"_qs);
        QCOMPARE(got[0].value(u"program").toString(), u"blocktune-helper"_qs);
        QCOMPARE(got[0].value(u"version").toInt(), kHelperProtocolVersion);
        QVERIFY(!got[1].value(u"ok").toBool());
        QVERIFY(!got[2].value(u"ok").toBool());
        QVERIFY(got[2].value(u"error").toString().contains(u"longer than 4096 bytes"_qs));
        QVERIFY(got[3].value(u"ok").toBool());
        QCOMPARE(got[3].value(u"id").toInt(), 7);
        QCOMPARE(got[3].value(u"previous").toString(), previous);
        QCOMPARE(got[3].value(u"value").toString(), u"2048"_qs);
        QCOMPARE(got[4].value(u"value").toString(), u"2048"_qs);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"2048"_qs);
    }

    void overlongAtEndOfInput()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const ProcessResult r = helper({u"--sysroot"_qs, tree.path()}, QByteArray(100000, '{'));
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 1);
        QVERIFY(got[0].value(u"error").toString().contains(u"longer than 4096 bytes"_qs));
    }

    void symlinkedAttributeIsRefused()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const QString outside = tree.path() + u"/outside"_qs;
        QFile f(outside);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep\n");
        f.close();
        const QString attr = tree.attr(u"sdb"_qs, u"queue/read_ahead_kb"_qs);
        QVERIFY(QFile::remove(attr));
        QVERIFY(QFile::link(outside, attr));
        const ProcessResult r = helper({u"--sysroot"_qs, tree.path()},
                                       "{\"op\":\"set\",\"device\":\"sdb\",\"attribute\":\"read_ahead_kb\",\"value\":\"4096\"}" "\n");
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 1);
        QVERIFY(!got[0].value(u"ok").toBool());
        QVERIFY2(got[0].value(u"error").toString().contains(u"is not a regular file"_qs),
                 qPrintable(got[0].value(u"error").toString()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep\n"));
    }

    // Attack 1 of issue 36, repeated: while the helper answers N requests for
    // `get iosched/secret` and `set iosched/passwd 31337`, a thread swaps a
    // folder of sdb's tree with a link to a folder holding a root-only file
    // and a root-owned one (renameat2 RENAME_EXCHANGE, as fast as it can,
    // for as long as the helper works). Before, the helper checked the path
    // and opened it again: 266 of 20,000 gets read the secret, 1,147 of
    // 20,000 sets truncated the file. Now not one may get through.
    void sysrootRaceGetsNothingThrough_data()
    {
        QTest::addColumn<QString>("flipped"); // below sdb's real directory; "" = the directory itself
        QTest::addColumn<int>("requests");
        QTest::newRow("queue/iosched") << u"queue/iosched"_qs << 20000;
        QTest::newRow("queue") << u"queue"_qs << 5000;
        QTest::newRow("the device directory") << QString() << 5000;
    }
    void sysrootRaceGetsNothingThrough()
    {
        QFETCH(QString, flipped);
        QFETCH(int, requests);
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(tree.isValid());
        const QString real = QFileInfo(tree.attr(u"sdb"_qs, flipped)).canonicalFilePath();
        QVERIFY(QFileInfo(real).isDir());
        // The decoy: what the link leads to looks like what it replaces, with
        // the two files where the requests look for them.
        QTemporaryDir outside;
        const QString decoy = outside.path() + u"/decoy"_qs;
        const QString below = flipped == u"queue/iosched"_qs ? QString() : flipped == u"queue"_qs ? u"/iosched"_qs : u"/queue/iosched"_qs;
        QVERIFY(QDir().mkpath(decoy + below));
        QVERIFY(QFile::copy(tree.attr(u"sdb"_qs, u"dev"_qs), decoy + u"/dev"_qs)); // a device directory has one
        writeMode(decoy + below + u"/secret"_qs, "root-only secret\n", QFile::ReadOwner | QFile::WriteOwner);
        writeMode(decoy + below + u"/passwd"_qs, "root:x:0:0:root:/root:/bin/bash\n",
                  QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        const QString link = QFileInfo(real).absolutePath() + u"/.flip"_qs;
        QVERIFY(QFile::link(decoy, link));

        QByteArray input;
        for (int i = 0; i < requests; ++i)
            input += i % 2 ? setLine("sdb", "iosched/passwd", "31337") + '\n'
                           : QByteArray("{\"op\":\"get\",\"device\":\"sdb\",\"attribute\":\"iosched/secret\"}\n");
        std::atomic<bool> stop{false};
        std::atomic<int> flips{0};
        std::thread flipper([&] {
            const QByteArray a = QFile::encodeName(real), b = QFile::encodeName(link);
            while (!stop)
                if (::renameat2(AT_FDCWD, a.constData(), AT_FDCWD, b.constData(), RENAME_EXCHANGE) == 0)
                    ++flips;
        });
        QElapsedTimer t;
        t.start();
        const ProcessResult r = helper({u"--sysroot"_qs, tree.path()}, input); // bounded: 30 s at most
        stop = true;
        flipper.join();
        if (flips % 2) // put the tree back as it was
            QCOMPARE(::renameat2(AT_FDCWD, QFile::encodeName(real).constData(), AT_FDCWD,
                                 QFile::encodeName(link).constData(), RENAME_EXCHANGE), 0);
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), requests);
        const auto through = std::count_if(got.cbegin(), got.cend(), [](const QJsonObject &a) { return a.value(u"ok").toBool(); });
        qInfo("%s flipped %d times in %lld ms: %lld of %d requests got through", qPrintable(flipped.isEmpty() ? u"sdb"_qs : flipped),
              int(flips), qint64(t.elapsed()), qint64(through), requests);
        QVERIFY2(flips > 100, "the folder was hardly swapped: the race did not run");
        QCOMPARE(through, 0);
        QVERIFY(!r.out.contains("root-only secret"));
        QCOMPARE(readAll(decoy + below + u"/passwd"_qs), QByteArray("root:x:0:0:root:/root:/bin/bash\n"));
        QCOMPARE(readAll(decoy + below + u"/secret"_qs), QByteArray("root-only secret\n"));
    }

    // The one decision behind "--sysroot is refused": root working for
    // another user never follows a tree. sudo sets the real uid to 0 too, so
    // its variables are what tells it from a root shell.
    void sysrootRefusal_data()
    {
        QTest::addColumn<int>("realUid");
        QTest::addColumn<int>("effectiveUid");
        QTest::addColumn<QStringList>("environment"); // NAME=VALUE
        QTest::addColumn<QString>("refusal");         // "" = allowed
        QTest::newRow("root shell") << 0 << 0 << QStringList{} << QString();
        QTest::newRow("a user") << 1000 << 1000 << QStringList{} << QString();
        QTest::newRow("a user with a stray SUDO_UID") << 1000 << 1000 << QStringList{u"SUDO_UID=0"_qs} << QString();
        QTest::newRow("sudo from root") << 0 << 0 << QStringList{u"SUDO_UID=0"_qs, u"SUDO_USER=root"_qs} << QString();
        QTest::newRow("sudo from a user") << 0 << 0 << QStringList{u"SUDO_UID=1000"_qs, u"SUDO_USER=tester"_qs}
                                          << u"started through sudo by a user other than root (SUDO_UID=1000)"_qs;
        QTest::newRow("sudo, only SUDO_USER") << 0 << 0 << QStringList{u"SUDO_USER=tester"_qs}
                                              << u"through sudo by a user other than root (SUDO_USER=tester)"_qs;
        QTest::newRow("sudo, uid 0 but user tester") << 0 << 0 << QStringList{u"SUDO_UID=0"_qs, u"SUDO_USER=tester"_qs}
                                                     << u"(SUDO_USER=tester)"_qs;
        QTest::newRow("SUDO_UID not a number") << 0 << 0 << QStringList{u"SUDO_UID=0x0"_qs} << u"(SUDO_UID=0x0)"_qs;
        QTest::newRow("SUDO_UID empty") << 0 << 0 << QStringList{u"SUDO_UID="_qs} << u"(SUDO_UID=)"_qs;
        QTest::newRow("pkexec") << 0 << 0 << QStringList{u"PKEXEC_UID=1000"_qs}
                                << u"--sysroot is refused when started through pkexec"_qs;
        QTest::newRow("doas") << 0 << 0 << QStringList{u"DOAS_USER=tester"_qs} << u"through doas"_qs;
        QTest::newRow("setuid root") << 1000 << 0 << QStringList{} << u"through setuid or setgid (real uid 1000"_qs;
        QTest::newRow("setuid another user") << 1000 << 1001 << QStringList{} << u"through setuid or setgid"_qs;
    }
    void sysrootRefusal()
    {
        QFETCH(int, realUid);
        QFETCH(int, effectiveUid);
        QFETCH(QStringList, environment);
        QFETCH(QString, refusal);
        ProcessIdentity who{uid_t(realUid), uid_t(effectiveUid), 0, 0, {}};
        for (const QString &e : std::as_const(environment))
            who.elevation.append({e.section(u'=', 0, 0), e.section(u'=', 1)});
        const QString got = blocktune::sysrootRefusal(who);
        if (refusal.isEmpty())
            QVERIFY2(got.isEmpty(), qPrintable(got));
        else
            QVERIFY2(got.contains(refusal), qPrintable(got));
    }

    // The sudoers line docs/cli.md gave before (no "" after the helper) let
    // any argument through: a user ran `sudo blocktune-helper --sysroot ~/t`
    // and the helper answered "euid":0,"sysroot":true. With Debian's real
    // sudo and that old line, the helper now refuses; with the line
    // docs/cli.md gives now, sudo itself refuses the argument.
    void sysrootRefusedUnderRealSudo()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        if (QStandardPaths::findExecutable(u"sudo"_qs).isEmpty() || QStandardPaths::findExecutable(u"runuser"_qs).isEmpty()) {
            if (rootRequired())
                QFAIL("BLOCKTUNE_REQUIRE_ROOT=1 forbids skipping: sudo is not installed (scripts/bootstrap.sh installs it)");
            QSKIP("sudo is not installed");
        }
        const QString user = u"btsr%1"_qs.arg(::getpid());
        QCOMPARE(run(u"useradd"_qs, {u"-M"_qs, u"-s"_qs, u"/bin/sh"_qs, u"-d"_qs, u"/"_qs, u"-p"_qs, u"*"_qs, user}).exitCode, 0);
        const QString sudoers = u"/etc/sudoers.d/blocktune-test-%1"_qs.arg(user);
        const auto cleanUp = qScopeGuard([&] {
            QFile::remove(sudoers);
            run(u"userdel"_qs, {u"-f"_qs, user});
        });
        // The tree is the user's own: what the attack used.
        TreeCopy tree(u"md-raid10-f2"_qs);
        QVERIFY(run(u"chown"_qs, {u"-R"_qs, user, tree.path()}).exitCode == 0);
        const QString helperPath = QDir::cleanPath(binary("blocktune-helper"));
        auto asUser = [&](const QString &rule) {
            QFile f(sudoers);
            if (!f.open(QIODevice::WriteOnly))
                return ProcessResult{};
            f.write(QStringLiteral("%1 ALL=(root) NOPASSWD: %2\n").arg(user, rule).toUtf8());
            f.close();
            QFile::setPermissions(sudoers, QFile::ReadOwner | QFile::ReadGroup);
            return run(u"runuser"_qs, {u"-u"_qs, user, u"--"_qs, u"sudo"_qs, u"-n"_qs, helperPath, u"--sysroot"_qs, tree.path()},
                       30000, "{\"op\":\"hello\"}\n");
        };
        const ProcessResult oldLine = asUser(helperPath);
        QCOMPARE(oldLine.exitCode, 2);
        QVERIFY2(oldLine.err.contains("--sysroot is refused when started through sudo by a user other than root (SUDO_UID="),
                 oldLine.err.constData());
        QVERIFY(!oldLine.out.contains("\"sysroot\":true"));
        const ProcessResult newLine = asUser(helperPath + u" \"\""_qs);
        QVERIFY(newLine.exitCode != 0);
        QVERIFY(newLine.out.isEmpty());
        // The line without arguments still lets the helper itself run.
        const ProcessResult plain = run(u"runuser"_qs, {u"-u"_qs, user, u"--"_qs, u"sudo"_qs, u"-n"_qs, helperPath}, 30000,
                                        "{\"op\":\"hello\"}\n");
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(plain.out.contains("\"euid\":0") && plain.out.contains("\"sysroot\":false"), plain.out.constData());
    }

    void arguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("environment"); // NAME=VALUE added to the helper's
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrText");
        const QString tree = recordedTree("md-raid10-f2");
        QTest::newRow("sysroot under pkexec") << QStringList{u"--sysroot"_qs, tree} << QByteArray("PKEXEC_UID=1000") << 2
                                              << u"--sysroot is refused when started through pkexec"_qs;
        QTest::newRow("sysroot under sudo") << QStringList{u"--sysroot"_qs, tree} << QByteArray("SUDO_UID=1000") << 2
                                            << u"--sysroot is refused when started through sudo by a user other than root"_qs;
        QTest::newRow("sysroot= under sudo") << QStringList{u"--sysroot="_qs + tree} << QByteArray("SUDO_USER=tester") << 2
                                             << u"--sysroot is refused when started through sudo"_qs;
        QTest::newRow("sysroot under doas") << QStringList{u"--sysroot"_qs, tree} << QByteArray("DOAS_USER=tester") << 2
                                            << u"--sysroot is refused when started through doas"_qs;
        QTest::newRow("sysroot without sys") << QStringList{u"--sysroot"_qs, u"/nonexistent"_qs} << QByteArray() << 2
                                             << u"no sys/ directory there"_qs;
        QTest::newRow("unknown argument") << QStringList{u"--exec"_qs} << QByteArray() << 2 << u"unknown argument '--exec'"_qs;
        QTest::newRow("version") << QStringList{u"--version"_qs} << QByteArray() << 0 << QString();
    }
    void arguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, environment);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrText);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!environment.isEmpty())
            env.insert(QString::fromLatin1(environment.split('=').at(0)), QString::fromLatin1(environment.split('=').at(1)));
        p.setProcessEnvironment(env);
        p.start(binary("blocktune-helper"), args);
        QVERIFY(p.waitForStarted());
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), exitCode);
        const QString err = QString::fromLocal8Bit(p.readAllStandardError());
        QVERIFY2(err.contains(stderrText), qPrintable(err));
    }

    void liveLoopDevice()
    {
        BLOCKTUNE_REQUIRE_ROOT_OR_SKIP();
        LoopDevice loop(64 << 20, true);
        QVERIFY(loop.isValid());
        const QString dev = loop.name();
        LiveSettingsGuard guard(dev); // a failing test must not leave its loop tuned
        QVERIFY(writeLive(dev, u"queue/scheduler"_qs, "none")); // the kernel keeps a reused loop's scheduler
        const auto original = liveSettings(dev);
        auto req = [&](const QByteArray &attr, const QByteArray &value) {
            return QByteArray("{\"op\":\"set\",\"device\":\"" + dev.toLatin1() + "\",\"attribute\":\"" + attr
                              + "\",\"value\":\"" + value + "\"}\n");
        };
        QByteArray input = req("read_ahead_kb", "5") + req("scheduler", "mq-deadline")
                           + req("iosched/read_expire", "250") + req("nr_requests", "99999")
                           + req("scheduler", "none") + req("nr_requests", "100000")
                           + req("read_ahead_kb", original.value(u"read_ahead_kb"_qs).toLatin1());
        const ProcessResult r = helper({}, input);
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> got = answers(r.out);
        QCOMPARE(got.size(), 7);
        // Page rounding: the kernel keeps whole 4 KiB pages, the helper says so.
        QVERIFY(got[0].value(u"ok").toBool());
        QCOMPARE(got[0].value(u"value").toString(), u"4"_qs);
        QCOMPARE(got[0].value(u"previous").toString(), original.value(u"read_ahead_kb"_qs));
        QCOMPARE(got[1].value(u"value").toString(), u"mq-deadline"_qs);
        // read_expire is kept in jiffies: what comes back is what sysfs shows.
        QVERIFY(got[2].value(u"ok").toBool());
        QVERIFY(isPlainDecimal(got[2].value(u"value").toString()));
        QVERIFY(qAbs(got[2].value(u"value").toString().toInt() - 250) <= 10);
        QVERIFY(!got[3].value(u"ok").toBool()); // 99999 > 2048 with a scheduler
        QCOMPARE(got[4].value(u"value").toString(), u"none"_qs);
        QVERIFY(!got[5].value(u"ok").toBool()); // beyond the tag depth without one
        QVERIFY2(got[5].value(u"error").toString().contains(u"allowed: 1 to "_qs), qPrintable(got[5].value(u"error").toString()));
        QVERIFY(got[6].value(u"ok").toBool());
        QCOMPARE(liveSettings(dev).value(u"read_ahead_kb"_qs), original.value(u"read_ahead_kb"_qs));
        QCOMPARE(liveSettings(dev).value(u"scheduler"_qs), original.value(u"scheduler"_qs));
        // The switch back to none reset nr_requests to the tag depth; put
        // the device back exactly as it was found.
        writeLive(dev, u"queue/nr_requests"_qs, original.value(u"nr_requests"_qs).toLatin1());
        QCOMPARE(liveSettings(dev), original);
    }

    void clientAndWriter()
    {
        TreeCopy tree(u"md-raid10-f2"_qs);
        const QStringList command{binary("blocktune-helper"), u"--sysroot"_qs, tree.path()};
        HelperWriter writer(command);
        auto w = writer.write(AttributeWrite{u"sdb"_qs, u"read_ahead_kb"_qs, u"1024"_qs});
        QVERIFY2(w.ok(), w.ok() ? "" : qPrintable(w.error().message));
        QCOMPARE(w->kept, u"1024"_qs);
        QCOMPARE(w->previous, u"128"_qs);
        QCOMPARE(tree.read(u"sdb"_qs, u"queue/read_ahead_kb"_qs), u"1024"_qs);

        auto bad = writer.write(AttributeWrite{u"sdb"_qs, u"scheduler"_qs, u"cfq"_qs});
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().code, int(InvalidArgument));
        QVERIFY(bad.error().message.contains(u"scheduler 'cfq' is not available on sdb"_qs));

        QCOMPARE(writer.starts(), 1); // one helper for the whole session

        // Asynchronous use: requests queue up, answers come in order.
        HelperClient client(command);
        QSignalSpy spy(&client, &HelperClient::replyReceived);
        const quint64 a = client.submit({{u"op"_qs, u"get"_qs}, {u"device"_qs, u"sdb"_qs}, {u"attribute"_qs, u"read_ahead_kb"_qs}});
        const quint64 b = client.submit({{u"op"_qs, u"get"_qs}, {u"device"_qs, u"nosuch"_qs}, {u"attribute"_qs, u"scheduler"_qs}});
        const quint64 c = client.submit({{u"op"_qs, u"set"_qs}, {u"device"_qs, u"sdc"_qs}, {u"attribute"_qs, u"read_ahead_kb"_qs},
                                         {u"value"_qs, u"512"_qs}});
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 3, 30000);
        const auto reply = [&](int i) { return spy.at(i).at(0).value<HelperReply>(); };
        QCOMPARE(reply(0).id, a);
        QVERIFY(reply(0).ok);
        QCOMPARE(reply(0).body.value(u"value").toString(), u"1024"_qs);
        QCOMPARE(reply(1).id, b);
        QVERIFY(!reply(1).ok);
        QVERIFY(reply(1).error.contains(u"no block device named 'nosuch'"_qs));
        QCOMPARE(reply(2).id, c);
        QVERIFY(reply(2).ok);
        QCOMPARE(tree.read(u"sdc"_qs, u"queue/read_ahead_kb"_qs), u"512"_qs);

        client.stop();
        QVERIFY(!client.isRunning());
        // A stopped helper is started again on the next request.
        QVERIFY(client.call({{u"op"_qs, u"set"_qs}, {u"device"_qs, u"sdb"_qs}, {u"attribute"_qs, u"read_ahead_kb"_qs},
                             {u"value"_qs, u"128"_qs}}).ok);
        QCOMPARE(client.starts(), 2);
        QVERIFY(writer.write(AttributeWrite{u"sdb"_qs, u"read_ahead_kb"_qs, u"256"_qs}).ok());
        QCOMPARE(writer.starts(), 1);
    }

    void clientRefusesWhatIsNotTheHelper_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("error");
        QTest::newRow("echoes") << QStringList{u"cat"_qs} << u"is not a blocktune-helper speaking protocol 1"_qs;
        QTest::newRow("exits") << QStringList{u"false"_qs} << u"exited with code 1"_qs;
        QTest::newRow("missing") << QStringList{u"/nonexistent/blocktune-helper"_qs} << u"not found or not executable"_qs;
    }
    void clientRefusesWhatIsNotTheHelper()
    {
        QFETCH(QStringList, command);
        QFETCH(QString, error);
        HelperWriter writer(command);
        auto w = writer.write(AttributeWrite{u"sdb"_qs, u"read_ahead_kb"_qs, u"1024"_qs});
        QVERIFY(!w.ok());
        QVERIFY2(w.error().message.contains(error), qPrintable(w.error().message));
    }

    void polkitAction()
    {
        QFile f(QStringLiteral(BLOCKTUNE_BIN_DIR "/../resources/org.blocktune.helper.policy"));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        QXmlStreamReader xml(&f);
        QString action, execPath, element;
        QMap<QString, QString> defaults;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement()) {
                element = xml.name().toString();
                if (element == u"action")
                    action = xml.attributes().value(QLatin1StringView("id")).toString();
                if (element == u"annotate" && xml.attributes().value(QLatin1StringView("key")) == u"org.freedesktop.policykit.exec.path")
                    execPath = xml.readElementText();
            } else if (xml.isCharacters() && !xml.isWhitespace()
                       && (element == u"allow_any" || element == u"allow_inactive" || element == u"allow_active")) {
                defaults.insert(element, xml.text().toString());
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(action, u"org.blocktune.helper.write"_qs);
        QCOMPARE(defaults.value(u"allow_active"_qs), u"auth_admin_keep"_qs);
        QCOMPARE(defaults.size(), 3);
        QVERIFY2(execPath.startsWith(u'/') && execPath.endsWith(u"/blocktune-helper"_qs), qPrintable(execPath));
    }
};

QTEST_GUILESS_MAIN(TestHelper)
#include "tst_helper.moc"
