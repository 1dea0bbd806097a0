#!/usr/bin/env python3
"""Reference values for the double Bessel functions of the math sweep (this project's own
script): for each of the 2048 recorded samples (k = j * 31) of every function named below,
the true value rounded to a double, computed by mpmath at 50 significant digits from the
same argument bits mathsweep.h makes. Writes ref/NAME.bin (2048 little-endian doubles).
Run from this folder:  python3 gen_ref.py   (needs python3-mpmath)."""
import struct, sys
import mpmath

mpmath.mp.dps = 50
M32 = 0xFFFFFFFF


def sw_hash(k, seed):
    h = (k * 0x9E3779B1 + seed) & M32
    h ^= h >> 15
    h = (h * 0x85EBCA77) & M32
    h ^= h >> 13
    h = (h * 0xC2B2AE3D) & M32
    h ^= h >> 16
    return h


def sw_order(k):
    return [0, 1, 2, 3, 5, 8, 13, 30][sw_hash(k & M32, 7) >> 29]


def params():
    p = {}
    for line in open("h200/math/params.txt"):
        f = line.split()
        kv = dict(x.split("=") for x in f[2:])
        p[f[1]] = (f[0], int(kv["lo"], 16), int(kv["step"], 16), int(kv["sym"]))
    return p


FUNCS = {
    "j0": lambda x, k: mpmath.besselj(0, x),
    "j1": lambda x, k: mpmath.besselj(1, x),
    "y0": lambda x, k: mpmath.bessely(0, x) if x > 0 else None,
    "y1": lambda x, k: mpmath.bessely(1, x) if x > 0 else None,
    "jn": lambda x, k: mpmath.besselj(sw_order(k), x),
    "yn": lambda x, k: mpmath.bessely(sw_order(k), x) if x > 0 else None,
    "cyl_bessel_i0": lambda x, k: mpmath.besseli(0, x),
    "cyl_bessel_i1": lambda x, k: mpmath.besseli(1, x),
}


def main():
    p = params()
    M64 = (1 << 64) - 1
    for name, fn in FUNCS.items():
        kind, lo, step, sym = p[name]
        out = bytearray()
        for j in range(2048):
            k = j * 31
            b = (lo + k * step) & M64
            if sym:
                b |= (k & 1) << 63
            x = struct.unpack("<d", struct.pack("<Q", b))[0]
            v = fn(mpmath.mpf(x), k)
            if v is None:
                r = float("nan")
            else:
                try:
                    r = float(v)  # mpmath rounds to nearest
                except OverflowError:
                    r = float("inf") if v > 0 else float("-inf")
            out += struct.pack("<d", r)
        open("ref/" + name + ".bin", "wb").write(out)
        print(name, "done", file=sys.stderr)


main()
