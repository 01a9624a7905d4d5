// SPDX-License-Identifier: GPL-2.0
/* Block request latency per device and direction, for `monitor --latency`.
 *
 * Queue time: from when the block layer took the request to its issue to the
 * driver (block_rq_issue). "Took" is the request's start_time_ns, stamped
 * when it was allocated: the moment /proc/diskstats starts counting its
 * ticks, so queue + device time is diskstats' await. That covers the
 * submitter's plug as well as the scheduler: a request issued without an
 * insert (scheduler `none` issues most straight from the plug) still waited
 * there. Measured on a loop device under mq-deadline, counting from
 * block_rq_insert instead left out 7-9 us per 4 KiB read, and queue + device
 * fell 11-13% short of diskstats in two runs of four. start_time_ns is
 * stamped only for a request with I/O statistics (RQF_IO_STAT); without
 * them (queue/iostats 0) queue time runs from block_rq_insert, attached once
 * the first such request is seen, and is 0 for a request issued without an
 * insert.
 * Device time: from block_rq_issue to the completion: block_io_done where
 * the kernel has it (6.5+), the moment diskstats accounts the request, else
 * the last block_rq_complete (before the bios' end_io callbacks ran).
 *
 * Counted like diskstats' reads and writes: flushes, discards and
 * passthrough commands are left out. A requeued request's device time runs
 * from its last issue; its first trip to the driver counts as queue time
 * (without I/O statistics, queue time runs from its last insert).
 *
 * Cost (bench/bpf-cost.sh): per request one run at issue and one at
 * completion, each a lookup of the request's slot (see issued) and, at
 * completion, of the CPU's own copy of the device's histograms; no hash
 * entry made or deleted per request, no atomic instruction.
 *
 * The licence string is what the kernel asks of programs on BTF raw
 * tracepoints. */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "blocklatency.h"
#include "log2bucket.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Requests in flight, by slot. A request in flight holds a tag in one
 * tag set (struct blk_mq_tags): its scheduler tag (internal_tag) where an
 * I/O scheduler gave it one, else its driver tag. That tag is unique among
 * the requests in flight on that set, and held from before its insert to
 * after its completion, so a (tag set, tag) pair names one request. Each
 * tag set gets a range of slots on first sight (the regions map), the
 * request its range's slot [tag]: issue and completion write and read an
 * array slot, no hash entry is made and deleted per request (measured on
 * the bench's loop device at 50,000 requests/s: that insert and delete
 * were most of the program's cost). */
struct issue_slot {
    __u64 rq;       /* the request that was issued from this slot */
    __u64 issue_ns; /* 0: nothing in flight here */
};

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, BLOCKLATENCY_SLOTS);
    __type(key, __u32);
    __type(value, struct issue_slot);
} issued SEC(".maps");

/* block_rq_insert's stamp, by the same slot: written only where that
 * program is attached (see on_insert), taken (and cleared) at completion. */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, BLOCKLATENCY_SLOTS);
    __type(key, __u32);
    __type(value, __u64);
} inserted SEC(".maps");

struct slot_range {
    __u32 base;
    __u32 size; /* the tag set's nr_tags */
};

/* Tag set (its address) -> its range of slots. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, BLOCKLATENCY_REGIONS);
    __type(key, __u64);
    __type(value, struct slot_range);
} regions SEC(".maps");

/* The tag set each CPU looked up last, and its range, as of generation:
 * most requests on a CPU are for the tag set of the one before. */
struct last_range {
    __u64 tags;
    __u32 base;
    __u32 size;
    __u64 generation;
};

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct last_range);
} last SEC(".maps");

/* Histograms, per CPU: the completion adds to its own CPU's copy without
 * an atomic instruction (one program writes them, and the kernel never
 * runs a program twice at once on one CPU); the reader sums the CPUs.
 * Entries appear only for devices that do I/O: not preallocated. */
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
    __uint(max_entries, BLOCKLATENCY_MAX_KEYS);
    __uint(map_flags, BPF_F_NO_PREALLOC);
    __type(key, struct blocklatency_key);
    __type(value, struct blocklatency_value);
} latency SEC(".maps");

/* Completions of requests whose issue the program did not see (in flight
 * when it was loaded, or no slot for them), and accounts refused by a full
 * map. */
