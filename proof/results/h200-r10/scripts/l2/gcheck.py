#!/usr/bin/env python3
"""l2-prefetch on the GPU: the f16 transpose's two bodies checked against
the interpreter (strides divisible by 16: the specialized body; by 8 only:
the body as given), and the given body timed before and after."""
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
b = os.path.join(here, "slim")
before = os.path.join(here, "..", "cur", "bundle")
sys.path.insert(0, before)
import triton_ref as T
byname = {k["name"]: k for k in json.load(open(os.path.join(b, "kernels.json")))["kernels"]}
name = "transpose_64x64_f16_sm80_w4"
k = dict(byname[name])
o = k["ours"][0]
mf = "/tmp/l2.meta.json"
json.dump(o["meta"], open(mf, "w"))
for args in (["x=rand:f16:512x512", "y=zeros:f16:512x512", "M=512", "N=512", "sxm=512", "sym=512"],
             ["x=rand:f16:512x520", "y=zeros:f16:512x520", "M=512", "N=512", "sxm=520", "sym=520"]):
    k["check_args"], k["check_grid"] = args, "8,8"
    r, _, cmd = T.ttgir_run(b, T.check_argv(k, b, os.path.join(b, "ptx", o["ptx"]), mf, "/tmp/l2.check.json"), 300)
    print(f"{name}: {'ok' if r.returncode == 0 else 'FAILED'}  ({' '.join(args)})", flush=True)
    if r.returncode != 0:
        print((r.stdout + r.stderr)[-1500:])
k["args"], k["grid"] = ["x=rand:f16:16384x16392", "y=zeros:f16:16384x16392", "M=16384", "N=16384", "sxm=16392", "sym=16392"], "256,256"
for label, ptx in (("before", os.path.join(before, "ptx", o["ptx"])), ("after", os.path.join(b, "ptx", o["ptx"]))):
    r, _, cmd = T.ttgir_run(b, T.bench_argv(k, b, ptx, mf, f"/tmp/l2.{label}.json", 20, 3), 300)
    if r.returncode != 0:
        print(label, "ERROR", r.stderr[-500:]); continue
    bb = json.load(open(f"/tmp/l2.{label}.json"))["bench"]
    print(f"given body (strides divisible by 8 only), {label}: {bb['kernel']['median_ms']*1000:.1f} us, {bb['pct_of_copy']:.1f}% of copy", flush=True)
