"""Triton 3.6 oracles for package smem and attr's shared layouts.

Two steps, so that the cases can be checked without Triton:

  python3 oracle.py cases DIR            # here: write DIR/bank_cases.jsonl, DIR/scratch_cases.jsonl
  python3 oracle.py run DIR OUT [KIND…]  # on a machine with Triton 3.6: evaluate every case
  python3 oracle.py reduce OUT REPO       # here: OUT/*_results.jsonl → the repository's test data

`cases` draws random layouts from a fixed seed (Python's random, no other
dependency): register layouts (#ttg.blocked, #ttg.nvidia_mma v2/v3,
#ttg.dot_op, #ttg.linear; rank 2, and rank 3 blocked/linear) against shared
layouts (#ttg.swizzled_shared, #ttg.nvmma_shared, #ttg.shared_linear), for
8-, 16- and 32-bit elements, and conversions between distributed layouts at
cuda:80 and cuda:90. Each layout is kept twice: as TTGIR text (what the Go
tests parse) and as the arguments of gluon's layout class (what Triton is
given).

`run` asks Triton for:
  * bank conflicts: GluonOpBuilder.get_shared_bank_conflicts(reg, shared, shape, bitwidth)
    (what ttgl.bank_conflicts calls), and, where the builder has it,
    to_linear_layout of both layouts (their bases as Triton computes them);
  * scratch sizes: a module with one ttg.convert_layout, run through
    nvidia.passes.ttgpuir.add_allocate_shared_memory_nv; the module's
    ttg.shared attribute;
  * round trips (DIR/roundtrip_cases.jsonl, written by the Go test
    TestRoundTripBankConflicts with -dump-roundtrips): the bank conflicts of
    the layouts insert-shared-round-trips materialised, given as linear
    layouts.
Triton aborts (asserts) on some inputs, so cases run in a child process that
is restarted after the case that killed it; such a case is recorded as
{"abort": true}. Results go to OUT/*.jsonl, one line per case.
"""
import json
import os
import random
import subprocess
import sys
import time
import traceback

SEED = 20261202


# ----------------------------------------------------------------------------
# Random layouts (no Triton needed)


def log2(n):
    return n.bit_length() - 1


def split_pow2(total, rank, rng):
    """A random list of `rank` powers of two whose product is `total`."""
    out = [1] * rank
    for _ in range(log2(total)):
        out[rng.randrange(rank)] *= 2
    return out


def ints(v):
    return "[" + ", ".join(str(x) for x in v) + "]"


def bases_text(bs):
    return "[" + ", ".join(ints(b) for b in bs) + "]"


def blocked(rng, shape, warps):
    rank = len(shape)
    spt = [1] * rank
    for _ in range(rng.choice([0, 1, 2, 3, 4])):
        spt[rng.randrange(rank)] *= 2
    tpw = split_pow2(32, rank, rng)
    wpc = split_pow2(warps, rank, rng)
    order = list(range(rank))
    rng.shuffle(order)
    text = (f"#ttg.blocked<{{sizePerThread = {ints(spt)}, threadsPerWarp = {ints(tpw)}, "
            f"warpsPerCTA = {ints(wpc)}, order = {ints(order)}}}>")
    return dict(kind="blocked", spt=spt, tpw=tpw, wpc=wpc, order=order, text=text)


def mma_text(version, wpc, instr):
    return (f"#ttg.nvidia_mma<{{versionMajor = {version}, versionMinor = 0, warpsPerCTA = {ints(wpc)}, "
            f"instrShape = {ints(instr)}}}>")


