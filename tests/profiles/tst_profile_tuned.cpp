// udev and tuned: importing tuned profiles written the way tuned's shipped
// ones are (include= of a sibling, readahead=>4096, [disk-NAME] with
// type=disk and devices = sd*, comments, [cpu]/[vm]/[sysctl] beside), what
// is refused, and what the exports write: udev lines the helper accepts, a
// tuned.conf that imports back to the same rules.
#include "testsupport.h"

#include "profiles/profiles.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace blocktune;
using namespace blocktune::test;

namespace {

QString tunedProfile(const char *name)
{
    return QStringLiteral(BLOCKTUNE_TEST_DATA "/tuned/profiles/") + QString::fromLatin1(name) + u"/tuned.conf"_qs;
}

QString canonical(const char *name)
{
    return QFileInfo(tunedProfile(name)).canonicalFilePath();
}

QStringList rulesOf(const Profile &p)
{
    QStringList out;
    for (const ProfileRule &r : p.rules) {
        QStringList set;
        for (const ProfileSetting &s : r.settings)
            set << s.key + u'=' + s.text();
        out << r.match.describe() + u": " + set.join(u' ');
    }
    return out;
}

Profile profileOf(const QByteArray &rules, const QByteArray &name = "t")
{
    auto p = parseProfile("{\"schema\": 1, \"name\": \"" + name + "\", \"description\": \"Test.\", \"rules\": [" + rules + "]}",
                          u"t.json"_qs);
    if (!p)
        qFatal("bad test profile: %s", qPrintable(p.error().message));
    return *p;
}

QStringList presetNames()
{
    return QDir(QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles")).entryList({u"*.json"_qs}, QDir::Files);
}

// /proc/cpuinfo's first processor as two real machines print it: a KVM
// guest (Xeon Cascadelake under QEMU) and the same CPU family on bare metal.
const QByteArray kKvmGuestCpuinfo =
    "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
    "model name\t: Intel Xeon Processor (Cascadelake)\n"
    "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss "
    "syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology cpuid tsc_known_freq pni pclmulqdq ssse3 fma "
    "cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm abm "
    "3dnowprefetch arat umip pku ospke avx512_vnni md_clear arch_capabilities\n\n";
const QByteArray kBareMetalCpuinfo =
    "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
    "model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz\n"
    "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse "
    "sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl xtopology "
    "nonstop_tsc cpuid aperfmperf pni pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3 sdbg fma cx16 xtpr pdcm "
    "pcid dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm "
    "3dnowprefetch cpuid_fault epb cat_l3 cdp_l3 invpcid_single intel_ppin ssbd mba ibrs ibpb stibp\n\n";
// An arm64 server (Ampere Altra) has no flags line at all, only Features.
const QByteArray kArm64Cpuinfo = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 "
                                 "atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs\nCPU implementer\t: "
                                 "0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n";

bool writeTreeFile(const QString &root, const QString &relative, const QByteArray &content)
{
    if (content.isEmpty())
        return true;
    const QString path = root + u'/' + relative;
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

} // namespace

class TestProfileTuned : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // include=${f:virt_check:VIRTUAL:BARE}, as tuned's openshift profile has
    // it: the profile that fits this kind of machine, and a note saying so.
    void virtCheckIncludePicksByMachine()
    {
        const Result<TunedImport> guest = importTunedProfile(tunedProfile("cluster-node"), {}, SysRoot(), true);
        QVERIFY2(guest.ok(), guest.ok() ? "" : qPrintable(guest.error().message));
        QCOMPARE(guest->files, (QStringList{canonical("guest-disks"), canonical("cluster-node")}));
        QCOMPARE(rulesOf(guest->profile), (QStringList{u"name vd*: read_ahead_kb=1024 scheduler=none"_qs}));
        QVERIFY2(guest->notes.value(0).contains(u"took 'guest-disks': this machine is a virtual machine"_qs),
                 qPrintable(guest->notes.join(u'\n')));
        QVERIFY(guest->notes.value(0).contains(u"on bare metal it would include 'throughput-disks'"_qs));

        const Result<TunedImport> bare = importTunedProfile(tunedProfile("cluster-node"), {}, SysRoot(), false);
        QVERIFY2(bare.ok(), bare.ok() ? "" : qPrintable(bare.error().message));
        QCOMPARE(bare->files, (QStringList{canonical("throughput-disks"), canonical("cluster-node")}));
        QVERIFY(bare->notes.value(0).contains(u"took 'throughput-disks': this machine is bare metal"_qs));

        // Any other function in include= is still refused, naming it.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(u"odd"_qs));
        QFile odd(dir.filePath(u"odd/tuned.conf"_qs));
        QVERIFY(odd.open(QIODevice::WriteOnly));
        odd.write("[main]\ninclude=${f:exec:/bin/true}\n[disk]\nreadahead=512\n");
        odd.close();
        const Result<TunedImport> refused = importTunedProfile(odd.fileName());
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.contains(u"${f:exec:/bin/true}"_qs), qPrintable(refused.error().message));
    }

