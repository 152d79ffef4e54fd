#!/bin/bash
cd "$(dirname "$0")"
ln -sfn ../../before/bundle/bin after/slim/bin
python3 before/bundle/compare.py --only 'attention_*' --only 'flashattn_*' after=after/slim --work /tmp/pw --out $OUT/att > $OUT/att.txt 2>&1
echo "rc=$?" >> $OUT/att.txt
