#!/usr/bin/env python3
"""Keeps a generated sysroot's /proc/diskstats moving, for bench/monitor-cost.sh.

Every PERIOD seconds it adds a little read and write traffic to every
device's counters and replaces DIR/proc/diskstats atomically (write a
temporary file, rename it over the old one), so a reader never sees half a
file and the monitor's figures are not all zero. Runs until killed.

Usage: monitor-diskstats-writer.py DIR [PERIOD]
"""

import os
import signal
import sys
import time


def main():
    root = sys.argv[1]
    period = float(sys.argv[2]) if len(sys.argv) > 2 else 0.1
    path = os.path.join(root, "proc", "diskstats")
    tmp = path + ".writer"
    rows = []
    with open(path) as fh:
        for line in fh:
            f = line.split()
            if len(f) >= 14:
                rows.append([f[0], f[1], f[2]] + [int(x) for x in f[3:]])
    # Each device gets its own steady load: 1..8 reads of 128 KiB per tick,
    # a write every few ticks, a little queueing.
    loads = [1 + (i * 7) % 8 for i in range(len(rows))]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    tick = 0
    next_at = time.monotonic()
    while True:
        tick += 1
        out = []
        for row, load in zip(rows, loads):
            c = row  # 0..2 major minor name, 3.. counters (1-based field n at 2 + n)
            c[3] += load                 # reads completed
            c[5] += load * 256           # sectors read (128 KiB each)
            c[6] += load * 2             # ms reading
            if tick % 4 == 0:
                c[7] += 1                # writes completed
                c[9] += 8                # sectors written
                c[10] += 1               # ms writing
            c[12] += 60                  # io_ticks
            c[13] += load * 2            # weighted ms
            out.append("%4s %7s %s %s" % (c[0], c[1], c[2], " ".join(map(str, c[3:]))))
        with open(tmp, "w") as fh:
            fh.write("\n".join(out))
            fh.write("\n")
        os.replace(tmp, path)
        next_at += period
        time.sleep(max(0.0, next_at - time.monotonic()))


if __name__ == "__main__":
    main()
