#!/bin/bash
# The whole proof at HEAD (264 checks, realistic kernels timed) and then the 44 .pre-ours whose PTX differs from the .post's, in one call.
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/f; mkdir -p /tmp/f; tar xzf $here/final.tgz -C /tmp/f; B=/tmp/f/final
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/gpu.txt 2>&1
OUT=$OUT $B/run.sh --jobs 16 --runs 20 --warmup 3 --bench-realistic --bench '*.post' --bench copy1d_f32 --bench add_b1024_sm90_w4 --bench copy2d_64x64_sm90_w4 --bench jit_copy2d_64x64_w4_f16 --bench jit_transpose_64x64_w4_f32 --bench transpose_64x64_f32_sm90_w4 --bench transpose_64x64_f16_sm80_w4 --bench softmax_b1024_sm90_w4 --bench matmul_64x64x32_f16_sm80_w4 --bench matmul_128x128x64_f16_sm90_w8 --bench jit_matmul_128x128x64_w8_s3 --bench libdevice_tanh_pow --work /tmp/pw > $OUT/log.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/log.txt
args=()
while read -r k; do [ -n "$k" ] && args+=(--only "$k" --bench "$k"); done < $here/preours.txt
mkdir -p $OUT/pre-ours
left=$(( 585 - ($(date +%s) - start) ))
OUT=$OUT/pre-ours timeout $left $B/run.sh --skip-tests --no-ptxas --jobs 16 --runs 20 --warmup 3 --bench-realistic --work /tmp/pw "${args[@]}" > $OUT/pre-ours/log.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/pre-ours/log.txt
tail -n 3 $OUT/log.txt $OUT/pre-ours/log.txt
grep -i -A3 'print check\|cuda tests' $OUT/log.txt | head
find $OUT -type f | sed "s#$OUT/##" | sort | head -30
