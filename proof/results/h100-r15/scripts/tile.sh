#!/usr/bin/env bash
# The tile kernels (one program is the whole problem; CUDA graphs), on the bundle full.sh unpacked (or unpack it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ -d /tmp/f/final ] || { mkdir -p /tmp/f; tar xzf $here/final.tgz -C /tmp/f; }
only=(); for n in $(cat $here/tile.txt); do only+=(--only "$n"); done
mkdir -p $OUT/tile
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/tile/gpu.txt 2>&1
OUT=$OUT/tile /tmp/f/final/run.sh --skip-tests --no-ptxas --jobs 16 --runs 20 --warmup 3 --work /tmp/pw-tile "${only[@]}" > $OUT/tile/log.txt 2>&1
echo rc=$? >> $OUT/tile/log.txt
tail -n 5 $OUT/tile/log.txt
find $OUT/tile -type f ! -name report.json ! -name report.md ! -name log.txt ! -name gpu.txt -delete; ls $OUT/tile
