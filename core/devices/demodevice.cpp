#include "demodevice.h"

#include "common/tr.h"

#include <QByteArray>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace blocktune {

namespace {

class Fd final
{
public:
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Q_DISABLE_COPY_MOVE(Fd)
    int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

// Real data, not a sparse hole: reads of holes never reach the disk. A
// xorshift stream is plenty random for that and writes at disk speed.
Status fill(int fd, quint64 bytes)
{
    QByteArray block(1 << 20, Qt::Uninitialized);
    quint64 x = 0x626c6f636b74756eULL;
    for (quint64 done = 0; done < bytes; done += quint64(block.size())) {
        auto *words = reinterpret_cast<quint64 *>(block.data());
        for (qsizetype i = 0; i < block.size() / 8; ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            words[i] = x;
        }
        for (qsizetype off = 0; off < block.size();) {
            const ssize_t n = ::write(fd, block.constData() + off, size_t(block.size() - off));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return makeError(errno ? errno : EIO, DevicesText::tr("cannot write the demo device's file: %1")
                                                          .arg(errnoText(errno ? errno : EIO)));
            off += n;
        }
    }
    if (::fsync(fd) != 0)
        return makeError(errno, DevicesText::tr("cannot sync the demo device's file: %1").arg(errnoText(errno)));
    return {};
}

} // namespace

Result<std::unique_ptr<DemoDevice>> DemoDevice::create(quint64 bytes, const QString &directory)
{
    bytes = bytes / (1 << 20) * (1 << 20);
    if (bytes == 0)
        return makeError(InvalidArgument, DevicesText::tr("a demo device needs at least 1 MiB"));
    if (::geteuid() != 0)
        return makeError(EPERM, DevicesText::tr("--demo attaches a loop device, which needs root: run the console "
                                               "as root for a demo device, or name a device of yours with --device"));
    QByteArray path = (directory + QStringLiteral("/blocktune-demo-XXXXXX")).toLocal8Bit();
    Fd file(::mkostemp(path.data(), O_CLOEXEC));
    if (file.get() < 0)
        return makeError(errno, DevicesText::tr("cannot create a file in %1 for the demo device: %2")
                                    .arg(directory, errnoText(errno)));
    // Unlinked at once: the descriptor (then the loop) holds the inode, so
    // a crash at any point leaves no file behind.
    ::unlink(path.constData());
    if (Status st = fill(file.get(), bytes); !st)
        return st.error();

    Fd control(::open("/dev/loop-control", O_RDWR | O_CLOEXEC));
    if (control.get() < 0)
        return makeError(errno, DevicesText::tr("cannot open /dev/loop-control: %1").arg(errnoText(errno)));
    for (int attempt = 0; attempt < 8; ++attempt) {
        const int n = ::ioctl(control.get(), LOOP_CTL_GET_FREE);
        if (n < 0)
            return makeError(errno, DevicesText::tr("no free loop device: %1").arg(errnoText(errno)));
        const QByteArray node = "/dev/loop" + QByteArray::number(n);
        Fd loop(::open(node.constData(), O_RDWR | O_CLOEXEC));
        if (loop.get() < 0)
            return makeError(errno, DevicesText::tr("cannot open %1: %2").arg(QString::fromLatin1(node), errnoText(errno)));
        loop_config config {};
        config.fd = quint32(file.get());
        config.block_size = 4096; // direct I/O needs the backing file system's alignment
        config.info.lo_flags = LO_FLAGS_DIRECT_IO | LO_FLAGS_AUTOCLEAR;
        std::strncpy(reinterpret_cast<char *>(config.info.lo_file_name), path.constData(), LO_NAME_SIZE - 1);
        if (::ioctl(loop.get(), LOOP_CONFIGURE, &config) != 0) {
            if (errno == EBUSY)
                continue; // another process took it between GET_FREE and CONFIGURE
            return makeError(errno, DevicesText::tr("cannot attach %1 to %2: %3")
                                        .arg(QString::fromLocal8Bit(path), QString::fromLatin1(node), errnoText(errno)));
        }
        std::unique_ptr<DemoDevice> demo(new DemoDevice);
        demo->m_name = QStringLiteral("loop%1").arg(n);
        demo->m_bytes = bytes;
        demo->m_fd = loop.release();
        return demo;
    }
    return makeError(EBUSY, DevicesText::tr("every free loop device was taken by another process; try again"));
}

DemoDevice::~DemoDevice()
{
    if (m_fd >= 0)
        ::close(m_fd); // the last descriptor: LO_FLAGS_AUTOCLEAR detaches the loop
}

} // namespace blocktune
