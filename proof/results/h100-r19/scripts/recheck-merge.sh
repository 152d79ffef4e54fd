#!/bin/bash
# The second call, on the warm machine maintile.sh left (its /tmp/f bundle and /tmp/p reports):
# the close calls of main and tile timed again twice, then the merged report.
BUDGET=190 /tmp/f/final/device.sh recheck /tmp/p > /tmp/p/recheck.log 2>&1; echo "recheck rc=$?"
/tmp/f/final/device.sh merge /tmp/p > /tmp/p/merge.log 2>&1
tar czf $OUT/rest.tgz -C /tmp p/recheck p/merged p/recheck.log p/merge.log
