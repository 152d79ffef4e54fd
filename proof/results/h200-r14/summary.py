#!/usr/bin/env python3
"""The figures of main from one run on the H200 (run/, run/pre-ours/, tile/):
per class, against Triton's PTX, and the memory-bound kernels against the copy.

    python3 proof/results/h200-r14/summary.py   # from the repository root
"""
import gzip
import json
import math
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))


def rows(path):
    """name -> (class, ours ms, Triton ms, ours % of copy, Triton % of copy) of the timed kernels."""
    out = {}
    for k in json.load(gzip.open(os.path.join(here, path) + ".gz"))["kernels"]:
        v = (k.get("bench") or {}).get("variants") or {}
        o, t = (v.get("layout-translate") or {}).get("bench"), (v.get("triton-ptx") or {}).get("bench")
        if o and t:
            out[k["name"]] = (k["class"], o["kernel"]["median_ms"], t["kernel"]["median_ms"], o.get("pct_of_copy"), t.get("pct_of_copy"))
    return out


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def summary(label, rs, below=99.95):
    speed = {n: 100 * r[2] / r[1] for n, r in rs.items()}
    print(f"{label}: {len(rs)} timed; geometric mean {geo(speed.values()):.1f}% of Triton's PTX "
          f"({min(speed.values()):.1f}-{max(speed.values()):.1f}%), {sum(s >= 99.95 for s in speed.values())} as fast or faster")
    by = {}
    for n, r in rs.items():
        by.setdefault(r[0], []).append(speed[n])
    for c, ss in sorted(by.items()):
        print(f"  {c}: {len(ss)}, {geo(ss):.1f}%, {sum(s >= 99.95 for s in ss)} >=")
    mem = {n: (r[3], r[4]) for n, r in rs.items() if r[0] == "memory" and r[3] is not None}
    if mem and label != "tile":  # one-program kernels of about 1 us: the copy of as many bytes is no bound
        print(f"  memory-bound against the copy: median {statistics.median(p for p, _ in mem.values()):.1f}%, "
              f"{sum(p >= 98 for p, _ in mem.values())} of {len(mem)} at >= 98%")
        for n in sorted(mem, key=lambda n: mem[n][0]):
            if mem[n][0] < 98:
                print(f"    below 98% of the copy: {n} {mem[n][0]:.1f}% (Triton {mem[n][1]:.1f}%)")
    for n in sorted(speed, key=speed.get):
        if speed[n] < below:
            print(f"    below Triton: {n} {speed[n]:.1f}%")


summary("whole run", rows("run/report.json"))
summary(".pre-ours", rows("run/pre-ours/report.json"))
summary("tile", rows("tile/report.json"))
