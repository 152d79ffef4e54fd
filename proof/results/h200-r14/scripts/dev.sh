#!/usr/bin/env bash
# Phase A: raster experiment, SASS of base/nosink/mn1, memory kernels with swap/l2.
# Phase B: realistic kernels whose SASS nosink or mn1 changes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
R=/tmp/b
phase=${1:-A}
if [ ! -d $R/base ]; then
  mkdir -p $R; tar xzf $here/base.tgz -C $R
  for v in nosink mn1 swap l2; do cp -r $R/base $R/$v; tar xzf $here/$v.tgz -C $R/$v/ptx; done
fi
cd $R
if [ $phase = A ]; then
  nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/gpu.txt 2>&1
  python3 $here/raster.py > $OUT/raster.txt 2>&1; echo "raster done $SECONDS s"; tail -n 30 $OUT/raster.txt
  ls base/ptx/*.ptx nosink/ptx/*.ptx mn1/ptx/*.ptx | xargs -P 16 -I{} sh -c 'ptxas -arch sm_90 -v {} -o {}.cubin > {}.ptxas 2>&1; cuobjdump -sass {}.cubin | grep -E "^\s+/\*[0-9a-f]+\*/" | sed -E "s#/\*[0-9a-f]+\*/##g" | md5sum | cut -c1-12 > {}.md5'
  for f in base/ptx/*.lt.ptx; do n=$(basename $f); line="$n"; for v in base nosink mn1; do r=$(grep -o 'Used [0-9]* registers' $v/ptx/$n.ptxas | awk '{print $2}'); s=$(grep -c spill $v/ptx/$n.ptxas); line="$line $v:$r:$(cat $v/ptx/$n.md5)"; done; echo "$line"; done > $OUT/sass-summary.txt
  python3 $here/sel.py $R nosink mn1 > $OUT/sel.txt; echo "ptxas done $SECONDS s; $(wc -l < $OUT/sel.txt) selected"
  mem=(); for n in copy2d_64x64_sm90_w4 jit_copy2d_64x64_w4_f16 jit_transpose_64x64_w4_f32 transpose_64x64_f32_sm90_w4 transpose_64x64_f16_sm80_w4 masked_bias_64x64_sm90_w4.post transpose_64x64_f32_sm80_w4.post transpose_32x128_f16_sm90_w8.post transpose_128x128_f32_sm80_w8.post; do mem+=(--only $n); done
  timeout 200 python3 base/compare.py --no-check --runs 30 --warmup 3 --work /tmp/pw --out /tmp/o-mem "${mem[@]}" base=base swap=swap l2=l2 > $OUT/mem.txt 2>&1; echo "mem done $SECONDS s"; cat $OUT/mem.txt
  timeout 120 python3 base/compare.py --runs 30 --warmup 3 --work /tmp/pw --out /tmp/o-fa --only 'flashattn_64x64x64_sm80_w4.post' --only 'flashattn_causal_64x32x32_sm80_w4.post' base=base nosink=nosink mn1=mn1 > $OUT/fa.txt 2>&1; echo "fa done $SECONDS s"; cat $OUT/fa.txt
fi
if [ $phase = A ] || [ $phase = B ]; then
  args=(); while read -r k; do [ -n "$k" ] && args+=(--only "$k"); done < ${SEL:-$OUT/sel.txt}
  timeout $(( ${END:-575} - SECONDS )) python3 base/compare.py --no-check --runs 20 --warmup 3 --work /tmp/pw --out $OUT/b "${args[@]}" base=base nosink=nosink mn1=mn1 > $OUT/b.txt 2>&1; echo "B done $SECONDS s"; cat $OUT/b.txt
fi
