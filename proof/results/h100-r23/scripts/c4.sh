#!/bin/bash
# TMA on the GPU: package cuda's tensor-map test, then tma_copy2d checked (interpreter, Triton's PTX,
# ours) and timed against Triton's PTX and the device copy.
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/f /tmp/p; mkdir -p /tmp/f /tmp/p; tar xzf $here/tma.tgz -C /tmp/f
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > /tmp/p/gpu.txt 2>&1
(cd /tmp/f/tma/cudatest && /tmp/f/tma/bin/cuda.test -test.run 'TensorMap|CopyKernel' -test.v -test.count=1) > /tmp/p/cuda-test.log 2>&1
echo "cuda test rc=$?"; tail -6 /tmp/p/cuda-test.log
/tmp/f/tma/device.sh check /tmp/p tma_copy2d > /tmp/p/check.log 2>&1
echo "check rc=$?"; grep -v "^|" /tmp/p/check/report.md | head -4; grep "^| tma" /tmp/p/check/report.md
tail -5 /tmp/p/check/log.txt
tar czf $OUT/p.tgz -C /tmp p
timeout 240 python3 /tmp/f/tma/compare.py --only tma_copy2d --out /tmp/p/cmp ours=/tmp/f/tma > /tmp/p/cmp.log 2>&1
echo "compare rc=$?"; tail -12 /tmp/p/cmp.log
tar czf $OUT/p.tgz -C /tmp p
