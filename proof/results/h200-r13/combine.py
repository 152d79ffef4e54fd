#!/usr/bin/env python3
"""The figures of main at c430bbc, from two runs on the H200.

Every kernel's PTX at c430bbc is byte for byte its PTX in one of two
measured bundles (ptx-source.txt: r13 where it equals the PTX of
run-9e9d69e and tile/, r12 where it equals h200-r12's, checked with cmp).
This script takes each kernel's row from the run of its PTX and prints the
summary of the whole run, the .pre-ours and the tile kernels.

    python3 proof/results/h200-r13/combine.py   # from the repository root
"""
import gzip
import json
import math
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))
r12 = os.path.join(here, "..", "h200-r12")
src = dict(line.split() for line in open(os.path.join(here, "ptx-source.txt")) if line.strip())


def rows(path):
    """name -> (class, ours ms, Triton ms, ours % of copy) of the timed kernels."""
    out = {}
    for k in json.load(gzip.open(path + ".gz"))["kernels"]:
        v = (k.get("bench") or {}).get("variants") or {}
        o, t = (v.get("layout-translate") or {}).get("bench"), (v.get("triton-ptx") or {}).get("bench")
        if o and t:
            out[k["name"]] = (k["class"], o["kernel"]["median_ms"], t["kernel"]["median_ms"], o.get("pct_of_copy"))
    return out


def pick(new, old):
    """Each kernel's row from the run whose PTX is the final one."""
    out = {}
    for name in old.keys() | new.keys():
        run = new if src.get(name) == "r13" else old
        if name not in run:
            raise SystemExit(f"{name}: no row in the run of its PTX")
        out[name] = run[name] + (src.get(name),)
    return out


def summary(label, rs):
    speed = {n: 100 * r[2] / r[1] for n, r in rs.items()}
    geo = math.exp(sum(math.log(s) for s in speed.values()) / len(speed))
    print(f"{label}: {len(rs)} timed ({sum(r[4] == 'r13' for r in rs.values())} from the new run); "
          f"geometric mean {geo:.1f}% of Triton's PTX ({min(speed.values()):.1f}-{max(speed.values()):.1f}%), "
          f"{sum(s >= 99.95 for s in speed.values())} as fast or faster")
    by = {}
    for n, r in rs.items():
        by.setdefault(r[0], []).append(speed[n])
    for c, ss in sorted(by.items()):
        g = math.exp(sum(math.log(s) for s in ss) / len(ss))
        print(f"  {c}: {len(ss)}, {g:.1f}%, {sum(s >= 99.95 for s in ss)} >=")
    mem = {n: r[3] for n, r in rs.items() if r[0] == "memory" and r[3] is not None}
    if mem and "tile" not in label:
        print(f"  memory-bound against the copy: median {statistics.median(mem.values()):.1f}%, "
              f"{sum(p >= 98 for p in mem.values())} of {len(mem)} at >= 98%")
    for n in sorted(speed, key=speed.get):
        if speed[n] < 99.95:
            print(f"    below: {n} {speed[n]:.1f}% ({rs[n][4]})")


summary("whole run", pick(rows(os.path.join(here, "run-9e9d69e", "report.json")), rows(os.path.join(r12, "report.json"))))
summary(".pre-ours", pick(rows(os.path.join(here, "run-9e9d69e", "pre-ours", "report.json")), rows(os.path.join(r12, "pre-ours", "report.json"))))
summary("tile", pick(rows(os.path.join(here, "tile", "report.json")), rows(os.path.join(r12, "tile", "report.json"))))
