// SPDX-License-Identifier: GPL-2.0
/* Readahead per block device, for `blocktune-cli readahead` and `diagnose
 * --live`: the founding thread's accounting table (windows by kind, their
 * sizes, pages read ahead and what became of them), from the kernel's
 * readahead tracepoints.
 *
 * Windows (mm/readahead.c, 6.18). page_cache_sync_ra and page_cache_async_ra
 * fire when the call starts, with the descriptor's old window; the new
 * window is in page_cache_ra_order (start, size, async_size, ra_pages),
 * which both end in, or in page_cache_ra_unbounded (nr_to_read) where sync
 * reads a small random read as it is. So: the sync or async event counts a
 * window of its kind and leaves it pending on the task; the next
 * ra_order/ra_unbounded event of that task on that file at the index the
 * call reads from sizes it. A ra_order event with nothing pending is a
 * fault's read-around (do_sync_mmap_readahead calls it directly): mmap. A
 * ra_unbounded event with nothing pending and outside the window just seen
 * is forced (fadvise WILLNEED, readahead(2), force_page_cache_ra's chunks);
 * inside it, page_cache_ra_order handing its gaps to do_page_cache_ra (the
 * same window). sync and async events of a task serving a fault
 * (mm_filemap_fault, same file and index) are mmap.
 * Without the readahead tracepoints (before 6.16?) the same handlers run on
 * fentry of the four functions, which see the same arguments.
 *
 * A window stays the task's until its next one: the folios it adds must
 * also fall in the window's range and file to count.
 *
 * Attribution: to the device whose read_ahead_kb governs the read. A read
 * of a block device itself goes through its inode on the bdev pseudo
 * filesystem (s_dev 0:3 here), whose i_rdev is the device; a file's is its
 * filesystem's s_dev (a partition's number for a partition).
 *
 * Pages: a folio added to the page cache (mm_filemap_add_to_page_cache)
 * while its task is inside a window, within the window's range, was read
 * ahead. Its pages are remembered, one bit a page in chunks of 64 pages of
 * the file (a chunk also keeps each page's window kind and when the chunk
 * was read ahead). A page is used when a read asks for it
 * (mm_filemap_get_pages: read(2), splice, sendfile) or a fault maps it
 * (mm_filemap_fault, mm_filemap_map_pages), wasted when it leaves the
 * page cache before that (mm_filemap_delete_from_page_cache). Either
 * clears its bit with one atomic and, so a page is counted once, on
 * whichever CPU cleared it. Only tracepoints: kernels that refuse fentry
 * programs (a BPF LSM policy, as on our CI machine) have them all.
 *
 * The licence string is what the kernel asks of programs on BTF raw
 * tracepoints. */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "readahead.h"
#include "log2bucket.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* include/uapi/linux/magic.h: the bdev pseudo filesystem. */
#define BLOCKTUNE_BDEVFS_MAGIC 0x62646576
/* Ages are kept in jiffies (bpf_jiffies64: a load the verifier inlines),
 * not bpf_ktime_get_ns (a clock read, 20-30 ns here, twice a window): the
 * limits below are a tenth of a second and a second, where a tick (4 ms at
 * HZ=250) does not matter. The kernel's HZ comes from its config (libbpf
 * reads /proc/config.gz or /boot/config-*); without one, 1000 (the largest
 * HZ: the limits are then at most ten times longer on a kernel of HZ=100).
 * Only the wait of used pages needs nanoseconds. */
extern unsigned int CONFIG_HZ __kconfig __weak;

static __always_inline __u64 hz(void)
{
    return CONFIG_HZ ? CONFIG_HZ : 1000;
}

/* A sync or async call reaches its window in microseconds; a fault its
 * readahead too. Anything older (a tenth of a second, a tick more) is not
 * theirs. */
static __always_inline __u64 pending_ticks(void)
{
    return hz() / 10 + 1;
}

