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
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=${1:-$root/proof/bundle}
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
translate=""
if [ -n "${LAYOUT_TRANSLATE:-}" ]; then
	translate=$LAYOUT_TRANSLATE
elif [ -d cmd/layout-translate ]; then
	CGO_ENABLED=0 go build -trimpath -o "$bundle/bin/layout-translate" ./cmd/layout-translate
	translate=$bundle/bin/layout-translate
fi

layoutopt=$(mktemp -d)/layout-opt
go build -o "$layoutopt" ./cmd/layout-opt

# The kernels: copy each TTGIR in (or our passes' output of it), and lower
# it when we can.
python3 - "$root/proof/kernels.json" "$bundle" "$shared" "$translate" "$log" "$layoutopt" <<'PY'
import json, os, shutil, subprocess, sys
manifest, bundle, shared, translate, log, layoutopt = sys.argv[1:]
m = json.load(open(manifest))
byname = {k["name"]: k for k in m["kernels"]}
out = []
with open(log, "a") as logf:
    for k in m["kernels"]:
        if "from" in k:
            for key in ("class", "args", "grid", "check_args", "check_grid", "rtol", "atol", "flops"):
                if key in byname[k["from"]] and key not in k:
                    k[key] = byname[k["from"]][key]
        src = k["ttgir"]
        src = os.path.join(shared, "triton36", src[7:]) if src.startswith("shared:") else os.path.join(os.path.dirname(manifest), src)
        if not os.path.exists(src):
            print(f"{k['name']}: {src} not found; skipped", file=logf)
            continue
        dst = os.path.join(bundle, "kernels", k["name"] + ".ttgir")
        if "layout_opt" in k:
            r = subprocess.run([layoutopt, "-keep-ssa-names", src] + k["layout_opt"] + ["-o", dst], capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{k['name']}: layout-opt failed: {r.stderr.strip()}", file=logf)
                continue
            k["source"] = "layout-opt " + " ".join(k.pop("layout_opt")) + " " + k["ttgir"]
        else:
            shutil.copyfile(src, dst)
        k["ttgir"] = "kernels/" + k["name"] + ".ttgir"
        if translate:
            ptx = os.path.join(bundle, "ptx", k["name"] + ".lt.ptx")
            kj = os.path.join(bundle, "ptx", k["name"] + ".kernels.json")
            r = subprocess.run([translate, "-ttgir-to-ptx", dst, "-o", ptx, "-kernel-json", kj], capture_output=True, text=True)
            if r.returncode == 0 and os.path.exists(ptx):
                # layout-translate's launch metadata, in Triton's keys for ttgir-run -meta.
                kern = json.load(open(kj))[0]
                meta = {"name": kern["name"], "num_warps": kern["num_warps"], "shared": kern["shared_bytes"]}
                k.setdefault("ours", []).insert(0, {"label": "layout-translate", "ptx": k["name"] + ".lt.ptx", "meta": meta})
                print(f"{k['name']}: lowered by layout-translate ({meta})", file=logf)
            else:
                print(f"{k['name']}: layout-translate failed: {(r.stderr or r.stdout).strip()}", file=logf)
        out.append(k)
m["kernels"] = out
json.dump(m, open(os.path.join(bundle, "kernels.json"), "w"), indent=1)
PY
cp proof/triton_ref.py proof/run.sh "$bundle/"
chmod +x "$bundle/run.sh" "$bundle/triton_ref.py"
echo "bundle: $bundle ($(du -sh "$bundle" | cut -f1)); $(grep -c . "$log" || true) lines in build.log" >&2
