#!/usr/bin/env python3
"""Our PTX on the GPU against the interpreter, for the kernels of
proof/checks that Triton is no oracle for (run.sh runs it; build.sh puts each
checks/NAME.ttgir, NAME.args and our NAME.ptx and NAME.json into the
bundle's checks/). NAME.args holds one ttgir-run -arg spec per line, then
"grid X".

* A kernel with tt.print: ttgir-run runs it on the GPU from our PTX and on
  the CPU through the interpreter, with the same arguments; the lines each
  prints that start with "pid (" are compared as sets (the GPU prints one
  line per register of each thread, duplicates included, in no fixed order;
  the interpreter one per element).
* Any other kernel: ttgir-run -check (the GPU's buffers against the
  interpreter's, bit for bit).

Writes OUT/gpu-check.json; exits 1 when a check fails."""
import json
import os
import subprocess
import sys


def lines(out):
    return {l for l in out.splitlines() if l.startswith("pid (")}


def names(bundle):
    """The checks in the bundle: NAME of each checks/NAME.ttgir, sorted."""
    return sorted(f[:-len(".ttgir")] for f in os.listdir(os.path.join(bundle, "checks")) if f.endswith(".ttgir"))


def check(bundle, name):
    d = os.path.join(bundle, "checks")
    with open(os.path.join(d, name + ".args")) as f:
        spec = [l.strip() for l in f if l.strip()]
    grid = next(l.split()[1] for l in spec if l.startswith("grid "))
    ttgir = os.path.join(d, name + ".ttgir")
    argv = [ttgir, "-grid", grid]
    for a in spec:
        if not a.startswith("grid "):
            argv += ["-arg", a]
    run = lambda extra: subprocess.run([os.path.join(bundle, "bin", "ttgir-run")] + argv + extra,
                                       capture_output=True, text=True, timeout=300)
    gpu_args = ["-ptx", os.path.join(d, name + ".ptx"), "-meta", os.path.join(d, name + ".json")]
    with open(ttgir) as f:
        prints = "tt.print" in f.read()
    if not prints:
        r = run(gpu_args + ["-check"])
        res = {"name": name, "kind": "check", "rc": r.returncode, "ok": r.returncode == 0}
        if r.returncode:
            res["error"] = (r.stdout + r.stderr)[-2000:]
        return res
    gpu = run(gpu_args)
    cpu = run([])
    res = {"name": name, "kind": "print", "gpu_rc": gpu.returncode, "cpu_rc": cpu.returncode}
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
    results = [check(bundle, n) for n in names(bundle)]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "gpu-check.json"), "w") as f:
        json.dump(results, f, indent=1)
    for r in results:
        print(f"gpu check {r['name']} ({r['kind']}): {'PASS' if r['ok'] else 'FAIL'} "
              f"{json.dumps({k: v for k, v in r.items() if k not in ('name', 'kind', 'ok')})[:400]}", file=sys.stderr)
    return 0 if results and all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
