#!/usr/bin/env bash
# build.sh builds the proof bundle on the development machine (Go, llc-14):
# static binaries (CGO_ENABLED=0: the GPU machine has no Go), every kernel's
# TTGIR, the PTX of our own code generation, the manifest and the GPU-side
# driver, into one folder that run.sh runs on the GPU machine.
#
#	proof/build.sh [BUNDLE]        # default: proof/bundle (git-ignored)
#
# PTX comes from layout-translate -ttgir-to-ptx for every kernel it lowers
# (the binary $LAYOUT_TRANSLATE, else cmd/layout-translate when this tree has
# it; a kernel it cannot lower is listed in BUNDLE/build.log and runs with
# Triton's PTX only), plus the llir/llvm copy kernels of internal/copykernel
# (cuda/testdata, checked against llc-14 by go test ./internal/copykernel).
#
# Our PTX is lowered for compute capability max(module's, $PROOF_CC), default
# 90: the proof's GPU is an H200, and triton_ref.py compiles Triton's side
# for max(module's, the device's) too, so both lower an sm_80 module for
# sm_90 (vector atomics, the sm_90 shared-memory plans). A manifest entry's
# "cc" overrides it (the sm_80 lowering of the mbarrier check). A kernel
# calling libdevice links $LIBDEVICE (or a CUDA toolkit's libdevice.10.bc;
# .ci/run unpacks Debian's): without one it runs with Triton's PTX only.
# $LT_FLAGS adds flags to every layout-translate (e.g. -fuse-mad-wide, for a
# bundle to compare with compare.py --changed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=$(realpath -m "${1:-$root/proof/bundle}")
shared=${SHARED:-$root/../shared}
cd "$root"
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/kernels" "$bundle/ptx" "$bundle/cudatest/testdata"
log=$bundle/build.log
: >"$log"

