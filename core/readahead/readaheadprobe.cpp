// ReadaheadProbe: loads core/readahead/bpf/readahead.bpf.c (its libbpf
// skeleton, generated at build time), choosing the hooks this kernel has,
// and reads its maps in batches: a snapshot costs a few syscalls. The maps
// are per CPU: each key's values are summed here. Built without BPF
// (BLOCKTUNE_BPF off), load() says so.
#include "readahead.h"
#include "readahead_p.h"

#include "common/bpfload.h"
#include "common/sysroot.h"
#include "common/tr.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <dirent.h>
#include <unistd.h>

#if BLOCKTUNE_HAVE_BPF
#include "bpf/readahead.h"
#include "readahead.skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <functional>
#include <vector>
#endif

namespace blocktune {

namespace {

QString prefix()
{
    return ReadaheadText::tr("readahead cannot be observed: ");
}

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

#if BLOCKTUNE_HAVE_BPF

const char *const kWindowFunctions[] = {"page_cache_sync_ra", "page_cache_async_ra", "page_cache_ra_order",
                                        "page_cache_ra_unbounded"};

using readahead_detail::KernelHooks;

KernelHooks kernelHooks()
{
    KernelHooks k;
    btf *vmlinux = btf__load_vmlinux_btf();
    auto has = [vmlinux](const QByteArray &name, int kind) {
        return vmlinux && btf__find_by_name_kind(vmlinux, name.constData(), kind) >= 0;
    };
    auto tracepoint = [&has](const char *name) { return has(QByteArray("btf_trace_") + name, BTF_KIND_TYPEDEF); };
    for (const char *f : kWindowFunctions) {
        if (!tracepoint(f)) {
            k.tracepoints = false;
            k.missingTracepoints << QStringLiteral("readahead:") + QLatin1StringView(f);
        }
    }
    k.functions = has("page_cache_sync_ra", BTF_KIND_FUNC) && has("page_cache_async_ra", BTF_KIND_FUNC);
    for (const char *t : {"mm_filemap_add_to_page_cache", "mm_filemap_delete_from_page_cache", "mm_filemap_get_pages"})
        if (!tracepoint(t))
            k.missingPageTracepoints << QStringLiteral("filemap:") + QLatin1StringView(t);
    k.fault = tracepoint("mm_filemap_fault");
    k.mapPages = tracepoint("mm_filemap_map_pages");
    btf__free(vmlinux);
    return k;
}

// Which restriction refused the program: lockdown, missing privilege, a
// policy against fentry programs, or something else (then libbpf's words).
Error refusedBecause(int err, const char *step, bool fentry, const KernelHooks &k)
{
    if (std::optional<Error> privilege = bpfload::privilegeRefusal(err, prefix()))
        return *privilege;
    // Forced to fentry (BLOCKTUNE_READAHEAD_HOOKS), the tracepoints may be there all along.
    if ((err == EPERM || err == EACCES) && fentry)
        return makeError(err, prefix() + ReadaheadText::tr(
            "the kernel refused fentry programs on the readahead functions although this is root (a "
            "security policy, such as a BPF LSM program, forbids attaching to kernel functions here); %1")
                                  .arg(k.tracepoints
                                           ? ReadaheadText::tr("this kernel has the readahead tracepoints: "
                                                               "unset BLOCKTUNE_READAHEAD_HOOKS to use them")
                                           : ReadaheadText::tr("and it has no tracepoint %1")
                                                 .arg(k.missingTracepoints.join(u", "))));
    return bpfload::stepFailure(err, step, prefix());
}

#endif

} // namespace

// ---- Which hooks: the tracepoints, else fentry, else what is missing ----------------

Result<bool> readahead_detail::chooseFentry(ReadaheadProbe::Hooks hooks, const KernelHooks &k,
                                            const QByteArray &forced)
{
    if (hooks == ReadaheadProbe::Hooks::Automatic && forced == "tracepoints")
        hooks = ReadaheadProbe::Hooks::Tracepoints;
    else if (hooks == ReadaheadProbe::Hooks::Automatic && forced == "fentry")
        hooks = ReadaheadProbe::Hooks::Fentry;
    const bool wantFentry = hooks == ReadaheadProbe::Hooks::Fentry
                            || (hooks == ReadaheadProbe::Hooks::Automatic && !k.tracepoints);
    if (!wantFentry && k.tracepoints)
        return false;
    if (wantFentry && k.functions)
        return true;
    if (hooks == ReadaheadProbe::Hooks::Tracepoints)
        return makeError(NotSupported, prefix() + ReadaheadText::tr("this kernel has no tracepoint %1")
                                                      .arg(k.missingTracepoints.join(u", ")));
    if (hooks == ReadaheadProbe::Hooks::Fentry)
        return makeError(NotSupported, prefix() + ReadaheadText::tr(
            "this kernel has no function page_cache_sync_ra and page_cache_async_ra to attach fentry "
            "programs to"));
    return makeError(NotSupported, prefix() + ReadaheadText::tr(
        "this kernel has neither the readahead tracepoints (missing: %1) nor the functions page_cache_sync_ra "
        "and page_cache_async_ra to attach to; everything else in blocktune works without them")
                                                  .arg(k.missingTracepoints.join(u", ")));
}

#if BLOCKTUNE_HAVE_BPF

struct ReadaheadProbe::Impl
{
    readahead *skel = nullptr;
    int cpus = 1; // possible CPUs: the per-CPU maps hold a value for each
    ReadaheadCoverage coverage;
    ~Impl() { readahead__destroy(skel); }
};

bool ReadaheadProbe::builtIn()
{
    return true;
}

#else

struct ReadaheadProbe::Impl
{
    ReadaheadCoverage coverage;
};

bool ReadaheadProbe::builtIn()
{
    return false;
}

#endif

ReadaheadProbe::ReadaheadProbe(std::unique_ptr<Impl> impl) : d(std::move(impl)) {}
ReadaheadProbe::~ReadaheadProbe() = default;

ReadaheadCoverage ReadaheadProbe::coverage() const
{
    return d->coverage;
}

#if BLOCKTUNE_HAVE_BPF

namespace {

// Slots for devices in the per-CPU counters: the machine's block devices
// now and room for 64 more (loop devices, volumes made while it runs), at
// most READAHEAD_MAX_DEVICES. Each is READAHEAD_KINDS * 312 bytes per CPU,
// allocated at load: 92 KiB per CPU on this VM (10 block devices).
__u32 readaheadSlots(const SysRoot &root)
{
    __u32 devices = 0;
    if (DIR *dir = ::opendir(root.sysPath("class/block").constData())) {
        while (const dirent *e = ::readdir(dir))
            devices += e->d_name[0] != '.';
        ::closedir(dir);
    }
    return std::min<__u32>(devices + 64, READAHEAD_MAX_DEVICES);
}

// Which programs load: the window hooks of one kind, the page hooks where
// the kernel has their tracepoints (else the coverage says which it lacks).
void chooseProgams(readahead *skel, bool fentry, const KernelHooks &k, ReadaheadCoverage &coverage)
{
    for (bpf_program *p : {skel->progs.tp_sync, skel->progs.tp_async, skel->progs.tp_order, skel->progs.tp_unbounded})
        bpf_program__set_autoload(p, !fentry);
    for (bpf_program *p : {skel->progs.fe_sync, skel->progs.fe_async, skel->progs.fe_order, skel->progs.fe_unbounded})
        bpf_program__set_autoload(p, fentry);
    coverage.windows = fentry ? QStringLiteral("fentry") : QStringLiteral("tracepoints");
    coverage.pages = k.missingPageTracepoints.isEmpty();
    if (!coverage.pages)
        coverage.pagesUnavailable = ReadaheadText::tr("pages not counted: this kernel has no tracepoint %1")
                                        .arg(k.missingPageTracepoints.join(u", "));
    for (bpf_program *p : {skel->progs.on_add, skel->progs.on_get_pages, skel->progs.on_delete})
        bpf_program__set_autoload(p, coverage.pages);
    bpf_program__set_autoload(skel->progs.on_map_pages, coverage.pages && k.mapPages);
    coverage.faults = k.fault;
    bpf_program__set_autoload(skel->progs.on_fault, k.fault);
}

} // namespace

#endif

Result<std::unique_ptr<ReadaheadProbe>> ReadaheadProbe::load(Hooks hooks)
{
    if (qEnvironmentVariableIntValue("BLOCKTUNE_BPF_REFUSE") == 1)
        return makeError(Refused, prefix() + ReadaheadText::tr(
            "BLOCKTUNE_BPF_REFUSE=1 is set, so the BPF program was not loaded (unset it to load it)"));
#if !BLOCKTUNE_HAVE_BPF
    Q_UNUSED(hooks);
    return makeError(NotSupported, prefix() + ReadaheadText::tr(
        "blocktune was built without BPF support (install clang, bpftool and libbpf-dev, then "
        "configure with -DBLOCKTUNE_BPF=ON)"));
#else
    const SysRoot root;
    if (::access(root.sysPath("kernel/btf/vmlinux").constData(), R_OK) != 0)
        return makeError(NotSupported, prefix() + ReadaheadText::tr(
            "the kernel has no BTF type information (/sys/kernel/btf/vmlinux is missing): it needs "
            "CONFIG_DEBUG_INFO_BTF=y"));
    bpfload::captureLibbpfMessages();
    const KernelHooks k = kernelHooks();
    const auto fentry = readahead_detail::chooseFentry(hooks, k, qgetenv("BLOCKTUNE_READAHEAD_HOOKS"));
    if (!fentry)
        return fentry.error();
    auto impl = std::make_unique<Impl>();
    impl->skel = readahead__open();
    if (!impl->skel)
        return refusedBecause(errno, "open", *fentry, k);
    chooseProgams(impl->skel, *fentry, k, impl->coverage);
    impl->cpus = libbpf_num_possible_cpus();
    if (impl->cpus <= 0)
        return refusedBecause(-impl->cpus, "num_possible_cpus", *fentry, k);
    const __u32 deviceSlots = readaheadSlots(root);
    impl->skel->rodata->max_slots = deviceSlots;
    if (const int rc = bpf_map__set_max_entries(impl->skel->maps.counters, deviceSlots * READAHEAD_KINDS); rc != 0)
        return refusedBecause(-rc, "set_max_entries", *fentry, k);
    if (readahead__load(impl->skel) != 0)
        return refusedBecause(errno, "load", *fentry, k);
    if (readahead__attach(impl->skel) != 0)
        return refusedBecause(errno, "attach", *fentry, k);
    return std::unique_ptr<ReadaheadProbe>(new ReadaheadProbe(std::move(impl)));
#endif
}

#if BLOCKTUNE_HAVE_BPF

namespace {

static_assert(int(ReadaheadKind::Sync) == READAHEAD_SYNC && int(ReadaheadKind::Async) == READAHEAD_ASYNC
              && int(ReadaheadKind::Mmap) == READAHEAD_MMAP && int(ReadaheadKind::Forced) == READAHEAD_FORCED
              && kReadaheadKinds == READAHEAD_KINDS);
// The kernel lays per-CPU values out 8-byte aligned: both are multiples of that.
static_assert(sizeof(readahead_value) % 8 == 0 && sizeof(readahead_size_slot) % 8 == 0 && sizeof(__u64) == 8);

// Every key of a hash map with its values (a per-CPU map's, one per
// possible CPU: `cpus`; a plain map's: cpus = 1), in batches: a hash map's
// batch stops at a bucket boundary, and a chunk of 256 keys holds any
// bucket (ENOSPC otherwise).
template<typename Key, typename Value>
Status readPerCpuMap(const bpf_map *map, int cpus, const std::function<void(const Key &, const Value *)> &each)
{
    constexpr __u32 kChunk = 256;
    std::vector<Key> keys(kChunk);
    std::vector<Value> values(size_t(kChunk) * size_t(cpus));
    const int fd = bpf_map__fd(map);
    __u64 inToken = 0, outToken = 0;
    for (bool first = true;; first = false) {
        __u32 count = kChunk;
        const int rc = bpf_map_lookup_batch(fd, first ? nullptr : &inToken, &outToken, keys.data(), values.data(),
                                            &count, nullptr);
        const int err = rc != 0 ? errno : 0;
        for (__u32 i = 0; i < count && i < kChunk; ++i)
            each(keys[i], &values[size_t(i) * size_t(cpus)]);
        if (err == ENOENT)
            return {}; // the last chunk
        if (err != 0)
            return makeError(err, prefix() + ReadaheadText::tr("reading the BPF map %1 failed: %2")
                                                 .arg(QString::fromLatin1(bpf_map__name(map)), errnoDetail(err)));
        inToken = outToken;
    }
}

void addCounters(ReadaheadKindCounters &c, const readahead_value *perCpu, int cpus)
{
    for (int cpu = 0; cpu < cpus; ++cpu) {
        const readahead_value &v = perCpu[cpu];
        c.windows += v.windows;
        c.missWindows += v.miss_windows;
        c.pagesReadAhead += v.pages;
        c.pagesUsed += v.used;
        c.pagesWasted += v.wasted;
        c.pagesUntracked += v.untracked;
        c.interleavedRestarts += v.interleaved;
        for (size_t b = 0; b < READAHEAD_WAIT_BUCKETS; ++b)
            c.wait.counts[b] += v.wait[b];
    }
}

} // namespace

Result<ReadaheadSnapshot> ReadaheadProbe::snapshot()
{
    ReadaheadSnapshot s;
    const int cpus = d->cpus;
    // The devices' slots (dev -> slot), then their kinds' entries of the
    // per-CPU array.
    std::vector<std::pair<__u32, __u32>> devSlots;
    Status read = readPerCpuMap<__u32, __u32>(d->skel->maps.dev_slots, 1, [&](const __u32 &dev, const __u32 *slot) {
        devSlots.emplace_back(dev, *slot);
    });
    if (!read)
        return read.error();
    std::vector<readahead_value> perCpu(static_cast<size_t>(cpus));
    const int countersFd = bpf_map__fd(d->skel->maps.counters);
    for (const auto &[dev, slot] : devSlots) {
        if (slot >= d->skel->rodata->max_slots)
            continue;
        for (__u32 kind = 0; kind < READAHEAD_KINDS; ++kind) {
            const __u32 index = slot * READAHEAD_KINDS + kind;
            if (bpf_map_lookup_elem(countersFd, &index, perCpu.data()) != 0) {
                const int err = errno;
                return makeError(err, prefix() + ReadaheadText::tr("reading the BPF map %1 failed: %2")
                                                     .arg(QStringLiteral("counters"), errnoDetail(err)));
            }
            addCounters(s.devices[deviceNumberOfKernelDev(dev)].kinds[kind], perCpu.data(), cpus);
        }
    }
    const auto addSize = [&s](const readahead_size_key &key, quint64 n) {
        if (key.kind >= READAHEAD_KINDS || !n)
            return;
        ReadaheadKindCounters &c = s.devices[deviceNumberOfKernelDev(key.dev)].kinds[key.kind];
        c.sizes[key.pages] += n;
        c.asyncSizes[key.async_pages] += n;
        if (key.at_cap)
            c.atCap += n;
    };
    read = readPerCpuMap<readahead_size_key, __u64>(
        d->skel->maps.sizes, cpus, [&](const readahead_size_key &key, const __u64 *values) {
            quint64 n = 0;
            for (int cpu = 0; cpu < cpus; ++cpu)
                n += values[cpu];
            addSize(key, n);
        });
    if (!read)
        return read.error();
    // The sizes each CPU's cache holds (each count is in one place only).
    std::vector<readahead_size_slot> cached(static_cast<size_t>(cpus));
    const int cacheFd = bpf_map__fd(d->skel->maps.size_cache);
    for (__u32 index = 0; index < READAHEAD_SIZE_CACHE; ++index) {
        if (bpf_map_lookup_elem(cacheFd, &index, cached.data()) != 0) {
            const int err = errno;
            return makeError(err, prefix() + ReadaheadText::tr("reading the BPF map %1 failed: %2")
                                                 .arg(QStringLiteral("size_cache"), errnoDetail(err)));
        }
        for (const readahead_size_slot &slot : cached)
            addSize(slot.key, slot.windows);
    }
    s.takenMs = steadyMs();
    s.dropped = d->skel->bss->dropped;
    return s;
}

#else

Result<ReadaheadSnapshot> ReadaheadProbe::snapshot()
{
    ReadaheadSnapshot s;
    s.takenMs = steadyMs();
    return s;
}

#endif

} // namespace blocktune
