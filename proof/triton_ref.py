#!/usr/bin/env python3
"""The proof's GPU-side driver (run.sh calls it; bundle made by build.sh).

Phases, over the kernels of the bundle's kernels.json that --only and
--shard select:

1. ptxas: every PTX of ours in the bundle through `ptxas --gpu-name sm_90`
   (sm_90a where the PTX targets it), in parallel: registers, spills, errors.
2. check, in parallel (--jobs processes): Triton 3.6 compiles each kernel's
   TTGIR (triton.compile(path), the module's target or this GPU's when older:
   Triton's launcher loads a cubin); ttgir-run runs each PTX variant (Triton's,
   and ours: layout-translate's, the llir/llvm copy kernels) with -check at the
   manifest's small size against the reference interpreter, dumping the inputs
   and outputs.
3. Triton's own launcher runs its kernel on the check inputs (in order, in
   this process); its outputs are compared with every variant's.
4. bench, for the kernels --bench selects (default: all selected), one at a
   time: each variant through ttgir-run -bench at the manifest's realistic size
   (median of --runs launches by CUDA events against a device-to-device copy of
   the same bytes in the same process), then Triton's launcher on the same
   inputs: outputs compared, timed the same way. A kernel whose manifest
   entry has "graph": K (its one program is the whole problem, shorter than
   a launch's host overhead) is timed in CUDA graphs of K launches, per
   launch, on both sides (ttgir-run -graph K; torch.cuda.CUDAGraph around
   Triton's launcher, as triton.testing.do_bench_cudagraph).

Writes OUT/report.json (after every kernel) and OUT/report.md, and prints the
table. The table and report functions import neither torch nor triton.
"""
import argparse
import fnmatch
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed

BATCH = 20  # timed runs per batch, alternating kernel and copy as ttgir-run does
AS_FAST = 99.95  # % of Triton's speed the summaries (and recheck.py) count as as fast
DUMPS = "/dev/shm/proof-dumps" if os.path.isdir("/dev/shm") else "/tmp/proof-dumps"

NP_NAMES = {"f32": "float32", "f16": "float16", "f64": "float64", "i8": "int8", "i16": "int16", "i32": "int32",
            "i64": "int64", "bf16": "uint16", "i1": "uint8", "f8E4M3FN": "uint8", "f8E5M2": "uint8",
            "f8E4M3FNUZ": "uint8", "f8E5M2FNUZ": "uint8"}
# The element types numpy has no type for: read as NP_NAMES's integers, then viewed as these torch types.
TORCH_VIEWS = {"bf16": "bfloat16", "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
               "f8E4M3FNUZ": "float8_e4m3fnuz", "f8E5M2FNUZ": "float8_e5m2fnuz"}


def as_torch(t, el):
    """t (integers read from a dump) viewed as element type el's torch type."""
    import torch
    return t.view(getattr(torch, TORCH_VIEWS[el])) if el in TORCH_VIEWS else t


def read_text(path):
    """The text of the file at path (closed after reading)."""
    with open(path) as f:
        return f.read()


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def ttgir_run(bundle, argv, timeout):
    cmd = [os.path.join(bundle, "bin", "ttgir-run")] + argv
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:  # a hung kernel: report it and go on
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        r = subprocess.CompletedProcess(cmd, 124, out, f"timed out after {timeout}s")
    return r, time.time() - t0, cmd


def check_argv(k, bundle, ptx, meta_file, json_file, dump=None):
    """ttgir-run's arguments that check PTX ptx of kernel k (with metadata
    meta_file, or None) against the interpreter at k's check size, its
    report to json_file and, with dump, its buffers to that folder."""
    return ([os.path.join(bundle, k["ttgir"])] + arg_flags(k["check_args"]) + [
        "-grid", k["check_grid"], "-check", "-rtol", str(k.get("rtol", 0)), "-atol", str(k.get("atol", 0)),
        "-json", json_file] + (["-dump", dump] if dump else []) + ["-ptx", ptx, "-q"]
        + (["-meta", meta_file] if meta_file else []))


def bench_argv(k, bundle, ptx, meta_file, json_file, runs, warmup, dump=None):
    """ttgir-run's arguments that time PTX ptx of kernel k at its realistic
    size (median of runs launches after warmup, against a device copy)."""
    return ([os.path.join(bundle, k["ttgir"])] + arg_flags(k["args"]) + [
        "-grid", k["grid"], "-bench", str(runs), "-warmup", str(warmup)]
        + (["-graph", str(k["graph"])] if k.get("graph") else []) + (["-dump", dump] if dump else [])
        + ["-json", json_file, "-ptx", ptx, "-q"] + (["-meta", meta_file] if meta_file else []))


