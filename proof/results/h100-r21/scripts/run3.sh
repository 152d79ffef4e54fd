#!/bin/bash
# call 3: the NaN oracle of ptxint, the bank-conflict oracles again (the 5 scaled-dot pairs' round
# trips), the mx_ kernels checked, then timed against Triton's PTX (compare.py).
here=$(cd "$(dirname "$0")" && pwd)
python3 internal/ptxint/testdata/gen/nan_oracle.py $OUT/gpu_nans.jsonl 2>&1 | tail -3
mkdir -p /tmp/oo
( time python3 smem/testdata/gen/oracle.py run $here/oc /tmp/oo ) > /tmp/oo/log.txt 2>&1
tail -3 /tmp/oo/log.txt; wc -l /tmp/oo/*_results.jsonl
tar czf $OUT/oo.tgz -C /tmp oo
rm -rf /tmp/f /tmp/p; mkdir -p /tmp/f /tmp/p; tar xzf $here/final.tgz -C /tmp/f
/tmp/f/final/device.sh check /tmp/p 'mx_*' > /tmp/p/mx-check.log 2>&1
echo "mx check: rc=$?"; grep -v "^|" /tmp/p/check/report.md | head -5; grep "^| mx" /tmp/p/check/report.md
tar czf $OUT/p.tgz -C /tmp p
timeout ${1:-200} python3 /tmp/f/final/compare.py --only 'mx_*' --no-check --out /tmp/p/cmp ours=/tmp/f/final > /tmp/p/cmp.log 2>&1
echo "compare: rc=$?"; tail -20 /tmp/p/cmp.log
tar czf $OUT/p.tgz -C /tmp p
