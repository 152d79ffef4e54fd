"""Before/after corpus of Triton 3.6's tritongpu-remove-layout-conversions
(and, for scaled dots, the module before its accelerate-matmul: NAME.blocked.ttgir).

python3 .corpus/gen.py            # every spec, each in its own process; writes $OUT
python3 .corpus/gen.py --one I D  # spec I into folder D (used by the above)
python3 .corpus/gen.py --list     # names only
"""
import json
import os
import subprocess
import sys
import tarfile
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

FLOATS = {"eps", "sm_scale", "p"}


def specs():
    import kernels as K
    out = []

    def S(name, fn, consts, warps, cc, **ptrs):
        sig = {}
        attrs = {}
        for i, a in enumerate(fn.arg_names):
            if a in consts:
                sig[a] = "constexpr"
            elif a.endswith("_ptr"):
                sig[a] = ptrs.get(a, "*fp32")
                attrs[(i, )] = [["tt.divisibility", 16]]
            elif a in FLOATS:
                sig[a] = "fp32"
            else:
                sig[a] = "i32"
                if a.startswith("stride"):
                    attrs[(i, )] = [["tt.divisibility", 16]]
        out.append(dict(name=f"{name}_sm{cc}_w{warps}", fn=fn, sig=sig, consts=consts, attrs=attrs, warps=warps, cc=cc))

    f16 = "*fp16"
    i32 = "*i32"
    # reductions along each axis
    ops = {0: "sum", 1: "max", 2: "argmax"}
    rshapes = [((32, 64), 4, 80), ((64, 128), 8, 90), ((128, 32), 2, 80), ((16, 256), 4, 90)]
    k = 0
    for op in (0, 1, 2):
        for axis in (0, 1):
            for j in range(2):
                (bm, bn), w, cc = rshapes[(k + j) % len(rshapes)]
                S(f"{ops[op]}_axis{axis}_{bm}x{bn}", K.reduce_2d, dict(BM=bm, BN=bn, AXIS=axis, OP=op), w, cc)
            k += 1
    for (a, b, c), axis, w, cc in [((4, 16, 32), 0, 4, 80), ((4, 16, 32), 1, 4, 90), ((8, 8, 64), 2, 4, 80),
                                   ((8, 32, 16), 1, 8, 90)]:
        S(f"sum3d_axis{axis}_{a}x{b}x{c}", K.reduce_3d, dict(A=a, B=b, C=c, AXIS=axis), w, cc)
    # scans
    for (bm, bn), axis, w, cc in [((32, 64), 0, 4, 80), ((32, 64), 1, 4, 90), ((128, 16), 0, 8, 90),
                                  ((16, 128), 1, 2, 80)]:
        S(f"cumsum_axis{axis}_{bm}x{bn}", K.cumsum_2d, dict(BM=bm, BN=bn, AXIS=axis), w, cc)
    S("cumsum1d_1024", K.cumsum_1d, dict(BLOCK=1024), 4, 90)
    S("cumsum1d_256", K.cumsum_1d, dict(BLOCK=256), 2, 80)
    for (bm, bn), axis, w, cc in [((32, 32), 1, 4, 80), ((64, 16), 0, 2, 90)]:
        S(f"assocscan_pair_axis{axis}_{bm}x{bn}", K.assoc_scan_pair, dict(BM=bm, BN=bn, AXIS=axis), w, cc)
    # broadcasting
    S("outer_64x64", K.outer_product, dict(BM=64, BN=64), 4, 80)
    S("outer_128x32", K.outer_product, dict(BM=128, BN=32), 8, 90)
    S("masked_bias_64x64", K.masked_bias_add, dict(BM=64, BN=64), 4, 90)
    S("masked_bias_32x128", K.masked_bias_add, dict(BM=32, BN=128), 2, 80)
    S("bcast_dot3d_16x16x16", K.broadcast_dot_3d, dict(M=16, K=16, N=16), 4, 80)
    S("bcast_dot3d_32x8x32", K.broadcast_dot_3d, dict(M=32, K=8, N=32), 8, 90)
    # normalisations
    S("layernorm_1024", K.layer_norm, dict(BLOCK_N=1024), 4, 90)
    S("layernorm_512_f16", K.layer_norm, dict(BLOCK_N=512), 2, 80, x_ptr=f16, w_ptr=f16, b_ptr=f16, y_ptr=f16)
    S("layernorm_4096", K.layer_norm, dict(BLOCK_N=4096), 8, 80)
    S("layernorm2d_16x128", K.layer_norm_2d, dict(BM=16, BN=128), 4, 80)
    S("layernorm2d_4x512", K.layer_norm_2d, dict(BM=4, BN=512), 8, 90)
    S("rmsnorm_2048_f16", K.rms_norm, dict(BLOCK_N=2048), 8, 90, x_ptr=f16, w_ptr=f16, y_ptr=f16)
    S("rmsnorm_256_f16", K.rms_norm, dict(BLOCK_N=256), 2, 80, x_ptr=f16, w_ptr=f16, y_ptr=f16)
    S("layernorm_bwd_dwdb_32x64", K.layer_norm_bwd_dwdb, dict(BM=32, BN=64), 4, 80)
    S("layernorm_bwd_dwdb_16x256", K.layer_norm_bwd_dwdb, dict(BM=16, BN=256), 8, 90)
    # softmax
    S("softmax_rows_1x1024", K.softmax_rows, dict(BM=1, BN=1024), 4, 90)
    S("softmax_rows_4x256", K.softmax_rows, dict(BM=4, BN=256), 4, 80)
    S("softmax_rows_16x64", K.softmax_rows, dict(BM=16, BN=64), 8, 90)
    S("softmax_rows_32x32", K.softmax_rows, dict(BM=32, BN=32), 2, 80)
    S("softmax_cols_64x32", K.softmax_cols, dict(BM=64, BN=32), 4, 80)
    S("softmax_cols_256x8", K.softmax_cols, dict(BM=256, BN=8), 8, 90)
    S("softmax_online_512", K.softmax_online, dict(BLOCK=512), 4, 80)
    S("softmax_online_2048", K.softmax_online, dict(BLOCK=2048), 8, 90)
    S("softmax_transpose_32x64", K.softmax_transpose_store, dict(BM=32, BN=64), 4, 80)
    S("softmax_transpose_64x64", K.softmax_transpose_store, dict(BM=64, BN=64), 4, 90)
    S("cross_entropy_1024_f16", K.cross_entropy, dict(BLOCK=1024), 4, 80, logits_ptr=f16, target_ptr=i32)
    S("cross_entropy_4096", K.cross_entropy, dict(BLOCK=4096), 8, 90, target_ptr=i32)
    # attention-like chains
    qkv = dict(q_ptr=f16, k_ptr=f16, v_ptr=f16, o_ptr=f16)
    S("attention_64x64x64", K.attention, dict(BM=64, BN=64, D=64), 4, 80, **qkv)
    S("attention_64x64x64", K.attention, dict(BM=64, BN=64, D=64), 4, 90, **qkv)
    S("attention_128x64x32", K.attention, dict(BM=128, BN=64, D=32), 8, 90, **qkv)
    S("attention_32x32x16", K.attention, dict(BM=32, BN=32, D=16), 2, 80, **qkv)
    S("flashattn_64x64x64", K.flash_attention, dict(BM=64, BN=64, D=64, CAUSAL=False), 4, 80, **qkv)
    S("flashattn_causal_128x64x64", K.flash_attention, dict(BM=128, BN=64, D=64, CAUSAL=True), 8, 90, **qkv)
    S("flashattn_causal_64x32x32", K.flash_attention, dict(BM=64, BN=32, D=32, CAUSAL=True), 4, 80, **qkv)
    S("flashattn_128x128x64", K.flash_attention, dict(BM=128, BN=128, D=64, CAUSAL=False), 8, 90, **qkv)
    S("dot_chain_64x64x32_f16", K.dot_chain, dict(BM=64, BN=64, BK=32), 4, 80, a_ptr=f16, b_ptr=f16, d_ptr=f16)
    S("dot_chain_64x128x64_f16", K.dot_chain, dict(BM=64, BN=128, BK=64), 4, 90, a_ptr=f16, b_ptr=f16, d_ptr=f16)
    S("l2norm_dot_64x64x64_f16", K.l2norm_dot, dict(BM=64, BN=64, BK=64), 4, 80, a_ptr=f16, b_ptr=f16)
    S("l2norm_dot_128x64x32_f16", K.l2norm_dot, dict(BM=128, BN=64, BK=32), 8, 90, a_ptr=f16, b_ptr=f16)
    # matmuls with epilogues
    mm = dict(a_ptr=f16, b_ptr=f16, c_ptr=f16)
    S("matmul_relu_64x64x32_f16", K.matmul_epilogue, dict(BM=64, BN=64, BK=32, ACT=1), 4, 80, **mm)
    S("matmul_silu_128x128x64_f16", K.matmul_epilogue, dict(BM=128, BN=128, BK=64, ACT=2), 8, 90, **mm)
    S("matmul_gelu_128x64x32_f16", K.matmul_epilogue, dict(BM=128, BN=64, BK=32, ACT=3), 4, 80, **mm)
    S("matmul_bias_64x64x32_f16", K.matmul_epilogue, dict(BM=64, BN=64, BK=32, ACT=0), 4, 90, **mm)
    S("matmul_relu_64x128x32_f16", K.matmul_epilogue, dict(BM=64, BN=128, BK=32, ACT=1), 2, 80, **mm)
    S("matmul_grouped_128x128x32_f16", K.matmul_grouped, dict(BM=128, BN=128, BK=32, GROUP_M=8), 8, 80, **mm)
    S("matmul_grouped_128x128x64_f16", K.matmul_grouped, dict(BM=128, BN=128, BK=64, GROUP_M=8), 4, 90, **mm)
    S("matmul_blockptr_64x64x32_f16", K.matmul_block_ptr, dict(BM=64, BN=64, BK=32), 4, 80, **mm)
    S("matmul_blockptr_128x128x64_f16", K.matmul_block_ptr, dict(BM=128, BN=128, BK=64), 8, 90, **mm)
    S("matmul_tf32_rowsum_64x64x32", K.matmul_tf32_rowsum, dict(BM=64, BN=64, BK=32), 4, 80)
    S("matmul_tf32_rowsum_64x64x32", K.matmul_tf32_rowsum, dict(BM=64, BN=64, BK=32), 4, 90)
    S("dot_trans_b_64x64x32_f16", K.dot_trans_b, dict(BM=64, BN=64, BK=32), 4, 80, a_ptr=f16, b_ptr=f16)
    S("dot_trans_b_64x128x64_f16", K.dot_trans_b, dict(BM=64, BN=128, BK=64), 4, 90, a_ptr=f16, b_ptr=f16)
    S("splitk_atomic_64x64x32_f16", K.splitk_atomic, dict(BM=64, BN=64, BK=32), 4, 80, a_ptr=f16, b_ptr=f16)
    S("splitk_atomic_128x64x64_f16", K.splitk_atomic, dict(BM=128, BN=64, BK=64), 8, 90, a_ptr=f16, b_ptr=f16)
    # transposes, permutes, reshapes
    S("transpose_64x64_f32", K.transpose_2d, dict(BM=64, BN=64), 4, 80)
    S("transpose_32x128_f16", K.transpose_2d, dict(BM=32, BN=128), 8, 90, x_ptr=f16, y_ptr=f16)
    S("transpose_128x128_f32", K.transpose_2d, dict(BM=128, BN=128), 8, 80)
    S("transpose_scale_32x64", K.transpose_scale, dict(BM=32, BN=64), 4, 90)
    S("transpose_scale_64x16", K.transpose_scale, dict(BM=64, BN=16), 2, 80)
    S("permute_8x16x32", K.permute_3d, dict(A=8, B=16, C=32), 4, 80)
    S("permute_4x32x16", K.permute_3d, dict(A=4, B=32, C=16), 2, 90)
    S("reshape_16x64", K.reshape_2d, dict(BM=16, BN=64), 2, 80)
    S("reshape_64x32", K.reshape_2d, dict(BM=64, BN=32), 4, 90)
    S("join_split_32x32", K.join_split, dict(BM=32, BN=32), 4, 80)
    S("join_split_64x16", K.join_split, dict(BM=64, BN=16), 2, 90)
    S("interleave_1024", K.interleave_k, dict(BLOCK=1024), 4, 90)
    S("interleave_256", K.interleave_k, dict(BLOCK=256), 2, 80)
    S("flip_32x64", K.flip_rows, dict(BM=32, BN=64), 4, 80)
    S("sort_16x64", K.sort_rows, dict(BM=16, BN=64), 4, 90)
    S("sort_8x128", K.sort_rows, dict(BM=8, BN=128), 2, 80)
    # gather, histogram
    S("gather_axis1_32x32", K.gather_rows, dict(BM=32, BN=32, AXIS=1), 4, 80, idx_ptr=i32)
    S("gather_axis0_64x16", K.gather_rows, dict(BM=64, BN=16, AXIS=0), 2, 90, idx_ptr=i32)
    S("gather_axis1_16x128", K.gather_rows, dict(BM=16, BN=128, AXIS=1), 8, 90, idx_ptr=i32)
    S("kv_gather_64x64", K.kv_cache_gather, dict(D=64, BM=64), 4, 80, idx_ptr=i32)
    S("histogram_1024x64", K.histogram_k, dict(BLOCK=1024, BINS=64), 4, 80, x_ptr=i32, out_ptr=i32)
    S("histogram_4096x256", K.histogram_k, dict(BLOCK=4096, BINS=256), 8, 90, x_ptr=i32, out_ptr=i32)
    S("histogram_where_256x32", K.int_histogram_where, dict(BLOCK=256, BINS=32), 4, 90, x_ptr=i32, out_ptr=i32)
    # loops
    S("colsum_loop_64x64", K.colsum_loop, dict(BM=64, BN=64), 4, 80)
    S("colsum_loop_32x128", K.colsum_loop, dict(BM=32, BN=128), 8, 90)
    S("colsum_loop_128x32", K.colsum_loop, dict(BM=128, BN=32), 2, 80)
    S("colsum_acc_loop_32x64", K.colsum_2d_acc_loop, dict(BM=32, BN=64), 4, 90)
    S("colsum_acc_loop_64x128", K.colsum_2d_acc_loop, dict(BM=64, BN=128), 8, 80)
    S("rowsum_loop_64x64", K.rowsum_loop, dict(BM=64, BN=64), 4, 90)
    S("rowsum_loop_16x256", K.rowsum_loop, dict(BM=16, BN=256), 2, 80)
    S("matvec_64x128", K.matvec, dict(BM=64, BN=128), 4, 80)
    S("matvec_16x512", K.matvec, dict(BM=16, BN=512), 8, 90)
    S("while_rowcol_32x32", K.while_loop, dict(BM=32, BN=32), 4, 80)
    S("while_rowcol_64x64", K.while_loop, dict(BM=64, BN=64), 8, 90)
    S("if_select_32x64", K.if_select, dict(BM=32, BN=64), 4, 90)
    S("if_select_64x32", K.if_select, dict(BM=64, BN=32), 2, 80)
    # custom reductions and element-wise
    S("argmin_reduce_axis1_32x64", K.custom_reduce_argmin, dict(BM=32, BN=64, AXIS=1), 4, 80, i_ptr=i32)
    S("argmin_reduce_axis0_64x32", K.custom_reduce_argmin, dict(BM=64, BN=32, AXIS=0), 8, 90, i_ptr=i32)
    S("quantize_rows_1024", K.quantize_rows, dict(BLOCK=1024), 4, 90, q_ptr="*i8")
    S("quantize_rows_512_f16", K.quantize_rows, dict(BLOCK=512), 2, 80, x_ptr=f16, q_ptr="*i8")
    S("dropout_1024", K.dropout_k, dict(BLOCK=1024), 4, 80)
    S("rope_32x128", K.rope, dict(BM=32, D=128), 4, 90)
    S("rope_16x64_f16", K.rope, dict(BM=16, D=64), 2, 80, x_ptr=f16, cos_ptr=f16, sin_ptr=f16, y_ptr=f16)
    # scaled dots (tl.dot_scaled: Triton's accelerate-matmul decomposes them before Blackwell; NAME.blocked.ttgir
    # is the module before it)
    fmt_ptr = {"e2m1": "*u8", "e4m3": "*fp8e4nv", "e5m2": "*fp8e5", "bf16": "*bf16"}
    for a, b, (bm, bn, bk), w, cc in [("bf16", "e2m1", (128, 128, 128), 4, 90), ("e4m3", "e2m1", (128, 128, 128), 8, 90),
                                      ("e2m1", "e2m1", (64, 64, 128), 4, 90), ("e5m2", "e4m3", (64, 128, 64), 4, 90),
                                      ("bf16", "e2m1", (64, 64, 64), 4, 80)]:
        S(f"mx_{a}_{b}_{bm}x{bn}x{bk}", K.matmul_scaled, dict(BM=bm, BN=bn, BK=bk, A_FMT=a, B_FMT=b), w, cc,
          a_ptr=fmt_ptr[a], sa_ptr="*u8", b_ptr=fmt_ptr[b], sb_ptr="*u8")
    names = [s["name"] for s in out]
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
    return out


