# prep.py ERRDIR OUTDIR: rebuilds the exhaustive H200 outputs of the binades search.c
# fits (rcp [1,2), rsqrt and sqrt [1,2) and [2,4)) from the device run's error arrays
# (err_<fn>_<bucket>.i8[.xz] of scripts/mufu/run.sh: output - correctly rounded
# reference, in ordered ulps), checks each against the recorded bucket checksum
# (testdata/measured/mufu/stats) and writes OUTDIR/out_<fn>_<bucket>.u32.
# Debian's /usr/bin/python3 with numpy.
import sys, os, lzma, gzip
import numpy as np
errdir, outdir = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
stats = os.path.join(here, '../../../testdata/measured/mufu/stats')
def mix64(z):
    z = z + np.uint64(0x9e3779b97f4a7c15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xbf58476d1ce4e5b9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94d049bb133111eb)
    return z ^ (z >> np.uint64(31))
def ordv(b):
    b = b.astype(np.int64)
    return np.where(b >= 0x80000000, -(b & 0x7fffffff) - 1, b)
def unord(o):
    return np.where(o < 0, (-(o + 1)) | 0x80000000, o).astype(np.uint32)
ref = {'rcp': lambda v: 1 / v, 'rsqrt': lambda v: 1 / np.sqrt(v), 'sqrt': np.sqrt}
np.seterr(all='ignore')
for fn, b in [('rcp', 127), ('rsqrt', 127), ('rsqrt', 128), ('sqrt', 127), ('sqrt', 128)]:
    name = fn + '.approx.f32'
    p = os.path.join(errdir, 'err_%s_%03d.i8' % (name, b))
    raw = open(p, 'rb').read() if os.path.exists(p) else lzma.decompress(open(p + '.xz', 'rb').read())
    e = np.frombuffer(raw, dtype=np.int8).astype(np.int64)
    assert not (e == 127).any(), 'exception list not handled'
    x = (np.arange(1 << 23, dtype=np.uint32) + (b << 23)).view(np.float32)
    r = ref[fn](x.astype(np.float64)).astype(np.float32).view(np.uint32)
    o = unord(ordv(r) + e)
    idx = (np.uint64(b) << np.uint64(23)) + np.arange(1 << 23, dtype=np.uint64)
    h = int(mix64((idx << np.uint64(32)) | o.astype(np.uint64)).sum(dtype=np.uint64))
    with gzip.open(os.path.join(stats, name + '.stats.gz'), 'rt') as f:
        want = {int(v[0]): int(v[1], 16) for v in (l.split() for l in f if not l.startswith('#'))}
    assert h == want[b], '%s %d: checksum mismatch' % (name, b)
    o.astype('<u4').tofile(os.path.join(outdir, 'out_%s_%d.u32' % (fn, b)))
    print(name, b, 'checksum OK')
