#!/bin/bash
# Second device call (issue 21): cp.async.bulk + mbarrier kernels of
# testdata/measured/tensor/src/bulk_copy.cu. Staged by scripts/tensor/stage.sh; writes $OUT/bulk.tgz.
cd "$(dirname "$0")"
mkdir -p out
date -u > out/env2.txt
nvcc -arch=sm_90 -I src -o bulkx bulk_main.cu > out/bulk_build.txt 2>&1 && ./bulkx . > out/bulk_run.txt 2>&1; echo "bulk rc=$?" >> out/bulk_run.txt
# (run of 2026-12-01 also built two mixed-type mma forms, f32.f16.f16.f16 and f16.f16.f16.f32,
#  added to the probe for that run: ptxas rejected both, bulk_probe2_build.txt)
nvcc -ptx -lineinfo -arch=sm_90 src/bulk_copy.cu -o out/bulk_copy.sm_90.ptx > out/ptx_bulk.txt 2>&1
[ -x bulkx ] && cuobjdump -sass bulkx | grep -E "Function|UBLKCP|SYNCS|UTMA|BAR" > out/bulk_sass.txt 2>&1
tar czf "$OUT/bulk.tgz" out/bulk_* out/mbarrier_phases.out out/env2.txt out/ptx_bulk.txt
cat out/bulk_build.txt out/bulk_run.txt | tail -30
