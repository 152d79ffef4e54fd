#!/usr/bin/env python3
"""How close do library transposes get to the device copy on this GPU?
torch (x.t().contiguous(), y.copy_(x.t())) and CuPy (ascontiguousarray(x.T))
at the proof's transpose shapes, median of 30 by CUDA events, against a
device-to-device memcpy of the same bytes."""
import torch, cupy as cp

def med(fn, runs=30, warm=3):
    for _ in range(warm): fn()
    ts = []
    for _ in range(runs):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); b.synchronize(); ts.append(a.elapsed_time(b))
    ts.sort(); return ts[len(ts) // 2]

for dt, n in [(torch.float32, 8192), (torch.float16, 16384)]:
    x = torch.rand(n, n, device="cuda").to(dt); y = torch.empty_like(x)
    copy = med(lambda: y.copy_(x))
    mem = med(lambda: cp.cuda.runtime.memcpy(y.data_ptr(), x.data_ptr(), x.numel() * x.element_size(), cp.cuda.runtime.memcpyDeviceToDevice))
    tt = med(lambda: y.copy_(x.t()))
    assert torch.equal(y, x.t())
    xc = cp.asarray(x); yc = cp.empty_like(xc)
    def cpt():
        cp.copyto(yc, xc.T)
    cpv = med(cpt)
    print(f"{str(dt):14s} {n}x{n}: memcpy {mem*1e3:7.1f} us; torch copy_ {copy*1e3:7.1f} us ({100*mem/copy:5.1f}% of memcpy); "
          f"torch copy_(x.t()) {tt*1e3:7.1f} us ({100*mem/tt:5.1f}%); cupy copyto(x.T) {cpv*1e3:7.1f} us ({100*mem/cpv:5.1f}%)", flush=True)