/* Another descriptor's read of the same file this recently (a second),
 * this near, makes a sync window an interleaved restart. */
static __always_inline __u64 interleave_ticks(void)
{
    return hz() + 1;
}
#define INTERLEAVE_MIN_PAGES 256

/* What one task is in the middle of. */
struct task_ra {
    __u64 pending_inode; /* a sync/async call whose window is not seen yet */
    __u64 pending_index;
    __u64 pending_tick; /* jiffies */
    __u32 pending_kind;
    __u32 pending_ra_pages;
    __u32 pending_async;
    __u32 pending_active;
    __u32 pending_dev;
    __u32 pending_slot;
    __u64 fault_inode; /* the fault it serves (mm_filemap_fault) */
    __u64 fault_index;
    __u64 fault_tick;
    __u64 win_inode; /* the window whose folios it adds */
    __u64 win_start;
    __u64 win_end;
    __u64 win_ns; /* when it was sized (bpf_ktime_get_ns): its pages' read-ahead time */
    __u32 win_slot;
    __u32 win_kind;
    __u32 win_open;
    __u32 pad;
};

struct {
    __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
    __uint(map_flags, BPF_F_NO_PREALLOC);
    __type(key, int);
    __type(value, struct task_ra);
} tasks SEC(".maps");

/* The device of each slot of `counters` (dev -> slot): looked up when a
 * window starts (and then kept by the task, the chunk and the file), not
 * for every page. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, READAHEAD_MAX_DEVICES);
    __type(key, __u32);
    __type(value, __u32);
} dev_slots SEC(".maps");

/* Per CPU, slot * READAHEAD_KINDS + kind: each program adds to its CPU's
 * copy without an atomic instruction, and finds it without a hash lookup
 * (the kernel inlines a per-CPU array's lookup); the reader sums the CPUs.
 * The loader sets max_entries to max_slots * READAHEAD_KINDS. */
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, READAHEAD_MAX_DEVICES * READAHEAD_KINDS);
    __type(key, __u32);
    __type(value, struct readahead_value);
} counters SEC(".maps");

/* Slots `counters` has room for (set by the loader), and the next free one. */
const volatile __u32 max_slots = READAHEAD_MAX_DEVICES;
__u32 next_slot = 0;
#define NO_SLOT 0xffffffffU

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, READAHEAD_SIZE_CACHE);
    __type(key, __u32);
    __type(value, struct readahead_size_slot);
} size_cache SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
    __uint(max_entries, READAHEAD_MAX_SIZES);
    __uint(map_flags, BPF_F_NO_PREALLOC);
    __type(key, struct readahead_size_key);
    __type(value, __u64);
} sizes SEC(".maps");

/* Pages read ahead and not yet used nor removed, by file and chunk of 64
 * pages. Entries exist only while such pages do: not preallocated. */
struct chunk_key {
    __u64 mapping;
    __u64 chunk; /* page index / READAHEAD_CHUNK_PAGES */
};

struct chunk_pages {
    __u64 ahead;    /* bit i: page chunk * 64 + i was read ahead, not yet used nor removed */
    __u64 kind_lo;  /* bit i: bit 0 of that page's window kind */
    __u64 kind_hi;  /* bit i: bit 1 of it */
    __u64 added_ns; /* when the chunk's oldest page still remembered was read ahead */
    __u32 slot;     /* its device's slot of `counters` */
    __u32 pad;
};

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, READAHEAD_MAX_CHUNKS);
    __uint(map_flags, BPF_F_NO_PREALLOC);
    __type(key, struct chunk_key);
    __type(value, struct chunk_pages);
} chunks SEC(".maps");

