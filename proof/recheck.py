#!/usr/bin/env python3
"""Close calls against Triton, measured again (device.sh recheck).

    recheck.py select REPORT...                 # the kernels to time again
    recheck.py summarize -o OUT REPORT... --compare COMPARE.json...

A run's benchmark is the median of 20 launches of ours, then 20 of Triton's
PTX, in two processes one after the other: a kernel 0.1% slower than Triton's
in one run may be as fast in the next. `select` prints, one per line, the
kernels timed in the run reports (run.sh's report.json: main's realistic
kernels, its .pre-ours, the tile kernels) whose time is above Triton's PTX's (below 99.95% of its speed, the reports'
"as fast" line). device.sh recheck times each of them again with compare.py
(--runs 50, twice), and `summarize` writes OUT/recheck.json and
OUT/recheck.md: every measurement of each kernel (% of Triton's speed) and a
verdict — "slower" when every measurement has ours below Triton's,
"as fast" when none does (all at 99.95% or more), "tie" otherwise.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_ref as T  # noqa: E402

AS_FAST = T.AS_FAST


def load_reports(paths):
    """{kernel: % of Triton} from run reports (later reports win)."""
    out = {}
    for p in paths:
        with open(p) as f:
            for k in json.load(f)["kernels"]:
                v = T.vs_triton(k)
                if v is not None:
                    out[k["name"]] = v
    return out


def select(paths):
    return [n for n, v in load_reports(paths).items() if v < AS_FAST]


def load_compare(paths):
    """{kernel: [% of Triton, one per compare.json]} for compare.py's
    results with a first variant of ours and Triton's PTX both timed."""
    out = {}
    for p in paths:
        with open(p) as f:
            rows = json.load(f)
        for row in rows:
            res = row["results"]
            t = res.get("triton", {}).get("ms")
            ours = [v for label, v in res.items() if label != "triton"]
            if t and ours and ours[0].get("ms"):
                out.setdefault(row["kernel"], []).append(100 * t / ours[0]["ms"])
    return out


def verdict(values):
    below = sum(v < AS_FAST for v in values)
    if below == len(values):
        return "slower"
    if below == 0:
        return "as fast"
    return "tie"


def summarize(reports, compares):
    first = load_reports(reports)
    again = load_compare(compares)
    rows = []
    for name in select(reports):
        values = [first[name]] + again.get(name, [])
        rows.append({"kernel": name, "vs_triton": values, "verdict": verdict(values),
                     "measurements": len(values)})
    return rows


def markdown(rows):
    n = max((r["measurements"] for r in rows), default=1)
    head = ["kernel", "run"] + [f"again {i}" for i in range(1, n)] + ["verdict"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (n) + "---|"]
    for r in rows:
        cells = [f"{v:.1f}%" for v in r["vs_triton"]] + [""] * (n - r["measurements"])
        lines.append(f"| {r['kernel']} | " + " | ".join(cells) + f" | {r['verdict']} |")
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("slower", "tie", "as fast")}
    lines.append("")
    lines.append(f"{len(rows)} kernels below Triton's PTX in the run, measured again: "
                 f"{counts['slower']} slower every time, {counts['tie']} ties, {counts['as fast']} as fast every time.")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("select")
    s.add_argument("reports", nargs="+")
    m = sub.add_parser("summarize")
    m.add_argument("-o", "--out", required=True)
    m.add_argument("reports", nargs="+")
    m.add_argument("--compare", nargs="*", default=[])
    a = ap.parse_args(argv)
    if a.cmd == "select":
        for n in select(a.reports):
            print(n)
        return 0
    rows = summarize(a.reports, [c for c in a.compare if os.path.exists(c)])
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "recheck.json"), "w") as f:
        json.dump(rows, f, indent=1)
    text = markdown(rows)
    with open(os.path.join(a.out, "recheck.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
