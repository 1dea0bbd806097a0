#!/bin/bash
# run.sh: the device command of scripts/libm (run from the repository root on the
# H200 machine with scripts/libm copied to .dev/libm). Builds libm.cu with nvcc
# three ways (default, -use_fast_math, -ftz=true), writes each build's PTX and
# SASS, makes the inputs from the default PTX's thresholds and runs the three.
set -x
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/libmw; rm -rf $W; mkdir -p $W/rec; cd $W
cp $D/funcs.h $D/libm.cu .
nvcc --version > rec/nvcc.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv >> rec/nvcc.txt 2>&1
fl0=""; fl1="-use_fast_math"; fl2="-ftz=true"
for v in 0 1 2; do
  eval fl=\$fl$v
  ( nvcc -arch=sm_90 $fl -ptx -o rec/libm$v.ptx libm.cu 2> rec/build$v.txt ) &
  ( nvcc -arch=sm_90 $fl -o libm$v libm.cu 2>> rec/build_exe$v.txt && cuobjdump --dump-sass libm$v > rec/libm$v.sass 2>&1 ) &
done
wait
python3 $D/inputs.py rec/libm0.ptx funcs.h rec > rec/inputs_log.txt 2>&1
for v in 0 1 2; do ./libm$v rec/in_x.bin rec/in_y.bin rec/out$v.bin >> rec/run_log.txt 2>&1; echo "rc $v $?" >> rec/run_log.txt; done
gzip -9 rec/*.bin rec/*.sass
tar cf $OUT/libm.tar rec
ls -la rec $OUT
