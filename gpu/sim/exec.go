package sim

import (
	"context"
	"fmt"
	"math/bits"
	"strings"
	"time"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// counter holds the per-op execution counts.
type counter struct {
	warp, thread, br, div int64
}

// barrier is the state of one named barrier of the running block.
type barrier struct {
	arrived  int
	expected int // explicit thread count; 0 = all non-exited threads of the block
	waiters  []*warp
	popc     uint32
	all      bool
	any      bool
}

// block is the state of one resident thread block: its shared memory,
// barriers and warps. Blocks run one at a time today; a timing model can keep
// several resident per SM and pick among their warps.
type block struct {
	lin    int    // linear block index
	idx    [3]int // %ctaid
	sm     int    // SM it runs on (%smid)
	shared []byte
	bars   [16]barrier
	warps  []*warp
	// exitedThreads of the block; barriers for all threads wait only for
	// the threads that have not exited (PTX ISA, exit).
	exitedThreads int
	clu           *clusterState // its cluster (cluster.go)
	rank          int           // %cluster_ctarank in its group's order
	gidx          int           // index in its co-scheduled group
	over          bool          // every warp is done
	mbars         []mbarRec     // its mbarriers' phase counts, for Config.Async (bulk.go)
}

// launcher runs the blocks of one launch.
type launcher struct {
	ctx             context.Context
	cfg             *Config
	prog            *program
	heap            *heap
	cnt             []counter
	stats           Stats
	budget          int64
	threads         int64 // thread-instructions so far
	predOn          int64
	grid            [3]int
	block           [3]int
	nthreads        int
	nwarps          int
	numSMs          int
	blk             *block // the block being run
	acc             mem.Access
	lastHit         *alloc
	tr              *tracer
	nblocks         int
	lastProgress    time.Time
	stdout          strings.Builder // device printf output
	stderr          strings.Builder // failed device asserts, as CUDA's driver prints them to stderr
	stdoutTruncated bool
	chk             *checker   // nil when no check is on
	par             *blockSlot // the block's slot in the parallel scheduler (parallel.go)
	doneBlocks      int        // blocks committed (progress)

	imm [4][32]uint64 // immediate sources splat over the lanes (immSources); imm[3] stays 0

	async *asyncState // mbarrier progress (bulk.go); nil until an mbarrier changes
	cl    *clusterCfg // the launch's clusters and groups (cluster.go)
	grp   *groupState // the slot's co-scheduled group; nil when blocks run alone

	driven bool // Config.Driver steps the warps (step.go)
}

// quantum is how many warp-instructions a warp runs before the scheduler
// checks the budget and the context and moves on to the next warp.
const quantum = 4096

// maxCallDepth bounds device-function recursion.
const maxCallDepth = 1024

// runWarp runs w until it waits at a barrier, finishes, or has issued n instructions.
func (l *launcher) runWarp(w *warp, n int) error {
	ops := l.prog.ops
	cnt := l.cnt
	if len(w.stack) == 0 {
		w.done = true
		return nil
	}
	pc, rpc, active := w.top()
	r := w.regs[w.regBase:]
	var threads, predOn int64
	tracing := w.traced && l.tr != nil && l.tr.on()
	logIssues := l.cfg.Issues != nil || l.driven
	defer func() {
		l.threads += threads
		l.predOn += predOn
	}()
	for issued := 0; issued < n; issued++ {
		if pc == rpc || active == 0 || pc < 0 {
			w.stack[len(w.stack)-1].pc = pc
			ok, err := l.settle(w)
			if err != nil {
				return err
			}
			if !ok {
				return nil
			}
			pc, rpc, active = w.top()
			r = w.regs[w.regBase:]
			issued--
			continue
		}
		if int(pc) >= len(ops) {
			return l.internal(w, pc, "pc out of range")
		}
		o := &ops[pc]
		exec := active
		if o.guard >= 0 {
			g := (*[32]uint64)(r[int(o.guard)*32:][:32])
			var pm uint32
			for m := active; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m) & 31
				pm |= uint32(g[lane]&1) << lane // no branch on the lane's predicate
			}
			if o.gneg {
				pm = active &^ pm
			}
			exec = pm
		}
		na := int64(bits.OnesCount32(active))
		c := &cnt[pc]
		c.warp++
		c.thread += na
		threads += na
		predOn += int64(bits.OnesCount32(exec))
		w.issued++
		if logIssues {
			w.issues = append(w.issues, Issue{PC: pc, Active: active})
		}
		if o.clock {
			l.refreshClock(w, r)
		}
		pc0, active0 := pc, active
		var event string
		if tracing {
			l.tr.begin()
		}

		switch o.kind {
		case kMovReg:
			d, s, dm := int(o.dst[0])*32, int(o.src[0].reg)*32, o.dmask[0]
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				r[d+lane] = r[s+lane] & dm
			}
			pc++
		case kMovImm:
			d, v := int(o.dst[0])*32, o.src[0].imm&o.dmask[0]
			for m := exec; m != 0; m &= m - 1 {
				r[d+bits.TrailingZeros32(m)] = v
			}
			pc++
		case kAddS32:
			d, dm, a, b := int(o.dst[0])*32, o.dmask[0], &o.src[0], &o.src[1]
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				r[d+lane] = uint64(uint32(a.get(r, lane)+b.get(r, lane))) & dm
			}
			pc++
		case kAddS64:
			d, dm, a, b := int(o.dst[0])*32, o.dmask[0], &o.src[0], &o.src[1]
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				r[d+lane] = (a.get(r, lane) + b.get(r, lane)) & dm
			}
			pc++
		case kMadLo32:
			d, dm, a, b, cc := int(o.dst[0])*32, o.dmask[0], &o.src[0], &o.src[1], &o.src[2]
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				r[d+lane] = uint64(uint32(a.get(r, lane)*b.get(r, lane)+cc.get(r, lane))) & dm
			}
			pc++
		case kMulWideU32:
			d, dm, a, b := int(o.dst[0])*32, o.dmask[0], &o.src[0], &o.src[1]
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				r[d+lane] = uint64(uint32(a.get(r, lane))) * uint64(uint32(b.get(r, lane))) & dm
			}
			pc++
		case kMulWideS32:
			d, dm, a, b := int(o.dst[0])*32, o.dmask[0], &o.src[0], &o.src[1]
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				r[d+lane] = uint64(int64(int32(a.get(r, lane)))*int64(int32(b.get(r, lane)))) & dm
			}
			pc++
		case kShl32:
			d, dm, a, b := int(o.dst[0])*32, o.dmask[0], &o.src[0], &o.src[1]
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				sh := uint32(b.get(r, lane))
				var v uint32
				if sh < 32 {
					v = uint32(a.get(r, lane)) << sh
				}
				r[d+lane] = uint64(v) & dm
			}
			pc++
		case kSetp32:
			d, a, b, cmp := int(o.dst[0])*32, &o.src[0], &o.src[1], o.sub
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				x, y := uint32(a.get(r, lane)), uint32(b.get(r, lane))
				var t bool
				switch cmp {
				case cmpEq:
					t = x == y
				case cmpNe:
					t = x != y
				case cmpLtS:
					t = int32(x) < int32(y)
				case cmpLeS:
					t = int32(x) <= int32(y)
				case cmpGtS:
					t = int32(x) > int32(y)
				case cmpGeS:
					t = int32(x) >= int32(y)
				case cmpLtU:
					t = x < y
				case cmpLeU:
					t = x <= y
				case cmpGtU:
					t = x > y
				case cmpGeU:
					t = x >= y
				}
				var v uint64
				if t {
					v = 1
				}
				r[d+lane] = v
			}
			pc++
		case kArith:
			ar, ns := o.ar, int(o.ns)
			d0, d1 := int(o.dst[0]), int(o.dst[1])
			two := o.nd > 1 && d1 >= 0
			if o.regSrcs && !two && d0 >= 0 {
				// All sources are plain registers: read them by lane directly.
				dm := o.dmask[0]
				dst := r[d0*32 : d0*32+32]
				s0 := r[int(o.src[0].reg)*32:][:32]
				s1, s2 := s0, s0
				if ns > 1 {
					s1 = r[int(o.src[1].reg)*32:][:32]
				}
				if ns > 2 {
					s2 = r[int(o.src[2].reg)*32:][:32]
				}
				ar.EvalRegs(exec, (*[32]uint64)(s0), (*[32]uint64)(s1), (*[32]uint64)(s2), &w.cc, (*[32]uint64)(dst), dm)
				pc++
				break
			}
			if !two && d0 >= 0 && ns <= 3 {
				// Registers and immediates (splat into imm), none negated.
				if s0, s1, s2, ok := immSources(o, r, &l.imm); ok {
					ar.EvalRegs(exec, s0, s1, s2, &w.cc, (*[32]uint64)(r[d0*32:d0*32+32]), o.dmask[0])
					pc++
					break
				}
			}
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				var s [4]uint64
				for i := 0; i < ns; i++ {
					v := &o.src[i]
					if v.reg >= 0 {
						x := r[int(v.reg)*32+lane]
						if v.not {
							x ^= 1
						}
						s[i] = x
					} else {
						s[i] = v.imm
					}
				}
				a, b := ar.Eval(&s, &w.cc[lane])
				if d0 >= 0 {
					r[d0*32+lane] = a & o.dmask[0]
				}
				if two {
					r[d1*32+lane] = b & o.dmask[1]
				}
			}
			pc++
		case kLdKParam:
			for e := 0; e < int(o.nd); e++ {
				d := int(o.dst[e])
				if d < 0 {
					continue
				}
				v := o.kvals[e] & o.dmask[e]
				for m := exec; m != 0; m &= m - 1 {
					r[d*32+bits.TrailingZeros32(m)] = v
				}
			}
			pc++
		case kLd, kSt, kAtom, kCpAsync:
			if exec != 0 {
				if err := l.memory(w, o, pc, exec, r); err != nil {
					return err
				}
			}
			pc++
		case kMovLocalSym, kMovParamSym:
			base := uint64(w.localBase)
			if o.kind == kMovParamSym {
				base = uint64(w.paramBase)
			}
			d, v := int(o.dst[0])*32, (o.src[0].imm+base)&o.dmask[0]
			for m := exec; m != 0; m &= m - 1 {
				r[d+bits.TrailingZeros32(m)] = v
			}
			pc++
		case kPack:
			d, sz := int(o.dst[0])*32, uint(o.size)*8
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				var v uint64
				for i := int(o.ns) - 1; i >= 0; i-- {
					v = v<<sz | o.src[i].get(r, lane)&widthMask(int(sz))
				}
				r[d+lane] = v & o.dmask[0]
			}
			pc++
		case kUnpack:
			sz := uint(o.size) * 8
			var tmp [32]uint64
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				tmp[lane] = o.src[0].get(r, lane)
			}
			for i := 0; i < int(o.nd); i++ {
				d := int(o.dst[i])
				if d < 0 {
					continue
				}
				for m := exec; m != 0; m &= m - 1 {
					lane := bits.TrailingZeros32(m)
					r[d*32+lane] = (tmp[lane] >> (sz * uint(i))) & widthMask(int(sz)) & o.dmask[i]
				}
			}
			pc++
		case kCvta:
			d := int(o.dst[0]) * 32
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				a := o.addr.imm
				if o.addr.reg >= 0 {
					a = r[int(o.addr.reg)*32+lane]
				}
				if o.addr.frame == 1 {
					a += uint64(w.localBase)
				}
				r[d+lane] = cvta(o.space, o.sub == 1, a) & o.dmask[0]
			}
			pc++
		case kIsspacep:
			d := int(o.dst[0]) * 32
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				sp, _ := classify(o.src[0].get(r, lane))
				r[d+lane] = b2u(sp == o.space)
			}
			pc++
		case kNop:
			pc++
		case kCreatePolicy:
			d := int(o.dst[0]) * 32
			for m := exec; m != 0; m &= m - 1 {
				r[d+bits.TrailingZeros32(m)] = 0
			}
			pc++
		case kBra:
			c.br++
			l.stats.Branches++
			notTaken := active &^ exec
			switch {
			case notTaken == 0:
				pc = o.target
			case exec == 0:
				pc++
			default:
				c.div++
				l.stats.DivergentBranches++
				event = "diverge"
				l.diverge(w, o.reconv, []int32{o.target, pc + 1}, []uint32{exec, notTaken})
				pc, rpc, active = w.top()
			}
		case kBrx:
			c.br++
			l.stats.Branches++
			var tgts [33]int32
			var masks [33]uint32
			ng := 0
			if rest := active &^ exec; rest != 0 {
				tgts[0], masks[0], ng = pc+1, rest, 1
			}
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				i := o.src[0].get(r, lane)
				if i >= uint64(len(o.targets)) {
					return l.laneError(w, pc, lane, Trap, 0, fmt.Sprintf("brx.idx index %d is out of range of its %d targets", i, len(o.targets)), "")
				}
				t := o.targets[i]
				k := 0
				for k < ng && tgts[k] != t {
					k++
				}
				if k == ng {
					tgts[k] = t
					ng++
				}
				masks[k] |= 1 << uint(lane)
			}
			if ng == 1 {
				pc = tgts[0]
			} else {
				c.div++
				l.stats.DivergentBranches++
				event = "diverge"
				// Push in reverse so the first group runs first.
				ts := make([]int32, 0, ng)
				ms := make([]uint32, 0, ng)
				for k := ng - 1; k >= 0; k-- {
					ts = append(ts, tgts[k])
					ms = append(ms, masks[k])
				}
				l.diverge(w, o.reconv, ts, ms)
				pc, rpc, active = w.top()
			}
		case kCall:
			if exec == 0 {
				pc++
				break
			}
			if o.call.builtin != builtinNone {
				if err := l.builtin(w, o, pc, exec); err != nil {
					return err
				}
				pc++
				break
			}
			callee := o.call.callee
			if o.call.indirect {
				var split bool
				var err error
				if callee, split, err = l.indirect(w, o, pc, active, exec, r); err != nil {
					return err
				}
				if split {
					c.div++
					event = "diverge"
					pc, rpc, active = w.top()
					break
				}
			}
			w.stack[len(w.stack)-1].pc = pc + 1
			if err := l.call(w, o, callee, pc, exec); err != nil {
				return err
			}
			event = "call"
			pc, rpc, active = w.top()
			r = w.regs[w.regBase:]
		case kRet, kExit:
			if exec == 0 {
				pc++
				break
			}
			w.stack[len(w.stack)-1].pc = pc + 1
			if o.kind == kExit || len(w.frames) == 0 {
				if l.chk != nil {
					l.chk.exit(w, pc, exec)
				}
				w.blk.exitedThreads += bits.OnesCount32(exec &^ w.exited)
				l.clusterExit(w, exec&^w.exited)
				w.exited |= exec
				w.removeLanes(0, exec)
				event = "exit"
				l.exitRelease(w.blk)
			} else {
				w.removeLanes(w.frames[len(w.frames)-1].base, exec)
				event = "return"
			}
			ok, err := l.settle(w)
			if err != nil {
				return err
			}
			if tracing {
				l.tr.step(l, w, pc0, o, active0, exec, event)
			}
			if !ok {
				return nil
			}
			pc, rpc, active = w.top()
			r = w.regs[w.regBase:]
			continue
		case kTrap:
			if exec == 0 {
				pc++
				break
			}
			return l.laneError(w, pc, firstLane(exec), Trap, 0, "trap instruction executed", l.cooperativeHint())
		case kBar:
			if exec == 0 {
				pc++
				break
			}
			pc++
			w.stack[len(w.stack)-1].pc = pc
			wait, err := l.barrier(w, o, pc0, exec, r)
			if err != nil {
				return err
			}
			if tracing {
				l.tr.step(l, w, pc0, o, active0, exec, "")
			}
			if wait {
				return nil
			}
			pc, rpc, active = w.top()
			continue
		case kShfl:
			bad := l.shfl(o, exec, r)
			if l.chk != nil && exec != 0 {
				l.syncCheck(w, pc, exec, &o.src[3], r, bad, "__shfl_sync")
			}
			pc++
		case kVote:
			l.vote(o, exec, r)
			if l.chk != nil && exec != 0 {
				l.syncCheck(w, pc, exec, &o.src[1], r, 0, "__vote_sync")
			}
			pc++
		case kMatch:
			l.match(o, exec, r)
			if l.chk != nil && exec != 0 {
				l.syncCheck(w, pc, exec, &o.src[1], r, 0, "__match_sync")
			}
			pc++
		case kRedux:
			l.redux(o, exec, r)
			if l.chk != nil && exec != 0 {
				l.syncCheck(w, pc, exec, &o.src[1], r, 0, "__reduce_sync")
			}
			pc++
		case kWarpSync:
			if l.chk != nil && exec != 0 {
				l.chk.warpSync(w, pc, exec, uint32(o.src[0].get(r, firstLane(exec))), 0, "__syncwarp()", true)
			}
			pc++
		case kActivemask:
			d := int(o.dst[0]) * 32
			for m := exec; m != 0; m &= m - 1 {
				r[d+bits.TrailingZeros32(m)] = uint64(active)
			}
			pc++
		case kElect:
			mm := uint32(o.src[0].get(r, firstLane(exec)))
			leader := firstLane(exec & mm)
			for m := exec; m != 0; m &= m - 1 {
				lane := bits.TrailingZeros32(m)
				if o.dst[0] >= 0 {
					r[int(o.dst[0])*32+lane] = uint64(leader)
				}
				if o.nd > 1 && o.dst[1] >= 0 {
					var v uint64
					if lane == leader && exec&mm != 0 {
						v = 1
					}
					r[int(o.dst[1])*32+lane] = v
				}
			}
			pc++
		case kTensor:
			if err := l.tensorExec(w, o, pc, exec, r); err != nil {
				return err
			}
			pc++
		case kAsync:
			yield, err := l.asyncExec(w, o, pc, exec, r)
			if err != nil {
				return err
			}
			pc++
			if yield {
				issued = n // a failed mbarrier wait ends the warp's turn: the others can arrive
			}
		case kCluster:
			wait, err := l.clusterExec(w, o, pc0, exec, r)
			if err != nil {
				return err
			}
			pc++
			if wait {
				w.stack[len(w.stack)-1].pc = pc
				if tracing {
					l.tr.step(l, w, pc0, o, active0, exec, "")
				}
				return nil
			}
		case kUnsupported:
			if exec == 0 {
				pc++
				break
			}
			return l.laneError(w, pc, firstLane(exec), Unsupported, 0, "unsupported instruction "+l.prog.info[pc].text, o.msg)
		default:
			return l.internal(w, pc, fmt.Sprintf("unknown op kind %d", o.kind))
		}
		if tracing {
			w.stack[len(w.stack)-1].pc = pc
			l.tr.step(l, w, pc0, o, active0, exec, event)
		}
	}
	w.stack[len(w.stack)-1].pc = pc
	return nil
}

