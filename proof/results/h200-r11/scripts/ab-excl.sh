cd .dev/abe && mkdir -p after/bin && cp before/bin/ttgir-run after/bin/
o=(); for f in after/ptx/*.lt.ptx; do o+=(--only $(basename $f .lt.ptx)); done
for i in 1 2; do python3 before/compare.py "${o[@]}" --runs 50 before=before after=after 2>&1 | grep -E "before .* after"; done | tee $OUT/ab-excl.txt
