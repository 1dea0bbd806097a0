#!/usr/bin/env bash
# Regenerates docs/timing.md: modelled cycles against the H200's (Nsight Compute's
# sm__cycles_elapsed.max) for every golden launch and every large launch of
# testdata/golden/scale_sm90.json, with the memory counters checked at scale.
# Takes a few minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
go test ./gpu/analysis -run '^TestTimingAgainstNsight$' -count=1 -v -timeout 60m \
  -args -timing-scale -timing-table "$(pwd)/docs/timing.md" | tail -n 45
