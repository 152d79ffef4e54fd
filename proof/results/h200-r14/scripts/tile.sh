#!/usr/bin/env bash
# The tile kernels (.post and .pre-ours) of the auto bundle (HEAD + default launch bounds).
set -u
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/t; mkdir -p /tmp/t; tar xzf $here/auto.tgz -C /tmp/t
only=()
for n in $(cat $here/post.txt $here/pre.txt); do only+=(--only "$n"); done
mkdir -p $OUT/tile
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/tile/gpu.txt 2>&1
OUT=$OUT/tile /tmp/t/auto/run.sh --jobs 16 --runs 20 --warmup 3 --work /tmp/pw-tile "${only[@]}" > $OUT/tile/log.txt 2>&1
echo rc=$? >> $OUT/tile/log.txt
tail -n 5 $OUT/tile/log.txt
find $OUT/tile -type f ! -name report.json ! -name report.md ! -name log.txt ! -name gpu.txt -delete; ls $OUT/tile
