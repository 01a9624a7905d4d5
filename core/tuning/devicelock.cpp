// One blocktune process at a time per device. Two processes changing sdb
// side by side would each journal what they found, and whichever restores
// last would put back the other's value: a --hold that ends after a sweep
// started on the same disk leaves the sweep's readahead behind. An flock on
// a per-device file in the journal directory makes the second one wait (a
// plain set is over in milliseconds) or, past kDeviceLockWaitMs, refuses it
// with the holder's pid.
#include "tuning.h"
#include "tuning_p.h"

#include "common/termination.h"
#include "common/tr.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QMutex>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace blocktune {

struct DeviceLocks::Held
{
    QString path;
    QString device;
    int fd = -1;
    ~Held();
};

namespace {

// flock() conflicts between two descriptors of one process too, so a
// device this process already holds is shared through this registry.
QMutex &registryMutex()
{
    static QMutex mutex;
    return mutex;
}
QHash<QString, std::weak_ptr<DeviceLocks::Held>> &registry()
{
    static QHash<QString, std::weak_ptr<DeviceLocks::Held>> held;
    return held;
}

QString lockName(const SysRoot &root, const QString &device)
{
    QString name = QStringLiteral("blocktune-");
    if (!root.isLive()) {
        // Recorded trees share the directory with the live machine.
        const QByteArray key = detail::journalRootKey(root).toUtf8();
        name += QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(12)) + u'-';
    }
    return name + (device.isEmpty() ? QStringLiteral("machine-wide") : device) + QStringLiteral(".lock");
}

QString holderOf(int fd)
{
    char buffer[64] = {};
    const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
    const QByteArray text = QByteArray(buffer, n > 0 ? n : 0).trimmed();
    bool ok = false;
    const qint64 pid = text.toLongLong(&ok);
    // The holder writes its pid after it has the lock and clears it before
    // letting go; a pid of a process gone is a holder that is not blocktune.
    const bool alive = ok && pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
    return alive ? TuningText::tr("blocktune process %1").arg(pid) : TuningText::tr("another blocktune process");
}

} // namespace

DeviceLocks::Held::~Held()
{
    {
        const QMutexLocker lock(&registryMutex());
        if (registry().value(path).expired())
            registry().remove(path);
    }
    if (fd >= 0) {
        if (::ftruncate(fd, 0) != 0) {
            // Only the next waiter's message could be stale; the lock goes all the same.
        }
        ::close(fd); // releases the flock
    }
}

DeviceLocks::DeviceLocks() = default;
DeviceLocks::~DeviceLocks() = default;
DeviceLocks::DeviceLocks(DeviceLocks &&) noexcept = default;
DeviceLocks &DeviceLocks::operator=(DeviceLocks &&) noexcept = default;

Result<DeviceLocks> DeviceLocks::acquire(const SysRoot &root, QStringList devices, int waitMs)
{
    auto journals = journalDirectory();
    if (!journals)
        return journals.error();
    // A directory of their own: whoever lists the journals sees journals.
    const QString dir = *journals + QStringLiteral("/locks");
    for (const QString &d : {*journals, dir})
        if (Status st = detail::ensurePrivateDirectory(d); !st)
            return st.error();
    // One order for everyone: two processes locking {sdb, sdc} cannot each
    // hold one and wait for the other.
    devices.sort();
    devices.removeDuplicates();
    DeviceLocks locks;
    for (const QString &device : std::as_const(devices)) {
        if (!device.isEmpty() && !SysRoot::isPlausibleKernelName(device))
            return makeError(InvalidArgument, TuningText::tr("'%1' is not a device name to lock").arg(device));
        const QString path = dir + u'/' + lockName(root, device);
        {
            const QMutexLocker lock(&registryMutex());
            if (auto mine = registry().value(path).lock()) {
                locks.m_held.push_back(std::move(mine));
                continue;
            }
        }
        const QByteArray p = QFile::encodeName(path);
        const int fd = ::open(p.constData(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
            return makeError(errno, TuningText::tr("cannot open the lock file %1: %2").arg(path, errnoText(errno)));
        auto held = std::make_shared<Held>();
        held->path = path;
        held->device = device;
        held->fd = fd;
        const QString what = device.isEmpty() ? TuningText::tr("the machine-wide settings") : device;
        const qint64 deadline = QDateTime::currentMSecsSinceEpoch() + waitMs;
        QString holder;
        while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR)
                return makeError(errno, TuningText::tr("cannot lock %1: %2").arg(path, errnoText(errno)));
            if (holder.isEmpty())
                holder = holderOf(fd);
            const bool signalled = TerminationSignals::installed() && TerminationSignals::pending();
            if (signalled || QDateTime::currentMSecsSinceEpoch() >= deadline)
                return makeError(signalled ? int(Interrupted) : int(Refused),
                                 TuningText::tr("%1 is being changed by %2 (lock %3)%4: try again when it has "
                                                "finished")
                                     .arg(what, holder, path,
                                          signalled ? TuningText::tr(", and a signal arrived while waiting")
                                                    : TuningText::tr(", still after %1 s").arg(waitMs / 1000.0)));
            ::usleep(20000);
        }
        if (!holder.isEmpty() && locks.m_waitedFor.isEmpty())
            locks.m_waitedFor = TuningText::tr("%1 (changing %2)").arg(holder, what);
        const QByteArray pid = QByteArray::number(qint64(::getpid())) + '\n';
        if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.constData(), size_t(pid.size()), 0) != pid.size()) {
            // The lock holds all the same; only the next one's message is vaguer.
        }
        {
            const QMutexLocker lock(&registryMutex());
            registry().insert(path, held);
        }
        locks.m_held.push_back(std::move(held));
    }
    return locks;
}

Result<DeviceLocks> DeviceLocks::forPlan(const SysRoot &root, const ChangePlan &plan, int waitMs)
{
    QStringList devices;
    for (const PlannedWrite &w : plan.writes)
        devices << w.device;
    auto locks = acquire(root, devices, waitMs);
    if (!locks)
        return locks;
    // Journaling a value another process put there would "restore" its
    // value later. The plan may be old (a preview the user looked at) or
    // have waited for the lock above: check it against the devices now.
    for (const JournalEntry &e : plan.originals) {
        if (e.attribute.startsWith(attribute::IoschedPrefix))
            continue; // goes with its scheduler, which is checked itself
        const auto now = detail::readAttribute(root, e.device, e.attribute);
        if (now && *now != e.original)
            return makeError(Refused, TuningText::tr("%1 on %2 is %3 now, not %4 as when this change was planned%5: "
                                                     "plan it again")
                                          .arg(e.attribute, e.device.isEmpty() ? TuningText::tr("this machine") : e.device,
                                               *now, e.original,
                                               locks->waited() ? TuningText::tr(" (%1 changed it)").arg(locks->waitedFor())
                                                               : QString()));
    }
    return locks;
}

void DeviceLocks::adopt(DeviceLocks &&other)
{
    for (auto &held : other.m_held)
        if (std::find(m_held.cbegin(), m_held.cend(), held) == m_held.cend())
            m_held.push_back(std::move(held));
    other.m_held.clear();
}

QStringList DeviceLocks::devices() const
{
    QStringList names;
    for (const auto &held : m_held)
        names << held->device;
    return names;
}

void DeviceLocks::release()
{
    m_held.clear();
    m_waitedFor.clear();
}

} // namespace blocktune
