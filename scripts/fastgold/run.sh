#!/bin/bash
# run.sh: the device command of scripts/fastgold (run from the repository root
# on the H200 machine with scripts/fastgold copied to .dev/fastgold). Builds
# harness.cu with nvcc two ways (build 0: default flags, build 1:
# -use_fast_math), writes each build's PTX (of cell.cu) and SASS, makes the
# inputs and runs both builds.
set -x
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/fgw; rm -rf $W; mkdir -p $W/rec; cd $W
cp $D/*.cu $D/*.h $D/*.py .
nvcc --version > rec/nvcc.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv >> rec/nvcc.txt 2>&1
fl0=""; fl1="-use_fast_math"
for v in 0 1; do
  eval fl=\$fl$v
  ( nvcc -arch=sm_90 $fl -ptx -o rec/cell$v.ptx cell.cu > rec/build$v.txt 2>&1 ) &
  ( nvcc -arch=sm_90 $fl -o fg$v harness.cu > rec/build_exe$v.txt 2>&1 && cuobjdump --dump-sass fg$v > rec/cell$v.sass 2>&1 ) &
done
wait
# Fallback (logged): if powif/powi do not compile, build without those kernels.
if [ ! -x fg0 ] || [ ! -x fg1 ]; then
  echo "FALLBACK -DNO_POWI" >> rec/run_log.txt
  nvcc -arch=sm_90 -DNO_POWI -o fg0 harness.cu >> rec/build_exe0.txt 2>&1 &
  nvcc -arch=sm_90 -DNO_POWI -use_fast_math -o fg1 harness.cu >> rec/build_exe1.txt 2>&1 &
  nvcc -arch=sm_90 -DNO_POWI -ptx -o rec/cell0.ptx cell.cu >> rec/build0.txt 2>&1 &
  nvcc -arch=sm_90 -DNO_POWI -use_fast_math -ptx -o rec/cell1.ptx cell.cu >> rec/build1.txt 2>&1 &
  wait
fi
grep -h -A3 'powif\|powi' /usr/local/cuda/include/crt/math_functions.h* 2>/dev/null | head -80 > rec/powi_decl.txt
python3 gen_inputs.py rec > rec/inputs_log.txt 2>&1
for v in 0 1; do ./fg$v rec $v >> rec/run_log.txt 2>&1; echo "rc $v $?" >> rec/run_log.txt; done
cat rec/build*.txt rec/run_log.txt
gzip -9 rec/*.bin rec/*.sass
tar cf $OUT/fastgold.tar rec
ls -la rec $OUT
