#!/bin/bash
cd "$(dirname "$0")"
for v in on off; do ln -sfn ../../final/bundle/bin $v/bin; cp ../final/bundle/triton_ref.py ../final/bundle/compare.py $v/ 2>/dev/null; done
python3 ../final/bundle/compare.py --runs 20 off=off on=on --work /tmp/pw --out $OUT/mir > $OUT/mir.txt 2>&1
echo "rc=$?" >> $OUT/mir.txt