__u64 untracked = 0;
__u64 dropped = 0;
/* The next free slot. When a tag set finds the slots used up, `exhausted`
 * is set and the loader starts the regions over (the tag sets of removed
 * devices keep theirs until then). */
__u64 next_slot = 0;
__u32 exhausted = 0;
/* Counted up by the loader when it starts the ranges over: what a CPU
 * remembers from an earlier generation (see last) is not used. */
__u64 generation = 0;
/* A request without I/O statistics (no start_time_ns) was issued: the
 * loader then attaches on_insert, for its queue time. */
__u32 insert_wanted = 0;

static const struct blocklatency_value zero_value;

/* The histograms' log2 bucket (core/common/bpf/log2bucket.bpf.h). */
static __always_inline __u32 bucket_of(__u64 ns)
{
    return log2_us_bucket(ns, BLOCKLATENCY_BUCKETS);
}

static __always_inline void account(__u32 dev, __u32 op, __u64 queue_ns, __u64 device_ns)
{
    struct blocklatency_key key = {.dev = dev, .op = op};
    struct blocklatency_value *v = bpf_map_lookup_elem(&latency, &key);
    if (!v) {
        bpf_map_update_elem(&latency, &key, &zero_value, BPF_NOEXIST);
        v = bpf_map_lookup_elem(&latency, &key);
        if (!v) {
            __sync_fetch_and_add(&dropped, 1);
            return;
        }
    }
    v->requests += 1;
    v->queue_ns += queue_ns;
    v->device_ns += device_ns;
    v->queue[bucket_of(queue_ns) & (BLOCKLATENCY_BUCKETS - 1)] += 1;
    v->device[bucket_of(device_ns) & (BLOCKLATENCY_BUCKETS - 1)] += 1;
}

/* diskstats' op_stat_group(): odd operations write, even ones read, except
 * flushes (counted apart), discards and driver passthrough. -1: not counted. */
/* include/linux/blk_types.h: REQ_OP_BITS 8, a #define BTF does not carry. */
#define BLOCKLATENCY_REQ_OP_MASK 0xff

static __always_inline int op_of(struct request *rq)
{
    __u32 op = rq->cmd_flags & BLOCKLATENCY_REQ_OP_MASK;
    if (op == REQ_OP_FLUSH || op == REQ_OP_DISCARD || op == REQ_OP_SECURE_ERASE || op >= REQ_OP_DRV_IN)
        return -1;
    return (op & 1) ? BLOCKLATENCY_WRITE : BLOCKLATENCY_READ;
}

/* RQF_IO_STAT: the block layer accounts the request in diskstats and
 * stamped its start_time_ns. Without it start_time_ns is left from an
 * earlier use of the struct (measured: queue times of 195 s with
 * queue/iostats 0). An enum since 6.8; bit 13 before. */
static __always_inline bool has_io_stat(struct request *rq)
{
    __u32 bit = 13;
    if (bpf_core_enum_value_exists(enum rqf_flags, __RQF_IO_STAT))
        bit = bpf_core_enum_value(enum rqf_flags, __RQF_IO_STAT);
    return rq->rq_flags & (1u << (bit & 31));
}

/* A new tag set's range of slots; NULL when they are used up. */
static __always_inline struct slot_range *new_region(__u64 key, struct blk_mq_tags *tags)
{
    __u32 size = tags->nr_tags;
    if (!size || size > BLOCKLATENCY_SLOTS)
        return NULL;
    __u64 base = __sync_fetch_and_add(&next_slot, size);
    if (base + size > BLOCKLATENCY_SLOTS) {
        exhausted = 1;
        return NULL;
    }
    struct slot_range r = {.base = (__u32)base, .size = size};
    /* Another CPU may have been first: then its range is used (and this
     * one stays unused until the regions start over). */
    bpf_map_update_elem(&regions, &key, &r, BPF_NOEXIST);
    return bpf_map_lookup_elem(&regions, &key);
}

