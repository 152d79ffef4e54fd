#!/usr/bin/env python3
"""sel.py ROOT VARIANT...: realistic kernels whose SASS (md5 files ROOT/V/ptx/K.lt.ptx.md5)
differs from base in some variant, one per distinct (base, variants) PTX set."""
import json, os, sys
root, variants = sys.argv[1], sys.argv[2:]
m = json.load(open(os.path.join(root, "base", "kernels.json")))
seen, out = set(), []
def md5(v, n):
    p = os.path.join(root, v, "ptx", n + ".lt.ptx.md5")
    return open(p).read().strip() if os.path.exists(p) else None
def text(v, n):
    return open(os.path.join(root, v, "ptx", n + ".lt.ptx")).read()
for k in m["kernels"]:
    n = k["name"]
    if k.get("no_realistic_size") or not k.get("ours"):
        continue
    b = md5("base", n)
    if not any(md5(v, n) != b for v in variants):
        continue
    key = tuple(text(v, n) for v in ["base"] + variants)
    if key in seen:
        continue
    seen.add(key); out.append(n)
print("\n".join(out))
