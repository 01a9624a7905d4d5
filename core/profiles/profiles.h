#pragma once
// What core/profiles offers: tuning profiles, the way an administrator keeps
// what works, brings it back, and carries it to the next boot and the next
// hundred servers.
//
//   - The format: versioned JSON, `{"schema": 1, "name", "description",
//     "rules": [{"match": {...}, "set": {...}}]}`, parsed with errors that
//     name the file with line and column (syntax) or the rule and key
//     (meaning): parseProfile(), profileToJson().
//   - Where profiles live: ProfileStore (the user's, /etc's, the presets).
//   - Resolving a profile against the devices present: resolveProfile()
//     says per device and setting which rule won, current -> new, what no
//     rule matched, and where the md/dm readahead floor will win again.
//   - saveProfile() (current settings, optionally only what differs from the
//     kernel's own defaults), verifyProfile() (drift), applyProfile() (one
//     change set, the before-state remembered) and revertProfile().
//   - exportUdevRules(), exportTuned() and importTunedProfile(): the fleet
//     tools that already exist.
//
//     TuningSession session(root);
//     ProfileStore store = ProfileStore::standard(root);
//     Result<Profile> p = store.load(QStringLiteral("streaming-md"));
//     ProfilePreview preview = previewProfile(*p, session);  // what would change
//     ProfileApplyReport done = applyProfile(*p, session);   // that plan, written
//
// Applying travels the session's one road (its model, plan, writer and
// journal). Everything is synchronous; the console runs it off the GUI thread.

#include "common/result.h"
#include "common/sysroot.h"
#include "devices/devicemodel.h"
#include "privilege/privilege.h"
#include "session/session.h"
#include "tuning/tuning.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace blocktune {

inline constexpr int kProfileSchema = 1;

// ---- The format -------------------------------------------------------------------

/// `4096`, `">4096"` (only raise, as tuned's `>`), `"<4096"` (only lower).
enum class ValueBound { Exact, AtLeast, AtMost };

/// One `set` entry: a key of `blocktune-cli set` and its value.
struct ProfileSetting
{
    QString key;   ///< read_ahead_kb, ra_sectors, scheduler, nr_requests, max_sectors_kb, context_readahead, iosched.NAME
    QString value; ///< without the bound: "4096", "mq-deadline"
    ValueBound bound = ValueBound::Exact;

    /// As written in a profile: "4096", ">4096", "mq-deadline".
    QString text() const;
    /// read_ahead_kb and ra_sectors are one setting (the readahead): later
    /// rules win per setting, so they must compare equal here.
    QString settingName() const;
};

/// Which devices a rule applies to: every key given must match.
struct ProfileMatch
{
    QString name;          ///< kernel-name glob (fnmatch: * ? [...])
    QStringList notName;   ///< kernel-name globs left out (tuned's `!sda`)
    std::optional<DeviceType> type; ///< disk, part, md, dm, loop
    std::optional<bool> rotational;
    QString transport;     ///< as `list` shows it: sata, nvme, usb, virtio, scsi, iscsi, sas, fc, mmc
    QString model;
    QString serial;
    QString wwn;
    QString mdUuid;        ///< mdadm's form, lower case: 3cd62a1f:c0c0d9b7:4b4c3bd7:6fb6b2a1
    QString dmName;        ///< LVM's vg-lv, or any dm name

    bool isEmpty() const;
    bool matches(const BlockDevice &device) const;
    /// "wwn 0x5000c500a1b2c3d4, rotational" / "every device".
    QString describe() const;
};

struct ProfileRule
{
    ProfileMatch match;
    QList<ProfileSetting> settings; ///< in settingKeys() order
    QString comment;                ///< optional "comment" of the rule
};

struct Profile
{
    QString name;
    QString description;
    QList<ProfileRule> rules;
    QString source; ///< the file it came from, or "preset NAME", for messages
};

