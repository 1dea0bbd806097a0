#!/usr/bin/env python3
"""Turns the device run of testdata/measured/ptxas/device.sh (unpacked in DIR, default
build/ptxas/h200) into testdata/measured/ptxas/ncu_h200.json: one entry per launch, with its
Nsight Compute metrics (numbers) and the per-opcode breakdown (sass__inst_executed_per_opcode),
and copies the listings of our own kernels (iso, bank) into testdata/measured/ptxas/sass/.
The real-code listings (derived from third-party code) stay under DIR/sass, never committed."""
import csv, io, json, os, re, shutil, sys
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, 'build', 'ptxas', 'h200')
dst = os.path.join(root, 'testdata', 'measured', 'ptxas')
def rows(path):
    text = ''.join(l for l in open(path) if l.startswith('"'))
    r = list(csv.reader(io.StringIO(text)))
    return [dict(zip(r[0], x)) for x in r[2:]] if len(r) > 2 else []
def num(s):
    s = s.replace(',', '')
    try:
        v = float(s)
        return int(v) if v == int(v) else v
    except ValueError:
        return None
def entry(row):
    e = {'kernel': row['Kernel Name'], 'grid': row['Grid Size'], 'block': row['Block Size'], 'metrics': {}, 'opcodes': {}}
    for k, v in row.items():
        if k == 'sass__inst_executed_per_opcode':
            m = re.search(r'\((.*)\)', v)
            if m:
                for part in m.group(1).split(';'):
                    op, _, n = part.strip().partition(':')
                    e['opcodes'][op.strip()] = num(n)
        elif (k in used or k.startswith('launch__')) and num(v) is not None:
            e['metrics'][k] = num(v)
    return e
out = {}
used = set(open(os.path.join(src, 'metrics_used.txt')).read().strip().split(','))
manifest = [l.split()[0] for l in open(os.path.join(dst, 'manifest.txt')) if l.strip() and not l.startswith('#')]
if len(sys.argv) > 2:  # a later call's part (device3.sh: iso3), merged into the existing file
    part = sys.argv[2]
    ids = [i for i in manifest if i.startswith(part + '.')]
    rs = rows(os.path.join(src, 'ncu', part + '.csv'))
    if len(rs) != len(ids):
        sys.exit('%s: %d rows for %d launches' % (part, len(rs), len(ids)))
    path = os.path.join(dst, 'ncu_h200.json')
    f = json.load(open(path))
    for i, r in zip(ids, rs):
        f['launches'][i] = entry(r)
    f['meta'].setdefault('later_calls', []).append({'part': part, 'made_by': 'bash testdata/measured/ptxas/device%s.sh, then python3 scripts/ptxas_ingest.py DIR %s' % (part[3:], part),
        'versions': open(os.path.join(src, 'versions.txt')).read().strip().splitlines()})
    json.dump(f, open(path, 'w'), indent=1, sort_keys=True)
    for fn in os.listdir(os.path.join(src, 'sass')):
        if fn.startswith(part + '.'):
            shutil.copy(os.path.join(src, 'sass', fn), os.path.join(dst, 'sass', fn))
    print(len(ids), part, 'launches merged')
    sys.exit(0)
for part in ('bank', 'iso', 'golden', 'scale'):
    ids = [i for i in manifest if i.startswith(part + '.')]
    rs = rows(os.path.join(src, 'ncu', part + '.csv'))
    if len(rs) != len(ids):
        sys.exit('%s: %d rows for %d launches' % (part, len(rs), len(ids)))
    for i, r in zip(ids, rs):
        out[i] = entry(r)
for ch in sorted(f for f in os.listdir(src) if f.startswith('rc_chunk.')):  # one ncu run per chunk
    ids = open(os.path.join(src, ch)).read().split()
    path = os.path.join(src, 'ncu', 'rc.' + ch + '.csv')
    rs = rows(path) if os.path.exists(path) else []
    if len(rs) != len(ids):
        print('realcode %s: %d rows for %d binaries: skipped' % (ch, len(rs), len(ids)))
        continue
    for i, r in zip(ids, rs):
        out['realcode.' + i] = entry(r)
meta = {'made_by': 'bash testdata/measured/ptxas/device.sh on the H200 (device tool, carry .dev/ptxas), then python3 scripts/ptxas_ingest.py',
        'date': open(os.path.join(src, 'versions.txt')).read().strip().splitlines()[-1],
        'versions': open(os.path.join(src, 'versions.txt')).read().strip().splitlines()[:-1],
        'metrics_used': open(os.path.join(src, 'metrics_used.txt')).read().strip().split(',')}
json.dump({'meta': meta, 'launches': out}, open(os.path.join(dst, 'ncu_h200.json'), 'w'), indent=1, sort_keys=True)
os.makedirs(os.path.join(dst, 'sass'), exist_ok=True)
for f in os.listdir(os.path.join(src, 'sass')):
    if f.startswith(('iso.', 'bank.')):
        shutil.copy(os.path.join(src, 'sass', f), os.path.join(dst, 'sass', f))
print(len(out), 'launches')
