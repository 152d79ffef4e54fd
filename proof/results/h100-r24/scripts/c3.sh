#!/bin/bash
# call 3: the close calls of main and tile timed again twice, then the merged report
BUDGET=${BUDGET:-200} /tmp/f/final/device.sh recheck /tmp/p > /tmp/p/recheck.log 2>&1; echo "recheck rc=$?"
/tmp/f/final/device.sh merge /tmp/p > /tmp/p/merge.log 2>&1; echo "merge rc=$?"
tar czf $OUT/rest.tgz -C /tmp p/recheck p/merged p/recheck.log p/merge.log
tail -n 30 /tmp/p/merged/report.md | cut -c1-200
