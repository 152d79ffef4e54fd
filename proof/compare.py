#!/usr/bin/env python3
"""A/B timing of our PTX from several bundles against Triton's, on the GPU.

    bundle/compare.py [--only NAME|GLOB]... [--changed] [--no-check] [--triton-first]
                      [--runs N] [--warmup N] [--work DIR] [--out DIR] LABEL=BUNDLE [LABEL=BUNDLE]...

For every kernel of the first bundle's kernels.json that --only selects (by
name or glob; default: all with a realistic size), and with --changed only
those whose PTX of ours differs between the bundles, ttgir-run times each
bundle's PTX of ours at the realistic size (-bench N against a device copy,
with the kernel's metadata), then Triton 3.6's PTX for the same TTGIR
(compiled into --work as triton_ref.py does, or taken from there when an
earlier run left KERNEL/triton.ptx and triton.json), or before them with
--triton-first. Unless --no-check, each
variant of ours is first checked against the interpreter at the kernel's
check size (ttgir-run -check, as run.sh does), so that a variant that
computes something else is not timed as if it were faster. One line per
kernel on stdout: time, % of copy and speed against Triton's PTX of every
variant (CHECK FAILED, untimed, where a check failed); OUT/compare.json
holds everything. A change to the lowering is measured by
building a bundle before and after it (build.sh) and passing both.
"""
import argparse
import fnmatch
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_ref as T  # noqa: E402


def parse_bundles(specs):
    """[(label, bundle path)] from LABEL=BUNDLE arguments; labels unique,
    not 'triton'."""
    out = []
    for s in specs:
        label, sep, path = s.partition("=")
        if not sep or not label or not path:
            raise argparse.ArgumentTypeError(f"{s}: want LABEL=BUNDLE")
        if label == "triton" or any(label == x for x, _ in out):
            raise argparse.ArgumentTypeError(f"{s}: label {label!r} is taken")
        out.append((label, path))
    return out


def selected(kernels, only):
    """The kernels --only picks (names or globs), else those with a realistic size."""
    if only:
        return [k for k in kernels if any(fnmatch.fnmatchcase(k["name"], p) for p in only)]
    return [k for k in kernels if not k.get("no_realistic_size")]


def changed(name, manifests, bundles):
    """Whether kernel name's PTX of ours differs between the bundles (or is
    missing from one of them)."""
    texts = set()
    for (_, b), man in zip(bundles, manifests):
        k = man.get(name)
        if not k or not k.get("ours"):
            return True
        texts.add(T.read_text(os.path.join(b, "ptx", k["ours"][0]["ptx"])))
    return len(texts) > 1


def timing_order(labels, triton_first):
    """The order compare.py times a kernel's variants in: the bundles' PTX
    in the order given, then Triton's; with triton_first, Triton's first (a
    second measurement in the other order shows whether the order biases a
    close call)."""
    return ["triton"] + list(labels) if triton_first else list(labels) + ["triton"]


def line(name, results):
    """One kernel's line: each variant's time, % of copy and speed against
    Triton's PTX (its time over the variant's)."""
    t = results.get("triton", {}).get("ms")
    parts = []
    for label, v in results.items():
        bad = " CHECK FAILED" if v.get("check_ok") is False else ""
        if "ms" not in v:
            parts.append(f"{label}{bad} ERROR {v.get('error', '')[-160:]}")
            continue
        vs = f", {t / v['ms'] * 100:.1f}% of Triton" if t and label != "triton" else ""
        parts.append(f"{label}{bad} {v['ms'] * 1000:.1f} us ({v['pct_copy']:.1f}% of copy{vs})")
    return f"{name:45s} " + "; ".join(parts)


def bench(bundle, k, ptx, meta_file, runs, warmup, json_file):
    r, _, cmd = T.ttgir_run(bundle, T.bench_argv(k, bundle, ptx, meta_file, json_file, runs, warmup), 300)
    if r.returncode != 0:
        return {"error": r.stderr.strip()[-2000:], "cmd": " ".join(cmd)}
    b = json.loads(T.read_text(json_file))["bench"]
    return {"ms": b["kernel"]["median_ms"], "pct_copy": b["pct_of_copy"], "cmd": " ".join(cmd)}


