import json, os, re, shutil, sys
src = "/work/main/.dev/cur/bundle"
names = ["jit_copy2d_64x64_w4_f16", "copy2d_64x64_sm90_w4", "jit_transpose_64x64_w4_f32",
         "transpose_64x64_f32_sm90_w4", "transpose_64x64_f16_sm80_w4", "transpose_64x64_f32_sm80_w4.post",
         "transpose_32x128_f16_sm90_w8.post", "transpose_128x128_f32_sm80_w8.post", "dropout_1024_sm80_w4.post",
         "add_b1024_sm90_w4"]
m = json.load(open(os.path.join(src, "kernels.json")))
ks = [k for k in m["kernels"] if k["name"] in names]
assert len(ks) == len(names), [k["name"] for k in ks]
def occ(t):
    return re.sub(r"(\.reqntid \d+, 1, 1\n)", r"\1.maxnreg 32\n", t)
def pf(t):
    t = re.sub(r"\bld\.global\.", "ld.global.L2::256B.", t)
    return re.sub(r"\.version \d+\.\d+", ".version 7.4", t)
def cs(t):
    return re.sub(r"\bst\.global\.", "st.global.cs.", t)
V = {"base": [], "occ": [occ], "pf": [pf], "cs": [cs], "occpf": [occ, pf]}
for v, fs in V.items():
    d = os.path.join(v, "slim")
    shutil.rmtree(v, ignore_errors=True)
    os.makedirs(os.path.join(d, "ptx")); os.makedirs(os.path.join(d, "kernels"))
    for k in ks:
        shutil.copy(os.path.join(src, k["ttgir"]), os.path.join(d, k["ttgir"]))
        p = k["ours"][0]["ptx"]
        t = open(os.path.join(src, "ptx", p)).read()
        for f in fs: t = f(t)
        open(os.path.join(d, "ptx", p), "w").write(t)
    json.dump({**m, "kernels": ks}, open(os.path.join(d, "kernels.json"), "w"), indent=1)