/* How many chunks exist whose key falls in each slot here (a counting
 * filter over `chunks`): a page leaving the cache or read that no chunk can
 * hold, which is most of them (pages used already, files never read
 * ahead), costs an array load instead of a hash lookup. A chunk counts
 * from before it is inserted until after it is deleted, so a zero is
 * always true; two chunks in one slot only cost the lookup. The slot is the
 * file's inode number's and the chunk's (a mapping's address is a pointer
 * to the verifier, which allows no arithmetic on it); files of two
 * filesystems with one number share slots, which costs only lookups. */
#define CHUNK_FILTER_SLOTS (1U << 18)
__u32 chunk_filter[CHUNK_FILTER_SLOTS];

static __always_inline __u32 *chunk_filter_at(__u64 ino, __u64 chunk)
{
    __u64 h = (ino ^ (chunk * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
    return &chunk_filter[(h >> 46) & (CHUNK_FILTER_SLOTS - 1)];
}

/* The last readahead event of each file: its descriptor (file_ra_state),
 * task, index and time, and the file's device and its slot (so a window of
 * a file seen before needs no lookup in `dev_slots`). Least recently used files
 * make room. */
struct file_seen {
    __u64 ra;
    __u64 index;
    __u64 tick; /* jiffies */
    __u32 pid;
    __u32 dev;
    __u32 slot;
    __u32 pad;
};

struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, READAHEAD_MAX_FILES);
    __type(key, __u64);
    __type(value, struct file_seen);
} files SEC(".maps");

/* Events a full map refused. */
__u64 dropped = 0;

/* The histograms' log2 bucket (core/common/bpf/log2bucket.bpf.h). */
static __always_inline __u32 bucket_of(__u64 ns)
{
    return log2_us_bucket(ns, READAHEAD_WAIT_BUCKETS);
}

/* The slot of `counters` of device `dev`, given it the first time. */
static __always_inline __u32 slot_of(__u32 dev)
{
    __u32 *s = bpf_map_lookup_elem(&dev_slots, &dev);
    if (s)
        return *s;
    __u32 fresh = __sync_fetch_and_add(&next_slot, 1);
    if (fresh >= max_slots) {
        __sync_fetch_and_add(&dropped, 1);
        return NO_SLOT;
    }
    if (bpf_map_update_elem(&dev_slots, &dev, &fresh, BPF_NOEXIST) == 0)
        return fresh;
    s = bpf_map_lookup_elem(&dev_slots, &dev); /* another CPU gave it one first: `fresh` stays unused */
    if (s)
        return *s;
    __sync_fetch_and_add(&dropped, 1);
    return NO_SLOT;
}

static __always_inline struct readahead_value *value_at(__u32 slot, __u32 kind)
{
    if (slot >= max_slots)
        return NULL;
    __u32 i = slot * READAHEAD_KINDS + (kind & (READAHEAD_KINDS - 1));
    return bpf_map_lookup_elem(&counters, &i);
}

static __always_inline void count_size(__u32 dev, __u32 kind, __u32 pages, __u32 async_pages, bool at_cap)
{
    struct readahead_size_key key = {
        .dev = dev, .kind = (__u16)kind, .at_cap = at_cap, .pages = pages, .async_pages = async_pages};
    /* A stream's windows are mostly of one size: its entry of this CPU's
     * cache, an array index (no hash lookup). */
    __u32 i = (dev * 31 + kind * 7 + pages * 13 + async_pages + at_cap) & (READAHEAD_SIZE_CACHE - 1);
    struct readahead_size_slot *e = bpf_map_lookup_elem(&size_cache, &i);
    if (e) {
        if (!e->windows) {
            e->key = key;
            e->windows = 1;
            return;
        }
        if (e->key.dev == dev && e->key.kind == key.kind && e->key.at_cap == key.at_cap && e->key.pages == pages
            && e->key.async_pages == async_pages) {
            e->windows += 1;
            return;
        }
    }
    __u64 *n = bpf_map_lookup_elem(&sizes, &key);
    if (n) {
        *n += 1;
        return;
    }
    __u64 one = 1;
    if (bpf_map_update_elem(&sizes, &key, &one, BPF_NOEXIST) != 0) {
        n = bpf_map_lookup_elem(&sizes, &key); /* another CPU's copy was first: ours is a new one */
        if (n)
            *n += 1;
        else
            __sync_fetch_and_add(&dropped, 1);
    }
}

