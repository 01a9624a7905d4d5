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
 * fell 11-13% short of diskstats in two runs of four. Where start_time_ns is not stamped (I/O
 * statistics off, no scheduler) queue time runs from block_rq_insert, and is
 * 0 for a request issued without one.
 * Device time: from block_rq_issue to the completion: block_io_done where
 * the kernel has it (6.5+), the moment diskstats accounts the request, else
 * the last block_rq_complete (before the bios' end_io callbacks ran).
 *
 * Counted like diskstats' reads and writes: flushes, discards and
 * passthrough commands are left out. A requeued request's device time runs
 * from its last issue; its first trip to the driver counts as queue time.
 *
 * The licence string is what the kernel asks of programs on BTF raw
 * tracepoints. */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "blocklatency.h"

char LICENSE[] SEC("license") = "GPL";

struct stamps {
    __u64 insert_ns; /* 0: not inserted (or stale) */
    __u64 issue_ns;  /* 0: not issued yet */
};

/* Requests in flight, by address. LRU: a request freed without completing
 * (merged into another after its insert) cannot fill the map for good. */
struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 32768);
    __type(key, __u64);
    __type(value, struct stamps);
} inflight SEC(".maps");

/* Entries appear only for devices that do I/O: not preallocated. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, BLOCKLATENCY_MAX_KEYS);
    __uint(map_flags, BPF_F_NO_PREALLOC);
    __type(key, struct blocklatency_key);
    __type(value, struct blocklatency_value);
} latency SEC(".maps");

/* Completions of requests whose issue the program did not see (in flight
 * when it was loaded, or evicted), and accounts refused by a full map. */
__u64 untracked = 0;
__u64 dropped = 0;

static const struct blocklatency_value zero_value;

/* floor(log2(us)), 0 below 2 us, at most the last bucket. */
static __always_inline __u32 bucket_of(__u64 ns)
{
    __u64 us = ns / 1000;
    __u32 b = 0;
    if (us >> 32) { us >>= 32; b += 32; }
    if (us >> 16) { us >>= 16; b += 16; }
    if (us >> 8) { us >>= 8; b += 8; }
    if (us >> 4) { us >>= 4; b += 4; }
    if (us >> 2) { us >>= 2; b += 2; }
    if (us >> 1) b += 1;
    return b < BLOCKLATENCY_BUCKETS - 1 ? b : BLOCKLATENCY_BUCKETS - 1;
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
    __sync_fetch_and_add(&v->requests, 1);
    __sync_fetch_and_add(&v->queue_ns, queue_ns);
    __sync_fetch_and_add(&v->device_ns, device_ns);
    __sync_fetch_and_add(&v->queue[bucket_of(queue_ns) & (BLOCKLATENCY_BUCKETS - 1)], 1);
    __sync_fetch_and_add(&v->device[bucket_of(device_ns) & (BLOCKLATENCY_BUCKETS - 1)], 1);
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

SEC("tp_btf/block_rq_insert")
int BPF_PROG(on_insert, struct request *rq)
{
    __u64 key = (__u64)rq;
    struct stamps s = {.insert_ns = bpf_ktime_get_ns(), .issue_ns = 0};
    bpf_map_update_elem(&inflight, &key, &s, BPF_ANY);
    return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(on_issue, struct request *rq)
{
    __u64 key = (__u64)rq;
    __u64 now = bpf_ktime_get_ns();
    struct stamps *s = bpf_map_lookup_elem(&inflight, &key);
    if (s) {
        /* An insert older than the request itself belongs to an earlier
         * use of the same struct request (freed by a merge, unseen): a
         * fallback for queue time must not start there. */
        if (s->insert_ns < rq->start_time_ns)
            s->insert_ns = 0;
        s->issue_ns = now;
        return 0;
    }
    struct stamps fresh = {.insert_ns = 0, .issue_ns = now};
    bpf_map_update_elem(&inflight, &key, &fresh, BPF_ANY);
    return 0;
}

/* The request is done: its times go to its device's histograms. */
static __always_inline int finish(struct request *rq)
{
    __u64 key = (__u64)rq;
    struct stamps *s = bpf_map_lookup_elem(&inflight, &key);
    int op = op_of(rq);
    if (!s) {
        /* Issued before the program was loaded, or evicted. */
        if (op >= 0)
            __sync_fetch_and_add(&untracked, 1);
        return 0;
    }
    __u64 insert_ns = s->insert_ns, issue_ns = s->issue_ns;
    bpf_map_delete_elem(&inflight, &key);
    if (op < 0)
        return 0;
    if (!issue_ns) {
        __sync_fetch_and_add(&untracked, 1);
        return 0;
    }
    __u64 now = bpf_ktime_get_ns();
    __u64 queued_from = rq->start_time_ns ? rq->start_time_ns : insert_ns;
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