echo "building static binaries" >&2
CGO_ENABLED=0 go build -trimpath -o "$bundle/bin/ttgir-run" ./cmd/ttgir-run
CGO_ENABLED=0 go test -c -trimpath -o "$bundle/bin/cuda.test" ./cuda
cp cuda/testdata/*.ptx "$bundle/cudatest/testdata/"
cp cuda/testdata/copy1d_f32.ptx cuda/testdata/copy1d_f32_roundtrip.ptx "$bundle/ptx/"
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
translate=""
if [ -n "${LAYOUT_TRANSLATE:-}" ]; then
	translate=$LAYOUT_TRANSLATE
elif [ -d cmd/layout-translate ]; then
	go build -o "$tools/layout-translate" ./cmd/layout-translate
	translate=$tools/layout-translate
fi
go build -o "$tools/layout-opt" ./cmd/layout-opt
ln -s "$bundle/bin/ttgir-run" "$tools/ttgir-run"

# The kernels: copy each TTGIR in (or our passes' output of it), check its
# arguments against it (ttgir-run -dry-run), and lower it when we can; on
# two goroutines' worth of processes.
echo "preparing $(grep -c '"name"' proof/kernels.json) kernels (layout-opt, layout-translate)" >&2
python3 - "$root/proof/kernels.json" "$bundle" "$shared" "$translate" "$log" "$tools" "${BUILD_JOBS:-2}" <<'PY'
import json, os, shutil, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
manifest, bundle, shared, translate, log, tools, jobs = sys.argv[1:]
root = os.path.dirname(os.path.dirname(manifest))
m = json.load(open(manifest))
byname = {k["name"]: k for k in m["kernels"]}
INHERIT = ("class", "kernel", "args", "grid", "check_args", "check_grid", "rtol", "atol", "flops", "bytes",
           "no_realistic_size", "graph")


def source(t):
    if t.startswith("shared:"):
        return os.path.join(shared, "triton36", t[len("shared:"):])
    if t.startswith("prepost:"):
        return os.path.join(root, "passes", "testdata", "prepost", t[len("prepost:"):])
    return os.path.join(os.path.dirname(manifest), t)


def prepare(k):
    """Returns (entry or None, log lines)."""
    lines = []
    if "from" in k:
        for key in INHERIT:
            if key in byname[k["from"]] and key not in k:
                k[key] = byname[k["from"]][key]
    src = source(k["ttgir"])
    if not os.path.exists(src):
        return None, [f"{k['name']}: {src} not found; skipped"]
    dst = os.path.join(bundle, "kernels", k["name"] + ".ttgir")
    if "layout_opt" in k:
        r = subprocess.run([os.path.join(tools, "layout-opt"), "-keep-ssa-names", src] + k["layout_opt"] + ["-o", dst],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return None, [f"{k['name']}: layout-opt failed: {r.stderr.strip()}"]
        k["source"] = "layout-opt " + " ".join(k.pop("layout_opt")) + " " + k["ttgir"]
    else:
        shutil.copyfile(src, dst)
    k["ttgir"] = "kernels/" + k["name"] + ".ttgir"
    for args, grid in ((k["args"], k["grid"]), (k["check_args"], k["check_grid"])):
        argv = [os.path.join(tools, "ttgir-run"), dst, "-dry-run", "-grid", grid]
        for a in args:
            argv += ["-arg", a]
        r = subprocess.run(argv, capture_output=True, text=True)
        if r.returncode != 0:
            return None, [f"{k['name']}: the manifest's arguments do not fit the kernel: {r.stderr.strip()}"]
    if translate:
        ptx = os.path.join(bundle, "ptx", k["name"] + ".lt.ptx")
        kj = os.path.join(bundle, "ptx", k["name"] + ".kernels.json")
        r = subprocess.run([translate, "-ttgir-to-ptx", dst, "-o", ptx, "-kernel-json", kj,
                            "-compute-capability", str(k.get("cc", os.environ.get("PROOF_CC", "90")))]
                           + k.get("translate_flags", []) + os.environ.get("LT_FLAGS", "").split(),
                           capture_output=True, text=True)
        if r.returncode == 0 and os.path.exists(ptx):
            # layout-translate's launch metadata, in Triton's keys for ttgir-run -meta.
            kern = json.load(open(kj))[0]
            os.remove(kj)
            meta = {"name": kern["name"], "num_warps": kern["num_warps"], "shared": kern["shared_bytes"]}
            meta.update({key: kern[key] for key in ("global_scratch_size", "global_scratch_align") if key in kern})
            k.setdefault("ours", []).insert(0, {"label": "layout-translate", "ptx": k["name"] + ".lt.ptx", "meta": meta})
            lines.append(f"{k['name']}: lowered by layout-translate ({meta})")
        else:
            k["ours_error"] = (r.stderr or r.stdout).strip()
            lines.append(f"{k['name']}: layout-translate failed: {k['ours_error']}")
    return k, lines


with ThreadPoolExecutor(max_workers=int(jobs)) as ex:
    results = list(ex.map(prepare, m["kernels"]))
out = []
with open(log, "a") as logf:
    for k, lines in results:
        for line in lines:
            print(line, file=logf)
        if k is not None:
            out.append(k)
m["kernels"] = out
json.dump(m, open(os.path.join(bundle, "kernels.json"), "w"), indent=1)
print(f"{len(out)} kernels in the bundle, {sum(1 for k in out if k.get('ours'))} lowered by layout-translate", file=sys.stderr)
PY
# The checks without a Triton oracle (gpu_check.py): each kernel of proof/checks with our PTX.
mkdir -p "$bundle/checks"
for f in proof/checks/*.ttgir; do
	n=$(basename "$f" .ttgir)
	cp "$f" "proof/checks/$n.args" "$bundle/checks/"
	if "$translate" -ttgir-to-ptx "$f" -o "$bundle/checks/$n.ptx" -kernel-json "$tools/$n.kernels.json" 2>>"$log"; then
		python3 -c 'import json, sys; k = json.load(open(sys.argv[1]))[0]; m = {"name": k["name"], "num_warps": k["num_warps"], "shared": k["shared_bytes"]}; m.update({key: k[key] for key in ("global_scratch_size", "global_scratch_align") if key in k}); json.dump(m, open(sys.argv[2], "w"))' \
			"$tools/$n.kernels.json" "$bundle/checks/$n.json"
	else
		echo "checks/$n: layout-translate failed" >>"$log"
	fi
done
cp proof/triton_ref.py proof/compare.py proof/merge.py proof/recheck.py proof/device.sh proof/run.sh proof/gpu_check.py "$bundle/"
chmod +x "$bundle/run.sh" "$bundle/triton_ref.py" "$bundle/compare.py" "$bundle/gpu_check.py" "$bundle/merge.py" "$bundle/recheck.py" "$bundle/device.sh"
echo "bundle: $bundle ($(du -sh "$bundle" | cut -f1)); $(grep -c . "$log" || true) lines in build.log" >&2
