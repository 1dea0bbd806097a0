package sim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// Hopper asynchronous copies: cp.async.bulk (global <-> shared, shared -> shared, no
// tensor map) and mbarrier. A bulk copy is performed when it is issued (its completion
// mechanism allows any later moment) and then completes its transaction bytes on the
// mbarrier at once. The mbarrier object is a 64-bit word in shared memory with this
// simulator's encoding (the hardware's is opaque): bits 0-19 the expected arrivals,
// 20-39 the pending arrivals, 40-60 the pending transaction bytes (signed), 63 the
// current phase's parity. A state token (mbarrier.arrive's result) holds the phase
// parity the thread arrived on (bit 63) and the arrivals pending after it (bits 0-19).

// variants of a kAsync op (op.sub).
const (
	asBulkCopy uint8 = iota
	asBarInit
	asBarInval
	asBarArrive
	asBarExpectTx
	asBarCompleteTx
	asBarWait
	asBarPending
)

// asyncOp is a decoded bulk copy or mbarrier instruction.
type asyncOp struct {
	dst, src   addrSpec // bulk copy
	dstSp      space
	srcSp      space
	size       val
	bar        addrSpec // the mbarrier (bulk copies with completion, mbarrier ops)
	barSp      space
	hasBar     bool
	count      val  // init count, arrive count, expect/complete tx bytes, wait state or parity
	hasCount   bool // arrive: an explicit count
	expectTx   bool // arrive.expect_tx: count is the tx bytes, one arrival
	drop       bool // arrive_drop
	parity     bool // wait: count is a phase parity, not a state
	txOperand  val  // arrive.expect_tx bytes
	dstReg     int32
	dstMask    uint64
	dstPred    bool
	waitFailed bool // test_wait never yields
	try        bool
	tma        *tmaOp // tensor copies (tma.go)
}

const (
	mbExpBits  = 20
	mbPendShft = 20
	mbTxShft   = 40
	mbTxBits   = 21
	mbPhase    = 63
	mbMax      = 1<<mbExpBits - 1
)

// mbarrier state fields.
type mbState struct {
	expected, pending int64
	tx                int64
	phase             uint64
}

func mbDecode(v uint64) mbState {
	tx := int64(v>>mbTxShft) & (1<<mbTxBits - 1)
	if tx >= 1<<(mbTxBits-1) {
		tx -= 1 << mbTxBits
	}
	return mbState{expected: int64(v & mbMax), pending: int64(v>>mbPendShft) & mbMax, tx: tx, phase: v >> mbPhase}
}

func (s mbState) encode() uint64 {
	return uint64(s.expected)&mbMax | (uint64(s.pending)&mbMax)<<mbPendShft |
		(uint64(s.tx)&(1<<mbTxBits-1))<<mbTxShft | s.phase<<mbPhase
}

// asyncState is the launch's record of mbarrier progress, for finding waits that can
// never complete (every live warp of the block waits with no mbarrier change since).
type asyncState struct {
	changes  uint64
	failedAt []uint64 // per warp: 1 + changes at its last failed wait, with the block in the high bits
	failedPC []int32  // per warp: where that wait was
	spinning []bool   // per warp: it failed twice in a row at the same wait with no change between
}

