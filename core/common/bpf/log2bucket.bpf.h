/* What the BPF programs share (core/monitor/bpf/blocklatency.bpf.c,
 * core/readahead/bpf/readahead.bpf.c): their histograms' bucket. Included
 * after vmlinux.h and bpf_helpers.h. The readers' side of the buckets is
 * Log2Histogram (core/common/counts.h): bucket i holds [2^i, 2^(i+1)) us. */
#pragma once

/* floor(log2(us)) of a duration in ns: 0 below 2 us, at most `buckets` - 1. */
static __always_inline __u32 log2_us_bucket(__u64 ns, __u32 buckets)
{
    __u64 us = ns / 1000;
    __u32 b = 0;
    if (us >> 32) { us >>= 32; b += 32; }
    if (us >> 16) { us >>= 16; b += 16; }
    if (us >> 8) { us >>= 8; b += 8; }
    if (us >> 4) { us >>= 4; b += 4; }
    if (us >> 2) { us >>= 2; b += 2; }
    if (us >> 1) b += 1;
    return b < buckets - 1 ? b : buckets - 1;
}
