package sim

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// The tensor memory accelerator's instructions in tile mode, with a tensor map of
// tensormap.go: cp.async.bulk.tensor (global -> shared completing on an mbarrier, shared
// -> global in a bulk group), cp.reduce.async.bulk.tensor and
// cp.async.bulk.prefetch.tensor. Like the other bulk copies (bulk.go) a copy is done
// when it is issued. The box is traversed innermost dimension first; element (i0..i4)
// of the box is tensor element c + i*elementStride, and lies at byte
// ((i4*n3 + i3)*n2 + i2)*n1 + i1)*n0 + i0 times the element size from the shared
// address, then swizzled (bits [4, 4+b) ^= bits [7, 7+b) of the shared address).
// Out-of-bounds elements are zero (or NaN with oob=nan) on loads and not written on
// stores and reductions; a load completes the whole box's bytes on the mbarrier.

// asTensor is the kAsync variant of the tensor instructions.
const asTensor = asBarPending + 1

// directions of a tensor instruction.
const (
	tmaLoad uint8 = iota
	tmaStore
	tmaReduce
	tmaPrefetch
)

// reduction operators of cp.reduce.async.bulk.tensor.
const (
	redAdd uint8 = iota
	redMin
	redMax
	redAnd
	redOr
	redXor
)

var redNames = [...]string{"add", "min", "max", "and", "or", "xor"}

// tmaOp is the tensor part of an asyncOp.
type tmaOp struct {
	dir, red uint8
	rank     int
	coords   [5]val
	tmap     addrSpec
	tmapSp   space
}

// tensorCopy lowers cp.async.bulk.tensor, cp.async.bulk.prefetch.tensor and
// cp.reduce.async.bulk.tensor.
func (fd *fnDecoder) tensorCopy(in *ptx.Inst) (op, error) {
	t := &tmaOp{}
	a := &asyncOp{dstReg: -1, tma: t}
	reduce := in.Mods[0] == "reduce"
	if reduce {
		t.dir = tmaReduce
	}
	var spaces []space
	completeTx, group, prefetch := false, false, false
	for _, m := range in.Mods[1:] {
		switch m {
		case "async", "bulk", "tensor", "tile", "L2::cache_hint", "L2":
		case "prefetch":
			prefetch = true
		case "1d", "2d", "3d", "4d", "5d":
			t.rank = int(m[0] - '0')
		case "global":
			spaces = append(spaces, spGlobal)
		case "shared::cluster", "shared::cta", "shared":
			spaces = append(spaces, spShared)
		case "mbarrier::complete_tx::bytes":
			completeTx = true
		case "bulk_group":
			group = true
		case "add", "min", "max", "and", "or", "xor":
			if !reduce {
				return op{}, fmt.Errorf("modifier .%s belongs to cp.reduce.async.bulk.tensor", m)
			}
			for i, n := range redNames {
				if n == m {
					t.red = uint8(i)
				}
			}
		case "inc", "dec":
			return op{}, fmt.Errorf("cp.reduce.async.bulk.tensor .%s is not modelled (add, min, max, and, or, xor are)", m)
		case "multicast::cluster":
			return op{}, errors.New("cp.async.bulk.tensor .multicast::cluster is not modelled (clusters are not simulated)")
		default:
			if strings.HasPrefix(m, "im2col") {
				return op{}, fmt.Errorf("cp.async.bulk.tensor .%s mode is not modelled (tile mode only; tensor maps are tiled)", m)
			}
			return op{}, fmt.Errorf("cp.async.bulk.tensor modifier .%s is not modelled (tile mode loads, stores, reductions and prefetches are)", m)
		}
	}
	if t.rank == 0 {
		return op{}, errors.New("a tensor copy needs its dimension (.1d to .5d)")
	}
	mapArg := 0
	switch {
	case prefetch:
		t.dir = tmaPrefetch
		if len(in.Args) < 1 {
			return op{}, errors.New("cp.async.bulk.prefetch.tensor takes [tensorMap, {coordinates}]")
		}
	case reduce || len(spaces) == 2 && spaces[0] == spGlobal && spaces[1] == spShared:
		if !reduce {
			t.dir = tmaStore
		}
		if !group || completeTx {
			return op{}, errors.New("a shared-to-global tensor copy completes in a bulk group (.bulk_group)")
		}
		if len(in.Args) < 2 {
			return op{}, errors.New("a shared-to-global tensor copy takes [tensorMap, {coordinates}], [srcMem]")
		}
		var err error
		if a.src, a.srcSp, err = fd.address(in.Args[1], spShared); err != nil {
			return op{}, err
		}
	case len(spaces) == 2 && spaces[0] == spShared && spaces[1] == spGlobal:
		if !completeTx {
			return op{}, errors.New("a global-to-shared tensor copy completes on an mbarrier (.mbarrier::complete_tx::bytes)")
		}
		if len(in.Args) < 3 {
			return op{}, errors.New("a global-to-shared tensor copy takes [dstMem], [tensorMap, {coordinates}], [mbar]")
		}
		var err error
		if a.dst, a.dstSp, err = fd.address(in.Args[0], spShared); err != nil {
			return op{}, err
		}
		if a.bar, a.barSp, err = fd.address(in.Args[2], spShared); err != nil {
			return op{}, err
		}
		a.hasBar = true
		mapArg = 1
	default:
		return op{}, errors.New("expected .shared::cluster.global (load) or .global.shared::cta (store) spaces")
	}
	mo := in.Args[mapArg]
	if mo.Kind != ptx.OpAddr || len(mo.Elems) != 1 || mo.Elems[0].Kind != ptx.OpVec {
		return op{}, errors.New("expected [tensorMap, {coordinates}]")
	}
	cs := mo.Elems[0].Elems
	if len(cs) != t.rank {
		return op{}, fmt.Errorf("a .%dd tensor copy takes %d coordinates, %d given", t.rank, t.rank, len(cs))
	}
	for i, c := range cs {
		var err error
		if t.coords[i], err = fd.value(c, ptx.S32); err != nil {
			return op{}, err
		}
	}
	var err error
	if t.tmap, t.tmapSp, err = fd.address(ptx.Operand{Kind: ptx.OpAddr, Name: mo.Name, BaseReg: mo.BaseReg, Imm: mo.Imm}, spGeneric); err != nil {
		return op{}, err
	}
	return op{kind: kAsync, sub: asTensor, async: a}, nil
}

