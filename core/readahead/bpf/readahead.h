/* The layout the readahead probe (readahead.bpf.c) and its loader
 * (core/readahead/readaheadprobe.cpp) share: plain C, no kernel or Qt types. */
#pragma once

/* Who started a window. The founding thread's table had a row per pattern;
 * these are the ones the kernel's readahead tells apart today. */
enum readahead_kind {
    READAHEAD_SYNC = 0,   /* page_cache_sync_ra: a miss starts or restarts a window */
    READAHEAD_ASYNC = 1,  /* page_cache_async_ra: the reader hit the PG_readahead marker */
    READAHEAD_MMAP = 2,   /* a page fault: read-around, or sync/async from filemap_fault */
    READAHEAD_FORCED = 3, /* page_cache_ra_unbounded outside a window: fadvise WILLNEED, readahead(2) */
};
#define READAHEAD_KINDS 4

#define READAHEAD_WAIT_BUCKETS 32
/* Devices that saw an event: each gets a slot (the map `dev_slots`, dev ->
 * slot) and READAHEAD_KINDS entries of the per-CPU array `counters`
 * (slot * READAHEAD_KINDS + kind), so a page's counters are an array slot,
 * not a hash lookup. The loader sizes the array to the machine's block
 * devices and some room (readaheadSlots() in readaheadprobe.cpp), at most this. */
#define READAHEAD_MAX_DEVICES 4096
/* Distinct window sizes (size, async_size, at the cap) per device and kind. */
#define READAHEAD_MAX_SIZES 16384
/* Pages read ahead and not yet used nor removed are remembered in chunks of
 * READAHEAD_CHUNK_PAGES consecutive pages of one file, one bit a page. A
 * full table leaves further pages untracked (counted as such). */
#define READAHEAD_CHUNK_PAGES 64
#define READAHEAD_MAX_CHUNKS 131072
/* Files (inodes) whose last reader the interleaving check remembers. */
#define READAHEAD_MAX_FILES 16384

/* Since the program was loaded, per CPU (the reader adds them up). */
struct readahead_value {
    unsigned long long windows;      /* windows this kind started */
    unsigned long long miss_windows; /* of them started by a miss (the founding table's sync_count) */
    unsigned long long pages;        /* pages read ahead */
    unsigned long long used;         /* of them read (read(2), splice) or mapped (mmap) */
    unsigned long long wasted;       /* of them removed from the page cache unused */
    unsigned long long untracked;    /* of them not followed: the chunk table was full */
    unsigned long long interleaved;  /* sync windows of a stream other descriptors read nearby */
    /* Used pages by how long they waited in the cache before their first
     * use: bucket i [2^i, 2^(i+1)) us, bucket 0 also below 1 us, the last
     * also everything longer. */
    unsigned long long wait[READAHEAD_WAIT_BUCKETS];
};

/* Windows by their size: one key per device, kind, size and async_size in
 * pages, and whether the size reached the descriptor's ra_pages (at the
 * cap). One map update a window sized (the window program's only one when
 * its start counted it already). */
struct readahead_size_key {
    unsigned int dev;
    unsigned short kind;
    unsigned short at_cap; /* 1: size >= the descriptor's ra_pages */
    unsigned int pages;       /* the window's size */
    unsigned int async_pages; /* its async_size */
};

/* The sizes a CPU sees most are counted in a small per-CPU array first
 * (the map size_cache): an entry is taken by the first key that lands on it
 * and keeps it; a key whose entry another holds goes to the hash `sizes`.
 * A count is thus in one place only; the reader adds both. */
#define READAHEAD_SIZE_CACHE 64
struct readahead_size_slot {
    struct readahead_size_key key;
    unsigned long long windows; /* 0: the entry is free */
};
