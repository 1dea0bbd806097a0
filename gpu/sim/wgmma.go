package sim

import (
	"errors"
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Warpgroup MMA (sm_90a): wgmma.fence, wgmma.mma_async, wgmma.commit_group and
// wgmma.wait_group. A warpgroup is 4 consecutive warps of the block (warps 4g..4g+3);
// warp q of it computes rows 16q..16q+15 of the m64 tile, which depend only on its
// own A rows and on all of B, so each warp's part is computed when the warp issues
// the instruction (the asynchronous completion the wait allows happens at once, and
// commit_group/wait_group are no-ops). Shared-memory operands are read through the
// matrix descriptor (PTX ISA "Matrix Descriptor Format", docs/tensor-cores.md).

// wgmmaOp is a decoded wgmma.mma_async.
type wgmmaOp struct {
	m              *arith.WGMMA
	d              []val   // accumulator sources (the D registers)
	dst            []int32 // the D registers
	dmask          []uint64
	a              []val // register A fragment (nil: A from a descriptor)
	descA, descB   val
	scaleD         val
	negA, negB     bool
	transA, transB bool // MN-major operands
}

func (fd *fnDecoder) wgmmaDecode(in *ptx.Inst) (op, error) {
	if len(in.Mods) == 0 {
		return op{}, errors.New("wgmma needs .fence, .mma_async, .commit_group or .wait_group")
	}
	if t := fd.d.m.Target; len(t) > 0 && t[0] != "sm_90a" {
		return op{}, fmt.Errorf("wgmma needs .target sm_90a, the module is for %s (ptxas rejects wgmma there; compile with --arch sm_90a)", t[0])
	}
	switch in.Mods[0] {
	case "fence", "commit_group":
		return op{kind: kNop}, nil
	case "wait_group":
		if len(in.Args) != 1 || in.Args[0].Kind != ptx.OpImm {
			return op{}, errors.New("wgmma.wait_group takes an immediate group count")
		}
		return op{kind: kNop}, nil // every wgmma is complete when issued
	case "mma_async":
	default:
		return op{}, fmt.Errorf("wgmma.%s is not defined", in.Mods[0])
	}
	m, err := arith.ParseWGMMA(in.Mods)
	if err != nil {
		return op{}, err
	}
	nimm := 2
	if m.Transposable() {
		nimm = 4
	}
	regA := len(in.Args) > 1 && in.Args[1].Kind == ptx.OpVec
	if regA && m.Transposable() {
		nimm-- // no imm-trans-a with A in registers
	}
	if len(in.Args) != 4+nimm {
		return op{}, fmt.Errorf("wgmma.mma_async takes d, a, b-desc, scale-d and %d immediates, got %d operands", nimm, len(in.Args))
	}
	g := &wgmmaOp{m: m}
	nd := m.DRegs()
	t := &tensorOp{}
	if err := fd.fragDsts(in.Args[0], nd, "the D fragment", t); err != nil {
		return op{}, err
	}
	g.dst, g.dmask = t.dst, t.dmask
	if g.d, err = fd.fragRegs(in.Args[0], nd, "the D fragment"); err != nil {
		return op{}, err
	}
	if regA && m.ElemBytes() == 1 {
		return op{}, errors.New("wgmma.mma_async with fp8 A in registers is not modelled (not measured): use an A descriptor")
	}
	if regA {
		if g.a, err = fd.fragRegs(in.Args[1], 4, "the A fragment"); err != nil {
			return op{}, err
		}
	} else if g.descA, err = fd.value(in.Args[1], ptx.B64); err != nil {
		return op{}, fmt.Errorf("the A descriptor: %w", err)
	}
	if g.descB, err = fd.value(in.Args[2], ptx.B64); err != nil {
		return op{}, fmt.Errorf("the B descriptor: %w", err)
	}
	if in.Args[3].Kind == ptx.OpImm {
		g.scaleD = val{reg: -1, imm: uint64(in.Args[3].Imm) & 1}
	} else if g.scaleD, err = fd.value(in.Args[3], ptx.Pred); err != nil {
		return op{}, fmt.Errorf("scale-d: %w", err)
	}
	imm := make([]int64, nimm)
	for i := range imm {
		o := in.Args[4+i]
		if o.Kind != ptx.OpImm {
			return op{}, fmt.Errorf("operand %d of wgmma.mma_async must be an immediate", 5+i)
		}
		imm[i] = o.Imm
	}
	for i, what := range []string{"imm-scale-a", "imm-scale-b"} {
		if imm[i] != 1 && imm[i] != -1 {
			return op{}, fmt.Errorf("%s must be 1 or -1, got %d", what, imm[i])
		}
	}
	g.negA, g.negB = imm[0] == -1, imm[1] == -1
	tr := imm[2:]
	for _, v := range tr {
		if v != 0 && v != 1 {
			return op{}, fmt.Errorf("imm-trans must be 0 or 1, got %d", v)
		}
	}
	switch {
	case len(tr) == 2:
		g.transA, g.transB = tr[0] == 1, tr[1] == 1
	case len(tr) == 1:
		g.transB = tr[0] == 1
	}
	return op{kind: kTensor, sub: tcWgmma, tc: &tensorOp{wg: g}}, nil
}

// smemDesc is a decoded shared-memory matrix descriptor.
type smemDesc struct {
	start, lbo, sbo uint64
	swz             int // 0 none, 1 128B, 2 64B, 3 32B (the descriptor's encoding)
}

func decodeDesc(x uint64) (smemDesc, uint64) {
	return smemDesc{start: (x & 0x3fff) << 4, lbo: (x >> 16 & 0x3fff) << 4, sbo: (x >> 32 & 0x3fff) << 4, swz: int(x >> 62)},
		x >> 49 & 7
}

var swizzleWidth = [4]uint64{16, 128, 64, 32}

// addr is the shared-memory byte address of element (mn, k) of an operand (eb bytes
// per element): the canonical layouts of the PTX ISA ("Shared Memory Matrix Layout")
// in units of 16-byte core-matrix rows, then the swizzle, which XORs address bits
// [4, 4+b) with bits [7, 7+b) (b = 3, 2, 1 for 128B, 64B, 32B).
func (d *smemDesc) addr(mn, k int, mnMajor bool, eb int) uint64 {
	t := 16 / eb
	w := int(swizzleWidth[d.swz])
	lbo, sbo := int(d.lbo), int(d.sbo)
	var off int
	switch {
	case !mnMajor && d.swz == 0:
		off = (mn%8)*16 + (mn/8)*sbo + (k/t)*lbo + (k%t)*eb
	case !mnMajor:
		off = (mn%8)*w + (mn/8)*sbo + k*eb
	case d.swz == 0:
		off = (mn%t)*eb + (mn/t)*sbo + (k%8)*16 + (k/8)*lbo
	default:
		off = (mn%(w/eb))*eb + (mn/(w/eb))*lbo + (k%8)*w + (k/8)*sbo
	}
	a := d.start + uint64(off)
	if d.swz != 0 {
		b := uint64(w/16 - 1)
		a ^= (a >> 7 & b) << 4
	}
	return a
}

// wgmmaExec runs one warp's part of a wgmma.mma_async.
func (l *launcher) wgmmaExec(w *warp, pc int32, t *tensorOp, r []uint64) error {
	g := t.wg
	m := g.m
	q := w.id % 4
	w.wgmmaN++
	w.wgmmaPC = pc
	if w.id-q+3 >= l.nwarps {
		return l.laneError(w, pc, 0, Unsupported, 0,
			fmt.Sprintf("%s in warp %d, whose warpgroup (warps %d-%d) is incomplete: the block has %d warps", l.prog.info[pc].text, w.id, w.id-q, w.id-q+3, l.nwarps),
			"wgmma is executed by a warpgroup of 4 warps: the block size must be a multiple of 128 threads")
	}
	eb := m.ElemBytes()
	var a [16 * 32]uint64
	var b [32 * arith.MaxWGMMAN]uint64
	var c, d [16 * arith.MaxWGMMAN]uint64
	n, k := m.N, m.K
	if g.a != nil {
		per := 32 / m.A.Bits()
		nb := uint(m.A.Bits())
		mk := uint64(1)<<nb - 1
		for lane := 0; lane < 32; lane++ {
			for ri := range g.a {
				v := g.a[ri].get(r, lane)
				for i := 0; i < per; i++ {
					row, col := m.ALoc(lane, ri*per+i)
					a[row*k+col] = v >> (uint(i) * nb) & mk
				}
			}
		}
	} else if err := l.wgmmaLoad(w, pc, r, g.descA, "A", 16, k, 16*q, g.transA, eb, a[:], func(mn, kk int) int { return mn*k + kk }); err != nil {
		return err
	}
	if err := l.wgmmaLoad(w, pc, r, g.descB, "B", n, k, 0, g.transB, eb, b[:], func(mn, kk int) int { return kk*n + mn }); err != nil {
		return err
	}
	per := m.D.PerReg()
	nb := uint(m.D.Bits())
	mk := uint64(1)<<nb - 1
	for lane := 0; lane < 32; lane++ {
		for ri := range g.d {
			v := g.d[ri].get(r, lane)
			for i := 0; i < per; i++ {
				row, col := arith.DLoc(lane, ri*per+i)
				c[row*n+col] = v >> (uint(i) * nb) & mk
			}
		}
	}
	noC := g.scaleD.get(r, 0)&1 == 0
	if g.scaleD.not {
		noC = !noC
	}
	m.Rows(a[:16*k], b[:k*n], c[:16*n], d[:16*n], g.negA, g.negB, noC)
	for lane := 0; lane < 32; lane++ {
		for ri, dr := range g.dst {
			if dr < 0 {
				continue
			}
			var v uint64
			for i := 0; i < per; i++ {
				row, col := arith.DLoc(lane, ri*per+i)
				v |= d[row*n+col] << (uint(i) * nb)
			}
			r[int(dr)*32+lane] = v & g.dmask[ri]
		}
	}
	return nil
}

// wgmmaLoad reads rows mn0..mn0+rows-1 (all K) of an operand through its descriptor.
func (l *launcher) wgmmaLoad(w *warp, pc int32, r []uint64, dv val, name string, rows, k, mn0 int, mnMajor bool, eb int, out []uint64, at func(mn, k int) int) error {
	x := dv.get(r, 0)
	desc, base := decodeDesc(x)
	if base != 0 {
		return l.laneError(w, pc, 0, Unsupported, 0,
			fmt.Sprintf("%s: the %s descriptor %#x has a matrix base offset of %d", l.prog.info[pc].text, name, x, base),
			"descriptors with a non-zero base offset (bits 49-51) are not modelled")
	}
	sh := w.blk.shared
	t := 16 / eb
	var chunks [32]uint64 // 16-byte rows read, handed to the checks 32 at a time
	nc := 0
	for i := 0; i < rows; i++ {
		for kk := 0; kk < k; kk++ {
			a := desc.addr(mn0+i, kk, mnMajor, eb)
			if l.chk != nil && ((!mnMajor && kk%t == 0) || (mnMajor && (mn0+i)%t == 0)) {
				chunks[nc] = a &^ 15
				if nc++; nc == 32 {
					l.chk.access(w, pc, ^uint32(0), &chunks, spShared, mem.Load, 16)
					nc = 0
				}
			}
			if a+uint64(eb) > uint64(len(sh)) {
				return l.laneError(w, pc, 0, SharedOutOfRange, a,
					fmt.Sprintf("%s: element (%d, %d) of %s at shared offset %#x (descriptor %#x)", l.prog.info[pc].text, mn0+i, kk, name, a, x),
					fmt.Sprintf("the block has %d bytes of shared memory", len(sh)))
			}
			var v uint64
			for j := eb - 1; j >= 0; j-- {
				v = v<<8 | uint64(sh[a+uint64(j)])
			}
			out[at(i, kk)] = v
		}
	}
	if nc > 0 {
		l.chk.access(w, pc, uint32(1)<<uint(nc)-1, &chunks, spShared, mem.Load, 16)
	}
	return nil
}

// wgmmaBlockEnd checks, when a block has finished, that the 4 warps of each warpgroup
// executed the same number of wgmma.mma_async (the instruction is .sync.aligned over
// the warpgroup), and resets the counts.
func (l *launcher) wgmmaBlockEnd(blk *block) error {
	ws := blk.warps
	var err error
	for g := 0; g+3 < len(ws) && err == nil; g += 4 {
		lo, hi := ws[g], ws[g]
		for _, w := range ws[g : g+4] {
			if w.wgmmaN < lo.wgmmaN {
				lo = w
			}
			if w.wgmmaN > hi.wgmmaN {
				hi = w
			}
		}
		if lo.wgmmaN != hi.wgmmaN {
			err = l.laneError(hi, hi.wgmmaPC, 0, Trap, 0,
				fmt.Sprintf("%s: warp %d executed %d wgmma.mma_async, warp %d of the same warpgroup %d", l.prog.info[hi.wgmmaPC].text, hi.id, hi.wgmmaN, lo.id, lo.wgmmaN),
				"all 4 warps of a warpgroup must execute each wgmma.mma_async together")
		}
	}
	for _, w := range ws {
		w.wgmmaN, w.wgmmaPC = 0, 0
	}
	return err
}
