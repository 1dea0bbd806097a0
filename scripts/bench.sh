#!/usr/bin/env bash
# Speed benchmarks (issue 16), measured side by side in one run:
#   gpu/sim       BenchmarkMatmulTiled, BenchmarkVectorAdd1M (functional simulator)
#   gpu/analysis  BenchmarkAnalysis* (the full analysis: thread-instructions per
#                 wall second and per CPU second)
#   engine        BenchmarkEngineVectorAdd1M (a cell through Engine.Execute, 3 times on one
#                 engine: runs 2 and 3 get the compilation and the cache models' arrays
#                 from the engine; clang's CPU is a child's, not counted), BenchmarkEngineVectorAdd1MCold
#                 (a new engine each run: clang runs; its cpu-s/op includes clang's CPU)
#   render        BenchmarkBundle (HTML, JSON and text of one cell, default sections: only the
#                 charts it shows), BenchmarkBundleCharts (every chart asked for: %show
#                 occupancy timeline); both against issue 15's budget of 50 ms per cell
#   gpu/mem       BenchmarkSharedWavefronts, gpu/analysis BenchmarkSummarise (each
#                 with the implementation it replaced, in the same binary)
#
# BASE=REV also builds the benchmarks from git revision REV (a `git archive`
# export; the *_bench_test.go files it lacks are copied in) and runs old and new
# interleaved, COUNT rounds, so load on this shared machine falls on both; the
# table gives medians and new-vs-base ratios. FROM=tree measures the working
# tree (with whatever others have not committed) instead of HEAD.
#   scripts/bench.sh                    # HEAD only, 5 rounds
#   BASE=2ca917a COUNT=7 scripts/bench.sh
# CPUS=1,2 runs the gpu/sim, gpu/analysis and engine benchmarks with -test.cpu 1,2
# (GOMAXPROCS 1 and 2: the parallel block scheduler), rows named NAME and
# NAME-2; ONLY=REGEXP keeps the packages matching it (ONLY=gpu/sim).
#   CPUS=1,2 ONLY='gpu/(sim|analysis)' scripts/bench.sh
# LARGE=1 adds the issue's large launches through `kernelscope run --json`
# (one process each, /usr/bin/time: CPU seconds and peak RSS beside the bound
# 2 x buffers + 200 MB): the 16M-element shared reduction (checks race,init,sync,
# timing on: sampled) and matmul_tiled N=512; LARGE=2 adds matmul_tiled N=1024
# (minutes). Both sides when BASE is set; COUNT does not apply (one run each).
# CPU time (cpu-s/op, thread-inst/cpu-s) is the figure to trust on a loaded
# machine; wall time depends on what else runs. Raw output: build/bench/*.txt
# (benchstat-compatible; benchstat is run on them when it is on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$root/build/bench
COUNT=${COUNT:-5}
mkdir -p "$out/bin"

export_tree() { # rev dir
  rm -rf "$2"
  mkdir -p "$2"
  git archive "$1" | tar -xf - -C "$2"
}

benchfiles="gpu/analysis/analysis_bench_test.go engine/engine_bench_test.go render/render_bench_test.go"
# Benchmark files given to the base as they are now even where it has its own
# (same benchmarks, with the metrics and variants added since: CPU time,
# the cold engine cell).
replacefiles="gpu/sim/bench_test.go engine/engine_bench_test.go"
if [ "${FROM:-head}" = tree ]; then
  newdir=$root
else
  export_tree HEAD "$out/new"
  newdir=$out/new
fi
sides="new"
if [ -n "${BASE:-}" ]; then
  export_tree "$BASE" "$out/base"
  for f in $benchfiles; do
    [ -e "$out/base/$f" ] || cp "$newdir/$f" "$out/base/$f"
  done
  for f in $replacefiles; do
    cp "$newdir/$f" "$out/base/$f"
  done
  sides="base new"
fi

