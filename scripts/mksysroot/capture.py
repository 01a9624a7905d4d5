"""Live capture: copy this machine's block-device attributes into a tree
(reads only; the optional loop devices are detached whatever happens)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

from .kernel import kernel_link
from .tree import Tree

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


