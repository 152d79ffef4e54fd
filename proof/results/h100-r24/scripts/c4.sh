#!/bin/bash
# the four TMA kernels after the stride fix: check, then timed against Triton (200 launches, both orders),
# with the device-made descriptors also as pointers (bundle final2: no -device-tma)
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/f /tmp/f2 /tmp/t; mkdir -p /tmp/f /tmp/f2 /tmp/t; tar xzf $here/final.tgz -C /tmp/f; tar xzf $here/final2.tgz -C /tmp/f2
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > /tmp/t/gpu.txt 2>&1
timeout 120 /tmp/f/final/device.sh check /tmp/t 'tma_*' 'descriptor_*' > /tmp/t/check.log 2>&1
echo "check: rc=$?"; grep -v "^|" /tmp/t/check/report.md | head -4; grep "^| tma\|^| descriptor" /tmp/t/check/report.md
tar czf $OUT/t.tgz -C /tmp t
timeout 170 python3 /tmp/f/final/compare.py --runs 200 --only 'tma_*' --only 'descriptor_*' --out /tmp/t/cmp tma=/tmp/f/final ptrs=/tmp/f2/final > /tmp/t/cmp.log 2>&1
echo "compare: rc=$?"; tail -8 /tmp/t/cmp.log
tar czf $OUT/t.tgz -C /tmp t
timeout 120 python3 /tmp/f/final/compare.py --runs 200 --no-check --triton-first --only 'tma_*' --only 'descriptor_*' --out /tmp/t/cmp2 tma=/tmp/f/final ptrs=/tmp/f2/final > /tmp/t/cmp2.log 2>&1
echo "compare triton-first: rc=$?"; tail -8 /tmp/t/cmp2.log
tar czf $OUT/t.tgz -C /tmp t
