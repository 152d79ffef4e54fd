#!/bin/bash
cd "$(dirname "$0")"
for v in after pf pfna; do ln -sfn ../../before/bundle/bin $v/slim/bin; done
python3 before/bundle/compare.py --only 'copy*' --only 'jit_copy*' --only 'jit_transpose*' --only 'transpose_*' --only 'masked_bias_*' --only 'outer_*' --only 'rope_*' after=after/slim pf=pf/slim pfna=pfna/slim --work /tmp/pw --out $OUT/pf > $OUT/pf.txt 2>&1
echo "rc=$?" >> $OUT/pf.txt
