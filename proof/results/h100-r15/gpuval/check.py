import struct, sys
o = sys.argv[1]
rd = lambda f, fmt: list(struct.iter_unpack(fmt, open(f, 'rb').read()))
ok = True
p, q = rd(f'{o}/bytes/p.in.bin', '<B'), rd(f'{o}/bytes/q.out.bin', '<B')
bad = sum((a[0] * 2) & 0xff != b[0] for a, b in zip(p, q)); print('bytes mismatches', bad, 'of', len(q)); ok &= bad == 0 and len(q) == 128
pi, po = rd(f'{o}/pair/p.in.bin', '<I'), rd(f'{o}/pair/p.out.bin', '<I')
qi, qo = rd(f'{o}/pair/q.in.bin', '<I'), rd(f'{o}/pair/q.out.bin', '<I')
bad = sum(a[0] & 0x7fffffff != b[0] for a, b in zip(pi, po)) + sum(a[0] | 1 != b[0] for a, b in zip(qi, qo)); print('pair mismatches', bad); ok &= bad == 0 and len(po) == 128
ti, to = rd(f'{o}/tied/p.in.bin', '<I'), rd(f'{o}/tied/p.out.bin', '<I')
bad = sum((2 * a[0]) & 0xffffffff != b[0] for a, b in zip(ti, to)); print('tied mismatches', bad, 'of', len(to)); ok &= bad == 0 and len(to) == 64
print('ALL OK' if ok else 'FAIL')