/* The request's slot, or -1 when it has none. */
static __always_inline long slot_of(struct request *rq)
{
    struct blk_mq_hw_ctx *hctx = rq->mq_hctx;
    if (!hctx)
        return -1;
    struct blk_mq_tags *tags;
    int tag = rq->internal_tag;
    if (tag >= 0) {
        tags = hctx->sched_tags;
    } else {
        tags = hctx->tags;
        tag = rq->tag;
    }
    if (!tags || tag < 0)
        return -1;
    __u64 key = (__u64)tags;
    __u32 zero = 0;
    struct last_range *l = bpf_map_lookup_elem(&last, &zero);
    if (!l)
        return -1;
    __u64 gen = generation;
    if (l->tags != key || l->generation != gen) {
        struct slot_range *r = bpf_map_lookup_elem(&regions, &key);
        if (!r) {
            r = new_region(key, tags);
            if (!r)
                return -1;
        }
        l->tags = key;
        l->base = r->base;
        l->size = r->size;
        l->generation = gen;
    }
    if ((__u32)tag >= l->size)
        return -1;
    __u32 slot = l->base + (__u32)tag;
    return slot < BLOCKLATENCY_SLOTS ? slot : -1;
}

/* Only where a request without I/O statistics was seen (the loader attaches
 * it then): with them, queue time runs from start_time_ns. */
SEC("tp_btf/block_rq_insert")
int BPF_PROG(on_insert, struct request *rq)
{
    long slot = slot_of(rq);
    if (slot < 0)
        return 0;
    __u32 key = (__u32)slot;
    __u64 *stamp = bpf_map_lookup_elem(&inserted, &key);
    if (stamp)
        *stamp = bpf_ktime_get_ns();
    return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(on_issue, struct request *rq)
{
    if (op_of(rq) < 0)
        return 0;
    long slot = slot_of(rq);
    if (slot < 0)
        return 0;
    __u32 key = (__u32)slot;
    struct issue_slot *s = bpf_map_lookup_elem(&issued, &key);
    if (!s)
        return 0;
    s->rq = (__u64)rq;
    s->issue_ns = bpf_ktime_get_ns();
    if (!insert_wanted && !has_io_stat(rq))
        insert_wanted = 1;
    return 0;
}

/* The request is done: its times go to its device's histograms. */
static __always_inline int finish(struct request *rq)
{
    int op = op_of(rq);
    if (op < 0)
        return 0;
    long slot = slot_of(rq);
    struct issue_slot *s = NULL;
    __u64 *stamp = NULL;
    if (slot >= 0) {
        __u32 key = (__u32)slot;
        s = bpf_map_lookup_elem(&issued, &key);
        stamp = bpf_map_lookup_elem(&inserted, &key);
    }
    /* Issued before the program was loaded, or without a slot. */
    if (!s || !stamp || s->rq != (__u64)rq || !s->issue_ns) {
        __sync_fetch_and_add(&untracked, 1);
        return 0;
    }
    __u64 issue_ns = s->issue_ns;
    s->issue_ns = 0;
    __u64 insert_ns = *stamp;
    if (insert_ns)
        *stamp = 0;
    __u64 now = bpf_ktime_get_ns();
    __u64 queued_from = has_io_stat(rq) ? rq->start_time_ns : insert_ns;
    __u64 queue_ns = queued_from && queued_from < issue_ns ? issue_ns - queued_from : 0;
    __u64 device_ns = now > issue_ns ? now - issue_ns : 0;

    struct block_device *part = rq->part;
    struct gendisk *disk = rq->q->disk;
    if (part) {
        account(part->bd_dev, op, queue_ns, device_ns);
        /* diskstats counts a partition's requests for its disk too. */
        if (disk && disk->part0 && disk->part0 != part)
            account(disk->part0->bd_dev, op, queue_ns, device_ns);
    } else if (disk) {
        account(((__u32)disk->major << 20) | (__u32)disk->first_minor, op, queue_ns, device_ns);
    }
    return 0;
}

/* Where the block layer accounts the completion in diskstats (6.5+), after
 * the bios' end_io callbacks (waking the reader) ran: measured here, those
 * take 2-12% of a loop device's 4 KiB read. The loader uses this one where
 * the kernel has it, block_rq_complete otherwise. */
SEC("tp_btf/block_io_done")
int BPF_PROG(on_io_done, struct request *rq)
{
    return finish(rq);
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(on_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
    /* A partial completion leaves the rest in flight: wait for the last. */
    if (nr_bytes < rq->__data_len)
        return 0;
    return finish(rq);
}