// get reads a source operand for a lane.
func (v *val) get(r []uint64, lane int) uint64 {
	if v.reg >= 0 {
		return r[int(v.reg)*32+lane]
	}
	return v.imm
}

// cvta converts between a space's addresses and generic addresses.
func cvta(sp space, to bool, a uint64) uint64 {
	var win uint64
	switch sp {
	case spShared:
		win = sharedWin
	case spLocal:
		win = localWin
	case spConst:
		win = constWin
	case spParamKernel:
		win = paramWin
	default:
		return a
	}
	if to {
		return a - win
	}
	return a + win
}

// diverge splits the top entry: it becomes the reconvergence entry and one
// entry per path is pushed (the last pushed runs first).
func (l *launcher) diverge(w *warp, reconv int32, pcs []int32, masks []uint32) {
	t := &w.stack[len(w.stack)-1]
	switch {
	case reconv >= 0 && t.rpc == reconv && (len(w.frames) == 0 || len(w.stack)-1 > w.frames[len(w.frames)-1].base):
		// The top entry would only wait at reconv to pop into the entry
		// below, which already waits there for these lanes: drop it so
		// that loops with a divergent exit do not grow the stack.
		w.stack = w.stack[:len(w.stack)-1]
	case reconv < 0:
		t.pc = pcDead
	default:
		t.pc = reconv
	}
	rpc := reconv
	for i := range pcs {
		if pcs[i] == rpc {
			continue // these lanes are already at the reconvergence point: they wait below
		}
		w.stack = append(w.stack, entry{pc: pcs[i], rpc: rpc, mask: masks[i]})
	}
}

