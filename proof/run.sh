#!/usr/bin/env bash
# run.sh runs the whole proof on the GPU machine, from the bundle that
# build.sh made: package cuda's tests on the real driver, then every kernel
# (correctness against the interpreter and Triton 3.6, benchmarks against a
# device copy and Triton 3.6 on the same TTGIR). It writes report.json and
# report.md into OUT (default $OUT, else ./proof-out).
#
#	bundle/run.sh [--only NAME]… [--runs N] [--skip-tests]
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
exec python3 "$bundle/triton_ref.py" --bundle "$bundle" --out "$out" ${args[@]+"${args[@]}"}
