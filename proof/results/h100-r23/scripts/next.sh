#!/bin/bash
# For the next GPU session (one call): the TMA kernels of this session's tree not yet on a GPU in
# their latest form — tma_copy2d (its store now takes the load's buffer), tma_load_tile (NaN padding),
# tma_device_copy2d and
# descriptor_matmul_128x256x64_sm90_w8 (descriptors made in the kernel, -device-tma: tensormap.replace)
# — checked against the interpreter, Triton's PTX and (the last two) Triton's launcher, then timed.
# Here, beside this script (a git-ignored carry folder):
#   LIBDEVICE=… proof/build.sh /tmp/bb/final && tar czf final.tgz -C /tmp/bb final
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/f /tmp/p; mkdir -p /tmp/f /tmp/p; tar xzf $here/final.tgz -C /tmp/f
/tmp/f/final/device.sh check /tmp/p 'tma_*' 'descriptor_*' > /tmp/p/check.log 2>&1
echo "check: rc=$?"; grep -v "^|" /tmp/p/check/report.md | head -4; grep "^| tma\|^| descriptor" /tmp/p/check/report.md
timeout 300 python3 /tmp/f/final/compare.py --only 'tma_*' --only 'descriptor_*' --out /tmp/p/cmp ours=/tmp/f/final > /tmp/p/cmp.log 2>&1
echo "compare: rc=$?"; tail -6 /tmp/p/cmp.log
tar czf $OUT/p.tgz -C /tmp p