    // A recorded tree imports as its machine would, wherever the test runs:
    // virt_check is decided from what the tree carries (the hypervisor CPU
    // flag, sys/hypervisor/type, the DMI strings), never from this machine.
    void virtCheckFollowsTheRecordedMachine_data()
    {
        QTest::addColumn<QByteArray>("cpuinfo");
        QTest::addColumn<QByteArray>("hypervisorType");
        QTest::addColumn<QByteArray>("sysVendor");
        QTest::addColumn<QByteArray>("productName");
        QTest::addColumn<QString>("included");
        QTest::addColumn<QString>("evidence");
        const QString guest = u"guest-disks"_qs, bare = u"throughput-disks"_qs;
        QTest::newRow("KVM guest: the hypervisor flag") << kKvmGuestCpuinfo << QByteArray() << QByteArray("QEMU\n")
                                                        << QByteArray("Standard PC (Q35 + ICH9, 2009)\n") << guest
                                                        << u"the hypervisor flag in TREE/proc/cpuinfo"_qs;
        QTest::newRow("bare metal: no hypervisor flag") << kBareMetalCpuinfo << QByteArray() << QByteArray("Dell Inc.\n")
                                                        << QByteArray("PowerEdge R640\n") << bare
                                                        << u"shows no hypervisor: no hypervisor flag in proc/cpuinfo"_qs;
        QTest::newRow("bare metal, cpuinfo only") << kBareMetalCpuinfo << QByteArray() << QByteArray() << QByteArray()
                                                  << bare << u"shows no hypervisor"_qs;
        QTest::newRow("Xen PV guest: sys/hypervisor/type") << kArm64Cpuinfo << QByteArray("xen\n") << QByteArray()
                                                          << QByteArray() << guest
                                                          << u"TREE/sys/hypervisor/type says xen"_qs;
        QTest::newRow("arm64 KVM guest: DMI") << kArm64Cpuinfo << QByteArray() << QByteArray("QEMU\n")
                                              << QByteArray("KVM Virtual Machine\n") << guest
                                              << u"TREE/sys/class/dmi/id/product_name says 'KVM Virtual Machine'"_qs;
        QTest::newRow("arm64 bare metal") << kArm64Cpuinfo << QByteArray() << QByteArray("Ampere(R)\n")
                                          << QByteArray("Mt.Jade\n") << bare << u"shows no hypervisor"_qs;
        QTest::newRow("EC2 metal instance") << kBareMetalCpuinfo << QByteArray() << QByteArray("Amazon EC2\n")
                                            << QByteArray("c5.metal\n") << bare << u"shows no hypervisor"_qs;
        QTest::newRow("EC2 virtual instance") << kArm64Cpuinfo << QByteArray() << QByteArray("Amazon EC2\n")
                                              << QByteArray("m6g.large\n") << guest
                                              << u"TREE/sys/class/dmi/id/sys_vendor says 'Amazon EC2'"_qs;
        // Garbage: a flag that only starts with the word, a flags line
        // elsewhere than at a line's start.
        QTest::newRow("not the hypervisor flag")
            << QByteArray("processor\t: 0\nflags\t\t: fpu hypervisor_x vmx\nmodel name\t: flags : hypervisor\n")
            << QByteArray() << QByteArray() << QByteArray() << bare << u"shows no hypervisor"_qs;
        QTest::newRow("nothing recorded") << QByteArray() << QByteArray() << QByteArray() << QByteArray() << bare
                                          << u"has no proc/cpuinfo and no DMI strings (sys/class/dmi/id) to tell: taken "
                                             "as bare metal"_qs;
    }

