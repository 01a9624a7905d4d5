#pragma once
// What core/privilege offers: the one seam through which blocktune changes a
// kernel setting (AttributeWriter), its two implementations (in-process when
// we may write, the pkexec'd blocktune-helper when we may not), and the
// helper's JSON-lines protocol, kept here so the helper binary is a thin loop
// and the protocol can be tested in-process.
//
// Attribute names (the same in the C++ API and on the helper's wire):
//   read_ahead_kb, scheduler, nr_requests, max_sectors_kb, context_readahead
//                                 -> ROOT/sys/class/block/DEVICE/queue/NAME
//                                    (SysRoot::deviceEntry: sys/block where a
//                                    recorded tree has no class/block)
//   iosched/NAME                  -> .../queue/iosched/NAME (active scheduler's)
//   vm/enable_context_readahead   -> ROOT/proc/sys/vm/enable_context_readahead
//                                    (machine-wide: no device)

#include "common/jsonlines.h"
#include "common/result.h"
#include "common/sysroot.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QProcess>
#include <QThread>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include <sys/types.h>

namespace blocktune {

/// One attribute write: which device (a whole disk's kernel name; empty for
/// a machine-wide switch), which allowlisted attribute, the new value.
struct AttributeWrite
{
    QString device;
    QString attribute;
    QString value;
};

/// What a write found and left: the value before, and what the kernel kept
/// (page rounding and clamps make it differ from what was written).
struct WrittenValue
{
    QString previous;
    QString kept;
};

/// The fake-able seam for every kernel setting blocktune changes.
/// Implementations validate the request themselves (allowlist, ranges);
/// callers still validate first to give better messages.
struct UdevRulesResult;
enum class RulesChange;

class AttributeWriter
{
public:
    virtual ~AttributeWriter() = default;
    /// Writes one attribute and reads back what the kernel kept.
    virtual Result<WrittenValue> write(const AttributeWrite &request) = 0;
    /// Installs or removes a blocktune udev rules file under `root` (see
    /// installUdevRules()). This default does it in this process (root, or
    /// a recorded tree); the helper's writer asks the helper it already
    /// started, so a console's profile install needs no second prompt.
    virtual Result<UdevRulesResult> changeRules(const SysRoot &root, RulesChange change, const QString &fileName,
                                                const QByteArray &content);
    /// "direct" or "blocktune-helper (pkexec)": for messages.
    virtual QString describe() const = 0;
    /// From any thread: gives up a write that is waiting (for a pkexec
    /// prompt, say); it fails with Interrupted. Direct writes do not wait.
    virtual void cancel() {}
};

// ---- The allowlist and value rules (shared by DirectWriter and the helper) ----

namespace attribute {
inline constexpr QLatin1StringView ReadAheadKb{"read_ahead_kb"};
inline constexpr QLatin1StringView Scheduler{"scheduler"};
inline constexpr QLatin1StringView NrRequests{"nr_requests"};
inline constexpr QLatin1StringView MaxSectorsKb{"max_sectors_kb"};
inline constexpr QLatin1StringView ContextReadahead{"context_readahead"};
inline constexpr QLatin1StringView IoschedPrefix{"iosched/"};
inline constexpr QLatin1StringView VmContextReadahead{"vm/enable_context_readahead"};
} // namespace attribute

/// Inclusive range of a numeric attribute.
struct NumberRange
{
    quint64 min = 0;
    quint64 max = 0;
    bool contains(quint64 v) const { return v >= min && v <= max; }
};

/// sysfs stores read_ahead_kb through queue_var_store(): at most UINT_MAX KiB.
inline constexpr quint64 kMaxReadAheadKiB = 4294967295ULL;
/// blk-mq refuses nr_requests above MAX_SCHED_RQ (16 * BLKDEV_DEFAULT_RQ)
/// while a scheduler is attached (block/blk-sysfs.c, block/elevator.h).
inline constexpr quint64 kMaxSchedRequests = 2048;
/// The kernel raises smaller nr_requests to BLKDEV_MIN_RQ.
inline constexpr quint64 kMinKernelRequests = 4;

/// Allowed nr_requests for a whole disk's queue (sysfs dir `disk`) under
/// `scheduler`: with a scheduler on blk-mq up to 2048; with none up to the
/// hardware tag count (mq/0/nr_tags); legacy queues have no upper limit but
/// INT_MAX; nullopt on bio-based queues (md, most dm), which have no
/// request pool to size.
std::optional<NumberRange> nrRequestsRange(const SysDir &disk, const QString &scheduler);
/// max_sectors_kb: one page up to max_hw_sectors_kb (blk-sysfs.c refuses
/// anything else with EINVAL).
NumberRange maxSectorsRange(const SysRoot &root, const SysDir &disk);
/// The page size in KiB of the machine being looked at (4 in recorded trees).
quint64 pageKiB(const SysRoot &root);

/// The allowlist by name alone, no device looked at: a queue attribute
/// blocktune changes, iosched/NAME with a plausible tunable name, or the
/// machine-wide vm switch. For checking journals before they are trusted.
bool isAllowedAttributeName(const QString &attribute);

/// True for a plain decimal number: digits only, no sign, no spaces.
bool isPlainDecimal(QStringView text);

/// Resolves and checks a request exactly as the helper does: the device is a
/// kernel name under ROOT/sys/class/block (or sys/block) with its own queue/, the attribute
/// is allowlisted and exists as a regular file (not a symlink), the value is
/// one short line and valid for that attribute on that device now. Returns
/// the attribute's absolute path.
Result<QByteArray> checkAttributeWrite(const SysRoot &root, const AttributeWrite &request);
/// Same checks without a value, then the read ("get" on the helper,
/// restore's look before it writes back): the attribute's text, newline
/// stripped, read through the device's directory without following a link.
Result<QString> readAllowedAttribute(const SysRoot &root, const QString &device, const QString &attribute);
/// The name checks of checkAttributeWrite() without the queue: a kernel
/// name (no '/', no '..'), an entry under ROOT/sys/class/block that leads
/// into ROOT/sys/devices and has a dev attribute (a whole disk or a
/// partition). Returns the device's directory.
Result<SysDir> openBlockDevice(const SysRoot &root, const QString &device);
/// checkAttributeWrite(), then the write, then the read-back.
Result<WrittenValue> writeCheckedAttribute(const SysRoot &root, const AttributeWrite &request);

// ---- Writers -------------------------------------------------------------------

/// Writes in-process through SysRoot::writeAttribute (root on the live
/// machine, anyone on a recorded tree), with the helper's checks.
class DirectWriter final : public AttributeWriter
{
public:
    explicit DirectWriter(SysRoot root) : m_root(std::move(root)) {}
    Result<WrittenValue> write(const AttributeWrite &request) override;
    QString describe() const override { return QStringLiteral("direct"); }

private:
    SysRoot m_root;
};

/// Bounds of the "latency" op (devices per request) and of the streaming
/// ops' interval in ms ("latency", "readahead").
inline constexpr int kHelperMaxLatencyDevices = 128;
inline constexpr int kHelperMinLatencyIntervalMs = 100;
inline constexpr int kHelperMaxLatencyIntervalMs = 60000;

/// Longest answer line HelperClient takes from the helper (bytes).
inline constexpr qsizetype kHelperMaxAnswer = 1024 * 1024;

/// A reply from blocktune-helper, matched to the request that caused it.
struct HelperReply
{
    quint64 id = 0;
    bool ok = false;
    QJsonObject body; ///< the helper's JSON answer ({"ok":...,...})
    QString error;    ///< the helper's "error", or why no answer came
};

/// Talks to blocktune-helper: started on the first request (through pkexec
/// unless told otherwise), once per HelperClient, so polkit asks once per
/// session (the action uses auth_admin_keep). Requests are queued and
/// answered in order. Use submit() + replyReceived() from an event loop, or
/// call() where blocking is fine (the CLI); call() waits on the pipe, it
/// does not spin a nested event loop.
class HelperClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HelperClient)

