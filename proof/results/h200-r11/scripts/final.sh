#!/usr/bin/env bash
# A/B of this session's lowering changes (each before=slim bundle, after=the
# final bundle), then the tile run of the final bundle (.post and .pre-ours).
set -u
F=.dev/new2/bundle
for d in .dev/abd/cur .dev/abd/new; do mkdir -p $d/bin && cp $F/bin/ttgir-run $d/bin/; done
o=(); for f in .dev/abd/new/ptx/*.lt.ptx; do o+=(--only $(basename $f .lt.ptx)); done
for i in 1 2; do
  python3 $F/compare.py --only histogram_where_256x32_sm90_w4.post --runs 50 before=.dev/abd/cur after=$F 2>&1 | tail -1
  python3 $F/compare.py "${o[@]}" --runs 30 before=.dev/abd/new after=$F 2>&1 | grep -E "before .* after"
done > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
ptxas -arch sm_90a -v $F/ptx/histogram_where_256x32_sm90_w4.post.lt.ptx -o /tmp/x.cubin 2>&1 | grep -E "spill|Used" >> $OUT/ab.txt
B=$F PRE=1 PTX=0 bash .dev/tile/dev.sh
