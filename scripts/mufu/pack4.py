# pack4.py DIR OUT NTARS NAME...: delta-code each DIR/NAME.u32 (u32 minus the
# previous u32, mod 2^32), compress with lzma (16 processes) and pack them, in
# the order given, into at most NTARS tars of at most 15.5 MB; lists what did
# not fit. Undo: out[i] = out[i-1] + d[i] mod 2^32 (out[-1] = 0).
import lzma, os, sys, tarfile, io
import numpy as np
from multiprocessing import Pool
def comp(n):
    a = np.fromfile(os.path.join(sys.argv[1], n + '.u32'), dtype=np.uint32)
    d = np.diff(a, prepend=np.uint32(0)).astype(np.uint32)
    return n, lzma.compress(d.tobytes(), preset=4)
if __name__ == '__main__':
    d, out, nt, names = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    with Pool(16) as pool:
        res = pool.map(comp, names)
    cap = int(15.5 * 2**20)
    tars = [[] for _ in range(nt)]; sizes = [0] * nt; left = []
    for name, blob in res:
        for k in range(nt):
            if sizes[k] + len(blob) + 1024 <= cap:
                tars[k].append((name, blob)); sizes[k] += len(blob) + 1024; break
        else:
            left.append((name, len(blob)))
    for k in range(nt):
        if not tars[k]: continue
        with tarfile.open(os.path.join(out, 'dump%d.tar' % k), 'w') as t:
            for name, blob in tars[k]:
                ti = tarfile.TarInfo(name + '.d32.xz'); ti.size = len(blob)
                t.addfile(ti, io.BytesIO(blob))
    for name, blob in res:
        print(name, len(blob))
    print('left out:', left)