// settle pops finished entries (reached their reconvergence point, or no
// lanes left) and finished call frames. It reports false when the warp is done.
func (l *launcher) settle(w *warp) (bool, error) {
	for {
		if nf := len(w.frames); nf > 0 && len(w.stack) <= w.frames[nf-1].base {
			l.popFrame(w)
			continue
		}
		if len(w.stack) == 0 {
			w.done = true
			return false, nil
		}
		t := &w.stack[len(w.stack)-1]
		if t.mask == 0 || t.pc == t.rpc {
			w.stack = w.stack[:len(w.stack)-1]
			continue
		}
		if t.pc < 0 {
			return false, l.internal(w, t.pc, fmt.Sprintf("lanes %#x wait at a reconvergence point that is never reached", t.mask))
		}
		if t.park != 0 {
			l.parkWait(w)
			return false, nil
		}
		return true, nil
	}
}

// call enters a device function for the lanes in exec.
func (l *launcher) call(w *warp, o *op, callee *function, pc int32, exec uint32) error {
	if len(w.frames) >= maxCallDepth {
		return l.laneError(w, pc, firstLane(exec), Trap, 0, "call stack overflow", fmt.Sprintf("more than %d nested calls", maxCallDepth))
	}
	ci := o.call
	caller := w.fn
	if len(callee.params) != len(ci.args) || len(callee.rets) != len(ci.rets) {
		return l.laneError(w, pc, firstLane(exec), Trap, 0, "call to "+callee.f.Name+" with a mismatched signature",
			fmt.Sprintf("it takes %d parameters and %d returns", len(callee.params), len(callee.rets)))
	}
	for i, a := range ci.args {
		if a.size != callee.params[i].size {
			return l.laneError(w, pc, firstLane(exec), Trap, 0, "call to "+callee.f.Name+" with a mismatched signature",
				fmt.Sprintf("parameter %d is %d bytes, the call passes %d", i, callee.params[i].size, a.size))
		}
	}
	regBase := w.regBase + caller.nregs*32
	if need := regBase + callee.nregs*32; need > len(w.regs) {
		nr := make([]uint64, need+need/2)
		copy(nr, w.regs)
		w.regs = nr
	}
	nr := w.regs[regBase : regBase+callee.nregs*32]
	for i := range nr {
		nr[i] = 0
	}
	copy(nr, w.regs[w.regBase:w.regBase+nHidden*32])
	paramBase := w.paramBase + caller.paramSize
	localBase := w.localBase + caller.localSize
	cr := w.regs[w.regBase:]
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		w.params[lane] = grow(w.params[lane], paramBase+callee.paramSize)
		w.local[lane] = grow(w.local[lane], localBase+callee.localSize)
		pm := w.params[lane]
		for i := paramBase; i < paramBase+callee.paramSize; i++ {
			pm[i] = 0
		}
		for i, a := range ci.args {
			s := callee.params[i]
			var v uint64
			var src []byte
			if a.param {
				src = pm[w.paramBase+a.off : w.paramBase+a.off+s.size]
			} else {
				v = a.v.get(cr, lane)
			}
			if s.reg >= 0 {
				if src != nil {
					v = loadLE(src, min(s.size, 8))
				}
				nr[int(s.reg)*32+lane] = v & callee.regMask[s.reg]
				continue
			}
			dst := pm[paramBase+s.off : paramBase+s.off+s.size]
			if src != nil {
				copy(dst, src)
			} else {
				storeLE(dst, min(s.size, 8), v)
			}
		}
	}
	w.frames = append(w.frames, frame{fn: callee, caller: caller, base: len(w.stack), regBase: w.regBase,
		localBase: w.localBase, paramBase: w.paramBase, mask: exec, call: ci})
	w.stack = append(w.stack, entry{pc: callee.base, rpc: -1, mask: exec})
	w.fn, w.regBase, w.paramBase, w.localBase = callee, regBase, paramBase, localBase
	return nil
}