/// "rule 2" for the rule at index 1.
QString ruleLabel(int index);
/// Letters, digits, '_', '.', '-'; starts with a letter or digit; at most 64.
bool isValidProfileName(const QString &name);
/// 32 hex digits in any grouping ("fbf1c0e0-c67c-6a70-...", mdadm's
/// "fbf1c0e0:c67c6a70:...") -> mdadm's form, lower case; empty if not a UUID.
QString normalizeMdUuid(const QString &text);

/// Parses a profile file. Errors name `source` with line:column for broken
/// JSON, else the rule and key ("rule 2, set.readahed_kb: unknown key ...");
/// every problem is listed, one per line, in the one Error.
Result<Profile> parseProfile(const QByteArray &json, const QString &source);
/// The file form (stable key order, one rule per block), what parseProfile reads back.
QByteArray profileToJson(const Profile &profile);

// ---- Where profiles live ----------------------------------------------------------------

enum class ProfileOrigin { User, System, Preset, File };
/// "user", "system", "preset", "file".
QString profileOriginName(ProfileOrigin origin);

struct ProfileEntry
{
    QString name;
    ProfileOrigin origin = ProfileOrigin::User;
    QString path;
    QString description; ///< empty when the file does not parse (see error)
    QString error;
    QStringList shadows; ///< paths of same-named profiles this one hides
};

/// Profiles by name: $XDG_CONFIG_HOME/blocktune/profiles/NAME.json (the
/// user's, found through QStandardPaths), ROOT/etc/blocktune/profiles/
/// (the machine's), and the presets of resources/profiles/ (embedded by
/// blocktune::resources as :/profiles/, in programs that link it), in that
/// order: a user's profile hides a preset of the same name.
class ProfileStore final
{
public:
    ProfileStore(QString userDir, QString systemDir, QString presetDir);
    static ProfileStore standard(const SysRoot &root);

    const QString &userDir() const { return m_userDir; }
    const QString &systemDir() const { return m_systemDir; }
    QList<ProfileEntry> list() const;
    /// A name from the folders above, or a path to a file (contains '/' or
    /// ends in .json).
    Result<Profile> load(const QString &nameOrFile) const;
    /// Where a saved profile `name` goes: userDir()/NAME.json.
    QString userPath(const QString &name) const;

private:
    QString m_userDir;
    QString m_systemDir;
    QString m_presetDir;
};

/// Writes a profile file atomically (temp file, rename); refuses to
/// replace an existing file unless `overwrite`.
Status writeProfileFile(const Profile &profile, const QString &path, bool overwrite);

/// "user" -> ProfileOrigin::User...; nullopt for a word it does not know.
std::optional<ProfileOrigin> parseProfileOrigin(const QString &name);
/// A few bytes that change whenever a profile file in `store`'s own folders
/// (the user's and the machine's) appears, goes, or is written: names,
/// sizes and modification times, hashed. What a host's window polls.
QByteArray profileFolderDigest(const ProfileStore &store);

/// Tells when the profiles of a ProfileLibrary may have changed (a file
/// saved, replaced by rename, removed, a folder made). Lives on the thread
/// that made it.
class ProfileWatch : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProfileWatch)

public:
    using QObject::QObject;
    ~ProfileWatch() override = default;
    /// What it watches, for the page to say ("~/.config/blocktune/profiles",
    /// "testhost, asked every 5 s").
    virtual QString describe() const = 0;

Q_SIGNALS:
    /// List again: something in the folders changed.
    void changed();
    /// It cannot watch any more (a host's agent that is older, the link
    /// gone); `why` says so.
    void stopped(const QString &why);
};

/// Where a console window finds its profiles and saves new ones: this
/// machine's folders (makeLocalProfileLibrary over a ProfileStore), or a
/// host's, through its agent (core/remote: RemoteConnection::profiles).
/// One interface, chosen where the window is made; the page never asks
/// which. list(), load() and save() block (a host answers over ssh): call
/// them off the GUI thread. watch() is made on the thread that keeps it.
/// Where a library's profiles live: the user's folder (save() writes
/// there) and the machine's (HOST:PATH for a host).
struct ProfileFolders
{
    QString user;
    QString system;
};

