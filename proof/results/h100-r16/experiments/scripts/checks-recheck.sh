#!/bin/bash
# A short call: the checks of the kernels new since h100-r15's whole run (ours and Triton's PTX
# against the interpreter and Triton's launcher), then h100-r15's close calls timed again.
here=$(cd "$(dirname "$0")" && pwd)
t0=$(date +%s)
rm -rf /tmp/f /tmp/p; mkdir -p /tmp/f /tmp/p/main /tmp/r15/main/pre-ours; tar xzf $here/final.tgz -C /tmp/f
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > /tmp/p/main/gpu.txt 2>&1
OUT=/tmp/p/main /tmp/f/final/run.sh --jobs 16 --bench none --skip-tests --no-ptxas --work /tmp/proof-work \
	--only 'wgmma_*' --only inline_asm_bytes --only fp4_to_bf16 --only dot_i8_f16acc --only dot_fp4_bf16 > /tmp/p/main/log.txt 2>&1
echo "checks rc=$? after $(( $(date +%s) - t0 )) s" | tee -a /tmp/p/main/log.txt
cp proof/results/h100-r15/run/report.json /tmp/r15/main/; cp proof/results/h100-r15/run/pre-ours/report.json /tmp/r15/main/pre-ours/
BUDGET=$(( ${T:-200} - ($(date +%s) - t0) )) /tmp/f/final/device.sh recheck /tmp/r15 > /tmp/p/recheck.log 2>&1
echo "recheck rc=$? after $(( $(date +%s) - t0 )) s" >> /tmp/p/recheck.log
cp -r /tmp/r15/recheck /tmp/p/
cp /tmp/p/main/log.txt /tmp/p/recheck.log $OUT/; tar czf $OUT/all.tgz -C /tmp p
tail -n 12 /tmp/p/main/log.txt; tail -n 30 /tmp/p/recheck.log
