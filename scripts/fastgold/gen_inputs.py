#!/usr/bin/env python3
"""gen_inputs.py OUTDIR: the fixed inputs of scripts/fastgold (seeded, no numpy).

Writes in_x.bin, in_y.bin, in_z.bin (f32), in_e.bin (int32), in_d.bin (f64),
kernel-major in kernels.h's order, NIN elements per kernel."""
import math, os, random, re, struct, sys

NIN = 2048
here = os.path.dirname(os.path.abspath(__file__))
names = re.findall(r'^K\((\w+),', open(os.path.join(here, 'kernels.h')).read(), re.M)
R = random.Random(20261202)
F32 = lambda v: struct.unpack('<f', struct.pack('<f', v))[0]
bits32 = lambda b: struct.unpack('<f', struct.pack('<I', b & 0xffffffff))[0]
bits64 = lambda b: struct.unpack('<d', struct.pack('<Q', b))[0]
SPEC32 = [0x0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x1, 0x807fffff, 0x00800000,
          0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff, 0x3f000000, 0x40000000, 0xc0000000, 0x00400000]
SPEC64 = [0x0, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x1,
          0x800fffffffffffff, 0x0010000000000000, 0x3ff0000000000000, 0xbff0000000000000,
          0x7fefffffffffffff, 0xffefffffffffffff, 0x3fe0000000000000, 0x4000000000000000,
          0xc000000000000000, 0x0008000000000000]
EXPS = [0, 1, -1, 2, -2, 3, -3, 4, -4, 7, -7, 8, 31, -31, 127, -127, 128, -128, 149, -149, 150,
        1023, -1023, 1074, -1075, 2**31 - 1, -2**31, 2**31 - 2, -2**31 + 1, 65536, -65536, 1000000]

def any32(lo=0, hi=255):
    return bits32(R.getrandbits(1) << 31 | R.randint(lo, hi - 1) << 23 | R.getrandbits(23))

def any64(lo=0, hi=2047):
    return bits64(R.getrandbits(1) << 63 | R.randint(lo, hi - 1) << 52 | R.getrandbits(52))

def gen(name):
    x, y, z, e, d = [0.0] * NIN, [0.0] * NIN, [0.0] * NIN, [0] * NIN, [0.0] * NIN
    for i in range(NIN):
        if name.startswith('bs_'):
            x[i], y[i], z[i] = R.uniform(5, 200), R.uniform(5, 200), R.uniform(0.02, 5)
        elif name == 'gelu':
            x[i] = bits32(SPEC32[i]) if i < 16 else (R.uniform(-10, 10) if i % 2 else any32(90, 140))
        elif name in ('softmax', 'layernorm'):
            scale = 10.0 ** R.uniform(-3, 3) if name == 'layernorm' else 1.0
            if i % 64 == 0:
                rs = 10.0 ** ((i // 64) % 7 - 3)
            x[i] = R.uniform(-20, 20) if name == 'softmax' else R.gauss(R.uniform(-1, 1), 1) * rs
            y[i], z[i] = R.uniform(0.5, 1.5), R.uniform(-1, 1)
        elif name in ('fdiv', 'divsqrt'):
            if i < 256:
                x[i], y[i] = bits32(SPEC32[i % 16]), bits32(SPEC32[i // 16])
            elif i % 3 == 0:
                x[i], y[i] = any32(), any32()
            elif i % 3 == 1:  # divisors near and above 2^126, dividends near the extremes
                x[i], y[i] = any32(0, 255), any32(240, 255)
            else:
                x[i], y[i] = R.uniform(-100, 100), R.uniform(-100, 100)
        elif name == 'fsqrt':
            x[i] = bits32(SPEC32[i]) if i < 16 else (abs(any32()) if i % 4 else any32())
        elif name in ('sin_big', 'cos_big', 'tan_big'):
            x[i] = bits32(SPEC32[i]) if i < 16 else (R.uniform(-100, 100) if i % 3 == 0 else any32(100, 255))
        elif name in ('powif_k', 'powfi_k', 'powi_k', 'powdi_k'):
            e[i] = EXPS[i % len(EXPS)] if i < 1024 else R.randint(-300, 300)
            k = (i // len(EXPS)) % 48
            if k < 16:
                x[i], d[i] = bits32(SPEC32[k]), bits64(SPEC64[k])
            elif i % 2:
                x[i], d[i] = any32(), any64()
            else:  # bases near 1 (where rounding of repeated products shows)
                x[i] = F32(1 + R.uniform(-1e-3, 1e-3) * (1 if i % 4 else 1000))
                d[i] = 1 + R.uniform(-1e-6, 1e-6) * (1 if i % 4 else 1e5)
        x[i], y[i], z[i] = F32(x[i]), F32(y[i]), F32(z[i])
    return x, y, z, e, d

cols = [[], [], [], [], []]
for n in names:
    for c, v in zip(cols, gen(n)):
        c.extend(v)
out = sys.argv[1]
for c, f, fmt in zip(cols, 'xyzed', 'fffid'):
    with open(os.path.join(out, 'in_%s.bin' % f), 'wb') as fh:
        fh.write(struct.pack('<%d%s' % (len(c), fmt), *c))
print('%d kernels x %d inputs' % (len(names), NIN))
