#!/usr/bin/env bash
# KernelScope against numba's CUDA simulator (issue 16), measured in one run on
# this machine: vector_add, matmul (16x16 tiles), a shared-memory reduction
# and a tiled transpose, the same kernels at the same sizes in CUDA
# (scripts/numba/kernels.cu, through `kernelscope run`) and in numba.cuda
# (scripts/numba/kernels.py, NUMBA_ENABLE_CUDASIM=1). Not part of CI.
#
# The work of a kernel is KernelScope's count of its thread-instructions (numba
# counts none); each side's rate is that count over its time:
#   ks sim      the simulation alone (the report's stats.sim_ms: functional
#               simulation, memory model, checks and timing model)
#   ks cell     the whole `kernelscope run` command (clang-19 compile included)
#   numba       the numba launch (wall and CPU seconds)
# Needs /usr/bin/python3 with numba and numpy (Debian: apt-get install
# python3-numba) and clang-19. Sizes: SIZES='{"vector_add": 4096, ...}'.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
py=${PYTHON:-/usr/bin/python3}
sizes=${SIZES:-'{"vector_add": 16384, "matmul": 64, "reduce": 16384, "transpose": 128}'}
out=$root/build/bench
mkdir -p "$out"
if ! "$py" -c 'import numba, numpy' 2>/dev/null; then
  echo "bench_numba.sh: $py has no numba (apt-get install python3-numba)" >&2
  exit 1
fi
echo "building kernelscope" >&2
go build -o "$out/kernelscope" .
echo "load before: $(uptime)" >&2
size() { "$py" -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$sizes" "$1"; }
nv=$(size vector_add) nm=$(size matmul) nr=$(size reduce) nt=$(size transpose)
ks() { # name grid block launch
  local t0 t1
  t0=$(date +%s.%N)
  "$out/kernelscope" run --json --arch sm_90 --grid "$2" --block "$3" --launch "$4" scripts/numba/kernels.cu >"$out/numba_ks_$1.json"
  t1=$(date +%s.%N)
  "$py" - "$1" "$out/numba_ks_$1.json" "$t0" "$t1" <<'PY'
import json, sys
name, path, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
r = json.load(open(path))
print(json.dumps({"kernel": name, "thread_instructions": r["stats"]["thread_instructions"],
                  "sim_seconds": r["stats"]["sim_ms"] / 1000, "cell_seconds": t1 - t0}))
PY
}
{
  ks vector_add "$(((nv + 255) / 256))" 256 "vector_add(a=rand($nv), b=rand($nv), c=zeros($nv), n=$nv)"
  ks matmul "$((nm / 16)),$((nm / 16))" 16,16 "matmul(A=rand($((nm * nm))), B=rand($((nm * nm))), C=zeros($((nm * nm))), n=$nm)"
  ks reduce "$(((nr + 255) / 256))" 256 "reduce(in=rand($nr), out=zeros($(((nr + 255) / 256))), n=$nr)"
  ks transpose "$((nt / 32)),$((nt / 32))" 32,32 "transpose(in=rand($((nt * nt))), out=zeros($((nt * nt))), n=$nt)"
} >"$out/numba_ks.jsonl"
echo "running numba's simulator" >&2
NUMBA_ENABLE_CUDASIM=1 "$py" scripts/numba/kernels.py "$sizes" >"$out/numba_numba.jsonl"
echo "load after: $(uptime)" >&2
"$py" - "$out/numba_ks.jsonl" "$out/numba_numba.jsonl" "$sizes" <<'PY'
import json, sys
ks = {r["kernel"]: r for r in map(json.loads, open(sys.argv[1]))}
nb = {r["kernel"]: r for r in map(json.loads, open(sys.argv[2]))}
sizes = json.loads(sys.argv[3])
print(f"{'kernel':11} {'size':>6} {'thread-inst':>12} {'ks sim/s':>10} {'ks cell/s':>10} {'numba/s':>10} {'numba/cpu-s':>11} {'sim vs numba':>13} {'cell vs numba':>14}")
for k in ["vector_add", "matmul", "reduce", "transpose"]:
    a, b = ks[k], nb[k]
    ti = a["thread_instructions"]
    sim = ti / max(a["sim_seconds"], 1e-3)
    cell = ti / a["cell_seconds"]
    nbw, nbc = ti / b["seconds"], ti / max(b["cpu_seconds"], 1e-6)
    print(f"{k:11} {sizes[k]:>6} {ti:>12} {sim:>10.3g} {cell:>10.3g} {nbw:>10.3g} {nbc:>11.3g} {sim / nbw:>12.0f}x {cell / nbw:>13.1f}x")
print("ks sim: stats.sim_ms (1 ms resolution); ks cell: the whole kernelscope run, clang-19 included; numba: wall of the launch on NUMBA_ENABLE_CUDASIM=1")
PY
