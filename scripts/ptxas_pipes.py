#!/usr/bin/env python3
"""Per launch: modelled SASS total and pipes (PTXAS_ROWS json from TestLoweringTable) against
the H200's smsp__inst_executed_pipe_* and per-opcode counts (testdata/measured/ptxas/ncu_h200.json).
  PTXAS_ROWS=/tmp/rows.json go test ./gpu/ptxas -run 'TestLoweringTable$' -count=1
  python3 scripts/ptxas_pipes.py /tmp/rows.json [filter] [--misses]"""
import json, sys
rows = json.load(open(sys.argv[1]))
flt = [a for a in sys.argv[2:] if not a.startswith('--')]
misses = '--misses' in sys.argv
ncu = json.load(open('testdata/measured/ptxas/ncu_h200.json'))['launches']
pipes = ['alu', 'fma', 'fp64', 'lsu', 'adu', 'cbu', 'uniform', 'xu', 'tensor']
for k in sorted(rows):
    if flt and not any(f in k for f in flt):
        continue
    r, L = rows[k], ncu.get(k)
    if not L:
        continue
    m = L['metrics']; want = m['smsp__inst_executed.sum']; tot = r['total']
    err = 100 * (tot - want) / want
    worst = 0; parts = []
    restm, restw = tot, want
    for p in pipes:
        w = m.get('smsp__inst_executed_pipe_%s.sum' % p, 0); g = r[p]
        restm -= g; restw -= w
        d = 100 * g / tot - 100 * w / want if tot else 0
        worst = max(worst, abs(d))
        if g or w:
            parts.append('%s %.0f/%.0f' % (p, g, w))
    d = 100 * restm / tot - 100 * restw / want if tot else 0
    worst = max(worst, abs(d)); parts.append('other %.0f/%.0f' % (restm, restw))
    if misses and abs(err) <= 5 and worst <= 10:
        continue
    print('%-45s %+6.1f%% pipe %4.1f  model %.0f ncu %.0f' % (k, err, worst, tot, want))
    print('    ' + '  '.join(parts))
    ops = L.get('opcodes', {})
    print('    ops: ' + ' '.join('%s=%d' % (o, n) for o, n in sorted(ops.items(), key=lambda x: -x[1])))
