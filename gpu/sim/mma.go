package sim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Warp-level matrix instructions (tensor cores): mma.sync, ldmatrix, stmatrix,
// movmatrix and the wmma family. Each runs once per warp over all 32 lanes; the
// fragment layouts are the PTX ISA manual's (mma) and the H200's (wmma, measured:
// testdata/measured/tensor), the arithmetic is gpu/arith's MMA model.

// variants of a kTensor op (op.sub).
const (
	tcMMA uint8 = iota
	tcLdmatrix
	tcStmatrix
	tcMovmatrix
	tcWmmaLoad
	tcWmmaStore
	tcWmmaMMA
	tcWgmma // wgmma.mma_async (wgmma.go)
)

// tensorOp is the decoded form of a warp-level matrix instruction.
type tensorOp struct {
	mma        *arith.MMA
	d, a, b, c []val    // fragment registers (sources: registers or immediates)
	dst        []int32  // destination registers
	dmask      []uint64 // their width masks
	num        int      // ldmatrix/stmatrix: matrices (1, 2, 4)
	trans      bool
	stride     val // wmma: leading dimension in elements
	hasStride  bool
	wm         *wmmaFrag // wmma.load/store: the fragment
	wa, wb, wc *wmmaFrag // wmma.mma: operand fragments
	wg         *wgmmaOp  // wgmma.mma_async
}

// tensor lowers mma, ldmatrix, stmatrix, movmatrix and wmma.
func (fd *fnDecoder) tensor(in *ptx.Inst) (op, error) {
	switch in.Op {
	case "mma":
		return fd.mmaOp(in)
	case "ldmatrix", "stmatrix":
		return fd.ldstMatrix(in)
	case "movmatrix":
		return fd.movMatrix(in)
	case "mbarrier":
		return fd.mbarrierOp(in)
	case "wgmma":
		return fd.wgmmaDecode(in)
	}
	return fd.wmmaOp(in)
}

// fragRegs resolves a {r0, r1, ...} operand of n registers (a single register when n is 1).
func (fd *fnDecoder) fragRegs(o ptx.Operand, n int, what string) ([]val, error) {
	elems := []ptx.Operand{o}
	if o.Kind == ptx.OpVec {
		elems = o.Elems
	}
	if len(elems) != n {
		return nil, fmt.Errorf("%s needs %d registers, got %d", what, n, len(elems))
	}
	vs := make([]val, n)
	for i, e := range elems {
		if e.Kind != ptx.OpReg && e.Kind != ptx.OpImm && e.Kind != ptx.OpFloat {
			return nil, fmt.Errorf("%s element %d is not a register", what, i)
		}
		v, err := fd.value(e, ptx.B32)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		vs[i] = v
	}
	return vs, nil
}

// fragDsts resolves a destination fragment of n registers.
func (fd *fnDecoder) fragDsts(o ptx.Operand, n int, what string, t *tensorOp) error {
	elems := []ptx.Operand{o}
	if o.Kind == ptx.OpVec {
		elems = o.Elems
	}
	if len(elems) != n {
		return fmt.Errorf("%s needs %d registers, got %d", what, n, len(elems))
	}
	for _, e := range elems {
		r, m, err := fd.dstReg(e)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		t.dst = append(t.dst, r)
		t.dmask = append(t.dmask, m)
	}
	return nil
}

func (fd *fnDecoder) mmaOp(in *ptx.Inst) (op, error) {
	m, err := arith.ParseMMA(in.Mods)
	if err != nil {
		return op{}, err
	}
	if len(in.Args) != 4 {
		return op{}, errors.New("mma takes d, a, b, c")
	}
	na, nb, nc, nd := m.Regs()
	t := &tensorOp{mma: m}
	if err := fd.fragDsts(in.Args[0], nd, "the D fragment", t); err != nil {
		return op{}, err
	}
	if t.a, err = fd.fragRegs(in.Args[1], na, "the A fragment"); err != nil {
		return op{}, err
	}
	if t.b, err = fd.fragRegs(in.Args[2], nb, "the B fragment"); err != nil {
		return op{}, err
	}
	if t.c, err = fd.fragRegs(in.Args[3], nc, "the C fragment"); err != nil {
		return op{}, err
	}
	return op{kind: kTensor, sub: tcMMA, tc: t}, nil
}