/* The device whose readahead governs reads of `inode`. */
static __always_inline __u32 dev_of(struct inode *inode)
{
    struct super_block *sb = inode->i_sb;
    if (!sb)
        return 0;
    if (sb->s_magic == BLOCKTUNE_BDEVFS_MAGIC)
        return inode->i_rdev;
    return sb->s_dev;
}

static __always_inline struct task_ra *task_ctx(bool create)
{
    return bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), 0,
                                create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

/* 6.18 wraps a folio's flags in memdesc_flags_t; before, an unsigned long. */
struct folio___ulong_flags {
    unsigned long flags;
} __attribute__((preserve_access_index));

static __always_inline __u64 folio_flags(struct folio *folio)
{
    if (bpf_core_type_exists(memdesc_flags_t))
        return folio->flags.f;
    return ((struct folio___ulong_flags *)folio)->flags;
}

/* folio_nr_pages(): a large folio (PG_head) keeps its order in the low byte
 * of _flags_1. */
static __always_inline __u32 folio_pages(struct folio *folio)
{
    __u32 head = bpf_core_enum_value(enum pageflags, PG_head);
    if (!(folio_flags(folio) & (1ULL << (head & 63))))
        return 1;
    if (!bpf_core_field_exists(folio->_flags_1))
        return 1;
    __u32 order = folio->_flags_1 & 0xff;
    return order < 20 ? 1U << order : 1;
}

/* page_cache_sync_ra / page_cache_async_ra: a window of this kind starts.
 * A sync window is an interleaved restart when another descriptor of
 * another task read the same file nearby just before (the SCST story: N
 * server threads, each with its own descriptor, taking turns on one
 * stream). The file's entry remembers this event for the next, and its
 * device's slot. */
static __always_inline void window_started(struct inode *inode, __u64 index, struct file_ra_state *ra, bool async)
{
    struct task_ra *t = task_ctx(true);
    __u64 now = bpf_jiffies64();
    __u32 kind = async ? READAHEAD_ASYNC : READAHEAD_SYNC;
    if (t && t->fault_inode == (__u64)inode && t->fault_index == index && now - t->fault_tick < pending_ticks()) {
        kind = READAHEAD_MMAP;
        t->fault_inode = 0;
    }
    __u32 dev = dev_of(inode);
    __u32 ra_pages = ra->ra_pages;
    __u64 key = (__u64)inode;
    __u32 pid = (__u32)bpf_get_current_pid_tgid();
    __u32 slot;
    bool restart = false;
    struct file_seen *f = bpf_map_lookup_elem(&files, &key);
    if (f) {
        __u64 near = (__u64)ra_pages * 4 > INTERLEAVE_MIN_PAGES ? (__u64)ra_pages * 4 : INTERLEAVE_MIN_PAGES;
        __u64 gap = index > f->index ? index - f->index : f->index - index;
        restart = !async && f->ra != (__u64)ra && f->pid != pid && now - f->tick < interleave_ticks() && gap <= near;
        f->ra = (__u64)ra;
        f->index = index;
        f->tick = now;
        f->pid = pid;
        /* The same address may be another inode by now: the slot only for the same device. */
        slot = f->dev == dev && f->slot != NO_SLOT ? f->slot : slot_of(dev);
        f->dev = dev;
        f->slot = slot;
    } else {
        slot = slot_of(dev);
        struct file_seen seen = {.ra = (__u64)ra, .index = index, .tick = now, .pid = pid, .dev = dev, .slot = slot};
        bpf_map_update_elem(&files, &key, &seen, BPF_ANY);
    }
    struct readahead_value *v = value_at(slot, kind);
    if (v) {
        v->windows += 1;
        if (!async)
            v->miss_windows += 1;
        if (restart)
            v->interleaved += 1;
    }
    if (t) {
        t->pending_inode = (__u64)inode;
        t->pending_index = index;
        t->pending_tick = now;
        t->pending_kind = kind;
        t->pending_ra_pages = ra_pages;
        t->pending_async = async;
        t->pending_active = 1;
        t->pending_dev = dev;
        t->pending_slot = slot;
    }
}

