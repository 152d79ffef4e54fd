#!/usr/bin/env python3
"""Writes proof/kernels.json, the proof's manifest (see its "_doc" key).

    python3 proof/manifest.py            # rewrite proof/kernels.json
    python3 proof/manifest.py --check    # exit 1 if it is not what this script writes

Two sources of kernels:

* SHARED: the kernels of ../shared/triton36/ttgir (and our copy kernel), a
  hand-written table: their launches were worked out one by one.
* The before/after corpus of passes/testdata/prepost: its kernels, shapes,
  targets and warps come from gen/gen.py's specs() (read here without Triton:
  the @triton.jit decorator is stubbed, only signatures are needed), and each
  kernel function's launch from LAUNCHES below, a function of the spec's
  constexprs that sizes every buffer and scalar for two scales: "check" (small,
  ragged where the kernel masks, for the interpreter) and "bench" (realistic:
  at least 256 MiB moved for memory-bound kernels, 4096^3 matmuls). Every pair
  NAME gives two kernels: NAME.post (Triton's pass output) and NAME.pre-ours
  (our layout-opt -remove-redundant-conversions on NAME.pre).

A kernel whose grid logic makes a realistic size impossible (one program, no
tl.program_id, computes its whole tile) says why in "no_realistic_size", and
is timed in CUDA graphs of GRAPH launches ("graph"): one launch is shorter
than the host's launch overhead.
"""
import argparse
import importlib.util
import inspect
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PREPOST = os.path.join(ROOT, "passes", "testdata", "prepost")
GEN = os.path.join(PREPOST, "gen", "gen.py")
OUT = os.path.join(HERE, "kernels.json")

MiB = 1 << 20
BIG = 256 * MiB  # bytes a realistic memory-bound launch moves at least
GRAPH = 100  # launches per timed CUDA graph of a kernel without a realistic size

DOC = ("The proof's kernels; written by proof/manifest.py (do not edit by hand). ttgir: a file under proof/kernels, "
       "with 'shared:' under ../shared/triton36, with 'prepost:' under passes/testdata/prepost. args/grid: the "
       "benchmark size (ttgir-run -arg specs); check_args/check_grid: a smaller size for -check against the "
       "interpreter. rtol/atol: float tolerance (0: bit-exact). class: memory (data movement and element-wise), "
       "reduction, scan, matmul, attention, math (element-wise libdevice calls), sync (a synchronization or launch-ABI check, "
       "outside the speed summaries). cc: lower "
       "ours for this compute capability instead of the bundle's (build.sh's PROOF_CC). flops: of one launch, for TFLOP/s. no_realistic_size: why the "
       "benchmark size is not realistic. graph: time the kernel in CUDA graphs of this many launches, per launch "
       "(ttgir-run -graph; a launch is shorter than the host's launch overhead). ours: PTX of our own code generation besides layout-translate's (file "
       "under the bundle's ptx/, with its launch metadata). from: take args, grid, check sizes, tolerances, class "
       "and flops from that kernel. layout_opt: the TTGIR is layout-opt's output with these flags on the ttgir "
       "file (our passes on Triton's .pre side). translate_flags: flags layout-translate lowers this kernel with. "
       "no_triton_launcher: why Triton's own launcher is not run (its PTX is). "
       "no_triton: why Triton's PTX is not made for this TTGIR (ours alone is "
       "checked and timed).")

SINGLE = ("one program: the kernel has no tl.program_id, so a launch computes one {tile} tile (a bigger grid "
          "would recompute it); run at that size")

LOOP_SINGLE = ("one program: the kernel has no tl.program_id and loops over all M rows of {tile} columns, so one "
               "SM streams them all; run at M=4096")

DTYPES = {"*fp32": "f32", "*fp16": "f16", "*bf16": "bf16", "*i32": "i32", "*i8": "i8", "*u8": "i8", "*i64": "i64",
          "*fp8e4nv": "f8E4M3FN", "*fp8e5": "f8E5M2"}
ESIZE = {"f32": 4, "f16": 2, "bf16": 2, "i32": 4, "i8": 1, "i64": 8, "f8E4M3FN": 1, "f8E5M2": 1}

FLOAT_TOL = (1e-5, 1e-5)  # f32 arithmetic: approximate exp/rsqrt/div, another summation order
HALF_TOL = (1e-2, 1e-2)   # f16 outputs, tensor-core and tf32 dots
LOOP_TOL = (1e-5, 1e-4)   # f32 sums of thousands of terms (loops over 8192 rows or columns)


