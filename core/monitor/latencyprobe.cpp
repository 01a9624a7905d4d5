// BlockLatencyProbe: loads core/monitor/bpf/blocklatency.bpf.c (its libbpf
// skeleton, generated at build time) and reads its latency map in one
// batched lookup per chunk of devices: a tick costs a few syscalls, not two
// per device. The map is per CPU: each key's values are summed here. Built
// without BPF (BLOCKTUNE_BPF off), load() says so.
#include "monitor.h"

#include "common/bpfload.h"
#include "common/sysroot.h"
#include "common/tr.h"

#include <cerrno>
#include <unistd.h>

#if BLOCKTUNE_HAVE_BPF
#include "bpf/blocklatency.h"
#include "blocklatency.skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <vector>
#endif

namespace blocktune {

namespace {

QString prefix()
{
    return MonitorText::tr("latency histograms unavailable: ");
}

#if BLOCKTUNE_HAVE_BPF
// Which restriction refused the program: lockdown, missing privilege, or
// something else (then libbpf's own words).
Error refusedBecause(int err, const char *step)
{
    if (std::optional<Error> privilege = bpfload::privilegeRefusal(err, prefix()))
        return *privilege;
    return bpfload::stepFailure(err, step, prefix());
}

// block_io_done (6.5+) fires where diskstats accounts a completion; older
// kernels have block_rq_complete only. One of the two programs is loaded.
bool kernelHasIoDone()
{
    btf *vmlinux = btf__load_vmlinux_btf();
    if (!vmlinux)
        return false;
    const bool found = btf__find_by_name_kind(vmlinux, "btf_trace_block_io_done", BTF_KIND_TYPEDEF) >= 0;
    btf__free(vmlinux);
    return found;
}
#endif

} // namespace

#if BLOCKTUNE_HAVE_BPF

struct BlockLatencyProbe::Impl
{
    blocklatency *skel = nullptr;
    int cpus = 1; // possible CPUs: the per-CPU map holds a value for each
    std::vector<blocklatency_key> keys;
    std::vector<blocklatency_value> values;
    ~Impl() { blocklatency__destroy(skel); }
};

bool BlockLatencyProbe::builtIn()
{
    return true;
}

#else

struct BlockLatencyProbe::Impl
{
};

bool BlockLatencyProbe::builtIn()
{
    return false;
}

#endif

BlockLatencyProbe::BlockLatencyProbe(std::unique_ptr<Impl> impl) : d(std::move(impl)) {}
BlockLatencyProbe::~BlockLatencyProbe() = default;

Result<std::unique_ptr<BlockLatencyProbe>> BlockLatencyProbe::load()
{
    if (qEnvironmentVariableIntValue("BLOCKTUNE_BPF_REFUSE") == 1)
        return makeError(Refused, prefix() + MonitorText::tr(
            "BLOCKTUNE_BPF_REFUSE=1 is set, so the BPF program was not loaded (unset it to load it)"));
#if !BLOCKTUNE_HAVE_BPF
    return makeError(NotSupported, prefix() + MonitorText::tr(
        "blocktune was built without BPF support (install clang, bpftool and libbpf-dev, then "
        "configure with -DBLOCKTUNE_BPF=ON)"));
#else
    const SysRoot root;
    if (::access(root.sysPath("kernel/btf/vmlinux").constData(), R_OK) != 0)
        return makeError(NotSupported, prefix() + MonitorText::tr(
            "the kernel has no BTF type information (/sys/kernel/btf/vmlinux is missing): it needs "
            "CONFIG_DEBUG_INFO_BTF=y"));
    bpfload::captureLibbpfMessages();
    auto impl = std::make_unique<Impl>();
    impl->skel = blocklatency__open();
    if (!impl->skel)
        return refusedBecause(errno, "open");
    const bool ioDone = kernelHasIoDone();
    bpf_program__set_autoload(impl->skel->progs.on_io_done, ioDone);
    bpf_program__set_autoload(impl->skel->progs.on_complete, !ioDone);
    // Loaded, attached by totals() once a request without I/O statistics
    // was issued (see there).
    bpf_program__set_autoattach(impl->skel->progs.on_insert, false);
    impl->cpus = libbpf_num_possible_cpus();
    if (impl->cpus <= 0)
        return refusedBecause(-impl->cpus, "num_possible_cpus");
    if (blocklatency__load(impl->skel) != 0)
        return refusedBecause(errno, "load");
    if (blocklatency__attach(impl->skel) != 0)
        return refusedBecause(errno, "attach");
    return std::unique_ptr<BlockLatencyProbe>(new BlockLatencyProbe(std::move(impl)));
#endif
}

#if BLOCKTUNE_HAVE_BPF

namespace {

Log2Histogram histogramOf(const unsigned long long (&buckets)[BLOCKLATENCY_BUCKETS])
{
    static_assert(BLOCKLATENCY_BUCKETS == std::tuple_size_v<decltype(Log2Histogram::counts)>);
    Log2Histogram h;
    for (size_t i = 0; i < h.counts.size(); ++i)
        h.counts[i] = buckets[i];
    return h;
}

// One key's values, one per possible CPU, summed. The kernel lays them out
// 8-byte aligned: blocklatency_value is a multiple of that, so an array.
static_assert(sizeof(blocklatency_value) % 8 == 0);
void addEntry(LatencyTotalsMap &out, const blocklatency_key &key, const blocklatency_value *perCpu, int cpus)
{
    blocklatency_value sum {};
    for (int c = 0; c < cpus; ++c) {
        const blocklatency_value &v = perCpu[c];
        sum.requests += v.requests;
        sum.queue_ns += v.queue_ns;
        sum.device_ns += v.device_ns;
        for (size_t i = 0; i < BLOCKLATENCY_BUCKETS; ++i) {
            sum.queue[i] += v.queue[i];
            sum.device[i] += v.device[i];
        }
    }
    // The kernel's dev_t: MINORBITS 20 (include/linux/kdev_t.h).
    DeviceLatencyTotals &device = out[deviceNumber(key.dev >> 20, key.dev & 0xfffff)];
    LatencyTotals &t = key.op == BLOCKLATENCY_WRITE ? device.write : device.read;
    t.requests = sum.requests;
    t.queueNs = sum.queue_ns;
    t.deviceNs = sum.device_ns;
    t.queue = histogramOf(sum.queue);
    t.device = histogramOf(sum.device);
}

// The slots for requests in flight were used up (tag sets of devices since
// removed keep theirs): the tag sets take new ranges from the start. A
// request in flight meanwhile whose slot another takes is found out by its
// address at completion and counted untracked.
void restartRegions(blocklatency *skel)
{
    const int fd = bpf_map__fd(skel->maps.regions);
    __u64 key = 0;
    std::vector<__u64> keys;
    for (const __u64 *prev = nullptr; bpf_map_get_next_key(fd, prev, &key) == 0; prev = &keys.back())
        keys.push_back(key);
    for (const __u64 k : keys)
        bpf_map_delete_elem(fd, &k);
    skel->bss->next_slot = 0;
    skel->bss->exhausted = 0;
    skel->bss->generation += 1;
}

} // namespace

Result<LatencyTotalsMap> BlockLatencyProbe::totals()
{
    // A hash map's batch stops at a bucket boundary; a chunk of 256 keys
    // holds any bucket (ENOSPC otherwise).
    constexpr __u32 kChunk = 256;
    // Queue time without I/O statistics comes from block_rq_insert: its
    // program runs on every request once attached, so only from the first
    // such request on.
    if (!d->skel->links.on_insert && d->skel->bss->insert_wanted) {
        d->skel->links.on_insert = bpf_program__attach(d->skel->progs.on_insert);
        if (!d->skel->links.on_insert) {
            const int err = errno;
            return makeError(err, prefix() + MonitorText::tr("attaching the BPF program to block_rq_insert failed: %1")
                                                 .arg(errnoDetail(err)));
        }
    }
    if (d->skel->bss->exhausted)
        restartRegions(d->skel);
    d->keys.resize(kChunk);
    d->values.resize(size_t(kChunk) * size_t(d->cpus));
    const int fd = bpf_map__fd(d->skel->maps.latency);
    LatencyTotalsMap out;
    __u64 inToken = 0, outToken = 0;
    bool first = true;
    for (;;) {
        __u32 count = kChunk;
        const int rc = bpf_map_lookup_batch(fd, first ? nullptr : &inToken, &outToken, d->keys.data(),
                                            d->values.data(), &count, nullptr);
        const int err = rc != 0 ? errno : 0;
        for (__u32 i = 0; i < count && i < kChunk; ++i)
            addEntry(out, d->keys[i], &d->values[size_t(i) * size_t(d->cpus)], d->cpus);
        if (err == ENOENT)
            break; // the last chunk
        if (err != 0)
            return makeError(err, prefix() + MonitorText::tr("reading the BPF latency map failed: %1")
                                                 .arg(errnoDetail(err)));
        inToken = outToken;
        first = false;
    }
    return out;
}

quint64 BlockLatencyProbe::untracked() const
{
    return d->skel->bss->untracked + d->skel->bss->dropped;
}

quint64 BlockLatencyProbe::skippedRuns() const
{
    quint64 sum = 0;
    for (const bpf_program *prog : {d->skel->progs.on_insert, d->skel->progs.on_issue, d->skel->progs.on_io_done,
                                    d->skel->progs.on_complete}) {
        if (bpf_program__fd(prog) < 0)
            continue; // not loaded
        bpf_prog_info info {};
        __u32 length = sizeof info;
        if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &length) == 0)
            sum += info.recursion_misses;
    }
    return sum;
}

#else

Result<LatencyTotalsMap> BlockLatencyProbe::totals()
{
    return LatencyTotalsMap{};
}

quint64 BlockLatencyProbe::untracked() const
{
    return 0;
}

quint64 BlockLatencyProbe::skippedRuns() const
{
    return 0;
}

#endif

} // namespace blocktune
