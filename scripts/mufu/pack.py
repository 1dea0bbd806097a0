# pack.py DIR OUT NTARS: compress every file of DIR with lzma (16 processes)
# and pack them into at most NTARS tar files of at most 15.5 MB each, in
# name order; whatever does not fit is listed as left out.
import lzma, os, sys, tarfile, io
from multiprocessing import Pool
def comp(p):
    with open(p, 'rb') as f:
        return os.path.basename(p), lzma.compress(f.read(), preset=6)
d, out, nt = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(os.path.join(d, n) for n in os.listdir(d))
with Pool(16) as pool:
    res = pool.map(comp, files)
cap = int(15.5 * 2**20)
tars = [[] for _ in range(nt)]
sizes = [0] * nt
left = []
def prio(r):
    n = r[0]
    first = n.endswith('_127.i8') or not n.endswith('.i8')
    return (0 if first else 1, len(r[1]))
for name, blob in sorted(res, key=prio):
    for k in range(nt):
        if sizes[k] + len(blob) + 1024 <= cap:
            tars[k].append((name, blob)); sizes[k] += len(blob) + 1024; break
    else:
        left.append((name, len(blob)))
for k in range(nt):
    if not tars[k]: continue
    with tarfile.open(os.path.join(out, 'data%d.tar' % k), 'w') as t:
        for name, blob in tars[k]:
            ti = tarfile.TarInfo(name + '.xz'); ti.size = len(blob)
            t.addfile(ti, io.BytesIO(blob))
for name, blob in res:
    print(name, len(blob))
print('left out:', left)
