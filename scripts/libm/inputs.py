#!/usr/bin/env python3
"""inputs.py PTX FUNCS OUTDIR: the inputs of libm.cu (in_x.bin, in_y.bin).

Per function NIN = 10240 f32 inputs: 8192 from a fixed stream (32 specials, then
random signs and mantissas, a quarter with any exponent, subnormals included, the
rest with exponents in [2^-12, 2^12)), and 2048 near the branch thresholds of that
function's nvcc PTX: every f32 constant of a setp instruction c, its square root and
its negation, each with its neighbours up to 3 ulps away; the slots left are filled
from a second random stream. y (second argument) is a random stream of its own:
small whole numbers and halves, moderate and any-exponent values."""
import math, re, struct, sys

NIN, NRAND = 10240, 8192
M64 = (1 << 64) - 1

def mix64(z):
    z = (z + 0x9e3779b97f4a7c15) & M64
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)

SPECIALS = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 1, 0x80000001,
            0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
            0x3f000000, 0xbf000000, 0x40000000, 0xc0000000, 0x40490fdb, 0x42b17218, 0xc2aeac50, 0xc2cff1b5,
            0x42fe0000, 0x43000000, 0xc2fc0000, 0xc3160000, 0x3f800001, 0x3f7fffff, 0xbf800001, 0xbf7fffff]

def rand_x(s, i):
    if i < len(SPECIALS):
        return SPECIALS[i]
    u = mix64((s << 32) | i)
    if i % 4 == 0:
        e = (u >> 32) % 255          # 0..254: subnormals to the largest binade
    else:
        e = 115 + (u >> 32) % 24     # [2^-12, 2^12)
    return ((u >> 63) << 31) | (e << 23) | (u & 0x7fffff)

def rand_y(i):
    u = mix64((7 << 32) | i)
    k = i % 4
    if k == 0:
        return f2b(float(int((u >> 40) % 21) - 10))
    if k == 1:
        return f2b(float(int((u >> 40) % 41) - 20) / 2)
    e = 115 + (u >> 32) % 24 if k == 2 else (u >> 32) % 255
    return ((u >> 63) << 31) | (e << 23) | (u & 0x7fffff)

def f2b(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]

def b2f(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]

def near(b, k):
    """the f32 k ulps from b (same sign), or None"""
    m = (b & 0x7fffffff) + k
    if m < 0 or m >= 0x7f800000:
        return None
    return (b & 0x80000000) | m

def thresholds(ptx, fn):
    """f32 constants of setp instructions in fn's kernel of ptx"""
    out = []
    for ent in ptx.split('.entry')[1:]:
        name = ent.split('(')[0].strip()
        if ('k_' + fn + 'P') not in name:
            continue
        for line in ent.split('\n'):
            if 'setp.' in line and '.f32' in line:
                out += [int(h, 16) for h in re.findall(r'0f([0-9A-Fa-f]{8})', line)]
    return out

def main():
    ptx = open(sys.argv[1]).read() if sys.argv[1] != '-' else ''
    funcs = re.findall(r'^F[12]\((\w+)\)', open(sys.argv[2]).read(), re.M)
    xs, ys = [], []
    for fn in funcs:
        xb = [rand_x(0, i) for i in range(NRAND)]
        seen = set()
        extra = []
        for c in thresholds(ptx, fn):
            v = abs(b2f(c))
            bases = [c & 0x7fffffff]
            if math.isfinite(v) and v > 0:
                bases.append(f2b(math.sqrt(v)))
            for base in bases:
                for k in range(-3, 4):
                    b = near(base, k)
                    if b is None:
                        continue
                    for sb in (b, b | 0x80000000):
                        if sb not in seen:
                            seen.add(sb)
                            extra.append(sb)
        extra = extra[:NIN - NRAND]
        i = 0
        while len(extra) < NIN - NRAND:
            extra.append(rand_x(1, len(SPECIALS) + i))
            i += 1
        xs += xb + extra
        ys += [rand_y(i) for i in range(NIN)]
        print(fn, len(seen), 'threshold inputs')
    open(sys.argv[3] + '/in_x.bin', 'wb').write(struct.pack('<%dI' % len(xs), *xs))
    open(sys.argv[3] + '/in_y.bin', 'wb').write(struct.pack('<%dI' % len(ys), *ys))

main()