func (fd *fnDecoder) ldstMatrix(in *ptx.Inst) (op, error) {
	t := &tensorOp{}
	sp := spGeneric
	shape := ""
	for _, m := range in.Mods {
		switch m {
		case "sync", "aligned", "b16":
		case "x1":
			t.num = 1
		case "x2":
			t.num = 2
		case "x4":
			t.num = 4
		case "trans":
			t.trans = true
		case "shared", "shared::cta":
			sp = spShared
		case "m8n8":
			shape = m
		default:
			return op{}, fmt.Errorf("modifier .%s is not modelled (supported: .m8n8 .x1/.x2/.x4 {.trans} .shared .b16)", m)
		}
	}
	if shape == "" || t.num == 0 {
		return op{}, errors.New("needs .m8n8 and .x1, .x2 or .x4")
	}
	if len(in.Args) != 2 {
		return op{}, errors.New("takes a fragment and an address")
	}
	o := op{kind: kTensor, tc: t, size: 16, vec: 1}
	var err error
	if in.Op == "ldmatrix" {
		o.sub = tcLdmatrix
		if err := fd.fragDsts(in.Args[0], t.num, "the destination", t); err != nil {
			return op{}, err
		}
		o.addr, o.space, err = fd.address(in.Args[1], sp)
	} else {
		o.sub = tcStmatrix
		if t.a, err = fd.fragRegs(in.Args[1], t.num, "the source"); err != nil {
			return op{}, err
		}
		o.addr, o.space, err = fd.address(in.Args[0], sp)
	}
	if err != nil {
		return op{}, err
	}
	return o, nil
}

func (fd *fnDecoder) movMatrix(in *ptx.Inst) (op, error) {
	if strings.Join(in.Mods, ".") != "sync.aligned.m8n8.trans.b16" {
		return op{}, errors.New("only movmatrix.sync.aligned.m8n8.trans.b16 is defined")
	}
	if len(in.Args) != 2 {
		return op{}, errors.New("takes d, a")
	}
	t := &tensorOp{}
	if err := fd.fragDsts(in.Args[0], 1, "the destination", t); err != nil {
		return op{}, err
	}
	var err error
	if t.a, err = fd.fragRegs(in.Args[1], 1, "the source"); err != nil {
		return op{}, err
	}
	return op{kind: kTensor, sub: tcMovmatrix, tc: t}, nil
}

// tensorExec runs a kTensor op for the warp.
func (l *launcher) tensorExec(w *warp, o *op, pc int32, exec uint32, r []uint64) error {
	if exec == 0 {
		return nil
	}
	if exec != ^uint32(0) {
		return l.laneError(w, pc, firstLane(exec), Unsupported, 0,
			fmt.Sprintf("%s with %d of 32 lanes active", l.prog.info[pc].text, bits.OnesCount32(exec)),
			"a .sync.aligned matrix instruction must be executed by all 32 threads of the warp together")
	}
	t := o.tc
	switch o.sub {
	case tcMMA:
		l.mmaExec(t, r)
	case tcLdmatrix, tcStmatrix:
		return l.ldstMatrixExec(w, o, pc, r)
	case tcMovmatrix:
		var res [32]uint64
		for lane := 0; lane < 32; lane++ {
			rr, cc := 2*(lane&3), lane>>2 // element (lane>>2, 2(lane&3)+h) of the transpose is M[rr+h][cc]
			lo := half16(t.a[0].get(r, rr*4+cc/2), cc&1)
			hi := half16(t.a[0].get(r, (rr+1)*4+cc/2), cc&1)
			res[lane] = lo | hi<<16
		}
		if d := t.dst[0]; d >= 0 {
			for lane := 0; lane < 32; lane++ {
				r[int(d)*32+lane] = res[lane] & t.dmask[0]
			}
		}
	case tcWmmaLoad, tcWmmaStore:
		return l.wmmaMem(w, o, pc, r)
	case tcWmmaMMA:
		l.wmmaExec(t, r)
	case tcWgmma:
		return l.wgmmaExec(w, pc, t, r)
	}
	return nil
}

// half16 is the h-th 16-bit half of a register value.
func half16(v uint64, h int) uint64 { return v >> (16 * uint(h)) & 0xffff }

// gather collects the elements of a fragment (regs of every lane) into x (row-major, cols wide).
func gather(regs []val, e arith.MMAElem, cols int, loc func(lane, i int) (int, int), r []uint64, x []uint64) {
	per, nb := e.PerReg(), e.Bits()
	mk := ^uint64(0)
	if nb < 64 {
		mk = 1<<uint(nb) - 1
	}
	for lane := 0; lane < 32; lane++ {
		for ri := range regs {
			v := regs[ri].get(r, lane)
			for i := 0; i < per; i++ {
				row, col := loc(lane, ri*per+i)
				x[row*cols+col] = v >> uint(i*nb) & mk
			}
		}
	}
}