def mma(rng, shape, warps, bw, v3):
    if v3:
        wpc = [4, warps // 4] if rng.random() < 0.7 else [warps, 1]
        n = rng.choice([n for n in (8, 16, 32, 64, 128, 256) if n <= shape[1]])
        instr = [16, n, 256 // bw]
        return dict(kind="mma", version=[3, 0], wpc=wpc, instr=instr, text=mma_text(3, wpc, instr))
    wpc = split_pow2(warps, 2, rng)
    instr = [16, 8]
    return dict(kind="mma", version=[2, 0], wpc=wpc, instr=instr, text=mma_text(2, wpc, instr))


def dot_op(rng, shape, warps, bw):
    base = max(1, 32 // bw)
    if warps >= 4 and shape[0] >= 64 and shape[1] >= 16 and rng.random() < 0.25:
        parent = mma(rng, shape, warps, bw, True)
        op, kw = 0, base
    else:
        parent = mma(rng, shape, warps, bw, False)
        op, kw = rng.choice([0, 1]), rng.choice([base, 2 * base])
    text = f"#ttg.dot_op<{{opIdx = {op}, parent = {parent['text']}, kWidth = {kw}}}>"
    return dict(kind="dot_op", op=op, parent=parent, kwidth=kw, text=text)


def unit_bits(shape):
    """The unit vectors of a tensor's index bits, as coordinate lists."""
    out = []
    for d, n in enumerate(shape):
        for b in range(log2(n)):
            v = [0] * len(shape)
            v[d] = 1 << b
            out.append(v)
    return out


def xor(a, b):
    return [x ^ y for x, y in zip(a, b)]


def mixed_bases(rng, shape, p_mix, one_dim=False):
    """The unit vectors of shape in a random order, each XORed with a random
    subset of the ones before it with probability p_mix (a random
    invertible map); with one_dim, only with those of its own dimension (a
    #ttg.linear basis moves in one dimension)."""
    us = unit_bits(shape)
    rng.shuffle(us)
    out = []
    for i, u in enumerate(us):
        v = list(u)
        if i and rng.random() < p_mix:
            for j in range(i):
                same = [a != 0 for a in us[j]] == [a != 0 for a in u]
                if rng.random() < 0.3 and (same or not one_dim):
                    v = xor(v, us[j])
        out.append(v)
    return out


def linear_reg(rng, shape, warps):
    bs = mixed_bases(rng, shape, 0.3, one_dim=True)
    rank = len(shape)
    wbits = log2(warps)
    nreg = max(0, len(bs) - 5 - wbits)
    reg, rest = bs[:nreg], bs[nreg:]
    # Registers first (fastest), then lanes, then warps; missing lane or warp
    # bits broadcast.
    lane = rest[:5] + [[0] * rank] * (5 - len(rest[:5]))
    rest = rest[5:]
    warp = rest[:wbits] + [[0] * rank] * (wbits - len(rest[:wbits]))
    # Sometimes a broadcast register too.
    if rng.random() < 0.1:
        reg = reg + [[0] * rank]
    text = (f"#ttg.linear<{{register = {bases_text(reg)}, lane = {bases_text(lane)}, "
            f"warp = {bases_text(warp)}, block = []}}>")
    return dict(kind="linear", reg=reg, lane=lane, warp=warp, block=[], shape=list(shape), text=text)


def swizzled(rng, rank):
    vec = rng.choice([1, 2, 4, 8, 16])
    per = rng.choice([1, 2, 4, 8])
    mx = rng.choice([1, 2, 4, 8, 16])
    order = list(range(rank))
    rng.shuffle(order)
    text = f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per}, maxPhase = {mx}, order = {ints(order)}}}>"
    return dict(kind="swizzled", vec=vec, per=per, max=mx, order=order, text=text)