    void virtCheckFollowsTheRecordedMachine()
    {
        QFETCH(QByteArray, cpuinfo);
        QFETCH(QByteArray, hypervisorType);
        QFETCH(QByteArray, sysVendor);
        QFETCH(QByteArray, productName);
        QFETCH(QString, included);
        QFETCH(QString, evidence);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString tree = dir.filePath(u"tree"_qs);
        QVERIFY(QDir().mkpath(tree));
        QVERIFY(blocktune::test::copyTree(blocktune::test::recordedTree("nvme-parts"), tree));
        QVERIFY(!QFileInfo::exists(tree + u"/proc/cpuinfo"_qs)); // the recorded tree has none of its own
        QVERIFY(writeTreeFile(tree, u"proc/cpuinfo"_qs, cpuinfo));
        QVERIFY(writeTreeFile(tree, u"sys/hypervisor/type"_qs, hypervisorType));
        QVERIFY(writeTreeFile(tree, u"sys/class/dmi/id/sys_vendor"_qs, sysVendor));
        QVERIFY(writeTreeFile(tree, u"sys/class/dmi/id/product_name"_qs, productName));
        auto root = SysRoot::openTree(tree);
        QVERIFY(root.ok());

        const Result<TunedImport> r = importTunedProfile(tunedProfile("cluster-node"), {}, *root);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->files, (QStringList{canonical(included.toLatin1().constData()), canonical("cluster-node")}));
        const QString note = r->notes.value(0);
        QVERIFY2(note.contains(u"took '%1'"_qs.arg(included)), qPrintable(note));
        QVERIFY2(note.contains(QString(evidence).replace(u"TREE"_qs, root->root())), qPrintable(note));
        const Virtualisation v = detectVirtualisation(*root);
        QCOMPARE(v.virtualMachine, included == u"guest-disks");
    }

    void importsAsTunedReadsIt()
    {
        const Result<TunedImport> r = importTunedProfile(tunedProfile("storage-server"));
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->profile.name, u"storage-server"_qs);
        QCOMPARE(r->profile.description, u"Storage server: data disks with mq-deadline and 4 MiB readahead"_qs);
        // The included profile is read first; the including one wins.
        QCOMPARE(r->files, (QStringList{canonical("throughput-disks"), canonical("storage-server")}));
        // [disk] (priority 0) keeps throughput-disks' readahead=>${bigra};
        // [disk-data] (priority -5) claims sd*, !sda first in tuned, so it
        // comes last here and wins where both match. 8192 s is 4096 KiB.
        QCOMPARE(rulesOf(r->profile), (QStringList{u"every device: read_ahead_kb=>4096"_qs,
                                                   u"name sd*, not sda: read_ahead_kb=4096 scheduler=mq-deadline"_qs}));
        const QString base = canonical("throughput-disks"), own = canonical("storage-server");
        QCOMPARE(r->skipped, (QStringList{
                                 u"[cpu] (enabled, %1:11): the cpu plugin's 3 option(s) are not block-device settings"_qs.arg(base),
                                 u"[sysctl] (enabled, %1:20): the sysctl plugin's 4 option(s) are not block-device settings"_qs.arg(base),
                                 u"[vm] (enabled, %1:23): the vm plugin's 1 option(s) are not block-device settings"_qs.arg(own),
                                 u"[disk] readahead_multiply=2 (%1:21): it multiplies whatever readahead a device has; "
                                 "blocktune sets values"_qs.arg(own),
                                 u"[disk-data] apm=254 (%1:18): hdparm power management, not a queue setting"_qs.arg(own)}));
        QCOMPARE(r->profile.rules[1].comment, u"from [disk-data] of %1:12"_qs.arg(own));
        // What this means on a machine: the data disks get 4 MiB, the system
        // disk and the array keep "at least 4 MiB".
        const QString tree = blocktune::test::recordedTree("md-raid10-f2");
        ScanOptions options;
        options.probeFilesystems = false;
        const auto model = DeviceModel::scan(SysRoot(tree), options);
        QVERIFY(model.ok());
        const ProfileResolution res = resolveProfile(r->profile, SysRoot(tree), *model);
        QVERIFY(res.ok());
        QCOMPARE(res.settings[0].device, u"md0"_qs);
        QCOMPARE(resolvedStateName(res.settings[0].state), u"kept"_qs); // 8192 >= 4096
        QCOMPARE(res.settings[1].device, u"sda"_qs);
        QCOMPARE(res.settings[1].target, u"4096"_qs);
        QCOMPARE(res.settings[2].device, u"sdb"_qs);
        QCOMPARE(res.settings[2].rule, 1);
        QCOMPARE(res.settings[2].overridden, QList<int>{0});
    }

    void orderFollowsTunedsDeviceAssignment()
    {
        // Without priorities tuned hands a device to the first [disk]
        // section in the file: here [disk] (every device) takes them all.
        const Result<TunedImport> r = importTunedText("[disk]\nreadahead=1024\n\n[disk-ssd]\ntype=disk\ndevices=nvme*\n"
                                                      "elevator=none\n",
                                                      u"x.conf"_qs, u"x"_qs);
        QVERIFY(r.ok());
        QCOMPARE(rulesOf(r->profile), (QStringList{u"name nvme*: scheduler=none"_qs, u"every device: read_ahead_kb=1024"_qs}));
        QVERIFY(r->notes.join(u'\n').contains(u"tuned gives each device to one [disk] section"_qs));
    }

    void udevRegexBecomesIdentities()
    {
        const Result<TunedImport> r = importTunedProfile(tunedProfile("by-identity"), u"ids"_qs);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->profile.name, u"ids"_qs);
        QCOMPARE(rulesOf(r->profile), (QStringList{u"md_uuid fbf1c0e0:c67c6a70:263679f8:426416e5: read_ahead_kb=>16384"_qs,
                                                   u"wwn 0x5000c50063a1b2c0: read_ahead_kb=2048"_qs,
                                                   u"wwn 0x5000c50063a1b493: read_ahead_kb=2048"_qs}));
        const QString file = canonical("by-identity");
        QCOMPARE(r->skipped, (QStringList{u"[disk-off] (%1:19): disabled (enabled is not true)"_qs.arg(file),
                                          u"[disk-vendor] (%1:16) with its 1 setting(s): devices_udev_regex 'ID_VENDOR=ATA.*' "
                                          "is not something blocktune can match on: 'ID_VENDOR=ATA.*' is not KEY=VALUE with a "
                                          "literal value"_qs.arg(file)}));
        QVERIFY(r->notes.join(u'\n').contains(u"devices_udev_regex 'MD_UUID=fbf1c0e0:c67c6a70:263679f8:426416e5' is not "
                                              "anchored with ^...$"_qs));
    }

    void refused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("include cycle") << tunedProfile("cycle-a")
                                       << u"include cycle: cycle-a -> cycle-b -> cycle-a (%1)"_qs.arg(canonical("cycle-a"));
        QTest::newRow("missing include")
            << tunedProfile("missing-include")
            << u"%1:3: include 'no-such-profile': there is no %2/no-such-profile/tuned.conf (included profiles are looked "
               "up beside this one, PROFILES/NAME/tuned.conf, as tuned does in /usr/lib/tuned/profiles/)"_qs
                   .arg(canonical("missing-include"), QFileInfo(canonical("missing-include")).dir().absolutePath().section(u'/', 0, -2));
        QTest::newRow("broken section") << tunedProfile("broken-section")
                                        << u"%1:4: a broken section header (write [NAME] alone on its line)"_qs
                                               .arg(canonical("broken-section"));
        QTest::newRow("no such file") << u"/nonexistent/x/tuned.conf"_qs << u"cannot read /nonexistent/x/tuned.conf: no such file"_qs;
    }

    void refused()
    {
        QFETCH(QString, path);
        QFETCH(QString, message);
        const Result<TunedImport> r = importTunedProfile(path);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().message, message);
    }

    void refusedText_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("option before any section") << QByteArray("readahead=1024\n[disk]\n")
                                                   << u"x.conf:1: a line before any [section] (a tuned.conf "
                                                      "starts with [main] or a plugin's section)"_qs;
        QTest::newRow("no =") << QByteArray("[disk]\nreadahead 1024\n")
                              << u"x.conf:2: a line that is neither a [section], KEY=VALUE nor a # comment"_qs;
        QTest::newRow("text after ]") << QByteArray("[disk] readahead=1\n")
                                      << u"x.conf:1: a broken section header (write [NAME] alone on its line)"_qs;
        QTest::newRow("bad readahead") << QByteArray("[main]\nsummary=s\n[disk]\nreadahead=fast\n")
                                       << u"x.conf:4: 'fast' is not a readahead (N in KiB, 'N s' in 512-byte sectors, >N or "
                                          "<N)"_qs;
        QTest::newRow("bound in sectors") << QByteArray("[disk]\nreadahead=>8192 s\n")
                                          << u"x.conf:2: '>8192 s': tuned compares > and < in KiB only (it cannot read "
                                             "'8192 s' as a number)"_qs;
        QTest::newRow("bad elevator") << QByteArray("[disk]\nelevator=mq deadline\n")
                                      << u"x.conf:2: elevator 'mq deadline' is not a scheduler name (such as mq-deadline, "
                                         "bfq, none)"_qs;
        QTest::newRow("nothing for blocktune") << QByteArray("[cpu]\ngovernor=performance\n[disk]\napm=128\n")
                                               << u"x.conf: nothing to import: no disk section with elevator= or readahead= "
                                                  "blocktune applies (skipped:\n  [cpu] (enabled, x.conf:1): the cpu plugin's 1 "
                                                  "option(s) are not block-device settings\n  [disk] apm=128 (x.conf:4): hdparm "
                                                  "power management, not a queue setting\n  [disk] (x.conf:3): nothing "
                                                  "blocktune applies)"_qs;
        // Found by fuzz_tuned_import: it went into a rule's comment, which a
        // blocktune profile refuses.
        QTest::newRow("control character") << QByteArray("[main]\nsummary=s\n[disk-x\x02]\nreadahead=512\n")
                                           << u"x.conf:3: a control character (U+0002) at column 8: a tuned.conf is text"_qs;
        QTest::newRow("not UTF-8") << QByteArray("[disk]\nreadahead=\xff\n")
                                   << u"x.conf: not UTF-8 text, which tuned cannot read either"_qs;
    }

    void refusedText()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const Result<TunedImport> r = importTunedText(text, u"x.conf"_qs, u"x"_qs);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().message, message);
    }

    // Attack 4 of issue 36: 10,000 profiles, p0 including p1 including p2
    // ... The loader recursed once per include and overflowed the stack
    // (through the agent, `profile import` killed it: rc -11). Now it
    // follows the chain in a loop and cuts it after 8 profiles, saying so;
    // a chain of 8 is still read whole.
    void deepIncludeChainIsCutNotCrashed()
    {
        QTemporaryDir dir;
        constexpr int kProfiles = 10000;
        for (int i = 0; i < kProfiles; ++i) {
            const QString folder = dir.filePath(u"p%1"_qs.arg(i));
            QVERIFY(QDir().mkpath(folder));
            QFile f(folder + u"/tuned.conf"_qs);
            QVERIFY(f.open(QIODevice::WriteOnly));
            if (i + 1 < kProfiles)
                f.write(QByteArray("[main]\ninclude=p" + QByteArray::number(i + 1) + "\n"));
            f.write(QByteArray("[disk]\nreadahead=" + QByteArray::number(128 + i) + "\n"));
        }
        const Result<TunedImport> deep = importTunedProfile(dir.filePath(u"p0/tuned.conf"_qs));
        QVERIFY(!deep.ok());
        QVERIFY2(deep.error().message.startsWith(u"include chain longer than 8 profiles: p0 -> p1 -> ... -> p7 -> p8 ("_qs),
                 qPrintable(deep.error().message));
        // A process of its own, as the agent was: an answer, not a signal.
        const ProcessResult cli = run(binary("blocktune-cli"), {u"profile"_qs, u"import"_qs, dir.filePath(u"p0/tuned.conf"_qs)});
        QVERIFY2(cli.exitCode > 0, cli.err.constData());
        QVERIFY2(cli.err.contains("include chain longer than 8 profiles"), cli.err.constData());
        const Result<TunedImport> eight = importTunedProfile(dir.filePath(u"p%1/tuned.conf"_qs.arg(kProfiles - 8)));
        QVERIFY2(eight.ok(), eight.ok() ? "" : qPrintable(eight.error().message));
        QCOMPARE(eight->files.size(), 8);
    }

    // A named pipe as the tuned.conf, or as an included profile's: the read
    // waited for ever for a writer. Refused, naming it, before it is opened;
    // so are devices (an endless /dev/zero) and folders.
    void namedPipeOrDeviceIsRefusedNotRead()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(u"fifo"_qs)));
        QVERIFY(QDir().mkpath(dir.filePath(u"includes-fifo"_qs)));
        QCOMPARE(::mkfifo(QFile::encodeName(dir.filePath(u"fifo/tuned.conf"_qs)).constData(), 0600), 0);
        QFile including(dir.filePath(u"includes-fifo/tuned.conf"_qs));
        QVERIFY(including.open(QIODevice::WriteOnly));
        including.write("[main]\ninclude=fifo\n[disk]\nreadahead=4096\n");
        including.close();
        for (const QString &path : {dir.filePath(u"fifo/tuned.conf"_qs), dir.filePath(u"includes-fifo/tuned.conf"_qs)}) {
            // In a process of its own: a hang fails this test (10 s) instead of stopping it.
            const ProcessResult r = run(binary("blocktune-cli"), {u"profile"_qs, u"import"_qs, path}, 10000);
            QVERIFY2(r.exitCode > 0, r.err.constData());
            QVERIFY2(r.err.contains(QByteArray(QFile::encodeName(QFileInfo(dir.filePath(u"fifo/tuned.conf"_qs)).canonicalFilePath())
                                               + " is not a regular file (a named pipe, a device or a folder)")),
                     r.err.constData());
        }
        for (const QString &path : {u"/dev/zero"_qs, dir.path()}) {
            const Result<TunedImport> r = importTunedProfile(path);
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.contains(u"is not a regular file"_qs), qPrintable(r.error().message));
        }
    }

    // `profile import /etc/shadow` printed the file's first line in its
    // error. A file that does not parse is named with the line, never quoted.
    void unparsableFileIsNeverQuoted_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("shadow") << QByteArray("root:$y$j9T$Sekr3tSalt$Sekr3tHash:19700:0:99999:7:::\ndaemon:*:19700::::::\n");
        QTest::newRow("broken header") << QByteArray("[Sekr3t\n");
        QTest::newRow("no =") << QByteArray("[main]\nSekr3t words\n");
        QTest::newRow("section then a stray line") << QByteArray("[client]\npassword=x\n\tSekr3t\n[\n");
    }
    void unparsableFileIsNeverQuoted()
    {
        QFETCH(QByteArray, text);
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(u"x"_qs)));
        QFile f(dir.filePath(u"x/tuned.conf"_qs));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        const Result<TunedImport> r = importTunedProfile(f.fileName());
        QVERIFY(!r.ok());
        QVERIFY2(!r.error().message.contains(u"Sekr3t"_qs), qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(QFileInfo(f.fileName()).canonicalFilePath() + u':'), qPrintable(r.error().message));
        // The real one, where this test may read it.
        QFile shadow(u"/etc/shadow"_qs);
        if (shadow.open(QIODevice::ReadOnly)) {
            const QByteArray first = shadow.readLine().trimmed();
            const ProcessResult cli = run(binary("blocktune-cli"), {u"profile"_qs, u"import"_qs, u"/etc/shadow"_qs});
            QVERIFY(cli.exitCode > 0);
            QVERIFY2(!first.isEmpty() && !cli.err.contains(first) && !cli.err.contains(first.left(first.indexOf(':') + 2)),
                     cli.err.constData());
        }
    }

    void readsTunedsSyntax_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("rules");
        QTest::newRow("sectors") << QByteArray("[disk]\nreadahead = 8191 s\n") << QStringList{u"every device: read_ahead_kb=4095"_qs};
        QTest::newRow("lower only") << QByteArray("[disk]\nreadahead=<64\n") << QStringList{u"every device: read_ahead_kb=<64"_qs};
        QTest::newRow("inline comment needs a space") << QByteArray("[disk]\ndevices=sd#a # a comment\nreadahead=1\n")
                                                      << QStringList{};
        QTest::newRow("devices split on commas and spaces")
            << QByteArray("[disk]\ndevices=sdb,sdc \tsdd\nreadahead=2\n")
            << QStringList{u"name sdb: read_ahead_kb=2"_qs, u"name sdc: read_ahead_kb=2"_qs, u"name sdd: read_ahead_kb=2"_qs};
        QTest::newRow("only exclusions") << QByteArray("[disk]\ndevices=!sda, !nvme*\nelevator=bfq\n")
                                         << QStringList{u"not sda, nvme*: scheduler=bfq"_qs};
        QTest::newRow("continuation line") << QByteArray("[disk]\ndevices=sdb,\n  sdc\nreadahead=8\n")
                                           << QStringList{u"name sdb: read_ahead_kb=8"_qs, u"name sdc: read_ahead_kb=8"_qs};
        QTest::newRow("type names a disk section") << QByteArray("[fast]\ntype=disk\ndevices=nvme0n1\nelevator=none\n")
                                                   << QStringList{u"name nvme0n1: scheduler=none"_qs};
        QTest::newRow("semicolon comment, CRLF") << QByteArray("; comment\r\n[disk]\r\nreadahead=16\r\n")
                                                 << QStringList{u"every device: read_ahead_kb=16"_qs};
        QTest::newRow("a later same-named section updates") << QByteArray("[disk]\nreadahead=1\n[disk]\nreadahead=2\n")
                                                            << QStringList{u"every device: read_ahead_kb=2"_qs};
    }

    void readsTunedsSyntax()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, rules);
        const Result<TunedImport> r = importTunedText(text, u"x.conf"_qs, u"x"_qs);
        if (rules.isEmpty()) {
            // "sd#a" is one device name to tuned, not a glob blocktune reads.
            QVERIFY(!r.ok());
            QVERIFY(r.error().message.contains(u"devices=sd#a is not a list of kernel-name globs"_qs));
            return;
        }
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(rulesOf(r->profile), rules);
    }

    void tunedExportImportsBack_data()
    {
        QTest::addColumn<QByteArray>("rules");
        QTest::newRow("presets' shapes") << QByteArray("{\"match\": {\"type\": \"md\"}, \"set\": {\"read_ahead_kb\": \">32768\"}},"
                                                       "{\"match\": {\"type\": \"disk\"}, \"set\": {\"scheduler\": \"mq-deadline\"}}");
        QTest::newRow("identities") << QByteArray(
            "{\"match\": {\"wwn\": \"0x5000c50063a1b2c0\"}, \"set\": {\"read_ahead_kb\": 4096}},"
            "{\"match\": {\"md_uuid\": \"fbf1c0e0:c67c6a70:263679f8:426416e5\"}, \"set\": {\"read_ahead_kb\": \"<8192\"}},"
            "{\"match\": {\"dm_name\": \"vg_scst-lun0\"}, \"set\": {\"read_ahead_kb\": 512}},"
            "{\"match\": {\"serial\": \"S5GXNF0R912345K\"}, \"set\": {\"scheduler\": \"none\"}},"
            "{\"match\": {\"model\": \"ST2000NM0033-9ZM\", \"transport\": \"sata\"}, \"set\": {\"scheduler\": \"bfq\"}}");
        QTest::newRow("names and exclusions") << QByteArray(
            "{\"match\": {\"name\": \"sd[b-i]\", \"not_name\": \"sdc\"}, \"set\": {\"read_ahead_kb\": 1024}},"
            "{\"match\": {\"name\": \"vd?\", \"wwn\": \"0x1\"}, \"set\": {\"read_ahead_kb\": 64}}");
    }

    void tunedExportImportsBack()
    {
        QFETCH(QByteArray, rules);
        const Profile p = profileOf(rules);
        const Result<ExportedText> conf = exportTuned(p);
        QVERIFY(conf.ok());
        const Result<TunedImport> back = importTunedText(conf->text, u"exported.conf"_qs, u"t"_qs);
        QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().message + u'\n' + QString::fromUtf8(conf->text)));
        QCOMPARE(rulesOf(back->profile), rulesOf(p));
        QVERIFY2(back->skipped.isEmpty(), qPrintable(back->skipped.join(u'\n')));
    }

    void tunedExportSaysWhatItCannot()
    {
        const Profile p = profileOf("{\"match\": {\"type\": \"disk\", \"rotational\": true}, \"set\": {\"scheduler\": \"bfq\", "
                                    "\"nr_requests\": 256, \"ra_sectors\": 8192}}");
        const Result<ExportedText> conf = exportTuned(p);
        QVERIFY(conf.ok());
        const QString text = QString::fromUtf8(conf->text);
        QVERIFY2(text.contains(u"\n[disk]\ndevices=!md*, !dm-*, !loop*, !sr*\nreadahead=8192 s\nelevator=bfq\n"
                               "# nr_requests=256 (not a tuned disk option; blocktune applies it)\n"_qs),
                 qPrintable(text));
        QVERIFY(text.contains(u"[main]\nsummary=Test.\n"_qs));
        QCOMPARE(conf->warnings, (QStringList{u"rule 1 matches rotational devices: tuned cannot tell rotational devices apart, "
                                              "so its section takes every device its devices= selects"_qs,
                                              u"rule 1: nr_requests=256 has no option in tuned's disk plugin: left as a comment"_qs}));
    }

    void udevExportWritesTheIssuesLines()
    {
        const Profile p = profileOf(
            "{\"match\": {\"md_uuid\": \"fbf1c0e0-c67c-6a70-2636-79f8426416e5\"}, \"set\": {\"read_ahead_kb\": 65536}},"
            "{\"match\": {\"wwn\": \"0x5000c50063a1b2c0\", \"rotational\": true}, \"set\": {\"scheduler\": \"mq-deadline\", "
            "\"iosched.fifo_batch\": 32, \"max_sectors_kb\": 1024, \"ra_sectors\": 8192}},"
            "{\"match\": {\"serial\": \"Z1X2\", \"name\": \"sd*\"}, \"set\": {\"read_ahead_kb\": \">4096\"}}",
            "streaming");
        const Result<ExportedText> rules = exportUdevRules(p);
        QVERIFY(rules.ok());
        const QString text = QString::fromUtf8(rules->text);
        QVERIFY(text.startsWith(u"# Generated by blocktune from profile 'streaming' (schema 1)."_qs));
        QVERIFY(text.contains(u"blocktune-cli profile install streaming (writes /etc/udev/rules.d/70-blocktune-streaming.rules"_qs));
        const QString head = u"ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", "_qs;
        QVERIFY2(text.contains(head + u"ENV{MD_UUID}==\"fbf1c0e0:c67c6a70:263679f8:426416e5\", ATTR{queue/read_ahead_kb}=\"65536\"\n"_qs),
                 qPrintable(text));
        const QString disk = head + u"ATTR{queue/rotational}==\"1\", ENV{ID_WWN}==\"0x5000c50063a1b2c0\", "_qs;
        // Scheduler first, guarded; its tunable next; readahead after max_sectors_kb.
        QVERIFY2(text.contains(disk + u"TEST==\"queue/scheduler\", ATTR{queue/scheduler}=\"mq-deadline\"\n"_qs + disk
                               + u"TEST==\"queue/iosched/fifo_batch\", ATTR{queue/iosched/fifo_batch}=\"32\"\n"_qs + disk
                               + u"ATTR{queue/max_sectors_kb}=\"1024\", ATTR{queue/read_ahead_kb}=\"4096\"\n"_qs),
                 qPrintable(text));
        QVERIFY2(text.contains(head + u"KERNEL==\"sd*\", ENV{ID_SERIAL}==\"Z1X2|*_Z1X2|*_Z1X2-*\", ATTR{queue/read_ahead_kb}=\"4096\"\n"_qs),
                 qPrintable(text));
        QCOMPARE(rules->warnings, QStringList{u"rule 3: read_ahead_kb >4096 written as 4096: udev cannot compare with the "
                                              "current value (it also lowers a larger one)"_qs});
        QVERIFY(checkUdevRulesContent(rules->text).ok());
        QCOMPARE(udevRulesFileName(p.name), u"70-blocktune-streaming.rules"_qs);
        QVERIFY(checkUdevRulesName(udevRulesFileName(p.name)).ok());
    }

    void udevExportRefusesWhatUdevCannotMatch()
    {
        const Result<ExportedText> part = exportUdevRules(profileOf("{\"match\": {\"type\": \"part\"}, \"set\": {\"read_ahead_kb\": 1}},"
                                                                    "{\"match\": {\"transport\": \"thunderbolt\"}, \"set\": {\"read_ahead_kb\": 1}}"));
        QVERIFY(!part.ok());
        QCOMPARE(part.error().message,
                 u"t.json: cannot be written as udev rules:\nrule 1 matches partitions (type part): udev sets queue settings on "
                 "whole disks, and a partition's are its disk's; match the disk instead\nrule 2: transport 'thunderbolt' has "
                 "no udev match blocktune knows (sata, usb, scsi, nvme, virtio, mmc, iscsi, fc, sas)"_qs);
    }

    void everyPresetExportsToBoth()
    {
        const ProfileStore store(u"/nonexistent"_qs, u"/nonexistent"_qs, QStringLiteral(BLOCKTUNE_SOURCE_DIR "/resources/profiles"));
        for (const QString &f : presetNames()) {
            const Result<Profile> p = store.load(f.chopped(5));
            QVERIFY(p.ok());
            const Result<ExportedText> udev = exportUdevRules(*p);
            QVERIFY2(udev.ok(), qPrintable(f));
            const Status accepted = checkUdevRulesContent(udev->text);
            QVERIFY2(accepted.ok(), accepted.ok() ? "" : qPrintable(f + u": " + accepted.error().message));
            const Result<ExportedText> conf = exportTuned(*p);
            QVERIFY2(conf.ok(), qPrintable(f));
            const Result<TunedImport> back = importTunedText(conf->text, f, p->name);
            QVERIFY2(back.ok(), qPrintable(f));
            QCOMPARE(back->profile.rules.size(), p->rules.size());
        }
    }
};

QTEST_GUILESS_MAIN(TestProfileTuned)
#include "tst_profile_tuned.moc"