// indirect resolves the callee of an indirect call for the lanes in exec.
// When lanes call different functions the warp splits: one entry per
// callee re-executes the call, all reconverging after it (split true).
func (l *launcher) indirect(w *warp, o *op, pc int32, active, exec uint32, r []uint64) (*function, bool, error) {
	var fns [32]*function
	var masks [32]uint32
	n := 0
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		a := o.call.fnptr.get(r, lane)
		i := (a - funcBase) / funcStride
		if a < funcBase || (a-funcBase)%funcStride != 0 || i >= uint64(len(l.prog.fns)) || l.prog.fns[i].f.Entry {
			return nil, false, l.laneError(w, pc, lane, Trap, a, fmt.Sprintf("indirect call through %#x, which is not a device function", a), "")
		}
		f := l.prog.fns[i]
		k := 0
		for k < n && fns[k] != f {
			k++
		}
		if k == n {
			fns[k] = f
			n++
		}
		masks[k] |= 1 << uint(lane)
	}
	if n == 1 {
		return fns[0], false, nil
	}
	pcs := make([]int32, n)
	for k := range pcs {
		pcs[k] = pc
	}
	w.stack[len(w.stack)-1].pc = pc
	l.diverge(w, pc+1, pcs, masks[:n])
	return nil, true, nil
}

