# Kernels written as Triton users write them, for the before/after corpus of
# tritongpu-remove-layout-conversions. Each takes pointers and sizes and
# stores its results, so nothing is dead code.
import triton
import triton.language as tl


@triton.jit
def reduce_2d(x_ptr, out_ptr, stride_m, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr, OP: tl.constexpr):
    pid = tl.program_id(0)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + pid * BM * stride_m + rm[:, None] * stride_m + rn[None, :])
    if OP == 0:
        r = tl.sum(x, axis=AXIS)
    elif OP == 1:
        r = tl.max(x, axis=AXIS)
    else:
        r = tl.argmax(x, axis=AXIS).to(tl.float32)
    if AXIS == 0:
        tl.store(out_ptr + pid * BN + rn, r)
    else:
        tl.store(out_ptr + pid * BM + rm, r)


@triton.jit
def reduce_3d(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, AXIS: tl.constexpr):
    ra = tl.arange(0, A)
    rb = tl.arange(0, B)
    rc = tl.arange(0, C)
    offs = ra[:, None, None] * (B * C) + rb[None, :, None] * C + rc[None, None, :]
    x = tl.load(x_ptr + offs)
    r = tl.sum(x, axis=AXIS)
    if AXIS == 0:
        tl.store(out_ptr + rb[:, None] * C + rc[None, :], r)
    elif AXIS == 1:
        tl.store(out_ptr + ra[:, None] * C + rc[None, :], r)
    else:
        tl.store(out_ptr + ra[:, None] * B + rb[None, :], r)


@triton.jit
def cumsum_2d(x_ptr, out_ptr, stride_m, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * stride_m + rn[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=AXIS))


@triton.jit
def cumsum_1d(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=0), mask=mask)


@triton.jit
def outer_product(a_ptr, b_ptr, out_ptr, stride_m, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    a = tl.load(a_ptr + rm, mask=rm < M, other=0.0)
    b = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    c = a[:, None] * b[None, :]
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(out_ptr + rm[:, None] * stride_m + rn[None, :], c, mask=mask)


@triton.jit
def masked_bias_add(x_ptr, bias_ptr, row_scale_ptr, out_ptr, stride_m, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=mask, other=0.0)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    s = tl.load(row_scale_ptr + rm, mask=rm < M, other=1.0)
    y = tl.where(mask, x * s[:, None] + bias[None, :], 0.0)
    tl.store(out_ptr + rm[:, None] * stride_m + rn[None, :], y, mask=mask)


@triton.jit
def layer_norm(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    y = xc * rstd * w + b
    tl.store(y_ptr + row * stride + cols, y, mask=mask)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def layer_norm_2d(x_ptr, w_ptr, y_ptr, stride, M, N, eps, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :], mask=mask, other=0.0)
    mean = tl.sum(x, axis=1) / N
    xc = tl.where(mask, x - mean[:, None], 0.0)
    rstd = tl.rsqrt(tl.sum(xc * xc, axis=1) / N + eps)
    w = tl.load(w_ptr + rn, mask=rn < N, other=0.0)
    tl.store(y_ptr + rm[:, None] * stride + rn[None, :], xc * rstd[:, None] * w[None, :], mask=mask)


@triton.jit
def rms_norm(x_ptr, w_ptr, y_ptr, stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    r = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride + cols, (x * r * w).to(tl.float16), mask=mask)


@triton.jit
def softmax_rows(x_ptr, y_ptr, stride_m, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    y = e / tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + rm[:, None] * stride_m + rn[None, :], y, mask=mask)


@triton.jit
def softmax_cols(x_ptr, y_ptr, stride_m, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.program_id(0) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)[None, :]
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)[None, :]
    tl.store(y_ptr + rm[:, None] * stride_m + rn[None, :], y, mask=mask)


@triton.jit
def softmax_online(x_ptr, y_ptr, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=-float("inf"))
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    mx = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - mx), axis=0)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=-float("inf"))
        tl.store(y_ptr + row * stride + cols, tl.exp(x - mx) / total, mask=cols < N)