/* Does the window at `index` belong to the call pending on `t`? sync reads
 * from its index; async from beyond the marker it hit, at most a few
 * windows on. */
static __always_inline bool pending_here(struct task_ra *t, struct inode *inode, __u64 index, __u64 now)
{
    if (!t->pending_active || t->pending_inode != (__u64)inode || now - t->pending_tick >= pending_ticks())
        return false;
    if (!t->pending_async)
        return index == t->pending_index;
    __u64 reach = (__u64)t->pending_ra_pages * 4 + 512;
    return index > t->pending_index && index - t->pending_index <= reach;
}

/* page_cache_ra_order / page_cache_ra_unbounded: a window's size. */
static __always_inline void window_sized(struct inode *inode, __u64 index, __u32 size, __u32 async_size,
                                         __u32 ra_pages, bool unbounded)
{
    struct task_ra *t = task_ctx(true);
    if (!t)
        return;
    __u64 now = bpf_jiffies64();
    if (unbounded && t->win_open && t->win_inode == (__u64)inode && index >= t->win_start && index < t->win_end)
        return; /* page_cache_ra_order's gaps, read by do_page_cache_ra */
    __u32 dev, slot, kind;
    if (pending_here(t, inode, index, now)) {
        /* Its start counted the window already: only its size is new. */
        kind = t->pending_kind;
        dev = t->pending_dev;
        slot = t->pending_slot;
        if (unbounded)
            ra_pages = t->pending_ra_pages;
        t->pending_active = 0;
    } else {
        kind = unbounded ? READAHEAD_FORCED : READAHEAD_MMAP;
        dev = dev_of(inode);
        slot = slot_of(dev);
        struct readahead_value *v = value_at(slot, kind);
        if (v) {
            v->windows += 1;
            if (kind == READAHEAD_MMAP)
                v->miss_windows += 1; /* read-around serves a fault that missed */
        }
        if (unbounded)
            ra_pages = 0; /* no descriptor: no cap to compare with */
    }
    count_size(dev, kind, size, async_size, ra_pages && size >= ra_pages);
    t->win_inode = (__u64)inode;
    t->win_start = index;
    t->win_end = index + size;
    t->win_ns = bpf_ktime_get_ns();
    t->win_slot = slot;
    t->win_kind = kind;
    t->win_open = 1;
}

/* ---- The readahead tracepoints (6.16+?) ---- */

SEC("tp_btf/page_cache_sync_ra")
int BPF_PROG(tp_sync, struct inode *inode, unsigned long index, struct file_ra_state *ra, unsigned long req_count)
{
    window_started(inode, index, ra, false);
    return 0;
}

SEC("tp_btf/page_cache_async_ra")
int BPF_PROG(tp_async, struct inode *inode, unsigned long index, struct file_ra_state *ra, unsigned long req_count)
{
    window_started(inode, index, ra, true);
    return 0;
}

SEC("tp_btf/page_cache_ra_order")
int BPF_PROG(tp_order, struct inode *inode, unsigned long index, struct file_ra_state *ra)
{
    window_sized(inode, index, ra->size, ra->async_size, ra->ra_pages, false);
    return 0;
}

SEC("tp_btf/page_cache_ra_unbounded")
int BPF_PROG(tp_unbounded, struct inode *inode, unsigned long index, unsigned long nr_to_read, unsigned long lookahead_size)
{
    window_sized(inode, index, (__u32)nr_to_read, (__u32)lookahead_size, 0, true);
    return 0;
}

