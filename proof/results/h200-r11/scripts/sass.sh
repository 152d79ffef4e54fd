cd .dev/sass2
for f in *.ptx; do b=${f%.ptx}; ptxas -arch sm_90a -v $f -o /tmp/$b.cubin > /tmp/$b.ptxas.txt 2>&1; cuobjdump -sass /tmp/$b.cubin > /tmp/$b.sass; done
cd /tmp && tar czf $OUT/sass.tgz *__*.sass *__*.ptxas.txt