def arg_flags(specs):
    out = []
    for s in specs:
        out += ["-arg", s]
    return out


def pointee(type_text):
    """The element type of a pointer or tensor descriptor parameter's
    buffer, else None."""
    m = re.match(r"!tt\.ptr<(\w+)>", type_text) or re.match(r"!tt\.tensordesc<tensor<(?:\d+x)+(\w+)", type_text)
    return m.group(1) if m else None


def scalar_value(spec):
    if spec in ("true", "false"):
        return spec == "true"
    try:
        return int(spec, 0)
    except ValueError:
        return float(spec)


# ---- selection ----------------------------------------------------------

def select(kernels, only, shard):
    """The kernels --only (names or globs) and --shard I/N pick, in order."""
    if only:
        kernels = [k for k in kernels if any(fnmatch.fnmatchcase(k["name"], p) for p in only)]
    if shard:
        i, n = shard
        kernels = [k for j, k in enumerate(kernels) if j % n == i]
    return kernels


def bench_selected(k, bench, no_bench, realistic_only):
    """Whether --bench (names or globs, 'none'; None: all), --no-bench and
    --bench-realistic (only kernels with a realistic size) pick kernel k."""
    name = k["name"]
    if bench is not None and not any(p != "none" and fnmatch.fnmatchcase(name, p) for p in bench):
        return False
    if no_bench and any(fnmatch.fnmatchcase(name, p) for p in no_bench):
        return False
    return not (realistic_only and k.get("no_realistic_size"))


def parse_shard(text):
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if not m or not 0 <= int(m.group(1)) < int(m.group(2)):
        raise argparse.ArgumentTypeError(f"--shard {text}: want I/N with 0 <= I < N")
    return int(m.group(1)), int(m.group(2))


def variants_of(k, bundle, kdir):
    """(label, PTX path, metadata JSON path or None) of every PTX variant."""
    out = [("triton-ptx", os.path.join(kdir, "triton.ptx"), os.path.join(kdir, "triton.json"))]
    for o in k.get("ours", []):
        mfile = None
        if "meta" in o:
            mfile = os.path.join(kdir, o["label"] + ".json")
            with open(mfile, "w") as f:
                json.dump(o["meta"], f)
        out.append((o["label"], os.path.join(bundle, "ptx", o["ptx"]), mfile))
    return out


# ---- phase 1: ptxas -----------------------------------------------------

