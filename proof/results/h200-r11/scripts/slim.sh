#!/usr/bin/env bash
# slim.sh SRC DST NAME... : a bundle with only these kernels' TTGIR and PTX,
# kernels.json and the scripts; its bin/ttgir-run is copied in on the device
# (NOBIN=1) or here.
set -eu
src=$1 dst=$2; shift 2
rm -rf $dst; mkdir -p $dst/kernels $dst/ptx
[ "${NOBIN:-0}" = 1 ] || { mkdir -p $dst/bin; cp $src/bin/ttgir-run $dst/bin/; }
cp $src/kernels.json $src/compare.py $src/triton_ref.py $dst/
for n in "$@"; do cp $src/kernels/$n.ttgir $dst/kernels/ 2>/dev/null || true; cp $src/ptx/$n.lt.ptx $dst/ptx/; done
