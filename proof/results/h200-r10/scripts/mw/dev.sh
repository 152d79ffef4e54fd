#!/bin/bash
cd "$(dirname "$0")"
ln -sfn ../../cur/bundle/bin slim/bin
python3 ../cur/bundle/compare.py --changed --runs 30 before=../cur/bundle after=slim --work /tmp/pw --out $OUT/ab > $OUT/ab.txt 2>&1
echo "rc=$?" >> $OUT/ab.txt
ptxas -arch=sm_90a -v slim/ptx/dropout_1024_sm80_w4.post.lt.ptx -o /tmp/w.cubin > $OUT/ptxas.txt 2>&1
cuobjdump -sass /tmp/w.cubin | grep -oE '(IMAD|LOP3|IADD3|PRMT|MOV|SHF)[A-Z0-9_.]*' | sort | uniq -c > $OUT/ops.txt
