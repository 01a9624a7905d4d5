"""What the kernel decides and how it writes it: sysfs link text, device
names and numbers, the I/O counters, scheduler lines and queue attribute
sets.  Pure functions and constants; no tree is touched here."""

import os

KERNEL_61 = ("Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) "
             "(gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for "
             "Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 "
             "(2024-02-01)\n")
KERNEL_2627 = ("Linux version 2.6.27.12-readahead (root@linux-4dtq) "
               "(gcc version 4.3.2 [gcc-4_3-branch revision 141291] "
               "(SUSE Linux) ) #1 SMP Mon Feb 2 11:42:17 CET 2009\n")
BTIME = 1706780000          # fixed boot time for synthetic trees

# ---------------------------------------------------------------------------
# Paths and symlinks
# ---------------------------------------------------------------------------


def kernel_link(link, target):
    """Relative symlink text exactly as sysfs (kernfs_get_target_path) makes it.

    Both arguments are paths relative to the sysroot.  The kernel climbs from
    the link's directory to the nearest common ancestor of that directory and
    the target's *parent*, then descends to the target, so a link to an
    ancestor reads "../../../0:0:0:0", not os.path.relpath()'s "../..".
    """
    linkdir = os.path.dirname(link)
    base = os.path.commonpath([linkdir, os.path.dirname(target)])
    up = 0 if linkdir == base else linkdir[len(base):].strip("/").count("/") + 1
    down = os.path.relpath(target, base)
    return "../" * up + down


def part_name(disk, n):
    """sda + 1 -> sda1; nvme0n1 + 1 -> nvme0n1p1 (as disk_name() does)."""
    return "%s%s%d" % (disk, "p" if disk[-1].isdigit() else "", n)


SD_MAJORS = [8, 65, 66, 67, 68, 69, 70, 71,
             128, 129, 130, 131, 132, 133, 134, 135]


def sd_name(index):
    """sd_format_disk_name(): 0 -> sda, 25 -> sdz, 26 -> sdaa, 702 -> sdaaa."""
    s = ""
    while True:
        s = chr(ord("a") + index % 26) + s
        index = index // 26 - 1
        if index < 0:
            return "sd" + s


def sd_devt(index):
    """sd_probe(): 16 minors per disk on 16 majors; above 256 disks the
    minor grows past 255 on the same majors (e.g. sdiw is 8:256)."""
    return (SD_MAJORS[(index & 0xF0) >> 4],
            ((index & 0xF) << 4) | (index & 0xFFF00))


def pci_hwirq(bdf, index):
    """hwirq shown by 6.1's global PCI-MSI domain for a device's vector."""
    dom, bus, devfn = bdf.split(":")
    dev, fn = devfn.split(".")
    dev_id = (int(bus, 16) << 8) | (int(dev, 16) << 3) | int(fn, 16)
    return index | (dev_id << 11) | (int(dom, 16) << 27)


def gpt_fill(start, disk_sectors, align=2048):
    """Size of a GPT partition from start to the last usable LBA, aligned."""
    last_usable = disk_sectors - 34
    return (last_usable - start) // align * align


def ata_rev(fw, legacy=False):
    """SCSI 'rev' libata reports for an ATA disk: since 3.x the last four
    firmware characters unless blank, then the first four; 2.6 kernels
    always used the first four."""
    fw = fw.ljust(8)
    if legacy:
        return fw[0:4]
    return fw[0:4] if fw[4:8] == "    " else fw[4:8]


# ---------------------------------------------------------------------------
# I/O statistics
# ---------------------------------------------------------------------------

# The 17 fields of /sys/block/X/stat and /proc/diskstats (after the name).
RD_IOS, RD_MRG, RD_SEC, RD_TCK, WR_IOS, WR_MRG, WR_SEC, WR_TCK, INFLIGHT, \
    IO_TCK, TIQ, DC_IOS, DC_MRG, DC_SEC, DC_TCK, FL_IOS, FL_TCK = range(17)


def mkstat(reads=0, rd_kib=4.0, rd_ms=1.0, rd_mrg=0.0,
           writes=0, wr_kib=4.0, wr_ms=1.0, wr_mrg=0.0,
           discards=0, dc_kib=0.0, dc_ms=0.0,
           flushes=0, fl_ms=0.0, qd=1.0, ticks=True, limit_ms=None):
    """One device's counters from request counts, mean sizes and latencies.

    qd is the mean queue depth while busy: io_ticks = summed latency / qd.
    ticks=False models bio devices that count only I/Os and sectors (md
    before 5.x)."""
    s = [0] * 17
    s[RD_IOS] = int(reads)
    s[RD_MRG] = int(reads * rd_mrg)
    s[RD_SEC] = int(reads * rd_kib * 2) // 8 * 8
    s[WR_IOS] = int(writes)
    s[WR_MRG] = int(writes * wr_mrg)
    s[WR_SEC] = int(writes * wr_kib * 2) // 8 * 8
    s[DC_IOS] = int(discards)
    s[DC_SEC] = int(discards * dc_kib * 2) // 8 * 8
    s[FL_IOS] = int(flushes)
    if ticks:
        s[RD_TCK] = int(reads * rd_ms)
        s[WR_TCK] = int(writes * wr_ms)
        s[DC_TCK] = int(discards * dc_ms)
        s[FL_TCK] = int(flushes * fl_ms)
        s[TIQ] = s[RD_TCK] + s[WR_TCK] + s[DC_TCK] + s[FL_TCK]
        s[IO_TCK] = int(s[TIQ] / max(qd, 1.0))
        if limit_ms is not None:
            s[IO_TCK] = min(s[IO_TCK], limit_ms)
    return s