func (fd *fnDecoder) mbarrierOp(in *ptx.Inst) (op, error) {
	if len(in.Mods) == 0 {
		return op{}, errors.New("mbarrier needs an operation")
	}
	a := &asyncOp{barSp: spGeneric, dstReg: -1}
	for _, m := range in.Mods[1:] {
		switch m {
		case "shared", "shared::cta", "shared::cluster":
			a.barSp = spShared
		case "b64", "release", "acquire", "relaxed", "cta", "cluster":
		case "parity":
			a.parity = true
		case "expect_tx":
			a.expectTx = true
		case "noComplete":
		default:
			return op{}, fmt.Errorf("modifier .%s is not modelled for mbarrier", m)
		}
	}
	o := op{kind: kAsync, async: a}
	args := in.Args
	need := func(n int) error {
		if len(args) < n {
			return fmt.Errorf("mbarrier.%s needs %d operands", in.Mods[0], n)
		}
		return nil
	}
	bar := func(i int) error {
		var err error
		a.bar, a.barSp, err = fd.address(args[i], a.barSp)
		a.hasBar = true
		return err
	}
	var err error
	switch in.Mods[0] {
	case "init":
		o.sub = asBarInit
		if err = need(2); err == nil {
			if err = bar(0); err == nil {
				a.count, err = fd.value(args[1], ptx.U32)
			}
		}
	case "inval":
		o.sub = asBarInval
		if err = need(1); err == nil {
			err = bar(0)
		}
	case "arrive", "arrive_drop":
		o.sub = asBarArrive
		a.drop = in.Mods[0] == "arrive_drop"
		if err = need(2); err != nil {
			break
		}
		if args[0].Kind != ptx.OpSink {
			if a.dstReg, a.dstMask, err = fd.dstReg(args[0]); err != nil {
				break
			}
		}
		if err = bar(1); err != nil {
			break
		}
		if len(args) > 2 {
			if a.expectTx {
				a.txOperand, err = fd.value(args[2], ptx.U32)
			} else {
				a.count, err = fd.value(args[2], ptx.U32)
				a.hasCount = true
			}
		}
	case "expect_tx", "complete_tx":
		o.sub = asBarExpectTx
		if in.Mods[0] == "complete_tx" {
			o.sub = asBarCompleteTx
		}
		if err = need(2); err == nil {
			if err = bar(0); err == nil {
				a.count, err = fd.value(args[1], ptx.U32)
			}
		}
	case "test_wait", "try_wait":
		o.sub = asBarWait
		a.try = in.Mods[0] == "try_wait"
		if err = need(3); err != nil {
			break
		}
		if a.dstReg, a.dstMask, err = fd.dstReg(args[0]); err != nil {
			break
		}
		a.dstPred = true
		if err = bar(1); err != nil {
			break
		}
		a.count, err = fd.value(args[2], ptx.U64)
	case "pending_count":
		o.sub = asBarPending
		if err = need(2); err != nil {
			break
		}
		if a.dstReg, a.dstMask, err = fd.dstReg(args[0]); err == nil {
			a.count, err = fd.value(args[1], ptx.U64)
		}
	default:
		return op{}, fmt.Errorf("mbarrier.%s is not modelled", in.Mods[0])
	}
	if err != nil {
		return op{}, err
	}
	return o, nil
}

// bulkCopy lowers cp.async.bulk (not .tensor): [dst], [src], size {, [mbar]}.
func (fd *fnDecoder) bulkCopy(in *ptx.Inst) (op, error) {
	if len(in.Mods) > 2 && (in.Mods[2] == "tensor" || len(in.Mods) > 3 && in.Mods[2] == "prefetch" && in.Mods[3] == "tensor") {
		return fd.tensorCopy(in)
	}
	a := &asyncOp{dstReg: -1}
	var spaces []space
	completeTx, group := false, false
	for _, m := range in.Mods[2:] {
		switch m {
		case "global":
			spaces = append(spaces, spGlobal)
		case "shared::cluster", "shared::cta", "shared":
			spaces = append(spaces, spShared)
		case "mbarrier::complete_tx::bytes":
			completeTx = true
		case "bulk_group":
			group = true
		case "commit_group", "wait_group", "read":
			return op{kind: kNop}, nil // the copies are complete when issued
		case "prefetch", "L2":
			return op{kind: kNop}, nil
		case "L2::cache_hint":
		default:
			return op{}, fmt.Errorf("cp.async.bulk modifier .%s is not modelled (supported: global<->shared and shared->shared copies with mbarrier::complete_tx::bytes or bulk_group)", m)
		}
	}
	if len(spaces) != 2 || spaces[0] == spGlobal && spaces[1] == spGlobal || completeTx == group {
		return op{}, errors.New("expected .dst.src spaces and one completion mechanism")
	}
	if spaces[1] == spShared && spaces[0] == spShared && !completeTx || spaces[0] == spGlobal && completeTx {
		return op{}, errors.New("this direction and completion mechanism do not go together")
	}
	if len(in.Args) < 3 {
		return op{}, errors.New("cp.async.bulk takes [dst], [src], size")
	}
	var err error
	if a.dst, a.dstSp, err = fd.address(in.Args[0], spaces[0]); err != nil {
		return op{}, err
	}
	if a.src, a.srcSp, err = fd.address(in.Args[1], spaces[1]); err != nil {
		return op{}, err
	}
	if a.size, err = fd.value(in.Args[2], ptx.U32); err != nil {
		return op{}, err
	}
	if completeTx {
		if len(in.Args) < 4 {
			return op{}, errors.New("cp.async.bulk with mbarrier::complete_tx::bytes needs the mbarrier operand")
		}
		if a.bar, a.barSp, err = fd.address(in.Args[3], spShared); err != nil {
			return op{}, err
		}
		a.hasBar = true
	}
	return op{kind: kAsync, sub: asBulkCopy, async: a}, nil
}

