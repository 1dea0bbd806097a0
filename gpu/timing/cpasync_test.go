package timing

import (
	"context"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
)

// cpAsyncRun times one warp of the given PTX body (each instruction once, in order) and
// returns the cycle each position issued at.
func cpAsyncRun(t *testing.T, body ...string) []int64 {
	t.Helper()
	p := kernel(t, "sm_90", body...)
	issued := make([]int64, len(body))
	m, err := New(p, Config{NumSMs: 1, BlocksPerSM: 1, Probe: func(_, _, pos int, c int64) {
		if pos < len(issued) {
			issued[pos] = c
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	s := WarpStream{}
	for i := range body {
		s = append(s, Event{PC: int32(i), Active: 1})
	}
	if err := m.AddBlockAccesses(context.Background(), []WarpStream{s}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	return issued
}

// TestCpAsyncGroups: cp.async (LDGSTS) completes with an L2 hit's latency and
// cp.async.wait_group N holds the warp until all but the N newest committed groups are
// complete: wait_group 1 after two groups waits for the first only, wait_group 0 and
// wait_all for both, and a wait with no pending group is not held.
func TestCpAsyncGroups(t *testing.T) {
	tab, err := latency.For("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	ld := int64(tab.Mem.L2Hit)
	if ld < 100 {
		t.Fatalf("L2 hit latency %d: the test needs a long one", ld)
	}
	pad := []string{}
	for range 64 {
		pad = append(pad, "add.f32 %f1, %f2, %f3;")
	}
	group := func(wait string) []string {
		b := []string{"cp.async.ca.shared.global [%r1], [%rd1], 16;", "cp.async.commit_group;"}
		b = append(b, pad...) // the second group issues about 64 cycles after the first
		b = append(b, "cp.async.ca.shared.global [%r2], [%rd2], 16;", "cp.async.commit_group;", wait, "add.f32 %f4, %f2, %f3;")
		return b
	}
	last := func(at []int64) int64 { return at[len(at)-1] }
	first := cpAsyncRun(t, group("cp.async.wait_group 1;")...)
	second := first[len(pad)+2]
	if a := last(first); a < first[0]+ld || a >= second+ld {
		t.Errorf("wait_group 1: add at %d, want between the first group's completion (%d) and the second's (%d)", a, first[0]+ld, second+ld)
	}
	for _, w := range []string{"cp.async.wait_group 0;", "cp.async.wait_all;"} {
		both := cpAsyncRun(t, group(w)...)
		if a := last(both); a < both[len(pad)+2]+ld {
			t.Errorf("%s: add at %d, want after the second group's completion (%d)", w, a, both[len(pad)+2]+ld)
		}
	}
	none := cpAsyncRun(t, "cp.async.wait_group 0;", "add.f32 %f4, %f2, %f3;")
	if none[1] > 50 {
		t.Errorf("wait_group with no group: add at %d, want at instruction speed", none[1])
	}
}
