#!/usr/bin/env bash
# Regenerates the tables of docs/ptxas.md: modelled SASS warp-instructions, pipe mix and memory
# counters against the H200 (testdata/measured/ptxas/ncu_h200.json) for the golden, iso, scale and
# real-code launches.
#   bash scripts/ptxas_table.sh              # golden + iso + every scale launch (+ real code if run)
#   REALCODE=1 bash scripts/ptxas_table.sh   # first re-run KernelScope on the real-code set
#                                            # (scripts/ptxas_realcode.sh; needs a real-code run's
#                                            # inputs and command lines, see that script)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${REALCODE:-}" = 1 ]; then bash scripts/ptxas_realcode.sh; fi
PTXAS_SCALE=1 PTXAS_DOC="$PWD/docs/ptxas.md" go test ./gpu/ptxas -run 'TestLoweringTable$' -count=1 -timeout 60m -v | grep -E '^(--- |ok|FAIL)' || true
echo "wrote docs/ptxas.md"
