#!/usr/bin/env bash
# On the GPU machine: bash b/run.sh OUT
B=$(cd "$(dirname "$0")" && pwd); OUT=${1:-/tmp/exp1}; mkdir -p "$OUT/j"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm --format=csv > "$OUT/gpu.txt" 2>&1
R="$B/ttgir-run"
bench() { # label ttgir-base args...
	if [ $SECONDS -gt ${BUDGET:-470} ]; then echo "$1 skipped (time)" | tee -a "$OUT/table.txt"; return; fi
	local lab=$1 k=$2; shift 2
	"$R" "$B/k/$k.ttgir" -ptx "$B/k/$k.ptx" -meta "$B/k/$k.json" -bench ${RUNS:-50} -q -json "$OUT/j/$lab.json" "$@" >/dev/null 2>"$OUT/j/$lab.err" || echo "$lab FAILED: $(tail -3 $OUT/j/$lab.err)"
	python3 - "$OUT/j/$lab.json" "$lab" <<'PY' | tee -a "$OUT/table.txt"
import json, sys
try:
    r = json.load(open(sys.argv[1])); b = r["bench"]
    print(f"{sys.argv[2]:24s} {b['kernel']['median_ms']*1000:9.2f} us  copy {b['copy']['median_ms']*1000:9.2f} us  {b['pct_of_copy']:6.2f}% of copy")
except Exception as e:
    print(f"{sys.argv[2]:24s} no result ({e})")
PY
}
T128="-arg x_ptr=rand:f32:8192x8192 -arg y_ptr=zeros:f32:8192x8192 -arg stride_x=8192 -arg stride_y=8192 -grid 64,64"
T64H="-arg x=rand:f16:16384x16384 -arg y=zeros:f16:16384x16384 -arg M=16384 -arg N=16384 -arg sxm=16384 -arg sym=16384 -grid 256,256"
T64F="-arg x=rand:f32:8192x8192 -arg y=zeros:f32:8192x8192 -arg M=8192 -arg N=8192 -arg sxm=8192 -arg sym=8192 -grid 128,128"
T32="-arg x_ptr=rand:f16:16384x16384 -arg y_ptr=zeros:f16:16384x16384 -arg stride_x=16384 -arg stride_y=16384 -grid 512,128"
D="-arg x_ptr=rand:f32:33554432 -arg y_ptr=zeros:f32:33554432 -arg p=0.5 -arg seed=1234 -grid 32768"
F="-arg in=rand:i8:67108864:lo=-128:hi=127 -grid 16384"
bench dropout dropout $D -arg n=33554432
bench dropout.n0 dropout $D -arg n=0 -bytes 268435456
bench fp4 fp4 $F -arg out=zeros:bf16:134217728
bench fp4v8 fp4v8 $F -arg out=zeros:bf16:134217728
bench fp4v16 fp4v16 $F -arg out=zeros:bf16:134217728
bench widen widen $F -arg out=zeros:i32:67108864
bench fill fill $F -arg out=zeros:i32:67108864 -bytes 268435456
for spec in "t128f32:$T128" "t64f16:$T64H" "t64f32s90:$T64F" "t32x128f16:$T32"; do
	n=${spec%%:*} a=${spec#*:}
	for v in cur nopf launch A2 A4 A8 A16 B2 B4 B8 B16 stcs cs cur; do
		bench "$n.$v" "$n.$v" $a
	done
done
bench dropout.again dropout $D -arg n=33554432
bench fill.again fill $F -arg out=zeros:i32:67108864 -bytes 268435456
"$R" "$B/k/wgmma_i8.ttgir" -ptx "$B/k/wgmma_i8.ptx" -meta "$B/k/wgmma_i8.json" -check -rtol 0 -atol 0 -arg a=rand:i8:4096:lo=-128:hi=127 -arg b=rand:i8:4096:lo=-128:hi=127 -arg out=zeros:i32:4096 -grid 1 2>&1 | tail -5 | tee -a "$OUT/table.txt"
"$R" "$B/k/wgmma_i8.ttgir" -ptx "$B/k/wgmma_i8.ptx" -meta "$B/k/wgmma_i8.json" -check -rtol 0 -atol 0 -seed 9 -arg a=rand:i8:4096:lo=-128:hi=127 -arg b=rand:i8:4096:lo=-128:hi=127 -arg out=zeros:i32:4096 -grid 1 2>&1 | tail -3 | tee -a "$OUT/table.txt"
"$R" "$B/k/iasm.ttgir" -ptx "$B/k/iasm.ptx" -meta "$B/k/iasm.json" -check -rtol 0 -atol 0 -arg x=rand:i8:100003:lo=-128:hi=127 -arg y=zeros:i8:100003 -arg n=100003 -grid 49 2>&1 | tail -3 | tee -a "$OUT/table.txt"
BUDGET=560 bench iasm iasm -arg x=rand:i8:134217728:lo=-128:hi=127 -arg y=zeros:i8:134217728 -arg n=134217728 -grid 65536
