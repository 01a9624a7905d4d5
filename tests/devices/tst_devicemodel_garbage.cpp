// Recorded trees are not made by our script: they may hold empty files,
// words where numbers belong, a scheduler line without brackets, missing
// files, symlink loops, megabytes in an attribute, a named pipe. Each is
// planted in a copy of a recorded machine; `blocktune-cli list` must finish
// normally, show that value as unknown (null in the JSON) and say so on
// stderr as "warning: ...", with the JSON otherwise as the schema says.
#include "devices/devices.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <sys/stat.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

enum class Plant { Write, Remove, SelfLink, TenMegabytes, Fifo, Link };

QJsonObject deviceIn(const QJsonArray &devices, const QString &name)
{
    for (const QJsonValue &v : devices)
        if (v.toObject().value(u"name").toString() == name)
            return v.toObject();
    return {};
}

// "md.raid_disks" -> o["md"]["raid_disks"]; in an array, the element of
// that name: "md.members.sdc.slot".
QJsonValue valueAt(const QJsonObject &o, const QString &keyPath)
{
    QJsonValue v = o;
    for (const QString &key : keyPath.split(u'.')) {
        if (v.isArray()) {
            const QJsonArray list = v.toArray();
            v = QJsonValue::Undefined;
            for (const QJsonValue &e : list)
                if (e.toObject().value(u"name").toString() == key)
                    v = e;
        } else {
            v = v.toObject().value(key);
        }
    }
    return v;
}

// Puts garbage at one path of a tree and takes it away again: the original
// waits outside sys/ (same filesystem, one rename) until the destructor
// puts it back, so one copy of the tree serves every row, also when a row
// fails.
class Planted final
{
public:
    Planted(const QString &root, const QString &relative, Plant how, const QByteArray &data)
        : m_path(root + u'/' + relative), m_saved(root + u"/saved-by-test"_qs)
    {
        struct stat st {};
        m_hadOriginal = ::lstat(QFile::encodeName(m_path).constData(), &st) == 0;
        if (m_hadOriginal && ::rename(QFile::encodeName(m_path).constData(), QFile::encodeName(m_saved).constData()) != 0)
            return;
        m_ok = create(root, how, data);
    }
    ~Planted()
    {
        ::unlink(QFile::encodeName(m_path).constData());
        if (m_hadOriginal)
            ::rename(QFile::encodeName(m_saved).constData(), QFile::encodeName(m_path).constData());
    }
    Q_DISABLE_COPY_MOVE(Planted)
    bool ok() const { return m_ok; }

private:
    bool create(const QString &root, Plant how, const QByteArray &data)
    {
        const QByteArray path = QFile::encodeName(m_path);
        switch (how) {
        case Plant::Write: {
            QFile f(m_path);
            return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
        }
        case Plant::Remove:
            return m_hadOriginal;
        case Plant::SelfLink:
            return QFile::link(QFileInfo(m_path).fileName(), m_path);
        case Plant::TenMegabytes: {
            QFile f(m_path);
            if (!f.open(QIODevice::WriteOnly))
                return false;
            const QByteArray block(1 << 20, '1');
            for (int i = 0; i < 10; ++i)
                if (f.write(block) != block.size())
                    return false;
            return true;
        }
        case Plant::Fifo:
            return ::mkfifo(path.constData(), 0644) == 0;
        case Plant::Link: // data: the target, relative to the tree's root
            return QFile::link(QFileInfo(m_path).dir().relativeFilePath(root + u'/' + QString::fromLatin1(data)),
                               m_path);
        }
        return false;
    }

    QString m_path;
    QString m_saved;
    bool m_hadOriginal = false;
    bool m_ok = false;
};

QStringList lines(const QByteArray &text)
{
    return QString::fromUtf8(text).split(u'\n', Qt::SkipEmptyParts);
}

} // namespace

