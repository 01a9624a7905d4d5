/* The layout the BPF program (blocklatency.bpf.c) and its loader
 * (core/monitor/latencyprobe.cpp) share: plain C, no kernel or Qt types. */
#pragma once

#define BLOCKLATENCY_BUCKETS 32
/* Keys of the latency map: one per device and direction that saw a
 * request (a partition's requests count for it and for its disk). */
#define BLOCKLATENCY_MAX_KEYS 16384
/* Slots for requests in flight, shared out among the tag sets that do I/O
 * (a loop device: 128 driver tags, 256 more under a scheduler), and how
 * many tag sets can hold a range at once. */
#define BLOCKLATENCY_SLOTS 131072
#define BLOCKLATENCY_REGIONS 4096

enum blocklatency_op {
    BLOCKLATENCY_READ = 0,
    BLOCKLATENCY_WRITE = 1,
};

struct blocklatency_key {
    unsigned int dev; /* the kernel's dev_t: major << 20 | minor */
    unsigned int op;  /* enum blocklatency_op */
};

/* Since the program was loaded, per CPU (the reader adds them up). Bucket i: [2^i, 2^(i+1)) us, bucket 0 also
 * below 1 us, the last bucket also everything longer. */
struct blocklatency_value {
    unsigned long long requests;
    unsigned long long queue_ns;  /* exact sums, for the mean */
    unsigned long long device_ns;
    unsigned long long queue[BLOCKLATENCY_BUCKETS];
    unsigned long long device[BLOCKLATENCY_BUCKETS];
};