// readTensorMap decodes the map at address ma of space sp into m.
func (l *launcher) readTensorMap(w *warp, pc int32, lane int, ma uint64, sp space, m *tmap) error {
	switch sp {
	case spParamKernel, spGlobal, spConst, spLocal: // local: clang copies a by-value CUtensorMap parameter there
	default:
		return l.laneError(w, pc, lane, Trap, ma, fmt.Sprintf("tensor map in %s memory", spaceNames[sp]),
			"a tensor map must be a kernel parameter (const __grid_constant__ CUtensorMap) or in global or constant memory")
	}
	if sp == spParamKernel && ma+TensorMapBytes > uint64(len(l.prog.params)) {
		return l.laneError(w, pc, lane, Trap, ma, fmt.Sprintf("invalid tensor map at param offset %#x", ma),
			fmt.Sprintf("the kernel's %d bytes of parameters hold no 128-byte tensor map there", len(l.prog.params)))
	}
	var b [TensorMapBytes]byte
	for off := uint64(0); off < TensorMapBytes; off += 64 {
		s, err := l.bytesAt(w, pc, lane, sp, ma+off, 64, mem.Load)
		if err != nil {
			return err
		}
		copy(b[off:], s)
	}
	if err := decodeTensorMap(b[:], m); err != nil {
		return l.laneError(w, pc, lane, Trap, ma, fmt.Sprintf("invalid tensor map at %s", fmtAddr(sp, ma)), err.Error())
	}
	return nil
}