public:
    /// `command` is the program and its arguments; the default is
    /// defaultCommand().
    explicit HelperClient(QStringList command = {}, QObject *parent = nullptr);
    ~HelperClient() override;

    /// {"pkexec", HELPER}: HELPER is the installed helper
    /// (<dir of this executable>/../libexec/blocktune/blocktune-helper for
    /// the configured layout) if it exists, else the build tree's neighbour
    /// <dir of this executable>/blocktune-helper.
    static QStringList defaultCommand();

    /// Queues a request; the answer arrives as replyReceived(id, ...).
    /// The helper is started if it is not running.
    quint64 submit(QJsonObject request);
    /// Sends a request and waits for its answer. The first request may wait
    /// for a password, so it gets `firstTimeoutMs`.
    HelperReply call(QJsonObject request, int timeoutMs = 15000, int firstTimeoutMs = 300000);
    bool isRunning() const;
    const QStringList &command() const { return m_command; }
    /// Closes the helper's stdin (it exits on EOF) and waits briefly.
    void stop();
    /// Thread-safe: the call() waiting now (or next) gives up within 100 ms
    /// with an "interrupted" reply, and the helper (or pkexec's prompt) is
    /// stopped.
    void cancel() { m_cancel.store(true); }
    /// How many times a helper process was started.
    int starts() const { return m_starts; }
    /// call() for a request that streams (op "latency"): when its answer is
    /// ok, the helper's later lines with its id are kept, not matched to
    /// other requests; the newest is streamLine()'s.
    HelperReply startStream(QJsonObject request, int timeoutMs = 15000, int firstTimeoutMs = 300000);
    /// The newest line of the stream startStream() began, after reading what
    /// has arrived (without waiting). Empty and `*error` set once the stream
    /// ended or the helper exited.
    QJsonObject streamLine(QString *error);

