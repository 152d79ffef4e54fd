#!/usr/bin/env python3
"""NaNs, infinities and signed zeros through PTX float instructions on the GPU:
the oracle of internal/ptxint's TestGPUNaNs.

    python3 nan_oracle.py OUT.jsonl   # on the GPU machine (CuPy, NVRTC)
    python3 nan_oracle.py --list      # the cases, without a GPU

Every case is one inline-asm statement in LLVM's form (operands $0.., an LLVM
constraint string: outputs first) and its inputs as bit patterns; all run in
one kernel compiled by NVRTC for the GPU at hand, each statement fed from and
stored to global memory as raw bits. A line of OUT: {"asm", "constraints",
"ins", "outs"} (hex bit patterns: a 16-bit register's value in the low half, a
32-bit one's in the low 32 bits), "gpu" the device's name.
"""
import json
import re
import sys

# f64, f32, f16 and bf16 bit patterns: quiet NaNs with payloads (positive and
# negative), a signaling NaN, infinities, signed zeros, ones.
D = dict(pn=0x7FF8000000001234, nn=0xFFF800000000ABCD, sn=0x7FF0000000000001, inf=0x7FF0000000000000,
         ninf=0xFFF0000000000000, z=0, nz=1 << 63, one=0x3FF0000000000000, none=0xBFF0000000000000,
         two=0x4000000000000000)
F = dict(pn=0x7FC01234, nn=0xFFC0ABCD, sn=0x7F800001, inf=0x7F800000, ninf=0xFF800000, z=0, nz=0x80000000,
         one=0x3F800000, none=0xBF800000, big=0x7F7FFFFF)
H = dict(pn=0x7E12, nn=0xFE34, sn=0x7C01, inf=0x7C00, ninf=0xFC00, z=0, nz=0x8000, one=0x3C00, none=0xBC00)
B = dict(pn=0x7FC1, nn=0xFFC2, sn=0x7F81, inf=0x7F80, ninf=0xFF80, z=0, nz=0x8000, one=0x3F80, none=0xBF80)


def cases():
    out = []

    def add(asm, cons, *ins):
        out.append({"asm": asm, "constraints": cons, "ins": list(ins)})

    def binary(ops, cons, t, pairs):
        for op in ops:
            for a, b in pairs:
                add(f"{op} $0, $1, $2;", cons, t[a], t[b])

    def unary(ops, cons, t, xs):
        for op in ops:
            for a in xs:
                add(f"{op} $0, $1;", cons, t[a])

    def fma(op, cons, t, triples):
        for a, b, c in triples:
            add(f"{op} $0, $1, $2, $3;", cons, t[a], t[b], t[c])

    nan_pairs = [("inf", "ninf"), ("pn", "one"), ("one", "nn"), ("sn", "one"), ("pn", "nn"), ("nn", "pn")]
    nan_fma = [("z", "inf", "one"), ("one", "one", "pn"), ("pn", "one", "one"), ("inf", "one", "ninf"),
               ("nn", "pn", "one")]
    mm = [("pn", "one"), ("one", "nn"), ("pn", "nn"), ("nz", "z"), ("z", "nz"), ("sn", "one")]
    # f64 ("d" registers)
    binary(["add.f64", "sub.f64", "mul.f64"], "=d,d,d", D, nan_pairs + [("z", "inf"), ("inf", "inf")])
    binary(["div.rn.f64"], "=d,d,d", D, nan_pairs + [("z", "z"), ("inf", "inf")])
    fma("fma.rn.f64", "=d,d,d,d", D, nan_fma)
    unary(["sqrt.rn.f64", "rcp.rn.f64", "neg.f64", "abs.f64"], "=d,d", D, ["pn", "nn", "sn", "none", "nz"])
    binary(["min.f64", "max.f64"], "=d,d,d", D, mm)
    unary(["cvt.rn.f32.f64"], "=f,d", D, ["pn", "nn", "sn", "inf"])
    unary(["cvt.f64.f32"], "=d,f", F, ["pn", "nn", "sn", "ninf"])
    # f32 ("f")
    binary(["add.f32", "sub.f32", "mul.f32"], "=f,f,f", F, nan_pairs + [("z", "inf")])
    binary(["div.rn.f32", "div.full.f32", "div.approx.f32"], "=f,f,f", F, nan_pairs + [("z", "z"), ("inf", "inf")])
    fma("fma.rn.f32", "=f,f,f,f", F, nan_fma)
    unary(["sqrt.rn.f32", "rcp.rn.f32", "sqrt.approx.f32", "rcp.approx.f32", "rsqrt.approx.f32", "ex2.approx.f32",
           "lg2.approx.f32", "sin.approx.f32", "cos.approx.f32", "tanh.approx.f32", "neg.f32", "abs.f32"],
          "=f,f", F, ["pn", "nn", "sn", "none", "ninf"])
    binary(["min.f32", "max.f32"], "=f,f,f", F, mm)
    # f16 and bf16 ("h"), and their x2 forms ("r", two halves)
    binary(["add.f16", "sub.f16", "mul.f16", "min.f16", "max.f16"], "=h,h,h", H, nan_pairs + [("z", "inf")])
    fma("fma.rn.f16", "=h,h,h,h", H, nan_fma)
    binary(["add.bf16", "sub.bf16", "mul.bf16", "min.bf16", "max.bf16"], "=h,h,h", B, nan_pairs + [("z", "inf")])
    fma("fma.rn.bf16", "=h,h,h,h", B, nan_fma)
    for a, b in nan_pairs:
        add("add.f16x2 $0, $1, $2;", "=r,r,r", H[a] << 16 | H["one"], H["one"] << 16 | H[b])
        add("min.bf16x2 $0, $1, $2;", "=r,r,r", B[a] << 16 | B[b], B[b] << 16 | B[a])
    # conversions between the widths
    unary(["cvt.rn.f16.f32", "cvt.rn.bf16.f32"], "=h,f", F, ["pn", "nn", "sn", "big"])
    unary(["cvt.f32.f16"], "=f,h", H, ["pn", "nn", "sn"])
    unary(["cvt.f32.bf16"], "=f,h", B, ["pn", "nn", "sn"])
    for a, b in (("pn", "one"), ("nn", "sn"), ("big", "ninf")):
        add("cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f", F[a], F[b])
        add("cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", "=h,f,f", F[a], F[b])
        add("cvt.rn.f16x2.f32 $0, $1, $2;", "=r,f,f", F[a], F[b])
        add("cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f", F[a], F[b])
    # not measured before (2026-12-07): f16/bf16 neg and abs of NaNs, the
    # NaN an f64 fma passes on among three, the bf16x2 fma (llvmemit's bf16
    # add, sub and mul) on NaN lanes, fp8 upcasts (llvmemit's sm_89+ path)
    # of the NaN, infinity and largest codes
    unary(["neg.f16", "abs.f16"], "=h,h", H, ["pn", "nn", "sn"])
    unary(["neg.bf16", "abs.bf16"], "=h,h", B, ["pn", "nn", "sn"])
    fma("fma.rn.f64", "=d,d,d,d", D, [("pn", "nn", "sn"), ("sn", "pn", "nn"), ("nn", "sn", "pn"), ("sn", "one", "pn")])
    for a, b, c in (("pn", "one", "nz"), ("one", "nn", "z"), ("inf", "z", "nz"), ("sn", "one", "one")):
        add("fma.rn.bf16x2 $0, $1, $2, $3;", "=r,r,r,r", B[a] << 16 | B["one"], B["one"] << 16 | B[b], B[c] << 16 | B[c])
    for codes in (0x7F7F, 0xFF7E, 0x0180, 0x807F):
        add("cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h", codes)
    for codes in (0x7C7D, 0xFE7B, 0xFF03, 0x7F00):
        add("cvt.rn.f16x2.e5m2x2 $0, $1;", "=r,h", codes)
    return out


