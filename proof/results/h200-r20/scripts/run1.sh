#!/bin/bash
# call 1: Triton's scaled-dot TTGIR (gen.py's mx_ specs), then the two new kernels checked.
here=$(cd "$(dirname "$0")" && pwd)
root=$(pwd)
mkdir -p /tmp/mx $OUT/mx
cd $root/passes/testdata/prepost/gen
python3 -c "import triton; print(triton.__version__)"
i=0
for n in $(python3 gen.py --list); do
  case $n in mx_*) timeout 120 python3 gen.py --one $i /tmp/mx > /tmp/mx/$n.log 2>&1; grep -o '"ok": [a-z]*' /tmp/mx/$n.log | head -1 | sed "s/^/$n /";; esac
  i=$((i+1))
done
cp /tmp/mx/* $OUT/mx/
cd $root
rm -rf /tmp/f /tmp/p; mkdir -p /tmp/f /tmp/p; tar xzf $here/final.tgz -C /tmp/f
/tmp/f/final/device.sh check /tmp/p global_scratch inline_asm_64 > /tmp/p/new-check.log 2>&1
echo "new kernels: rc=$?"; tail -n 12 /tmp/p/new-check.log
tar czf $OUT/p.tgz -C /tmp p