# package  binary-name  benchmark-regexp  benchtime
groups="gpu/sim sim ^Benchmark(MatmulTiled|VectorAdd1M)$ 5x
gpu/analysis analysis ^BenchmarkAnalysis 1x
engine engine ^BenchmarkEngineVectorAdd1M(Cold)?$ 3x
render render ^BenchmarkBundle(Charts)?$ 5x"
if [ -n "${ONLY:-}" ]; then
  groups=$(grep -E "^(${ONLY}) " <<<"$groups" || true)
fi

for side in $sides; do
  dir=$newdir
  [ "$side" = base ] && dir=$out/base
  while read -r pkg name _ _; do
    echo "building $side $pkg" >&2
    if ! (cd "$dir" && go test -c -o "$out/bin/$name.$side.test" "./$pkg"); then
      echo "bench.sh: cannot build $pkg at $side (${BASE:-HEAD}); its benchmarks are left out" >&2
      rm -f "$out/bin/$name.$side.test"
    fi
  done <<<"$groups"
done

echo "load before: $(uptime)" >&2
for side in $sides; do : >"$out/$side.txt"; done
for round in $(seq "$COUNT"); do
  echo "round $round of $COUNT" >&2
  while read -r pkg name re bt; do
    for side in $sides; do
      bin=$out/bin/$name.$side.test
      [ -x "$bin" ] || continue
      dir=$newdir
      [ "$side" = base ] && dir=$out/base
      cpu=()
      case "$pkg" in gpu/sim | gpu/analysis | engine) [ -n "${CPUS:-}" ] && cpu=(-test.cpu "$CPUS") ;; esac
      (cd "$dir/$pkg" && "$bin" -test.run '^$' -test.bench "$re" -test.benchtime "$bt" -test.benchmem "${cpu[@]}") |
        grep '^Benchmark' >>"$out/$side.txt" || true
    done
  done <<<"$groups"
done
# Old-vs-new micro-benchmarks that carry both implementations in one binary.
: >"$out/micro.txt"
[ -z "${ONLY:-}" ] && (cd "$newdir" && go test ./gpu/mem -run '^$' -bench '^BenchmarkSharedWavefronts$' -count "$COUNT" &&
  go test ./gpu/analysis -run '^$' -bench '^BenchmarkSummarise$' -benchtime 3x -count "$COUNT" -benchmem) |
  grep '^Benchmark' >"$out/micro.txt" || true
# The large launches (LARGE=1|2): one process per launch and side.
: >"$out/large.txt"
if [ -n "${LARGE:-}" ]; then
  ptx=$root/testdata/golden/ptx
  large="reduce16M|65536|256|reduce_sequential(rand(16777216), zeros(65536), 16777216)|reduce|--check race,init,sync|67371008
matmul512|32,32|16,16|matmul_tiled(rand(262144), rand(262144), zeros(262144), 512)|matmul_tiled||3145728"
  [ "${LARGE}" = 2 ] && large="$large
matmul1024|64,64|16,16|matmul_tiled(rand(1048576), rand(1048576), zeros(1048576), 1024)|matmul_tiled|--budget 1e10|12582912"
  for side in $sides; do
    dir=$newdir
    [ "$side" = base ] && dir=$out/base
    echo "building $side kernelscope" >&2
    (cd "$dir" && go build -o "$out/bin/kernelscope.$side" .) || continue
  done
  while IFS='|' read -r name grid block launch src extra bufbytes; do
    for side in $sides; do
      bin=$out/bin/kernelscope.$side
      [ -x "$bin" ] || continue
      echo "large $name ($side)" >&2
      # shellcheck disable=SC2086
      /usr/bin/time -f "%U %S %e %M" -o "$out/time.txt" "$bin" run --json --arch sm_90 --grid "$grid" --block "$block" \
        --launch "$launch" --timing on $extra "$ptx/$src.sm_90.ptx" >"$out/large.$name.$side.json" || true
      python3 - "$name" "$side" "$out/time.txt" "$out/large.$name.$side.json" "$bufbytes" >>"$out/large.txt" <<'PY'
