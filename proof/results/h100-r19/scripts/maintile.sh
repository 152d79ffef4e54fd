#!/bin/bash
# one call: the main part (checks, cuda tests, ptxas, realistic kernels timed; .pre-ours only if
# time is left under BUDGET) and then the tile part
here=$(cd "$(dirname "$0")" && pwd)
t0=$(date +%s)
rm -rf /tmp/f /tmp/p; mkdir -p /tmp/f /tmp/p; tar xzf $here/final.tgz -C /tmp/f
BUDGET=${BUDGET:-400} /tmp/f/final/device.sh main /tmp/p
echo "main done after $(( $(date +%s) - t0 )) s"
(cd /tmp/proof-work/kernels && tar czf $OUT/triton-ptx.tgz */triton.ptx */triton.json)
tar czf $OUT/main.tgz -C /tmp p
timeout $(( ${TOTAL:-575} - ($(date +%s) - t0) )) /tmp/f/final/device.sh tile /tmp/p
echo "tile rc=$? after $(( $(date +%s) - t0 )) s"
tar czf $OUT/tile.tgz -C /tmp p/tile
tail -n 5 /tmp/p/main/log.txt; tail -n 3 /tmp/p/tile/log.txt
