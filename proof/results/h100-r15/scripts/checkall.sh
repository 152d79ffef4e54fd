#!/bin/bash
# Every kernel's check at HEAD (267, with package cuda's tests and proof/checks), and the kernels whose
# PTX changed since h100-r15 or that are new timed at realistic size against Triton and the copy.
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/f; mkdir -p /tmp/f; tar xzf $here/final.tgz -C /tmp/f; B=/tmp/f/final
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/gpu.txt 2>&1
OUT=$OUT timeout 380 $B/run.sh --jobs 16 --runs 20 --warmup 3 --bench fp4_to_bf16 --bench dot_i8_f16acc --bench dot_fp4_bf16 --bench 'quantize_rows_*' --bench copy1d_f32 --bench transpose_64x64_f32_sm90_w4 --work /tmp/pw > $OUT/log.txt 2>&1
echo "rc=$? after $SECONDS s" >> $OUT/log.txt
grep -i 'gpu check\|cuda tests\|ptxas:' $OUT/log.txt; head -5 $OUT/report.md; grep '^| ' $OUT/report.md | grep -v '|  |  |  |  |  |  |$' | cut -c1-240