def find_ptxas():
    """ptxas on PATH, else CUDA's, else the one Triton ships."""
    for p in (shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"):
        if p and os.path.exists(p):
            return p
    try:
        import triton
        p = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas")
        return p if os.path.exists(p) else None
    except ImportError:
        return None


def ptxas_one(ptxas, path):
    text = read_text(path)
    m = re.search(r"^\.target\s+(sm_\d+a?)", text, re.M)
    arch = "sm_90a" if m and m.group(1).endswith("a") else "sm_90"
    t0 = time.time()
    r = subprocess.run([ptxas, "--gpu-name", arch, "-v", path, "-o", os.devnull], capture_output=True, text=True)
    res = {"ptx": os.path.basename(path), "target": m.group(1) if m else None, "gpu_name": arch,
           "ok": r.returncode == 0, "seconds": round(time.time() - t0, 3)}
    out = r.stdout + r.stderr
    if r.returncode != 0:
        res["error"] = out.strip()[-1500:]
    regs = re.search(r"Used (\d+) registers", out)
    if regs:
        res["registers"] = int(regs.group(1))
    sp = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", out)
    if sp:
        res["spill_stores"], res["spill_loads"] = int(sp.group(1)), int(sp.group(2))
    return res


def ptxas_sweep(bundle, kernels, jobs):
    files = sorted({os.path.join(bundle, "ptx", o["ptx"]) for k in kernels for o in k.get("ours", [])})
    ptxas = find_ptxas()
    if ptxas is None:
        return {"error": "no ptxas", "results": []}
    log(f"== {ptxas} --gpu-name sm_90 over {len(files)} PTX files")
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        results = list(ex.map(lambda f: ptxas_one(ptxas, f), files))
    ver = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    bad = [r for r in results if not r["ok"]]
    log(f"ptxas: {len(results) - len(bad)} ok, {len(bad)} failed")
    for r in bad:
        log(f"ptxas FAILED {r['ptx']}: {r['error'].splitlines()[0] if r['error'] else ''}")
    return {"ptxas": ptxas, "version": ver[-1] if ver else "", "results": results}


# ---- phase 2: compile and check (worker processes) ----------------------

def check_kernel(k, bundle, work, cc_device, timeout):
    """Triton compiles k; every variant runs -check at the small size.
    Runs in a worker process: no CUDA here but ttgir-run's."""
    name = k["name"]
    kdir = os.path.join(work, "kernels", name)
    os.makedirs(kdir, exist_ok=True)
    ttgir = os.path.join(bundle, k["ttgir"])
    res = {"name": name, "class": k.get("class"), "kernel": k.get("kernel"), "ttgir": k["ttgir"],
           "source": k.get("source"), "args": k["args"], "grid": k["grid"], "check_args": k["check_args"],
           "check_grid": k["check_grid"], "variants": {}}
    for key in ("no_realistic_size", "no_triton", "no_triton_launcher", "ours_error", "bytes", "flops", "graph"):
        if key in k:
            res[key] = k[key]
    cc = target_cc(ttgir, cc_device)
    res["triton_target"] = f"cuda:{cc}"
    if "no_triton" not in k:
        t0 = time.time()
        try:
            src, meta = compile_triton(ttgir, cc, kdir)
            if src != ttgir:
                res["triton_ttgir"] = src
            res["triton_meta"] = {x: meta.get(x) for x in ("name", "num_warps", "shared", "global_scratch_size")}
        except Exception as e:
            res["triton_compile_error"] = f"{type(e).__name__}: {e}"[-2000:]
        res["triton_compile_s"] = round(time.time() - t0, 2)
    for label, ptx, mfile in variants_of(k, bundle, kdir):
        if not os.path.exists(ptx):
            continue
        v = res["variants"].setdefault(label, {"ptx": os.path.relpath(ptx, bundle) if ptx.startswith(bundle) else ptx})
        cj = os.path.join(kdir, label + ".check.json")
        dump = os.path.join(DUMPS, "check", name, label)
        r, secs, cmd = ttgir_run(bundle, check_argv(k, bundle, ptx, mfile, cj, dump), timeout)
        v["check_cmd"] = " ".join(cmd[1:])
        v["check_ok"] = r.returncode == 0
        v["check_s"] = round(secs, 2)
        if r.returncode != 0:
            v["check_out"] = (r.stdout + r.stderr)[-3000:]
        if os.path.exists(cj):
            rep = json.loads(read_text(cj))
            v["check"] = rep.get("check")
            if rep.get("gpu"):
                g = rep["gpu"]
                v["gpu"] = {x: g.get(x) for x in ("regs", "local_bytes", "shared_bytes", "threads")}
            if r.returncode in (0, 2):
                v["dump"] = dump
                res["check_arg_types"] = rep["args"]
    return res


# ---- phase 3 and 4: Triton's launcher ------------------------------------

def target_cc(ttgir, cc_device):
    """The compute capability Triton compiles the TTGIR file for: its
    module's target or the GPU's (cc_device), the newer (Triton's launcher
    loads a cubin)."""
    return max(int(re.search(r'ttg\.target = "cuda:(\d+)"', read_text(ttgir)).group(1)), cc_device)


def compile_triton(ttgir, cc, kdir):
    """Triton compiles the TTGIR file (as triton_source gives it) for cc;
    its PTX, cubin and metadata go to kdir/triton.ptx, triton.cubin and
    triton.json.
    Returns the file compiled and the metadata."""
    import triton
    from triton.backends.compiler import GPUTarget
    src = triton_source(ttgir, cc, kdir)
    tk = triton.compile(src, target=GPUTarget("cuda", cc, 32))
    meta = json.loads(json.dumps(tk.metadata._asdict(), default=str))
    meta["name"] = tk.metadata.name
    with open(os.path.join(kdir, "triton.ptx"), "w") as f:
        f.write(tk.asm["ptx"])
    with open(os.path.join(kdir, "triton.cubin"), "wb") as f:
        f.write(tk.asm["cubin"])
    with open(os.path.join(kdir, "triton.json"), "w") as f:
        json.dump(meta, f, indent=1)
    return src, meta


def triton_source(ttgir, cc, kdir):
    """The TTGIR Triton compiles for ttgir: the file itself, or, for an sm_90
    module with ttng.warp_group_dot but no ttng.fence_async_shared (a corpus
    file taken right after remove-layout-conversions, before the rest of
    make_ttgir), that file after Triton's own fence insertion. Without it
    Triton's make_llir emits wgmma reading shared memory that generic-proxy
    stores wrote with no proxy fence: a race (outputs differ from launch to
    launch). Our lowering inserts the fence itself; this gives Triton the
    same. A module for sm_90 with descriptor loads or stores gets Triton's
    TMA lowering (triton-nvidia-tma-lowering, part of make_ttgir, which a
    .ttgir input skips)."""
    text = read_text(ttgir)
    fence = cc >= 90 and "ttng.warp_group_dot" in text and "ttng.fence_async_shared" not in text
    tma = cc >= 90 and ("tt.descriptor_load" in text or "tt.descriptor_store" in text)
    if not fence and not tma:
        return ttgir
    from triton._C.libtriton import ir, nvidia
    ctx = ir.context()
    ir.load_dialects(ctx)
    nvidia.load_dialects(ctx)
    m = ir.parse_mlir_module(ttgir, ctx)
    pm = ir.pass_manager(ctx)
    if tma:
        # make_ttgir's TMA lowering, which a .ttgir input skips: descriptor
        # loads and stores become TMA copies (layout-translate runs ours).
        nvidia.passes.ttnvgpuir.add_tma_lowering(pm)
    if fence:
        try:
            nvidia.passes.ttnvgpuir.add_fence_insertion(pm, cc)
        except TypeError:
            nvidia.passes.ttnvgpuir.add_fence_insertion(pm)
    pm.run(m, "triton_source")
    out = os.path.join(kdir, "triton_input.ttgir")
    with open(out, "w") as f:
        f.write(str(m))
    return out


def load_triton(ttgir, target):
    import triton
    from triton.backends.compiler import GPUTarget
    return triton.compile(ttgir, target=GPUTarget("cuda", int(target.split(":")[1]), 32))  # from Triton's cache


def load_inputs(dump, args):
    """The kernel's arguments as torch values, buffers from DIR/NAME.in.bin."""
    import numpy as np
    import torch
    vals = []
    for a in args:
        el = pointee(a["type"])
        if el is None:
            vals.append(scalar_value(a["spec"]))
            continue
        arr = np.fromfile(os.path.join(dump, a["name"] + ".in.bin"), dtype=getattr(np, NP_NAMES[el]))
        vals.append(as_torch(torch.from_numpy(arr).cuda(), el))
    return vals


def compare(name, got, want_file, el, rtol, atol, keep=5):
    """Compares a device tensor with a dumped buffer: bit-exact when rtol and atol are 0."""
    import numpy as np
    import torch
    want = as_torch(torch.from_numpy(np.fromfile(want_file, dtype=getattr(np, NP_NAMES[el]))).cuda(), el)
    n = want.numel()
    if got.numel() != n:
        return {"name": name, "error": f"sizes differ: {got.numel()} vs {n}"}
    if rtol == 0 and atol == 0 or not got.is_floating_point():
        if got.is_floating_point():
            gb = got.view({1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[got.element_size()])
            wb = want.view(gb.dtype)
            bad = (gb != wb) & ~(torch.isnan(got.float()) & torch.isnan(want.float()))
        else:
            bad = got != want
    else:
        bad = ~torch.isclose(got.float(), want.float(), rtol=rtol, atol=atol, equal_nan=True)
    idx = torch.nonzero(bad).flatten()
    res = {"name": name, "elements": n, "mismatches": int(idx.numel())}
    if got.is_floating_point() and n:
        d = (got.float() - want.float()).abs()
        d = torch.where(torch.isnan(d), torch.zeros_like(d), d)
        res["max_abs_err"] = float(d.max())
    res["first"] = [{"index": int(i), "got": float(got[i]), "want": float(want[i])} for i in idx[:keep].tolist()]
    return res


def triton_against(tk, grid_text, args, variants, rtol, atol):
    """Launches Triton's kernel on the inputs of the first variant's dump and
    compares its outputs with every variant's; returns (comparison, values)."""
    import torch
    src = next((v["dump"] for v in variants.values() if "dump" in v), None)
    if src is None:
        return {"error": "no variant ran, so there are no inputs"}, None
    vals = load_inputs(src, args)
    grid = (tuple(int(x) for x in grid_text.split(",")) + (1, 1))[:3]
    set_scratch_allocator()
    tk[grid](*vals)
    torch.cuda.synchronize()
    cmp = {}
    for label, v in variants.items():
        if "dump" not in v:
            continue
        cs = [compare(a["name"], t, os.path.join(v["dump"], a["name"] + ".out.bin"), pointee(a["type"]), rtol, atol)
              for a, t in zip(args, vals) if pointee(a["type"]) is not None]
        cmp[label] = {"ok": all(c.get("mismatches", 1) == 0 for c in cs), "buffers": cs}
    return cmp, (vals, grid)


def set_scratch_allocator():
    """Gives Triton's launcher the allocator a kernel with global scratch
    (metadata global_scratch_size > 0) needs: torch's caching allocator, as
    Triton's own tests set it."""
    import torch
    import triton

    def alloc(size, alignment, stream):
        return torch.empty(size, device="cuda", dtype=torch.int8)
    triton.set_allocator(alloc)


def time_alternating(kernel, copy, runs, warmup):
    import torch
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


def graphed(fn, n):
    """A function replaying one CUDA graph of n calls of fn (each call only
    queues work on torch's current stream), captured as
    triton.testing.do_bench_cudagraph does."""
    import torch
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()  # the first call outside the capture (Triton loads the module)
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(n):
            fn()
    torch.cuda.synchronize()
    return g.replay


def summary(ms, nbytes):
    med = statistics.median(ms)
    return {"median_ms": med, "min_ms": min(ms), "max_ms": max(ms), "gb_per_s": nbytes / (med * 1e-3) / 1e9}


def bench_kernel(k, res, bundle, work, runs, warmup):
    """Phase 4 for one kernel, filling res["bench"] as it goes."""
    import torch
    name = k["name"]
    kdir = os.path.join(work, "kernels", name)
    ttgir = os.path.join(bundle, k["ttgir"])
    rtol, atol = k.get("rtol", 0), k.get("atol", 0)
    b = res.setdefault("bench", {"variants": {}})
    for label, ptx, mfile in variants_of(k, bundle, kdir):
        if not os.path.exists(ptx) or not res["variants"].get(label, {}).get("check_ok"):
            continue  # a variant that failed its check is not timed
        v = b["variants"].setdefault(label, {})
        bj = os.path.join(kdir, label + ".bench.json")
        d = os.path.join(DUMPS, "bench", name, label)
        r, secs, cmd = ttgir_run(bundle, bench_argv(k, bundle, ptx, mfile, bj, runs, warmup, d), 240)
        v["bench_cmd"] = " ".join(cmd[1:])
        if r.returncode != 0:
            v["bench_error"] = r.stderr.strip()[-2000:]
            log(f"{name} [{label}]: bench FAILED: {r.stderr.strip()[-400:]}")
            continue
        rep = json.loads(read_text(bj))
        v["bench"] = rep.get("bench")
        v["dump"] = d
        b["bytes"], b["arg_types"] = rep["bench"]["bytes"], rep["args"]
        if "flops" in k:
            v["bench"]["tflops"] = k["flops"] / (v["bench"]["kernel"]["median_ms"] * 1e-3) / 1e12
        x = rep["bench"]
        log(f"{name} [{label}]: {x['kernel']['gb_per_s']:.0f} GB/s, {x['pct_of_copy']:.1f}% of copy in {secs:.1f}s")
    if "arg_types" not in b:
        b["triton"] = {"error": "no variant ran at full size"}
        return
    if "no_triton" in k or "no_triton_launcher" in k:
        return
    tk = load_triton(res.get("triton_ttgir", ttgir), res["triton_target"])
    cmp, launch = triton_against(tk, k["grid"], b["arg_types"], b["variants"], rtol, atol)
    if launch is None:
        b["triton"] = cmp
        return
    vals, grid = launch
    nbytes = b["bytes"]
    half = max(nbytes // 2, 1)
    csrc = torch.empty(half, dtype=torch.uint8, device="cuda").fill_(0x5A)
    cdst = torch.empty_like(csrc)
    kernel, copy = (lambda: tk[grid](*vals)), (lambda: cdst.copy_(csrc))
    per = k.get("graph") or 1
    if per > 1:
        kernel, copy = graphed(kernel, per), graphed(copy, per)
    kt, ct = time_alternating(kernel, copy, runs, warmup)
    kt, ct = [x / per for x in kt], [x / per for x in ct]
    tr = {"kernel": summary(kt, nbytes), "copy": summary(ct, nbytes), "outputs_vs": cmp}
    if per > 1:
        tr["graph"] = per
    tr["pct_of_copy"] = 100 * tr["copy"]["median_ms"] / tr["kernel"]["median_ms"]
    if "flops" in k:
        tr["tflops"] = k["flops"] / (tr["kernel"]["median_ms"] * 1e-3) / 1e12
    b["triton"] = tr
    log(f"{name} [triton]: {tr['kernel']['gb_per_s']:.0f} GB/s, {tr['pct_of_copy']:.1f}% of copy; outputs equal: "
        + ", ".join(f"{lab}={c['ok']}" for lab, c in cmp.items()))
    for v in b["variants"].values():
        v.pop("dump", None)
    del vals, csrc, cdst
    torch.cuda.empty_cache()


# ---- report --------------------------------------------------------------

OURS = "layout-translate"


def vs_triton(r):
    """Our speed in % of Triton's PTX for a report row whose benchmark timed
    both (at realistic size, or a tile kernel's in CUDA graphs), else None."""
    v = (r.get("bench") or {}).get("variants") or {}
    ours = (v.get(OURS) or {}).get("bench")
    tp = (v.get("triton-ptx") or {}).get("bench")
    if not ours or not tp:
        return None
    return 100 * tp["kernel"]["median_ms"] / ours["kernel"]["median_ms"]


def kernel_row(r):
    """The figures of one kernel for the table and the summary."""
    v = r.get("variants", {})
    row = {"name": r["name"], "class": r.get("class") or "", "realistic": "no_realistic_size" not in r}
    for label in ("triton-ptx", OURS):
        x = v.get(label)
        row[label] = "—" if x is None else "ok" if x.get("check_ok") else "MISMATCH" if x.get("check") else "error"
    t = r.get("triton_check", {})
    row["eq_triton"] = "" if OURS not in t else "yes" if t[OURS]["ok"] else "NO"
    if "error" in t:
        row["eq_triton"] = "error"
    b = r.get("bench", {})
    ours = (b.get("variants", {}).get(OURS) or {}).get("bench")
    tp = (b.get("variants", {}).get("triton-ptx") or {}).get("bench")
    if ours:
        row["us"] = 1000 * ours["kernel"]["median_ms"]
        row["tflops"] = ours.get("tflops")
        if row["realistic"]:  # a tile's few kilobytes stay in L2: no bandwidth to speak of
            row["gbps"], row["pct_copy"] = ours["kernel"]["gb_per_s"], ours["pct_of_copy"]
    if tp:
        row["triton_us"] = 1000 * tp["kernel"]["median_ms"]
        row["triton_tflops"] = tp.get("tflops")
        if row["realistic"]:
            row["triton_pct_copy"] = tp["pct_of_copy"]
    if ours and tp:
        row["vs_triton"] = vs_triton(r)
    bt = b.get("triton", {})
    if "outputs_vs" in bt and OURS in bt["outputs_vs"]:
        row["eq_triton_full"] = bt["outputs_vs"][OURS]["ok"]
    return row


def summarize(report):
    rows = [kernel_row(r) for r in report["kernels"]]
    s = {"kernels": len(rows)}
    for label in ("triton-ptx", OURS):
        s[label] = {x: sum(1 for r in rows if r[label] == x) for x in ("ok", "MISMATCH", "error", "—")}
    s["equal_to_triton"] = {x: sum(1 for r in rows if r["eq_triton"] == x) for x in ("yes", "NO", "error", "")}
    mem = [r for r in rows if r["class"] == "memory" and r["realistic"] and "pct_copy" in r]
    if mem:
        s["memory_bound_pct_of_copy"] = {"kernels": len(mem), "median": statistics.median(r["pct_copy"] for r in mem),
                                         "min": min(r["pct_copy"] for r in mem), "max": max(r["pct_copy"] for r in mem),
                                         "at_least_98": sum(1 for r in mem if r["pct_copy"] >= 98)}
    for key, realistic in (("speed_vs_triton", True), ("tile_speed_vs_triton", False)):
        vs = [r["vs_triton"] for r in rows if "vs_triton" in r and r["realistic"] == realistic and r["class"] != "sync"]
        if vs:
            s[key] = {"kernels": len(vs), "geomean": statistics.geometric_mean(vs), "min": min(vs), "max": max(vs),
                      "at_least_100": sum(1 for x in vs if x >= AS_FAST)}
    p = report.get("ptxas", {}).get("results", [])
    if p:
        s["ptxas"] = {"files": len(p), "ok": sum(1 for x in p if x["ok"]), "spilling": sum(1 for x in p if x.get("spill_stores"))}
    return s


def fmt(x, spec=".1f"):
    return "" if x is None else format(x, spec)


def table(report):
    """A summary, then one row per kernel: the checks of Triton's PTX and
    ours against the interpreter, ours against Triton's launcher, ptxas, and
    the realistic-size figures (ours; Triton's PTX under the same launcher)."""
    s = summarize(report)
    ptxas = {x["ptx"]: x for x in report.get("ptxas", {}).get("results", [])}
    lines = [f"{s['kernels']} kernels. Check against the interpreter: Triton's PTX "
             + ", ".join(f"{v} {k}" for k, v in s["triton-ptx"].items() if v)
             + "; ours (layout-translate) " + ", ".join(f"{v} {k}" for k, v in s[OURS].items() if v)
             + ". Ours = Triton's launcher at the check size: "
             + ", ".join(f"{v} {k or 'not compared'}" for k, v in s["equal_to_triton"].items() if v) + "."]
    if "ptxas" in s:
        p = s["ptxas"]
        lines.append(f"ptxas --gpu-name sm_90: {p['ok']}/{p['files']} PTX files assemble; {p['spilling']} spill.")
    if "memory_bound_pct_of_copy" in s:
        m = s["memory_bound_pct_of_copy"]
        lines.append(f"Memory-bound kernels at realistic size ({m['kernels']}): ours at {m['median']:.1f}% of the "
                     f"device copy (median; {m['min']:.1f}–{m['max']:.1f}%), {m['at_least_98']} at ≥ 98%.")
    if "speed_vs_triton" in s:
        v = s["speed_vs_triton"]
        lines.append(f"Speed vs Triton's PTX (same launcher, {v['kernels']} kernels timed at realistic size): "
                     f"geometric mean {v['geomean']:.1f}% ({v['min']:.1f}–{v['max']:.1f}%), {v['at_least_100']} as "
                     "fast or faster.")
    if "tile_speed_vs_triton" in s:
        v = s["tile_speed_vs_triton"]
        lines.append(f"Tile kernels (one program is the whole problem; timed in CUDA graphs, per launch), "
                     f"{v['kernels']} timed: ours vs Triton's PTX geometric mean {v['geomean']:.1f}% "
                     f"({v['min']:.1f}–{v['max']:.1f}%), {v['at_least_100']} as fast or faster.")
    lines += ["", "| kernel | class | check: Triton PTX / ours | ours = Triton | ptxas (regs) | µs ours / Triton "
              "| GB/s | % of copy | Triton % of copy | TFLOP/s ours / Triton | ours vs Triton |",
              "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r, row in zip(report["kernels"], (kernel_row(r) for r in report["kernels"])):
        px = ptxas.get(r["name"] + ".lt.ptx")
        pt = "" if px is None else f"ok ({px.get('registers', '?')})" if px["ok"] else "FAILED"
        if px and px.get("spill_stores"):
            pt += f" spills {px['spill_stores']} B"
        eq = row["eq_triton"]
        if "eq_triton_full" in row:
            eq += " / full: " + ("yes" if row["eq_triton_full"] else "NO")
        tf = ""
        if row.get("tflops") or row.get("triton_tflops"):
            tf = f"{fmt(row.get('tflops'))} / {fmt(row.get('triton_tflops'))}"
        cls = row["class"] + ("" if row["realistic"] else " (tile)")
        if "error" in r:
            eq = f"error: {r['error'].splitlines()[-1][:80]}"
        us = ""
        if "us" in row or "triton_us" in row:
            us = f"{fmt(row.get('us'), '.2f')} / {fmt(row.get('triton_us'), '.2f')}"
        lines.append(f"| {r['name']} | {cls} | {row['triton-ptx']} / {row[OURS]} | {eq} | {pt} | {us} | "
                     f"{fmt(row.get('gbps'), '.0f')} | {fmt(row.get('pct_copy'))} | {fmt(row.get('triton_pct_copy'))} | "
                     f"{tf} | {fmt(row.get('vs_triton'))}{'%' if 'vs_triton' in row else ''} |")
    return "\n".join(lines) + "\n"


def write_json(path, obj):
    """Writes obj to path as JSON whole or not at all (a temporary file
    renamed over it): a run stopped while writing keeps the last complete
    file."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1)
    os.replace(tmp, path)


def write_report(report, out):
    write_json(os.path.join(out, "report.json"), report)


# ---- main ----------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--out", default=os.environ.get("OUT", "proof-out"))
    ap.add_argument("--work", default="/tmp/proof-work", help="scratch folder: every kernel's PTX, metadata, ttgir-run reports")
    ap.add_argument("--only", action="append", help="run only the kernels of this name or glob (repeatable)")
    ap.add_argument("--shard", type=parse_shard, help="I/N: run every N-th kernel from the I-th (0-based)")
    ap.add_argument("--bench", action="append",
                    help="benchmark only the kernels of this name or glob (repeatable; 'none' for none; default all)")
    ap.add_argument("--no-bench", action="append", help="do not benchmark the kernels of this name or glob (repeatable)")
    ap.add_argument("--bench-realistic", action="store_true",
                    help="benchmark only kernels with a realistic size (not those whose one program is the whole problem)")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4, help="processes of the check phase")
    ap.add_argument("--no-ptxas", action="store_true", help="skip the ptxas sweep")
    a = ap.parse_args()
    import torch
    import triton
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.bundle, "kernels.json")) as f:
        manifest = json.load(f)
    kernels = select(manifest["kernels"], a.only, a.shard)
    major, minor = torch.cuda.get_device_capability()
    report = {"device": torch.cuda.get_device_name(), "triton": triton.__version__, "torch": torch.__version__,
              "runs": a.runs, "selection": {"only": a.only, "shard": a.shard, "bench": a.bench}, "kernels": []}
    t0 = time.time()
    if not a.no_ptxas:
        report["ptxas"] = ptxas_sweep(a.bundle, kernels, a.jobs)
    shutil.rmtree(DUMPS, ignore_errors=True)

    log(f"== check: {len(kernels)} kernels on {a.jobs} processes (Triton compiles, ttgir-run -check)")
    results = {}
    import multiprocessing as mp
    with ProcessPoolExecutor(max_workers=a.jobs, mp_context=mp.get_context("spawn")) as ex:
        futs = {ex.submit(check_kernel, k, a.bundle, a.work, 10 * major + minor, 300): k["name"] for k in kernels}
        for i, f in enumerate(as_completed(futs)):
            name = futs[f]
            try:
                results[name] = f.result()
            except Exception as e:
                results[name] = {"name": name, "error": f"{type(e).__name__}: {e}", "variants": {}}
            r = results[name]
            st = ", ".join(f"{lab} {'ok' if v.get('check_ok') else 'FAILED'}" for lab, v in r.get("variants", {}).items())
            log(f"[{i + 1}/{len(kernels)}] {name}: {st or r.get('error') or 'nothing ran'}"
                + (f"; triton.compile: {r['triton_compile_error'][:200]}" if "triton_compile_error" in r else ""))
    report["kernels"] = [results[k["name"]] for k in kernels]
    write_report(report, a.out)

    log("== Triton's launcher on the check inputs")
    for k, r in zip(kernels, report["kernels"]):
        if "triton_target" not in r or "triton_compile_error" in r or not r["variants"].get("triton-ptx", {}).get("dump"):
            continue  # Triton's PTX did not run through ttgir-run: its launcher would fault the same way
        if "no_triton_launcher" in k:
            continue  # Triton's PTX ran through ttgir-run; its launcher is not tried
        try:
            tk = load_triton(r.get("triton_ttgir", os.path.join(a.bundle, k["ttgir"])), r["triton_target"])
            r["triton_check"], _ = triton_against(tk, k["check_grid"], r["check_arg_types"], r["variants"],
                                                  k.get("rtol", 0), k.get("atol", 0))
        except Exception as e:
            traceback.print_exc()
            r["triton_check"] = {"error": f"{type(e).__name__}: {e}"}
    write_report(report, a.out)
    shutil.rmtree(os.path.join(DUMPS, "check"), ignore_errors=True)

    bench = [(k, r) for k, r in zip(kernels, report["kernels"])
             if bench_selected(k, a.bench, a.no_bench, a.bench_realistic)]
    log(f"== bench: {len(bench)} kernels, {a.runs} runs")
    for i, (k, r) in enumerate(bench):
        log(f"[{i + 1}/{len(bench)}] {k['name']}")
        try:
            bench_kernel(k, r, a.bundle, a.work, a.runs, a.warmup)
        except Exception as e:
            traceback.print_exc()
            r.setdefault("bench", {})["error"] = f"{type(e).__name__}: {e}"
        finally:
            shutil.rmtree(os.path.join(DUMPS, "bench", k["name"]), ignore_errors=True)
        write_report(report, a.out)
    report["seconds"] = round(time.time() - t0, 1)
    report["summary"] = summarize(report)
    write_report(report, a.out)
    t = table(report)
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(f"Device: {report['device']}; Triton {report['triton']}; torch {report['torch']}; median of "
                f"{a.runs} runs; {report['seconds']} s\n\n" + t)
    print(t)


if __name__ == "__main__":
    main()
