#!/bin/bash
cd "$(dirname "$0")"
ln -sfn ../../cur/bundle/bin slim/bin
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
python3 ../cur/bundle/compare.py --changed --runs 30 before=../cur/bundle after=slim --work /tmp/pw --out $OUT/ab > $OUT/ab.txt 2>&1
echo "rc=$?" >> $OUT/ab.txt
python3 gcheck.py > $OUT/generic.txt 2>&1
echo "rc=$?" >> $OUT/generic.txt
python3 ../cur/bundle/compare.py --only transpose_64x64_f16_sm80_w4 --runs 30 before=../cur/bundle after=slim --work /tmp/pw --out $OUT/ab2 > $OUT/ab2.txt 2>&1