// scatter writes the elements of x into the destination fragment registers.
func scatter(t *tensorOp, e arith.MMAElem, cols int, loc func(lane, i int) (int, int), r []uint64, x []uint64) {
	per, nb := e.PerReg(), e.Bits()
	var res [32 * 8]uint64
	n := len(t.dst)
	for lane := 0; lane < 32; lane++ {
		for ri := 0; ri < n; ri++ {
			var v uint64
			for i := 0; i < per; i++ {
				row, col := loc(lane, ri*per+i)
				v |= x[row*cols+col] << uint(i*nb)
			}
			res[lane*n+ri] = v
		}
	}
	for ri, d := range t.dst {
		if d < 0 {
			continue
		}
		for lane := 0; lane < 32; lane++ {
			r[int(d)*32+lane] = res[lane*n+ri] & t.dmask[ri]
		}
	}
}

func (l *launcher) mmaExec(t *tensorOp, r []uint64) {
	m := t.mma
	var a, b [arith.MaxMMA]uint64
	var c, d [16 * 16]uint64
	gather(t.a, m.A, m.K, m.ALoc, r, a[:])
	gather(t.b, m.B, m.N, m.BLoc, r, b[:])
	gather(t.c, m.C, m.N, m.CLoc, r, c[:])
	m.Compute(a[:m.M*m.K], b[:m.K*m.N], c[:m.M*m.N], d[:m.M*m.N])
	scatter(t, m.D, m.N, m.CLoc, r, d[:])
}

// ldstMatrixExec runs ldmatrix/stmatrix: lanes 8j..8j+7 give the addresses of the
// 8 rows (16 bytes each) of matrix j; lane i holds row i/4, columns 2(i%4) and
// 2(i%4)+1 of each matrix (of its transpose with .trans) in register j.
func (l *launcher) ldstMatrixExec(w *warp, o *op, pc int32, r []uint64) error {
	t := o.tc
	l.stats.MemoryInstructions++
	rows := 8 * t.num
	var addr [32]uint64
	var mask uint32
	for lane := 0; lane < rows; lane++ {
		a := o.addr.imm
		if o.addr.reg >= 0 {
			a += r[int(o.addr.reg)*32+lane]
		}
		sp := o.space
		if sp == spGeneric {
			var s space
			s, a = classify(a)
			if s != spShared {
				return l.laneError(w, pc, lane, Unsupported, a, "ldmatrix/stmatrix address is not in shared memory",
					"the row addresses of ldmatrix and stmatrix must point into the block's shared memory")
			}
		}
		addr[lane] = a
		mask |= 1 << uint(lane)
	}
	kind := mem.Load
	if o.sub == tcStmatrix {
		kind = mem.Store
	}
	var rowsData [32][]byte
	for lane := 0; lane < rows; lane++ {
		b, err := l.bytesAt(w, pc, lane, spShared, addr[lane], 16, kind)
		if err != nil {
			return err
		}
		rowsData[lane] = b
	}
	elem := func(j, row, col int) []byte { return rowsData[8*j+row][2*col : 2*col+2] }
	if o.sub == tcLdmatrix {
		var res [4][32]uint64
		for j := 0; j < t.num; j++ {
			for lane := 0; lane < 32; lane++ {
				var lo, hi []byte
				if t.trans {
					lo, hi = elem(j, 2*(lane&3), lane>>2), elem(j, 2*(lane&3)+1, lane>>2)
				} else {
					lo, hi = elem(j, lane>>2, 2*(lane&3)), elem(j, lane>>2, 2*(lane&3)+1)
				}
				res[j][lane] = uint64(binary.LittleEndian.Uint16(lo)) | uint64(binary.LittleEndian.Uint16(hi))<<16
			}
		}
		for j, d := range t.dst {
			if d < 0 {
				continue
			}
			for lane := 0; lane < 32; lane++ {
				r[int(d)*32+lane] = res[j][lane] & t.dmask[j]
			}
		}
	} else {
		for j := 0; j < t.num; j++ {
			for row := 0; row < 8; row++ {
				for col := 0; col < 8; col++ {
					// element (row, col) of the stored matrix: M[row][col], or M[col][row] with .trans
					mr, mc := row, col
					if t.trans {
						mr, mc = col, row
					}
					v := half16(t.a[j].get(r, mr*4+mc/2), mc&1)
					binary.LittleEndian.PutUint16(elem(j, row, col), uint16(v))
				}
			}
		}
	}
	l.record(w, o, pc, mask, &addr, spShared, kind, 16)
	return nil
}
