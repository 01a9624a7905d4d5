"""The command line of scripts/mk-sysroot.py: capture, fixture, synth, all."""

import argparse
import os
import sys

from .capture import capture
from .machines import FIXTURES
from .synth import build_synth

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE_DIR = os.path.join(REPO, "tests", "data", "sysroot")

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


LAYOUTS = ("class-block", "sys-block")

# Committed trees that are a machine of FIXTURES in another layout.
VARIANTS = {
    "scst-raid0-lvm-sysblock": ("scst-raid0-lvm", "sys-block"),
}


def cmd_fixture(a):
    t = FIXTURES[a.name]()
    t.layout = a.layout
    t.finalize()
    t.write(a.outdir)
    print("wrote %s (%d devices)" % (a.outdir, len(t.devs)))


def cmd_synth(a):
    if not 1 <= a.disks <= 4096:
        sys.exit("mk-sysroot: --disks must be 1..4096")
    if not 0 <= a.parts <= 128:
        sys.exit("mk-sysroot: --parts must be 0..128")
    t = build_synth(a.disks, a.parts, a.seed)
    t.layout = a.layout
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
    for name, (machine, layout) in VARIANTS.items():
        t = FIXTURES[machine]()
        t.layout = layout
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


def add_layout_option(p):
    p.add_argument("--layout", choices=LAYOUTS, default="class-block",
                   help="class-block (default): sys/class/block lists every "
                   "device, as on every kernel since 2.6.25; sys-block: no "
                   "sys/class/block, only sys/block (partitions under their "
                   "disk) and sys/dev/block, as some recorded machines are")


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="mk-sysroot.py",
        description="Make sysfs/procfs trees (sysroots) that blocktune's "
        "--sysroot option and `lsblk --sysroot DIR` read. OUTDIR is "
        "created; if it exists it must hold nothing but sys/, proc/ and dev/, "
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
    add_layout_option(p)
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
    add_layout_option(p)
    p.set_defaults(func=cmd_synth)

    p = sub.add_parser(
        "all", help="regenerate the committed trees in tests/data/sysroot",
        description="Rebuild tests/data/sysroot/{%s}. live-loop is kept "
        "as committed unless --recapture is given."
        % ",".join(list(FIXTURES) + list(VARIANTS)))
    p.add_argument("--recapture", action="store_true",
                   help="also re-record live-loop from this machine with "
                   "two loop devices attached (root)")
    p.set_defaults(func=cmd_all)

    a = ap.parse_args(argv)
    a.func(a)


if __name__ == "__main__":
    main()
