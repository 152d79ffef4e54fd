#!/bin/bash
cd "$(dirname "$0")"
ln -sfn ../../cur/bundle/bin slim/bin
python3 ../cur/bundle/compare.py --only 'dropout_1024_sm80_w4.*' --runs 30 base=../cur/bundle wide=slim --work /tmp/pw --out $OUT/drop > $OUT/drop.txt 2>&1
echo "rc=$?" >> $OUT/drop.txt
ptxas -arch=sm_90a -v slim/ptx/dropout_1024_sm80_w4.post.lt.ptx -o /tmp/w.cubin > $OUT/ptxas.txt 2>&1
cuobjdump -sass /tmp/w.cubin | grep -oE '(IMAD|LOP3|IADD3|PRMT|MOV)[A-Z0-9_.]*' | sort | uniq -c > $OUT/ops.txt
