package sim

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// Parallel block scheduling.
//
// Blocks are simulated by GOMAXPROCS workers, each block in a slot of its
// own (block state, counters, printf buffer, checker, memory-access log).
// Everything whose outcome depends on order is committed in block order, so
// a race-free kernel gives the same bytes, counters, findings, printf text,
// memory-model outcomes and timing feed whatever the number of workers:
//
//   - A block is the head when every block before it (in run order) has
//     been committed. Every block logs its memory accesses; at commit the log
//     and the block's Issues streams go, in block order, to one consumer
//     goroutine that calls Config.OnMemory and Config.Issues. So the cache
//     model's shared L2 and the timing model see exactly the serial order,
//     and they run beside the simulation (a pipeline) rather than inside it.
//     A block whose log fills waits to become the head and hands the part
//     logged so far to the consumer, so a log never exceeds maxLogAccesses.
//   - Instructions whose result depends on other blocks (global or generic
//     atom/red, and volatile/relaxed/acquire/release loads and stores outside
//     shared memory) wait until their block is the head. Global atomics
//     therefore execute in serial block order: their return values and
//     float sums are those of a serial run.
//   - Counters, statistics, printf text, failed asserts and check findings
//     are kept per block and merged at commit; Issues streams are handed to
//     Config.Issues at commit, in block order.
//   - The budget is checked against the exact count of the blocks before
//     (known at the head); a block that is not the head records its check
//     points and the first one past the budget is the error, as in a serial
//     run.
//   - The error of a launch is the one of the first failing block in run
//     order; later blocks are dropped.
//
// Checks that keep state across blocks (the global race check and the
// initialisation check of empty() buffers) are replayed in block order
// (parallel_check.go).

// errStopped ends a block that another block's error made useless.
var errStopped = &Error{Kind: Interrupted, PC: -1, Msg: "stopped", noWhere: true}

// maxLogAccesses bounds the logged accesses of a block (about 5 MB); a block
// whose log fills waits to become the head and hands the log to the consumer.
const maxLogAccesses = 1 << 14

// queueDepth bounds the consumer's queue (logs handed over and not yet
// replayed), so memory stays bounded when the observer is slower than the
// simulation.
const queueDepth = 8

// MaxBlockIssues bounds the warp-instructions of one block kept for
// Config.Issues; a block that issues more is handed over with nil streams,
// so that memory stays bounded per block (a spinning block once grew the
// log to gigabytes).
const MaxBlockIssues = 1 << 21

// maxCheckpoints bounds a block's recorded budget check points.
const maxCheckpoints = 1 << 16

// checkpoint is a budget check of a block that was not the head.
type checkpoint struct {
	threads int64
	warp    int
	pc      int32
}

// blockSlot is the state of one block being run, until it is committed.
type blockSlot struct {
	c        *coord
	l        *launcher // the blockSlot's own launcher state (counters, block, printf)
	pos      int       // position in run order
	lin      int       // linear block index
	head     bool      // every earlier block is committed
	done     bool
	err      error
	log      *accLog
	ckpts    []checkpoint
	ownCheck bool     // l.chk is the slot's own (merged at commit)
	cut      bool     // the block issued more than MaxBlockIssues: its streams are not kept
	gfind    findings // findings of the block's replayed global accesses (parallel_check.go)
}

// boundIssues drops the block's issue streams once they pass MaxBlockIssues.
func (s *blockSlot) boundIssues() {
	warps := s.l.blk.warps
	if s.l.grp != nil {
		warps = s.l.grp.warps
	}
	if s.cut {
		for _, w := range warps {
			w.issues = w.issues[:0]
		}
		return
	}
	n := 0
	for _, w := range warps {
		n += len(w.issues)
	}
	max := MaxBlockIssues
	if m := s.l.cfg.sched.issues; m > 0 {
		max = m
	}
	if n > max {
		s.cut = true
		for _, w := range warps {
			w.issues = nil
		}
	}
}

// coord coordinates the workers of one launch.
type coord struct {
	base      *launcher
	nblocks   int
	mu        sync.Mutex
	cond      *sync.Cond
	next      atomic.Int64 // position of the next block to commit
	committed atomic.Int64 // thread-instructions of the committed blocks
	dispatch  atomic.Int64 // next position to hand out
	stop      atomic.Bool  // a block failed: hand out no more
	commiting bool
	ring      []*blockSlot
	free      chan *blockSlot
	err       error
	onMem     func(*mem.Access) // the caller's memory observer
	gated     []bool            // per pc: must run at the head
	queue     chan consumed     // to the consumer; nil when nothing observes
	bufs      chan *accLog      // logs the consumer has replayed, for reuse
}

