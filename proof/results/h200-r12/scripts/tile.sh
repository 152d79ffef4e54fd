#!/usr/bin/env bash
# The tile kernels (.post and .pre-ours) of the HEAD bundle.
set -u
cd "$(dirname "$0")"
only=()
for n in $(cat tile/post.txt tile/pre.txt); do only+=(--only "$n"); done
mkdir -p $OUT/tile
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/tile/gpu.txt 2>&1
OUT=$OUT/tile bundle/run.sh --jobs 16 --runs 20 --warmup 3 --work /tmp/pw-tile "${only[@]}" > $OUT/tile/log.txt 2>&1
echo rc=$? >> $OUT/tile/log.txt
tail -n 5 $OUT/tile/log.txt
