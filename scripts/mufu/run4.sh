#!/bin/bash
# run4.sh: fourth device command (dump.cu, pack4.py; scripts/mufu copied to
# .dev/mufuexp). Raw outputs of sin/cos/tanh buckets for the structure
# analysis of docs/special-functions.md. Writes $OUT/dump*.tar, $OUT/log4.txt.
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/mufu4; mkdir -p $W/data; cd $W
L=$OUT/log4.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; } > $L 2>&1
nvcc -O3 -arch=sm_90 -o dump $D/dump.cu >> $L 2>&1 || { echo build failed >> $L; exit 1; }
SEL="sin:127 sin:126 sin:125 sin:124 sin:128 sin:123 sin:122 sin:121 sin:120 sin:129 sin:119 sin:118 sin:117 sin:116 sin:115 sin:114 sin:113 sin:112 sin:111 sin:110 sin:108 sin:106 sin:104 sin:102 sin:100 sin:130 sin:131 sin:383 sin:380 cos:127 cos:126 cos:125 cos:124 cos:128 cos:123 cos:122 cos:121 cos:120 cos:129 cos:119 cos:118 cos:117 cos:116 cos:115 cos:114 cos:113 cos:112 cos:111 cos:110 cos:130 cos:131 tanh:124 tanh:123 tanh:122 tanh:121 tanh:120 tanh:119 tanh:118 tanh:117 tanh:116 tanh:115 tanh:114 tanh:113 tanh:112 tanh:111 tanh:105 tanh:100 tanh:130 tanh:131 tanh:132"
./dump data $SEL >> $L 2>&1; echo "dump rc $?" >> $L
NAMES=$(for s in $SEL; do echo ${s%%:*}_$(printf %03d ${s##*:}); done)
python3 $D/pack4.py data $OUT 7 $NAMES >> $L 2>&1
ls -la $OUT >> $L
