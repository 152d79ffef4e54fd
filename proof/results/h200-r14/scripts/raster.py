#!/usr/bin/env python3
"""Does the order in which CTAs walk the tiles bound a tiled 2D copy or
transpose below the device copy? Hand-written CUDA, the proof's shapes
(64x64 tiles, 128 threads), three rasterizations, median of 30 by CUDA
events against a device-to-device memcpy of the same bytes."""
import cupy as cp, json, os, sys

SRC = r'''
__device__ __forceinline__ void tile_of(int mode, int G, int &pm, int &pn) {
  int gx = gridDim.x, gy = gridDim.y;
  int lin = blockIdx.x + blockIdx.y * gx;
  if (mode == 0) { pm = blockIdx.x; pn = blockIdx.y; }          // as launched: pm fastest
  else if (mode == 1) { pn = lin % gy; pm = lin / gy; }          // pn fastest
  else {                                                          // groups of G rows of tiles, pn fastest inside
    int per = G * gy; int g = lin / per; int first = g * G; int size = min(gx - first, G);
    pm = first + (lin % per) % size; pn = (lin % per) / size;
  }
}
extern "C" __global__ void copy2d_f16(const uint4 *x, uint4 *y, int M, int N, int mode, int G) {
  int pm, pn; tile_of(mode, G, pm, pn);
  // 64x64 halfs = 64 rows x 8 uint4; 128 threads: row = t/8 + 16*i, col = t%8
  int t = threadIdx.x; int nv = N / 8;
  uint4 v[4];
  #pragma unroll
  for (int i = 0; i < 4; i++) { int r = pm * 64 + t / 8 + 16 * i; v[i] = x[(size_t)r * nv + pn * 8 + t % 8]; }
  #pragma unroll
  for (int i = 0; i < 4; i++) { int r = pm * 64 + t / 8 + 16 * i; y[(size_t)r * nv + pn * 8 + t % 8] = v[i]; }
}
extern "C" __global__ void copy2d_f32(const float4 *x, float4 *y, int M, int N, int mode, int G) {
  int pm, pn; tile_of(mode, G, pm, pn);
  int t = threadIdx.x; int nv = N / 4;   // 64 rows x 16 float4; row = t/16 + 8*i
  float4 v[8];
  #pragma unroll
  for (int i = 0; i < 8; i++) { int r = pm * 64 + t / 16 + 8 * i; v[i] = x[(size_t)r * nv + pn * 16 + t % 16]; }
  #pragma unroll
  for (int i = 0; i < 8; i++) { int r = pm * 64 + t / 16 + 8 * i; y[(size_t)r * nv + pn * 16 + t % 16] = v[i]; }
}
extern "C" __global__ void transpose_f32(const float *x, float *y, int M, int N, int mode, int G) {
  __shared__ float s[64][65];
  int pm, pn; tile_of(mode, G, pm, pn);
  int t = threadIdx.x; int lane = t % 32, w = t / 32;
  float v[32];
  #pragma unroll
  for (int i = 0; i < 16; i++) { int r = w + 4 * i;
    v[2*i] = x[(size_t)(pm * 64 + r) * N + pn * 64 + lane]; v[2*i+1] = x[(size_t)(pm * 64 + r) * N + pn * 64 + lane + 32]; }
  #pragma unroll
  for (int i = 0; i < 16; i++) { int r = w + 4 * i; s[r][lane] = v[2*i]; s[r][lane + 32] = v[2*i+1]; }
  __syncthreads();
  #pragma unroll
  for (int i = 0; i < 16; i++) { int c = w + 4 * i;   // y[pn*64 + c][pm*64 + r] = x[pm*64 + r][pn*64 + c]
    y[(size_t)(pn * 64 + c) * M + pm * 64 + lane] = s[lane][c]; y[(size_t)(pn * 64 + c) * M + pm * 64 + lane + 32] = s[lane + 32][c]; }
}
extern "C" __global__ void transpose_f32_v4(const float4 *x, float *y, int M, int N, int mode, int G) {
  __shared__ float s[64][65];
  int pm, pn; tile_of(mode, G, pm, pn);
  int t = threadIdx.x; int nv = N / 4;
  #pragma unroll
  for (int i = 0; i < 8; i++) { int r = t / 16 + 8 * i; float4 a = x[(size_t)(pm * 64 + r) * nv + pn * 16 + t % 16];
    int c = (t % 16) * 4; s[r][c] = a.x; s[r][c+1] = a.y; s[r][c+2] = a.z; s[r][c+3] = a.w; }
  __syncthreads();
  int lane = t % 32, w = t / 32;
  #pragma unroll
  for (int i = 0; i < 16; i++) { int c = w + 4 * i;
    y[(size_t)(pn * 64 + c) * M + pm * 64 + lane] = s[lane][c]; y[(size_t)(pn * 64 + c) * M + pm * 64 + lane + 32] = s[lane + 32][c]; }
}
'''
mod = cp.RawModule(code=SRC, options=("-std=c++17",))

def timeit(fn, runs=30, warm=3):
    for _ in range(warm): fn()
    ts = []
    for _ in range(runs):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record(); fn(); b.record(); b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b))
    ts.sort(); return ts[len(ts) // 2]

rows = []
for kname, dt, n, in [("copy2d_f16", cp.float16, 16384), ("copy2d_f32", cp.float32, 8192), ("transpose_f32", cp.float32, 8192), ("transpose_f32_v4", cp.float32, 8192)]:
    x = cp.random.rand(n, n).astype(dt); y = cp.zeros_like(x)
    nbytes = x.nbytes
    tcopy = timeit(lambda: cp.cuda.runtime.memcpy(y.data.ptr, x.data.ptr, nbytes, cp.cuda.runtime.memcpyDeviceToDevice))
    f = mod.get_function(kname)
    g = (n // 64, n // 64)
    for mode, G in [(0, 1), (1, 1), (2, 4), (2, 8), (2, 16), (2, 32)]:
        y.fill(0)
        run = lambda: f(g, (128,), (x, y, cp.int32(n), cp.int32(n), cp.int32(mode), cp.int32(G)))
        run(); cp.cuda.Device().synchronize()
        want = x.T if kname.startswith("transpose") else x
        ok = bool(cp.array_equal(y, want))
        t = timeit(run)
        r = {"kernel": kname, "n": n, "mode": ["as launched (pm fastest)", "pn fastest", f"grouped {G}"][mode], "ok": ok,
             "us": t * 1000, "copy_us": tcopy * 1000, "pct_copy": 100 * tcopy / t, "GBps": 2 * nbytes / t / 1e6}
        rows.append(r); print(f"{kname:18s} {r['mode']:26s} ok={ok} {r['us']:8.2f} us  copy {r['copy_us']:8.2f} us  {r['pct_copy']:6.1f}% of copy", flush=True)
json.dump(rows, open(os.path.join("/tmp", "raster.json"), "w"), indent=1)