// consumed is one item of the consumer's queue: part of a block's log, or a
// committed block (its log, then its Issues streams).
type consumed struct {
	log  *accLog
	slot *blockSlot
}

// workers is how many blocks run at once.
func (l *launcher) workers() int {
	n := runtime.GOMAXPROCS(0)
	if l.cfg.Workers > 0 {
		n = l.cfg.Workers
	}
	if npos := l.positions(); n > npos {
		n = npos
	}
	return max(n, 1)
}

// anyUndef reports whether some allocation tracks undefined bytes.
func (h *heap) anyUndef() bool {
	for _, a := range h.allocs {
		if a.undef != nil {
			return true
		}
	}
	return false
}

// gatedOps marks the instructions that must run at the head: those whose
// outcome can depend on other blocks.
func gatedOps(p *program) []bool {
	g := make([]bool, len(p.info))
	for pc, in := range p.info {
		t := in.text
		local := strings.Contains(t, ".shared") || strings.Contains(t, ".local") || strings.Contains(t, ".param") || strings.Contains(t, ".const")
		switch {
		case strings.HasPrefix(t, "atom.") || strings.HasPrefix(t, "red."):
			g[pc] = !local
		case strings.HasPrefix(t, "ld.") || strings.HasPrefix(t, "st."):
			ordered := strings.Contains(t, ".volatile") || strings.Contains(t, ".relaxed") || strings.Contains(t, ".acquire") ||
				strings.Contains(t, ".release") || strings.Contains(t, ".mmio")
			g[pc] = ordered && !local
		}
	}
	return g
}

// runBlocks runs every block of the launch on the workers and merges their
// results into l. It returns the error of the first failing block.
func (l *launcher) runBlocks() error {
	w := l.workers()
	nslots := w
	if w > 1 {
		nslots = 2 * w
	}
	c := &coord{base: l, nblocks: l.positions(), ring: make([]*blockSlot, nslots), free: make(chan *blockSlot, nslots),
		onMem: l.cfg.OnMemory, gated: gatedOps(l.prog)}
	c.cond = sync.NewCond(&c.mu)
	for i := 0; i < nslots; i++ {
		c.free <- c.newSlot(w == 1 && !l.cl.grouped())
	}
	var consumer sync.WaitGroup
	var consumerPanic any
	if c.onMem != nil || l.cfg.Issues != nil {
		c.queue = make(chan consumed, queueDepth)
		c.bufs = make(chan *accLog, queueDepth+nslots)
		consumer.Add(1)
		go func() {
			defer consumer.Done()
			defer func() {
				if p := recover(); p != nil {
					consumerPanic = fmt.Sprintf("%v\n%.2000s", p, debug.Stack())
					c.stop.Store(true)
					for it := range c.queue {
						if it.slot != nil {
							c.free <- it.slot
						}
					}
				}
			}()
			c.consume()
		}()
	}
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.work()
		}()
	}
	wg.Wait()
	if c.queue != nil {
		close(c.queue)
		consumer.Wait()
		if consumerPanic != nil {
			panic(consumerPanic)
		}
	}
	return c.err
}

// consume replays, in block order, what the committed blocks logged.
func (c *coord) consume() {
	var a mem.Access
	for it := range c.queue {
		log := it.log
		if it.slot != nil {
			log = it.slot.log
		}
		if c.onMem != nil && log != nil {
			for i := range log.len() {
				log.at(i, &a)
				c.onMem(&a)
			}
		}
		if it.slot == nil {
			log.reset()
			select {
			case c.bufs <- log:
			default:
			}
			continue
		}
		s := it.slot
		if s.err == nil && c.base.cfg.Issues != nil {
			blocks := []*block{s.l.blk}
			if s.l.grp != nil {
				blocks = s.l.grp.blocks
			}
			for _, blk := range blocks {
				var streams [][]Issue
				if !s.cut {
					streams = make([][]Issue, len(blk.warps))
					for i, w := range blk.warps {
						streams[i] = w.issues
					}
				}
				asyncIssues(c.base.cfg, blk, s.cut)
				c.base.cfg.Issues(blk.lin, streams)
			}
		}
		s.log.reset()
		c.free <- s
	}
}