// asyncExec runs a kAsync op lane by lane in lane order. yield reports a failed
// mbarrier wait: the warp's turn ends so that the others can arrive.
func (l *launcher) asyncExec(w *warp, o *op, pc int32, exec uint32, r []uint64) (yield bool, err error) {
	a := o.async
	addrOf := func(s addrSpec, sp space, lane int) (uint64, space) {
		v := s.imm
		if s.reg >= 0 {
			v += r[int(s.reg)*32+lane]
		}
		if sp == spGeneric {
			sp, v = classify(v)
		}
		return v, sp
	}
	failed := uint32(0)
	for m := exec; m != 0; m &= m - 1 {
		lane := firstLane(m)
		if o.sub == asBulkCopy {
			if err := l.bulkCopyLane(w, o, pc, lane, r, addrOf); err != nil {
				return false, err
			}
			continue
		}
		if o.sub == asTensor {
			if err := l.tmaLane(w, o, pc, lane, r, addrOf); err != nil {
				return false, err
			}
			continue
		}
		if o.sub == asBarPending {
			r[int(a.dstReg)*32+lane] = a.count.get(r, lane) & mbMax & a.dstMask
			continue
		}
		ba, sp := addrOf(a.bar, a.barSp, lane)
		if sp != spShared {
			return false, l.laneError(w, pc, lane, Unsupported, ba, "mbarrier not in shared memory", "an mbarrier object must be in the block's shared memory")
		}
		b, err := l.bytesAt(w, pc, lane, spShared, ba, 8, mem.Atomic)
		if err != nil {
			return false, err
		}
		st := mbDecode(binary.LittleEndian.Uint64(b))
		if o.sub != asBarInit && o.sub != asBarInval && o.sub != asBarWait && st.expected == 0 {
			return false, l.laneError(w, pc, lane, Trap, ba, "mbarrier used before mbarrier.init", mbWhere(ba)+" has not been initialised")
		}
		changed, ph0 := true, st.phase
		switch o.sub {
		case asBarInit:
			n := int64(a.count.get(r, lane) & 0xffffffff)
			if n < 1 || n > mbMax {
				return false, l.laneError(w, pc, lane, Trap, ba, fmt.Sprintf("mbarrier.init with count %d", n), "the expected arrival count must be 1 to 2^20-1")
			}
			st = mbState{expected: n, pending: n}
		case asBarInval:
			st = mbState{}
		case asBarArrive:
			n := int64(1)
			if a.hasCount {
				n = int64(a.count.get(r, lane) & 0xffffffff)
			}
			if a.expectTx {
				st.tx += int64(a.txOperand.get(r, lane) & 0xffffffff)
			}
			if n > st.pending {
				return false, l.laneError(w, pc, lane, Trap, ba, fmt.Sprintf("mbarrier.arrive of %d with %d arrivals pending", n, st.pending),
					mbWhere(ba)+" would receive more arrivals than its phase expects")
			}
			token := st.phase<<mbPhase | uint64(st.pending-n)
			st.pending -= n
			if a.drop {
				st.expected -= n
			}
			st.complete()
			if a.dstReg >= 0 {
				r[int(a.dstReg)*32+lane] = token & a.dstMask
			}
		case asBarExpectTx:
			st.tx += int64(a.count.get(r, lane) & 0xffffffff)
		case asBarCompleteTx:
			st.tx -= int64(a.count.get(r, lane) & 0xffffffff)
			st.complete()
		case asBarWait:
			changed = false
			p := a.count.get(r, lane) >> mbPhase & 1
			if a.parity {
				p = a.count.get(r, lane) & 1
			}
			done := st.phase != p
			if !done {
				failed |= 1 << uint(lane)
				l.recAsync(w, AsyncFail, ba, true, false, 0)
			} else {
				l.recAsync(w, AsyncWait, ba, true, false, 0)
			}
			if a.dstReg >= 0 {
				r[int(a.dstReg)*32+lane] = b2u(done)
			}
		}
		if changed {
			binary.LittleEndian.PutUint64(b, st.encode())
			l.asyncChanged()
			switch o.sub {
			case asBarInit:
				l.recAsync(w, AsyncArrive, ba, true, false, -1)
			case asBarArrive, asBarExpectTx, asBarCompleteTx:
				l.recAsync(w, AsyncArrive, ba, true, st.phase != ph0, 0)
			}
		}
	}
	if failed != 0 {
		return true, l.waitStuck(w, pc, firstLane(failed), o, r)
	}
	return false, nil
}

