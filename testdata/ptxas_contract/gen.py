#!/usr/bin/env python3
"""Writes the ptxas contraction probes: contract_T.ptx (one kernel per case) and
in_T.bin (N threads x 3 operands) for T in f32 f64 f16 f16x2 bf16 bf16x2, and
cases.txt (kernel name, type, case). Each kernel k(out, in): thread i reads a, b, c
from in[3i..3i+2] and stores two results at out[i] and out[N+i].
Run: python3 gen.py OUTDIR [INPUT_SEED]   (deterministic: seeded). With INPUT_SEED, the
second run's files: inputs drawn with that seed and the extra cases appended."""
import os, random, struct, sys

EXTRA = len(sys.argv) > 2

N = 512
TYPES = {  # name: (bytes, reg decl type, ld/st type, has ftz/sat, rn-only)
    "f32": (4, "f32", "f32", True),
    "f64": (8, "f64", "f64", False),
    "f16": (2, "b16", "b16", True),
    "f16x2": (4, "b32", "b32", True),
    "bf16": (2, "b16", "b16", False),
    "bf16x2": (4, "b32", "b32", False),
}

def cases(t, fs):
    """Each case: name -> list of body lines (a=%v1 b=%v2 c=%v3; results %v10, %v11)."""
    T = "." + t
    c = {
        "mul_add": [f"mul{T} %v4, %v1, %v2;", f"add{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
        "add_rev": [f"mul{T} %v4, %v1, %v2;", f"add{T} %v10, %v3, %v4;", "mov.b? %v11, %v10;"],
        "slot11": [f"mul{T} %v4, %v2, %v1;", f"add{T} %v10, %v1, %v4;", "mov.b? %v11, %v10;"],
        "sub_mr": [f"mul{T} %v4, %v1, %v2;", f"sub{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
        "sub_ml": [f"mul{T} %v4, %v1, %v2;", f"sub{T} %v10, %v3, %v4;", "mov.b? %v11, %v10;"],
        "multi_st": [f"mul{T} %v4, %v1, %v2;", f"add{T} %v10, %v4, %v3;", "mov.b? %v11, %v4;"],
        "multi_add": [f"mul{T} %v4, %v1, %v2;", f"add{T} %v10, %v4, %v3;", f"sub{T} %v11, %v4, %v1;"],
        "self_add": [f"mul{T} %v4, %v1, %v2;", f"add{T} %v10, %v4, %v4;", "mov.b? %v11, %v10;"],
        "mulrn_add": [f"mul.rn{T} %v4, %v1, %v2;", f"add{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
        "mul_addrn": [f"mul{T} %v4, %v1, %v2;", f"add.rn{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
        "mul_subrn": [f"mul{T} %v4, %v1, %v2;", f"sub.rn{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
        "chain": [f"mul{T} %v4, %v1, %v2;", f"add{T} %v5, %v4, %v3;", f"mul{T} %v6, %v5, %v1;",
                  f"add{T} %v10, %v6, %v2;", "mov.b? %v11, %v5;"],
        "mul_mul_add": [f"mul{T} %v4, %v1, %v2;", f"mul{T} %v5, %v4, %v3;", f"add{T} %v10, %v5, %v1;",
                        "mov.b? %v11, %v10;"],
        "neg_add": [f"mul{T} %v4, %v1, %v2;", f"neg{T} %v5, %v4;", f"add{T} %v10, %v5, %v3;", "mov.b? %v11, %v10;"],
        "add_add": [f"add{T} %v4, %v1, %v2;", f"add{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
        "xbb": [f"mul{T} %v4, %v1, %v2;", "@%p1 bra $L1;", f"add{T} %v10, %v4, %v3;", "bra.uni $L2;",
                "$L1:", f"sub{T} %v10, %v4, %v3;", "$L2:", "mov.b? %v11, %v10;"],
        "xbb_one": [f"mul{T} %v4, %v1, %v2;", "mov.b? %v10, %v4;", "@%p1 bra $L1;", f"add{T} %v10, %v4, %v3;",
                    "$L1:", "mov.b? %v11, %v10;"],
        "xbb_uni": [f"mul{T} %v4, %v1, %v2;", "@%p2 bra $L1;", f"add{T} %v10, %v4, %v3;", "$L1:",
                    "mov.b? %v11, %v10;"],
    }
    c["two_mul"] = [f"mul{T} %v4, %v1, %v2;", f"mul{T} %v5, %v3, %v1;", f"add{T} %v10, %v4, %v5;",
                    "mov.b? %v11, %v10;"]
    c["two_mul_sub"] = [f"mul{T} %v4, %v1, %v2;", f"mul{T} %v5, %v3, %v1;", f"sub{T} %v10, %v4, %v5;",
                        "mov.b? %v11, %v10;"]
    if EXTRA:  # the second run's cases (validation of the rule fitted on the first)
        c.update({
            "two_mul_rev": [f"mul{T} %v4, %v1, %v2;", f"mul{T} %v5, %v3, %v1;", f"add{T} %v10, %v5, %v4;",
                            "mov.b? %v11, %v10;"],
            "two_mul_rsub": [f"mul{T} %v4, %v1, %v2;", f"mul{T} %v5, %v3, %v1;", f"sub{T} %v10, %v5, %v4;",
                             "mov.b? %v11, %v10;"],
            "neg_sub_l": [f"mul{T} %v4, %v1, %v2;", f"neg{T} %v5, %v4;", f"sub{T} %v10, %v5, %v3;", "mov.b? %v11, %v10;"],
            "neg_sub_r": [f"mul{T} %v4, %v1, %v2;", f"neg{T} %v5, %v4;", f"sub{T} %v10, %v3, %v5;", "mov.b? %v11, %v10;"],
            "neg_two": [f"mul{T} %v4, %v1, %v2;", f"neg{T} %v5, %v4;", f"add{T} %v10, %v5, %v3;",
                        f"sub{T} %v11, %v5, %v1;"],
            "mov_add": [f"mul{T} %v4, %v1, %v2;", "mov.b? %v5, %v4;", f"add{T} %v10, %v5, %v3;", "mov.b? %v11, %v10;"],
            "guard_add": [f"mul{T} %v4, %v1, %v2;", "mov.b? %v10, %v1;", f"@%p1 add{T} %v10, %v4, %v3;",
                          "mov.b? %v11, %v10;"],
            "guard_both": ["mov.b? %v4, %v2;", "mov.b? %v10, %v1;", f"@%p1 mul{T} %v4, %v1, %v2;",
                           f"@%p1 add{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
            "far_add": [f"mul{T} %v4, %v1, %v2;", f"add{T} %v6, %v1, %v3;", f"sub{T} %v7, %v6, %v2;",
                        f"add{T} %v10, %v4, %v7;", "mov.b? %v11, %v6;"],
        })
        if fs:
            c["neg_ftz"] = [f"mul.ftz{T} %v4, %v1, %v2;", f"neg.ftz{T} %v5, %v4;", f"add.ftz{T} %v10, %v5, %v3;",
                            "mov.b? %v11, %v10;"]
            c["neg_mixftz"] = [f"mul.ftz{T} %v4, %v1, %v2;", f"neg{T} %v5, %v4;", f"add.ftz{T} %v10, %v5, %v3;",
                               "mov.b? %v11, %v10;"]
    if t in ("f32", "f64"):
        imm = "0f3FAAAAAB" if t == "f32" else "0d3FF5555555555555"
        c["mul_imm"] = [f"mul{T} %v4, %v1, {imm};", f"add{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"]
        c["add_imm"] = [f"mul{T} %v4, %v1, %v2;", f"add{T} %v10, %v4, {imm};", "mov.b? %v11, %v10;"]
    if fs:
        c.update({
            "ftz_ftz": [f"mul.ftz{T} %v4, %v1, %v2;", f"add.ftz{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
            "ftz_mul": [f"mul.ftz{T} %v4, %v1, %v2;", f"add{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
            "ftz_add": [f"mul{T} %v4, %v1, %v2;", f"add.ftz{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
            "sat_add": [f"mul{T} %v4, %v1, %v2;", f"add.sat{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
            "sat_mul": [f"mul.sat{T} %v4, %v1, %v2;", f"add{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
            "ftzsat": [f"mul.ftz{T} %v4, %v1, %v2;", f"add.ftz.sat{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
        })
    if t == "f32":
        c.update({
            "mul_addrz": [f"mul{T} %v4, %v1, %v2;", f"add.rz{T} %v10, %v4, %v3;", "mov.b? %v11, %v10;"],
        })
    return c

def kernel(name, t, body):
    size, rt, lt, _ = TYPES[t]
    bits = {2: "b16", 4: "b32", 8: "b64"}[size]
    lines = [
        f".visible .entry {name}(.param .u64 out, .param .u64 in)", "{",
        "\t.reg .pred %p<4>;", "\t.reg .b32 %r<8>;", "\t.reg .b64 %rd<8>;", f"\t.reg .{rt} %v<16>;",
        "\tld.param.u64 %rd1, [out];", "\tld.param.u64 %rd2, [in];",
        "\tcvta.to.global.u64 %rd1, %rd1;", "\tcvta.to.global.u64 %rd2, %rd2;",
        "\tmov.u32 %r1, %ctaid.x;", "\tmov.u32 %r2, %ntid.x;", "\tmov.u32 %r3, %tid.x;",
        "\tmad.lo.s32 %r4, %r1, %r2, %r3;",
        "\tand.b32 %r5, %r4, 1;", "\tsetp.eq.u32 %p1, %r5, 0;",
        "\tsetp.eq.u32 %p2, %r1, 7;",
        f"\tmul.wide.u32 %rd3, %r4, {3 * size};", "\tadd.s64 %rd4, %rd2, %rd3;",
        f"\tld.global.{lt} %v1, [%rd4];", f"\tld.global.{lt} %v2, [%rd4+{size}];",
        f"\tld.global.{lt} %v3, [%rd4+{2 * size}];",
        f"\tmul.wide.u32 %rd5, %r4, {size};", "\tadd.s64 %rd6, %rd1, %rd5;",
    ]
    for b in body:
        b = b.replace("mov.b?", "mov." + bits)
        lines.append(b if b.endswith(":") else "\t" + b)
    lines += [f"\tst.global.{lt} [%rd6], %v10;", f"\tst.global.{lt} [%rd6+{N * size}], %v11;", "\tret;", "}", ""]
    return "\n".join(lines)

def fbits(rng, t):
    """One operand: mostly moderate normal values of either sign; some edge values."""
    ebits, mbits, bias = {"f32": (8, 23, 127), "f64": (11, 52, 1023), "f16": (5, 10, 15), "bf16": (8, 7, 127)}[t]
    r = rng.random()
    s = rng.getrandbits(1)
    m = rng.getrandbits(mbits)
    if r < 0.80:
        e = bias + rng.randint(-3, 3)
    elif r < 0.88:
        e = rng.randint(1, 3)  # near the smallest normals: ftz and underflow
    elif r < 0.92:
        e = 0  # subnormal or zero
        if rng.random() < 0.3:
            m = 0
    elif r < 0.96:
        e = (1 << ebits) - 2 - rng.randint(0, 1)  # near the largest: overflow
    else:
        e = (1 << ebits) - 1  # inf or nan
        if rng.random() < 0.5:
            m = 0
    return (s << (ebits + mbits)) | (e << mbits) | m

def inputs(t, rng):
    out = bytearray()
    for _ in range(3 * N):
        if t in ("f16x2", "bf16x2"):
            e = t[:-2]
            out += struct.pack("<HH", fbits(rng, e), fbits(rng, e))
        elif t == "f64":
            out += struct.pack("<Q", fbits(rng, t))
        elif t == "f32":
            out += struct.pack("<I", fbits(rng, t))
        else:
            out += struct.pack("<H", fbits(rng, t))
    return bytes(out)

def main():
    od = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(od, exist_ok=True)
    rng = random.Random(int(sys.argv[2]) if EXTRA else 20261202)
    rows = []
    for t, (size, rt, lt, fs) in TYPES.items():
        src = [".version 8.0", ".target sm_90", ".address_size 64", ""]
        for cname, body in cases(t, fs).items():
            name = f"c_{t}_{cname}"
            src.append(kernel(name, t, body))
            rows.append(f"{name} {t} {cname}")
        with open(os.path.join(od, f"contract_{t}.ptx"), "w") as f:
            f.write("\n".join(src))
        with open(os.path.join(od, f"in_{t}.bin"), "wb") as f:
            f.write(inputs(t, rng))
    with open(os.path.join(od, "cases.txt"), "w") as f:
        f.write("\n".join(rows) + "\n")

main()
