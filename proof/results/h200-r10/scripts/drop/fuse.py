"""PTX rewrite: each mul.hi.u32 d1, a, b with a mul.lo.{s,u}32 d2, a, b
(either operand order) in the same basic block becomes one
mul.wide.u32 + mov.b64 {d2, d1} at the first of the two."""
import re, sys
src, dst = sys.argv[1:3]
lines = open(src).read().split("\n")
mul = re.compile(r"^\s*mul\.(hi|lo)\.([su])32\s+(%r\d+),\s*([^,]+),\s*([^;]+);")
n = 0
block_start = 0
out = list(lines)
def flush(lo, hi):
    global n
    his, los = {}, {}
    for i in range(lo, hi):
        m = mul.match(out[i])
        if not m: continue
        kind, sign, d, a, b = m.groups()
        key = frozenset([a.strip(), b.strip()])
        if kind == "hi" and sign == "u": his.setdefault(key, []).append((i, d, a.strip(), b.strip()))
        if kind == "lo": los.setdefault(key, []).append((i, d))
    for key, hl in his.items():
        ll = los.get(key, [])
        for (hi_i, hd, a, b), (lo_i, ld) in zip(hl, ll):
            # the operands must not be redefined between the two
            first, last = min(hi_i, lo_i), max(hi_i, lo_i)
            if any(re.search(r"^\s*\S+\s+(%s|%s)\b" % (re.escape(a), re.escape(b)), out[j]) for j in range(first + 1, last)):
                continue
            out[first] = f"\tmul.wide.u32 \t%rdw{n}, {a}, {b};\n\tmov.b64 \t{{{ld}, {hd}}}, %rdw{n};"
            out[last] = ""
            n += 1
for i, l in enumerate(lines):
    if re.match(r"^\$?L\w*:|^\s*\}", l) or "bra" in l:
        flush(block_start, i)
        block_start = i + 1
flush(block_start, len(lines))
text = "\n".join(out)
text = text.replace("\t.reg .b64 \t%rd<", f"\t.reg .b64 \t%rdw<{n + 1}>;\n\t.reg .b64 \t%rd<", 1)
open(dst, "w").write(text)
print(n, "pairs fused", file=sys.stderr)
