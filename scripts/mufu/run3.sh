#!/bin/bash
# run3.sh: third device command (rz.cu). Writes $OUT/rz_counts.txt.
D=$(cd "$(dirname "$0")" && pwd)
cd /tmp && nvcc -O3 -arch=sm_90 -o rz $D/rz.cu && ./rz > $OUT/rz_counts.txt; tail -2 $OUT/rz_counts.txt