Q_SIGNALS:
    void replyReceived(const blocktune::HelperReply &reply);

private:
    bool ensureStarted(QString *error);
    void readReplies();
    bool keepStreamLine(const QByteArray &line);
    void failPending(const QString &why);
    void deliver();
    QString exitExplanation() const;

    QStringList m_command;
    QProcess *m_process = nullptr;
    JsonLineReader m_reader{kHelperMaxAnswer};
    QList<quint64> m_pending; ///< ids sent, answered in order
    QList<HelperReply> m_ready; ///< answers not yet collected by call()
    quint64 m_nextId = 1;
    quint64 m_helloId = 0;
    bool m_greeted = false;
    int m_waitingFor = 0; ///< call()s in progress: collect answers, emit later
    int m_starts = 0;
    std::atomic_bool m_cancel{false};
    bool m_streamNext = false; ///< the next submit() starts a stream
    quint64 m_streamId = 0;    ///< its request's id
    bool m_streamOpen = false; ///< its first answer was ok, no end line yet
    QJsonObject m_streamLast;  ///< the newest line of it
    QString m_streamError;     ///< why it is over
};

/// An AttributeWriter that sends "set" requests to blocktune-helper. Its
/// HelperClient lives on a thread of its own, so write() may be called from
/// any thread (the console's session worker, a sweep's worker) and the one
/// helper process serves them all.
class HelperWriter final : public AttributeWriter
{
public:
    explicit HelperWriter(QStringList command = {});
    ~HelperWriter() override;
    Q_DISABLE_COPY_MOVE(HelperWriter)
    Result<WrittenValue> write(const AttributeWrite &request) override;
    /// Through the helper this writer started (ops install_rules, remove_rules).
    Result<UdevRulesResult> changeRules(const SysRoot &root, RulesChange change, const QString &fileName,
                                        const QByteArray &content) override;
    QString describe() const override;
    void cancel() override { m_client->cancel(); }
    /// How many times the helper process was started.
    int starts() const;

private:
    QThread *m_thread = nullptr;
    HelperClient *m_client = nullptr; ///< lives on m_thread
};

/// The writer this process should use for `root`: DirectWriter for a
/// recorded tree or when running as root, HelperWriter (pkexec) otherwise.
std::unique_ptr<AttributeWriter> makeAttributeWriter(const SysRoot &root);

// ---- udev rules files (profile install / uninstall) ------------------------------

/// The first line of every udev rules file blocktune writes; a file without
/// it is not blocktune's and is never replaced or removed.
inline constexpr QLatin1StringView kUdevRulesMarker{"# Generated by blocktune"};
inline constexpr qsizetype kMaxUdevRulesBytes = 64 * 1024;

struct UdevRulesResult
{
    QString path;             ///< the file written or removed
    bool replaced = false;    ///< install: an older blocktune file was replaced; remove: it was there
    bool udevdRunning = false;
    QStringList commands;     ///< the udevadm commands run, with their outcome
    QString message;          ///< what happened, in words (e.g. udevd does not run here)
};

/// NN-blocktune-NAME.rules: two digits, "-blocktune-", a profile name.
Status checkUdevRulesName(const QString &fileName);
/// What blocktune's exporter generates and nothing else: the marker line,
/// comments, blank lines, and rule lines that start ACTION=="add|change",
/// SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", match only on KERNEL,
/// ATTR{queue/rotational}, TEST of queue files and the ENV identities the
/// exporter uses, and assign only queue attributes with plain values (see
/// docs/cli.md, "profile install"). No RUN, PROGRAM, IMPORT, GOTO, OPTIONS, no
/// substitutions.
Status checkUdevRulesContent(const QByteArray &content);
/// Both checks, then ROOT/etc/udev/rules.d/NAME written atomically (temp
/// file, fsync, rename; a file of that name must be blocktune's), then, on
/// the live machine where udevd runs, `udevadm control --reload` and
/// `udevadm trigger --action=change --subsystem-match=block`.
Result<UdevRulesResult> installUdevRules(const SysRoot &root, const QString &fileName, const QByteArray &content);
/// Removes a blocktune rules file (only one that starts with the marker), then reloads as above.
Result<UdevRulesResult> removeUdevRules(const SysRoot &root, const QString &fileName);
/// The NN-blocktune-NAME.rules files of profile `profileName` in ROOT/etc/udev/rules.d.
QStringList installedUdevRules(const SysRoot &root, const QString &profileName);

