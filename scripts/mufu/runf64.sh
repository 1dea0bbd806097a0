#!/bin/bash
# runf64.sh: the f64 device command (mufurcp) for issue 18 (2026-12-02). Run from the repository root
# on the H200 with scripts/mufu/f64.cu, this script and a static gpu/arith test binary
# (CGO_ENABLED=0 go test -c -o arith.test ./gpu/arith/) copied to .dev/mufurcp:
#   bash .dev/mufurcp/runf64.sh
# 1. f64.cu: rsqrt.approx.f64, rsqrt/rcp.approx.ftz.f64 and their SASS;
# 2. the model of MUFU.RCP/RSQ/SQRT against the recorded checksums of all 512 buckets of the
#    six f32 forms (TestMufuAllBuckets on 16 cores), then div.* on a spread of buckets.
set -x
D=$(cd "$(dirname "$0")" && pwd)
R=$(pwd)
W=/tmp/f64w; mkdir -p $W/s; cd $W
nvidia-smi --query-gpu=name,driver_version --format=csv > s/gpu4.txt 2>&1
( nvcc -O3 -arch=sm_90 -o f64 $D/f64.cu 2> s/f64_build.txt
  cuobjdump --dump-sass f64 | grep -v '^\s*/\* [0-9a-f]*\*/\s*$' > s/f64.sass 2>&1
  timeout 60 ./f64 s > s/f64_log.txt 2>&1; echo "rc $?" >> s/f64_log.txt ) &
cd $R/gpu/arith
KS_MUFU_EXPLORE=rcp.approx.ftz.f32,rsqrt.approx.ftz.f32,sqrt.approx.ftz.f32,rcp.approx.f32,rsqrt.approx.f32,sqrt.approx.f32 \
  KS_MUFU_BUCKETS=all timeout 140 $D/arith.test -test.run 'TestMufuAllBuckets$' -test.v -test.timeout 10m > $W/s/full_all.log 2>&1
echo "rc $?" >> $W/s/full_all.log
KS_MUFU_DIV=1 timeout 35 $D/arith.test -test.run 'TestMufuDivAllBuckets$' -test.v -test.timeout 10m > $W/s/div_all.log 2>&1
echo "rc $?" >> $W/s/div_all.log
cd $W; wait
ls -la s >> s/f64_log.txt
xz -T16 -6 s/*.bin
tar cf $OUT/f64.tar -C s .
ls -la $OUT
