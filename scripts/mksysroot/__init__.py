"""Makes sysfs/procfs trees ("sysroots") for blocktune's tests and
benchmarks; scripts/mk-sysroot.py is its command line."""