/* ---- The same on fentry, where the kernel has no readahead tracepoints ---- */

SEC("fentry/page_cache_sync_ra")
int BPF_PROG(fe_sync, struct readahead_control *ractl, unsigned long req_count)
{
    window_started(ractl->mapping->host, ractl->_index, ractl->ra, false);
    return 0;
}

/* The tracepoint fires after the call's first two checks: no readahead on
 * this descriptor, or PG_readahead meaning PG_reclaim on a folio under
 * writeback. */
SEC("fentry/page_cache_async_ra")
int BPF_PROG(fe_async, struct readahead_control *ractl, struct folio *folio, unsigned long req_count)
{
    struct file_ra_state *ra = ractl->ra;
    __u32 writeback = bpf_core_enum_value(enum pageflags, PG_writeback);
    if (!ra->ra_pages || (folio_flags(folio) & (1ULL << (writeback & 63))))
        return 0;
    window_started(ractl->mapping->host, ractl->_index, ra, true);
    return 0;
}

SEC("fentry/page_cache_ra_order")
int BPF_PROG(fe_order, struct readahead_control *ractl, struct file_ra_state *ra)
{
    window_sized(ractl->mapping->host, ractl->_index, ra->size, ra->async_size, ra->ra_pages, false);
    return 0;
}

SEC("fentry/page_cache_ra_unbounded")
int BPF_PROG(fe_unbounded, struct readahead_control *ractl, unsigned long nr_to_read, unsigned long lookahead_size)
{
    window_sized(ractl->mapping->host, ractl->_index, (__u32)nr_to_read, (__u32)lookahead_size, 0, true);
    return 0;
}

/* ---- Pages ---- */

/* The pages [first, last] of the file that fall in `chunk`, as its bits. */
static __always_inline __u64 range_bits(__u64 chunk, __u64 first, __u64 last)
{
    __u64 base = chunk * READAHEAD_CHUNK_PAGES;
    __u64 lo = first > base ? first - base : 0;
    __u64 hi = last < base + READAHEAD_CHUNK_PAGES - 1 ? last - base : READAHEAD_CHUNK_PAGES - 1;
    if (lo > hi)
        return 0;
    __u64 width = hi - lo + 1;
    return (width >= 64 ? ~0ULL : (1ULL << width) - 1) << (lo & 63);
}

/* A large folio covers at most this many chunks here (1024 pages); its
 * pages beyond them are counted untracked. */
#define FOLIO_CHUNKS 16
/* A read's range is followed over at most this many chunks (16 MiB): a
 * longer read(2) asks again from where its first batch ended. */
#define USE_CHUNKS 64

/* One folio read ahead, chunk by chunk (bpf_loop: the verifier checks the
 * body once). */
struct remember_ctx {
    __u64 mapping;
    __u64 ino; /* its host's: the filter's slot */
    __u64 first;
    __u64 last;
    __u64 now;
    __u64 kind_lo; /* all ones where the window's kind has bit 0 */
    __u64 kind_hi;
    __u64 untracked;
    __u32 slot;
    __u32 seen;
};

