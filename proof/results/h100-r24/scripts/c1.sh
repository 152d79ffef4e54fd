#!/bin/bash
# call 1: the TMA kernels (check + compare against Triton), then the tile part
here=$(cd "$(dirname "$0")" && pwd)
t0=$(date +%s)
rm -rf /tmp/f /tmp/p /tmp/t; mkdir -p /tmp/f /tmp/p /tmp/t; tar xzf $here/final.tgz -C /tmp/f
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > /tmp/t/gpu.txt 2>&1
timeout 150 /tmp/f/final/device.sh check /tmp/t 'tma_*' 'descriptor_*' > /tmp/t/check.log 2>&1
echo "check: rc=$? after $(( $(date +%s) - t0 )) s"; grep -v "^|" /tmp/t/check/report.md | head -4; grep "^| tma\|^| descriptor" /tmp/t/check/report.md
tar czf $OUT/t.tgz -C /tmp t
timeout 200 python3 /tmp/f/final/compare.py --only 'tma_*' --only 'descriptor_*' --out /tmp/t/cmp ours=/tmp/f/final > /tmp/t/cmp.log 2>&1
echo "compare: rc=$? after $(( $(date +%s) - t0 )) s"; tail -8 /tmp/t/cmp.log
tar czf $OUT/t.tgz -C /tmp t
timeout $(( 585 - ($(date +%s) - t0) )) /tmp/f/final/device.sh tile /tmp/p
echo "tile rc=$? after $(( $(date +%s) - t0 )) s"
tar czf $OUT/tile.tgz -C /tmp p/tile
tail -n 3 /tmp/p/tile/log.txt