class ProfileLibrary
{
public:
    virtual ~ProfileLibrary() = default;

    /// Whose profiles these are, for messages: empty for this machine, else the host.
    virtual QString host() const = 0;
    virtual Result<QList<ProfileEntry>> list() = 0;
    virtual Result<Profile> load(const QString &name) = 0;
    /// Saved as the user's NAME.json there (refused when it exists and not
    /// `overwrite`); the file written (HOST:PATH for a host).
    virtual Result<QString> save(const Profile &profile, bool overwrite) = 0;
    /// Where save() would write NAME (HOST:PATH for a host): what a preview names.
    virtual Result<QString> userPath(const QString &name) = 0;
    /// The user's and the machine's folders, as `profile list` names them.
    virtual Result<ProfileFolders> folders() = 0;
    /// Follows the folders from now on; owned by `parent`.
    virtual ProfileWatch *watch(QObject *parent) = 0;
};

/// This machine's profiles in `store`'s folders, watched with
/// QFileSystemWatcher (a folder that does not exist yet is watched through
/// the nearest one that does, so its making is seen).
std::shared_ptr<ProfileLibrary> makeLocalProfileLibrary(ProfileStore store);

// ---- Resolving against the devices present ---------------------------------------------

enum class ResolvedState {
    Change,    ///< differs from the profile: will be written
    Unchanged, ///< already the profile's value
    Kept,      ///< a `>`/`<` bound the current value already satisfies
    Skipped,   ///< the device does not have it (no scheduler to choose, bio-based...)
};
/// "change", "unchanged", "kept", "skipped".
QString resolvedStateName(ResolvedState state);

/// One setting of one device as the profile decides it.
struct ResolvedSetting
{
    QString device;          ///< whose queue (a whole device)
    ProfileSetting setting;  ///< the winning rule's
    int rule = -1;           ///< index of the winning rule
    QList<int> overridden;   ///< earlier rules that set it too and lost
    QStringList via;         ///< partitions through which the rule matched (sda1 -> sda)
    QString current;         ///< now, in the key's unit (ra_sectors: sectors)
    QString target;          ///< the value to write (Change) or that counts as matching
    ResolvedState state = ResolvedState::Change;
    /// The current value is already what the profile says (a Change then
    /// only writes it again: after a scheduler switch or a limits update).
    bool satisfied = false;
    QString reason;          ///< why Unchanged, Kept or Skipped, or why written again
};

/// A readahead the kernel raises again to 2 x stripe on re-assembly or a
/// reshape (md), or a table reload (dm-stripe).
struct FloorOverride
{
    QString device;
    quint64 valueKiB = 0;
    quint64 floorKiB = 0;
    quint64 stripeKiB = 0;
    int rule = -1;
};

struct ProfileResolution
{
    QList<ResolvedSetting> settings;   ///< device order, then settingKeys() order
    QStringList unmatchedDevices;      ///< tunable whole devices no rule matched
    QList<int> unmatchedRules;         ///< rules that matched no device
    QList<FloorOverride> floorOverrides;
    QList<Error> errors;               ///< any: refuse the profile, change nothing
    bool ok() const { return errors.isEmpty(); }
    /// The Change entries as a change set (through parseSettingChange).
    QList<SettingChange> changes() const;
    int changeCount() const;
};

/// Later rules win per setting. Partitions share their disk's queue: only a
/// rule with "type": "part" looks at them, and it sets their disk. A scheduler, iosched tunable,
/// nr_requests or context_readahead a device does not have is skipped on
/// that device; one that no matched device has is an error.
ProfileResolution resolveProfile(const Profile &profile, const SysRoot &root, const DeviceModel &model);