static long remember_chunk(__u32 i, void *data)
{
    struct remember_ctx *r = data;
    __u64 chunk = r->first / READAHEAD_CHUNK_PAGES + i;
    if (chunk > r->last / READAHEAD_CHUNK_PAGES)
        return 1;
    __u64 bits = range_bits(chunk, r->first, r->last);
    r->seen += __builtin_popcountll(bits);
    struct chunk_key key = {.mapping = r->mapping, .chunk = chunk};
    struct chunk_pages *c = bpf_map_lookup_elem(&chunks, &key);
    if (!c) {
        struct chunk_pages fresh = {.added_ns = r->now, .slot = r->slot};
        __u32 *counted = chunk_filter_at(r->ino, chunk);
        __sync_fetch_and_add(counted, 1);
        if (bpf_map_update_elem(&chunks, &key, &fresh, BPF_NOEXIST) != 0)
            __sync_fetch_and_sub(counted, 1); /* another CPU's insert (it counted it) or a full map */
        c = bpf_map_lookup_elem(&chunks, &key);
        if (!c) {
            r->untracked += __builtin_popcountll(bits);
            return 0;
        }
    }
    if (!c->ahead) {
        c->added_ns = r->now;
        c->slot = r->slot;
    }
    c->kind_lo = (c->kind_lo & ~bits) | (r->kind_lo & bits);
    c->kind_hi = (c->kind_hi & ~bits) | (r->kind_hi & bits);
    __sync_fetch_and_or(&c->ahead, bits);
    return 0;
}

static __always_inline void remember_pages(struct address_space *mapping, __u64 first, __u32 pages, __u32 slot,
                                           __u32 kind, __u64 now, struct readahead_value *v)
{
    struct remember_ctx r = {
        .mapping = (__u64)mapping,
        .ino = mapping->host ? mapping->host->i_ino : 0,
        .first = first,
        .last = first + pages - 1,
        .now = now,
        .kind_lo = kind & 1 ? ~0ULL : 0,
        .kind_hi = kind & 2 ? ~0ULL : 0,
        .slot = slot,
    };
    /* Most folios lie in one chunk: a direct call, not bpf_loop's. */
    if (r.first / READAHEAD_CHUNK_PAGES == r.last / READAHEAD_CHUNK_PAGES)
        remember_chunk(0, &r);
    else
        bpf_loop(FOLIO_CHUNKS, remember_chunk, &r, 0);
    v->untracked += r.untracked;
    if (pages > r.seen)
        v->untracked += pages - r.seen;
}

/* The pages `taken` of chunk `c` of one kind: to its counters. */
static __always_inline void account_kind(struct chunk_pages *c, __u32 kind, __u64 mask, bool used, __u32 bucket)
{
    __u64 n = __builtin_popcountll(mask);
    if (!n)
        return;
    struct readahead_value *v = value_at(c->slot, kind);
    if (!v)
        return;
    if (used) {
        v->used += n;
        v->wait[bucket & (READAHEAD_WAIT_BUCKETS - 1)] += n;
    } else {
        v->wasted += n;
    }
}

/* The pages `taken` of chunk `c` were used (or wasted): to their kinds'
 * counters, a used page's wait from when its chunk was read ahead. */
static __always_inline void account_pages(struct chunk_pages *c, __u64 taken, bool used, __u64 now)
{
    __u64 lo = c->kind_lo, hi = c->kind_hi;
    __u32 bucket = bucket_of(now - c->added_ns);
    account_kind(c, READAHEAD_SYNC, taken & ~lo & ~hi, used, bucket);
    account_kind(c, READAHEAD_ASYNC, taken & lo & ~hi, used, bucket);
    account_kind(c, READAHEAD_MMAP, taken & ~lo & hi, used, bucket);
    account_kind(c, READAHEAD_FORCED, taken & lo & hi, used, bucket);
}

struct done_ctx {
    __u64 mapping;
    __u64 ino;
    __u64 first;
    __u64 last;
    __u64 now;
    __u32 used;
    __u32 pad;
};

