#!/bin/bash
# For the next session's first device call: the kernels of this session's tree not yet on a GPU
# (global_scratch: ttg.global_scratch_alloc, the launcher's per-program scratch; inline_asm_64:
# "d" and "l" registers), checked against the interpreter and Triton's PTX and launcher, then the
# main part of the proof (the .pre-ours if time is left under BUDGET).
# Here, beside this script (a git-ignored carry folder):
#   LIBDEVICE=… proof/build.sh /tmp/bb/final && tar czf final.tgz -C /tmp/bb final
# Then on the GPU: bash next-check.sh (one call, under 10 minutes).
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/f /tmp/p; mkdir -p /tmp/f /tmp/p; tar xzf $here/final.tgz -C /tmp/f
/tmp/f/final/device.sh check /tmp/p global_scratch inline_asm_64 > /tmp/p/new-check.log 2>&1
echo "new kernels: rc=$?"; tail -n 8 /tmp/p/new-check.log
BUDGET=${BUDGET:-380} /tmp/f/final/device.sh main /tmp/p > /tmp/p/main.log 2>&1
echo "main: rc=$?"
tar czf $OUT/p.tgz -C /tmp p
tail -n 6 /tmp/p/main/log.txt