// mbWhere names an mbarrier in messages.
func mbWhere(ba uint64) string { return fmt.Sprintf("the mbarrier at shared offset %#x", ba) }

// complete ends the phase when no arrival and no transaction byte is pending.
func (s *mbState) complete() {
	if s.pending == 0 && s.tx == 0 {
		s.phase ^= 1
		s.pending = s.expected
	}
}

func (l *launcher) asyncChanged() {
	if l.async == nil {
		l.async = &asyncState{}
	}
	l.async.changes++
}

// waitStuck records a failed mbarrier wait of w and reports a deadlock when every
// live warp of the block waits (at an mbarrier or a barrier) with no mbarrier
// having changed since its last failed wait.
func (l *launcher) waitStuck(w *warp, pc int32, lane int, o *op, r []uint64) error {
	if l.async == nil {
		l.async = &asyncState{}
	}
	s := l.async
	warps, lin := l.waitScope(w) // the block's warps, or its co-scheduled group's (cluster.go)
	if len(s.failedAt) < len(warps) {
		s.failedAt = make([]uint64, len(warps))
		s.failedPC = make([]int32, len(warps))
		s.spinning = make([]bool, len(warps))
	}
	mark := uint64(lin)<<40 | (s.changes+1)&(1<<40-1)
	s.spinning[w.gid] = s.failedAt[w.gid] == mark && s.failedPC[w.gid] == pc
	s.failedAt[w.gid], s.failedPC[w.gid] = mark, pc
	if !s.spinning[w.gid] {
		return nil
	}
	var waiting []string
	for _, x := range warps {
		if x.done || x.waiting {
			continue
		}
		if s.failedAt[x.gid] != mark || !s.spinning[x.gid] {
			return nil
		}
		waiting = append(waiting, fmt.Sprint(x.id))
	}
	a := o.async
	ba := a.bar.imm
	if a.bar.reg >= 0 {
		ba += r[int(a.bar.reg)*32+lane]
	}
	if a.barSp == spGeneric {
		_, ba = classify(ba)
	}
	cause := "no other thread of the block can arrive on it or complete its transaction bytes"
	if ba+8 <= uint64(len(w.blk.shared)) {
		st := mbDecode(binary.LittleEndian.Uint64(w.blk.shared[ba:]))
		cause = fmt.Sprintf("it has %d of %d arrivals and %d transaction bytes pending, and %s", st.pending, st.expected, st.tx, cause)
	}
	e := l.laneError(w, pc, lane, Deadlock, ba,
		fmt.Sprintf("mbarrier wait that can never complete (warps %s wait on the mbarrier at shared offset %#x)", strings.Join(waiting, ", "), ba), cause)
	return e
}