static long done_chunk(__u32 i, void *data)
{
    struct done_ctx *d = data;
    __u64 chunk = d->first / READAHEAD_CHUNK_PAGES + i;
    if (chunk > d->last / READAHEAD_CHUNK_PAGES)
        return 1;
    __u32 *counted = chunk_filter_at(d->ino, chunk);
    if (!*counted)
        return 0; /* no chunk there: no hash lookup */
    struct chunk_key key = {.mapping = d->mapping, .chunk = chunk};
    struct chunk_pages *c = bpf_map_lookup_elem(&chunks, &key);
    if (!c)
        return 0;
    __u64 bits = range_bits(chunk, d->first, d->last);
    if (!(c->ahead & bits))
        return 0; /* none of them remembered (a read asking again, pages read before): no locked instruction */
    __u64 taken = __sync_fetch_and_and(&c->ahead, ~bits) & bits;
    if (!taken)
        return 0;
    if (!d->now)
        d->now = bpf_ktime_get_ns(); /* read once something is taken: most calls take nothing */
    account_pages(c, taken, d->used, d->now);
    if (!c->ahead && bpf_map_delete_elem(&chunks, &key) == 0)
        __sync_fetch_and_sub(counted, 1);
    return 0;
}

/* Pages [first, last] of the file were read (used) or left the page cache
 * (not used): each remembered page among them is counted once. */
static __always_inline void pages_done(struct address_space *mapping, __u64 first, __u64 last, bool used)
{
    if (last < first)
        return;
    struct inode *host = mapping->host;
    struct done_ctx d = {
        .mapping = (__u64)mapping, .ino = host ? host->i_ino : 0, .first = first, .last = last, .used = used};
    /* A read(2), a fault or a folio leaving the cache mostly spans one
     * chunk: a direct call, not bpf_loop's. */
    if (first / READAHEAD_CHUNK_PAGES == last / READAHEAD_CHUNK_PAGES)
        done_chunk(0, &d);
    else
        bpf_loop(USE_CHUNKS, done_chunk, &d, 0);
}

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(on_add, struct folio *folio)
{
    struct task_ra *t = task_ctx(false);
    if (!t || !t->win_open)
        return 0;
    struct address_space *mapping = folio->mapping;
    if (!mapping || (__u64)mapping->host != t->win_inode)
        return 0;
    __u64 index = folio->index;
    __u32 pages = folio_pages(folio);
    if (index >= t->win_end || index + pages <= t->win_start)
        return 0;
    struct readahead_value *v = value_at(t->win_slot, t->win_kind);
    if (!v)
        return 0;
    v->pages += pages;
    /* Its window's time: the folios of a window are added microseconds
     * after it is sized, and a clock read per folio is not needed for a
     * wait measured in log2 buckets of microseconds. */
    remember_pages(mapping, index, pages, t->win_slot, t->win_kind, t->win_ns, v);
    return 0;
}

/* Pages [index, last_index] a read(2), splice or sendfile takes from the
 * page cache (fired once it has them, also for pages it found cached). */
SEC("tp_btf/mm_filemap_get_pages")
int BPF_PROG(on_get_pages, struct address_space *mapping, unsigned long index, unsigned long last_index)
{
    pages_done(mapping, index, last_index, true);
    return 0;
}

/* A fault on a page of a mapped file: that page is used, and the task may
 * be about to read ahead for it (mmap windows). */
SEC("tp_btf/mm_filemap_fault")
int BPF_PROG(on_fault, struct address_space *mapping, unsigned long index)
{
    pages_done(mapping, index, index, true);
    struct task_ra *t = task_ctx(true);
    if (!t)
        return 0;
    t->fault_inode = (__u64)mapping->host;
    t->fault_index = index;
    t->fault_tick = bpf_jiffies64();
    return 0;
}

/* Fault-around mapped these pages into the process: counted used. */
SEC("tp_btf/mm_filemap_map_pages")
int BPF_PROG(on_map_pages, struct address_space *mapping, unsigned long start, unsigned long end)
{
    pages_done(mapping, start, end, true);
    return 0;
}

SEC("tp_btf/mm_filemap_delete_from_page_cache")
int BPF_PROG(on_delete, struct folio *folio)
{
    struct address_space *mapping = folio->mapping;
    if (!mapping)
        return 0;
    __u64 index = folio->index;
    pages_done(mapping, index, index + folio_pages(folio) - 1, false);
    return 0;
}
