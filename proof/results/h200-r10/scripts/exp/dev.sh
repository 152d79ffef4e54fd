#!/bin/bash
cd "$(dirname "$0")"
for v in base occ pf cs occpf; do ln -sfn ../../../cur/bundle/bin $v/slim/bin; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
python3 ../cur/bundle/compare.py --no-check base=base/slim occ=occ/slim pf=pf/slim cs=cs/slim occpf=occpf/slim --work /tmp/pw --out $OUT/cmp > $OUT/cmp.txt 2>&1
echo "rc=$?" >> $OUT/cmp.txt
B=$PWD
timeout 200 python3 ncu.py $OUT/ncu.txt base=$B/base/slim:transpose_64x64_f16_sm80_w4 occ=$B/occ/slim:transpose_64x64_f16_sm80_w4 pf=$B/pf/slim:transpose_64x64_f16_sm80_w4 triton=$B/base/slim:transpose_64x64_f16_sm80_w4:triton base=$B/base/slim:jit_copy2d_64x64_w4_f16 base=$B/base/slim:transpose_64x64_f32_sm90_w4 > $OUT/ncu.log 2>&1
echo done