def new_context():
    from triton._C.libtriton import ir, nvidia
    ctx = ir.context()
    ir.load_dialects(ctx)
    nvidia.load_dialects(ctx)
    return ctx


def compile_ttir(s):
    import triton
    from triton.compiler import ASTSource
    from triton.backends.compiler import GPUTarget
    from triton._C.libtriton import ir
    target = GPUTarget("cuda", s["cc"], 32)
    src = ASTSource(fn=s["fn"], signature=s["sig"], constexprs=s["consts"], attrs=s["attrs"])
    errs = []
    try:
        backend = triton.compiler.compiler.make_backend(target)
        options = backend.parse_options({"num_warps": s["warps"]})
        ctx = ir.context()
        ir.load_dialects(ctx)
        backend.load_dialects(ctx)
        codegen_fns = backend.get_codegen_implementation(options)
        module_map = backend.get_module_map()
        try:
            mod = src.make_ir(target, options, codegen_fns, module_map, ctx)
        except TypeError:
            mod = src.make_ir(options, codegen_fns, module_map, ctx)
        stages = {}
        backend.add_stages(stages, options, src.language)
        mod = stages["ttir"](mod, {})
        return str(mod), "staged", ctx
    except Exception:
        errs.append(traceback.format_exc())
    try:
        k = triton.compile(src, target=target, options={"num_warps": s["warps"]})
        return k.asm["ttir"], "compile", None
    except Exception:
        errs.append(traceback.format_exc())
        raise RuntimeError("\n----\n".join(errs))


