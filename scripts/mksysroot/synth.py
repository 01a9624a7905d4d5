"""The synthetic generator: many SCSI disks behind SAS HBAs, for benchmarks
(a machine no one owns, sized by the command line)."""

from .kernel import (KERNEL_61, MQ_SCHEDS, completions, mkstat, pci_hwirq,
                     queue_modern, sd_devt, sd_name, sumstat)
from .tree import Tree

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


