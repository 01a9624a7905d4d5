"""The tree primitives: a sysroot held in memory (files, symlinks, empty
directories), block devices and interrupts added to it, and the writer that
lays it out as sysfs and procfs do."""

import os
import random
import shutil
import sys

from .kernel import (BTIME, ata_rev, iosched_tunables, kernel_link, part_name,
                     sched_line, sd_devt, sd_name)

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
        self.ata_ident = None       # (model, serial, wwn) of a SATA disk
        self.by_id = []             # dev/disk/by-id names (udev)

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
        # "class-block": sys/class/block lists every device, as every kernel
        # since 2.6.25 has it; "sys-block": only sys/block and sys/dev/block,
        # as recorded machines that did not copy sys/class have it.
        self.layout = "class-block"

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
        dev = self.disk(name, sdev + "/block/" + name, sd_devt(index),
                        sectors, "sd", queue, scheds, active, device=sdev,
                        minors=16)
        dev.ata_ident = (model, serial, wwn)
        return dev

    def udev_by_id(self, dev, *names):
        """dev/disk/by-id/NAME links to dev, as udev's 60-persistent-storage
        rules make them; a disk's partitions get NAME-partN."""
        dev.by_id.extend(names)

    def udev_ata_links(self, dev):
        """ata-MODEL_SERIAL and wwn-0xWWN, udev's names for a SATA disk
        (ID_SERIAL: the model with spaces as '_', '_', the serial)."""
        model, serial, wwn = dev.ata_ident
        names = ["ata-%s_%s" % (model.strip().replace(" ", "_"), serial)]
        if wwn:
            names.append("wwn-0x" + wwn)
        self.udev_by_id(dev, *names)

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
            for name in dev.by_id:
                self.link("dev/disk/by-id/" + name, "dev/" + dev.name)
                for part in dev.parts:
                    self.link("dev/disk/by-id/%s-part%d" % (name, part.partno),
                              "dev/" + part.name)
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
        if self.layout == "class-block":
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


SYSROOT_ENTRIES = {"sys", "proc", "dev"}


def prepare_outdir(outdir):
    """Empty OUTDIR for a new tree, refusing to delete anything that is not
    a sysroot (only sys/, proc/ and dev/ may be present)."""
    if os.path.lexists(outdir):
        if not os.path.isdir(outdir) or os.path.islink(outdir):
            sys.exit("mk-sysroot: %s exists and is not a directory" % outdir)
        entries = set(os.listdir(outdir))
        if entries - SYSROOT_ENTRIES:
            sys.exit("mk-sysroot: refusing to overwrite %s: it holds more "
                     "than sys/, proc/ and dev/ (%s)"
                     % (outdir, ", ".join(sorted(entries - SYSROOT_ENTRIES))))
        for e in entries:
            shutil.rmtree(os.path.join(outdir, e))
    os.makedirs(outdir, exist_ok=True)