def cdiv(a, b):
    return -(-a // b)


def round16(n):
    return cdiv(n, 16) * 16


class Launch:
    """One launch of a kernel: buffers (element counts or shapes, how they
    start), scalars, grid and what the proof needs to know about it."""

    def __init__(self, grid, cls, tol=FLOAT_TOL, flops=None, single=None):
        self.bufs, self.scalars = {}, {}
        self.grid = tuple(grid)
        self.cls, self.tol, self.flops, self.single = cls, tol, flops, single

    def inp(self, name, *shape, **opts):
        self.bufs[name] = ("rand", shape, opts)
        return self

    def out(self, name, *shape):
        self.bufs[name] = ("zeros", shape, {})
        return self

    def let(self, **scalars):
        self.scalars.update(scalars)
        return self


# LAUNCHES: kernel function of gen/kernels.py -> fn(c, big) -> Launch, where
# c holds the spec's constexprs and big picks the benchmark size (else the
# check size). Comments give each kernel's access pattern where the sizes
# follow from it.


def reduce_2d(c, big):
    bm, bn = c["BM"], c["BN"]
    r = BIG // (bm * bn * 4) if big else 6  # programs, each BM rows of stride BN
    k = Launch([r], "reduction", FLOAT_TOL if c["OP"] == 0 else (0, 0))
    return k.inp("x_ptr", r * bm, bn).out("out_ptr", r * (bn if c["AXIS"] == 0 else bm)).let(stride_m=bn)


def reduce_3d(c, big):
    a, b, cc = c["A"], c["B"], c["C"]
    out = {0: b * cc, 1: a * cc, 2: a * b}[c["AXIS"]]
    return Launch([1], "reduction", single=SINGLE.format(tile=f"{a}x{b}x{cc}")).inp("x_ptr", a, b, cc).out("out_ptr", out)


def cumsum_2d(c, big):
    bm, bn = c["BM"], c["BN"]
    k = Launch([1], "scan", single=SINGLE.format(tile=f"{bm}x{bn}"))
    return k.inp("x_ptr", bm, bn).out("out_ptr", bm, bn).let(stride_m=bn)


def cumsum_1d(c, big):
    blk = c["BLOCK"]
    n = BIG // 8 if big else 8 * blk - 3
    return Launch([cdiv(n, blk)], "scan").inp("x_ptr", n).out("out_ptr", n).let(n=n)


def assoc_scan_pair(c, big):
    bm, bn = c["BM"], c["BN"]
    k = Launch([1], "scan", (1e-5, 1e-6), single=SINGLE.format(tile=f"{bm}x{bn}"))
    return k.inp("x_ptr", bm, bn).inp("y_ptr", bm, bn).out("out1_ptr", bm, bn).out("out2_ptr", bm, bn)


def _rows_cols(c, big, esize=4):
    """M x N for 2-D element-wise kernels: 8192^2 f32 (16384^2 f16), or a
    ragged small size."""
    if big:
        n = 8192 if esize == 4 else 16384
        return n, n
    return 2 * c["BM"] + 5, 2 * c["BN"] + 3


def outer_product(c, big):
    m, n = _rows_cols(c, big)
    s = round16(n)
    k = Launch([cdiv(m, c["BM"]), cdiv(n, c["BN"])], "memory", (0, 0))
    return k.inp("a_ptr", m).inp("b_ptr", n).out("out_ptr", m, s).let(stride_m=s, M=m, N=n)


def masked_bias_add(c, big):
    m, n = _rows_cols(c, big)
    s = round16(n)
    k = Launch([cdiv(m, c["BM"]), cdiv(n, c["BN"])], "memory", (1e-6, 1e-6))
    return k.inp("x_ptr", m, s).inp("bias_ptr", n).inp("row_scale_ptr", m).out("out_ptr", m, s).let(stride_m=s, M=m, N=n)


def broadcast_dot_3d(c, big):
    m, kk, n = c["M"], c["K"], c["N"]
    # Triton turns the broadcast product and sum into a tf32 tt.dot.
    k = Launch([1], "reduction", HALF_TOL, single=SINGLE.format(tile=f"{m}x{kk}x{n}"))
    return k.inp("a_ptr", m, kk).inp("b_ptr", kk, n).out("c_ptr", m, n)


def _norm_rows(c, big, block, esize, nbuf=2):
    """Rows and N of the row-per-program kernels: nbuf row-sized buffers of
    at least 128 MiB each together, or 5 ragged rows."""
    if big:
        return cdiv(BIG, nbuf * block * esize), block
    return 5, block - 3


def layer_norm(c, big, dt):
    blk = c["BLOCK_N"]
    r, n = _norm_rows(c, big, blk, ESIZE[dt["x_ptr"]])
    k = Launch([r], "reduction", HALF_TOL if dt["y_ptr"] == "f16" else FLOAT_TOL)
    k.inp("x_ptr", r, blk).inp("w_ptr", blk).inp("b_ptr", blk).out("y_ptr", r, blk)
    return k.out("mean_ptr", r).out("rstd_ptr", r).let(stride=blk, N=n, eps=1e-5)


def layer_norm_2d(c, big):
    bm, bn = c["BM"], c["BN"]
    m = BIG // (2 * bn * 4) if big else 2 * bm + 3
    n = bn if big else bn - 5
    k = Launch([cdiv(m, bm)], "reduction")
    return k.inp("x_ptr", m, bn).inp("w_ptr", bn).out("y_ptr", m, bn).let(stride=bn, M=m, N=n, eps=1e-5)


def rms_norm(c, big, dt):
    blk = c["BLOCK_N"]
    r, n = _norm_rows(c, big, blk, ESIZE[dt["x_ptr"]])
    k = Launch([r], "reduction", HALF_TOL if dt["y_ptr"] == "f16" else FLOAT_TOL)
    return k.inp("x_ptr", r, blk).inp("w_ptr", blk).out("y_ptr", r, blk).let(stride=blk, N=n, eps=1e-5)


def layer_norm_bwd_dwdb(c, big):
    bm, bn = c["BM"], c["BN"]
    m = 4096 if big else 2 * bm + 5  # one program loops over the M rows
    k = Launch([1], "reduction", LOOP_TOL, single=LOOP_SINGLE.format(tile=bn))
    k.inp("dy_ptr", m, bn).inp("x_ptr", m, bn).out("dw_ptr", bn).out("db_ptr", bn).out("dx_ptr", m, bn)
    return k.let(M=m, stride=bn)


def softmax_rows(c, big):
    bm, bn = c["BM"], c["BN"]
    m = BIG // (2 * bn * 4) if big else 3 * bm + 1
    n = bn if big else bn - 7
    return Launch([cdiv(m, bm)], "reduction").inp("x_ptr", m, bn).out("y_ptr", m, bn).let(stride_m=bn, M=m, N=n)


def softmax_cols(c, big):
    bm, bn = c["BM"], c["BN"]
    m = bm if big else bm - 3  # rows: one program holds them all
    n = BIG // (2 * bm * 4) if big else 3 * bn + 5
    s = round16(n)
    return Launch([cdiv(n, bn)], "reduction").inp("x_ptr", bm, s).out("y_ptr", bm, s).let(stride_m=s, M=m, N=n)


def softmax_online(c, big):
    blk = c["BLOCK"]
    r, n = (4096, 8192) if big else (3, 2 * blk + 37)
    s = round16(n)
    return Launch([r], "reduction").inp("x_ptr", r, s).out("y_ptr", r, s).let(stride=s, N=n)


def softmax_transpose_store(c, big):
    bm, bn = c["BM"], c["BN"]
    s = max(bm, bn)  # x is read BM x BN, y written BN x BM, both with this stride
    k = Launch([1], "reduction", single=SINGLE.format(tile=f"{bm}x{bn}"))
    return k.inp("x_ptr", bm, s).out("y_ptr", bn, s).let(stride=s)


def cross_entropy(c, big, dt):
    blk = c["BLOCK"]
    r = BIG // (blk * ESIZE[dt["logits_ptr"]]) if big else 5
    n = blk if big else blk - 9
    k = Launch([r], "reduction")
    return k.inp("logits_ptr", r, blk).inp("target_ptr", r, lo=0, hi=n - 1).out("loss_ptr", r).let(stride=blk, N=n)


def attention(c, big):
    bm, bn, d = c["BM"], c["BN"], c["D"]
    # programs, each BM query rows (f16) against the same BN keys: Q and O
    # together move BIG bytes at realistic size
    r = BIG // (2 * bm * d * 2) if big else 2
    k = Launch([r], "attention", HALF_TOL, flops=4 * r * bm * bn * d)
    k.inp("q_ptr", r * bm, d).inp("k_ptr", bn, d).inp("v_ptr", bn, d).out("o_ptr", r * bm, d)
    return k.let(stride=d, sm_scale=0.125)


def flash_attention(c, big):
    bm, bn, d = c["BM"], c["BN"], c["D"]
    n = 16384 if big else 2 * max(bm, bn)
    flops = 4 * n * n * d // (2 if c["CAUSAL"] else 1)
    k = Launch([n // bm], "attention", HALF_TOL, flops=flops)
    k.inp("q_ptr", n, d).inp("k_ptr", n, d).inp("v_ptr", n, d).out("o_ptr", n, d)
    return k.let(stride=d, N_CTX=n, sm_scale=0.125)


def dot_chain(c, big):
    bm, bn, bk = c["BM"], c["BN"], c["BK"]
    s = max(bn, bk)  # a: BM x BK, b: BK x BN, d: BN x BK, o: BM x BK, one stride
    k = Launch([1], "matmul", HALF_TOL, flops=2 * bm * bn * bk * 2, single=SINGLE.format(tile=f"{bm}x{bn}x{bk}"))
    return k.inp("a_ptr", bm, s).inp("b_ptr", bk, s).inp("d_ptr", bn, s).out("o_ptr", bm, s).let(stride=s)


def l2norm_dot(c, big):
    bm, bn, bk = c["BM"], c["BN"], c["BK"]
    s = max(bn, bk)
    k = Launch([1], "matmul", HALF_TOL, flops=2 * bm * bn * bk, single=SINGLE.format(tile=f"{bm}x{bn}x{bk}"))
    return k.inp("a_ptr", bm, s).inp("b_ptr", bk, s).out("c_ptr", bm, s).let(stride=s)


def _matmul(c, big, ragged_k=True):
    if big:
        return 4096, 4096, 4096
    return 2 * c["BM"], 2 * c["BN"], 2 * c["BK"] + (16 if ragged_k else 0)


def matmul_epilogue(c, big):
    # a's rows and b's columns are not masked: M and N are whole tiles.
    m, n, kk = _matmul(c, big)
    k = Launch([m // c["BM"], n // c["BN"]], "matmul", HALF_TOL, flops=2 * m * n * kk)
    k.inp("a_ptr", m, kk).inp("b_ptr", kk, n).inp("bias_ptr", n).out("c_ptr", m, n)
    return k.let(M=m, N=n, K=kk, stride_am=kk, stride_bk=n, stride_cm=n)


def matmul_grouped(c, big):
    m, n, kk = _matmul(c, big)
    if not big:
        m = 3 * c["BM"]  # three row tiles: a partial group
    k = Launch([cdiv(m, c["BM"]) * cdiv(n, c["BN"])], "matmul", HALF_TOL, flops=2 * m * n * kk)
    k.inp("a_ptr", m, kk).inp("b_ptr", kk, n).out("c_ptr", m, n)
    return k.let(M=m, N=n, K=kk, stride_am=kk, stride_bk=n, stride_cm=n)


def matmul_scaled(c, big):
    # tl.dot_scaled: an e2m1 operand two to a byte along K, e8m0 scales (bytes 120..127: 2^-7..1, no
    # NaN) per 32 of K for the scaled ones; products exact in f32, sums in another order.
    m, n, kk = _matmul(c, big, ragged_k=False)
    da, db = (2 if c[x] == "e2m1" else 1 for x in ("A_FMT", "B_FMT"))
    bits = {"lo": -128, "hi": 127}
    k = Launch([m // c["BM"], n // c["BN"]], "matmul", HALF_TOL, flops=2 * m * n * kk)
    k.inp("a_ptr", m, kk // da, **(bits if da == 2 else {})).inp("b_ptr", kk // db, n, **(bits if db == 2 else {}))
    k.inp("sa_ptr", m, kk // 32, lo=120, hi=127).inp("sb_ptr", n, kk // 32, lo=120, hi=127).out("c_ptr", m, n)
    return k.let(M=m, N=n, K=kk, stride_am=kk // da, stride_bk=n, stride_cm=n)


def matmul_block_ptr(c, big):
    m, n, kk = _matmul(c, big, ragged_k=False)
    if not big:  # block pointers check the boundary: ragged M and N
        m, n = c["BM"] + 40, c["BN"] + 24
    s = round16(n)
    k = Launch([cdiv(m, c["BM"]), cdiv(n, c["BN"])], "matmul", HALF_TOL, flops=2 * m * n * kk)
    k.inp("a_ptr", m, kk).inp("b_ptr", kk, s).out("c_ptr", m, s)
    return k.let(M=m, N=n, K=kk, stride_am=kk, stride_bk=s, stride_cm=s)


def matmul_tf32_rowsum(c, big):
    bm, bn, bk = c["BM"], c["BN"], c["BK"]
    s = max(bn, bk)
    k = Launch([1], "matmul", HALF_TOL, flops=2 * bm * bn * bk, single=SINGLE.format(tile=f"{bm}x{bn}x{bk}"))
    return k.inp("a_ptr", bm, s).inp("b_ptr", bk, s).out("c_ptr", bm, s).out("rs_ptr", bm).let(stride=s)


def dot_trans_b(c, big):
    bm, bn, bk = c["BM"], c["BN"], c["BK"]
    s = max(bn, bk)
    k = Launch([1], "matmul", HALF_TOL, flops=2 * bm * bn * bk, single=SINGLE.format(tile=f"{bm}x{bn}x{bk}"))
    return k.inp("a_ptr", bm, s).inp("b_ptr", bn, s).out("c_ptr", bm, s).let(stride=s)


def splitk_atomic(c, big):
    bm, bn, bk = c["BM"], c["BN"], c["BK"]
    # One stride serves a (BM x K) and b (K x BN): b is K x K.
    kk = 8192 if big else 3 * bk - 6
    s = round16(max(kk, bn))
    k = Launch([cdiv(kk, bk)], "matmul", (1e-3, 1e-3), flops=2 * bm * bn * kk,
               single=f"the kernel computes one {bm}x{bn} tile, split over K by program; its one stride serves a "
                      f"(BM x K) and b (K x BN), so b is K x K: K=8192 (128 MiB of b)")
    return k.inp("a_ptr", bm, s).inp("b_ptr", cdiv(kk, bk) * bk, s).out("c_ptr", bm, bn).let(K=kk, stride=s)


def transpose_2d(c, big, dt):
    bm, bn = c["BM"], c["BN"]
    if big:
        m = n = 8192 if dt["x_ptr"] == "f32" else 16384
    else:
        m, n = 2 * bm, 3 * bn
    k = Launch([m // bm, n // bn], "memory", (0, 0))
    return k.inp("x_ptr", m, n).out("y_ptr", n, m).let(stride_x=n, stride_y=m)


def transpose_scale(c, big):
    bm, bn = c["BM"], c["BN"]
    s = max(bm, bn)
    k = Launch([1], "memory", single=SINGLE.format(tile=f"{bm}x{bn}"))
    return k.inp("x_ptr", bm, s).inp("s_ptr", bm).out("y_ptr", bn, s).let(stride=s)


def permute_3d(c, big):
    a, b, cc = c["A"], c["B"], c["C"]
    k = Launch([1], "memory", (0, 0), single=SINGLE.format(tile=f"{a}x{b}x{cc}"))
    return k.inp("x_ptr", a, b, cc).out("y_ptr", cc, a, b)


def reshape_2d(c, big):
    bm, bn = c["BM"], c["BN"]
    return Launch([1], "memory", single=SINGLE.format(tile=f"{bm}x{bn}")).inp("x_ptr", bm * bn).out("y_ptr", bm, bn)


def join_split(c, big):
    bm, bn = c["BM"], c["BN"]
    k = Launch([1], "memory", (1e-6, 1e-6), single=SINGLE.format(tile=f"{bm}x{bn}"))
    return k.inp("x_ptr", bm, 2 * bn).out("y_ptr", bm, 2 * bn).out("z_ptr", bm, bn)


def interleave_k(c, big):
    blk = c["BLOCK"]
    k = Launch([1], "memory", (0, 0), single=SINGLE.format(tile=str(blk)))
    return k.inp("x_ptr", blk).inp("y_ptr", blk).out("out_ptr", 2 * blk)


def flip_rows(c, big):
    bm, bn = c["BM"], c["BN"]
    return Launch([1], "memory", (0, 0), single=SINGLE.format(tile=f"{bm}x{bn}")).inp("x_ptr", bm, bn).out("y_ptr", bm, bn)


def sort_rows(c, big):
    bm, bn = c["BM"], c["BN"]
    return Launch([1], "memory", (0, 0), single=SINGLE.format(tile=f"{bm}x{bn}")).inp("x_ptr", bm, bn).out("y_ptr", bm, bn)


def gather_rows(c, big):
    bm, bn = c["BM"], c["BN"]
    hi = (bn if c["AXIS"] == 1 else bm) - 1
    k = Launch([1], "memory", (0, 0), single=SINGLE.format(tile=f"{bm}x{bn}"))
    return k.inp("src_ptr", bm, bn).inp("idx_ptr", bm, bn, lo=0, hi=hi).out("out_ptr", bm, bn)


def kv_cache_gather(c, big):
    d, bm = c["D"], c["BM"]
    rows = 1024  # the cache; BM of its rows, picked by idx, are read
    k = Launch([1], "memory", (0, 0), single=SINGLE.format(tile=f"{bm}x{d}"))
    return k.inp("cache_ptr", rows, d).inp("idx_ptr", bm, lo=0, hi=rows - 1).out("out_ptr", bm, d)


def histogram_k(c, big):
    blk, bins = c["BLOCK"], c["BINS"]
    n = BIG // 4 if big else 3 * blk + 11
    return Launch([cdiv(n, blk)], "reduction", (0, 0)).inp("x_ptr", n, lo=0, hi=bins - 1).out("out_ptr", bins).let(n=n)


def int_histogram_where(c, big):
    blk, bins = c["BLOCK"], c["BINS"]
    k = Launch([1], "reduction", (0, 0), single=SINGLE.format(tile=str(blk)))
    return k.inp("x_ptr", blk, lo=0, hi=bins + 3).out("out_ptr", bins)


def colsum_loop(c, big):
    bm, bn = c["BM"], c["BN"]
    m, n = (8192, 8192) if big else (2 * bm + 5, 2 * bn)  # columns are not masked: N is whole tiles
    return Launch([n // bn], "reduction", LOOP_TOL).inp("x_ptr", m, n).out("out_ptr", n).let(M=m, stride_m=n)


def colsum_2d_acc_loop(c, big):
    bm, bn = c["BM"], c["BN"]
    m = 4096 if big else 2 * bm + 3
    k = Launch([1], "reduction", LOOP_TOL, single=LOOP_SINGLE.format(tile=bn))
    return k.inp("x_ptr", m, bn).out("out_ptr", bn).let(M=m, stride_m=bn)


def rowsum_loop(c, big):
    bm, bn = c["BM"], c["BN"]
    m, n = (8192, 8192) if big else (2 * bm, 2 * bn + 7)  # rows are not masked: M is whole tiles
    s = round16(n)
    return Launch([m // bm], "reduction", LOOP_TOL).inp("x_ptr", m, s).out("out_ptr", m).let(N=n, stride_m=s)


def matvec(c, big):
    bm, bn = c["BM"], c["BN"]
    m, n = (8192, 8192) if big else (2 * bm, 2 * bn + 9)
    s = round16(n)
    return Launch([m // bm], "reduction", LOOP_TOL).inp("w_ptr", m, s).inp("x_ptr", n).out("y_ptr", m).let(N=n, stride=s)


def while_loop(c, big):
    bm, bn = c["BM"], c["BN"]
    k = Launch([1], "reduction", single=SINGLE.format(tile=f"{bm}x{bn}"))
    return k.inp("x_ptr", bm, bn).out("y_ptr", bm, bn).let(n_iter=3, stride=bn)


def if_select(c, big):
    bm, bn = c["BM"], c["BN"]
    k = Launch([1], "reduction", single=SINGLE.format(tile=f"{bm}x{bn}"))
    return k.inp("x_ptr", bm, bn).out("y_ptr", bm, bn).let(flag=1, stride=bn)


def custom_reduce_argmin(c, big):
    bm, bn = c["BM"], c["BN"]
    n = bm if c["AXIS"] == 1 else bn
    k = Launch([1], "reduction", (0, 0), single=SINGLE.format(tile=f"{bm}x{bn}"))
    return k.inp("x_ptr", bm, bn).out("v_ptr", n).out("i_ptr", n)


def quantize_rows(c, big, dt):
    blk = c["BLOCK"]
    r = cdiv(BIG, blk * (ESIZE[dt["x_ptr"]] + 1)) if big else 5
    n = blk if big else blk - 3
    k = Launch([r], "reduction", (0, 0))
    return k.inp("x_ptr", r, blk).out("q_ptr", r, blk).out("s_ptr", r).let(stride=blk, N=n)


def dropout_k(c, big):
    blk = c["BLOCK"]
    n = BIG // 8 if big else 4 * blk - 5
    return Launch([cdiv(n, blk)], "memory", (1e-6, 1e-6)).inp("x_ptr", n).out("y_ptr", n).let(n=n, p=0.5, seed=1234)


def rope(c, big, dt):
    bm, d = c["BM"], c["D"]
    e = ESIZE[dt["x_ptr"]]
    rows = cdiv(BIG, 3 * d * e * bm) * bm if big else 3 * bm  # x, y: rows x D; cos, sin: rows x D/2
    k = Launch([rows // bm], "memory", HALF_TOL if dt["x_ptr"] == "f16" else FLOAT_TOL)
    k.inp("x_ptr", rows, d).inp("cos_ptr", rows, d // 2).inp("sin_ptr", rows, d // 2).out("y_ptr", rows, d)
    return k.let(stride=d)


LAUNCHES = {f.__name__: f for f in [
    reduce_2d, reduce_3d, cumsum_2d, cumsum_1d, assoc_scan_pair, outer_product, masked_bias_add, broadcast_dot_3d,
    layer_norm, layer_norm_2d, rms_norm, layer_norm_bwd_dwdb, softmax_rows, softmax_cols, softmax_online,
    softmax_transpose_store, cross_entropy, attention, flash_attention, dot_chain, l2norm_dot, matmul_epilogue,
    matmul_grouped, matmul_block_ptr, matmul_scaled, matmul_tf32_rowsum, dot_trans_b, splitk_atomic, transpose_2d, transpose_scale,
    permute_3d, reshape_2d, join_split, interleave_k, flip_rows, sort_rows, gather_rows, kv_cache_gather, histogram_k,
    int_histogram_where, colsum_loop, colsum_2d_acc_loop, rowsum_loop, matvec, while_loop, if_select,
    custom_reduce_argmin, quantize_rows, dropout_k, rope]}


def corpus_specs():
    """gen.py's specs(), with a stand-in for triton: @triton.jit keeps the
    function and its parameter names (what specs() reads)."""
    class JIT:
        def __init__(self, fn):
            self.fn, self.__name__ = fn, fn.__name__
            self.arg_names = list(inspect.signature(fn).parameters)

    tl = types.ModuleType("triton.language")
    tl.__getattr__ = lambda name: name  # tl.constexpr and friends, in annotations only
    triton = types.ModuleType("triton")
    triton.jit, triton.language = JIT, tl
    saved = {k: sys.modules.get(k) for k in ("triton", "triton.language", "kernels")}
    sys.modules.update({"triton": triton, "triton.language": tl})
    sys.modules.pop("kernels", None)
    try:
        spec = importlib.util.spec_from_file_location("prepost_gen", GEN)
        gen = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(gen)
        return gen.specs()
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def fmt_num(v):
    return repr(v) if isinstance(v, float) else str(v)


def arg_specs(launch, sig, arg_names):
    """The -arg specs of a launch, in the kernel's parameter order."""
    out = []
    for a in arg_names:
        t = sig[a]
        if t == "constexpr":
            continue
        if t.startswith("*"):
            if a not in launch.bufs:
                raise ValueError(f"no buffer for pointer parameter {a}")
            kind, shape, opts = launch.bufs[a]
            dt = DTYPES[t]
            text = f"{a}={kind}:{dt}:{'x'.join(str(d) for d in shape)}"
            for k, v in opts.items():
                text += f":{k}={v}"
            out.append(text)
        else:
            if a not in launch.scalars:
                raise ValueError(f"no value for scalar parameter {a}")
            out.append(f"{a}={fmt_num(launch.scalars[a])}")
    extra = set(launch.bufs) | set(launch.scalars)
    extra -= set(arg_names)
    if extra:
        raise ValueError(f"launch names parameters the kernel does not have: {sorted(extra)}")
    return out


def nbytes(launch, sig):
    total = 0
    for a, (_, shape, _) in launch.bufs.items():
        n = 1
        for d in shape:
            n *= d
        total += n * ESIZE[DTYPES[sig[a]]]
    return total


def corpus_entry(s):
    fn = s["fn"]
    launch_fn = LAUNCHES.get(fn.__name__)
    if launch_fn is None:
        raise ValueError(f"{s['name']}: no launch for kernel {fn.__name__} in LAUNCHES")
    dt = {a: DTYPES[t] for a, t in s["sig"].items() if t.startswith("*")}
    wants_dt = "dt" in inspect.signature(launch_fn).parameters
    mk = (lambda big: launch_fn(s["consts"], big, dt)) if wants_dt else (lambda big: launch_fn(s["consts"], big))
    bench, check = mk(True), mk(False)
    e = {"name": s["name"], "kernel": fn.__name__, "class": bench.cls,
         "args": arg_specs(bench, s["sig"], fn.arg_names), "grid": ",".join(map(str, bench.grid)),
         "check_args": arg_specs(check, s["sig"], fn.arg_names), "check_grid": ",".join(map(str, check.grid)),
         "bytes": nbytes(bench, s["sig"])}
    if bench.tol != (0, 0):
        e["rtol"], e["atol"] = bench.tol
    if bench.flops:
        e["flops"] = bench.flops
    if bench.single:
        e["no_realistic_size"] = bench.single
        e["graph"] = GRAPH
    elif bench.cls in ("memory", "reduction", "scan") and e["bytes"] < BIG:
        raise ValueError(f"{s['name']}: a memory-bound benchmark of {e['bytes']} bytes, under {BIG}")
    return e


def shared_entries():
    """The kernels of ../shared/triton36/ttgir and our copy kernel, by hand."""
    def copy2d(name, dt, n, extra=None):
        sz = f"{n}x{n}"
        return {"name": name, "ttgir": f"shared:ttgir/{name}.ttgir", "class": "memory",
                "args": [f"x=rand:{dt}:{sz}", f"y=zeros:{dt}:{sz}", f"M={n}", f"N={n}", f"sxm={n}", f"sym={n}"],
                "grid": f"{n // 64},{n // 64}",
                "check_args": [f"x=rand:{dt}:512x512", f"y=zeros:{dt}:512x512", "M=512", "N=512", "sxm=512",
                               "sym=512"], "check_grid": "8,8"}

    def matmul(name, grid, check_grid, strides):
        def args(n):
            a = [f"a=rand:f16:{n}x{n}", f"b=rand:f16:{n}x{n}", f"c=zeros:f16:{n}x{n}", f"M={n}", f"N={n}", f"K={n}"]
            for s in strides:
                a.append(f"{s}={1 if s in ('sak', 'sbn', 'scn') else n}")
            return a
        return {"name": name, "ttgir": f"shared:ttgir/{name}.ttgir", "class": "matmul", "args": args(4096),
                "grid": grid, "flops": 2 * 4096 ** 3, "check_args": args(256), "check_grid": check_grid,
                "rtol": 0.01, "atol": 0.02}

    n1 = 1 << 26
    full = ["sam", "sak", "sbk", "sbn", "scm", "scn"]
    out = [
        {"name": "copy1d_f32", "ttgir": "kernels/copy1d_f32.ttgir", "class": "memory",
         "args": [f"x=rand:f32:{n1}", f"y=zeros:f32:{n1}", f"n={n1}"], "grid": str(n1 // 512),
         "check_args": ["x=rand:f32:1000003", "y=zeros:f32:1000003", "n=1000003"], "check_grid": "1954",
         "ours": [{"label": "llir-copy", "ptx": "copy1d_f32.ptx", "meta": {"name": "copy1d", "num_warps": 4, "shared": 0}},
                  {"label": "llir-copy-roundtrip", "ptx": "copy1d_f32_roundtrip.ptx",
                   "meta": {"name": "copy1d", "num_warps": 4, "shared": 2048}}]},
        {"name": "add_b1024_sm90_w4", "ttgir": "shared:ttgir/add_b1024_sm90_w4.ttgir", "class": "memory",
         "args": [f"x=rand:f32:{n1}", f"y=rand:f32:{n1}", f"z=zeros:f32:{n1}", f"n={n1}"], "grid": str(n1 // 1024),
         "check_args": ["x=rand:f32:1000003", "y=rand:f32:1000003", "z=zeros:f32:1000003", "n=1000003"],
         "check_grid": "977"},
        copy2d("copy2d_64x64_sm90_w4", "f32", 8192),
        copy2d("jit_copy2d_64x64_w4_f16", "f16", 16384),
        copy2d("jit_transpose_64x64_w4_f32", "f32", 8192),
        copy2d("transpose_64x64_f32_sm90_w4", "f32", 8192),
        copy2d("transpose_64x64_f16_sm80_w4", "f16", 16384),
        {"name": "softmax_b1024_sm90_w4", "ttgir": "shared:ttgir/softmax_b1024_sm90_w4.ttgir", "class": "reduction",
         "args": ["out=zeros:f32:65536x1024", "inp=randn:f32:65536x1024", "istride=1024", "ostride=1024",
                  "n_cols=1024"], "grid": "65536",
         "check_args": ["out=zeros:f32:256x1024", "inp=randn:f32:256x1024", "istride=1024", "ostride=1024",
                        "n_cols=1000"], "check_grid": "256", "rtol": 1e-05, "atol": 1e-08},
        matmul("matmul_64x64x32_f16_sm80_w4", "4096", "16", full),
        matmul("matmul_128x128x64_f16_sm90_w8", "1024", "4", full),
        matmul("jit_matmul_128x128x64_w8_s3", "32,32", "2,2", ["sam", "sbk", "scm"]),
    ]
    # libdevice calls (tt.extern_elementwise), linked as Triton links them; class math: element-wise
    # but compute-heavy, outside the memory-bound figures.
    n2 = 1 << 25
    out.append({"name": "libdevice_tanh_pow", "ttgir": "kernels/libdevice_tanh_pow.ttgir", "class": "math",
                "args": [f"x=randn:f32:{n2}", f"y=zeros:f32:{n2}", f"n={n2}"], "grid": str(n2 // 512),
                "check_args": ["x=randn:f32:1000003", "y=zeros:f32:1000003", "n=1000003"], "check_grid": "1954",
                "rtol": 1e-05, "atol": 1e-06})
    # The mbarrier lowering on the GPU: ours for sm_80 (test_wait and nanosleep) and for sm_90
    # (try_wait), Triton's for the GPU's; class sync stays out of the speed summaries.
    for cc in (80, 90):
        out.append({"name": f"mbarrier_phases_sm{cc}", "ttgir": "kernels/mbarrier_phases.ttgir", "class": "sync",
                    "cc": cc, "args": ["out=zeros:i32:135168", "n=1000"], "grid": "1056",
                    "check_args": ["out=zeros:i32:8192", "n=257"], "check_grid": "64",
                    "no_realistic_size": "a synchronization loop (1000 arrive-and-wait rounds per program): "
                                         "its time is latency, not bandwidth"})
    # Global scratch (ttg.global_scratch_alloc in the kernel and in a device function it calls): the
    # launcher's buffer of ttg.global_scratch_memory_size bytes per program, each program's own part.
    out.append({"name": "global_scratch", "ttgir": "kernels/global_scratch.ttgir", "class": "sync",
                "args": ["out=zeros:i32:4096x128"], "grid": "4096",
                "check_args": ["out=zeros:i32:64x128"], "check_grid": "64",
                "no_realistic_size": "a check of the global-scratch ABI (1 KiB of scratch and 512 B of output "
                                     "per program): its time is not a bandwidth"})
    # ttg.fp4_to_fp and the upcast dots on the GPU: e2m1 bytes unpacked to bf16 (memory-bound), and
    # batched 32x32x32 mma.sync products of operands of kWidth 8 (an f16 accumulator; e2m1 A unpacked
    # from kWidth 4). Bit-exact: every product and sum is exact in the accumulator.
    nb, g = 1 << 26, 1 << 16
    out.append({"name": "fp4_to_bf16", "ttgir": "kernels/fp4_to_bf16.ttgir", "class": "memory",
                "args": [f"in=rand:i8:{nb}:lo=-128:hi=127", f"out=zeros:bf16:{2 * nb}"], "grid": str(nb // 4096),
                "check_args": [f"in=rand:i8:{37 * 4096}:lo=-128:hi=127", f"out=zeros:bf16:{74 * 4096}"],
                "check_grid": "37"})
    for name, acols, alo in (("dot_i8_f16acc", 32, -4), ("dot_fp4_bf16", 16, -128)):
        ahi = 4 if alo == -4 else 127
        out.append({"name": name, "ttgir": f"kernels/{name}.ttgir", "class": "matmul",
                    "args": [f"a=rand:i8:{g * 32 * acols}:lo={alo}:hi={ahi}", f"b=rand:i8:{g * 1024}:lo=-4:hi=4",
                             f"c=zeros:f32:{g * 1024}"], "grid": str(g), "flops": 2 * 32 ** 3 * g,
                    "check_args": [f"a=rand:i8:{40 * 32 * acols}:lo={alo}:hi={ahi}", f"b=rand:i8:{40 * 1024}:lo=-4:hi=4",
                                   f"c=zeros:f32:{40 * 1024}"], "check_grid": "40"})
    # tl.inline_asm_elementwise: integer PTX on bytes packed four to a register (memory-bound).
    n3 = 1 << 27
    out.append({"name": "inline_asm_bytes", "ttgir": "kernels/inline_asm_bytes.ttgir", "class": "memory",
                "args": [f"x=rand:i8:{n3}:lo=-128:hi=127", f"y=zeros:i8:{n3}", f"n={n3}"], "grid": str(n3 // 2048),
                "check_args": ["x=rand:i8:100003:lo=-128:hi=127", "y=zeros:i8:100003", "n=100003"], "check_grid": "49"})
    # The same on f16: f16x2 arithmetic, fp8 conversions and a 16-bit register ("h"), sm_90 PTX.
    out.append({"name": "inline_asm_f16", "ttgir": "kernels/inline_asm_f16.ttgir", "class": "memory",
                "args": [f"x=randn:f16:{n3}:std=8", f"y=zeros:f16:{n3}", f"n={n3}"], "grid": str(n3 // 2048),
                "check_args": ["x=randn:f16:100003:std=8", "y=zeros:f16:100003", "n=100003"], "check_grid": "49"})
    # The same on 64-bit registers: an f64 fma ("d") and i64 halves swapped ("l").
    n6 = 1 << 23
    out.append({"name": "inline_asm_64", "ttgir": "kernels/inline_asm_64.ttgir", "class": "memory",
                "args": [f"x=randn:f64:{n6}", f"y=zeros:f64:{n6}", f"a=rand:i64:{n6}", f"b=zeros:i64:{n6}", f"n={n6}"],
                "grid": str(n6 // 1024),
                "check_args": ["x=randn:f64:100003", "y=zeros:f64:100003", "a=rand:i64:100003", "b=zeros:i64:100003",
                               "n=100003"], "check_grid": "98"})
    # Host-side tensor descriptors (TMA, sm_90): a 2-D copy of f16 tiles of 64x128 through shared
    # memory, each parameter a CUtensorMap by value, then the tensor's shape and strides as Triton's
    # kernels take them. Triton's PTX runs under ttgir-run (the same ABI); its own launcher is not
    # tried (no_triton_launcher).
    tr, tc = 8192, 8192
    def tma_args(rows, cols):
        return [f"in=rand:f16:{rows}x{cols}", f"in_m={rows}", f"in_n={cols}", f"in_sm={cols}", "in_sn=1",
                f"out=zeros:f16:{rows}x{cols}", f"out_m={rows}", f"out_n={cols}", f"out_sm={cols}", "out_sn=1"]
    out.append({"name": "tma_copy2d", "ttgir": "kernels/tma_copy2d.ttgir", "class": "memory",
                "args": tma_args(tr, tc), "grid": f"{tr // 64},{tc // 128}",
                "check_args": tma_args(200, 320), "check_grid": "4,3",
                "no_triton_launcher": "not tried: Triton's launcher expands a TensorDescriptor argument with "
                                      "metadata (tensordesc_meta) its JIT path makes; whether a .ttgir compile "
                                      "makes it is not checked (its PTX runs under ttgir-run)"})
    # A block loaded over the edge of a host-side descriptor whose padding is NaN (the tensor map's
    # NaN fill), stored through pointers: checked, not timed.
    tl = ["in=randn:f32:40x16:padding=nan", "out=zeros:f32:512", "r=16", "c=0"]
    out.append({"name": "tma_load_tile", "ttgir": "kernels/tma_load_tile.ttgir", "class": "sync",
                "args": tl, "grid": "1", "check_args": tl, "check_grid": "1",
                "no_realistic_size": SINGLE.format(tile="32x16"),
                "no_triton_launcher": "not tried (see tma_copy2d)"})
    # The same with the descriptors made in the kernel (tl.make_tensor_descriptor), lowered as Triton
    # does with -device-tma: tensor maps written on the device into global scratch, then TMA copies.
    def tma_dev_args(rows, cols):
        return [f"in=rand:f16:{rows}x{cols}", f"out=zeros:f16:{rows}x{cols}", f"m={rows}", f"n={cols}"]
    out.append({"name": "tma_device_copy2d", "ttgir": "kernels/tma_device_copy2d.ttgir", "class": "memory",
                "args": tma_dev_args(tr, tc), "grid": f"{tr // 64},{tc // 128}",
                "check_args": tma_dev_args(200, 320), "check_grid": "4,3", "translate_flags": ["-device-tma"]})
    # Triton's lit sample of a matmul through descriptors made in the kernel, before pipelining
    # (C = A·Bᵀ, f16): with -device-tma its tiles are TMA copies, as Triton lowers it.
    def desc_mm(m, n, kk):
        return [f"arg0=rand:f16:{m}x{kk}", f"arg1=rand:f16:{n}x{kk}", f"arg2=zeros:f16:{m}x{n}",
                f"arg3={m}", f"arg4={n}", f"arg5={kk}"]
    out.append({"name": "descriptor_matmul_128x256x64_sm90_w8", "ttgir": "kernels/descriptor_matmul_128x256x64_sm90_w8.ttgir",
                "class": "matmul", "args": desc_mm(4096, 4096, 4096), "grid": str(32 * 16),
                "check_args": desc_mm(256, 512, 128), "check_grid": "4", "rtol": HALF_TOL[0], "atol": HALF_TOL[1],
                "flops": 2 * 4096 ** 3, "translate_flags": ["-device-tma"]})
    # wgmma with an f16 accumulator (.f16.f16.f16), one 64x64x64 tile; f16 sums of normal inputs
    # differ with the order of the additions: rtol 1e-2, atol 0.1 against the interpreter.
    wg = ["a=randn:f16:4096", "b=randn:f16:4096", "out=zeros:f32:4096"]
    out.append({"name": "wgmma_f16acc_64x64x64", "ttgir": "kernels/wgmma_f16acc_64x64x64.ttgir", "class": "matmul",
                "args": wg, "grid": "1", "check_args": wg, "check_grid": "1", "rtol": 0.01, "atol": 0.1,
                "flops": 2 * 64 ** 3, "no_realistic_size": SINGLE.format(tile="64x64x64"), "graph": GRAPH})
    # wgmma on int8 operands (.s32.s8.s8, i32 accumulator), one 64x64x64 tile: exact.
    w8 = ["a=rand:i8:4096:lo=-128:hi=127", "b=rand:i8:4096:lo=-128:hi=127", "out=zeros:i32:4096"]
    out.append({"name": "wgmma_i8_64x64x64", "ttgir": "kernels/wgmma_i8_64x64x64.ttgir", "class": "matmul",
                "args": w8, "grid": "1", "check_args": w8, "check_grid": "1",
                "flops": 2 * 64 ** 3, "no_realistic_size": SINGLE.format(tile="64x64x64"), "graph": GRAPH})
    # The same with A from registers (a dot_op of kWidth 4); and e4m3 so, whose f32 sums the tensor
    # cores add in their own order and precision: rtol 1e-3, atol 1e-2 against the interpreter.
    out.append({"name": "wgmma_i8_rega_64x64x64", "ttgir": "kernels/wgmma_i8_rega_64x64x64.ttgir",
                "class": "matmul", "args": w8, "grid": "1", "check_args": w8, "check_grid": "1",
                "flops": 2 * 64 ** 3, "no_realistic_size": SINGLE.format(tile="64x64x64"), "graph": GRAPH})
    f8 = ["a=rand:f8E4M3FN:4096", "b=rand:f8E4M3FN:4096", "out=zeros:f32:4096"]
    out.append({"name": "wgmma_e4m3_rega_64x64x64", "ttgir": "kernels/wgmma_e4m3_rega_64x64x64.ttgir",
                "class": "matmul", "args": f8, "grid": "1", "check_args": f8, "check_grid": "1",
                "rtol": 1e-3, "atol": 1e-2,
                "flops": 2 * 64 ** 3, "no_realistic_size": SINGLE.format(tile="64x64x64"), "graph": GRAPH})
    # e4m3 with maxNumImpreciseAcc = 64 < K = 128: partial accumulators, added to the f32 one every
    # two wgmma instructions (Triton's needsPartialAccumulator).
    f8k = ["a=rand:f8E4M3FN:8192", "b=rand:f8E4M3FN:8192", "out=zeros:f32:4096"]
    out.append({"name": "wgmma_e4m3_partial_64x64x128", "ttgir": "kernels/wgmma_e4m3_partial_64x64x128.ttgir",
                "class": "matmul", "args": f8k, "grid": "1", "check_args": f8k, "check_grid": "1",
                "rtol": 1e-3, "atol": 1e-2,
                "flops": 2 * 64 * 64 * 128, "no_realistic_size": SINGLE.format(tile="64x64x128"), "graph": GRAPH})
    for base in ("add_b1024_sm90_w4", "softmax_b1024_sm90_w4", "transpose_64x64_f32_sm90_w4",
                 "matmul_64x64x32_f16_sm80_w4"):
        out.append({"name": base + ".post", "from": base, "ttgir": f"shared:prepost/{base}.post.ttgir"})
        out.append({"name": base + ".pre-ours", "from": base, "ttgir": f"shared:prepost/{base}.pre.ttgir",
                    "layout_opt": ["-remove-redundant-conversions"]})
    return out


NO_TRITON_BLOCKED = ("the module before Triton's accelerate-matmul, tt.dot_scaled on blocked layouts: Triton 3.6 lowers "
                     "no such op to LLVM on NVIDIA GPUs before Blackwell (its accelerate-matmul decomposes it, as our "
                     "tritongpu-decompose-scaled-blocked does in layout-translate); checked against the interpreter, "
                     "Triton's figures are its .post's")


def manifest():
    kernels = shared_entries()
    for s in corpus_specs():
        e = corpus_entry(s)
        name = e.pop("name")
        post = {"name": name + ".post", "ttgir": f"prepost:{name}.post.ttgir", **e}
        pre = {"name": name + ".pre-ours", "from": name + ".post", "ttgir": f"prepost:{name}.pre.ttgir",
               "layout_opt": ["-remove-redundant-conversions"]}
        kernels += [post, pre]
        if os.path.exists(os.path.join(PREPOST, name + ".blocked.ttgir")):
            kernels.append({"name": name + ".blocked-ours", "from": name + ".post", "ttgir": f"prepost:{name}.blocked.ttgir",
                            "no_triton": NO_TRITON_BLOCKED})
    return {"_doc": DOC, "kernels": kernels}


def render():
    return json.dumps(manifest(), indent=1) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if kernels.json is not what this script writes")
    ap.add_argument("-o", default=OUT, help="output file")
    a = ap.parse_args()
    text = render()
    if a.check:
        cur = ""
        if os.path.exists(a.o):
            with open(a.o) as f:
                cur = f.read()
        if cur != text:
            print(f"{a.o} is stale: run python3 proof/manifest.py", file=sys.stderr)
            sys.exit(1)
        return
    with open(a.o, "w") as f:
        f.write(text)
    n = len(json.loads(text)["kernels"])
    print(f"{a.o}: {n} kernels", file=sys.stderr)


if __name__ == "__main__":
    main()
