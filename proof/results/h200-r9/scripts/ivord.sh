#!/bin/bash
cd "$(dirname "$0")"
ln -sfn ../../final/bundle/bin iv/slim/bin
python3 final/bundle/compare.py --only 'matvec_*' --only 'rowsum_loop_*' --only 'softmax_online_*' --changed before=final/bundle after=iv/slim --work /tmp/pw --out $OUT/iv > $OUT/iv.txt 2>&1
echo "rc=$?" >> $OUT/iv.txt
bash ord.sh