@triton.jit
def cross_entropy(logits_ptr, target_ptr, loss_ptr, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(logits_ptr + row * stride + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
    t = tl.load(target_ptr + row)
    mx = tl.max(x, axis=0)
    lse = mx + tl.log(tl.sum(tl.exp(x - mx), axis=0))
    xt = tl.sum(tl.where(cols == t, x, 0.0), axis=0)
    tl.store(loss_ptr + row, lse - xt)


@triton.jit
def attention(q_ptr, k_ptr, v_ptr, o_ptr, stride, sm_scale, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * stride + rd[None, :])
    k = tl.load(k_ptr + rn[:, None] * stride + rd[None, :])
    v = tl.load(v_ptr + rn[:, None] * stride + rd[None, :])
    s = tl.dot(q, tl.trans(k)) * sm_scale
    s = s - tl.max(s, axis=1)[:, None]
    p = tl.exp(s)
    p = p / tl.sum(p, axis=1)[:, None]
    o = tl.dot(p.to(tl.float16), v)
    tl.store(o_ptr + rm[:, None] * stride + rd[None, :], o.to(tl.float16))


@triton.jit
def flash_attention(q_ptr, k_ptr, v_ptr, o_ptr, stride, N_CTX, sm_scale, BM: tl.constexpr, BN: tl.constexpr,
                    D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * stride + rd[None, :])
    m_i = tl.full([BM], -float("inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = N_CTX
    if CAUSAL:
        hi = (start_m + 1) * BM
    for start_n in range(0, hi, BN):
        rn = start_n + tl.arange(0, BN)
        k = tl.load(k_ptr + rn[None, :] * stride + rd[:, None])
        qk = tl.dot(q, k)
        if CAUSAL:
            qk = tl.where(rm[:, None] >= rn[None, :], qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + rn[:, None] * stride + rd[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(o_ptr + rm[:, None] * stride + rd[None, :], acc.to(tl.float16))


@triton.jit
def matmul_epilogue(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
                    BN: tl.constexpr, BK: tl.constexpr, ACT: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    acc = acc + bias[None, :]
    if ACT == 1:
        acc = tl.maximum(acc, 0.0)
    elif ACT == 2:
        acc = acc * tl.sigmoid(acc)
    elif ACT == 3:
        acc = 0.5 * acc * (1 + tl.math.erf(acc * 0.7071067811865476))
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16), mask=mask)


@triton.jit
def matmul_grouped(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    rm = (pid_m * BM + tl.arange(0, BM)) % M
    rn = (pid_n * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :], acc.to(tl.float16),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def matmul_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
                     BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_bp, boundary_check=(0, 1))
        b = tl.load(b_bp, boundary_check=(0, 1))
        acc = tl.dot(a, b, acc)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))


@triton.jit
def matmul_tf32_rowsum(a_ptr, b_ptr, c_ptr, rs_ptr, stride, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * stride + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * stride + rn[None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride + rn[None, :], c)
    tl.store(rs_ptr + rm, tl.sum(c, axis=1))


@triton.jit
def dot_trans_b(a_ptr, b_ptr, c_ptr, stride, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * stride + rk[None, :])
    b = tl.load(b_ptr + rn[:, None] * stride + rk[None, :])
    c = tl.dot(a, b.T)
    tl.store(c_ptr + rm[:, None] * stride + rn[None, :], c)


@triton.jit
def splitk_atomic(a_ptr, b_ptr, c_ptr, K, stride, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_k = tl.program_id(0)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = pid_k * BK + tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * stride + rk[None, :], mask=rk[None, :] < K, other=0.0)
    b = tl.load(b_ptr + rk[:, None] * stride + rn[None, :], mask=rk[:, None] < K, other=0.0)
    c = tl.dot(a, b)
    tl.atomic_add(c_ptr + rm[:, None] * BN + rn[None, :], c)


@triton.jit
def transpose_2d(x_ptr, y_ptr, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * stride_x + rn[None, :])
    tl.store(y_ptr + rn[:, None] * stride_y + rm[None, :], tl.trans(x))


@triton.jit
def transpose_scale(x_ptr, s_ptr, y_ptr, stride, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :])
    s = tl.load(s_ptr + rm)
    y = tl.trans(x * s[:, None])
    y = y + tl.sum(y, axis=0)[None, :]
    tl.store(y_ptr + rn[:, None] * stride + rm[None, :], y)


@triton.jit
def permute_3d(x_ptr, y_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ra = tl.arange(0, A)
    rb = tl.arange(0, B)
    rc = tl.arange(0, C)
    x = tl.load(x_ptr + ra[:, None, None] * (B * C) + rb[None, :, None] * C + rc[None, None, :])
    y = tl.permute(x, (2, 0, 1))
    tl.store(y_ptr + rc[:, None, None] * (A * B) + ra[None, :, None] * B + rb[None, None, :], y)


@triton.jit
def reshape_2d(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM * BN)
    x = tl.load(x_ptr + r)
    y = tl.reshape(x, (BM, BN))
    y = y * tl.sum(y, axis=1)[:, None]
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(y_ptr + rm[:, None] * BN + rn[None, :], y)


@triton.jit
def join_split(x_ptr, y_ptr, z_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * (2 * BN) + rn[None, :] * 2)
    y = tl.load(x_ptr + rm[:, None] * (2 * BN) + rn[None, :] * 2 + 1)
    j = tl.join(x + y, x - y)
    r = tl.reshape(j, (BM, 2 * BN))
    rn2 = tl.arange(0, 2 * BN)
    tl.store(y_ptr + rm[:, None] * (2 * BN) + rn2[None, :], r)
    a, b = tl.split(tl.reshape(r, (BM, BN, 2)))
    tl.store(z_ptr + rm[:, None] * BN + rn[None, :], a * b)


@triton.jit
def interleave_k(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r)
    y = tl.load(y_ptr + r)
    z = tl.interleave(x, y)
    r2 = tl.arange(0, 2 * BLOCK)
    tl.store(out_ptr + r2, z)


@triton.jit
def gather_rows(src_ptr, idx_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    src = tl.load(src_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    out = tl.gather(src, idx, AXIS)
    tl.store(out_ptr + offs, out)


@triton.jit
def histogram_k(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    h = tl.histogram(x, BINS)
    tl.atomic_add(out_ptr + tl.arange(0, BINS), h)


@triton.jit
def colsum_loop(x_ptr, out_ptr, M, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    rn = tl.program_id(0) * BN + tl.arange(0, BN)
    acc = tl.zeros([BN], tl.float32)
    for start in range(0, M, BM):
        rm = start + tl.arange(0, BM)
        x = tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=rm[:, None] < M, other=0.0)
        acc += tl.sum(x, axis=0)
    tl.store(out_ptr + rn, acc)


@triton.jit
def rowsum_loop(x_ptr, out_ptr, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    acc = tl.zeros([BM], tl.float32)
    for start in range(0, N, BN):
        rn = start + tl.arange(0, BN)
        x = tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=rn[None, :] < N, other=0.0)
        acc += tl.sum(x * x, axis=1)
    tl.store(out_ptr + rm, tl.sqrt(acc))


@triton.jit
def colsum_2d_acc_loop(x_ptr, out_ptr, M, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    rn = tl.arange(0, BN)
    acc = tl.zeros([BM, BN], tl.float32)
    for start in range(0, M, BM):
        rm = start + tl.arange(0, BM)
        acc += tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=rm[:, None] < M, other=0.0)
    tl.store(out_ptr + rn, tl.sum(acc, axis=0))


@triton.jit
def layer_norm_bwd_dwdb(dy_ptr, x_ptr, dw_ptr, db_ptr, dx_ptr, M, stride, BM: tl.constexpr, BN: tl.constexpr):
    rn = tl.arange(0, BN)
    dw = tl.zeros([BM, BN], tl.float32)
    db = tl.zeros([BM, BN], tl.float32)
    for start in range(0, M, BM):
        rm = start + tl.arange(0, BM)
        mask = rm[:, None] < M
        dy = tl.load(dy_ptr + rm[:, None] * stride + rn[None, :], mask=mask, other=0.0)
        x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :], mask=mask, other=0.0)
        dw += dy * x
        db += dy
        dx = dy - tl.sum(dy * x, axis=1)[:, None] / BN
        tl.store(dx_ptr + rm[:, None] * stride + rn[None, :], dx, mask=mask)
    tl.store(dw_ptr + rn, tl.sum(dw, axis=0))
    tl.store(db_ptr + rn, tl.sum(db, axis=0))


@triton.jit
def matvec(w_ptr, x_ptr, y_ptr, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    acc = tl.zeros([BM], tl.float32)
    for start in range(0, N, BN):
        rn = start + tl.arange(0, BN)
        w = tl.load(w_ptr + rm[:, None] * stride + rn[None, :], mask=rn[None, :] < N, other=0.0)
        x = tl.load(x_ptr + rn, mask=rn < N, other=0.0)
        acc += tl.sum(w * x[None, :], axis=1)
    tl.store(y_ptr + rm, acc)


@triton.jit
def broadcast_dot_3d(a_ptr, b_ptr, c_ptr, M: tl.constexpr, K: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rk = tl.arange(0, K)
    rn = tl.arange(0, N)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.sum(a[:, :, None] * b[None, :, :], axis=1)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def _argmin_combine(v1, i1, v2, i2):
    lt = v1 < v2
    eq = v1 == v2
    take1 = lt | (eq & (i1 < i2))
    return tl.where(take1, v1, v2), tl.where(take1, i1, i2)


@triton.jit
def custom_reduce_argmin(x_ptr, v_ptr, i_ptr, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    if AXIS == 1:
        idx = tl.broadcast_to(rn[None, :], (BM, BN))
    else:
        idx = tl.broadcast_to(rm[:, None], (BM, BN))
    v, i = tl.reduce((x, idx), AXIS, _argmin_combine)
    if AXIS == 1:
        tl.store(v_ptr + rm, v)
        tl.store(i_ptr + rm, i)
    else:
        tl.store(v_ptr + rn, v)
        tl.store(i_ptr + rn, i)


@triton.jit
def _pair_add(a1, b1, a2, b2):
    return a1 + a2, b1 * b2


@triton.jit
def assoc_scan_pair(x_ptr, y_ptr, out1_ptr, out2_ptr, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    a, b = tl.associative_scan((x, y), AXIS, _pair_add)
    tl.store(out1_ptr + offs, a)
    tl.store(out2_ptr + offs, b)


@triton.jit
def sort_rows(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.sort(x, 1))


@triton.jit
def flip_rows(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.flip(x, 1))


@triton.jit
def quantize_rows(x_ptr, q_ptr, s_ptr, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(x), axis=0)
    scale = amax / 127.0
    q = tl.floor(x / scale + 0.5).to(tl.int8)
    tl.store(q_ptr + row * stride + cols, q, mask=cols < N)
    tl.store(s_ptr + row, scale)


@triton.jit
def dropout_k(x_ptr, y_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    r = tl.rand(seed, offs)
    tl.store(y_ptr + offs, tl.where(r > p, x / (1 - p), 0.0), mask=mask)


@triton.jit
def if_select(x_ptr, y_ptr, flag, stride, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :])
    if flag > 0:
        y = x - tl.max(x, axis=1)[:, None]
    else:
        y = x * tl.sum(x, axis=0)[None, :]
    tl.store(y_ptr + rm[:, None] * stride + rn[None, :], y)


@triton.jit
def while_loop(x_ptr, y_ptr, n_iter, stride, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :])
    i = 0
    while i < n_iter:
        x = x - tl.sum(x, axis=1)[:, None] * 0.01
        x = x * (1.0 + tl.max(x, axis=0)[None, :] * 0.001)
        i += 1
    tl.store(y_ptr + rm[:, None] * stride + rn[None, :], x)


@triton.jit
def softmax_transpose_store(x_ptr, y_ptr, stride, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :])
    e = tl.exp(x - tl.max(x, axis=1)[:, None])
    p = e / tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + rn[:, None] * stride + rm[None, :], tl.trans(p))


@triton.jit
def l2norm_dot(a_ptr, b_ptr, c_ptr, stride, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * stride + rk[None, :]).to(tl.float32)
    a = a * tl.rsqrt(tl.sum(a * a, axis=1) + 1e-6)[:, None]
    b = tl.load(b_ptr + rk[:, None] * stride + rn[None, :])
    c = tl.dot(a.to(tl.float16), b)
    tl.store(c_ptr + rm[:, None] * stride + rn[None, :], c)


@triton.jit
def dot_chain(a_ptr, b_ptr, d_ptr, o_ptr, stride, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * stride + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * stride + rn[None, :])
    d = tl.load(d_ptr + rn[:, None] * stride + rk[None, :])
    c = tl.dot(a, b)
    c = tl.maximum(c, 0.0).to(tl.float16)
    o = tl.dot(c, d)
    tl.store(o_ptr + rm[:, None] * stride + rk[None, :], o)


@triton.jit
def int_histogram_where(x_ptr, out_ptr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r)
    b = tl.arange(0, BINS)
    eq = (x[None, :] == b[:, None]).to(tl.int32)
    tl.store(out_ptr + b, tl.sum(eq, axis=1))


@triton.jit
def rope(x_ptr, cos_ptr, sin_ptr, y_ptr, stride, BM: tl.constexpr, D: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D // 2)
    x1 = tl.load(x_ptr + rm[:, None] * stride + rd[None, :])
    x2 = tl.load(x_ptr + rm[:, None] * stride + rd[None, :] + D // 2)
    c = tl.load(cos_ptr + rm[:, None] * (D // 2) + rd[None, :])
    s = tl.load(sin_ptr + rm[:, None] * (D // 2) + rd[None, :])
    tl.store(y_ptr + rm[:, None] * stride + rd[None, :], x1 * c - x2 * s)
    tl.store(y_ptr + rm[:, None] * stride + rd[None, :] + D // 2, x1 * s + x2 * c)


@triton.jit
def kv_cache_gather(cache_ptr, idx_ptr, out_ptr, D: tl.constexpr, BM: tl.constexpr):
    rm = tl.arange(0, BM)
    rd = tl.arange(0, D)
    idx = tl.load(idx_ptr + rm)
    v = tl.load(cache_ptr + idx[:, None] * D + rd[None, :])
    tl.store(out_ptr + rm[:, None] * D + rd[None, :], v * 2.0)


@triton.jit
def matmul_scaled(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
                  BN: tl.constexpr, BK: tl.constexpr, A_FMT: tl.constexpr, B_FMT: tl.constexpr):
    # C = tl.dot_scaled(A, B) in steps of BK: an e2m1 operand two to a byte along K (A: M x K/2 bytes,
    # B: K/2 x N), a scaled one's e8m0 scales per 32 of K (sa: M x K/32, sb: N x K/32), bf16 unscaled.
    A_DIV: tl.constexpr = 2 if A_FMT == "e2m1" else 1
    B_DIV: tl.constexpr = 2 if B_FMT == "e2m1" else 1
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rs = tl.arange(0, BK // 32)
    a_ptrs = a_ptr + rm[:, None] * stride_am + tl.arange(0, BK // A_DIV)[None, :]
    b_ptrs = b_ptr + tl.arange(0, BK // B_DIV)[:, None] * stride_bk + rn[None, :]
    sa_ptrs = sa_ptr + rm[:, None] * (K // 32) + rs[None, :]
    sb_ptrs = sb_ptr + rn[:, None] * (K // 32) + rs[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        if A_FMT == "bf16":
            acc = tl.dot_scaled(a, None, A_FMT, b, tl.load(sb_ptrs), B_FMT, acc)
        elif B_FMT == "bf16":
            acc = tl.dot_scaled(a, tl.load(sa_ptrs), A_FMT, b, None, B_FMT, acc)
        else:
            acc = tl.dot_scaled(a, tl.load(sa_ptrs), A_FMT, b, tl.load(sb_ptrs), B_FMT, acc)
        a_ptrs += BK // A_DIV
        b_ptrs += (BK // B_DIV) * stride_bk
        sa_ptrs += BK // 32
        sb_ptrs += BK // 32
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc)
