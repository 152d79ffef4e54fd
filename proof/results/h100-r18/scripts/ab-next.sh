#!/bin/bash
# For the next session's first device call: time this session's untimed codegen changes.
# Here, beside this script (git-ignored carry folder, or copy it there):
#   git worktree add /tmp/before bbf9704 && (cd /tmp/before && LIBDEVICE=… proof/build.sh /tmp/bb/before)
#   LIBDEVICE=… proof/build.sh /tmp/bb/after                          # the tip: byte stores, scan selp, rsqrt.ftz
#   LT_FLAGS=-fuse-mad-wide LIBDEVICE=… proof/build.sh /tmp/bb/madwide # and mad.wide
#   tar czf before.tgz -C /tmp/bb before; tar czf after.tgz -C /tmp/bb after; tar czf madwide.tgz -C /tmp/bb madwide
# Then on the GPU: bash ab-next.sh (one call, under 10 minutes: compare.py checks each kernel whose
# PTX differs between two bundles, then times both bundles' PTX and Triton's in one process).
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/ab; mkdir -p /tmp/ab
for b in before after madwide; do tar xzf $here/$b.tgz -C /tmp/ab; done
for b in before madwide; do [ -d /tmp/ab/$b/bin ] || cp -r /tmp/ab/after/bin /tmp/ab/$b/; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/gpu.txt 2>&1
# 1. The byte stores, scan selects and rsqrt.ftz: the ~36 kernels whose PTX they change.
# (compare.py takes the tile kernels only when --only names them.)
sel1=(--only 'wgmma_*' --only 'cumsum*' --only 'assocscan*' --only 'l2norm_dot_*' --only 'layernorm2d_*' --only 'rmsnorm_*')
timeout 300 python3 /tmp/ab/after/compare.py --changed "${sel1[@]}" --runs 30 --warmup 3 --work /tmp/pw --out $OUT/ab1 \
	before=/tmp/ab/before after=/tmp/ab/after > $OUT/ab1.txt 2>&1
echo "ab1 rc=$? $SECONDS s"; tail -n 25 $OUT/ab1.txt
# 2. mad.wide changes ~220 kernels' PTX: the ones h100-r17 found behind Triton, and a sample ahead.
sel=(--only fp4_to_bf16 --only 'transpose_*' --only jit_transpose_64x64_w4_f32 --only 'reshape_*'
	--only 'join_split_*' --only 'permute_*' --only 'transpose_scale_*' --only 'argmin_reduce_axis1_*'
	--only 'sum_axis1_*' --only 'rope_*' --only copy1d_f32 --only add_b1024_sm90_w4 --only 'masked_bias_*'
	--only 'wgmma_i8_*' --only 'l2norm_dot_64x64x64*' --only 'flashattn_64x64x64_sm80_w4*' --only 'bcast_dot3d_*')
timeout $(( 560 - SECONDS )) python3 /tmp/ab/after/compare.py --changed "${sel[@]}" --runs 30 --warmup 3 --work /tmp/pw \
	--out $OUT/ab2 after=/tmp/ab/after madwide=/tmp/ab/madwide > $OUT/ab2.txt 2>&1
echo "ab2 rc=$? $SECONDS s"; tail -n 40 $OUT/ab2.txt
