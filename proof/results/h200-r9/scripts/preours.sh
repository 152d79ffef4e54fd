#!/bin/bash
cd "$(dirname "$0")/after"
args=()
while read -r k; do [ -n "$k" ] && args+=(--only "$k" --bench "$k"); done < bundle/preours.txt
mkdir -p $OUT/pre-ours
OUT=$OUT/pre-ours bundle/run.sh --skip-tests --no-ptxas --jobs 16 --runs 20 --warmup 3 --bench-realistic --work /tmp/pw "${args[@]}" > $OUT/pre-ours/log.txt 2>&1
echo "rc=$?" >> $OUT/pre-ours/log.txt
