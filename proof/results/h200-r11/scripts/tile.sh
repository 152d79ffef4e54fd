#!/usr/bin/env bash
# Runs the tile kernels (.post; PRE=1 also .pre-ours) of the bundle and
# returns the report, and Triton's PTX of them.
set -u
b=${B:-.dev/cur/bundle}
only=()
for n in $(cat .dev/tile/post.txt); do only+=(--only "$n"); done
if [ "${PRE:-0}" = 1 ]; then for n in $(cat .dev/tile/pre.txt); do only+=(--only "$n"); done; fi
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $OUT/gpu.txt 2>&1
$b/run.sh --jobs 16 --runs 20 --warmup 3 "${only[@]}" > $OUT/log.txt 2>&1
echo rc=$? >> $OUT/log.txt
[ "${PTX:-1}" = 1 ] && (cd /tmp/proof-work/kernels && tar czf $OUT/tritonptx.tgz */triton.ptx)
tail -5 $OUT/log.txt
