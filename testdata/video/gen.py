#!/usr/bin/env python3
"""Writes the video-instruction oracle: one PTX file per family (video_F.ptx, kernel
v_F(out, in)) whose variants each compute d from the thread's a, b, c (in[3i..3i+2],
u32) and store it at out[v*N + i]; variants.txt lists "family index instruction";
in.bin holds the N input triples (edge bytes and halves, small shift counts, random).
Run: python3 gen.py OUTDIR [INPUT_SEED]   (deterministic: seeded; INPUT_SEED draws the
inputs from a generator of their own, for a second set of inputs to the same kernels)."""
import os, random, struct, sys

N = 512
TY = ["u32", "s32"]
SSEL = ["", "b0", "b1", "b2", "b3", "h0", "h1"]
MASK4 = ["b0", "b1", "b10", "b2", "b20", "b21", "b210", "b3", "b30", "b31", "b310", "b32", "b320", "b321", "b3210"]
CMP = ["eq", "ne", "lt", "le", "gt", "ge"]

def sel(s):
    return "." + s if s else ""

def scalar(rng):
    out = []
    for op in ["vadd", "vsub", "vabsdiff", "vmin", "vmax"]:
        k = 0
        for d in TY:
            for a in TY:
                for b in TY:
                    for sat in ["", ".sat"]:
                        for sec in ["", "add", "min", "max", "b0", "b1", "b2", "b3", "h0", "h1"]:
                            asel, bsel = SSEL[k % 7], SSEL[(k * 3 + 1) % 7]
                            k += 1
                            ins = f"{op}.{d}.{a}.{b}{sat}"
                            if sec in ("add", "min", "max"):
                                out.append(f"{ins}.{sec} %r9, %r1{sel(asel)}, %r2{sel(bsel)}, %r3;")
                            elif sec:
                                out.append(f"{ins} %r9.{sec}, %r1{sel(asel)}, %r2{sel(bsel)}, %r3;")
                            else:
                                out.append(f"{ins} %r9, %r1{sel(asel)}, %r2{sel(bsel)};")
        for asel in SSEL:
            for bsel in SSEL:
                out.append(f"{op}.s32.s32.u32 %r9, %r1{sel(asel)}, %r2{sel(bsel)};")
    return out

def shift(rng):
    out = []
    k = 0
    for op in ["vshl", "vshr"]:
        for d in TY:
            for a in TY:
                for sat in ["", ".sat"]:
                    for mode in ["clamp", "wrap"]:
                        for sec in ["", "add", "min", "max", "b0", "b1", "b2", "b3", "h0", "h1"]:
                            asel, bsel = SSEL[k % 7], SSEL[(k * 5 + 2) % 7]
                            k += 1
                            ins = f"{op}.{d}.{a}.u32{sat}.{mode}"
                            if sec in ("add", "min", "max"):
                                out.append(f"{ins}.{sec} %r9, %r1{sel(asel)}, %r2{sel(bsel)}, %r3;")
                            elif sec:
                                out.append(f"{ins} %r9.{sec}, %r1{sel(asel)}, %r2{sel(bsel)}, %r3;")
                            else:
                                out.append(f"{ins} %r9, %r1{sel(asel)}, %r2{sel(bsel)};")
    return out

def vmad(rng):
    out = []
    k = 0
    for d in TY:
        for a in TY:
            for b in TY:
                for neg in ["", "a", "b", "c", "ab", "ac", "po"]:
                    for sat in ["", ".sat"]:
                        for scale in ["", ".shr7", ".shr15"]:
                            asel, bsel = SSEL[k % 7], SSEL[(k * 3 + 2) % 7]
                            k += 1
                            po = ".po" if neg == "po" else ""
                            na = "-" if "a" in neg else ""
                            nb = "-" if "b" in neg else ""
                            nc = "-" if "c" in neg and neg != "po" else ""
                            out.append(f"vmad.{d}.{a}.{b}{po}{sat}{scale} %r9, {na}%r1{sel(asel)}, {nb}%r2{sel(bsel)}, {nc}%r3;")
    return out

def vset(rng):
    out = []
    k = 0
    for a in TY:
        for b in TY:
            for cmp in CMP:
                for sec in ["", "add", "min", "max", "b0", "b1", "b2", "b3", "h0", "h1"]:
                    asel, bsel = SSEL[k % 7], SSEL[(k * 3 + 1) % 7]
                    k += 1
                    ins = f"vset.{a}.{b}.{cmp}"
                    if sec in ("add", "min", "max"):
                        out.append(f"{ins}.{sec} %r9, %r1{sel(asel)}, %r2{sel(bsel)}, %r3;")
                    elif sec:
                        out.append(f"{ins} %r9.{sec}, %r1{sel(asel)}, %r2{sel(bsel)}, %r3;")
                    else:
                        out.append(f"{ins} %r9, %r1{sel(asel)}, %r2{sel(bsel)};")
    return out

def hsel(rng):
    return "h" + str(rng.randint(0, 3)) + str(rng.randint(0, 3))

def bsel4(rng):
    return "b" + "".join(str(rng.randint(0, 7)) for _ in range(4))

