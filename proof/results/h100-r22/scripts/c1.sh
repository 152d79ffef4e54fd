#!/bin/bash
# call 1: the NaN oracle, the mx_ kernels checked and timed against Triton's PTX, then the tile part
here=$(cd "$(dirname "$0")" && pwd)
t0=$(date +%s)
python3 internal/ptxint/testdata/gen/nan_oracle.py $OUT/gpu_nans.jsonl 2>&1 | tail -3
rm -rf /tmp/f /tmp/p /tmp/q; mkdir -p /tmp/f /tmp/p /tmp/q; tar xzf $here/final.tgz -C /tmp/f
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/gpu.txt 2>&1
/tmp/f/final/device.sh check /tmp/q 'mx_*' > /tmp/q/mx-check.log 2>&1
echo "mx check: rc=$? after $(( $(date +%s) - t0 )) s"; grep -v "^|" /tmp/q/check/report.md | head -5; grep "^| mx" /tmp/q/check/report.md
tar czf $OUT/q.tgz -C /tmp q
timeout 200 python3 /tmp/f/final/compare.py --only 'mx_*.post' --only 'mx_*.pre-ours' --no-check --out /tmp/q/cmp ours=/tmp/f/final > /tmp/q/cmp.log 2>&1
echo "compare: rc=$? after $(( $(date +%s) - t0 )) s"; tail -20 /tmp/q/cmp.log
tar czf $OUT/q.tgz -C /tmp q
timeout $(( 585 - ($(date +%s) - t0) )) /tmp/f/final/device.sh tile /tmp/p
echo "tile rc=$? after $(( $(date +%s) - t0 )) s"
tar czf $OUT/tile.tgz -C /tmp p/tile
tail -n 3 /tmp/p/tile/log.txt