class TestDeviceModelGarbage : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tree; // md-raid10-f2; each row plants and takes away

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(copyTree(recordedTree("md-raid10-f2"), m_tree.path()));
    }

    // The baseline: the recorded machines and this one give no warnings,
    // so every warning below is about the garbage planted.
    void cleanTreesWarnOfNothing_data()
    {
        QTest::addColumn<QString>("tree"); // "" = the live machine
        for (const char *t : {"live-loop", "scst-raid0-lvm", "scst-raid0-lvm-sysblock", "md-raid10-f2",
                              "raid5-degraded", "nvme-parts"})
            QTest::newRow(t) << recordedTree(t);
        QTest::newRow("this machine") << QString();
    }
    void cleanTreesWarnOfNothing()
    {
        QFETCH(QString, tree);
        const auto model = DeviceModel::scan(SysRoot(tree), ScanOptions{ScanOptions::Enumerate::Auto, false});
        QVERIFY(model.ok());
        QCOMPARE(model->warnings(), QStringList());
    }

    void garbageIsUnknownAndSaid_data()
    {
        QTest::addColumn<QString>("file");    // below the copy of md-raid10-f2
        QTest::addColumn<int>("how");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("device");  // whose JSON shows it
        QTest::addColumn<QString>("key");     // null there; "" = the device is left out
        QTest::addColumn<QString>("warning"); // one of the warning lines contains this
        auto row = [](const char *name, const char *file, Plant how, const QByteArray &data, const char *device,
                      const char *key, const char *warning) {
            QTest::newRow(name) << QString::fromLatin1(file) << int(how) << data << QString::fromLatin1(device)
                                << QString::fromLatin1(key) << QString::fromLatin1(warning);
        };
        row("empty file", "sys/block/sdb/queue/read_ahead_kb", Plant::Write, "", "sdb", "read_ahead_kb",
            "sdb: queue/read_ahead_kb is empty, not a number (shown as unknown)");
        row("text where a number belongs", "sys/block/sdc/size", Plant::Write, "lots\n", "sdc", "size_bytes",
            "sdc: size holds 'lots', not a number (shown as unknown)");
        row("negative number", "sys/block/sdd/queue/nr_requests", Plant::Write, "-1\n", "sdd", "nr_requests",
            "sdd: queue/nr_requests holds '-1', not a number");
        row("a word for a flag", "sys/block/sde/ro", Plant::Write, "yes\n", "sde", "read_only",
            "sde: ro holds 'yes', not a number");
        row("scheduler line without brackets", "sys/block/sde/queue/scheduler", Plant::Write,
            "none mq-deadline kyber bfq\n", "sde", "scheduler",
            "sde: queue/scheduler holds 'none mq-deadline kyber bfq', not a list of schedulers with the "
            "active one in brackets");
        row("scheduler line, two active", "sys/block/sdf/queue/scheduler", Plant::Write, "[none] [bfq]\n", "sdf",
            "schedulers", "sdf: queue/scheduler holds '[none] [bfq]'");
        row("missing file", "sys/block/sdf/queue/read_ahead_kb", Plant::Remove, "", "sdf", "read_ahead_kb",
            "sdf: queue/read_ahead_kb is missing (shown as unknown)");
        row("missing file under a partition's disk", "sys/block/sda/queue/rotational", Plant::Remove, "", "sda1",
            "rotational", "sda: queue/rotational is missing");
        row("garbled device number", "sys/block/sdc/dev", Plant::Write, "8:x\n", "sdc", "major",
            "sdc: dev holds '8:x', not MAJOR:MINOR");
        row("symlink loop", "sys/block/sdg/queue/max_sectors_kb", Plant::SelfLink, "", "sdg", "max_sectors_kb",
            "sdg: queue/max_sectors_kb cannot be read: Too many levels of symbolic links");
        row("symlink loop for a device", "sys/class/block/sdh", Plant::SelfLink, "", "sdh", "",
            "sdh: its directory");
        row("10 MB attribute", "sys/block/sdh/queue/read_ahead_kb", Plant::TenMegabytes, "", "sdh",
            "read_ahead_kb", "sdh: queue/read_ahead_kb holds more than 4096 bytes");
        row("10 MB model", "sys/block/sdi/device/model", Plant::TenMegabytes, "", "sdi", "model",
            "sdi: device/model holds more than 4096 bytes");
        row("named pipe", "sys/block/sdb/queue/max_hw_sectors_kb", Plant::Fifo, "", "sdb", "max_hw_sectors_kb",
            "sdb: queue/max_hw_sectors_kb is empty");
        row("md geometry in words", "sys/block/md0/md/raid_disks", Plant::Write, "eight\n", "md0",
            "md.stripe_kb", "md0: md/raid_disks holds 'eight', not a number");
        row("md slot garbage", "sys/block/md0/md/dev-sdc/slot", Plant::Write, "one\n", "md0",
            "md.members.sdc.slot", "md0: md/dev-sdc/slot holds 'one', not a number");
        row("stacked on itself", "sys/block/sdb/slaves/md0", Plant::Link, "sys/devices/virtual/block/md0",
            "md0", "", "leads back to");
    }
    void garbageIsUnknownAndSaid()
    {
        QFETCH(QString, file);
        QFETCH(int, how);
        QFETCH(QByteArray, data);
        QFETCH(QString, device);
        QFETCH(QString, key);
        QFETCH(QString, warning);
        const Planted planted(m_tree.path(), file, Plant(how), data);
        QVERIFY2(planted.ok(), qPrintable(file));
        const QString tree = m_tree.path();

        // 20 s: a hang is a failure, not a stuck suite.
        const ProcessResult r = run(binary("blocktune-cli"),
                                    {u"--sysroot"_qs, tree, u"list"_qs, u"--json"_qs}, 20000);
        QCOMPARE(r.exitCode, 0);
        const QStringList warnings = lines(r.err);
        QVERIFY(!warnings.isEmpty());
        for (const QString &line : warnings)
            QVERIFY2(line.startsWith(u"warning: "_qs), qPrintable(line));
        QVERIFY2(r.err.contains(warning.toUtf8()), r.err.constData());

        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(doc.keys(), (QStringList{u"devices"_qs, u"schema"_qs}));
        QCOMPARE(doc.value(u"schema").toInt(), 1);
        const QJsonArray devices = doc.value(u"devices").toArray();
        const QJsonObject d = deviceIn(devices, device);
        if (key.isEmpty() && warning.startsWith(device + u": its directory"_qs)) {
            QVERIFY2(d.isEmpty(), qPrintable(device + u" should be left out"_qs));
            QCOMPARE(devices.size(), 11);
        } else {
            QVERIFY2(!d.isEmpty(), qPrintable(device));
            if (!key.isEmpty())
                QVERIFY2(valueAt(d, key).isNull(), qPrintable(key + u" is not null"_qs));
            QCOMPARE(devices.size(), 12);
        }

        // The tree view and get run over the same garbage and end normally.
        const ProcessResult text = run(binary("blocktune-cli"), {u"--sysroot"_qs, tree, u"list"_qs}, 20000);
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.err, r.err);
        const ProcessResult get = run(binary("blocktune-cli"),
                                      {u"--sysroot"_qs, tree, u"get"_qs, device}, 20000);
        QVERIFY2(get.exitCode >= 0 && get.exitCode <= 2, get.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestDeviceModelGarbage)
#include "tst_devicemodel_garbage.moc"
