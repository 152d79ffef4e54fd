#!/bin/bash
# Does the PTX header matter? Our sm_80-lowered PTX says .version 7.0 / .target sm_80; Triton's,
# compiled for the device, .version 8.7 / .target sm_90a. Both are JIT-compiled by the driver in
# ttgir-run. hdr = after with the sm_80 headers rewritten to .version 8.0 / .target sm_90a.
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/ab; mkdir -p /tmp/ab
for b in after hdr disj; do tar xzf $here/$b.tgz -C /tmp/ab; done
cp -r /tmp/ab/after/bin /tmp/ab/hdr/; cp -r /tmp/ab/after/bin /tmp/ab/disj/
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/gpu.txt 2>&1
sel=(--only fp4_to_bf16 --only transpose_64x64_f16_sm80_w4 --only 'transpose_64x64_f32_sm80_w4.post' --only 'transpose_128x128_f32_sm80_w8.post'
	--only jit_copy2d_64x64_w4_f16 --only copy1d_f32 --only 'dropout*' --only 'l2norm_dot_64x64x64_f16_sm80_w4.post'
	--only 'join_split_32x32_sm80_w4.post' --only 'reshape_16x64_sm80_w2.post' --only 'argmin_reduce_axis1_32x64_sm80_w4.post'
	--only 'flashattn_64x64x64_sm80_w4.post' --only 'sum_axis1_128x32_sm80_w2.post' --only 'cumsum_axis1_16x128_sm80_w2.post'
	--only 'matmul_64x64x32_f16_sm80_w4.post' --only 'layernorm2d_16x128_sm80_w4.post' --only 'softmax*sm80*.post' --only 'argm*')
timeout 500 python3 /tmp/ab/after/compare.py --changed "${sel[@]}" --runs 30 --warmup 3 --work /tmp/pw --out $OUT/hdr \
	after=/tmp/ab/after hdr=/tmp/ab/hdr disj=/tmp/ab/disj > $OUT/hdr.txt 2>&1
echo "hdr rc=$? $SECONDS s"; cat $OUT/hdr.txt | cut -c1-220
