#!/bin/bash
# run2.sh: second device command (ftz2.cu). Writes $OUT/ftz2_cases.txt.gz.
D=$(cd "$(dirname "$0")" && pwd)
cd /tmp && nvcc -O3 -arch=sm_90 -o ftz2 $D/ftz2.cu && ./ftz2 | gzip -9 > $OUT/ftz2_cases.txt.gz; ls -la $OUT