// popFrame returns from the innermost call: return values are copied to the
// caller for the lanes that made the call and have not exited.
func (l *launcher) popFrame(w *warp) {
	f := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	callee := f.fn
	cr := w.regs[f.regBase:]
	nr := w.regs[w.regBase:]
	for m := f.mask &^ w.exited; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		pm := w.params[lane]
		for i, a := range f.call.rets {
			s := callee.rets[i]
			var v uint64
			var src []byte
			if s.reg >= 0 {
				v = nr[int(s.reg)*32+lane]
			} else {
				src = pm[w.paramBase+s.off : w.paramBase+s.off+s.size]
				v = loadLE(src, min(s.size, 8))
			}
			if a.param {
				dst := pm[f.paramBase+a.off : f.paramBase+a.off+s.size]
				if src != nil {
					copy(dst, src)
				} else {
					storeLE(dst, min(s.size, 8), v)
				}
				continue
			}
			if a.v.reg >= 0 {
				cr[int(a.v.reg)*32+lane] = v & a.dmask
			}
		}
	}
	w.fn, w.regBase, w.paramBase, w.localBase = f.caller, f.regBase, f.paramBase, f.localBase
}

// refreshClock writes the clock and timer special registers of the current frame.
func (l *launcher) refreshClock(w *warp, r []uint64) {
	clk := uint64(l.threads/32+w.issued) * 2
	timer := uint64(1_700_000_000_000_000_000) + clk
	for lane := 0; lane < 32; lane++ {
		r[hClock*32+lane] = clk & 0xffffffff
		r[hClockHi*32+lane] = clk >> 32
		r[hClock64*32+lane] = clk
		r[hGtimer*32+lane] = timer
		r[hGtimerLo*32+lane] = timer & 0xffffffff
		r[hGtimerHi*32+lane] = timer >> 32
	}
}