// newSlot prepares a blockSlot: its own block, warps and counters. With one
// worker the launch's checker is used directly.
func (c *coord) newSlot(shareCheck bool) *blockSlot {
	l := c.base
	sl := &launcher{}
	*sl = *l
	cfg := *l.cfg
	sl.cfg = &cfg
	sl.cnt = make([]counter, len(l.prog.ops))
	sl.stats = Stats{}
	sl.stdout, sl.stderr = strings.Builder{}, strings.Builder{}
	s := &blockSlot{c: c, l: sl}
	sl.par = s
	mk := sl.allocBlock
	sl.blk = mk()
	if l.cl.grouped() {
		sl.newGroup(sl.blk, mk)
		if l.chk != nil {
			sl.groupCheckers(s)
			return s
		}
	} else {
		sl.blk.single()
	}
	if l.chk != nil && !shareCheck {
		ck := l.chk.c
		ck.MaxFindings = 1 << 30 // the launch's cap is applied when merging
		sl.chk = newChecker(sl, ck)
		s.ownCheck = true
		if l.chk.global || (ck.Init && l.heap.anyUndef()) {
			sl.chk.glog = &globalLog{}
		}
	}
	return s
}

// work is one worker: it takes a free blockSlot, runs the next block in it and
// finishes it, until no block is left.
func (c *coord) work() {
	for {
		s := <-c.free
		if c.stop.Load() {
			c.free <- s
			return
		}
		pos := int(c.dispatch.Add(1) - 1)
		if pos >= c.nblocks {
			c.free <- s
			return
		}
		c.run(s, pos)
		c.finish(s)
	}
}

// run runs the block at position pos in slot s.
func (c *coord) run(s *blockSlot, pos int) {
	defer func() {
		if p := recover(); p != nil {
			s.err = &Error{Kind: Internal, PC: -1, Msg: "internal simulator error", noWhere: true,
				Cause: fmt.Sprintf("%v (please report this)\n%.2000s", p, debug.Stack())}
		}
	}()
	s.pos, s.err, s.head, s.done, s.cut = pos, nil, false, false, false
	s.log.reset()
	s.ckpts = s.ckpts[:0]
	s.lin = pos
	if c.base.cfg.Reverse {
		s.lin = c.nblocks - 1 - pos
	}
	l := s.l
	if s.ownCheck {
		if l.grp != nil && l.grp.chks != nil {
			for _, k := range l.grp.chks {
				resetBlockCheck(k, &s.gfind)
			}
			l.chk = l.grp.chks[0]
		} else {
			resetBlockCheck(l.chk, &s.gfind)
		}
	}
	clear(l.cnt)
	l.stats = Stats{}
	l.threads, l.predOn = 0, 0
	l.stdout.Reset()
	l.stderr.Reset()
	l.stdoutTruncated = false
	l.lastHit = nil
	if c.onMem != nil {
		l.cfg.OnMemory = s.logAccess
	}
	s.head = c.next.Load() == int64(pos)
	if l.grp != nil {
		s.err = l.runGroup(s.lin)
		return
	}
	s.err = l.runBlock(s.lin)
}

// logAccess records an access of the block for the consumer.
func (s *blockSlot) logAccess(a *mem.Access) {
	if s.log == nil {
		s.log = s.c.buf()
	}
	s.log.add(a)
	if s.log.len() >= maxLogAccesses {
		if s.l.grp != nil {
			s.cutGroup() // cluster.go: handed over interleaved, a group's accesses cannot be joined to its blocks' issues
		}
		if !s.becomeHead() {
			s.log.reset() // the block is dropped
			return
		}
		s.c.queue <- consumed{log: s.log}
		s.log = s.c.buf()
	}
}

// buf returns an empty log, reusing one the consumer is done with.
func (c *coord) buf() *accLog {
	select {
	case b := <-c.bufs:
		return b
	default:
		return &accLog{ents: make([]logAcc, 0, 1024)}
	}
}

// becomeHead waits until every earlier block is committed, then makes s the
// head. It returns false when the launch stopped first.
func (s *blockSlot) becomeHead() bool {
	if s.head {
		return true
	}
	c := s.c
	c.mu.Lock()
	for c.next.Load() != int64(s.pos) && !c.stop.Load() {
		c.cond.Wait()
	}
	c.mu.Unlock()
	if c.stop.Load() && c.next.Load() != int64(s.pos) {
		return false
	}
	s.head = true
	return true
}

// settle checks the recorded budget check points against the exact count of
// the earlier blocks (s must be the head, or being committed).
func (s *blockSlot) settle() error {
	l := s.l
	prefix := s.c.committed.Load()
	for _, ck := range s.ckpts {
		if prefix+ck.threads > l.budget {
			s.ckpts = s.ckpts[:0]
			return l.budgetError(l.warpAt(ck.warp), ck.pc)
		}
	}
	s.ckpts = s.ckpts[:0]
	return nil
}