def count_cvt(text):
    return sum(1 for line in text.splitlines() if "= ttg.convert_layout " in line)


def one(idx, outdir):
    from triton._C.libtriton import ir, passes
    s = specs()[idx]
    name = s["name"]
    rec = dict(name=name, cc=s["cc"], warps=s["warps"], kernel=s["fn"].__name__, consts=s["consts"])
    t0 = time.time()
    try:
        ttir, how, _keep = compile_ttir(s)
        rec["ttir_by"] = how
        ttir_path = os.path.join(outdir, name + ".ttir")
        with open(ttir_path, "w") as f:
            f.write(ttir)
        ctx = new_context()
        m = ir.parse_mlir_module(ttir_path, ctx)
        pm = ir.pass_manager(ctx)
        passes.ttir.add_convert_to_ttgpuir(pm, f"cuda:{s['cc']}", s["warps"], 32, 1)
        passes.ttgpuir.add_coalesce(pm)
        pm.run(m, "make_ttgir")
        if "tt.dot_scaled" in str(m):  # the decomposition's input
            with open(os.path.join(outdir, name + ".blocked.ttgir"), "w") as f:
                f.write(str(m))
        pm = ir.pass_manager(ctx)
        passes.ttgpuir.add_accelerate_matmul(pm)
        pm.run(m, "accelerate_matmul")
        pre = str(m)
        pre_path = os.path.join(outdir, name + ".pre.ttgir")
        with open(pre_path, "w") as f:
            f.write(pre)
        ctx2 = new_context()
        m2 = ir.parse_mlir_module(pre_path, ctx2)
        pm2 = ir.pass_manager(ctx2)
        passes.ttgpuir.add_remove_layout_conversions(pm2)
        pm2.run(m2, "remove_layout_conversions")
        post = str(m2)
        with open(os.path.join(outdir, name + ".post.ttgir"), "w") as f:
            f.write(post)
        rec.update(ok=True, pre_cvt=count_cvt(pre), post_cvt=count_cvt(post))
    except BaseException:
        rec.update(ok=False, error=traceback.format_exc()[-6000:])
    rec["secs"] = round(time.time() - t0, 2)
    print("RESULT " + json.dumps(rec), flush=True)


