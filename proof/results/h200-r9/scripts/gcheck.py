#!/usr/bin/env python3
"""The generic side of specialize-divisibility on the GPU: the specialized
kernels checked against the interpreter with strides divisible by 8 but not
16, which must take the body as given (and with the proof's own strides,
which take the specialized one)."""
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
b = os.path.join(here, "after", "bundle")
sys.path.insert(0, b)
import triton_ref as T
ks = json.load(open(os.path.join(b, "kernels.json")))
byname = {k["name"]: k for k in (ks["kernels"] if isinstance(ks, dict) else ks)}
cases = [
    ("transpose_64x64_f16_sm80_w4", ["x=rand:f16:512x520", "y=zeros:f16:512x520", "M=512", "N=512", "sxm=520", "sym=520"], "8,8"),
    ("transpose_64x64_f32_sm90_w4", ["x=rand:f32:512x520", "y=zeros:f32:512x520", "M=512", "N=512", "sxm=520", "sym=520"], "8,8"),
    ("transpose_64x64_f32_sm90_w4.post", ["x=rand:f32:512x520", "y=zeros:f32:512x520", "M=512", "N=512", "sxm=520", "sym=520"], "8,8"),
    ("copy2d_64x64_sm90_w4", ["x=rand:f32:512x520", "y=zeros:f32:512x520", "M=512", "N=512", "sxm=520", "sym=520"], "8,8"),
    ("softmax_b1024_sm90_w4", ["out=zeros:f32:256x1032", "inp=randn:f32:256x1032", "istride=1032", "ostride=1032", "n_cols=1000"], "256"),
    ("matmul_grouped_128x128x32_f16_sm80_w8.post", ["a_ptr=rand:f16:384x80", "b_ptr=rand:f16:80x264", "c_ptr=zeros:f16:384x264",
        "M=384", "N=264", "K=80", "stride_am=80", "stride_bk=264", "stride_cm=264"], "9"),
    ("matmul_grouped_128x128x64_f16_sm90_w4.post", ["a_ptr=rand:f16:384x144", "b_ptr=rand:f16:144x264", "c_ptr=zeros:f16:384x264",
        "M=384", "N=264", "K=144", "stride_am=144", "stride_bk=264", "stride_cm=264"], "9"),
]
for name, args, grid in cases:
    k = dict(byname[name])
    k["check_args"], k["check_grid"] = args, grid
    o = [o for o in k["ours"] if o["label"] == "layout-translate"][0]
    mf = f"/tmp/{name}.meta.json"
    json.dump(o["meta"], open(mf, "w"))
    r, _, cmd = T.ttgir_run(b, T.check_argv(k, b, os.path.join(b, "ptx", o["ptx"]), mf, f"/tmp/{name}.check.json"), 300)
    print(f"{name}: {'ok' if r.returncode == 0 else 'FAILED'}  ({' '.join(k['check_args'])}; grid {k['check_grid']})")
    if r.returncode != 0:
        print((r.stdout + r.stderr)[-1500:])

# The price of the run-time test where it fails: the given body's time with
# strides divisible by 8 only, before the change (no specialization) and after.
before = os.path.join(here, "before", "slim", "ptx")
for name, args, grid in [
    ("transpose_64x64_f16_sm80_w4", ["x=rand:f16:16384x16392", "y=zeros:f16:16384x16392", "M=16384", "N=16384", "sxm=16392", "sym=16392"], "256,256"),
    ("copy2d_64x64_sm90_w4", ["x=rand:f32:8192x8200", "y=zeros:f32:8192x8200", "M=8192", "N=8192", "sxm=8200", "sym=8200"], "128,128"),
]:
    k = dict(byname[name])
    k["args"], k["grid"] = args, grid
    o = [o for o in k["ours"] if o["label"] == "layout-translate"][0]
    mf = f"/tmp/{name}.meta.json"
    json.dump(o["meta"], open(mf, "w"))
    for label, ptx in (("before", os.path.join(before, o["ptx"])), ("after", os.path.join(b, "ptx", o["ptx"]))):
        jf = f"/tmp/{name}.{label}.bench.json"
        r, _, cmd = T.ttgir_run(b, T.bench_argv(k, b, ptx, mf, jf, 20, 3), 300)
        if r.returncode != 0:
            print(f"{name} {label}: FAILED {(r.stdout + r.stderr)[-800:]}")
            continue
        bb = json.load(open(jf))["bench"]
        print(f"{name} strides {args[-1]} {label}: {bb['kernel']['median_ms'] * 1000:.1f} us, {bb['pct_of_copy']:.1f}% of copy")
