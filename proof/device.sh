#!/usr/bin/env bash
# device.sh runs the whole proof on the GPU machine in parts that each fit
# one call of the device machine (10 minutes), from the bundle build.sh
# made, and merges their reports:
#
#	bundle/device.sh main OUT   # every check, package cuda's tests, proof/checks, ptxas;
#	                            # the realistic kernels timed but the .pre-ours, then the
#	                            # .pre-ours whose PTX differs from the .post's, while time is left
#	bundle/device.sh tile OUT   # the tile kernels (one program is the whole problem; CUDA graphs)
#	bundle/device.sh check OUT [GLOB...]  # the checks alone, nothing timed (OUT/check): every
#	                            # one, or only the kernels GLOBs name (then no cuda tests or ptxas),
#	                            # for a short call; OUT/check/triton.tgz holds Triton's PTX and
#	                            # cubin of each kernel (NAME/triton.ptx, NAME/triton.cubin)
#	bundle/device.sh recheck OUT  # the kernels main and tile found below Triton's PTX timed
#	                            # again, twice (compare.py --runs 50, ours first then Triton's
#	                            # first; OUT/recheck/recheck.md)
#	bundle/device.sh merge OUT  # OUT/merged: the parts' reports as one (merge.py)
#	bundle/device.sh list pre-ours|tile   # the kernels those parts time
#
# OUT collects each part's report (OUT/main, OUT/main/pre-ours, OUT/tile, OUT/check).
# A .pre-ours whose PTX equals its .post's is not timed twice. Environment:
# RUNS (default 20), JOBS (16), BUDGET (seconds a part may run: main times the
# .pre-ours and recheck measures while it lasts; default 585).
set -uo pipefail
bundle=$(cd "$(dirname "$0")" && pwd)
usage="usage: device.sh main|tile|recheck|merge OUT, device.sh check OUT [GLOB...], or device.sh list pre-ours|tile"
part=${1:?$usage}
arg=${2:?$usage}
runs=${RUNS:-20}
jobs=${JOBS:-16}
budget=${BUDGET:-585}
start=$(date +%s)

# pick prints the kernels of a kind: "pre-ours" (realistic .pre-ours
# whose PTX differs from the .post's) or "tile" (no realistic size, not
# class sync, a .pre-ours only where its PTX differs).
pick() {
	python3 - "$bundle" "$1" <<'PY'
import filecmp, json, os, sys
bundle, kind = sys.argv[1:]
ks = json.load(open(os.path.join(bundle, "kernels.json")))["kernels"]
def same_as_post(n):
    if not n.endswith(".pre-ours"):
        return False
    a, b = (os.path.join(bundle, "ptx", x + ".lt.ptx") for x in (n, n[:-len(".pre-ours")] + ".post"))
    return os.path.exists(a) and os.path.exists(b) and filecmp.cmp(a, b, shallow=False)
for k in ks:
    n, tile = k["name"], bool(k.get("no_realistic_size"))
    if same_as_post(n):
        continue
    if kind == "pre-ours" and not tile and n.endswith(".pre-ours"):
        print(n)
    if kind == "tile" and tile and k.get("class") != "sync":
        print(n)
PY
}

[ "$part" = list ] && { pick "$arg"; exit; }
out=$(realpath -m "$arg")

gpu() {
	nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv >"$1/gpu.txt" 2>&1
}

