#!/usr/bin/env bash
# cumsum1d_1024 before/after 8168f67 (A/B, twice), then the tile kernels
# (.post and .pre-ours) of the HEAD bundle.
set -u
cd "$(dirname "$0")"
for d in before after; do mkdir -p $d/bin && cp bundle/bin/ttgir-run $d/bin/; done
for i in 1 2; do python3 bundle/compare.py --only cumsum1d_1024_sm90_w4.post --runs 30 before=before after=after 2>&1 | grep -E "before .* after"; done > $OUT/ab-cumsum1d.txt 2>&1
cat $OUT/ab-cumsum1d.txt
only=()
for n in $(cat tile/post.txt tile/pre.txt); do only+=(--only "$n"); done
mkdir -p $OUT/tile
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/tile/gpu.txt 2>&1
OUT=$OUT/tile bundle/run.sh --jobs 16 --runs 20 --warmup 3 --work /tmp/pw-tile "${only[@]}" > $OUT/tile/log.txt 2>&1
echo rc=$? >> $OUT/tile/log.txt
tail -5 $OUT/tile/log.txt