def simd2(rng):
    out = []
    for op in ["vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"]:
        for d in TY:
            for a in TY:
                for b in TY:
                    for sec in ["", ".sat", ".add"]:
                        for mask in ["", "h0", "h1", "h10"]:
                            sa = "" if mask in ("", "h10") else hsel(rng)
                            sb = "" if mask in ("", "h10") else hsel(rng)
                            out.append(f"{op}.{d}.{a}.{b}{sec} %r9{sel(mask)}, %r1{sel(sa)}, %r2{sel(sb)}, %r3;")
        for _ in range(16):
            out.append(f"{op}.s32.u32.s32 %r9, %r1.{hsel(rng)}, %r2.{hsel(rng)}, %r3;")
    for a in TY:
        for b in TY:
            for cmp in CMP:
                for sec in ["", ".add"]:
                    for mask in ["", "h0", "h1"]:
                        out.append(f"vset2.{a}.{b}.{cmp}{sec} %r9{sel(mask)}, %r1.{hsel(rng)}, %r2{sel(hsel(rng) if mask else '')}, %r3;")
    return out

def simd4(rng):
    out = []
    for op in ["vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4"]:
        for d in TY:
            for a in TY:
                for b in TY:
                    for sec in ["", ".sat", ".add"]:
                        for j in range(3):
                            mask = "" if j == 0 else rng.choice(MASK4)
                            sa = "" if j == 0 else bsel4(rng)
                            sb = "" if j == 0 else bsel4(rng)
                            out.append(f"{op}.{d}.{a}.{b}{sec} %r9{sel(mask)}, %r1{sel(sa)}, %r2{sel(sb)}, %r3;")
        for m in MASK4:
            out.append(f"{op}.u32.s32.u32 %r9.{m}, %r1.{bsel4(rng)}, %r2.{bsel4(rng)}, %r3;")
    for a in TY:
        for b in TY:
            for cmp in CMP:
                for sec in ["", ".add"]:
                    for j in range(3):
                        mask = "" if j == 0 else rng.choice(MASK4)
                        out.append(f"vset4.{a}.{b}.{cmp}{sec} %r9{sel(mask)}, %r1.{bsel4(rng)}, %r2{sel(bsel4(rng) if j else '')}, %r3;")
    return out

FAMILIES = [("scalar", scalar), ("shift", shift), ("vmad", vmad), ("vset", vset), ("simd2", simd2), ("simd4", simd4)]

def kernel(fam, variants):
    lines = [".version 8.0", ".target sm_90", ".address_size 64", "",
             f".visible .entry v_{fam}(.param .u64 out, .param .u64 in)", "{",
             "\t.reg .b32 %r<16>;", "\t.reg .b64 %rd<8>;",
             "\tld.param.u64 %rd1, [out];", "\tld.param.u64 %rd2, [in];",
             "\tcvta.to.global.u64 %rd1, %rd1;", "\tcvta.to.global.u64 %rd2, %rd2;",
             "\tmov.u32 %r5, %ctaid.x;", "\tmov.u32 %r6, %ntid.x;", "\tmov.u32 %r7, %tid.x;",
             "\tmad.lo.s32 %r4, %r5, %r6, %r7;",
             "\tmul.wide.u32 %rd3, %r4, 12;", "\tadd.s64 %rd4, %rd2, %rd3;",
             "\tld.global.u32 %r1, [%rd4];", "\tld.global.u32 %r2, [%rd4+4];", "\tld.global.u32 %r3, [%rd4+8];",
             "\tmul.wide.u32 %rd5, %r4, 4;", "\tadd.s64 %rd6, %rd1, %rd5;"]
    for v, ins in enumerate(variants):
        # One line per variant, so that run_h200.sh can drop a line ptxas rejects.
        lines.append(f"\t{ins} st.global.u32 [%rd6+{v * N * 4}], %r9; // V{v}")
    lines += ["\tret;", "}", ""]
    return "\n".join(lines)

EDGE8 = [0x00, 0x01, 0x7F, 0x80, 0x81, 0xFE, 0xFF, 0x40, 0x3F, 0xC0]
EDGE16 = [0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF, 0x00FF, 0xFF00, 0x4000, 0xC000]
EDGE32 = [0, 1, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 0x00010000, 0x0000FFFF]

def word(rng, kind):
    if kind == 0:
        return sum(rng.choice(EDGE8) << (8 * i) for i in range(4))
    if kind == 1:
        return rng.choice(EDGE16) | rng.choice(EDGE16) << 16
    if kind == 2:
        return rng.choice(EDGE32)
    if kind == 3:  # small counts in every byte (shifts)
        return sum(rng.randint(0, 40) << (8 * i) for i in range(4))
    return rng.getrandbits(32)

def inputs(rng):
    out = bytearray()
    for i in range(N):
        ka = i % 5
        kb = (i // 5) % 5
        kc = (i // 25) % 5
        for k in (ka, kb, kc):
            out += struct.pack("<I", word(rng, k))
    return bytes(out)

def main():
    od = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(od, exist_ok=True)
    rng = random.Random(20261202)
    rows = []
    for fam, gen in FAMILIES:
        vs = gen(rng)
        with open(os.path.join(od, f"video_{fam}.ptx"), "w") as f:
            f.write(kernel(fam, vs))
        rows += [f"{fam} {v} {ins}" for v, ins in enumerate(vs)]
    with open(os.path.join(od, "variants.txt"), "w") as f:
        f.write("\n".join(rows) + "\n")
    if len(sys.argv) > 2:
        rng = random.Random(int(sys.argv[2]))
    with open(os.path.join(od, "in.bin"), "wb") as f:
        f.write(inputs(rng))

main()