def main():
    out = os.environ.get("OUT", "/tmp/corpus_out")
    work = "/tmp/corpus_work/pairs"
    os.makedirs(work, exist_ok=True)
    os.makedirs(out, exist_ok=True)
    ss = specs()
    import triton
    print(f"triton {triton.__version__}, {len(ss)} specs", flush=True)

    def run(i):
        name = ss[i]["name"]
        try:
            p = subprocess.run([sys.executable, __file__, "--one", str(i), work], capture_output=True, text=True,
                               timeout=240)
            for line in p.stdout.splitlines():
                if line.startswith("RESULT "):
                    return json.loads(line[7:])
            return dict(name=name, ok=False, error=f"rc {p.returncode}\nstdout:\n{p.stdout[-3000:]}\nstderr:\n{p.stderr[-6000:]}")
        except subprocess.TimeoutExpired as e:
            return dict(name=name, ok=False, error=f"timeout: {e}")

    t0 = time.time()
    with ThreadPoolExecutor(max_workers=max(2, (os.cpu_count() or 4) - 2)) as ex:
        results = list(ex.map(run, range(len(ss))))
    ok = [r for r in results if r.get("ok")]
    bad = [r for r in results if not r.get("ok")]
    manifest = dict(triton=triton.__version__, elapsed=round(time.time() - t0, 1), total=len(results), ok=len(ok),
                    failed=len(bad), results=results)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, default=str)
    with tarfile.open(os.path.join(out, "pairs.tar.gz"), "w:gz") as tf:
        tf.add(work, arcname="pairs")
    for r in results:
        if r.get("ok"):
            print(f"ok   {r['name']}: pre {r['pre_cvt']} post {r['post_cvt']} ({r['ttir_by']}, {r['secs']}s)")
        else:
            print(f"FAIL {r['name']}: {r['error'][-400:]}")
    print(f"{len(ok)} ok, {len(bad)} failed, {manifest['elapsed']}s")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        one(int(sys.argv[2]), sys.argv[3])
    elif len(sys.argv) > 1 and sys.argv[1] == "--list":
        for s in specs():
            print(s["name"])
    else:
        main()
