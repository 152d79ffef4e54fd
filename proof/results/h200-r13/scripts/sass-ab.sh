set -u
cd .dev/sass3
for d in base mn1 sel; do mkdir -p $d/bin; cp bin/ttgir-run $d/bin/; done
(bash do.sh)
python3 base/compare.py --runs 30 --warmup 3 --work /tmp/cw --out $OUT/cmp --only 'colsum_acc_loop_32x64_sm90_w4.pre-ours' --only 'layernorm_bwd_dwdb_32x64_sm80_w4.post' base=base mn1=mn1 sel=sel 2>&1 | tail -20
