#!/bin/bash
# A/B of the sub-word store words and the prmt fp4_to_fp (the 6 kernels whose PTX changed), then the
# after bundle's run (checks, ours vs Triton at realistic size) of those and the new dot kernels.
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/ab; mkdir -p /tmp/ab/before /tmp/ab/after
tar xzf $here/before.tgz -C /tmp/ab/before; tar xzf $here/after.tgz -C /tmp/ab/after
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/gpu.txt 2>&1
sel=(--only fp4_to_bf16 --only dot_fp4_bf16 --only dot_i8_f16acc --only 'quantize_rows_*')
OUT=$OUT/run /tmp/ab/after/final/run.sh --skip-tests --jobs 16 --runs 20 --warmup 3 "${sel[@]}" --work /tmp/pw > $OUT/run.log 2>&1
echo "run rc=$? $SECONDS s"; grep '^| ' $OUT/run/report.md | cut -c1-250
timeout 200 python3 /tmp/ab/after/final/compare.py --changed --runs 30 --warmup 3 --work /tmp/pw --out $OUT/ab before=/tmp/ab/before/final after=/tmp/ab/after/final > $OUT/ab.txt 2>&1
echo "ab rc=$? $SECONDS s"; tail -n 20 $OUT/ab.txt
