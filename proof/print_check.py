#!/usr/bin/env python3
"""tt.print on the GPU against the interpreter (run.sh runs it; build.sh puts
the kernels of proof/checks and their PTX into the bundle's checks/).

For each checks/NAME.ttgir with NAME.ptx: ttgir-run runs it on the GPU from
our PTX and on the CPU through the interpreter, with the same arguments
(NAME.args: one -arg spec per line, then "grid X"); the lines each prints
that start with "pid (" are compared as sets (the GPU prints one line per
register of each thread, duplicates included, in no fixed order; the
interpreter one per element). Writes OUT/print-check.json."""
import json
import os
import subprocess
import sys


def lines(out):
    return {l for l in out.splitlines() if l.startswith("pid (")}


def check(bundle, name):
    d = os.path.join(bundle, "checks")
    spec = [l.strip() for l in open(os.path.join(d, name + ".args")) if l.strip()]
    grid = next(l.split()[1] for l in spec if l.startswith("grid "))
    argv = [os.path.join(d, name + ".ttgir"), "-grid", grid]
    for a in spec:
        if not a.startswith("grid "):
            argv += ["-arg", a]
    run = lambda extra: subprocess.run([os.path.join(bundle, "bin", "ttgir-run")] + argv + extra,
                                       capture_output=True, text=True, timeout=300)
    gpu = run(["-ptx", os.path.join(d, name + ".ptx"), "-meta", os.path.join(d, name + ".json")])
    cpu = run([])
    res = {"name": name, "gpu_rc": gpu.returncode, "cpu_rc": cpu.returncode}
    if gpu.returncode or cpu.returncode:
        res["ok"] = False
        res["error"] = (gpu.stderr + cpu.stderr)[-2000:]
        return res
    g, c = lines(gpu.stdout), lines(cpu.stdout)
    res.update(ok=g == c, gpu_lines=sum(1 for l in gpu.stdout.splitlines() if l.startswith("pid (")),
               distinct=len(g), interp_lines=len(c), only_gpu=sorted(g - c)[:5], only_interp=sorted(c - g)[:5])
    return res


def main():
    bundle = os.path.dirname(os.path.abspath(__file__))
    out = os.environ.get("OUT", "proof-out")
    names = sorted(f[:-5] for f in os.listdir(os.path.join(bundle, "checks")) if f.endswith(".ttgir"))
    results = [check(bundle, n) for n in names]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "print-check.json"), "w") as f:
        json.dump(results, f, indent=1)
    for r in results:
        print(f"print check {r['name']}: {'PASS' if r['ok'] else 'FAIL'} {json.dumps({k: v for k, v in r.items() if k not in ('name', 'ok')})[:400]}", file=sys.stderr)
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