def sumstat(stats, extra=None, limit_ms=None):
    """Whole-disk counters: the partitions' sums plus I/O to the disk itself.
    io_ticks overlap between partitions, so they are not simply added."""
    out = [0] * 17
    for st in stats + ([extra] if extra else []):
        for i in range(17):
            out[i] += st[i]
    busy = [st[IO_TCK] for st in stats + ([extra] if extra else [])]
    if busy:
        out[IO_TCK] = max(busy) + (sum(busy) - max(busy)) * 7 // 10
    if limit_ms is not None:
        out[IO_TCK] = min(out[IO_TCK], limit_ms)
    return out


def completions(st):
    return st[RD_IOS] + st[WR_IOS] + st[DC_IOS] + st[FL_IOS]


# ---------------------------------------------------------------------------
# Scheduler and queue profiles
# ---------------------------------------------------------------------------

MQ_SCHEDS = ["none", "mq-deadline", "kyber", "bfq"]
LEGACY_SCHEDS = ["noop", "anticipatory", "deadline", "cfq"]


def iosched_tunables(name, nr_requests):
    if name == "mq-deadline":
        return [("async_depth", max(1, 3 * nr_requests // 4)),
                ("fifo_batch", 16), ("front_merges", 1),
                ("prio_aging_expire", 10000), ("read_expire", 500),
                ("write_expire", 5000), ("writes_starved", 2)]
    if name == "bfq":
        return [("back_seek_max", 16384), ("back_seek_penalty", 2),
                ("fifo_expire_async", 250), ("fifo_expire_sync", 125),
                ("low_latency", 1), ("max_budget", 0), ("slice_idle", 8),
                ("slice_idle_us", 8000), ("strict_guarantees", 0),
                ("timeout_sync", 125)]
    if name == "kyber":
        return [("read_lat_nsec", 2000000), ("write_lat_nsec", 10000000)]
    if name == "cfq":               # 2.6.27: no low_latency/group_idle yet
        return [("back_seek_max", 16384), ("back_seek_penalty", 2),
                ("fifo_expire_async", 250), ("fifo_expire_sync", 125),
                ("quantum", 4), ("slice_async", 40), ("slice_async_rq", 2),
                ("slice_idle", 8), ("slice_sync", 100)]
    if name == "deadline":
        return [("fifo_batch", 16), ("front_merges", 1),
                ("read_expire", 500), ("write_expire", 5000),
                ("writes_starved", 2)]
    if name == "anticipatory":
        return [("antic_expire", 6), ("est_time", 0),
                ("read_batch_expire", 500), ("read_expire", 125),
                ("write_batch_expire", 125), ("write_expire", 250)]
    return []                       # none, noop


def sched_line(available, active):
    """queue/scheduler text: 'none [mq-deadline] kyber bfq ' + newline."""
    if available is None:           # bio-based device (md, dm)
        return "none\n"
    return "".join(("[%s] " if s == active else "%s ") % s
                   for s in available) + "\n"


def queue_modern(**over):
    q = dict(add_random=0, chunk_sectors=0, dax=0, discard_granularity=0,
             discard_max_bytes=0, discard_max_hw_bytes=0,
             discard_zeroes_data=0, hw_sector_size=512, iostats=1,
             logical_block_size=512, max_hw_sectors_kb=32767,
             max_sectors_kb=1280, max_segment_size=65536, max_segments=168,
             minimum_io_size=512, nomerges=0, nr_requests=64, nr_zones=0,
             optimal_io_size=0, physical_block_size=512, read_ahead_kb=128,
             rotational=1, rq_affinity=1, wbt_lat_usec=75000,
             write_cache="write back", write_same_max_bytes=0,
             write_zeroes_max_bytes=0, zoned="none")
    q.update(over)
    return q


def queue_legacy(**over):
    # Attribute set kept modern (topology, discard, zoned, dax) so that one
    # reader handles every tree; values are 2.6.27-era.
    q = dict(dax=0, discard_granularity=0, discard_max_bytes=0,
             hw_sector_size=512, logical_block_size=512,
             max_hw_sectors_kb=32767, max_sectors_kb=512,
             minimum_io_size=512, nomerges=0, nr_requests=128,
             optimal_io_size=0, physical_block_size=512, read_ahead_kb=128,
             rotational=1, zoned="none")
    q.update(over)
    return q


