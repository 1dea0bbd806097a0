#!/usr/bin/env bash
# Made on the H200 device machine:  bash testdata/measured/launch_overhead/run.sh
# Writes $OUT/launch_overhead_sm90.csv: one row per launch (kernel, grid, block,
# sm__cycles_elapsed.max, gpu__time_duration.sum), from Nsight Compute.
set -euo pipefail
cd "$(dirname "$0")"
nvcc -O3 -arch=sm_90 -o /tmp/empty empty.cu
ncu --metrics sm__cycles_elapsed.max,gpu__time_duration.sum --csv /tmp/empty > /tmp/ncu.csv
python3 - <<'PY' > "${OUT:-.}/launch_overhead_sm90.csv"
import csv, collections
rows = list(csv.DictReader(l for l in open('/tmp/ncu.csv') if l.startswith('"')))
launch = collections.OrderedDict()
for r in rows:
    key = (r['ID'], r['Kernel Name'], r['Grid Size'], r['Block Size'])
    launch.setdefault(key, {})[r['Metric Name']] = r['Metric Value'].replace(',', '')
print('kernel,grid,block,sm__cycles_elapsed.max,gpu__time_duration.sum')
for (i, k, g, b), m in launch.items():
    grid = g.strip('()').split(',')[0]; block = b.strip('()').split(',')[0]
    print(f"{k.split('(')[0]},{grid},{block},{m.get('sm__cycles_elapsed.max','')},{m.get('gpu__time_duration.sum','')}")
PY
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > "${OUT:-.}/clocks.txt"
tail -n +1 "${OUT:-.}/launch_overhead_sm90.csv" | head -80