// bulkCopyLane performs one lane's cp.async.bulk.
func (l *launcher) bulkCopyLane(w *warp, o *op, pc int32, lane int, r []uint64, addrOf func(addrSpec, space, int) (uint64, space)) error {
	a := o.async
	dst, dsp := addrOf(a.dst, a.dstSp, lane)
	src, ssp := addrOf(a.src, a.srcSp, lane)
	n := a.size.get(r, lane) & 0xffffffff
	if n%16 != 0 || dst%16 != 0 || src%16 != 0 {
		return l.laneError(w, pc, lane, Misaligned, dst, fmt.Sprintf("cp.async.bulk of %d bytes from %#x to %#x", n, src, dst),
			"the size and both addresses must be multiples of 16")
	}
	for off := uint64(0); off < n; off += 16 {
		s, err := l.bytesAt(w, pc, lane, ssp, src+off, 16, mem.Load)
		if err != nil {
			return err
		}
		d, err := l.bytesAt(w, pc, lane, dsp, dst+off, 16, mem.Store)
		if err != nil {
			return err
		}
		copy(d, s)
	}
	if dsp == spShared && l.chk != nil {
		l.sharedFill(w, dst, n) // the block's checker, or the cluster block's whose shared memory dst names (cluster.go)
	}
	if !a.hasBar {
		l.recAsync(w, AsyncStore, 0, false, false, int64(n))
		return nil
	}
	ba, bsp := addrOf(a.bar, a.barSp, lane)
	return l.mbCompleteTx(w, pc, lane, ba, bsp, n)
}

// mbCompleteTx completes n transaction bytes of a copy on the mbarrier at ba.
func (l *launcher) mbCompleteTx(w *warp, pc int32, lane int, ba uint64, bsp space, n uint64) error {
	if bsp != spShared {
		return l.laneError(w, pc, lane, Unsupported, ba, "mbarrier not in shared memory", "an mbarrier object must be in the block's shared memory")
	}
	b, err := l.bytesAt(w, pc, lane, spShared, ba, 8, mem.Atomic)
	if err != nil {
		return err
	}
	st := mbDecode(binary.LittleEndian.Uint64(b))
	if st.expected == 0 {
		return l.laneError(w, pc, lane, Trap, ba, "cp.async.bulk completes on an mbarrier that was not initialised",
			fmt.Sprintf("the mbarrier at shared offset %#x has not been initialised", ba))
	}
	ph0 := st.phase
	st.tx -= int64(n)
	st.complete()
	binary.LittleEndian.PutUint64(b, st.encode())
	l.asyncChanged()
	l.recAsync(w, AsyncLoad, ba, true, st.phase != ph0, int64(n))
	return nil
}

// asyncFill marks shared bytes written by a bulk copy as initialised for initcheck.
// The copy is ordered with its readers by the mbarrier, which racecheck does not
// model, so it is recorded with no writer (racecheck does not see bulk copies).
func (k *checker) asyncFill(off, n uint64) {
	k.flush()
	for wi := off >> 2; wi < (off+n+3)>>2 && wi < uint64(len(k.sh)); wi++ {
		e := &k.sh[wi]
		if e.tag != k.tag {
			*e = sword{tag: k.tag}
		}
		k.setInit(e, 0xf)
		e.w = srec{}
	}
}

// AsyncKind is what an AsyncRec records.
type AsyncKind uint8

// The kinds of AsyncRec.
const (
	AsyncArrive AsyncKind = iota + 1 // arrivals, expect_tx or complete_tx on a phase of an mbarrier
	AsyncLoad                        // a bulk (tensor) copy into shared memory completing its bytes on a phase
	AsyncStore                       // a bulk (tensor) copy or reduction out of shared memory (bulk_group)
	AsyncWait                        // a successful test_wait/try_wait: the phase it waited for
	AsyncFail                        // a failed test_wait/try_wait (the warp retries)
)

