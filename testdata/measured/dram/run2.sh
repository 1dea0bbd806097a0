#!/bin/sh
# Second device run (session 8): latency2.cu's four variants. From the repository root:
#   sh testdata/measured/dram/run2.sh
set -e
d=testdata/measured/dram
nvcc -arch=sm_90 -O3 -o /tmp/lat2 $d/latency2.cu
nvcc -arch=sm_90 -O3 -ptx -o $OUT/latency2.ptx $d/latency2.cu
/tmp/lat2 > $OUT/latency2.txt 2>&1
ncu --clock-control none --csv --metrics sm__cycles_elapsed.max,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum /tmp/lat2 > $OUT/ncu_lat2.csv 2> $OUT/ncu_lat2.err