// laneError builds an error for a lane of a warp at pc.
func (l *launcher) laneError(w *warp, pc int32, lane int, kind ErrorKind, addr uint64, msg, cause string) *Error {
	e := &Error{Kind: kind, Block: w.blk.idx, Thread: threadIndex(w.id, lane, l.block), Warps: []int{w.id},
		PC: -1, Addr: addr, Msg: msg, Cause: cause}
	if pc >= 0 && int(pc) < len(l.prog.info) {
		in := l.prog.info[pc]
		e.PC, e.PTXLine, e.Loc = int(pc), in.line, in.loc
	}
	return e
}

// internal reports a simulator bug as an error.
func (l *launcher) internal(w *warp, pc int32, msg string) *Error {
	return l.laneError(w, pc, 0, Internal, 0, "internal simulator error", msg)
}

// immSources returns the lanes of o's sources: registers in r, immediates
// splat into imm[0..2]; sources past o.ns read as zeros (imm[3], never
// written), as the lane-by-lane path passes them. ok is false when a source
// is negated: the caller then reads the sources lane by lane.
func immSources(o *op, r []uint64, imm *[4][32]uint64) (s0, s1, s2 *[32]uint64, ok bool) {
	var srcs [3]*[32]uint64
	for i := range srcs {
		srcs[i] = &imm[3]
		if i >= int(o.ns) {
			continue
		}
		v := &o.src[i]
		switch {
		case v.not:
			return nil, nil, nil, false
		case v.reg >= 0:
			srcs[i] = (*[32]uint64)(r[int(v.reg)*32:][:32])
		default:
			for l := range imm[i] {
				imm[i][l] = v.imm
			}
			srcs[i] = &imm[i]
		}
	}
	return srcs[0], srcs[1], srcs[2], true
}