# constraint letter -> (C type, the input expression of a bit pattern, the bits of an output)
CTYPE = {"d": ("double", "__longlong_as_double({})", "__double_as_longlong({})"),
         "l": ("unsigned long long", "{}", "{}"),
         "f": ("float", "__uint_as_float((unsigned)({}))", "(unsigned long long)__float_as_uint({})"),
         "r": ("unsigned", "(unsigned)({})", "{}"),
         "h": ("unsigned short", "(unsigned short)({})", "{}")}


def source(cs):
    body, k = [], 0
    for i, c in enumerate(cs):
        letters = c["constraints"].split(",")
        outs = [x.lstrip("=") for x in letters if x.startswith("=")]
        ins = [x for x in letters if not x.startswith("=")]
        asm = re.sub(r"\$(\d+)", r"%\1", c["asm"])
        decl = " ".join(f"{CTYPE[t][0]} o{j};" for j, t in enumerate(outs))
        oargs = ", ".join(f'"={t}"(o{j})' for j, t in enumerate(outs))
        iargs = ", ".join(f'"{t}"({CTYPE[t][1].format(f"in[{k + j}]")})' for j, t in enumerate(ins))
        store = " ".join(f"out[{2 * i + j}] = {CTYPE[t][2].format(f'o{j}')};" for j, t in enumerate(outs))
        body.append(f'  {{ {decl} asm volatile("{asm}" : {oargs} : {iargs}); {store} }}')
        k += len(ins)
    return ('extern "C" __global__ void oracle(const unsigned long long* in, unsigned long long* out) {\n'
            + "\n".join(body) + "\n}\n")


def main():
    cs = cases()
    if sys.argv[1] == "--list":
        print(json.dumps(cs, indent=1))
        return
    import cupy as cp
    ins = [x for c in cs for x in c["ins"]]
    d_in = cp.asarray(ins, dtype=cp.uint64)
    d_out = cp.zeros(2 * len(cs), dtype=cp.uint64)
    mod = cp.RawModule(code=source(cs))
    mod.get_function("oracle")((1,), (1,), (d_in, d_out))
    outs = d_out.get().tolist()
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    with open(sys.argv[1], "w") as f:
        for i, c in enumerate(cs):
            n = sum(1 for x in c["constraints"].split(",") if x.startswith("="))
            row = {"asm": c["asm"], "constraints": c["constraints"], "ins": [hex(x) for x in c["ins"]],
                   "outs": [hex(x) for x in outs[2 * i:2 * i + n]], "gpu": name}
            f.write(json.dumps(row) + "\n")
    print(f"{len(cs)} cases on {name}")


if __name__ == "__main__":
    main()