def check(bundle, k, ptx, meta_file, json_file):
    """ttgir-run -check of one variant's PTX against the interpreter at k's
    check size: {"check_ok": bool[, "check_out": the tail of its report]}."""
    r, _, cmd = T.ttgir_run(bundle, T.check_argv(k, bundle, ptx, meta_file, json_file), 300)
    out = {"check_ok": r.returncode == 0, "check_cmd": " ".join(cmd)}
    if r.returncode != 0:
        out["check_out"] = (r.stdout + r.stderr)[-2000:]
    return out


def triton_ptx(k, bundle, kdir, cc_device):
    """Triton's PTX and metadata files for k in kdir, compiled unless already there."""
    if "no_triton" in k:
        raise ValueError(f"no Triton PTX for this TTGIR: {k['no_triton']}")
    ptx, meta = os.path.join(kdir, "triton.ptx"), os.path.join(kdir, "triton.json")
    if not (os.path.exists(ptx) and os.path.exists(meta)):
        ttgir = os.path.join(bundle, k["ttgir"])
        T.compile_triton(ttgir, T.target_cc(ttgir, cc_device), kdir)
    return ptx, meta


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bundles", nargs="+", metavar="LABEL=BUNDLE")
    ap.add_argument("--only", action="append", help="kernels of this name or glob (repeatable)")
    ap.add_argument("--changed", action="store_true", help="only kernels whose PTX of ours differs between the bundles")
    ap.add_argument("--no-check", action="store_true", help="time without checking each variant against the interpreter first")
    ap.add_argument("--triton-first", action="store_true", help="time Triton's PTX before the bundles' (default: after)")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--work", default="/tmp/proof-work", help="Triton's PTX per kernel (as triton_ref.py's --work)")
    ap.add_argument("--out", default=os.environ.get("OUT", "compare-out"))
    a = ap.parse_args()
    try:
        bundles = parse_bundles(a.bundles)
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    import torch
    major, minor = torch.cuda.get_device_capability()
    os.makedirs(a.out, exist_ok=True)
    manifests = [{k["name"]: k for k in json.loads(T.read_text(os.path.join(b, "kernels.json")))["kernels"]}
                 for _, b in bundles]
    by_label = {label: (b, man) for (label, b), man in zip(bundles, manifests)}
    labels = [label for label, _ in bundles]
    rows = []
    for k in selected(list(manifests[0].values()), a.only):
        name = k["name"]
        if a.changed and not changed(name, manifests, bundles):
            continue
        kdir = os.path.join(a.work, "kernels", name)
        os.makedirs(kdir, exist_ok=True)
        timed = {}
        for label in timing_order(labels, a.triton_first):
            if label == "triton":
                try:
                    ptx, meta = triton_ptx(k, bundles[0][1], kdir, 10 * major + minor)
                    timed[label] = bench(bundles[0][1], k, ptx, meta, a.runs, a.warmup,
                                         os.path.join(kdir, "triton.compare.json"))
                except Exception as e:
                    timed[label] = {"error": f"{type(e).__name__}: {e}"}
                continue
            b, man = by_label[label]
            if name not in man or not man[name].get("ours"):
                timed[label] = {"error": "not in this bundle"}
                continue
            o = man[name]["ours"][0]
            mfile = None
            if "meta" in o:
                mfile = os.path.join(kdir, label + ".meta.json")
                with open(mfile, "w") as f:
                    json.dump(o["meta"], f)
            ptx = os.path.join(b, "ptx", o["ptx"])
            res = {}
            if not a.no_check and "check_args" in man[name]:
                res = check(b, man[name], ptx, mfile, os.path.join(kdir, label + ".check.json"))
            if res.get("check_ok") is False:
                res["error"] = "not timed: its check failed"
            else:
                res.update(bench(b, man[name], ptx, mfile, a.runs, a.warmup, os.path.join(kdir, label + ".compare.json")))
            timed[label] = res
        # The bundles' results in their order, then Triton's, however they were timed.
        results = {label: timed[label] for label in timing_order(labels, False)}
        print(line(name, results), flush=True)
        rows.append({"kernel": name, "results": results})
        T.write_json(os.path.join(a.out, "compare.json"), rows)


if __name__ == "__main__":
    main()
