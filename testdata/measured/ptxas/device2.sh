#!/usr/bin/env bash
# Second device call (SASS only): bash .dev/ptxas/device2.sh ; writes $OUT/ptxas2.tgz
set -u
D=${D:-.dev/ptxas}; W=$(mktemp -d)
for a in sm_80 sm_90; do
  nvcc -arch=$a -cubin -lineinfo -o $W/iso2.$a.cubin $D/iso2.cu && cuobjdump -sass $W/iso2.$a.cubin > $W/iso2.$a.sass
  nvdisasm -c -g $W/iso2.$a.cubin > $W/iso2.$a.nvdisasm
done
nvcc -arch=sm_90 -ptx -lineinfo -o $W/iso2.sm_90.ptx $D/iso2.cu
{ nvcc --version | tail -2; date -u; } > $W/versions.txt
rm -f $W/*.cubin; tar czf $OUT/ptxas2.tgz -C $W .; ls -la $OUT
