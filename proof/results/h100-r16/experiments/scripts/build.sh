#!/usr/bin/env bash
# Builds the experiments into BUNDLE (then on the GPU machine: bash BUNDLE/run.sh OUT): program-order and cache-hint
# variants of the transposes, write-ratio ceilings, the dropout compute floor.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
B=$(realpath -m "${1:?usage: build.sh BUNDLE}")
rm -rf "$B"; mkdir -p "$B/k"
cd "$root"
CGO_ENABLED=0 go build -trimpath -o "$B/ttgir-run" ./cmd/ttgir-run
go build -o /tmp/exp-lt ./cmd/layout-translate
S=${SHARED:-$root/../shared}/triton36
P=passes/testdata/prepost
lower() { # name ttgir [flags...]
	local n=$1 t=$2; shift 2
	cp "$t" "$B/k/$n.ttgir"
	/tmp/exp-lt -ttgir-to-ptx -compute-capability 90 "$@" -kernel-json /tmp/exp-$n.kj -o "$B/k/$n.ptx" "$B/k/$n.ttgir"
	python3 -c "import json,sys; k=json.load(open('/tmp/exp-$n.kj'))[0]; json.dump({'name':k['name'],'num_warps':k['num_warps'],'shared':k['shared_bytes']}, open(sys.argv[1],'w'))" "$B/k/$n.json"
}
for spec in "t128f32:$P/transpose_128x128_f32_sm80_w8.post.ttgir" "t64f16:$S/ttgir/transpose_64x64_f16_sm80_w4.ttgir" \
	"t64f32s90:$S/ttgir/transpose_64x64_f32_sm90_w4.ttgir" "t32x128f16:$P/transpose_32x128_f16_sm90_w8.post.ttgir"; do
	n=${spec%%:*} t=${spec#*:}
	lower "$n.cur" "$t"
	lower "$n.nopf" "$t" -l2-prefetch off
	lower "$n.launch" "$t" -program-order launch
	for fam in A B; do for G in 2 4 8 16; do
		python3 "$here/gen_order.py" "$t" $fam $G >/tmp/exp-v.ttgir
		lower "$n.$fam$G" /tmp/exp-v.ttgir -program-order launch
	done; done
	sed -E 's/st\.global\./st.global.cs./' "$B/k/$n.cur.ptx" >"$B/k/$n.stcs.ptx"; cp "$B/k/$n.cur.json" "$B/k/$n.stcs.json"; cp "$B/k/$n.cur.ttgir" "$B/k/$n.stcs.ttgir"
	sed -E 's/ld\.global\./ld.global.cs./; s/st\.global\./st.global.cs./' "$B/k/$n.cur.ptx" >"$B/k/$n.cs.ptx"; cp "$B/k/$n.cur.json" "$B/k/$n.cs.json"; cp "$B/k/$n.cur.ttgir" "$B/k/$n.cs.ttgir"
done
lower fp4 proof/kernels/fp4_to_bf16.ttgir
sed -e 's/%f = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<32x128xi8, #s> -> tensor<32x256xbf16, #d>/%f = arith.extui %x : tensor<32x128xi8, #s> to tensor<32x128xi32, #s>/' \
    -e 's/!tt.ptr<bf16>/!tt.ptr<i32>/g; s/tensor<32x256x!tt.ptr<i32>, #d>/tensor<32x128x!tt.ptr<i32>, #s>/g; s/%oa = tt.addptr %op, %b_off : tensor<32x128x!tt.ptr<i32>, #s>, tensor<32x256xi32, #d>/%oa = tt.addptr %op, %a_off : tensor<32x128x!tt.ptr<i32>, #s>, tensor<32x128xi32, #s>/; s/%c8192 = arith.constant 8192/%c8192 = arith.constant 4096/; s/tt.store %oa, %f : tensor<32x128x!tt.ptr<i32>, #s>/&/' \
    proof/kernels/fp4_to_bf16.ttgir >/tmp/exp-widen.ttgir
lower widen /tmp/exp-widen.ttgir
sed -e 's/%x = tt.load %ia : tensor<32x128x!tt.ptr<i8>, #s>/%x = arith.constant dense<7> : tensor<32x128xi8, #s>/' /tmp/exp-widen.ttgir >/tmp/exp-fill.ttgir
lower fill /tmp/exp-fill.ttgir
lower dropout $P/dropout_1024_sm80_w4.post.ttgir
lower wgmma_i8 proof/kernels/wgmma_i8_64x64x64.ttgir
cd "$root"
sed -e 's/#s = #ttg.blocked<{sizePerThread = \[1, 4\], threadsPerWarp = \[1, 32\]/#s = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16]/' \
    -e 's/#d = #ttg.blocked<{sizePerThread = \[1, 8\], threadsPerWarp = \[1, 32\]/#d = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [2, 16]/' proof/kernels/fp4_to_bf16.ttgir >/tmp/exp-fp4v8.ttgir
lower fp4v8 /tmp/exp-fp4v8.ttgir
sed -e 's/#s = #ttg.blocked<{sizePerThread = \[1, 4\], threadsPerWarp = \[1, 32\]/#s = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8]/' \
    -e 's/#d = #ttg.blocked<{sizePerThread = \[1, 8\], threadsPerWarp = \[1, 32\]/#d = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [4, 8]/' proof/kernels/fp4_to_bf16.ttgir >/tmp/exp-fp4v16.ttgir
lower fp4v16 /tmp/exp-fp4v16.ttgir
lower iasm proof/kernels/inline_asm_bytes.ttgir
cp "$here/run.sh" "$B/"