case $part in
main)
	mkdir -p "$out/main/pre-ours"
	gpu "$out/main"
	OUT=$out/main "$bundle/run.sh" --jobs "$jobs" --runs "$runs" --warmup 3 --bench-realistic --no-bench '*.pre-ours' \
		--work /tmp/proof-work >"$out/main/log.txt" 2>&1
	echo "main: rc=$? after $(($(date +%s) - start)) s" | tee -a "$out/main/log.txt"
	args=()
	while read -r k; do [ -n "$k" ] && args+=(--only "$k" --bench "$k"); done < <(pick pre-ours)
	left=$((budget - ($(date +%s) - start)))
	if [ ${#args[@]} -gt 0 ] && [ $left -gt 30 ]; then
		OUT=$out/main/pre-ours timeout "$left" "$bundle/run.sh" --skip-tests --no-ptxas --jobs "$jobs" --runs "$runs" \
			--warmup 3 --work /tmp/proof-work "${args[@]}" >"$out/main/pre-ours/log.txt" 2>&1
		echo "pre-ours: rc=$? after $(($(date +%s) - start)) s" | tee -a "$out/main/pre-ours/log.txt"
	else
		echo "pre-ours: not run (${#args[@]} arguments, ${left} s left)"
	fi
	;;
tile)
	mkdir -p "$out/tile"
	gpu "$out/tile"
	args=()
	while read -r k; do [ -n "$k" ] && args+=(--only "$k"); done < <(pick tile)
	OUT=$out/tile "$bundle/run.sh" --skip-tests --no-ptxas --jobs "$jobs" --runs "$runs" --warmup 3 \
		--work /tmp/proof-work-tile "${args[@]}" >"$out/tile/log.txt" 2>&1
	echo "tile: rc=$? after $(($(date +%s) - start)) s" | tee -a "$out/tile/log.txt"
	;;
check)
	mkdir -p "$out/check"
	gpu "$out/check"
	args=()
	for g in "${@:3}"; do args+=(--only "$g"); done
	[ ${#args[@]} -gt 0 ] && args+=(--skip-tests --no-ptxas)
	OUT=$out/check "$bundle/run.sh" --jobs "$jobs" --bench none --work /tmp/proof-work "${args[@]}" \
		>"$out/check/log.txt" 2>&1
	echo "check: rc=$? after $(($(date +%s) - start)) s" | tee -a "$out/check/log.txt"
	# Triton's PTX and cubin of every kernel checked, for reading its code
	# beside ours (one file: the device machine returns few).
	if [ -d /tmp/proof-work/kernels ]; then
		(cd /tmp/proof-work/kernels && find . -name 'triton.ptx' -o -name 'triton.cubin' | tar czf "$out/check/triton.tgz" -T -)
	fi
	;;
recheck)
	reports=()
	for d in "$out/main" "$out/main/pre-ours" "$out/tile"; do
		[ -f "$d/report.json" ] && reports+=("$d/report.json")
	done
	[ ${#reports[@]} -gt 0 ] || { echo "recheck: no main or tile report in $out" >&2; exit 1; }
	mkdir -p "$out/recheck"
	args=()
	while read -r k; do [ -n "$k" ] && args+=(--only "$k"); done < <(python3 "$bundle/recheck.py" select "${reports[@]}")
	compares=()
	for rep in 1 2; do
		[ ${#args[@]} -gt 0 ] || break
		left=$((budget - ($(date +%s) - start)))
		[ $left -gt 30 ] || { echo "recheck: no time left for measurement $rep"; break; }
		order=()
		[ $rep = 2 ] && order=(--triton-first) # the other order: a bias of the order shows
		timeout "$left" python3 "$bundle/compare.py" "${args[@]}" "${order[@]}" --no-check --runs 50 \
			--work /tmp/proof-work --out "$out/recheck/$rep" "ours=$bundle" >"$out/recheck/$rep.txt" 2>&1
		echo "recheck $rep: rc=$? after $(($(date +%s) - start)) s" | tee -a "$out/recheck/log.txt"
		compares+=("$out/recheck/$rep/compare.json")
	done
	python3 "$bundle/recheck.py" summarize -o "$out/recheck" "${reports[@]}" --compare "${compares[@]}"
	;;
merge)
	runs_found=()
	for d in "$out/check" "$out/main" "$out/main/pre-ours" "$out/tile"; do
		[ -f "$d/report.json" ] && runs_found+=("$d")
	done
	python3 "$bundle/merge.py" -o "$out/merged" "${runs_found[@]}"
	;;
*)
	echo "device.sh: unknown part $part (main, tile, check, recheck or merge)" >&2
	exit 2
	;;
esac
