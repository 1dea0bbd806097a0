package timing

import (
	"context"
	"math"
	"testing"
)

// clusterProgram: a long dependent chain (the slow warp's work), a cluster barrier, an add
// after it; a DSMEM load and a dependent add; a peer bulk copy, an mbarrier wait.
func clusterProgram(t *testing.T) *Program {
	return kernel(t, "sm_90",
		"mul.lo.s32 %r1, %r1, %r2;",                                 // 0
		"barrier.cluster.arrive.aligned;",                           // 1
		"barrier.cluster.wait.aligned;",                             // 2
		"add.s32 %r3, %r3, 1;",                                      // 3
		"ld.shared::cluster.u32 %r4, [%r5];",                        // 4
		"add.s32 %r6, %r4, 1;",                                      // 5
		"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r7], 1024;", // 6
		"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r8], [%rd1], 1024, [%r9];", // 7
		"mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r7], %r10;",                                    // 8
	)
}

type clusterRun struct {
	m     *Model
	at    map[[3]int]int64 // (block, warp, pos) -> issue cycle
	first []int64          // per block: its first issue
}

func newClusterRun(t *testing.T, p *Program, cfg Config) *clusterRun {
	t.Helper()
	r := &clusterRun{at: map[[3]int]int64{}}
	cfg.Probe = func(b, w, pos int, c int64) {
		r.at[[3]int{b, w, pos}] = c
		for len(r.first) <= b {
			r.first = append(r.first, math.MaxInt64)
		}
		r.first[b] = min(r.first[b], c)
	}
	m, err := New(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.m = m
	return r
}

func rep(pc int32, n int) WarpStream {
	s := WarpStream{}
	for i := 0; i < n; i++ {
		s = append(s, Event{PC: pc, Active: 1})
	}
	return s
}

// TestClusterBarrierWaitsForPeers: barrier.cluster.wait releases a block's warps only
// after the slow warp of the other block of its cluster has arrived (plus the measured
// release latency); the same streams without ClusterBlock wait for the own block only.
func TestClusterBarrierWaitsForPeers(t *testing.T) {
	p := clusterProgram(t)
	fast := WarpStream{{PC: 1, Active: 1}, {PC: 2, Active: 1}, {PC: 3, Active: 1}}
	slow := append(rep(0, 200), fast...)
	run := func(clustered bool) (*clusterRun, *Result) {
		r := newClusterRun(t, p, Config{NumSMs: 4, BlocksPerSM: 1})
		for b, ws := range [][]WarpStream{{fast, fast}, {slow, fast}} {
			if clustered {
				r.m.ClusterBlock(0, 2)
			}
			if err := r.m.AddBlock(context.Background(), ws); err != nil {
				t.Fatal(err)
			}
			_ = b
		}
		res, err := r.m.Finish(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return r, res
	}
	r, res := run(true)
	slowArr := r.at[[3]int{1, 0, 200}] // block 1's slow warp arrives
	after := r.at[[3]int{0, 0, 2}]     // block 0's add after the wait
	if slowArr < 150*4 {
		t.Fatalf("the slow warp arrived at %d: the chain did not take its latency", slowArr)
	}
	if after < slowArr+clusterBarRelease {
		t.Errorf("block 0 passed the cluster barrier at %d, before the peer's last arrival (%d) + %d", after, slowArr, clusterBarRelease)
	}
	if after > slowArr+clusterBarRelease+50 {
		t.Errorf("block 0 passed the cluster barrier at %d, long after the peer's last arrival (%d) + %d", after, slowArr, clusterBarRelease)
	}
	if res.States[Barrier] < 2*(slowArr-10) {
		t.Errorf("barrier stall %d warp-cycles: block 0's two warps waited about %d each", res.States[Barrier], slowArr)
	}
	if res.AsyncForced != 0 {
		t.Errorf("%d cluster waits forced", res.AsyncForced)
	}
	r0, _ := run(false)
	if a := r0.at[[3]int{0, 0, 2}]; a > clusterBarRelease+100 {
		t.Errorf("without clusters block 0 passed its barrier at %d: it waited for block 1", a)
	}
}

// TestClusterCoDispatch: with one slot per SM taken, a cluster of two waits until two
// slots are free and its blocks start in the same cycle; an unclustered block takes the
// first free slot.
func TestClusterCoDispatch(t *testing.T) {
	p := clusterProgram(t)
	r := newClusterRun(t, p, Config{NumSMs: 2, BlocksPerSM: 1, RefillCycles: -1, DispatchMilli: -1, TimelineWarps: 4})
	ctx := context.Background()
	add := func(cl bool, ws ...WarpStream) {
		if cl {
			r.m.ClusterBlock(1, 2)
		}
		if err := r.m.AddBlock(ctx, ws); err != nil {
			t.Fatal(err)
		}
	}
	add(false, rep(0, 50))  // block 0: short
	add(false, rep(0, 400)) // block 1: long
	add(true, rep(3, 2))    // blocks 2 and 3: a cluster
	add(true, rep(3, 2))
	res, err := r.m.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var start [4]int64
	for _, tl := range res.Timelines {
		start[tl.Block] = tl.First
	}
	if start[2] != start[3] || start[2] == 0 {
		t.Errorf("the cluster's blocks were dispatched at %d and %d", start[2], start[3])
	}
	end1 := r.at[[3]int{1, 0, 399}]
	if start[2] < end1 {
		t.Errorf("the cluster started at %d, before block 1 freed the second slot (%d)", start[2], end1)
	}
}

// TestClusterBarrierExit: a warp that arrives and exits without waiting is taken back from
// the count (as the functional simulator does): the others are not held forever.
func TestClusterBarrierExit(t *testing.T) {
	p := clusterProgram(t)
	r := newClusterRun(t, p, Config{NumSMs: 2, BlocksPerSM: 1})
	ctx := context.Background()
	for _, ws := range [][]WarpStream{{{{PC: 1, Active: 1}}, {{PC: 1, Active: 1}, {PC: 2, Active: 1}, {PC: 3, Active: 1}}}, {append(rep(0, 100), WarpStream{{PC: 1, Active: 1}, {PC: 2, Active: 1}}...)}} {
		r.m.ClusterBlock(0, 2)
		if err := r.m.AddBlock(ctx, ws); err != nil {
			t.Fatal(err)
		}
	}
	res, err := r.m.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.AsyncForced != 0 {
		t.Errorf("%d waits forced", res.AsyncForced)
	}
	if a, arr := r.at[[3]int{0, 1, 2}], r.at[[3]int{1, 0, 100}]; a < arr+clusterBarRelease {
		t.Errorf("block 0 passed at %d, before block 1's arrival at %d + %d", a, arr, clusterBarRelease)
	}
}

// TestDSMEMEvent: a load whose event reached another block's shared memory (MemDSMEM)
// takes dsmemLatency; the same load of the own block's (MemShared) the shared latency.
func TestDSMEMEvent(t *testing.T) {
	p := clusterProgram(t)
	for _, c := range []struct {
		mem      MemClass
		min, max int64
	}{{MemDSMEM, dsmemLatency, dsmemLatency + 20}, {MemShared, 10, 60}} {
		r := newClusterRun(t, p, Config{NumSMs: 1, BlocksPerSM: 1})
		if err := r.m.AddBlock(context.Background(), []WarpStream{{{PC: 4, Active: 1, Mem: c.mem, Sectors: 1}, {PC: 5, Active: 1}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.m.Finish(context.Background()); err != nil {
			t.Fatal(err)
		}
		if d := r.at[[3]int{0, 0, 1}] - r.at[[3]int{0, 0, 0}]; d < c.min || d > c.max {
			t.Errorf("%v: the dependent add issued %d cycles after the load, want %d to %d", c.mem, d, c.min, c.max)
		}
	}
}

// TestClusterPeerCopy: a bulk copy into the other block's shared memory completing on its
// mbarrier (AsyncOp.Peer) holds that block's wait until the bytes land.
func TestClusterPeerCopy(t *testing.T) {
	p := clusterProgram(t)
	r := newClusterRun(t, p, Config{NumSMs: 2, BlocksPerSM: 1})
	ctx := context.Background()
	// block 0 copies into block 1; block 1 arrives with expect_tx and waits
	r.m.ClusterBlock(0, 2)
	if err := r.m.AddBlockAsync(ctx, []WarpStream{{{PC: 7, Active: 1}}}, nil, []AsyncOp{{Warp: 0, Pos: 0, Kind: AsyncLoad, Bar: 0, Phase: 0, Bytes: 1024, Peer: 2}}); err != nil {
		t.Fatal(err)
	}
	r.m.ClusterBlock(0, 2)
	if err := r.m.AddBlockAsync(ctx, []WarpStream{{{PC: 6, Active: 1}, {PC: 8, Active: 1}, {PC: 3, Active: 1}}}, nil,
		[]AsyncOp{{Warp: 0, Pos: 0, Kind: AsyncArrive, Bar: 0, Phase: 0}, {Warp: 0, Pos: 1, Kind: AsyncWait, Bar: 0, Phase: 0}}); err != nil {
		t.Fatal(err)
	}
	res, err := r.m.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	land := int64(math.Ceil(1024/tmaBytesPerCycle)) + tmaLatency
	if a := r.at[[3]int{1, 0, 2}]; a < land {
		t.Errorf("block 1 passed its wait at %d, before the peer's copy landed (%d)", a, land)
	}
	if res.AsyncForced != 0 {
		t.Errorf("%d waits forced", res.AsyncForced)
	}
}
