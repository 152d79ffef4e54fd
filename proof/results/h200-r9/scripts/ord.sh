#!/bin/bash
cd "$(dirname "$0")"
for v in swap g4 g8 g16 g32; do ln -sfn ../../../final/bundle/bin ord/$v/bundle/bin; done
python3 final/bundle/compare.py --only transpose_64x64_f16_sm80_w4 --only transpose_64x64_f32_sm90_w4 --only jit_transpose_64x64_w4_f32 --only jit_copy2d_64x64_w4_f16 \
  cur=final/bundle swap=ord/swap/bundle g4=ord/g4/bundle g8=ord/g8/bundle g16=ord/g16/bundle g32=ord/g32/bundle --work /tmp/pw --out $OUT/ord > $OUT/ord.txt 2>&1
echo "rc=$?" >> $OUT/ord.txt