/// The resolution and the change set's plan, made by the session (validated
/// against the live values, as `set` validates): what `apply --dry-run`
/// shows, and what applyProfile() writes, unchanged.
struct ProfilePreview
{
    ProfileResolution resolution; ///< every device the profile decides
    ChangePlan plan;              ///< the changes of the chosen devices
    QList<Error> errors; ///< resolution errors, then the plan's, each naming the rule
    QStringList leftOut; ///< devices the profile would change that were not chosen
    bool ok() const { return errors.isEmpty(); }
};
/// `onlyDevices` (whole devices' kernel names): plan only their changes, as
/// a person chose them in the console's preview; nullopt: every device.
ProfilePreview previewProfile(const Profile &profile, SessionPort &session,
                              const std::optional<QStringList> &onlyDevices = std::nullopt);
QJsonObject resolutionToJson(const Profile &profile, const ProfileResolution &resolution);

// ---- verify -----------------------------------------------------------------------

struct Drift
{
    QString device;
    QString key;
    QString expected; ///< as the profile says it (">4096")
    QString actual;
    int rule = -1;
};

struct VerifyReport
{
    ProfileResolution resolution;
    QList<Drift> drifts;
    int matching = 0; ///< settings found as the profile wants them
    bool ok() const { return drifts.isEmpty() && resolution.ok(); }
};
/// Compares the system with the profile (as `tuned-adm verify`): every
/// setting the profile decides that is not as it says is a drift.
VerifyReport verifyProfile(const Profile &profile, const SysRoot &root, const DeviceModel &model);
QJsonObject verifyReportToJson(const Profile &profile, const VerifyReport &report);

// ---- save ---------------------------------------------------------------------------

struct SaveOptions
{
    QString name;
    QString description;
    /// Kernel names (or /dev paths); empty: every tunable device that is not a partition.
    QStringList devices;
    /// Only what differs from what the kernel sets by itself (kernelDefaults()).
    bool changedOnly = false;
    /// What the description says the settings are of: a host name, or
    /// "the recorded tree DIR"; empty: as `root` says (this machine's name).
    QString machine;
};

struct SavedProfile
{
    Profile profile;
    QStringList notes; ///< identities that are only kernel names, devices left out, defaults dropped
};

/// The current settings of the chosen devices as a profile, one rule per
/// device matched by its most stable identity: md UUID, dm name, WWN,
/// serial; the kernel name only where there is nothing else (said so in
/// the rule's comment and the notes).
Result<SavedProfile> saveProfile(const SysRoot &root, const DeviceModel &model, const SaveOptions &options);

/// What the kernel sets by itself for `key` on a device (the values it may
/// have chosen), and how that is known. Empty `values`: not known, so a
/// value is always kept.
struct KernelDefault
{
    QStringList values;
    QString reason;
};
KernelDefault kernelDefault(const SysRoot &root, const BlockDevice &queue, const DeviceSettings &settings,
                            const QString &key);

// ---- apply and revert ----------------------------------------------------------------------

struct ProfileApplyReport
{
    ProfilePreview preview;
    ChangeReport report;      ///< empty outcomes when nothing needed changing
    QString statePath;        ///< where the before-state is kept
    QStringList messages;
    bool ok() const { return preview.ok() && report.ok(); }
    bool nothingToDo() const { return preview.ok() && preview.plan.writes.isEmpty(); }
};

/// Previews, refuses on any error, writes the before-state, then has the
/// session apply the previewed plan as one transaction (rolled back on a
/// failed write, and the before-state put back as it was).
ProfileApplyReport applyProfile(const Profile &profile, SessionPort &session);
/// The same for a preview already shown (the console's): writes exactly
/// `preview.plan`, planning nothing again, so what was shown is what is
/// written.
ProfileApplyReport applyPreviewedProfile(const Profile &profile, const ProfilePreview &preview,
                                         SessionPort &session);