import json, sys
name, side, tf, jf, buf = sys.argv[1:6]
u, s_, e, rss = open(tf).read().split()[-4:]
try:
    d = json.load(open(jf)); ti = d.get("stats", {}).get("thread_instructions", 0); cyc = (d.get("timing") or {}).get("cycles")
except Exception:
    ti, cyc = 0, None
cpu = float(u) + float(s_)
bound = 2 * int(buf) / 2**20 + 200
print(f"{name:12} {side:5} cpu-s {cpu:7.2f}  wall-s {float(e):7.2f}  peak-RSS-MB {int(rss)/1024:7.1f}  bound-MB {bound:6.1f}  "
      f"thread-inst/cpu-s {ti/cpu if cpu else 0:.3e}  cycles {cyc}")
PY
    done
  done <<<"$large"
fi
echo "load after: $(uptime)" >&2

python3 - "$out" $sides <<'EOF'
import os, re, statistics, sys, collections
out, sides = sys.argv[1], sys.argv[2:]
units_shown = ["cpu-s/op", "ns/op", "thread-inst/cpu-s", "thread-inst/s", "allocs/op"]
higher_better = {"thread-inst/cpu-s", "thread-inst/s"}
def load(path):
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    for line in open(path):
        f = line.split()
        name = f[0] if os.environ.get("CPUS") else re.sub(r"-\d+$", "", f[0])
        for i in range(2, len(f) - 1, 2):
            try:
                d[name][f[i + 1]].append(float(f[i]))
            except ValueError:
                pass
    return d
data = {s: load(f"{out}/{s}.txt") for s in sides}
def fmt(v):
    return f"{v:.3g}" if abs(v) < 1e4 else f"{v:.3e}"
print(f"\n{'benchmark':34} {'metric':18} " + " ".join(f"{s + ' (median)':>16}" for s in sides) + ("   speed-up" if len(sides) == 2 else ""))
for name in data[sides[-1]]:
    for u in units_shown:
        vals = [data[s].get(name, {}).get(u) for s in sides]
        if not vals[-1]:
            continue
        meds = [statistics.median(v) if v else None for v in vals]
        row = f"{name:34} {u:18} " + " ".join(f"{fmt(m) if m is not None else '-':>16}" for m in meds)
        if len(sides) == 2 and meds[0] and meds[1]:
            r = meds[1] / meds[0] if u in higher_better else meds[0] / meds[1]
            row += f"   {r:6.2f}x"
        n = len(vals[-1])
        print(row + f"   (n={n})")
bundles = [n for n in data[sides[-1]] if n.startswith("BenchmarkBundle") and data[sides[-1]][n].get("ns/op")]
if bundles:
    print("\nrendering one cell (render.Bundle), budget 50 ms per cell (issue 15):")
    for name in bundles:
        ms = statistics.median(data[sides[-1]][name]["ns/op"]) / 1e6
        print(f"{name:34} {ms:8.1f} ms/op (wall, median)   {'within' if ms <= 50 else 'OVER'} budget")
large = open(f"{out}/large.txt").read() if os.path.exists(f"{out}/large.txt") else ""
if large:
    print("\nlarge launches (kernelscope run --json, one process each; peak RSS from /usr/bin/time):")
    print(large, end="")
micro = load(f"{out}/micro.txt")
if micro:
    print("\nsame-binary comparisons (implementation it replaced vs new):")
    for name in micro:
        print(f"{name:44} {'ns/op':8} {fmt(statistics.median(micro[name]['ns/op'])):>12}   (n={len(micro[name]['ns/op'])})")
EOF
if command -v benchstat >/dev/null && [ -n "${BASE:-}" ]; then
  benchstat "$out/base.txt" "$out/new.txt" || true
fi
