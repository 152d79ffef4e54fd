#!/bin/bash
# The kernels new since h100-r15's run (fp4_to_bf16, dot_i8_f16acc, dot_fp4_bf16) checked and timed,
# with package cuda's tests and proof/checks (tt.print, tensor descriptors) on the GPU.
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/f; mkdir -p /tmp/f; tar xzf $here/final.tgz -C /tmp/f; B=/tmp/f/final
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/gpu.txt 2>&1
OUT=$OUT $B/run.sh --jobs 16 --runs 20 --warmup 3 --only fp4_to_bf16 --only dot_i8_f16acc --only dot_fp4_bf16 --work /tmp/pw > $OUT/log.txt 2>&1
echo "rc=$?" >> $OUT/log.txt
grep -i 'gpu check\|cuda tests\|ptxas:' $OUT/log.txt; tail -n 8 $OUT/log.txt