def nvmma(rng, shape, bw):
    rank = len(shape)
    opts = []
    for swz in (0, 32, 64, 128):
        for tr in (False, True):
            contig = 0 if tr else rank - 1
            rows = 1
            for i, n in enumerate(shape):
                if i != contig:
                    rows *= min(n, 256)
            if swz and (shape[contig] < 8 * swz // bw or rows < 8):
                continue
            opts.append((swz, tr))
    if not opts:
        return None
    swz, tr = rng.choice(opts)
    extra = f", rank = {rank}" if rank != 2 else ""
    text = (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {swz}, transposed = {'true' if tr else 'false'}, "
            f"elementBitWidth = {bw}{extra}}}>")
    return dict(kind="nvmma", swizzle=swz, transposed=tr, bw=bw, rank=rank, text=text)


def shared_linear(rng, shape):
    bs = mixed_bases(rng, shape, 0.5)
    # Offsets go fastest first: keep a contiguous run at the bottom now and
    # then, as real layouts have.
    text = f"#ttg.shared_linear<{{offset = {bases_text(bs)}}}, alignment = 16>"
    return dict(kind="shared_linear", offset=bs, block=[], text=text)


def rand_shape(rng, rank, lo_bits, hi_bits):
    total = rng.randint(lo_bits, hi_bits)
    while True:
        shape = split_pow2(1 << total, rank, rng)
        if all(n >= 2 for n in shape):
            return shape


def bank_cases(rng):
    cases = []
    reg_kinds = ["blocked"] * 7 + ["mma"] * 4 + ["dot_op"] * 4 + ["linear"] * 5
    sh_kinds = ["swizzled"] * 8 + ["nvmma"] * 7 + ["shared_linear"] * 5
    while len(cases) < 900:
        bw = rng.choice([8, 16, 32])
        warps = rng.choice([1, 2, 4, 8])
        rk = rng.choice(reg_kinds)
        shape = rand_shape(rng, 2, 8 if bw == 8 else 7, 13)
        if rk == "mma":
            v3 = warps >= 4 and rng.random() < 0.4
            if v3 and (shape[0] < 64 or shape[1] < 8):
                continue
            if not v3 and (shape[0] < 16 or shape[1] < 8):
                continue
            reg = mma(rng, shape, warps, bw, v3)
        elif rk == "dot_op":
            if shape[0] < 16 or shape[1] < 16:
                continue
            reg = dot_op(rng, shape, warps, bw)
        elif rk == "linear":
            reg = linear_reg(rng, shape, warps)
        else:
            reg = blocked(rng, shape, warps)
        sk = rng.choice(sh_kinds)
        if sk == "nvmma":
            sh = nvmma(rng, shape, bw)
            if sh is None:
                continue
        elif sk == "shared_linear":
            sh = shared_linear(rng, shape)
        else:
            sh = swizzled(rng, 2)
        cases.append(dict(id=f"b{len(cases)}", reg=reg, shared=sh, shape=shape, bitwidth=bw, warps=warps))
    # Rank 3: a leading batch dimension against nvmma_shared (rank = 3) and
    # swizzled layouts.
    n3 = 0
    while n3 < 160:
        bw = rng.choice([8, 16, 32])
        warps = rng.choice([1, 2, 4, 8])
        shape = rand_shape(rng, 3, 9, 14)
        reg = blocked(rng, shape, warps) if rng.random() < 0.6 else linear_reg(rng, shape, warps)
        sh = nvmma(rng, shape, bw) if rng.random() < 0.75 else swizzled(rng, 3)
        if sh is None:
            continue
        cases.append(dict(id=f"r{n3}", reg=reg, shared=sh, shape=shape, bitwidth=bw, warps=warps))
        n3 += 1
    return cases


def nvmma_rank2_on_rank3(rng):
    """nvmma_shared without rank (rank 2) on a rank-3 shape: what does Triton do?"""
    out = []
    for i in range(6):
        bw = rng.choice([16, 32])
        shape = [rng.choice([2, 4, 32]), rng.choice([4, 8, 64]), 64]
        swz = rng.choice([0, 32, 64])
        text = f"#ttg.nvmma_shared<{{swizzlingByteWidth = {swz}, transposed = false, elementBitWidth = {bw}}}>"
        reg = blocked(rng, shape, 4)
        out.append(dict(id=f"n{i}", reg=reg, shared=dict(kind="nvmma", swizzle=swz, transposed=False, bw=bw, rank=2,
                                                          text=text), shape=shape, bitwidth=bw, warps=4))
    return out


ELEM = {8: "i8", 16: "f16", 32: "f32"}


def scratch_cases(rng):
    cases = []
    while len(cases) < 200:
        bw = rng.choice([8, 16, 16, 32])
        warps = rng.choice([2, 4, 4, 8])
        shape = rand_shape(rng, 2, 8, 14)
        kinds = rng.choice(["bb", "bb", "mb", "bm", "lb", "bl", "bd", "m3b"])
        if kinds == "m3b":
            if warps < 4 or shape[0] < 64 or shape[1] < 8:
                continue
            src, dst, ccs = mma(rng, shape, warps, bw, True), blocked(rng, shape, warps), [90]
        elif kinds in ("mb", "bm"):
            if shape[0] < 16 or shape[1] < 8:
                continue
            a, b = mma(rng, shape, warps, bw, False), blocked(rng, shape, warps)
            (src, dst), ccs = ((a, b) if kinds == "mb" else (b, a)), [80, 90]
        elif kinds == "bd":
            if shape[0] < 16 or shape[1] < 16:
                continue
            src, dst, ccs = blocked(rng, shape, warps), dot_op(rng, shape, warps, bw), [80, 90]
        elif kinds == "lb":
            src, dst, ccs = linear_reg(rng, shape, warps), blocked(rng, shape, warps), [80, 90]
        elif kinds == "bl":
            src, dst, ccs = blocked(rng, shape, warps), linear_reg(rng, shape, warps), [80, 90]
        else:
            src, dst, ccs = blocked(rng, shape, warps), blocked(rng, shape, warps), [80, 90]
        if src["text"] == dst["text"]:
            continue
        for cc in ccs:
            cases.append(dict(id=f"s{len(cases)}", src=src, dst=dst, shape=shape, elem=ELEM[bw], bitwidth=bw,
                              warps=warps, cc=cc))
    return cases


def write_cases(d):
    rng = random.Random(SEED)
    os.makedirs(d, exist_ok=True)
    b = bank_cases(rng) + nvmma_rank2_on_rank3(rng)
    s = scratch_cases(rng)
    for name, rows in (("bank_cases.jsonl", b), ("scratch_cases.jsonl", s)):
        with open(os.path.join(d, name), "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
        print(f"{name}: {len(rows)} cases")


# ----------------------------------------------------------------------------
# Triton side


def gluon_builder_class():
    import triton._C.libtriton as lt
    if hasattr(lt, "gluon_ir"):
        return lt.gluon_ir.GluonOpBuilder
    from triton.experimental.gluon._runtime import GluonOpBuilder  # older layouts of the package
    return GluonOpBuilder


def mk(cls, args, kw):
    """cls(**kw), or cls(*args) where this version names its fields otherwise."""
    try:
        return cls(**kw)
    except TypeError:
        return cls(*args)


class Gluon:
    """Turns a layout spec into a Triton attribute through gluon's layout
    classes (they fill in the CTA layout as 3.6 expects)."""

    def __init__(self):
        from triton._C.libtriton import ir
        import triton.experimental.gluon.language as ttgl
        self.ttgl = ttgl
        self.ctx = ir.context()
        ir.load_dialects(self.ctx)
        cls = gluon_builder_class()
        try:
            self.builder = cls(self.ctx)
        except TypeError:
            self.builder = cls(self.ctx, "")

    def obj(self, s):
        t = self.ttgl
        k = s["kind"]
        if k == "blocked":
            return t.BlockedLayout(s["spt"], s["tpw"], s["wpc"], s["order"])
        if k == "mma":
            return mk(t.NVMMADistributedLayout, [s["version"], s["wpc"], s["instr"]],
                      dict(version=s["version"], warps_per_cta=s["wpc"], instr_shape=s["instr"]))
        if k == "dot_op":
            p = self.obj(s["parent"])
            return mk(t.DotOperandLayout, [s["op"], p, s["kwidth"]],
                      dict(operand_index=s["op"], parent=p, k_width=s["kwidth"]))
        if k == "linear":
            return mk(t.DistributedLinearLayout, [s["reg"], s["lane"], s["warp"], s["block"], s["shape"]],
                      dict(reg_bases=s["reg"], lane_bases=s["lane"], warp_bases=s["warp"], block_bases=s["block"],
                           shape=s["shape"]))
        if k == "swizzled":
            return t.SwizzledSharedLayout(s["vec"], s["per"], s["max"], s["order"])
        if k == "nvmma":
            return mk(t.NVMMASharedLayout, [s["swizzle"], s["bw"], s["rank"], s["transposed"]],
                      dict(swizzle_byte_width=s["swizzle"], element_bitwidth=s["bw"], rank=s["rank"],
                           transposed=s["transposed"]))
        if k == "shared_linear":
            return mk(t.SharedLinearLayout, [s["offset"], s["block"], 16],
                      dict(offset_bases=s["offset"], block_bases=s["block"], alignment=16))
        raise ValueError(k)

    def attr(self, s):
        return self.obj(s)._to_ir(self.builder)

    def bases(self, s, shape):
        """Triton's linear layout of s on shape, as {in-dim: bases}."""
        if not hasattr(self.builder, "to_linear_layout"):
            return None
        ll = self.builder.to_linear_layout(self.attr(s), list(shape))
        out = {}
        for name in ("reg_bases", "lane_bases", "warp_bases", "block_bases", "offset_bases"):
            if hasattr(ll, name):
                out[name.replace("_bases", "")] = [list(b) for b in getattr(ll, name)]
        return out


def eval_bank(g, c):
    reg, sh = g.attr(c["reg"]), g.attr(c["shared"])
    r = dict(conflicts=g.builder.get_shared_bank_conflicts(reg, sh, list(c["shape"]), c["bitwidth"]))
    # Triton's linear layout of the register layout, as extra information.
    # (3.6's to_linear_layout wraps every result as a #ttg.linear and
    # aborts on shared layouts, so those are not asked for.)
    try:
        r["reg_ll"] = g.bases(c["reg"], c["shape"])
    except Exception as e:
        r["ll_error"] = str(e)[-300:]
    return r


def eval_roundtrip(g, c):
    out = {}
    for side in ("src", "dst"):
        reg = g.attr(dict(kind="linear", reg=c[side]["register"], lane=c[side]["lane"], warp=c[side]["warp"],
                          block=c[side].get("block", []), shape=c["shape"]))
        sh = g.attr(dict(kind="shared_linear", offset=c["shared"]["offset"], block=c["shared"].get("block", [])))
        out[side] = g.builder.get_shared_bank_conflicts(reg, sh, list(c["shape"]), c["bitwidth"])
    return out


def module_text(c):
    shape = "x".join(str(n) for n in c["shape"])
    st = f"tensor<{shape}x{c['elem']}, #src>"
    dt = f"tensor<{shape}x{c['elem']}, #dst>"
    return (f"#src = {c['src']['text']}\n#dst = {c['dst']['text']}\n"
            f"module attributes {{\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = {c['warps']} : i32, "
            f"ttg.target = \"cuda:{c['cc']}\", \"ttg.threads-per-warp\" = 32 : i32}} {{\n"
            f"  tt.func public @cvt(%arg0: {st}) -> {dt} {{\n"
            f"    %0 = ttg.convert_layout %arg0 : {st} -> {dt}\n"
            f"    tt.return %0 : {dt}\n  }}\n}}\n")


def eval_scratch(c, tmp):
    import re
    from triton._C.libtriton import ir, nvidia
    ctx = ir.context()
    ir.load_dialects(ctx)
    nvidia.load_dialects(ctx)
    path = os.path.join(tmp, c["id"] + ".ttgir")
    with open(path, "w") as f:
        f.write(module_text(c))
    m = ir.parse_mlir_module(path, ctx)
    pm = ir.pass_manager(ctx)
    try:
        nvidia.passes.ttgpuir.add_allocate_shared_memory_nv(pm, c["cc"], 87)
    except TypeError:
        nvidia.passes.ttgpuir.add_allocate_shared_memory_nv(pm, c["cc"])
    pm.run(m, "allocate")
    text = str(m)
    mm = re.search(r'"?ttg\.shared"? = (\d+) : i32', text)
    return dict(scratch=int(mm.group(1)) if mm else None, module=None if mm else text[-2000:])


def child(kind, path, start, end, tmp):
    """Evaluate cases start..end-1, one RESULT line each."""
    rows = [json.loads(l) for l in open(path)]
    g = Gluon() if kind != "scratch" else None
    for i in range(start, min(end, len(rows))):
        c = rows[i]
        print(f"BEGIN {i}", flush=True)
        try:
            if kind == "bank":
                r = eval_bank(g, c)
            elif kind == "roundtrip":
                r = eval_roundtrip(g, c)
            else:
                r = eval_scratch(c, tmp)
        except Exception as e:
            r = dict(error=(type(e).__name__ + ": " + str(e))[-600:])
        print("RESULT " + json.dumps(dict(i=i, **r)), flush=True)


def run_range(kind, path, start, end, tmp):
    """Cases start..end-1 in child processes, restarted after an abort."""
    results = {}
    while start < end:
        try:
            p = subprocess.run([sys.executable, __file__, "child", kind, path, str(start), str(end), tmp],
                               capture_output=True, text=True, timeout=300)
            out, err, rc = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            err, rc = "timeout", None
        last_begin = None
        for line in out.splitlines():
            if line.startswith("BEGIN "):
                last_begin = int(line[6:])
            elif line.startswith("RESULT "):
                r = json.loads(line[7:])
                results[r.pop("i")] = r
        if last_begin is None:
            # The child died before its first case: give up on the range.
            for i in range(start, end):
                results[i] = dict(missing=True, rc=rc, stderr=err[-1500:])
            break
        if last_begin not in results:
            results[last_begin] = dict(abort=True, rc=rc, stderr=err[-1500:])
        start = last_begin + 1
    return results


def run_kind(kind, path, outpath, tmp, chunk=250):
    from concurrent.futures import ThreadPoolExecutor
    if not os.path.exists(path):
        print(f"{kind}: no {path}", flush=True)
        return
    rows = [json.loads(l) for l in open(path)]
    t0 = time.time()
    results = {}
    with ThreadPoolExecutor(max_workers=max(2, (os.cpu_count() or 4) // 3)) as ex:
        for part in ex.map(lambda s: run_range(kind, path, s, min(s + chunk, len(rows)), tmp),
                           range(0, len(rows), chunk)):
            results.update(part)
    with open(outpath, "w") as f:
        for i, c in enumerate(rows):
            f.write(json.dumps(dict(case=c, triton=results.get(i, dict(missing=True)))) + "\n")
    n_ok = sum(1 for r in results.values() if not ({"error", "abort", "missing"} & r.keys()))
    n_ab = sum(1 for r in results.values() if "abort" in r)
    n_err = sum(1 for r in results.values() if "error" in r)
    n_mis = len(rows) - n_ok - n_ab - n_err
    print(f"{kind}: {len(rows)} cases, {n_ok} answered, {n_err} errors, {n_ab} aborts, {n_mis} missing, "
          f"{time.time() - t0:.1f}s", flush=True)


def api_report(out):
    """What this Triton offers, for the record."""
    import inspect
    import triton
    from triton._C.libtriton import nvidia
    import triton.experimental.gluon.language as ttgl
    lines = [f"triton {triton.__version__}"]
    b = gluon_builder_class()
    for name in ("get_shared_bank_conflicts", "to_linear_layout", "get_distributed_linear_layout",
                 "get_shared_linear_layout", "get_nvmma_shared_layout", "get_blocked_layout"):
        lines.append(f"GluonOpBuilder.{name}: {getattr(b, name, None).__doc__ if hasattr(b, name) else 'absent'}")
    for cls in ("BlockedLayout", "NVMMADistributedLayout", "DotOperandLayout", "DistributedLinearLayout",
                "SwizzledSharedLayout", "NVMMASharedLayout", "SharedLinearLayout"):
        c = getattr(ttgl, cls, None)
        lines.append(f"ttgl.{cls}{inspect.signature(c) if c else ' absent'}")
    lines.append("allocate_shared_memory_nv: " + str(nvidia.passes.ttgpuir.add_allocate_shared_memory_nv.__doc__))
    with open(os.path.join(out, "api.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines), flush=True)


PROBE_MODULE = """#blocked = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 2, 16], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32@RANK@}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%arg0: tensor<32x4x64xf32, #blocked>) -> tensor<32x4x64xf32, #blocked> {
    %0 = ttg.local_alloc %arg0 : (tensor<32x4x64xf32, #blocked>) -> !ttg.memdesc<32x4x64xf32, #shared, #smem>
    %1 = ttg.local_load %0 : !ttg.memdesc<32x4x64xf32, #shared, #smem> -> tensor<32x4x64xf32, #blocked>
    tt.return %1 : tensor<32x4x64xf32, #blocked>
  }
}
"""


def probe_one(rank_text, tmp):
    from triton._C.libtriton import ir, nvidia
    ctx = ir.context()
    ir.load_dialects(ctx)
    nvidia.load_dialects(ctx)
    path = os.path.join(tmp, "probe.ttgir")
    with open(path, "w") as f:
        f.write(PROBE_MODULE.replace("@RANK@", rank_text))
    m = ir.parse_mlir_module(path, ctx)
    print("PARSED", flush=True)
    pm = ir.pass_manager(ctx)
    nvidia.passes.ttgpuir.add_allocate_shared_memory_nv(pm, 90, 87)
    pm.run(m, "allocate")
    print("MODULE " + json.dumps(str(m)), flush=True)


def probes(out, tmp):
    """A rank-3 memdesc whose nvmma_shared has no rank (rank 2), and one with
    rank = 3: does Triton parse, verify and allocate them?"""
    res = {}
    for name, rank_text in (("no_rank", ""), ("rank3", ", rank = 3")):
        p = subprocess.run([sys.executable, __file__, "probe", rank_text, tmp], capture_output=True, text=True,
                           timeout=120)
        res[name] = dict(rc=p.returncode, stdout=p.stdout[-4000:], stderr=p.stderr[-3000:])
    with open(os.path.join(out, "probes.json"), "w") as f:
        json.dump(res, f, indent=1)
    for k, v in res.items():
        print(f"probe {k}: rc {v['rc']}\n{v['stdout'][-800:]}\n{v['stderr'][-800:]}", flush=True)


def run_all(d, out, kinds=("bank", "scratch", "roundtrip")):
    os.makedirs(out, exist_ok=True)
    tmp = "/tmp/oracle_tmp"
    os.makedirs(tmp, exist_ok=True)
    try:
        api_report(out)
    except Exception:
        traceback.print_exc()
    from concurrent.futures import ThreadPoolExecutor
    jobs = [(k, os.path.join(d, f"{k}_cases.jsonl"), os.path.join(out, f"{k}_results.jsonl"))
            for k in kinds]
    with ThreadPoolExecutor(max_workers=3) as ex:
        list(ex.map(lambda j: run_kind(j[0], j[1], j[2], tmp), jobs))
    try:
        probes(out, tmp)
    except Exception:
        traceback.print_exc()


def last_line(text):
    lines = [x for x in text.strip().splitlines() if x]
    return lines[-1] if lines else ""


def reduce_results(out, repo):
    """OUT/*_results.jsonl → the files the Go tests read (in repo)."""
    with open(os.path.join(repo, "smem", "testdata", "bank_conflicts_gpu.jsonl"), "w") as f:
        for line in open(os.path.join(out, "bank_results.jsonl")):
            r = json.loads(line)
            c, t = r["case"], r["triton"]
            row = dict(id=c["id"], register_layout=c["reg"]["text"], shared_layout=c["shared"]["text"],
                       shape=c["shape"], bitwidth=c["bitwidth"])
            if "abort" in t:
                row["triton_aborts"] = last_line(t["stderr"])[-240:]
            else:
                row["conflicts"] = t["conflicts"]
                if t.get("reg_ll"):
                    row["register_linear"] = {k: t["reg_ll"][k] for k in ("reg", "lane", "warp", "block")
                                              if k in t["reg_ll"]}
            f.write(json.dumps(row) + "\n")
    with open(os.path.join(repo, "smem", "testdata", "scratch_gpu.jsonl"), "w") as f:
        for line in open(os.path.join(out, "scratch_results.jsonl")):
            r = json.loads(line)
            c, t = r["case"], r["triton"]
            row = dict(id=c["id"], src=c["src"]["text"], dst=c["dst"]["text"], shape=c["shape"], elem=c["elem"],
                       warps=c["warps"], cc=c["cc"])
            if "error" in t:
                row["triton_error"] = t["error"]
            else:
                row["scratch"] = t["scratch"]
            f.write(json.dumps(row) + "\n")
    with open(os.path.join(repo, "passes", "testdata", "roundtrips_gpu.jsonl"), "w") as f:
        for line in open(os.path.join(out, "roundtrip_results.jsonl")):
            r = json.loads(line)
            c, t = r["case"], r["triton"]
            row = dict(kernel=c["kernel"], swizzle=c["swizzle"], index=c["index"])
            if "abort" in t:
                row["triton_aborts"] = last_line(t["stderr"])[-200:]
            else:
                row["store"], row["load"] = t["src"], t["dst"]
            f.write(json.dumps(row, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "cases":
        write_cases(sys.argv[2])
    elif sys.argv[1] == "run":
        run_all(sys.argv[2], sys.argv[3], *([sys.argv[4:]] if len(sys.argv) > 4 else []))
    elif sys.argv[1] == "reduce":
        reduce_results(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "probe":
        probe_one(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    else:
        sys.exit(__doc__)
