#!/usr/bin/env python3
"""Merges the reports of several runs of the proof (run.sh in one device
call each: a call of the device machine holds only part of the whole proof,
e.g. the whole run and the .pre-ours in one, the tile kernels in the next)
into one report.json and report.md, as run.sh writes them for one run.

Every kernel appears once, in the order first seen: its checks come from
the first report that checked it, its benchmark from the last report that
timed it; ptxas results are the union (first wins per file). The reports
must come from the same device, Triton and torch.

    python3 proof/merge.py -o OUT RUN [RUN …]   # a RUN is a folder with report.json, or the file
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_ref as T  # noqa: E402

CHECK_KEYS = ("variants", "triton_check", "check_arg_types", "triton_meta", "triton_compile_error")


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "report.json")
    with open(path) as f:
        return json.load(f), path


def merge(reports):
    """The merged report of reports (dicts as run.sh writes them)."""
    if not reports:
        raise ValueError("no report to merge")
    for key in ("device", "triton", "torch"):
        seen = sorted({str(r.get(key)) for r in reports})
        if len(seen) > 1:
            raise ValueError(f"the reports come from different {key}s: {', '.join(seen)}")
    out = {k: v for k, v in reports[0].items() if k not in ("kernels", "ptxas", "summary", "selection")}
    kernels, order = {}, []
    for rep in reports:
        for k in rep.get("kernels", []):
            name = k["name"]
            if name not in kernels:
                kernels[name] = dict(k)
                order.append(name)
                continue
            cur = kernels[name]
            if k.get("bench"):
                cur["bench"] = k["bench"]
            if not cur.get("variants"):
                for key in CHECK_KEYS:
                    if key in k:
                        cur[key] = k[key]
    out["kernels"] = [kernels[n] for n in order]
    files, results = set(), []
    for rep in reports:
        for x in rep.get("ptxas", {}).get("results", []):
            if x["ptx"] not in files:
                files.add(x["ptx"])
                results.append(x)
    if results:
        first = next(r["ptxas"] for r in reports if r.get("ptxas", {}).get("results"))
        out["ptxas"] = {**first, "results": results}
    out["seconds"] = round(sum(r.get("seconds", 0) for r in reports), 1)
    out["runs"] = max(r.get("runs", 0) for r in reports)
    out["summary"] = T.summarize(out)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", metavar="RUN", help="a folder holding report.json, or the file")
    ap.add_argument("-o", "--out", required=True, help="folder for the merged report.json and report.md")
    a = ap.parse_args(argv)
    loaded = [load(p) for p in a.runs]
    try:
        report = merge([r for r, _ in loaded])
    except ValueError as e:
        print(f"merge: {e}", file=sys.stderr)
        return 1
    report["merged_from"] = [p for _, p in loaded]
    os.makedirs(a.out, exist_ok=True)
    T.write_json(os.path.join(a.out, "report.json"), report)
    t = T.table(report)
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(f"Device: {report['device']}; Triton {report['triton']}; torch {report['torch']}; median of "
                f"{report['runs']} runs; merged from {len(loaded)} runs, {report['seconds']} s\n\n" + t)
    print(t.split("\n\n")[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
