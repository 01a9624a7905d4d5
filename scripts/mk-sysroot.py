#!/usr/bin/env python3
"""Make sysfs/procfs trees ("sysroots") for blocktune's tests and benchmarks.

A sysroot is a directory DIR holding DIR/sys and DIR/proc laid out as the
kernel lays them out (real device directories under sys/devices, the
sys/block, sys/class/block and sys/dev/block symlinks, relative symlinks for
holders/, slaves/ and device, /proc/diskstats, mdstat, stat, interrupts...),
so that blocktune's --sysroot option and `lsblk --sysroot DIR` can read it.

Subcommands:
  capture OUTDIR           record this machine's block devices (reads only)
  fixture NAME OUTDIR      build one of the synthetic named trees
  synth OUTDIR             build a large synthetic tree (benchmarks)
  all                      regenerate the committed trees in tests/data/sysroot

Only the Python standard library is used.  Synthetic output is
deterministic: the same command always writes byte-identical trees.
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE_DIR = os.path.join(REPO, "tests", "data", "sysroot")

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


def md_stripe_kib(level, chunk_kib, n, layout=0):
    """Full-stripe size (KiB) the md personality reports as io_opt."""
    if level == "raid0":
        return chunk_kib * n
    if level == "raid10":
        return chunk_kib * n // max(layout & 0xFF, 1)
    if level in ("raid4", "raid5"):
        return chunk_kib * (n - 1)
    if level == "raid6":
        return chunk_kib * (n - 2)
    return 0


# ---------------------------------------------------------------------------
# Tree model
# ---------------------------------------------------------------------------


class BlockDev:
    def __init__(self, name, path, major, minor, size, kind, minors=0):
        self.name, self.path = name, path
        self.major, self.minor, self.size = major, minor, size
        self.kind = kind            # sd nvme virtio md dm loop part
        self.minors = minors        # classic minors reserved (sd: 16)
        self.parent = None          # disk of a partition
        self.partno = None
        self.start = None
        self.parts = []
        self.holders, self.slaves = [], []
        self.stat = [0] * 17
        self.inflight = (0, 0)
        self.ro = 0
        self.removable = 0
        self.queue = None           # dict of queue/ attributes
        self.scheds = None          # available schedulers, None = bio based
        self.active = "none"
        self.device = None          # target dir of the 'device' link
        self.extra = {}             # extra files relative to the device dir
        self.diskseq = None
        self.partname = None

    @property
    def is_part(self):
        return self.parent is not None


class Irq:
    def __init__(self, num, action, counts, chip, hwirq=None, flow="edge"):
        self.num, self.action, self.counts = num, action, counts
        self.chip, self.hwirq, self.flow = chip, hwirq, flow


class Tree:
    def __init__(self, version, ncpu, uptime_s, seed, legacy=False):
        self.version = version
        self.legacy = legacy
        self.ncpu = ncpu
        self.uptime_s = uptime_s
        self.rng = random.Random(seed)
        self.files = {}             # path -> bytes
        self.links = {}             # path -> target path (sysroot relative)
        self.dirs = set()           # directories that must exist (empty ok)
        self.devs = []              # registration order = diskstats order
        self.byname = {}
        self.irqs = {}
        self.arch_irqs = []         # (name, counts or total, description)
        self.blkext_minor = 0
        self.next_diskseq = 1
        self.mdstat = None
        self.proc_extra = {}

    @property
    def uptime_ms(self):
        return self.uptime_s * 1000

    # -- raw content -------------------------------------------------------
    def put(self, path, value):
        if isinstance(value, bytes):
            self.files[path] = value
        else:
            s = str(value)
            self.files[path] = (s if s.endswith("\n") else s + "\n").encode()

    def put_raw(self, path, text):
        self.files[path] = text.encode() if isinstance(text, str) else text

    def link(self, path, target):
        self.links[path] = target

    def mkdir(self, path):
        self.dirs.add(path)

    # -- hardware ----------------------------------------------------------
    def subsys(self, devdir, kind, name):
        """devdir/subsystem link plus the bus or class entry pointing back,
        e.g. ('bus', 'pci') -> sys/bus/pci/devices/<name>."""
        if kind == "bus":
            self.link(devdir + "/subsystem", "sys/bus/" + name)
            self.link("sys/bus/%s/devices/%s" % (name, os.path.basename(devdir)),
                      devdir)
        else:
            self.link(devdir + "/subsystem", "sys/class/" + name)
            self.link("sys/class/%s/%s" % (name, os.path.basename(devdir)),
                      devdir)

    def pci(self, path, vendor, device, cls, irqs=(), msi="msi",
            legacy_irq=16):
        """A PCI function directory with its MSI/MSI-X vectors in msi_irqs/."""
        d = "sys/devices/" + path
        self.put(d + "/vendor", "0x%04x" % vendor)
        self.put(d + "/device", "0x%04x" % device)
        self.put(d + "/class", "0x%06x" % cls)
        self.put(d + "/irq", irqs[0] if (irqs and msi == "msi") else legacy_irq)
        self.put(d + "/numa_node", -1)
        for n in irqs:
            self.put("%s/msi_irqs/%d" % (d, n), msi)
        self.subsys(d, "bus", "pci")
        return d

    def irq(self, num, action, total, chip, hwirq=None, flow="edge",
            cpus=None):
        """An interrupt row; total is spread over cpus {cpu: weight}."""
        cpus = cpus or {0: 1.0}
        wsum = sum(cpus.values())
        counts = [0] * self.ncpu
        left = int(total)
        items = sorted(cpus.items())
        for i, (cpu, w) in enumerate(items):
            c = left if i == len(items) - 1 else int(total * w / wsum)
            counts[cpu] += c
            left -= c
        self.irqs[num] = Irq(num, action, counts, chip, hwirq, flow)

    # -- block devices -----------------------------------------------------
    def _register(self, dev):
        if dev.name in self.byname:
            raise ValueError("duplicate device " + dev.name)
        self.devs.append(dev)
        self.byname[dev.name] = dev
        return dev

    def blkext(self):
        m = self.blkext_minor
        self.blkext_minor += 1
        return 259, m

    def disk(self, name, path, devt, size, kind, queue, scheds, active,
             device=None, minors=0):
        dev = BlockDev(name, path, devt[0], devt[1], size, kind, minors)
        dev.queue, dev.scheds, dev.active = queue, scheds, active
        dev.device = device
        if not self.legacy:
            dev.diskseq = self.next_diskseq
            self.next_diskseq += 1
        return self._register(dev)

    def partition(self, disk, n, start, size, partname=None):
        if n < disk.minors:
            devt = (disk.major, disk.minor + n)
        else:
            devt = self.blkext()
        name = part_name(disk.name, n)
        dev = BlockDev(name, disk.path + "/" + name, devt[0], devt[1], size,
                       "part")
        dev.parent, dev.partno, dev.start = disk, n, start
        dev.partname = partname
        disk.parts.append(dev)
        # partitions follow their disk in diskstats/partitions order
        idx = self.devs.index(disk) + len(disk.parts)
        if dev.name in self.byname:
            raise ValueError("duplicate device " + name)
        self.devs.insert(idx, dev)
        self.byname[name] = dev
        return dev

    def stack(self, holder, slave):
        holder.slaves.append(slave)
        slave.holders.append(holder)

    def scsi_device(self, host_path, hctl, vendor, model, rev, wwid,
                    serial=None, queue_depth=32, proc_name="ahci",
                    can_queue=32, sas=False):
        """The SCSI device directory (sys/devices/.../hostH/targetH:C:T/H:C:T:L)
        with its Scsi_Host (scsi_host/hostH/proc_name, which lsblk's TRAN
        column reads) and the scsi bus links."""
        h, c, t, l = hctl
        host = "%s/host%d" % (host_path, h)
        tgt = "%s/target%d:%d:%d" % (host, h, c, t)
        d = "%s/%d:%d:%d:%d" % (tgt, h, c, t, l)
        if host + "/subsystem" not in self.links:
            sh = host + "/scsi_host/host%d" % h
            self.put(sh + "/proc_name", proc_name)
            self.put(sh + "/can_queue", can_queue)
            self.put(sh + "/state", "running")
            if proc_name == "ahci":
                self.put(sh + "/link_power_management_policy",
                         "max_performance")
            self.subsys(sh, "class", "scsi_host")
            if sas:
                self.put(host + "/sas_host/host%d/uevent" % h, "")
                self.link("sys/class/sas_host/host%d" % h,
                          host + "/sas_host/host%d" % h)
            self.subsys(host, "bus", "scsi")
        if tgt + "/subsystem" not in self.links:
            self.subsys(tgt, "bus", "scsi")
        self.subsys(d, "bus", "scsi")
        self.put(d + "/vendor", vendor[:8].ljust(8))
        self.put(d + "/model", model[:16].ljust(16))
        self.put(d + "/rev", rev[:4].ljust(4))
        self.put(d + "/type", 0)
        self.put(d + "/scsi_level", 6)
        self.put(d + "/state", "running")
        self.put(d + "/queue_depth", queue_depth)
        self.put(d + "/timeout", 30)
        self.put(d + "/device_blocked", 0)
        if wwid:
            self.put(d + "/wwid", wwid)
        if serial is not None:
            # VPD page 0x80 (unit serial number), binary, as the kernel
            # exposes it.
            sn = serial.encode()
            self.put(d + "/vpd_pg80", bytes([0, 0x80, 0, len(sn)]) + sn)
        if wwid and wwid.startswith("naa."):
            naa = bytes.fromhex(wwid[4:])
            desig = bytes([0x01, 0x03, 0x00, len(naa)]) + naa
            self.put(d + "/vpd_pg83", bytes([0, 0x83, 0, len(desig)]) + desig)
        return d

    def ata_disk(self, ctrl_path, ata, host, index, model, fw, serial, wwn,
                 sectors, queue, scheds, active):
        """A SATA disk behind libata: ataN/hostH/targetH:0:0/H:0:0:0/block/sdX."""
        name = sd_name(index)
        host_path = "sys/devices/%s/ata%d" % (ctrl_path, ata)
        sdev = self.scsi_device(host_path, (host, 0, 0, 0), "ATA", model,
                                ata_rev(fw, self.legacy), wwn and "naa." + wwn,
                                serial.rjust(20))
        return self.disk(name, sdev + "/block/" + name, sd_devt(index),
                         sectors, "sd", queue, scheds, active, device=sdev,
                         minors=16)

    def md(self, name, minor, level, members, chunk_kib, layout, metadata,
           component_kib, array_kib, uuid, queue, states=None,
           degraded=0, extra_md=None, data_offset=0):
        """An md array over member BlockDevs (desc_nr = list position)."""
        path = "sys/devices/virtual/block/" + name
        dev = self.disk(name, path, (9, minor), array_kib * 2, "md", queue,
                        None, "none")
        md = path + "/md/"
        raid_disks = len(members)
        self.put(md + "level", level)
        self.put(md + "raid_disks", raid_disks)
        self.put(md + "chunk_size", chunk_kib * 1024)
        self.put(md + "layout", layout)
        self.put(md + "array_state", "clean")
        self.put(md + "component_size", component_kib)
        self.put(md + "metadata_version", metadata)
        self.put(md + "safe_mode_delay", "0.204" if not self.legacy else
                 "0.201")
        if not self.legacy:
            self.put(md + "uuid", uuid)
            self.put(md + "array_size", "default")
            self.put(md + "resync_start", "none")
            self.put(md + "reshape_position", "none")
            self.put(md + "consistency_policy",
                     "bitmap" if level != "raid0" else "none")
        if level not in ("raid0", "linear"):
            # redundancy attributes exist only for personalities that resync
            self.put(md + "degraded", degraded)
            self.put(md + "sync_action", "idle")
            self.put(md + "mismatch_cnt", 0)
            self.put(md + "sync_speed_min", "1000 (system)")
            self.put(md + "sync_speed_max", "200000 (system)")
            self.put(md + "sync_completed", "none")
        for k, v in (extra_md or {}).items():
            self.put(md + k, v)
        states = states or {}
        for desc, m in enumerate(members):
            st = states.get(m.name, "in_sync")
            rd = md + "dev-" + m.name
            self.link(rd + "/block", m.path)
            self.put(rd + "/state", st)
            slot = "none" if "faulty" in st else desc
            self.put(rd + "/slot", slot)
            self.put(rd + "/errors", 0)
            self.put(rd + "/offset", data_offset)
            self.put(rd + "/size", component_kib)
            if slot != "none":
                self.link(md + "rd%d" % desc, rd)
            self.stack(dev, m)
        return dev

    def dm(self, name, minor, dm_name, uuid, size, slaves, queue):
        path = "sys/devices/virtual/block/" + name
        dev = self.disk(name, path, (253, minor), size, "dm", queue, None,
                        "none")
        self.put(path + "/dm/name", dm_name)
        self.put(path + "/dm/uuid", uuid)
        self.put(path + "/dm/suspended", 0)
        if not self.legacy:
            self.put(path + "/dm/use_blk_mq", 0)
        for s in slaves:
            self.stack(dev, s)
        return dev

    # -- output ------------------------------------------------------------
    def finalize(self):
        for dev in self.devs:
            self._emit_dev(dev)
        self._emit_proc()

    def _emit_dev(self, dev):
        p = dev.path
        put = self.put
        put(p + "/dev", "%d:%d" % (dev.major, dev.minor))
        put(p + "/size", dev.size)
        put(p + "/ro", dev.ro)
        put(p + "/stat", " ".join("%8d" % v for v in dev.stat))
        put(p + "/inflight", "%8d %8d" % dev.inflight)
        put(p + "/alignment_offset", 0)
        put(p + "/discard_alignment", 0)
        uev = "MAJOR=%d\nMINOR=%d\nDEVNAME=%s\nDEVTYPE=%s\n" % (
            dev.major, dev.minor, dev.name,
            "partition" if dev.is_part else "disk")
        if dev.is_part:
            uev += "PARTN=%d\n" % dev.partno
            if dev.partname:
                uev += "PARTNAME=%s\n" % dev.partname
            put(p + "/partition", dev.partno)
            put(p + "/start", dev.start)
        else:
            if dev.diskseq is not None:
                uev += "DISKSEQ=%d\n" % dev.diskseq
                put(p + "/diskseq", dev.diskseq)
                put(p + "/hidden", 0)
            put(p + "/removable", dev.removable)
            self._emit_queue(dev)
            if dev.device:
                self.link(p + "/device", dev.device)
            self.link("sys/block/" + dev.name, p)
        put(p + "/uevent", uev)
        for k, v in dev.extra.items():
            put(p + "/" + k, v)
        self.link("sys/class/block/" + dev.name, p)
        self.link("sys/dev/block/%d:%d" % (dev.major, dev.minor), p)
        self.link(p + "/subsystem", "sys/class/block")
        self.mkdir(p + "/holders")
        self.mkdir(p + "/slaves")
        for h in dev.holders:
            self.link(p + "/holders/" + h.name, h.path)
        for s in dev.slaves:
            self.link(p + "/slaves/" + s.name, s.path)

    def _emit_queue(self, dev):
        q = dev.path + "/queue/"
        for k, v in sorted(dev.queue.items()):
            self.put(q + k, v)
        self.put_raw(q + "scheduler", sched_line(dev.scheds, dev.active))
        if dev.scheds is not None:
            tun = iosched_tunables(dev.active, dev.queue["nr_requests"])
            for k, v in tun:
                self.put(q + "iosched/" + k, v)
        if dev.scheds is not None and not self.legacy:
            nq = dev.extra.pop("_hw_queues", 1)
            depth = dev.queue["nr_requests"]
            for i in range(nq):
                cpus = [c for c in range(self.ncpu) if c % nq == i]
                m = "%s/mq/%d/" % (dev.path, i)
                self.put(m + "cpu_list", ", ".join(str(c) for c in cpus))
                self.put(m + "nr_tags", depth)
                self.put(m + "nr_reserved_tags", 0)

    def _emit_proc(self):
        # /proc/diskstats: every device, partitions after their disk
        self.put_raw("proc/diskstats", "".join(
            "%4d %7d %s %s\n" % (d.major, d.minor, d.name,
                                 " ".join(str(v) for v in d.stat))
            for d in self.devs))
        # /proc/partitions: devices with a capacity
        lines = ["major minor  #blocks  name\n", "\n"]
        for d in self.devs:
            if d.size:
                lines.append("%4d  %7d %10d %s\n" % (d.major, d.minor,
                                                     d.size // 2, d.name))
        self.put_raw("proc/partitions", "".join(lines))
        self.put_raw("proc/version", self.version)
        self.put_raw("proc/self/mountinfo", "")
        self.put_raw("proc/uptime", "%d.%02d %d.%02d\n" % (
            self.uptime_s, 37, self.uptime_s * self.ncpu * 9 // 10, 12))
        if self.mdstat is not None:
            self.put_raw("proc/mdstat", self.mdstat)
        self._emit_interrupts()
        for k, v in self.proc_extra.items():
            self.put_raw(k, v)

    def _emit_interrupts(self):
        nr_irqs = max([256] + [n + 1 for n in self.irqs])
        prec = 3
        j = 1000
        while prec < 10 and j <= nr_irqs:
            prec += 1
            j *= 10
        out = [" " * (prec + 8) + "".join("CPU%-8d" % c
                                          for c in range(self.ncpu)) + "\n"]
        for n in sorted(self.irqs):
            q = self.irqs[n]
            row = "%*d: " % (prec, n) + "".join("%10d " % c for c in q.counts)
            if self.legacy:
                row += " %8s-%-8s  %s" % (q.chip, q.flow, q.action)
            else:
                hw = (" %*d" % (prec, q.hwirq) if q.hwirq is not None
                      else " " * (prec + 1))
                row += " %8s%s-%-8s  %s" % (q.chip, hw, q.flow, q.action)
            out.append(row + "\n")
        arch_total = 0
        for name, counts, desc in self.arch_irqs:
            if isinstance(counts, int):
                out.append("%*s: %10d\n" % (prec, name, counts))
                arch_total += counts
            else:
                out.append("%*s: " % (prec, name) +
                           "".join("%10d " % c for c in counts) +
                           "  " + desc + "\n")
                arch_total += sum(counts)
        self.put_raw("proc/interrupts", "".join(out))

        # /proc/stat
        per_irq = [0] * nr_irqs
        for n, q in self.irqs.items():
            per_irq[n] = sum(q.counts)
        total = sum(per_irq) + arch_total
        rng = random.Random(self.uptime_s)
        hz = 100
        cpus = []
        for c in range(self.ncpu):
            tot = self.uptime_s * hz
            user = int(tot * (0.04 + rng.random() * 0.03))
            nice = int(tot * 0.001 * rng.random())
            system = int(tot * (0.02 + rng.random() * 0.02))
            iowait = int(tot * (0.01 + rng.random() * 0.04))
            irq = int(tot * 0.001 * rng.random())
            softirq = int(tot * 0.004 * rng.random())
            idle = tot - user - nice - system - iowait - irq - softirq
            vals = [user, nice, system, idle, iowait, irq, softirq, 0, 0, 0]
            cpus.append(vals[:9] if self.legacy else vals)
        agg = [sum(col) for col in zip(*cpus)]
        st = ["cpu  " + " ".join(str(v) for v in agg) + "\n"]
        for c, vals in enumerate(cpus):
            st.append("cpu%d " % c + " ".join(str(v) for v in vals) + "\n")
        st.append("intr %d %s\n" % (total, " ".join(str(v) for v in per_irq)))
        st.append("ctxt %d\n" % (self.uptime_s * self.ncpu * 1900 + 12345))
        st.append("btime %d\n" % (BTIME if not self.legacy else 1233571200))
        st.append("processes %d\n" % (self.uptime_s // 3 + 1500))
        st.append("procs_running 1\nprocs_blocked 0\n")
        if not self.legacy:
            blk = sum(per_irq) // 3
            parts = [0, self.uptime_s * self.ncpu * 250, 17, 310000, blk,
                     0, 12, self.uptime_s * self.ncpu * 40,
                     self.uptime_s * 3, self.uptime_s * self.ncpu * 180]
            st.append("softirq %d %s\n" % (sum(parts),
                                            " ".join(str(v) for v in parts)))
        self.put_raw("proc/stat", "".join(st))

    def arch_rows(self):
        """Architecture rows of /proc/interrupts (x86), deterministic."""
        rng = random.Random(self.uptime_s * 7 + self.ncpu)
        u, n = self.uptime_s, self.ncpu
        def per(rate):
            return [int(u * rate * (0.7 + 0.6 * rng.random())) for _ in range(n)]
        rows = [("NMI", per(0.01), "Non-maskable interrupts"),
                ("LOC", per(250), "Local timer interrupts"),
                ("SPU", [0] * n, "Spurious interrupts"),
                ("PMI", per(0.01), "Performance monitoring interrupts"),
                ("IWI", per(0.5), "IRQ work interrupts"),
                ("RES", per(40), "Rescheduling interrupts"),
                ("CAL", per(20), "Function call interrupts"),
                ("TLB", per(5), "TLB shootdowns"),
                ("TRM", [0] * n, "Thermal event interrupts"),
                ("ERR", 0, ""), ("MIS", 0, "")]
        if self.legacy:
            rows = [r for r in rows if r[0] not in ("PMI", "IWI")]
        self.arch_irqs = rows

    # -- writing -------------------------------------------------------------
    def write(self, outdir):
        prepare_outdir(outdir)
        made = set()

        def mk(d):
            if d not in made:
                os.makedirs(d, exist_ok=True)
                made.add(d)
        for path in sorted(self.dirs):
            mk(os.path.join(outdir, path))
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC
        prefix = outdir.rstrip("/") + "/"
        for path, data in self.files.items():
            full = prefix + path
            mk(full.rpartition("/")[0])
            fd = os.open(full, flags, 0o644)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
        for path, target in self.links.items():
            full = prefix + path
            mk(full.rpartition("/")[0])
            os.symlink(kernel_link(path, target), full)


def prepare_outdir(outdir):
    """Empty OUTDIR for a new tree, refusing to delete anything that is not
    a sysroot (only sys/ and proc/ may be present)."""
    if os.path.lexists(outdir):
        if not os.path.isdir(outdir) or os.path.islink(outdir):
            sys.exit("mk-sysroot: %s exists and is not a directory" % outdir)
        entries = set(os.listdir(outdir))
        if entries - {"sys", "proc"}:
            sys.exit("mk-sysroot: refusing to overwrite %s: it holds more "
                     "than sys/ and proc/ (%s)"
                     % (outdir, ", ".join(sorted(entries - {"sys", "proc"}))))
        for e in entries:
            shutil.rmtree(os.path.join(outdir, e))
    os.makedirs(outdir, exist_ok=True)


def ahci_disks_irq(t, irq, action, hwirq, disks, chip, cpus, factor=0.8):
    total = int(sum(completions(d.stat) for d in disks) * factor)
    t.irq(irq, action, total, chip, hwirq, "edge", cpus)


def lvm_uuid(rng):
    chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    return "".join(rng.choice(chars) for _ in range(32))


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uuid4(rng):
    """A random (version 4) UUID as libuuid makes them for LUKS."""
    h = list(hexid(rng, 32))
    h[12] = "4"
    h[16] = "89ab"[int(h[16], 16) & 3]
    return dashed_uuid("".join(h))


def dashed_uuid(h):
    return "%s-%s-%s-%s-%s" % (h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])


# ---------------------------------------------------------------------------
# Fixture: scst-raid0-lvm  (2.6.27 SCST target, md raid0 + LVM, cfq)
# ---------------------------------------------------------------------------


def build_scst():
    t = Tree(KERNEL_2627, ncpu=2, uptime_s=6840, seed=2009, legacy=True)
    rng = t.rng
    ctrl = "pci0000:00/0000:00:1f.2"      # ICH10R AHCI
    ahci_irq = 218
    t.pci(ctrl, 0x8086, 0x3a22, 0x010601, [ahci_irq], "msi")
    sched = (LEGACY_SCHEDS, "cfq")
    disks = []
    specs = [  # index, model, fw, serial, wwn, sectors, readahead, ctx_ra
        (0, "ST3160815AS", "3.AAD", "9RA1QW3E", "5000c5000b1a2c3d",
         312581808, 128, 0),
        (1, "ST3250310AS", "3.AAC", "6RY1K2XA", "5000c5000c7e8f01",
         488397168, 512, 1),
        (2, "ST3250310AS", "3.AAC", "6RY1K31P", "5000c5000c7e9a44",
         488397168, 512, 1)]
    for idx, model, fw, serial, wwn, sectors, ra, ctx in specs:
        q = queue_legacy(read_ahead_kb=ra)
        d = t.ata_disk(ctrl, idx + 1, idx, idx, model, fw, serial, wwn,
                       sectors, q, *sched)
        # Wu Fengguang's out-of-tree context readahead switch (off by default)
        d.queue["context_readahead"] = ctx
        disks.append(d)
    sda, sdb, sdc = disks
    # msdos labels, cylinder aligned (255 heads x 63 sectors = 16065)
    cyl = 16065
    sda1 = t.partition(sda, 1, 63, 208782)
    sda2 = t.partition(sda, 2, 208845, sda.size // cyl * cyl - 208845)
    sdb1 = t.partition(sdb, 1, 63, sdb.size // cyl * cyl - 63)
    sdc1 = t.partition(sdc, 1, 63, sdc.size // cyl * cyl - 63)

    # md0: raid0, 0.90 superblock (64 KiB reserved at the end), 64K chunk
    chunk = 64
    comp = ((sdb1.size & ~127) - 128) // (chunk * 2) * (chunk * 2)
    comp_kib = comp // 2
    array_kib = comp_kib * 2
    stripe = md_stripe_kib("raid0", chunk, 2)
    mdq = queue_legacy(read_ahead_kb=max(128, 2 * stripe),
                       max_sectors_kb=chunk, max_hw_sectors_kb=chunk,
                       minimum_io_size=chunk * 1024,
                       optimal_io_size=stripe * 1024)
    md0 = t.md("md0", 0, "raid0", [sdb1, sdc1], chunk, 0, "0.90", comp_kib,
               array_kib, None, mdq)
    t.mdstat = ("Personalities : [raid0] \n"
                "md0 : active raid0 sdc1[1] sdb1[0]\n"
                "      %d blocks %dk chunks\n"
                "      \n"
                "unused devices: <none>\n" % (array_kib, chunk))

    # LVM: VG vg_scst on md0, 4 MiB extents, pe_start 384 sectors;
    # lun0 = first 10 %, lun2 = last 10 %, lun1 the middle (as in the thread)
    ext = 8192
    extents = (md0.size - 384) // ext
    lun_ext = [extents // 10, extents - 2 * (extents // 10), extents // 10]
    vg = lvm_uuid(rng)
    luns = []
    for i, e in enumerate(lun_ext):
        dq = dict(mdq)
        luns.append(t.dm("dm-%d" % i, i, "vg_scst-lun%d" % i,
                         "LVM-" + vg + lvm_uuid(rng), e * ext, [md0], dq))

    # --- statistics: the iSCSI initiator streams lun0 and lun2 ----------
    lim = t.uptime_ms
    luns[0].stat = mkstat(reads=196608, rd_kib=256, rd_ms=9.4,
                          writes=14, wr_kib=4, wr_ms=3.1, limit_ms=lim)
    luns[1].stat = mkstat(reads=8192, rd_kib=64, rd_ms=7.2,
                          writes=22, wr_kib=4, wr_ms=2.8, limit_ms=lim)
    luns[2].stat = mkstat(reads=147456, rd_kib=256, rd_ms=6.1,
                          writes=9, wr_kib=4, wr_ms=2.6, limit_ms=lim)
    r = sum(l.stat[RD_IOS] for l in luns)
    rs = sum(l.stat[RD_SEC] for l in luns)
    w = sum(l.stat[WR_IOS] for l in luns)
    ws = sum(l.stat[WR_SEC] for l in luns)
    md0.stat = [0] * 17          # 2.6.27 md counts I/Os and sectors only
    md0.stat[RD_IOS], md0.stat[RD_SEC] = r, rs
    md0.stat[WR_IOS], md0.stat[WR_SEC] = w, ws
    # raid0 splits each 256K read at 64K chunks; the two pieces per member
    # are adjacent on the member and merge in the elevator.
    for m, skew, lat in ((sdb1, 1.004, 5.9), (sdc1, 0.996, 7.7)):
        mr = int(r * 1.05 * skew)
        m.stat = mkstat(reads=mr, rd_kib=rs / 2 / 2 / mr, rd_ms=lat,
                        rd_mrg=0.93, writes=w + 40, wr_kib=4, wr_ms=4.0,
                        limit_ms=lim)
    sda1.stat = mkstat(reads=310, rd_kib=4.1, rd_ms=6.0, writes=2,
                       wr_kib=4, wr_ms=5.0, limit_ms=lim)
    sda2.stat = mkstat(reads=18211, rd_kib=30.7, rd_ms=8.3, rd_mrg=0.4,
                       writes=9104, wr_kib=22.1, wr_ms=41.0, wr_mrg=2.6,
                       qd=2.0, limit_ms=lim)
    boot = mkstat(reads=31, rd_kib=3.9, rd_ms=4.0)
    sda.stat = sumstat([sda1.stat, sda2.stat], boot, lim)
    sdb.stat = sumstat([sdb1.stat], boot, lim)
    sdc.stat = sumstat([sdc1.stat], boot, lim)

    # --- interrupts (2.6.27 x86_64 style rows) ---------------------------
    t.irq(0, "timer", 133, "IO-APIC")
    t.irq(1, "i8042", 10, "IO-APIC")
    t.irq(8, "rtc0", 1, "IO-APIC")
    t.irq(9, "acpi", 0, "IO-APIC", flow="fasteoi")
    t.irq(12, "i8042", 130, "IO-APIC")
    t.irq(16, "uhci_hcd:usb3", 0, "IO-APIC", flow="fasteoi")
    ahci_disks_irq(t, ahci_irq, "ahci", None, disks, "PCI-MSI",
                   {0: 0.7, 1: 0.3}, factor=0.86)
    t.pci("pci0000:00/0000:00:1c.0/0000:02:00.0", 0x8086, 0x10d3, 0x020000,
          [219], "msi")
    t.irq(219, "eth0", 14812345, "PCI-MSI", cpus={0: 0.2, 1: 0.8})
    t.arch_rows()
    return t


# ---------------------------------------------------------------------------
# Fixture: md-raid10-f2  (8 x 2 TB SATA, raid10 far-2, chunk 512K)
# ---------------------------------------------------------------------------

MODERN_SCHEDS = MQ_SCHEDS


def sata_hdd_queue(**over):
    return queue_modern(add_random=1, **over)


def sata_ssd_queue(**over):
    q = dict(rotational=0, discard_granularity=512,
             discard_max_bytes=2147450880, discard_max_hw_bytes=2147450880,
             physical_block_size=512, minimum_io_size=512)
    q.update(over)
    return queue_modern(**q)


def build_raid10():
    t = Tree(KERNEL_61, ncpu=8, uptime_s=172800, seed=4004)
    lim = t.uptime_ms
    rng = t.rng
    ahci0 = "pci0000:00/0000:00:1f.2"                 # Intel C600 AHCI
    ahci1 = "pci0000:00/0000:00:1c.0/0000:05:00.0"    # Marvell 88SE9230
    t.pci(ahci0, 0x8086, 0x1d02, 0x010601, [34], "msi")
    t.pci(ahci1, 0x1b4b, 0x9230, 0x010601, [35], "msi")
    sda = t.ata_disk(ahci0, 1, 0, 0, "Samsung SSD 870 EVO 500GB", "SVT02B6Q",
                     "S62ANJ0R412345T", "5002538f41234567", 976773168,
                     sata_ssd_queue(), MODERN_SCHEDS, "mq-deadline")
    members = []
    for i in range(8):
        idx = i + 1
        # ahci0 has 6 ports (ata1..ata6); the Marvell's start at ata7
        ctrl, ata, host = (ahci0 if idx < 6 else ahci1), idx + 1, idx
        serial = "Z1X0%04X" % (0xA1B2 + 97 * i)
        wwn = "5000c5006%07x" % (0x3a1b2c0 + 0x1d3 * i)
        d = t.ata_disk(ctrl, ata, host, idx, "ST2000NM0033-9ZM175", "SN04",
                       serial, wwn, 3907029168, sata_hdd_queue(),
                       MODERN_SCHEDS, "mq-deadline")
        members.append(d)
    sda1 = t.partition(sda, 1, 2048, 1048576, "EFI System Partition")
    sda2 = t.partition(sda, 2, 1050624, gpt_fill(1050624, sda.size))

    chunk, layout, n = 512, 0x201, 8
    data_offset = 262144
    comp = (members[0].size - data_offset) // (chunk * 2) * (chunk * 2)
    near, far = layout & 0xFF, (layout >> 8) & 0xFF
    chunks = comp // (chunk * 2)
    array_sectors = (chunks // far) * n // near * (chunk * 2)
    stripe = md_stripe_kib("raid10", chunk, n, layout)
    mdq = queue_modern(read_ahead_kb=max(128, 2 * stripe), nr_requests=128,
                       minimum_io_size=chunk * 1024,
                       optimal_io_size=stripe * 1024, wbt_lat_usec=0,
                       write_cache="write through", max_segments=168)
    uuid = dashed_uuid(hexid(rng, 32))
    bitmap_chunk_kib = 65536
    bm_chunks = -(-array_sectors // (bitmap_chunk_kib * 2))
    pages = -(-bm_chunks // 2048)
    md0 = t.md("md0", 0, "raid10", members, chunk, layout, "1.2", comp // 2,
               array_sectors // 2, uuid, mdq, data_offset=data_offset,
               extra_md={"bitmap/chunksize": bitmap_chunk_kib * 1024,
                         "bitmap/location": "+8",
                         "bitmap/metadata": "internal"})
    devs = " ".join("%s[%d]" % (m.name, i) for i, m in
                    reversed(list(enumerate(members))))
    t.mdstat = ("Personalities : [raid10] \n"
                "md0 : active raid10 %s\n"
                "      %d blocks super 1.2 %dK chunks %d far-copies [%d/%d] "
                "[%s]\n"
                "      bitmap: 0/%d pages [0KB], %dKB chunk\n"
                "\n"
                "unused devices: <none>\n"
                % (devs, array_sectors // 2, chunk, far, n, n, "U" * n,
                   pages, bitmap_chunk_kib))

    # --- statistics ------------------------------------------------------
    # md0: 1.5 TiB read in ~768 KiB bios, 420 GiB written.
    md0.stat = mkstat(reads=2097152, rd_kib=768, rd_ms=7.3,
                      writes=860160, wr_kib=512, wr_ms=21.5, qd=3.0,
                      limit_ms=lim)
    rsec, wsec = md0.stat[RD_SEC], md0.stat[WR_SEC]
    # Reads: uneven across members (what the admin saw with small
    # readahead); writes: every chunk goes to two members, evenly.
    shares = [0.205, 0.062, 0.171, 0.094, 0.158, 0.071, 0.149, 0.090]
    wskew = [1.012, 0.991, 1.004, 0.985, 1.009, 0.997, 1.006, 0.996]
    for m, sh, ws in zip(members, shares, wskew):
        msec = rsec * sh
        req_kib = 352.0
        reads = int(msec / 2 / req_kib)
        wr_sec = 2 * wsec / n * ws
        writes = int(wr_sec / 2 / 480.0)
        m.stat = mkstat(reads=reads, rd_kib=req_kib, rd_ms=7.5 + 30 * sh,
                        rd_mrg=0.31, writes=writes, wr_kib=480.0,
                        wr_ms=24.0, wr_mrg=0.6, flushes=11873, fl_ms=9.2,
                        qd=1.6, limit_ms=lim)
        # partition-table probes and md superblock reads on the bare disk
        m.stat[RD_IOS] += 37
        m.stat[RD_SEC] += 37 * 8
    sda1.stat = mkstat(reads=412, rd_kib=11.3, rd_ms=0.3, writes=4,
                       wr_kib=4, wr_ms=0.5, limit_ms=lim)
    sda2.stat = mkstat(reads=94113, rd_kib=28.0, rd_ms=0.4, rd_mrg=0.2,
                       writes=1210334, wr_kib=12.0, wr_ms=0.9, wr_mrg=0.8,
                       discards=4321, dc_kib=81920, dc_ms=12.0,
                       flushes=301223, fl_ms=0.3, qd=1.4, limit_ms=lim)
    sda.stat = sumstat([sda1.stat, sda2.stat],
                       mkstat(reads=28, rd_kib=21.4, rd_ms=0.2), lim)

    # --- interrupts --------------------------------------------------------
    t.irq(0, "timer", 41, "IO-APIC", 2)
    t.irq(8, "rtc0", 0, "IO-APIC", 8)
    t.irq(9, "acpi", 0, "IO-APIC", 9, "fasteoi")
    t.irq(16, "ehci_hcd:usb1", 29, "IO-APIC", 16, "fasteoi", {2: 1})
    ahci_disks_irq(t, 34, "ahci[0000:00:1f.2]", pci_hwirq("0000:00:1f.2", 0),
                   [sda] + members[:5], "PCI-MSI", {3: 0.94, 5: 0.06}, 0.78)
    ahci_disks_irq(t, 35, "ahci[0000:05:00.0]", pci_hwirq("0000:05:00.0", 0),
                   members[5:], "PCI-MSI", {6: 1.0}, 0.81)
    nic = "pci0000:00/0000:00:1c.4/0000:06:00.0"
    t.pci(nic, 0x8086, 0x1521, 0x020000, list(range(36, 41)), "msix")
    t.irq(36, "eno1", 4, "PCI-MSI", pci_hwirq("0000:06:00.0", 0))
    for q in range(4):
        t.irq(37 + q, "eno1-TxRx-%d" % q, 2100000 + 131071 * q, "PCI-MSI",
              pci_hwirq("0000:06:00.0", q + 1), cpus={q * 2: 1.0})
    t.arch_rows()
    return t


# ---------------------------------------------------------------------------
# Fixture: raid5-degraded (4 x 4 TB, raid5 over partitions, sdd1 faulty)
# ---------------------------------------------------------------------------


def build_raid5():
    t = Tree(KERNEL_61, ncpu=4, uptime_s=2592000, seed=5005)
    lim = t.uptime_ms
    rng = t.rng
    ctrl = "pci0000:00/0000:00:17.0"
    t.pci(ctrl, 0x8086, 0xa102, 0x010601, [124], "msi")
    sda = t.ata_disk(ctrl, 1, 0, 0, "CT250MX500SSD1", "M3CR046",
                     "2038E4C1A2B3", "500a0751e4c1a2b3", 488397168,
                     sata_ssd_queue(nr_requests=64), MODERN_SCHEDS, "kyber")
    members = []
    for i in range(4):
        idx = i + 1
        d = t.ata_disk(ctrl, idx + 1, idx, idx, "WDC WD40EFRX-68N32N0",
                       "82.00A82", "WD-WCC7K%07d" % (3141592 + 271828 * i),
                       "50014ee2b%07x" % (0x5a1c0d0 + 0x2f1 * i), 7814037168,
                       sata_hdd_queue(physical_block_size=4096,
                                      minimum_io_size=4096),
                       MODERN_SCHEDS, "bfq")
        members.append(d)
    sda1 = t.partition(sda, 1, 2048, 1048576, "EFI System Partition")
    sda2 = t.partition(sda, 2, 1050624, gpt_fill(1050624, sda.size))
    parts = [t.partition(d, 1, 2048, gpt_fill(2048, d.size)) for d in members]

    chunk, n, data_offset = 512, 4, 262144
    comp = (parts[0].size - data_offset) // (chunk * 2) * (chunk * 2)
    array_kib = comp // 2 * (n - 1)
    stripe = md_stripe_kib("raid5", chunk, n)
    mdq = queue_modern(read_ahead_kb=max(128, 2 * stripe), nr_requests=128,
                       minimum_io_size=chunk * 1024,
                       optimal_io_size=stripe * 1024,
                       max_hw_sectors_kb=2147483647, physical_block_size=4096,
                       wbt_lat_usec=0, write_cache="write through")
    uuid = dashed_uuid(hexid(rng, 32))
    bitmap_chunk_kib = 65536
    bm_chunks = -(-comp // (bitmap_chunk_kib * 2))
    pages = -(-bm_chunks // 2048)
    md0 = t.md("md0", 0, "raid5", parts, chunk, 2, "1.2", comp // 2,
               array_kib, uuid, mdq, states={"sdd1": "faulty"}, degraded=1,
               data_offset=data_offset,
               extra_md={"stripe_cache_size": 256, "stripe_cache_active": 0,
                         "group_thread_cnt": 0, "preread_bypass_threshold": 1,
                         "skip_copy": 0, "rmw_level": 1, "stripe_size": 4096,
                         "bitmap/chunksize": bitmap_chunk_kib * 1024,
                         "bitmap/location": "+8",
                         "bitmap/metadata": "internal"})
    t.mdstat = ("Personalities : [raid6] [raid5] [raid4] \n"
                "md0 : active raid5 sde1[3] sdd1[2](F) sdc1[1] sdb1[0]\n"
                "      %d blocks super 1.2 level 5, %dk chunk, algorithm 2 "
                "[4/3] [UU_U]\n"
                "      bitmap: 4/%d pages [16KB], %dKB chunk\n"
                "\n"
                "unused devices: <none>\n" % (array_kib, chunk, pages,
                                              bitmap_chunk_kib))

    # --- statistics: 30 days; sdd1 failed after 70 % of the uptime -------
    md0.stat = mkstat(reads=1887436, rd_kib=512, rd_ms=11.0,
                      writes=1468006, wr_kib=256, wr_ms=38.0, qd=2.2,
                      limit_ms=lim)
    R, W = md0.stat[RD_SEC], md0.stat[WR_SEC]
    h = 0.7
    for p in parts:
        failed = p.name == "sdd1"
        jit = 1 + (rng.random() - 0.5) * 0.02   # parity rotation is not exact
        rsec = (R * h / 4 + (0 if failed else R * (1 - h) * 0.5)) * jit
        wsec = (W * h / 3 + (0 if failed else W * (1 - h) * 4 / 9)) * jit
        rsec += 0.05 * wsec                   # read-modify-write reads
        rd_ms, wr_ms = (38.5, 71.0) if failed else (9.8, 27.0)
        p.stat = mkstat(reads=int(rsec / 2 / 320), rd_kib=320, rd_ms=rd_ms,
                        rd_mrg=0.4, writes=int(wsec / 2 / 224), wr_kib=224,
                        wr_ms=wr_ms, wr_mrg=1.1,
                        flushes=int(41000 * (h if failed else 1)),
                        fl_ms=11.0, qd=1.8, limit_ms=lim)
    for d, p in zip(members, parts):
        d.stat = sumstat([p.stat], mkstat(reads=44, rd_kib=4, rd_ms=5.0),
                         lim)
    sda1.stat = mkstat(reads=351, rd_kib=9.7, rd_ms=0.4, writes=2,
                       wr_kib=4, wr_ms=0.6, limit_ms=lim)
    sda2.stat = mkstat(reads=611402, rd_kib=22.0, rd_ms=0.6, rd_mrg=0.3,
                       writes=5120333, wr_kib=9.0, wr_ms=1.4, wr_mrg=1.3,
                       discards=8812, dc_kib=20480, dc_ms=8.0,
                       flushes=1601233, fl_ms=0.6, qd=1.3, limit_ms=lim)
    sda.stat = sumstat([sda1.stat, sda2.stat],
                       mkstat(reads=31, rd_kib=20, rd_ms=0.2), lim)

    # --- interrupts ------------------------------------------------------
    t.irq(0, "timer", 52, "IO-APIC", 2)
    t.irq(8, "rtc0", 0, "IO-APIC", 8)
    t.irq(9, "acpi", 12, "IO-APIC", 9, "fasteoi")
    t.irq(120, "xhci_hcd", 8812, "PCI-MSI", pci_hwirq("0000:00:14.0", 0),
          cpus={1: 1.0})
    ahci_disks_irq(t, 124, "ahci[0000:00:17.0]", pci_hwirq("0000:00:17.0", 0),
                   [sda] + members, "PCI-MSI", {2: 0.9, 0: 0.1}, 0.83)
    nic = "pci0000:00/0000:00:1c.0/0000:02:00.0"
    t.pci(nic, 0x10ec, 0x8168, 0x020000, [125], "msix")
    t.irq(125, "enp2s0", 91234567, "PCI-MSI", pci_hwirq("0000:02:00.0", 0),
          cpus={3: 1.0})
    t.arch_rows()
    return t


# ---------------------------------------------------------------------------
# Fixture: nvme-parts (one NVMe SSD, 3 partitions, LUKS2 on p3)
# ---------------------------------------------------------------------------


def build_nvme():
    t = Tree(KERNEL_61, ncpu=8, uptime_s=432000, seed=6006)
    lim = t.uptime_ms
    rng = t.rng
    bdf = "0000:3d:00.0"
    pci = "pci0000:00/0000:00:1d.0/" + bdf
    irqs = list(range(130, 139))                 # nvme0q0 .. nvme0q8
    pdir = t.pci(pci, 0x144D, 0xA80A, 0x010802, irqs, "msix")
    ctrl = pdir + "/nvme/nvme0"
    for k, v in (("model", "Samsung SSD 980 PRO 1TB"),
                 ("serial", "S5GXNF0R912345K"), ("firmware_rev", "5B2QGXA7"),
                 ("transport", "pcie"), ("state", "live"),
                 ("address", bdf), ("cntlid", 6), ("numa_node", -1),
                 ("queue_count", 9), ("sqsize", 1023),
                 ("dev", "241:0")):
        t.put(ctrl + "/" + k, v)
    t.link(ctrl + "/device", pdir)
    t.subsys(ctrl, "class", "nvme")
    q = queue_modern(rotational=0, nr_requests=1023, max_hw_sectors_kb=128,
                     max_sectors_kb=128, max_segments=33,
                     max_segment_size=4294967295, discard_granularity=512,
                     discard_max_bytes=2199023255040,
                     discard_max_hw_bytes=2199023255040,
                     write_zeroes_max_bytes=131072, wbt_lat_usec=2000)
    nsdev = t.disk("nvme0n1", ctrl + "/nvme0n1", t.blkext(), 1953525168,
                   "nvme", q, MQ_SCHEDS, "none", device=ctrl, minors=0)
    nsdev.extra["_hw_queues"] = 8
    nsdev.extra["wwid"] = "eui.002538b911b2c3d4"
    nsdev.extra["nsid"] = 1
    p1 = t.partition(nsdev, 1, 2048, 1048576, "EFI System Partition")
    p2 = t.partition(nsdev, 2, 1050624, 4194304)
    p3 = t.partition(nsdev, 3, 5244928, gpt_fill(5244928, nsdev.size))
    luks_uuid = uuid4(rng)
    luks = luks_uuid.replace("-", "")
    dq = queue_modern(rotational=0, nr_requests=128, max_hw_sectors_kb=128,
                      max_sectors_kb=128, max_segments=33,
                      max_segment_size=4294967295, wbt_lat_usec=0,
                      write_cache="write back")
    dm0 = t.dm("dm-0", 0, "luks-" + luks_uuid,
               "CRYPT-LUKS2-%s-luks-%s" % (luks, luks_uuid),
               p3.size - 32768, [p3], dq)

    # --- statistics ------------------------------------------------------
    dm0.stat = mkstat(reads=18204411, rd_kib=20.0, rd_ms=0.19, rd_mrg=0.0,
                      writes=9801237, wr_kib=24.0, wr_ms=0.52,
                      flushes=853112, fl_ms=0.4, qd=3.5, limit_ms=lim)
    p3.stat = mkstat(reads=18204411, rd_kib=20.0, rd_ms=0.12, rd_mrg=0.05,
                     writes=9801237 // 2, wr_kib=48.0, wr_ms=0.41,
                     wr_mrg=0.9, flushes=853112, fl_ms=0.35, qd=3.5,
                     limit_ms=lim)
    p1.stat = mkstat(reads=402, rd_kib=9.6, rd_ms=0.08, writes=3,
                     wr_kib=4, wr_ms=0.1, limit_ms=lim)
    p2.stat = mkstat(reads=2231, rd_kib=61.0, rd_ms=0.15, writes=812,
                     wr_kib=31.0, wr_ms=0.3, flushes=41, fl_ms=0.3,
                     limit_ms=lim)
    nsdev.stat = sumstat([p1.stat, p2.stat, p3.stat],
                         mkstat(reads=61, rd_kib=21.0, rd_ms=0.05), lim)

    # --- interrupts: admin queue + one I/O queue per CPU -------------------
    done = completions(nsdev.stat)
    weights = [0.19, 0.11, 0.16, 0.09, 0.14, 0.08, 0.13, 0.10]
    t.irq(irqs[0], "nvme0q0", 1287, "PCI-MSI", pci_hwirq(bdf, 0),
          cpus={0: 1.0})
    for qn in range(1, 9):
        t.irq(irqs[qn], "nvme0q%d" % qn, int(done * 0.93 * weights[qn - 1]),
              "PCI-MSI", pci_hwirq(bdf, qn), cpus={qn - 1: 1.0})
    t.irq(0, "timer", 33, "IO-APIC", 2)
    t.irq(8, "rtc0", 0, "IO-APIC", 8)
    t.irq(9, "acpi", 3012, "IO-APIC", 9, "fasteoi")
    t.irq(127, "xhci_hcd", 412311, "PCI-MSI", pci_hwirq("0000:00:14.0", 0),
          cpus={4: 1.0})
    t.irq(128, "i915", 2981233, "PCI-MSI", pci_hwirq("0000:00:02.0", 0),
          cpus={1: 1.0})
    t.irq(129, "iwlwifi", 8812331, "PCI-MSI", pci_hwirq("0000:00:14.3", 0),
          cpus={6: 1.0})
    t.arch_rows()
    return t


FIXTURES = {
    "scst-raid0-lvm": build_scst,
    "md-raid10-f2": build_raid10,
    "raid5-degraded": build_raid5,
    "nvme-parts": build_nvme,
}


# ---------------------------------------------------------------------------
# synth: many SCSI disks behind SAS HBAs
# ---------------------------------------------------------------------------


def build_synth(ndisks, nparts, seed=1):
    t = Tree(KERNEL_61, ncpu=16, uptime_s=864000, seed=seed)
    lim = t.uptime_ms
    rng = t.rng
    per_hba = 256
    nvec = 16
    hbas = []
    for k in range((ndisks + per_hba - 1) // per_hba):
        bus = 0x18 + 4 * k
        bdf = "0000:%02x:00.0" % bus
        path = "pci0000:00/0000:00:%02x.0/%s" % (2 + k, bdf)
        irqs = list(range(40 + nvec * k, 40 + nvec * (k + 1)))
        t.pci(path, 0x1000, 0x0097, 0x010700, irqs, "msix")
        hbas.append((path, bdf, irqs, []))
    sectors = 7814037168
    for i in range(ndisks):
        path, bdf, irqs, disks = hbas[i // per_hba]
        h, tgt = i // per_hba, i % per_hba
        name = sd_name(i)
        sdev = t.scsi_device("sys/devices/" + path, (h, 0, tgt, 0),
                             "SEAGATE", "ST4000NM0023", "0004",
                             "naa.5000c500%08x" % (0x1a2b000 + 16 * i),
                             "Z1Z%05X" % (0x1000 + i), queue_depth=254,
                             proc_name="mpt3sas", can_queue=9584, sas=True)
        q = queue_modern(nr_requests=256, max_hw_sectors_kb=16383,
                         max_segments=128, add_random=1)
        d = t.disk(name, sdev + "/block/" + name, sd_devt(i), sectors, "sd",
                   q, MQ_SCHEDS, "mq-deadline", device=sdev, minors=16)
        d.extra["_hw_queues"] = 1
        disks.append(d)
        psize = (sectors - 2048 - 34) // max(nparts, 1) // 2048 * 2048
        pstats = []
        for p in range(1, nparts + 1):
            part = t.partition(d, p, 2048 + (p - 1) * psize, psize)
            part.stat = mkstat(reads=rng.randint(1000, 900000),
                               rd_kib=rng.choice((4, 16, 64, 128, 512)),
                               rd_ms=2 + 10 * rng.random(),
                               rd_mrg=rng.random(),
                               writes=rng.randint(100, 400000),
                               wr_kib=rng.choice((4, 8, 64, 256)),
                               wr_ms=3 + 20 * rng.random(),
                               wr_mrg=rng.random(), flushes=rng.randint(0, 5000),
                               fl_ms=4.0, qd=1 + rng.random(), limit_ms=lim)
            pstats.append(part.stat)
        d.stat = sumstat(pstats, mkstat(reads=40, rd_kib=4, rd_ms=3.0), lim)
    for k, (path, bdf, irqs, disks) in enumerate(hbas):
        total = int(sum(completions(d.stat) for d in disks) * 0.7)
        for v, irq in enumerate(irqs):
            t.irq(irq, "mpt3sas%d-msix%d" % (k, v), total // nvec, "PCI-MSI",
                  pci_hwirq(bdf, v), cpus={v % t.ncpu: 1.0})
    t.irq(0, "timer", 47, "IO-APIC", 2)
    t.irq(9, "acpi", 0, "IO-APIC", 9, "fasteoi")
    t.arch_rows()
    return t


# ---------------------------------------------------------------------------
# capture: copy this machine's block-device attributes
# ---------------------------------------------------------------------------

CAP_BLOCK = ["dev", "size", "ro", "removable", "stat", "inflight", "uevent",
             "hidden", "alignment_offset", "discard_alignment", "diskseq",
             "partition", "start", "capability", "ext_range", "range",
             "wwid", "nsid", "serial"]
CAP_QUEUE = ["read_ahead_kb", "scheduler", "nr_requests", "max_sectors_kb",
             "max_hw_sectors_kb", "rotational", "logical_block_size",
             "physical_block_size", "minimum_io_size", "optimal_io_size",
             "hw_sector_size", "discard_granularity", "discard_max_bytes",
             "discard_max_hw_bytes", "discard_zeroes_data", "zoned", "dax",
             "write_same_max_bytes", "write_zeroes_max_bytes", "add_random",
             "nomerges", "rq_affinity", "iostats", "wbt_lat_usec",
             "write_cache", "chunk_sectors", "max_segments",
             "max_segment_size", "nr_zones", "zone_append_max_bytes",
             "zone_write_granularity", "max_open_zones", "max_active_zones",
             "context_readahead"]
CAP_DEVICE = ["model", "vendor", "rev", "wwid", "type", "serial",
              "firmware_rev", "transport", "state", "queue_depth",
              "scsi_level", "timeout", "vpd_pg80", "vpd_pg83", "address",
              "cntlid", "numa_node", "queue_count", "sqsize", "features",
              "status", "device"]
CAP_PCI = ["vendor", "device", "class", "subsystem_vendor",
           "subsystem_device", "revision", "irq", "numa_node"]
CAP_MQ = ["cpu_list", "nr_tags", "nr_reserved_tags"]
CAP_SCSI_HOST = ["proc_name", "can_queue", "state",
                 "link_power_management_policy"]
HOST_RE = re.compile(r"^host[0-9]+$")
PCI_RE = re.compile(r"^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")
CAP_PROC = ["diskstats", "partitions", "stat", "interrupts", "version",
            "mdstat", "uptime"]


class Capture:
    def __init__(self, src="/"):
        self.src = src
        self.t = Tree("", 1, 0, 0)
        self.seen_dev = set()
        self.mismatched_links = []

    def real(self, rel):
        return os.path.join(self.src, rel)

    def rel(self, full):
        return os.path.relpath(full, self.src)

    def copy(self, rel):
        full = self.real(rel)
        try:
            st = os.stat(full)
            if not (st.st_mode & 0o444) or not os.path.isfile(full):
                return False
            with open(full, "rb") as fh:
                data = fh.read(65536)
        except OSError:
            return False
        self.t.put_raw(rel, data)
        return True

    def copy_link(self, rel):
        full = self.real(rel)
        try:
            raw = os.readlink(full)
        except OSError:
            return None
        target = self.rel(os.path.realpath(full))
        if kernel_link(rel, target) != raw:
            self.mismatched_links.append((rel, raw))
        self.t.link(rel, target)
        return target

    def copy_tree(self, rel):
        """All readable regular files and symlinks below rel (md/, dm/...)."""
        for dirpath, dirnames, filenames in os.walk(self.real(rel)):
            r = self.rel(dirpath)
            self.t.mkdir(r)
            for f in sorted(filenames):
                self.copy(os.path.join(r, f))
            for dname in list(dirnames):
                if os.path.islink(os.path.join(dirpath, dname)):
                    self.copy_link(os.path.join(r, dname))
                    dirnames.remove(dname)
            for f in filenames:
                if os.path.islink(os.path.join(dirpath, f)):
                    self.t.files.pop(os.path.join(r, f), None)
                    self.copy_link(os.path.join(r, f))

    def block_dir(self, rel):
        if rel in self.seen_dev:
            return
        self.seen_dev.add(rel)
        for a in CAP_BLOCK:
            self.copy(rel + "/" + a)
        q = rel + "/queue"
        if os.path.isdir(self.real(q)):
            for a in CAP_QUEUE:
                self.copy(q + "/" + a)
            io = q + "/iosched"
            if os.path.isdir(self.real(io)):
                self.t.mkdir(io)
                for a in sorted(os.listdir(self.real(io))):
                    self.copy(io + "/" + a)
        mq = rel + "/mq"
        if os.path.isdir(self.real(mq)):
            for hw in sorted(os.listdir(self.real(mq))):
                for a in CAP_MQ:
                    self.copy("%s/%s/%s" % (mq, hw, a))
        for sub in ("md", "dm", "loop"):
            if os.path.isdir(self.real(rel + "/" + sub)):
                self.copy_tree(rel + "/" + sub)
        for sub in ("holders", "slaves"):
            d = rel + "/" + sub
            if os.path.isdir(self.real(d)):
                self.t.mkdir(d)
                for n in sorted(os.listdir(self.real(d))):
                    self.copy_link(d + "/" + n)
        self.subsystem(rel)
        dev = rel + "/device"
        if os.path.islink(self.real(dev)):
            target = self.copy_link(dev)
            if target:
                self.device_dir(target)
        # partitions
        for n in sorted(os.listdir(self.real(rel))):
            p = rel + "/" + n
            if (os.path.isdir(self.real(p)) and
                    not os.path.islink(self.real(p)) and
                    os.path.exists(self.real(p + "/partition"))):
                self.block_dir(p)

    def device_dir(self, rel):
        if rel in self.seen_dev:
            return
        self.seen_dev.add(rel)
        for a in CAP_DEVICE:
            p = rel + "/" + a
            if os.path.islink(self.real(p)):
                target = self.copy_link(p)
                if target:
                    self.device_dir(target)
            else:
                self.copy(p)
        # on the way up to the root: subsystem links, SCSI hosts, PCI
        d = rel
        while d.startswith("sys/devices/") and d.count("/") > 2:
            base = os.path.basename(d)
            self.subsystem(d)
            if PCI_RE.match(base):
                self.pci_dir(d)
            elif HOST_RE.match(base):
                sh = "%s/scsi_host/%s" % (d, base)
                if os.path.isdir(self.real(sh)):
                    for a in CAP_SCSI_HOST:
                        self.copy(sh + "/" + a)
                    self.subsystem(sh)
            d = os.path.dirname(d)

    def subsystem(self, rel):
        """rel/subsystem plus the bus/class entry that points back to rel."""
        if rel + "/subsystem" in self.t.links:
            return
        p = rel + "/subsystem"
        if not os.path.islink(self.real(p)):
            return
        target = self.copy_link(p)
        if target:
            name = os.path.basename(rel)
            if target.startswith("sys/bus/"):
                self.t.link(target + "/devices/" + name, rel)
            else:
                self.t.link(target + "/" + name, rel)

    def pci_dir(self, rel):
        if rel in self.seen_dev:
            return
        self.seen_dev.add(rel)
        for a in CAP_PCI:
            self.copy(rel + "/" + a)
        m = rel + "/msi_irqs"
        if os.path.isdir(self.real(m)):
            self.t.mkdir(m)
            for n in sorted(os.listdir(self.real(m))):
                self.copy(m + "/" + n)

    def run(self):
        for cls in ("sys/dev/block", "sys/block", "sys/class/block"):
            self.t.mkdir(cls)
            for n in sorted(os.listdir(self.real(cls))):
                target = self.copy_link(cls + "/" + n)
                if target:
                    self.block_dir(target)
        for p in CAP_PROC:
            self.copy("proc/" + p)
        # Block-backed mounts only (major != 0): enough to find which disk
        # holds a loop device's backing file, without the noise of tmpfs etc.
        with open("/proc/self/mountinfo") as f:
            kept = [ln for ln in f
                    if len(ln.split()) > 4 and not ln.split()[2].startswith("0:")]
        self.t.put_raw("proc/self/mountinfo", "".join(kept))
        return self.t


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout.strip()


def capture(outdir, with_loops=False, src="/"):
    """Capture this machine; with_loops attaches two 64 MiB loop devices
    (one with direct I/O) for the duration, reads a little from each, and
    always detaches them."""
    loops, tmpdir = [], None
    try:
        if with_loops:
            tmpdir = tempfile.mkdtemp(prefix="blocktune-sysroot-")
            for fname, dio in (("loop-dio.img", "on"),
                               ("loop-buffered.img", "off")):
                f = os.path.join(tmpdir, fname)
                with open(f, "wb") as fh:
                    fh.truncate(64 << 20)
                loops.append(run(["losetup", "-f", "--show",
                                  "--direct-io=" + dio, f]))
            for dev in loops:       # read 8 MiB so the stats are not all 0
                with open(dev, "rb", buffering=0) as fh:
                    for _ in range(128):
                        fh.read(65536)
        cap = Capture(src)
        t = cap.run()
        t.write(outdir)
        if cap.mismatched_links:
            print("mk-sysroot: note: %d links differ from the kernel rule "
                  "(kept target, rewrote text), e.g. %s -> %s"
                  % ((len(cap.mismatched_links),) +
                     cap.mismatched_links[0]), file=sys.stderr)
        return loops
    finally:
        for dev in loops:
            subprocess.run(["losetup", "-d", dev], check=False)
        if tmpdir:
            shutil.rmtree(tmpdir, ignore_errors=True)


# ---------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------


def cmd_capture(a):
    if a.with_loops and os.geteuid() != 0:
        sys.exit("mk-sysroot: --with-loops needs root (losetup)")
    loops = capture(a.outdir, a.with_loops)
    print("captured %s%s" % (a.outdir, (" (loop devices %s attached during "
                                        "the capture, now detached)"
                                        % ", ".join(loops)) if loops else ""))


def cmd_fixture(a):
    t = FIXTURES[a.name]()
    t.finalize()
    t.write(a.outdir)
    print("wrote %s (%d devices)" % (a.outdir, len(t.devs)))


def cmd_synth(a):
    if not 1 <= a.disks <= 4096:
        sys.exit("mk-sysroot: --disks must be 1..4096")
    if not 0 <= a.parts <= 128:
        sys.exit("mk-sysroot: --parts must be 0..128")
    t = build_synth(a.disks, a.parts, a.seed)
    t.finalize()
    t.write(a.outdir)
    print("wrote %s (%d disks, %d devices)" % (a.outdir, a.disks,
                                               len(t.devs)))


def cmd_all(a):
    os.makedirs(FIXTURE_DIR, exist_ok=True)
    for name, build in FIXTURES.items():
        t = build()
        t.finalize()
        out = os.path.join(FIXTURE_DIR, name)
        t.write(out)
        print("wrote %s" % os.path.relpath(out, REPO))
    live = os.path.join(FIXTURE_DIR, "live-loop")
    if a.recapture:
        if os.geteuid() != 0:
            sys.exit("mk-sysroot: --recapture needs root (losetup)")
        capture(live, with_loops=True)
        print("captured %s" % os.path.relpath(live, REPO))
    elif os.path.isdir(live):
        print("kept %s (use --recapture to record it again)"
              % os.path.relpath(live, REPO))
    else:
        print("note: %s is missing; run 'all --recapture' as root"
              % os.path.relpath(live, REPO))


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="mk-sysroot.py",
        description="Make sysfs/procfs trees (sysroots) that blocktune's "
        "--sysroot option and `lsblk --sysroot DIR` read. OUTDIR is "
        "created; if it exists it must hold nothing but sys/ and proc/, "
        "which are replaced. fixture, synth and all write the same bytes "
        "on every run.")
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "capture", help="record this machine's block devices",
        description="Copy the block-device attributes of this machine "
        "(every device in /sys/dev/block, its partitions, queue/, "
        "iosched/, mq/, holders/slaves, md/dm/loop dirs, the device, SCSI "
        "host and PCI dirs with msi_irqs/, subsystem links) and "
        "/proc/{diskstats,partitions,stat,interrupts,version,uptime,mdstat} "
        "into OUTDIR, plus the block-backed lines of proc/self/mountinfo. Symlinks are "
        "recreated relative, as sysfs writes them. Only reads; unreadable "
        "attributes are skipped.")
    p.add_argument("outdir", metavar="OUTDIR")
    p.add_argument("--with-loops", action="store_true",
                   help="attach two 64 MiB loop devices backed by files in "
                   "a temporary directory (one with --direct-io=on), read "
                   "8 MiB from each, capture, then detach them (root)")
    p.set_defaults(func=cmd_capture)

    p = sub.add_parser(
        "fixture", help="build one synthetic named tree",
        description="Build a synthetic tree. Names: " +
        ", ".join(FIXTURES) + ".")
    p.add_argument("name", metavar="NAME", choices=sorted(FIXTURES))
    p.add_argument("outdir", metavar="OUTDIR")
    p.set_defaults(func=cmd_fixture)

    p = sub.add_parser(
        "synth", help="build a large synthetic tree (benchmarks)",
        description="N SCSI disks (sda.., sd majors/minors as the kernel "
        "assigns them) behind 256-disk SAS HBAs, each with P GPT partitions "
        "(partitions 16 and up on major 259), with diskstats, interrupts "
        "and stat. Deterministic for a given --seed.")
    p.add_argument("outdir", metavar="OUTDIR")
    p.add_argument("--disks", type=int, default=1000,
                   help="number of disks, 1..4096 (default 1000)")
    p.add_argument("--parts", type=int, default=4,
                   help="partitions per disk, 0..128 (default 4)")
    p.add_argument("--seed", type=int, default=1,
                   help="seed for the statistics (default 1)")
    p.set_defaults(func=cmd_synth)

    p = sub.add_parser(
        "all", help="regenerate the committed trees in tests/data/sysroot",
        description="Rebuild tests/data/sysroot/{%s}. live-loop is kept "
        "as committed unless --recapture is given." % ",".join(FIXTURES))
    p.add_argument("--recapture", action="store_true",
                   help="also re-record live-loop from this machine with "
                   "two loop devices attached (root)")
    p.set_defaults(func=cmd_all)

    a = ap.parse_args(argv)
    a.func(a)


if __name__ == "__main__":
    main()
