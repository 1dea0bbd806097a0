#!/bin/sh
# Run on the device from the repository root: sh testdata/measured/dram/run.sh
# (session 8, 2026-12-02; nvcc 13.0, driver in smi.txt). Output files under $OUT.
set -e
d=testdata/measured/dram
nvcc -arch=sm_90 -O3 -o /tmp/dram $d/dram.cu
nvcc -arch=sm_90 -O3 -o /tmp/lat $d/latency.cu
nvcc -arch=sm_90 -O3 -ptx -o $OUT/dram.ptx $d/dram.cu
nvcc -arch=sm_90 -O3 -ptx -o $OUT/latency.ptx $d/latency.cu
/tmp/lat > $OUT/latency.txt 2>&1
ncu --clock-control none --csv --metrics sm__cycles_elapsed.max,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum /tmp/dram > $OUT/ncu_none.csv 2> $OUT/ncu_none.err
ncu --clock-control none --csv --metrics sm__cycles_elapsed.max,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum /tmp/lat > $OUT/ncu_lat.csv 2> $OUT/ncu_lat.err
nvcc --version > $OUT/nvcc.txt; nvidia-smi > $OUT/smi.txt 2>&1 || true
