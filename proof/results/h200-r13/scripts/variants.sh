#!/usr/bin/env bash
# ptxas register counts and SASS hashes of every PTX for base/mn1/sel/selmn,
# then the tile kernels for sel and selmn.
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$here/../r12/bundle
rm -rf /tmp/v; mkdir -p /tmp/v
for v in base mn1 sel selmn; do mkdir -p /tmp/v/$v; if [ $v = base ]; then cp $B/ptx/*.ptx /tmp/v/$v/; else tar xzf $here/$v.tgz -C /tmp/v/$v; fi; done
cd /tmp/v
ls */*.ptx | xargs -P 16 -I{} sh -c 'ptxas -arch sm_90 -v {} -o {}.cubin > {}.ptxas 2>&1; cuobjdump -sass {}.cubin | grep -E "^\s+/\*[0-9a-f]+\*/" | sed -E "s#/\*[0-9a-f]+\*/##g" | md5sum | cut -c1-12 > {}.md5'
for f in base/*.ptx; do n=$(basename $f); line="$n"; for v in base mn1 sel selmn; do r=$(grep -o 'Used [0-9]* registers' $v/$n.ptxas | awk '{print $2}'); s=$(grep -c spill $v/$n.ptxas); m=$(cat $v/$n.md5); line="$line $v:$r:$m"; done; echo "$line"; done > $OUT/sass-summary.txt
echo "ptxas done $SECONDS s"
only=(); for n in $(cat $here/../r12/tile/post.txt $here/../r12/tile/pre.txt); do only+=(--only "$n"); done
for v in sel selmn; do
  rm -rf /tmp/b_$v; cp -r $B /tmp/b_$v; rm -rf /tmp/b_$v/ptx; cp -r /tmp/v/$v /tmp/b_$v/ptx; rm -f /tmp/b_$v/ptx/*.cubin /tmp/b_$v/ptx/*.ptxas /tmp/b_$v/ptx/*.md5
  mkdir -p $OUT/tile_$v
  OUT=$OUT/tile_$v /tmp/b_$v/run.sh --jobs 16 --runs 20 --warmup 3 --work /tmp/pw-tile "${only[@]}" > /tmp/tile_$v.log 2>&1
  echo "$v rc=$? $SECONDS s"; tail -n 3 /tmp/tile_$v.log
  rm -f $OUT/tile_$v/log.txt; find $OUT/tile_$v -type f ! -name report.json ! -name report.md -delete
done
