#!/bin/bash
# A/B on the device: before (a27cf2f) vs after (specialize-divisibility, word loads)
cd "$(dirname "$0")"
ln -sfn ../../before/bundle/bin after/slim/bin
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
python3 before/bundle/compare.py --changed before=before/bundle after=after/slim --work /tmp/pw --out $OUT/ab > $OUT/ab.txt 2>&1
echo "rc=$?" >> $OUT/ab.txt
