#!/bin/bash
cd "$(dirname "$0")/.."
for d in scheds nomads r8; do [ -e "$d/bundle/bin" ] || ln -sfn "$PWD/r7/bundle/bin" "$d/bundle/bin"; done
C="python3 r7/bundle/compare.py --work /tmp/pw --runs 20 --warmup 3"
OUT="$OUT/check" r8/bundle/run.sh --skip-tests --no-ptxas --jobs 16 --bench none --only "copy2d_*" --only "jit_copy2d_*" --only "masked_bias_*" --only "outer_*" --work /tmp/pw8 2>&1 | tail -15
timeout 200 $C --out "$OUT/order" --changed --only 'copy2d_*' --only 'jit_copy2d_*' --only 'masked_bias_*' --only 'outer_*' r7=r7/bundle r8=r8/bundle 2>&1 | tee "$OUT/order.txt"
timeout 250 $C --out "$OUT/sched2" --only transpose_64x64_f16_sm80_w4 --only 'colsum_loop_*.post' --only matmul_grouped_128x128x64_f16_sm90_w4.post --only matmul_blockptr_128x128x64_f16_sm90_w8.post --only transpose_64x64_f32_sm90_w4 --only matmul_128x128x64_f16_sm90_w8 --only argmax_axis1_64x128_sm90_w8.post --only matvec_64x128_sm80_w4.post --only copy2d_64x64_sm90_w4 r7=r7/bundle sched=scheds/bundle nomad=nomads/bundle 2>&1 | tee "$OUT/sched2.txt"
echo done