// tmaLane performs one lane's tensor instruction.
func (l *launcher) tmaLane(w *warp, o *op, pc int32, lane int, r []uint64, addrOf func(addrSpec, space, int) (uint64, space)) error {
	a := o.async
	t := a.tma
	ma, msp := addrOf(t.tmap, t.tmapSp, lane)
	if msp == spGlobal && ma < uint64(len(l.prog.params)) {
		if _, ok := l.heap.find(ma, 1); !ok {
			// nvcc passes a __grid_constant__ map as mov.b64 %rd, param: a parameter-space address
			msp = spParamKernel
		}
	}
	var m tmap
	if err := l.readTensorMap(w, pc, lane, ma, msp, &m); err != nil {
		return err
	}
	if int(m.rank) != t.rank {
		return l.laneError(w, pc, lane, Trap, ma, fmt.Sprintf("a .%dd tensor instruction with a %d-dimensional tensor map", t.rank, m.rank),
			"the instruction's dimension must be the tensor map's")
	}
	if t.dir == tmaPrefetch {
		return nil
	}
	var c [5]int64
	for d := 0; d < t.rank; d++ {
		c[d] = int64(int32(t.coords[d].get(r, lane)))
	}
	// Measured on the H200 (testdata/measured/tensor3, run_cases.txt): these trap with an
	// illegal instruction.
	if (c[0]*int64(m.es))%16 != 0 {
		return l.laneError(w, pc, lane, Trap, ma, fmt.Sprintf("tensor copy at innermost coordinate %d (%d bytes)", c[0], c[0]*int64(m.es)),
			"the innermost coordinate times the element size must be a multiple of 16 bytes (the H200 traps with an illegal instruction)")
	}
	if t.dir == tmaStore || t.dir == tmaReduce {
		for d := 0; d < t.rank; d++ {
			if c[d] < 0 {
				return l.laneError(w, pc, lane, Trap, ma, fmt.Sprintf("shared-to-global tensor copy at coordinate %d = %d", d, c[d]),
					"a store or reduction with a negative coordinate traps on the H200 (illegal instruction); boxes past the end are clipped")
			}
		}
	}
	var sh uint64
	var ssp space
	if t.dir == tmaLoad {
		sh, ssp = addrOf(a.dst, a.dstSp, lane)
	} else {
		sh, ssp = addrOf(a.src, a.srcSp, lane)
	}
	if ssp != spShared {
		return l.laneError(w, pc, lane, Trap, sh, "tensor copy with a shared operand outside shared memory", "the shared-memory operand must be an address in the block's shared memory")
	}
	n := m.boxBytes()
	foot := m.smemBytes()
	if sh%128 != 0 {
		return l.laneError(w, pc, lane, Misaligned, sh, fmt.Sprintf("tensor copy at shared offset %#x", sh), "the shared-memory address of a tensor copy must be a multiple of 128")
	}
	if sh+foot > uint64(len(w.blk.shared)) {
		return l.laneError(w, pc, lane, SharedOutOfRange, sh, fmt.Sprintf("tensor copy of a %d-byte box at shared offset %#x", foot, sh),
			fmt.Sprintf("the block has %d bytes of shared memory", len(w.blk.shared)))
	}
	if t.dir == tmaReduce {
		if err := m.checkReduce(t.red); err != nil {
			return l.laneError(w, pc, lane, Unsupported, ma, "cp.reduce.async.bulk.tensor."+redNames[t.red], err.Error())
		}
	}
	var cnt [5]uint64
	for d := 0; d < 5; d++ {
		cnt[d] = m.boxCount(d)
	}
	es := int(m.es)
	pitch, rowBytes := m.rowPitch(), cnt[0]*m.es
	var idx [5]uint64
	for e := uint64(0); e < n; e += m.es {
		in := true
		g := m.base
		for d := 0; d < int(m.rank); d++ {
			x := c[d] + int64(idx[d])
			if d > 0 {
				x = c[d] + int64(idx[d])*int64(m.estr[d])
			}
			if x < 0 || uint64(x) >= m.dims[d] {
				in = false
				break
			}
			g += uint64(x) * m.strides[d]
		}
		off := e/rowBytes*pitch + e%rowBytes
		s, err := l.bytesAt(w, pc, lane, spShared, m.swizzleAddr(sh+off), es, mem.Load)
		if err != nil {
			return err
		}
		switch {
		case t.dir == tmaLoad && in:
			src, err := l.bytesAt(w, pc, lane, spGlobal, g, es, mem.Load)
			if err != nil {
				return err
			}
			copy(s, src)
		case t.dir == tmaLoad:
			v := uint64(0)
			if m.oobNaN {
				v = m.nanBits()
			}
			storeLE(s, es, v)
		case in:
			dst, err := l.bytesAt(w, pc, lane, spGlobal, g, es, mem.Store)
			if err != nil {
				return err
			}
			if t.dir == tmaStore {
				copy(dst, s)
			} else {
				storeLE(dst, es, m.reduce(t.red, loadLE(dst, es), loadLE(s, es)))
			}
		}
		for d := 0; d < 5; d++ {
			if idx[d]++; idx[d] < cnt[d] {
				break
			}
			idx[d] = 0
		}
	}
	if t.dir != tmaLoad {
		l.recAsync(w, AsyncStore, 0, false, false, int64(n))
		return nil
	}
	if l.chk != nil {
		l.chk.asyncFill(sh, min((foot+127)&^127, uint64(len(w.blk.shared))-sh))
	}
	ba, bsp := addrOf(a.bar, a.barSp, lane)
	return l.mbCompleteTx(w, pc, lane, ba, bsp, n)
}

// checkReduce reports a reduction this model does not perform for the map's type.
func (t *tmap) checkReduce(red uint8) error {
	switch t.dtype {
	case 2, 3, 4, 5: // u32 i32 u64 i64
		return nil
	case 7:
		if red == redAdd {
			return nil
		}
	}
	name := "?"
	for k, x := range tmapTypes {
		if x.code == t.dtype {
			name = k
		}
	}
	return fmt.Errorf("a .%s reduction into a %s tensor is not modelled (integer u32/i32/u64/i64 maps: add, min, max, and, or, xor; f32: add)", redNames[red], name)
}

// reduce combines a global element g with a shared element s.
func (t *tmap) reduce(red uint8, g, s uint64) uint64 {
	signed := t.dtype == 3 || t.dtype == 5
	if t.dtype == 7 {
		return uint64(math.Float32bits(math.Float32frombits(uint32(g)) + math.Float32frombits(uint32(s))))
	}
	if t.es == 4 && signed {
		g, s = uint64(int64(int32(g))), uint64(int64(int32(s)))
	}
	less := g < s
	if signed {
		less = int64(g) < int64(s)
	}
	switch red {
	case redAdd:
		return g + s
	case redMin:
		if less {
			return g
		}
		return s
	case redMax:
		if less {
			return s
		}
		return g
	case redAnd:
		return g & s
	case redOr:
		return g | s
	}
	return g ^ s
}
