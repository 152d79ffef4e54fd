#!/usr/bin/env python3
"""The proof's GPU-side driver (run.sh calls it; bundle made by build.sh).

For every kernel of the bundle's kernels.json:

1. Triton 3.6 compiles the same TTGIR file (triton.compile(path) with the
   module's ttg.target) to PTX; its PTX and metadata are saved.
2. ttgir-run runs each PTX variant (Triton's PTX, and ours: layout-translate's
   and the llir/llvm copy kernels) with our launcher (package cuda):
   -check at the small check size against the reference interpreter, then
   -bench at full size (median of N launches by CUDA events, against a
   device-to-device copy of the same bytes in the same process), dumping the
   inputs and outputs.
3. Triton's own launcher runs its compiled kernel on the same inputs (read
   from the dump); its outputs are compared with every variant's, and it is
   timed the same way (events around each launch, median, alternating
   batches with torch's device copy of the same bytes).

Writes OUT/report.json and OUT/report.md and prints the table.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import traceback

import numpy as np
import torch
import triton
from triton.backends.compiler import GPUTarget

BATCH = 20  # timed runs per batch, alternating kernel and copy as ttgir-run does

NP_TYPES = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "i8": np.int8, "i16": np.int16,
            "i32": np.int32, "i64": np.int64, "bf16": np.uint16, "i1": np.uint8}


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def ttgir_run(bundle, argv, timeout=240):
    cmd = [os.path.join(bundle, "bin", "ttgir-run")] + argv
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:  # a hung kernel: report it and go on
        r = subprocess.CompletedProcess(cmd, 124, e.stdout or "", f"timed out after {timeout}s")
        r.stdout = r.stdout.decode() if isinstance(r.stdout, bytes) else r.stdout
    return r, time.time() - t0, cmd


def arg_flags(specs):
    out = []
    for s in specs:
        out += ["-arg", s]
    return out


def pointee(type_text):
    m = re.match(r"!tt\.ptr<(\w+)>", type_text)
    return m.group(1) if m else None


def scalar_value(spec):
    if spec in ("true", "false"):
        return spec == "true"
    try:
        return int(spec, 0)
    except ValueError:
        return float(spec)


def load_inputs(dump, args):
    """The kernel's arguments as torch values, buffers from DIR/NAME.in.bin."""
    vals = []
    for a in args:
        el = pointee(a["type"])
        if el is None:
            vals.append(scalar_value(a["spec"]))
            continue
        arr = np.fromfile(os.path.join(dump, a["name"] + ".in.bin"), dtype=NP_TYPES[el])
        t = torch.from_numpy(arr).cuda()
        if el == "bf16":
            t = t.view(torch.bfloat16)
        vals.append(t)
    return vals



def compare(name, got, want_file, el, rtol, atol, keep=5):
    """Compares a device tensor with a dumped buffer: bit-exact when rtol and atol are 0."""
    want = torch.from_numpy(np.fromfile(want_file, dtype=NP_TYPES[el])).cuda()
    if el == "bf16":
        want = want.view(torch.bfloat16)
    n = want.numel()
    if got.numel() != n:
        return {"name": name, "error": f"sizes differ: {got.numel()} vs {n}"}
    if rtol == 0 and atol == 0 or not got.is_floating_point():
        if got.is_floating_point():
            gb = got.view(torch.int16 if got.element_size() == 2 else torch.int32 if got.element_size() == 4 else torch.int64)
            wb = want.view(gb.dtype)
            bad = (gb != wb) & ~(torch.isnan(got) & torch.isnan(want))
        else:
            bad = got != want
    else:
        bad = ~torch.isclose(got.float(), want.float(), rtol=rtol, atol=atol, equal_nan=True)
    idx = torch.nonzero(bad).flatten()
    res = {"name": name, "elements": n, "mismatches": int(idx.numel())}
    if got.is_floating_point():
        d = (got.float() - want.float()).abs()
        d = torch.where(torch.isnan(d), torch.zeros_like(d), d)
        res["max_abs_err"] = float(d.max()) if n else 0.0
    res["first"] = [{"index": int(i), "got": float(got[i]), "want": float(want[i])} for i in idx[:keep].tolist()]
    return res