enum class RulesChange { Install, Remove };
/// What installUdevRules()/removeUdevRules() would find, changing nothing
/// (`profile install|uninstall --dry-run`): the same checks of the name,
/// the content, the folder and an existing file, and that file's text.
struct UdevRulesPreview
{
    QString path;
    std::optional<QByteArray> current; ///< the file's text now; nullopt: no such file
};
/// Reading only; an error is the one the change itself would give (udev not
/// installed here, a file of that name not blocktune's, content refused).
Result<UdevRulesPreview> previewUdevRules(const SysRoot &root, RulesChange change, const QString &fileName,
                                          const QByteArray &content = {});
/// installUdevRules()/removeUdevRules() in this process as root or on a
/// recorded tree, else through blocktune-helper (pkexec, ops install_rules
/// and remove_rules).
Result<UdevRulesResult> changeUdevRules(const SysRoot &root, RulesChange change, const QString &fileName,
                                        const QByteArray &content = {});

// ---- The helper's side of the protocol -----------------------------------------

/// The stream a "latency" or "readahead" request started: the helper's loop
/// writes tick() every intervalMs() until a new request line or the end of
/// input, then end(). Unloads its source (the BPF program) when destroyed.
class HelperStream
{
public:
    virtual ~HelperStream() = default;
    virtual int intervalMs() const = 0;
    /// One line: the cumulative counters (docs/json.md, "blocktune-helper").
    virtual QByteArray tick() = 0;
    /// The line that closes the stream.
    virtual QByteArray end() = 0;
};

/// One of the helper's streaming ops ("latency", "readahead"): checks
/// `request` (the whole line's object), loads what it measures and, when
/// `stream` is given, leaves the stream there; returns the answer line (the
/// stream's first tick) or why it is refused, with nothing loaded. The
/// folders of the BPF probes make the real ones (core/monitor's
/// helperLatencyOp(), core/readahead's helperReadaheadOp()); privilege/
/// stays below them and knows only this shape.
using HelperStreamOp =
    std::function<Result<QByteArray>(const QJsonObject &request, std::unique_ptr<HelperStream> *stream)>;

/// The 'interval_ms' of a streaming op's request (`op` names it in the
/// message): a whole number of milliseconds from `minMs` to `maxMs`, else
/// why not, showing what was given.
Result<int> checkHelperIntervalMs(const QString &op, const QJsonValue &value, int minMs, int maxMs);

/// Longest request line the helper accepts (bytes, newline excluded).
inline constexpr qsizetype kHelperMaxLine = 4096;
/// An install_rules request carries a whole rules file (at most
/// kMaxUdevRulesBytes, JSON-escaped): it alone may be this long.
inline constexpr qsizetype kHelperMaxRulesLine = 160 * 1024;
/// Protocol version reported by {"op":"hello"}.
inline constexpr int kHelperProtocolVersion = 1;

/// Answers one request line with one response line (compact JSON, no
/// newline). Ops: hello, get, set, install_rules, remove_rules, latency,
/// readahead.
/// Trusts nothing: see docs/json.md, "blocktune-helper".
class HelperService final
{
public:
    /// `latencyOp` answers the "latency" op, `readaheadOp` the "readahead"
    /// op (blocktune-helper passes core/monitor's helperLatencyOp() and
    /// core/readahead's helperReadaheadOp()); an empty one is refused.
    explicit HelperService(SysRoot root, HelperStreamOp latencyOp = {}, HelperStreamOp readaheadOp = {});
    ~HelperService();
    /// A "latency" or "readahead" request that passes every check loads its source and, when
    /// `stream` is given, leaves the stream there (its first line is the
    /// answer returned); without `stream` it is refused.
    QByteArray handleLine(const QByteArray &line, std::unique_ptr<HelperStream> *stream = nullptr) const;
    /// The answer to a line that was longer than kHelperMaxLine.
    static QByteArray overlongLine();

private:
    SysRoot m_root;
    HelperStreamOp m_latencyOp;
    HelperStreamOp m_readaheadOp;
};

/// Who a process runs for: its ids and the variables by which sudo, pkexec
/// and doas name the user who started it (only those).
struct ProcessIdentity
{
    uid_t realUid = 0;
    uid_t effectiveUid = 0;
    gid_t realGid = 0;
    gid_t effectiveGid = 0;
    /// SUDO_UID, SUDO_USER, PKEXEC_UID, DOAS_USER, where set.
    QList<QPair<QString, QString>> elevation;
};
ProcessIdentity currentIdentity();
/// Why `--sysroot` is refused for a helper running as `who`, or empty when
/// it may work on a tree: root working for another user (sudo, pkexec,
/// doas, setuid or setgid) must never follow a tree that user controls.
/// A variable that cannot be read as root's is taken as another user's.
QString sysrootRefusal(const ProcessIdentity &who);

} // namespace blocktune

Q_DECLARE_METATYPE(blocktune::HelperReply)
