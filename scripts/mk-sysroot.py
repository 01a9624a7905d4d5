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
# The code lives in the mksysroot package beside this script:
#   kernel.py    what the kernel decides and how it writes it (names, numbers,
#                link text, counters, scheduler lines, queue attributes)
#   tree.py      the tree primitives: a sysroot in memory and its writer
#   machines.py  the recorded machines behind tests/data/sysroot
#   synth.py     the synthetic generator (benchmark trees)
#   capture.py   live capture of this machine
#   cli.py       this command line

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mksysroot.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