def time_alternating(kernel, copy, runs, warmup):
    for _ in range(warmup):
        kernel()
        copy()
    torch.cuda.synchronize()
    kt, ct = [], []

    def batch(fn, n, out):
        evs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
        for s, e in evs:
            s.record()
            fn()
            e.record()
        torch.cuda.synchronize()
        out += [s.elapsed_time(e) for s, e in evs]

    while len(kt) < runs:
        n = min(BATCH, runs - len(kt))
        batch(kernel, n, kt)
        batch(copy, n, ct)
    return kt, ct


def summary(ms, nbytes):
    med = statistics.median(ms)
    return {"median_ms": med, "min_ms": min(ms), "max_ms": max(ms), "gb_per_s": nbytes / (med * 1e-3) / 1e9}


def run_kernel(k, bundle, out, runs, warmup, dumps, res):
    """Runs one kernel, filling res as it goes (so an exception keeps what ran)."""
    name = k["name"]
    kdir = os.path.join(out, name)
    os.makedirs(kdir, exist_ok=True)
    ttgir = os.path.join(bundle, k["ttgir"])
    rtol, atol = k.get("rtol", 0), k.get("atol", 0)
    res.update({"name": name, "class": k.get("class"), "ttgir": k["ttgir"], "source": k.get("source"),
                "args": k["args"], "grid": k["grid"], "variants": {}})

    # 1. Triton compiles the same TTGIR, for the module's target, or for this
    # GPU when the module's is older: Triton's launcher loads a cubin, and an
    # sm_80 cubin does not run on sm_90 (our launcher JIT-compiles PTX).
    text = open(ttgir).read()
    cc = int(re.search(r'ttg\.target = "cuda:(\d+)"', text).group(1))
    major, minor = torch.cuda.get_device_capability()
    cc = max(cc, 10 * major + minor)
    res["triton_target"] = f"cuda:{cc}"
    log(f"{name}: triton.compile (cuda:{cc})")
    t0 = time.time()
    tk = triton.compile(ttgir, target=GPUTarget("cuda", cc, 32))
    meta = json.loads(json.dumps(tk.metadata._asdict(), default=str))
    meta["name"] = tk.metadata.name
    open(os.path.join(kdir, "triton.ptx"), "w").write(tk.asm["ptx"])
    json.dump(meta, open(os.path.join(kdir, "triton.json"), "w"), indent=1)
    res["triton_compile_s"] = time.time() - t0
    res["triton_meta"] = {x: meta.get(x) for x in ("name", "num_warps", "shared", "global_scratch_size")}

    variants = [("triton-ptx", os.path.join(kdir, "triton.ptx"), os.path.join(kdir, "triton.json"))]
    for o in k.get("ours", []):
        mfile = None
        if "meta" in o:
            mfile = os.path.join(kdir, o["label"] + ".json")
            json.dump(o["meta"], open(mfile, "w"))
        variants.append((o["label"], os.path.join(bundle, "ptx", o["ptx"]), mfile))

    # 2. Each variant through ttgir-run: check, then bench with dumps.
    for label, ptx, mfile in variants:
        v = res["variants"].setdefault(label, {"ptx": os.path.relpath(ptx, out) if ptx.startswith(out) else ptx})
        common = ["-ptx", ptx] + (["-meta", mfile] if mfile else []) + ["-q"]
        log(f"{name} [{label}]: -check at {k['check_grid']}")
        cj = os.path.join(kdir, label + ".check.json")
        r, secs, cmd = ttgir_run(bundle, [ttgir] + arg_flags(k["check_args"]) + ["-grid", k["check_grid"], "-check",
                                          "-rtol", str(rtol), "-atol", str(atol), "-json", cj] + common, timeout=60)
        v["check_cmd"] = " ".join(cmd[1:])
        v["check_ok"] = r.returncode == 0
        v["check_out"] = (r.stdout + r.stderr)[-3000:]
        if os.path.exists(cj):
            v["check"] = json.load(open(cj)).get("check")
        log(f"{name} [{label}]: check {'ok' if r.returncode == 0 else 'FAILED (rc %d)' % r.returncode} in {secs:.1f}s")
        if r.returncode not in (0, 2):
            log(r.stderr.strip()[-2000:])

        log(f"{name} [{label}]: -bench {runs} at grid {k['grid']}")
        bj = os.path.join(kdir, label + ".bench.json")
        d = os.path.join(dumps, name, label)
        r, secs, cmd = ttgir_run(bundle, [ttgir] + arg_flags(k["args"]) + ["-grid", k["grid"], "-bench", str(runs),
                                          "-warmup", str(warmup), "-dump", d, "-json", bj] + common, timeout=120)
        v["bench_cmd"] = " ".join(cmd[1:])
        v["bench_out"] = (r.stdout + r.stderr)[-3000:]
        if r.returncode != 0:
            v["bench_error"] = r.stderr.strip()[-2000:]
            log(f"{name} [{label}]: bench FAILED: {r.stderr.strip()[-800:]}")
            continue
        rep = json.load(open(bj))
        v["bench"], v["gpu"] = rep.get("bench"), rep.get("gpu")
        v["gpu"].pop("jit_log", None)
        v["dump"] = d
        res["bytes"] = rep["bench"]["bytes"]
        res["arg_types"] = rep["args"]
        b = rep["bench"]
        log(f"{name} [{label}]: {b['kernel']['gb_per_s']:.0f} GB/s, {b['pct_of_copy']:.1f}% of copy ({b['copy']['gb_per_s']:.0f} GB/s) in {secs:.1f}s")

    # 3. Triton's own launch on the same inputs.
    src = next((v["dump"] for v in res["variants"].values() if "dump" in v), None)
    if src is None:
        res["triton"] = {"error": "no variant ran at full size, so there are no inputs"}
        return
    args = res["arg_types"]
    vals = load_inputs(src, args)
    grid = tuple(int(x) for x in k["grid"].split(",")) + (1, 1)
    grid = grid[:3]
    log(f"{name} [triton]: launch on the same inputs")
    tk[grid](*vals)
    torch.cuda.synchronize()
    cmp = {}
    for label, v in res["variants"].items():
        if "dump" not in v:
            continue
        cs = []
        for a, t in zip(args, vals):
            el = pointee(a["type"])
            if el is not None:
                cs.append(compare(a["name"], t, os.path.join(v["dump"], a["name"] + ".out.bin"), el, rtol, atol))
        cmp[label] = {"ok": all(c.get("mismatches", 1) == 0 for c in cs), "buffers": cs}
    nbytes = res["bytes"]
    half = max(nbytes // 2, 1)
    csrc = torch.empty(half, dtype=torch.uint8, device="cuda").fill_(0x5A)
    cdst = torch.empty_like(csrc)
    log(f"{name} [triton]: timing {runs} launches and copies")
    kt, ct = time_alternating(lambda: tk[grid](*vals), lambda: cdst.copy_(csrc), runs, warmup)
    tr = {"kernel": summary(kt, nbytes), "copy": summary(ct, nbytes), "outputs_vs": cmp}
    tr["pct_of_copy"] = 100 * tr["copy"]["median_ms"] / tr["kernel"]["median_ms"]
    if "flops" in k:
        tr["tflops"] = k["flops"] / (tr["kernel"]["median_ms"] * 1e-3) / 1e12
        for v in res["variants"].values():
            if v.get("bench"):
                v["bench"]["tflops"] = k["flops"] / (v["bench"]["kernel"]["median_ms"] * 1e-3) / 1e12
    res["triton"] = tr
    log(f"{name} [triton]: {tr['kernel']['gb_per_s']:.0f} GB/s, {tr['pct_of_copy']:.1f}% of copy; outputs equal: "
        + ", ".join(f"{l}={c['ok']}" for l, c in cmp.items()))
    del vals, csrc, cdst
    torch.cuda.empty_cache()


def table(report):
    """One row per kernel and PTX: check, bandwidth, % of the copy, and speed
    relative to Triton's PTX under the same launcher (100 = as fast)."""
    lines = ["| kernel | PTX | check vs interp | GB/s | % of copy | TFLOP/s | speed vs Triton | = Triton's output |",
             "|---|---|---|---:|---:|---:|---:|---|"]
    for r in report["kernels"]:
        if "error" in r and not r.get("variants"):
            lines.append(f"| {r['name']} | — | error: {r['error'].splitlines()[-1][:80]} | | | | | |")
            continue
        cmp = r.get("triton", {}).get("outputs_vs", {})
        base = (r.get("variants", {}).get("triton-ptx", {}).get("bench") or {}).get("kernel", {}).get("median_ms")
        for label, v in r.get("variants", {}).items():
            b = v.get("bench")
            chk = "ok" if v.get("check_ok") else ("mismatch" if v.get("check") else "error")
            if b:
                tf = f"{b['tflops']:.1f}" if "tflops" in b else ""
                eq = cmp.get(label, {}).get("ok")
                rel = f"{100 * base / b['kernel']['median_ms']:.1f}%" if base else ""
                lines.append(f"| {r['name']} | {label} | {chk} | {b['kernel']['gb_per_s']:.0f} | {b['pct_of_copy']:.1f} | "
                             f"{tf} | {rel} | {'yes' if eq else 'NO' if eq is not None else ''} |")
            else:
                err = (v.get("bench_error") or "").splitlines()
                lines.append(f"| {r['name']} | {label} | {chk} | failed: {err[-1][:60] if err else ''} | | | | |")
        if "error" in r and r.get("variants"):
            lines.append(f"| {r['name']} | Triton's own launcher | error: {r['error'].splitlines()[-1][:80]} | | | | | |")
        t = r.get("triton")
        if t and "kernel" in t:
            tf = f"{t['tflops']:.1f}" if "tflops" in t else ""
            lines.append(f"| {r['name']} | Triton's, its own launcher (copy: torch) | | {t['kernel']['gb_per_s']:.0f} | "
                         f"{t['pct_of_copy']:.1f} | {tf} | | |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--out", default=os.environ.get("OUT", "proof-out"))
    ap.add_argument("--only", action="append", help="run only this kernel (repeatable)")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--dumps", default="/tmp/proof-dumps", help="scratch folder for the buffers (deleted per kernel)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    manifest = json.load(open(os.path.join(a.bundle, "kernels.json")))
    report = {"device": torch.cuda.get_device_name(), "triton": triton.__version__, "torch": torch.__version__,
              "runs": a.runs, "kernels": []}
    kernels = [k for k in manifest["kernels"] if not a.only or k["name"] in a.only]
    for i, k in enumerate(kernels):
        log(f"== kernel {i + 1}/{len(kernels)}: {k['name']}")
        r = {"name": k["name"]}
        try:
            run_kernel(k, a.bundle, a.out, a.runs, a.warmup, a.dumps, r)
        except Exception as e:  # record and go on with the next kernel
            traceback.print_exc()
            r["error"] = f"{type(e).__name__}: {e}"
        finally:
            shutil.rmtree(os.path.join(a.dumps, k["name"]), ignore_errors=True)
        report["kernels"].append(r)
        json.dump(report, open(os.path.join(a.out, "report.json"), "w"), indent=1)
    t = table(report)
    open(os.path.join(a.out, "report.md"), "w").write(
        f"Device: {report['device']}; Triton {report['triton']}; torch {report['torch']}; median of {a.runs} runs\n\n" + t)
    print(t)


if __name__ == "__main__":
    main()
