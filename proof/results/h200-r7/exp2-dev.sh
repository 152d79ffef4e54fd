#!/bin/bash
cd "$(dirname "$0")/.."
for d in r6 sched exp2/swap exp2/g8 exp2/g16 exp2/g32 exp2/g64; do ln -sfn "$PWD/r7/bundle/bin" "$d/bundle/bin"; done
C="python3 r7/bundle/compare.py --work /tmp/pw --runs 20 --warmup 3"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
timeout 150 $C --out "$OUT/wgmma" --changed --only 'matmul_*128x128x64_f16_sm90_w*' r6=r6/bundle r7=r7/bundle sched=sched/bundle 2>&1 | tee "$OUT/wgmma.txt"
timeout 170 $C --out "$OUT/raster" --only copy2d_64x64_sm90_w4 --only jit_copy2d_64x64_w4_f16 --only transpose_64x64_f16_sm80_w4 --only transpose_64x64_f32_sm90_w4 --only jit_transpose_64x64_w4_f32 base=r7/bundle swap=exp2/swap/bundle g8=exp2/g8/bundle g16=exp2/g16/bundle g32=exp2/g32/bundle g64=exp2/g64/bundle 2>&1 | tee "$OUT/raster.txt"
timeout 200 $C --out "$OUT/sched" --changed $(cat exp2/selmem.txt) $(cat exp2/selred.txt) r7=r7/bundle sched=sched/bundle 2>&1 | tee "$OUT/sched.txt"
echo done
