#!/bin/sh
# Ground truth for testdata/video and testdata/ptxas_contract on an H200 (CUDA 13).
#   sh run_h200.sh SRC OUTDIR
# SRC holds runner.cu, drop_retry.py, video/ (gen.py's output) and contract/
# (testdata/ptxas_contract/gen.py's output). Writes OUTDIR/video/{F.cubin.sass.gz,
# v_F.bin, F.dropped} and OUTDIR/contract/{contract_T.sass, c_*.bin}, versions.txt.
s=${1:?usage: run_h200.sh SRC OUTDIR}
o=${2:?usage: run_h200.sh SRC OUTDIR}
N=512
mkdir -p "$o/video" "$o/contract" "$o/log"
nvcc -O2 -o "$o/runner" "$s/runner.cu" -lcuda > "$o/log/runner.txt" 2>&1 &
for t in f32 f64 f16 f16x2 bf16 bf16x2; do
    ( python3 "$s/drop_retry.py" "$s/contract/contract_$t.ptx" "$o/contract/contract_$t.cubin" > "$o/contract/contract_$t.dropped" 2>&1 &&
      cuobjdump -sass "$o/contract/contract_$t.cubin" > "$o/contract/contract_$t.sass" ) &
done
for f in scalar shift vmad vset simd2 simd4; do
    ( python3 "$s/drop_retry.py" "$s/video/video_$f.ptx" "$o/video/$f.cubin" > "$o/video/$f.dropped" 2>&1 &&
      cuobjdump -sass "$o/video/$f.cubin" | gzip -9 > "$o/video/$f.sass.gz" ) &
done
wait
for t in f32 f64 f16 f16x2 bf16 bf16x2; do
    case $t in f64) sz=8;; f32|f16x2|bf16x2) sz=4;; *) sz=2;; esac
    ks=$(awk -v t=$t '$2 == t {print $1}' "$s/contract/cases.txt")
    "$o/runner" "$o/contract/contract_$t.cubin" "$s/contract/in_$t.bin" $N $((2 * N * sz)) "$o/contract" $ks >> "$o/log/run.txt" 2>&1 || echo "contract $t failed" >> "$o/log/run.txt"
done
for f in scalar shift vmad vset simd2 simd4; do
    nv=$(awk -v f=$f '$1 == f' "$s/video/variants.txt" | wc -l)
    "$o/runner" "$o/video/$f.cubin" "$s/video/in.bin" $N $((nv * N * 4)) "$o/video" v_$f >> "$o/log/run.txt" 2>&1 || echo "video $f failed" >> "$o/log/run.txt"
done
rm -f "$o/runner" "$o"/video/*.cubin "$o"/video/*.cubin.ptx "$o"/contract/*.cubin.ptx "$o"/contract/*.cubin
{ nvcc --version; ptxas --version; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$o/versions.txt" 2>&1