// gate makes the block the head before an instruction whose outcome depends
// on other blocks.
func (l *launcher) gate(pc int32) error {
	s := l.par
	if !s.becomeHead() {
		return errStopped
	}
	return s.settle()
}

// finish marks s done and commits every block that can be, in order.
func (c *coord) finish(s *blockSlot) {
	c.mu.Lock()
	s.done = true
	c.ring[s.pos%len(c.ring)] = s
	if c.commiting {
		c.mu.Unlock()
		return
	}
	c.commiting = true
	for {
		n := c.next.Load()
		t := c.ring[n%int64(len(c.ring))]
		if t == nil || !t.done || int64(t.pos) != n {
			break
		}
		c.ring[n%int64(len(c.ring))] = nil
		t.done = false
		c.mu.Unlock()
		queued := c.commit(t) // t belongs to the consumer once queued
		c.mu.Lock()
		c.next.Add(1)
		c.cond.Broadcast()
		if !queued {
			t.log.reset()
			c.free <- t
		}
	}
	c.commiting = false
	c.mu.Unlock()
}

// commit merges a finished block into the launch, in block order, and
// queues it for the consumer (then it reports true: the consumer frees it).
func (c *coord) commit(s *blockSlot) bool {
	l, b := s.l, c.base
	if c.err != nil || s.err == errStopped {
		return false
	}
	if err := s.settle(); err != nil {
		s.err = err
	}
	for i := range l.cnt {
		t, d := &b.cnt[i], &l.cnt[i]
		t.warp += d.warp
		t.thread += d.thread
		t.br += d.br
		t.div += d.div
	}
	b.threads += l.threads
	b.predOn += l.predOn
	b.stats.Branches += l.stats.Branches
	b.stats.DivergentBranches += l.stats.DivergentBranches
	b.stats.Barriers += l.stats.Barriers
	b.stats.MemoryInstructions += l.stats.MemoryInstructions
	if l.stdout.Len() > 0 {
		if b.stdout.Len()+l.stdout.Len() <= maxStdout {
			b.stdout.WriteString(l.stdout.String())
		} else {
			b.stdoutTruncated = true
		}
	}
	b.stdoutTruncated = b.stdoutTruncated || l.stdoutTruncated
	if l.stderr.Len() > 0 && b.stderr.Len() < maxStdout {
		b.stderr.WriteString(l.stderr.String())
	}
	if s.ownCheck {
		if g := l.grp; g != nil && g.chks != nil {
			for i, k := range g.chks {
				l.chk, l.blk = k, g.blocks[i]
				if k.glog != nil {
					s.replayGlobal()
				}
				b.chk.mergeBlock(k, &s.gfind)
			}
		} else {
			if l.chk.glog != nil {
				s.replayGlobal()
			}
			b.chk.mergeBlock(l.chk, &s.gfind)
		}
	}
	c.committed.Add(l.threads)
	if s.err != nil {
		c.err = s.err
		c.mu.Lock()
		c.stop.Store(true)
		c.cond.Broadcast()
		c.mu.Unlock()
	} else {
		b.progress((s.pos+1)*b.cl.per, s.pos == c.nblocks-1)
	}
	if c.queue != nil {
		if l.grp != nil && !s.cut {
			s.sortGroupLog() // cluster.go: block by block, as the blocks' issue streams follow
		}
		c.queue <- consumed{slot: s}
		return true
	}
	return false
}

// budgetError is the error of a launch whose budget ran out at pc of w.
func (l *launcher) budgetError(w *warp, pc int32) error {
	return l.laneError(w, pc, 0, Budget, 0, fmt.Sprintf("budget of %d thread-instructions exhausted", l.budget),
		"raise it with %budget or shrink the launch")
}

// allocBlock allocates a block with its warps (registers, local and parameter
// space per lane), each initialised by l for the kernel.
func (l *launcher) allocBlock() *block {
	kfn := l.prog.kernel
	blk := &block{shared: make([]byte, l.prog.sharedSize), warps: make([]*warp, l.nwarps)}
	for i := range blk.warps {
		wp := &warp{id: i, gid: i, blk: blk, regs: make([]uint64, kfn.nregs*32)}
		n := l.nthreads - i*32
		if n >= 32 {
			wp.lanes = ^uint32(0)
		} else {
			wp.lanes = 1<<uint(n) - 1
		}
		for lane := 0; lane < 32; lane++ {
			wp.local[lane] = make([]byte, kfn.localSize)
			wp.params[lane] = make([]byte, kfn.paramSize)
		}
		blk.warps[i] = wp
		l.initWarp(wp, kfn)
	}
	return blk
}