struct ProfileRevertReport
{
    std::optional<AppliedState> state;
    RestoreReport restore;
    bool ok() const { return restore.ok(); }
};
/// Brings back the before-state (scheduler first, only onto the same
/// devices), removes it when every value is settled, keeps the rest.
ProfileRevertReport revertProfile(SessionPort &session);
/// What revertProfile() would do now, changing nothing: per remembered
/// value "restored" (would be written back: `found` now, `kept` the
/// original), "already original", or "device changed" (a re-attached or
/// swapped device: left alone).
ProfileRevertReport previewRevert(SessionPort &session);

// ---- udev and tuned -------------------------------------------------------------------

struct ExportedText
{
    QByteArray text;
    QStringList warnings; ///< what the target cannot express exactly
};

/// udev numbers its rules files; mdadm's 63-md-raid-arrays.rules sets
/// MD_UUID, LVM's 69-dm-lvm.rules runs before us.
inline constexpr int kUdevRulesPriority = 70;
/// "70-blocktune-NAME.rules".
QString udevRulesFileName(const QString &profileName, int priority = kUdevRulesPriority);
/// A rules file: per rule a line per write group, every one starting
/// ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk" and
/// matching by the rule's keys (docs/json.md, "Profiles format"). Refused for a rule
/// udev cannot match (type part, an unknown transport).
Result<ExportedText> exportUdevRules(const Profile &profile);
/// A tuned.conf: [main] summary=, one [disk] or [disk-NAME] (type=disk)
/// section per rule with devices= or devices_udev_regex=, elevator=,
/// readahead= (KiB, `>N`/`<N` kept); what tuned's disk plugin cannot set is
/// left as a comment and warned about.
Result<ExportedText> exportTuned(const Profile &profile);

/// The profile as resolved on one host (`where`: "host NAME", "the recorded
/// tree DIR") as YAML `kernel_settings_sysfs` for linux-system-roles'
/// kernel_settings role: per device a `{name: /sys/block/DEV/queue/ATTR,
/// value}` in write order (scheduler first, readahead last). Kernel names
/// are that host's, as the file's comment says; a resolution with errors
/// is refused.
Result<ExportedText> exportKernelSettings(const Profile &profile, const ProfileResolution &resolution,
                                          const QString &where);

struct TunedImport
{
    Profile profile;
    QStringList files;   ///< the tuned.conf files read, included ones first
    QStringList skipped; ///< what blocktune does not apply, with why
    QStringList notes;
};
/// Whether a machine runs under a hypervisor or in a container, the
/// question tuned's `${f:virt_check:...}` asks virt-what, and what told.
struct Virtualisation
{
    bool virtualMachine = false;
    QString evidence; ///< "systemd-detect-virt says kvm", "the hypervisor flag in DIR/proc/cpuinfo", ...
};
/// The live machine: systemd-detect-virt (it knows containers too), else
/// what /proc and /sys show. A recorded tree: only what it carries, so it
/// answers as its machine would wherever this runs: the `hypervisor` CPU
/// flag in proc/cpuinfo, sys/hypervisor/type, a hypervisor's name in the
/// DMI strings of sys/class/dmi/id (systemd's detect_vm_dmi_vendor table).
/// Nothing of these: bare metal, and the evidence says what was missing.
Virtualisation detectVirtualisation(const SysRoot &root);

/// Reads a tuned.conf as tuned does: includes (from sibling profile
/// directories, PROFILES/NAME/tuned.conf) first, the including profile
/// winning; every section whose type (default: its name) is disk becomes
/// rules. `name` empty: the profile directory's name. An include of
/// `${f:virt_check:VIRTUAL:BARE}` picks as tuned would on `machine` (the
/// one the profile is imported for: detectVirtualisation(machine)), or as
/// `virtualMachine` says when it is set, and the notes say which and why.
Result<TunedImport> importTunedProfile(const QString &tunedConfPath, const QString &name = {},
                                       const SysRoot &machine = SysRoot(),
                                       std::optional<bool> virtualMachine = std::nullopt);
/// One tuned.conf text without resolving include= (for fuzzing and
/// tests): the same parser and the same mapping to rules.
Result<TunedImport> importTunedText(const QByteArray &text, const QString &source, const QString &name);

} // namespace blocktune
