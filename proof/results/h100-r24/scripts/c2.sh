#!/bin/bash
# call 2, on the warm machine c1.sh left (else the bundle again): the main part
here=$(cd "$(dirname "$0")" && pwd)
t0=$(date +%s)
[ -x /tmp/f/final/device.sh ] || { rm -rf /tmp/f; mkdir -p /tmp/f /tmp/p; tar xzf $here/final.tgz -C /tmp/f; echo "fresh machine"; }
BUDGET=${BUDGET:-560} timeout 590 /tmp/f/final/device.sh main /tmp/p
echo "main done rc=$? after $(( $(date +%s) - t0 )) s"
(cd /tmp/proof-work/kernels && tar czf $OUT/triton-ptx.tgz */triton.ptx */triton.json)
tar czf $OUT/main.tgz -C /tmp p/main
tail -n 5 /tmp/p/main/log.txt; tail -n 3 /tmp/p/main/pre-ours/log.txt 2>/dev/null
