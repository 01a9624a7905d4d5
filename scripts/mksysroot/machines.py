"""The recorded machines: each build_* function describes one real machine
(its disks, arrays, queue settings and counters) on the tree primitives.
tests/data/sysroot/README.md says what each machine was."""

from .kernel import (KERNEL_61, KERNEL_2627, LEGACY_SCHEDS, MQ_SCHEDS, RD_IOS,
                     RD_SEC, WR_IOS, WR_SEC, completions, gpt_fill,
                     mkstat, pci_hwirq, queue_legacy,
                     queue_modern, sumstat)
from .tree import Tree

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
    # md0's queue as the machine had it.  Readahead 256 KiB: raid0_run()
    # of 2.6.27 raised it to twice a full stripe (2 disks x 64K = 128K);
    # io_opt is that stripe.  Literals, not a formula: the tests compare
    # blocktune's md geometry against what this kernel set.
    mdq = queue_legacy(read_ahead_kb=256,
                       max_sectors_kb=64, max_hw_sectors_kb=64,
                       minimum_io_size=65536,
                       optimal_io_size=131072)
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
    # md0's queue as the machine had it (6.1): io_opt 4 MiB, the 8 disks'
    # 512K chunks (far copies repeat whole stripes further along each disk,
    # they do not narrow it), io_min one chunk, and readahead 8192 KiB, the
    # 2 x io_opt the kernel set at assembly.  Literals, not a formula: the
    # tests compare blocktune's md geometry against what this kernel set.
    mdq = queue_modern(read_ahead_kb=8192, nr_requests=128,
                       minimum_io_size=524288,
                       optimal_io_size=4194304, wbt_lat_usec=0,
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
    # The udev links this machine had in /dev/disk/by-id (mdadm writes the
    # array uuid as four groups of eight hex digits).
    for d in [sda] + members:
        t.udev_ata_links(d)
    h = uuid.replace("-", "")
    t.udev_by_id(md0, "md-uuid-" + ":".join(h[i:i + 8] for i in range(0, 32, 8)))
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
    # md0's queue as the machine had it (6.1): io_opt 1.5 MiB (3 data
    # chunks of 512K per row of 4 disks), io_min one chunk, readahead
    # 3072 KiB, the 2 x io_opt the kernel set at assembly.  Literals, not a
    # formula: the tests compare blocktune's md geometry against them.
    mdq = queue_modern(read_ahead_kb=3072, nr_requests=128,
                       minimum_io_size=524288,
                       optimal_io_size=1572864,
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


