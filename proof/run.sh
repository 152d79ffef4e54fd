#!/usr/bin/env bash
# run.sh runs the whole proof on the GPU machine, from the bundle that
# build.sh made: package cuda's tests on the real driver, the checks of
# proof/checks (gpu_check.py: our PTX against the interpreter where Triton is
# no oracle: tt.print's lines, tensor descriptors a kernel makes), then
# triton_ref.py: a ptxas --gpu-name sm_90 sweep over our PTX, every kernel's
# check (Triton's PTX and ours against the interpreter at the check size, in
# parallel; ours against Triton's own launcher), then the benchmarks at
# realistic size (against a device copy and Triton 3.6 on the same TTGIR),
# with progress on stderr. It writes report.json and report.md (a summary
# and one row per kernel) into OUT (default $OUT, else ./proof-out).
#
#	bundle/run.sh [--only NAME|GLOB]… [--shard I/N] [--bench NAME|GLOB|none]…
#	              [--no-bench NAME|GLOB]… [--bench-realistic] [--runs N] [--jobs N]
#	              [--no-ptxas] [--skip-tests]
#
# The whole proof (261 kernels) takes longer than one 10-minute call of the
# device machine: split it with --shard 0/3, 1/3, 2/3 (or --only), and
# --bench to time a subset.
set -euo pipefail
bundle=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$PWD/proof-out}
mkdir -p "$out"
skip_tests=0
args=()
for a in "$@"; do
	if [ "$a" = --skip-tests ]; then skip_tests=1; else args+=("$a"); fi
done
if [ $skip_tests = 0 ]; then
	echo "== package cuda's tests on the driver" >&2
	(cd "$bundle/cudatest" && "$bundle/bin/cuda.test" -test.v -test.count=1) >"$out/cuda-test.log" 2>&1 \
		&& echo "cuda tests: PASS" >&2 || { echo "cuda tests: FAIL (see cuda-test.log)" >&2; tail -30 "$out/cuda-test.log" >&2; }
fi
if [ $skip_tests = 0 ]; then
	echo "== proof/checks: our PTX against the interpreter" >&2
	OUT="$out" python3 "$bundle/gpu_check.py" || echo "gpu check: FAIL (see gpu-check.json)" >&2
fi
exec python3 "$bundle/triton_ref.py" --bundle "$bundle" --out "$out" ${args[@]+"${args[@]}"}
