package sim

import "math/bits"

// pcDead marks a SIMT stack entry whose lanes only reconverge at exit: it is
// never executed, only emptied as its lanes exit or return.
const pcDead = -2

// entry is one SIMT stack entry.
type entry struct {
	pc, rpc int32
	mask    uint32
	park    uint8 // barrier number + 1 while the lanes wait at a barrier another path of the warp has not reached; 0 otherwise
}

// frame is one active device-function call of a warp.
type frame struct {
	fn        *function // the callee
	caller    *function
	base      int // index in the SIMT stack of the callee's first entry
	regBase   int // caller's
	localBase int // caller's
	paramBase int // caller's
	mask      uint32
	call      *callInfo
}

// pendingRed is a bar.red result a waiting warp receives on release.
type pendingRed struct {
	active bool
	dst    int32
	dmask  uint64
	lanes  uint32
	kind   uint8
}

// warp is the state of one warp: registers of all its frames, SIMT stack,
// per-lane local and param memory.
type warp struct {
	id        int
	blk       *block
	regs      []uint64 // frames stacked; lanes of a register together
	regBase   int
	fn        *function
	stack     []entry
	frames    []frame
	lanes     uint32 // lanes that exist (a partial last warp has fewer)
	exited    uint32
	waiting   bool
	done      bool
	barPC     int32 // pc of the barrier the warp waits at
	barID     int
	barMask   uint32 // lanes that arrived at that barrier
	red       pendingRed
	cc        [32]uint8
	local     [32][]byte
	params    [32][]byte
	localBase int
	paramBase int
	issued    int64
	gid       int        // index among the warps of its co-scheduled group (= id when blocks run alone)
	cwait     bool       // waiting at a cluster barrier
	cwaitMask uint32     // the lanes waiting there
	carr, cwt [32]uint32 // per lane: cluster barrier arrivals and completed waits
	traced    bool
	issues    []Issue // what the warp issued in this block, when Config.Issues is set
	wgmmaN    int32   // wgmma.mma_async executed in this block (wgmma.go)
	wgmmaPC   int32   // pc of the last one

	async []AsyncRec // its mbarrier and bulk-copy effects, when Config.Async is set (bulk.go)
}

// top returns the current pc, reconvergence pc and active mask.
func (w *warp) top() (pc, rpc int32, active uint32) {
	t := &w.stack[len(w.stack)-1]
	return t.pc, t.rpc, t.mask
}

// removeLanes takes lanes out of the stack entries from index from upward.
func (w *warp) removeLanes(from int, lanes uint32) {
	for i := from; i < len(w.stack); i++ {
		w.stack[i].mask &^= lanes
	}
}

// threadIndex returns the 3-D thread index of a lane.
func threadIndex(warpID, lane int, block [3]int) [3]int {
	t := warpID*32 + lane
	return [3]int{t % block[0], (t / block[0]) % block[1], t / (block[0] * block[1])}
}

// firstLane is the lowest set lane of m (0 when m is 0).
func firstLane(m uint32) int {
	if m == 0 {
		return 0
	}
	return bits.TrailingZeros32(m)
}

// grow returns b with at least n bytes (contents kept).
func grow(b []byte, n int) []byte {
	if len(b) >= n {
		return b
	}
	nb := make([]byte, n)
	copy(nb, b)
	return nb
}
