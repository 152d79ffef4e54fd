#!/bin/bash
# GPU checks of the wgmma f16 accumulator (against the interpreter) and tt.elementwise_inline_asm (dumps against the asm's semantics).
B=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name --format=csv,noheader
$B/ttgir-run $B/wg16.ttgir -ptx $B/wg16.ptx -meta $B/wg16.json -arg a=randn:f16:4096 -arg b=randn:f16:4096 -arg out=zeros:f32:4096 -grid 1 -check -rtol 0.01 -atol 0.1 -q; echo "wg16 check rc=$?"
$B/ttgir-run $B/ia.ttgir -func bytes -ptx $B/ia.ptx -meta $B/bytes.json -arg p=rand:i8:128 -arg q=zeros:i8:128 -grid 1 -dump $OUT/bytes -q; echo "bytes rc=$?"
$B/ttgir-run $B/ia.ttgir -func pair -ptx $B/ia.ptx -meta $B/pair.json -arg p=randn:f32:128 -arg q=rand:i32:128 -grid 1 -dump $OUT/pair -q; echo "pair rc=$?"
$B/ttgir-run $B/ia.ttgir -func tied -ptx $B/ia.ptx -meta $B/tied.json -arg p=rand:i16:128 -grid 1 -dump $OUT/tied -q; echo "tied rc=$?"
python3 $B/check.py $OUT
