#!/bin/bash
cd "$(dirname "$0")"
for v in b16x16 b32x32 b64x8 b8x64 b128x4; do ln -sfn ../../../cur/bundle/bin $v/slim/bin; done
ln -sfn ../../cur/bundle/bin ../l2/slim/bin
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
python3 ../cur/bundle/compare.py --only 'jit_transpose_64x64_w4_f32' --only transpose_64x64_f32_sm90_w4 --only transpose_64x64_f16_sm80_w4 \
  launch=../cur/bundle l2=../l2/slim b16x16=b16x16/slim b32x32=b32x32/slim b64x8=b64x8/slim b8x64=b8x64/slim b128x4=b128x4/slim \
  --work /tmp/pw --out $OUT/blk > $OUT/blk.txt 2>&1
echo "rc=$?" >> $OUT/blk.txt
# dropout: SASS of ours and Triton's
python3 ../cur/bundle/compare.py --only dropout_1024_sm80_w4.post --no-check ours=../cur/bundle --work /tmp/pw --out $OUT/drop > $OUT/drop.txt 2>&1
P=../cur/bundle/ptx/dropout_1024_sm80_w4.post.lt.ptx
T=/tmp/pw/kernels/dropout_1024_sm80_w4.post/triton.ptx
for x in ours:$P triton:$T; do n=${x%%:*}; f=${x#*:}
  ptxas -arch=sm_90a -v $f -o /tmp/$n.cubin > $OUT/drop-$n-ptxas.txt 2>&1
  cuobjdump -sass /tmp/$n.cubin > $OUT/drop-$n.sass 2>&1
  grep -oE '^\s+/\*[0-9a-f]+\*/\s+[A-Z0-9_.]+' $OUT/drop-$n.sass | awk '{print $2}' | sed 's/\..*//' | sort | uniq -c | sort -rn > $OUT/drop-$n-ops.txt
done
echo done