// AsyncRec is an mbarrier or bulk-copy effect of one issued warp-instruction, for a
// timing model (Config.Async): the lanes of the warp's Issue at index Issue that had
// this effect on the same phase, merged.
type AsyncRec struct {
	Issue int32 // index into the warp's Issue stream of the block
	Kind  AsyncKind
	Bar   int32 // the mbarrier: its index in the block's mbarriers (in order of first use); -1: none, or another block's
	Phase int32 // the phase (counted from 0 per mbarrier) it contributed to or waited for; -1: a wait that needed none
	Bytes int64 // copies: bytes moved
	Count int32 // lanes merged into the record
	// Peer, when > 0, says the mbarrier is another block's of the cluster (Bar is then -1):
	// that block's cluster rank + 1, and PeerBar its index in that block's mbarriers
	Peer, PeerBar int32
}

// mbarRec counts the completed phases of one mbarrier of a block (timing records only).
type mbarRec struct {
	off    uint64 // shared offset
	phases int32  // phases completed since the launch began
	base   int32  // phases at its last mbarrier.init: waits for earlier phases need none
}

// mbarOf returns the block owning the mbarrier at shared(::cluster) address ba and its record there.
func (l *launcher) mbarOf(w *warp, ba uint64) (*block, int32) {
	b, off := w.blk, ba
	if ba >= 1<<clusterShift {
		rank := ba>>clusterShift - 1
		off = ba & (1<<clusterShift - 1)
		if cs := w.blk.clu; cs != nil && rank < uint64(len(cs.blocks)) {
			b = cs.blocks[rank]
		}
	}
	for i := range b.mbars {
		if b.mbars[i].off == off {
			return b, int32(i)
		}
	}
	b.mbars = append(b.mbars, mbarRec{off: off})
	return b, int32(len(b.mbars) - 1)
}

// recAsync records one lane's mbarrier or copy effect for the timing model. flipped
// says the operation completed the mbarrier's phase; wait is the waits' outcome.
func (l *launcher) recAsync(w *warp, kind AsyncKind, ba uint64, hasBar, flipped bool, bytes int64) {
	if l.cfg.Async == nil || len(w.issues) == 0 {
		return
	}
	bar, phase, peer, peerBar := int32(-1), int32(-1), int32(0), int32(0)
	if hasBar {
		b, i := l.mbarOf(w, ba)
		m := &b.mbars[i]
		switch kind {
		case AsyncWait:
			if phase = m.phases - 1; phase < m.base {
				phase = -1
			}
		case AsyncFail:
		default:
			if kind == AsyncArrive && bytes < 0 { // mbarrier.init
				m.base = m.phases
				return
			}
			phase = m.phases
		}
		if flipped {
			m.phases++
		}
		if b == w.blk {
			bar = i
		} else {
			peer, peerBar = int32(b.rank)+1, i
		}
	}
	if kind == AsyncFail {
		bar, phase, peer, peerBar = -1, -1, 0, 0
	}
	is := int32(len(w.issues) - 1)
	if n := len(w.async); n > 0 {
		if r := &w.async[n-1]; r.Issue == is && r.Kind == kind && r.Bar == bar && r.Phase == phase && r.Peer == peer && r.PeerBar == peerBar {
			r.Count++
			r.Bytes += max(bytes, 0)
			return
		}
	}
	w.async = append(w.async, AsyncRec{Issue: is, Kind: kind, Bar: bar, Phase: phase, Bytes: max(bytes, 0), Count: 1, Peer: peer, PeerBar: peerBar})
}

// asyncIssues hands a finished block's AsyncRec logs to Config.Async (cut: its issue
// streams were dropped, so are these).
func asyncIssues(cfg *Config, blk *block, cut bool) {
	if cfg.Async == nil {
		return
	}
	var recs [][]AsyncRec
	if !cut {
		recs = make([][]AsyncRec, len(blk.warps))
		for i, w := range blk.warps {
			recs[i] = w.async
		}
	}
	cfg.Async(blk.lin, recs)
}
